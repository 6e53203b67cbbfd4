"""Where everything lives on the site: page paths, archive months, anchors, links between pages.

Every URL the site prints is made here, so that a change of layout is one change: pages are
named by MkDocs source paths (``inference/register.md``); :class:`Linker` turns a path and an
anchor into a link relative to the page being rendered; :class:`Layout` decides, from a merged
doc, on which page (the current one or a monthly archive) each entry, contradiction, follow-up,
citation and brief sits, and where each paper is cited from.

Recent activity stays on the main pages; older activity moves to one archive page per month
(``inference/register/2027-05/``), so no archive page grows past a few hundred KB in ten years.
"Recent" is counted back from the newest brief, not from the clock, so the same data always lays
out the same site.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from ..core import labels
from ..core.arxiv import MENTION
from ..core.arxiv import key as arxiv_key
from ..core.doc import CitationView, ContradictionView, EntryView, FollowUpView, LivingDoc
from ..core.model import Brief

T = TypeVar("T")

# --------------------------------------------------------------------------- page paths
# MkDocs source paths, relative to docs/; every topic lives under its own prefix.


def section_page(topic: str, number: str, month: str | None = None) -> str:
    top = number.split(".")[0]
    return f"{topic}/{top}.md" if month is None else f"{topic}/{top}/{month}.md"


def brief_page(brief: Brief) -> str:
    return f"{brief.topic}/briefs/{brief.id}.md"


def register_page(topic: str, month: str | None = None) -> str:
    return f"{topic}/register.md" if month is None else f"{topic}/register/{month}.md"


def legend_page(topic: str) -> str:
    """What the badges, gaps, source kinds and the team's words mean (from the vocabulary)."""
    return f"{topic}/legend.md"


def bibliography_page(topic: str, month: str | None = None) -> str:
    return f"{topic}/bibliography.md" if month is None else f"{topic}/bibliography/{month}.md"


def follow_ups_page(topic: str, month: str | None = None) -> str:
    return f"{topic}/follow-ups.md" if month is None else f"{topic}/follow-ups/{month}.md"


def briefs_index_page(topic: str, month: str | None = None) -> str:
    return f"{topic}/briefs/index.md" if month is None else f"{topic}/briefs/{month}.md"


def changes_page(topic: str, month: str) -> str:
    """A month's page of what each night changed (issue 32); each night is an anchor on it."""
    return f"{topic}/changes/{month}.md"


def night_file(topic: str, night: dt.date, directory_urls: bool = True) -> str:
    """Not a Markdown page: the permalink of one night's changes (``/<topic>/changes/<night>/``), a
    small file that sends the reader to the night on its month's page (one themed page a night would
    weigh the site down by ten years of page chrome)."""
    stem = f"{topic}/changes/{night.isoformat()}"
    return f"{stem}/index.html" if directory_urls else f"{stem}.html"


def as_of_page(topic: str) -> str:
    """The past views' page (issue 32): the doc as it stood on the night its address names."""
    return f"{topic}/as-of.md"


def as_of_file(topic: str, night: dt.date, view: str | None = None, directory_urls: bool = True) -> str:
    """Not a Markdown page: the permalink of a night's past view (``/<topic>/as-of/<night>/``, or one
    section's or the register's, ``…/<night>/<N>/``), a small file that sends the reader to it."""
    stem = f"{topic}/as-of/{night.isoformat()}" + (f"/{view}" if view else "")
    return f"{stem}/index.html" if directory_urls else f"{stem}.html"


def as_of_link(linker: Linker, topic: str, night: dt.date, view: str | None = None) -> str:
    """The link from ``linker``'s page to a night's permalink file (and a view's), as a reader writes it."""
    href = linker.url(as_of_file(topic, night, view, linker.directory_urls))
    return href.removesuffix("index.html") if linker.directory_urls else href


def as_of_data(topic: str, view: str, month: str | None) -> str:
    """Not a page: a chunk of the past views' data (a view's nights of one month and their pieces, or
    the list of nights), gzip'd JSON the page's script reads."""
    return f"{topic}/as-of/data/{view}" + (f"-{month}" if month else "") + ".pvd"


