"""What a later night says about earlier ones becomes updates: the blind corpus imported in order
(tests/corpus/days/), each statement checked as the editor who wrote it would check it."""

from __future__ import annotations

import pytest
from helpers import ROOT, SECOND_NIGHT, shipped_brief, shipped_outline
from helpers.shared import corpus_nights
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full


@pytest.fixture(scope="module")
def data():
    work, _ = corpus_nights()
    return work / "data"  # read-only


def brief(data, name: str) -> dict:
    return YAML(typ="safe").load((data / "briefs" / f"{name}.yml").read_text(encoding="utf-8"))


def update_of(b: dict, key: str, ident: str, field: str) -> dict:
    (found,) = [u for u in b.get(key, []) if u[field] == ident]
    return found


def test_a_contradiction_corrected_names_the_figure_the_wrong_and_the_right_value(data):
    # 10-22: 10-21 矛盾 1 更正（周增 +175 → +58，采集器把组织级与单仓库口径混用）
    u = update_of(
        brief(data, "2026-10-22-inference-E2"), "contradiction_updates", "kapitsa-weekly-gain", "contradiction"
    )
    assert (u["change"], u["outcome"]) == ("resolved", "corrected")
    (c,) = u["corrections"]
    assert (c["key"], c["old"], c["new"]) == ("weekly-gain", 175, 58)
    assert "口径混用" in c["reason"]


def test_confirmed_and_superseded_contradictions(data):
    b = brief(data, "2026-10-22-inference-E2")
    confirmed = update_of(b, "contradiction_updates", "long-prefill-no-version", "contradiction")
    assert (confirmed["change"], confirmed["outcome"]) == ("resolved", "confirmed")  # 10-21 矛盾 4 证实
    superseded = update_of(b, "contradiction_updates", "vllm-version-basis", "contradiction")
    successor = next(c for c in b["contradictions"] if c["number"] == 2)  # 10-21 矛盾 2 由今日矛盾 2 取代
    assert (superseded["change"], superseded["superseded_by"]) == ("superseded", successor["id"])


def test_follow_ups_done_and_carried_over_with_what_the_brief_says(data):
    # 10-22: ① 已完成（issue #31842，见条目 1）；③ 已完成（…）；② 只完成一半——…，顺延。
    b = brief(data, "2026-10-22-inference-E2")
    status = {u["follow_up"]: u["status"] for u in b["follow_up_updates"]}
    assert status == {
        "vllm-long-prefill-issue": "done",
        "modelexpress-dynamo-relation": "done",
        "recsys-vol178-anchors": "carried_over",
    }
    assert "只完成一半" in update_of(b, "follow_up_updates", "recsys-vol178-anchors", "follow_up")["note"]


def test_a_follow_up_done_by_the_item_that_updates_its_entry_in_place_adds_no_second_evidence_update(data):
    # 10-22: ① 已完成（issue #31842，见条目 1）, and 条目 1 updates 10-21 条目 4's entry in place: the
    # evidence it brings is that update's, once (issue 34: a second copy lowered the entry's level)
    b = brief(data, "2026-10-22-inference-E2")
    assert [u for u in b.get("evidence_updates", []) if u["item"] == "vllm-long-prefill-freeze"] == []
    issue_item = next(i for i in b["items"] if i["number"] == 1)
    assert issue_item["placement"]["entry"] == "vllm-long-prefill-freeze"
    assert issue_item["evidence"]["boundary"]


def test_a_restated_contradiction_is_an_update_not_a_new_one(data):
    # 10-27 part 二: 2. Kapitsa 周增（重开 10-21 矛盾清单 1）：…
    b = brief(data, "2026-10-27-inference-E1")
    assert [c["number"] for c in b["contradictions"]] == [1]
    u = update_of(b, "contradiction_updates", "kapitsa-weekly-gain", "contradiction")
    assert (u["change"], u["number"]) == ("reopened", 2) and u["text"].startswith(
        "Kapitsa 周增（重开 10-21 矛盾清单 1）"
    )


def test_a_retraction_names_the_item_and_what_replaces_it(data):
    # 10-27 条目 2: 撤回(原 10-21 条目 7):金额读错段落——…；由今日条目 2 替代。
    b = brief(data, "2026-10-27-inference-E1")
    r = update_of(b, "retractions", "braintrust-series-b", "item")
    assert r["superseded_by"] == next(i["id"] for i in b["items"] if i["number"] == 2)
    assert "$80M" in r["reason"]


