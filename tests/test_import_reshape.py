"""A later night reshaping the doc in its writer's words (issue 29, part 5, read by the importer): a
section renamed 「旧」→「新」, an entry moved that is named only by its title, and a new follow-up list
written after the report on the old one in the same paragraph."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_night import one_item_night
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full
from digest_plugin.core.model import Brief, Outline

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


FIRST = Brief.model_validate(_load(ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"))
OUTLINE = Outline.model_validate(_load(ROOT / "data" / "outlines" / "inference.yml"))

NIGHT = one_item_night(
    author="芮",
    conclusions=(
        "- §3.1 更名：「调度与抢占」→「调度、抢占与分块」，编号不变。\n"
        "- 挪一条：「ModelExpress 工程细节」从 §3.2 挪到 §2.6，缓存一节更合适。\n"
        "- 跟进：昨天 Tom 的跟进 1 完成。交给明天的下一棒：（1）复现 ITL；（2）问维护者默认值。\n"
    ),
)


def test_a_rename_an_entry_moved_by_its_title_and_a_new_list_after_the_report() -> None:
    done = import_full(NIGHT, outline=OUTLINE, known_briefs=[FIRST])
    brief = YAML(typ="safe").load(done.text)
    assert [(r["section"], r["title"]) for r in brief["section_renames"]] == [("3.1", "调度、抢占与分块")]
    assert [(m["entry"], m["to"]) for m in brief["moves"]] == [(FIRST.items[2].id, "2.6")]
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [(1, "复现 ITL"), (2, "问维护者默认值")]
    (done_one,) = brief["follow_up_updates"]
    assert (done_one["follow_up"], done_one["status"]) == (FIRST.follow_ups[0].id, "done")


def test_an_update_of_two_places_counted_in_its_placement_updates_both_entries() -> None:
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：两处原地更新（截至 2026-10-22）：§1.1「Kapitsa」周增换数；§3.2「Dynamo 1.0 GA」加一行分块说明。",
    )
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    placement = brief["items"][0]["placement"]
    assert [placement["entry"], *placement.get("entries", [])] == ["kapitsa", "dynamo-1-0-ga"]
    # without the count, the first § named is the update and nothing more is read into it
    single = NIGHT.replace(
        "建议归入：§3.1 新增子条目。", "建议归入：§1.1「Kapitsa」原地更新；§3.2「Dynamo 1.0 GA」不动。"
    )
    placement = YAML(typ="safe").load(import_full(single, outline=OUTLINE, known_briefs=[FIRST]).text)["items"][0][
        "placement"
    ]
    assert (placement["entry"], placement.get("entries")) == ("kapitsa", None)


SPLIT = NIGHT.replace(
    "一、今日增量（1 条）",
    "一、今日增量（2 条）",
).replace(
    """关系：§3.1 尚无此项。

建议归入：§3.1 新增子条目。""",
    """关系：§3.2「ModelExpress 工程细节」（10-21 条目 3 起头）装了两样东西，索性一分为二：本条收传输，条目 2 收缓存。

建议归入：§3.2 新增子条目「ModelExpress：传输」。

条目 2：ModelExpress 缓存目录（中等价值）

来源：https://github.com/ai-dynamo/modelexpress

要点：缓存目录可配置

证据边界：已核查文档；未复现。

关系：拆分的另一半，缘由见条目 1。

