"""Previews in seconds: which generated pages a ``serve`` rebuild converts again, which it leaves.

A rebuild after an edit to one brief changes a handful of the site's pages, but MkDocs converts
and writes them all (two minutes at ten years of briefs).  Under a dirty ``serve`` (``digest
serve``, or ``mkdocs serve --dirty``) the plugin asks :class:`Preview` instead, and MkDocs skips
every page it does not name, leaving that page's HTML as it is on disk.  Nothing here guesses:

1. **What the site as a whole depends on** (:func:`site_key`): the config file, the hand-written
   pages, and per topic the briefs' ids and dates (the archive cut-off and the "new" marks follow
   the newest one), the withheld spellings (every page's text is withheld through them), citation
   and contradiction numbering, sections, outline, vocabulary, which archive pages exist.  When it
   changed, or after an error, every page is converted again.
2. **Which objects changed** (:func:`changed`): the merged docs before and after the edit are
   compared object by object (entries, items, contradictions, follow-ups, citations, briefs), each
   pair once; a changed object names its anchor and its pages, old and new.
3. **Which pages may show them**: every page that holds, or links to, one of those places (read
   from the HTML the page last rendered), the changed objects' own pages, the pages that never
   had a record, and the current (not archived, not per-brief) pages, which carry counts and
   status lines.  Each of these is rendered again and converted only if its rendered directives
   differ from the last ones (:class:`PageRecord` fingerprint): the pages MkDocs converts are
   exactly the pages whose content changed.

Tested the hard way: after each kind of edit, the dirty preview's folder is compared byte for
byte with a clean build of the same data (``tests/test_preview.py``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.doc import ContradictionView, EntryView, FollowUpView, PlacedItem
from ..core.nights import Start, start_at
from ..site.changelog import follow_from
from ..site.changelog import months as night_months
from ..site.layout import (
    Layout,
    brief_page,
    briefs_index_page,
    changes_page,
    cite_anchor,
    contradiction_anchor,
    entry_anchor,
    follow_up_anchor,
    item_anchor,
    reference_anchor,
)
from ..site.templating import TemplateProblem
from ..site.text import Block, Heading
from .extension import DirectiveError, PageContext, directives, render_directive

REFERENCE = re.compile(r'\b(id|href)="([^"]*)"')
"""Ids a page gives and links it makes (the renderer writes every attribute with double quotes)."""


@dataclass(frozen=True)
class PageRecord:
    """What a page rendered last time: a digest of its directives' HTML, the anchors it gives (the
    objects it shows: ``entry-x``, ``contradiction-y`` …) and the anchors it links to (the objects it
    names, with their title, number or level)."""

    fingerprint: bytes
    holds: frozenset[str]
    links: frozenset[str]


def record(stub: str, blocks: Iterable[Block]) -> PageRecord:
    """The record of one page from its stub and the blocks its directives rendered."""
    digest = hashlib.sha256(stub.encode())
    holds: set[str] = set()
    links: set[str] = set()
    for block in blocks:
        if isinstance(block, Heading):
            digest.update(f"\0h{block.level}\0{block.anchor}\0{block.text}\0{block.searched}".encode())
            holds.add(block.anchor)
            continue
        digest.update(b"\0r\0" + block.html.encode())
        for attribute, value in REFERENCE.findall(block.html):
            if attribute == "id":
                holds.add(value)
            elif "#" in value and not value.startswith(("http:", "https:", "mailto:", "//")):
                links.add(html.unescape(value.partition("#")[2]))
    return PageRecord(digest.digest(), frozenset(holds), frozenset(links))


DOC_KEY = (
    "the briefs' ids, dates or rounds",
    "the withheld spellings",
    "the citations' numbers",
    "the contradictions' numbers",
    "the follow-ups",
    "the sections",
    "the outline",
    "the vocabulary",
    "archive_after_days",
    "the archive pages",
    "the citations of hand-written pages",
)
"""What each part of :func:`doc_key` is, for the log line that says why every page is converted."""


def doc_key(layout: Layout) -> tuple[Any, ...]:
    """What every page of one topic may depend on (see the module's docstring, point 1)."""
    doc = layout.doc
    return (
        tuple((b.id, b.date, b.round, b.topic) for b in doc.briefs),
        tuple((pattern, view.id) for pattern, view in doc.withheld.items()),
        tuple((key, view.number) for key, view in doc.citations.items()),
        tuple((c.id, c.contradiction.number) for c in doc.contradictions),
        tuple(f.follow_up.id for f in doc.follow_ups),
        tuple((n, s.section.title, s.opened_by.id if s.opened_by else None) for n, s in doc.sections.items()),
        doc.outline,
        doc.vocabulary,
        doc.archive_after_days,
        tuple(layout.archive_months.items()),
        tuple(sorted((paper, places) for paper, places in layout.hand_written.items())),
    )


def why(old: tuple[Any, ...] | None, new: tuple[Any, ...]) -> str:
    """What differs between two :func:`site_key` values, in words (for the log)."""
    if old is None:
        return "first build, or after an error"
    if old[0] != new[0]:
        return "the config, a theme override or a custom template changed"
    if old[1] != new[1]:
        return "a hand-written page changed"
    if [t for t, _ in old[2]] != [t for t, _ in new[2]]:
        return "the topics changed"
    for (topic, before), (_, after) in zip(old[2], new[2], strict=True):
        for name, a, b in zip(DOC_KEY, before, after, strict=True):
            if a != b:
                return f"{name} changed ({topic})"
    return "nothing site-wide changed"


def site_key(layouts: Mapping[str, Layout], config: bytes, hand_written: Iterable[tuple[str, str]]) -> tuple[Any, ...]:
    """What the whole site depends on (compared with ``==``); any change to it converts every page."""
    return (
        hashlib.sha256(config).digest(),
        tuple(sorted(hand_written)),
        tuple((topic, doc_key(layouts[topic])) for topic in sorted(layouts)),
    )


@dataclass
class Changed:
    """What differs between two merges of one topic: the anchors of objects whose name (what a link
    to them shows: title, number, level, status, page) changed, of objects that changed at all, and
    the pages that hold any of them (old and new)."""

    faces: set[str] = field(default_factory=set)
    insides: set[str] = field(default_factory=set)
    pages: set[str] = field(default_factory=set)
    nights_from: str | None = None
    """The first month whose changes page the edit can change (a night follows from the nights before)."""

    def touches(self, rec: PageRecord) -> bool:
        return not (rec.holds.isdisjoint(self.insides) and rec.links.isdisjoint(self.faces))


def changed(old: Layout, new: Layout) -> Changed:
    """Compare two merges of one topic object by object (see the module's docstring, point 2)."""
    found = Changed()

    def add(anchor: str, pair: tuple[Any, Any], face: Callable[[Layout, Any], Any], pages: Callable[..., Any]) -> None:
        """One changed object (``pair``: before, after; one may be None): its anchor, whether what a
        link to it shows changed too, and its pages in each layout it is in."""
        before, after = pair
        found.insides.add(anchor)
        if before is None or after is None or face(old, before) != face(new, after):
            found.faces.add(anchor)
        for layout, view in ((old, before), (new, after)):
            if view is not None:
                found.pages.update(pages(layout, view))

    a, b = old.doc, new.doc
    for key, pair in _pairs(a.entries, b.entries):
        add(entry_anchor(key), pair, _entry_face, lambda layout, e: [layout.entry_page(e.id)])
    for key, pair in _pairs(a.items, b.items):
        add(
            item_anchor(key),
            pair,
            _item_face,
            lambda layout, p: [brief_page(p.brief), layout.item_target(p.item.id)[0]],
        )
    contradictions = ({c.id: c for c in a.contradictions}, {c.id: c for c in b.contradictions})
    for key, pair in _pairs(*contradictions):
        add(
            contradiction_anchor(key),
            pair,
            _contradiction_face,
            lambda layout, c: [layout.contradiction_page(c), brief_page(c.brief)],
        )
    follow_ups = ({f.follow_up.id: f for f in a.follow_ups}, {f.follow_up.id: f for f in b.follow_ups})
    for key, pair in _pairs(*follow_ups):
        add(
            follow_up_anchor(key),
            pair,
            _follow_up_face,
            lambda layout, f: [layout.follow_up_page(f), brief_page(f.brief)],
        )
    for key, pair in _pairs(a.citations, b.citations):
        found.faces.add(cite_anchor(key))
        for layout, cited in zip((old, new), pair, strict=True):
            if cited is not None:  # its number is what a link shows: a change names both anchors
                anchor = reference_anchor(cited.number)
                found.insides.add(anchor)
                found.faces.add(anchor)
                found.pages.update((layout.citation_page(cited), brief_page(cited.brief)))
    nights: list[dt.date] = []
    for key in a.briefs_by_id.keys() | b.briefs_by_id.keys():
        if a.briefs_by_id.get(key) != b.briefs_by_id.get(key) or a.changes.get(key) != b.changes.get(key):
            for layout in (old, new):
                if (brief := layout.doc.briefs_by_id.get(key)) is not None:
                    nights.append(brief.date)
                    found.pages.update((brief_page(brief), briefs_index_page(layout.topic, layout.brief_month(brief))))
                    for erratum in brief.errata:  # the corrected brief's page says it was corrected
                        if (corrected := layout.doc.briefs_by_id.get(erratum.brief)) is not None:
                            found.pages.add(brief_page(corrected))
    if nights:  # what a night changed follows from it and the nights before: this one's month and later
        found.nights_from = min(nights).strftime("%Y-%m")
        found.pages.update(changes_page(new.topic, m) for m in night_months(new) if m >= found.nights_from)
    return found


def _pairs(before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[tuple[str, tuple[Any, Any]]]:
    """(key, (before, after)) of every object that differs between two mappings (None: not there),
    each compared once."""
    for key in before.keys() | after.keys():
        pair = (before.get(key), after.get(key))
        if pair[0] != pair[1]:
            yield key, pair


def _entry_face(layout: Layout, e: EntryView) -> tuple[Any, ...]:
    return (e.section, e.title, e.parent, e.footnote, e.retraction, e.current_evidence, layout.entry_page(e.id))


def _item_face(layout: Layout, p: PlacedItem) -> tuple[Any, ...]:
    return (p.item.title, p.item.number, p.item.evidence, p.entry_id, p.brief.id, layout.item_target(p.item.id))


def _contradiction_face(layout: Layout, c: ContradictionView) -> tuple[Any, ...]:
    number, title = c.contradiction.number, c.contradiction.title
    return (number, title, c.brief.id, c.status, c.disposition, c.sections, c.corrected, layout.contradiction_page(c))


def _follow_up_face(layout: Layout, f: FollowUpView) -> tuple[Any, ...]:
    return (f.follow_up.number, f.follow_up.text, f.follow_up.round, f.brief.id, f.status, layout.follow_up_page(f))


def _always(stub: str) -> bool:
    """A current page (no ``month=``, not one brief's): it carries counts and status lines, so it is
    rendered again after every edit (a few pages, each one current, so small)."""
    return all("month" not in args and "brief" not in args for args in directives(stub))


@dataclass
class Plan:
    """What one rebuild converts: the pages whose rendered content changed (``None``: every page),
    each with its page context holding the blocks already rendered for it (``prepared``), and how
    many pages were rendered to find out."""

    convert: set[str] | None
    contexts: dict[str, PageContext] = field(default_factory=dict)
    examined: int = 0
    reason: str = ""
    """Why every page is converted (with ``convert`` None)."""


@dataclass
class Preview:
    """The records of the pages last converted, and the merge they were rendered from."""

    records: dict[str, PageRecord] = field(default_factory=dict)
    key: tuple[Any, ...] | None = None
    layouts: Mapping[str, Layout] | None = None
    starts: dict[str, Start] = field(default_factory=dict)
    """Per topic, the nights before its last month merged while the editor reads (:meth:`prepare`):
    the next edit's changes pages follow only that month's nights, and need not merge them again."""
    preparing: threading.Thread | None = None

    def prepare(self) -> None:
        """After a rebuild is served, merge in a thread each topic's nights before its last month (the
        month an edit of tonight's brief changes): 0.2 s at a year of briefs, 2 s at ten, off the
        way from the editor's next save to the served page."""
        self.wait()
        layouts = self.layouts
        if layouts is None:
            return

        def merge_ahead() -> None:
            for topic, layout in layouts.items():
                if layout.doc.briefs:
                    month = max(b.date for b in layout.doc.briefs).replace(day=1)
                    self.starts[topic] = start_at(layout.doc, month)

        self.preparing = threading.Thread(target=merge_ahead, name="digest-merge-ahead", daemon=True)
        self.preparing.start()

    def wait(self) -> None:
        if self.preparing is not None:
            self.preparing.join()
            self.preparing = None

    def plan(
        self,
        layouts: Mapping[str, Layout],
        stubs: Mapping[str, str],
        key: tuple[Any, ...],
        context: Callable[[str], PageContext],
    ) -> Plan:
        """Which of the generated pages (``stubs``: path → Markdown) to convert for ``layouts``."""
        self.wait()
        starts, self.starts = self.starts, {}
        previous, self.layouts = self.layouts, layouts
        if previous is None or key != self.key:  # the key names the topics too
            reason = why(self.key if previous is not None else None, key)
            self.key = key
            return Plan(convert=None, reason=reason)
        found = [changed(previous[topic], layout) for topic, layout in layouts.items()]
        for (topic, layout), c in zip(layouts.items(), found, strict=True):
            if c.nights_from is not None:  # only those months' pages are rendered again: follow only their nights
                follow_from(layout, c.nights_from, starts.get(topic))
        plan = Plan(convert=set())
        assert plan.convert is not None
        for path, stub in stubs.items():
            rec = self.records.get(path)
            touched = rec is None or _always(stub) or any(c.touches(rec) or path in c.pages for c in found)
            if not touched:
                continue
            ctx = context(path)
            plan.examined += 1
            try:
                blocks = [render_directive(ctx, args) for args in directives(stub)]
            except (DirectiveError, TemplateProblem):
                plan.convert.add(path)  # converting it puts the error on the page and in the log
                continue
            fresh = record(stub, (b for group in blocks for b in group))
            if rec is None or fresh != rec:
                plan.convert.add(path)
                ctx.prepared = blocks
                plan.contexts[path] = ctx
        return plan

    def remember(self, page: str, stub: str, blocks: Iterable[Block]) -> None:
        """Keep what a converted page rendered, for the next rebuild's comparison."""
        self.records[page] = record(stub, blocks)

    def forget(self, pages: Iterable[str]) -> None:
        for page in pages:
            self.records.pop(page, None)

    def invalidate(self) -> None:
        """After an error (or anything else that leaves the records unsure): convert every page next."""
        self.key = None
        self.layouts = None
