"""Editorial rules: what the team checks by hand, found from the data alone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from helpers import BRIEF, ROOT, line_of, replace_in

from digest_plugin.core.load import load_data
from digest_plugin.core.model import Rules
from digest_plugin.core.rules import check_rules

TODAY = dt.date(2026, 12, 2)


def check(data: Path, rules: Rules | None = None, today: dt.date = TODAY) -> list[str]:
    found = check_rules(load_data(data, relative_to=data.parent), rules or Rules(), today=today)
    return [f"{f.line}:{f.severity}: {f.message}" for f in sorted(found)]


def test_the_shipped_brief_is_clean():
    assert check(ROOT / "data") == []


def test_kapitsa_gain_larger_than_total_is_found_from_the_numbers(data_copy):
    """Without contradiction 1 withholding it, '+175 > 155' must be caught by the tool itself."""
    brief = data_copy / BRIEF
    replace_in(brief, "        figure: weekly-gain\n", "")
    assert check(data_copy) == [f"{line_of(brief, 'value: 175')}:error: 周增 +175 is larger than the total Stars 155"]


def test_a_count_that_drops_needs_a_note(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "value: 155", "value: 98")
    assert check(data_copy) == [f"{line_of(brief, 'value: 98')}:warning: Stars went down from 105 to 98 without a note"]
    replace_in(brief, "value: 98\n", 'value: 98\n        note: "采集器改为只计 30 天内的星标"\n')
    assert check(data_copy) == []


def test_a_drop_the_same_brief_explains_as_a_correction_needs_no_note(data_copy):
    # the second night: 10-21 矛盾 1 更正（周增 +175 → +58）, and Kapitsa's 周增 is 58 from then on
    night = ROOT / "tests" / "corpus" / "days" / "2026-10-22-inference-E2.yml"
    (data_copy / "briefs" / night.name).write_text(night.read_text(encoding="utf-8"), encoding="utf-8")
    later = data_copy / "briefs" / night.name
    replace_in(later, '        note: "单仓库 7 日窗口（10-14 为 97 ⭐）"\n', "")  # the figure says nothing itself
    assert check(data_copy, today=dt.date(2026, 12, 3)) == []
    replace_in(later, "new: 58", "new: 57")  # the correction no longer says 58: the drop is unexplained
    assert f"{line_of(later, 'value: 58')}:warning: 周增 went down from 175 to 58 without a note" in check(
        data_copy, today=dt.date(2026, 12, 3)
    )


def test_a_date_after_the_brief(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "last_collected: 2026-10-21", "last_collected: 2026-10-25")
    (finding,) = check(data_copy)
    assert finding.startswith(f"{line_of(brief, 'last_collected: 2026-10-25')}:error: date 2026-10-25 is after")


def test_citation_counts_that_disagree():
    # 4677 (S2) vs 2066 (OpenAlex) is 2.26×: fine under the default factor 3, flagged under 2
    assert check(ROOT / "data") == []
    (finding,) = check(ROOT / "data", Rules(citation_count_factor=2))
    assert "warning: cited-by counts of arXiv:1605.08803 differ by more than 2×" in finding


def test_weak_evidence_cannot_be_placed_as_a_conclusion(data_copy):
    brief = data_copy / BRIEF
    # item 4 (long prefill) is lead-level with vendor self-report: "不可直接当作结论"
    replace_in(
        brief,
        '      section: "3.1"\n      action: new_sub_entry\n',
        '      section: "3.1"\n      action: new_sub_entry\n      as_conclusion: true\n',
    )
    (finding,) = check(data_copy)
    assert "item 4 cannot be placed as a conclusion: its evidence is 线索级、厂商自述" in finding


def test_a_down_weighted_citation_never_supports_a_conclusion(data_copy):
    brief = data_copy / BRIEF
    # item 6 is partially verified, so as a conclusion it is allowed, but not on Real NVP's support
    replace_in(
        brief,
        '      section: "5.2"\n      action: new_sub_entry\n',
        '      section: "5.2"\n      action: new_sub_entry\n      as_conclusion: true\n',
    )
    assert check(data_copy) == []
    replace_in(brief, "  - id: recsys-vol178\n", '  - id: recsys-vol178\n    supported_by: ["1605.08803"]\n')
    (finding,) = check(data_copy)
    assert "arXiv:1605.08803 is down-weighted (real-nvp-down-weight) and cannot support a conclusion" in finding


def test_a_brief_dated_in_the_future():
    data = ROOT / "data"  # the brief is dated 2026-10-21: a day's grace, then it is in the future
    assert check(data, today=dt.date(2026, 10, 20)) == []
    assert check(data, today=dt.date(2026, 10, 19)) == [
        f"{line_of(data / BRIEF, 'date: 2026-10-21')}:error: brief date 2026-10-21 is in the future"
    ]
    assert check(data, Rules(allow_future_dates=True), today=dt.date(2026, 10, 19)) == []


def test_diverging_counts_are_judged_on_the_latest_of_each_source(data_copy):
    # 10-21 gives 4677 (S2) and 2066 (OpenAlex); a later brief refreshes only S2, to 9000: the
    # bibliography now shows 9000 beside 2066, more than 3× apart, though the later brief gives one count
    later = data_copy / "briefs" / "2026-10-22-inference-E1.yml"
    later.write_text(
        "schema: 1\nid: 2026-10-22-inference-E1\ntopic: inference\nround: E1\n"
        'title: "inference · E1 预消化简报（2026-10-22）"\ndate: 2026-10-22\n'
        "citations:\n"
        '  - arxiv: "1605.08803v3"\n    title: "Density Estimation Using Real NVP"\n    refresh: true\n'
        "    cited_by:\n      - {source: S2, count: 9000, as_of: 2026-10-22}\n",
        encoding="utf-8",
    )
    (finding,) = check(data_copy)
    assert (
        finding
        == f"{line_of(later, 'cited_by:')}:warning: cited-by counts of arXiv:1605.08803v3 differ by more than 3× (9000 S2, 2066 OpenAlex)"
    )
    later.write_text(later.read_text(encoding="utf-8").replace("9000", "5000"), encoding="utf-8")
    assert check(data_copy) == []


def test_a_weekly_gain_may_fall_a_little_without_a_note_but_not_by_half(data_copy):
    # 周增 is a gain over a week: +82 then +77 is a normal week (the 2026-11-03 night); a fall below half
    # of the last value (+175 → +58 on 10-22) is a basis mixed up and asks for a note, as before
    night = ROOT / "tests" / "corpus" / "days" / "2026-10-22-inference-E2.yml"
    later = data_copy / "briefs" / night.name
    later.write_text(night.read_text(encoding="utf-8"), encoding="utf-8")
    replace_in(later, '        note: "单仓库 7 日窗口（10-14 为 97 ⭐）"\n', "")
    replace_in(later, "new: 58", "new: 57")  # the correction no longer explains the figure
    replace_in(later, "value: 58", "value: 90")  # +175 → +90: more than half, a week's fluctuation
    assert not any("周增 went down" in f for f in check(data_copy, today=dt.date(2026, 12, 3)))
    replace_in(later, "value: 90", "value: 87")  # below half of +175: asks for a note
    assert f"{line_of(later, 'value: 87')}:warning: 周增 went down from 175 to 87 without a note" in check(
        data_copy, today=dt.date(2026, 12, 3)
    )
