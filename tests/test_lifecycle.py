"""The doc over time, over three fixture briefs after the real one (tests/fixtures/lifecycle/)."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path
from urllib.parse import urlsplit

import feedparser
import pytest
from helpers import LIFECYCLE, ROOT, built, copy_project

from digest_plugin.core.model import FollowUpStatus, Status
from digest_plugin.core.pipeline import living_docs

CALLOUTS = re.compile(r"<details[^>]*data-digest-contradiction=.*?</details>", re.S)


@pytest.fixture(scope="module")
def site(lifecycle_site) -> Path:
    return lifecycle_site


@pytest.fixture(scope="module")
def doc(lifecycle_data):
    return living_docs(lifecycle_data)["inference"]


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def element(html: str, attr: str, value: str) -> str:
    """The outer HTML of the first <section|details|li|article> carrying attr="value" (no nesting of the same tag)."""
    m = re.search(rf'<(section|details|li|article)\b[^>]*\b{attr}="{re.escape(value)}"[^>]*>.*?</\1>', html, re.S)
    assert m, f'no element with {attr}="{value}"'
    return m.group(0)


def test_the_fixtures_are_marked_and_not_shipped():
    fixtures = sorted(LIFECYCLE.glob("*.yml"))
    assert [f.name for f in fixtures] == [
        "2026-10-22-inference-E2.yml",
        "2026-10-23-inference-E1.yml",
        "2026-10-24-inference-E1.yml",
    ]
    for brief in fixtures:
        assert "TEST FIXTURE" in brief.read_text(encoding="utf-8")
        assert not (ROOT / "data" / "briefs" / brief.name).exists()


def test_kapitsa_current_state_first_then_history_and_chart(site):
    kapitsa = element(page(site, "inference/1"), "data-digest-entry", "kapitsa")
    assert 'data-brief="2026-10-24-inference-E1"' in kapitsa  # the brief that last changed it
    stars = re.search(r'<tr data-figure="stars">.*?</tr>', kapitsa, re.S).group(0)
    assert re.search(r'digest-figure__now">170 ⭐<', stars) and "截至 2026-10-24" in stars
    assert re.findall(r'digest-figure__old">(\d+)', stars) == ["105", "155", "160"]
    chart = re.search(r'<svg class="digest-chart".*?</svg>', stars, re.S).group(0)
    assert chart.count("<circle") == 4
    assert all(
        f"{d}：{v}" in chart
        for d, v in [("2026-10-19", 105), ("2026-10-21", 155), ("2026-10-22", 160), ("2026-10-24", 170)]
    )
    history = kapitsa[kapitsa.index("历史</strong>") :]
    assert re.findall(r"(2026-10-2\d) E\d 简报</a> · 原地更新", history) == [
        "2026-10-21",
        "2026-10-22",
        "2026-10-24",
    ]
    assert kapitsa.index("digest-figures") < kapitsa.index("历史</strong>")  # current state first


def test_a_reopened_contradiction_withholds_its_claim_again(site, doc):
    c = doc.contradiction("kapitsa-weekly-gain")
    assert c.status is Status.open
    assert [(b.id, u.change.value) for b, u in c.history] == [
        ("2026-10-22-inference-E2", "resolved"),
        ("2026-10-24-inference-E1", "reopened"),
    ]
    for path in ("inference/1", "inference/briefs/2026-10-21-inference-E1", "inference/briefs/2026-10-22-inference-E2"):
        outside = CALLOUTS.sub("", page(site, path))
        assert "+175" not in outside and ">175<" not in outside and "175（" not in outside, path
    register = element(page(site, "inference/register"), "data-digest-contradiction", "kapitsa-weekly-gain")
    assert 'data-status="open"' in register and "重新打开" in register and "解决" in register


def test_a_resolved_contradiction_collapses_on_its_section_page(site):
    callout = element(page(site, "inference/3"), "data-digest-contradiction", "long-prefill-no-version")
    assert 'data-status="resolved"' in callout
    assert " open " not in callout.split(">")[0] + " " and "已解决（2026-10-22）" in callout
    assert "vLLM v0.30–v0.30.1rc1" in callout


def test_a_superseded_contradiction_names_its_successor(site):
    register = page(site, "inference/register")
    old = element(register, "data-digest-contradiction", "vllm-version-basis")
    assert 'data-state="superseded"' in old and "contradiction-modelexpress-vllm-branch" in old


def test_evidence_raised_by_a_closed_follow_up(site, doc):
    entry = element(page(site, "inference/3"), "data-digest-entry", "vllm-long-prefill-freeze")
    assert re.search(r'class="digest-badge" data-evidence="partially_verified"', entry)
    assert "线索级 → 部分核查" in entry
    follow_up = next(f for f in doc.follow_ups if f.follow_up.id == "vllm-long-prefill-issue")
    assert follow_up.status is FollowUpStatus.done


def test_follow_ups_page_is_current(site):
    html = page(site, "inference/follow-ups")
    pending = re.search(r'data-list="pending">.*?</ol>', html, re.S).group(0)
    closed = re.search(r'data-list="closed">.*?</ol>', html, re.S).group(0)
    assert set(re.findall(r'data-follow-up="([^"]+)"', pending)) == {
        "modelexpress-dynamo-relation",
        "kapitsa-collector-audit",
    }
    assert set(re.findall(r'data-follow-up="([^"]+)"', closed)) == {
        "vllm-long-prefill-issue",
        "recsys-vol178-anchors",
        "paged-attention-version",
    }
    recsys = element(closed, "data-follow-up", "recsys-vol178-anchors")
    assert recsys.index("顺延") < recsys.index("已放弃：付费墙无法绕过")


def test_a_retracted_item_is_struck_through_and_leaves_the_counts(site, doc):
    entry = element(page(site, "inference/5"), "data-digest-entry", "braintrust-series-b")
    assert 'data-retracted="true"' in entry and "<del>" in entry and "财经媒体转载的金额无法与官方公告对上" in entry
    assert "entry-braintrust-series-b-official" in entry  # links to the item that supersedes it
    home = page(site, "inference")
    row = re.search(r'<tr data-section="5">.*?</tr>', home, re.S).group(0)
    live = sum(1 for n in ("5.1", "5.2", "5.3") for e in doc.sections[n].entries if not e.retracted)
    assert re.findall(r"<td>(\d+)</td>", row)[0] == str(live)
    assert live == sum(len(doc.sections[n].entries) for n in ("5.1", "5.2", "5.3")) - 1


def test_each_brief_page_says_what_that_day_changed(site):
    html = page(site, "inference/briefs/2026-10-23-inference-E1")
    changes = re.search(r'<ul class="digest-changes"[^>]*>.*?</ul>', html, re.S).group(0)
    counts = dict(re.findall(r'data-change="(\w+)" data-count="(\d+)"', changes))
    assert counts == {
        "entries_added": "2",
        "entries_retracted": "1",
        "contradictions_opened": "1",
        "contradictions_superseded": "1",
        "citations_added": "1",
        "follow_ups_opened": "1",
        "follow_ups_carried": "1",  # recsys-vol178-anchors, carried over: still open, not closed (issue 34)
    }
    assert "[529]" in changes


def test_citation_numbers_never_change(site, doc):
    assert doc.citations["1605.08803"].number == 528  # cited again as v2 on 2026-10-24: same paper, same number
    assert doc.citations["2309.06180"].number == 529
    bib = page(site, "inference/bibliography")
    assert len(re.findall(r'class="digest-ref"', bib)) == 2


def test_home_page_timeline(site):
    home = page(site, "")
    timeline = re.search(r'<ol class="digest-timeline".*?</ol>', home, re.S).group(0)
    assert re.findall(r'<li data-brief="([^"]+)"', timeline) == [
        "2026-10-24-inference-E1",
        "2026-10-23-inference-E1",
        "2026-10-22-inference-E2",
        "2026-10-21-inference-E1",
    ]
    assert "撤回条目 1" in timeline and "解决矛盾 2" in timeline


def test_atom_feed_is_valid_and_links_to_brief_pages(site):
    feed = feedparser.parse((site / "inference" / "feed.xml").read_bytes())
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert [e.id.rsplit(":", 1)[1] for e in feed.entries] == [
        "2026-10-24-inference-E1",
        "2026-10-23-inference-E1",
        "2026-10-22-inference-E2",
        "2026-10-21-inference-E1",
    ]
    for entry in feed.entries:  # absolute (the feed has an xml:base from site_url) and on a built page
        target = site / urlsplit(entry.link).path.lstrip("/")
        assert (target / "index.html").is_file(), entry.link
    assert "解决矛盾 2" in feed.entries[2].summary
    content = feed.entries[0].content[0].value  # links in it resolve (xml:base) to built pages
    hrefs = re.findall(r'href="([^"#]+)#', content)
    assert hrefs and all((site / urlsplit(h).path.lstrip("/") / "index.html").is_file() for h in hrefs)
    assert "§1.1 Kapitsa" in content


def test_rebuilding_gives_byte_identical_html(site, tmp_path):
    again = built(copy_project(tmp_path, lifecycle=True))
    left = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    right = sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert left == right
    differ = [
        str(p)
        for p in left
        if p.suffix in {".html", ".xml", ".json", ".css"} and not filecmp.cmp(site / p, again / p, shallow=False)
    ]
    assert differ == []
