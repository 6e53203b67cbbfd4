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
from .model import VOCABULARIES, Brief, Correction, Evidence, EvidenceUpdate, Item, Outline, PlacementAction, Section
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
    findings += _outline_entries(dataset)
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


def _outline_entries(dataset: Dataset) -> list[Finding]:
    """An outline entry filed under a section the outline does not have: the merge would have nowhere
    to put it (it raised a KeyError), so it is an error at the entry's ``section``, naming the numbers
    there are."""
    found = []
    for topic, outline in sorted(dataset.outlines.items()):
        numbers = [s.number for s in outline.sections]
        for i, entry in enumerate(outline.entries):
            if entry.section not in numbers:
                found.append(
                    _at(
                        dataset,
                        f"outline:{topic}",
                        ("entries", i, "section"),
                        f"entry '{entry.id}' is filed under section {entry.section!r}, which the outline does not have",
                        hint=" ".join(
                            filter(None, [_suggest(entry.section, numbers), f"the outline has {', '.join(numbers)}"])
                        ),
                    )
                )
    return found


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
            refused = _opening_refused(dataset, brief, at + ("section",), number, numbers, here)
            if refused is not None:
                found.append(refused)
            elif number in here:
                found += _second_title(dataset, brief, at + ("section_title",), here[number], title)
            else:
                here[number] = _Opening(number, title, brief, item.number)
    return opened, found


def _opening_refused(
    dataset: Dataset, brief: Brief, loc: _Loc, number: str, numbers: dict[str, Section], here: dict[str, _Opening]
) -> Finding | None:
    """Why a brief cannot open §``number`` against its outline (``numbers``), if it cannot: a chapter
    is the outline's (it has a page of its own), a number the outline has is taken, and a
    sub-section needs its chapter.  ``here``: the sections opened so far, for a free number."""
    chapter = number.split(".")[0]
    if "." not in number:
        return _at(
            dataset,
            brief.id,
            loc,
            f"new_section §{number} would open a chapter; a brief opens only a sub-section (§{number}.1 …)",
            hint=f"a new chapter goes into the outline ({_outline_file(dataset, brief.topic)}), with its own page",
        )
    if number in numbers:
        known = numbers[number].title
        free = _free_number(chapter, [*numbers, *here])
        return _at(
            dataset,
            brief.id,
            loc,
            f"new_section §{number}: the outline already has §{number}" + (f"「{known}」" if known else ""),
            hint=f"use action: new_sub_entry to place the item in §{number}, or open a free number (§{free})",
        )
    if chapter not in numbers:
        chapters = [n for n in numbers if "." not in n]
        return _at(
            dataset,
            brief.id,
            loc,
            f"new_section §{number}: the outline has no chapter §{chapter}",
            hint="open it under a chapter of the outline ("
            + ", ".join(f"§{c}" for c in chapters)
            + f") or add §{chapter} to {_outline_file(dataset, brief.topic)}",
        )
    return None


def _second_title(dataset: Dataset, brief: Brief, loc: _Loc, first: _Opening, title: str) -> list[Finding]:
    """A section opened again keeps the title of its first opening: another title is a warning
    (the item still goes in the section)."""
    if first.title == title:
        return []
    return [
        _at(
            dataset,
            brief.id,
            loc,
            f"§{first.number} was opened by {first.name()} as「{first.title}」; this item titles it「{title}」",
            hint=f"the section keeps its first title: write「{first.title}」here, "
            f"or place the item with action: new_sub_entry",
            severity="warning",
        )
    ]


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
    values = _figure_values(dataset)
    for brief in dataset.briefs:
        known = figures.get(brief.topic, set())
        for i, update in enumerate(brief.contradiction_updates):
            for j, correction in enumerate(update.corrections):
                at = ("contradiction_updates", i, "corrections", j)
                if correction.claim is not None:
                    withheld = claims.get(update.contradiction, set())
                    if withheld and correction.claim not in withheld:  # (one that withheld nothing: any wording)
                        found.append(
                            _claim_not_withheld(dataset, brief, at, update.contradiction, correction.claim, withheld)
                        )
                    continue
                had = values.get((brief.topic, correction.key or ""), set())
                withheld_figure = correction.key in figures_withheld.get(update.contradiction, set())
                found += _figure_correction(dataset, brief, at, correction, known, had, withheld_figure)
    return found


def _figure_values(dataset: Dataset) -> dict[tuple[str, str], set[str]]:
    """Every value each figure was given, by (topic, key), folded as a correction's old value is
    compared: by the outline's entries and by the items of every brief."""
    values: dict[tuple[str, str], set[str]] = {}
    for topic, outline in dataset.outlines.items():
        for e in outline.entries:
            for f in e.figures:
                values.setdefault((topic, f.key), set()).add(fold(str(f.value)))
    for b in dataset.briefs:
        for item in b.items:
            for f in item.figures:
                values.setdefault((b.topic, f.key), set()).add(fold(str(f.value)))
    return values


