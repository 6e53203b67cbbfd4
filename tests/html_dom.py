"""A tiny DOM on Python's html.parser, for the end-to-end tests that read the built site as a
reader would (text without script and style, attributes as hooks)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
NO_TEXT = {"script", "style", "template"}


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def all(self, tag: str | None = None, **attrs: str | None) -> list[Node]:
        """Descendants (self included) with that tag and those attributes (None: present, any value);
        ``class_`` matches one class among several."""
        want = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        out = []
        for n in self.iter():
            if tag is not None and n.tag != tag:
                continue
            ok = True
            for k, v in want.items():
                if k == "class":
                    ok = v in n.classes
                elif v is None:
                    ok = k in n.attrs
                else:
                    ok = n.attrs.get(k) == v
                if not ok:
                    break
            if ok:
                out.append(n)
        return out

    def one(self, tag: str | None = None, **attrs: str | None) -> Node:
        found = self.all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} <{tag} {attrs}>"
        return found[0]

    def text(self, skip: Callable[[Node], bool] | None = None) -> str:
        out: list[str] = []

        def walk(node: Node) -> None:
            if node.tag in NO_TEXT or (skip is not None and skip(node)):
                return
            for child in node.children:
                if isinstance(child, str):
                    out.append(child)
                else:
                    walk(child)

        walk(self)
        return norm("".join(out))

    def find_all(self, pred: Callable[[Node], bool]) -> list[Node]:
        return [n for n in self.iter() if pred(n)]

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1]))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(text: str) -> Node:
    tree = _Tree()
    tree.feed(text)
    tree.close()
    return tree.root


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
