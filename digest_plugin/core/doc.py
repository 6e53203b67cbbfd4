"""The merged living doc's frozen records: what :func:`merge.merge` returns and everything
downstream reads (layout, render, export, diff, the leak check).

Records with named fields, tuples and read-only mappings: nothing downstream — a renderer, a host
adapter, a ``serve`` rebuild — can change what the merge decided.  They live apart from the merge
algorithm so a module that reads the doc depends on its shape, not on how it was folded.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, Protocol, TypeVar

from . import arxiv, spelling
from .model import (
    Brief,
    Citation,
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
    FollowUpUpdate,
    Item,
    Outcome,
    Outline,
    Retraction,
    Section,
    Status,
    Touches,
)
from .vocabulary import Vocabulary, default_file

T = TypeVar("T")

# --------------------------------------------------------------------------- the merged doc's records


class PlacedItem(NamedTuple):
    """Where an item of a brief ended up: the entry it created or updated (its own id if discarded)."""

    brief: Brief
    item: Item
    entry_id: str


def named_entries(touches: Touches, items: Mapping[str, PlacedItem]) -> list[str]:
    """The entries a contradiction names: those it names itself, and every entry that shows an item it
    names (the one the item was placed in, and each further entry an in-place update changes), in
    that order, once each.  The merge withholds their figures and the site tags them alike."""
    found = list(touches.entries)
    for item_id in touches.items:
        if (placed := items.get(item_id)) is not None:
            found += [placed.entry_id, *placed.item.placement.entries]
    return list(dict.fromkeys(found))


class FigureValue(NamedTuple):
    """An earlier value of a figure and the brief that stated it (``baseline`` for the outline)."""

    figure: Figure
    stated_in: str
    corrected_by: str | None = None
    """The contradiction that showed this value wrong: it is never shown as a value again."""


@dataclass(frozen=True)
class FigureState:
    """A figure of an entry: its current value and the values it had before, oldest first."""

    key: str
    label: str
    current: Figure
    current_from: str
    history: tuple[FigureValue, ...] = ()
    withheld_by: Contradiction | None = None
    """The open contradiction that forbids stating the current value as fact."""

    def series(self) -> list[Figure]:
        """Every dated value, oldest first (for the chart); a value shown wrong is no data point."""
        return [v.figure for v in self.history if v.corrected_by is None] + [self.current]

    @property
    def earlier(self) -> list[FigureValue]:
        """The earlier values a reader may see (not those a correction showed wrong)."""
        return [v for v in self.history if v.corrected_by is None]


@dataclass(frozen=True)
class Update:
    """One dated change to an entry: which brief (or the baseline doc) did what."""

    kind: str  # baseline | placed | updated | evidence | retracted | corrected
    brief: Brief | None
    item: Item | None
    text: str
    evidence: Evidence | None = None
    correction: Correction | None = None


@dataclass(frozen=True)
class EntryView:
    """An entry as it stands on its section page after all briefs are applied."""

    id: str
    section: str
    title: str
    baseline: Entry | None = None
    item: Item | None = None
    brief: Brief | None = None
    parent: str | None = None
    footnote: bool = False
    figures: tuple[FigureState, ...] = ()
    history: tuple[Update, ...] = ()
    evidence: Evidence | None = None
    retraction: Retraction | None = None
    retracted_in: Brief | None = None
    moved_from: tuple[tuple[str, Brief], ...] = ()
    """The sections it was moved out of, and by which brief (oldest first)."""
    split_into: tuple[str, ...] = ()
    """The entries a brief split it into."""
    split_from: str | None = None
    """The entry this one is a part of, split by the brief that placed it."""
    errata: tuple[tuple[Erratum, Brief], ...] = ()
    """Corrections of the brief that placed it, applied to its text, and the brief that made each."""

    @property
    def retracted(self) -> bool:
        return self.retraction is not None

    @property
    def last_brief(self) -> Brief | None:
        """The brief that changed the entry last (None for an entry no brief touched)."""
        return next((u.brief for u in reversed(self.history) if u.brief is not None), None)

    @property
    def first_update(self) -> Update | None:
        """The first change a brief made (it placed the entry), None for an entry no brief touched."""
        return next((u for u in self.history if u.brief is not None), None)

    @property
    def current_evidence(self) -> Evidence | None:
        """How solid the statement is now: a later brief's assessment, else its item's (None for
        an entry the outline brought and no brief assessed)."""
        return self.evidence or (self.item.evidence if self.item else None)


@dataclass(frozen=True)
class Stub:
    """A short linked pointer left in another section by a cross-reference."""

    section: str
    item: Item
    brief: Brief
    home: str


class ContradictionEvent(NamedTuple):
    """A later brief's update of a contradiction."""

    brief: Brief
    update: ContradictionUpdate