def test_a_change_an_earlier_night_made_is_not_made_again(data):
    # 10-29: 上周四矛盾清单第 4 条已于 10-27 更正，…此处销项。
    b = brief(data, "2026-10-29-inference-E1")
    assert "prefill-fix-v031-claim" not in [u["contradiction"] for u in b.get("contradiction_updates", [])]


def test_a_re_judged_contradiction_gets_its_new_disposition_as_a_word_of_the_vocabulary(data):
    # 11-01: 3. Dolphin / Venice VVV（10-21 矛盾清单 7）：与推理引擎无关，转交 crypto-infra 主题
    b = brief(data, "2026-11-01-inference-E1")
    u = update_of(b, "contradiction_updates", "dolphin-venice-vvv", "contradiction")
    assert u["change"] == "redisposed"
    words = YAML(typ="safe").load((data / "vocabulary.yml").read_text(encoding="utf-8"))["dispositions"]
    assert words[u["disposition"]] == "转交其他主题"


def test_a_follow_up_status_list_carries_its_lines_over(data):
    # 10-31: 顺延清单：10-30 的 v0.29.2 复跑——周末机器空闲已跑完，数据明晚整理；…
    b = brief(data, "2026-10-31-inference-E1")
    ten_thirty = brief(data, "2026-10-30-inference-E1")
    rerun = next(f["id"] for f in ten_thirty["follow_ups"] if "v0.29.2" in f["text"])
    assert update_of(b, "follow_up_updates", rerun, "follow_up")["status"] == "carried_over"


def test_an_ambiguous_reference_is_marked_not_guessed(data):
    # 10-28: 「矛盾 3 仍挂着」 with no date: 10-21's list or 10-22's?
    text = (data / "briefs" / "2026-10-28-inference-E1.yml").read_text(encoding="utf-8")
    assert "# digest-import: «矛盾 3» names no single earlier contradiction" in text


def test_every_reference_is_listed_for_the_reviewer(data):
    rows = brief(data, "2026-10-27-inference-E1")["back_refs"]
    assert {
        "text": "重开 10-21 矛盾清单 1"[3:],
        "part": "contradictions",
        "at": 2,
        "kind": "contradiction",
        "brief": "2026-10-21-inference-E1",
        "id": "kapitsa-weekly-gain",
    } in rows


def test_an_update_in_place_of_an_entry_named_only_by_reference(data):
    # 11-02 条目 3: 与活文档脉络的关系：10-22 深读条目 4 挂进 §5.2「…」的那篇论文的后续 · 建议归入：§5.2 证据缓存文献子条目原地更新
    item = next(i for i in brief(data, "2026-11-02-inference-E1")["items"] if i["number"] == 3)
    deep_read = next(i for i in brief(data, "2026-10-22-inference-E2")["items"] if i["number"] == 4)
    assert (item["placement"]["action"], item["placement"]["entry"]) == ("update_in_place", deep_read["id"])


def test_a_correction_of_words_no_figure_holds_names_the_words(data):
    # 11-01: 10-22 写的区间「v0.30.0–v0.30.1」更正为「v0.29.2–v0.30.1（v0.31.0 起默认分块缓解）」
    u = update_of(
        brief(data, "2026-11-01-inference-E1"), "contradiction_updates", "long-prefill-no-version", "contradiction"
    )
    (c,) = u["corrections"]
    assert (c["claim"], c["old"], c["new"]) == (
        "v0.30.0–v0.30.1",
        "v0.30.0–v0.30.1",
        "v0.29.2–v0.30.1（v0.31.0 起默认分块缓解）",
    )


def test_a_semicolon_inside_brackets_does_not_end_the_clause():
    """「12-01 C1（4K 对照；前天改列）#校准 「快 12%」→「快约 3%」」: the words after the bracket still say what
    happened to C1 (the correction was read as "outcome unknown" when the clause ended at the 「；」)."""
    from digest_plugin.authoring.importer.updates import _clause_after

    text = "12-01 C1（4K 对照；前天改列）#校准 「快 12%」→「快约 3%」；其余照旧。"
    assert _clause_after(text, len("12-01 C1"), len(text)) == "（4K 对照；前天改列）#校准 「快 12%」→「快约 3%」"
    assert _clause_after("a；b", 0, 3) == "a"


