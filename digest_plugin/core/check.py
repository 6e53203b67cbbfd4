"""Checks across files: every reference a brief makes must land on something that exists.

Schema validation (in :mod:`load`) sees one file at a time; these checks see the whole data
folder, so they catch what an editor gets wrong when a brief points at the living doc: an
unknown section, an update of an entry that does not exist, a contradiction naming an item
no brief has.  The merge relies on them: it is only ever run on data that passed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import NamedTuple
from urllib.parse import unquote

from pydantic import BaseModel

from . import spelling
from .arxiv import key as arxiv_key
from .findings import Finding, locate
from .load import Dataset
from .model import VOCABULARIES, Brief, Evidence, Item, Outline, PlacementAction
from .vocabulary import FILE as VOCABULARY_FILE
from .vocabulary import Vocabulary, fold

_Loc = tuple[str | int, ...]
"""Where in a brief's YAML a finding points: keys and list indexes, as pydantic locates errors."""


def _suggest(value: str, known: list[str], prefix: str = "", cutoff: float = 0.5) -> str | None:
    close = difflib.get_close_matches(value, known, n=1, cutoff=cutoff)
    return f"did you mean {prefix}{close[0]}?" if close else None


def _nearest_section(value: str, sections: list[str]) -> str | None:
    """The closest section in the same chapter (§3.3 → §3.2), else the closest by spelling."""
    major, _, minor = value.partition(".")
    same = [s for s in sections if s.split(".")[0] == major and "." in s]
    if same and minor.isdigit():
        best = min(same, key=lambda s: (abs(int(s.split(".")[1]) - int(minor)), s))
        return f"did you mean §{best}?"
    return _suggest(value, sections, "§")


def check_references(dataset: Dataset) -> list[Finding]:
    """Findings for every dangling or duplicate reference in the data set."""
    findings: list[Finding] = []
    item_ids: dict[str, str] = {}
    contradiction_ids: dict[str, str] = {}
    follow_up_ids: dict[str, str] = {}
    for brief in dataset.briefs:
        for loc, kind, value, seen in _ids(brief, item_ids, contradiction_ids, follow_up_ids):
            if value in seen and seen[value] != f"{brief.id}:{loc}":
                findings.append(
                    _at(
                        dataset,
                        brief.id,
                        loc,
                        f"duplicate {kind} id '{value}' (also in {seen[value].split(':')[0]})",
                        hint=f"give this {kind} a new id",
                    )
                )
            seen.setdefault(value, f"{brief.id}:{loc}")
        findings += _numbers(dataset, brief)
        findings += _questions(dataset, brief)

    citations = {arxiv_key(c.arxiv) for b in dataset.briefs for c in b.citations}
    contradictions = {c.id for b in dataset.briefs for c in b.contradictions}
    topic_items: dict[str, dict[str, str]] = {}
    unplaced: dict[str, set[str]] = {}
    for brief in dataset.briefs:  # an item can only be referred to within its own topic's living doc
        topic_items.setdefault(brief.topic, {}).update({i.id: brief.id for i in brief.items})
        unplaced.setdefault(brief.topic, set()).update(i.id for i in brief.items if not i.placement.action.places)
    opened, opening_findings = _openings(dataset)
    findings += opening_findings
    known = {
        topic: _Known(
            outline, topic_items.get(topic, {}), citations, contradictions, opened.get(topic, {}), unplaced.get(topic)
        )
        for topic, outline in dataset.outlines.items()
    }
    for brief in dataset.briefs:
        outline = dataset.outlines.get(brief.topic)
        if outline is None:
            findings.append(
                _at(
                    dataset,
                    brief.id,
                    ("topic",),
                    f"no outline for topic '{brief.topic}'",
                    hint=_suggest(brief.topic, sorted(dataset.outlines)) or "add outlines/<topic>.yml",
                )
            )
            continue
        findings += _check_brief(dataset, brief, known[brief.topic])
    findings += _check_lifecycle(dataset)
    findings += _check_corrections(dataset)
    findings += _claims_in_links(dataset)
    findings += _bans_that_miss(dataset)
    findings += check_words(dataset)
    findings += check_vocabulary_rules(dataset)
    return findings