@dataclass(frozen=True)
class ContradictionView:
    contradiction: Contradiction
    brief: Brief
    sections: tuple[str, ...]
    status: Status = Status.open
    history: tuple[ContradictionEvent, ...] = ()

    @property
    def id(self) -> str:
        return self.contradiction.id

    @property
    def is_open(self) -> bool:
        return self.status is Status.open

    @cached_property
    def settled(self) -> ContradictionEvent | None:
        """The brief and update that resolved or superseded it, if it is no longer open (kept, as
        ``disposition`` is: the view is frozen, and a page asks both of each callout many times)."""
        if self.is_open:
            return None
        settling = [e for e in self.history if e.update.change is not ContradictionChange.redisposed]
        return settling[-1] if settling else None

    @cached_property
    def disposition(self) -> str:
        """What the team does with it now: the latest re-judgement (改判), else the brief's own."""
        for event in reversed(self.history):
            if event.update.disposition is not None:
                return event.update.disposition
        return self.contradiction.disposition

    @property
    def corrected(self) -> bool:
        """Resolved because the withheld claim was wrong: it never becomes publishable."""
        return self.settled is not None and self.settled.update.outcome is Outcome.corrected


@dataclass(frozen=True)
class CitationView:
    citation: Citation
    number: int
    brief: Brief
    counts: tuple[CitedByCount, ...] = ()
    """Every cited-by count any brief gave for the paper, oldest first."""
    withdrawn_in: Brief | None = None
    """The brief that says its authors withdrew it (it keeps its number)."""

    @property
    def latest_counts(self) -> list[CitedByCount]:
        """The newest count of each source (what the bibliography shows), in the order sources came."""
        latest: dict[str, CitedByCount] = {}
        for count in self.counts:
            latest[count.source] = count
        return list(latest.values())

    @property
    def earlier_counts(self) -> list[CitedByCount]:
        """The counts a later brief refreshed, oldest first (kept as history)."""
        shown = {id(c) for c in self.latest_counts}
        return [c for c in self.counts if id(c) not in shown]


class CitedByCount(NamedTuple):
    """A cited-by count as one brief gave it, dated (the brief's date when it gave none)."""

    source: str
    """The source's code (``S2``, ``OpenAlex``)."""
    label: str
    value: int
    """How many times the source counts the paper cited."""
    as_of: dt.date
    brief: str


@dataclass(frozen=True)
class SectionView:
    section: Section
    entries: tuple[EntryView, ...] = ()
    stubs: tuple[Stub, ...] = ()
    contradictions: tuple[ContradictionView, ...] = ()
    opened_by: Brief | None = None
    """The brief whose ``new_section`` placement opened the section (None for the outline's own)."""
    opened_with: Item | None = None
    """The item of that brief that opened it (its first entry, unless discarded)."""
    former_titles: tuple[tuple[str | None, Brief], ...] = ()
    """Titles it had before a brief renamed it, and the brief that renamed it (oldest first)."""
    moved_out: tuple[tuple[str, str, Brief], ...] = ()
    """(entry id, where it went, the brief that moved it): what this section says of entries it lost."""

    @property
    def number(self) -> str:
        return self.section.number


class FollowUpEvent(NamedTuple):
    """A later brief's closing (or carrying over) of a follow-up."""

    brief: Brief
    update: FollowUpUpdate


@dataclass(frozen=True)
class FollowUpView:
    follow_up: FollowUp
    brief: Brief
    status: FollowUpStatus = FollowUpStatus.open
    history: tuple[FollowUpEvent, ...] = ()

    @property
    def pending(self) -> bool:
        """Still to do: open, or carried over to the next round."""
        return self.status in (FollowUpStatus.open, FollowUpStatus.carried_over)


