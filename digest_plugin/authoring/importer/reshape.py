"""What a brief does to the doc's shape, read from its words: one item updating several entries, a
section renamed, an entry moved or split, a paper withdrawn (in :mod:`.citations`), an erratum of an
earlier brief.  The phrases are the team's (``wordings:`` ``renamed``, ``moved``, ``split``, ``erratum``); what they point
at is read by back-reference (「10-31 条目 2」) or by an entry's name in the named section, never guessed:
a change whose target is not named exactly is a warning for the editor, and nothing is written.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from ...core.model import Entry, Outline, PlacementAction
from ...core.vocabulary import fold
from .backrefs import History, find_references
from .common import QUOTED, SECTION_REF, Code, Draft, corrected_to
from .numbers import small_number
from .placement import entry_to_update, section_entries

CLAUSE = re.compile(r"[^。；;\n]+")
PLACES = re.compile(
    r"(?P<n>[两二三四五六七八九\d])\s*处"
    r"|(?<![A-Za-z])(?P<en>two|three|four|five)\s+(?:in-place\s+)?(?:edits|updates|places|changes)(?![A-Za-z])",
    re.I,
)
"""「两处原地更新」, 「two in-place edits」: the placement counts the places it updates, one clause (；) each."""
ENGLISH_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
ARROW = re.compile(r"\s*(?:→|->|⇒|=>|改为|改成|换成)\s*")


@functools.cache
def _fixes(words: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(strict, loose) readings of 「旧」<word>「新」, ``words`` the team's (``wordings: corrected_to``):

    * strict: 「修复 7 个 bug」，应为「修复 9 个 bug」 / 写成了 #33107，应为 #33170;
    * loose: 「…要点里「作者 23 号放了代码（Apache-2.0）」，许可证记岔了，应为「BSD-3-Clause」」: the quote before is
      where the wrong words are, maybe more than them; read so, and the editor is asked to narrow it."""
    said = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    strict = re.compile(
        rf"(?:「(?P<qold>[^」]+)」|写成了?\s*(?P<old>[^，,。；;「」（(]+?))\s*[，,]?\s*(?:{said})\s*"
        r"(?:「(?P<qnew>[^」]+)」|(?P<new>[^，,。；;「」（(]+))"
    )
    loose = re.compile(rf"「(?P<qold>[^」]+)」[^「」。]{{1,30}}?(?:{said}|改为|改成)\s*「(?P<qnew>[^」]+)」")
    return strict, loose


def read_reshape(brief: dict[str, Any], outline: Outline | None, history: History, draft: Draft) -> None:
    today = brief.get("date")
    if not isinstance(today, dt.date):
        return
    items = brief.get("items", [])
    for index, item in enumerate(items):
        _several_entries(item, index, outline, draft, _nicknames(item.get("relation", ""), today, history, outline))
    texts = [
        (draft.origins.get(("items", i), 1), text, item)
        for i, item in enumerate(items)
        for text in [
            item.get("title", ""),
            item.get("relation", ""),
            item.get("placement", {}).get("text", ""),
            *item.get("notes", []),
        ]
    ]
    texts += [(draft.origins.get(("conclusions", i), 1), t, None) for i, t in enumerate(brief.get("conclusions", []))]
    renames = _renames(texts, draft, _section_titles(outline, draft))
    if renames:
        brief["section_renames"] = renames
    moves = _moves(texts, today, history, draft, outline)
    if moves:
        brief["moves"] = moves
    errata = _errata(texts, today, history, draft)
    if errata:
        brief["errata"] = errata
    splits = _splits(items, today, history, draft, outline, brief.get("conclusions", []))
    if splits:
        brief["splits"] = splits


NICKNAME = re.compile(r"『(?P<nick>[^』\n]{1,20})』\s*(?:——|—|[：:])\s*(?P<said>[^，,；;。\n]+)")
"""「『NIXL 压缩』——11 月 8 日林的条目 3 开的「NIXL 1.1 压缩传输」，…」: a short name for an entry, and what it names."""


def _nicknames(relation: str, today: dt.date, history: History, outline: Outline | None) -> dict[str, str]:
    """The short names an item's relation gives earlier entries, each the one entry the words right after it
    name (by the item that made it, or by its title); a name whose words name none or several is not kept."""
    out: dict[str, str] = {}
    for m in NICKNAME.finditer(relation):
        named = _entries_named(m["said"], today, history) | _entries_quoted(m["said"], outline)
        if len(named) == 1:
            out.setdefault(m["nick"].strip(), named.pop())
    return out


