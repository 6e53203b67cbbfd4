"""The ways a later night points back that blind13's writers brought (issue 29): a night named by a day's name
(「平安夜岑的第 3 条」), a spaced month and day (「11 月 8 日」), the compact 「date·writer·number」 (「12-19·珩·4 号」,
「日·杉·一）」), a list headed by an earlier night that reports on that night's follow-ups, a list numbered 一）二）,
a status in brackets that leads its line (「〔交了卷〕…」), an entry moved that is named by its own words in
quotes, a move retold, and an erratum whose wrong words are quoted a few words before 应为.

Each night below is written on top of the shipped 10-21 brief (moved to another date where the test needs one).
"""

from __future__ import annotations

from helpers import ROOT, SECOND_NIGHT, later_brief, shipped_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief, Outline, VocabularyFile
from digest_plugin.core.vocabulary import Vocabulary, default_file

FIRST = shipped_brief()
OUTLINE = Outline.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "outlines" / "inference.yml").read_text(encoding="utf-8"))
)


def _moved(brief: Brief, day: str) -> Brief:
    """The shipped brief, as if written on ``day`` (``MM-DD`` of 2026)."""
    data = brief.model_dump(mode="json", by_alias=True, exclude_none=True)
    data.update(id=f"2026-{day}-inference-E1", date=f"2026-{day}")
    return Brief.model_validate(data)


def _night(
    four: str, *, on: str = "10-22", first: Brief = FIRST, vocabulary: Vocabulary | None = None
) -> tuple[str, dict]:
    markdown = SECOND_NIGHT.format(author="老李", two="无。", four=four).replace("2026-10-22", f"2026-{on}")
    done = import_full(markdown, known_briefs=[first], outline=OUTLINE, vocabulary=vocabulary)
    return done.text, YAML(typ="safe").load(done.text)


def _statuses(brief: dict) -> dict[str, str]:
    return {u["follow_up"]: u["status"] for u in brief.get("follow_up_updates") or []}


def _marks(text: str, needle: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line and needle in line]


def test_a_night_named_by_a_days_name_in_the_shipped_vocabulary():
    _, brief = _night("- 平安夜 Tom 的跟进 ② 办妥，见条目 1。", on="12-27", first=_moved(FIRST, "12-24"))
    assert _statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_a_days_name_is_a_line_of_the_sites_vocabulary():
    four = "- 上线日 Tom 的跟进 ② 办妥，见条目 1。"
    _, without = _night(four, on="10-25")
    assert "recsys-vol178-anchors" not in _statuses(without)
    named = Vocabulary(VocabularyFile.model_validate({"named_days": {"上线日": "10-21"}}), default_file())
    _, brief = _night(four, on="10-25", vocabulary=named)
    assert _statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_a_days_name_for_a_day_still_to_come_this_year_is_last_years():
    last_year = _moved(FIRST, "12-24")
    data = last_year.model_dump(mode="json", by_alias=True, exclude_none=True)
    data.update(id="2025-12-24-inference-E1", date="2025-12-24")
    _, brief = _night("- 平安夜 Tom 的跟进 ② 办妥。", on="01-03", first=Brief.model_validate(data))
    assert _statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_a_month_and_day_written_with_spaces_names_that_night_not_the_day_of_this_month():
    _, brief = _night("- 10 月 21 日 Tom 的跟进 ② 办妥。", on="11-25")
    assert _statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_a_list_headed_by_an_earlier_night_reports_on_its_follow_ups_and_opens_none():
    four = "- 条目 1 原地更新。\n\n平安夜 Tom 的 ①–②：\n\n① 办妥，见条目 1。\n② 顺延到周五。"
    _, brief = _night(four, on="12-27", first=_moved(FIRST, "12-24"))
    assert _statuses(brief) == {"vllm-long-prefill-issue": "done", "recsys-vol178-anchors": "carried_over"}
    assert not brief.get("follow_ups")


def test_a_list_numbered_with_chinese_numerals_and_a_bracket_is_tonights_follow_ups():
    four = "- 条目 1 原地更新。\n\n### 给明天的便条\n\n一）Jay：问 Kapitsa 作者要周增口径\n二）老李：复跑周四卡"
    _, brief = _night(four)
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (1, "Jay：问 Kapitsa 作者要周增口径"),
        (2, "老李：复跑周四卡"),
    ]


