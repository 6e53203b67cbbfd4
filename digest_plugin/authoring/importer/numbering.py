"""Counts and numbering: the numbers a brief gives are kept as written, and gaps or repeats are warned
about.
"""

from __future__ import annotations

import re
from collections import Counter
from enum import Enum
from typing import Any

from pydantic import ValidationError

from ...core.model import Brief
from .common import Code, Draft, Part

COUNT_IN_HEADING = re.compile(r"[（(]\s*(?P<count>\d+)\s*条\s*[）)]")


def check_numbering(numbers: list[int], lines: list[int], what: str, key: str, draft: Draft) -> None:
    """Warn where the brief skips or repeats a number (条目 1, 条目 3): the ids keep the brief's numbers."""
    expected = 1
    for index, (number, line) in enumerate(zip(numbers, lines, strict=True)):  # one line per number
        if number > expected:
            missing = "、".join(str(n) for n in range(expected, number))
            draft.warn(line, f"{what} {missing} missing: numbering jumps to {number}", (key, index, "number"))
        elif number < expected:
            draft.warn(line, f"{what} {number} is out of order (after {expected - 1})", (key, index, "number"))
        expected = max(expected, number + 1)


def check_counts(brief: dict[str, Any], parts: list[Part], draft: Draft) -> None:
    """The brief states counts ("（7 条）", "8 份 materials"); say when the lists disagree."""
    heading = brief.get("items_heading") or ""
    if m := COUNT_IN_HEADING.search(heading):
        line = next((p.line for p in parts if p.kind == "items"), 1)
        if int(m["count"]) != len(brief["items"]):
            draft.warn(
                line, f"the heading says {m['count']} 条, the brief has {len(brief['items'])} items", ("items_heading",)
            )
    read, listed = brief.get("materials_read"), brief.get("materials", [])
    if read is not None and listed and read != len(listed):
        draft.warn(
            draft.origins.get(("materials",), 1), f"{read} materials read, {len(listed)} listed", ("materials_read",)
        )
    for kind in ("items", "contradictions", "citations", "conclusions"):
        if not any(p.kind == kind for p in parts):
            draft.warn(1, f"no section for {kind} (一 条目 / 二 矛盾 / 三 arXiv / 四 结论) was found")


def dedupe_ids(entries: list[dict[str, Any]], what: str, draft: Draft, key: str) -> None:
    seen: Counter[str] = Counter()
    for i, entry in enumerate(entries):
        seen[entry["id"]] += 1
        if seen[entry["id"]] > 1:
            entry["id"] = Code(f"{entry['id']}-{seen[entry['id']]}")
            draft.warn(
                draft.origins.get((key, i), 1),
                f"{what} number {entry['number']} appears twice; the second got id {entry['id']}",
                (key, i, "id"),
            )


def validate_brief(brief: dict[str, Any], draft: Draft) -> None:
    """Last safety net: whatever would still fail the model is reported, at the nearest Markdown line."""
    try:
        Brief.model_validate(_plain(brief))
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            if any(p[: len(loc)] == loc or p == loc[:-1] for p in draft.comments):
                continue  # already marked: the field, one below it, or its parent was left empty on purpose
            line = next((draft.origins[loc[:n]] for n in range(len(loc), 0, -1) if loc[:n] in draft.origins), 1)
            where = ".".join(str(p) for p in loc)
            draft.warn(line, f"{where}: {error['msg']}", loc or ("#top",))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value
