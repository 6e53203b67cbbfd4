"""Habits of later writers the importer met on nights it was tuned on (issue 29), each written here
on top of the shipped 10-21 brief in a night of its own, so a reading that regresses shows here and
not only in the blind corpus's totals:

* items headed in bold with a writer's letter mark and the rating set apart after the heading
  (「**D1 · 标题** · _高价值_」), named by that mark on a later night (「10/21 D3」);
* a night written as four digits right after a colon (「订误：1021 Tom 的 #3」);
* an erratum of an earlier item whose entry tonight also updates: an update of the entry does not
  answer what the earlier brief wrote wrong, so it is asked about;
* a relation that says the item is an earlier one told again, under a placement that says 原地更新:
  the reading that adds nothing is taken, and asked about;
* an entry named by a word or two of its title (「§2.6 回写那条」), and a placement that names an entry
  and says no action (「§2.6「…」加一行：…」): an update of that entry;
* an entry an earlier night moved, found in the section it was moved to.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief, Outline

ROOT = Path(__file__).resolve().parents[1]
FIRST = Brief.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8"))
)

HEAD = """inference · E1 预消化简报（2026-10-22）

作者：Ann · E1 日间预消化轮（inference）· 2026-10-22 22:00

一、今日增量（{count} 条）

"""

ITEM = """**D{n} · {title}** · _{value}_

来源：https://github.com/ai-dynamo/modelexpress
要点：{points}
证据边界：仓库 README；未复现。
与活文档脉络的关系：{relation}
建议归入：{placement}

"""

TAIL = """二、值得警惕的矛盾与待核实说法

无。

三、可引用的 arXiv 号

无。

四、本轮结论与建议动作

{conclusions}
"""


def _night(items: list[dict[str, str]], conclusions: str) -> str:
    body = "".join(ITEM.format(n=n, **item) for n, item in enumerate(items, 1))
    return HEAD.format(count=len(items)) + body + TAIL.format(conclusions=conclusions)


MODELEXPRESS = {
    "title": "ModelExpress 0.3 发布说明",
    "value": "中等价值",
    "points": "权重传输改走 NIXL 1.1。",
    "relation": "§3.2「ModelExpress 工程细节」换数。",
    "placement": "§3.2「ModelExpress 工程细节」原地更新。",
}


def _imported(night: str, earlier: list[Brief] = [FIRST]) -> tuple[str, dict]:  # noqa: B006 (never mutated)
    done = import_full(night, known_briefs=earlier)
    return done.text, YAML(typ="safe").load(done.text)


def _marks(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line]


def test_a_bold_heading_with_a_letter_mark_and_the_rating_after_it_is_one_item_with_its_rating():
    night = _night([MODELEXPRESS, {**MODELEXPRESS, "title": "ModelExpress 博客复述", "value": "高价值"}], "- 两条。")
    _text, brief = _imported(night)
    first, second = brief["items"]
    assert (first["number"], first["mark"]) == (1, "D1")
    assert (second["number"], second["mark"]) == (2, "D2")
    assert first["title"].startswith("ModelExpress 0.3 发布说明") and "**" not in first["title"]
    assert first["value"] == ["medium"] and second["value"] == ["high"]


def test_a_later_night_names_an_item_by_its_writers_letter_mark():
    night = _night([MODELEXPRESS, MODELEXPRESS, {**MODELEXPRESS, "title": "ModelExpress 草稿"}], "- 三条。")
    _text, brief = _imported(night)
    second = Brief.model_validate(brief)
    third = (
        HEAD.replace("10-22", "10-23").replace("（2026-10-22）", "（2026-10-23）").format(count=0)
        + "无。\n\n"
        + TAIL.format(conclusions="- revert：10/22 D3（ModelExpress 草稿）——博文是误发的草稿，已下线。")
    )
    text, _brief = _imported(third, [FIRST, second])
    assert any(brief["items"][2]["id"] in m and "10-22 条目 3" in m for m in _marks(text)), _marks(text)


def test_a_night_written_as_four_digits_after_a_colon_is_read_as_that_night():
    night = _night([MODELEXPRESS], "- 订误：1021 Tom 的 #3 要点里的「NIXL/RDMA」应为「NIXL over RDMA」。")
    _text, brief = _imported(night)
    [erratum] = brief["errata"]
    assert erratum["item"] == "modelexpress-weight-transfer"
    assert (erratum["old"], erratum["new"]) == ("NIXL/RDMA", "NIXL over RDMA")


def test_an_erratum_of_an_item_whose_entry_tonight_updates_is_still_asked_about():
    """Tonight's item 1 updates the entry 10-21 条目 3 made; the conclusions say what 10-21 wrote was wrong."""
    night = _night([MODELEXPRESS], "- 补正：10-21 条目 3 要点里写的「NIXL/RDMA」应为「NIXL over RDMA」。")
    text, brief = _imported(night)
    assert brief["items"][0]["placement"]["entry"] == "modelexpress-weight-transfer"
    assert any("modelexpress-weight-transfer" in m and "补正" in m for m in _marks(text)), _marks(text)
    plain = _night([MODELEXPRESS], "- 条目 1 给 §3.2 换数：10-21 条目 3 的 0.2 → 0.3。")
    assert not [m for m in _marks(_imported(plain)[0]) if "nothing was read for it" in m]


