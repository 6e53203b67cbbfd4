"""The renderer, without MkDocs: what each page will say, with brief text escaped and withheld claims masked."""

from __future__ import annotations

import re
import sys

import pytest
from helpers import ROOT, later_brief

from digest_plugin.core.merge import merge
from digest_plugin.core.model import Rules
from digest_plugin.core.pipeline import living_docs
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.render import Renderer
from digest_plugin.site.text import Raw

CALLOUT = re.compile(r"<details[^>]*\bdata-digest-contradiction=.*?</details>", re.S)
"""A contradiction callout: the one place on a section page a withheld claim may be quoted."""


@pytest.fixture(scope="module")
def doc(shipped):
    return merge(shipped.outlines["inference"], shipped.briefs)


def html_of(blocks) -> str:
    return "".join(b.html if isinstance(b, Raw) else f"<h{b.level}>{b.text}</h{b.level}>" for b in blocks)


def renderer(doc, page: str) -> Renderer:
    return Renderer(Layout(doc), Linker(page))


def test_output_does_not_depend_on_the_order_briefs_are_given(shipped):
    outline = shipped.outlines["inference"]
    briefs = [*shipped.briefs, later_brief()]
    pages = []
    for order in (briefs, briefs[::-1]):
        doc = merge(outline, order)
        pages.append(
            html_of(renderer(doc, "inference/1.md").section("1"))
            + html_of(renderer(doc, "inference/bibliography.md").bibliography())
        )
    assert pages[0] == pages[1]
    assert "[529]" in pages[0]  # the later brief's new paper is there, in both orders


def test_withheld_claim_only_inside_its_callout(doc):
    html = html_of(renderer(doc, "inference/1.md").section("1"))
    outside = CALLOUT.sub("", html)
    assert "+175" not in outside
    assert "〔暂扣，见矛盾 1〕" in outside
    callout = re.search(r'<details[^>]*data-digest-contradiction="kapitsa-weekly-gain".*?</details>', html, re.S)
    assert "+175 周增" in callout.group(0)


def test_arxiv_mentions_become_numbered_links(doc):
    html = html_of(renderer(doc, "inference/register.md").register())
    # on the register, the mention links to the paper's bibliography entry, numbered as there
    assert re.search(
        r'<a class="digest-cite" href="../bibliography/#ref-528"[^>]*>arXiv:1605.08803 <span[^>]*>\[528\]', html
    )


def test_brief_text_is_inert(shipped):
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(1)> {{ 7*7 }} __init__ [x](javascript:alert(1))"
    brief = shipped.briefs[0]
    item = brief.items[0].model_copy(update={"points": [hostile]})
    brief = brief.model_copy(update={"items": [item, *brief.items[1:]]})
    doc = merge(shipped.outlines["inference"], [brief])
    html = html_of(renderer(doc, "inference/5.md").section("5"))
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{ 7*7 }}" in html and "__init__" in html
    assert 'href="javascript' not in html


def test_every_item_is_on_its_section_page_with_its_hooks_and_evidence(shipped, doc):
    (brief,) = shipped.briefs
    for item in brief.items:
        section = item.placement.section
        html = html_of(renderer(doc, f"inference/{section.split('.')[0]}.md").section(section.split(".")[0]))
        (start,) = re.findall(rf'<section class="digest-entry[^>]*data-digest-item="{item.id}"[^>]*>', html)
        assert f'data-section="{section}"' in start and f'data-brief="{brief.id}"' in start, item.id
        entry = html[html.index(start) :]
        badge = re.search(r'<span class="digest-badge" data-evidence="(\w+)"', entry).group(1)
        assert badge == item.evidence.level, item.id
        assert item.evidence.boundary in entry, item.id


