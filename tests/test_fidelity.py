"""The curated YAML says what the team's Markdown brief says: nothing lost, nothing invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from digest_plugin.core.load import load_data
from digest_plugin.core.model import PlacementAction

ROOT = Path(__file__).resolve().parents[1]
BRIEF_MD = (Path(__file__).parent / "fixtures" / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def dataset():
    return load_data(ROOT / "data")


@pytest.fixture(scope="module")
def brief(dataset):
    (brief,) = dataset.briefs
    return brief


def test_the_brief_has_what_the_markdown_counts(brief):
    assert len(brief.items) == 7  # "今日该主题最重要的增量（7 条）"
    assert [i.number for i in brief.items] == [1, 2, 3, 4, 5, 6, 7]
    assert [c.number for c in brief.contradictions] == list(range(1, 12))
    assert [c.arxiv for c in brief.citations] == ["1605.08803"]
    assert len(brief.follow_ups) == 3  # "需 E2 跟进的三件事"
    assert all(f.round == "E2" for f in brief.follow_ups)
    assert brief.living_doc.reference_count == 527
    assert brief.materials_read == len(brief.materials) == 8


def _texts(brief):
    yield brief.title
    yield brief.scope
    for item in brief.items:
        yield item.title
        yield from item.points
        yield item.evidence.boundary
        yield item.relation
        yield item.placement.text
        yield from item.guards
        yield from item.notes
    for c in brief.contradictions:
        yield c.title
        yield c.text
    yield brief.citations_not_registered
    yield from brief.conclusions
    for f in brief.follow_ups:
        yield f.text


def test_every_text_is_copied_verbatim_from_the_markdown_brief(brief):
    missing = [t for t in _texts(brief) if t and t not in BRIEF_MD]
    assert missing == []


def test_every_url_and_material_of_the_markdown_is_in_the_yaml(brief):
    import re

    urls = set(re.findall(r"https://[^\s）)]+", BRIEF_MD))
    assert urls == {u for i in brief.items for u in i.sources.urls}
    materials = {m.path for m in brief.materials} | {m.path for i in brief.items for m in i.sources.materials}
    for path in re.findall(r"organized/(?:repo|paper)_cards/[\w./-]+\.md", BRIEF_MD):
        assert path in materials


def test_levels_follow_the_brief_words(brief):
    items = {i.number: i for i in brief.items}
    assert items[1].evidence.level == "partially_verified"  # "属已部分核查的高价值线索"
    assert items[4].evidence.level == "lead"  # "属线索级证据"
    assert items[5].placement.action is PlacementAction.update_in_place  # "应做原地更新而非新增条目"
    assert items[5].placement.entry == "kapitsa"
    contradictions = {c.number: c for c in brief.contradictions}
    assert contradictions[1].disposition == "blocked"
    assert contradictions[6].disposition == "discarded"  # "归入丢弃级"
    assert contradictions[9].disposition == "pending_login"  # "属待登录核查线索"
    assert contradictions[11].disposition == "down_weighted"  # "需降权"
    assert [w.text for w in contradictions[1].withheld] == ["+175 周增"]


def test_outline_titles_only_where_the_brief_gives_them(dataset):
    outline = dataset.outlines["inference"]
    titles = {s.number: s.title for s in outline.sections}
    assert titles["4"] is None  # §4 is never named in the brief
    for number, title in titles.items():
        if title:
            assert title in BRIEF_MD, number
    kapitsa = next(e for e in outline.entries if e.id == "kapitsa")
    assert (kapitsa.figures[0].value, str(kapitsa.figures[0].as_of)) == (105, "2026-10-19")
