"""A brief kept as reStructuredText (a Sphinx site's source), rewritten line by line into the Markdown
the readers read.

reStructuredText (https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html) marks what the
team's Markdown marks otherwise, and none of its marks are the writer's meaning:

* a **section title** is a line underlined (and perhaps overlined) with one punctuation character
  repeated (``一、今日增量`` over ``*****``); its level is the order in which the file first uses that
  adornment.  It becomes a Markdown heading of that level, the adornment lines blank;
* a **field list** line ``:出自: …`` is a labelled line: 「出自：…」 in the header (the byline 「作者：…」),
  the bold label 「**出自**：…」 below it (read as any label is: a known one, or an unknown one by its
  characters, what it holds or its place, and marked); the field's indented lines (its points) lose
  their indent;
* a **directive** ``.. name:: argument`` with its indented body: an admonition (``.. warning:: W-1 ·
  …``) is a heading one level below the section it sits in, its body that heading's text; a
  ``.. todo::`` is a list line; a ``.. rubric::`` heads what follows like an admonition (「已登记各条的状态」
  ends the contradiction above it); a ``.. list-table::`` is a pipe table, one line a row, each row on its
  first line's number; other directives keep their argument and body as text.  Their options
  (``:header-rows: 1``) and comments (``.. text``) are blank;
* **inline markup**: a role ``:ref:`前天蘅 第 4 件 <b1217-i4>``` is its text (the anchor is the site's,
  not the writer's words), ````literal```` is Markdown's ```literal```, a link ```text <url>`_`` is
  「text（url）」.

Only a file with a directive or a role is read as reStructuredText (a Markdown file underlines its
titles too).  Every line keeps its number, so findings point at the file as written.
"""

from __future__ import annotations

import re

from .common import Line

ADORNMENT = re.compile(r"^(?P<char>[=\-`:'\"~^_*+#<>.])(?P=char){2,}\s*$")
DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\.\s+(?P<name>[\w-]+)::(?:\s+(?P<arg>.*))?$")
COMMENT = re.compile(r"^(?P<indent>[ \t]*)\.\.(?:\s|$)")
FIELD = re.compile(r"^(?P<indent>[ \t]*):(?P<key>[^:\s`][^:`]{0,23}):(?:\s+(?P<value>.*))?$")
ROLE = re.compile(r":[\w.-]+:`(?P<text>[^`]*?)\s*(?:<(?P<target>[^<>`]*)>)?`")
LITERAL = re.compile(r"``(?P<code>[^`]+)``")
LINK = re.compile(r"`(?P<text>[^`<]+?)\s*<(?P<url>[^<>`]+)>`__?")
ROW = re.compile(r"^(?P<indent>\s*)\*\s+-\s*(?P<cell>.*)$")
CELL = re.compile(r"^(?P<indent>\s*)-\s*(?P<cell>.*)$")
ADMONITIONS = {
    "admonition",
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "note",
    "seealso",
    "tip",
    "warning",
    "versionadded",
    "versionchanged",
    "deprecated",
}


def is_rst(lines: list[Line]) -> bool:
    """A reStructuredText file: a directive (``.. name::``) or a role (``:ref:`…```)."""
    return any(DIRECTIVE.match(x.text) or ROLE.search(x.text) for x in lines)


def from_rst(lines: list[Line]) -> list[Line]:
    """The file as Markdown (see the module), or as it is when it is no reStructuredText."""
    if not is_rst(lines):
        return lines
    return _Reader(lines).read()


