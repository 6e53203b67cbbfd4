"""The habits blind17's tuned writers brought (issue 29): days counted back from tonight (「T-4 澄 工单 4」, as a test
team counts days to a release), and the words of 晏 (an accountant's: 红字冲回, 户头改为, 抄差了 … 实为) and 汀 (a test
team's: 复测通过，解除阻塞, 期望值改为, 转派到, 录入错误 … 实为, 验证关闭, 延期, 按不修复关闭), which are the vocabulary's
data, not code.

Each night is written on top of the shipped 10-21 brief (moved to another date where the test needs one).
"""

from __future__ import annotations

from helpers import SECOND_NIGHT, follow_up_statuses, shipped_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full

FIRST = shipped_brief()


def _second(four: str, on: str = "2026-10-22", two: str = "无。") -> tuple[str, dict]:
    markdown = SECOND_NIGHT.format(author="汀", two=two, four=four).replace("2026-10-22", on)
    done = import_full(markdown, known_briefs=[FIRST])
    return done.text, YAML(typ="safe").load(done.text)


def test_a_night_named_by_days_counted_back_from_tonight():
    """On 10-25, 「T-4」 is 10-21: 「T-4 Tom 的跟进 ②」 is that night's follow-up 2."""
    _, brief = _second("- T-4 Tom 的跟进 ② 办妥：锚点页已下线，见条目 1。", on="2026-10-25")
    assert follow_up_statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_a_count_back_to_a_night_nobody_wrote_names_no_follow_up():
    """On 10-25, 「T-5」 is 10-20, a night with no brief: its 「跟进 ②」 is nobody's, not 10-21's."""
    _, brief = _second("- T-5 Tom 的跟进 ② 办妥：锚点页已下线，见条目 1。", on="2026-10-25")
    assert follow_up_statuses(brief) == {}


def test_an_erratum_in_words_the_vocabulary_gives_with_a_connector_it_gives():
    """「抄差了：… 「旧」，实为「新」」: both the erratum's head and the word between the values (``corrected_to``) are
    the vocabulary's, so 「实为」 is read as 「应为」 is."""
    _, brief = _second("- 抄差了：10-21 Tom 第 4 笔 要点里「24K token」，实为「32K token」——原 issue 写的是 32K。")
    (erratum,) = brief["errata"]
    assert (erratum["item"], erratum["old"], erratum["new"]) == ("vllm-long-prefill-freeze", "24K token", "32K token")


def test_a_section_renamed_with_the_verb_as_its_head_and_again_before_the_new_title():
    """「户头改为：§5.2「旧」户头改为「新」」: the title after the verb's second use is the new one, not the old."""
    _, brief = _second("- 户头改为：§5.2「推理可观测性」户头改为「推理可观测性与成本」，编号不变。")
    assert [(r["section"], r["title"]) for r in brief["section_renames"]] == [("5.2", "推理可观测性与成本")]


def test_an_item_counted_in_the_writers_own_counter_and_retracted_for_tonights_item():
    """「红字冲回：10-21 Tom 第 4 笔 …，以第 1 笔那一行补记」: 笔 counts items as 条 does, 红字冲回 retracts (a word of the
    vocabulary), and 「以第 1 笔 … 补记」 names tonight's item 1 as the one that replaces it."""
    _, brief = _second("- 红字冲回：10-21 Tom 第 4 笔 写进 §3.1 的那一行——复现不出来，以第 1 笔那一行补记。")
    (retraction,) = brief["retractions"]
    assert retraction["item"] == "vllm-long-prefill-freeze"
    assert retraction["superseded_by"] == brief["items"][0]["id"]


def _circled(brief):
    """The shipped brief as if its writer had headed its items ① ② ③ …"""
    data = brief.model_dump(mode="json", by_alias=True, exclude_none=True)
    for item in data["items"]:
        item["mark"] = "①②③④⑤⑥⑦"[item["number"] - 1]
    return type(brief).model_validate(data)


def test_a_dated_circled_number_names_an_item_of_a_night_that_headed_its_items_so():
    """「10-21 ④」 names 10-21's item 4 when that night headed its items ① ② ③ and labelled no follow-up so;
    otherwise a dated circled number names a follow-up, as before."""
    markdown = SECOND_NIGHT.format(author="晏", two="无。", four="- 红字冲回：10-21 ④ 写进 §3.1 的那一行，复现不出来。")
    circled = import_full(markdown, known_briefs=[_circled(FIRST)])
    assert [r["item"] for r in YAML(typ="safe").load(circled.text)["retractions"]] == ["vllm-long-prefill-freeze"]
    plain = YAML(typ="safe").load(import_full(markdown, known_briefs=[FIRST]).text)
    assert not plain.get("retractions")


def _tagged(brief):
    """The shipped brief as if its writer had labelled its follow-ups 〔办 1〕 〔办 2〕 〔办 3〕."""
    data = brief.model_dump(mode="json", by_alias=True, exclude_none=True)
    for f in data["follow_ups"]:
        f["mark"] = f"〔办 {f['number']}〕"
    return type(brief).model_validate(data)


def _on_tagged(four: str) -> dict:
    markdown = SECOND_NIGHT.format(author="汀", two="无。", four=four)
    return YAML(typ="safe").load(import_full(markdown, known_briefs=[_tagged(FIRST)]).text)


def test_a_follow_up_labelled_with_a_tag_in_brackets_is_named_by_it_later():
    """10-21's list written 〔办 1〕 … 〔办 3〕: 「T-1 Tom〔办 2〕 验证关闭」 the next night is its follow-up 2, done."""
    brief = _on_tagged("- T-1 Tom〔办 2〕RecSys 锚点：验证关闭，见条目 1。")
    assert follow_up_statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_each_row_of_a_status_table_says_what_became_of_its_own_follow_up():
    """「| T-1 Tom〔办 2〕 | 按不修复关闭 | … |」 then 「| T-1 Tom〔办 3〕 | 验证关闭 | … |」: the second row's status is
    not the first row's (the table is read as one paragraph; a row ends where the next begins)."""
    table = "\n".join(
        [
            "| 单 | 状态 | 说明 |",
            "|---|---|---|",
            "| T-1 Tom〔办 2〕RecSys 锚点 | 按不修复关闭 | 页面下线了，再问也问不出来 |",
            "| T-4 某人 工单 9 别的事 | 验证关闭 | 见条目 1 |",
        ]
    )
    brief = _on_tagged(f"- 单子状态：\n\n{table}")
    assert follow_up_statuses(brief) == {"recsys-vol178-anchors": "dropped"}


def test_a_one_character_quote_in_a_ban_no_wording_knows_is_no_claim_to_withhold():
    """「「读」字那句：「读路径快 30%」，§3.1 关进小黑屋」: a one-character quote names a word; withholding it would hide that
    character on every page.  The longer quote is still withheld until the editor answers."""
    two = "1. 「读」字那句：「读路径快 30%」，§3.1 关进小黑屋。"
    _, brief = _second("- 无。", two=two)
    patterns = [p for c in brief["contradictions"] for w in c.get("withheld") or [] for p in w["patterns"]]
    assert "读" not in patterns and any("30%" in p for p in patterns)
