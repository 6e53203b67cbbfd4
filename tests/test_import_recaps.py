"""A brief that retells what an earlier night did, beside what tonight does (issue 29, "safe when unsure").

Writers recap in passing: 「10-21 矛盾 1（周一老王晾成暂挂观察）…」, 「周一老王撂下了」.  The recap is not
tonight's decision: a correction written outside the brackets wins over a verb inside them; a follow-up
whose only status word is another night's gets no status (the editor is asked) instead of that night's;
and an earlier entry named beside a section it does not stand in is asked about (moved?), whatever the
verb.  Each night below is written on top of the shipped 10-21 brief in words the vocabulary does not have.
"""

from __future__ import annotations

import pytest
from helpers import SECOND_NIGHT, shipped_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full

FIRST = shipped_brief()


def _night(two: str = "无。", four: str = "- 无。") -> tuple[str, dict]:
    done = import_full(SECOND_NIGHT.format(author="老李", two=two, four=four), known_briefs=[FIRST])
    return done.text, YAML(typ="safe").load(done.text)


def _marks(text: str, needle: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line and needle in line]


def test_a_quoted_correction_outside_the_brackets_wins_over_a_disposition_inside_them():
    _, brief = _night(two="旧账：\n- 10-21 矛盾 1（周一老王晾成暂挂观察）翻过来了：旧「周增 +175」→ 新「周增 +58」。")
    (update,) = brief["contradiction_updates"]
    assert update["contradiction"] == "kapitsa-weekly-gain"
    assert (update["change"], update["outcome"]) == ("resolved", "corrected")
    assert "58" in str(update["corrections"][0]["new"])


def test_a_disposition_outside_the_brackets_is_still_read_as_one():
    _, brief = _night(two="旧账：\n- 10-21 矛盾 2（口径那条）暂挂，等维护者回帖。")
    (update,) = brief["contradiction_updates"]
    assert (update["contradiction"], update["change"]) == ("vllm-version-basis", "redisposed")


def test_a_follow_up_whose_only_status_word_is_another_nights_is_asked_not_given_that_status():
    text, brief = _night(four="- 10-21 跟进 ②（RecSys 锚点）：周一老王撂下了，今天有眉目了。")
    assert not [u for u in brief.get("follow_up_updates") or [] if u["follow_up"] == "recsys-vol178-anchors"]
    assert _marks(text, "recsys-vol178-anchors"), text


def test_tonights_word_after_the_recap_gives_the_status():
    _, brief = _night(four="- 10-21 跟进 ②（RecSys 锚点）：周一老王撂下了，今天办妥，见条目 1。")
    (update,) = [u for u in brief["follow_up_updates"] if u["follow_up"] == "recsys-vol178-anchors"]
    assert update["status"] == "done"


def test_an_entry_named_beside_a_section_it_does_not_stand_in_is_asked_about():
    text, brief = _night(four="- §3.2「ModelExpress」那条（10-21 条目 3）往 §2.6 放，§3.2 留一行交叉引用。")
    assert not brief.get("moves")
    asked = _marks(text, "modelexpress-weight-transfer")
    assert len(asked) == 1 and "moved?" in asked[0]


def test_an_entry_named_beside_its_own_section_is_not_asked_about():
    text, _ = _night(four="- §3.2「ModelExpress」那条（10-21 条目 3）今天没有新材料。")
    assert not _marks(text, "modelexpress-weight-transfer")


def test_an_unnumbered_list_that_ends_part_four_is_read_as_follow_ups_and_asked_about():
    text, brief = _night(
        four="- 条目 1 原地更新 Kapitsa。\n\n### 还要接着做的\n\n- 老李：盯 Kapitsa 的下一张卡\n- Jay：问维护者要配置"
    )
    assert [f["text"] for f in brief["follow_ups"]] == ["老李：盯 Kapitsa 的下一张卡", "Jay：问维护者要配置"]
    assert [f["number"] for f in brief["follow_ups"]] == [1, 2]
    assert brief["follow_ups_heading"] == "还要接着做的"
    assert brief["conclusions"] == ["条目 1 原地更新 Kapitsa。"]  # the list left the conclusions, nothing else
    assert len(_marks(text, "ends part 四")) == 2


@pytest.mark.parametrize(
    "heading", ["### 明天接着做", "### 交给 W01-7（周日，楠）", "**Parking lot → Tue (Kai)**", "下一轮待测（T+1）："]
)
def test_a_last_list_handed_to_a_night_to_come_is_read_as_follow_ups_without_asking(heading):
    """A heading that hands the list on (a weekday with no 上, 「T+1」, 「明天」 and the team's other words for a
    night to come) says what the list is: tonight's follow-ups, with nothing to ask."""
    text, brief = _night(
        four=f"- 条目 1 原地更新 Kapitsa。\n\n{heading}\n\n- 老李：盯 Kapitsa 的下一张卡\n- Jay：问维护者要配置"
    )
    assert [f["text"] for f in brief["follow_ups"]] == ["老李：盯 Kapitsa 的下一张卡", "Jay：问维护者要配置"]
    assert brief["conclusions"] == ["条目 1 原地更新 Kapitsa。"]
    assert not _marks(text, "ends part 四")


@pytest.mark.parametrize("heading", ["### Monitoring", "### 还要接着做的（Sunset 方案）"])
def test_a_word_that_begins_like_a_weekday_does_not_hand_a_list_on(heading):
    text, _ = _night(
        four=f"- 条目 1 原地更新 Kapitsa。\n\n{heading}\n\n- 老李：盯 Kapitsa 的下一张卡\n- Jay：问维护者要配置"
    )
    assert len(_marks(text, "ends part 四")) == 2


