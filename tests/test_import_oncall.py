"""Habits of the writers of blind19's tuned nights (issue 29), each written here in a night of its own on top of
the shipped 10-21 brief, so that a reading that regresses shows here and not only in the corpus's totals:

* an on-call writer who numbers events by the day of the year and a serial (「### [295-1] …」), labels fields in
  backticks as a postmortem does (「`盲区`　…」), and dates earlier nights the same way (「D294 条目 3」);
* a test team's writer whose fields are 「- label = value」 bullets, some labels of which no wording knows yet;
* new doubts led by the writer's own tag and number (「缺陷 Q-2」, 「PRB-1」), the number later nights name;
* a claim released on one night and held again on a later one in words no wording names;
* a retraction handed to one of tonight's items by its mark and any verb (「由 I-02 重写」);
* an earlier item named by its writer's own label (「10-22 苒 行 20」), not by its number;
* a boundary that gives each of two sources its own clause, each headed by the source's kind.
"""

from __future__ import annotations

from helpers import SECOND_NIGHT, shipped_brief, shipped_outline
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full
from digest_plugin.core.model import Brief

FIRST = shipped_brief()

HEADER = """inference · E1 预消化简报（2026-10-22）

作者：蔚 · E1 日间预消化轮（inference）· 2026-10-22 22:00

处理依据：日期照告警系统写一年里的第几天：今天 D295，D294 是昨天。
"""

ON_CALL = (
    HEADER
    + """
## 〈一〉事件流（1 条）

### [295-1] Kapitsa 周四卡

`级别`　中等价值
`信号源`　https://github.com/nace-ai/kapitsa
`时间线`
- Stars 188
`没盯到`　自动采集；未复现。
`碰到的`　D294 条目 5 换过数的那条。
`处置`　§1.1 Kapitsa 原地更新。

## 〈二〉待定位

无。

## 〈三〉arXiv

无。

## 〈四〉交班

- 撤回：D294 条目 3 那一行的出处没了。
"""
)


def _yaml(text: str) -> dict:
    return YAML(typ="safe").load(text)


def _import(text: str, *earlier: Brief) -> tuple[dict, str]:
    imported = import_full(text, outline=shipped_outline(), known_briefs=[FIRST, *earlier])
    return _yaml(imported.text), imported.text


def test_an_on_call_writers_events_and_backticked_fields_are_items_and_fields():
    brief, _ = _import(ON_CALL)
    [item] = brief["items"]
    assert (item["number"], item["title"], item["value"]) == (1, "Kapitsa 周四卡", ["medium"])
    assert item["sources"]["urls"] == ["https://github.com/nace-ai/kapitsa"]
    assert item["points"] == ["Stars 188"]
    assert item["evidence"]["boundary"] == "自动采集；未复现。"
    placement = item["placement"]
    assert (placement["action"], placement["section"], placement["entry"]) == ("update_in_place", "1.1", "kapitsa")


def test_labels_no_wording_knows_are_read_by_their_place_and_the_editor_is_told():
    """「`没盯到`」 and 「`碰到的`」 stand between the points and the placement: the boundary and the relation, each
    marked with the wording to add so that the next brief needs no guess."""
    brief, text = _import(ON_CALL)
    assert brief["items"][0]["relation"] == "D294 条目 5 换过数的那条。"
    assert "the label «没盯到» is read as 证据边界" in text and "wordings: field_evidence" in text
    assert "the label «碰到的» is read as 与活文档脉络的关系" in text


def test_a_day_of_the_year_names_that_nights_item():
    """「D294 条目 3」 on the 295th day of 2026 is the 10-21 brief's item 3."""
    brief, _ = _import(ON_CALL)
    assert [r["item"] for r in brief.get("retractions") or []] == ["modelexpress-weight-transfer"]


def _doubts(two: str) -> dict:
    return _import(SECOND_NIGHT.format(author="汀", two=two, four="- 无。"))[0]


