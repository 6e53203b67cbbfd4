"""The doc night by night (issue 32): what each night's briefs changed, from one pass of the merge.

A past view of night D is the merge of the briefs up to D (:mod:`.asof`), so what night D changed is
the difference between the views of D and of the night before.  Merging once per night costs one
merge per night, quadratic in the doc's age; at ten years that is half an hour.  The merge is a fold,
so this module runs it once and, after each night, freezes only what that night touched: the
entries, sections, contradictions, follow-ups and papers its briefs changed, as they stood before
the night and after it.  :class:`.doc.Night` holds the two as small docs, which the differ of
``digest diff`` and the site's changes pages read as they read whole ones.

Both small docs carry the night's withholdings in full, with today's kept (as :func:`.asof.as_of`
does), so text quoted from them is withheld as the past view withholds it.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from .doc import (
    ContradictionView,
    EntryView,
    FollowUpView,
    LivingDoc,
    Night,
    SectionView,
    by_canonical,
    longest_first,
    named_entries,
)
from .merge import MergeState, merge
from .model import DISCARDED, Brief, Contradiction, ContradictionChange, Outcome, Outline, Rules, Status
from .vocabulary import Vocabulary, default_file


def nights(
    outline: Outline,
    briefs: Iterable[Brief],
    rules: Rules | None = None,
    vocabulary: Vocabulary | None = None,
    *,
    today: LivingDoc | None = None,
    since: dt.date | None = None,
    observe: Callable[[Tonight], None] | None = None,
    start: Start | None = None,
) -> Iterator[Night]:
    """What each night of ``outline``'s topic did to its doc, oldest night first (from ``since`` on:
    the nights before are merged, not followed, which is what a preview of tonight's month needs).

    ``start``: those nights already merged (:func:`start_at`), used when it holds exactly the same
    briefs (the same objects) with the same outline and rules, and consumed; otherwise they are merged here.

    ``today`` is the doc merged from every brief, when the caller has it already: its withholdings
    hold on every night (a claim found wrong since must not read as fact in a past view either).

    ``observe`` is shown each night's whole doc as it stood (:class:`Tonight`), before the night is
    yielded: what the site's past views render from, in the same pass."""
    rules = rules or Rules()
    words = vocabulary or Vocabulary(default_file())
    ordered = _ordered(outline, briefs)
    today = today or merge(outline, ordered, rules, words)
    state = MergeState(outline, rules)
    log: _Log | None = None
    last: dt.date | None = None
    seen: list[Brief] = []
    ahead: _Log | None = None
    if since is not None and start is not None and start.fits(outline, rules, ordered, since):
        state, seen, last = start.state, list(start.seen), start.seen[-1].date if start.seen else None
        if start.log is not None:
            ahead, seen = start.log, start.log.briefs  # the pass grows the log's own list of briefs
        start.seen, start.log = (), None  # its state is changed from here on: it starts no other pass
        ordered = ordered[len(seen) :]
    for night, group in itertools.groupby(ordered, key=lambda b: b.date):
        tonight = list(group)
        if log is None and (since is None or night >= since):
            # the doc as the night before left it, seen through today's withholdings
            log = (ahead or _Log(state, outline, rules, last, seen)).seen_from(today, words)
        for brief in tonight:
            state.apply(brief)
        seen += tonight
        if log is not None:
            yield log.night(night, tonight, observe)
        last = night


def nights_of(
    doc: LivingDoc,
    since: dt.date | None = None,
    observe: Callable[[Tonight], None] | None = None,
    start: Start | None = None,
) -> list[Night]:
    """What each night of a merged doc changed (from ``since`` on), merged by the rules ``doc`` was merged with."""
    found = nights(
        doc.outline, doc.briefs, _rules(doc), doc.vocabulary, today=doc, since=since, observe=observe, start=start
    )
    return list(found)


def _ordered(outline: Outline, briefs: Iterable[Brief]) -> list[Brief]:
    """The topic's briefs in the order the merge applies them (by night, then id)."""
    return sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id))


def _rules(doc: LivingDoc) -> Rules:
    return Rules(archive_after_days=doc.archive_after_days, hide_discarded=doc.hide_discarded)


