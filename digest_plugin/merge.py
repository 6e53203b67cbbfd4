"""Briefs + outline → the merged living doc.  Pure functions: no MkDocs, no files, no clock.

The merge decides *what* is on each section page and in what order; :mod:`render` decides how
it looks.  Briefs are applied one at a time in (date, id) order — items placed, entries updated,
contradictions opened, resolved, re-opened or superseded, follow-ups opened and closed, evidence
raised, items retracted — and what each brief changed is recorded, so a brief's page and the feed
can say what that day did.  The same data always gives the same living doc, whatever order the
files were read in.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import cached_property

from . import arxiv
from .arxiv import key as arxiv_key
from .model import (
    Brief,
    Citation,
    Contradiction,
    ContradictionChange,
    ContradictionUpdate,
    Disposition,
    Entry,
    Evidence,
    EvidenceLevel,
    Figure,
    FollowUp,
    FollowUpStatus,
    FollowUpUpdate,
    Item,
    Outline,
    PlacementAction,
    Retraction,
    Rules,
    Section,
    Status,
)

ARXIV_MENTION = arxiv.MENTION


@dataclass
class FigureState:
    """A figure of an entry: its current value and the values it had before, oldest first."""

    key: str
    label: str
    current: Figure
    current_from: str
    history: list[tuple[Figure, str]] = field(default_factory=list)
    withheld_by: Contradiction | None = None

    def series(self) -> list[Figure]:
        """Every dated value, oldest first (for the chart)."""
        return [f for f, _ in self.history] + [self.current]


@dataclass
class Update:
    """One dated change to an entry: which brief (or the baseline doc) did what."""

    kind: str  # baseline | placed | updated | evidence | retracted
    brief: Brief | None
    item: Item | None
    text: str
    evidence: Evidence | None = None


@dataclass
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
    figures: list[FigureState] = field(default_factory=list)
    history: list[Update] = field(default_factory=list)
    evidence: Evidence | None = None
    retraction: Retraction | None = None
    retracted_in: Brief | None = None

    @property
    def retracted(self) -> bool:
        return self.retraction is not None


@dataclass
class Stub:
    """A short linked pointer left in another section by a cross-reference."""

    section: str
    item: Item
    brief: Brief
    home: str


@dataclass
class ContradictionView:
    contradiction: Contradiction
    brief: Brief
    sections: list[str]
    status: Status = Status.open
    history: list[tuple[Brief, ContradictionUpdate]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.contradiction.id

    @property
    def is_open(self) -> bool:
        return self.status is Status.open

    @property
    def settled(self) -> tuple[Brief, ContradictionUpdate] | None:
        """The brief and update that resolved or superseded it, if it is no longer open."""
        return self.history[-1] if self.history and not self.is_open else None


@dataclass(frozen=True)
class Place:
    """Where something is cited: a page (by source path) and an anchor on it."""

    page: str
    anchor: str
    label: str


@dataclass
class CitationView:
    citation: Citation
    number: int
    brief: Brief
    places: list[Place] = field(default_factory=list)


@dataclass
class SectionView:
    section: Section
    entries: list[EntryView] = field(default_factory=list)
    stubs: list[Stub] = field(default_factory=list)
    contradictions: list[ContradictionView] = field(default_factory=list)

    @property
    def number(self) -> str:
        return self.section.number


@dataclass
class FollowUpView:
    follow_up: FollowUp
    brief: Brief
    status: FollowUpStatus = FollowUpStatus.open
    history: list[tuple[Brief, FollowUpUpdate]] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        """Still to do: open, or carried over to the next round."""
        return self.status in (FollowUpStatus.open, FollowUpStatus.carried_over)


@dataclass
class Changes:
    """What one brief did to the living doc (ids; citation numbers)."""

    entries_added: list[str] = field(default_factory=list)
    entries_updated: list[str] = field(default_factory=list)
    entries_retracted: list[str] = field(default_factory=list)
    evidence_changed: list[str] = field(default_factory=list)
    contradictions_opened: list[str] = field(default_factory=list)
    contradictions_resolved: list[str] = field(default_factory=list)
    contradictions_reopened: list[str] = field(default_factory=list)
    contradictions_superseded: list[str] = field(default_factory=list)
    citations_added: list[int] = field(default_factory=list)
    follow_ups_opened: list[str] = field(default_factory=list)
    follow_ups_closed: list[str] = field(default_factory=list)

    LABELS = {
        "entries_added": "新增条目",
        "entries_updated": "更新条目",
        "entries_retracted": "撤回条目",
        "evidence_changed": "证据变更",
        "contradictions_opened": "新开矛盾",
        "contradictions_resolved": "解决矛盾",
        "contradictions_reopened": "重开矛盾",
        "contradictions_superseded": "取代矛盾",
        "citations_added": "新增引用",
        "follow_ups_opened": "新开跟进",
        "follow_ups_closed": "关闭跟进",
    }

    def counts(self) -> dict[str, int]:
        return {name: len(getattr(self, name)) for name in self.LABELS}


@dataclass
class LivingDoc:
    """One topic's living doc after merging every brief into its outline."""

    topic: str
    outline: Outline
    briefs: list[Brief]
    sections: dict[str, SectionView]
    items: dict[str, tuple[Brief, Item, str]]
    entries: dict[str, EntryView]
    contradictions: list[ContradictionView]
    citations: dict[str, CitationView]
    follow_ups: list[FollowUpView]
    changes: dict[str, Changes]
    archive_after_days: int = 60
    page_places: dict[str, list[Place]] = field(default_factory=dict)
    """Citations made by hand-written pages (set by the host each build, not by the merge)."""

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
    def contradictions_by_item(self) -> dict[str, list[ContradictionView]]:
        return _group(self.contradictions, lambda c: c.contradiction.touches.items)

    @cached_property
    def contradictions_by_entry(self) -> dict[str, list[ContradictionView]]:
        return _group(self.contradictions, lambda c: c.contradiction.touches.entries)

    @cached_property
    def withheld_regex(self) -> tuple[re.Pattern[str] | None, dict[str, ContradictionView]]:
        """One alternation of every withheld spelling (HTML-escaped, longest first) and who withholds it."""
        from html import escape

        by_escaped = {escape(p, quote=True): c for p, c in self.withheld.items()}
        if not by_escaped:
            return None, {}
        return re.compile("|".join(re.escape(p) for p in by_escaped)), by_escaped

    def contradiction(self, contradiction_id: str) -> ContradictionView | None:
        return self._contradictions_by_id.get(contradiction_id)

    @cached_property
    def _follow_ups_by_id(self) -> dict[str, FollowUpView]:
        return {f.follow_up.id: f for f in self.follow_ups}

    def follow_up(self, follow_up_id: str) -> FollowUpView:
        return self._follow_ups_by_id[follow_up_id]

    # Where things live.  Recent activity stays on the main pages; older activity moves to one
    # archive page per year.  "Recent" is counted back from the newest brief, not from the clock,
    # so the same data always lays out the same site.

    @cached_property
    def cutoff(self) -> dt.date | None:
        if not self.briefs:
            return None
        return max(b.date for b in self.briefs) - dt.timedelta(days=self.archive_after_days)

    def _year(self, day: dt.date | None) -> int | None:
        """None (main page) for recent activity, else the archive year."""
        return None if day is None or self.cutoff is None or day >= self.cutoff else day.year

    def entry_year(self, entry: EntryView) -> int | None:
        """Entries the outline brought are the doc's core and stay; others go by their last change."""
        if entry.baseline is not None:
            return None
        return self._year(max(u.brief.date for u in entry.history if u.brief is not None))

    def entry_page(self, entry_id: str) -> str:
        entry = self.entries[entry_id]
        return section_page(self.topic, entry.section, self.entry_year(entry))

    def contradiction_year(self, view: ContradictionView) -> int | None:
        return None if view.is_open else self._year(view.settled[0].date if view.settled else view.brief.date)

    def contradiction_page(self, view: ContradictionView) -> str:
        return register_page(self.topic, self.contradiction_year(view))

    def follow_up_year(self, view: FollowUpView) -> int | None:
        return None if view.pending else self._year(view.history[-1][0].date if view.history else view.brief.date)

    def follow_up_page(self, view: FollowUpView) -> str:
        return follow_ups_page(self.topic, self.follow_up_year(view))

    def citation_year(self, view: CitationView) -> int | None:
        return self._year(view.brief.date)

    def citation_page(self, view: CitationView) -> str:
        return bibliography_page(self.topic, self.citation_year(view))

    def brief_year(self, brief: Brief) -> int | None:
        return self._year(brief.date)

    @cached_property
    def _archive_years(self) -> dict[str, list[int]]:
        """Every archive page there is, by kind ('1'…'6' for sections)."""
        years: dict[str, set[int]] = {}
        for entry in self.entries.values():
            if (year := self.entry_year(entry)) is not None:
                years.setdefault(entry.section.split(".")[0], set()).add(year)
        for kind, views, year_of in (
            ("register", self.contradictions, self.contradiction_year),
            ("follow-ups", self.follow_ups, self.follow_up_year),
            ("bibliography", self.citations.values(), self.citation_year),
            ("briefs", self.briefs, self.brief_year),
        ):
            for view in views:
                if (year := year_of(view)) is not None:
                    years.setdefault(kind, set()).add(year)
        return {kind: sorted(found) for kind, found in sorted(years.items())}

    def archive_years(self) -> dict[str, list[int]]:
        return self._archive_years

    @cached_property
    def withheld(self) -> dict[str, ContradictionView]:
        """Spellings of claims that must not appear as fact, longest first (so the longest match wins).

        Only open contradictions withhold; once resolved, the claim is publishable again.  A
        spelling named by two open contradictions is withheld by the earlier one."""
        found: dict[str, ContradictionView] = {}
        for c in self.contradictions:
            for claim in c.contradiction.withheld if c.is_open else ():
                for pattern in claim.patterns:
                    found.setdefault(pattern, c)
        return dict(sorted(found.items(), key=lambda pc: (-len(pc[0]), pc[0])))

    def open_follow_ups(self) -> list[FollowUpView]:
        return [f for f in self.follow_ups if f.pending]

    @property
    def reference_count(self) -> int:
        return (self.outline.doc.reference_count or 0) + len(self.citations)


