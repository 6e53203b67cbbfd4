"""What keeps a site of years of daily briefs light, checked on a few dozen synthetic days."""

from __future__ import annotations

import re
import sys

import feedparser
import pytest

from conftest import ROOT
from digest_plugin.feed import FEED_ENTRIES, atom
from digest_plugin.model import Rules
from digest_plugin.pipeline import living_docs
from digest_plugin.render import Linker, Renderer

sys.path.insert(0, str(ROOT / "benchmarks"))
from synth import generate  # noqa: E402


@pytest.fixture(scope="module")
def doc(tmp_path_factory):
    data = generate(FEED_ENTRIES + 12, tmp_path_factory.mktemp("scale") / "data")
    return living_docs(data, rules=Rules(allow_future_dates=True))["inference"]


def test_the_feed_carries_the_newest_briefs_and_the_index_keeps_every_one(doc):
    feed = feedparser.parse(atom(doc).encode("utf-8"))
    assert feed.bozo == 0, feed.get("bozo_exception")
    newest = sorted(doc.briefs, key=lambda b: (b.date, b.id), reverse=True)
    assert [e.id.rsplit(":", 1)[1] for e in feed.entries] == [b.id for b in newest[:FEED_ENTRIES]]
    index = "".join(block.html for block in Renderer(doc, Linker("inference/briefs/index.md")).briefs_index(None)
                    if hasattr(block, "html"))
    index += "".join(block.html for year in doc.archive_years().get("briefs", [])
                     for block in Renderer(doc, Linker("inference/briefs/index.md")).briefs_index(year)
                     if hasattr(block, "html"))
    for brief in doc.briefs:  # what left the feed is still one click away
        assert f"{brief.date}" in index and brief.id in index, brief.id


def test_each_brief_page_lists_the_papers_it_added_and_no_other(doc):
    checked = 0
    for brief in doc.briefs:
        html = "".join(b.html for b in Renderer(doc, Linker("x.md")).brief(brief.id) if hasattr(b, "html"))
        own = {v.number for v in doc.citations.values() if v.brief.id == brief.id}
        assert {int(n) for n in re.findall(r'id="ref-(\d+)"', html)} == own, brief.id
        checked += bool(own)
    assert checked > 10
