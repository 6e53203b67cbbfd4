"""Part 四, conclusions and the follow-up list."""

from __future__ import annotations

import re
from typing import Any

from ..model import (
    FollowUpStatus,
)
from .common import BULLET, _Code, _Draft, _one_line, _Part, _strip_end
from .markdown import _entries
from .words import _conclusion_ratings

# --- follow-ups
FOLLOW_UPS = re.compile(
    r"^(?P<heading>需\s*(?P<round>E\d)?\s*跟进的(?P<count>[^：:]*?)件?事?)\s*[：:]\s*(?P<body>.*)$", re.S
)


FOLLOW_UP_MARK = re.compile(r"[①②③④⑤⑥⑦⑧⑨⑩]|[（(]\d+[）)]")


CHINESE_COUNT = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def _read_conclusions(part: _Part, stem: str, round_: str | None, draft: _Draft) -> dict[str, Any]:
    """Bullets are conclusions, except "需 E2 跟进的三件事：①…②…③…", which holds the follow-ups."""
    bullets, others = _entries(part.lines, BULLET)
    out: dict[str, Any] = {"conclusions": [], "_ratings": _conclusion_ratings(bullets, draft)}
    for line, text in sorted(bullets + others):
        bullet = BULLET.match(text)
        body = bullet["text"] if bullet else text
        if bullet and (m := FOLLOW_UPS.match(body)):
            if "follow_ups" in out:
                draft.warn(line, "a second follow-up list; its follow-ups are numbered on", ("follow_ups_heading",))
            out.setdefault("follow_ups_heading", m["heading"].strip())
            earlier = out.setdefault("follow_ups", [])
            earlier.extend(_read_follow_ups(m, line, stem, round_, len(earlier), draft))
            continue
        out["conclusions"].append(body)
        draft.origins[("conclusions", len(out["conclusions"]) - 1)] = line
        if not bullet:
            draft.warn(
                line,
                f"section 四: «{_one_line(text)[:40]}…» is not a bullet; kept as a conclusion",
                ("conclusions", len(out["conclusions"]) - 1),
            )
    return out


def _read_follow_ups(
    m: re.Match[str], line: int, stem: str, round_: str | None, before: int, draft: _Draft
) -> list[dict[str, Any]]:
    """① … ② … ③ …: one follow-up each, for the round the heading names (needed E2 → E2)."""
    follow_round = m["round"]
    if not follow_round:
        follow_round = f"E{int(str(round_)[1:]) + 1}" if round_ and str(round_)[1:].isdigit() else ""
        draft.warn(
            line,
            f"follow-ups: the heading names no round; round set to {follow_round or '(empty)'}",
            ("follow_ups", before, "round"),
        )
    texts = [_strip_end(t) for t in FOLLOW_UP_MARK.split(m["body"])]
    if texts and texts[0]:
        draft.unplaced(line, texts[0], "follow-ups: text before ①", ("follow_ups_heading",))
    texts = [t for t in texts[1:] if t] if len(texts) > 1 else [t for t in texts if t]
    said = CHINESE_COUNT.get(m["count"].strip()[:1]) if m["count"] else None
    if said is not None and said != len(texts):
        draft.warn(line, f"follow-ups: the heading counts {said}, the list has {len(texts)}", ("follow_ups_heading",))
    follow_ups = []
    for n, text in enumerate(texts, before + 1):
        draft.origins[("follow_ups", n - 1)] = line
        follow_ups.append(
            {
                "id": _Code(f"{stem}-f{n}"),
                "number": n,
                "round": _Code(follow_round),
                "text": text,
                "status": FollowUpStatus.open,
            }
        )
    return follow_ups