建议归入：§3.2 新增子条目「ModelExpress：缓存」。""",
)


def test_two_items_that_split_an_earlier_entry_are_its_parts() -> None:
    brief = YAML(typ="safe").load(import_full(SPLIT, outline=OUTLINE, known_briefs=[FIRST]).text)
    ids = [item["id"] for item in brief["items"]]
    assert [(s["entry"], s["into"]) for s in brief["splits"]] == [(FIRST.items[2].id, ids)]


def test_a_split_whose_own_words_name_the_entry_is_read_whatever_else_the_parts_name() -> None:
    """「§3.2「ModelExpress 工程细节」拆作两条」 in the first part's title names what is split; its relation also
    names another night's item (「10-21 条目 1 的数」), which splits nothing (blind8's 12-10 was left unread so)."""
    night = SPLIT.replace("条目 1：", "条目 1：§3.2「ModelExpress 工程细节」拆作两条，本条收传输；", 1).replace(
        "关系：§3.2「ModelExpress 工程细节」（10-21 条目 3 起头）装了两样东西，索性一分为二：本条收传输，条目 2 收缓存。",
        "关系：装了两样东西，10-21 条目 1 的数也在里面；本条收传输，条目 2 收缓存。",
    )
    assert "拆作两条" in night and "一分为二" not in night
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    ids = [item["id"] for item in brief["items"]]
    assert [(s["entry"], s["into"]) for s in brief["splits"]] == [(FIRST.items[2].id, ids)]
    # an entry of the outline named by its exact title in 「」 (no earlier item made it)
    dynamo = night.replace("§3.2「ModelExpress 工程细节」拆作两条", "§3.2「Dynamo 1.0 GA」拆作两条")
    brief = YAML(typ="safe").load(import_full(dynamo, outline=OUTLINE, known_briefs=[FIRST]).text)
    assert [(s["entry"], s["into"]) for s in brief["splits"]] == [("dynamo-1-0-ga", ids)]


def test_one_item_that_tells_of_an_earlier_split_splits_nothing() -> None:
    told = NIGHT.replace("关系：§3.1 尚无此项。", "关系：10-21 条目 3 上周拆分过，这里只补一行。")
    brief = YAML(typ="safe").load(import_full(told, outline=OUTLINE, known_briefs=[FIRST]).text)
    assert "splits" not in brief


def test_a_rename_written_verb_first_is_read() -> None:
    """「改名：§3.1「旧」→「新」，编号不变」: the verb, then the section with its old and new title."""
    night = NIGHT.replace(
        "- §3.1 更名：「调度与抢占」→「调度、抢占与分块」，编号不变。",
        "- 改名：§3.1「调度与抢占」→「调度、抢占与分块」，编号不变。",
    )
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    assert [(r["section"], r["title"]) for r in brief["section_renames"]] == [("3.1", "调度、抢占与分块")]


def test_an_update_of_two_places_named_by_title_alone_updates_both_entries_in_their_sections() -> None:
    """「两处原地更新。「Kapitsa」——…。「Dynamo 1.0 GA」——…」: no § at all; each title names one entry of the
    outline, and the item goes to the first one's section."""
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：两处原地更新。「Kapitsa」——周增换数。「Dynamo 1.0 GA」——加一行分块说明。",
    )
    done = import_full(night, outline=OUTLINE, known_briefs=[FIRST])
    placement = YAML(typ="safe").load(done.text)["items"][0]["placement"]
    assert (placement["section"], placement["entry"], placement.get("entries")) == ("1.1", "kapitsa", ["dynamo-1-0-ga"])


def test_an_update_of_two_places_that_finds_one_entry_asks_for_the_other() -> None:
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：两处原地更新。§1.1「Kapitsa」周增换数；§3.2「没有这一条」加一行。",
    )
    done = import_full(night, outline=OUTLINE, known_briefs=[FIRST])
    placement = YAML(typ="safe").load(done.text)["items"][0]["placement"]
    assert placement["entry"] == "kapitsa" and "entries" not in placement
    assert any("says «两处» but names 1 entry" in n.message for n in done.notes)


def test_a_new_sub_entry_named_after_xin_zi_tiao_mu_is_that_entrys_title() -> None:
    """「§3.1 新子条目「prefill 抢占：本地实测」（从…分出）」: the name after 新子条目 is the new entry's, so a later
    night that quotes it finds the entry."""
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：§3.1 新子条目「prefill 抢占：本地实测」（从「长 prefill 头阻塞」分出）。",
    )
    placement = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)["items"][0][
        "placement"
    ]
    assert placement["entry_title"] == "prefill 抢占：本地实测"