def _path(loc: _Loc) -> str:
    """``items[0].evidence.gaps[1]``: a location as the schema's messages write it."""
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _words_used(brief: Brief) -> Iterator[tuple[_Loc, str, str]]:
    """(location, vocabulary, code) for every word of an open vocabulary the brief uses."""

    def evidence(at: _Loc, ev: Evidence) -> Iterator[tuple[_Loc, str, str]]:
        yield at + ("level",), "evidence_levels", ev.level
        for j, kind in enumerate(ev.source_kinds):
            yield at + ("source_kinds", j), "source_kinds", kind
        for j, gap in enumerate(ev.gaps):
            yield at + ("gaps", j), "gaps", gap

    for i, item in enumerate(brief.items):
        for j, value in enumerate(item.value):
            yield ("items", i, "value", j), "value_ratings", value
        yield from evidence(("items", i, "evidence"), item.evidence)
    for i, c in enumerate(brief.contradictions):
        yield ("contradictions", i, "disposition"), "dispositions", c.disposition
    for i, cu in enumerate(brief.contradiction_updates):
        if cu.disposition is not None:
            yield ("contradiction_updates", i, "disposition"), "dispositions", cu.disposition
    for i, eu in enumerate(brief.evidence_updates):
        yield from evidence(("evidence_updates", i, "evidence"), eu.evidence)


def check_words(dataset: Dataset) -> list[Finding]:
    """Every value rating, source kind, gap, evidence level and disposition a brief uses is a word
    of its topic's vocabulary (``data/vocabulary.yml`` and the outline's additions)."""
    found: list[Finding] = []
    where = dataset.sources.get("vocabulary", f"data/{VOCABULARY_FILE}")
    keys: dict[str, object] = {}
    for brief in dataset.briefs:
        if brief.topic not in keys:  # the words a brief may use: the site's file and its outline's
            outline = dataset.outlines.get(brief.topic)
            keys[brief.topic] = dataset.memo.key(
                f"words:{brief.topic}", (where, dataset.words, outline.vocabulary if outline else None)
            )
        found += dataset.memo.findings("words", brief, keys[brief.topic], _words_of, dataset, brief, where)
    return found


def _words_of(dataset: Dataset, brief: Brief, where: str) -> list[Finding]:
    """:func:`check_words` in one brief."""
    found: list[Finding] = []
    vocabulary = dataset.vocabulary(brief.topic)
    for loc, kind, code in _words_used(brief):
        if (kind, code) in vocabulary:
            continue
        words = list(vocabulary.words(kind))
        close = _suggest(code, words, cutoff=0.7)  # a new word is likelier than a typo
        found.append(
            _at(
                dataset,
                brief.id,
                loc,
                f"{_path(loc)}: '{code}' is not {VOCABULARIES[kind]} in {where} (its words: {', '.join(words)})",
                hint=(f"{close} If it is a new word, " if close else "")
                + f"add `{code}: <中文标签>` under {kind}: in {where}",
            )
        )
    return found


def check_vocabulary_rules(dataset: Dataset) -> list[Finding]:
    """The vocabulary's own reading rules name words it has: a level of ``levels_from_boundary``
    and a kind of ``source_kinds_by_host`` the importer would otherwise write into a brief that
    then fails its check."""
    words, key = dataset.words, "vocabulary"
    if words is None:
        return []
    found: list[Finding] = []
    where = dataset.sources.get(key, f"data/{VOCABULARY_FILE}")
    known = Vocabulary(words)

    def refuse(loc: _Loc, code: str, kind: str) -> None:
        found.append(
            _at(
                dataset,
                key,
                loc,
                f"{_path(loc)}: '{code}' is not {VOCABULARIES[kind]} in {where} (its words: "
                f"{', '.join(known.words(kind))})",
                hint=f"use one of them, or add `{code}: <中文标签>` under {kind}:",
            )
        )

    for i, row in enumerate(words.levels_from_boundary or []):
        if ("evidence_levels", row.level) not in known:
            refuse(("levels_from_boundary", i, "level"), row.level, "evidence_levels")
    for host, kind in (words.source_kinds_by_host or {}).items():
        if ("source_kinds", kind) not in known:
            refuse(("source_kinds_by_host", host), kind, "source_kinds")
    return found