def redirect(here: str, target: str, title: str, words: str) -> str:
    """A permalink file at ``here`` (a site path) that sends the reader on to ``target`` (a site URL,
    with its query or anchor): a refresh, a canonical link, and the link for a reader it does not
    send.  ``title`` and ``words`` are fixed words and dates, never brief text."""
    base = here.removesuffix("index.html") if here.endswith("/index.html") else here
    href = html.escape(relative_url(target, base))
    return (
        '<!doctype html>\n<html lang="zh"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>"
        f'<meta name="robots" content="noindex"><link rel="canonical" href="{href}">'
        f'<meta http-equiv="refresh" content="0; url={href}"></head>\n'
        f'<body><p>{html.escape(words)}<a href="{href}">{html.escape(title)}</a></p></body></html>\n'
    )


NIGHT_ANCHOR = "night-{night}"
"""A night's anchor on its month's changes page."""


def night_anchor(night: dt.date) -> str:
    return NIGHT_ANCHOR.format(night=night.isoformat())


def feed_page(topic: str) -> str:
    """Not a Markdown page: the Atom feed file, linked from the briefs pages."""
    return f"{topic}/feed.xml"


ARCHIVE_PAGES = {
    "register": register_page,
    "follow-ups": follow_ups_page,
    "bibliography": bibliography_page,
    "briefs": briefs_index_page,
}
"""Archive kinds other than sections ('1'…'6'), and the page of each month."""

# --------------------------------------------------------------------------- anchors


def section_anchor(number: str) -> str | None:
    """A subsection's heading id ('s3-1'); a top section is its own page and needs none."""
    return "s" + number.replace(".", "-") if "." in number else None


def entry_anchor(entry_id: str) -> str:
    return f"entry-{entry_id}"


def item_anchor(item_id: str) -> str:
    return f"item-{item_id}"


def contradiction_anchor(contradiction_id: str) -> str:
    return f"contradiction-{contradiction_id}"


def follow_up_anchor(follow_up_id: str) -> str:
    return f"follow-up-{follow_up_id}"


def reference_anchor(number: int) -> str:
    return f"ref-{number}"


def cite_anchor(paper: str) -> str:
    """Where a hand-written page cites a paper (the bibliography links back to it)."""
    return f"cite-{paper}"


# --------------------------------------------------------------------------- URLs


@functools.lru_cache(maxsize=65536)
def page_url(src: str, directory_urls: bool = True) -> str:
    """The URL MkDocs (and Zensical) give a Markdown source path (other files keep their path)."""
    if not src.endswith(".md"):
        return src
    stem = src[:-3]
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


@functools.lru_cache(maxsize=65536)
def relative_url(url: str, base: str) -> str:
    """``url`` relative to the page at ``base`` (both site-relative, as MkDocs writes them).

    Cached: a page links to the same few pages (a brief, the register) hundreds of times."""
    base_dir = base if base.endswith("/") or not base else base.rpartition("/")[0] + "/"
    here = [p for p in base_dir.split("/") if p]
    there = [p for p in url.split("/") if p]
    common = 0
    for a, b in zip(here, there, strict=False):
        if a != b:
            break
        common += 1
    rel = "/".join([".."] * (len(here) - common) + there[common:]) or "."
    return rel + "/" if (url.endswith("/") or not url) and rel != "." else rel if rel != "." else "./"


@dataclass(frozen=True)
class Linker:
    """Makes links relative to the page being rendered, so the site works under any base URL."""

    page: str
    directory_urls: bool = True
    source_links: bool = False
    """Link to source paths (``register.md``) and let the host turn them into URLs, as Zensical
    does with every link in a page; MkDocs leaves raw HTML alone, so there we write final URLs."""

    def url(self, target: str, anchor: str | None = None) -> str:
        frag = f"#{anchor}" if anchor else ""
        if self.source_links:
            return frag if target == self.page and frag else relative_url(target, self.page) + frag
        if target == self.page:
            return frag or "./"
        return relative_url(page_url(target, self.directory_urls), page_url(self.page, self.directory_urls)) + frag