def test_a_new_follow_up_sharing_a_few_words_with_an_earlier_one_does_not_restate_it():
    # 「冻结的原始」 (five characters) is all it shares with 10-21 跟进 ①: a new follow-up, not ① carried over
    four = "- 条目 1 原地更新。\n\n### 给明天的便条\n\n一）查 SGLang 冻结的原始报告"
    _, brief = _night(four)
    assert [f["text"] for f in brief["follow_ups"]] == ["查 SGLang 冻结的原始报告"]
    assert "vllm-long-prefill-issue" not in _statuses(brief)


def test_a_status_in_brackets_that_leads_the_line_is_the_status_of_the_follow_up_it_names():
    _, brief = _night(
        "- 〔交了卷〕10-21·Tom·二）RecSys 的锚点——见条目 1。\n- 〔撒手〕10-21·Tom·一）冻结的 issue——不追了。"
    )
    assert _statuses(brief) == {"recsys-vol178-anchors": "done", "vllm-long-prefill-issue": "dropped"}


def test_date_writer_and_number_dotted_together_name_an_item_and_its_successor():
    _, brief = _night("- 〔撤下〕10-21·Tom·4 号那一行：版本区间写错了；换成第一条那一行。")
    (retraction,) = brief["retractions"]
    assert retraction["item"] == "vllm-long-prefill-freeze"
    assert retraction["superseded_by"] == brief["items"][0]["id"]


def test_a_move_names_the_entry_quoted_word_for_word_over_the_item_a_date_points_at():
    four = (
        "- 迁往 §5.2：§1.1 里 Inferact 那一段（10-21 写下的「Inferact 获大额融资，招聘 Kernel/TPU 工程师」）迁往 §5.2。"
    )
    _, brief = _night(four)
    assert [(m["entry"], m["to"]) for m in brief["moves"]] == [("inferact-funding", "5.2")]


def test_a_move_to_where_the_entry_already_stands_is_a_retelling_and_moves_nothing():
    _, brief = _night("- 10-21 条目 3（ModelExpress）早先从 §2.6 挪到了 §3.2，今天没有新材料。")
    assert not brief.get("moves")


def test_an_erratum_whose_wrong_words_are_quoted_before_its_verb_is_read_and_asked_to_be_narrowed():
    four = "- 勘误：10-21 条目 4 要点里「现象：24K token 的 RAG prompt」，长度记错了，应为「32K token」。"
    text, brief = _night(four)
    (erratum,) = brief["errata"]
    assert (erratum["item"], erratum["old"], erratum["new"]) == (
        "vllm-long-prefill-freeze",
        "现象：24K token 的 RAG prompt",
        "32K token",
    )
    assert _marks(text, "narrow old"), text


def test_an_item_updating_entries_it_names_by_short_names_its_relation_gives_updates_each():
    markdown = (
        SECOND_NIGHT.format(author="杉", two="无。", four="- 无。")
        .replace(
            "与活文档脉络的关系：§1.1 Kapitsa 换数。",
            "与活文档脉络的关系：『冻结』——10-21 条目 4 开的那条，版本区间还空着；『MX』——10-21 条目 3 开的那条。",
        )
        .replace(
            "建议归入：§1.1 Kapitsa 原地更新。",
            "建议归入：两处原地更新：『冻结』——补版本区间；『MX』——补 0.23 的出处。",
        )
    )
    done = import_full(markdown, known_briefs=[FIRST], outline=OUTLINE)
    placement = YAML(typ="safe").load(done.text)["items"][0]["placement"]
    assert {placement["entry"], *placement.get("entries", [])} == {
        "vllm-long-prefill-freeze",
        "modelexpress-weight-transfer",
    }


def test_an_older_open_follow_up_described_in_its_own_words_is_asked_about():
    old, recent = _moved(FIRST, "10-10"), later_brief()  # 10-10's list is handed to no later night
    four = "- 回溯 vLLM 长 prefill 冻结的原始 issue：今晚翻到一半。"
    markdown = SECOND_NIGHT.format(author="老李", two="无。", four=four).replace("2026-10-22", "2026-10-24")
    done = import_full(markdown, known_briefs=[old, recent], outline=OUTLINE)
    asked = _marks(done.text, "vllm-long-prefill-issue")
    assert len(asked) == 1 and "described here in its own words" in asked[0]
    silent = import_full(markdown.replace(four, "- 今晚只有一条。"), known_briefs=[old, recent], outline=OUTLINE)
    assert not _marks(silent.text, "vllm-long-prefill-issue")