class _Opening(NamedTuple):
    """A section a brief opens (``placement.action: new_section``): where, and under which title."""

    number: str
    title: str
    brief: Brief
    item: int
    """The number of the item that opens it."""

    def name(self) -> str:
        return f"{self.brief.id} item {self.item}"


def _openings(dataset: Dataset) -> tuple[dict[str, dict[str, _Opening]], list[Finding]]:
    """The sections briefs open, by topic and number (the first opening of each, in the order the
    merge applies briefs and items), and the findings about openings that cannot stand: a number
    the outline already has, a chapter the outline lacks, a second title for the same section."""
    opened: dict[str, dict[str, _Opening]] = {}
    found: list[Finding] = []
    for brief in dataset.briefs:  # (in date order: load_data sorts them)
        outline = dataset.outlines.get(brief.topic)
        if outline is None:
            continue  # said once, by the topic check
        numbers = {s.number: s for s in outline.sections}
        here = opened.setdefault(brief.topic, {})
        for i, item in sorted(enumerate(brief.items), key=lambda ii: ii[1].number):
            p, at = item.placement, ("items", i, "placement")
            if p.action is not PlacementAction.new_section or p.section is None:
                continue
            number, title = p.section, p.section_title or ""
            chapter = number.split(".")[0]
            if "." not in number:
                found.append(
                    _at(
                        dataset,
                        brief.id,
                        at + ("section",),
                        f"new_section §{number} would open a chapter; a brief opens only a sub-section (§{number}.1 …)",
                        hint=f"a new chapter goes into the outline ({_outline_file(dataset, brief.topic)}), with its own page",
                    )
                )
            elif number in numbers:
                known = numbers[number].title
                free = _free_number(chapter, [*numbers, *here])
                found.append(
                    _at(
                        dataset,
                        brief.id,
                        at + ("section",),
                        f"new_section §{number}: the outline already has §{number}" + (f"「{known}」" if known else ""),
                        hint=f"use action: new_sub_entry to place the item in §{number}, or open a free number (§{free})",
                    )
                )
            elif chapter not in numbers:
                chapters = [n for n in numbers if "." not in n]
                found.append(
                    _at(
                        dataset,
                        brief.id,
                        at + ("section",),
                        f"new_section §{number}: the outline has no chapter §{chapter}",
                        hint="open it under a chapter of the outline ("
                        + ", ".join(f"§{c}" for c in chapters)
                        + f") or add §{chapter} to {_outline_file(dataset, brief.topic)}",
                    )
                )
            elif number in here:
                first = here[number]
                if first.title != title:
                    found.append(
                        _at(
                            dataset,
                            brief.id,
                            at + ("section_title",),
                            f"§{number} was opened by {first.name()} as「{first.title}」; this item titles it「{title}」",
                            hint=f"the section keeps its first title: write「{first.title}」here, "
                            f"or place the item with action: new_sub_entry",
                            severity="warning",
                        )
                    )
            else:
                here[number] = _Opening(number, title, brief, item.number)
    return opened, found


def _outline_file(dataset: Dataset, topic: str) -> str:
    return dataset.sources.get(f"outline:{topic}", f"data/outlines/{topic}.yml")


def _free_number(chapter: str, taken: list[str]) -> str:
    """The sub-section number after the highest one a chapter has (§2.6 when §2.5 is the last)."""
    minors = [int(n.split(".")[1]) for n in taken if n.split(".")[0] == chapter and "." in n]
    return f"{chapter}.{max(minors, default=0) + 1}"