CHANGE_KINDS = (
    "sections_opened",
    "entries_added",
    "entries_updated",
    "entries_retracted",
    "evidence_changed",
    "contradictions_opened",
    "contradictions_resolved",
    "contradictions_reopened",
    "contradictions_superseded",
    "contradictions_redisposed",
    "citations_added",
    "follow_ups_opened",
    "follow_ups_closed",
    "follow_ups_carried",
)
"""The kinds of change a brief can make, in the order pages list them (labels: :mod:`labels`)."""


@dataclass(frozen=True)
class Changes:
    """What one brief did to the living doc (ids; section numbers; citation numbers)."""

    sections_opened: tuple[str, ...] = ()
    entries_added: tuple[str, ...] = ()
    entries_updated: tuple[str, ...] = ()
    entries_retracted: tuple[str, ...] = ()
    evidence_changed: tuple[str, ...] = ()
    contradictions_opened: tuple[str, ...] = ()
    contradictions_resolved: tuple[str, ...] = ()
    contradictions_reopened: tuple[str, ...] = ()
    contradictions_superseded: tuple[str, ...] = ()
    contradictions_redisposed: tuple[str, ...] = ()
    citations_added: tuple[int, ...] = ()
    follow_ups_opened: tuple[str, ...] = ()
    follow_ups_closed: tuple[str, ...] = ()
    follow_ups_carried: tuple[str, ...] = ()
    """Carried over to a later round: still open, not closed (issue 34: the page counted them closed)."""

    def of(self, kind: str) -> tuple[str | int, ...]:
        """The ids (or citation numbers) of one kind of change."""
        found: tuple[str | int, ...] = getattr(self, kind)
        return found

    def counts(self) -> dict[str, int]:
        return {kind: len(self.of(kind)) for kind in CHANGE_KINDS}


