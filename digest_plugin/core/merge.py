"""Briefs + outline → the merged living doc.  Pure functions: no MkDocs, no files, no clock, no HTML.

The merge decides *what* the living doc says: which entries each section holds and in what order,
what each entry's figures and history are, which contradictions are open and which claims they
withhold, which follow-ups are pending, which number each paper gets.  Where that lands on the
site is :mod:`layout`'s business; how it looks is :mod:`render`'s.

Briefs are applied one at a time in (date, id) order — items placed, entries updated,
contradictions opened, resolved, re-opened or superseded, follow-ups opened and closed, evidence
raised, items retracted — and what each brief changed is recorded, so a brief's page and the feed
can say what that day did.  The same data always gives the same living doc, whatever order the
files were read in.

The result is frozen: records with named fields, tuples and read-only mappings.  Merging works on
private drafts (``_EntryDraft`` …) and freezes them once at the end, so nothing downstream — a
renderer, a host adapter, a ``serve`` rebuild — can change what the merge decided.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from types import MappingProxyType

from .arxiv import key as arxiv_key
from .doc import (
    CHANGE_KINDS,
    Changes,
    CitationView,
    CitedByCount,
    ContradictionEvent,
    ContradictionView,
    EntryView,
    FigureState,
    FigureValue,
    FollowUpEvent,
    FollowUpView,
    LivingDoc,
    PlacedItem,
    SectionView,
    Stub,
    Update,
    named_entries,
)
from .model import (
    DISCARD,
    DISCARDED,
    Brief,
    Contradiction,
    ContradictionChange,
    ContradictionUpdate,
    Correction,
    Entry,
    Erratum,
    Evidence,
    Figure,
    FollowUp,
    FollowUpStatus,
    Item,
    Outline,
    PlacementAction,
    Retraction,
    Rules,
    Section,
    Status,
    Touches,
)
from .vocabulary import Vocabulary, default_file

# --------------------------------------------------------------------------- merging


def merge(
    outline: Outline, briefs: Iterable[Brief], rules: Rules | None = None, vocabulary: Vocabulary | None = None
) -> LivingDoc:
    """Apply every brief of the outline's topic, oldest first, to the outline.

    ``vocabulary`` is the topic's words (the package's when None), carried for the renderer.

    With ``rules.hide_discarded`` (the default), discarded contradictions and discard-level items
    stay off the section pages; the register and the brief pages keep them."""
    rules = rules or Rules()
    ordered = sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id))
    state = MergeState(outline, rules)
    for brief in ordered:
        state.apply(brief)
    return state.freeze(outline, ordered, vocabulary or Vocabulary(default_file()))


@dataclass
class _FigureDraft:
    key: str
    label: str
    current: Figure
    current_from: str
    history: list[FigureValue] = field(default_factory=list)
    withheld_by: Contradiction | None = None

    def freeze(self) -> FigureState:
        return FigureState(self.key, self.label, self.current, self.current_from, tuple(self.history), self.withheld_by)


@dataclass
class _EntryDraft:
    id: str
    section: str
    title: str
    baseline: Entry | None = None
    item: Item | None = None
    brief: Brief | None = None
    parent: str | None = None
    footnote: bool = False
    figures: list[_FigureDraft] = field(default_factory=list)
    history: list[Update] = field(default_factory=list)
    evidence: Evidence | None = None
    retraction: Retraction | None = None
    retracted_in: Brief | None = None
    moved_from: list[tuple[str, Brief]] = field(default_factory=list)
    split_into: tuple[str, ...] = ()
    split_from: str | None = None
    errata: list[tuple[Erratum, Brief]] = field(default_factory=list)

    def freeze(self) -> EntryView:
        return EntryView(
            self.id,
            self.section,
            self.title,
            self.baseline,
            self.item,
            self.brief,
            self.parent,
            self.footnote,
            tuple(f.freeze() for f in self.figures),
            tuple(self.history),
            self.evidence,
            self.retraction,
            self.retracted_in,
            tuple(self.moved_from),
            self.split_into,
            self.split_from,
            tuple(self.errata),
        )


@dataclass
class _ContradictionDraft:
    contradiction: Contradiction
    brief: Brief
    status: Status
    history: list[ContradictionEvent] = field(default_factory=list)


@dataclass
class _FollowUpDraft:
    follow_up: FollowUp
    brief: Brief
    status: FollowUpStatus
    history: list[FollowUpEvent] = field(default_factory=list)

    def freeze(self) -> FollowUpView:
        return FollowUpView(self.follow_up, self.brief, self.status, tuple(self.history))


@dataclass
class _ChangesDraft:
    sections_opened: list[str] = field(default_factory=list)
    entries_added: list[str] = field(default_factory=list)
    entries_updated: list[str] = field(default_factory=list)
    entries_retracted: list[str] = field(default_factory=list)
    evidence_changed: list[str] = field(default_factory=list)
    contradictions_opened: list[str] = field(default_factory=list)
    contradictions_resolved: list[str] = field(default_factory=list)
    contradictions_redisposed: list[str] = field(default_factory=list)
    contradictions_reopened: list[str] = field(default_factory=list)
    contradictions_superseded: list[str] = field(default_factory=list)
    citations_added: list[int] = field(default_factory=list)
    follow_ups_opened: list[str] = field(default_factory=list)
    follow_ups_closed: list[str] = field(default_factory=list)
    follow_ups_carried: list[str] = field(default_factory=list)

    def freeze(self) -> Changes:
        return Changes(**{kind: tuple(getattr(self, kind)) for kind in CHANGE_KINDS})


@dataclass
class _SectionDraft:
    section: Section
    entries: list[_EntryDraft] = field(default_factory=list)
    stubs: list[Stub] = field(default_factory=list)
    opened_by: Brief | None = None
    opened_with: Item | None = None
    former_titles: list[tuple[str | None, Brief]] = field(default_factory=list)
    moved_out: list[tuple[str, str, Brief]] = field(default_factory=list)


class MergeState:
    """The living doc while briefs are being applied: drafts, changed in place, frozen once at the end.

    Public for the one core module that follows the fold night by night (:mod:`.nights`): it reads
    the drafts after each night and notes what the night touched beyond the briefs' ``changes``
    (``renamed``, ``cited``), which it empties between nights."""

    def __init__(self, outline: Outline, rules: Rules):
        self.rules = rules
        self.sections = {s.number: _SectionDraft(s) for s in outline.sections}
        self.entries: dict[str, _EntryDraft] = {}
        self.items: dict[str, PlacedItem] = {}
        self.contradictions: dict[str, _ContradictionDraft] = {}
        self.follow_ups: dict[str, _FollowUpDraft] = {}
        self.citations: dict[str, CitationView] = {}
        self.changes: dict[str, _ChangesDraft] = {}
        self.next_citation = (outline.doc.reference_count or 0) + 1
        self.renamed: set[str] = set()
        """Sections renamed since :mod:`.nights` last looked (a rename is not one of a brief's changes)."""
        self.cited: set[str] = set()
        """Papers (keys) added, re-counted or withdrawn since :mod:`.nights` last looked."""
        for entry in outline.entries:
            draft = _EntryDraft(entry.id, entry.section, entry.title, baseline=entry)
            draft.figures = [_FigureDraft(f.key, f.label, f, "baseline") for f in entry.figures]
            draft.history.append(Update("baseline", None, None, entry.text))
            self.entries[entry.id] = draft
            self.sections[entry.section].entries.append(draft)

    def apply(self, brief: Brief) -> None:
        changes = self.changes[brief.id] = _ChangesDraft()
        items = sorted(brief.items, key=lambda i: i.number)
        for item in items:  # first, so that any item of the brief may place into or point at them
            self._open(item, brief, changes)
        for item in items:
            self._place(item, brief, changes)
        for c in sorted(brief.contradictions, key=lambda c: c.number):
            self.contradictions[c.id] = _ContradictionDraft(c, brief, c.status)
            (changes.contradictions_opened if c.status is Status.open else changes.contradictions_resolved).append(c.id)
        for citation in brief.citations:
            key = arxiv_key(citation.arxiv)
            counts = tuple(
                CitedByCount(x.source.value, x.source.label, x.count, x.as_of or brief.date, brief.id)
                for x in citation.cited_by
            )
            known = self.citations.get(key)
            self.cited.add(key)
            withdrawn = brief if citation.withdrawn else None
            if known is None:
                self.citations[key] = CitationView(citation, self.next_citation, brief, counts, withdrawn)
                changes.citations_added.append(self.next_citation)
                self.next_citation += 1
            elif counts or withdrawn:  # cited again (even as vN): same number, refreshed counts, the old ones kept
                self.citations[key] = dataclasses.replace(
                    known, counts=known.counts + counts, withdrawn_in=known.withdrawn_in or withdrawn
                )
        for f in sorted(brief.follow_ups, key=lambda f: f.number):
            self.follow_ups[f.id] = _FollowUpDraft(f, brief, f.status)
            changes.follow_ups_opened.append(f.id)
        for update in brief.contradiction_updates:
            self._update_contradiction(update, brief, changes)
        for fu_update in brief.follow_up_updates:
            follow_up = self.follow_ups[fu_update.follow_up]
            follow_up.status = fu_update.status
            follow_up.history.append(FollowUpEvent(brief, fu_update))
            carried = fu_update.status is FollowUpStatus.carried_over
            (changes.follow_ups_carried if carried else changes.follow_ups_closed).append(follow_up.follow_up.id)
        for ev_update in brief.evidence_updates:
            placed = self.items[ev_update.item]
            entry = self.entries.get(placed.entry_id)
            if entry is None:  # a discard-level item kept off the pages
                continue
            entry.history.append(Update("evidence", brief, placed.item, ev_update.note or "", ev_update.evidence))
            entry.evidence = ev_update.evidence
            changes.evidence_changed.append(entry.id)
        for retraction in brief.retractions:
            entry = self.entries.get(self.items[retraction.item].entry_id)
            if entry is None:
                continue
            entry.retraction, entry.retracted_in = retraction, brief
            entry.history.append(Update("retracted", brief, None, retraction.reason))
            changes.entries_retracted.append(entry.id)
        self._reshape(brief, changes)

    def _reshape(self, brief: Brief, changes: _ChangesDraft) -> None:
        """What a brief does to the doc's shape: sections renamed, entries moved or split, errata of
        earlier briefs applied.  Ids, numbers and anchors stay; each change is in a history."""
        for rename in brief.section_renames:
            draft = self.sections[rename.section]
            self.renamed.add(rename.section)
            draft.former_titles.append((draft.section.title, brief))
            draft.section = draft.section.model_copy(update={"title": rename.title})
        for move in brief.moves:
            entry = self.entries.get(move.entry)
            if entry is None or entry.section == move.to:
                continue
            here = self.sections[entry.section]
            here.entries = [e for e in here.entries if e.id != entry.id]
            here.moved_out.append((entry.id, move.to, brief))
            entry.moved_from.append((entry.section, brief))
            entry.history.append(Update("moved", brief, None, f"§{entry.section} → §{move.to}：{move.text}"))
            entry.section, entry.parent = move.to, None
            _insert(self.sections[move.to].entries, entry)
            changes.entries_updated.append(entry.id)
        for split in brief.splits:
            entry = self.entries.get(split.entry)
            if entry is None:
                continue
            parts = [self.items[i].entry_id for i in split.into if i in self.items]
            entry.split_into = tuple(p for p in parts if p in self.entries)
            entry.history.append(Update("split", brief, None, split.text))
            for part in entry.split_into:
                self.entries[part].split_from = entry.id
            changes.entries_updated.append(entry.id)
        for erratum in brief.errata:
            for entry in self.entries.values():
                said = [
                    u.item
                    for u in entry.history
                    if u.brief is not None
                    and u.brief.id == erratum.brief
                    and u.item is not None
                    and erratum.item in (None, u.item.id)
                ]
                if not said:  # the corrected brief placed or updated nothing here
                    continue
                if entry.item is not None and entry.item.id == said[-1].id:  # its words are still the ones shown
                    entry.item = _amended(entry.item, erratum)
                entry.errata.append((erratum, brief))
                entry.history.append(
                    Update("erratum", brief, None, f"「{erratum.old}」→「{erratum.new}」：{erratum.text}")
                )
                changes.entries_updated.append(entry.id)

    def _update_contradiction(self, update: ContradictionUpdate, brief: Brief, changes: _ChangesDraft) -> None:
        draft = self.contradictions[update.contradiction]
        draft.history.append(ContradictionEvent(brief, update))
        if update.change is ContradictionChange.resolved:
            draft.status = Status.resolved
            changes.contradictions_resolved.append(draft.contradiction.id)
            for correction in update.corrections:
                self._correct(draft.contradiction, correction, brief, changes)
        elif update.change is ContradictionChange.reopened:
            draft.status = Status.open
            changes.contradictions_reopened.append(draft.contradiction.id)
        elif update.change is ContradictionChange.redisposed:
            changes.contradictions_redisposed.append(draft.contradiction.id)
        else:
            draft.status = Status.superseded
            changes.contradictions_superseded.append(draft.contradiction.id)

    def _correct(
        self, contradiction: Contradiction, correction: Correction, brief: Brief, changes: _ChangesDraft
    ) -> None:
        """A figure shown wrong: its wrong value leaves the values and the chart, the right one is
        current from this brief, and the entry's history says what was corrected and why."""
        touches = contradiction.touches
        # the entries that show an item the correction is about: an item that updates several entries
        # shows the same wrong value on each, so each is corrected where it still shows it
        showing = named_entries(Touches(items=[correction.item] if correction.item else touches.items), self.items)
        if correction.entry:
            candidates = [correction.entry]
        elif correction.item and correction.item in self.items:
            candidates = showing
        else:
            candidates = named_entries(touches, self.items)
        applied = False
        for entry_id in dict.fromkeys(candidates):
            draft = self.entries.get(entry_id)
            if draft is not None and correction.claim is not None:  # a claim: it stays withheld; the story is told
                draft.history.append(Update("corrected", brief, None, correction.reason, correction=correction))
                changes.entries_updated.append(draft.id)
                return
            figure = next((f for f in draft.figures if f.key == correction.key), None) if draft else None
            if draft is None or figure is None:
                continue
            if applied and (entry_id not in showing or figure.current.value != correction.old):
                continue  # past the first: only another entry of the same item that shows the wrong value now
            figure.history = [
                v._replace(corrected_by=contradiction.id) if v.figure.value == correction.old else v
                for v in figure.history
            ]
            right = figure.current.model_copy(
                update={"value": correction.new, "unit": correction.unit or figure.current.unit, "as_of": brief.date}
            )
            was_a_value = figure.current.value == correction.old or any(
                v.figure.value == correction.old for v in figure.history
            )
            # the current value was the wrong one, or the wrong one was never a value (it was withheld):
            # the right value is current from this brief; else a later value stands and only the history changes
            if figure.current.value == correction.old or not was_a_value:
                wrong = contradiction.id if figure.current.value == correction.old else None  # else it was right then
                figure.history.append(FigureValue(figure.current, figure.current_from, wrong))
                figure.current, figure.current_from = right, brief.id
            draft.history.append(Update("corrected", brief, None, correction.reason, correction=correction))
            changes.entries_updated.append(draft.id)
            if entry_id not in showing:
                return
            applied = True

    def _open(self, item: Item, brief: Brief, changes: _ChangesDraft) -> None:
        """A ``new_section`` placement opens its section, titled as the brief titles it, unless the
        outline or an earlier item already has it (then the item is placed in it like any other)."""
        placement = item.placement
        if placement.action is not PlacementAction.new_section or placement.section in self.sections:
            return
        assert placement.section is not None, "the model requires a section for new_section"
        section = Section(number=placement.section, title=placement.section_title)
        self.sections[placement.section] = _SectionDraft(section, opened_by=brief, opened_with=item)
        changes.sections_opened.append(placement.section)

    def _place(self, item: Item, brief: Brief, changes: _ChangesDraft) -> None:
        placement = item.placement
        if placement.action is PlacementAction.update_in_place:
            assert placement.entry is not None, "the model requires an entry for update_in_place"
            for also in placement.entries:  # one item updating several entries: each shows it
                other = self.entries[also]
                other.item, other.brief, other.evidence = item, brief, item.evidence
                other.history.append(Update("updated", brief, item, item.title, item.evidence))
                _update_figures(other, item, brief)
                changes.entries_updated.append(other.id)
            draft = self.entries[placement.entry]
            draft.item, draft.brief, draft.evidence = item, brief, item.evidence
            draft.history.append(Update("updated", brief, item, item.title, item.evidence))
            _update_figures(draft, item, brief)
            self.items[item.id] = PlacedItem(brief, item, draft.id)
            changes.entries_updated.append(draft.id)
            return
        if placement.action is PlacementAction.duplicate and placement.duplicate_of in self.items:
            # the same event as an earlier item: no second entry; what later briefs say of it goes there
            self.items[item.id] = PlacedItem(brief, item, self.items[placement.duplicate_of].entry_id)
            return
        self.items[item.id] = PlacedItem(brief, item, item.id)
        if not placement.action.places or (self.rules.hide_discarded and item.evidence.level == DISCARD):
            return
        assert placement.section is not None, "the model requires a section for a placement that places"
        draft = _EntryDraft(
            item.id,
            placement.section,
            placement.entry_title or item.title,
            item=item,
            brief=brief,
            parent=placement.after,
            footnote=placement.action is PlacementAction.footnote,
            evidence=item.evidence,
        )
        draft.history.append(Update("placed", brief, item, item.title, item.evidence))
        draft.figures = [_FigureDraft(f.key, f.label, f, brief.id) for f in item.figures]
        self.entries[item.id] = draft
        home = self.sections[placement.section]
        if home.opened_with is not None and home.opened_with.id == item.id:
            home.entries.insert(0, draft)  # the item that opened a section is its first entry
        else:
            _insert(home.entries, draft)
        changes.entries_added.append(draft.id)
        for ref in placement.cross_refs:
            self.sections[ref.section].stubs.append(Stub(ref.section, item, brief, placement.section))

    def freeze(self, outline: Outline, briefs: list[Brief], vocabulary: Vocabulary) -> LivingDoc:
        """The merged doc, frozen: which sections each contradiction touches, which figures an open
        one withholds, and every draft turned into its record."""
        on_pages: dict[str, list[ContradictionView]] = {number: [] for number in self.sections}
        contradictions = []
        for draft in self.contradictions.values():
            view = ContradictionView(
                draft.contradiction, draft.brief, self.touched_sections(draft.contradiction), draft.status,
                tuple(draft.history),
            )  # fmt: skip
            contradictions.append(view)
            if self.rules.hide_discarded and view.disposition == DISCARDED:
                continue
            for number in view.sections:
                on_pages[number].append(view)
            touches = view.contradiction.touches
            # the entries it names, and every entry that shows an item it names (the rules read it so too)
            touched = named_entries(touches, self.items)
            for claim in view.contradiction.withheld if view.is_open else ():
                for entry_id in touched:
                    for fig in self.entries[entry_id].figures if entry_id in self.entries else []:
                        if claim.figure == fig.key:
                            fig.withheld_by = view.contradiction
        entries = {entry_id: draft.freeze() for entry_id, draft in self.entries.items()}
        sections = {
            number: SectionView(
                draft.section,
                tuple(entries[e.id] for e in draft.entries),
                tuple(draft.stubs),
                tuple(on_pages[number]),
                draft.opened_by,
                draft.opened_with,
                tuple(draft.former_titles),
                tuple(draft.moved_out),
            )
            for number, draft in _in_order(self.sections)
        }
        changes = {brief_id: draft.freeze() for brief_id, draft in self.changes.items()}
        return LivingDoc(
            outline.topic,
            outline,
            tuple(briefs),
            MappingProxyType(sections),
            MappingProxyType(dict(self.items)),
            MappingProxyType(entries),
            tuple(contradictions),
            MappingProxyType(dict(self.citations)),
            tuple(f.freeze() for f in self.follow_ups.values()),
            MappingProxyType(changes),
            self.rules.archive_after_days,
            vocabulary,
            hide_discarded=self.rules.hide_discarded,
        )

    def touched_sections(self, c: Contradiction) -> tuple[str, ...]:
        """Every section a contradiction touches: named ones, and those of the items and entries it names."""
        found = list(c.touches.sections)
        found += [s for i in c.touches.items if i in self.items and (s := self.items[i].item.placement.section)]
        found += [self.entries[e].section for e in c.touches.entries if e in self.entries]
        return tuple(sorted({s for s in found if s in self.sections}, key=_number))


def _amended(item: Item, erratum: Erratum) -> Item:
    """The item as the doc states it once an erratum applies: its words with the wrong text replaced
    (the brief's own page keeps what was written, and says what was corrected)."""
    return item.model_copy(
        update={
            "title": item.title.replace(erratum.old, erratum.new),
            "points": [p.replace(erratum.old, erratum.new) for p in item.points],
            "relation": item.relation and item.relation.replace(erratum.old, erratum.new),
        }
    )


@functools.lru_cache(maxsize=4096)
def _number(section: str) -> tuple[int, ...]:
    """A section number as numbers, for sorting (§2.10 after §2.9); asked for again and again, so kept."""
    return tuple(int(p) for p in section.split("."))


def _in_order(sections: dict[str, _SectionDraft]) -> list[tuple[str, _SectionDraft]]:
    """The outline's sections in the outline's order, each section a brief opened right after the
    last sibling with a smaller number (§2.6 after §2.5, §2.10 after §2.9), else after its chapter."""
    order = [(n, d) for n, d in sections.items() if d.opened_by is None]
    opened = sorted((n for n, d in sections.items() if d.opened_by is not None), key=_number)
    for number in opened:
        draft = sections[number]
        chapter, key = number.split(".")[0], _number(number)
        at = len(order)
        for i, (other, _) in enumerate(order):
            if other == chapter or (other.split(".")[0] == chapter and "." in other and _number(other) < key):
                at = i + 1
        order.insert(at, (number, draft))
    return order


def _update_figures(draft: _EntryDraft, item: Item, brief: Brief) -> None:
    by_key = {f.key: f for f in draft.figures}
    for figure in item.figures:
        state = by_key.get(figure.key)
        if state is None:
            draft.figures.append(_FigureDraft(figure.key, figure.label, figure, brief.id))
            continue
        state.label = figure.label  # the latest brief's wording names the figure (a rename is not lost)
        if state.current != figure:
            state.history.append(FigureValue(state.current, state.current_from))
            state.current, state.current_from = figure, brief.id


def _insert(entries: list[_EntryDraft], draft: _EntryDraft) -> None:
    """New entries go right after the entry they hang under (and its earlier children), else at the end."""
    if draft.parent:
        last = max(
            (i for i, e in enumerate(entries) if draft.parent in (e.id, e.parent)),
            default=None,
        )
        if last is not None:
            entries.insert(last + 1, draft)
            return
    entries.append(draft)