def test_new_doubts_keep_the_numbers_their_writer_gave_them():
    """「缺陷 Q-2」 and 「缺陷 Q-3」 after a line about an earlier doubt: a later night names them Q-2 and Q-3, so
    they are 矛盾 2 and 3, and their claims are withheld as numbered ones are."""
    brief = _doubts(
        """缺陷 Q-2　厂商 SE 的邮件：「Kapitsa 周增稳定在 200 以上」。没有数据之前，「Kapitsa 周增稳定在 200 以上」§1.1 不签发。

缺陷 Q-3　论文摘要：「TorchTPU 吞吐是 GPU 的两倍」。能复跑之前，「TorchTPU 吞吐是 GPU 的两倍」§1.1 不出包。"""
    )
    found = [(c["number"], [w["text"] for w in c.get("withheld") or []]) for c in brief["contradictions"]]
    assert [n for n, _ in found] == [2, 3]
    assert "Kapitsa 周增稳定在 200 以上" in found[0][1] and "TorchTPU 吞吐是 GPU 的两倍" in found[1][1]


def test_doubts_numbered_no_way_known_are_numbered_in_order_and_asked():
    """Tags with no rising numbers (「缺陷　…」 twice) say nothing: the doubts are read in order, and asked."""
    brief = _doubts(
        """缺陷　邮件：「Kapitsa 周增稳定在 200 以上」§1.1 不签发。

缺陷　摘要：「TorchTPU 吞吐是 GPU 的两倍」§1.1 不出包。"""
    )
    assert [c["number"] for c in brief["contradictions"]] == [1, 2]


RELEASE = SECOND_NIGHT.format(author="岑", two="- 10-21 矛盾 1（周增那句）：仓库统计页对上了，证实。", four="- 无。")


def test_a_released_claim_held_again_in_new_words_is_reopened_and_asked():
    """10-22 confirms 10-21 矛盾 1; 10-23 names it again with its claim and a hold on §1.1 in words no wording names
    (「放行作废 … 重新锁上，不出包」): the reading that withholds it again, and the editor is asked."""
    released = Brief.model_validate(_import(RELEASE)[0])
    assert [(u["change"], u.get("outcome")) for u in released.model_dump()["contradiction_updates"]] == [
        ("resolved", "confirmed")
    ]
    later = (
        SECOND_NIGHT.replace("2026-10-22", "2026-10-23")
        .format(
            author="汀",
            two="缺陷 Q-1　10-21 矛盾 1——周增那句。统计页又改了口径，放行作废：「+175 周增」——§1.1 重新锁上，不出包。",
            four="- 无。",
        )
        .replace("Kapitsa 周四卡", "Kapitsa 周五卡")
    )
    brief, text = _import(later, released)
    updates = [(u["contradiction"], u["change"], u.get("number")) for u in brief.get("contradiction_updates") or []]
    assert updates == [("kapitsa-weekly-gain", "reopened", 1)]
    assert "read as re-opened" in text


def test_a_doubt_never_released_is_not_reopened_by_a_hold():
    """The same words about a doubt still open re-open nothing (it is withheld already)."""
    brief = _doubts("缺陷 Q-1　10-21 矛盾 1——周增那句：「+175 周增」——§1.1 重新锁上，不出包。")
    assert not [u for u in brief.get("contradiction_updates") or [] if u["change"] == "reopened"]


TEST_TEAM = """inference · E1 预消化简报（2026-10-22）

作者：汀 · E1 日间预消化轮（inference）· 2026-10-22 22:00

## [一] 增量 · 2 项

### I-01　Kapitsa 周四卡

- 价值 = 中等价值
- 来源 = https://github.com/nace-ai/kapitsa
- 观察 = Stars 188
- 未覆盖 = 自动采集；未复现。
- 波及 = §1.1 Kapitsa。
- 处置 = §1.1 Kapitsa 原地更新。

### I-02　ModelExpress 权重传输复测

- 价值 = 高价值
- 来源 = https://github.com/ai-dynamo/modelexpress
- 观察 = 复测 8 卡权重传输 41 s
- 未覆盖 = 只跑了一次；未复现。
- 波及 = §3.2 ModelExpress 那条。
- 处置 = §3.2 新条目「ModelExpress 权重传输复测」。

## [二] 缺陷单与回归

无。

## [三] arXiv

无。

## [四] 收尾与出测

- 判废：10-21 条目 3 那一行——出处撤了——由 I-02 重写。
"""