@dataclass(frozen=True)
class LivingDoc:
    """One topic's living doc after merging every brief into its outline."""

    topic: str
    outline: Outline
    briefs: tuple[Brief, ...]
    sections: Mapping[str, SectionView]
    items: Mapping[str, PlacedItem]
    entries: Mapping[str, EntryView]
    contradictions: tuple[ContradictionView, ...]
    citations: Mapping[str, CitationView]
    """By paper (arXiv id without version)."""
    follow_ups: tuple[FollowUpView, ...]
    changes: Mapping[str, Changes]
    archive_after_days: int = 21
    """Carried for :mod:`layout`, which decides from it what moves to archive pages."""
    vocabulary: Vocabulary = field(default_factory=lambda: Vocabulary(default_file()))
    """The topic's words (labels and meanings of ratings, levels, kinds, gaps, dispositions)."""
    as_of: dt.date | None = None
    """The night this doc stands as of (:mod:`.asof`), or None for today's doc."""
    later_withheld: Mapping[str, ContradictionView] = field(default_factory=dict)
    """In a past view: the spellings withheld today that this night did not withhold, each by the
    contradiction that withholds it (today's record when it was opened after the night).  A claim
    found wrong since must not read as fact in a past view either."""
    released_later: Mapping[str, Brief] = field(default_factory=dict)
    """In a past view: the contradictions this night withheld a claim by and a later brief released
    (confirmed), each with that brief, so the callout can say when."""
    hide_discarded: bool = True
    """The rule the doc was merged with (discarded contradictions and discard-level items off the
    section pages), carried so the nights (:mod:`.nights`) can be merged the same way."""
    withheld_given: Mapping[str, ContradictionView] | None = None
    """A night's small doc (:mod:`.nights`), which holds only what the night touched: every spelling
    withheld that night (and today), each by its contradiction, as the night's whole doc would find
    them.  :attr:`withheld_pattern` then compiles only the spellings a text may hold (one
    alternation of all of them per night would cost more than the rest of the pass: some 4 ms a
    spelling)."""

    def top_sections(self) -> list[SectionView]:
        return [s for s in self.sections.values() if "." not in s.number]

    def children(self, number: str) -> list[SectionView]:
        return [s for s in self.sections.values() if s.number.split(".")[0] == number and "." in s.number]

    # Indexes, built once per merge: rendering looks these up for every entry of every page, and
    # a scan per lookup would make a ten-year doc quadratic.

    @cached_property
    def _contradictions_by_id(self) -> dict[str, ContradictionView]:
        return {c.id: c for c in self.contradictions}

    @cached_property
    def briefs_by_id(self) -> dict[str, Brief]:
        return {b.id: b for b in self.briefs}

    @cached_property
    def contradictions_by_brief(self) -> dict[str, list[ContradictionView]]:
        return _group(self.contradictions, lambda c: [c.brief.id])

    @cached_property
    def citations_by_brief(self) -> dict[str, list[CitationView]]:
        """The papers each brief added to the bibliography, in number order."""
        return _group(sorted(self.citations.values(), key=lambda v: v.number), lambda v: [v.brief.id])

    @cached_property
    def errata_received(self) -> dict[str, list[tuple[Brief, Erratum]]]:
        """The errata later briefs made of each brief (by the corrected brief's id), in brief order:
        looked up once per brief page, so kept here rather than found by scanning every brief."""
        found: dict[str, list[tuple[Brief, Erratum]]] = {}
        for later in self.briefs:
            for e in later.errata:
                found.setdefault(e.brief, []).append((later, e))
        return found

    @cached_property
    def contradictions_by_item(self) -> dict[str, list[ContradictionView]]:
        return _group(self.contradictions, lambda c: c.contradiction.touches.items)

    @cached_property
    def contradictions_by_entry(self) -> dict[str, list[ContradictionView]]:
        return _group(self.contradictions, lambda c: c.contradiction.touches.entries)

    def contradiction(self, contradiction_id: str) -> ContradictionView | None:
        return self._contradictions_by_id.get(contradiction_id)

    @cached_property
    def _follow_ups_by_id(self) -> dict[str, FollowUpView]:
        return {f.follow_up.id: f for f in self.follow_ups}

    @cached_property
    def follow_ups_by_item(self) -> dict[str, list[FollowUpView]]:
        """The follow-ups on each item (``follow_ups[].items``), in the order briefs opened them."""
        return _group(list(self.follow_ups), lambda f: f.follow_up.items)

    def follow_up(self, follow_up_id: str) -> FollowUpView:
        return self._follow_ups_by_id[follow_up_id]

    @cached_property
    def withheld(self) -> dict[str, ContradictionView]:
        """Spellings of claims that must not appear as fact, longest first (so the longest match wins).

        Open contradictions withhold, and so do those resolved as *corrected* (the claim was
        wrong, so it never becomes a fact); once confirmed, the claim is publishable.  A spelling
        named by two contradictions is withheld by the earlier one."""
        if self.withheld_given is not None:
            return longest_first(self.withheld_given)
        found: dict[str, ContradictionView] = {}
        for c in self.contradictions:
            for claim in c.contradiction.withheld if c.is_open or c.corrected else ():
                for pattern in claim.patterns:
                    found.setdefault(pattern, c)
        for pattern, view in self.later_withheld.items():  # a past view: what today withholds, too
            found.setdefault(pattern, view)
        return longest_first(found)

    def withheld_later(self, view: ContradictionView) -> bool:
        """Whether ``view`` is a contradiction opened after this past view's night: its callout is not
        in this view, so its marks here link nowhere."""
        return self.as_of is not None and view.brief.date > self.as_of

    @cached_property
    def withheld_pattern(self) -> Finder | None:
        """What finds every withheld spelling in plain (unescaped) text, longest first.

        Each matches the claim however it is spelled (:mod:`.spelling`: spaces anywhere or none,
        full-width or small forms, a character reference, another case), so a claim typed a little
        differently is withheld all the same; :meth:`withheld_by` finds who withholds the match.
        A night's small doc (``withheld_given``) compiles only the spellings a text may hold."""
        if not self._withheld_by_canonical:
            return None
        if self.withheld_given is not None:
            return _Sieve(self)
        return compile_spellings(self._withheld_by_canonical)

    @cached_property
    def _withheld_by_canonical(self) -> dict[str, ContradictionView]:
        """The withheld spellings by canonical form (one pattern each), longest first; a form two
        contradictions withhold belongs to the earlier one."""
        return by_canonical(self.withheld)

    def withheld_by(self, matched: str) -> ContradictionView:
        """The contradiction that withholds a spelling :attr:`withheld_pattern` matched."""
        return self._withheld_by_canonical[spelling.canonical(matched)]

    def open_follow_ups(self) -> list[FollowUpView]:
        return [f for f in self.follow_ups if f.pending]

    @property
    def reference_count(self) -> int:
        return (self.outline.doc.reference_count or 0) + len(self.citations)


