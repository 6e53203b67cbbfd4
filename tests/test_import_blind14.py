"""What blind14's tuned writers brought (issue 29): items headed 「## [1] …」 with fields written 「label｜text」, a
rating line 「分量｜高价值」, citations 「- arXiv ID · title · S2 1.37 万 / OA 7,346」, a list numbered 〈1〉, a correction
whose first arrow says the change and whose second the values (「→ 数字换掉：旧「…」→ 新「…」」), a contradiction re-judged by
naming a disposition (「→ 降到丢弃级」, asked), a split whose part 四 line names the one entry the parts' words leave open,
a retraction verb a few words after the item (「…第 3 条开的那一条整条删去」), 「新开矛盾 1、2」 as tonight's own, 「28 号乔
2）」 as that night's item 2, and a status in brackets after a list item's last sentence (「。（查到底了，放开）」).

Each night is written on top of the shipped 10-21 brief (changed where the test needs it).
"""

from __future__ import annotations

from helpers import SECOND_NIGHT, shipped_brief, shipped_outline
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.authoring.importer.numbers import read_number
from digest_plugin.core.model import Brief

FIRST = shipped_brief()
OUTLINE = shipped_outline()


def _import(markdown: str, first: Brief = FIRST) -> tuple[str, dict]:
    done = import_full(markdown, known_briefs=[first], outline=OUTLINE)
    return done.text, YAML(typ="safe").load(done.text)


def _night(two: str = "无。", four: str = "- 无。", first: Brief = FIRST) -> tuple[str, dict]:
    return _import(SECOND_NIGHT.format(author="黎", two=two, four=four), first)


def _marks(text: str, needle: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line and needle in line]


BARS = """inference · E1 预消化简报（2026-10-22）

作者：黎 · E1 日间预消化轮（inference）· 2026-10-22 22:00

【一】新增 · 2 条

## [1] Kapitsa 周四卡

分量｜高价值
取自｜https://github.com/nace-ai/kapitsa
说的是｜
  ∘ Stars 188
  ∘ 七日 +12
没核的｜自动采集；未复现。
上下文｜§1.1 Kapitsa 换数。
怎么落｜§1.1 Kapitsa 原地更新。

## [2] Llama 3 的引用数

分量｜中等价值
取自｜https://arxiv.org/abs/2407.21783
说的是｜
  ∘ 引用又涨了
没核的｜只看了 S2 页面；未复现。
上下文｜无。
怎么落｜只刷新元数据。

【二】说法冲突与待证

无。

【三】arXiv

- arXiv 2407.21783 · The Llama 3 Herd of Models · S2 1.37 万 / OA 7,346 · 截至 2026-10-22 · [1] 的出处

【四】小结 · 待办

- 两条。

### 给周五的人

〈1〉Jay：问 Kapitsa 作者要周增口径
〈2〉黎：复跑周四卡
"""


def test_items_headed_by_a_number_in_square_brackets_with_fields_after_a_full_width_bar():
    _, brief = _import(BARS)
    first, second = brief["items"]
    assert (first["number"], first["title"]) == (1, "Kapitsa 周四卡")
    assert first["value"] == ["high"] and second["value"] == ["medium"]
    assert first["points"] == ["Stars 188", "七日 +12"]
    assert first["relation"] == "§1.1 Kapitsa 换数。"
    assert (first["placement"]["section"], first["placement"]["action"]) == ("1.1", "update_in_place")
    assert second["placement"]["action"] == "citation_refresh"


def test_a_citation_line_parted_by_middle_dots_with_wan_and_oa_counts():
    _, brief = _import(BARS)
    (citation,) = brief["citations"]
    assert (citation["arxiv"], citation["title"]) == ("2407.21783", "The Llama 3 Herd of Models")
    assert {c["source"]: c["count"] for c in citation["cited_by"]} == {"S2": 13700, "OpenAlex": 7346}
    assert citation["use_note"] == "（[1] 的出处）"


def test_a_count_in_wan_with_a_fraction_is_read_exactly():
    assert read_number("1.37 万") == 13700
    assert read_number("1.2万") == 12000
    assert read_number("0.3") == 0.3


def test_a_list_numbered_in_angle_brackets_is_tonights_follow_ups():
    _, brief = _import(BARS)
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (1, "Jay：问 Kapitsa 作者要周增口径"),
        (2, "黎：复跑周四卡"),
    ]


