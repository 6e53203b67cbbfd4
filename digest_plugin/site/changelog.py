"""The changes pages (issue 32): what each night did to the living doc, a month to a page.

Night D's section holds what the doc after D's briefs differs by from the doc after the night
before, kind by kind (:mod:`..core.changes`), from one pass of the merge (:mod:`..core.nights`), so
ten years cost a few seconds rather than two merges a night.  A month to a page, because a themed
page a night would add ten years of page chrome to the site; each night keeps its own permalink,
``/<topic>/changes/<night>/``, a small file that sends the reader on to the night's anchor.

Rows are rendered by ``night_changes.html``, given records, through the site's one text path set to
the night's doc: what that night withheld, and what today withholds, is withheld here too.
"""

from __future__ import annotations

import datetime as dt
import re
import weakref
from typing import Any

from ..core import labels
from ..core.arxiv import key as arxiv_key
from ..core.changes import Change, differences, topic_changes
from ..core.doc import ContradictionView, Night
from ..core.nights import Start, nights_of
from .fragments import FragmentRenderer
from .layout import Layout, changes_page, night_anchor, night_file, page_url, redirect
from .text import Block, Heading, Raw, esc, word_sheet

NIGHT_WORDS = word_sheet(
    briefs=labels.NIGHT_CHANGES_BRIEFS,
    none=labels.NIGHT_CHANGES_NONE,
    no_change=labels.NIGHT_CHANGE_NO_CHANGE,
    moved_from=labels.NIGHT_CHANGE_FROM,
    by=labels.NIGHT_CHANGE_BY,
    withheld="〔暂扣〕",
    list_sep=labels.LIST_SEP,
)
"""The words ``night_changes.html`` is written with."""

_NIGHTS: weakref.WeakKeyDictionary[Layout, tuple[str, dict[str, list[Night]]]] = weakref.WeakKeyDictionary()
"""Each layout's nights by month, and the first month followed: made once a build (the pass is the
cost; a page asks for a month) and let go with the layout."""


def months(layout: Layout) -> list[str]:
    """The months that have a night with a brief, oldest first (one changes page each)."""
    return sorted({b.date.strftime("%Y-%m") for b in layout.doc.briefs})


def follow_from(layout: Layout, month: str, start: Start | None = None) -> None:
    """Follow the nights from ``month`` on only (a preview that renders again only the months an edit
    can change: the nights before are merged, not followed, which at ten years halves the pass;
    ``start``: merged already, while the preview waited for the edit)."""
    if (known := _NIGHTS.get(layout)) is None or known[0] > month:
        _NIGHTS[layout] = (month, _by_month(layout, dt.date.fromisoformat(f"{month}-01"), start))


def nights_in(layout: Layout, month: str) -> list[Night]:
    """The nights of ``month``, each with what it changed (every night followed, unless a preview
    asked for fewer)."""
    known = _NIGHTS.get(layout)
    if known is None or known[0] > month:
        known = _NIGHTS[layout] = ("", _by_month(layout, None))
    return known[1].get(month, [])


def _by_month(layout: Layout, since: dt.date | None, start: Start | None = None) -> dict[str, list[Night]]:
    found: dict[str, list[Night]] = {}
    for night in nights_of(layout.doc, since, start=start):
        found.setdefault(night.night.strftime("%Y-%m"), []).append(night)
    return found