@dataclass(frozen=True)
class Night:
    """What one night's briefs did to a topic's doc (:func:`.nights.nights`): the objects they touched
    — sections, entries, contradictions, follow-ups, papers — as they stood the night before
    (``before``) and after it (``after``), each as a small doc that holds only those.

    Both carry the whole night's withholdings and today's (``withheld``), as the past views of the
    two nights do, so whatever quotes them withholds what those views withhold."""

    night: dt.date
    briefs: tuple[Brief, ...]
    before: LivingDoc
    after: LivingDoc


class Hit(Protocol):
    """A withheld spelling found in a text: what the text paths read of a match."""

    def start(self) -> int: ...

    def end(self) -> int: ...

    def group(self) -> str: ...


class Finder(Protocol):
    """What :attr:`LivingDoc.withheld_pattern` gives: the calls the text paths make of a pattern."""

    def search(self, string: str) -> Hit | None: ...

    def finditer(self, string: str) -> Iterator[Hit]: ...

    def sub(self, repl: Callable[[Hit], str], string: str) -> str: ...


def compile_spellings(spellings: Iterable[str]) -> re.Pattern[str] | None:
    """One alternation of the patterns of these canonical spellings (longest first, as given)."""
    patterns = [p for p in (spelling.pattern(s) for s in spellings) if p]
    return re.compile("|".join(patterns)) if patterns else None


@functools.lru_cache(maxsize=1024)
def _compiled(spellings: tuple[str, ...]) -> re.Pattern[str] | None:
    """:func:`compile_spellings`, kept: the nights' small docs ask for the same few again and again."""
    return compile_spellings(spellings)


class Found(NamedTuple):
    """A withheld spelling found without a compiled pattern (what the text paths read of a match)."""

    string: str
    begin: int
    finish: int

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish

    def group(self) -> str:
        return self.string[self.begin : self.finish]


class _Sieve:
    """A night's withheld spellings, found without compiling them all: a spelling can match a text
    only if its canonical form is in the text's (a match may add spaces, other widths, references,
    which the canonical form drops); those few are found by :func:`.spelling.find`, or, in a text
    only a pattern can read, by the pattern of just those, compiled then and kept."""

    def __init__(self, doc: LivingDoc):
        self.spellings = tuple(doc._withheld_by_canonical)

    def finditer(self, string: str) -> Iterator[Hit]:
        if not string:
            return iter(())
        text = spelling.canonical(string)
        found = tuple(s for s in self.spellings if s in text)
        if not found:
            return iter(())
        spans = spelling.find(string, found)
        if spans is not None:
            return iter([Found(string, begin, end) for begin, end in spans])
        pattern = _compiled(found)
        return pattern.finditer(string) if pattern is not None else iter(())

    def search(self, string: str) -> Hit | None:
        return next(self.finditer(string), None)

    def sub(self, repl: Callable[[Hit], str], string: str) -> str:
        out, last = [], 0
        for m in self.finditer(string):
            out += [string[last : m.start()], repl(m)]
            last = m.end()
        return "".join([*out, string[last:]])


ARXIV_MENTION = arxiv.MENTION


def longest_first(withheld: Mapping[str, ContradictionView]) -> dict[str, ContradictionView]:
    """Withheld spellings, longest first (so the longest match wins), then in code-point order."""
    return dict(sorted(withheld.items(), key=lambda pc: (-len(pc[0]), pc[0])))


def by_canonical(withheld: Mapping[str, ContradictionView]) -> dict[str, ContradictionView]:
    """Withheld spellings (longest first) by canonical form, longest first; a form two spellings share
    belongs to the first (the earlier contradiction's, as :attr:`LivingDoc.withheld` orders them)."""
    found: dict[str, ContradictionView] = {}
    for p, view in withheld.items():
        found.setdefault(spelling.canonical(p), view)
    found.pop("", None)
    return longest_first(found)


def _group(views: Iterable[T], keys: Callable[[T], Iterable[str]]) -> dict[str, list[T]]:
    grouped: dict[str, list[T]] = {}
    for view in views:
        for key in keys(view):
            grouped.setdefault(key, []).append(view)
    return grouped