# Page paths (MkDocs source paths, relative to docs/): one place decides the URL layout, and every
# topic lives under its own prefix so a second topic can join the site later.


def section_page(topic: str, number: str, year: int | None = None) -> str:
    top = number.split(".")[0]
    return f"{topic}/{top}.md" if year is None else f"{topic}/{top}/{year}.md"


def brief_page(brief: Brief) -> str:
    return f"{brief.topic}/briefs/{brief.id}.md"


def register_page(topic: str, year: int | None = None) -> str:
    return f"{topic}/register.md" if year is None else f"{topic}/register/{year}.md"


def bibliography_page(topic: str, year: int | None = None) -> str:
    return f"{topic}/bibliography.md" if year is None else f"{topic}/bibliography/{year}.md"


def follow_ups_page(topic: str, year: int | None = None) -> str:
    return f"{topic}/follow-ups.md" if year is None else f"{topic}/follow-ups/{year}.md"


def briefs_index_page(topic: str, year: int | None = None) -> str:
    return f"{topic}/briefs/index.md" if year is None else f"{topic}/briefs/{year}.md"


def feed_page(topic: str) -> str:
    """Not a Markdown page: the Atom feed file, linked from the briefs pages."""
    return f"{topic}/feed.xml"


def merge(outline: Outline, briefs: list[Brief], rules: Rules | None = None) -> LivingDoc:
    """Apply every brief of the outline's topic, oldest first, to the outline.

    With ``rules.hide_discarded`` (the default), discarded contradictions and discard-level items
    stay off the section pages; the register and the brief pages keep them."""
    rules = rules or Rules()
    briefs = sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id))
    state = _State(outline, rules)
    for brief in briefs:
        state.apply(brief)
    contradictions = state.contradictions
    for view in contradictions:
        view.sections = _touched_sections(view.contradiction, state.items, state.entries, state.sections)
        if rules.hide_discarded and view.contradiction.disposition is Disposition.discarded:
            continue
        for number in view.sections:
            state.sections[number].contradictions.append(view)
        for claim in view.contradiction.withheld if view.is_open else ():
            for entry_id in view.contradiction.touches.entries:
                for fig in state.entries[entry_id].figures if entry_id in state.entries else []:
                    if claim.figure == fig.key:
                        fig.withheld_by = view.contradiction
    doc = LivingDoc(
        outline.topic,
        outline,
        briefs,
        state.sections,
        state.items,
        state.entries,
        contradictions,
        state.citations,
        state.follow_ups,
        state.changes,
        rules.archive_after_days,
    )
    _collect_places(doc)
    return doc