def test_a_last_list_headed_by_a_past_weekday_is_still_asked_about():
    text, brief = _night(
        four="- 条目 1 原地更新 Kapitsa。\n\n### 上周四议过的\n\n- 老李：盯 Kapitsa 的下一张卡\n- Jay：问维护者要配置"
    )
    assert not brief.get("follow_ups") or _marks(text, "ends part 四")


def test_a_last_list_that_reports_on_earlier_follow_ups_stays_with_the_conclusions():
    _, brief = _night(four="- 条目 1 原地更新 Kapitsa。\n\n### 上周的单子\n\n- ① 已完成\n- ③ 顺延")
    assert not brief.get("follow_ups")
    _, brief = _night(four="- 条目 1 原地更新 Kapitsa。\n\n### 明天\n\n- 10-21 跟进 ① 已完成")
    assert not brief.get("follow_ups")


def test_a_word_for_done_said_in_the_negative_is_not_done():
    text, brief = _night(four="- 10-21 跟进 ②（RecSys 锚点）：还没完成，锚点页打不开。")
    assert not [u for u in brief.get("follow_up_updates") or [] if u["follow_up"] == "recsys-vol178-anchors"]
    assert _marks(text, "recsys-vol178-anchors")  # asked: done, carried over, dropped?
    _, brief = _night(four="- 10-21 跟进 ②（RecSys 锚点）：尚未办妥，顺延到明天。")
    (update,) = [u for u in brief["follow_up_updates"] if u["follow_up"] == "recsys-vol178-anchors"]
    assert update["status"] == "carried_over"


def test_contradictions_whose_text_opens_with_a_digit_after_their_label_are_read_and_withhold_their_claims():
    """「新疑问 1：1）里…」: after the label's colon the text names tonight's item 1; each contradiction is read, and
    the claim it bans in words the vocabulary may not have is withheld (asked about if the ban is not understood)."""
    _, brief = _night(
        two=(
            "新疑问 1：1）里那篇博客说「Kapitsa v0.5 每卡吞吐翻倍」，配置没贴。配置拿到之前，"
            "「Kapitsa v0.5 每卡吞吐翻倍」§1.1 暂不给名分。\n\n"
            "新疑问 2：1）里还有一句「v0.5 起默认开 FP8」，发布说明没写。「v0.5 起默认开 FP8」§1.1 不见报。\n\n"
            "旧疑问：\n- 其余几条没碰到新材料。"
        )
    )
    assert [c["number"] for c in brief["contradictions"]] == [1, 2]
    withheld = [[w["text"] for w in c.get("withheld") or []] for c in brief["contradictions"]]
    assert "Kapitsa v0.5 每卡吞吐翻倍" in withheld[0] and "v0.5 起默认开 FP8" in withheld[1]


def test_a_task_box_is_the_lists_form_not_the_follow_ups_words():
    _, brief = _night(
        four="- 条目 1 原地更新 Kapitsa。\n\n### 周日接手\n\n- [ ] 老李：盯 Kapitsa 的下一张卡\n- [ ] Jay：问维护者要配置"
    )
    assert [f["text"] for f in brief["follow_ups"]] == ["老李：盯 Kapitsa 的下一张卡", "Jay：问维护者要配置"]


RECAP = "- 今晚两条：① 原地更新 Kapitsa 那一户；② 新开 vLLM 口径一条。"


def test_a_list_of_its_own_lines_displaces_an_inline_run_above_it_that_numbers_the_same():
    """「今晚两条：① … ② …」 recaps tonight's items; the list the brief ends on is the next round's."""
    text, brief = _night(
        four=f"{RECAP}\n\n### 下一棒要做的\n\n1. 老李：盯 Kapitsa 的下一张卡\n2. Jay：问维护者要配置\n3. 老王：对 RecSys 锚点"
    )
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (1, "老李：盯 Kapitsa 的下一张卡"),
        (2, "Jay：问维护者要配置"),
        (3, "老王：对 RecSys 锚点"),
    ]
    assert brief["follow_ups_heading"] == "下一棒要做的"
    assert any("今晚两条" in c for c in brief["conclusions"])  # the recap stays, nothing lost
    assert len(_marks(text, "is read as tonight's follow-ups and the other stays a conclusion")) == 3


def test_an_inline_run_with_no_later_list_is_still_read_as_the_follow_ups():
    _, brief = _night(four="- 明天：① 老李盯 Kapitsa 的下一张卡；② Jay 问维护者要配置。")
    assert [f["number"] for f in brief["follow_ups"]] == [1, 2]


@pytest.mark.parametrize("heading", ["五、明日事项", "## 五、明日事项", "五、跟进"])
def test_a_list_in_a_part_after_four_is_read_as_tonights_follow_ups(heading):
    """「五、明日事项」 after part 四: read as more of part 四, so the list the brief ends on is the next round's
    follow-ups, not text no reader sees; a second part 四 (「五、跟进」) keeps its heading too."""
    _, brief = _night(
        four=f"- 条目 1 原地更新 Kapitsa。\n\n{heading}\n\n1. 老李：盯 Kapitsa 的下一张卡\n2. Jay：问维护者要配置"
    )
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (1, "老李：盯 Kapitsa 的下一张卡"),
        (2, "Jay：问维护者要配置"),
    ]
    assert brief["conclusions"] == ["条目 1 原地更新 Kapitsa。"]


def test_a_part_after_four_that_holds_no_list_stays_with_the_conclusions_as_written():
    text, brief = _night(four="- 条目 1 原地更新 Kapitsa。\n\n五、备注\n\n这是一段说明。")
    assert brief["conclusions"] == ["条目 1 原地更新 Kapitsa。", "五、备注", "这是一段说明。"]
    assert not brief.get("follow_ups")
    assert _marks(text, "after part 四 is read as more of part 四")
