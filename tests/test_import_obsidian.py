"""A brief kept in Obsidian and pasted as it is (issue 29): properties at the top, items as callouts with
the value rating in the callout's metadata, labels set off by 「▸」, earlier nights as wikilinks to the
brief's file, task boxes for what became of the night before's follow-ups, lists numbered with a
symbol.  Each night is written here on top of the shipped 10-21 brief; every reading is checked
against what a plain brief of the same content gives, or against what the night says.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief

ROOT = Path(__file__).resolve().parents[1]
FIRST = Brief.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8"))
)

PROPERTIES = """---
title: inference · E1 预消化简报（2026-10-22）
author: Ann
tags: [brief, inference]
---

"""

HEAD = """inference · E1 预消化简报（2026-10-22）

作者：Ann · E1 日间预消化轮（inference）· 2026-10-22 22:00

## 01 · 增量（2）

"""

CALLOUT_ITEMS = """> [!note|中等价值] Δ1 · ModelExpress 0.3 发布说明
> 来路 ▸ https://github.com/ai-dynamo/modelexpress/releases
> 要紧的 ▸
> - 权重传输改走 NIXL 1.1
> - 冷启动脚本换了参数名
> 证据止于 ▸ 仓库 release 说明；未复现。
> 接在哪 ▸ [[2026-10-21-inference-E1|周三·Tom]] 条目 3 开的那条。
> 放进 ▸ §3.2「ModelExpress 工程细节」原地更新。

> [!note] Δ2 · 一篇没评级的博客
> 来路 ▸ https://example.org/blog/kv
> 要紧的 ▸
> - KV 卸载的一个说法
> 证据止于 ▸ 个人博客；未复现。
> 接在哪 ▸ 与现有条目无直接关系。
> 放进 ▸ 不入活文档，仅在简报留档。

"""

PLAIN_ITEMS = """条目 1：ModelExpress 0.3 发布说明（中等价值）

来源：https://github.com/ai-dynamo/modelexpress/releases
要点：
- 权重传输改走 NIXL 1.1
- 冷启动脚本换了参数名
证据边界：仓库 release 说明；未复现。
与活文档脉络的关系：10-21 条目 3 开的那条。
建议归入：§3.2「ModelExpress 工程细节」原地更新。

条目 2：一篇没评级的博客

来源：https://example.org/blog/kv
要点：
- KV 卸载的一个说法
证据边界：个人博客；未复现。
与活文档脉络的关系：与现有条目无直接关系。
建议归入：不入活文档，仅在简报留档。

"""

TAIL = """## 02 · 矛盾与待核

{contradictions}

## 03 · arXiv

无。

## 04 · 收束

{conclusions}
"""

CALLOUT_CONTRADICTION = """> [!warning] ⚠︎1 · NIXL 1.1 的带宽说法
> 发布说明称「NIXL 1.1 让权重传输快 3 倍」，没有配置，不写进 §3.2。"""

FOLLOW_UPS = """> [!bug] 勘误
> [[2026-10-21-inference-E1|昨天·Tom]] 条目 3 要点里的「NIXL/RDMA」应为「NIXL over RDMA」。

#### 昨天 Tom 的三件
- [x] ① vLLM 长 prefill 的 issue —— 找到了
- [>] ② RecSys 锚点 —— 没看完，往后挪
- [-] ③ modelexpress 与 dynamo 的关系 —— 不查了

