"""Hostile text in every free-text field of a brief renders inert on every page (no MkDocs needed)."""

from __future__ import annotations

import json
import re
from html import escape
from html.parser import HTMLParser

from helpers import ROOT
from ruamel.yaml import YAML

from digest_plugin.core.load import Cache
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief, Outline
from digest_plugin.core.pipeline import analyse
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.render import Renderer
from digest_plugin.site.text import Heading

PAYLOAD = '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>{{ 7*7 }}__init__'
TEXT_KEYS = {
    "title",
    "text",
    "boundary",
    "relation",
    "points_note",
    "anchor",
    "scope",
    "author",
    "round_label",
    "materials_note",
    "items_heading",
    "citations_note",
    "citations_not_registered",
    "follow_ups_heading",
    "required_label",
    "use_note",
    "entry_title",
    "note",
    "label",
    "unit",
    "card_topic",
    "oa_status",
    "version",
    "written_at",
    "checklist",
    "job_id",
    "reason",
}
TEXT_LISTS = {"points", "guards", "notes", "conclusions"}


class LiveMarkup(HTMLParser):
    """Collects what a browser would run: script-ish tags, on* handlers, javascript: links."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "img", "iframe", "style", "object", "embed"}:
            self.found.append(tag)
        for name, value in attrs:
            if name.startswith("on") or (
                name in {"href", "src"} and (value or "").strip().lower().startswith("javascript:")
            ):
                self.found.append(f"{tag}[{name}={value}]")


def poison(node, parent_key=None):
    """Every free-text value gets the payload; ids, codes, URLs, paths and dates stay valid."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in TEXT_KEYS and isinstance(value, str):
                node[key] = PAYLOAD + value
            elif key in TEXT_LISTS and isinstance(value, list):
                node[key] = [PAYLOAD + v for v in value]
            elif key == "withheld":
                continue  # the claim's spellings must still match the text they withhold
            else:
                poison(value, key)
    elif isinstance(node, list):
        for value in node:
            poison(value, parent_key)
    return node


def every_page(doc) -> str:
    html = []
    for top in doc.top_sections():
        html += Renderer(Layout(doc), Linker(f"inference/{top.number}.md")).section(top.number)
    html += Renderer(Layout(doc), Linker("inference/register.md")).register()
    html += Renderer(Layout(doc), Linker("inference/bibliography.md")).bibliography()
    html += Renderer(Layout(doc), Linker("inference/follow-ups.md")).follow_ups()
    html += Renderer(Layout(doc), Linker("inference/index.md")).overview()
    for brief in doc.briefs:
        html += Renderer(Layout(doc), Linker(f"inference/briefs/{brief.id}.md")).brief(brief.id)
    # headings go to the host as element text, which Python-Markdown escapes when it serializes
    return "".join(escape(b.text) if isinstance(b, Heading) else b.html for b in html)


def test_every_text_field_is_escaped_on_every_page():
    yaml = YAML(typ="safe")
    brief_data = poison(yaml.load((ROOT / "data/briefs/2026-10-21-inference-E1.yml").read_text(encoding="utf-8")))
    outline_data = poison(yaml.load((ROOT / "data/outlines/inference.yml").read_text(encoding="utf-8")))
    brief, outline = Brief.model_validate(brief_data), Outline.model_validate(outline_data)
    html = every_page(merge(outline, [brief]))
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") > 100  # the payload is there, shown as text
    live = LiveMarkup()
    live.feed(html)
    assert live.found == []  # no live tag, event handler or script link: the payload is only ever text


def _marked(node, path=()):
    """Every free-text value starts with a marker naming its place (``⟦items.3.title⟧``)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in TEXT_KEYS and isinstance(value, str):
                node[key] = f"⟦{'.'.join(map(str, (*path, key)))}⟧{value}"
            elif key in TEXT_LISTS and isinstance(value, list):
                node[key] = [f"⟦{'.'.join(map(str, (*path, key, n)))}⟧{v}" for n, v in enumerate(value)]
            elif key != "withheld":
                _marked(value, (*path, key))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            _marked(value, (*path, n))
    return node


def test_every_text_field_of_a_brief_is_shown_somewhere():
    """Nothing in a brief is lost: each free-text value is on some page (an attack corpus found three
    that were on none: a placement alternative's note, a later brief's figure label, the materials a
    contradiction was read in)."""
    yaml = YAML(typ="safe")
    brief_data = _marked(yaml.load((ROOT / "data/briefs/2026-10-21-inference-E1.yml").read_text(encoding="utf-8")))
    outline = Outline.model_validate(yaml.load((ROOT / "data/outlines/inference.yml").read_text(encoding="utf-8")))
    html = every_page(merge(outline, [Brief.model_validate(brief_data)]))
    markers = re.findall(r"⟦[^⟧]+⟧", json.dumps(brief_data, ensure_ascii=False, default=str))
    assert len(markers) > 100
    assert [m for m in markers if m not in html] == []


def test_a_rebuild_with_no_data_change_does_no_data_work(data_copy):
    cache = Cache()
    first = analyse(data_copy, cache=cache)
    again = analyse(data_copy, cache=cache, previous=first)
    assert cache.reads == 0 and again is first  # nothing read, nothing merged: the same result
    brief = data_copy / "briefs" / "2026-10-21-inference-E1.yml"
    brief.write_text(brief.read_text(encoding="utf-8").replace("value: 155", "value: 157"), encoding="utf-8")
    third = analyse(data_copy, cache=cache, previous=again)
    assert cache.reads == 1 and third is not first
    assert third.docs["inference"].entries["kapitsa"].figures[0].current.value == 157