def test_a_retraction_named_twice_takes_its_replacement_from_the_second_mention() -> None:
    """The conclusions' summary names the retraction first (「条 1 撤回 10-21 条目 1」), the line after it says
    what replaces it (「由条 1 替换」): the retraction keeps both."""
    night = NIGHT.replace(
        "- 跟进：昨天 Tom 的跟进 1 完成。",
        "- 一条：条 1 撤回 10-21 条目 1。\n- 撤回：10-21 条目 1（旧说法）——发布说明已改；由条 1 替换。\n- 跟进：昨天 Tom 的跟进 1 完成。",
    )
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    (retraction,) = brief["retractions"]
    assert (retraction["item"], retraction.get("superseded_by")) == (FIRST.items[0].id, brief["items"][0]["id"])


@pytest.mark.parametrize(
    ("said", "by"),
    [
        ("- 撤回：10-21 条目 1（旧说法）——发布说明已改，整行由 i 顶掉。", "roman numeral"),
        ("- 撤回：10-21 条目 1（旧说法）——发布说明已改，由第 1 项取代。", "number"),
        ("- 顶掉：10-21 条目 1（旧说法）——发布说明已改，由本条顶掉。", "本条 under no item: nothing"),
    ],
)
def test_a_retractions_successor_is_read_with_any_retract_or_supersede_word(said: str, by: str) -> None:
    """「由 <tonight's item> <verb>」 with a verb of ``retracted`` or ``superseded`` (「顶掉」, 「取代」) names the
    successor; in part 四, 「本条」 belongs to no item, so no successor is read rather than a guessed one."""
    night = NIGHT.replace("- 跟进：昨天 Tom 的跟进 1 完成。", said + "\n- 跟进：昨天 Tom 的跟进 1 完成。")
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    (retraction,) = brief["retractions"]
    expected = None if "nothing" in by else brief["items"][0]["id"]
    assert (retraction["item"], retraction.get("superseded_by")) == (FIRST.items[0].id, expected)


@pytest.mark.parametrize(("placed", "replaces"), [("§3.1 新增子条目。", True), ("不入活文档，只在简报留档。", False)])
def test_a_clause_that_opens_with_tonights_item_and_retracts_names_the_successor(placed: str, replaces: bool) -> None:
    """「条 1 撤回 10-21 条目 1，§3.1 换一行」: the item that retracts replaces, when it puts something in the
    doc; an item kept out of the doc (a withdrawal notice) replaces nothing."""
    night = NIGHT.replace("建议归入：§3.1 新增子条目。", f"建议归入：{placed}").replace(
        "- 跟进：昨天 Tom 的跟进 1 完成。",
        "- 一条：条 1 撤回 10-21 条目 1，§3.1 换一行。\n- 跟进：昨天 Tom 的跟进 1 完成。",
    )
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    (retraction,) = brief["retractions"]
    expected = brief["items"][0]["id"] if replaces else None
    assert (retraction["item"], retraction.get("superseded_by")) == (FIRST.items[0].id, expected)


def test_places_listed_but_not_counted_are_asked_about_and_the_first_stays_the_update() -> None:
    """「§1.1「Kapitsa」换数；§3.2「Dynamo 1.0 GA」加一行」 with no 「两处」: the item may update both or only
    name the second (「不动」); the editor is asked, and only the first is written."""
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：in-place updates：§1.1「Kapitsa」周增换数；§3.2 Dynamo 那条 — 加一行分块说明。",
    )
    done = import_full(night, outline=OUTLINE, known_briefs=[FIRST])
    placement = YAML(typ="safe").load(done.text)["items"][0]["placement"]
    assert (placement["entry"], placement.get("entries")) == ("kapitsa", None)
    assert any("opens clauses with §1.1 and §3.2" in n.message for n in done.notes)


