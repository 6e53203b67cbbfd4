"""Where an item goes (建议归入): section, action, the entry it updates, alternatives, guards and figures."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...core.model import Brief, Entry, Outline, PlacementAction
from ...core.vocabulary import fold
from .common import QUOTED, SECTION_REF, At, Code, Draft, Field, split_outside, unique_ids

ALTERNATIVE = re.compile(r"或[^，,；;。§]{0,12}§\s*(?P<section>\d+(?:\.\d+)?)[^，,；;。]*")


CROSS_REF = re.compile(r"§\s*(?P<section>\d+(?:\.\d+)?)\s*(?:与|和)?\s*(?P<name>[^，,；;。§]*?)\s*交叉引用")


ENTRY_NAME = re.compile(
    r"「(?P<name>[^」]+)」\s*(?:一行)?(?:分支|子条目|子节点|小节|补充|小注|注脚|条目|段落)"
    r"|(?:新增|新建|新开|新)\s*(?:子条目|子节点|分支|小注|条目)\s*「(?P<after>[^」]+)」"
)
"""The name of a new entry: 「TPU 后端」分支, or 新增子条目「LMCache 分层 KV 卸载」 (新子条目「…」, 新开分支「…」, 新条目「…」)."""


AFTER = re.compile(r"(?P<name>[^\s，,；;。、（(「」]+)\s*段落?(?:之后|后|下)")


NEW_SECTION = re.compile(r"新建\s*§\s*(?P<section>\d+\.\d+)\s*「(?P<title>[^」]+)」")
"""建议归入：新建 §2.6「KV 与权重的跨实例传输」: the brief opens a sub-section (its title in 「」)."""


PLACEMENT_ACTS: list[PlacementAction] = [
    PlacementAction.duplicate,
    PlacementAction.citation_refresh,
    PlacementAction.not_placed,
    PlacementAction.update_in_place,
    PlacementAction.mount_lead,
    PlacementAction.footnote,
    PlacementAction.new_sub_entry,
    PlacementAction.cross_reference,
]
"""The actions 建议归入 can say, in the order their phrases (``wordings:`` of the vocabulary file) are
looked for: the first that matches wins; 原地更新 is looked for in the relation too
("应做原地更新而非新增条目")."""


GUARD_WORDS = re.compile(r"不要|不可|不得|必须|注意|⚠|显式声明|切勿|禁止")


LEADING_CONJUNCTION = re.compile(r"^(?:并且|并|且|同时|而且|另外|但)\s*")


# --- figures of a repo card
LANGUAGES = {
    "C",
    "C++",
    "C#",
    "CUDA",
    "Go",
    "Java",
    "JavaScript",
    "Julia",
    "Kotlin",
    "Mojo",
    "Python",
    "Rust",
    "Swift",
    "TypeScript",
    "Zig",
}


LICENSE = re.compile(
    r"^(?:Apache-\d\.\d|MIT|ISC|Unlicense|BSD-\d-Clause|[AL]?GPL-\d\.\d(?:-only|-or-later)?|MPL-\d\.\d)$"
)


FIGURE_RULES: list[tuple[str, str, re.Pattern[str], str | None]] = [
    ("stars", "Stars", re.compile(r"^(?:(?P<value>\d[\d,]*)\s*⭐|Stars\s*(?P<value2>\d[\d,]*))$"), "⭐"),
    ("weekly-gain", "周增", re.compile(r"^周增\s*\+?(?P<value>\d[\d,]*)$"), None),
    ("last-commit", "最近提交", re.compile(r"^最近提交\s*(?P<value>\d{4}-\d{2}-\d{2})$"), None),
    ("maturity", "成熟度", re.compile(r"^成熟度(?:仍?标为|仍?为|[：:])?\s*(?P<value>[A-Za-z][\w-]*)$"), None),
]


COUNTED_AS_OF_COLLECTION = {"stars", "weekly-gain"}
"""Counts on a repo card are as of the card's last collection; the other fields are undated."""


