"""Links across parts, made once every part is read: ratings from the conclusions, cross-references,
what a contradiction touches, which citation it down-weights.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ...core.model import Outline, PlacementAction, ValueRating
from .common import ITEM_NUMBERS, At, Code, Draft, unique_ids
from .numbers import ENCLOSED
from .placement import known_section, section_entries

YEAR_IN_PROSE = re.compile(r"(?P<year>(?:19|20)\d{2})\s*年")


CARD_TOPIC_IN_PROSE = re.compile(r"卡[^，。,；;]{0,8}主题为\s*(?P<topic>[\w.-]+)")


# --- names shared between sections (for links the text only suggests)
NAME_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._\-]*[A-Za-z0-9])?%?")


VERSION = re.compile(r"\d+\.\d+\.\d+")


COMMON_WORDS = {"the", "and", "for", "with", "from", "via", "per", "not", "new"}


def link_references(brief: dict[str, Any], outline: Outline | None, draft: Draft) -> None:
    """Fields that join two parts of the brief: ratings, cross-references, touches, follow-up items,
    citation back-links.  Exact names are taken silently; names matched word by word are marked."""
    items = brief["items"]
    _apply_ratings(items, brief.pop("_ratings", {}), draft)
    item_names = [(item["id"], _names(f"{item['title']}\n" + "\n".join(item["points"]))) for item in items]
    labels = {item["id"]: f"条目 {item['number']}" for item in items}
    for i, item in enumerate(items):
        _resolve_cross_refs(item, items, outline, draft, ("items", i, "placement", "cross_refs"))
        _under_tonights_entry(item, items, draft, ("items", i, "placement"))
    for i, c in enumerate(brief.get("contradictions", [])):
        _touches(c, items, item_names, labels, outline, draft, ("contradictions", i, "touches"))
        _withheld_figure(c, items)
    for i, f in enumerate(brief.get("follow_ups", [])):
        stated = _stated_items(f["text"], items)
        matched = [] if stated else _match_by_names("", f["text"], item_names)
        if stated or matched:
            f["items"] = [Code(x) for x in stated + [x for x, _ in matched]]
        if matched:
            draft.warn(
                draft.origins.get(("follow_ups", i), 1),
                f"follow-up {f['number']}: items matched by shared names ({_shared(matched, labels)}); check",
                ("follow_ups", i, "items"),
            )
    for i, citation in enumerate(brief.get("citations", [])):
        _citation_links(citation, brief.get("contradictions", []), draft, ("citations", i))
    for c in brief.get("contradictions", []):
        c.pop("_line", None)


TONIGHTS_ENTRY = re.compile(r"^\s*(?:(?P<circled>[①-⑩])|条目\s*(?P<n>\d{1,2}))\s*(?:那一?条|这一?条)")
"""「①那条挂一行线索」: 建议归入 that names, instead of a §, the entry one of tonight's items makes."""


def _under_tonights_entry(item: dict[str, Any], items: list[dict[str, Any]], draft: Draft, at: tuple[Any, ...]) -> None:
    """A lead or note with no § whose 建议归入 opens with tonight's item that makes an entry (「①那条挂一行线索」):
    it hangs under that entry, in that entry's section."""
    placement = item["placement"]
    if placement.get("section") or placement.get("action") not in (
        PlacementAction.mount_lead,
        PlacementAction.footnote,
    ):
        return
    m = TONIGHTS_ENTRY.match(str(placement.get("text") or ""))
    if m is None:
        return
    number = ENCLOSED.get(m["circled"]) if m["circled"] else int(m["n"])
    target = next((x for x in items if x["number"] == number and x is not item), None)
    if target is None or not target["placement"].get("section"):
        return
    if not PlacementAction(target["placement"]["action"]).creates_entry:
        return
    placement["section"] = target["placement"]["section"]
    placement["after"] = Code(target["id"])
    draft.settled(at + ("section",))  # the entry it names says where


