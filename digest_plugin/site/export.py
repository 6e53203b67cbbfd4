"""The merged doc for machines: ``digest export`` (JSON) and the JSON-LD each section page carries.

Why: other tools (a dashboard, an audit of what was published when, a later migration) should not
have to scrape the HTML to learn what each statement says, where it came from and how solid it
is.  Every statement carries its provenance: the brief and item that placed it, its dates, its
evidence level and gaps, and the contradictions on it with their status.

Both go through the renderer's one text path (:meth:`Renderer.plain`): a claim an open
contradiction withholds is not in the export and not in the JSON-LD, exactly as on the page.  The
JSON-LD uses schema.org (``isBasedOn``, ``citation``, ``dateModified``) and W3C PROV-O
(``wasDerivedFrom``, ``generatedAtTime``) with an inline context, so a processor needs no network.
Pure: merged doc in, data out; the hosts write it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.arxiv import key as arxiv_key
from ..core.doc import ContradictionView, EntryView
from .layout import Layout, Linker, brief_page, entry_anchor, item_anchor, page_url
from .render import Renderer

FORMAT = "digest-export/1"
"""The export's format name and version: a reader of the file checks it."""
CONTEXT: dict[str, Any] = {
    "schema": "https://schema.org/",
    "prov": "http://www.w3.org/ns/prov#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "digest": "urn:digest:vocab:",
}
"""Inline JSON-LD context (no remote document to fetch)."""
ARXIV_ABS = "https://arxiv.org/abs/"


def _date(day: Any) -> dict[str, str]:
    return {"@value": day.isoformat(), "@type": "xsd:date"}


def _moment(day: Any) -> dict[str, str]:
    """PROV's generatedAtTime is a date-time: a brief gives a date, stamped at 00:00 UTC (as the feed does)."""
    return {"@value": f"{day.isoformat()}T00:00:00Z", "@type": "xsd:dateTime"}


