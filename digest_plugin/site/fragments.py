"""The renderer's second job: one record of the merged doc as one fragment of HTML.

An entry with its badge, boundary, figures and history; a contradiction's callout; a reference;
a follow-up; what one brief changed.  Each is written through the text path below it
(:mod:`text`) and, where a site may restyle it, through a template of ``digest_plugin/templates/``
(:mod:`templating`).  The page assemblers (:mod:`render`) put these fragments together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote as url_quote

from markupsafe import Markup, escape

from ..core import labels
from ..core.arxiv import key as arxiv_key
from ..core.doc import (
    ARXIV_MENTION,
    CHANGE_KINDS,
    CitationView,
    ContradictionView,
    EntryView,
    FollowUpView,
    Stub,
    Update,
)
from ..core.model import BLOCKED, DISCARDED, Brief, Evidence, Item, Status
from .chart import sparkline
from .layout import as_of_link, changes_page, legend_page, night_anchor
from .text import (
    CREDENTIALS,
    MAX_URL_SHOWN,
    OUTBOUND_REL,
    TextRenderer,
    esc,
    level_of,
    outbound,
    word_sheet,
)

HISTORY_ROWS = 10
"""An entry's history shows its first row and its latest ten; the rest stay on their brief pages."""

HISTORY_WORDS = word_sheet(
    kinds=labels.HISTORY_KINDS,
    baseline=labels.HISTORY_BASELINE,
    gap=labels.HISTORY_GAP,
    correction=labels.CORRECTION,
    no_boundary=labels.BOUNDARY_NOT_GIVEN,
)
"""The words ``history.html`` writes its rows with (:func:`text.word_sheet`: escaped once)."""
CALLOUT_WORDS = word_sheet(
    sep=labels.SEP,
    list_sep=labels.LIST_SEP,
    register=labels.CONTRADICTION_REGISTER_LINK,
    touches=labels.CONTRADICTION_TOUCHES,
    items=labels.CONTRADICTION_ITEMS,
    cites=labels.CONTRADICTION_CITES,
    materials=labels.CONTRADICTION_MATERIALS,
    source=labels.CONTRADICTION_SOURCE,
    withheld=labels.WITHHELD_CLAIMS,
    required=labels.REQUIRED_LABEL,
    outcome=labels.OUTCOME,
    superseded_by=labels.SUPERSEDED_BY,
    correction=labels.CORRECTION,
)
"""The words ``callout.html`` is written with (escaped once, as ``HISTORY_WORDS``)."""
REFERENCE_WORDS = word_sheet(
    sep=labels.SEP,
    list_sep=labels.LIST_SEP,
    clause_sep=labels.CLAUSE_SEP,
    withdrawn=labels.REFERENCE_WITHDRAWN,
    openalex=labels.REFERENCE_OPENALEX,
    doi=labels.REFERENCE_DOI,
    open_access=labels.REFERENCE_OA,
    explained=labels.REFERENCE_OA_EXPLAINED,
    card=labels.REFERENCE_CARD,
    card_topic=labels.REFERENCE_CARD_TOPIC,
    verified=labels.REFERENCE_VERIFIED,
    unverified=labels.REFERENCE_UNVERIFIED,
    from_brief=labels.REFERENCE_FROM,
    use=labels.REFERENCE_USE,
    earlier=labels.FIGURE_EARLIER,
    down_weighted=labels.REFERENCE_DOWN_WEIGHTED,
    back=labels.REFERENCE_BACK,
    rel=OUTBOUND_REL,
)
"""The words ``reference.html`` is written with."""
FOLLOW_UP_WORDS = word_sheet(
    meta=labels.FOLLOW_UP_META, items=labels.FOLLOW_UP_ITEMS, list_sep=labels.LIST_SEP, clause_sep=labels.CLAUSE_SEP
)
"""The words ``follow_up.html`` is written with."""
DETAILS_WORDS = word_sheet(
    related=labels.RELATED_CONTRADICTIONS,
    points_note=labels.POINTS_NOTE,
    sources=labels.SOURCES,
    relation=labels.RELATION,
    placement=labels.PLACEMENT,
    not_given=labels.PLACEMENT_NOT_GIVEN,
    alternatives=labels.ALTERNATIVES,
    alternative_note=labels.ALTERNATIVE_NOTE,
    cross_refs=labels.CROSS_REFS,
    guard_mark=labels.GUARD_MARK,
    sep=labels.SEP,
    list_sep=labels.LIST_SEP,
)
"""The words ``item_details.html`` is written with (escaped once, as ``HISTORY_WORDS``)."""
HEAD_WORDS = word_sheet(
    sep=labels.SEP,
    unrated=labels.UNRATED,
    changed=labels.LAST_CHANGED,
    pending=labels.PENDING,
    pending_tip=labels.PENDING_TIP,
    boundary=labels.BOUNDARY,
    no_boundary=labels.BOUNDARY_NOT_GIVEN,
)
"""The words ``item_head.html`` is written with (escaped once, as ``HISTORY_WORDS``)."""
ENTRY_WORDS = word_sheet(
    retracted=labels.RETRACTED,
    successor=labels.RETRACTED_SUCCESSOR,
    baseline_badge=labels.BASELINE_BADGE,
    baseline_meaning=labels.BASELINE_MEANING,
    legend=labels.TIP_LEGEND,
    baseline_origin=labels.BASELINE_ORIGIN,
    pending=labels.PENDING_FOLLOW_UPS,
    pending_state=labels.PENDING_FOLLOW_UP_STATE,
    sep=labels.SEP,
    list_sep=labels.LIST_SEP,
    related=labels.RELATED_CONTRADICTIONS,
)
"""The words ``entry.html`` is written with (escaped once, as ``HISTORY_WORDS``)."""
FIGURE_WORDS = word_sheet(
    earlier=labels.FIGURE_EARLIER,
    skipped=labels.FIGURE_SKIPPED,
    clause_sep=labels.CLAUSE_SEP,
)
"""The words ``figures.html`` is written with (escaped once, as ``HISTORY_WORDS``)."""
CHANGE_WORDS = word_sheet(
    row=labels.CHANGE_ROW, list_sep=labels.LIST_SEP, night=labels.NIGHT_CHANGES_LINK, past=labels.PAST_LINK
)
"""The words ``changes.html`` is written with."""
ERRATA_WORDS = word_sheet(made=labels.BRIEF_ERRATUM_MADE, received=labels.BRIEF_ERRATUM_RECEIVED)
"""The words ``errata.html`` is written with."""
QUESTION_WORDS = word_sheet(
    pending=labels.PENDING, reading=labels.BRIEF_QUESTION_READING, choices=labels.BRIEF_QUESTION_CHOICES
)
"""The words ``questions.html`` is written with."""
NOTICE_WORDS = word_sheet(
    moved_from=labels.ENTRY_MOVED_FROM,
    split_into=labels.ENTRY_SPLIT_INTO,
    split_from=labels.ENTRY_SPLIT_FROM,
    erratum=labels.ENTRY_ERRATUM,
    list_sep=labels.LIST_SEP,
)
"""The words ``notices.html`` is written with."""
MOVED_WORDS = word_sheet(moved_out=labels.ENTRY_MOVED_OUT)
"""The words ``moved.html`` is written with."""
DISPUTE_WORDS = word_sheet(tag=labels.DISPUTE_TAG, required=labels.REQUIRED_LABEL_TAG)
"""The words ``dispute_tags.html`` is written with."""
FIGURE_VALUES = 5
"""Earlier values of a figure listed beside it (the chart shows the whole series)."""

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


