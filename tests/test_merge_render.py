"""The merge and the renderer, without MkDocs: what each section page will say."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from digest_plugin.layout import Layout, Linker
from digest_plugin.load import load_data
from digest_plugin.merge import merge
from digest_plugin.model import Brief
from digest_plugin.render import Raw, Renderer

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dataset():
    return load_data(ROOT / "data")


@pytest.fixture(scope="module")
def doc(dataset):
    return merge(dataset.outlines["inference"], dataset.briefs)


def html_of(blocks) -> str:
    return "".join(b.html if isinstance(b, Raw) else f"<h{b.level}>{b.text}</h{b.level}>" for b in blocks)


def second_brief(**changes) -> Brief:
    """A later, minimal brief written as an editor would, with the given changes."""
    data = {
        "schema": 1,
        "id": "2026-10-22-inference-E1",
        "topic": "inference",
        "round": "E1",
        "title": "inference · E1 预消化简报（2026-10-22）",
        "date": "2026-10-22",
        "citations": [
            {"arxiv": "1605.08803v2", "title": "Density Estimation Using Real NVP"},
            {"arxiv": "2309.06180", "title": "Efficient Memory Management for LLM Serving with PagedAttention"},
        ],
    }
    data.update(changes)
    return Brief.model_validate(data)


def test_kapitsa_is_updated_in_place_with_its_history(doc):
    kapitsa = doc.entries["kapitsa"]
    assert kapitsa.section == "1.1" and kapitsa.item.number == 5
    stars = next(f for f in kapitsa.figures if f.key == "stars")
    assert (stars.current.value, str(stars.current.as_of)) == (155, "2026-10-21")
    assert [(old.value, str(old.as_of)) for old, _ in stars.history] == [(105, "2026-10-19")]
    weekly = next(f for f in kapitsa.figures if f.key == "weekly-gain")
    assert weekly.withheld_by.number == 1
    # one entry for one object: the update did not add a second Kapitsa entry
    assert [e.id for e in doc.sections["1.1"].entries].count("kapitsa") == 1
    assert "kapitsa-card-refresh" not in doc.entries


def test_new_sub_entry_follows_the_entry_it_hangs_under(doc):
    ids = [e.id for e in doc.sections["5.1"].entries]
    assert ids.index("llm-d-1-0") == ids.index("llm-d-v0-8") + 1
    ids = [e.id for e in doc.sections["3.2"].entries]
    assert ids.index("modelexpress-weight-transfer") == ids.index("dynamo-1-0-ga") + 1


def test_contradictions_reach_every_section_they_touch(doc):
    where = {c.id: c.sections for c in doc.contradictions}
    assert where["lfm2-5-basis"] == ("1.2", "3.1")  # §1.2 named, and the long-prefill item sits in §3.1
    assert where["kapitsa-weekly-gain"] == ("1.1",)
    assert where["dolphin-venice-vvv"] == ()  # kept out of the doc: register only


def test_citations_continue_after_the_existing_527_and_never_renumber(dataset):
    outline = dataset.outlines["inference"]
    first = merge(outline, dataset.briefs)
    assert first.citations["1605.08803"].number == 528
    later = merge(outline, [*dataset.briefs, second_brief()])
    assert later.citations["1605.08803"].number == 528  # cited again as v2: same paper, same number
    assert later.citations["2309.06180"].number == 529
    assert later.reference_count == 529


def test_output_does_not_depend_on_the_order_briefs_are_given(dataset):
    outline = dataset.outlines["inference"]
    briefs = [*dataset.briefs, second_brief()]
    pages = []
    for _ in range(3):
        random.shuffle(briefs)
        doc = merge(outline, list(briefs))
        r = Renderer(Layout(doc), Linker("inference/1.md"))
        pages.append(
            html_of(r.section("1")) + html_of(Renderer(Layout(doc), Linker("inference/bibliography.md")).bibliography())
        )
    assert pages[0] == pages[1] == pages[2]


def test_withheld_claim_only_inside_its_callout(doc):
    html = html_of(Renderer(Layout(doc), Linker("inference/1.md")).section("1"))
    outside = re.sub(r"<details[^>]*data-digest-contradiction=.*?</details>", "", html, flags=re.S)
    assert "+175" not in outside
    assert "〔暂扣，见矛盾 1〕" in outside
    callout = re.search(r'<details[^>]*data-digest-contradiction="kapitsa-weekly-gain".*?</details>', html, re.S).group(
        0
    )
    assert "+175 周增" in callout


def test_arxiv_mentions_become_numbered_links(doc):
    html = html_of(Renderer(Layout(doc), Linker("inference/register.md")).register())
    assert re.search(
        r'<a class="digest-cite" href="https://arxiv.org/abs/1605.08803"[^>]*>arXiv:1605.08803 <span[^>]*>\[528\]', html
    )


def test_brief_text_is_inert(dataset):
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(1)> {{ 7*7 }} __init__ [x](javascript:alert(1))"
    brief = dataset.briefs[0]
    item = brief.items[0].model_copy(update={"points": [hostile]})
    brief = brief.model_copy(update={"items": [item, *brief.items[1:]]})
    doc = merge(dataset.outlines["inference"], [brief])
    html = html_of(Renderer(Layout(doc), Linker("inference/5.md")).section("5"))
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{ 7*7 }}" in html and "__init__" in html
    assert 'href="javascript' not in html


def test_links_are_relative_to_the_page():
    assert Linker("inference/1.md").url("inference/register.md", "c") == "../register/#c"
    assert Linker("inference/briefs/x.md").url("inference/3.md") == "../../3/"
    assert Linker("inference/1.md").url("inference/1.md", "a") == "#a"
    assert Linker("index.md", directory_urls=False).url("inference/1.md") == "inference/1.html"


def test_an_entry_updated_every_day_stays_readable(tmp_path):
    """30 daily Kapitsa refreshes: the first and latest rows of history, the latest values, a bounded chart."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import generate

    from digest_plugin.model import Rules
    from digest_plugin.pipeline import living_docs

    doc = living_docs(generate(30, tmp_path / "data"), rules=Rules(allow_future_dates=True))["inference"]
    kapitsa = doc.entries["kapitsa"]
    assert len(kapitsa.history) == 31  # the baseline and 30 refreshes are all kept
    html = Renderer(Layout(doc), Linker("inference/1.md")).entry(kapitsa)
    history = html[html.index("历史</strong>") :]
    assert history.count("<li") == 1 + 1 + 10  # the baseline, a gap line, the latest ten
    assert 'data-hidden="20"' in history and 'data-history="baseline"' in history
    stars = re.search(r'<tr data-figure="stars">.*?</tr>', html, re.S).group(0)
    assert stars.count("digest-figure__old") == 5 and "更早 25 个数值略" in stars
    assert stars.count("<circle") <= 60
