"""Merged living doc → HTML fragments.  Pure functions: no MkDocs, no Markdown, no Jinja.

Brief text is data, never markup: every string from the data goes through :func:`Renderer.text`,
which escapes it, withholds claims that an open contradiction forbids stating as fact, and turns
known ``arXiv:<id>`` mentions into numbered citation links.  The result is handed to the
Markdown host as raw HTML (see :mod:`extension`), so neither Markdown nor Jinja ever reads it.

Output is a list of blocks: :class:`Heading` (so the host can put it in the page's table of
contents) and :class:`Raw` HTML.
"""

from __future__ import annotations

import functools
import html
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote as url_quote
from urllib.parse import urlsplit, urlunsplit

from markupsafe import Markup

from ..core import labels
from ..core.arxiv import key as arxiv_key
from ..core.doc import (
    ARXIV_MENTION,
    CHANGE_KINDS,
    CitationView,
    CitedByCount,
    ContradictionView,
    EntryView,
    FollowUpView,
    LivingDoc,
    SectionView,
    Stub,
    Update,
)
from ..core.model import BLOCKED, DISCARDED, Brief, Evidence, FollowUpStatus, Item, Status, not_public
from .chart import bars, sparkline
from .layout import (
    ARCHIVE_PAGES,
    Layout,
    Linker,
    bibliography_page,
    brief_page,
    briefs_index_page,
    feed_page,
    follow_ups_page,
    legend_page,
    register_page,
    section_anchor,
    section_page,
)
from .templating import Templates

HISTORY_ROWS = 10
"""An entry's history shows its first row and its latest ten; the rest stay on their brief pages."""
SEARCH_EXCLUDE = "data-search-exclude"
"""The attribute on what a search should not find (:mod:`searchindex` hands Pagefind its selector;
the templates write it out as well)."""
NOT_SEARCHED = f" {SEARCH_EXCLUDE}"
"""On what qualifies a statement rather than states it (its provenance line, sources, relation,
placement, history, the lists of what relates to it), on a round's own recommendations (a brief's
conclusions) and on copies of what lives on another page (a brief's citations and follow-ups): the
search index takes each statement once, where it lives, and a reader's first search fetches less
(issue 30: 16 M words at ten years, most of them these; Pagefind's memory grows with them)."""
FIGURE_VALUES = 5
"""Earlier values of a figure listed beside it (the chart shows the whole series)."""


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


