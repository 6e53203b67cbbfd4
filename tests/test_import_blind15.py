"""What blind15's tuned writers brought (issue 29): a bookkeeper's brief (items 「### 【第 1 笔】…」, fields 「- 定性：…」
written as bulleted plain labels, new doubts 「**疑账 1**　…」, old ones one bulleted line each under 「往期疑账：」 naming
「10-21 二之 3」, a list 「〔待 1〕…」), and a returning writer's compact references (「四·岑·第 4 条」, 「五·黎·〈5〉」) with
「〔拔掉〕…由第一条那一行顶上」.  Each night is written on top of the shipped 10-21 brief."""

from __future__ import annotations

import datetime as dt

from helpers import SECOND_NIGHT, shipped_brief, shipped_outline
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief

FIRST = shipped_brief()
OUTLINE = shipped_outline()

LEDGER = """inference · E1 预消化简报（2026-10-22）

作者：晏 · E1 日间预消化轮（inference）· 2026-10-22 22:20

## 〔一〕今日入账（2 笔）

### 【第 1 笔】Kapitsa 周四卡

- 定性：中等价值
- 凭证：https://github.com/nace-ai/kapitsa
- 明细：
    a. Stars 188
    b. 七日 +12
- 未核项：自动采集；未复现。
- 对应科目：§1.1 Kapitsa。
- 记入：§1.1 Kapitsa 原地更新。

### 【第 2 笔】vLLM 冻结的 issue

- 定性：高价值
- 凭证：https://github.com/vllm-project/vllm/issues/1
- 明细：
    a. 版本区间 v0.29–v0.30
- 未核项：只读了 issue；未复现。
- 对应科目：10-21 条目 4。
- 记入：§3.1 长 prefill 头阻塞原地更新。

## 〔二〕对不上的账

**疑账 1**　Kapitsa 卡里「周增 +300」和总数对不上，条件出来之前「周增 +300」§1.1 暂不入账。

往期疑账：
- 10-21 二之 2（0.23 那句）：文档页改了，一手凭证齐了。——证实
- 10-21 二之 4（冻结那句）：维护者说 issue 里的数是单点观察，照旧不写，维持。

## 〔三〕arXiv

无。

## 〔四〕结账与待办

- 两笔。

### 周五那班接着办

〔待 1〕Jay：问 Kapitsa 作者要周增口径（疑账 1）
〔待 2〕晏：复算周四卡
"""


def _import(markdown: str, first: Brief = FIRST) -> tuple[str, dict]:
    done = import_full(markdown, known_briefs=[first], outline=OUTLINE)
    return done.text, YAML(typ="safe").load(done.text)


def test_items_headed_by_a_numbered_entry_in_brackets_with_bulleted_plain_labels():
    text, brief = _import(LEDGER)
    first, second = brief["items"]
    assert [(i["number"], i["title"]) for i in brief["items"]] == [(1, "Kapitsa 周四卡"), (2, "vLLM 冻结的 issue")]
    assert first["value"] == ["medium"] and second["value"] == ["high"]
    assert first["sources"]["urls"] == ["https://github.com/nace-ai/kapitsa"]
    assert (second["placement"]["section"], second["placement"]["action"]) == ("3.1", "update_in_place")
    # 凭证 is the vocabulary's since blind17 (晏 again, 2027-01-12); 记入, a label it does not have, is read by its place
    assert not [line for line in text.splitlines() if MARK in line and "«凭证» is read as" in line]
    assert [line for line in text.splitlines() if MARK in line and "«记入» is read as 建议归入" in line]


def test_new_doubts_in_bold_and_old_ones_one_bulleted_line_each_by_part_and_number():
    _, brief = _import(LEDGER)
    assert [(c["number"], c.get("mark")) for c in brief["contradictions"]] == [(1, "疑账 1")]
    updates = {u["contradiction"]: u for u in brief["contradiction_updates"]}
    assert (updates["vllm-version-basis"]["change"], updates["vllm-version-basis"]["outcome"]) == (
        "resolved",
        "confirmed",
    )
    assert "long-prefill-no-version" not in updates  # 维持: restated, nothing changes


def test_a_list_numbered_in_bracketed_tags_is_tonights_follow_ups():
    _, brief = _import(LEDGER)
    assert [f["number"] for f in brief["follow_ups"]] == [1, 2]
    assert brief["follow_ups"][0]["text"].startswith("Jay：问 Kapitsa 作者")


def _on(day: str) -> Brief:
    data = FIRST.model_dump(mode="json", by_alias=True, exclude_none=True)
    data.update(id=f"2026-{day}-inference-E1", date=f"2026-{day}")
    return Brief.model_validate(data)


def test_a_weekday_a_writer_and_an_item_number_dotted_together_with_its_successor():
    assert dt.date(2026, 10, 22).weekday() == 3  # 10-22 is a Thursday: 「四」 on the Monday after
    four = "- 〔撤回〕四·Tom·第 4 条挂的那一行：版本区间错了，由第一条那一行顶上。\n- 〔办妥〕四·Tom·〈2〉RecSys 的锚点，见第一条。"
    markdown = SECOND_NIGHT.format(author="乔", two="无。", four=four).replace("2026-10-22", "2026-10-26")
    _, brief = _import(markdown, first=_on("10-22"))
    (retraction,) = brief["retractions"]
    assert (retraction["item"], retraction["superseded_by"]) == ("vllm-long-prefill-freeze", brief["items"][0]["id"])
    assert {u["follow_up"]: u["status"] for u in brief["follow_up_updates"]} == {"recsys-vol178-anchors": "done"}


def test_a_placement_that_counts_its_places_but_names_none_a_way_read_is_asked_about():
    markdown = (
        SECOND_NIGHT.format(author="乔", two="无。", four="- 无。")
        .replace("与活文档脉络的关系：§1.1 Kapitsa 换数。", "与活文档脉络的关系：冻结那条和 MX 那条。")
        .replace(
            "建议归入：§1.1 Kapitsa 原地更新。",
            "建议归入：〔就地〕两处各加一行：冻结那条——补版本区间；MX 那条——补出处。",
        )
    )
    text, brief = _import(markdown)
    assert [line for line in text.splitlines() if MARK in line and "says «两处» but names no entry" in line]
    placement = brief["items"][0]["placement"]
    assert not placement.get("entries")