def read_placement(
    f: Field | None, item: dict[str, Any], relation: str, line: int, outline: Outline | None, draft: Draft, at: At
) -> dict[str, Any]:
    """建议归入: the section (first §), the action (by the words), the entry, alternatives."""
    number = item["number"]
    if f is None or not f.text:  # kept out of the doc until the editor places it (safe.settle asks where)
        draft.warn(f.line if f else line, f"条目 {number}: no 建议归入; kept out of the doc until placed", at)
        return {"section": "", "action": PlacementAction.mount_lead}
    text = f.text
    sections = [m["section"] for m in SECTION_REF.finditer(text)]
    titled = None if sections else titled_at_head(text, outline) or held_at_head(text, outline, draft.earlier)
    if titled is not None:
        sections = [titled.section]  # 「『Kapitsa』原地换数」: the entry it names says where
    placement: dict[str, Any] = {"section": sections[0] if sections else "", "text": text}
    if not sections:
        draft.warn(f.line, f"条目 {number}: 建议归入 names no § section; section left empty", at + ("section",))
    elif not NEW_SECTION.search(text):
        known_section(sections[0], outline, f.line, draft, at + ("section",))
    action = _placement_action(text, relation, draft)
    if action is not PlacementAction.duplicate and (
        same := _said_duplicate(relation, draft) or _said_duplicate(item["title"], draft)
    ):
        draft.warn(  # the reading that adds nothing to the doc; the editor says if it also updates
            f.line,
            f"条目 {number}: the relation or title says it is an earlier item told again («{same}»), 建议归入 says "
            f"{action.value if action else 'nothing'}; read as a duplicate (nothing added to the doc); "
            "if it also changes an entry, write action: update_in_place and entry: <id>",
            at + ("action",),
        )
        action = PlacementAction.duplicate
    if opened := NEW_SECTION.search(text):
        action = PlacementAction.new_section
        placement["section"] = opened["section"]
        placement["section_title"] = opened["title"]
    head = named_at_head(text, placement["section"], outline) or ([titled] if titled is not None else [])
    if action is None and len(head) == 1:
        action = PlacementAction.update_in_place  # 「§2.6「LMCache：本地层」加一行：…」: it names an entry, opens none
    inferred = action is None and A_LINE_IN_AN_ENTRY.search(text) is not None
    if inferred:
        # 「§3.1 冻结那条加一行：…」, 「§5.4 Ascend 那条加一行（as of 2026-12-15）」: a dated line in an entry the doc has;
        # when no words name the entry, the safe reading is a lead and `digest review` offers the section's entries
        action = PlacementAction.update_in_place
    if action is None:
        action = PlacementAction.mount_lead
        draft.warn(
            f.line,
            f"条目 {number}: 建议归入 does not say how (新增/原地更新/小注…); action set to mount_lead",
            at + ("action",),
        )
    placement["action"] = action
    section = placement["section"]
    if action is PlacementAction.update_in_place:
        # the entry named where the placement says where it goes wins over a title its new line mentions
        entry = head[0].id if len(head) == 1 else entry_to_update(text, item["title"], section, outline)
        placement["entry"] = Code(entry) if entry else ""
        if inferred:  # no action's word said which entries: it may be another, or several (「两条各加一行」)
            draft.warn(  # on the action: a later reader that finds the entry by a back-reference keeps this doubt
                f.line,
                f"条目 {number}: 建议归入 adds a line and names no action; read as an in-place update"
                + (f" of {entry}, the entry its words name" if entry else "")
                + ": check the entry, and add the others under placement.entries",
                at + ("action",),
            )
        if not entry:
            draft.warn(
                f.line,
                f"条目 {number}: an in-place update (原地更新) of §{section}, but no entry of that section "
                "(in the outline or created by an earlier brief) is named in 建议归入; write entry: <id>",
                at + ("entry",),
            )
    elif name := _own_entry_name(text, section):
        existing = [e.id for e in section_entries(outline, section) if fold(e.title) == fold(name)]
        if existing and action in (PlacementAction.mount_lead, PlacementAction.footnote):
            placement["after"] = Code(existing[0])  # 「在「长 prefill 头阻塞」子条目旁挂载线索」: under that entry
        else:
            placement["entry_title"] = name
    if "after" not in placement and (after := _after(text, number, section, outline, f.line, draft, at)):
        placement["after"] = Code(after)
    if titled is not None and action in (PlacementAction.mount_lead, PlacementAction.footnote):
        placement.setdefault("after", Code(titled.id))  # 「『Kapitsa』下挂一行线索」: under the entry it names
    alternatives = [
        {"section": m["section"], "note": m.group(0).strip()}
        for m in ALTERNATIVE.finditer(text)
        if m["section"] != section
    ]
    for j, alternative in enumerate(alternatives):
        known_section(alternative["section"], outline, f.line, draft, at + ("alternatives", j, "section"))
    if alternatives:
        placement["alternatives"] = alternatives
    cross_refs = [{"section": m["section"], "_name": m["name"], "_line": f.line} for m in CROSS_REF.finditer(text)]
    if cross_refs:
        placement["cross_refs"] = cross_refs  # the names are resolved once every item is read (see link_references)
    return placement