@dataclass
class Renderer:
    """Renders one page's fragments of one topic's living doc."""

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

    # ------------------------------------------------------------------ text

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
            pieces.append((m.group(0), self.doc.withheld_by(m.group(0))))
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
        return self.cite(view, m.group(0)) if view else m.group(0)

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

    # ------------------------------------------------------------------ small parts

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

    def _item_level_tag(self, item_id: str) -> str:
        """After an item named in a callout: its entry's current level (the register shows how
        solid each statement a contradiction touches is, as the badges do)."""
        _, item, entry_id = self.doc.items[item_id]
        entry = self.doc.entries.get(entry_id)
        level = _level_of(entry) if entry is not None else item.evidence.level
        return " " + self.level_tag(level) if level else ""

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

    def contradiction_link(self, view: ContradictionView) -> str:
        href = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        return f'<a class="digest-contradiction-link" href="{esc(href)}">{self.contradiction_name(view)}</a>'

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

    def badge(self, ev: Evidence, key: str, assessed: str = "") -> str:
        """How solid the statement is: the level first (scale and word), then source kinds and gaps.

        The tip says what the page does not: what the level and each gap mean, where it was assessed,
        and a link to the legend; the boundary itself is printed under the statement (and is the
        badge's accessible description)."""
        words = self.doc.vocabulary
        kinds = [self.word("source_kinds", k) for k in ev.source_kinds]
        shown_gaps = [g for g in ev.gaps if self.word("gaps", g) not in kinds]  # 厂商自述 once, not twice
        tip_rows = [
            f"<strong>{self.word('evidence_levels', ev.level)}</strong>："
            + esc(words.meaning("evidence_levels", ev.level) or labels.LEGEND_MEANING_NONE)
        ]
        tip_rows += [
            f"{self.word('gaps', g)}：{esc(words.meaning('gaps', g) or labels.LEGEND_MEANING_NONE)}" for g in ev.gaps
        ]
        if assessed:
            tip_rows.append(labels.TIP_ASSESSED.format(where=assessed))
        return self.render(
            "badge.html",
            level=ev.level,
            rank=words.rank(ev.level),
            scale=self.scale(ev.level),
            level_word=Markup(self.word("evidence_levels", ev.level)),
            level_mark=Markup(self.level_mark(ev.level)),
            kinds=[Markup(k) for k in kinds],
            list_sep=labels.LIST_SEP,
            gaps=[(g, Markup(self.word("gaps", g))) for g in shown_gaps],
            tip_rows=[Markup(row) for row in tip_rows],
            legend=self.linker.url(legend_page(self.doc.topic), f"level-{ev.level}"),
            legend_label=labels.TIP_LEGEND,
            key=key,
        )

    def legend(self) -> list[Block]:
        """What every word on the badges and callouts means, from the topic's vocabulary: the levels
        in rank order with their scale, then gaps, source kinds, value ratings, dispositions, and the
        team's terms (E1, E2 …).  Each word has an anchor, so a badge's tip links to its own row."""
        words = self.doc.vocabulary

        def row(anchor: str, attr: str | None, code: str, word: str, meaning: str) -> dict[str, str]:
            return {
                "anchor": self.anchor_id(anchor),
                "attr": attr or "",
                "code": code,
                "word": word,
                "meaning": meaning,
            }

        def table(rows: list[dict[str, str]]) -> str:
            return self.render("legend_table.html", rows=rows)

        def rows(kind: str, prefix: str) -> list[dict[str, str]]:
            return [
                row(f"{prefix}-{code}", prefix, code, word.label, word.meaning or labels.LEGEND_MEANING_NONE)
                for code, word in words.words(kind).items()
            ]

        levels = [
            row(
                f"level-{code}",
                "level",
                code,
                Markup(
                    f'<span class="digest-badge digest-badge--sample" data-evidence="{esc(code)}" '
                    f'data-rank="{words.rank(code)}">{self.level_mark(code)}</span>'
                ),
                word.meaning or labels.LEGEND_MEANING_NONE,
            )
            for code, word in words.words("evidence_levels").items()
        ]
        baseline = row(
            "baseline",
            "level",
            "baseline",
            Markup(
                '<span class="digest-badge digest-badge--baseline digest-badge--sample" data-evidence="baseline">'
                f'<span class="digest-badge__level">{labels.BASELINE_BADGE}</span></span>'
            ),
            labels.BASELINE_MEANING,
        )
        terms = [{"anchor": "", "attr": "", "code": "", "word": t, "meaning": m} for t, m in labels.LEGEND_TERM_ROWS]
        return [
            Heading(2, "levels", labels.LEGEND_LEVELS),
            Raw(f"<p>{labels.LEGEND_LEVELS_NOTE}</p>" + table([*levels, baseline])),
            Heading(2, "gaps", labels.LEGEND_GAPS),
            Raw(table(rows("gaps", "gap"))),
            Heading(2, "source-kinds", labels.LEGEND_KINDS),
            Raw(table(rows("source_kinds", "kind"))),
            Heading(2, "values", labels.LEGEND_VALUES),
            Raw(table(rows("value_ratings", "value"))),
            Heading(2, "dispositions", labels.LEGEND_DISPOSITIONS),
            Raw(table(rows("dispositions", "disposition"))),
            Heading(2, "terms", labels.LEGEND_TERMS),
            Raw(table(terms)),
        ]

    def baseline_badge(self) -> str:
        """An entry the living doc already had: marked as what it is, not left to read as solid."""
        legend = self.linker.url(legend_page(self.doc.topic), "baseline")
        return (
            '<span class="digest-badge digest-badge--baseline" data-evidence="baseline" tabindex="0">'
            f'<span class="digest-badge__level">{labels.BASELINE_BADGE}</span>'
            f'<span class="digest-badge__tip" role="tooltip" data-search-exclude>{labels.BASELINE_MEANING}<br>'
            f'<a href="{esc(legend)}">{labels.TIP_LEGEND}</a></span></span>'
        )

    def material(self, path: str, anchor: str | None = None) -> str:
        """A material path (as code) and the place inside it.  Both are brief text: withheld like
        any other, and read together, so a claim cannot hide across the two."""
        joined = f"{path} {anchor}" if anchor else path
        if self.plain(joined) != joined:  # a withheld spelling in the path, the anchor, or across them
            return self.text(joined, links=False)
        return f"<code>{self.text(path, links=False)}</code>" + (f" {self.text(anchor)}" if anchor else "")

    def sources(self, item: Item) -> str:
        parts = []
        for m in item.sources.materials:
            extra = []
            if m.first_collected:
                extra.append(labels.MATERIAL_FIRST_COLLECTED.format(date=m.first_collected))
            if m.last_collected:
                extra.append(labels.MATERIAL_LAST_COLLECTED.format(date=m.last_collected))
            note = labels.MATERIAL_NOTE.format(notes=labels.COMMA.join(extra)) if extra else ""
            parts.append(f'<span class="digest-material">{self.material(m.path, m.anchor)}{note}</span>')
        for url in item.sources.urls:
            shown = outbound(url)
            if shown is None:  # not a public web address: named, never linked
                named = CREDENTIALS.sub("//", url)[:MAX_URL_SHOWN]
                parts.append(f'<span class="digest-source digest-source--plain">{self.text(named, links=False)}</span>')
                continue
            href, host = shown
            parts.append(
                f'<a class="digest-source" href="{esc(href)}" rel="{OUTBOUND_REL}" '
                f'title="{self.attr(href[:MAX_URL_SHOWN])}">{esc(host)}</a>'
            )
        return labels.SEP.join(parts)

    # ------------------------------------------------------------------ items and entries

    def item_body(self, item: Item, brief: Brief, key: str) -> str:
        """Everything a brief says about one item, with its evidence boundary beside it."""
        return self.item_head(item, brief, key) + self.item_details(item)

    def item_head(
        self,
        item: Item,
        brief: Brief,
        key: str,
        evidence: Evidence | None = None,
        assessed_in: Brief | None = None,
        entry: EntryView | None = None,
    ) -> str:
        """The badge, value rating, brief date and the evidence boundary: what qualifies the statement.

        ``evidence`` is the entry's current evidence when a later brief (``assessed_in``) changed it;
        for an ``entry`` the date of its last change follows (when the statement was last touched)."""
        p = item.placement
        ev = evidence or item.evidence
        changed = ""
        last = entry.last_brief if entry is not None else None
        if last is not None:
            changed = (
                f' · <span class="digest-entry__changed" data-changed="{last.date.isoformat()}">'
                + labels.LAST_CHANGED.format(date=last.date.isoformat())
                + "</span>"
            )
        pending = ""
        if brief.questions_on(item):  # the importer's reading stands until an editor answers
            pending = f' · <span class="digest-pending" title="{self.attr(labels.PENDING_TIP)}">{labels.PENDING}</span>'
        return "".join(
            [
                f'<p class="digest-item__meta"{NOT_SEARCHED if entry is not None else ""}>'
                f"{self.badge(ev, key, self.brief_link(assessed_in) if assessed_in else self.item_ref(brief, item))} "
                f'<span{NOT_SEARCHED}><span class="digest-value">{labels.SEP.join(self.word("value_ratings", v) for v in item.value) or labels.UNRATED}</span> · '
                f"{self.item_ref(brief, item)} · {esc(p.action.label)}{changed}{pending}</span></p>",
                # The id the badge's description points at sits on a wrapper: Pagefind copies the
                # own text of every element with an id into the page's search record, and a block
                # wrapper has none, so the boundary is indexed once (issue 30: a record is fetched
                # per result shown).
                f'<div id="boundary-{esc(key)}"><p class="digest-boundary"><strong>{labels.BOUNDARY}</strong>：'
                f"{self.text(ev.boundary) if ev.boundary else labels.BOUNDARY_NOT_GIVEN}</p></div>",
            ]
        )

    def item_details(self, item: Item) -> str:
        """Related contradictions, key points, sources, relation, placement, guards and notes.

        A guard the placement text also states as a sentence of its own is shown once, in the
        guards (⚠) below it; 「见下方矛盾清单」 becomes a link (``located``)."""
        p = item.placement
        placed = self.doc.items.get(item.id)
        brief = placed.brief if placed is not None else None
        here = (lambda html: self.located(html, brief)) if brief is not None else (lambda html: html)
        related = self.doc.contradictions_by_item.get(item.id, [])
        out = []
        if related:
            out.append(
                f'<p class="digest-item__contradictions"{NOT_SEARCHED}>{labels.RELATED_CONTRADICTIONS}'
                + labels.LIST_SEP.join(self.contradiction_link(c) for c in related)
                + "</p>"
            )
        if item.points_note:
            note = labels.POINTS_NOTE.format(note=self.text(item.points_note))
            out.append(f'<p class="digest-points-note">{note}</p>')
        if item.points:  # a brief may give none (its text is then in the item's notes)
            out.append(
                '<ul class="digest-points">' + "".join(f"<li>{self.text(x)}</li>" for x in item.points) + "</ul>"
            )
        out.append(
            f'<p class="digest-sources"{NOT_SEARCHED}><strong>{labels.SOURCES}</strong>：{self.sources(item)}</p>'
        )
        if item.relation:  # a brief may leave it out: nothing is shown rather than an empty label
            out.append(
                f'<p class="digest-relation"{NOT_SEARCHED}><strong>{labels.RELATION}</strong>：{self.text(item.relation)}</p>'
            )
        said = here(self.text(without_guards(p.text, item.guards))) if p.text else labels.PLACEMENT_NOT_GIVEN
        placement = f"<strong>{labels.PLACEMENT}</strong>：{said}"
        if p.alternatives:
            links = labels.LIST_SEP.join(
                labels.ALTERNATIVE_NOTE.format(link=self.section_link(a.section), note=here(self.text(a.note)))
                if a.note
                else self.section_link(a.section)
                for a in p.alternatives
            )
            placement += labels.ALTERNATIVES.format(links=links)
        if p.cross_refs:
            links = labels.LIST_SEP.join(self.section_link(r.section) for r in p.cross_refs)
            placement += labels.CROSS_REFS.format(links=links)
        out.append(f'<p class="digest-placement"{NOT_SEARCHED}>{placement}</p>')
        if item.guards:
            out.append(
                '<ul class="digest-guards">'
                + "".join(
                    f"<li>{'' if g.startswith(labels.GUARD_MARK.strip()) else labels.GUARD_MARK}{here(self.text(g))}</li>"
                    for g in item.guards
                )
                + "</ul>"
            )
        for note in item.notes:
            out.append(f'<p class="digest-note">{here(self.text(note))}</p>')
        return "".join(out)

    def figures(self, entry: EntryView) -> str:
        if not entry.figures:
            return ""
        rows = []
        for f in entry.figures:
            withheld_by = self.doc.contradiction(f.withheld_by.id) if f.withheld_by is not None else None
            if withheld_by is not None:
                value = self.withheld(withheld_by)
            else:
                value = self.text(f"{f.current.value} {f.current.unit}" if f.current.unit else str(f.current.value))
            as_of = labels.FIGURE_AS_OF.format(date=f.current.as_of) if f.current.as_of else ""
            earlier = f.earlier  # a value a correction showed wrong is never shown as a value
            older = earlier[-FIGURE_VALUES:]
            hidden = len(earlier) - len(older)
            skipped = labels.FIGURE_SKIPPED.format(count=hidden) if hidden else ""
            before = (
                ""
                if f.withheld_by is not None
                else skipped
                + labels.CLAUSE_SEP.join(
                    f'<span class="digest-figure__old">'
                    f"{self.text(f'{old.value} {old.unit}' if old.unit else str(old.value))}"
                    f"{'（' + str(old.as_of) + '）' if old.as_of else ''}</span>"
                    for old in (v.figure for v in older)
                )
            )
            chart = sparkline(self.plain(f.label), f.series()) if f.withheld_by is None else ""
            rows.append(
                f'<tr data-figure="{esc(f.key)}"><th>{self.text(f.label)}</th><td class="digest-figure__now">{value}</td>'
                f"<td>{as_of}</td><td{NOT_SEARCHED}>{(labels.FIGURE_EARLIER + before) if before else ''}{chart}</td></tr>"
            )
        return (
            '<table class="digest-figures"><thead><tr>'
            + "".join(f"<th>{head}</th>" for head in labels.FIGURES_HEAD)
            + "</tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )

    def history(self, entry: EntryView) -> str:
        """How the entry got here, oldest first: the baseline, each update, evidence change and retraction."""
        if len(entry.history) < 2:
            return ""
        rows: list[dict[str, Any] | None] = []
        level: str | None = None
        hidden = 0
        shown: Sequence[Update] = entry.history
        if len(shown) > HISTORY_ROWS + 1:  # an entry updated every day: the first and the latest rows
            hidden = len(shown) - HISTORY_ROWS - 1
            level = next((u.evidence.level for u in reversed(shown[:-HISTORY_ROWS]) if u.evidence is not None), None)
            rows.append(None)
            shown = [shown[0], *shown[-HISTORY_ROWS:]]
        for u in shown:
            if u.kind == "baseline":
                doc = self.doc.outline.doc
                line = labels.HISTORY_BASELINE.format(
                    version=self.text(doc.version or ""), source=self.brief_ref(entry)
                )
                rows.append({"kind": "baseline", "text": Markup(line + self.text(u.text))})
                continue
            what = labels.HISTORY_KINDS[u.kind]
            text = self.text(u.text) if u.text else ""
            if u.kind == "evidence" and u.evidence is not None:
                now = self.word("evidence_levels", u.evidence.level)
                change = f"{self.word('evidence_levels', level)} → {now}" if level else now
                said = self.text(u.evidence.boundary) if u.evidence.boundary else labels.BOUNDARY_NOT_GIVEN
                text = f"{change}：{said}" + (f"（{text}）" if text else "")
            if u.kind == "corrected" and u.correction is not None:
                c = u.correction
                unit = f" {c.unit}" if c.unit else ""
                text = labels.CORRECTION.format(
                    label=self.text(f"{c.label} " if c.label else ""),
                    old=self.text(f"{c.old}{unit}"),
                    new=self.text(f"{c.new}{unit}"),
                    reason=self.text(c.reason),
                )
            if u.evidence is not None:
                level = u.evidence.level
            assert u.brief is not None, "every change after the baseline comes from a brief"
            line = f"{self.brief_link(u.brief)} · {what}：{text}"
            rows.append({"kind": u.kind, "brief": u.brief.id, "text": Markup(line)})
        if None in rows:  # the gap goes after the first row
            rows.remove(None)
            first = entry.history[1].brief
            assert first is not None, "only the first row of a history is the baseline"
            gap_text = labels.HISTORY_GAP.format(hidden=hidden, first=self.brief_link(first))
            rows.insert(1, {"kind": "gap", "hidden": hidden, "text": Markup(gap_text)})
        return self.render("history.html", title=labels.HISTORY, rows=[r for r in rows if r is not None])

    def brief_ref(self, entry: EntryView) -> str:
        stated = entry.baseline.stated_in if entry.baseline else ""
        brief = self.doc.briefs_by_id.get(stated)
        return self.brief_link(brief) if brief else esc(stated)

    def entry(self, entry: EntryView, level: int = 3) -> str:
        """One statement with everything that qualifies it, under a real heading (so the search
        index and screen readers reach the entry itself), marked when the latest brief made it."""
        outer, self.marks = self.marks, set()
        try:
            return self._entry(entry, level + 1 if entry.parent else level)
        finally:
            self.marks = outer

    def _entry(self, entry: EntryView, level: int) -> str:
        anchor = self.anchor_id("entry-" + entry.id)
        retraction = ""
        if entry.retraction is not None and entry.retracted_in is not None:
            r = entry.retraction
            successor = (
                labels.RETRACTED_SUCCESSOR.format(item=self.item_link(r.superseded_by))
                if r.superseded_by is not None and r.superseded_by in self.doc.items
                else ""
            )
            retraction = (
                '<p class="digest-retraction">'
                + labels.RETRACTED.format(
                    brief=self.brief_link(entry.retracted_in), reason=self.text(r.reason), successor=successor
                )
                + "</p>"
            )
        subtitle = meta = ""
        if entry.item is not None and entry.title != entry.item.title:
            subtitle = f'<p class="digest-item__title">{self.text(entry.item.title)}</p>'
        if entry.item is None and entry.baseline is not None:
            meta = (
                f'<p class="digest-item__meta">{self.baseline_badge()}</p>'
                f'<p class="digest-entry__text">{self.text(entry.baseline.text)}</p>'
                f'<p class="digest-entry__origin"{NOT_SEARCHED}>'
                + labels.BASELINE_ORIGIN.format(
                    version=self.text(self.doc.outline.doc.version or ""), source=self.brief_ref(entry)
                )
                + "</p>"
            )
        if entry.item is not None and entry.brief is not None:
            parts = [
                self.item_head(entry.item, entry.brief, entry.id, entry.evidence, _assessed_in(entry), entry),
                self.figures(entry),
                self.item_details(entry.item),
            ]
            body = (  # a retracted statement is no longer one a search should lead to: its title and why stay
                f'<div class="digest-retracted-body"{NOT_SEARCHED}>{"".join(parts)}</div>'
                if entry.retracted
                else "".join(parts)
            )
        else:
            body = self.figures(entry)
        pending = [f for f in self.doc.follow_ups_by_item.get(entry.item.id, []) if f.pending] if entry.item else []
        follow_ups = ""
        if pending:  # what the team still means to check about this statement
            links = labels.LIST_SEP.join(
                f'<a href="{esc(self.linker.url(self.layout.follow_up_page(f), f"follow-up-{f.follow_up.id}"))}">'
                f"{self.text(f.follow_up.text, links=False)}</a>"
                + labels.PENDING_FOLLOW_UP_STATE.format(
                    round=esc(f.follow_up.round),
                    status="" if f.status is FollowUpStatus.open else labels.SEP + esc(f.status.label),
                )
                for f in pending
            )
            follow_ups = f'<p class="digest-entry__follow-ups"{NOT_SEARCHED}>{labels.PENDING_FOLLOW_UPS}{links}</p>'
        entry_contradictions = self.doc.contradictions_by_entry.get(entry.id, [])
        contradictions = ""
        if entry_contradictions and entry.item is None:
            contradictions = (
                f'<p class="digest-item__contradictions"{NOT_SEARCHED}>{labels.RELATED_CONTRADICTIONS}'
                + labels.LIST_SEP.join(self.contradiction_link(c) for c in entry_contradictions)
                + "</p>"
            )
        fresh = self.fresh(entry)
        last = entry.last_brief
        level_code = _level_of(entry)
        return self.render(
            "entry.html",
            entry=entry,
            id=entry.id,
            section=entry.section,
            title=entry.title,
            retracted=entry.retracted,
            footnote=entry.footnote,
            parent=entry.parent,
            item=entry.item,
            item_id=entry.item.id if entry.item else "",
            evidence=level_code,
            level_tag=Markup(self.level_tag(level_code)) if level_code else None,
            last_brief=last.id if last else "",
            level=min(level, 6),
            anchor=anchor,
            fresh=fresh,
            fresh_label=labels.FRESH.get(fresh, "") if fresh else "",
            footnote_label=labels.FOOTNOTE,
            tags=Markup(self.dispute_tags(entry)),
            retraction=Markup(retraction),
            notices=Markup(self.reshaped(entry)),
            subtitle=Markup(subtitle),
            meta=Markup(meta),
            body=Markup(body),
            history=Markup(self.history(entry)),
            follow_ups=Markup(follow_ups),
            contradictions=Markup(contradictions),
        )

    def reshaped(self, entry: EntryView) -> str:
        """What later briefs did to the entry's place and words: moved here, split, corrected (勘误)."""
        lines = [labels.ENTRY_MOVED_FROM.format(brief=self.brief_link(b), section=esc(s)) for s, b in entry.moved_from]
        if entry.split_into:
            links = labels.LIST_SEP.join(self.entry_link(e) for e in entry.split_into if e in self.doc.entries)
            split_in = next((u.brief for u in reversed(entry.history) if u.kind == "split"), None)
            lines.append(
                labels.ENTRY_SPLIT_INTO.format(brief=self.brief_link(split_in) if split_in else "", links=links)
            )
        if entry.split_from is not None and entry.split_from in self.doc.entries:
            lines.append(labels.ENTRY_SPLIT_FROM.format(link=self.entry_link(entry.split_from)))
        lines += [
            labels.ENTRY_ERRATUM.format(
                brief=self.brief_link(b), old=self.text(e.old), new=self.text(e.new), text=self.text(e.text)
            )
            for e, b in entry.errata
        ]
        return "".join(f'<p class="digest-entry__reshaped"{NOT_SEARCHED}>{line}</p>' for line in lines)

    def fresh(self, entry: EntryView) -> str | None:
        """``new`` when the latest brief placed the entry, ``changed`` when it changed it, else None."""
        latest = self.doc.briefs[-1] if self.doc.briefs else None
        if latest is None or entry.last_brief is not latest:
            return None
        first = entry.first_update
        return "new" if first is not None and first.brief is latest else "changed"

    def dispute_tags(self, entry: EntryView) -> str:
        """After the title, one short dated tag per open contradiction on the entry, linked to its
        callout, with the label the statement must carry (须带标注写入) right there."""
        tags = []
        for view in self.contradictions_of(entry):
            if not view.is_open:
                continue
            href = self.callout_href(view)
            text = labels.DISPUTE_TAG.format(
                disposition=self.word("dispositions", view.disposition), date=view.brief.date.isoformat()
            )
            required = view.contradiction.required_label
            if required:
                text += labels.REQUIRED_LABEL_TAG.format(label=self.text(required, links=False))
            tags.append(f' <a class="digest-dispute" data-contradiction="{esc(view.id)}" href="{esc(href)}">{text}</a>')
        return "".join(tags)

    def moved_out(self, entry_id: str, to: str, brief: Brief) -> str:
        """Where an entry this section lost went: old links (``#entry-<id>``) land here and go on."""
        entry = self.doc.entries[entry_id]
        href = self.linker.url(self.layout.entry_page(entry_id), f"entry-{entry_id}")
        line = labels.ENTRY_MOVED_OUT.format(
            title=self.text(entry.title, links=False),
            brief=self.brief_link(brief),
            link=f'<a href="{esc(href)}">§{esc(to)}</a>',
        )
        anchor = self.anchor_id("entry-" + entry_id)
        id_attr = f' id="{esc(anchor)}"' if anchor else ""
        return f'<p class="digest-moved"{id_attr}>{line}</p>'

    def stub(self, stub: Stub) -> str:
        href = self.linker.url(self.layout.entry_page(stub.item.id), f"entry-{stub.item.id}")
        return self.render(
            "stub.html",
            stub=stub,
            id=stub.item.id,
            section=stub.section,
            label=labels.STUB,
            href=href,
            title=stub.item.title,
            home=Markup(labels.STUB_HOME.format(section=esc(stub.home), brief=self.brief_link(stub.brief))),
        )

    # ------------------------------------------------------------------ contradictions

    def callout(self, view: ContradictionView, *, compact: bool = False) -> str:
        """A Material admonition (collapsible ``details``) holding a contradiction, unmasked.

        Its kind and colour come from its disposition (the vocabulary's ``kind`` and ``style``): a
        paywall is 待核实, not 矛盾.  Open ones are expanded.  Settled ones (resolved or superseded)
        are collapsed; with ``compact`` (section pages) they shrink to a "resolved on …" note,
        while the register keeps the whole story."""
        c = view.contradiction
        settled = view.settled
        word = self.doc.vocabulary.word("dispositions", view.disposition)
        kind = (word.kind if word else None) or labels.CALLOUT_KIND
        if view.is_open:
            style = (word.style if word else None) or (
                "danger" if view.disposition in (BLOCKED, DISCARDED) else "warning"
            )
        else:
            style = "success" if view.status is Status.resolved else "note"
        disposition = self.doc.vocabulary.label("dispositions", view.disposition)
        register = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        register_link = (
            f' · <a href="{esc(register)}">{labels.CONTRADICTION_REGISTER_LINK}</a>' if register[0] != "#" else ""
        )
        when = ""
        if settled:
            brief, update = settled
            when = f"（{brief.date.isoformat()}）"
            if update.outcome is not None:
                when = labels.OUTCOME.format(outcome=esc(update.outcome.label)) + when
        head = {
            "view": view,
            "id": view.id,
            "state": view.status.value,
            "code": view.disposition,
            "sections": " ".join(view.sections),
            "searched_elsewhere": self.linker.page != self.layout.contradiction_page(view),
            "style": style,
            "open": view.is_open,
            "anchor": self.anchor_id("contradiction-" + view.id),
            "kind": kind,
            "name": Markup(self.contradiction_name(view)),
            "title": Markup(self.text(c.title, quote=view, links=False)),
            "disposition": disposition if disposition != kind else "",
            "status": view.status.label,
            "when": Markup(when),
        }
        if compact and settled:
            brief, update = settled
            note = f"<p>{self.text(update.text, quote=view)}（{self.brief_link(brief)}）{register_link}</p>"
            return self.render("callout.html", **head, compact=Markup(note))
        touched = []
        if view.sections:
            touched.append(
                labels.CONTRADICTION_TOUCHES + labels.LIST_SEP.join(self.section_link(s) for s in view.sections)
            )
        if c.touches.items:
            items = [self.item_link(i) + self._item_level_tag(i) for i in c.touches.items if i in self.doc.items]
            touched.append(labels.CONTRADICTION_ITEMS + labels.LIST_SEP.join(items))
        cited = sorted({arxiv_key(a) for a in c.touches.citations} | set(ARXIV_MENTION.findall(f"{c.title} {c.text}")))
        cited_views = [self.doc.citations[k] for k in cited if k in self.doc.citations]
        if cited_views:  # the summary holds no link (it is itself a control): the citations go here
            touched.append(labels.CONTRADICTION_CITES + labels.LIST_SEP.join(self.cite(v) for v in cited_views))
        if c.materials:  # where in the round's materials it was read: provenance, as an item's sources
            touched.append(
                labels.CONTRADICTION_MATERIALS
                + labels.LIST_SEP.join(self.material(m.path, m.anchor) for m in c.materials)
            )
        withheld = ""
        if c.withheld:
            note = (
                labels.WITHHELD_CLAIMS_OPEN
                if view.is_open
                else labels.WITHHELD_CLAIMS_CORRECTED
                if view.corrected  # the claim was wrong: it stays withheld for good
                else labels.WITHHELD_CLAIMS_SETTLED
            )
            withheld = (
                f'<p class="digest-withheld-claims"{"" if view.is_open else NOT_SEARCHED}><strong>{labels.WITHHELD_CLAIMS}</strong>{note}：'
                + labels.LIST_SEP.join(
                    f'<mark data-withheld-claim="{esc(c.id)}">{self.text(w.text, quote=view)}</mark>'
                    for w in c.withheld
                )
                + "</p>"
            )
        label = (
            f'<p class="digest-required-label"><strong>{labels.REQUIRED_LABEL}</strong>：'
            f"{self.text(c.required_label, quote=view)}</p>"
            if c.required_label
            else ""
        )
        story = ""
        if view.history:
            rows = []
            for brief, update in view.history:
                successor = self.doc.contradiction(update.superseded_by) if update.superseded_by else None
                then = labels.SUPERSEDED_BY.format(successor=self.contradiction_link(successor)) if successor else ""
                outcome = labels.OUTCOME.format(outcome=esc(update.outcome.label)) if update.outcome else ""
                corrections = "".join(
                    '<br><span class="digest-correction"'
                    + (f' data-figure="{esc(x.key)}"' if x.key else "")  # a claim correction names no figure
                    + ">"
                    + labels.CORRECTION.format(
                        label=self.text(f"{x.label} " if x.label else ""),
                        old=self.text(f"{x.old} {x.unit}" if x.unit else str(x.old), quote=view),
                        new=self.text(f"{x.new} {x.unit}" if x.unit else str(x.new)),
                        reason=self.text(x.reason, quote=view),
                    )
                    + "</span>"
                    for x in update.corrections
                )
                rows.append(
                    f'<li data-change="{update.change.value}"'
                    + (f' data-outcome="{update.outcome.value}"' if update.outcome else "")
                    + f">{self.brief_link(brief)} · {esc(update.change.label)}{outcome}："
                    f"{self.text(update.text, quote=view)}{then}{corrections}</li>"
                )
            story = f'<ol class="digest-contradiction__history"{NOT_SEARCHED}>' + "".join(rows) + "</ol>"
        meta = labels.SEP.join([*touched, labels.CONTRADICTION_SOURCE + self.brief_link(view.brief)]) + register_link
        return self.render(
            "callout.html",
            **head,
            compact=None,
            text=Markup(self.text(c.text, quote=view)),
            withheld=Markup(withheld),
            required=Markup(label),
            story=Markup(story),
            meta=Markup(meta),
        )

    def filter_form(
        self, target: str, label: str, total: int, fields: list[tuple[str, str, list[tuple[str, str, int]]]]
    ) -> str:
        """A filter bar over the page's ``total`` records (``target``), by the data-* attributes named
        in ``fields`` (``filter.html``).  A field whose one choice would keep every record is left
        out, and with no field left there is no bar."""
        kept = [f for f in fields if len(f[2]) > 1 or (f[2] and f[2][0][2] < total)]
        if not kept:
            return ""
        return self.render(
            "filter.html",
            target=target,
            label=label,
            fields=kept,
            all_label=labels.FILTER_ALL,
            count_format=labels.FILTER_COUNT,
            reset_label=labels.FILTER_RESET,
        )

    def _section_status(self, entries: Sequence[EntryView]) -> list[Block]:
        """A section's own "last updated / next check" line (as Our World in Data's panels have):
        how many entries, when one last changed and in which brief, and the follow-ups still open on
        them with the round that checks them next.  Kept out of the search index."""
        dated = [e.last_brief for e in entries if e.last_brief is not None]
        if not dated:
            return []
        last = max(dated, key=lambda b: (b.date, b.id))
        text = labels.SECTION_STATUS.format(count=len(entries), date=last.date.isoformat(), brief=self.brief_link(last))
        pending = sorted(  # in the follow-up list's order: the link goes to the first
            {
                f.follow_up.id: f
                for e in entries
                if e.item is not None
                for f in self.doc.follow_ups_by_item.get(e.item.id, [])
                if f.pending
            }.values(),
            key=lambda f: (f.brief.date, f.brief.id, f.follow_up.number),
        )
        if pending:
            rounds = sorted({f.follow_up.round for f in pending})
            href = self.linker.url(self.layout.follow_up_page(pending[0]), f"follow-up-{pending[0].follow_up.id}")
            count = f'<a href="{esc(href)}">{len(pending)}</a>'
            text += labels.SECTION_NEXT_CHECK.format(
                count=count,
                rounds=labels.LIST_SEP.join(labels.SECTION_NEXT_CHECK_ROUND.format(round=esc(r)) for r in rounds),
            )
        return [Raw(f'<p class="digest-section-status" data-search-exclude>{text}</p>')]

    def _section_filter(self, entries: Sequence[EntryView]) -> list[Block]:
        """A section page's filter: by evidence level (in rank order, then 活文档既有) and by what the
        latest brief did (新 / 有更新)."""
        words = self.doc.vocabulary
        known = words.words("evidence_levels")
        levels = Counter(_level_of(e) for e in entries)
        level_options = [(code, words.label("evidence_levels", code), levels[code]) for code in known if levels[code]]
        level_options += [(c, c, n) for c, n in sorted(levels.items()) if c and c != BASELINE and c not in known]
        if levels[BASELINE]:
            level_options.append((BASELINE, labels.BASELINE_BADGE, levels[BASELINE]))
        fresh = Counter(self.fresh(e) for e in entries)
        fresh_options = [(code, word, fresh[code]) for code, word in labels.FRESH.items() if fresh[code]]
        fields = [("level", labels.FILTER_LEVEL, level_options), ("fresh", labels.FILTER_FRESH, fresh_options)]
        form = self.filter_form(".digest-entry", labels.FILTER_SECTION, len(entries), fields)
        return [Raw(form)] if form else []

    # ------------------------------------------------------------------ pages

    def section(self, number: str, month: str | None = None) -> list[Block]:
        """A top-level section (§N with its subsections) or one subsection: the current entries,
        or with ``month`` (``2027-05``) the entries whose last change fell in that archived month."""
        blocks: list[Block] = []
        top = self.doc.sections[number]
        views = [top] if "." in number else [top, *self.doc.children(number)]
        shown = self.layout.section_entries(number, month)
        here = [e for v in views for e in shown[v.number]]
        if month is None:
            blocks += self._section_status(here)
        blocks += self._section_filter(here)
        if "." in number:
            return blocks + self._section_body(top, month, shown[number])
        if month is None:
            blocks += self._archive_links(number)
        blocks += self._section_body(top, month, shown[number])
        for child in views[1:]:
            body = self._section_body(child, month, shown[child.number])
            if body or month is None:
                blocks.append(Heading(2, self._section_anchor(child.number), self.plain(section_title(child))))
                blocks += body
        return blocks

    @staticmethod
    def _section_anchor(number: str) -> str:
        anchor = section_anchor(number)
        assert anchor is not None, "only a sub-section has a heading of its own"
        return anchor

    def section_origin(self, view: SectionView) -> str:
        """Under a section a brief opened: which brief, linked to its page; and the titles it had
        before a brief renamed it ('' for an outline section never renamed)."""
        if view.opened_by is None:
            return ""
        origin = labels.SECTION_OPENED.format(brief=self.brief_link(view.opened_by))
        return f'<p class="digest-section__origin" data-opened-by="{esc(view.opened_by.id)}">{origin}</p>'

    def former_titles(self, view: SectionView) -> str:
        """The titles a section had before a brief renamed it (its number and anchors stay)."""
        return "".join(
            f'<p class="digest-section__renamed">'
            f"{labels.SECTION_FORMER_TITLE.format(title=self.text(title or ''), brief=self.brief_link(b))}</p>"
            for title, b in view.former_titles
        )

    def _archive_links(self, number: str) -> list[Block]:
        months = self.layout.archive_months.get(number, [])
        if not months:
            return []
        counts = Counter(
            self.layout.entry_month(e) for e in self.doc.entries.values() if e.section.split(".")[0] == number
        )
        links = self._by_year(
            months,
            lambda m: (
                f'<a href="{esc(self.linker.url(section_page(self.doc.topic, number, m)))}">'
                f"{labels.ARCHIVE_SECTION_MONTH.format(month=int(m[5:]), count=counts[m])}</a>"
            ),
        )
        text = labels.ARCHIVE_SECTION.format(days=self.doc.archive_after_days, links=links)
        return [Raw(f'<p class="digest-archive-links" data-archive="{esc(number)}">{text}</p>')]

    @staticmethod
    def _by_year(months: list[str], link: Callable[[str], str]) -> str:
        """Links to archive months, newest first, one group per year (ten years: 120 links)."""
        years: dict[str, list[str]] = {}
        for month in reversed(months):
            years.setdefault(month[:4], []).append(link(month))
        return labels.ARCHIVE_YEAR_SEP.join(
            f'<span class="digest-archive-year">'
            f"{labels.ARCHIVE_YEAR.format(year=year, months=labels.LIST_SEP.join(found))}</span>"
            for year, found in years.items()
        )

    def _section_body(self, view: SectionView, month: str | None, here: list[EntryView]) -> list[Block]:
        """Callouts (current page only: open ones in full, recently settled ones folded), entries,
        stubs.  A callout follows the last entry it concerns, so the reader meets the statement
        first and what qualifies it right after; one that concerns no entry here opens the section."""
        callouts = []
        if month is None:
            current = [c for c in view.contradictions if self.layout.contradiction_month(c) is None]
            callouts += [(c, False) for c in current if c.is_open]
            callouts += [(c, True) for c in current if not c.is_open]
        ordered = [e for e in here if not e.footnote] + [e for e in here if e.footnote]
        after: dict[str, list[str]] = {}
        lead: list[str] = []
        touching = {e.id: {c.id for c in self.contradictions_of(e)} for e in ordered} if callouts else {}
        for c, compact in callouts:
            last = next((e.id for e in reversed(ordered) if c.id in touching[e.id]), None)
            (after.setdefault(last, []) if last else lead).append(self.callout(c, compact=compact))
        parts = [self.former_titles(view)] if view.former_titles and month is None else []
        parts += lead
        for e in ordered:
            parts.append(self.entry(e))
            parts += after.get(e.id, [])
        if month is None:
            parts += [self.stub(s) for s in view.stubs]
            parts += [self.moved_out(entry_id, to, b) for entry_id, to, b in view.moved_out]
            if older := self._older_open(view):
                parts.append(older)
        if not parts and month is None and not self.doc.children(view.number):
            parts.append(f'<p class="digest-empty">{labels.SECTION_EMPTY}</p>')
        if not parts:
            return []
        origin = self.section_origin(view) if month is None else ""
        return [
            Raw(
                f'<div class="digest-section" data-section="{esc(view.number)}" data-filter-group>'
                + origin
                + "".join(parts)
                + "</div>"
            )
        ]

    def _older_open(self, view: SectionView) -> str:
        """Where this section's open contradictions that no brief touched within the window are:
        the register's pages of the months they last changed ('' when there are none)."""
        months = Counter(
            m for c in view.contradictions if c.is_open and (m := self.layout.contradiction_month(c)) is not None
        )
        if not months:
            return ""
        links = self._by_year(
            sorted(months),
            lambda m: (
                f'<a href="{esc(self.linker.url(register_page(self.doc.topic, m)))}">'
                f"{labels.ARCHIVE_SECTION_MONTH.format(month=int(m[5:]), count=months[m])}</a>"
            ),
        )
        text = labels.SECTION_OLDER_OPEN.format(
            count=sum(months.values()), days=self.doc.archive_after_days, links=links
        )
        return f'<p class="digest-archive-links" data-older-open="{sum(months.values())}">{text}</p>'

    def contradictions_of(self, entry: EntryView) -> list[ContradictionView]:
        """The contradictions that touch an entry, directly or through its item."""
        related = list(self.doc.contradictions_by_entry.get(entry.id, []))
        if entry.item is not None:
            related += [c for c in self.doc.contradictions_by_item.get(entry.item.id, []) if c not in related]
        return related

    def _month_links(self, kind: str) -> str:
        """Links to the monthly archive pages of the register, bibliography, follow-ups or briefs."""
        months = self.layout.archive_months.get(kind, [])
        if not months:
            return ""
        page = ARCHIVE_PAGES[kind]
        links = self._by_year(
            months,
            lambda m: (
                f'<a href="{esc(self.linker.url(page(self.doc.topic, m)))}">'
                f"{labels.ARCHIVE_MONTH.format(month=int(m[5:]))}</a>"
            ),
        )
        text = labels.ARCHIVE_OTHER.format(
            days=self.doc.archive_after_days, noun=labels.ARCHIVE_NOUNS[kind], links=links
        )
        return f'<p class="digest-archive-links" data-archive="{kind}">{text}</p>'

    def register(self, month: str | None = None) -> list[Block]:
        """Every contradiction with its whole story; settled ones older than the window by month.

        The page opens with its summary and the filter bar (a reader with the script filters in
        place); the counts table and the grouped lists (the same filters as links, for a reader
        without it) follow, the lists folded so they do not fill a phone's first screens."""
        blocks: list[Block] = []
        groups = self.layout.register_groups(month)
        if month is None:
            open_n = sum(c.is_open for c in self.doc.contradictions)
            summary = labels.REGISTER_SUMMARY.format(total=len(self.doc.contradictions), open=open_n)
            older = sum(c.is_open and self.layout.contradiction_month(c) is not None for c in self.doc.contradictions)
            if older:
                summary += labels.OLDER_OPEN.format(count=older, days=self.doc.archive_after_days)
            blocks.append(Raw(f'<p class="digest-summary">{summary}</p>' + self._month_links("register")))
        blocks += self._register_filter([c for _, views in groups for c in views])
        if month is None:
            blocks.append(Raw(self._register_index()))
        for brief, views in groups:
            name = labels.BRIEF_NAME.format(date=brief.date.isoformat(), round=brief.round)
            blocks.append(Heading(2, f"brief-{brief.id}", name))
            callouts = "".join(self.callout(c) for c in views)
            blocks.append(Raw(f'<div class="digest-register-brief" data-filter-group>{callouts}</div>'))
        return blocks

    def _register_filter(self, views: list[ContradictionView]) -> list[Block]:
        """The register page's filter: by status, disposition (vocabulary order) and section."""
        statuses = Counter(v.status for v in views)
        dispositions = Counter(v.disposition for v in views)
        sections = Counter(n for v in views for n in v.sections)
        order = [
            *self.doc.vocabulary.words("dispositions"),
            *sorted(set(dispositions) - set(self.doc.vocabulary.words("dispositions"))),
        ]
        fields = [
            ("state", labels.FILTER_STATUS, [(s.value, s.label, statuses[s]) for s in Status if statuses[s]]),
            (
                "disposition",
                labels.FILTER_DISPOSITION,
                [(d, self.doc.vocabulary.label("dispositions", d), dispositions[d]) for d in order if dispositions[d]],
            ),
            (
                "sections",
                labels.FILTER_SECTIONS,
                [(n, f"§{n}", sections[n]) for n in sorted(sections, key=lambda n: [int(p) for p in n.split(".")])],
            ),
        ]
        form = self.filter_form(".digest-contradiction", labels.FILTER_REGISTER, len(views), fields)
        return [Raw(form)] if form else []

    def _register_index(self) -> str:
        """Counts by disposition and status (all years), then the contradictions of this page grouped
        by status and by section: a reader filters by following a group's links, no script needed."""
        views = list(self.doc.contradictions)
        statuses = list(Status)
        dispositions = [d for d in self.doc.vocabulary.words("dispositions") if any(v.disposition == d for v in views)]
        dispositions += sorted({v.disposition for v in views} - set(dispositions))
        rows = [
            {
                "code": d,
                "word": self.doc.vocabulary.label("dispositions", d),
                "counts": [sum(v.disposition == d and v.status is s for v in views) for s in statuses],
                "total": sum(v.disposition == d for v in views),
            }
            for d in dispositions
        ]

        def group(anchor: str, name: str, members: list[ContradictionView]) -> dict[str, Any]:
            return {
                "anchor": self.anchor_id(anchor),
                "title": labels.REGISTER_GROUP.format(name=name, count=len(members)),
                "links": [Markup(self.contradiction_link(v)) for v in members],
            }

        here = [v for v in views if self.layout.contradiction_month(v) is None]  # the archived: on their month's page
        by_status = [
            group(f"status-{s.value}", s.label, [v for v in here if v.status is s])
            for s in statuses
            if any(v.status is s for v in here)
        ]
        by_disposition = [
            group(
                f"disposition-{d}",
                self.doc.vocabulary.label("dispositions", d),
                [v for v in here if v.disposition == d],
            )
            for d in dispositions
            if any(v.disposition == d for v in here)
        ]
        sections = sorted({n for v in here for n in v.sections}, key=lambda n: [int(p) for p in n.split(".")])
        by_section = [group(f"section-{n}", f"§{n}", [v for v in here if n in v.sections]) for n in sections]
        return self.render(
            "register_index.html",
            statuses=[(s.value, s.label) for s in statuses],
            rows=rows,
            groups=[
                (labels.REGISTER_BY_STATUS, by_status),
                (labels.REGISTER_BY_DISPOSITION_GROUPS, by_disposition),
                (labels.REGISTER_BY_SECTION, by_section),
            ],
            by_disposition=labels.REGISTER_BY_DISPOSITION,
            total_label=labels.REGISTER_TOTAL,
            groups_label=labels.REGISTER_GROUPS,
            list_sep=labels.LIST_SEP,
        )

    def bibliography(self, month: str | None = None) -> list[Block]:
        doc = self.doc
        rows = []
        if month is None:
            rows.append(
                '<p class="digest-summary">'
                + labels.BIBLIOGRAPHY_SUMMARY.format(
                    existing=doc.outline.doc.reference_count or 0,
                    version=self.text(doc.outline.doc.version or ""),
                    added=len(doc.citations),
                    first=(doc.outline.doc.reference_count or 0) + 1,
                )
                + "</p>"
                + self._month_links("bibliography")
            )
        rows += [self.reference(view) for view in self.layout.citations_in(month)]
        return [Raw("".join(rows))]

    def reference(self, view: CitationView, *, back_links: bool = True, level: int = 2) -> str:
        c = view.citation
        meta = []
        if c.year:
            meta.append(f"{c.year}")
        meta += [self.cited_by(x) for x in view.latest_counts]
        if c.openalex_id:
            meta.append(labels.REFERENCE_OPENALEX.format(id=self.text(c.openalex_id)))
        if c.doi:
            link = f'<a href="https://doi.org/{esc(url_quote(c.doi, safe="/:;()+"))}" rel="{OUTBOUND_REL}">{self.text(c.doi, links=False)}</a>'
            meta.append(labels.REFERENCE_DOI.format(link=link))
        if view.withdrawn_in is not None:
            meta.insert(
                0,
                labels.REFERENCE_WITHDRAWN.format(
                    date=view.withdrawn_in.date.isoformat(), brief=self.brief_link(view.withdrawn_in)
                ),
            )
        if c.oa_status:
            explained = labels.OPEN_ACCESS.get(c.oa_status)  # OpenAlex's own closed set of words
            word = self.text(c.oa_status)
            status = labels.REFERENCE_OA_EXPLAINED.format(word=word, explained=explained) if explained else word
            meta.append(labels.REFERENCE_OA.format(status=status))
        if c.card:
            meta.append(
                labels.REFERENCE_CARD.format(path=self.material(c.card))
                + (labels.REFERENCE_CARD_TOPIC.format(topic=self.text(c.card_topic)) if c.card_topic else "")
            )
        meta.append(labels.REFERENCE_VERIFIED if c.verified else labels.REFERENCE_UNVERIFIED)
        note = (
            f'<p class="digest-ref__note">{labels.REFERENCE_USE.format(note=self.located(self.text(c.use_note), view.brief))}</p>'
            if c.use_note
            else ""
        )
        if view.earlier_counts:  # refreshed by a later brief: the earlier counts stay, as history
            earlier = labels.CLAUSE_SEP.join(self.cited_by(x) for x in view.earlier_counts)
            note += f'<p class="digest-ref__history"{NOT_SEARCHED} data-earlier-counts="{len(view.earlier_counts)}">{labels.FIGURE_EARLIER}{earlier}</p>'

        if c.down_weighted_by:
            dw = self.doc.contradiction(c.down_weighted_by)
            if dw:
                warning = labels.REFERENCE_DOWN_WEIGHTED.format(contradiction=self.contradiction_link(dw))
                note += f'<p class="digest-ref__down" data-down-weighted="true">{warning}</p>'
        back = (
            [
                Markup(
                    f'<a class="digest-backlink" href="{esc(self.linker.url(p.page, p.anchor or None))}">'
                    f"↩ {self.text(p.label, links=False)}</a>"
                )
                for p in self.layout.cited_at(arxiv_key(c.arxiv))
            ]
            if back_links
            else None
        )
        return self.render(
            "reference.html",
            view=view,
            number=view.number,
            anchor=self.anchor_id(f"ref-{view.number}"),
            level=level,
            key=arxiv_key(c.arxiv),
            title=c.title,
            cite=Markup(self.cite(view, number=False, card=False)),
            meta=[Markup(m) for m in meta],
            sep=labels.SEP,
            from_brief=Markup(labels.REFERENCE_FROM.format(brief=self.brief_link(view.brief))),
            note=Markup(note),
            back_links=back,
            back_label=labels.REFERENCE_BACK,
            list_sep=labels.LIST_SEP,
        )

    def follow_ups(self, month: str | None = None) -> list[Block]:
        """Pending follow-ups (open or carried over) first, then the closed ones with how they
        closed: those that changed within the window, or (``month``) those whose last change fell
        in that archived month."""
        here = self.layout.follow_ups_in(month)
        pending = [f for f in here if f.pending]
        closed = [f for f in here if not f.pending]
        blocks: list[Block] = []
        if month is None:
            all_pending = self.doc.open_follow_ups()
            total_closed = len(self.doc.follow_ups) - len(all_pending)
            summary = labels.FOLLOW_UPS_SUMMARY.format(pending=len(all_pending), closed=total_closed)
            if len(all_pending) > len(pending):
                summary += labels.OLDER_PENDING.format(
                    count=len(all_pending) - len(pending), days=self.doc.archive_after_days
                )
            blocks.append(Raw(f'<p class="digest-summary">{summary}</p>' + self._month_links("follow-ups")))
        if pending or month is None:
            blocks.append(
                Raw(
                    '<ol class="digest-follow-ups" data-list="pending">'
                    + "".join(self.follow_up(f) for f in pending)
                    + "</ol>"
                    if pending
                    else f'<p class="digest-empty">{labels.FOLLOW_UPS_NONE}</p>'
                )
            )
        if closed:
            if pending or month is None:
                blocks.append(Heading(2, "closed", labels.FOLLOW_UPS_CLOSED))
            blocks.append(
                Raw(
                    '<ol class="digest-follow-ups" data-list="closed">'
                    + "".join(self.follow_up(f) for f in closed)
                    + "</ol>"
                )
            )
        return blocks

    def follow_up(self, view: FollowUpView) -> str:
        fu = view.follow_up
        items = labels.LIST_SEP.join(self.item_link(i) for i in fu.items if i in self.doc.items)
        story = "".join(
            f"{labels.CLAUSE_SEP}{self.brief_link(b)} {esc(u.status.label)}"
            + (f"：{self.text(u.note)}" if u.note else "")
            for b, u in view.history
        )
        meta = labels.FOLLOW_UP_META.format(
            status=esc(view.status.label),
            brief=self.brief_link(view.brief),
            items=labels.FOLLOW_UP_ITEMS.format(items=items) if items else "",
            story=story,
        )
        return self.render(
            "follow_up.html",
            view=view,
            id=fu.id,
            anchor=self.anchor_id("follow-up-" + fu.id),
            status=view.status.value,
            pending=view.pending,
            round=fu.round,
            text=fu.text,
            meta=Markup(meta),
        )

    def changes(self, brief: Brief) -> str:
        """Exactly what one brief did to the living doc, each with a link to where it happened."""
        ch = self.doc.changes[brief.id]
        rows: list[dict[str, Any]] = []
        for name in CHANGE_KINDS:
            label, ids = labels.CHANGE_KINDS[name], ch.of(name)
            if not ids:
                continue
            if name == "sections_opened":
                links = [
                    f"{self.section_link(str(n))} {self.text(self.doc.sections[str(n)].section.title or '', links=False)}"
                    for n in ids
                ]
            elif name == "citations_added":
                by_number = {v.number: v for v in self.doc.citations_by_brief.get(brief.id, [])}
                links = [
                    f'<a href="{esc(self.linker.url(self.layout.citation_page(by_number[n]), f"ref-{n}"))}">[{n}]</a>'
                    for n in ch.citations_added
                ]
            elif name.startswith("entries") or name == "evidence_changed":
                links = [self.entry_link(str(i)) for i in ids]
            elif name.startswith("contradictions"):
                views = (self.doc.contradiction(str(i)) for i in ids)
                links = [self.contradiction_link(v) for v in views if v is not None]
            else:
                links = []  # a follow-up by what it says, not by its id
                for i in ids:
                    view = self.doc.follow_up(str(i))
                    href = self.linker.url(self.layout.follow_up_page(view), f"follow-up-{i}")
                    links.append(f'<a href="{esc(href)}">{self.text(view.follow_up.text, links=False)}</a>')
            row = labels.CHANGE_ROW.format(label=label, count=len(ids), links=labels.LIST_SEP.join(links))
            rows.append({"kind": name, "count": len(ids), "text": Markup(row)})
        return self.render("changes.html", rows=rows, empty=labels.NO_CHANGES)

    def errata(self, brief: Brief) -> str:
        """The errata this brief makes of earlier ones, and those later briefs made of it."""
        rows = []
        for e in brief.errata:
            earlier = self.doc.briefs_by_id.get(e.brief)
            target = self.brief_link(earlier) if earlier else esc(e.brief)
            if e.item is not None and e.item in self.doc.items:
                target = self.item_link(e.item)
            rows.append(
                labels.BRIEF_ERRATUM_MADE.format(
                    target=target, old=self.text(e.old), new=self.text(e.new), text=self.text(e.text)
                )
            )
        for later in self.doc.briefs:
            for e in later.errata:
                if e.brief != brief.id:
                    continue
                item = f" {self.item_link(e.item)}" if e.item is not None and e.item in self.doc.items else ""
                rows.append(
                    labels.BRIEF_ERRATUM_RECEIVED.format(
                        brief=self.brief_link(later),
                        item=item,
                        old=self.text(e.old),
                        new=self.text(e.new),
                        text=self.text(e.text),
                    )
                )
        return "".join(f'<p class="digest-erratum">{row}</p>' for row in rows)

    def questions(self, brief: Brief) -> str:
        """The importer's open questions on this brief: what is asked, what is published meanwhile,
        the candidates (the brief's words and ids, escaped like all brief text)."""
        rows = []
        for qu in brief.questions:
            choices = "".join(f"<li>{self.text(c.label, links=False)}</li>" for c in qu.choices)
            context = f'<p class="digest-question__context">「{self.text(qu.context)}」</p>' if qu.context else ""
            rows.append(
                f'<li class="digest-question" data-question="{esc(qu.id)}"><p><strong>{labels.PENDING}</strong>：'
                f"{self.text(qu.ask)}</p>{context}"
                f"<p>{labels.BRIEF_QUESTION_READING}{self.text(qu.reading)}</p>"
                f"<p>{labels.BRIEF_QUESTION_CHOICES}</p><ol>{choices}</ol></li>"
            )
        return f'<ul class="digest-questions">{"".join(rows)}</ul>'

    def entry_link(self, entry_id: str) -> str:
        entry = self.doc.entries[entry_id]
        href = self.linker.url(self.layout.entry_page(entry.id), f"entry-{entry.id}")
        return f'<a href="{esc(href)}">§{esc(entry.section)} {self.text(entry.title, links=False)}</a>'

    def brief(self, brief_id: str) -> list[Block]:
        """The day as published: header, items (with where they went), contradictions, citations, conclusions."""
        brief = self.doc.briefs_by_id[brief_id]
        blocks: list[Block] = [Raw(self._brief_header(brief))]
        blocks.append(Heading(2, "changes", labels.BRIEF_CHANGES))
        blocks.append(Raw(self.changes(brief)))
        if brief.questions:
            blocks.append(Heading(2, "questions", labels.BRIEF_QUESTIONS.format(count=len(brief.questions))))
            blocks.append(Raw(self.questions(brief)))
        if errata := self.errata(brief):
            blocks.append(Heading(2, "errata", labels.BRIEF_ERRATA))
            blocks.append(Raw(errata))
        heading = labels.BRIEF_ITEMS.format(heading=self.plain(brief.items_heading or labels.BRIEF_ITEMS_DEFAULT))
        blocks.append(Heading(2, "items", heading))
        parts = []
        for item in sorted(brief.items, key=lambda i: i.number):
            _, _, entry_id = self.doc.items[item.id]
            placed_label, placed_text = labels.BRIEF_ITEM_PLACED, f"§{item.placement.section}"
            if not item.placement.action.places:  # kept out of the doc: the word says so, the link stays here
                placed_label, placed_text = labels.BRIEF_ITEM_NOT_PLACED, item.placement.action.label
            if (duplicate_of := item.placement.duplicate_of) is not None and duplicate_of in self.doc.items:
                earlier = self.doc.items[duplicate_of]
                placed = self.linker.url(brief_page(earlier.brief), f"item-{earlier.item.id}")
                placed_text = labels.BRIEF_ITEM_DUPLICATE.format(
                    date=earlier.brief.date.isoformat(), number=earlier.item.number
                )
            elif entry_id in self.doc.entries:
                placed = self.linker.url(self.layout.entry_page(entry_id), f"entry-{entry_id}")
            else:  # a discard-level item, or one kept out of the doc: here, not on a section page
                placed = self.linker.url(brief_page(brief), f"item-{item.id}")
            parts.append(
                self.render(
                    "item.html",
                    item=item,
                    brief=brief,
                    item_id=item.id,
                    section=item.placement.section,
                    brief_id=brief.id,
                    anchor=self.anchor_id("item-" + item.id),
                    number_title=Markup(
                        labels.BRIEF_ITEM_TITLE.format(number=item.number, title=self.text(item.title))
                    ),
                    placed=placed,
                    placed_label=placed_label,
                    placed_text=placed_text,
                    searched_elsewhere=self.doc.items[item.id].entry_id in self.doc.entries,
                    body=Markup(self.item_body(item, brief, "brief-" + item.id)),
                )
            )
        blocks.append(Raw("".join(parts)))
        blocks.append(Heading(2, "contradictions", labels.BRIEF_CONTRADICTIONS))
        said = "".join(
            f'<p class="digest-contradictions-note">{self.text(line)}</p>'
            for line in (brief.contradictions_note or "").split("\n")
            if line.strip()
        )  # what part 二 says outside its list: 「延续：…」, 「今日无矛盾。」
        callouts = "".join(self.callout(c) for c in self.doc.contradictions_by_brief.get(brief.id, []))
        blocks.append(Raw(callouts + said or f'<p class="digest-empty">{labels.EMPTY_NONE}</p>'))
        blocks.append(Heading(2, "citations", labels.BRIEF_CITATIONS))
        # every paper the brief lists, also one cited before (its number kept, its counts refreshed)
        listed = dict.fromkeys(arxiv_key(c.arxiv) for c in brief.citations)
        cites = [self.doc.citations[k] for k in listed if k in self.doc.citations]
        note = brief.citations_note
        parts = [f"<p>{labels.BRIEF_CITATIONS_NOTE.format(note=self.text(note))}</p>"] if note else []
        parts += [self.reference(v, back_links=False, level=3) for v in cites]
        # the bibliography is where a search finds them, not this copy
        parts = [f"<div{NOT_SEARCHED}>{''.join(parts)}</div>"] if parts else []
        if brief.citations_not_registered:
            parts.append(f'<p class="digest-not-registered">{self.text(brief.citations_not_registered)}</p>')
        blocks.append(Raw("".join(parts) or f'<p class="digest-empty">{labels.EMPTY_NONE}</p>'))
        blocks.append(Heading(2, "conclusions", labels.BRIEF_CONCLUSIONS))
        parts = [
            f'<ul class="digest-conclusions"{NOT_SEARCHED}>'
            + "".join(f"<li>{self.text(c)}</li>" for c in brief.conclusions)
            + "</ul>"
        ]
        if brief.follow_ups:
            parts.append(
                f'<p><strong>{self.text(brief.follow_ups_heading or labels.BRIEF_FOLLOW_UPS_DEFAULT)}</strong></p><ol class="digest-follow-ups"{NOT_SEARCHED}>'
                + "".join(
                    f'<li data-follow-up="{esc(f.id)}" data-status="{f.status.value}">{esc(f.round)} · {self.text(f.text)}（{esc(f.status.label)}）</li>'
                    for f in sorted(brief.follow_ups, key=lambda f: f.number)
                )
                + "</ol>"
            )
        blocks.append(Raw("".join(parts)))
        if self._brief_searched(brief):
            return blocks
        return [
            replace(b, searched=False) if isinstance(b, Heading) else Raw(f"<div{NOT_SEARCHED}>{b.html}</div>")
            for b in blocks
        ]

    def _brief_searched(self, brief: Brief) -> bool:
        """Whether a brief's page holds something a reader searches for that lives nowhere else: an
        item kept off the §-pages, the importer's questions, errata (its contradictions live on the
        register, its citations in the bibliography, its follow-ups on their own page)."""
        if brief.questions or brief.errata:
            return True
        return any(self.doc.items[item.id].entry_id not in self.doc.entries for item in brief.items)

    def _brief_header(self, brief: Brief) -> str:
        head = labels.BRIEF_HEADER
        rows = [
            (head["topic"], esc(brief.topic)),
            (head["round"], esc(brief.round) + (f"（{self.text(brief.round_label)}）" if brief.round_label else "")),
            (head["date"], brief.date.isoformat() + (f" {self.text(brief.written_at)}" if brief.written_at else "")),
        ]
        if brief.author:
            rows.append((head["author"], self.text(brief.author)))
        job = brief.job
        if job.checklist or job.job_id or job.item:
            rows.append(
                (
                    head["job"],
                    labels.SEP.join(
                        self.text(x)
                        for x in (
                            job.checklist,
                            labels.JOB_ID.format(id=job.job_id) if job.job_id else None,
                            labels.JOB_ITEM.format(item=job.item) if job.item else None,
                        )
                        if x
                    ),
                )
            )
        if brief.materials or brief.materials_note:
            mats = "".join(f"<li>{self.material(m.path, m.anchor)}</li>" for m in brief.materials)
            rows.append(
                (
                    head["materials"],
                    (self.text(brief.materials_note) if brief.materials_note else "")
                    + (f"<ul>{mats}</ul>" if mats else ""),
                )
            )
        for label, ref in ((head["living_doc"], brief.living_doc), (head["queue"], brief.queue)):
            if ref:
                version = self.text(ref.version) if ref.version else ""
                count = (
                    labels.BRIEF_REF_COUNT.format(count=ref.reference_count) if ref.reference_count is not None else ""
                )
                extra = f"（{version}{count}）" if version or count else ""
                rows.append((label, f"{self.material(ref.path)}{extra}"))
        if brief.scope:
            rows.append((head["scope"], self.text(brief.scope)))
        counts = labels.BRIEF_COUNTS.format(
            items=len(brief.items),
            contradictions=len(brief.contradictions),
            citations=len(brief.citations),
            follow_ups=len(brief.follow_ups),
        )
        return self.render(
            "brief_header.html",
            brief=brief,
            id=brief.id,
            title=brief.title,
            summary=labels.BRIEF_META,
            rows=[(Markup(k), Markup(v)) for k, v in rows],
            counts=Markup(counts),
        )

    def timeline(self, briefs: Sequence[Brief]) -> str:
        """Newest first: each brief with the counts of what it changed."""
        rows = []
        for b in sorted(briefs, key=lambda b: (b.date, b.id), reverse=True):
            counts = self.doc.changes[b.id].counts()
            shown = " · ".join(f"{labels.CHANGE_KINDS[name]} {counts[name]}" for name in CHANGE_KINDS if counts[name])
            rows.append(
                f'<li data-brief="{esc(b.id)}">{self.brief_link(b)} · {self.text(b.title)}'
                f'<span class="digest-timeline__counts">{(" · " + shown) if shown else ""}</span></li>'
            )
        return (
            '<ol class="digest-timeline" reversed>' + "".join(rows) + "</ol>"
            if rows
            else f'<p class="digest-empty">{labels.NO_BRIEFS}</p>'
        )

    def briefs_index(self, month: str | None = None) -> list[Block]:
        briefs = self.layout.briefs_in(month)
        head = self._month_links("briefs") if month is None else ""
        return [Raw(head + self.timeline(briefs)), Raw(self._feed_link())]

    def _feed_link(self) -> str:
        return f'<p><a class="digest-feed" href="{esc(self.linker.url(feed_page(self.doc.topic)))}" type="application/atom+xml">{labels.FEED_LINK}</a></p>'

    def overview(self) -> list[Block]:
        """The topic at a glance: today's brief, open contradictions and follow-ups, counts, the timeline."""
        doc = self.doc
        latest = doc.briefs[-1] if doc.briefs else None
        open_c = [c for c in doc.contradictions if c.is_open]
        parts = [f'<div class="digest-overview" data-topic="{esc(doc.topic)}"><ul>']
        if latest:
            latest_text = labels.OVERVIEW_LATEST.format(brief=self.brief_link(latest), counts=self._counts_text(latest))
            parts.append(f"<li>{latest_text}</li>")
        parts.append(
            f"<li>{labels.OVERVIEW_OPEN}"
            f'<a href="{esc(self.linker.url(register_page(doc.topic)))}">'
            f"{labels.OVERVIEW_OPEN_COUNT.format(count=len(open_c))}</a></li>"
        )
        parts.append(
            f"<li>{labels.OVERVIEW_FOLLOW_UPS}"
            f'<a href="{esc(self.linker.url(follow_ups_page(doc.topic)))}">'
            f"{labels.OVERVIEW_FOLLOW_UPS_COUNT.format(count=len(doc.open_follow_ups()))}</a></li>"
        )
        parts.append(
            f"<li>{labels.OVERVIEW_REFERENCES}"
            f'<a href="{esc(self.linker.url(bibliography_page(doc.topic)))}">'
            f"{labels.OVERVIEW_REFERENCES_COUNT.format(count=doc.reference_count)}</a>"
            f"{labels.OVERVIEW_REFERENCES_ADDED.format(count=len(doc.citations))}</li>"
        )
        parts.append(
            f"<li>{labels.OVERVIEW_BRIEFS}"
            f'<a href="{esc(self.linker.url(briefs_index_page(doc.topic)))}">'
            f"{labels.OVERVIEW_BRIEFS_COUNT.format(count=len(doc.briefs))}</a></li></ul>"
        )
        parts.append(
            '<table class="digest-counts" data-search-exclude><thead><tr>'
            + "".join(f"<th>{head}</th>" for head in labels.OVERVIEW_TABLE_HEAD)
            + "</tr></thead><tbody>"
        )
        counts = []
        for top in doc.top_sections():
            group = [top, *doc.children(top.number)]
            n_entries = sum(1 for s in group for e in s.entries if not e.retracted)
            n_open = len({c.id for s in group for c in s.contradictions if c.is_open})
            counts.append((f"§{top.number}", n_entries, n_open))
            parts.append(
                f'<tr data-section="{esc(top.number)}"><td>{self.section_link(top.number)} '
                f"{self.text(top.section.title or self.layout.titles.get(top.number, ''))}</td>"
                f"<td>{n_entries}</td><td>{n_open}</td></tr>"
            )
        parts.append("</tbody></table>")
        parts.append(bars(labels.OVERVIEW_CHART, counts))
        if open_c:
            parts.append(
                f'<p><strong>{labels.OVERVIEW_OPEN_LIST}</strong></p><ul class="digest-open-contradictions">'
                + "".join(
                    f"<li>{self.contradiction_link(c)} · {self.text(c.contradiction.title)}（{self.word('dispositions', c.disposition)}）</li>"
                    for c in open_c
                )
                + "</ul>"
            )
        parts.append(
            f"<p><strong>{labels.OVERVIEW_TIMELINE}</strong></p>"
            + self.timeline(doc.briefs[-30:])
            + self._feed_link()
            + "</div>"
        )
        return [Raw("".join(parts))]

    def _counts_text(self, brief: Brief) -> str:
        counts = self.doc.changes[brief.id].counts()
        return (
            " · ".join(f"{labels.CHANGE_KINDS[name]} {counts[name]}" for name in CHANGE_KINDS if counts[name])
            or labels.NO_CHANGES_SHORT
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


def section_title(view: SectionView) -> str:
    """'§3.1 调度算法与 JIL 攻击', or '§4（未命名）' where no brief has given the section a title."""
    s = view.section
    if s.title:
        return labels.SECTION_TITLE.format(number=s.number, title=s.title)
    return labels.SECTION_UNTITLED.format(number=s.number)


POSITIONAL = re.compile(labels.POSITIONAL_REFERENCE)
SENTENCE_STOPS = "。；！？"
GUARD_MARK_CHARS = "⚠ \ufe0f"


def without_guards(text: str, guards: Sequence[str]) -> str:
    """The placement text less the guards it states as sentences (or clauses after a ；) of their
    own: the guard list right under it says them once, marked ⚠.  A guard that is only part of a
    sentence (「并显式声明「…」」) is left where it is, so no sentence is broken."""
    for guard in guards:
        core = guard.strip().lstrip(GUARD_MARK_CHARS).rstrip(SENTENCE_STOPS).strip()
        if not core:
            continue
        start = text.find(core)
        if start < 0:
            continue
        end = start + len(core)
        before = text[:start].rstrip(GUARD_MARK_CHARS)
        after = text[end:]
        if (before and before[-1] not in SENTENCE_STOPS) or (after and after[0] not in SENTENCE_STOPS):
            continue
        after = after[1:]  # its own full stop (or nothing, at the end)
        if not (before + after).strip(" ；。"):  # the whole placement: it stays, said twice
            continue
        if before.endswith("；"):  # the clause after a ； goes: the sentence before it ends there
            before = before[:-1] + "。"
        text = before + after
    return text


BASELINE = "baseline"
"""The level a section page's filter gives an entry the living doc already had (its badge: labels.BASELINE_BADGE)."""


def _level_of(entry: EntryView) -> str:
    """An entry's evidence level for the filter: its current one, 活文档既有 for a baseline entry."""
    evidence = entry.current_evidence
    if entry.item is not None and evidence is not None:
        return evidence.level
    return BASELINE if entry.baseline is not None else ""


def _assessed_in(entry: EntryView) -> Brief | None:
    """The brief whose evidence update of the entry's item gave it its current evidence (None: the
    item's own, as its brief assessed it)."""
    item = entry.item
    if item is None or entry.evidence is item.evidence:
        return None
    return next(
        (
            u.brief
            for u in reversed(entry.history)
            if u.kind == "evidence" and u.item is not None and u.item.id == item.id and u.evidence == entry.evidence
        ),
        None,
    )