def test_a_relation_that_says_same_event_makes_a_marked_duplicate_not_an_update():
    same = {
        **MODELEXPRESS,
        "relation": "和 10-21 条目 3 是同一件事，§3.2 昨晚已经原地写过，不能再落一遍。",
        "placement": "不另记；§3.2「ModelExpress 工程细节」原地更新出处。",
    }
    text, brief = _imported(_night([same], "- 一条。"))
    placement = brief["items"][0]["placement"]
    assert placement["action"] == "duplicate" and placement["duplicate_of"] == "modelexpress-weight-transfer"
    assert any("told again" in m and "同一件事" in m for m in _marks(text)), _marks(text)
    other = {**same, "relation": "和 10-21 条目 3 不是同一件事：那条讲 0.2。"}
    assert _imported(_night([other], "- 一条。"))[1]["items"][0]["placement"]["action"] == "update_in_place"


def test_a_follow_up_quoted_after_its_night_takes_the_status_tonight_gives_it_not_the_one_recapped():
    """「另有 10月21日 那件「…」，上周五 顺延之后就一直挂着；…这件划掉。」 (blind2, 11-14): the follow-up is named by
    quoting it, 「上周五 顺延」 recaps what that night did, and 「划掉」 at the sentence's end is tonight's word."""
    night = _night(
        [MODELEXPRESS],
        "- 另有 10月21日 那件「打开 RecSys Vol.178 逐条锚点」，上周五 顺延之后就一直挂在清单外面；"
        "锚点页已经下线，这件划掉。",
    )
    _text, brief = _imported(night)
    updates = {u["follow_up"]: u["status"] for u in brief.get("follow_up_updates") or []}
    assert updates.get("recsys-vol178-anchors") == "dropped", updates


OUTLINE = Outline.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "outlines" / "inference.yml").read_text(encoding="utf-8"))
)


def _placed(placement: str, earlier: list[Brief] = [FIRST]) -> tuple[dict, list[str]]:  # noqa: B006
    """Tonight's one item placed as ``placement``, with the shipped outline (the doc's entries)."""
    night = _night([{**MODELEXPRESS, "relation": "换数。", "placement": placement}], "- 一条。")
    done = import_full(night, outline=OUTLINE, known_briefs=earlier)
    return YAML(typ="safe").load(done.text)["items"][0]["placement"], _marks(done.text)


def test_an_entry_named_by_a_word_of_its_title_is_the_one_an_update_goes_to():
    placement, marks = _placed("§3.1 头阻塞那条原地更新：v0.33 起默认 0.06 s。")
    assert (placement["action"], placement.get("entry")) == ("update_in_place", "vllm-long-prefill-freeze"), marks
    assert not [m for m in marks if "placement" in m or "原地更新" in m], marks
    spaced, _ = _placed("§3.1 的 prefill 头阻塞那一条原地更新：v0.33 起默认 0.06 s。")
    assert spaced.get("entry") == "vllm-long-prefill-freeze"


def test_a_nickname_two_entries_share_or_none_has_is_asked_not_guessed():
    """§5.2 holds 「§5.2 成本工程 现有」 and 「服务成本解耦 / 证据缓存复用」: 「成本那条」 names neither alone."""
    two, marks = _placed("§5.2 成本那条原地更新：v6e 一年承诺价。")
    assert two["action"] == "mount_lead" and "entry" not in two, two
    assert any("原地更新 §5.2 的哪一条" in m for m in marks), marks
    one, marks = _placed("§5.2 证据缓存那条原地更新：v6e 一年承诺价。")
    assert one.get("entry") == "recsys-vol178", marks
    none, marks = _placed("§3.2 冷启动那条原地更新：39 s。")
    assert none["action"] == "mount_lead" and "entry" not in none
    assert any("原地更新 §3.2 的哪一条" in m for m in marks), marks