class NightText(FragmentRenderer):
    """The text path of one night: brief text withheld as that night's doc withholds it (and as
    today's does), links to where each thing lives today."""

    def entry_link(self, entry_id: str) -> str:
        entry = self.doc.entries.get(entry_id) or self.layout.doc.entries[entry_id]
        href = self.linker.url(self.layout.entry_page(entry.id), f"entry-{entry.id}")
        return f'<a href="{esc(href)}">§{esc(entry.section)} {self.text(entry.title, links=False)}</a>'

    def contradiction_link(self, view: ContradictionView) -> str:
        """Linked to where its callout is today (its name, a number and a date, is the same every night)."""
        return super().contradiction_link(self._today(view))

    def callout_href(self, view: ContradictionView) -> str:
        return super().callout_href(self._today(view))

    def _arxiv_link(self, m: re.Match[str]) -> str:
        """An arXiv mention linked to its citation as today's bibliography numbers it."""
        view = self.layout.doc.citations.get(arxiv_key(m.group(1)))
        return self.cite(view, m.group(0)) if view else m.group(0)

    def _today(self, view: ContradictionView) -> ContradictionView:
        """Today's record of a contradiction: where its callout is (a page, an archive month) is today's."""
        return self.layout.doc.contradiction(view.id) or view


def changes_month(page: FragmentRenderer, month: str) -> list[Block]:
    """A month's changes page: the months, then each night of the month with what it changed."""
    layout = page.layout
    links = " ".join(
        f'<a href="{esc(page.linker.url(changes_page(layout.topic, m)))}">{esc(m)}</a>' if m != month else esc(m)
        for m in months(layout)
    )
    blocks: list[Block] = [
        Raw(
            f'<p class="digest-summary" data-search-exclude>{esc(labels.NIGHT_CHANGES_INTRO)}</p>'
            f'<p class="digest-archive-links" data-search-exclude>{esc(labels.NIGHT_CHANGES_MONTHS)}{links}</p>'
        )
    ]
    for night in nights_in(layout, month):
        text = NightText(layout, page.linker, anchors=page.anchors, templates=page.templates)
        text.doc = night.after
        heading = labels.NIGHT_CHANGES_HEADING.format(night=night.night.isoformat())
        blocks.append(Heading(2, page.anchor_id(night_anchor(night.night)), heading, searched=False))
        blocks.append(Raw(_night(text, night)))
    return blocks


def _night(text: NightText, night: Night) -> str:
    changes = topic_changes(night.before, night.after)
    kinds = [
        {"kind": kind, "label": labels.NIGHT_CHANGE_KINDS[kind], "rows": [_row(text, row) for row in rows]}
        for kind, rows in changes.kinds
    ]
    return text.render(
        "night_changes.html", night=night.night.isoformat(), briefs=list(night.briefs), kinds=kinds, words=NIGHT_WORDS
    )


def _row(text: NightText, change: Change[Any]) -> dict[str, Any]:
    """A row's record and what the template needs besides it, by kind."""
    row: dict[str, Any] = {
        "kind": change.kind,
        "now": change.now,
        "was": change.was,
        "erratum": change.erratum,
        "differences": [],
        "parts": [],
        "href": "",
        "event": None,
    }
    now = change.now
    if change.kind == "entries_updated":
        row["differences"] = differences(change.before, now)
    elif change.kind == "entries_split":
        row["parts"] = list(now.split_into)
    elif change.kind.startswith("citations_"):
        row["href"] = text.linker.url(text.layout.citation_page(now), f"ref-{now.number}")
    elif change.kind.startswith("follow_ups_"):
        today = text.layout.doc.follow_up(now.follow_up.id)  # where it is listed today
        row["href"] = text.linker.url(text.layout.follow_up_page(today), f"follow-up-{now.follow_up.id}")
    elif change.kind.startswith("contradictions_") and change.kind not in ("contradictions_opened",):
        row["event"] = now.history[-1] if now.history else None
    return row


def night_redirect(topic: str, night: dt.date, directory_urls: bool = True) -> str:
    """The permalink file of one night: it sends the reader to the night on its month's page.  Only
    the topic (a slug) and the date reach it: no brief text."""
    return redirect(
        night_file(topic, night, directory_urls),
        page_url(changes_page(topic, night.strftime("%Y-%m")), directory_urls) + "#" + night_anchor(night),
        labels.NIGHT_CHANGES_HEADING.format(night=night.isoformat()),
        labels.NIGHT_REDIRECT.format(night=night.isoformat()),
    )