def _check_corrections(dataset: Dataset) -> list[Finding]:
    """A correction names a figure the living doc holds (a figure key of an outline entry or of an
    item of the same topic); else it would correct nothing, silently."""
    found: list[Finding] = []
    figures: dict[str, set[str]] = {}
    for topic, outline in dataset.outlines.items():
        figures[topic] = {f.key for e in outline.entries for f in e.figures}
    for brief in dataset.briefs:
        figures.setdefault(brief.topic, set()).update(f.key for i in brief.items for f in i.figures)
    claims = {c.id: {w.text for w in c.withheld} for b in dataset.briefs for c in b.contradictions}
    figures_withheld = {
        c.id: {w.figure for w in c.withheld if w.figure} for b in dataset.briefs for c in b.contradictions
    }
    """A figure a contradiction withheld: its wrong value was never recorded as a value."""
    values: dict[tuple[str, str], set[str]] = {}
    for topic, outline in dataset.outlines.items():
        for e in outline.entries:
            for f in e.figures:
                values.setdefault((topic, f.key), set()).add(fold(str(f.value)))
    for b in dataset.briefs:
        for item in b.items:
            for f in item.figures:
                values.setdefault((b.topic, f.key), set()).add(fold(str(f.value)))
    for brief in dataset.briefs:
        known = figures.get(brief.topic, set())
        for i, update in enumerate(brief.contradiction_updates):
            for j, correction in enumerate(update.corrections):
                if correction.claim is not None:
                    withheld = claims.get(update.contradiction, set())
                    if withheld and correction.claim not in withheld:  # (one that withheld nothing: any wording)
                        found.append(
                            _at(
                                dataset,
                                brief.id,
                                ("contradiction_updates", i, "corrections", j, "claim"),
                                f"correction of the claim '{correction.claim}', which contradiction "
                                f"'{update.contradiction}' does not withhold",
                                hint=f"write one of its withheld claims: {', '.join(sorted(withheld))}"
                                if withheld
                                else "name the figure it corrects instead (key: …)",
                            )
                        )
                    continue
                had = values.get((brief.topic, correction.key or ""), set())
                withheld_figure = correction.key in figures_withheld.get(update.contradiction, set())
                if correction.key in known and had and not withheld_figure and fold(str(correction.old)) not in had:
                    found.append(
                        _at(
                            dataset,
                            brief.id,
                            ("contradiction_updates", i, "corrections", j, "old"),
                            f"figure '{correction.key}' never had the value {correction.old!r} that this corrects",
                            hint=f"its values were: {', '.join(sorted(had))}; write the wrong value as given",
                            severity="warning",
                        )
                    )
                if correction.key not in known:
                    found.append(
                        _at(
                            dataset,
                            brief.id,
                            ("contradiction_updates", i, "corrections", j, "key"),
                            f"correction of figure '{correction.key}', which no entry or item has",
                            hint=_suggest(correction.key or "", sorted(known))
                            or "name the figure key the wrong value was given under",
                        )
                    )
    return found


def _check_lifecycle(dataset: Dataset) -> list[Finding]:
    """Updates may only name what an earlier (or the same) brief of the same topic opened."""
    found: list[Finding] = []
    seen: dict[str, dict[str, set[str]]] = {}
    for brief in sorted(dataset.briefs, key=lambda b: (b.date, b.id)):
        known = seen.setdefault(brief.topic, {"items": set(), "contradictions": set(), "follow_ups": set()})
        known["items"] |= {i.id for i in brief.items}
        known["contradictions"] |= {c.id for c in brief.contradictions}
        known["follow_ups"] |= {f.id for f in brief.follow_ups}
        found += _check_updates(dataset, brief, known)
    return found