def _nicknamed(clause: str, nicknames: dict[str, str]) -> str | None:
    """The entry a placement's clause names by a short name its relation gave (「『GPU→GPU』——…」)."""
    said = {nicknames[n] for n in re.findall(r"『([^』\n]{1,20})』", clause) if n in nicknames}
    return said.pop() if len(said) == 1 else None


def _several_entries(
    item: dict[str, Any], index: int, outline: Outline | None, draft: Draft, nicknames: dict[str, str] | None = None
) -> None:
    """「三处原地更新——」 with one line per entry, or 「两处原地更新：§3.1 …；§3.3 …」 with one clause per
    entry: each names its entry (by § and name); two or more named, the item updates them all (the
    first stays ``entry``)."""
    placement = item.get("placement", {})
    if placement.get("action") is not PlacementAction.update_in_place:
        return
    text = placement.get("text", "")
    lines = [line for line in text.split("\n- ")[1:] if line.strip()]
    places = PLACES.search(text)
    clauses = re.split(r"[；;。\n]", text)
    if len(lines) < 2 and places:  # 「两处原地更新：§3.1「…」加一行；§3.3「…」改上限」, or each by its title alone
        lines = [
            clause
            for clause in clauses
            if SECTION_REF.search(clause) or QUOTED.search(clause) or _nicknamed(clause, nicknames or {})
        ]
    headed = {m["section"] for m in map(_headed, clauses) if m}
    if len(lines) < 2 and len(headed) >= 2:  # 「two in-place updates：§5.1「…」— …；§5.4 支持矩阵 — …」
        lines = [clause for clause in clauses if _headed(clause)]
    wanted = (small_number(places["n"]) if places["n"] else ENGLISH_COUNTS[places["en"].lower()]) if places else None
    if len(lines) < 2:
        if places and wanted is not None and wanted >= 2:
            # 「三处各加一行：NIXL 压缩那条——…；副本间那条——…」: places counted, none named a way read here
            draft.warn(
                draft.origins.get(("items", index), 1),
                f"条目 {item['number']}: 建议归入 says «{places.group(0)}» but names no entry this importer finds "
                "by its section or title; write the entries it updates under placement.entry and placement.entries",
                ("items", index, "placement", "entry"),
            )
        return
    main = placement.get("section", "")
    found: list[str] = []
    for line in lines:
        named = SECTION_REF.search(line)
        entry = (
            _nicknamed(line, nicknames or {})
            or (
                entry_to_update(line, item.get("title", ""), named["section"] if named else main, outline)
                if named or main
                else None
            )
            or (
                _titled_in(item.get("relation", ""), named["section"], outline)
                if named
                else _titled_anywhere(line, outline)
            )
        )
        if entry and entry not in found:
            found.append(entry)
    listed = not places and len(headed) >= 2  # places listed, not counted: one may be only named (「§3.2 不动」)
    if listed:
        asked = (
            f"opens clauses with {' and '.join(f'§{s}' for s in sorted(headed))}; if the item updates more than "
            f"one entry ({', '.join(found) or 'none found by name'}), "
        )
    elif places and wanted and len(found) < wanted:  # 「两处」 and one entry found: the editor names the other
        asked = (
            f"says «{places.group(0)}» but names {len(found)} entr{'y' if len(found) == 1 else 'ies'} "
            f"this importer finds ({', '.join(found) or 'none'}); "
        )
    else:
        asked = ""
    if asked:
        draft.warn(
            draft.origins.get(("items", index), 1),
            f"条目 {item['number']}: 建议归入 {asked}write the others under placement.entries",
            ("items", index, "placement", "entry"),
        )
    if listed:
        return
    if len(found) < 2:
        return
    first = placement.get("entry") or found[0]
    placement["entry"] = Code(first)
    placement["entries"] = [Code(e) for e in found if e != first]
    draft.settled(("items", index, "placement", "entry"))