class _State:
    """The living doc while briefs are being applied."""

    def __init__(self, outline: Outline, rules: Rules):
        self.rules = rules
        self.sections = {s.number: SectionView(s) for s in outline.sections}
        self.entries: dict[str, EntryView] = {}
        self.items: dict[str, tuple[Brief, Item, str]] = {}
        self.contradictions: list[ContradictionView] = []
        self.follow_ups: list[FollowUpView] = []
        self.contradiction_index: dict[str, ContradictionView] = {}
        self.follow_up_index: dict[str, FollowUpView] = {}
        self.citations: dict[str, CitationView] = {}
        self.changes: dict[str, Changes] = {}
        self.next_citation = (outline.doc.reference_count or 0) + 1
        for entry in outline.entries:
            view = EntryView(entry.id, entry.section, entry.title, baseline=entry)
            view.figures = [FigureState(f.key, f.label, f, "baseline") for f in entry.figures]
            view.history.append(Update("baseline", None, None, entry.text))
            self.entries[entry.id] = view
            self.sections[entry.section].entries.append(view)

    def apply(self, brief: Brief) -> None:
        changes = self.changes[brief.id] = Changes()
        for item in sorted(brief.items, key=lambda i: i.number):
            self._place(item, brief, changes)
        for c in sorted(brief.contradictions, key=lambda c: c.number):
            view = ContradictionView(c, brief, [], c.status)
            self.contradictions.append(view)
            self.contradiction_index[c.id] = view
            (changes.contradictions_opened if c.status is Status.open else changes.contradictions_resolved).append(c.id)
        for citation in brief.citations:
            key = arxiv_key(citation.arxiv)
            if key not in self.citations:  # a paper cited again (even as vN) keeps its first number
                self.citations[key] = CitationView(citation, self.next_citation, brief)
                changes.citations_added.append(self.next_citation)
                self.next_citation += 1
        for f in sorted(brief.follow_ups, key=lambda f: f.number):
            self.follow_ups.append(FollowUpView(f, brief, f.status))
            self.follow_up_index[f.id] = self.follow_ups[-1]
            changes.follow_ups_opened.append(f.id)
        for update in brief.contradiction_updates:
            self._update_contradiction(update, brief, changes)
        for update in brief.follow_up_updates:
            view = self.follow_up_index[update.follow_up]
            view.status = update.status
            view.history.append((brief, update))
            changes.follow_ups_closed.append(view.follow_up.id)
        for update in brief.evidence_updates:
            entry = self.entries.get(self.items[update.item][2])
            if entry is None:  # a discard-level item kept off the pages
                continue
            entry.history.append(
                Update("evidence", brief, self.items[update.item][1], update.note or "", update.evidence)
            )
            entry.evidence = update.evidence
            changes.evidence_changed.append(entry.id)
        for retraction in brief.retractions:
            entry = self.entries.get(self.items[retraction.item][2])
            if entry is None:
                continue
            entry.retraction, entry.retracted_in = retraction, brief
            entry.history.append(Update("retracted", brief, None, retraction.reason))
            changes.entries_retracted.append(entry.id)

    def _update_contradiction(self, update: ContradictionUpdate, brief: Brief, changes: Changes) -> None:
        view = self.contradiction_index[update.contradiction]
        view.history.append((brief, update))
        if update.change is ContradictionChange.resolved:
            view.status = Status.resolved
            changes.contradictions_resolved.append(view.id)
        elif update.change is ContradictionChange.reopened:
            view.status = Status.open
            changes.contradictions_reopened.append(view.id)
        else:
            view.status = Status.superseded
            changes.contradictions_superseded.append(view.id)

    def _place(self, item: Item, brief: Brief, changes: Changes) -> None:
        placement = item.placement
        if _is_update(item):
            view = self.entries[placement.entry]
            view.item, view.brief, view.evidence = item, brief, item.evidence
            view.history.append(Update("updated", brief, item, item.title, item.evidence))
            _update_figures(view, item, brief)
            self.items[item.id] = (brief, item, view.id)
            changes.entries_updated.append(view.id)
            return
        self.items[item.id] = (brief, item, item.id)
        if self.rules.hide_discarded and item.evidence.level is EvidenceLevel.discard:
            return
        view = EntryView(
            item.id,
            placement.section,
            placement.entry_title or item.title,
            item=item,
            brief=brief,
            parent=placement.after,
            footnote=placement.action is PlacementAction.footnote,
            evidence=item.evidence,
        )
        view.history.append(Update("placed", brief, item, item.title, item.evidence))
        view.figures = [FigureState(f.key, f.label, f, brief.id) for f in item.figures]
        self.entries[item.id] = view
        _insert(self.sections[placement.section].entries, view)
        changes.entries_added.append(view.id)
        for ref in placement.cross_refs:
            self.sections[ref.section].stubs.append(Stub(ref.section, item, brief, placement.section))