def _apply_ratings(
    items: list[dict[str, Any]], ratings: dict[int, tuple[int, list[ValueRating]]], draft: Draft
) -> None:
    """An item's value: the title's rating, then what the conclusions say of it (both kept if they differ)."""
    numbers = {item["number"] for item in items}
    for n, (line, _) in sorted(ratings.items()):
        if n not in numbers:
            draft.warn(line, f"the conclusions rate 条目 {n}, which the brief does not have", ("conclusions",))
    for i, item in enumerate(items):
        said: list[ValueRating] = []
        if (rated := ratings.get(item["number"])) is not None:
            line, said = rated
            if item["value"] and said and set(said) != set(item["value"]):
                draft.warn(
                    line,
                    f"条目 {item['number']}: the title rates it {item['value'][0]}, the conclusions "
                    f"{'/'.join(said)}; both kept",
                    ("items", i, "value"),
                )
        item["value"] = list(dict.fromkeys(item["value"] + said))
        if not item["value"]:
            draft.warn(
                draft.origins[("items", i)],
                f"条目 {item['number']}: no value rating in its title or the conclusions; value left empty",
                ("items", i, "value"),
            )


def _resolve_cross_refs(
    item: dict[str, Any], items: list[dict[str, Any]], outline: Outline | None, draft: Draft, at: At
) -> None:
    """ "并在 §5.1 与 llm-d 1.0 交叉引用": the item of this brief placed in §5.1 whose title says
    "llm-d 1.0", else an outline entry of §5.1 of that name."""
    for j, ref in enumerate(item["placement"].get("cross_refs", [])):
        name, line = ref.pop("_name").lower(), ref.pop("_line")
        section = ref["section"]
        if not name:
            continue
        mine = unique_ids(
            [
                x["id"]
                for x in items
                if x is not item and x["placement"]["section"] == section and name in x["title"].lower()
            ]
        )
        theirs = unique_ids(
            [e.id for e in section_entries(outline, section) if name in e.title.lower() or e.title.lower() in name]
        )
        if mine:
            ref["item"] = Code(mine)
        elif theirs:
            ref["entry"] = Code(theirs)
        else:
            draft.warn(
                line,
                f"条目 {item['number']}: cross-reference to «{name}» in §{section} names no single item or "
                "entry; add item: or entry:",
                at + (j, "section"),
            )


def _touches(
    c: dict[str, Any],
    items: list[dict[str, Any]],
    item_names: list[tuple[str, set[str]]],
    labels: dict[str, str],
    outline: Outline | None,
    draft: Draft,
    at: At,
) -> None:
    """What a contradiction touches: the § it names, the items it names (条目 N, or a name only that
    item uses), their sections when it names none, and the outline entries it names."""
    touches, line = c["touches"], c["_line"]
    whole = f"{c['title']}\n{c['text']}"
    stated = _stated_items(whole, items)
    matched = [] if stated else _match_by_names(c["title"], c["text"], item_names)
    touches["items"] = list(dict.fromkeys(stated + [x for x, _ in matched]))
    if matched:
        draft.warn(
            line,
            f"矛盾 {c['number']}: touches items matched by shared names ({_shared(matched, labels)}); check",
            at + ("items",),
        )
    if not touches["sections"]:
        placed = {item["id"]: item["placement"]["section"] for item in items}
        touches["sections"] = list(dict.fromkeys(placed[x] for x in touches["items"] if placed.get(x)))
    for j, section in enumerate(touches["sections"]):
        known_section(section, outline, line, draft, at + ("sections", j))
    candidates = [e for s in touches["sections"] for e in section_entries(outline, s)]
    exact = [e.id for e in candidates if e.title in whole]
    entry_names = [(e.id, _names(e.title)) for e in candidates if e.id not in exact]
    guessed = _match_by_names(c["title"], c["text"], entry_names)
    touches["entries"] = list(dict.fromkeys(exact + [x for x, _ in guessed]))
    if guessed:
        draft.warn(
            line,
            f"矛盾 {c['number']}: touches entries matched by shared names ({_shared(guessed)}); check",
            at + ("entries",),
        )
    c["touches"] = {
        k: [Code(v) if k in ("items", "entries") else v for v in touches[k]]
        for k in ("items", "entries", "sections", "citations")
        if touches.get(k)
    }
    if not c["touches"]:
        del c["touches"]


