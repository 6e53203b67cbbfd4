"""Briefs + outline → the merged living doc.  Pure functions: no MkDocs, no files, no clock.

The merge decides *what* is on each section page and in what order; :mod:`render` decides how
it looks.  Everything here is a function of the validated data alone, and briefs are taken in
(date, id) order, so the same data always gives the same living doc, whatever order the files
were read in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from .model import (
    Brief,
    Disposition,
    EvidenceLevel,
    Citation,
    Contradiction,
    Entry,
    Figure,
    FollowUp,
    FollowUpStatus,
    Item,
    Outline,
    PlacementAction,
    Section,
    Rules,
    Status,
    arxiv_key,
)

ARXIV_MENTION = re.compile(r"arXiv:(\d{4}\.\d{4,5})(?:v\d+)?")


@dataclass
class FigureState:
    """A figure of an entry: its current value and the values it had before, oldest first."""

    key: str
    label: str
    current: Figure
    current_from: str
    history: list[tuple[Figure, str]] = field(default_factory=list)
    withheld_by: Contradiction | None = None


@dataclass
class Update:
    """One dated change to an entry: which brief (or the baseline doc) and which item."""

    date: str
    source: str
    brief: Brief | None
    item: Item | None
    text: str


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

    @property
    def id(self) -> str:
        return self.contradiction.id

    @property
    def is_open(self) -> bool:
        return self.contradiction.status is Status.open


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

    def top_sections(self) -> list[SectionView]:
        return [s for s in self.sections.values() if "." not in s.number]

    def children(self, number: str) -> list[SectionView]:
        return [s for s in self.sections.values() if s.number.split(".")[0] == number and "." in s.number]

    @cached_property
    def withheld(self) -> dict[str, ContradictionView]:
        """Spellings of claims that must not appear as fact, longest first (so the longest match wins).

        A spelling named by two open contradictions is withheld by the earlier one."""
        found: dict[str, ContradictionView] = {}
        for c in self.contradictions:
            for claim in c.contradiction.withheld if c.is_open else ():
                for pattern in claim.patterns:
                    found.setdefault(pattern, c)
        return dict(sorted(found.items(), key=lambda pc: (-len(pc[0]), pc[0])))

    def open_follow_ups(self) -> list[FollowUpView]:
        return [f for f in self.follow_ups if f.follow_up.status is FollowUpStatus.open]

    @property
    def reference_count(self) -> int:
        return (self.outline.doc.reference_count or 0) + len(self.citations)


# Page paths (MkDocs source paths, relative to docs/): one place decides the URL layout, and every
# topic lives under its own prefix so a second topic can join the site later.


def section_page(topic: str, number: str) -> str:
    return f"{topic}/{number.split('.')[0]}.md"


def brief_page(brief: Brief) -> str:
    return f"{brief.topic}/briefs/{brief.id}.md"


def register_page(topic: str) -> str:
    return f"{topic}/register.md"


def bibliography_page(topic: str) -> str:
    return f"{topic}/bibliography.md"


def follow_ups_page(topic: str) -> str:
    return f"{topic}/follow-ups.md"


def briefs_index_page(topic: str) -> str:
    return f"{topic}/briefs/index.md"


def merge(outline: Outline, briefs: list[Brief], rules: Rules | None = None) -> LivingDoc:
    """Apply every brief of the outline's topic, oldest first, to the outline.

    With ``rules.hide_discarded`` (the default), discarded contradictions and discard-level items
    stay off the section pages; the register and the brief pages keep them."""
    rules = rules or Rules()
    briefs = sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id))
    sections = {s.number: SectionView(s) for s in outline.sections}
    entries: dict[str, EntryView] = {}
    for entry in outline.entries:
        view = EntryView(entry.id, entry.section, entry.title, baseline=entry)
        view.figures = [FigureState(f.key, f.label, f, "baseline") for f in entry.figures]
        view.history.append(Update("", "baseline", None, None, entry.text))
        entries[entry.id] = view
        sections[entry.section].entries.append(view)

    items: dict[str, tuple[Brief, Item, str]] = {}
    for brief in briefs:
        for item in sorted(brief.items, key=lambda i: i.number):
            if rules.hide_discarded and item.evidence.level is EvidenceLevel.discard and not _is_update(item):
                items[item.id] = (brief, item, item.id)
                continue
            _place(item, brief, sections, entries)
            items[item.id] = (brief, item, item.placement.entry if _is_update(item) else item.id)

    contradictions = [
        ContradictionView(c, b, _touched_sections(c, items, entries, sections))
        for b in briefs for c in sorted(b.contradictions, key=lambda c: c.number)
    ]
    for view in contradictions:
        if rules.hide_discarded and view.contradiction.disposition is Disposition.discarded:
            continue
        for number in view.sections:
            sections[number].contradictions.append(view)
        for claim in view.contradiction.withheld:
            for entry_id in view.contradiction.touches.entries:
                for fig in entries[entry_id].figures if entry_id in entries else []:
                    if claim.figure == fig.key and view.is_open:
                        fig.withheld_by = view.contradiction

    citations = _number_citations(outline, briefs)
    _collect_places(citations, contradictions, items)
    follow_ups = [FollowUpView(f, b) for b in briefs for f in sorted(b.follow_ups, key=lambda f: f.number)]
    return LivingDoc(outline.topic, outline, briefs, sections, items, entries, contradictions, citations, follow_ups)


def _is_update(item: Item) -> bool:
    return item.placement.action is PlacementAction.update_in_place


def _place(item: Item, brief: Brief, sections: dict[str, SectionView], entries: dict[str, EntryView]) -> None:
    placement = item.placement
    if _is_update(item):
        view = entries[placement.entry]
        view.item, view.brief = item, brief
        view.history.append(Update(brief.date.isoformat(), brief.id, brief, item, item.title))
        _update_figures(view, item, brief)
    else:
        view = EntryView(item.id, placement.section, placement.entry_title or item.title, item=item, brief=brief,
                         parent=placement.after, footnote=placement.action is PlacementAction.footnote)
        view.history.append(Update(brief.date.isoformat(), brief.id, brief, item, item.title))
        view.figures = [FigureState(f.key, f.label, f, brief.id) for f in item.figures]
        entries[item.id] = view
        _insert(sections[placement.section].entries, view)
    for ref in placement.cross_refs:
        sections[ref.section].stubs.append(Stub(ref.section, item, brief, placement.section))


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


def _touched_sections(c: Contradiction, items: dict, entries: dict[str, EntryView], sections: dict) -> list[str]:
    """Every section a contradiction touches: named ones, and those of the items and entries it names."""
    found = list(c.touches.sections)
    found += [items[i][1].placement.section for i in c.touches.items if i in items]
    found += [entries[e].section for e in c.touches.entries if e in entries]
    return sorted({s for s in found if s in sections}, key=lambda s: [int(p) for p in s.split(".")])


def _number_citations(outline: Outline, briefs: list[Brief]) -> dict[str, CitationView]:
    """Numbers continue after the doc's existing references, in (brief date, brief id, list) order.

    A paper cited again (with or without a vN suffix) keeps the number it got first."""
    citations: dict[str, CitationView] = {}
    number = outline.doc.reference_count or 0
    for brief in briefs:
        for citation in brief.citations:
            key = arxiv_key(citation.arxiv)
            if key not in citations:
                number += 1
                citations[key] = CitationView(citation, number, brief)
    return citations


PAGE_CITE = re.compile(r"""\bcite\(\s*["']([^"']+)["']\s*\)|\[\[cite\s+([^\]\s]+)\s*\]\]""")


def cite_hand_written_page(doc: LivingDoc, page: str, markdown: str, label: str) -> None:
    """Record the citations a hand-written page makes (``{{ cite("…") }}`` or ``[[cite …]]``) as back-link places."""
    for macro, directive in PAGE_CITE.findall(markdown):
        view = doc.citations.get(arxiv_key(macro or directive))
        place = Place(page, "", label)
        if view is not None and place not in view.places:
            view.places.append(place)


def _collect_places(citations: dict[str, CitationView], contradictions: list[ContradictionView], items: dict) -> None:
    """Back-links for the bibliography: every place a paper is listed, discussed or mentioned."""
    for view in citations.values():
        view.places.append(Place(brief_page(view.brief), f"ref-{view.number}", f"{view.brief.date} {view.brief.round} 简报"))
    for c in contradictions:
        text = f"{c.contradiction.title} {c.contradiction.text}"
        keys = {arxiv_key(a) for a in c.contradiction.touches.citations} | set(ARXIV_MENTION.findall(text))
        for key in sorted(keys & citations.keys()):
            citations[key].places.append(Place(register_page(c.brief.topic), f"contradiction-{c.id}",
                                               f"矛盾 {c.contradiction.number}（登记）"))
    for brief, item, entry_id in items.values():
        text = " ".join([item.title, *item.points, item.evidence.boundary, item.relation, item.placement.text])
        for key in sorted(set(ARXIV_MENTION.findall(text)) & citations.keys()):
            citations[key].places.append(Place(section_page(brief.topic, item.placement.section), f"entry-{entry_id}",
                                               f"§{item.placement.section} {item.title}"))
