"""The renderer's third job: whole pages of one topic's living doc, assembled from fragments.

A section (its status line, filter, callouts, entries, stubs and archive links), the register, the
bibliography, the follow-ups, one brief's page, the briefs' index, the overview and the legend.
:class:`Renderer` is what the hosts and the feed use; the fragments it assembles are
:mod:`fragments`', and every piece of brief text goes through :mod:`text`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from ..core import labels
from ..core.arxiv import key as arxiv_key
from ..core.doc import (
    ContradictionView,
    EntryView,
    SectionView,
)
from ..core.model import Brief, Status
from .chart import bars
from .fragments import FragmentRenderer
from .layout import (
    ARCHIVE_PAGES,
    bibliography_page,
    brief_page,
    briefs_index_page,
    feed_page,
    follow_ups_page,
    register_page,
    section_anchor,
    section_page,
)
from .text import (
    BASELINE,
    NOT_SEARCHED,
    Block,
    Heading,
    Raw,
    esc,
    level_of,
    word_sheet,
)

STATUS_WORDS = word_sheet(
    status=labels.SECTION_STATUS,
    next_check=labels.SECTION_NEXT_CHECK,
    round=labels.SECTION_NEXT_CHECK_ROUND,
    list_sep=labels.LIST_SEP,
)
"""The words ``section_status.html`` is written with."""
SECTION_WORDS = word_sheet(opened=labels.SECTION_OPENED, former_title=labels.SECTION_FORMER_TITLE)
"""The words ``section_notes.html`` is written with."""
HEADER_WORDS = word_sheet(
    meta=labels.BRIEF_META,
    header=labels.BRIEF_HEADER,
    job_id=labels.JOB_ID,
    job_item=labels.JOB_ITEM,
    ref_count=labels.BRIEF_REF_COUNT,
    counts=labels.BRIEF_COUNTS,
    sep=labels.SEP,
)
"""The words ``brief_header.html`` is written with."""
ARCHIVE_WORDS = word_sheet(
    section=labels.ARCHIVE_SECTION,
    older_open=labels.SECTION_OLDER_OPEN,
    other=labels.ARCHIVE_OTHER,
    month=labels.ARCHIVE_MONTH,
    month_count=labels.ARCHIVE_SECTION_MONTH,
    year=labels.ARCHIVE_YEAR,
    year_sep=labels.ARCHIVE_YEAR_SEP,
    list_sep=labels.LIST_SEP,
)
"""The words ``archive_links.html`` is written with."""
OVERVIEW_WORDS = word_sheet(
    latest=labels.OVERVIEW_LATEST,
    no_changes=labels.NO_CHANGES_SHORT,
    open=labels.OVERVIEW_OPEN,
    open_count=labels.OVERVIEW_OPEN_COUNT,
    follow_ups=labels.OVERVIEW_FOLLOW_UPS,
    follow_ups_count=labels.OVERVIEW_FOLLOW_UPS_COUNT,
    references=labels.OVERVIEW_REFERENCES,
    references_count=labels.OVERVIEW_REFERENCES_COUNT,
    references_added=labels.OVERVIEW_REFERENCES_ADDED,
    briefs=labels.OVERVIEW_BRIEFS,
    briefs_count=labels.OVERVIEW_BRIEFS_COUNT,
    table_head=labels.OVERVIEW_TABLE_HEAD,
    open_list=labels.OVERVIEW_OPEN_LIST,
    timeline=labels.OVERVIEW_TIMELINE,
    feed=labels.FEED_LINK,
)
"""The words ``overview.html`` is written with (as ``fragments.HISTORY_WORDS``: escaped once)."""


class Renderer(FragmentRenderer):
    """Renders the pages of one topic's living doc (one instance per page, so anchors are given
    once on it): the page assemblers, on the fragments and the text path they extend."""

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

    def _section_status(self, entries: Sequence[EntryView]) -> list[Block]:
        """A section's own "last updated / next check" line (as Our World in Data's panels have):
        how many entries, when one last changed and in which brief, and the follow-ups still open on
        them with the round that checks them next.  Kept out of the search index."""
        dated = [e.last_brief for e in entries if e.last_brief is not None]
        if not dated:
            return []
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
        first = pending[0] if pending else None
        html = self.render(
            "section_status.html",
            count=len(entries),
            last=max(dated, key=lambda b: (b.date, b.id)),
            pending=pending,
            href=self.linker.url(self.layout.follow_up_page(first), f"follow-up-{first.follow_up.id}") if first else "",
            rounds=sorted({f.follow_up.round for f in pending}),
            words=STATUS_WORDS,
        )
        return [Raw(html)]

    def _section_filter(self, entries: Sequence[EntryView]) -> list[Block]:
        """A section page's filter: by evidence level (in rank order, then 活文档既有) and by what the
        latest brief did (新 / 有更新)."""
        words = self.doc.vocabulary
        known = words.words("evidence_levels")
        levels = Counter(level_of(e) for e in entries)
        level_options = [(code, words.label("evidence_levels", code), levels[code]) for code in known if levels[code]]
        level_options += [(c, c, n) for c, n in sorted(levels.items()) if c and c != BASELINE and c not in known]
        if levels[BASELINE]:
            level_options.append((BASELINE, labels.BASELINE_BADGE, levels[BASELINE]))
        fresh = Counter(self.fresh(e) for e in entries)
        fresh_options = [(code, word, fresh[code]) for code, word in labels.FRESH.items() if fresh[code]]
        fields = [("level", labels.FILTER_LEVEL, level_options), ("fresh", labels.FILTER_FRESH, fresh_options)]
        form = self.filter_form(".digest-entry", labels.FILTER_SECTION, len(entries), fields)
        return [Raw(form)] if form else []

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

    def section_notes(self, view: SectionView) -> str:
        """At the head of a section: which brief opened it, and the titles it had before a brief
        renamed it (``section_notes.html``; '' for an outline section no brief renamed)."""
        if view.opened_by is None and not view.former_titles:
            return ""
        return self.render("section_notes.html", view=view, words=SECTION_WORDS)

    def _archive_links(self, number: str) -> list[Block]:
        months = self.layout.archive_months.get(number, [])
        if not months:
            return []
        counts: Counter[str] = Counter(
            m
            for e in self.doc.entries.values()
            if e.section.split(".")[0] == number and (m := self.layout.entry_month(e)) is not None
        )
        url = self.linker.url
        return [
            Raw(
                self._archive("section", number, months, lambda m: url(section_page(self.doc.topic, number, m)), counts)
            )
        ]

    def _archive(
        self,
        kind: str,
        key: str,
        months: Sequence[str],
        href: Callable[[str], str],
        counts: Mapping[str, int] | None = None,
    ) -> str:
        """``archive_links.html``: links to archive months (``YYYY-MM``), newest first, one group per year."""
        years: dict[str, list[dict[str, Any]]] = {}
        for month in reversed(months):
            years.setdefault(month[:4], []).append(
                {"href": href(month), "month": int(month[5:]), "count": counts[month] if counts is not None else None}
            )
        return self.render(
            "archive_links.html",
            kind=kind,
            key=key,
            count=sum(counts.values()) if counts is not None else 0,
            days=self.doc.archive_after_days,
            noun=labels.ARCHIVE_NOUNS.get(kind, ""),
            years=list(years.items()),
            words=ARCHIVE_WORDS,
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
        parts = list(lead)
        for e in ordered:
            parts.append(self.entry(e))
            parts += after.get(e.id, [])
        if month is None:
            parts += [self.stub(s) for s in view.stubs]
            parts += [self.moved_out(entry_id, to, b) for entry_id, to, b in view.moved_out]
            if older := self._older_open(view):
                parts.append(older)
        renamed = bool(view.former_titles) and month is None  # the old titles are said even with no entry
        if not parts and not renamed and month is None and not self.doc.children(view.number):
            parts.append(f'<p class="digest-empty">{labels.SECTION_EMPTY}</p>')
        if not parts and not renamed:
            return []
        notes = self.section_notes(view) if month is None else ""
        return [
            Raw(
                f'<div class="digest-section" data-section="{esc(view.number)}" data-filter-group>'
                + notes
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
        url = self.linker.url
        return self._archive(
            "older-open", view.number, sorted(months), lambda m: url(register_page(self.doc.topic, m)), months
        )

    def _month_links(self, kind: str) -> str:
        """Links to the monthly archive pages of the register, bibliography, follow-ups or briefs."""
        months = self.layout.archive_months.get(kind, [])
        if not months:
            return ""
        page = ARCHIVE_PAGES[kind]
        return self._archive(kind, kind, months, lambda m: self.linker.url(page(self.doc.topic, m)))

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
        # counted in one pass: a pass per disposition and status was 0.2 s of every preview at ten years
        counts = Counter((v.disposition, v.status) for v in views)
        totals = Counter(v.disposition for v in views)
        dispositions = [d for d in self.doc.vocabulary.words("dispositions") if d in totals]
        dispositions += sorted(set(totals) - set(dispositions))
        rows = [
            {
                "code": d,
                "word": self.doc.vocabulary.label("dispositions", d),
                "counts": [counts[d, s] for s in statuses],
                "total": totals[d],
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
        conclusions = self.render(
            "conclusions.html",
            conclusions=brief.conclusions,
            follow_ups=sorted(brief.follow_ups, key=lambda f: f.number),
            heading=brief.follow_ups_heading or labels.BRIEF_FOLLOW_UPS_DEFAULT,
        )
        blocks.append(Raw(conclusions))
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
        """The head of a brief's page (``brief_header.html``, given the brief's record)."""
        return self.render("brief_header.html", brief=brief, words=HEADER_WORDS)

    def briefs_index(self, month: str | None = None) -> list[Block]:
        briefs = self.layout.briefs_in(month)
        head = self._month_links("briefs") if month is None else ""
        return [Raw(head + self.timeline(briefs)), Raw(self._feed_link())]

    def _feed_link(self) -> str:
        return f'<p><a class="digest-feed" href="{esc(self.linker.url(feed_page(self.doc.topic)))}" type="application/atom+xml">{labels.FEED_LINK}</a></p>'

    def overview(self) -> list[Block]:
        """The topic at a glance: today's brief, open contradictions and follow-ups, counts, the
        timeline (``overview.html``, given the records and the counts)."""
        doc = self.doc
        latest = doc.briefs[-1] if doc.briefs else None
        sections = []
        counts: list[tuple[str, int, int]] = []
        for top in doc.top_sections():
            group = [top, *doc.children(top.number)]
            entries = sum(1 for s in group for e in s.entries if not e.retracted)
            still_open = len({c.id for s in group for c in s.contradictions if c.is_open})
            title = top.section.title or self.layout.titles.get(top.number, "")
            sections.append({"number": top.number, "title": title, "entries": entries, "open": still_open})
            counts.append((f"§{top.number}", entries, still_open))
        topic = doc.topic
        chart = bars(labels.OVERVIEW_CHART, counts)
        html = self.render(
            "overview.html",
            doc=doc,
            latest=latest,
            latest_counts=self.change_counts(latest) if latest else [],
            open=[c for c in doc.contradictions if c.is_open],
            follow_ups=len(doc.open_follow_ups()),
            references=doc.reference_count,
            added=len(doc.citations),
            pages={
                "register": self.linker.url(register_page(topic)),
                "follow_ups": self.linker.url(follow_ups_page(topic)),
                "bibliography": self.linker.url(bibliography_page(topic)),
                "briefs": self.linker.url(briefs_index_page(topic)),
                "feed": self.linker.url(feed_page(topic)),
            },
            sections=sections,
            chart=Markup(chart),
            timeline=self.timeline_rows(doc.briefs[-30:]),
            no_briefs=labels.NO_BRIEFS,
            words=OVERVIEW_WORDS,
        )
        return [Raw(html)]


def section_title(view: SectionView) -> str:
    """'§3.1 调度算法与 JIL 攻击', or '§4（未命名）' where no brief has given the section a title."""
    s = view.section
    if s.title:
        return labels.SECTION_TITLE.format(number=s.number, title=s.title)
    return labels.SECTION_UNTITLED.format(number=s.number)
