"""An Atom feed of a topic's briefs and what each changed.  Pure: merged doc in, XML text out.

Atom needs a date-time with a zone; a brief gives a date (and a local time without a zone), so
each entry is stamped at 00:00 UTC of the brief's date rather than guessing the zone.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from ..core import labels
from .layout import Layout, Linker, brief_page, briefs_index_page, feed_page
from .render import Renderer

FEED_ENTRIES = 50
"""Briefs in the feed, newest first.  A reader polls it for what is new; every older brief stays on
the briefs index and its monthly archives (at 3650 briefs a full feed weighed 17 MB)."""


def atom(layout: Layout, site_url: str | None = None, directory_urls: bool = True) -> str:
    """The feed of the newest briefs; links are relative to the feed unless ``site_url`` is set."""
    doc = layout.doc
    feed = feed_page(doc.topic)
    base = (site_url.rstrip("/") + "/" + feed.rpartition("/")[0] + "/") if site_url else None
    linker = Linker(feed, directory_urls)
    renderer = Renderer(layout, linker)  # links in entry content are relative to the feed itself
    briefs = sorted(doc.briefs, key=lambda b: (b.date, b.id), reverse=True)[:FEED_ENTRIES]
    updated = f"{briefs[0].date.isoformat()}T00:00:00Z" if briefs else "1970-01-01T00:00:00Z"
    topic_id = f"urn:digest:{doc.topic}"
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="zh"{" xml:base=" + quoteattr(base) if base else ""}>',
        f"<title>{escape(labels.FEED_TITLE.format(title=renderer.plain(doc.outline.title)))}</title>",
        f"<id>{topic_id}</id>",
        f"<updated>{updated}</updated>",
        f"<author><name>{escape(renderer.plain(doc.outline.title))}</name></author>",
        f'<link rel="self" type="application/atom+xml" href={quoteattr(feed.rpartition("/")[2])}/>',
        f'<link rel="alternate" type="text/html" href={quoteattr(linker.url(briefs_index_page(doc.topic)))}/>',
    ]
    for brief in briefs:
        counts = renderer.counts_text(brief)
        href = linker.url(brief_page(brief))
        out += [
            "<entry>",
            f"<title>{escape(renderer.plain(brief.title))}</title>",
            f"<id>{topic_id}:brief:{brief.id}</id>",
            f"<updated>{brief.date.isoformat()}T00:00:00Z</updated>",
            f'<link rel="alternate" type="text/html" href={quoteattr(href)}/>',
            *([f"<author><name>{escape(renderer.plain(brief.author))}</name></author>"] if brief.author else []),
            f"<summary>{escape(counts)}</summary>",
            f'<content type="html">{escape(renderer.changes(brief))}</content>',
            "</entry>",
        ]
    out.append("</feed>")
    return "\n".join(out) + "\n"


__all__ = ["FEED_ENTRIES", "atom"]