def _headed(clause: str) -> re.Match[str] | None:
    """The section a clause opens with (after a lead-in that ends in a colon): one place of a placement
    that lists its places, 「§5.4 支持矩阵 — rc.2 起 …」; a section named inside a sentence is no such head."""
    m = SECTION_REF.search(clause)
    if m is None or re.split(r"[：:]", clause[: m.start()])[-1].strip(" \t-—*·•"):
        return None
    return m


def _titled_in(relation: str, section: str, outline: Outline | None) -> str | None:
    """The one entry of ``section`` whose title the relation quotes (「§5.4「llm-d on TPU：支持矩阵与预设（preview）」
    按代列了 …」): a place the placement names only by a word of it (「§5.4 支持矩阵」)."""
    return _titled(relation, section_entries(outline, section))


def _titled_anywhere(clause: str, outline: Outline | None) -> str | None:
    """The one entry of any section whose title the clause quotes (「「Kapitsa：同机基准（M4 Max）」——…」)."""
    return _titled(clause, outline.entries if outline else [])


def _titled(text: str, entries: list[Entry]) -> str | None:
    """The one entry of ``entries`` whose whole title ``text`` quotes, or None (none, or several)."""
    quoted = {fold(q) for q in QUOTED.findall(text)}
    hits = {e.id for e in entries if fold(e.title) in quoted}
    return hits.pop() if len(hits) == 1 else None


def _section_titles(outline: Outline | None, draft: Draft) -> dict[str, set[str]]:
    """Each section's titles so far, folded: the outline's, and each an earlier night renamed it to."""
    titles: dict[str, set[str]] = {}
    for section in outline.sections if outline is not None else []:
        if section.title:
            titles.setdefault(section.number, set()).add(fold(section.title))
    for brief in draft.earlier:
        for rename in brief.section_renames:
            if rename.title:
                titles.setdefault(rename.section, set()).add(fold(rename.title))
    return titles


def _renames(
    texts: list[tuple[int, str, Any]], draft: Draft, titles: dict[str, set[str]] | None = None
) -> list[dict[str, Any]]:
    """「§5.2 改名为「新」」, 「§1.1 更名：「旧」→「新」」 or 「改名：§5.2「旧」→「新」」: the section and its new title
    (the last of an arrow's chain); one rename a section.  In words no wording names, a section given its own
    title and then another (「§2.6「旧」重命名为「新」」, ``titles`` knowing 「旧」 as §2.6's) is read as renamed
    too, and asked."""
    said = draft.words.wording("renamed")
    out: list[dict[str, Any]] = []
    for line, text, _item in texts:
        for clause in CLAUSE.findall(text):
            said_at = list(said.finditer(clause))
            section = SECTION_REF.search(clause)
            if section and not said_at and (retitled := _retitled(clause, section, titles or {})):
                entry = {"section": section["section"], "title": retitled, "text": clause.strip()}
                if all(r["section"] != entry["section"] for r in out):
                    out.append(entry)
                    draft.warn(
                        line,
                        f"§{section['section']} is given its title and then «{retitled}» in words no wording names: read "
                        "as renamed; check, and add the verb to wordings: renamed",
                        ("section_renames",),
                    )
                continue
            if not said_at or not section:
                continue
            # 「户头改为：§5.2「旧」户头改为「新」」: the verb after the section, when it comes again there, says the title
            m = next((x for x in said_at if x.start() > section.start()), said_at[0])
            if section.start() < m.start():  # the section, then the verb and the title after it
                title = _last_title(clause, QUOTED.search(clause, m.end()))
            else:  # the verb, then the section with its titles right after it
                title = _last_title(clause, QUOTED.match(clause, _skip_space(clause, section.end())))
            if title is None:
                continue
            entry = {"section": section["section"], "title": title["text"], "text": clause.strip()}
            if all(r["section"] != entry["section"] for r in out):
                out.append(entry)
    return out


RETITLING = re.compile(r"\s*[^\s「」，,。；;§]{0,6}(?:为|成|作|→|->)\s*")
"""What stands between a section's own title and its new one: a short verb ending in 为 / 成 / 作, or an arrow
(「重命名为」, 「换成」, 「→」)."""
ENTRY_WORD = re.compile(r"\s*(?:一行)?(?:子条目|条目|子节点|分支|小节|小注|段落?|那条)")


