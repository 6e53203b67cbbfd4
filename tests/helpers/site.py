"""A built site read as a reader reads it: its files, each page parsed once (standard library only),
the main content of a page, an entry or a callout by its hook, and where a link lands."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from html_dom import Node, parse

TOPIC = "inference"


@dataclass
class Site:
    """The site built from the project at ``project`` into ``dir``; ``build`` is the build's process
    when the test ran it and means to read its log."""

    project: Path
    dir: Path
    build: subprocess.CompletedProcess | None = None
    _raw: dict[str, str] = field(default_factory=dict, repr=False)
    _dom: dict[str, Node] = field(default_factory=dict, repr=False)
    _articles: dict[str, Node] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ files, by their path in the site

    def file(self, rel: str) -> Path:
        return self.dir / rel

    def raw(self, rel: str) -> str:
        """The text of the file at ``rel`` (``inference/register/index.html``), read once."""
        if rel not in self._raw:
            path = self.file(rel)
            assert path.is_file(), f"{rel} is missing from the built site"
            self._raw[rel] = path.read_text(encoding="utf-8")
        return self._raw[rel]

    def dom(self, rel: str) -> Node:
        """The whole file at ``rel`` parsed, once."""
        if rel not in self._dom:
            self._dom[rel] = parse(self.raw(rel))
        return self._dom[rel]

    def html_files(self) -> list[str]:
        return sorted(p.relative_to(self.dir).as_posix() for p in self.dir.rglob("*.html"))

    def resolve(self, page: str, href: str) -> tuple[str | None, str]:
        """(site-relative file the link lands on, or None if there is none; fragment)."""
        url = urljoin("http://site.invalid/" + page, href)
        parts = urlsplit(url)
        path = unquote(parts.path).lstrip("/")
        candidates = [path + "index.html"] if path.endswith("/") or not path else [path, path + "/index.html"]
        for candidate in candidates:
            if self.file(candidate).is_file():
                return candidate, unquote(parts.fragment)
        return None, unquote(parts.fragment)

    def has_anchor(self, rel: str, anchor: str) -> bool:
        return bool(
            self.dom(rel).find_all(
                lambda n: n.attrs.get("id") == anchor or (n.tag == "a" and n.attrs.get("name") == anchor)
            )
        )

    def anchor(self, rel: str, anchor: str) -> Node:
        found = self.dom(rel).find_all(lambda n: n.attrs.get("id") == anchor)
        assert found, f"{rel} has no element with id={anchor!r}"
        return found[0]

    # ------------------------------------------------------------------ pages, by their URL path

    def page(self, path: str) -> Node:
        """The page at ``path`` (``inference/register``), parsed once; its article only (exactly one)."""
        if path not in self._articles:
            rel = f"{path}/index.html" if path else "index.html"
            (article,) = [n for n in self.dom(rel).all("article") if "md-content__inner" in n.classes]
            self._articles[path] = article
        return self._articles[path]

    def chapters(self, topic: str = TOPIC) -> list[str]:
        """The topic's current chapter pages (``inference/1`` …), archives aside."""
        return sorted(
            f"{topic}/{p.parent.name}" for p in (self.dir / topic).glob("*/index.html") if p.parent.name.isdigit()
        )

    def entry(self, entry_id: str, topic: str = TOPIC) -> Node:
        """The entry on its chapter page (exactly one place on the current pages)."""
        found = [
            n for c in self.chapters(topic) for n in self.page(c).all("section", **{"data-digest-entry": entry_id})
        ]
        assert len(found) == 1, f"entry-{entry_id} is on {len(found)} chapter pages"
        return found[0]

    def callout(self, contradiction_id: str, topic: str = TOPIC) -> Node:
        """The contradiction's callout on the register."""
        return self.page(f"{topic}/register").one("details", data_digest_contradiction=contradiction_id)