@dataclass
class Start:
    """The nights before ``since`` merged ahead of time: what a pass from ``since`` would merge first.

    Why: a preview follows only the nights of the edited month, but must merge every night before it
    first (0.2 s at a year of briefs, 2 s at ten).  Those nights did not change, so ``digest serve``
    merges them while it waits for the next edit (:func:`start_at`) and the pass takes them as they
    are, if the briefs are the very objects it was made from (the loader keeps an unchanged file's)."""

    outline: Outline
    rules: Rules
    since: dt.date
    state: MergeState
    seen: tuple[Brief, ...]
    log: _Log | None = None
    """The records of every object as those nights left them, made ahead too (at ten years, freezing
    every object the nights before left is about as long as following the month's nights)."""

    def fits(self, outline: Outline, rules: Rules, ordered: list[Brief], since: dt.date) -> bool:
        n = len(self.seen)
        return (
            since == self.since
            and outline is self.outline
            and rules == self.rules
            and all(a is b for a, b in zip(ordered, self.seen, strict=False))
            and len(ordered) >= n
            and (n == len(ordered) or ordered[n].date >= since)
        )


def start_at(doc: LivingDoc, since: dt.date) -> Start:
    """Merge the briefs of ``doc`` dated before ``since``, and freeze what they left: a pass from
    ``since`` can start from it."""
    rules = _rules(doc)
    seen = tuple(b for b in _ordered(doc.outline, doc.briefs) if b.date < since)
    state = MergeState(doc.outline, rules)
    for brief in seen:
        state.apply(brief)
    log = _Log(state, doc.outline, rules, seen[-1].date if seen else None, list(seen))
    return Start(doc.outline, rules, since, state, seen, log)


@dataclass(frozen=True)
class Tonight:
    """The whole doc as it stood after one night, shown to an observer of the pass (:func:`nights`).

    ``doc`` reads the pass's own records, which the next night changes in place: it holds only for
    the call.  The ids say what the night touched (an entry a touched contradiction names counts), and
    ``dirty`` which withheld spellings changed hands tonight (withheld, released, or their
    contradiction came): text that holds one reads differently from tonight on."""

    night: dt.date
    briefs: tuple[Brief, ...]
    doc: LivingDoc
    sections: tuple[str, ...]
    """The sections opened or renamed tonight."""
    entries: tuple[str, ...]
    contradictions: tuple[str, ...]
    follow_ups: tuple[str, ...]
    papers: tuple[str, ...]
    """The papers (keys) cited, cited again or withdrawn tonight."""
    dirty: frozenset[str]
    order: Callable[[str], list[str]]
    """A section's entries (their ids) in the section's order, as the merge keeps them."""


@dataclass(frozen=True)
class _LiveDoc(LivingDoc):
    """The doc of one night, read from the pass's records (see :class:`Tonight`): the indexes a
    merged doc builds from all its records are the pass's, kept up to date night by night."""

    log: Any = None

    @property
    def briefs_by_id(self) -> dict[str, Brief]:
        return self.log.briefs_by_id

    @property
    def contradictions_by_entry(self) -> Mapping[str, list[ContradictionView]]:  # type: ignore[override]
        return _Views(self.log.by_entry, self.log.contradictions)

    @property
    def contradictions_by_item(self) -> Mapping[str, list[ContradictionView]]:  # type: ignore[override]
        return _Views(self.log.by_item, self.log.contradictions)

    @property
    def contradictions_by_brief(self) -> Mapping[str, list[ContradictionView]]:  # type: ignore[override]
        return _Views(self.log.by_brief, self.log.contradictions)

    @property
    def follow_ups_by_item(self) -> Mapping[str, list[FollowUpView]]:  # type: ignore[override]
        return _Views(self.log.follow_ups_by_item, self.log.follow_ups)

    def contradiction(self, contradiction_id: str) -> ContradictionView | None:
        return self.log.contradictions.get(contradiction_id)

    def follow_up(self, follow_up_id: str) -> FollowUpView:
        return self.log.follow_ups[follow_up_id]

    @property
    def withheld(self) -> dict[str, ContradictionView]:
        return self.log.reading.withheld

    @property
    def _withheld_by_canonical(self) -> dict[str, ContradictionView]:
        return self.log.reading.by_canonical

    @property
    def withheld_pattern(self) -> Any:
        return self.log.reading.pattern(self)


