"""The renderer's first job: the one path from brief text to output, and the links and anchors.

Brief text is data, never markup: every string from the data goes through :meth:`TextRenderer.text`
(HTML) or :meth:`TextRenderer.plain` (attributes, the feed, SVG, headings), which escape it, withhold
claims that an open contradiction forbids stating as fact, and turn known ``arXiv:<id>`` mentions
into numbered citation links.  Nothing else may put brief text into output, so withholding cannot be
forgotten; the templates reach the same path through :mod:`templating`'s ``finalize`` and ``|text``.

The renderer is three classes, one per job, each building on the one below so that one page's
anchors and withheld marks are shared:

* :class:`TextRenderer` (here): text, links, anchors, level marks, citations in running text;
* :class:`fragments.FragmentRenderer`: one record as a fragment (entry, callout, history, reference …);
* :class:`render.Renderer`: whole pages assembled from fragments (section, register, brief, overview …).

Output is a list of blocks: :class:`Heading` (so the host can put it in the page's table of
contents) and :class:`Raw` HTML.  Pure: no MkDocs, no Markdown; Jinja only through :mod:`templating`.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from markupsafe import Markup, escape

from ..core import labels
from ..core.arxiv import key as arxiv_key
from ..core.doc import (
    ARXIV_MENTION,
    CitationView,
    CitedByCount,
    ContradictionView,
    EntryView,
    LivingDoc,
)
from ..core.model import Brief, Item, not_public
from .layout import (
    Layout,
    Linker,
    brief_page,
    section_anchor,
    section_page,
)
from .templating import Templates

SEARCH_EXCLUDE = "data-search-exclude"
"""The attribute on what a search should not find (:mod:`searchindex` hands Pagefind its selector;
the templates write it out as well)."""

NOT_SEARCHED = f" {SEARCH_EXCLUDE}"
"""On what qualifies a statement rather than states it (its provenance line, sources, relation,
placement, history, the lists of what relates to it), on a round's own recommendations (a brief's
conclusions) and on copies of what lives on another page (a brief's citations and follow-ups): the
search index takes each statement once, where it lives, and a reader's first search fetches less
(issue 30: 16 M words at ten years, most of them these; Pagefind's memory grows with them)."""


@dataclass(frozen=True)
class Heading:
    """A heading for the host's table of contents; ``text`` is plain (unescaped) and already withheld."""

    level: int
    anchor: str
    text: str
    searched: bool = True
    """False on a page that holds nothing a reader searches for (a brief page whose items all live
    on §-pages): with every heading of its directive unsearched, the host keeps the page's title out
    of the index too, and Pagefind leaves the page out (a reader finds the brief by its date on the
    briefs' index or its month's archive).  At ten years that is 3,650 of 4,700 records."""


@dataclass(frozen=True)
class Raw:
    html: str


Block = Heading | Raw

OUTBOUND_REL = "noopener noreferrer nofollow"
"""Every link that leaves the site: no window handle, no referrer, no endorsement."""

CREDENTIALS = re.compile(r"//[^/@\s]*@")

MAX_URL_SHOWN = 200
"""A source URL is shown (in its tooltip) up to this many characters."""


@functools.lru_cache(maxsize=4096)
def outbound(url: str) -> tuple[str, str] | None:
    """(href, host as shown) for a public http(s) URL, credentials removed and a non-ASCII host in
    punycode (so a look-alike host cannot pass for another); None when the URL cannot be parsed or
    names no public host (loopback, private, link-local addresses, ``localhost``)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host or not_public(host) is not None:
        return None
    try:
        shown = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        return None
    bracketed = f"[{shown}]" if ":" in shown else shown  # an IPv6 literal is written in brackets
    netloc = bracketed + (f":{port}" if port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)), shown


_SPECIAL = re.compile(r"[&<>\"']")


def esc(value: object) -> str:
    """Text escaped for HTML and its attributes (``html.escape``), skipped when there is nothing to
    escape: most brief text has no ``&<>"'``, and this is called some 300,000 times at 365 days."""
    text = value if isinstance(value, str) else str(value)
    return html.escape(text, quote=True) if _SPECIAL.search(text) else text


def word_sheet(**words: Any) -> SimpleNamespace:
    """The code's own words a template is written with, escaped here once: a word with a
    ``{placeholder}`` is ``Markup`` (its ``format`` escapes a plain value filled in and keeps a
    fragment the template made through the text path), any other word is escaped; a tuple or a
    mapping of words is escaped word by word.  An object, not a dict, so no key can shadow a dict
    method in a template (``words.items`` would be ``dict.items``).  They have nothing to withhold,
    so printing one costs a template nothing (a callout prints a dozen)."""

    def one(word: str) -> Markup:
        return Markup(word) if "{" in word else escape(word)

    return SimpleNamespace(
        **{
            name: {k: one(w) for k, w in value.items()}
            if isinstance(value, Mapping)
            else tuple(one(w) for w in value)
            if isinstance(value, tuple)
            else one(value)
            for name, value in words.items()
        }
    )


CLAUSE_ENDS = frozenset("，,、/／；;。！？!?\n|")
"""Where a clause ends: a withheld value alone between two of these is an item of a list."""

SENTENCE_ENDS = frozenset("。！？!?；;\n")

LIST_NOISE = " \t　「」『』“”\"'()（）[]【】⚠*-—–:：·"
"""What may stand beside a withheld value in its clause and still leave it alone there."""


@dataclass(frozen=True)
class _Folded:
    """A sentence folded into one mark because of the withheld claim ``view``."""

    view: ContradictionView


def _fold(value: str, pieces: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """``pieces`` (from ``Renderer._segments``) with each sentence that talks about a withheld
    value, rather than listing it as one clause among others, replaced by one folded piece."""
    spans = []
    at = 0
    for piece, view in pieces:
        if view is not None:
            spans.append((at, at + len(piece), view))
        at += len(piece)
    folds: list[tuple[int, int, ContradictionView]] = []
    for start, end, view in spans:
        left = max((i for i in range(start) if value[i] in CLAUSE_ENDS), default=-1) + 1
        right = next((i for i in range(end, len(value)) if value[i] in CLAUSE_ENDS), len(value))
        rest = value[left:start] + value[end:right]
        if not rest.strip(LIST_NOISE):
            continue  # a clause of its own: the mark stands in for it
        s0 = max((i for i in range(start) if value[i] in SENTENCE_ENDS), default=-1) + 1
        s1 = next((i + 1 for i in range(end, len(value)) if value[i] in SENTENCE_ENDS), len(value))
        if folds and s0 < folds[-1][1]:
            folds[-1] = (folds[-1][0], max(s1, folds[-1][1]), folds[-1][2])
        else:
            folds.append((s0, s1, view))
    if not folds:
        return pieces
    out: list[tuple[str, Any]] = []
    at = 0
    for s0, s1, view in folds:
        out += _cut(pieces, at, s0)
        lead = len(value[s0:s1]) - len(value[s0:s1].lstrip())
        if lead:
            out.append((value[s0 : s0 + lead], None))
        out.append(("", _Folded(view)))
        at = s1
    out += _cut(pieces, at, len(value))
    return out


def _cut(pieces: list[tuple[str, Any]], start: int, end: int) -> list[tuple[str, Any]]:
    """The pieces between two offsets of the text they were cut from (a withheld piece is whole)."""
    out = []
    at = 0
    for piece, view in pieces:
        lo, hi = max(start, at), min(end, at + len(piece))
        if lo < hi:
            out.append((piece if view is not None else piece[lo - at : hi - at], view))
        at += len(piece)
    return out


POSITIONAL = re.compile(labels.POSITIONAL_REFERENCE)

BASELINE = "baseline"
"""The level a section page's filter gives an entry the living doc already had (its badge: labels.BASELINE_BADGE)."""


def level_of(entry: EntryView) -> str:
    """An entry's evidence level for the filter: its current one, 活文档既有 for a baseline entry."""
    evidence = entry.current_evidence
    if entry.item is not None and evidence is not None:
        return evidence.level
    return BASELINE if entry.baseline is not None else ""


@dataclass
class TextRenderer:
    """The one path from brief text to a page of one topic's living doc, and the links and anchors
    every fragment writes with it (the base of :class:`fragments.FragmentRenderer` and
    :class:`render.Renderer`, which share one page's anchors and marks)."""

    layout: Layout
    linker: Linker
    anchors: set[str] = field(default_factory=set)
    templates: Templates = field(default_factory=Templates)
    marks: set[str] | None = None
    """While an entry is rendered: the contradictions whose withheld mark it already shows (one
    clear mark per entry; later spellings of the same claim get the short, unlinked one)."""
    level_marks: dict[str, str] = field(default_factory=dict)
    """Each evidence level as drawn on this page (``level.html``), made once."""
    level_tags: dict[str, str] = field(default_factory=dict)
    """Each evidence level as named on this page (``level_tag.html``), made once."""

    doc: LivingDoc = field(init=False)
    """The layout's merged doc (an attribute, not a property: the text path asks for it ~450,000
    times at 365 days)."""

    def __post_init__(self) -> None:
        self.doc = self.layout.doc

    def render(self, template: str, **data: Any) -> str:
        """A template of ``digest_plugin/templates/`` (or the site's override of it), given data."""
        return self.templates.render(template, self, data)

    # The one path from brief text to output.  Every string that comes from the data reaches the
    # site through `text` (HTML), or `plain` (attributes, the feed, SVG, headings), both built on
    # `_segments`: nothing else may put brief text into output, so withholding cannot be forgotten.

    def _segments(self, value: str) -> list[tuple[str, ContradictionView | None]]:
        """The text cut into pieces, each either plain or a spelling an open contradiction withholds."""
        pattern = self.doc.withheld_pattern
        if pattern is None:
            return [(value, None)]
        pieces: list[tuple[str, ContradictionView | None]] = []
        last = 0
        for m in pattern.finditer(value):
            if m.start() > last:
                pieces.append((value[last : m.start()], None))
            pieces.append((m.group(), self.doc.withheld_by(m.group())))
            last = m.end()
        pieces.append((value[last:], None))
        return pieces

    def text(self, value: str, *, links: bool = True, quote: ContradictionView | None = None) -> str:
        """Brief text as HTML: escaped, withheld claims replaced by a mark linking to their callout,
        known ``arXiv:<id>`` mentions turned into numbered citation links.

        ``quote`` is the contradiction whose callout this text is in: its own claims are quoted
        there (marked ``data-withheld-quote`` and kept out of the search index), any other
        contradiction's are withheld as everywhere else.  ``links=False`` for text inside a link.

        Inside an entry (``marks`` set) a sentence that talks *about* a withheld value, rather than
        listing it, is folded into one mark: with the value cut out it would read as nonsense
        (「〔暂扣〕 > 总 Stars 155 属明显口径异常」).  The brief's own page shows it whole."""
        pattern = self.doc.withheld_pattern
        if pattern is None or pattern.search(value) is None:  # the common case: one C-level search
            out = esc(value)
            return ARXIV_MENTION.sub(self._arxiv_link, out) if links and "arXiv:" in out else out
        pieces = self._segments(value)
        if len(pieces) > 1 and self.marks is not None and quote is None:
            pieces = _fold(value, pieces)
        parts = []
        for piece, view in pieces:
            if view is None:
                parts.append(esc(piece))
            elif isinstance(view, _Folded):
                parts.append(self.withheld(view.view, link=links, folded=True))
            elif quote is not None and view.id == quote.id:
                parts.append(
                    f'<span class="digest-withheld-quote" data-withheld-quote="{esc(view.id)}" '
                    f"data-search-exclude>{esc(piece)}</span>"
                )
            else:
                parts.append(self.withheld(view, link=links))
        out = "".join(parts)
        return ARXIV_MENTION.sub(self._arxiv_link, out) if links else out

    def plain(self, value: str) -> str:
        """Brief text for places that hold no markup (attributes, the feed, SVG, headings): withheld
        claims replaced by their label, *not* escaped (the caller escapes for its format)."""
        return "".join(piece if view is None else self.withheld_label(view) for piece, view in self._segments(value))

    def attr(self, value: str) -> str:
        """Brief text for an HTML attribute value."""
        return esc(self.plain(value))

    def withholds(self, value: str) -> bool:
        """Whether the text holds a spelling an open contradiction withholds (one C-level search)."""
        pattern = self.doc.withheld_pattern
        return pattern is not None and pattern.search(value) is not None

    def word(self, kind: str, code: str) -> str:
        """A word of the topic's vocabulary (``data/vocabulary.yml``) as HTML: its label, escaped."""
        return esc(self.doc.vocabulary.label(kind, code))

    def contradiction_name(self, view: ContradictionView) -> str:
        """'矛盾 3', or '2026-10-21 矛盾 3' once several briefs each number their own from 1."""
        number = view.contradiction.number
        if len(self.doc.briefs) == 1:
            return labels.CONTRADICTION_NAME.format(number=number)
        return labels.CONTRADICTION_NAME_DATED.format(date=view.brief.date.isoformat(), number=number)

    def withheld_label(self, view: ContradictionView) -> str:
        if self.doc.withheld_later(view):  # a past view: withheld by a brief after its night
            return labels.WITHHELD_LATER.format(
                name=labels.CONTRADICTION_NAME_DATED.format(
                    date=view.brief.date.isoformat(), number=view.contradiction.number
                )
            )
        name = self.contradiction_name(view)
        return (labels.WITHHELD if len(self.doc.briefs) == 1 else labels.WITHHELD_DATED).format(name=name)

    def withheld(self, view: ContradictionView, *, link: bool = True, folded: bool = False) -> str:
        """The mark that stands for a withheld claim (or, ``folded``, for a sentence about one).

        Muted, never highlighted: the value not to use must not be the loudest thing on the page.
        Inside an entry the first mark of a contradiction links to its callout and names it; later
        ones are short and unlinked, so an entry carries one clear mark, not seven."""
        again = self.marks is not None and view.id in self.marks
        if self.marks is not None:
            self.marks.add(view.id)
        if again:
            label = labels.FOLDED_AGAIN if folded else labels.WITHHELD_AGAIN
            return (
                f'<span class="digest-withheld digest-withheld--again" data-withheld-by="{esc(view.id)}"'
                f"{' data-folded' if folded else ''}>{label}</span>"
            )
        label = self.withheld_label(view)
        if folded:
            name = self.contradiction_name(view)
            label = labels.FOLDED.format(name=name if len(self.doc.briefs) == 1 else f" {name}")
        fold = " data-folded" if folded else ""
        if self.doc.withheld_later(view):  # its callout is on a later brief's page, not in this past view
            return f'<span class="digest-withheld" data-withheld-by="{esc(view.id)}" data-withheld-later{fold}>{label}</span>'
        if not link:
            return f'<span class="digest-withheld" data-withheld-by="{esc(view.id)}"{fold}>{label}</span>'
        href = self.callout_href(view)
        return f'<a class="digest-withheld" data-withheld-by="{esc(view.id)}"{fold} href="{esc(href)}">{label}</a>'

    def callout_href(self, view: ContradictionView) -> str:
        """Where a contradiction's callout is: on this page when it is shown here, else the register."""
        shown = self.layout.contradiction_month(view) is None  # as _section_body shows them
        on_this_page = shown and any(
            section_page(self.doc.topic, s.split(".")[0]) == self.linker.page
            and any(c is view for c in self.doc.sections[s].contradictions)
            for s in view.sections
            if s in self.doc.sections
        )
        page = self.linker.page if on_this_page else self.layout.contradiction_page(view)
        return self.linker.url(page, f"contradiction-{view.id}")

    def _arxiv_link(self, m: re.Match[str]) -> str:
        view = self.doc.citations.get(arxiv_key(m.group(1)))
        return self.cite(view, m.group()) if view else m.group()

    def cite(
        self, view: CitationView, label: str | None = None, *, number: bool = True, anchor: str = "", card: bool = True
    ) -> str:
        """A citation: a link to its bibliography entry and a card that says what it is in place
        (title, authors and year where a brief gives them, counts with source and date, the
        down-weight warning).  ``card=False`` on the bibliography, where the link goes to arXiv."""
        c = view.citation
        key = arxiv_key(c.arxiv)
        arxiv_href = f"https://arxiv.org/abs/{c.arxiv}"
        reference_href = self.linker.url(self.layout.citation_page(view), f"ref-{view.number}")
        down = ""
        if c.down_weighted_by and (dw := self.doc.contradiction(c.down_weighted_by)) is not None:
            down = labels.REFERENCE_DOWN_WEIGHTED.format(contradiction=self.contradiction_name(dw))
        return self.render(
            "citation.html",
            key=key,
            label=Markup(self.text(label or f"arXiv:{c.arxiv}", links=False)),
            number=view.number,
            show_number=number,
            anchor=anchor,
            href=reference_href if card else arxiv_href,
            outbound=not card,
            rel=OUTBOUND_REL,
            card=card,
            card_id=self.unique_id(f"cite-card-{key}") if card else "",
            title=Markup(self.text(c.title, links=False)),
            authors=labels.LIST_SEP.join(c.authors),
            venue=c.venue or "",
            year=str(c.year) if c.year else "",
            counts=[Markup(self.cited_by(x)) for x in view.latest_counts],
            down=Markup(down),
            reference=labels.CITE_REFERENCE.format(number=view.number),
            reference_href=reference_href,
            arxiv_href=arxiv_href,
        )

    @staticmethod
    def cited_by(count: CitedByCount) -> str:
        """「被引 4677（S2，截至 2026-10-21）」: a count with its source and date, as HTML."""
        as_of = labels.REFERENCE_AS_OF.format(date=count.as_of)
        return labels.REFERENCE_CITED_BY.format(count=count.value, source=esc(count.label), as_of=as_of)

    def unique_id(self, base: str) -> str:
        """An id not yet used on the page: ``base``, else ``base-2``, ``base-3`` …"""
        n = 1
        name = base
        while not self.anchor_id(name):
            n += 1
            name = f"{base}-{n}"
        return name

    def anchor(self, name: str) -> str:
        """An id attribute the first time a name is used on the page (callouts may repeat per section)."""
        return f' id="{esc(name)}"' if self.anchor_id(name) else ""

    def anchor_id(self, name: str) -> str:
        """``name`` the first time it is used on the page, else '' (an id is given once)."""
        if name in self.anchors:
            return ""
        self.anchors.add(name)
        return name

    def brief_link(self, brief: Brief) -> str:
        href = self.linker.url(brief_page(brief))
        name = labels.BRIEF_NAME.format(date=brief.date.isoformat(), round=esc(brief.round))
        return f'<a class="digest-brief-link" href="{esc(href)}">{name}</a>'

    def item_ref(self, brief: Brief, item: Item) -> str:
        """「2026-10-21 E1 简报 条目 4」, one link that lands on the item itself on the brief's page."""
        href = self.linker.url(brief_page(brief), f"item-{item.id}")
        name = labels.BRIEF_NAME.format(date=brief.date.isoformat(), round=esc(brief.round))
        text = labels.ITEM_REF.format(brief=name, number=item.number)
        return f'<a class="digest-brief-link digest-item-ref" href="{esc(href)}">{text}</a>'

    def section_link(self, number: str) -> str:
        anchor = section_anchor(number)  # a top section is its page
        href = self.linker.url(section_page(self.doc.topic, number), anchor)
        return f'<a href="{esc(href)}">§{esc(number)}</a>'

    def item_link(self, item_id: str) -> str:
        brief, item, entry_id = self.doc.items[item_id]
        page = self.layout.entry_page(entry_id) if entry_id in self.doc.entries else brief_page(brief)
        href = self.linker.url(page, f"entry-{entry_id}" if entry_id in self.doc.entries else f"item-{item_id}")
        return f'<a href="{esc(href)}">{self.text(item.title, links=False)}</a>'

    def entry_link(self, entry_id: str) -> str:
        entry = self.doc.entries[entry_id]
        href = self.linker.url(self.layout.entry_page(entry.id), f"entry-{entry.id}")
        return f'<a href="{esc(href)}">§{esc(entry.section)} {self.text(entry.title, links=False)}</a>'

    def contradiction_link(self, view: ContradictionView) -> str:
        href = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        return f'<a class="digest-contradiction-link" href="{esc(href)}">{self.contradiction_name(view)}</a>'

    def item_level(self, item_id: str) -> str:
        """The current level of an item's entry ('' for none): the register shows how solid each
        statement a contradiction touches is, as the badges do."""
        _, item, entry_id = self.doc.items[item_id]
        entry = self.doc.entries.get(entry_id)
        return level_of(entry) if entry is not None else item.evidence.level

    def located(self, html: str, brief: Brief) -> str:
        """Brief text (already HTML) with the brief's layout words made true on every page:
        「见下方矛盾清单第 11 条」 becomes 「见矛盾 11」 linked to that callout, 「见上方矛盾清单」 「见矛盾清单」
        linked to the brief's list; the words 上方/下方 only held in the brief's own Markdown."""
        if labels.CONTRADICTION_LIST not in html:
            return html

        def link(m: re.Match[str]) -> str:
            number = int(m.group(1)) if m.group(1) else None
            view = next(
                (c for c in self.doc.contradictions_by_brief.get(brief.id, []) if c.contradiction.number == number),
                None,
            )
            if view is not None:
                return labels.SEE_CONTRADICTION.format(link=self.contradiction_link(view))
            href = self.linker.url(brief_page(brief), "contradictions")
            return labels.SEE_CONTRADICTION.format(link=f'<a href="{esc(href)}">{labels.CONTRADICTION_LIST}</a>')

        return POSITIONAL.sub(link, html)

    def material(self, path: str, anchor: str | None = None) -> str:
        """A material path (as code) and the place inside it.  Both are brief text: withheld like
        any other, and read together, so a claim cannot hide across the two."""
        joined = f"{path} {anchor}" if anchor else path
        if self.plain(joined) != joined:  # a withheld spelling in the path, the anchor, or across them
            return self.text(joined, links=False)
        return f"<code>{self.text(path, links=False)}</code>" + (f" {self.text(anchor)}" if anchor else "")

    def scale(self, level: str) -> str:
        """The level as an ordinal scale: ●●●○ (GRADE-like), as many filled as it is solid."""
        steps = max(len(self.doc.vocabulary.words("evidence_levels")) - 1, 1)
        filled = max(steps - self.doc.vocabulary.rank(level), 0)
        return labels.SCALE_FULL * filled + labels.SCALE_EMPTY * (steps - filled)

    def level_mark(self, level: str) -> str:
        """A level as the badge and the legend draw it: its scale, then its word (made once per page
        and level: a brief's page draws the same few levels on every item)."""
        mark = self.level_marks.get(level)
        if mark is None:
            mark = self.level_marks[level] = self.render(
                "level.html", scale=self.scale(level), level_word=self.word("evidence_levels", level)
            )
        return mark

    def level_tag(self, level: str) -> str:
        """A level where a statement is named rather than badged (``level_tag.html``), made once per
        page and level: its scale in the level's hue, the word for search and screen readers."""
        tag = self.level_tags.get(level)
        if tag is None:
            known = level in self.doc.vocabulary.words("evidence_levels")
            tag = self.level_tags[level] = self.render(
                "level_tag.html",
                level=level,
                rank=self.doc.vocabulary.rank(level) if known else None,
                scale=self.scale(level) if known else "",
                level_word=labels.BASELINE_BADGE
                if level == BASELINE
                else self.doc.vocabulary.label("evidence_levels", level),
            )
        return tag