A_LINE_IN_AN_ENTRY = re.compile(
    r"那\s*一?\s*[条段项]\s*(?:里|下|中)?\s*[加补添]\s*一?\s*行|[（(]\s*(?:截至|as of)\s*\d{4}-\d{2}-\d{2}\s*[）)]"
)
"""建议归入 that adds a line to an entry the doc already has, in no words of an action: the entry pointed at
(「冻结那条加一行」) or the line dated as of a day (「（截至 2026-12-16）」, the team's mark of a figure's date)."""


def _own_entry_name(text: str, section: str) -> str | None:
    """The name 建议归入 gives the new entry: not the name of an entry of another section it only
    points at (「§1.1「TPU 后端」分支与 Kapitsa 段各加交叉引用」 names §1.1's entry, not §5.4's new one)."""
    for m in ENTRY_NAME.finditer(text):
        before = text[: m.start()]
        named = list(SECTION_REF.finditer(before))
        if named and named[-1]["section"] != section and not re.search(r"[。；;]", before[named[-1].end() :]):
            continue  # 「…」 right after another section's number
        return m["name"] or m["after"]
    return None


def _after(
    text: str, number: int, section: str, outline: Outline | None, line: int, draft: Draft, at: At
) -> str | None:
    """ "作为 v0.8 段落后的…" / "Dynamo 段落下": the one outline entry of the section with that name."""
    m = AFTER.search(text)
    if not m:
        return None
    after = unique_ids([e.id for e in section_entries(outline, section) if m["name"].lower() in e.title.lower()])
    if not after:
        draft.warn(
            line,
            f"条目 {number}: 建议归入 places it after «{m['name']}», which names no single entry of "
            f"§{section}; add after: <entry id>",
            at + ("text",),
        )
    return after


ADDS_NOTHING = (PlacementAction.duplicate, PlacementAction.citation_refresh, PlacementAction.not_placed)
"""Actions that put nothing new into the doc: said anywhere in 建议归入, they win (the safe reading)."""


def _placement_action(text: str, relation: str, draft: Draft) -> PlacementAction | None:
    """The action 建议归入 says (see :data:`PLACEMENT_ACTS`): one that adds nothing, else an in-place update
    (「…小注整条挪到 §5.4；原地补本地数」 updates it: 小注 names what moves).  Of the others, the first clause that
    says one decides: 「§5.4 新子条目「…」：…；挂一行线索（…）」 opens an entry, and the lead is a line inside it."""
    for action in ADDS_NOTHING:
        if draft.words.wording(action.value).search(text):
            return action
    update = draft.words.wording(PlacementAction.update_in_place.value)
    if update.search(text) or update.search(relation):
        return PlacementAction.update_in_place
    for clause in re.split(r"[；;。]", text):
        for action in PLACEMENT_ACTS:
            if action not in ADDS_NOTHING and draft.words.wording(action.value).search(clause):
                return action
    return None


NEGATED = re.compile(r"(?:不是|不算|非)\s*\Z")
"""Right before the words, they are negated: 「不是同一件事」, 「并非同一事件」."""


def _said_duplicate(relation: str, draft: Draft) -> str | None:
    """The words of the relation that say the item is an earlier one told again (「和 11/23 D3 是同一件事」),
    unless negated (「不是同一件事」)."""
    for m in draft.words.wording(PlacementAction.duplicate.value).finditer(relation):
        if not NEGATED.search(relation[: m.start()]):
            return m.group()
    return None


def entry_to_update(text: str, item_title: str, section: str, outline: Outline | None) -> str | None:
    """The outline entry of the section whose title the placement names; the item's title breaks a tie
    ("Kapitsa 段数值更新 + 选型决策树保持不变" updates Kapitsa, the item is about Kapitsa)."""
    entries = section_entries(outline, section)
    named = [e for e in entries if _names_entry(text, e.title)]
    if len(named) > 1:
        named = [e for e in named if fold(e.title) in fold(item_title)]
    if not named:  # 「llm-d 1.0」子节点: a quoted name that is part of one entry's title
        quoted = [fold(m["text"]) for m in QUOTED.finditer(text.split("原地")[0])]
        named = [e for e in entries if any(q and q in fold(e.title) for q in quoted)]
    if not named:
        named = nicknamed(text, section, entries)
    return named[0].id if len(named) == 1 else None