def test_an_entry_updated_every_day_stays_readable(tmp_path):
    """30 daily Kapitsa refreshes: the first and latest rows of history, the latest values, a bounded chart."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import generate

    doc = living_docs(generate(30, tmp_path / "data"), rules=Rules(allow_future_dates=True))["inference"]
    kapitsa = doc.entries["kapitsa"]
    assert len(kapitsa.history) == 31  # the baseline and 30 refreshes are all kept
    html = renderer(doc, "inference/1.md").entry(kapitsa)
    history = html[html.index("历史</strong>") :]
    assert history.count("<li") == 1 + 1 + 10  # the baseline, a gap line, the latest ten
    assert 'data-hidden="20"' in history and 'data-history="baseline"' in history
    stars = re.search(r'<tr data-figure="stars">.*?</tr>', html, re.S).group(0)
    assert stars.count("digest-figure__old") == 5 and "更早 25 个数值略" in stars
    assert stars.count("<circle") <= 60


# --------------------------------------------------------------------------- links that leave the site


@pytest.mark.parametrize(
    ("url", "href", "host"),
    [
        ("https://example.org/post?a=1#x", "https://example.org/post?a=1#x", "example.org"),
        ("http://user:secret@example.com/x", "http://example.com/x", "example.com"),  # credentials never shown
        ("https://еxample.com/p", "https://xn--xample-2of.com/p", "xn--xample-2of.com"),  # Cyrillic е: punycode
        ("https://[2606:4700::1]:8443/a", "https://[2606:4700::1]:8443/a", "2606:4700::1"),
    ],
)
def test_a_public_source_url_is_linked_as_itself_without_credentials(url, href, host):
    from digest_plugin.site.text import outbound

    assert outbound(url) == (href, host)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1",
        "http://127.0.0.1/admin",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost:8000/",
        "http://10.0.0.7/",
        "http://[::1]/",
    ],
)
def test_an_address_of_no_public_host_is_never_a_link(url):
    from digest_plugin.site.text import outbound

    assert outbound(url) is None


def test_every_outbound_link_on_a_page_has_noopener_and_noreferrer(doc):
    page = "".join(
        b.html
        for b in renderer(doc, "inference/briefs/2026-10-21-inference-E1.md").brief("2026-10-21-inference-E1")
        if isinstance(b, Raw)
    )
    links = re.findall(r'<a [^>]*href="https?://[^"]*"[^>]*>', page)
    assert len(links) >= 9  # the sources of the seven items and the arXiv citation
    assert [a for a in links if not re.search(r'rel="[^"]*\bnoopener\b[^"]*\bnoreferrer\b', a)] == []


@pytest.mark.parametrize("written", ["周增  +175", "周增\u00a0+175", "周增\n+175"])
def test_a_claim_typed_with_other_white_space_is_withheld_too(doc, written):
    html = renderer(doc, "inference/1.md").text(f"据说{written}。")
    assert "175" not in html and 'data-withheld-by="kapitsa-weekly-gain"' in html


def test_a_claim_split_between_a_value_and_its_unit_or_a_path_and_its_anchor_is_withheld(doc):
    r = renderer(doc, "inference/1.md")
    assert "175" not in r.material("inbox/周增", "+175")
    assert r.material("inbox/a.md", "第 1 条") == "<code>inbox/a.md</code> 第 1 条"


def test_the_bibliography_shows_refreshed_counts_and_keeps_the_earlier_ones(shipped):
    later = later_brief(
        citations=[
            {
                "arxiv": "1605.08803v2",
                "title": "Density Estimation Using Real NVP",
                "cited_by": [{"source": "S2", "count": 4702, "as_of": "2026-10-22"}],
            }
        ]
    )
    doc = merge(shipped.outlines["inference"], [*shipped.briefs, later])
    page = "".join(b.html for b in renderer(doc, "inference/bibliography.md").bibliography() if isinstance(b, Raw))
    entry = page[page.index('data-arxiv="1605.08803"') :]
    entry = entry[: entry.index("</div>")]
    assert "4702" in entry and "2026-10-22" in entry  # the refreshed count, dated
    history = re.search(r'class="digest-ref__history"[^>]*>(.*?)</p>', entry)
    assert history and "4677" in history.group(1) and "2066" not in history.group(1)


def test_a_corrected_figure_shows_the_right_value_and_the_correction_never_the_wrong_one_as_a_value(shipped):
    update = {
        "contradiction": "kapitsa-weekly-gain",
        "change": "resolved",
        "text": "采集器口径已查明。",
        "outcome": "corrected",
        "corrections": [{"key": "weekly-gain", "old": 175, "new": 58, "reason": "采集器把整个组织的周增算进来了"}],
    }
    doc = merge(
        shipped.outlines["inference"], [*shipped.briefs, later_brief(citations=[], contradiction_updates=[update])]
    )
    page = html_of(renderer(doc, "inference/1.md").section("1"))
    row = re.search(r'<tr data-figure="weekly-gain">.*?</tr>', page, re.S).group(0)
    assert re.search(r'digest-figure__now">58<', row)
    assert "175" not in row  # not as the value, not as an earlier value, not as a chart point
    assert re.search(r"更正：175 → 58（采集器把整个组织的周增算进来了）", page)
    register = html_of(renderer(doc, "inference/register.md").register())
    assert 'data-outcome="corrected"' in register and "175 → 58" in register


def test_a_later_briefs_page_shows_the_papers_it_cites_again_and_what_part_two_said(shipped):
    later = later_brief(contradictions=[], contradictions_note="今日无矛盾。\n延续：10-21 矛盾 2 仍无新材料。")
    doc = merge(shipped.outlines["inference"], [*shipped.briefs, later])
    html = html_of(renderer(doc, "inference/briefs/2026-10-22-inference-E1.md").brief(later.id))
    assert '<p class="digest-contradictions-note">今日无矛盾。</p>' in html
    assert '<p class="digest-contradictions-note">延续：10-21 矛盾 2 仍无新材料。</p>' in html
    real_nvp = doc.citations["1605.08803"].number  # first cited by the 10-21 brief
    assert f'id="ref-{real_nvp}"' in html and "Density Estimation Using Real NVP" in html


def test_the_register_counts_by_disposition_and_status_and_groups_its_contradictions(doc):
    html = html_of(renderer(doc, "inference/register.md").register())
    table = html.split('<table class="digest-register-summary"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-disposition="(\w+)"><th>[^<]+</th>((?:<td>\d+</td>)+)</tr>', table)
    counts = {d: [int(n) for n in re.findall(r"\d+", cells)] for d, cells in rows}
    for disposition, (open_n, resolved, superseded, total) in counts.items():
        mine = [c for c in doc.contradictions if c.disposition == disposition]
        assert total == len(mine) == open_n + resolved + superseded, disposition
        assert open_n == sum(c.is_open for c in mine)
    assert sum(c[-1] for c in counts.values()) == len(doc.contradictions)
    open_group = re.search(r'<li id="status-open"><strong>未解决（(\d+)）</strong>：(.*?)</li>', html)
    assert open_group and int(open_group[1]) == sum(c.is_open for c in doc.contradictions)
    assert open_group[2].count("digest-contradiction-link") == int(open_group[1])
    assert '<li id="section-1.1"><strong>§1.1（' in html  # and by section


def test_an_open_contradiction_is_tagged_after_the_statement_with_the_label_it_requires(doc):
    """矛盾 4 (长 prefill 冻结, 须带标注写入「单点博客观察、版本未知」) tags the entry it touches."""
    view = doc.contradiction("long-prefill-no-version")
    assert view is not None and view.is_open
    entry = doc.entries[doc.items["vllm-long-prefill-freeze"].entry_id]
    html = renderer(doc, f"inference/{entry.section.split('.')[0]}.md").entry(entry)
    title = re.search(r'<h\d class="digest-entry__title"[^>]*>(.*?)</h\d>', html, re.S)[1]
    tag = re.search(
        r'<a class="digest-dispute" data-contradiction="long-prefill-no-version" href="([^"]+)">([^<]+)</a>', title
    )
    assert tag, title
    assert tag[2] == "〔须带标注写入 · 2026-10-21〕须标注：单点博客观察、版本未知"
    assert tag[1].endswith("#contradiction-long-prefill-no-version")


def test_an_entry_links_to_the_follow_ups_still_open_on_it(doc):
    pending = [f for f in doc.follow_ups if f.pending and f.follow_up.items]
    assert pending, "the shipped brief opens follow-ups on its items"
    for f in pending:
        for item_id in f.follow_up.items:
            entry = doc.entries[doc.items[item_id].entry_id]
            html = renderer(doc, f"inference/{entry.section.split('.')[0]}.md").entry(entry)
            found = re.search(r'<p class="digest-entry__follow-ups"[^>]*>(.*?)</p>', html)
            assert found, (item_id, "no follow-up line on the entry")
            line = found.group(1)
            assert f"#follow-up-{f.follow_up.id}" in line and f.follow_up.text in line, (item_id, line)
