"""Safe readings: where the import cannot decide, it writes the reading that publishes nothing new
and puts the question to the editor (``digest review``) instead of leaving a gap that fails the check.

* An in-place update whose entry no words name exactly becomes a lead (``mount_lead``) in the named
  section, never an update of a guessed entry; the question offers the section's entries, the ones
  the item's own words name first.
* An item said to repeat an earlier one (``duplicate``) names it through a back-reference
  (「和昨晚条目 1 是同一件事」); when no single earlier item is named, the item is kept out of the doc
  (``not_placed``) and the editor is asked which item it repeats.
* An item whose 建议归入 names no § (and does not keep it out) is kept out of the doc too, and the
  editor is asked where it goes, among the sections its text mentions; unless the item is a paper's card
  that tonight's part 三 cites: then it refreshes that citation and adds nothing (``citation_refresh``).

Every such item still stands whole on its brief's page; the site marks it 待编辑确认.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ...core import arxiv
from ...core.model import Entry, Outline, PlacementAction
from ...core.vocabulary import fold
from .backrefs import History, find_references
from .common import QUOTED, SECTION_REF, At, Code, Draft


def settle(brief: dict[str, Any], outline: Outline | None, history: History, draft: Draft) -> None:
    """Give every item a placement the model accepts, asking where the text does not decide."""
    today = brief.get("date")
    for index, item in enumerate(brief.get("items", [])):
        placement = item.get("placement")
        if not isinstance(placement, dict):
            continue
        at = ("items", index, "placement")
        line = draft.origins.get(("items", index), 1)
        action = placement.get("action")
        if action is PlacementAction.duplicate and not placement.get("duplicate_of"):
            _duplicate_of(item, placement, today, history, draft, at, line)
        elif action is PlacementAction.update_in_place and not placement.get("entry"):
            _lead_instead(item, placement, outline, draft, at, line)
        if placement.get("section") == "" and placement.get("action") is PlacementAction.update_in_place:
            _section_of_entry(placement, outline, draft, at)
        if placement.get("section") == "" and PlacementAction(placement["action"]).places:
            if _cited_tonight(item, brief):
                placement["action"] = PlacementAction.citation_refresh
                draft.settled(at + ("section",))  # no § is what such an item says, not a gap
            else:
                _kept_out_until_placed(item, placement, draft, at, line)
        if placement.get("section") == "":
            del placement["section"]


def _section_of_entry(placement: dict[str, Any], outline: Outline | None, draft: Draft, at: At) -> None:
    """An in-place update that names its entries by title and no § (「两处原地更新。「Kapitsa：版本与模型格式」
    ——…」): its section is the section of the entry it updates (the first, when it updates several),
    and the doubt about the missing § goes, since the entry decides it."""
    entry = next((e for e in (outline.entries if outline else []) if e.id == placement.get("entry")), None)
    if entry is None:
        return
    placement["section"] = entry.section
    draft.settled(at + ("section",))


def _duplicate_of(
    item: dict[str, Any], placement: dict[str, Any], today: Any, history: History, draft: Draft, at: At, line: int
) -> None:
    text = f"{item.get('relation', '')}\n{placement.get('text', '')}\n{item.get('title', '')}"
    refs = find_references(text, today, history, part="items") if isinstance(today, dt.date) else []
    earlier = list(dict.fromkeys(r.id for r in refs if r.kind == "item" and r.id))
    if len(earlier) == 1:
        placement["duplicate_of"] = Code(earlier[0])
        return
    placement["action"] = PlacementAction.not_placed
    choices: list[tuple[str, dict[str, object]]] = [
        (history.item_label(i) or i, {"action": "duplicate", "duplicate_of": i}) for i in earlier
    ]
    if choices:
        draft.ask(
            line,
            at,
            f"条目 {item['number']} 与哪一条已有条目是同一事件？",
            "不入活文档，只在本简报留档",
            choices,
            placement.get("text"),
        )
    else:
        draft.warn(
            line, f"条目 {item['number']}: said to repeat an earlier item, but names none; kept out of the doc", at
        )


def _lead_instead(
    item: dict[str, Any], placement: dict[str, Any], outline: Outline | None, draft: Draft, at: At, line: int
) -> None:
    section = placement.get("section") or ""
    placement["action"] = PlacementAction.mount_lead
    placement.pop("entry", None)
    entries = _ranked(
        section, f"{placement.get('text', '')} {item.get('relation', '')} {item.get('title', '')}", outline
    )
    choices: list[tuple[str, dict[str, object]]] = [
        (f"§{e.section}「{e.title}」", {"action": "update_in_place", "entry": e.id}) for e in entries[:6]
    ]
    if not choices:
        draft.warn(
            line,
            f"条目 {item['number']}: an in-place update, but §{section} has no entry to update; kept as a lead",
            at,
        )
        return
    draft.ask(
        line,
        at,
        f"条目 {item['number']} 原地更新 §{section} 的哪一条？",
        f"作为 §{section} 的线索挂载，不改动任何已有条目",
        choices,
        placement.get("text"),
    )


CARD_ID = re.compile(r"paper_cards/(?:[^/]*?-)?(?P<yymm>\d{4})-(?P<number>\d{4,5})(?:v\d+)?\.md$")
"""A paper card's file names its arXiv id (「organized/paper_cards/2216-2401-09670.md」: 2401.09670)."""


