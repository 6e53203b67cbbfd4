"""The six changes a brief makes to the doc's shape (issue 29, part 5), written as an editor writes them
and built into the real site: a section renamed, a cited paper withdrawn, an entry moved, an entry split,
one item updating several entries, an erratum of an earlier brief.  Ids, numbers and anchors stay;
each change is said where a reader meets it, and in the pull-request comment."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path

import pytest
from helpers import brief_item, copy_project, mkdocs_build, night_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.diff import diff_docs
from digest_plugin.core.pipeline import analyse
from digest_plugin.site.fragments import FragmentRenderer
from digest_plugin.site.layout import Layout, Linker, section_page

NIGHT = "2026-10-22-inference-E1"
TODAY = dt.date(2026, 12, 4)


def _item(number: int, title: str, placement: dict, **more) -> dict:
    return brief_item(f"night-{number}", number, title, placement, value=["high"], **more)


BRIEF = night_brief(
    items=[
        _item(
            1,
            "llm-d 1.0.1 与 Kapitsa 同日更新",
            {
                "section": "5.1",
                "action": "update_in_place",
                "entry": "llm-d-1-0",
                "entries": ["kapitsa"],
                "text": "§5.1「llm-d 1.0」与 §1.1 Kapitsa 两处原地更新。",
            },
        ),
        _item(2, "vLLM TPU 后端", {"section": "1.1", "action": "new_sub_entry", "text": "§1.1 新增子条目。"}),
        _item(3, "SGLang-TorchTPU", {"section": "1.1", "action": "new_sub_entry", "text": "§1.1 新增子条目。"}),
        _item(
            4,
            "以撤稿论文为据的结论",
            {"section": "5.2", "action": "new_sub_entry", "as_conclusion": True, "text": "§5.2 写成结论。"},
            supported_by=["2309.06180"],
        ),
    ],
    citations=[{"arxiv": "2309.06180", "title": "Efficient Memory Management for LLM Serving", "withdrawn": True}],
    section_renames=[{"section": "3.1", "title": "调度算法、JIL 攻击与分块调参", "text": "§3.1 改名，编号不动。"}],
    moves=[{"entry": "inferact-funding", "to": "5.2", "text": "融资与定价挪到成本一节。"}],
    splits=[
        {"entry": "torchtpu-backends", "into": ["night-2", "night-3"], "text": "「TPU 后端」拆为两条。"},
    ],
    errata=[
        {
            "brief": "2026-10-21-inference-E1",
            "item": "llm-d-1-0",
            "old": "500+ 贡献者",
            "new": "550+ 贡献者",
            "text": "复核发布页时数错了。",
        }
    ],
)


def write(data: Path, brief: dict = BRIEF) -> Path:
    path = data / "briefs" / f"{NIGHT}.yml"
    with path.open("w", encoding="utf-8") as out:
        YAML().dump(brief, out)
    return path


def test_the_six_changes_pass_the_check_and_a_withdrawn_paper_cannot_support_a_conclusion(data_copy):
    write(data_copy)
    found = [f"{f.severity}: {f.message}" for f in analyse(data_copy, today=TODAY).findings]
    assert found == [
        "warning: arXiv:2309.06180 was withdrawn by its authors (brief 2026-10-22-inference-E1) and cannot "
        "support a conclusion"
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"moves": [{"entry": "no-such", "to": "5.2", "text": "x"}]}, "unknown entry to move 'no-such'"),
        ({"splits": [{"entry": "kapitsa", "into": ["night-2", "elsewhere"], "text": "x"}]}, "unknown item of this"),
        ({"errata": [{"brief": "2026-10-20-inference-E1", "old": "a", "new": "b", "text": "x"}]}, "no earlier brief"),
        ({"section_renames": [{"section": "9.9", "title": "x", "text": "x"}]}, "unknown section §9.9"),
    ],
)
def test_a_change_that_names_nothing_is_an_error(data_copy, change, message):
    write(data_copy, {**BRIEF, **change})
    errors = [f.message for f in analyse(data_copy, today=TODAY).errors]
    assert any(message in e for e in errors), errors


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("reshape"))
    write(root / "data")
    return root


def _built(root: Path) -> Path:
    """Built without ``--strict``: the night warns, on purpose, about a conclusion resting on a
    withdrawn paper."""
    done = mkdocs_build(root, strict=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return root / "site"


@pytest.fixture(scope="module")
def pages(site: Path) -> Path:
    return _built(site)


def _text(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _entry(path: Path, entry_id: str) -> str:
    html = path.read_text(encoding="utf-8")
    m = re.search(rf'<section class="digest-entry[^"]*"[^>]*data-digest-entry="{entry_id}".*?</section>', html, re.S)
    assert m, entry_id
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(0))))


def test_a_renamed_section_keeps_its_number_and_shows_its_old_title(pages):
    page = _text(pages / "inference" / "3" / "index.html")
    assert "调度算法、JIL 攻击与分块调参" in page
    assert "曾用名「调度算法与 JIL 攻击」， 2026-10-22 E1 简报 更名" in page
    assert 'id="s3-1"' in (pages / "inference" / "3" / "index.html").read_text(encoding="utf-8")


def test_a_moved_entry_keeps_its_id_and_both_sections_say_where_it_went(pages):
    old_page = pages / "inference" / "1" / "index.html"
    new_page = pages / "inference" / "5" / "index.html"
    assert "inferact-funding" not in re.findall(r'data-digest-entry="([^"]+)"', old_page.read_text(encoding="utf-8"))
    moved = re.search(r'<p class="digest-moved" id="entry-inferact-funding">(.*?)</p>', old_page.read_text("utf-8"))
    assert moved and "已由" in moved.group(1) and "移至" in moved.group(1) and "§5.2" in moved.group(1)
    assert re.search(r'href="[^"]*5/#entry-inferact-funding"', moved.group(1))  # old links land, then go on
    entry = _entry(new_page, "inferact-funding")
    assert "自 §1.1 移来" in entry and "移动" in entry  # and its history says so


def test_a_split_entry_and_its_parts_point_to_each_other(pages):
    page = pages / "inference" / "1" / "index.html"
    whole = _entry(page, "torchtpu-backends")
    assert "拆分为" in whole and "vLLM TPU 后端" in whole and "SGLang-TorchTPU" in whole
    for part in ("night-2", "night-3"):
        assert "拆自： §1.1 TPU 后端" in _entry(page, part)  # the entry it was split from, linked


def test_one_item_updating_several_entries_shows_on_each(pages):
    for page, entry in (
        (pages / "inference" / "5" / "index.html", "llm-d-1-0"),
        (pages / "inference" / "1" / "index.html", "kapitsa"),
    ):
        text = _entry(page, entry)
        assert "llm-d 1.0.1 与 Kapitsa 同日更新" in text and "2026-10-22 E1 简报" in text


def test_an_erratum_is_applied_and_shown_on_both_briefs(pages):
    entry = _entry(pages / "inference" / "5" / "index.html", "llm-d-1-0")
    assert "勘误" in entry and "「500+ 贡献者」应为「550+ 贡献者」" in entry
    earlier = _text(pages / "inference" / "briefs" / "2026-10-21-inference-E1" / "index.html")
    later = _text(pages / "inference" / "briefs" / NIGHT / "index.html")
    assert "更正本简报" in earlier and "「500+ 贡献者」应为「550+ 贡献者」" in earlier
    assert "本简报更正" in later and "「500+ 贡献者」应为「550+ 贡献者」" in later
    assert "500+ 贡献者" in earlier  # the earlier brief's own page keeps what it said


def test_a_withdrawn_paper_keeps_its_number_and_is_marked(pages):
    html = (pages / "inference" / "bibliography" / "index.html").read_text(encoding="utf-8")
    block = re.search(
        r'id="ref-(\d+)"><span class="digest-ref__n">\[\d+\]</span>.{0,400}?2309\.06180.*?</p>', html, re.S
    )
    assert block, "2309.06180 is not in the bibliography"
    assert block.group(1) == "529"  # numbered after the doc's references like any paper, and kept
    assert "已撤稿（2026-10-22" in unescape(re.sub(r"<[^>]+>", " ", block.group(0)))


def test_the_pull_request_comment_lists_each_change(data_copy):
    before = analyse(data_copy, today=TODAY).docs
    write(data_copy)
    after = analyse(data_copy, today=TODAY).docs
    assert before is not None and after is not None
    comment = diff_docs(before, after)
    assert "§3.1 调度算法与 JIL 攻击 → 调度算法、JIL 攻击与分块调参" in comment
    assert re.search(r"\*\*Entries moved\*\*\n- §5\.2 Inferact.* — from §1\.1", comment)
    assert "Entries split" in comment and "`night-2`, `night-3`" in comment
    assert "Errata applied" in comment and "500+ 贡献者" in comment
    assert "Papers withdrawn by their authors" in comment and "arXiv:2309.06180" in comment


def _gain_night(data: Path) -> None:
    """Night 10-22: one item updates llm-d 1.0 and Kapitsa with a figure 周增 9876, and a contradiction on
    the item withholds it."""
    item = _item(
        1,
        "llm-d 与 Kapitsa 同日的周增",
        {"section": "5.1", "action": "update_in_place", "entry": "llm-d-1-0", "entries": ["kapitsa"], "text": "两处。"},
        figures=[{"key": "gain-x", "label": "周增", "value": 9876, "as_of": "2026-10-22"}],
    )
    contradiction = {
        "id": "gain-basis",
        "number": 1,
        "title": "周增口径",
        "text": "两处周增口径不一。",
        "touches": {"items": ["night-1"]},
        "disposition": "with_label",
        "withheld": [{"text": "周增 9876", "patterns": ["周增 9876"], "figure": "gain-x"}],
    }
    write(data, night_brief(items=[item], contradictions=[contradiction]))


def test_a_claim_withheld_on_an_item_that_updates_several_entries_is_withheld_on_each(data_copy):
    """A contradiction that names an item withholds the figure the item states on every entry the item
    updates, not only the entry it is placed in: the value never shows on the other entry's page (it did,
    as that entry's current figure, before)."""
    _gain_night(data_copy)
    doc = analyse(data_copy, today=TODAY).docs["inference"]
    layout = Layout(doc)
    for entry_id, section in (("llm-d-1-0", "5"), ("kapitsa", "1")):
        figure = next(f for f in doc.entries[entry_id].figures if f.key == "gain-x")
        assert figure.withheld_by is not None and figure.withheld_by.id == "gain-basis", entry_id
        html = FragmentRenderer(layout, Linker(section_page("inference", section))).entry(doc.entries[entry_id])
        assert "9876" not in unescape(re.sub(r"<[^>]+>", " ", html)), entry_id


def test_a_correction_of_that_figure_is_made_on_each_entry_that_shows_the_wrong_value(data_copy):
    """The next night settles it as corrected (9876 → 1234): both entries the item updated show 1234, and
    9876 is no current value on either (before, the second kept it)."""
    _gain_night(data_copy)
    settled = night_brief(
        id="2026-10-23-inference-E1",
        date="2026-10-23",
        title="inference · E1（2026-10-23）",
        contradiction_updates=[
            {
                "contradiction": "gain-basis",
                "change": "resolved",
                "outcome": "corrected",
                "text": "核对后为 1234。",
                "corrections": [{"key": "gain-x", "old": 9876, "new": 1234, "reason": "口径"}],
            }
        ],
    )
    with (data_copy / "briefs" / "2026-10-23-inference-E1.yml").open("w", encoding="utf-8") as out:
        YAML().dump(settled, out)
    doc = analyse(data_copy, today=TODAY).docs["inference"]
    for entry_id in ("llm-d-1-0", "kapitsa"):
        figure = next(f for f in doc.entries[entry_id].figures if f.key == "gain-x")
        assert figure.current.value == 1234, entry_id
        assert [v.figure.value for v in figure.history if v.corrected_by == "gain-basis"] == [9876], entry_id