def _retitled(clause: str, section: re.Match[str], titles: dict[str, set[str]]) -> str | None:
    """The other title a clause gives a section right after naming it by its own title (「§2.6「旧」……「新」」)."""
    own = QUOTED.match(clause, _skip_space(clause, section.end()))
    if own is None or fold(own["text"]) not in titles.get(section["section"], set()):
        return None
    other = QUOTED.search(clause, own.end())
    if (
        other is None
        or fold(other["text"]) == fold(own["text"])
        or not RETITLING.fullmatch(clause[own.end() : other.start()])
        or ENTRY_WORD.match(clause, other.end())
    ):
        return None  # 「§2.6「旧」下设「ModelExpress 加载开关」子条目」 names an entry, not a new title
    last = _last_title(clause, other)
    return last["text"] if last is not None else None


def _last_title(clause: str, title: re.Match[str] | None) -> re.Match[str] | None:
    """The quoted title at the end of 「旧」→「新」 (or the one title when no arrow follows it)."""
    while title and (after := ARROW.match(clause, title.end())) and (new := QUOTED.match(clause, after.end())):
        title = new
    return title


def _skip_space(text: str, at: int) -> int:
    return at + len(text[at:]) - len(text[at:].lstrip())


def _moves(
    texts: list[tuple[int, str, Any]], today: dt.date, history: History, draft: Draft, outline: Outline | None = None
) -> list[dict[str, Any]]:
    """「把 10-31 条目 2 挪到 §5.2」: the entry that item made, and the section after the phrase.  An entry
    quoted word for word (「§1.1 里 Inferact 那一段（10-21 写下的「Inferact 获大额融资，…」）迁往 §5.2」)
    is named more surely than by the item a date points at.  A clause that moves an entry to where it
    already stands retells an earlier night's move (「平安夜岑从 §3.1 调到了 §3.3」): nothing moves tonight."""
    said = draft.words.wording("moved")
    out: list[dict[str, Any]] = []
    for line, text, _item in texts:
        for clause in CLAUSE.findall(text):
            m = said.search(clause)
            if not m:
                continue
            to = [s for s in SECTION_REF.finditer(clause) if s.start() > m.start()]
            found = [r for r in find_references(clause, today, history, part="items") if r.id]
            refs = {str(r.id) for r in found if r.kind == "item"}
            named = {str(r.id) for r in found if r.kind == "entry"}
            quoted = _entries_quoted(clause, outline)
            if not to or (len(refs) != 1 and len(named) != 1 and len(quoted) != 1):
                continue
            # 「把 10-31 条目 2 挪到 §5.2」, or the entry named by its title (「挪一条：「Meta 的 … 部署」……挪到 §5.4」)
            if len(quoted) == 1:
                entry: str | None = next(iter(quoted))
            else:
                entry = history.entry_of(next(iter(refs))) if len(refs) == 1 else next(iter(named))
            if entry is not None and history.section_of(entry) == to[0]["section"]:
                continue
            if entry is None:
                draft.warn(line, f"«{clause.strip()}»: moves an item that made no entry; nothing moved")
                continue
            if all(x["entry"] != entry for x in out):
                out.append({"entry": Code(entry), "to": to[0]["section"], "text": clause.strip()})
    return out