def test_a_counted_place_named_by_one_word_is_found_by_the_title_its_relation_quotes() -> None:
    night = NIGHT.replace("关系：§3.1 尚无此项。", "关系：§3.2「Dynamo 1.0 GA」那条还没有分块的说明。").replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：两处原地更新：§1.1「Kapitsa」周增换数；§3.2 Dynamo 那条 — 加一行分块说明。",
    )
    placement = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)["items"][0][
        "placement"
    ]
    assert [placement["entry"], *placement.get("entries", [])] == ["kapitsa", "dynamo-1-0-ga"]


def test_an_in_place_update_is_not_attached_to_an_entry_its_placement_names_only_as_part_of_another_name() -> None:
    """「§1.1「Kapitsa 周增口径」原地加一行」 names an entry more specific than 「Kapitsa」 (one split off it, say),
    and 「XKapitsa」 is another word: neither attaches the update to Kapitsa in silence (blind11's 12-19 was
    attached so to the wrong entry); it goes in as a lead the editor is asked about.  The quoted name
    itself, or the title standing alone, still names Kapitsa."""

    def placed(placement: str) -> dict:
        night = NIGHT.replace("建议归入：§3.1 新增子条目。", f"建议归入：{placement}")
        done = import_full(night, outline=OUTLINE, known_briefs=[FIRST])
        return YAML(typ="safe").load(done.text)["items"][0]["placement"]

    for wrong in ("§1.1「Kapitsa 周增口径」原地加一行（截至 2026-10-22）。", "§1.1 原地更新：XKapitsa 的周增。"):
        assert placed(wrong).get("entry") != "kapitsa", wrong
    for right in ("§1.1「Kapitsa」原地加一行（截至 2026-10-22）。", "§1.1 Kapitsa 原地更新：周增换数。"):
        assert placed(right)["entry"] == "kapitsa", right


@pytest.mark.parametrize(
    ("placement", "action"),
    [
        (
            "§3.2 新子条目「ModelExpress：传输」（从原条目分出）：沿用原条目各行；挂一行线索（链接 + 日期）。",
            "new_sub_entry",
        ),
        ("§3.2 在「Dynamo 1.0 GA」子条目旁挂载线索。", "mount_lead"),
        ("§1.1 的 Kapitsa 小注整条挪到 §5.4；挪过去后原地补本地数。", "update_in_place"),
        ("§3.2 新子条目「ModelExpress：传输」；与 10-21 条目 3 同一件事，不重复入档。", "duplicate"),
    ],
)
def test_the_first_clause_that_says_what_to_do_decides_unless_a_later_one_adds_nothing(placement, action) -> None:
    """「新子条目「…」：…；挂一行线索」 opens an entry with a lead line in it (blind6's 12-01 was read as a lead);
    within one clause the order of the acts decides (「子条目旁挂载线索」 is a lead); a clause that adds nothing
    to the doc (a duplicate) wins wherever it stands, and so does an in-place update (「小注整条挪到 …；原地补」:
    小注 names what moves)."""
    night = NIGHT.replace("建议归入：§3.1 新增子条目。", f"建议归入：{placement}")
    brief = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)
    assert brief["items"][0]["placement"]["action"] == action


def test_an_update_of_places_counted_in_english_updates_each_entry_named() -> None:
    """「§1.1, two in-place edits: 「Kapitsa」 …; 「选型决策树」 …」 (blind4's Ada writes her placements in English):
    the count is read like 「两处」, each clause names its entry, and the item updates both."""
    night = NIGHT.replace(
        "建议归入：§3.1 新增子条目。",
        "建议归入：§1.1, two in-place edits (as of 2026-10-22): 「Kapitsa」 gets Stars 526; 「选型决策树」 gets a row.",
    )
    placement = YAML(typ="safe").load(import_full(night, outline=OUTLINE, known_briefs=[FIRST]).text)["items"][0][
        "placement"
    ]
    assert (placement["action"], placement["entry"], placement.get("entries")) == (
        "update_in_place",
        "kapitsa",
        ["engine-decision-tree"],
    )
