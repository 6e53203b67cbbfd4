"""A brief a writer keeps in Word and converts with pandoc (``pandoc -t markdown brief.docx``), rewritten
into the Markdown the readers read.

Pandoc's Markdown (https://pandoc.org/MANUAL.html#pandocs-markdown) has things the team's Markdown has
not, none of them the writer's meaning:

* **grid tables**, drawn with ``+---+---+`` rules, a ``+===+===+`` rule under the header, and cells that
  run over several lines (Word's tables come out so when a cell holds more than a line).  Each becomes a
  pipe table, a cell's lines joined, every row keeping its first line's number; so a table is read as
  any other of its part is.  A table of two columns whose left cells are short words and that has no
  header (「出处 | …」, 「证据边界 | …」: Word's way to lay out a form) is the labelled lines a writer
  with no table writes, 「**出处**：…」;
* **footnotes**: a reference ``[^1]`` and, further down, its text ``[^1]: …`` (continued by indented
  lines).  The text is put where it is referred to, 「（注：…）」, and the definition's lines are blank:
  nothing of it is lost, and it is read where the writer pointed at it;
* **escapes** of punctuation Markdown would read (``\\*``, ``\\[``, ``\\~``, ``\\|``), a backslash that ends a
  line (a hard line break), and attributes in braces (``[text]{.underline}``, ``# Heading {#id}``):
  the characters as written, without them.

Only a file that shows pandoc's hand (a grid table's rule, a footnote's definition, an attribute in
braces) is rewritten: elsewhere a backslash may be the writer's.  Every line keeps its number, so
findings point at the file as written.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from .common import Line, join_lines

GRID_RULE = re.compile(r"^\s*\+(?:[:=\-]+\+)+\s*$")
"""A grid table's rule: ``+----+----+``, ``+====+====+`` (under the header), ``+:---+---:+``."""
GRID_ROW = re.compile(r"^\s*\|.*\|\s*$")
FOOTNOTE_DEFINITION = re.compile(r"^\[\^(?P<key>[^\]\s]+)\]:\s?(?P<text>.*)$")
FOOTNOTE_REFERENCE = re.compile(r"\[\^(?P<key>[^\]\s]+)\](?!:)")
ATTRIBUTE = re.compile(r"\{[#.=][^{}\n]{0,80}\}")
"""``{.underline}``, ``{#id .class}``, ``{=html}``: pandoc's attributes."""
SPAN = re.compile(r"\[(?P<text>[^\[\]\n]*)\]\{[#.][^{}\n]{0,80}\}")
ESCAPE = re.compile(r"\\(?P<char>[\\`*_{}\[\]()#+\-.!|~^<>'\"$@=:;,&%/])")
LABEL_CELL = re.compile(r"[^\s。；;，,]{1,10}")
"""A form's left cell: a few characters, no sentence (「出处」, 「证据边界」, 「Relation」)."""


def is_pandoc(lines: list[Line]) -> bool:
    """Whether the file shows pandoc's hand: a grid table, a footnote's definition, an attribute."""
    return any(GRID_RULE.match(x.text) or FOOTNOTE_DEFINITION.match(x.text) or SPAN.search(x.text) for x in lines)


def from_pandoc(lines: list[Line]) -> list[Line]:
    """The file as the team's Markdown (see the module), or as it is when pandoc did not write it."""
    if not is_pandoc(lines):
        return lines
    lines = _footnotes(_grid_tables(lines))
    return [Line(x.number, _plain(x.text)) for x in lines]


def _plain(text: str) -> str:
    text = SPAN.sub(r"\g<text>", text)
    text = ATTRIBUTE.sub("", text)
    text = re.sub(r"(?<!\\)\\$", "", text)  # a hard line break
    return ESCAPE.sub(r"\g<char>", text).rstrip()


# --------------------------------------------------------------------------- grid tables


def _grid_tables(lines: list[Line]) -> list[Line]:
    out: list[Line] = []
    i = 0
    while i < len(lines):
        if not GRID_RULE.match(lines[i].text):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and (GRID_RULE.match(lines[j].text) or GRID_ROW.match(lines[j].text)):
            j += 1
        out.extend(_table(lines[i:j]))
        i = j
    return out


def _table(lines: list[Line]) -> list[Line]:
    """One grid table (its lines, rules included) as pipe-table lines, or labelled lines (a form)."""
    rule = lines[0].text
    bounds = [k for k, char in enumerate(rule) if char == "+"]
    rows: list[tuple[int, list[str]]] = []
    header_rows = 0
    current: tuple[int, list[list[str]]] | None = None
    for line in lines:
        if GRID_RULE.match(line.text):
            if current is not None:
                rows.append((current[0], [_cell(parts) for parts in current[1]]))
                current = None
            if "=" in line.text:
                header_rows = len(rows)
            continue
        if current is None:
            current = (line.number, [[] for _ in bounds[1:]])
        for k, text in enumerate(_cells_of(line.text, bounds)):
            current[1][k].append(text)
    if current is not None:
        rows.append((current[0], [_cell(parts) for parts in current[1]]))
    if not rows:
        return [Line(lines[0].number, "")]
    if header_rows == 0 and len(bounds) == 3 and all(LABEL_CELL.fullmatch(cells[0]) for _, cells in rows):
        out = [Line(number, f"**{cells[0]}**：{cells[1]}") for number, cells in rows]
    else:
        header = [
            " ".join(c for c in column if c) for column in zip(*(cells for _, cells in rows[:header_rows]), strict=True)
        ]
        header = header or [""] * (len(bounds) - 1)  # no header: an empty one, as a pipe table needs one
        out = [Line(lines[0].number, _pipe(header)), Line(lines[0].number, _pipe(["---"] * len(header)))]
        out += [Line(number, _pipe(cells)) for number, cells in rows[header_rows:]]
    return [*out, Line(lines[-1].number, "")]


def _cells_of(row: str, bounds: list[int]) -> list[str]:
    """A grid row's cells: cut at the 「|」 that stand where the rule has its 「+」.  Pandoc lines its
    columns up by display width (a Chinese character is two columns wide), so columns are counted so;
    a row that does not line up is cut at every 「|」 not escaped."""
    wanted = set(bounds)
    cuts, column = [], 0
    for k, char in enumerate(row):
        if char == "|" and column in wanted:
            cuts.append(k)
        column += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    if len(cuts) != len(bounds):
        cuts = [m.start() for m in re.finditer(r"(?<!\\)\|", row)]
    cells = [row[a + 1 : b].strip() for a, b in itertools.pairwise(cuts)]
    return (cells + [""] * len(bounds))[: len(bounds) - 1]


def _cell(parts: list[str]) -> str:
    text = ""
    for part in parts:
        if part:
            text = join_lines(text, part) if text else part
    return text


def _pipe(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


# --------------------------------------------------------------------------- footnotes


def _footnotes(lines: list[Line]) -> list[Line]:
    notes: dict[str, str] = {}
    out: list[Line] = []
    key: str | None = None
    for line in lines:
        if m := FOOTNOTE_DEFINITION.match(line.text):
            key = m["key"]
            notes[key] = m["text"].strip()
            out.append(Line(line.number, ""))
        elif key is not None and (line.text.startswith(("    ", "\t")) or not line.text.strip()):
            if line.text.strip():
                notes[key] = join_lines(notes[key], line.text.strip())
            out.append(Line(line.number, ""))
        else:
            key = None
            out.append(line)
    return [
        Line(
            x.number,
            FOOTNOTE_REFERENCE.sub(lambda m: f"（注：{notes[m['key']]}）" if m["key"] in notes else m[0], x.text),
        )
        for x in out
    ]