def test_a_table_of_earlier_doubts_in_part_two_is_read_row_by_row():
    """Part 二 may list the earlier contradictions' states as a table (「| 哪一桩 | 今天 | 结果 |」), each row
    opening with the night and a description instead of a number (「昨天那桩（评测可信度）」): each row
    is read as the line a writer with no table writes, and its words, in any cell, say what happened."""
    from digest_plugin.authoring.importer import import_full
    from digest_plugin.core.model import Brief

    night = (ROOT / "tests" / "corpus" / "days" / "2026-10-22-inference-E2.md").read_text(encoding="utf-8")
    table = (
        "二、值得警惕的矛盾与待核实说法\n\n| 哪一桩 | 今天 | 结果 |\n|---|---|---|\n"
        "| 昨天那桩（评测可信度） | 作者贴出了完整脚本和原始日志，复跑对得上 | 落锤 |\n"
        "| 昨天那桩（代币经济学） | 没有新材料 | 照旧 |\n"
    )
    assert "二、值得警惕的矛盾与待核实说法\n" in night
    first = Brief.model_validate(
        YAML(typ="safe").load((ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8"))
    )
    imported = YAML(typ="safe").load(
        import_full(night.replace("二、值得警惕的矛盾与待核实说法\n", table), known_briefs=[first]).text
    )
    updates = {u["contradiction"]: u for u in imported.get("contradiction_updates") or []}
    assert (updates["contabo-low-credibility"]["change"], updates["contabo-low-credibility"]["outcome"]) == (
        "resolved",
        "confirmed",
    )
    assert "dolphin-venice-vvv" not in updates  # 照旧: nothing changes
    plain = YAML(typ="safe").load(import_full(night, known_briefs=[first]).text)
    assert "contabo-low-credibility" not in {u["contradiction"] for u in plain.get("contradiction_updates") or []}


@pytest.mark.parametrize(
    ("placed", "action", "after"),
    [
        ("『Kapitsa』原地换数：Stars 188。", "update_in_place", None),
        ("「Kapitsa」补一行：Stars 188（截至 2026-10-22）。", "update_in_place", None),
        ("『Kapitsa』下挂一行线索。", "mount_lead", "kapitsa"),
    ],
)
def test_a_placement_with_no_section_that_quotes_one_entrys_whole_title_goes_to_that_entry(placed, action, after):
    """No § in 建议归入, but its first clause quotes the whole title of one entry of the doc: that entry's
    section, and the entry itself for an update (a lead hangs under it)."""
    brief = _no_section_night(placed)
    placement = brief["items"][0]["placement"]
    assert (placement["section"], placement["action"], placement.get("after")) == ("1.1", action, after)
    assert placement.get("entry") == ("kapitsa" if action == "update_in_place" else None)
    assert not brief.get("questions")


def test_a_placement_with_no_section_that_quotes_part_of_a_title_is_kept_out():
    placement = _no_section_night("「Kapit」补一行。")["items"][0]["placement"]
    assert placement["action"] == "not_placed" and "section" not in placement


def _no_section_night(placed: str) -> dict:
    return YAML(typ="safe").load(_no_section_night_text(placed))


def _no_section_night_text(placed: str) -> str:
    outline = shipped_outline()
    night = (
        SECOND_NIGHT.format(author="新人", two="无。", four="- 无。")
        .replace("建议归入：§1.1 Kapitsa 原地更新。", f"建议归入：{placed}")
        .replace("与活文档脉络的关系：§1.1 Kapitsa 换数。", "与活文档脉络的关系：换数。")
    )
    return import_full(night, known_briefs=[shipped_brief()], outline=outline).text


def test_a_line_added_to_an_entry_pointed_at_is_an_update_of_it():
    """「§1.1：给 Kapitsa 那条补一行：…」 says no action's word, but adds a line to an entry the doc has: an update
    of the entry its words name."""
    text = _no_section_night_text("§1.1：给 Kapitsa 那条补一行：Stars 188。")
    placement = YAML(typ="safe").load(text)["items"][0]["placement"]
    assert (placement["action"], placement["entry"]) == ("update_in_place", "kapitsa")
    # no action's word said so: the entry read is marked for the editor to check (it may be several, or another)
    assert any(MARK in line and "read as an in-place update of kapitsa" in line for line in text.splitlines())


def test_a_dated_line_whose_entry_no_words_name_is_a_lead_and_the_editor_picks_the_entry():
    """「§1.1 加一行（截至 …）」: a dated line for some entry of §1.1, which no words name.  The safe reading is a
    lead in §1.1; `digest review` asks which entry it updates, §1.1's entries offered."""
    brief = _no_section_night("§1.1 加一行（截至 2026-10-22）：Stars 188。")
    placement = brief["items"][0]["placement"]
    assert (placement["section"], placement["action"]) == ("1.1", "mount_lead") and "entry" not in placement
    (question,) = brief["questions"]
    assert question["at"] == "items[0].placement"
    assert "kapitsa" in [c["set"].get("entry") for c in question["choices"]]