def test_a_withdrawal_said_on_a_citation_line_of_any_shape_marks_the_paper_withdrawn():
    _, brief = _import(BARS.replace("· [1] 的出处", "· 作者撤稿，见 [2]"))
    assert brief["citations"][0]["withdrawn"] is True


def _two_claims() -> Brief:
    data = FIRST.model_dump(mode="json", by_alias=True, exclude_none=True)
    (c,) = [c for c in data["contradictions"] if c["id"] == "long-prefill-no-version"]
    c["withheld"] = [
        {"text": "a 24K prompt freezes vLLM for 1.8-2.4 s", "patterns": ["a 24K prompt freezes vLLM for 1.8-2.4 s"]},
        {"text": "24K prompt 冻结约 1.8–2.4 秒", "patterns": ["24K prompt 冻结约 1.8–2.4 秒"]},
    ]
    return Brief.model_validate(data)


def test_a_correction_gives_its_values_in_quotes_after_an_arrow_that_only_says_the_change():
    two = "旧的：\n- 10-21 矛盾 4（冻结那句）→ 数字换掉：旧「冻结约 1.8–2.4 秒」→ 新「冻结约 0.9 秒；空闲时 0.3 秒」。"
    _, brief = _night(two=two, first=_two_claims())
    (update,) = brief["contradiction_updates"]
    assert (update["contradiction"], update["outcome"]) == ("long-prefill-no-version", "corrected")
    (correction,) = update["corrections"]
    assert correction["claim"] == "24K prompt 冻结约 1.8–2.4 秒"
    assert (correction["old"], correction["new"]) == ("冻结约 1.8–2.4 秒", "冻结约 0.9 秒；空闲时 0.3 秒")


def test_a_contradiction_said_to_go_to_a_disposition_is_re_judged_and_asked():
    text, brief = _night(two="旧的：\n- 10-21 矛盾 3（LFM2.5 的口径）→ 降到丢弃级：厂商自己删了那页。")
    (update,) = brief["contradiction_updates"]
    assert (update["contradiction"], update["change"], update["disposition"]) == (
        "lfm2-5-basis",
        "redisposed",
        "discarded",
    )
    assert _marks(text, "re-judged to «丢弃级»")


def test_new_contradictions_named_in_part_four_are_tonights_not_an_earlier_nights():
    text, brief = _night(four="- 矛盾：10-21 矛盾 2 照旧；新开矛盾 1、2。")
    assert not [r for r in brief.get("back_refs") or [] if r["text"].startswith("矛盾 1")]
    assert not _marks(text, "vllm-version-basis")


def test_a_retraction_verb_a_few_words_after_the_item_retracts_it():
    _, brief = _night(four="- 10-21 条目 4 开的那一条整条删去，没有替代。")
    assert [r["item"] for r in brief["retractions"]] == ["vllm-long-prefill-freeze"]


def test_a_retraction_told_as_an_earlier_nights_act_is_not_tonights():
    _, brief = _night(four="- 10-21 条目 4 开的那一条已于 10-21 删去，今天不动。")
    assert not brief.get("retractions")


def test_a_night_its_writer_and_a_number_with_a_bracket_name_that_nights_item():
    _, brief = _night(four="- 撤回：21 号 Tom 4）写的那一行，由第 1 条的那行补上。")
    (retraction,) = brief["retractions"]
    assert retraction["item"] == "vllm-long-prefill-freeze"
    assert retraction["superseded_by"] == brief["items"][0]["id"]


def test_a_status_in_brackets_after_a_list_items_last_sentence_settles_the_contradiction():
    two = "之前几条的进展：\n- 10-21 矛盾 2（0.23 那句）：文档页改了，一手出处到了。（查到底了，放开）"
    _, brief = _night(two=two)
    (update,) = brief["contradiction_updates"]
    assert (update["contradiction"], update["outcome"]) == ("vllm-version-basis", "confirmed")


def test_a_retraction_verb_told_of_someone_else_in_the_items_phrase_retracts_nothing():
    _, brief = _night(four="- 10-21 条目 4（v0.30 那行）——v0.30.1 已被维护者撤掉，今晚先不动。")
    assert not brief.get("retractions")
