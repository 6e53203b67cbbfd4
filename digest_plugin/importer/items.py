"""Part 一, the day's items (条目): the labelled paragraphs of each, read into an item."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..model import (
    Outline,
)
from .common import BULLET, _At, _bare, _Code, _Draft, _Field, _join, _Line, _Part
from .evidence import _read_evidence, _read_points, _read_sources
from .markdown import _paragraphs
from .numbering import _check_numbering
from .placement import _guards, _read_placement, _repo_card_figures
from .words import _title_rating

ITEM_HEADING = re.compile(r"^\s*条目\s*(?P<number>\d+)\s*(?:[：:.、．·・|｜—–]\s*|\s+)(?P<title>\S.*?)\s*$")


ITEM_LABELS = ("来源", "要点", "证据边界", "与活文档脉络的关系", "建议归入", "顺带")


_LABEL_ALTERNATION = "|".join(ITEM_LABELS)


FIELD_LABEL = re.compile(
    rf"^\s*(?:[-•*]\s+)?\**(?P<label>{_LABEL_ALTERNATION})\**\s*(?:[（(](?P<note>[^）)]*)[）)])?\s*\**[：:]\**\s*(?P<text>.*)$",
    re.S,
)


HEADING_LABEL = re.compile(
    rf"^\s*(?:#{{1,6}}\s+|\*\*)?(?P<label>{_LABEL_ALTERNATION})\s*(?:[（(](?P<note>[^）)]*)[）)])?\s*(?:\*\*)?\s*[：:]?\s*$"
)
"""A label alone on its line, as a Markdown heading or in bold (「#### 来源」, 「**证据边界**」): the
field's text is the lines below it."""


INLINE_LABEL = re.compile(
    rf"(?:\s+|(?<=[。；;）)」]))-\s*(?=(?:{_LABEL_ALTERNATION})\s*(?:[（(][^）)]*[）)])?\s*[：:])"
)
"""A label written inside another field's paragraph: "… - 建议归入：…", " - 顺带：…", "…。- 建议归入：…"."""


def _read_items(part: _Part, stem: str, outline: Outline | None, draft: _Draft) -> list[dict[str, Any]]:
    """Each 条目 N：title and the labelled paragraphs under it."""
    blocks: list[tuple[_Line, re.Match[str], list[_Line]]] = []
    leading: list[_Line] = []
    for line in part.lines:
        if m := ITEM_HEADING.match(_bare(line.text)):
            blocks.append((line, m, []))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            leading.append(line)
    for number, text in _paragraphs(leading):
        draft.unplaced(number, text, "section 一 before the first 条目")
    items: list[dict[str, Any]] = []
    seen: Counter[int] = Counter()
    for index, (heading, m, body) in enumerate(blocks):
        number = int(m["number"])
        seen[number] += 1
        item_id = f"{stem}-item-{number}" + ("" if seen[number] == 1 else f"-{seen[number]}")
        at = ("items", index)
        draft.origins[at] = heading.number
        if seen[number] > 1:
            draft.warn(heading.number, f"条目 {number} appears twice; the second got id {item_id}", at + ("id",))
        items.append(_read_item(number, item_id, m["title"], heading.number, body, outline, draft, at))
    _check_numbering(
        [i["number"] for i in items], [draft.origins[("items", i)] for i in range(len(items))], "条目", "items", draft
    )
    return items


def _item_fields(body: list[_Line]) -> list[_Field]:
    """The labelled paragraphs of an item, whether written inline (" - 建议归入：") or one per line."""
    fields: list[_Field] = []
    current: _Field | None = None
    previous_blank = True
    for line in body:
        text = line.text.strip()
        if not text:
            previous_blank = True
            continue
        if m := HEADING_LABEL.match(line.text):
            current = _Field(m["label"], "", line.number, m["note"], m["label"] + "：")
            fields.append(current)
            previous_blank = False
            continue
        if m := FIELD_LABEL.match(line.text):
            current = _Field(m["label"], m["text"].strip(), line.number, m["note"], _head(m))
            fields.append(current)
        elif (bullet := BULLET.match(line.text)) and current is not None:
            current.text += "\n- " + bullet["text"]
        elif current is not None and (not previous_blank or (current.label and not current.text)):
            current.text = _join(current.text, text) if current.text else text
        else:
            current = _Field(None, text, line.number)
            fields.append(current)
        previous_blank = False
    return [piece for f in fields for piece in _inline_fields(f)]


def _inline_fields(f: _Field) -> Iterator[_Field]:
    """Split "关系… - 建议归入：… - 顺带：…" into its three fields."""
    cuts = list(INLINE_LABEL.finditer(f.text))
    ends = [m.start() for m in cuts] + [len(f.text)]
    yield _Field(f.label, f.text[: ends[0]].strip(), f.line, f.note, f.head)
    for m, end in zip(cuts, ends[1:], strict=True):  # ends: the next cut's start, or the text's end
        label = FIELD_LABEL.match(f.text[m.end() : end])
        assert label is not None, "INLINE_LABEL only cuts before a label that FIELD_LABEL reads"
        line = f.line + f.text[: m.end()].count("\n")
        yield _Field(label["label"], label["text"].strip(), line, label["note"], _head(label))


def _head(m: re.Match[str]) -> str:
    """The label part of a FIELD_LABEL match, without a bullet or bold marks in front."""
    return m.string[m.start("label") : m.start("text")].replace("*", "")


def _read_item(
    number: int,
    item_id: str,
    title: str,
    line: int,
    body: list[_Line],
    outline: Outline | None,
    draft: _Draft,
    at: _At,
) -> dict[str, Any]:
    fields = _item_fields(body)
    by_label: dict[str, _Field] = {}
    notes: list[str] = []
    for f in fields:
        if f.label is None:
            notes.append(f.text)
            draft.unplaced(f.line, f.text, f"条目 {number}: paragraph without a label, kept in notes", at + ("notes",))
        elif f.label == "顺带":
            notes.append(f.raw)
        elif f.label in by_label:
            notes.append(f.raw)
            draft.warn(f.line, f"条目 {number}: a second {f.label}; kept in notes", at + ("notes",))
        else:
            by_label[f.label] = f
    item: dict[str, Any] = {"id": _Code(item_id), "number": number, "title": title}
    item["value"] = _title_rating(title, line, draft)
    item["sources"] = _read_sources(by_label.get("来源"), number, line, draft, at + ("sources",), notes)
    points = by_label.get("要点")
    if points and points.note:
        item["points_note"] = points.note.strip()
    item["points"] = _read_points(points, number, line, draft, at + ("points",))
    relation = by_label.get("与活文档脉络的关系")
    item["evidence"] = _read_evidence(by_label.get("证据边界"), item, number, line, draft, at + ("evidence",))
    item["relation"] = relation.text if relation else ""
    if not relation or not relation.text:
        where = relation.line if relation else by_label.get("建议归入", _Field(None, "", line)).line
        draft.warn(
            where,
            f"条目 {number}: no 与活文档脉络的关系; relation left empty (write it or ask the author)",
            at + ("relation",),
        )
    placement_field = by_label.get("建议归入")
    item["placement"] = _read_placement(
        placement_field, item, relation.text if relation else "", line, outline, draft, at + ("placement",)
    )
    guards = _guards(placement_field.text) if placement_field else []
    if guards:
        item["guards"] = guards
    figures = _repo_card_figures(item, line, draft, at + ("figures",))
    if figures:
        item["figures"] = figures
    if notes:
        item["notes"] = notes
    return item
