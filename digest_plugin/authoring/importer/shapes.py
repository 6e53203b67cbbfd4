"""Part 一 written in shapes the item reader does not read line by line, rewritten into lines it does.

Writers lay items out every which way.  Three shapes carry the same fields as the team's format and
are rewritten here, before the item reader (:mod:`.items`) sees them, so that one reader reads all:

* **a blockquote**: an item's fields set as a quote (「> **出处**　…」) are its fields;
* **a form's spaced labels**: 「评　级：…」, 「出　处：…」 (the characters of a short label spaced out,
  as on an official form) are the labels 评级, 出处, written in bold so that one the wordings do not
  know is still read as a label (:func:`.items._guessed_labels`);
* **run-in labels**: one paragraph per item, its fields led by bold labels inside it
  (「**分量**：高价值。**出处**：…。**看到的**：…」), becomes one line per field;
* **a table of items**: one row per item under a header row of field labels
  (「| 条 | 标题 | 价值 | 出处 | 要点 | … |」) becomes an item heading and one labelled line per cell.

Every rewritten line keeps the number of the line it came from, so findings still point at the
brief as written.  Nothing is dropped: a cell or clause that is no field stays a line of its own.
"""

from __future__ import annotations

import re

from .common import Line, Part, unrolled_tables
from .outliner import outlined_items

SPACED_LABEL = re.compile(
    r"^(?P<lead>\s*(?:[-•*·]\s+)?\**)(?P<label>(?:[\u4e00-\u9fff][ \u3000]+){1,3}[\u4e00-\u9fff])(?=\**\s*[：:])"
)
"""「评　级：」: two to four characters spaced out, then a colon."""

QUOTE_MARK = re.compile(r"^\s*(?:>\s?)+")
"""「> **出处**　…」: an item's fields set in a blockquote (a layout, not a quotation of someone)."""
RUN_IN = re.compile(r"\*\*(?P<label>[^*\s\d][^*]{0,7})\*\*\s*[：:]")
"""A bold label and its colon inside a paragraph: 「**出处**：」."""

RUN_IN_LEAST = 3
"""How many bold labels a paragraph needs before it is read as one item's fields (fewer is prose that
happens to bold a word)."""

NUMBER_COLUMNS = ("条", "#", "序号", "编号", "No", "No.", "条目", "项")
TITLE_COLUMNS = ("标题", "题目", "事项", "内容", "条目标题", "Title")


def reshaped(part: Part, labels: set[str]) -> Part:
    """The part with its spaced labels closed up, its run-in paragraphs split and its item table
    unrolled; ``labels`` are the field labels the wordings know (a table is one of items only if its
    header names enough of them)."""
    lines = [Line(x.number, _closed_up(QUOTE_MARK.sub("", x.text))) for x in outlined_items(part.lines)]
    lines = _unrolled(lines, labels)
    lines = [piece for x in lines for piece in _run_in(x)]
    return Part(part.kind, part.heading, part.line, lines)


def _closed_up(text: str) -> str:
    m = SPACED_LABEL.match(text)
    if m is None:
        return text
    label = re.sub(r"[ \u3000]+", "", m["label"])
    if "*" in m["lead"]:
        return m["lead"] + label + text[m.end() :]
    return m["lead"] + f"**{label}**" + text[m.end() :]  # bold: a label, whether the wordings know it or not


def _run_in(line: Line) -> list[Line]:
    """「**分量**：高价值。**出处**：…」 → one line per bold label (a paragraph with fewer is left whole)."""
    marks = list(RUN_IN.finditer(line.text))
    if len(marks) < RUN_IN_LEAST:
        return [line]
    pieces = []
    head = line.text[: marks[0].start()].strip()
    if head:
        pieces.append(Line(line.number, head))
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        pieces.append(Line(line.number, line.text[m.start() : nxt.start() if nxt else len(line.text)].strip()))
    return pieces


def _unrolled(lines: list[Line], labels: set[str]) -> list[Line]:
    """A table whose header row names at least three field labels, each row an item: each row becomes
    「条目 N：title」 and one 「**label**：cell」 line per other cell."""

    def items(header: list[str]) -> bool:
        return sum(1 for c in header if _label_of(c, labels)) >= 3 and any(c in TITLE_COLUMNS for c in header)

    return unrolled_tables(lines, items, _row_lines)


def _label_of(cell: str, labels: set[str]) -> bool:
    """A header cell that names a field: a label the wordings know, or one that holds one (与活文档 in
    与活文档脉络的关系 is read later by its characters)."""
    cell = cell.strip("* ")
    return bool(cell) and (cell in labels or any(cell in label or label in cell for label in labels if len(label) > 1))


def _row_lines(header: list[str], row: list[str], number: int, position: int) -> list[Line]:
    cells = dict(zip(header, row, strict=False))
    own = next((cells[c] for c in header if c in NUMBER_COLUMNS and cells.get(c, "").strip()), "")
    title = next((cells[c] for c in header if c in TITLE_COLUMNS), "")
    digits = re.sub(r"\D", "", own)
    out = [Line(number, f"条目 {digits or position}：{title}")]
    for column in header:
        if column in NUMBER_COLUMNS or column in TITLE_COLUMNS or not column or not cells.get(column, "").strip():
            continue  # an empty cell says nothing (an empty 价值 is no rating)
        out.append(Line(number, f"**{column.strip('* ')}**：{cells.get(column, '').strip()}"))
    return out