# --------------------------------------------------------------------------- where things are


@dataclass(frozen=True)
class Place:
    """Where something is cited: a page (by source path) and an anchor on it."""

    page: str
    anchor: str
    label: str


class Layout:
    """The pages of one topic's merged doc: which page holds what, and where each paper is cited."""

    def __init__(
        self,
        doc: LivingDoc,
        hand_written: Mapping[str, tuple[Place, ...]] | None = None,
        titles: Mapping[str, str] | None = None,
        past: bool = False,
    ):
        self.doc = doc
        self.past = past
        """Whether the site has past views (``/<topic>/as-of/``): a build does, a preview does not."""
        self.hand_written: Mapping[str, tuple[Place, ...]] = hand_written or {}
        """Citations made by hand-written pages, by paper (found by the host: :func:`hand_written_places`)."""
        self.titles: Mapping[str, str] = titles or {}
        """A section's title as its hand-written page heads it, by number: what the navigation shows,
        for a section the outline gives no title."""
        self._entry_months: dict[str, str | None] = {}
        self._section_entries: dict[tuple[str, str | None], dict[str, list[EntryView]]] = {}

    @property
    def topic(self) -> str:
        return self.doc.topic

    @cached_property
    def cutoff(self) -> dt.date | None:
        if not self.doc.briefs:
            return None
        return max(b.date for b in self.doc.briefs) - dt.timedelta(days=self.doc.archive_after_days)

    def _month(self, day: dt.date | None) -> str | None:
        """None (main page) for recent activity, else the archive month (``2027-05``)."""
        return None if day is None or self.cutoff is None or day >= self.cutoff else f"{day.year}-{day.month:02d}"

    def entry_month(self, entry: EntryView) -> str | None:
        """Entries the outline brought are the doc's core and stay; others go by their last change.

        Kept per entry: every page that lists or links an entry asks (a million times at 3,650 days)."""
        if entry.id in self._entry_months:
            return self._entry_months[entry.id]
        last = None if entry.baseline is not None else entry.last_brief
        month = self._entry_months[entry.id] = None if last is None else self._month(last.date)
        return month

    def section_entries(self, number: str, month: str | None) -> dict[str, list[EntryView]]:
        """The entries a section page shows (§N with its sub-sections, or one sub-section; the
        current ones, or an archived month's), by section number in page order.  Worked out once a
        page: the renderer and the page's JSON-LD both ask."""
        key = (number, month)
        if key not in self._section_entries:
            top = self.doc.sections[number]
            views = [top] if "." in number else [top, *self.doc.children(number)]
            self._section_entries[key] = {v.number: self._entries_by_month[v.number].get(month, []) for v in views}
        return self._section_entries[key]

    @cached_property
    def _entries_by_month(self) -> dict[str, dict[str | None, list[EntryView]]]:
        """Each section's own entries by month, grouped once: filtering them for every month page
        was quadratic (a section's thousands of entries for each of 121 months, at ten years)."""
        return {number: dict(_by_month(view.entries, self.entry_month)) for number, view in self.doc.sections.items()}

    def entry_page(self, entry_id: str) -> str:
        entry = self.doc.entries[entry_id]
        return section_page(self.topic, entry.section, self.entry_month(entry))

    def contradiction_month(self, view: ContradictionView) -> str | None:
        """By its last change (settled, re-opened, re-judged, or raised): one still open that no
        brief touched within the window goes to that month's page too, so the register does not
        grow with every claim nobody has settled in years (it says how many are there)."""
        event = view.settled or (view.history[-1] if view.history else None)
        return self._month(event.brief.date if event else view.brief.date)

    def contradiction_page(self, view: ContradictionView) -> str:
        return register_page(self.topic, self.contradiction_month(view))

    def follow_up_month(self, view: FollowUpView) -> str | None:
        """By its last change (closed, carried over, or opened), pending or not: see
        :meth:`contradiction_month`."""
        return self._month(view.history[-1].brief.date if view.history else view.brief.date)

    def follow_up_page(self, view: FollowUpView) -> str:
        return follow_ups_page(self.topic, self.follow_up_month(view))

    def citation_month(self, view: CitationView) -> str | None:
        return self._month(view.brief.date)

    def citation_page(self, view: CitationView) -> str:
        return bibliography_page(self.topic, self.citation_month(view))

    def brief_month(self, brief: Brief) -> str | None:
        return self._month(brief.date)

    # What each register, follow-ups, bibliography and briefs page lists, grouped by month once:
    # asking every object its month for every month page was quadratic (121 register months ×
    # 36,500 contradictions, 4.9 million calls, at ten years).

    def register_groups(self, month: str | None) -> list[tuple[Brief, list[ContradictionView]]]:
        """The contradictions a register page lists, by the brief that raised them, in brief order."""
        return self._register_groups.get(month, [])

    @cached_property
    def _register_groups(self) -> dict[str | None, list[tuple[Brief, list[ContradictionView]]]]:
        found: dict[str | None, list[tuple[Brief, list[ContradictionView]]]] = {}
        for brief in self.doc.briefs:
            for month, views in _by_month(self.doc.contradictions_by_brief.get(brief.id, []), self.contradiction_month):
                found.setdefault(month, []).append((brief, views))
        return found

    def follow_ups_in(self, month: str | None) -> list[FollowUpView]:
        return self._follow_ups.get(month, [])

    @cached_property
    def _follow_ups(self) -> dict[str | None, list[FollowUpView]]:
        return dict(_by_month(self.doc.follow_ups, self.follow_up_month))

    def citations_in(self, month: str | None) -> list[CitationView]:
        """By citation number."""
        return self._citations.get(month, [])

    @cached_property
    def _citations(self) -> dict[str | None, list[CitationView]]:
        return dict(_by_month(sorted(self.doc.citations.values(), key=lambda v: v.number), self.citation_month))

    def briefs_in(self, month: str | None) -> list[Brief]:
        return self._briefs.get(month, [])

    @cached_property
    def _briefs(self) -> dict[str | None, list[Brief]]:
        return dict(_by_month(self.doc.briefs, self.brief_month))

    def item_target(self, item_id: str) -> tuple[str, str]:
        """(page, anchor) of an item: its entry on a section page, or its brief page if it has none."""
        placed = self.doc.items[item_id]
        if placed.entry_id in self.doc.entries:
            return self.entry_page(placed.entry_id), entry_anchor(placed.entry_id)
        return brief_page(placed.brief), item_anchor(item_id)

    @cached_property
    def archive_months(self) -> dict[str, list[str]]:
        """Every archive page there is, by kind ('1'…'6' for sections)."""
        months: dict[str, set[str]] = {}
        for entry in self.doc.entries.values():
            if (month := self.entry_month(entry)) is not None:
                months.setdefault(entry.section.split(".")[0], set()).add(month)
        self._add_months(months, "register", (self.contradiction_month(c) for c in self.doc.contradictions))
        self._add_months(months, "follow-ups", (self.follow_up_month(f) for f in self.doc.follow_ups))
        self._add_months(months, "bibliography", (self.citation_month(v) for v in self.doc.citations.values()))
        self._add_months(months, "briefs", (self.brief_month(b) for b in self.doc.briefs))
        return {kind: sorted(found) for kind, found in sorted(months.items())}

    @staticmethod
    def _add_months(months: dict[str, set[str]], kind: str, found: Iterable[str | None]) -> None:
        for month in found:
            if month is not None:
                months.setdefault(kind, set()).add(month)

    @cached_property
    def places(self) -> dict[str, list[Place]]:
        """Back-links for the bibliography, by paper: where it is listed, discussed or mentioned."""
        doc = self.doc
        citations = doc.citations
        found: dict[str, list[Place]] = {key: [] for key in citations}
        for key, view in citations.items():
            label = labels.BRIEF_NAME.format(date=view.brief.date, round=view.brief.round)
            found[key].append(Place(brief_page(view.brief), reference_anchor(view.number), label))
        for c in doc.contradictions:
            text = f"{c.contradiction.title} {c.contradiction.text}"
            keys = {arxiv_key(a) for a in c.contradiction.touches.citations} | set(MENTION.findall(text))
            for key in sorted(k for k in keys if k in citations):
                label = labels.PLACE_REGISTERED_CONTRADICTION.format(number=c.contradiction.number)
                found[key].append(Place(self.contradiction_page(c), contradiction_anchor(c.id), label))
        for placed in doc.items.values():
            entry_id, item = placed.entry_id, placed.item
            if entry_id not in doc.entries:
                continue
            text = " ".join(
                [item.title, *item.points, item.evidence.boundary or "", item.relation or "", item.placement.text or ""]
            )
            if "arXiv:" not in text:  # most items cite nothing: skip the regex
                continue
            for key in sorted(k for k in set(MENTION.findall(text)) if k in citations):
                label = f"§{item.placement.section} {item.title}"
                found[key].append(Place(self.entry_page(entry_id), entry_anchor(entry_id), label))
        return found

    @cached_property
    def papers_by_item(self) -> dict[str, set[str]]:
        """The listed papers each item's text cites (``arXiv:<id>``), by item: made once per build
        (every section page's JSON-LD asks, and scanning every item per page cost 30 ms a page)."""
        found: dict[str, set[str]] = {}
        listed = set(self.doc.citations)
        for placed in self.doc.items.values():
            item = placed.item
            text = " ".join([item.title, item.relation or "", *item.points, *item.notes, item.placement.text or ""])
            keys = {m.group(1) for m in MENTION.finditer(text)} & listed
            if keys:
                found[item.id] = keys
        return found

    def cited_at(self, paper: str) -> list[Place]:
        """Every place a paper is cited: by the briefs' data, then by hand-written pages."""
        return [*self.places.get(paper, []), *self.hand_written.get(paper, ())]