def _with_unit(value: object, unit: str | None) -> str:
    """A figure's value as written beside its unit (「1.2 s」), or alone."""
    return f"{value} {unit}" if unit else str(value)


def _history_row(
    kind: str,
    change: Update | None,
    brief: Brief | None,
    before: str | None,
    hidden: int = 0,
    first: Brief | None = None,
) -> dict[str, Any]:
    """One row ``history.html`` is given: every row has every key, so a template may test any of them."""
    return {"kind": kind, "change": change, "brief": brief, "before": before, "hidden": hidden, "first": first}


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


class FragmentRenderer(TextRenderer):
    """Renders the fragments of one page: each record of the merged doc it shows, with what
    qualifies it.  Shares the page's anchors and withheld marks with the text path it extends."""

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
        ev = evidence or item.evidence
        last = entry.last_brief if entry is not None else None
        return self.render(
            "item_head.html",
            item=item,
            brief=brief,
            evidence=ev,
            key=key,
            badge=Markup(
                self.badge(ev, key, self.brief_link(assessed_in) if assessed_in else self.item_ref(brief, item))
            ),
            entry=entry is not None,
            changed=last.date.isoformat() if last is not None else "",
            pending=bool(brief.questions_on(item)),  # the importer's reading stands until an editor answers
            words=HEAD_WORDS,
        )

    def item_details(self, item: Item) -> str:
        """Related contradictions, key points, sources, relation, placement, guards and notes
        (``item_details.html``, given the item and its records).

        A guard the placement text also states as a sentence of its own is shown once, in the
        guards (⚠) below it; 「见下方矛盾清单」 becomes a link (``located``)."""
        p = item.placement
        placed = self.doc.items.get(item.id)
        mark = labels.GUARD_MARK.strip()
        return self.render(
            "item_details.html",
            item=item,
            brief=placed.brief if placed is not None else None,
            related=self.doc.contradictions_by_item.get(item.id, []),
            sources=self.source_rows(item),
            placement=without_guards(p.text, item.guards) if p.text else None,
            guards=[{"text": g, "marked": not g.startswith(mark)} for g in item.guards],
            words=DETAILS_WORDS,
        )

    def source_rows(self, item: Item) -> list[dict[str, Any]]:
        """An item's sources as ``item_details.html`` lists them: materials (with when they were
        collected), then addresses, each linked only when it is a public web address."""
        rows: list[dict[str, Any]] = []
        for m in item.sources.materials:
            extra = []
            if m.first_collected:
                extra.append(labels.MATERIAL_FIRST_COLLECTED.format(date=m.first_collected))
            if m.last_collected:
                extra.append(labels.MATERIAL_LAST_COLLECTED.format(date=m.last_collected))
            note = labels.MATERIAL_NOTE.format(notes=labels.COMMA.join(extra)) if extra else ""
            rows.append({"kind": "material", "material": m, "note": note})
        for url in item.sources.urls:
            shown = outbound(url)
            if shown is None:  # not a public web address: named, never linked
                rows.append({"kind": "plain", "text": CREDENTIALS.sub("//", url)[:MAX_URL_SHOWN]})
                continue
            href, host = shown
            rows.append({"kind": "link", "href": href, "host": host, "title": href[:MAX_URL_SHOWN]})
        return rows

    def figures(self, entry: EntryView) -> str:
        """The entry's figures (``figures.html``): each current value, a few earlier ones and a
        chart; a value a correction showed wrong is never shown as a value."""
        if not entry.figures:
            return ""
        rows = []
        for f in entry.figures:
            row: dict[str, Any] = {
                "key": f.key,
                "label": f.label,
                "as_of": labels.FIGURE_AS_OF.format(date=f.current.as_of) if f.current.as_of else "",
                "withheld_by": self.doc.contradiction(f.withheld_by.id) if f.withheld_by is not None else None,
                "value": "",
                "skipped": 0,
                "older": [],
                "chart": "",
            }
            if f.withheld_by is None:  # a withheld value: none of its values is given, not even earlier ones
                older = f.earlier[-FIGURE_VALUES:]
                row.update(
                    value=_with_unit(f.current.value, f.current.unit),
                    skipped=len(f.earlier) - len(older),
                    older=[
                        {"value": _with_unit(v.figure.value, v.figure.unit), "as_of": v.figure.as_of or ""}
                        for v in older
                    ],
                    chart=Markup(sparkline(self.plain(f.label), f.series())),
                )
            rows.append(row)
        return self.render("figures.html", heads=labels.FIGURES_HEAD, rows=rows, words=FIGURE_WORDS)

    def history(self, entry: EntryView) -> str:
        """How the entry got here, oldest first: the baseline, each update, evidence change and
        retraction (``history.html``, given the changes themselves).  A long history keeps its first
        row and its latest ``HISTORY_ROWS``, with a gap row between that says how many are left out."""
        if len(entry.history) < 2:
            return ""
        level: str | None = None
        shown: Sequence[Update] = entry.history
        gap: dict[str, Any] | None = None
        if len(shown) > HISTORY_ROWS + 1:  # an entry updated every day: the first and the latest rows
            first = entry.history[1].brief
            assert first is not None, "only the first row of a history is the baseline"
            hidden = len(shown) - HISTORY_ROWS - 1
            gap = _history_row("gap", None, None, None, hidden, first)
            level = next((u.evidence.level for u in reversed(shown[:-HISTORY_ROWS]) if u.evidence is not None), None)
            shown = [shown[0], *shown[-HISTORY_ROWS:]]
        rows: list[dict[str, Any]] = []
        for u in shown:
            baseline = u.kind == "baseline"
            assert baseline or u.brief is not None, "every change after the baseline comes from a brief"
            rows.append(_history_row(u.kind, u, u.brief, None if baseline else level))
            if not baseline and u.evidence is not None:
                level = u.evidence.level
        if gap is not None:
            rows.insert(1, gap)
        stated = entry.baseline.stated_in if entry.baseline else ""
        return self.render(
            "history.html",
            title=labels.HISTORY,
            entry=entry,
            version=self.doc.outline.doc.version,
            stated_in=self.doc.briefs_by_id.get(stated),
            stated=stated,
            rows=rows,
            words=HISTORY_WORDS,
        )

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
        item, brief = entry.item, entry.brief

        def head() -> Markup:
            if item is None or brief is None:
                return Markup()
            return Markup(self.item_head(item, brief, entry.id, entry.evidence, _assessed_in(entry), entry))

        retraction = entry.retraction if entry.retracted_in is not None else None
        successor = retraction.superseded_by if retraction is not None else None
        baseline = entry.baseline if item is None else None  # the doc's own words: no brief's item made it
        stated = baseline.stated_in if baseline else ""
        fresh = self.fresh(entry)
        last = entry.last_brief
        level_code = level_of(entry)
        return self.render(
            "entry.html",
            entry=entry,
            id=entry.id,
            section=entry.section,
            title=entry.title,
            retracted=entry.retracted,
            footnote=entry.footnote,
            parent=entry.parent,
            item=item,
            item_id=item.id if item else "",
            evidence=level_code,
            level_tag=Markup(self.level_tag(level_code)) if level_code else None,
            last_brief=last.id if last else "",
            level=min(level, 6),
            anchor=anchor,
            fresh=fresh,
            fresh_label=labels.FRESH.get(fresh, "") if fresh else "",
            footnote_label=labels.FOOTNOTE,
            # The parts are rendered when the template prints them, so in reading order: the first
            # mention of a withheld claim in the entry is the one that carries the linked mark.
            tags=lambda: Markup(self.dispute_tags(entry)),
            retraction=retraction,
            retracted_in=entry.retracted_in,
            successor=successor if successor is not None and successor in self.doc.items else None,
            notices=lambda: Markup(self.reshaped(entry)),
            baseline=baseline,
            version=self.doc.outline.doc.version or "",
            stated_in=self.doc.briefs_by_id.get(stated),
            stated=stated,
            legend=self.linker.url(legend_page(self.doc.topic), "baseline") if baseline else "",
            head=head,
            figures=lambda: Markup(self.figures(entry)),
            details=lambda: Markup(self.item_details(item)) if item is not None and brief is not None else Markup(),
            history=lambda: Markup(self.history(entry)),
            pending=[
                {"view": f, "href": self.linker.url(self.layout.follow_up_page(f), f"follow-up-{f.follow_up.id}")}
                for f in (self.doc.follow_ups_by_item.get(item.id, []) if item else [])
                if f.pending
            ],
            contradictions=self.doc.contradictions_by_entry.get(entry.id, []) if item is None else [],
            words=ENTRY_WORDS,
        )

    def reshaped(self, entry: EntryView) -> str:
        """What later briefs did to the entry's place and words (``notices.html``): moved here,
        split, corrected (勘误); '' for the many entries none of that happened to."""
        if not (entry.moved_from or entry.split_into or entry.split_from is not None or entry.errata):
            return ""
        return self.render(
            "notices.html",
            entry=entry,
            moved_from=entry.moved_from,
            split_into=[e for e in entry.split_into if e in self.doc.entries],
            split_in=next((u.brief for u in reversed(entry.history) if u.kind == "split"), None),
            split_from=entry.split_from if entry.split_from in self.doc.entries else None,
            errata=entry.errata,
            words=NOTICE_WORDS,
        )

    def fresh(self, entry: EntryView) -> str | None:
        """``new`` when the latest brief placed the entry, ``changed`` when it changed it, else None."""
        latest = self.doc.briefs[-1] if self.doc.briefs else None
        if latest is None or entry.last_brief is not latest:
            return None
        first = entry.first_update
        return "new" if first is not None and first.brief is latest else "changed"

    def dispute_tags(self, entry: EntryView) -> str:
        """After the title, one short dated tag per open contradiction on the entry, linked to its
        callout, with the label the statement must carry (``dispute_tags.html``; '' when none is open)."""
        disputes = [{"view": v, "href": self.callout_href(v)} for v in self.contradictions_of(entry) if v.is_open]
        return self.render("dispute_tags.html", disputes=disputes, words=DISPUTE_WORDS) if disputes else ""

    def contradictions_of(self, entry: EntryView) -> list[ContradictionView]:
        """The contradictions that touch an entry, directly or through its item."""
        related = list(self.doc.contradictions_by_entry.get(entry.id, []))
        if entry.item is not None:
            related += [c for c in self.doc.contradictions_by_item.get(entry.item.id, []) if c not in related]
        return related

    def moved_out(self, entry_id: str, to: str, brief: Brief) -> str:
        """Where an entry this section lost went (``moved.html``): old links (``#entry-<id>``) land here and go on."""
        return self.render(
            "moved.html",
            entry=self.doc.entries[entry_id],
            id=entry_id,
            to=to,
            href=self.linker.url(self.layout.entry_page(entry_id), f"entry-{entry_id}"),
            brief=brief,
            anchor=self.anchor_id("entry-" + entry_id),
            words=MOVED_WORDS,
        )

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

    def callout(self, view: ContradictionView, *, compact: bool = False) -> str:
        """A Material admonition (collapsible ``details``) holding a contradiction, unmasked
        (``callout.html``, given the record and what the renderer decided about it).

        Its kind and colour come from its disposition (the vocabulary's ``kind`` and ``style``): a
        paywall is 待核实, not 矛盾.  Open ones are expanded.  Settled ones (resolved or superseded)
        are collapsed; with ``compact`` (section pages) they shrink to a "resolved on …" note,
        while the register keeps the whole story."""
        c = view.contradiction
        word = self.doc.vocabulary.word("dispositions", view.disposition)
        kind = (word.kind if word else None) or labels.CALLOUT_KIND
        if view.is_open:
            style = (word.style if word else None) or (
                "danger" if view.disposition in (BLOCKED, DISCARDED) else "warning"
            )
        else:
            style = "success" if view.status is Status.resolved else "note"
        disposition = self.doc.vocabulary.label("dispositions", view.disposition)
        page = self.layout.contradiction_page(view)
        register = self.linker.url(page, f"contradiction-{view.id}")
        data: dict[str, Any] = {
            "view": view,
            "contradiction": c,
            "id": view.id,
            "state": view.status.value,
            "code": view.disposition,
            "sections": " ".join(view.sections),
            "searched_elsewhere": self.linker.page != page,
            "style": style,
            "open": view.is_open,
            "anchor": self.anchor_id("contradiction-" + view.id),
            "kind": kind,
            "name": Markup(self.contradiction_name(view)),
            "disposition": disposition if disposition != kind else "",
            "status": view.status.label,
            "settled": view.settled,
            "register": register if register[0] != "#" else "",
            "compact": compact and view.settled is not None,
            "words": CALLOUT_WORDS,
        }
        if data["compact"]:
            return self.render("callout.html", **data)
        cited = sorted({arxiv_key(a) for a in c.touches.citations} | set(ARXIV_MENTION.findall(f"{c.title} {c.text}")))
        return self.render(
            "callout.html",
            **data,
            items=[{"id": i, "level": self.item_level(i)} for i in c.touches.items if i in self.doc.items],
            citations=[self.doc.citations[k] for k in cited if k in self.doc.citations],
            withheld_note=escape(
                labels.RELEASED_LATER.format(
                    date=self.doc.released_later[view.id].date.isoformat(), night=str(self.doc.as_of)
                )
                if view.id in self.doc.released_later
                else labels.WITHHELD_CLAIMS_OPEN
                if view.is_open
                else labels.WITHHELD_CLAIMS_CORRECTED
                if view.corrected  # the claim was wrong: it stays withheld for good
                else labels.WITHHELD_CLAIMS_SETTLED
            ),
            successors=[
                self.doc.contradiction(update.superseded_by) if update.superseded_by else None
                for _, update in view.history
            ],
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

    def reference(self, view: CitationView, *, back_links: bool = True, level: int = 2) -> str:
        """A paper's entry in the bibliography (``reference.html``), given the record and what is
        known of it as rows of data: a site can reorder, drop or restyle any of them."""
        c = view.citation
        meta: list[tuple[str, Any]] = [("withdrawn", view.withdrawn_in)] if view.withdrawn_in is not None else []
        if c.year:
            meta.append(("year", c.year))
        meta += [("cited_by", x) for x in view.latest_counts]
        if c.openalex_id:
            meta.append(("openalex", c.openalex_id))
        if c.doi:
            meta.append(("doi", {"doi": c.doi, "href": "https://doi.org/" + url_quote(c.doi, safe="/:;()+")}))
        if c.oa_status:  # OpenAlex's own closed set of words, explained beside the source's word
            meta.append(("open_access", {"word": c.oa_status, "explained": labels.OPEN_ACCESS.get(c.oa_status)}))
        if c.card:
            meta.append(("card", {"path": c.card, "topic": c.card_topic}))
        meta.append(("verified", c.verified))
        places = self.layout.cited_at(arxiv_key(c.arxiv)) if back_links else None
        return self.render(
            "reference.html",
            view=view,
            citation=c,
            number=view.number,
            anchor=self.anchor_id(f"ref-{view.number}"),
            level=level,
            key=arxiv_key(c.arxiv),
            meta=meta,
            down_weighted=self.doc.contradiction(c.down_weighted_by) if c.down_weighted_by else None,
            back_links=None
            if places is None
            else [{"href": self.linker.url(p.page, p.anchor or None), "label": p.label} for p in places],
            words=REFERENCE_WORDS,
        )

    def follow_up(self, view: FollowUpView) -> str:
        """One follow-up (``follow_up.html``): the record, the items it concerns and its story."""
        fu = view.follow_up
        return self.render(
            "follow_up.html",
            view=view,
            id=fu.id,
            anchor=self.anchor_id("follow-up-" + fu.id),
            status=view.status.value,
            pending=view.pending,
            round=fu.round,
            text=fu.text,
            items=[i for i in fu.items if i in self.doc.items],
            words=FOLLOW_UP_WORDS,
        )

    def changes(self, brief: Brief) -> str:
        """Exactly what one brief did to the living doc (``changes.html``), each with what to link to
        where it happened."""
        ch = self.doc.changes[brief.id]
        rows: list[dict[str, Any]] = []
        for name in CHANGE_KINDS:
            ids = ch.of(name)
            if not ids:
                continue
            targets: list[Any]
            if name == "sections_opened":
                links = "section"
                targets = [{"number": str(n), "title": self.doc.sections[str(n)].section.title or ""} for n in ids]
            elif name == "citations_added":
                links = "citation"
                by_number = {v.number: v for v in self.doc.citations_by_brief.get(brief.id, [])}
                targets = [
                    {"number": n, "href": self.linker.url(self.layout.citation_page(by_number[n]), f"ref-{n}")}
                    for n in ch.citations_added
                ]
            elif name.startswith("entries") or name == "evidence_changed":
                links, targets = "entry", [str(i) for i in ids]
            elif name.startswith("contradictions"):
                links = "contradiction"
                targets = [v for v in (self.doc.contradiction(str(i)) for i in ids) if v is not None]
            else:  # a follow-up, by what it says, not by its id
                links, targets = "follow_up", []
                for i in ids:
                    view = self.doc.follow_up(str(i))
                    href = self.linker.url(self.layout.follow_up_page(view), f"follow-up-{i}")
                    targets.append({"view": view, "href": href})
            rows.append(
                {
                    "kind": name,
                    "label": labels.CHANGE_KINDS[name],
                    "count": len(ids),
                    "links": links,
                    "targets": targets,
                }
            )
        night = self.linker.url(changes_page(brief.topic, brief.date.strftime("%Y-%m")), night_anchor(brief.date))
        # the night's permalink: it sends the reader on to the past views' page
        past = as_of_link(self.linker, brief.topic, brief.date) if self.layout.past else ""
        return self.render(
            "changes.html", rows=rows, empty=labels.NO_CHANGES, night_href=night, past_href=past, words=CHANGE_WORDS
        )

    def errata(self, brief: Brief) -> str:
        """The errata this brief makes of earlier ones, and those later briefs made of it
        (``errata.html``; '' when there are none, so the page has no 勘误 heading)."""
        made = [
            {"erratum": e, "earlier": self.doc.briefs_by_id.get(e.brief), "item": self._item_in_doc(e.item)}
            for e in brief.errata
        ]
        received = [
            {"brief": later, "erratum": e, "item": self._item_in_doc(e.item)}
            for later, e in self.doc.errata_received.get(brief.id, [])
        ]
        if not made and not received:
            return ""
        return self.render("errata.html", made=made, received=received, words=ERRATA_WORDS)

    def _item_in_doc(self, item_id: str | None) -> str | None:
        """The id of an item the merged doc holds, or None (an erratum may name one no brief placed)."""
        return item_id if item_id is not None and item_id in self.doc.items else None

    def questions(self, brief: Brief) -> str:
        """The importer's open questions on this brief (``questions.html``): what is asked, what is
        published meanwhile, the candidates (the brief's words and ids, escaped like all brief text)."""
        return self.render("questions.html", questions=brief.questions, words=QUESTION_WORDS)

    def timeline(self, briefs: Sequence[Brief]) -> str:
        """Newest first: each brief with the counts of what it changed (``timeline.html``)."""
        return self.render("timeline.html", timeline=self.timeline_rows(briefs), no_briefs=labels.NO_BRIEFS)

    def timeline_rows(self, briefs: Sequence[Brief]) -> list[dict[str, Any]]:
        """The timeline's rows, newest first: each brief and (word, number) of each kind of change."""
        return [
            {"brief": b, "counts": self.change_counts(b)}
            for b in sorted(briefs, key=lambda b: (b.date, b.id), reverse=True)
        ]

    def change_counts(self, brief: Brief) -> list[tuple[str, int]]:
        """(word, number) of each kind of change a brief made, in the doc's order (none: left out)."""
        counts = self.doc.changes[brief.id].counts()
        return [(labels.CHANGE_KINDS[name], counts[name]) for name in CHANGE_KINDS if counts[name]]

    def counts_text(self, brief: Brief) -> str:
        """「新增条目 2 · 原地更新 1」 (plain: the feed's summary), or 「无改动」."""
        return " · ".join(f"{word} {count}" for word, count in self.change_counts(brief)) or labels.NO_CHANGES_SHORT