def _stated_items(text: str, items: list[dict[str, Any]]) -> list[str]:
    """Items the text names by number ("条目 4", "条目 6/7"): a link the brief states, taken as is."""
    by_number = {item["number"]: item["id"] for item in items}
    numbers = [int(n) for m in ITEM_NUMBERS.finditer(text) for n in re.findall(r"\d+", m["numbers"])]
    return list(dict.fromkeys(by_number[n] for n in numbers if n in by_number))


def _names(text: str) -> set[str]:
    """Product and version names in a text (Latin words, versions like 0.23.0), lower-cased."""
    names = set()
    for token in NAME_TOKEN.findall(text):
        token = token.lower()
        if len(token) < 3 or token in COMMON_WORDS:
            continue
        if re.search(r"[a-z%]", token) or VERSION.fullmatch(token):
            names.add(token)
    return names


def _match_by_names(title: str, text: str, candidates: list[tuple[str, set[str]]]) -> list[tuple[str, set[str]]]:
    """Candidates that share a name only they have: one in ``title``, or two anywhere."""
    counts = Counter(n for _, names in candidates for n in names)
    in_title, anywhere = _names(title), _names(title) | _names(text)
    matched = []
    for cid, names in candidates:
        own = {n for n in names if counts[n] == 1}
        if own & in_title or len(own & anywhere) >= 2:
            matched.append((cid, own & anywhere))
    return matched


def _shared(matched: list[tuple[str, set[str]]], labels: dict[str, str] | None = None) -> str:
    """ "条目 5 by kapitsa, stars": which candidate, and the names that matched it."""
    labels = labels or {}
    return "; ".join(f"{labels.get(cid, cid)} by {', '.join(sorted(names))}" for cid, names in matched)


def _withheld_figure(c: dict[str, Any], items: list[dict[str, Any]]) -> None:
    """A withheld claim that names a figure's label ("+175 周增" names 周增) withholds that figure."""
    for claim in c.get("withheld", []):
        keys = unique_ids([f["key"] for item in items for f in item.get("figures", []) if f["label"] in claim["text"]])
        if keys:
            claim["figure"] = Code(keys)


def _citation_links(citation: dict[str, Any], contradictions: list[dict[str, Any]], draft: Draft, at: At) -> None:
    """The contradiction that down-weights a paper; its year and card topic if only that prose gives them."""
    about = [c for c in contradictions if citation["arxiv"] in c.get("touches", {}).get("citations", [])]
    down = unique_ids([c["id"] for c in about if c["disposition"] == "down_weighted"])
    if down:
        citation["down_weighted_by"] = Code(down)
    line = draft.origins.get(at, 1)
    for c in about:
        prose = f"{c['title']}\n{c['text']}"
        years = list(dict.fromkeys(m["year"] for m in YEAR_IN_PROSE.finditer(prose)))
        if "year" not in citation and len(years) == 1:
            citation["year"] = int(years[0])
            draft.warn(
                line,
                f"citation {citation['arxiv']}: year {years[0]} read from 矛盾 {c['number']}; check",
                at + ("year",),
            )
        if "card_topic" not in citation and (m := CARD_TOPIC_IN_PROSE.search(prose)):
            citation["card_topic"] = m["topic"]
            draft.warn(
                line,
                f"citation {citation['arxiv']}: card topic {m['topic']} read from 矛盾 {c['number']}; check",
                at + ("card_topic",),
            )