def _check_updates(dataset: Dataset, brief: Brief, known: dict[str, set[str]]) -> list[Finding]:
    """The updates of one brief, against the ids (by kind) it and the earlier briefs of its topic opened."""
    found: list[Finding] = []

    def need(loc: _Loc, value: str | None, kind: str, what: str, hint: str) -> None:
        if value is not None and value not in known[kind]:
            found.append(
                _at(
                    dataset,
                    brief.id,
                    loc,
                    f"{what} '{value}' was never opened by this or an earlier brief",
                    hint=_suggest(value, sorted(known[kind])) or hint,
                )
            )

    for i, cu in enumerate(brief.contradiction_updates):
        need(
            ("contradiction_updates", i, "contradiction"),
            cu.contradiction,
            "contradictions",
            "contradiction",
            "a later brief can only resolve a contradiction an earlier one opened",
        )
        need(
            ("contradiction_updates", i, "superseded_by"),
            cu.superseded_by,
            "contradictions",
            "contradiction",
            "open the successor in this brief's contradictions first",
        )
    for i, fu in enumerate(brief.follow_up_updates):
        need(
            ("follow_up_updates", i, "follow_up"),
            fu.follow_up,
            "follow_ups",
            "follow-up",
            "a follow-up must be opened (follow_ups:) before it is closed",
        )
    words = dataset.vocabulary(brief.topic)
    in_place = {
        entry: item
        for item in brief.items
        if item.placement.action is PlacementAction.update_in_place
        for entry in (item.placement.entry, *item.placement.entries)
        if entry
    }
    for i, eu in enumerate(brief.evidence_updates):
        need(("evidence_updates", i, "item"), eu.item, "items", "item", "name an item of this or an earlier brief")
        updating = in_place.get(eu.item)
        if updating is not None and words.rank(eu.evidence.level) > words.rank(updating.evidence.level):
            found.append(
                _at(
                    dataset,
                    brief.id,
                    ("evidence_updates", i, "item"),
                    f"'{eu.item}' is updated in place by 条目 {updating.number} of this brief, whose evidence is "
                    f"{words.label('evidence_levels', updating.evidence.level)}; this evidence update comes after it "
                    f"and lowers the entry to {words.label('evidence_levels', eu.evidence.level)}",
                    hint=f"remove this evidence update, and set the evidence on 条目 {updating.number} "
                    f"(`digest set-evidence BRIEF {eu.item} …` does)",
                    severity="warning",
                )
            )
        need(
            ("evidence_updates", i, "follow_up"),
            eu.follow_up,
            "follow_ups",
            "follow-up",
            "name the follow-up that raised it",
        )
    for i, r in enumerate(brief.retractions):
        need(("retractions", i, "item"), r.item, "items", "item", "name an item of this or an earlier brief")
        need(("retractions", i, "superseded_by"), r.superseded_by, "items", "item", "name the item that replaces it")
    return found


def _ids(
    brief: Brief, items: dict[str, str], contradictions: dict[str, str], follow_ups: dict[str, str]
) -> Iterator[tuple[_Loc, str, str, dict[str, str]]]:
    """(location, kind, id, the ids seen so far of that kind) for each id the brief gives."""
    for i, item in enumerate(brief.items):
        yield ("items", i, "id"), "item", item.id, items
    for i, c in enumerate(brief.contradictions):
        yield ("contradictions", i, "id"), "contradiction", c.id, contradictions
    for i, f in enumerate(brief.follow_ups):
        yield ("follow_ups", i, "id"), "follow-up", f.id, follow_ups


def _numbers(dataset: Dataset, brief: Brief) -> list[Finding]:
    """The numbers of a brief's items, contradictions and follow-ups are unique within each list.

    Readers and the site refer to them by number ("条目 2", "矛盾 3", the importer's ids): two with
    one number make such a reference point at either."""
    found = []
    lists: list[tuple[str, str, list[tuple[str, int]]]] = [
        ("items", "item", [(x.id, x.number) for x in brief.items]),
        ("contradictions", "contradiction", [(x.id, x.number) for x in brief.contradictions]),
        ("follow_ups", "follow-up", [(x.id, x.number) for x in brief.follow_ups]),
    ]
    for key, kind, entries in lists:
        first: dict[int, str] = {}
        for i, (ident, number) in enumerate(entries):
            if number in first:
                found.append(
                    _at(
                        dataset,
                        brief.id,
                        (key, i, "number"),
                        f"{kind} number {number} is also the number of {kind} '{first[number]}'",
                        hint=f"number the {kind}s of a brief 1, 2, 3… without repeats",
                    )
                )
            first.setdefault(number, ident)
    return found