def _is_update(item: Item) -> bool:
    return item.placement.action is PlacementAction.update_in_place


def _update_figures(view: EntryView, item: Item, brief: Brief) -> None:
    by_key = {f.key: f for f in view.figures}
    for figure in item.figures:
        state = by_key.get(figure.key)
        if state is None:
            view.figures.append(FigureState(figure.key, figure.label, figure, brief.id))
        elif state.current != figure:
            state.history.append((state.current, state.current_from))
            state.current, state.current_from = figure, brief.id


def _insert(entries: list[EntryView], view: EntryView) -> None:
    """New entries go right after the entry they hang under (and its earlier children), else at the end."""
    if view.parent:
        last = max((i for i, e in enumerate(entries) if e.id == view.parent or e.parent == view.parent), default=None)
        if last is not None:
            entries.insert(last + 1, view)
            return
    entries.append(view)


def _group(views: list, keys) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for view in views:
        for key in keys(view):
            grouped.setdefault(key, []).append(view)
    return grouped


def _touched_sections(c: Contradiction, items: dict, entries: dict[str, EntryView], sections: dict) -> list[str]:
    """Every section a contradiction touches: named ones, and those of the items and entries it names."""
    found = list(c.touches.sections)
    found += [items[i][1].placement.section for i in c.touches.items if i in items]
    found += [entries[e].section for e in c.touches.entries if e in entries]
    return sorted({s for s in found if s in sections}, key=lambda s: [int(p) for p in s.split(".")])


