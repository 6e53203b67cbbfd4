"""Past views (issue 32): §1–§6 and the register as they stood on any night, from one pass.

A reader who made a decision on 10-22 needs the doc of 10-22, and a link to it.  A themed page per
night and per section would weigh ten years of page chrome, and rendering every entry of every
night would cost hundreds of merges' worth of templates.  So the site holds one page,
``/<topic>/as-of/``, whose script shows the night (and the section) a permalink names, from
pieces the renderer made:

* the pass of :mod:`..core.nights` shows each night's whole doc (:class:`..core.nights.Tonight`);
* an entry or a callout is rendered again only on a night that can change it (the night touched
  it, or a contradiction or follow-up on it, or a withheld spelling it holds changed hands, or its
  "new" mark lapsed), through the site's one text path set to that night's doc (:class:`NightText`:
  withheld as that night and today withhold, linked to where things live today);
* each view of a night is the list of its pieces, in the page's order; a month of one view is a
  chunk (``as-of/data/<view>-<YYYY-MM>.pvd``: JSON, gzip'd) holding its nights and every piece they
  name, so opening a night costs about what opening a section page costs.

What a past view shows of a section is what its page showed that night: the entries the window of
``archive_after_days`` kept on it (and the outline's own), with each sub-section's heading; of the
register, the contradictions raised or settled within the window, under their briefs.  Anything a
reader can open from there (a brief, a callout, a follow-up) links to today's page.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import html
import json
import re
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from ..core import labels, spelling
from ..core.arxiv import key as arxiv_key
from ..core.doc import ARXIV_MENTION, ContradictionView, EntryView, LivingDoc, named_entries
from ..core.nights import Tonight, nights_of
from .changelog import NightText
from .fragments import FragmentRenderer
from .layout import (
    NIGHT_ANCHOR,
    Layout,
    Linker,
    as_of_data,
    as_of_file,
    as_of_link,
    as_of_page,
    changes_page,
    page_url,
    redirect,
    section_anchor,
)
from .render import section_title
from .text import Block, Heading, Raw, esc, level_of

REGISTER = "register"
"""The view of the register (the others are the top sections' numbers)."""

_TAGS = re.compile(r"<[^>]*>")
_MARK = re.compile(r'data-withheld-(?:by|quote)="([^"]+)"')
_LABEL = re.compile(r"〔暂扣，见 ?(?:今日文档的 )?([^〕]+)〕")
"""A withheld mark's words (:data:`..core.labels.WITHHELD` and its kin): the contradiction it names."""


def views(layout: Layout) -> list[str]:
    """What a night can be viewed as: each top section of today's doc, then the register."""
    return [s.number for s in layout.doc.top_sections()] + [REGISTER]


def nights(layout: Layout) -> list[dt.date]:
    """The nights with a brief, oldest first: each has a past view."""
    return sorted({b.date for b in layout.doc.briefs})


@dataclass
class _Chunk:
    nights: dict[str, list[str]] = field(default_factory=dict)
    pieces: set[str] = field(default_factory=set)


class _Pieces:
    """Renders a night's pieces and keeps what each view shows, night by night (the pass's observer)."""

    def __init__(self, layout: Layout, linker: Linker, text: FragmentRenderer):
        self.layout, self.text = layout, text
        self.keys = views(layout)
        self.html: dict[str, str] = {}
        """Piece id → its HTML (the id is its digest: a piece the same on two nights is kept once)."""
        self.records: dict[str, str] = {}
        """Piece id → the record it shows (``entry-<id>``, ``contradiction-<id>``)."""
        self.canonical: dict[str, str] = {}
        """Piece id → its text as a reader perceives it, in canonical form."""
        self.marks: dict[str, frozenset[str]] = {}
        """Piece id → the contradictions its withheld marks name."""
        self.entry_piece: dict[str, str] = {}
        """Entry id → the piece that shows it tonight."""
        self.callout_piece: dict[str, str] = {}
        self.faces: dict[str, tuple[str, str, str | None]] = {}
        """Entry id → its level and titles, as the callouts that name it show them."""
        self.withheld: Mapping[str, ContradictionView] = {}
        """Last night's withheld spellings, each with the contradiction that withheld it."""
        self.naming: dict[str, set[str]] = {}
        """Entry id → the contradictions whose callout names it, or an item placed in it."""
        self.citing: dict[str, set[str]] = {}
        """Paper key → the contradictions whose callout cites it."""
        self.last_entry: dict[str, dt.date] = {}
        """Entry id → the night of its last change (not kept for the outline's own: they stay)."""
        self.last_contradiction: dict[str, dt.date] = {}
        self.members: dict[str, set[str]] = {key: set() for key in self.keys}
        self.chunks: dict[tuple[str, str], _Chunk] = {}
        self.fresh: set[str] = set()
        """The entries last night's brief made or changed: their "new" mark lapses tonight."""
        self.home: dict[str, str] = {}
        """Entry id → the top section it is in."""
        self.shape: dict[str, list[tuple[str, str]]] = {}
        """A section's view as it last changed: sub-section headings (pieces) and entries (ids)."""
        self.started = False
        self.single = False
        self.month = ""
        self.done: dict[tuple[str, str], bytes] = {}
        """Each finished month's chunk of each view, as the site stores it (gzip'd JSON)."""

    # ------------------------------------------------------------------ the observer

    def __call__(self, t: Tonight) -> None:
        month = t.night.strftime("%Y-%m")
        if self.chunks and month != self.month:  # last month is done: its chunks to bytes, what no view shows let go
            self._close_month()
        self.month = month
        doc = self.text.doc = t.doc
        cutoff = t.night - dt.timedelta(days=doc.archive_after_days)
        single = len(doc.briefs) == 1  # a name says its brief's date once there are two briefs
        if not self.started or single != self.single:  # every entry and contradiction there is
            self.started, self.single = True, single
            again = set(doc.entries)
            callouts = self._all_contradictions(t)
        else:
            again = set(t.entries) | self.fresh
            callouts = set(t.contradictions)
        for fid in t.follow_ups:
            for item_id in doc.follow_up(fid).follow_up.items:
                if (placed := doc.items.get(item_id)) is not None:
                    again.add(placed.entry_id)
        for key in t.papers:  # a callout shows the papers it cites, with their counts as they stood
            callouts |= self.citing.get(key, set())
        if t.dirty:
            names = self._names(t.dirty, doc)
            forms = tuple({f for f in (spelling.canonical(s) for s in t.dirty) if f})
            # only what a view shows now: a piece out of the window is rendered again when it comes back
            live = {e for key, members in self.members.items() if key != REGISTER for e in members}
            again |= {e for e in live if self._holds(self.entry_piece[e], forms, names)}
            callouts |= {c for c in self.members[REGISTER] if self._holds(self.callout_piece[c], forms, names)}
        self.withheld = doc.withheld
        for entry_id in [e for e in again if e in doc.entries]:  # a split's notices name the parts and the whole,
            view = doc.entries[entry_id]  # each by its section and title as they stand
            again.update(view.split_into, [view.split_from] if view.split_from is not None else ())
        again &= doc.entries.keys()
        # a released claim's note names the night it is read on
        callouts |= {c for c in self.members[REGISTER] if c in doc.released_later}
        self.fresh = {e for e in again if (last := doc.entries[e].last_brief) is not None and last.date == t.night}
        tops = set(t.sections)
        for entry_id in sorted(again):
            view = doc.entries[entry_id]
            self.entry_piece[entry_id] = self._piece(self._entry(view), f"entry-{entry_id}")
            face = (level_of(view), view.title, view.item.title if view.item else None)
            if self.faces.get(entry_id) != face:  # a callout shows each entry it names by these
                self.faces[entry_id] = face
                callouts |= self.naming.get(entry_id, set())
            top = view.section.split(".")[0]
            tops.add(top)
            if (was := self.home.get(entry_id)) is not None and was != top:  # moved to another §
                self.members[was].discard(entry_id)
                tops.add(was)
            self.home[entry_id] = top
            if view.baseline is None and view.last_brief is not None:
                self.last_entry[entry_id] = view.last_brief.date
            self.members.setdefault(top, set()).add(entry_id)
        for cid in sorted(callouts):
            if (callout := doc.contradiction(cid)) is None:
                continue
            self.callout_piece[cid] = self._piece(self._callout(callout), f"contradiction-{cid}")
            event = callout.settled or (callout.history[-1] if callout.history else None)
            self.last_contradiction[cid] = event.brief.date if event else callout.brief.date
            self.members[REGISTER].add(cid)
        for key in self.keys:
            before = self.members.get(key, set())
            if key == REGISTER:
                self.members[key] = {c for c in before if self.last_contradiction[c] >= cutoff}
                shown = self._register(t)
            else:
                now = self.members[key] = {
                    e for e in before if e not in self.last_entry or self.last_entry[e] >= cutoff
                }
                changed = now != before or bool(t.dirty) or any(s.split(".")[0] == key for s in tops)
                shown = self._section(t, key, changed)
            chunk = self.chunks.setdefault((key, month), _Chunk())
            chunk.nights[t.night.isoformat()] = shown
            chunk.pieces.update(shown)

    def _all_contradictions(self, t: Tonight) -> set[str]:
        return {c for cids in t.doc.contradictions_by_brief.values() for c in (v.id for v in cids)}

    # ------------------------------------------------------------------ one night's views

    def _section(self, t: Tonight, number: str, changed: bool) -> list[str]:
        """The pieces of §N's page that night: its entries (footnotes last), then each sub-section's
        heading and entries.  Which entries, in which order, is worked out again only on a night that
        can change it (``changed``): at ten years a section holds thousands of entries."""
        if changed or number not in self.shape:
            self.shape[number] = self._shape(t, number)
        return [self.entry_piece[part] if kind == "entry" else part for kind, part in self.shape[number]]

    def _shape(self, t: Tonight, number: str) -> list[tuple[str, str]]:
        doc = t.doc
        if number not in doc.sections:
            return []
        members = self.members.get(number, set())
        shape: list[tuple[str, str]] = []
        for view in [doc.sections[number], *sorted(doc.children(number), key=lambda s: _numbers(s.number))]:
            here = [e for e in t.order(view.number) if e in members]
            ordered = [e for e in here if not doc.entries[e].footnote] + [e for e in here if doc.entries[e].footnote]
            if view.number != number:
                shape.append(("heading", self._heading(view.number, t)))
            shape += [("entry", e) for e in ordered]
        return shape

    def _register(self, t: Tonight) -> list[str]:
        """The register's pieces that night: the contradictions within the window, under their briefs."""
        doc = t.doc
        by_brief: dict[str, list[ContradictionView]] = {}
        for cid in self.members[REGISTER]:
            if (found := doc.contradiction(cid)) is not None:
                by_brief.setdefault(found.brief.id, []).append(found)
        shown: list[str] = []
        for brief_id in sorted(by_brief, key=lambda b: (doc.briefs_by_id[b].date, b)):
            brief = doc.briefs_by_id[brief_id]
            name = labels.BRIEF_NAME.format(date=brief.date.isoformat(), round=esc(brief.round))
            shown.append(self._piece(f'<h2 id="brief-{esc(brief.id)}">{name}</h2>'))
            order = {c.id: n for n, c in enumerate(doc.contradictions_by_brief.get(brief_id, []))}
            shown += [self.callout_piece[c.id] for c in sorted(by_brief[brief_id], key=lambda c: order.get(c.id, 0))]
        return shown

    def _heading(self, number: str, t: Tonight) -> str:
        title = self.text.plain(section_title(t.doc.sections[number]))
        return self._piece(f'<h2 id="{esc(section_anchor(number) or "")}">{esc(title)}</h2>')

    # ------------------------------------------------------------------ pieces

    def _entry(self, view: EntryView) -> str:
        self.text.anchors = set()
        return self.text.entry(view)

    def _callout(self, view: ContradictionView) -> str:
        c = view.contradiction
        for key in {arxiv_key(a) for a in c.touches.citations} | set(ARXIV_MENTION.findall(f"{c.title} {c.text}")):
            self.citing.setdefault(key, set()).add(view.id)
        for entry_id in named_entries(c.touches, self.text.doc.items):
            self.naming.setdefault(entry_id, set()).add(view.id)
        self.text.anchors = set()
        return self.text.callout(view)

    def _piece(self, markup: str, record: str = "") -> str:
        """The id of a piece of HTML (its digest), kept with the record it shows ('' for a heading):
        comparing two nights pairs the pieces of one record."""
        key = hashlib.sha1(markup.encode("utf-8")).hexdigest()[:16]
        self.html.setdefault(key, markup)
        if record:
            self.records[key] = record
        return key

    def _names(self, dirty: frozenset[str], doc: LivingDoc) -> frozenset[str]:
        """The contradictions that withheld these spellings last night or do tonight, by id and by
        the names a mark that links nowhere gives them."""
        found: set[str] = set()
        for withheld in (self.withheld, doc.withheld):
            for s in dirty:
                if (view := withheld.get(s)) is not None:
                    dated = labels.CONTRADICTION_NAME_DATED.format(
                        date=view.brief.date.isoformat(), number=view.contradiction.number
                    )
                    found.update((view.id, dated, self.text.contradiction_name(view)))
        return frozenset(found)

    def _marks(self, piece: str) -> frozenset[str]:
        """The contradictions a piece's withheld marks name: by id in a mark's attribute, by name in
        the words of one that links nowhere."""
        if (found := self.marks.get(piece)) is None:
            markup = self.html[piece]
            found = self.marks[piece] = frozenset(_MARK.findall(markup)) | frozenset(_LABEL.findall(markup))
        return found

    def _holds(self, piece: str, forms: tuple[str, ...], names: frozenset[str]) -> bool:
        """Whether a piece may read differently now some spellings changed hands: it holds one (in
        the canonical form every spelling of it shares: ``forms``), or a mark of a contradiction
        that held one (``names``)."""
        if not names.isdisjoint(self._marks(piece)):
            return True
        if (text := self.canonical.get(piece)) is None:
            markup = self.html[piece]
            text = self.canonical[piece] = spelling.canonical(html.unescape(_TAGS.sub("", markup)))
        return any(form in text for form in forms)

    # ------------------------------------------------------------------ the files

    def _close_month(self) -> None:
        """The month's chunks to bytes; then every piece no view shows any more is let go (at ten
        years the pieces of every night are half a gigabyte of HTML; a month's window, a few MB).
        An entry or callout out of every view is rendered again when a night brings it back."""
        for (key, month), chunk in self.chunks.items():
            data = {
                "nights": chunk.nights,
                "pieces": {p: self.html[p] for p in sorted(chunk.pieces)},
                "records": {p: self.records[p] for p in sorted(chunk.pieces) if p in self.records},
            }
            self.done[(key, month)] = _gzip(_json(data))
        self.chunks.clear()
        shown = {e for key, members in self.members.items() if key != REGISTER for e in members}
        self.entry_piece = {e: p for e, p in self.entry_piece.items() if e in shown}
        self.callout_piece = {c: p for c, p in self.callout_piece.items() if c in self.members[REGISTER]}
        kept = {*self.entry_piece.values(), *self.callout_piece.values()}
        kept.update(part for shape in self.shape.values() for kind, part in shape if kind == "heading")
        for table in (self.html, self.records, self.canonical, self.marks):
            for piece in [p for p in table if p not in kept]:
                del table[piece]

    def files(self, topic: str) -> Iterator[tuple[str, bytes]]:
        """Each chunk's path and bytes (the same bytes for the same data: sorted keys, no time)."""
        if self.chunks:
            self._close_month()
        for (key, month), data in sorted(self.done.items()):
            yield as_of_data(topic, key, month), data


def _numbers(number: str) -> list[int]:
    return [int(p) for p in number.split(".")]


def _json(data: object) -> bytes:
    """JSON that a script can hold in a page too: no ``</`` closes anything."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("</", "<\\/").encode()


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


_MADE: weakref.WeakKeyDictionary[Layout, list[tuple[str, bytes]]] = weakref.WeakKeyDictionary()


def past_files(layout: Layout) -> list[tuple[str, bytes]]:
    """Every data file of a topic's past views (made once per layout: one pass, each piece once)."""
    if (made := _MADE.get(layout)) is not None:
        return made
    linker = Linker(as_of_page(layout.topic))
    text = NightText(layout, linker)
    pieces = _Pieces(layout, linker, text)
    nights_of(layout.doc, observe=pieces)
    index = {"nights": [n.isoformat() for n in nights(layout)], "views": views(layout)}
    made = _MADE[layout] = [
        (as_of_data(layout.topic, "nights", None), _gzip(_json(index))),
        *pieces.files(layout.topic),
    ]
    return made


def shell(page: FragmentRenderer) -> list[Block]:
    """The past views' page: a banner, the controls (the night before and after, today, a night to
    pick, the views), and the place the script fills from the chunks.  Fixed words only."""
    layout = page.layout
    known = nights(layout)
    if not known:
        return [Raw(f'<p class="digest-empty">{esc(labels.PAST_NONE)}</p>')]
    data = page.linker.url(as_of_data(layout.topic, "nights", None))
    tabs = "".join(  # each to its permalink on the last night (the script keeps them on the night shown)
        f'<a class="digest-past__view" data-view="{esc(key)}" href="{esc(as_of_link(page.linker, layout.topic, known[-1], key))}">'
        f"{esc(labels.PAST_REGISTER if key == REGISTER else '§' + key)}</a>"
        for key in views(layout)
    )
    words = {
        "banner": labels.PAST_BANNER,
        "loading": labels.PAST_LOADING,
        "failed": labels.PAST_FAILED,
        "empty": labels.PAST_EMPTY,
        "nearest": labels.PAST_NEAREST,
        "title": labels.PAST_TITLE,
        "compared": labels.PAST_COMPARED,
        "added": labels.PAST_ADDED,
        "gone": labels.PAST_GONE,
        "changed": labels.PAST_CHANGED,
        "same": labels.PAST_SAME,
        "then": labels.PAST_THEN,
        "moved": labels.PAST_WHAT_MOVED,
        "level": labels.PAST_WHAT_LEVEL,
        "retracted": labels.PAST_WHAT_RETRACTED,
        "status": labels.PAST_WHAT_STATUS,
        "other": labels.PAST_WHAT_OTHER,
        "sep": labels.PAST_WHAT_SEP,
        "nights": labels.PAST_NIGHTS,
        "months": labels.PAST_MONTHS,
    }
    # where each night between two compared ones is on the changes pages ({month}, {night}: the script's dates)
    night_href = page.linker.url(changes_page(layout.topic, "{month}"), NIGHT_ANCHOR)
    month_href = page.linker.url(changes_page(layout.topic, "{month}"))
    return [
        Raw(
            f'<div class="digest-past" data-digest-past data-index="{esc(data)}" '
            f'data-first="{known[0].isoformat()}" data-last="{known[-1].isoformat()}" '
            f'data-words="{esc(json.dumps(words, ensure_ascii=False, sort_keys=True))}" '
            f'data-changes-night="{esc(night_href)}" data-changes-month="{esc(month_href)}" '
            f"data-search-exclude data-pagefind-ignore>"
            f'<div class="digest-as-of" role="note"><p class="digest-past__banner" aria-live="polite">'
            f"{esc(labels.PAST_LOADING)}</p></div>"
            f'<nav class="digest-past__steps" aria-label="{esc(labels.PAST_STEPS)}">'
            f'<a class="digest-past__step" data-step="prev">{esc(labels.PAST_PREV)}</a> '
            f'<a class="digest-past__step" data-step="next">{esc(labels.PAST_NEXT)}</a> '
            f'<a class="digest-past__today" data-step="today" href="{esc(page.linker.url(layout.doc.topic + "/index.md"))}">'
            f"{esc(labels.PAST_TODAY)}</a></nav>"
            f'<form class="digest-past__pick" data-past-pick><label>{esc(labels.PAST_PICK)} '
            f'<input type="date" name="night" min="{known[0].isoformat()}" max="{known[-1].isoformat()}" '
            f'value="{known[-1].isoformat()}" required></label> '
            f'<button type="submit">{esc(labels.PAST_GO)}</button></form>'
            f'<form class="digest-past__compare" data-past-compare><label>{esc(labels.PAST_COMPARE)} '
            f'<input type="date" name="other" min="{known[0].isoformat()}" max="{known[-1].isoformat()}" '
            f'required></label> <button type="submit">{esc(labels.PAST_COMPARE_GO)}</button> '
            f'<a class="digest-past__uncompare" data-step="alone" hidden>{esc(labels.PAST_COMPARE_OFF)}</a></form>'
            f'<nav class="digest-past__views" aria-label="{esc(labels.PAST_VIEWS)}">{tabs}</nav>'
            "</div>"
        ),
        # Not searched, so the host keeps the page's title out of the index too (a search leads
        # to where a statement lives today, not to a night it once read differently).
        Heading(2, "past-view", labels.PAST_HEADING, searched=False),
        Raw(
            '<div class="digest-past__body" data-search-exclude data-pagefind-ignore></div>'
            f'<noscript><p class="digest-empty">{esc(labels.PAST_NOSCRIPT)}</p></noscript>'
        ),
    ]


def picker(page: FragmentRenderer, view: str) -> str:
    """On a section page: a night to see this section as it stood (a form: without the script it
    still lands on the past views' page, which reads the night from its address)."""
    known = nights(page.layout)
    if not known:
        return ""
    action = page.linker.url(as_of_page(page.layout.topic))
    return (
        f'<form class="digest-past-pick" action="{esc(action)}" method="get" data-past-pick data-search-exclude '
        f"data-pagefind-ignore><label>{esc(labels.PAST_PICK_SECTION)} "
        f'<input type="date" name="night" min="{known[0].isoformat()}" max="{known[-1].isoformat()}" '
        f'value="{known[-1].isoformat()}" required></label>'
        f'<input type="hidden" name="view" value="{esc(view)}"> '
        f'<button type="submit">{esc(labels.PAST_GO)}</button></form>'
    )


def past_redirect(topic: str, night: dt.date, view: str | None, directory_urls: bool = True) -> str:
    """The permalink file of a night (and a view): it sends the reader to the past views' page at
    that night (an address, not an anchor: the page has no element a night).  Only the topic (a
    slug), the date and the view's number reach it: no brief text."""
    query = f"?night={night.isoformat()}" + (f"&view={view}" if view else "")
    return redirect(
        as_of_file(topic, night, view, directory_urls),
        page_url(as_of_page(topic), directory_urls) + query,
        labels.PAST_TITLE.format(night=night.isoformat()),
        labels.PAST_REDIRECT.format(night=night.isoformat()),
    )