def _questions(dataset: Dataset, brief: Brief) -> list[Finding]:
    """Each question points at a part of its brief that an answer can write (a mapping), and each
    choice writes keys that part has: an answer ``digest review`` could not apply is caught here."""
    found: list[Finding] = []
    seen: set[str] = set()
    for i, question in enumerate(brief.questions):
        if question.id in seen:
            found.append(_at(dataset, brief.id, ("questions", i, "id"), f"question id '{question.id}' is used twice"))
        seen.add(question.id)
        node: object = brief
        for step in question.path:
            if isinstance(step, str) and isinstance(node, BaseModel) and step in type(node).model_fields:
                node = getattr(node, step)
            elif isinstance(step, int) and isinstance(node, list) and step < len(node):
                node = node[step]
            else:
                node = None
                break
        if not isinstance(node, BaseModel):
            found.append(
                _at(
                    dataset,
                    brief.id,
                    ("questions", i, "at"),
                    f"question {question.id}: '{question.at}' names no part of this brief an answer can write",
                    hint="point it at an item's placement, a contradiction update … (e.g. items[2].placement)",
                )
            )
            continue
        fields = type(node).model_fields
        for j, choice in enumerate(question.choices):
            for key in choice.set:
                if key not in fields:
                    found.append(
                        _at(
                            dataset,
                            brief.id,
                            ("questions", i, "choices", j, "set", key),
                            f"question {question.id}: '{question.at}' has no key '{key}'",
                            hint=f"its keys: {', '.join(fields)}",
                        )
                    )
    return found


class _Known:
    """What references may point at, as sets built once (not per brief: that would be quadratic)."""

    def __init__(
        self,
        outline: Outline,
        item_ids: dict[str, str],
        citations: set[str],
        contradictions: set[str],
        opened: dict[str, _Opening],
        unplaced: set[str] | None = None,
    ) -> None:
        self.outline_sections = [s.number for s in outline.sections]
        self.opened = opened
        self.outline_entries = {e.id for e in outline.entries}
        self.items = set(item_ids)
        self.briefs = set(item_ids.values())
        self.items_of: dict[str, set[str]] = {}
        """The items of each brief (an erratum names one of them)."""
        for item_id, brief_id in item_ids.items():
            self.items_of.setdefault(brief_id, set()).add(item_id)
        self.entries = self.outline_entries | (self.items - (unplaced or set()))
        """An item kept out of the doc (``not_placed`` …) made no entry a later brief could update."""
        self.citations = citations
        self.contradictions = contradictions

    def sections(self, brief: Brief) -> list[str]:
        """The outline's sections and those this brief or an earlier one opened (the few a brief
        opens, so a scan per brief stays cheap)."""
        return self.outline_sections + [
            n for n, o in self.opened.items() if (o.brief.date, o.brief.id) <= (brief.date, brief.id)
        ]