def test_a_retraction_handed_to_tonights_item_by_its_mark_names_its_successor():
    """「由 I-02 重写」: I-02 is one of tonight's items, whatever verb follows."""
    brief, _ = _import(TEST_TEAM)
    second = brief["items"][1]
    assert second["placement"]["entry_title"] == "ModelExpress 权重传输复测"  # 新条目「…」 names the entry
    assert [(r["item"], r.get("superseded_by")) for r in brief.get("retractions") or []] == [
        ("modelexpress-weight-transfer", second["id"])
    ]


PURCHASE = """inference · E1 预消化简报（2026-10-22）

作者：苒 · E1 日间预消化轮（inference）· 2026-10-22 22:00

## 第一栏　到货（2 行）

### 行 10　Kapitsa 周四卡

［档次］中等价值
［单据］https://github.com/nace-ai/kapitsa
［到货内容］Stars 188
［验收］自动采集；未复现。
［台账］§1.1 Kapitsa。
［入库］§1.1 Kapitsa 原地更新。

### 行 20　Kapitsa 的 fork

［档次］低价值
［单据］https://github.com/nace-ai/kapitsa-serve
［到货内容］fork 自 Kapitsa
［验收］只读了 README；未复现。
［台账］§1.1 没有一条记 fork。
［入库］§1.1 新开货位「Kapitsa 的 fork」。

## 第二栏　有异议的

无。

## 第三栏　arXiv

无。

## 第四栏　结论

- 无。
"""


def test_a_bulleted_key_value_label_no_wording_knows_is_read_by_its_place():
    """「- 牵扯 = …」 between the boundary and the placement, in every item: the relation, and the editor is told."""
    brief, text = _import(TEST_TEAM.replace("- 波及 =", "- 牵扯 ="))
    assert [i["relation"] for i in brief["items"]] == ["§1.1 Kapitsa。", "§3.2 ModelExpress 那条。"]
    assert "the label «牵扯» is read as 与活文档脉络的关系" in text


def test_an_earlier_item_is_named_by_its_writers_own_label():
    """苒 numbered her lines 行 10, 行 20: 「10-22 苒 行 20」 is her second item, not an item 20."""
    first = Brief.model_validate(_import(PURCHASE)[0])
    later = SECOND_NIGHT.replace("2026-10-22", "2026-10-23").format(
        author="汀", two="无。", four="- 撤回：10-22 苒 行 20 那一行——fork 删库了。"
    )
    brief, _ = _import(later, first)
    assert [r["item"] for r in brief.get("retractions") or []] == [first.items[1].id]


def test_each_sources_clause_of_a_boundary_gives_its_kind_and_gaps():
    night = SECOND_NIGHT.format(author="汀", two="无。", four="- 无。").replace(
        """来源：https://github.com/nace-ai/kapitsa
要点：Stars 188
证据边界：自动采集；未复现。""",
        """来源：验收测试报告：organized/qa/2026-10-22-accept.md · 厂商兼容性矩阵：organized/net/2026-10-22-matrix.pdf
要点：Stars 188
证据边界：验收测试报告，仅预发环境：两个节点；厂商兼容性矩阵，未列本型号：那一格空着。""",
    )
    imported = import_full(night, outline=shipped_outline(), known_briefs=[FIRST])
    labels = {label for words in imported.new_words.values() for label in words.values()}
    assert {"验收测试报告", "厂商兼容性矩阵", "未列本型号"} <= labels


def test_a_released_claim_called_confirmed_again_changes_nothing_and_is_asked():
    """A doubt released on 10-22 and called confirmed again on 10-23 is no news: no update is read (the claim stays
    as it is), and the editor is asked whether the line re-opens it."""
    released = Brief.model_validate(_import(RELEASE)[0])
    later = (
        SECOND_NIGHT.replace("2026-10-22", "2026-10-23")
        .format(author="汀", two="- 10-21 矛盾 1（周增那句）：昨天证实过，统计页口径又变了。", four="- 无。")
        .replace("Kapitsa 周四卡", "Kapitsa 周五卡")
    )
    brief, text = _import(later, released)
    assert not brief.get("contradiction_updates")
    assert "kapitsa-weekly-gain was released on an earlier night and is called confirmed here again" in text