class _Reader:
    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.out: list[Line] = []
        self.styles: list[tuple[str, bool]] = []
        self.level = 0
        """The level of the last section title: an admonition's heading is one below it."""

    def read(self) -> list[Line]:
        i = 0
        while i < len(self.lines):
            i = self._one(i)
        return self.out

    def _emit(self, i: int, text: str) -> None:
        self.out.append(Line(self.lines[i].number, text))

    def _one(self, i: int) -> int:
        text = self.lines[i].text
        title = self._title(i)
        if title is not None:  # its overline, if any, was a line of its own (blank, below)
            self._emit(i, "#" * title + " " + _inline(text.strip()))
            self._emit(i + 1, "")
            self.level = title
            return i + 2
        if m := DIRECTIVE.match(text):
            return self._directive(i, m)
        if m := COMMENT.match(text):
            end = self._body_end(i, len(m["indent"]))
            for j in range(i, end):
                self._emit(j, "")
            return end
        if m := FIELD.match(text):
            key, value = m["key"].strip(), _inline(m["value"] or "")
            label = f"**{key}**" if self.level > 1 else key
            self._emit(i, f"{m['indent']}{label}：{value}".rstrip())
            end = self._body_end(i, len(m["indent"]))
            self._dedented(i + 1, end)
            return end
        if ADORNMENT.match(text) and not text.strip().startswith(".."):
            self._emit(i, "")  # a transition, or the overline of the title below (see above)
            return i + 1
        self._emit(i, _inline(text))
        return i + 1

    def _title(self, i: int) -> int | None:
        """The level of the section title on line ``i``, if it is one."""
        text = self.lines[i].text
        if not text.strip() or text[:1].isspace() or i + 1 >= len(self.lines) or ADORNMENT.match(text):
            return None
        under = ADORNMENT.match(self.lines[i + 1].text)
        if under is None:
            return None
        above = ADORNMENT.match(self.lines[i - 1].text) if i > 0 else None
        overlined = above is not None and above["char"] == under["char"]
        style = (under["char"], overlined)
        if style not in self.styles:
            self.styles.append(style)
        return self.styles.index(style) + 1

    def _body_end(self, i: int, indent: int) -> int:
        """The line after the indented body of the construct on line ``i`` (blank lines inside it
        included, the blank lines after it not)."""
        end, j = i + 1, i + 1
        while j < len(self.lines):
            text = self.lines[j].text
            if text.strip():
                if len(text) - len(text.lstrip()) <= indent:
                    break
                end = j + 1
            j += 1
        return end

    def _dedented(self, start: int, end: int) -> None:
        body = [self.lines[j].text for j in range(start, end)]
        depth = min((len(t) - len(t.lstrip()) for t in body if t.strip()), default=0)
        for j, t in zip(range(start, end), body, strict=True):
            self._emit(j, _inline(t[depth:]) if t.strip() else "")

    def _directive(self, i: int, m: re.Match[str]) -> int:
        name, arg = m["name"].lower(), _inline((m["arg"] or "").strip())
        end = self._body_end(i, len(m["indent"]))
        body = i + 1
        while body < end and (FIELD.match(self.lines[body].text) or not self.lines[body].text.strip()):
            body += 1  # the directive's options, and the blank line after them
        if name == "list-table":
            self._table(i, body, end)
            return end
        if name in ADMONITIONS or name == "rubric":
            self._emit(i, "#" * min(self.level + 1, 6) + " " + arg if arg else "")
        elif name == "todo":
            self._emit(i, f"- {arg}" if arg else "")
        else:
            self._emit(i, arg)
        for j in range(i + 1, body):
            self._emit(j, "")
        self._dedented(body, end)
        return end

    def _table(self, i: int, start: int, end: int) -> None:
        """A list table as a pipe table: each row on its first line, the rule after the header rows
        (``:header-rows:``), the table's other lines left out so that its rows stay together."""
        header = 0
        for j in range(i + 1, start):
            if (m := FIELD.match(self.lines[j].text)) and m["key"].strip() == "header-rows":
                header = int(m["value"]) if (m["value"] or "").strip().isdigit() else 0
        rows: list[tuple[int, list[str]]] = []
        for j in range(start, end):
            text = self.lines[j].text
            if m := ROW.match(text):
                rows.append((j, [_inline(m["cell"].strip())]))
            elif rows and (m := CELL.match(text)):
                rows[-1][1].append(_inline(m["cell"].strip()))
            elif rows and text.strip():
                rows[-1][1][-1] = (rows[-1][1][-1] + " " + _inline(text.strip())).strip()
        for n, (j, cells) in enumerate(rows):
            self._emit(j, "| " + " | ".join(c.replace("|", "｜") for c in cells) + " |")
            if n + 1 == header:
                self.out.append(Line(self.lines[j].number, "|" + "---|" * len(cells)))


def _inline(text: str) -> str:
    text = ROLE.sub(lambda m: m["text"] or m["target"] or "", text)
    text = LINK.sub(lambda m: f"{m['text']}（{m['url']}）", text)
    return LITERAL.sub(lambda m: f"`{m['code']}`", text)