PAGE_CITE = re.compile(r"""\bcite\(\s*["']([^"']+)["']\s*\)|\[\[cite\s+([^\]\s]+)\s*\]\]""")
HEADING = re.compile(r"^#\s+(.+?)\s*$", re.M)


def _by_month(objects: Iterable[T], month_of: Callable[[T], str | None]) -> Iterable[tuple[str | None, list[T]]]:
    """``objects`` grouped by their month (None: the main page), each group in the given order."""
    found: dict[str | None, list[T]] = {}
    for obj in objects:
        found.setdefault(month_of(obj), []).append(obj)
    return found.items()


def hand_written_places(doc: LivingDoc, pages: Iterable[tuple[str, str]]) -> dict[str, tuple[Place, ...]]:
    """The citations hand-written pages make (``{{ cite("…") }}`` or ``[[cite …]]``), by paper.

    ``pages`` are (source path, Markdown) in any order; the result does not depend on it.  A page
    is named by its first ``# heading``, else by its path."""
    found: dict[str, list[Place]] = {}
    for page, markdown in sorted(pages):
        heading = HEADING.search(markdown)
        label = heading.group(1) if heading else page
        for macro, directive in PAGE_CITE.findall(markdown):
            key = arxiv_key(macro or directive)
            place = Place(page, cite_anchor(key), label)
            if key in doc.citations and place not in found.setdefault(key, []):
                found[key].append(place)
    return {key: tuple(places) for key, places in found.items()}


def layouts(
    docs: Mapping[str, LivingDoc], pages: Iterable[tuple[str, str]] = (), *, past: bool = False
) -> dict[str, Layout]:
    """A layout per topic, with the citations the given hand-written pages make (``past``: with past views)."""
    pages = list(pages)
    return {
        topic: Layout(doc, hand_written_places(doc, pages), section_titles(doc, pages), past)
        for topic, doc in docs.items()
    }


PAGE_HEADING = re.compile(r"^#\s+(?:§\s*(?P<number>\d+(?:\.\d+)*)\s+)?(?P<title>\S.*?)\s*$", re.M)


def section_titles(doc: LivingDoc, pages: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The titles a topic's hand-written section pages give their sections (the page's ``# §1 …``)."""
    found = {}
    for path, text in pages:
        for number in doc.sections:
            if path == section_page(doc.topic, number) and (m := PAGE_HEADING.search(text)):
                found[number] = m["title"]
    return found