AT_SECTION = r"§\s*(?P<section>\d+(?:\.\d+)?)\s*(?:的|里|中)?\s*"
"""A section, then what is named in it (「§3.3 的 …」, 「§1.1 …里」)."""
NICKNAME = re.compile(
    AT_SECTION + r"(?P<name>[^§，,；;。：:「」()（）\s][^§，,；;。：:「」()（）]{0,15}?)\s*那\s*一?\s*[条行段项]"
)
"""「§2.6 回写那条」, 「§3.3 的 SGLang 抢占那条」, 「§2.6 LMCache 本地那一条」: an entry named by a word or two of
its own, not by its title."""
NICKNAME_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+\-]*|[\u4e00-\u9fff]+")


QUOTED_AFTER_SECTION = re.compile(AT_SECTION + r"「(?P<name>[^」]+)」")


TITLE_QUOTE = re.compile(r"「(?P<a>[^」]+)」|『(?P<b>[^』]+)』")


def titled_at_head(text: str, outline: Outline | None) -> Entry | None:
    """The one entry of the doc whose whole title 建议归入 quotes first, in its first clause, when it names
    no §: 「「LMCache 回写：批大小、对齐与 ITL」补一行」, 「『Kapitsa』原地换数」.  Only an exact title of one
    entry: a quote that is part of several titles, or of none, names nothing (the editor is asked)."""
    first = TITLE_QUOTE.search(re.split(r"[。；;]", text)[0])
    if first is None or outline is None:
        return None
    name = fold(first["a"] or first["b"])
    found = [e for e in outline.entries if fold(e.title) == name]
    return found[0] if len(found) == 1 else None


HOLDING = re.compile(r"(?:写着|写有|记着|带着?)\s*「(?P<figure>[^」]{2,40})」\s*的那[条项行]")
"""「写着「54–72 TB」的那条」: an entry named by a figure or phrase it holds, as one finds a line in a price sheet."""


def held_at_head(text: str, outline: Outline | None, earlier: Sequence[Brief]) -> Entry | None:
    """The one entry 建议归入 names first by what it holds (「写着「−18%」的那条加一行」), when exactly one entry
    of the doc holds it: in its title or text, or in what the earlier items that made or updated it said."""
    first = HOLDING.search(text)
    if first is None or outline is None:
        return None
    held = entries_holding(first["figure"], outline, earlier)
    return held[0] if len(held) == 1 else None


def entries_holding(figure: str, outline: Outline, earlier: Sequence[Brief]) -> list[Entry]:
    """Every entry of the doc whose words hold ``figure`` (spaces and width aside)."""
    wanted = fold(figure).replace(" ", "")
    if not wanted:
        return []
    by_id = {entry.id: entry for entry in outline.entries}
    found: dict[str, Entry] = {}
    for entry in outline.entries:
        if wanted in fold(f"{entry.title} {entry.text or ''}").replace(" ", ""):
            found[entry.id] = entry
    for brief in earlier:
        for item in brief.items:
            said = " ".join([item.title, *item.points, item.points_note or "", item.placement.text or ""])
            if wanted not in fold(said).replace(" ", ""):
                continue
            targets = [item.id] if item.placement.action.creates_entry else []
            if item.placement.action is PlacementAction.update_in_place:
                targets = [t for t in (item.placement.entry, *item.placement.entries) if t]
            found.update({t: by_id[t] for t in targets if t in by_id})
    return list(found.values())


def named_at_head(text: str, section: str, outline: Outline | None) -> list[Entry]:
    """The entries ``text`` names right after its section, in its first clause, where a placement says what
    it changes:
    「§2.6「LMCache：本地层（GPU / CPU / NVMe）」加一行」 or 「§2.6 回写那条加一行」.  A title that stands
    anywhere else in the text may be what the new line says (「…起 TPU 后端可选 decode-aware」), not
    where it goes."""
    entries = section_entries(outline, section)
    first_clause = re.split(r"[。；;]", text)[0]  # 「不另立；§5.2「…」出处后并列」 says something else first
    head = SECTION_REF.search(first_clause)
    if head is None or head["section"] != section:
        return []
    m = QUOTED_AFTER_SECTION.match(text, head.start())
    if m:
        name = fold(m["name"])
        return [e for e in entries if fold(e.title) == name] or [e for e in entries if name in fold(e.title)]
    return nicknamed(text[head.start() : head.end() + 24], section, entries)


def nicknamed(text: str, section: str, entries: list[Entry]) -> list[Entry]:
    """The entries of ``section`` a nickname in ``text`` names: every word of the nickname stands in the
    entry's title.  A nickname that names several entries, or none, names nothing (the editor is asked).
    The text an entry was created with is not searched: it names what the entry was split from or
    compared with too (「§1.1 vLLM 那条」 is not 「TPU 后端」, whose first item spoke of vLLM and SGLang)."""
    for m in NICKNAME.finditer(text):
        words = [fold(w) for w in NICKNAME_WORD.findall(m["name"])]
        if m["section"] == section and words:
            return [e for e in entries if all(w in fold(e.title) for w in words)]
    return []