class _Views(Mapping[str, list[Any]]):
    """Ids kept by key, read as the records they name tonight (an index of the pass, as a doc's)."""

    def __init__(self, ids: dict[str, list[str]], records: Mapping[str, Any]):
        self.ids, self.records = ids, records

    def __getitem__(self, key: str) -> list[Any]:
        return [self.records[i] for i in self.ids[key]]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class _Reading:
    """A night's withheld spellings, sorted and by canonical form: made again only when they change
    (sorting thousands of them every night would cost more than the rest of the night)."""

    given: dict[str, ContradictionView]
    withheld: dict[str, ContradictionView] = field(init=False)
    sieve: Any = None

    def __post_init__(self) -> None:
        self.withheld = longest_first(self.given)

    @cached_property
    def by_canonical(self) -> dict[str, ContradictionView]:
        return by_canonical(self.withheld)

    def pattern(self, doc: LivingDoc) -> Any:
        if not self.by_canonical:
            return None
        if self.sieve is None:
            self.sieve = LivingDoc.withheld_pattern.func(doc)  # type: ignore[attr-defined]
        return self.sieve


class _Log:
    """The last frozen version of everything a night touched, and the night's withholdings."""

    def __init__(
        self,
        state: MergeState,
        outline: Outline,
        rules: Rules,
        night_before: dt.date | None,
        seen: list[Brief] | None = None,
    ):
        """What the nights before left; the withholdings come with :meth:`seen_from`, which a pass
        calls first (a preview makes this part while the editor reads, :func:`start_at`)."""
        self.state, self.outline, self.rules = state, outline, rules
        self.briefs = seen if seen is not None else []
        """Every brief merged so far (the pass's own list: it grows night by night)."""
        self.briefs_by_id = {b.id: b for b in self.briefs}
        self.by_entry: dict[str, list[str]] = {}
        self.by_item: dict[str, list[str]] = {}
        self.by_brief: dict[str, list[str]] = {}
        self.follow_ups_by_item: dict[str, list[str]] = {}
        """The indexes of a merged doc (contradictions by the entries and items they name, by brief;
        follow-ups by item), ids in the order they came, kept for an observer's whole doc."""
        self.touching: dict[str, list[str]] = {}
        """Entry id → the contradictions that name it or one of its items, in the order they came."""
        self.holders: dict[str, list[str]] = {}
        """Spelling → the contradictions that withhold it tonight (open, or resolved as corrected), in
        the order they came: the first one withholds it, as in a merged doc."""
        self.holding: set[str] = set()
        """The contradictions that withhold their claims tonight."""
        self.born_contradictions = {cid: n for n, cid in enumerate(state.contradictions)}
        """Contradiction ids → when each came (a doc lists them in that order)."""
        self.born_follow_ups = {fid: n for n, fid in enumerate(state.follow_ups)}
        # What the nights before left (none when the log starts with the first night): every object
        # as it stands, so a night's "before" is there whichever it touches.
        for draft in state.contradictions.values():
            self._came(draft.contradiction)
        self.contradictions = {cid: self._contradiction(cid) for cid in state.contradictions}
        self._hold([view for view in self.contradictions.values() if view.contradiction.withheld])
        self.entries = {entry_id: self._entry(entry_id) for entry_id in state.entries}
        self.sections = {number: self._section(number) for number in state.sections}
        self.follow_ups = {fid: draft.freeze() for fid, draft in state.follow_ups.items()}
        for fid in self.follow_ups:
            self._follow_up_came(fid)
        self.citations = dict(state.citations)
        self.night_before = night_before
        state.renamed.clear()
        state.cited.clear()

    def seen_from(self, today: LivingDoc, words: Vocabulary) -> _Log:
        """The night's withholdings, with today's kept (see :func:`nights`), and the words its docs
        carry: the log, ready for the pass (no record made so far depends on either)."""
        self.today, self.words = today, words
        self.withheld = self._withheld()
        self.reading = _Reading(self.withheld)
        self.released = _released(today)
        return self

    def night(self, night: dt.date, briefs: list[Brief], observe: Callable[[Tonight], None] | None = None) -> Night:
        """Freeze what ``briefs`` (all of ``night``) touched; the small docs before and after it (and
        the whole doc, to ``observe``)."""
        state = self.state
        for brief in briefs:
            self.briefs_by_id[brief.id] = brief
        born = len(self.born_contradictions)
        touched = self._touched(briefs)
        section_numbers, entry_ids, contradiction_ids, follow_up_ids, paper_keys = touched
        before = self._doc(touched, self.withheld, self.night_before)  # frozen before the night's versions replace them
        for n in section_numbers:
            self.sections[n] = self._section(n)
        for c in contradiction_ids:  # first: an entry's figures are withheld by them as they stand tonight
            self.contradictions[c] = self._contradiction(c)
        for e in entry_ids:
            self.entries[e] = self._entry(e)
        for f in follow_up_ids:
            self.follow_ups[f] = state.follow_ups[f].freeze()
        for k in paper_keys:
            self.citations[k] = state.citations[k]
        dirty: set[str] = set()
        if self._hold(
            [self.contradictions[c] for c in contradiction_ids if self.contradictions[c].contradiction.withheld]
        ):
            old, self.withheld = self.withheld, self._withheld()
            dirty = {p for p in old.keys() | self.withheld.keys() if old.get(p) is not self.withheld.get(p)}
            self.reading = _Reading(self.withheld)
        self.night_before = night
        if observe is not None:
            came = set(itertools.islice(self.born_contradictions, born, None))
            dirty.update(p for p, view in self.today.withheld.items() if view.id in came)
            observe(self._tonight(night, briefs, touched, frozenset(dirty)))
        return Night(night, tuple(briefs), before, self._doc(touched, self.withheld, night))

    def _tonight(self, night: dt.date, briefs: list[Brief], touched: _Touched, dirty: frozenset[str]) -> Tonight:
        """The whole doc of the night, for an observer: the pass's records, read in place."""
        sections = self.state.sections
        doc = _LiveDoc(
            self.outline.topic,
            self.outline,
            tuple(self.briefs),
            MappingProxyType(self.sections),
            MappingProxyType(self.state.items),
            MappingProxyType(self.entries),
            (),
            MappingProxyType(self.citations),
            (),
            MappingProxyType({}),
            self.rules.archive_after_days,
            self.words,
            hide_discarded=self.rules.hide_discarded,
            as_of=night,
            released_later=_Released(self.released, self.contradictions),
            withheld_given=MappingProxyType(self.withheld),
            log=self,
        )
        return Tonight(
            night,
            tuple(briefs),
            doc,
            tuple(touched.sections),
            tuple(touched.entries),
            tuple(touched.contradictions),
            tuple(touched.follow_ups),
            tuple(touched.papers),
            dirty,
            lambda number: [d.id for d in sections[number].entries] if number in sections else [],
        )

    def _touched(self, briefs: list[Brief]) -> _Touched:
        """The ids of what the night's briefs touched, each kind in the doc's order (contradictions and
        follow-ups in the order they came); a contradiction seen for the first time is indexed."""
        state = self.state
        changes = [state.changes[b.id] for b in briefs]
        contradiction_ids = _unique(
            c
            for ch in changes
            for c in (
                *ch.contradictions_opened,
                *ch.contradictions_resolved,
                *ch.contradictions_reopened,
                *ch.contradictions_superseded,
                *ch.contradictions_redisposed,
            )
        )
        for cid in _born(state.contradictions, self.born_contradictions, contradiction_ids):
            self._came(state.contradictions[cid].contradiction)
        if any(ch.sections_opened for ch in changes) or any(b.moves for b in briefs):
            contradiction_ids += self._resectioned(set(contradiction_ids))
        contradiction_ids.sort(key=self.born_contradictions.__getitem__)  # the doc's order: the order they came
        entry_ids = _unique(
            [
                *(
                    e
                    for ch in changes
                    for e in (*ch.entries_added, *ch.entries_updated, *ch.entries_retracted, *ch.evidence_changed)
                ),
                *(e for cid in contradiction_ids for e in self._entries_of(state.contradictions[cid].contradiction)),
            ]
        )
        entry_ids = [e for e in entry_ids if e in state.entries]  # a discard-level item, or a name no entry has
        section_numbers = sorted(
            {*(s for ch in changes for s in ch.sections_opened), *state.renamed},
            key=lambda n: [int(p) for p in n.split(".")],
        )
        follow_up_ids = _unique(
            f for ch in changes for f in (*ch.follow_ups_opened, *ch.follow_ups_closed, *ch.follow_ups_carried)
        )
        for fid in _born(state.follow_ups, self.born_follow_ups, follow_up_ids):
            self._follow_up_came(fid)
        follow_up_ids.sort(key=self.born_follow_ups.__getitem__)
        paper_keys = sorted(state.cited)
        state.renamed.clear()
        state.cited.clear()
        return _Touched(section_numbers, entry_ids, contradiction_ids, follow_up_ids, paper_keys)

    def _resectioned(self, touched: set[str]) -> list[str]:
        """The contradictions no brief touched tonight whose sections changed under them: a section
        they name was opened, or an entry they name moved (a register callout lists its sections).
        Read only on a night that opens a section or moves an entry: a few in ten years."""
        return [
            cid
            for cid, frozen in self.contradictions.items()
            if cid not in touched and frozen.sections != self.state.touched_sections(frozen.contradiction)
        ]

    # ------------------------------------------------------------------ freezing one object

    def _entry(self, entry_id: str) -> EntryView:
        """The entry as it stands, its figures withheld as the night's open contradictions withhold them."""
        view = self.state.entries[entry_id].freeze()
        if entry_id not in self.touching:  # no contradiction names it: no figure of it is withheld
            return view
        figures = tuple(dataclasses.replace(f, withheld_by=self._withholds(entry_id, f.key)) for f in view.figures)
        return dataclasses.replace(view, figures=figures)

    def _withholds(self, entry_id: str, key: str) -> Contradiction | None:
        """The open contradiction that forbids stating this figure of the entry (the last one named,
        as the merge's freeze finds it); None when none does."""
        found = None
        for cid in self.touching.get(entry_id, ()):
            draft = self.state.contradictions[cid]
            if draft.status is not Status.open or not any(
                claim.figure == key for claim in draft.contradiction.withheld
            ):
                continue
            if not (self.rules.hide_discarded and self.contradictions[cid].disposition == DISCARDED):
                found = draft.contradiction
        return found

    def _section(self, number: str) -> SectionView:
        """A section's title and who opened or renamed it: what the differ reads of a section."""
        draft = self.state.sections[number]
        return SectionView(
            draft.section,
            opened_by=draft.opened_by,
            opened_with=draft.opened_with,
            former_titles=tuple(draft.former_titles),
            moved_out=tuple(draft.moved_out),
        )

    def _contradiction(self, cid: str) -> ContradictionView:
        draft = self.state.contradictions[cid]
        sections = self.state.touched_sections(draft.contradiction)
        return ContradictionView(draft.contradiction, draft.brief, sections, draft.status, tuple(draft.history))

    # ------------------------------------------------------------------ contradictions and claims

    def _entries_of(self, c: Contradiction) -> list[str]:
        """The entries a contradiction names, and the entries of the items it names."""
        return named_entries(c.touches, self.state.items)

    def _came(self, c: Contradiction) -> None:
        """A contradiction seen for the first time: index the entries it names and whether it withholds."""
        for entry_id in self._entries_of(c):
            self.touching.setdefault(entry_id, []).append(c.id)
        for entry_id in c.touches.entries:
            self.by_entry.setdefault(entry_id, []).append(c.id)
        for item_id in c.touches.items:
            self.by_item.setdefault(item_id, []).append(c.id)
        self.by_brief.setdefault(self.state.contradictions[c.id].brief.id, []).append(c.id)

    def _follow_up_came(self, fid: str) -> None:
        for item_id in self.state.follow_ups[fid].follow_up.items:
            self.follow_ups_by_item.setdefault(item_id, []).append(fid)

    def _hold(self, views: list[ContradictionView]) -> bool:
        """Note which of these contradictions (each withholding a claim) withhold tonight; whether that
        changed for any of them."""
        changed = False
        for view in views:
            holds = view.is_open or view.corrected
            if holds == (view.id in self.holding):
                continue
            changed = True
            spellings = {p for claim in view.contradiction.withheld for p in claim.patterns}
            if holds:
                self.holding.add(view.id)
                for p in spellings:
                    bisect.insort(self.holders.setdefault(p, []), view.id, key=self.born_contradictions.__getitem__)
            else:
                self.holding.discard(view.id)
                for p in spellings:
                    self.holders[p].remove(view.id)
                    if not self.holders[p]:
                        del self.holders[p]
        return changed

    def _withheld(self) -> dict[str, ContradictionView]:
        """Every spelling withheld on the night (by an open contradiction, or one resolved as corrected)
        and every one withheld today, each by its contradiction: what :attr:`.LivingDoc.withheld`
        gives for the night's past view."""
        found = {p: self.contradictions[cids[0]] for p, cids in self.holders.items()}
        for pattern, view in self.today.withheld.items():
            found.setdefault(pattern, self.contradictions.get(view.id, view))
        return found

    def _doc(self, parts: _Touched, withheld: dict[str, ContradictionView], night: dt.date | None) -> LivingDoc:
        """A small doc of the objects a night touched, as they stand now (an object not yet born is
        left out), dated ``night``."""
        return LivingDoc(
            self.outline.topic,
            self.outline,
            (),
            MappingProxyType({n: self.sections[n] for n in parts.sections if n in self.sections}),
            MappingProxyType({}),
            MappingProxyType({e: self.entries[e] for e in parts.entries if e in self.entries}),
            tuple(self.contradictions[c] for c in parts.contradictions if c in self.contradictions),
            MappingProxyType({k: self.citations[k] for k in parts.papers if k in self.citations}),
            tuple(self.follow_ups[f] for f in parts.follow_ups if f in self.follow_ups),
            MappingProxyType({}),
            self.rules.archive_after_days,
            self.words,
            hide_discarded=self.rules.hide_discarded,
            as_of=night,
            withheld_given=MappingProxyType(withheld),
        )