def _cited_tonight(item: dict[str, Any], brief: dict[str, Any]) -> bool:
    """Whether an item that names no § is a paper's card that part 三 cites tonight (by its card or by
    the arXiv id the card's name carries): an item that refreshes the paper's citation (counts, OA status,
    a merged record) and places nothing, whatever words its 建议归入 uses (「正文一字不改、条目一条不加」)."""
    materials = ((item.get("sources") or {}).get("materials")) or []
    cards = {m["path"] for m in materials if isinstance(m, dict) and "paper_cards/" in str(m.get("path", ""))}
    if not cards:
        return False
    ids = {f"{m['yymm']}.{m['number']}" for card in cards if (m := CARD_ID.search(card))}
    for citation in brief.get("citations") or []:
        if citation.get("card") in cards or arxiv.key(str(citation.get("arxiv", ""))) in ids:
            return True
    return False


def _kept_out_until_placed(item: dict[str, Any], placement: dict[str, Any], draft: Draft, at: At, line: int) -> None:
    text = f"{placement.get('text', '')} {item.get('relation', '')}"
    mentioned = list(dict.fromkeys(m["section"] for m in SECTION_REF.finditer(text)))
    placement["action"] = PlacementAction.not_placed
    choices: list[tuple[str, dict[str, object]]] = [
        (f"§{s} 新增子条目", {"action": "new_sub_entry", "section": s}) for s in mentioned
    ]
    if choices:
        draft.ask(
            line,
            at,
            f"条目 {item['number']} 归入哪一节？",
            "不入活文档，只在本简报留档",
            choices,
            placement.get("text"),
        )
    else:
        draft.warn(line, f"条目 {item['number']}: 建议归入 names no § section; kept out of the doc (not_placed)", at)


def _ranked(section: str, text: str, outline: Outline | None) -> list[Entry]:
    """The section's entries, those the text names (by title or a quoted part of it) first."""
    entries = [e for e in outline.entries if e.section == section] if outline else []
    said = fold(text)
    quoted = [fold(q) for q in QUOTED.findall(text)]

    words = _words(text.lower())

    def score(e: Entry) -> tuple[int, int]:
        title = fold(e.title)
        named = 2 if title and title in said else 1 if any(q and (q in title or title in q) for q in quoted) else 0
        return named, len(_words(e.title.lower()) & words)  # then the words they share (Kapitsa, 昇腾 …)

    return sorted(entries, key=lambda e: tuple(-x for x in score(e)))


def _words(text: str) -> set[str]:
    """Latin words of three letters or more, and every two Chinese characters in a row."""
    latin = set(re.findall(r"[a-z0-9][a-z0-9.+-]{2,}", text))
    chinese = {text[i : i + 2] for i in range(len(text) - 1) if re.fullmatch(r"[\u4e00-\u9fff]{2}", text[i : i + 2])}
    return latin | chinese