def _check_brief(dataset: Dataset, brief: Brief, known: _Known) -> list[Finding]:
    found: list[Finding] = []
    entries, items = known.entries, known.items
    citations, contradictions = known.citations, known.contradictions
    sections = known.sections(brief)

    def section(loc: _Loc, value: str) -> None:
        if value in sections:
            return
        later = known.opened.get(value)
        hint = (
            f"§{value} is opened only later, by {later.name()}; place items in it from that brief on"
            if later is not None
            else " ".join(
                filter(
                    None,
                    (
                        _nearest_section(value, sections),
                        f"If §{value} is a new section, open it: give the item that starts it "
                        "`action: new_section` and `section_title: <标题>`; later items can then go in it.",
                    ),
                )
            )
        )
        found.append(_at(dataset, brief.id, loc, f"unknown section §{value}", hint=hint))

    def ref(loc: _Loc, value: str | None, known: set[str], kind: str, *, but: str | None = None) -> None:
        """``but``: the one id that does not count (an item is no duplicate of itself); not taken out
        of ``known`` (a copy of every item, per item, made the check quadratic: 11 s at ten years)."""
        if value is not None and (value not in known or value == but):
            others = sorted(known - {but}) if but is not None else sorted(known)
            found.append(_at(dataset, brief.id, loc, f"unknown {kind} '{value}'", hint=_suggest(value, others)))

    for i, item in enumerate(brief.items):
        p, at = item.placement, ("items", i, "placement")
        if p.action is not PlacementAction.new_section and p.section is not None:  # _openings checks an opening
            section(at + ("section",), p.section)
        ref(at + ("duplicate_of",), p.duplicate_of, items, "item", but=item.id)
        if p.action is PlacementAction.update_in_place:
            ref(at + ("entry",), p.entry, entries, "entry to update in place")
        for j, also in enumerate(p.entries):
            ref(at + ("entries", j), also, entries, "entry to update in place")
        ref(at + ("after",), p.after, entries, "entry")
        for j, alt in enumerate(p.alternatives):
            section(at + ("alternatives", j, "section"), alt.section)
        for j, xref in enumerate(p.cross_refs):
            section(at + ("cross_refs", j, "section"), xref.section)
            ref(at + ("cross_refs", j, "item"), xref.item, items, "item")
            ref(at + ("cross_refs", j, "entry"), xref.entry, entries, "entry")
    own_items = {i.id for i in brief.items}
    for i, rename in enumerate(brief.section_renames):
        section(("section_renames", i, "section"), rename.section)
    for i, move in enumerate(brief.moves):
        ref(("moves", i, "entry"), move.entry, entries, "entry to move")
        section(("moves", i, "to"), move.to)
    for i, split in enumerate(brief.splits):
        ref(("splits", i, "entry"), split.entry, entries, "entry to split")
        for j, part in enumerate(split.into):
            ref(("splits", i, "into", j), part, own_items, "item of this brief (the parts of a split)")
    for i, erratum in enumerate(brief.errata):
        if erratum.brief not in known.briefs or erratum.brief >= brief.id:
            found.append(
                _at(
                    dataset,
                    brief.id,
                    ("errata", i, "brief"),
                    f"an erratum of '{erratum.brief}', which is no earlier brief",
                    hint=_suggest(erratum.brief, sorted(b for b in known.briefs if b < brief.id)),
                )
            )
        elif erratum.item is not None:
            ref(("errata", i, "item"), erratum.item, known.items_of[erratum.brief], f"item of {erratum.brief}")
    for i, c in enumerate(brief.contradictions):
        at = ("contradictions", i, "touches")
        for j, s in enumerate(c.touches.sections):
            section(at + ("sections", j), s)
        for j, x in enumerate(c.touches.items):
            ref(at + ("items", j), x, items, "item")
        for j, x in enumerate(c.touches.entries):
            ref(at + ("entries", j), x, entries, "entry")
        for j, x in enumerate(c.touches.citations):
            if arxiv_key(x) not in citations:
                found.append(
                    _at(
                        dataset,
                        brief.id,
                        at + ("citations", j),
                        f"arXiv:{x} is not in any brief's citations",
                        hint="add it under citations: or fix the id",
                    )
                )
    for i, cit in enumerate(brief.citations):
        if cit.down_weighted_by and cit.down_weighted_by not in contradictions:
            found.append(
                _at(
                    dataset,
                    brief.id,
                    ("citations", i, "down_weighted_by"),
                    f"unknown contradiction '{cit.down_weighted_by}'",
                    hint=_suggest(cit.down_weighted_by, sorted(contradictions)),
                )
            )
    for i, f in enumerate(brief.follow_ups):
        for j, x in enumerate(f.items):
            ref(("follow_ups", i, "items", j), x, items, "item")
    return found


def _item_texts(item: Item) -> Iterator[tuple[_Loc, str]]:
    """Where an item states things, and what: title, points, boundary, relation, placement, notes."""
    yield ("title",), item.title
    for k, point in enumerate(item.points):
        yield ("points", k), point
    if item.evidence.boundary:
        yield ("evidence", "boundary"), item.evidence.boundary
    if item.relation:
        yield ("relation",), item.relation
    if item.placement.text:
        yield ("placement", "text"), item.placement.text
    for k, note in enumerate(item.notes):
        yield ("notes", k), note