class _Released(Mapping[str, Brief]):
    """A night's contradictions whose claim it withheld and a later brief released: those released by
    today's doc that were still open that night (:func:`.asof.as_of` says so of a past view)."""

    def __init__(self, released: dict[str, Brief], contradictions: Mapping[str, ContradictionView]):
        self.released, self.contradictions = released, contradictions

    def __getitem__(self, key: str) -> Brief:
        view = self.contradictions.get(key)
        if view is None or not view.is_open:
            raise KeyError(key)
        return self.released[key]

    def __contains__(self, key: object) -> bool:
        view = self.contradictions.get(key) if isinstance(key, str) else None
        return view is not None and view.is_open and key in self.released

    def __iter__(self) -> Iterator[str]:
        return (key for key in self.released if key in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _released(today: LivingDoc) -> dict[str, Brief]:
    """The contradictions that withheld a claim today no longer withholds, released by the brief that
    settled them (resolved, not as corrected): on a night they were open, the view notes the release."""
    found = {}
    for view in today.contradictions:
        spellings = [p for claim in view.contradiction.withheld for p in claim.patterns]
        settled = view.settled
        if not spellings or any(p in today.withheld for p in spellings) or settled is None:
            continue
        if settled.update.change is ContradictionChange.resolved and settled.update.outcome is not Outcome.corrected:
            found[view.id] = settled.brief
    return found


class _Touched(NamedTuple):
    """The ids of what a night touched, by kind."""

    sections: list[str]
    entries: list[str]
    contradictions: list[str]
    follow_ups: list[str]
    papers: list[str]


def _born(drafts: dict[str, Any], born: dict[str, int], ids: list[str]) -> list[str]:
    """The ids among ``ids`` seen for the first time, in the order the merge added their drafts (the
    newest drafts are last), each given its place in ``born``."""
    new = {i for i in ids if i not in born}
    came: list[str] = list(itertools.islice(reversed(drafts), len(new)))[::-1] if new else []
    if set(came) != new:  # not the newest drafts after all: find their order the long way
        came = [i for i in drafts if i in new]
    for i in came:
        born[i] = len(born)
    return came


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))
