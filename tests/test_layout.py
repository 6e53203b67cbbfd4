"""Layout: the URL of every page, links relative to the page they are on, archive years, back-links."""

from __future__ import annotations

import datetime as dt
import itertools
import sys
from urllib.parse import urljoin

import pytest
from helpers import ROOT
from mkdocs.structure.files import File

from digest_plugin.core import labels
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Rules
from digest_plugin.core.pipeline import living_docs
from digest_plugin.site.layout import Layout, Linker, Place, hand_written_places, page_url, relative_url

SITE = "https://example.org/site/"
SOURCES = [
    "index.md",
    "inference/index.md",
    "inference/1.md",
    "inference/1/2026.md",
    "inference/register.md",
    "inference/register/2026-10.md",
    "inference/briefs/index.md",
    "inference/briefs/2026-10-21-inference-E1.md",
    "training/bibliography.md",
]
"""Source paths of the kinds of page the site has (home, topic home, section, archive year, register, brief…)."""


# --------------------------------------------------------------------------- URLs


@pytest.mark.parametrize("directory_urls", [True, False])
@pytest.mark.parametrize("src", [*SOURCES, "inference/feed.xml"])
def test_page_url_is_the_url_mkdocs_gives_the_page(src, directory_urls):
    mkdocs = File(src, "docs", "site", use_directory_urls=directory_urls).url
    assert urljoin(SITE, page_url(src, directory_urls)) == urljoin(SITE, mkdocs)


def test_page_url_examples():
    assert page_url("inference/1.md") == "inference/1/"
    assert page_url("inference/index.md") == "inference/"
    assert page_url("index.md") == ""  # the site's root
    assert page_url("inference/1.md", directory_urls=False) == "inference/1.html"
    assert page_url("inference/feed.xml") == "inference/feed.xml"  # not a page: its own path


@pytest.mark.parametrize("directory_urls", [True, False])
def test_a_relative_url_leads_from_the_base_to_the_url(directory_urls):
    urls = [page_url(src, directory_urls) for src in SOURCES] + ["inference/feed.xml"]
    for url, base in itertools.product(urls, urls):
        assert urljoin(SITE + base, relative_url(url, base)) == SITE + url, (url, base)


def test_relative_url_examples():
    assert relative_url("inference/register/", "inference/1/") == "../register/"
    assert relative_url("inference/1/", "inference/1/") == "./"
    assert relative_url("", "inference/briefs/x/") == "../../../"
    assert relative_url("inference/1.html", "index.html") == "inference/1.html"
    assert relative_url("index.html", "inference/briefs/x.html") == "../../index.html"


# --------------------------------------------------------------------------- the linker


def test_links_are_relative_to_the_page():
    assert Linker("inference/1.md").url("inference/register.md", "c") == "../register/#c"
    assert Linker("inference/briefs/x.md").url("inference/3.md") == "../../3/"
    assert Linker("index.md", directory_urls=False).url("inference/1.md") == "inference/1.html"
    assert Linker("inference/briefs/x.md", directory_urls=False).url("index.md") == "../../index.html"


def test_a_link_to_the_same_page_is_its_anchor():
    assert Linker("inference/1.md").url("inference/1.md", "entry-kapitsa") == "#entry-kapitsa"
    assert Linker("inference/1.md").url("inference/1.md") == "./"
    assert Linker("inference/1.md", directory_urls=False).url("inference/1.md", "a") == "#a"
    assert Linker("inference/1.md", source_links=True).url("inference/1.md", "a") == "#a"


@pytest.mark.parametrize("directory_urls", [True, False])
def test_every_link_lands_on_its_target(directory_urls):
    for page, target in itertools.product(SOURCES, SOURCES):
        link = Linker(page, directory_urls).url(target, "x")
        here = SITE + page_url(page, directory_urls)
        assert urljoin(here, link) == SITE + page_url(target, directory_urls) + "#x", (page, target)


def test_source_links_name_the_source_file_for_the_host_to_resolve():
    linker = Linker("inference/1.md", source_links=True)
    assert linker.url("inference/register.md", "c") == "register.md#c"
    assert Linker("inference/briefs/x.md", source_links=True).url("inference/3.md") == "../3.md"
    for page, target in itertools.product(SOURCES, SOURCES):
        if page != target:
            link = Linker(page, source_links=True).url(target, "x")
            assert urljoin(SITE + page, link) == SITE + target + "#x", (page, target)


# --------------------------------------------------------------------------- pages and archive years


def test_entries_items_and_papers_have_their_pages(shipped):
    doc = merge(shipped.outlines["inference"], shipped.briefs)
    layout = Layout(doc)
    assert layout.entry_page("kapitsa") == "inference/1.md"
    assert layout.item_target("llm-d-1-0") == ("inference/5.md", "entry-llm-d-1-0")  # 建议归入 §5.1
    assert layout.item_target("kapitsa-card-refresh") == ("inference/1.md", "entry-kapitsa")  # updates Kapitsa
    assert layout.citation_page(doc.citations["1605.08803"]) == "inference/bibliography.md"
    assert layout.archive_months == {}  # one day of briefs: nothing is old


def test_an_item_kept_off_the_section_pages_is_found_on_its_brief_page(shipped):
    (brief,) = shipped.briefs
    item = brief.items[6]  # Braintrust, made discard-level here
    discarded = item.model_copy(update={"evidence": item.evidence.model_copy(update={"level": "discard"})})
    brief = brief.model_copy(update={"items": [*brief.items[:6], discarded]})
    layout = Layout(merge(shipped.outlines["inference"], [brief]))
    assert layout.item_target(item.id) == (f"inference/briefs/{brief.id}.md", f"item-{item.id}")