def _bans_that_miss(dataset: Dataset) -> list[Finding]:
    """A ban whose spelling misses how the brief's own items state the claim (issue 33, 2): the
    contradiction withholds 「HiCache 使 TTFT 降 6×」, an item says 「官方博客称多轮对话场景 TTFT 降 6×」,
    and nothing masks it.  A warning names the sentence and the pattern that would mask it; a ban on
    a wording no item uses stays silent.  A brief's findings are its own: kept across rebuilds (:mod:`memo`)."""
    found: list[Finding] = []
    for b in dataset.briefs:
        found += dataset.memo.findings("bans", b, None, _bans_of, dataset, b)
    return found


def _bans_of(dataset: Dataset, b: Brief) -> list[Finding]:
    """:func:`_bans_that_miss` in one brief."""
    found: list[Finding] = []
    for c in b.contradictions:
        for w in c.withheld:
            spelled = [spelling.canonical(p) for p in w.patterns]
            for i, item in enumerate(b.items):
                for loc, text in _item_texts(item):
                    for span in spelling.near_misses(w.text, text):
                        if any(p and p in spelling.canonical(span) for p in spelled):
                            continue
                        found.append(
                            _at(
                                dataset,
                                b.id,
                                ("items", i, *loc),
                                f"条目 {item.number} states «{span}», the figure of 「{w.text}」 that 矛盾 "
                                f"{c.number} withholds, in words its patterns do not match",
                                hint=f'add it to that claim\'s patterns: - "{span}"',
                                severity="warning",
                            )
                        )
    return found


def _claims_in_links(dataset: Dataset) -> list[Finding]:
    """A source URL that holds a withheld claim once decoded (``?q=%E5%91%A8%E5%A2%9E%20%2B175``): the
    link would carry the claim into ``href`` and every copy of it, where no mark can stand in for it
    (issue 33).  Claims a later brief confirmed are free; a claim corrected stays withheld."""
    confirmed = {
        u.contradiction
        for b in dataset.briefs
        for u in b.contradiction_updates
        if u.outcome is not None and u.outcome.value == "confirmed"
    }
    claims: dict[str, dict[str, dict[str, str]]] = {}
    """topic → the first two characters of a claim's canonical form → form → as written: a URL is
    read once, position by position, not once per claim (ten years hold thousands of them)."""
    for b in dataset.briefs:
        for c in b.contradictions:
            if c.id not in confirmed:
                for w in c.withheld:
                    for p in w.patterns:
                        if form := spelling.canonical(p):
                            claims.setdefault(b.topic, {}).setdefault(form[:2], {}).setdefault(form, p)
    found: list[Finding] = []
    keys = {topic: dataset.memo.key(f"links:{topic}", _frozen(heads)) for topic, heads in claims.items()}
    for b in dataset.briefs:
        heads = claims.get(b.topic, {})
        found += dataset.memo.findings("links", b, keys.get(b.topic), _links_holding, dataset, b, heads)
    return found


def _frozen(heads: dict[str, dict[str, str]]) -> frozenset[tuple[str, str]]:
    """The claims of a topic as a value a memo compares (:mod:`memo`): every form and its spelling."""
    return frozenset((form, written) for forms in heads.values() for form, written in forms.items())


def _links_holding(dataset: Dataset, b: Brief, heads: dict[str, dict[str, str]]) -> list[Finding]:
    """:func:`_claims_in_links` in one brief's links, given every claim withheld in its topic."""
    found: list[Finding] = []
    for i, item in enumerate(b.items):
        for j, url in enumerate(item.sources.urls):
            said = spelling.canonical(unquote(url))
            held = {
                form: written
                for k in range(len(said))
                for head in (said[k : k + 2], said[k])
                for form, written in heads.get(head, {}).items()
                if said.startswith(form, k)
            }
            found += [
                _at(
                    dataset,
                    b.id,
                    ("items", i, "sources", "urls", j),
                    f"the link holds the withheld claim '{written}' once decoded",
                    hint="link the page without the claim in its address (drop the query or fragment)",
                )
                for written in held.values()
            ]
    return found


def _at(
    dataset: Dataset, key: str, loc: _Loc, message: str, hint: str | None = None, severity: str = "error"
) -> Finding:
    line, col = locate(dataset.tree(key), loc)
    return Finding(dataset.sources.get(key, key), line, col, message, severity=severity, hint=hint)