def _splits(
    items: list[dict[str, Any]],
    today: dt.date,
    history: History,
    draft: Draft,
    outline: Outline | None = None,
    conclusions: list[str] | None = None,
) -> list[dict[str, Any]]:
    """「§5.4 Kapitsa 子条目（10-29 条目 1 起头）……索性一分为二：本条收版本与格式，条 3 收同机基准」: the
    items whose own words say they split something are the parts, and the one earlier entry those words
    name is what they split; when they name several (the entry, and what earlier nights wrote into it),
    the split's line in part 四 may name the one (「一分两半：12 月 18 日钟的 No.3 … 分成 …」).  Two parts and one
    entry, or nothing but a question for the editor."""
    said = draft.words.wording("split")
    parts: list[tuple[int, dict[str, Any], str]] = []
    in_clauses: set[str] = set()  # what the clauses that say 「拆」 name
    named: set[str] = set()  # what the parts' texts name anywhere
    for index, item in enumerate(items):
        texts = [item.get("title", ""), item.get("relation", ""), item.get("placement", {}).get("text", "")]
        clauses = [c for t in texts for c in CLAUSE.findall(t) if said.search(c)]
        if not clauses:
            continue
        parts.append((index, item, clauses[0].strip()))
        for clause in clauses:
            in_clauses |= _entries_named(clause, today, history) | _entries_quoted(clause, outline)
        for text in texts:
            named |= _entries_named(text, today, history)
    if len(parts) < 2:
        return []
    if len(in_clauses) == 1:
        named = in_clauses  # 「§3.2「Dynamo 1.0 GA」拆作两条」: the entry the split's own words name
    if len(named) != 1:
        summed = {
            e
            for text in conclusions or []
            for clause in CLAUSE.findall(text)
            if said.search(clause)
            for e in _entries_named(clause, today, history) | _entries_quoted(clause, outline)
        }
        if len(summed) == 1 and (not named or summed <= named):
            named = summed
    if len(named) != 1:
        numbers = "、".join(str(item.get("number")) for _, item, _ in parts)
        draft.warn(
            draft.origins.get(("items", parts[0][0]), 1),
            f"条目 {numbers} say they split an entry, but "
            + (f"name {len(named)} earlier entries ({', '.join(sorted(named))})" if named else "name no earlier entry")
            + "; write splits: [{entry: <id>, into: [<item ids>]}]",
        )
        return []
    text = "；".join(dict.fromkeys(clause for _, _, clause in parts))
    unsure = [item for _, item, _ in parts if not said.search(item.get("placement", {}).get("text", ""))]
    if unsure:
        # 「那一行今晚随拆分归到条目 2 那一条」: a part whose placement does not say so may only mention the split
        draft.warn(
            draft.origins.get(("items", parts[0][0]), 1),
            f"split read from words outside a placement (条目 {'、'.join(str(i.get('number')) for i in unsure)}): "
            "are these the parts? name them in into:",
            ("splits", 0),
        )
    return [{"entry": Code(named.pop()), "into": [Code(str(item["id"])) for _, item, _ in parts], "text": text}]


def _entries_named(text: str, today: dt.date, history: History) -> set[str]:
    """The earlier entries ``text`` names: by name, or by the earlier item that made them."""
    named: set[str] = set()
    for r in find_references(text, today, history, part="items"):
        if r.kind == "item" and r.id and (entry := history.entry_of(str(r.id))):
            named.add(entry)
        elif r.kind == "entry" and r.id:
            named.add(str(r.id))
    return named


def _entries_quoted(text: str, outline: Outline | None) -> set[str]:
    """The entries ``text`` names by their exact title or words in 「」 (「§3.2「Dynamo 1.0 GA」拆作两条」)."""
    quoted = {fold(m["text"]) for m in QUOTED.finditer(text)}
    return {e.id for e in (outline.entries if outline else []) if {fold(e.title), fold(e.text or "")} & quoted}


def _errata(texts: list[tuple[int, str, Any]], today: dt.date, history: History, draft: Draft) -> list[dict[str, Any]]:
    """「勘误：本周四（11-05）简报条目 3 把 … 写成了 #33107，应为 #33170」: the brief and item it corrects,
    the wrong words and the right ones.  One that says neither is a warning, not a guess."""
    said = draft.words.wording("erratum")
    out: list[dict[str, Any]] = []
    for line, text, _item in texts:
        m = said.match(text.strip())
        if not m:
            continue
        refs = [r for r in find_references(text, today, history, part="items") if r.kind == "item" and r.id]
        strict, loosely = _fixes(corrected_to(draft.words))
        fix = strict.search(text)
        loose = loosely.search(text) if fix is None else None
        fix = fix or loose
        if len({r.id for r in refs}) != 1 or fix is None:
            draft.warn(
                line, f"«{text.strip()[:40]}…» reads as an erratum, but names no single item or no 「旧」应为「新」"
            )
            continue
        ref = refs[0]
        old, new = (fix["qold"] or fix["old"]).strip(), (fix["qnew"] or fix["new"]).strip()
        erratum = {"brief": ref.brief, "item": Code(str(ref.id)), "old": old, "new": new, "text": text.strip()}
        if erratum not in out:
            out.append(erratum)
            if loose is not None:
                draft.warn(
                    line,
                    f"erratum of {ref.text}: the words before 应为 quote «{old}»; if only part of it is wrong, "
                    "narrow old to those words",
                    ("errata", len(out) - 1),
                )
    return out
