"""What keeps a site of years of daily briefs light, checked on a few dozen synthetic days."""

from __future__ import annotations

import re
import sys

import feedparser
import pytest
from helpers import ROOT

from digest_plugin.core.arxiv import key as arxiv_key
from digest_plugin.core.model import Rules
from digest_plugin.core.pipeline import living_docs
from digest_plugin.site.feed import FEED_ENTRIES, atom
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.render import Renderer

sys.path.insert(0, str(ROOT / "benchmarks"))
from synth import generate


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    data = generate(FEED_ENTRIES + 12, tmp_path_factory.mktemp("scale") / "data")
    return living_docs(data, rules=Rules(allow_future_dates=True))["inference"]


def test_the_feed_carries_the_newest_briefs_and_the_index_keeps_every_one(doc):
    feed = feedparser.parse(atom(Layout(doc)).encode("utf-8"))
    assert feed.bozo == 0, feed.get("bozo_exception")
    newest = sorted(doc.briefs, key=lambda b: (b.date, b.id), reverse=True)
    assert [e.id.rsplit(":", 1)[1] for e in feed.entries] == [b.id for b in newest[:FEED_ENTRIES]]
    index = "".join(
        block.html
        for block in Renderer(Layout(doc), Linker("inference/briefs/index.md")).briefs_index(None)
        if hasattr(block, "html")
    )
    index += "".join(
        block.html
        for month in Layout(doc).archive_months.get("briefs", [])
        for block in Renderer(Layout(doc), Linker("inference/briefs/index.md")).briefs_index(month)
        if hasattr(block, "html")
    )
    for brief in doc.briefs:  # what left the feed is still one click away
        assert f"{brief.date}" in index and brief.id in index, brief.id


def test_each_brief_page_lists_the_papers_it_lists_and_no_other(doc):
    """The papers it added, and those it cites again (with the number they were first given)."""
    checked = 0
    for brief in doc.briefs:
        html = "".join(b.html for b in Renderer(Layout(doc), Linker("x.md")).brief(brief.id) if hasattr(b, "html"))
        own = {doc.citations[arxiv_key(c.arxiv)].number for c in brief.citations}
        assert {int(n) for n in re.findall(r'id="ref-(\d+)"', html)} == own, brief.id
        checked += bool(own)
    assert checked > 10


def _analyse_both_ways(data, monkeypatch):
    from digest_plugin.core import load
    from digest_plugin.core.pipeline import analyse

    rules = Rules(allow_future_dates=True)
    serial = analyse(data, rules=rules)
    monkeypatch.setattr(load, "PARALLEL_FROM", 2)  # checks in a forked worker while this process merges
    return serial, analyse(data, rules=rules)


def test_checking_beside_the_merge_finds_what_checking_first_finds(tmp_path, monkeypatch):
    data = generate(12, tmp_path / "data")
    brief = sorted((data / "briefs").glob("*.yml"))[-1]
    text = brief.read_text(encoding="utf-8")
    brief.write_text(re.sub(r"section: \"?[0-9.]+\"?", 'section: "9.9"', text, count=1), encoding="utf-8")
    serial, parallel = _analyse_both_ways(data, monkeypatch)
    assert serial.docs is None and parallel.docs is None
    assert parallel.findings == serial.findings
    assert any("unknown section §9.9" in f.message for f in parallel.findings)


def test_checking_beside_the_merge_publishes_the_same_doc(tmp_path, monkeypatch):
    serial, parallel = _analyse_both_ways(generate(12, tmp_path / "data"), monkeypatch)
    assert parallel.findings == serial.findings
    pages = {}
    for name, result in (("serial", serial), ("parallel", parallel)):
        doc = result.docs["inference"]
        renderer = Renderer(Layout(doc), Linker("inference/register.md"))
        pages[name] = [block.html for block in renderer.register(None) if hasattr(block, "html")]
    assert pages["parallel"] == pages["serial"] and pages["serial"]


def test_a_serve_rebuild_frees_what_the_last_build_left_behind(data_copy):
    """Loaded data is frozen out of the GC's sight; a rebuild must not keep the last build's garbage forever."""
    import gc
    import weakref

    from digest_plugin.core.pipeline import analyse

    class Cycle:
        pass

    enabled = gc.isenabled()
    gc.disable()  # no collection but the one the rebuild itself makes
    try:
        analyse(data_copy)  # a first build: what it loaded is frozen
        garbage = Cycle()
        garbage.me = garbage  # garbage only the cyclic collector can free, like a built site's pages
        gone = weakref.ref(garbage)
        del garbage
        analyse(data_copy)  # the rebuild
        assert gone() is None
    finally:
        if enabled:
            gc.enable()
