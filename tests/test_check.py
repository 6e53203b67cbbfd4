"""References across files: every section, entry, item, contradiction and paper a brief names must exist."""

from __future__ import annotations

import shutil

import pytest
from helpers import BRIEF, FIXTURES, LIFECYCLE, line_of, replace_in

from digest_plugin.core.check import check_references
from digest_plugin.core.load import load_data


def check(data_dir):
    return check_references(load_data(data_dir, relative_to=data_dir.parent))


def test_the_shipped_data_and_the_lifecycle_briefs_are_consistent(shipped, lifecycle):
    assert check_references(shipped) == []
    assert check_references(lifecycle) == []


def test_unknown_section_points_at_the_line_and_suggests(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, 'section: "3.1"\n      action: new_sub_entry', 'section: "3.3"\n      action: new_sub_entry')
    (f,) = check(data_copy)
    assert (f.path, f.line) == ("data/" + BRIEF, line_of(brief, '"3.3"'))
    assert f.message == "unknown section §3.3" and f.hint.startswith("did you mean §3.2?")  # the outline has §3.1, §3.2
    assert "`action: new_section`" in f.hint and "section_title" in f.hint  # or: open it (issue 34)


def test_an_outline_entry_under_a_section_the_outline_lacks_is_an_error_not_a_crash(data_copy, capsys, monkeypatch):
    """Found by a helper's mutations: the merge had nowhere to file it and `digest check` raised a
    KeyError.  Now the finding points at the entry's section and says what numbers there are."""
    from helpers import run_cli

    outline = data_copy / "outlines" / "inference.yml"
    replace_in(outline, 'id: kapitsa\n    section: "1.1"', 'id: kapitsa\n    section: "1.9"')
    (f,) = check(data_copy)
    assert (f.path, f.line) == ("data/outlines/inference.yml", line_of(outline, '"1.9"'))
    assert "kapitsa" in f.message and "'1.9'" in f.message and f.severity == "error"
    assert "1.1" in f.hint
    code, _, err = run_cli("check", str(data_copy), cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and "outlines/inference.yml" in err and "Traceback" not in err


def test_update_in_place_of_unknown_entry(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "entry: kapitsa", "entry: kapitza")
    (f,) = check(data_copy)
    assert "kapitza" in f.message and f.hint == "did you mean kapitsa?"
    assert f.line == line_of(brief, "entry: kapitza")


def test_a_contradiction_can_only_touch_a_paper_some_brief_cites(data_copy):
    brief = data_copy / BRIEF
    # contradiction 11 touches Real NVP, the one paper the brief cites
    replace_in(brief, '      citations:\n        - "1605.08803"', '      citations:\n        - "2309.06180"')
    (f,) = check(data_copy)
    assert f.message == "arXiv:2309.06180 is not in any brief's citations"
    assert f.line == line_of(brief, '- "2309.06180"')


def test_a_citation_is_down_weighted_by_a_known_contradiction(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "down_weighted_by: real-nvp-down-weight", "down_weighted_by: real-nvp-downweight")
    (f,) = check(data_copy)
    assert f.message == "unknown contradiction 'real-nvp-downweight'"
    assert f.hint == "did you mean real-nvp-down-weight?"


def test_a_follow_up_names_items_that_exist(data_copy):
    brief = data_copy / BRIEF
    replace_in(
        brief, "      - vllm-long-prefill-freeze\n    status: open", "      - vllm-long-prefil\n    status: open"
    )
    (f,) = check(data_copy)
    assert f.message == "unknown item 'vllm-long-prefil'" and f.hint == "did you mean vllm-long-prefill-freeze?"


def test_a_later_brief_closes_only_what_an_earlier_one_opened(data_copy):
    # 2026-10-24 closes the follow-up `paged-attention-version`, which 2026-10-23 opens: leave 10-23 out
    shutil.copy(LIFECYCLE / "2026-10-22-inference-E2.yml", data_copy / "briefs")
    shutil.copy(LIFECYCLE / "2026-10-24-inference-E1.yml", data_copy / "briefs")
    (f,) = check(data_copy)
    later = data_copy / "briefs" / "2026-10-24-inference-E1.yml"
    assert (f.path, f.line) == ("data/briefs/2026-10-24-inference-E1.yml", line_of(later, "paged-attention-version"))
    assert f.message == "follow-up 'paged-attention-version' was never opened by this or an earlier brief"


def test_a_brief_refers_only_to_its_own_topic(data_copy):
    # the training brief (tests/fixtures/topics) places an item after an entry of the inference outline
    shutil.copy(FIXTURES / "topics" / "outlines" / "training.yml", data_copy / "outlines")
    brief = data_copy / "briefs" / "2026-10-21-training-E1.yml"
    shutil.copy(FIXTURES / "topics" / "briefs" / brief.name, brief)
    assert check(data_copy) == []
    replace_in(brief, "after: fsdp-baseline", "after: llm-d-v0-8")
    (f,) = check(data_copy)
    assert f.message == "unknown entry 'llm-d-v0-8'" and f.line == line_of(brief, "after: llm-d-v0-8")


def test_a_correction_names_a_figure_the_doc_holds(data_copy):
    """A corrected contradiction's correction of a figure key no entry or item has would do nothing."""
    from digest_plugin.core.load import load_data

    (data_copy / "briefs" / "2026-10-22-inference-E1.yml").write_text(
        "schema: 1\nid: 2026-10-22-inference-E1\ntopic: inference\nround: E1\n"
        'title: "inference · E1 预消化简报（2026-10-22）"\ndate: 2026-10-22\n'
        "contradiction_updates:\n"
        "  - contradiction: kapitsa-weekly-gain\n    change: resolved\n    outcome: corrected\n"
        '    text: "口径已查明。"\n    corrections:\n'
        '      - {key: weekly-gian, old: 175, new: 58, reason: "采集口径错了"}\n',
        encoding="utf-8",
    )
    (finding,) = check_references(load_data(data_copy))
    assert (finding.line, finding.col) == (13, 15)  # the key's value: "      - {key: " is 14 characters
    assert "weekly-gian" in finding.message and finding.hint == "did you mean weekly-gain?"


def _corrects(data_copy, contradiction: str, correction: str) -> list:
    from digest_plugin.core.load import load_data

    (data_copy / "briefs" / "2026-10-22-inference-E1.yml").write_text(
        "schema: 1\nid: 2026-10-22-inference-E1\ntopic: inference\nround: E1\n"
        'title: "inference · E1 预消化简报（2026-10-22）"\ndate: 2026-10-22\n'
        "contradiction_updates:\n"
        f"  - contradiction: {contradiction}\n    change: resolved\n    outcome: corrected\n"
        f'    text: "更正。"\n    corrections:\n      - {correction}\n',
        encoding="utf-8",
    )
    return check_references(load_data(data_copy))


def test_a_claim_correction_names_a_claim_the_contradiction_withheld(data_copy):
    # 10-21 矛盾 1 withholds「+175 周增」; 矛盾 4 (no version) withholds nothing
    assert (
        _corrects(data_copy, "kapitsa-weekly-gain", '{claim: "+175 周增", old: "+175", new: "+58", reason: "口径"}')
        == []
    )
    (f,) = _corrects(data_copy, "kapitsa-weekly-gain", '{claim: "周增很多", old: "+175", new: "+58", reason: "口径"}')
    assert (
        f.message == "correction of the claim '周增很多', which contradiction 'kapitsa-weekly-gain' does not withhold"
    )
    assert f.hint == "write one of its withheld claims: +175 周增" and f.line == 13
    no_claims = '{claim: "v0.30.0–v0.30.1", old: "v0.30.0–v0.30.1", new: "v0.29.2–v0.30.1", reason: "区间"}'
    assert _corrects(data_copy, "long-prefill-no-version", no_claims) == []


def test_a_correction_names_a_figure_or_a_claim_not_both_nor_neither(data_copy):
    from digest_plugin.core.findings import DataError

    for both in (
        '{key: weekly-gain, claim: "+175 周增", old: 175, new: 58, reason: "x"}',
        '{old: 175, new: 58, reason: "x"}',
    ):
        with pytest.raises(DataError) as info:
            _corrects(data_copy, "kapitsa-weekly-gain", both)
        assert "names the figure (key: …) or the withheld claim (claim: …)" in info.value.findings[0].message


def test_a_correction_of_a_value_the_figure_never_had_is_a_warning(data_copy):
    # Kapitsa's Stars were 105 (the outline) and 155 (10-21): a correction of "150" corrects nothing the
    # doc ever said.  (A value the contradiction withheld, like 周增 +175, was never a value: no warning.)
    (f,) = _corrects(data_copy, "kapitsa-weekly-gain", '{key: stars, old: 150, new: 156, reason: "口径"}')
    assert (f.severity, f.line) == ("warning", 13)
    assert f.message == "figure 'stars' never had the value 150 that this corrects"
    assert f.hint == "its values were: 105, 155; write the wrong value as given"
    assert _corrects(data_copy, "kapitsa-weekly-gain", '{key: stars, old: 155, new: 156, reason: "口径"}') == []
    assert _corrects(data_copy, "kapitsa-weekly-gain", '{key: weekly-gain, old: 296, new: 108, reason: "口径"}') == []