PAGE_CITE = re.compile(r"""\bcite\(\s*["']([^"']+)["']\s*\)|\[\[cite\s+([^\]\s]+)\s*\]\]""")


def cite_hand_written_page(doc: LivingDoc, page: str, markdown: str, label: str) -> None:
    """Record the citations a hand-written page makes (``{{ cite("…") }}`` or ``[[cite …]]``) as back-link places."""
    for macro, directive in PAGE_CITE.findall(markdown):
        key = arxiv_key(macro or directive)
        place = Place(page, f"cite-{key}", label)
        if key in doc.citations and place not in doc.page_places.setdefault(key, []):
            doc.page_places[key].append(place)


def _collect_places(doc: LivingDoc) -> None:
    """Back-links for the bibliography: every place a paper is listed, discussed or mentioned."""
    citations = doc.citations
    for view in citations.values():
        view.places.append(
            Place(brief_page(view.brief), f"ref-{view.number}", f"{view.brief.date} {view.brief.round} 简报")
        )
    for c in doc.contradictions:
        text = f"{c.contradiction.title} {c.contradiction.text}"
        keys = {arxiv_key(a) for a in c.contradiction.touches.citations} | set(ARXIV_MENTION.findall(text))
        for key in sorted(k for k in keys if k in citations):
            citations[key].places.append(
                Place(doc.contradiction_page(c), f"contradiction-{c.id}", f"矛盾 {c.contradiction.number}（登记）")
            )
    for brief, item, entry_id in doc.items.values():
        if entry_id not in doc.entries:
            continue
        text = " ".join([item.title, *item.points, item.evidence.boundary, item.relation, item.placement.text])
        if "arXiv:" not in text:  # most items cite nothing: skip the regex
            continue
        for key in sorted(k for k in set(ARXIV_MENTION.findall(text)) if k in citations):
            citations[key].places.append(
                Place(doc.entry_page(entry_id), f"entry-{entry_id}", f"§{item.placement.section} {item.title}")
            )