class Exporter:
    """One topic's statements, contradictions and citations as data, links relative to ``page``."""

    def __init__(self, layout: Layout, page: str, directory_urls: bool = True) -> None:
        self.layout = layout
        self.doc = layout.doc
        self.linker = Linker(page, directory_urls)
        self.renderer = Renderer(layout, self.linker)
        self.directory_urls = directory_urls

    # ------------------------------------------------------------------ links

    def entry_url(self, entry: EntryView) -> str:
        return self.linker.url(self.layout.entry_page(entry.id), entry_anchor(entry.id))

    def site_path(self, page: str, anchor: str | None = None) -> str:
        """A site-relative URL (for the JSON export: no page to be relative to)."""
        return page_url(page, self.directory_urls) + (f"#{anchor}" if anchor else "")

    # ------------------------------------------------------------------ the export

    def statement(self, entry: EntryView) -> dict[str, Any]:
        plain = self.renderer.plain
        first = entry.first_update
        last = entry.last_brief
        evidence = entry.current_evidence
        return {
            "id": entry.id,
            "section": entry.section,
            "title": plain(entry.title),
            "url": self.site_path(self.layout.entry_page(entry.id), entry_anchor(entry.id)),
            "origin": "outline" if entry.baseline is not None else "brief",
            "retracted": entry.retracted,
            "evidence": None
            if evidence is None
            else {
                "level": evidence.level,
                "level_label": self.doc.vocabulary.label("evidence_levels", evidence.level),
                "gaps": list(evidence.gaps),
                "source_kinds": list(evidence.source_kinds),
                "boundary": plain(evidence.boundary) if evidence.boundary else None,
            },
            "provenance": None
            if first is None or first.brief is None
            else {
                "brief": first.brief.id,
                "item": first.item.id if first.item else None,
                "date": first.brief.date.isoformat(),
                "url": self.site_path(brief_page(first.brief), item_anchor(first.item.id) if first.item else None),
            },
            "last_changed": None if last is None else {"brief": last.id, "date": last.date.isoformat()},
            "history": [
                {
                    "change": u.kind,
                    "brief": u.brief.id if u.brief else None,
                    "date": u.brief.date.isoformat() if u.brief else None,
                }
                for u in entry.history
            ],
            "sources": [str(u) for u in entry.item.sources.urls] if entry.item else [],
            "contradictions": [self.contradiction_ref(c) for c in self.renderer.contradictions_of(entry)],
        }

    def contradiction_ref(self, view: ContradictionView) -> dict[str, Any]:
        return {"id": view.id, "status": view.status.value, "disposition": view.disposition}

    def contradiction(self, view: ContradictionView) -> dict[str, Any]:
        c = view.contradiction
        return {
            **self.contradiction_ref(view),
            "brief": view.brief.id,
            "number": c.number,
            "title": self.renderer.plain(c.title),
            "text": self.renderer.plain(c.text),
            "sections": list(view.sections),
            "items": list(c.touches.items),
            "withheld_claims": len(c.withheld),
            "url": self.site_path(self.layout.contradiction_page(view), f"contradiction-{view.id}"),
        }

    def topic(self) -> dict[str, Any]:
        doc = self.doc
        return {
            "topic": doc.topic,
            "title": self.renderer.plain(doc.outline.title),
            "briefs": [{"id": b.id, "date": b.date.isoformat(), "round": b.round} for b in doc.briefs],
            "statements": [self.statement(e) for e in sorted(doc.entries.values(), key=lambda e: e.id)],
            "contradictions": [self.contradiction(c) for c in doc.contradictions],
            "citations": [
                {
                    "number": v.number,
                    "arxiv": arxiv_key(v.citation.arxiv),
                    "title": self.renderer.plain(v.citation.title),
                    "year": v.citation.year,
                    "brief": v.brief.id,
                    "down_weighted_by": v.citation.down_weighted_by,
                }
                for v in doc.citations.values()
            ],
        }

    # ------------------------------------------------------------------ JSON-LD

    def statement_node(self, entry: EntryView) -> dict[str, Any]:
        """One statement as schema.org and PROV-O say it, its IRIs relative to the page."""
        plain = self.renderer.plain
        first = entry.first_update
        last = entry.last_brief
        node: dict[str, Any] = {
            "@id": self.entry_url(entry),
            "@type": ["schema:Claim", "prov:Entity"],
            "schema:name": plain(entry.title),
        }
        if last is not None:
            node["schema:dateModified"] = _date(last.date)
        if first is not None and first.brief is not None:
            node["prov:generatedAtTime"] = _moment(first.brief.date)
            derived = [  # the items that said it (an evidence update or a correction is not an item of its brief)
                {"@id": self.linker.url(brief_page(u.brief), item_anchor(u.item.id))}
                for u in entry.history
                if u.brief and u.item and any(i.id == u.item.id for i in u.brief.items)
            ]
            node["prov:wasDerivedFrom"] = derived or [{"@id": self.linker.url(brief_page(first.brief))}]
        if entry.item is not None:
            node["schema:isBasedOn"] = [{"@id": str(u)} for u in entry.item.sources.urls]
            cited = sorted(self.layout.papers_by_item.get(entry.item.id, ()))
            if cited:
                node["schema:citation"] = [{"@id": ARXIV_ABS + k} for k in cited]
        evidence = entry.current_evidence
        if evidence is not None:
            node["digest:evidenceLevel"] = evidence.level
            node["digest:evidenceGaps"] = list(evidence.gaps)
        return node

    def page_graph(self, entries: Sequence[EntryView]) -> dict[str, Any]:
        dates = [e.last_brief.date for e in entries if e.last_brief is not None]
        page: dict[str, Any] = {
            "@id": "",
            "@type": "schema:WebPage",
            "schema:hasPart": [{"@id": self.entry_url(e)} for e in entries],
        }
        if dates:
            page["schema:dateModified"] = _date(max(dates))
        return {"@context": CONTEXT, "@graph": [page, *(self.statement_node(e) for e in entries)]}


def script(data: Mapping[str, Any]) -> str:
    """JSON-LD in a page: ``<script type="application/ld+json">``, its text unable to end the element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/ld+json">{text}</script>'


def export(layouts: Mapping[str, Layout], directory_urls: bool = True) -> dict[str, Any]:
    """``digest export``: every topic's statements with their provenance, contradictions, citations."""
    return {
        "format": FORMAT,
        "topics": [Exporter(layouts[t], "index.md", directory_urls).topic() for t in sorted(layouts)],
    }
