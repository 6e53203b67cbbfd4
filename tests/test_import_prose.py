"""Briefs whose skeleton is marked in ways the team's first briefs did not use (issue 29): parts led by a
pilcrow (「¶ 一　…」), items headed with only their number in bold (「**第一则**　…」) or counted with 号
(「1 号　…」), and a status line that turns one quoted claim into another in words no wording names.  Each
night is written here on top of the shipped 10-21 brief and checked against the same night written the
way the importer has long read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief

ROOT = Path(__file__).resolve().parents[1]
FIRST = Brief.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8"))
)

NIGHT = """inference · E1 预消化简报（2026-10-22）

作者：Ann · E1 日间预消化轮（inference）· 2026-10-22 22:00

{one}一、今日增量（2 则）

{first}

来源：https://github.com/ai-dynamo/modelexpress/releases
要点：
- 权重传输改走 NIXL 1.1
证据边界：仓库 release 说明；未复现。
与活文档脉络的关系：10-21 条目 3 开的那条。
建议归入：§3.2「ModelExpress 工程细节」原地更新。

{second}

来源：https://example.org/blog/kv
要点：
- KV 卸载的一个说法
证据边界：个人博客；未复现。
与活文档脉络的关系：与现有条目无直接关系。
建议归入：不入活文档，仅在简报留档。

{two}二、值得警惕的矛盾与待核实说法

矛盾 1：NIXL 1.1 的带宽说法

发布说明称「NIXL 1.1 让权重传输快 3 倍」，没有配置；在配置出来之前，不写进 §3.2。

{status}

{three}三、可引用的 arXiv 号

无。

{four}四、本轮结论与建议动作

- 两则。
"""

PLAIN = {
    "one": "",
    "two": "",
    "three": "",
    "four": "",
    "first": "条目 1：ModelExpress 0.3 发布说明（中等价值）",
    "second": "条目 2：一篇 KV 卸载的博客（补白）",
    "status": "",
}


def _imported(**marks: str) -> dict:
    text = import_full(NIGHT.format(**{**PLAIN, **marks}), known_briefs=[FIRST]).text
    return YAML(typ="safe").load(text)


def _read(brief: dict) -> tuple:
    return (
        [(i["number"], i["title"], i["value"], i["placement"]["action"]) for i in brief["items"]],
        [(c["number"], c["title"]) for c in brief.get("contradictions") or []],
        brief.get("conclusions"),
    )


@pytest.mark.parametrize(
    "marks",
    [
        {"one": "¶ ", "two": "¶ ", "three": "¶ ", "four": "¶ "},
        {
            "first": "**第一则**　ModelExpress 0.3 发布说明（中等价值）",
            "second": "**第二则**　一篇 KV 卸载的博客（补白）",
        },
        {"first": "1 号　ModelExpress 0.3 发布说明（中等价值）", "second": "2 号　一篇 KV 卸载的博客（补白）"},
        {"first": "第一则：ModelExpress 0.3 发布说明（中等价值）", "second": "第二则：一篇 KV 卸载的博客（补白）"},
    ],
    ids=["pilcrow-parts", "bold-number", "hao", "ze"],
)
def test_a_skeleton_marked_another_way_reads_as_the_plain_one(marks):
    assert _read(_imported(**marks)) == _read(_imported())


def test_two_items_are_read_with_their_own_fields():
    items = _imported(
        first="**第一则**　ModelExpress 0.3 发布说明（中等价值）", second="**第二则**　一篇 KV 卸载的博客（补白）"
    )["items"]
    assert [i["placement"]["action"] for i in items] == ["update_in_place", "not_placed"]
    assert items[0]["points"] == ["权重传输改走 NIXL 1.1"]


def test_a_quoted_claim_turned_into_another_is_a_correction_with_both_values():
    brief = _imported(status="- 10-21 矛盾 1（Kapitsa 周增）—— 修订：旧「周增 +175」→ 新「周增 +58」，采集器口径查清。")
    (update,) = brief["contradiction_updates"]
    assert update["contradiction"] == "kapitsa-weekly-gain"
    assert update["change"] in ("corrected", "resolved") and update.get("outcome", "corrected") == "corrected"
    assert [(c["old"], c["new"]) for c in update["corrections"]] == [(175, 58)]  # figures, as the YAML holds them


def test_a_line_that_only_names_the_claim_again_decides_nothing_and_asks_nothing():
    text = import_full(
        NIGHT.format(**{**PLAIN, "status": "- 10-21 矛盾 1（Kapitsa 周增「周增 +175」）：还挂着，没有新材料。"}),
        known_briefs=[FIRST],
    ).text
    assert "contradiction_updates" not in YAML(typ="safe").load(text)
    assert not [
        line for line in text.splitlines() if MARK in line and "kapitsa-weekly-gain" in line
    ]  # 没有新材料: kept


PROSE_ITEM = (
    "论分量，这一则算中等价值。材料是 Jay 的 fetch-log 第 1 条（https://github.com/ai-dynamo/modelexpress/releases）。"
    "一来，权重传输改走 NIXL 1.1；二来，冷启动的计时从绑定起算。这只是项目的发布说明，我们没上机，未复现。"
    "它接的是 10-21 条目 3 开的那条。我的处理是在 §3.2「ModelExpress 工程细节」原地更新一行。数等明天。"
)


def test_an_item_told_in_prose_with_no_labels_is_read_sentence_by_sentence_and_asked_about():
    """朔 (blind11/) writes each item as paragraphs in the team's order, with no labels: the rating, the source,
    the points, how far it was checked, its tie to the doc, what to do.  Each sentence goes to the field its words
    belong to, every sentence is kept, and the item is marked for the editor, whose reading this is."""
    headings = {"first": "**第一则**　ModelExpress 0.3 发布说明", "second": "**第二则**　一篇 KV 卸载的博客（补白）"}
    markdown = NIGHT.format(**{**PLAIN, **headings}).replace(
        "来源：https://github.com/ai-dynamo/modelexpress/releases\n要点：\n- 权重传输改走 NIXL 1.1\n"
        "证据边界：仓库 release 说明；未复现。\n与活文档脉络的关系：10-21 条目 3 开的那条。\n"
        "建议归入：§3.2「ModelExpress 工程细节」原地更新。",
        PROSE_ITEM,
    )
    assert PROSE_ITEM in markdown
    done = import_full(markdown, known_briefs=[FIRST])
    item = YAML(typ="safe").load(done.text)["items"][0]
    assert item["value"] == ["medium"]
    assert item["sources"]["urls"] == ["https://github.com/ai-dynamo/modelexpress/releases"]
    assert "没上机，未复现" in item["evidence"]["boundary"]
    assert item["relation"] == "它接的是 10-21 条目 3 开的那条。"
    assert (item["placement"]["section"], item["placement"]["action"]) == ("3.2", "update_in_place")
    assert "数等明天" in item["placement"]["text"]  # after the placement, the rest stays with it
    assert any("权重传输改走 NIXL 1.1" in p for p in item["points"])
    assert any("written as prose" in n.message for n in done.notes)
    assert MARK in done.text