### ⏭ 周三 · Bo 接手
- [ ] ⏭1 NIXL 1.1 的带宽配置 👤 Bo 📅 2026-10-23
- [ ] ⏭2 冷启动脚本的新参数名 👤 Bo
"""


def _imported(night: str) -> tuple[str, dict]:
    done = import_full(night, known_briefs=[FIRST])
    return done.text, YAML(typ="safe").load(done.text)


def _marks(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line]


def _night(
    items: str, contradictions: str = "无。", conclusions: str = "- 两条。", properties: str = PROPERTIES
) -> str:
    return properties + HEAD + items + TAIL.format(contradictions=contradictions, conclusions=conclusions)


def _fields(item: dict) -> tuple:
    placement = item["placement"]
    return (
        item["number"],
        item["value"],
        item["sources"],
        item["points"],
        item["evidence"]["boundary"],
        placement["action"],
        placement.get("entry"),
    )


def test_callout_items_with_pointer_labels_read_as_the_same_brief_written_plainly():
    text, note = _imported(_night(CALLOUT_ITEMS))
    _plain_text, plain = _imported(_night(PLAIN_ITEMS, properties=""))
    assert [_fields(i) for i in note["items"]] == [_fields(i) for i in plain["items"]]
    first, second = note["items"]
    assert first["value"] == ["medium"] and first["title"].startswith("ModelExpress 0.3 发布说明")
    assert first["placement"]["entry"] == "modelexpress-weight-transfer"
    assert second["value"] == [] and second["placement"]["action"] == "not_placed"
    assert note["author"] == plain["author"] == "Ann"
    assert not [m for m in _marks(text) if "title: inference" in m or "tags:" in m], _marks(text)


def test_a_callout_contradiction_numbered_with_a_symbol_is_number_one_and_withholds_its_claim():
    _text, brief = _imported(_night(CALLOUT_ITEMS, CALLOUT_CONTRADICTION))
    [contradiction] = brief["contradictions"]
    assert contradiction["number"] == 1
    assert contradiction["title"].startswith("NIXL 1.1 的带宽说法")
    patterns = [p for w in contradiction["withheld"] for p in w["patterns"]]
    assert any("快 3 倍" in p for p in patterns), patterns


def test_a_wikilink_to_a_briefs_file_is_read_as_that_night():
    _text, brief = _imported(_night(CALLOUT_ITEMS, conclusions=FOLLOW_UPS))
    [erratum] = brief["errata"]
    assert erratum["item"] == "modelexpress-weight-transfer"
    assert (erratum["old"], erratum["new"]) == ("NIXL/RDMA", "NIXL over RDMA")


def test_task_boxes_say_what_became_of_the_earlier_follow_ups():
    _text, brief = _imported(_night(CALLOUT_ITEMS, conclusions=FOLLOW_UPS))
    statuses = {u["follow_up"]: u["status"] for u in brief["follow_up_updates"]}
    assert statuses == {
        "vllm-long-prefill-issue": "done",
        "recsys-vol178-anchors": "carried_over",
        "modelexpress-dynamo-relation": "dropped",
    }


def test_a_list_numbered_with_a_symbol_is_tonights_follow_ups():
    _text, brief = _imported(_night(CALLOUT_ITEMS, conclusions=FOLLOW_UPS))
    assert [f["number"] for f in brief["follow_ups"]] == [1, 2]
    assert brief["follow_ups"][0]["text"].startswith("NIXL 1.1 的带宽配置")
    assert brief["follow_ups"][1]["text"].startswith("冷启动脚本的新参数名")


def test_a_label_in_capitals_is_the_label_the_wordings_spell_otherwise():
    """An Org drawer's 「:EVIDENCE:」 is the wordings' 「Evidence」: read as the evidence boundary, not guessed."""
    org = (
        "#+TITLE: inference · E1 预消化简报（2026-10-22）\n#+AUTHOR: Ann\n#+DATE: [2026-10-22 四 22:00]\n\n"
        "* 一、今日增量（1 条）\n\n** 条目 1：ModelExpress 0.3 发布说明\n   :PROPERTIES:\n"
        "   :SOURCE:   https://github.com/ai-dynamo/modelexpress/releases\n"
        "   :EVIDENCE: 仓库 release 说明；未复现。\n"
        "   :PLACEMENT: §3.2「ModelExpress 工程细节」原地更新。\n   :END:\n"
        "   - 权重传输改走 NIXL 1.1\n\n* 二、矛盾\n\n无。\n\n* 三、arXiv\n\n无。\n\n* 四、结论\n\n- 一条。\n"
    )
    text, brief = _imported(org)
    [item] = brief["items"]
    assert item["evidence"]["boundary"] == "仓库 release 说明；未复现。"
    assert item["placement"]["entry"] == "modelexpress-weight-transfer"
    assert not [m for m in _marks(text) if "EVIDENCE" in m or "SOURCE" in m or "PLACEMENT" in m], _marks(text)