def _claim_not_withheld(
    dataset: Dataset, brief: Brief, at: _Loc, contradiction: str, claim: str, withheld: set[str]
) -> Finding:
    """A correction of a claim names one its contradiction withholds (any wording, when it withholds
    none): a claim it does not withhold is corrected nowhere, silently."""
    return _at(
        dataset,
        brief.id,
        at + ("claim",),
        f"correction of the claim '{claim}', which contradiction '{contradiction}' does not withhold",
        hint=f"write one of its withheld claims: {', '.join(sorted(withheld))}"
        if withheld
        else "name the figure it corrects instead (key: …)",
    )


def _figure_correction(
    dataset: Dataset,
    brief: Brief,
    at: _Loc,
    correction: Correction,
    known: set[str],
    had: set[str],
    withheld_figure: bool,
) -> list[Finding]:
    """A correction of a figure names a key the doc holds (``known``), and as the wrong value one the
    figure was given (``had``); a figure its contradiction withheld was never given its wrong value,
    so any old value goes."""
    found: list[Finding] = []
    if correction.key in known and had and not withheld_figure and fold(str(correction.old)) not in had:
        found.append(
            _at(
                dataset,
                brief.id,
                at + ("old",),
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
                at + ("key",),
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
    in_place = _updated_in_place(brief)
    for i, eu in enumerate(brief.evidence_updates):
        need(("evidence_updates", i, "item"), eu.item, "items", "item", "name an item of this or an earlier brief")
        updating = in_place.get(eu.item)
        if updating is not None and words.rank(eu.evidence.level) > words.rank(updating.evidence.level):
            found.append(_lowered_in_place(dataset, brief, i, eu, updating, words))
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


def _updated_in_place(brief: Brief) -> dict[str, Item]:
    """The entries this brief's items update in place, each with the item that updates it."""
    return {
        entry: item
        for item in brief.items
        if item.placement.action is PlacementAction.update_in_place
        for entry in (item.placement.entry, *item.placement.entries)
        if entry
    }


def _lowered_in_place(
    dataset: Dataset, brief: Brief, i: int, eu: EvidenceUpdate, updating: Item, words: Vocabulary
) -> Finding:
    """An evidence update applies after the items of its brief, so one naming an entry that an item
    of the same brief updates in place overrides the item's level, here with a lower one: most
    likely a slip, so a warning that says to set the level on the item instead."""
    return _at(
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
    """Every reference one brief makes to the living doc, part by part: placements; renames, moves
    and splits; errata; what contradictions touch; down-weighted citations; follow-ups' items.  The
    two checks every part makes (a section exists by this brief, an id exists) are
    :class:`_BriefReferences`' own, so each part reads as the list of what it names."""
    refs = _BriefReferences(dataset, brief, known)
    refs.placements()
    refs.reshaping()
    refs.errata()
    refs.touches()
    refs.down_weighting()
    refs.follow_ups()
    return refs.found


class _BriefReferences:
    """The references of one brief, checked against what may be named by then (:class:`_Known`); each
    one that lands on nothing is a finding at its line, with the nearest name that exists."""

    def __init__(self, dataset: Dataset, brief: Brief, known: _Known) -> None:
        self.dataset, self.brief, self.known = dataset, brief, known
        self.sections = known.sections(brief)
        """The sections this brief may name: the outline's and those opened by then (not later)."""
        self.found: list[Finding] = []

    def error(self, loc: _Loc, message: str, hint: str | None) -> None:
        """One finding at ``loc`` in this brief."""
        self.found.append(_at(self.dataset, self.brief.id, loc, message, hint=hint))

    def section(self, loc: _Loc, value: str) -> None:
        """A section that exists by this brief.  One a later brief opens is named as such (place the
        item from that brief on); otherwise the nearest section, and how to open a new one."""
        if value in self.sections:
            return
        later = self.known.opened.get(value)
        hint = (
            f"§{value} is opened only later, by {later.name()}; place items in it from that brief on"
            if later is not None
            else " ".join(
                filter(
                    None,
                    (
                        _nearest_section(value, self.sections),
                        f"If §{value} is a new section, open it: give the item that starts it "
                        "`action: new_section` and `section_title: <标题>`; later items can then go in it.",
                    ),
                )
            )
        )
        self.error(loc, f"unknown section §{value}", hint=hint)

    def ref(self, loc: _Loc, value: str | None, known: set[str], kind: str, *, but: str | None = None) -> None:
        """``but``: the one id that does not count (an item is no duplicate of itself); not taken out
        of ``known`` (a copy of every item, per item, made the check quadratic: 11 s at ten years)."""
        if value is not None and (value not in known or value == but):
            others = sorted(known - {but}) if but is not None else sorted(known)
            self.error(loc, f"unknown {kind} '{value}'", hint=_suggest(value, others))

    def placements(self) -> None:
        """Where each item goes: its section, the entries it updates or follows, the item it repeats,
        the alternatives and cross-references it names."""
        entries, items = self.known.entries, self.known.items
        for i, item in enumerate(self.brief.items):
            p, at = item.placement, ("items", i, "placement")
            if p.action is not PlacementAction.new_section and p.section is not None:  # _openings checks an opening
                self.section(at + ("section",), p.section)
            self.ref(at + ("duplicate_of",), p.duplicate_of, items, "item", but=item.id)
            if p.action is PlacementAction.update_in_place:
                self.ref(at + ("entry",), p.entry, entries, "entry to update in place")
            for j, also in enumerate(p.entries):
                self.ref(at + ("entries", j), also, entries, "entry to update in place")
            self.ref(at + ("after",), p.after, entries, "entry")
            for j, alt in enumerate(p.alternatives):
                self.section(at + ("alternatives", j, "section"), alt.section)
            for j, xref in enumerate(p.cross_refs):
                self.section(at + ("cross_refs", j, "section"), xref.section)
                self.ref(at + ("cross_refs", j, "item"), xref.item, items, "item")
                self.ref(at + ("cross_refs", j, "entry"), xref.entry, entries, "entry")

    def reshaping(self) -> None:
        """What a brief does to the doc's shape: a renamed section, a moved entry, a split one (whose
        parts are items of this same brief)."""
        entries, brief = self.known.entries, self.brief
        own_items = {i.id for i in brief.items}
        for i, rename in enumerate(brief.section_renames):
            self.section(("section_renames", i, "section"), rename.section)
        for i, move in enumerate(brief.moves):
            self.ref(("moves", i, "entry"), move.entry, entries, "entry to move")
            self.section(("moves", i, "to"), move.to)
        for i, split in enumerate(brief.splits):
            self.ref(("splits", i, "entry"), split.entry, entries, "entry to split")
            for j, part in enumerate(split.into):
                self.ref(("splits", i, "into", j), part, own_items, "item of this brief (the parts of a split)")

    def errata(self) -> None:
        """An erratum corrects an earlier brief (never this one or a later one), and, when it names an
        item, an item of that brief."""
        known, brief = self.known, self.brief
        for i, erratum in enumerate(brief.errata):
            if erratum.brief not in known.briefs or erratum.brief >= brief.id:
                self.error(
                    ("errata", i, "brief"),
                    f"an erratum of '{erratum.brief}', which is no earlier brief",
                    hint=_suggest(erratum.brief, sorted(b for b in known.briefs if b < brief.id)),
                )
            elif erratum.item is not None:
                self.ref(("errata", i, "item"), erratum.item, known.items_of[erratum.brief], f"item of {erratum.brief}")

    def touches(self) -> None:
        """What each contradiction touches: sections, items and entries that exist, and papers some
        brief cites."""
        entries, items = self.known.entries, self.known.items
        for i, c in enumerate(self.brief.contradictions):
            at = ("contradictions", i, "touches")
            for j, s in enumerate(c.touches.sections):
                self.section(at + ("sections", j), s)
            for j, x in enumerate(c.touches.items):
                self.ref(at + ("items", j), x, items, "item")
            for j, x in enumerate(c.touches.entries):
                self.ref(at + ("entries", j), x, entries, "entry")
            for j, x in enumerate(c.touches.citations):
                if arxiv_key(x) not in self.known.citations:
                    self.error(
                        at + ("citations", j),
                        f"arXiv:{x} is not in any brief's citations",
                        hint="add it under citations: or fix the id",
                    )

    def down_weighting(self) -> None:
        """A citation down-weighted by a contradiction names one that some brief opens."""
        contradictions = self.known.contradictions
        for i, cit in enumerate(self.brief.citations):
            if cit.down_weighted_by and cit.down_weighted_by not in contradictions:
                self.error(
                    ("citations", i, "down_weighted_by"),
                    f"unknown contradiction '{cit.down_weighted_by}'",
                    hint=_suggest(cit.down_weighted_by, sorted(contradictions)),
                )

    def follow_ups(self) -> None:
        """The items a follow-up is about exist."""
        for i, f in enumerate(self.brief.follow_ups):
            for j, x in enumerate(f.items):
                self.ref(("follow_ups", i, "items", j), x, self.known.items, "item")


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