def _names_entry(text: str, title: str) -> bool:
    """Whether ``text`` names the entry titled ``title`` (spaces and case aside, as :func:`fold`): the title
    stands in it as a whole word (「TPU 后端」 is not named by 「TorchTPU 后端」), and not only as a part of a
    longer quoted name (「SGLang-TorchTPU：版本与支持矩阵」 names another entry than 「SGLang-TorchTPU」: the one
    split off it)."""
    title = fold(title)
    if not title:
        return False
    text = text.casefold()
    quotes = [(m.start("text"), m.end("text")) for m in QUOTED.finditer(text)]
    for m in re.finditer(r"\s*".join(map(re.escape, title)), text):
        start, end = m.span()
        if (title[:1].isascii() and title[:1].isalnum() and start and re.match(r"[a-z0-9]", text[start - 1])) or (
            title[-1:].isascii() and title[-1:].isalnum() and end < len(text) and re.match(r"[a-z0-9]", text[end])
        ):
            continue  # inside a longer Latin word
        if any(a <= start and end <= b and (a, b) != (start, end) for a, b in quotes):
            continue  # a part of a longer quoted name
        return True
    return False


def section_entries(outline: Outline | None, section: str) -> list[Entry]:
    return [e for e in outline.entries if e.section == section] if outline else []


def known_section(section: str, outline: Outline | None, line: int, draft: Draft, at: At) -> None:
    if outline and section not in {s.number for s in outline.sections}:
        draft.warn(line, f"§{section} is not a section of the {outline.topic} outline", at)


def read_guards(text: str) -> list[str]:
    """The clauses of 建议归入 that forbid or require something (不要/不可/必须/注意/⚠/显式声明).

    A guard runs from the first comma-clause that holds such a word to the end of its
    ；-clause, so "必须带…，不可直接当作结论。" stays one guard."""
    guards = []
    for sentence in re.findall(r"[^。]+。?", text):
        for clause in re.split(r"[；;]", sentence):
            parts = split_outside(clause, "，,")
            for k, part in enumerate(parts):
                if GUARD_WORDS.search(part):
                    joined = clause[sum(len(p) + 1 for p in parts[:k]) :]
                    guards.append(LEADING_CONJUNCTION.sub("", joined.strip()))
                    break
    return [g for g in guards if g]


def repo_card_figures(item: dict[str, Any], line: int, draft: Draft, at: At) -> list[dict[str, Any]]:
    """Figures of a repo-card refresh: "155 ⭐，周增 +175，C++，Apache-2.0，最近提交 …，成熟度标为 …"."""
    cards = [m for m in item["sources"].get("materials", []) if "repo_cards/" in m["path"]]
    if not cards:
        return []
    point = next((p for p in item["points"] if "⭐" in p or "Stars" in p), None)
    if point is None:
        draft.warn(
            line,
            f"条目 {item['number']}: a repo card, but no point gives its Stars; no figures read",
            at[:-1] + ("points",),
        )
        return []
    as_of = cards[0].get("last_collected")
    figures = []
    for clause in (c.strip() for c in split_outside(point, "，,") if c.strip()):
        note = TRAILING_NOTE.search(
            clause
        )  # 周增 +70（采集器已改为单仓库 7 日窗口…）: the figure, and how it was counted
        figure = _figure(clause[: note.start()].strip() if note else clause)
        if figure is None:
            draft.warn(line, f"条目 {item['number']}: «{clause}» is not read as a figure; it stays in the points", at)
            continue
        if note:
            figure["note"] = note["note"]
        if figure["key"] in COUNTED_AS_OF_COLLECTION and as_of:
            figure["as_of"] = as_of
        figures.append(figure)
    return figures


TRAILING_NOTE = re.compile(r"[（(](?P<note>[^（()）]+)[）)]$")


def _figure(clause: str) -> dict[str, Any] | None:
    for key, label, pattern, unit in FIGURE_RULES:
        if m := pattern.match(clause):
            raw = m.group("value") or (m.groupdict().get("value2") or "")
            value: int | str = int(raw.replace(",", "")) if key in COUNTED_AS_OF_COLLECTION else raw
            figure = {"key": Code(key), "label": label, "value": value}
            if unit:
                figure["unit"] = unit
            return figure
    if clause in LANGUAGES:
        return {"key": Code("language"), "label": "语言", "value": clause}
    if LICENSE.match(clause):
        return {"key": Code("license"), "label": "许可", "value": clause}
    return None