def test_a_list_ending_part_four_that_restates_one_carried_on_is_still_tonights():
    """A list for the next round may restate one follow-up carried on (「（顺延）」); most of its lines say no
    status, so it is tonight's list, not a report on the old one."""
    night = SECOND_NIGHT.format(
        author="钟",
        two="无。",
        four="""- 今晚一条。

### 交给周五

- 盯 Kapitsa 的 release（顺延）
- 问维护者要 benchmark 脚本
- 复跑长 prefill 的冻结""",
    )
    brief, _ = _import(night)
    assert [f["text"] for f in brief["follow_ups"]] == [
        "盯 Kapitsa 的 release（顺延）",
        "问维护者要 benchmark 脚本",
        "复跑长 prefill 的冻结",
    ]


def test_a_section_given_its_title_then_another_is_renamed_and_asked():
    """「§1.1「六引擎格局与 2026 Q4 生态快照」换作「…」」: no wording names the verb, but the section's own title and then
    another, joined by a short verb ending in 作, rename it; the editor is asked."""
    night = SECOND_NIGHT.format(
        author="蔚", two="无。", four="- §1.1「六引擎格局与 2026 Q4 生态快照」换作「引擎格局与生态快照」，编号不变。"
    )
    brief, text = _import(night)
    assert [(r["section"], r["title"]) for r in brief.get("section_renames") or []] == [("1.1", "引擎格局与生态快照")]
    assert "read as renamed" in text


def test_a_section_given_its_title_then_an_entrys_name_is_not_renamed():
    """「§1.1「六引擎格局与 2026 Q4 生态快照」下设「Kapitsa 推理后端」子条目」 names an entry of the section."""
    night = SECOND_NIGHT.format(
        author="蔚", two="无。", four="- §1.1「六引擎格局与 2026 Q4 生态快照」下设「Kapitsa 推理后端」子条目。"
    )
    brief, _ = _import(night)
    assert not brief.get("section_renames")


def test_a_brief_whose_list_for_the_next_round_is_not_found_says_so():
    """Nine held-out nights gave no list the importer found, and nothing asked: a brief of the team's pattern ends on
    one, so a part 四 with conclusions and no list read is marked for the editor."""
    _, text = _import(SECOND_NIGHT.format(author="钟", two="无。", four="- 今晚只有一条结论。"))
    assert "no list for the next round was found in part 四" in text
    _, text = _import(SECOND_NIGHT.format(author="钟", two="无。", four="- 结论一条。\n\n### 交给周五\n\n- 盯 release"))
    assert "no list for the next round was found" not in text


def test_a_boundary_opening_with_a_kind_of_document_proposes_it():
    """「交期确认函；…」: the boundary's first phrase ends in a noun the team's wordings name a source by (函), so the
    kind is proposed for the vocabulary file rather than lost."""
    night = SECOND_NIGHT.format(author="苒", two="无。", four="- 无。").replace(
        "证据边界：自动采集；未复现。", "证据边界：交期确认函；纸面上的日子，未复现。"
    )
    imported = import_full(night, outline=shipped_outline(), known_briefs=[FIRST])
    assert "交期确认函" in imported.new_words.get("source_kinds", {}).values()


def test_a_confirmation_told_as_done_is_no_release_tonight():
    """「…把 10-21 矛盾 1 证实了」 tells a thing done, maybe on an earlier night: confirming is the one reading that
    publishes a withheld claim, so nothing is read and the editor is asked; 「今天…证实了」 is tonight's."""
    told = _doubts("- 10-21 矛盾 1（周增那句）：前几天有人把它证实了，统计页今天又改了口径，见条目 1。")
    assert not told.get("contradiction_updates")
    _, text = _import(
        SECOND_NIGHT.format(author="汀", two="- 10-21 矛盾 1（周增那句）：前几天有人把它证实了。", four="- 无。")
    )
    assert "is called confirmed as a thing done" in text
    tonight = _doubts("- 10-21 矛盾 1（周增那句）：今天证实了，仓库统计页给了数。")
    assert [(u["change"], u.get("outcome")) for u in tonight.get("contradiction_updates") or []] == [
        ("resolved", "confirmed")
    ]


def test_a_negated_confirmation_releases_nothing():
    """「…不够解封，原样封着」 (blind/'s 11-05): a confirming word the line negates says it did not happen."""
    for said in ("例会纪要里多了一次口头测量，不够解封，原样封着。", "维护者的回帖尚未证实这个数。"):
        brief = _doubts(f"- 10-21 矛盾 1（周增那句）：{said}")
        assert not [u for u in brief.get("contradiction_updates") or [] if u.get("outcome") == "confirmed"], said