def test_with_a_one_day_window_what_settled_before_2026_10_23_moves_to_2026_10(lifecycle):
    # the newest lifecycle brief is 2026-10-24: a 1-day window keeps 10-23 and 10-24 on the main pages
    layout = Layout(merge(lifecycle.outlines["inference"], lifecycle.briefs, Rules(archive_after_days=1)))
    doc = layout.doc
    assert layout.entry_month(doc.entries["llm-d-1-0"]) == "2026-10"  # placed 10-21, untouched since
    assert layout.entry_page("llm-d-1-0") == "inference/5/2026-10.md"
    assert layout.entry_month(doc.entries["kapitsa"]) is None  # refreshed 10-24
    assert layout.entry_month(doc.entries["llm-d-v0-8"]) is None  # the outline's own entries never move
    assert layout.contradiction_page(doc.contradiction("long-prefill-no-version")) == "inference/register/2026-10.md"
    assert layout.contradiction_month(doc.contradiction("kapitsa-weekly-gain")) is None  # open again
    assert layout.follow_up_page(doc.follow_up("vllm-long-prefill-issue")) == "inference/follow-ups/2026-10.md"
    # still pending, but no brief touched it after 10-21: on its month's page (the main page counts it)
    assert layout.follow_up_month(doc.follow_up("modelexpress-dynamo-relation")) == "2026-10"
    assert layout.citation_month(doc.citations["1605.08803"]) == "2026-10"  # cited 10-21
    assert layout.citation_month(doc.citations["2309.06180"]) is None  # cited 10-23
    assert [layout.brief_month(b) for b in doc.briefs] == ["2026-10", "2026-10", None, None]
    months = layout.archive_months
    assert {"register", "follow-ups", "bibliography", "briefs", "5"} <= set(months)
    assert all(found == ["2026-10"] for found in months.values())


def test_with_the_default_window_nothing_is_archived(lifecycle):
    assert Layout(merge(lifecycle.outlines["inference"], lifecycle.briefs)).archive_months == {}


def test_archive_months_across_a_new_year(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import generate

    # 80 daily briefs from 2026-10-21: the last is 2027-01-08, and a 5-day window starts on 2027-01-03
    data = generate(80, tmp_path / "data")
    doc = living_docs(data, rules=Rules(allow_future_dates=True, archive_after_days=5))["inference"]
    layout = Layout(doc)
    assert max(b.date for b in doc.briefs) == dt.date(2027, 1, 8)
    # 2026-10-21…31, November, December and 2027-01-01…01-02: one page a month, months in order
    assert layout.archive_months["briefs"] == ["2026-10", "2026-11", "2026-12", "2027-01"]
    assert {layout.brief_month(b) for b in doc.briefs if b.date >= dt.date(2027, 1, 3)} == {None}
    assert all(set(found) <= {"2026-10", "2026-11", "2026-12", "2027-01"} for found in layout.archive_months.values())


# --------------------------------------------------------------------------- where papers are cited


PAGES = [
    ("inference/index.md", '# inference 活文档\n\n见 {{ cite("1605.08803") }}。\n'),
    ("inference/5.md", "# §5\n\n[[cite 1605.08803v2]] 与 [[cite 2309.06180]]，又见 {{ cite('1605.08803') }}。\n"),
    ("notes.md", 'no heading here: {{ cite( "1605.08803" ) }}\n'),
]


def test_hand_written_citations_are_found_whatever_order_the_pages_come_in(shipped):
    doc = merge(shipped.outlines["inference"], shipped.briefs)
    found = hand_written_places(doc, PAGES)
    for order in itertools.permutations(PAGES):
        assert hand_written_places(doc, list(order)) == found
    assert found == {
        "1605.08803": (
            Place("inference/5.md", "cite-1605.08803", "§5"),  # the v2 and the plain id are one paper, one place
            Place("inference/index.md", "cite-1605.08803", "inference 活文档"),
            Place("notes.md", "cite-1605.08803", "notes.md"),  # no heading: named by its path
        )
    }  # 2309.06180 is cited by no brief of this doc: no back-link to make


def test_a_paper_is_cited_at_its_brief_then_where_the_data_mentions_it_then_by_hand(shipped):
    doc = merge(shipped.outlines["inference"], shipped.briefs)
    layout = Layout(doc, hand_written_places(doc, PAGES[:1]))
    (brief,) = shipped.briefs
    # contradiction 11 ("Real NVP（arXiv:1605.08803）需降权") touches the paper; number 528 after the doc's 527
    mentioned = [c for c in brief.contradictions if "1605.08803" in c.title + c.text + " ".join(c.touches.citations)]
    assert [c.number for c in mentioned] == [11]
    assert layout.cited_at("1605.08803") == [
        Place(f"inference/briefs/{brief.id}.md", "ref-528", labels.BRIEF_NAME.format(date=brief.date, round="E1")),
        Place(
            "inference/register.md",
            "contradiction-real-nvp-down-weight",
            labels.PLACE_REGISTERED_CONTRADICTION.format(number=11),
        ),
        Place("inference/index.md", "cite-1605.08803", "inference 活文档"),
    ]
    assert layout.cited_at("2309.06180") == []