def test_a_placement_that_names_an_entry_and_says_no_action_updates_it():
    placement, marks = _placed("§3.2「ModelExpress 工程细节」加一行：权重传输改走 NIXL 1.1。")
    assert (placement["action"], placement.get("entry")) == ("update_in_place", "modelexpress-weight-transfer")
    assert not [m for m in marks if "does not say how" in m], marks
    lead, marks = _placed("§3.2「ModelExpress 工程细节」下挂一条线索：直播口径，数字不写。")
    assert lead["action"] == "mount_lead", lead
    new, marks = _placed("§3.2 开一条「ModelExpress 冷启动」：39 s。")  # a name no entry has: no update
    assert new["action"] != "update_in_place" and "entry" not in new, new
    # 「TPU 后端」 is §1.1's entry, but here it is what the new line says, not where it goes
    said, marks = _placed("§1.1 vLLM 那条里，把半句换成：v0.32.2 起 TPU 后端可选 decode-aware。")
    assert said["action"] == "mount_lead" and "entry" not in said, said
    there, marks = _placed("§1.1 Kapitsa 那条原地更新：Kapitsa 对比 TPU 后端的支持。")
    assert there.get("entry") == "kapitsa", marks  # named at the head: not 「TPU 后端」, named in the line
    prose, marks = _placed("我的处理是在 §3.2「ModelExpress 工程细节」加一行：39 s。")
    assert prose.get("entry") == "modelexpress-weight-transfer", marks


def test_an_entry_moved_on_an_earlier_night_is_found_in_its_new_section():
    moved = Brief.model_validate(
        {**FIRST.model_dump(by_alias=True), "moves": [{"entry": "kapitsa", "to": "5.4", "text": "挪到 §5.4"}]}
    )
    placement, marks = _placed("§5.4 Kapitsa 原地更新：Stars 626。", [moved])
    assert (placement["action"], placement.get("entry")) == ("update_in_place", "kapitsa"), marks
    before, _ = _placed("§5.4 Kapitsa 原地更新：Stars 626。")
    assert "entry" not in before


def test_a_title_that_says_same_event_makes_a_duplicate_not_an_update_of_the_entry_it_names():
    """「### No.5 Google Cloud 博客…——和 1/12 No.1 同一件事」, placed 「不另立；§3.2「…」出处后并列本链接」."""
    same = {
        **MODELEXPRESS,
        "title": "ModelExpress 博客复述——和 10-21 条目 3 是同一件事",
        "relation": "10-21 条目 3 已写进 §3.2。",
        "placement": "不另立；§3.2「ModelExpress 工程细节」出处后并列本链接，正文不动。",
    }
    done = import_full(_night([same], "- 一条。"), outline=OUTLINE, known_briefs=[FIRST])
    placement = YAML(typ="safe").load(done.text)["items"][0]["placement"]
    assert placement["action"] == "duplicate" and placement["duplicate_of"] == "modelexpress-weight-transfer"


def test_follow_ups_labelled_by_their_writer_are_named_so_the_next_night_one_status_for_a_described_run():
    """A list labelled 「T1［Jay］…」 … 「T4 …」 keeps each label; the next night 「T4（#1187）完工；T1 回放、T2 LMCache
    的 issue、T3 价目页都还没着落，接着挂」 closes T4 and carries the other three (blind4, 11-21 and 11-22)."""
    night = _night(
        [MODELEXPRESS],
        "- 一条。\n\n交给周日：\n\nT1［Jay］回放上线后截图\n\nT2［Jay］盯 LMCache 的 issue\n\n"
        "T3［Jay］看 Google 价目页\n\nT4［Jay］抓 tpu-inference #1187 的 PR 页",
    )
    _text, first = _imported(night)
    assert [(f["number"], f.get("mark")) for f in first["follow_ups"]] == [(1, "T1"), (2, "T2"), (3, "T3"), (4, "T4")]
    second = Brief.model_validate(first)
    later = (
        HEAD.replace("10-22", "10-23").replace("（2026-10-22）", "（2026-10-23）").format(count=0)
        + "无。\n\n"
        + TAIL.format(
            conclusions="跟进：昨晚的交班单里，T4（#1187）完工；T1 回放、T2 LMCache 的 issue、T3 价目页都还没着落，接着挂。"
        )
    )
    _text, brief = _imported(later, [FIRST, second])
    updates = {u["follow_up"]: u["status"] for u in brief.get("follow_up_updates") or []}
    ids = {f["number"]: f["id"] for f in first["follow_ups"]}
    assert updates == {ids[4]: "done", ids[1]: "carried_over", ids[2]: "carried_over", ids[3]: "carried_over"}
    done = _imported(
        HEAD.replace("10-22", "10-23").replace("（2026-10-22）", "（2026-10-23）").format(count=0)
        + "无。\n\n"
        + TAIL.format(conclusions="跟进：T1 完工、T2 顺延。"),
        [FIRST, second],
    )[1]
    assert {u["follow_up"]: u["status"] for u in done.get("follow_up_updates") or []} == {
        ids[1]: "done",
        ids[2]: "carried_over",
    }
