"""A brief kept as reStructuredText, the source of a Sphinx site (issue 29): titles underlined with
punctuation, fields as field lists, the new contradiction in a ``.. warning::``, the bibliography a
``.. list-table::``, earlier nights named through ``:ref:`` roles, the next round's list as ``.. todo::``.
Each night is written here on top of the shipped 10-21 brief and checked against the same night
written as the team's plain Markdown.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full
from digest_plugin.authoring.importer.common import Line
from digest_plugin.authoring.importer.restructured import from_rst
from digest_plugin.core.model import Brief

ROOT = Path(__file__).resolve().parents[1]
FIRST = Brief.model_validate(
    YAML(typ="safe").load((ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8"))
)

RST = """=======================================
inference · E1 预消化简报（2026-10-22）
=======================================

:作者: Ann · E1 日间预消化轮（inference）· 2026-10-22 22:00

.. 源文件注释：锚点名不是正文。

一、今日增量（2 项）
********************

条目 1：ModelExpress 0.3 发布说明（中等价值）
---------------------------------------------

:来源: https://github.com/ai-dynamo/modelexpress/releases
:要点:
   - 权重传输改走 NIXL 1.1
   - 冷启动脚本换了参数 ``--mx-load``
:证据边界: 仓库 release 说明；未复现。
:与活文档脉络的关系: :ref:`10-21 条目 3 <b1021-i3>` 开的那条。
:建议归入: §3.2「ModelExpress 工程细节」原地更新。

条目 2：一篇 KV 卸载的博客（补白）
---------------------------------

:来源: `作者的博客 <https://example.org/blog/kv>`_
:要点:
   - KV 卸载的一个说法
:证据边界: 个人博客；未复现。
:与活文档脉络的关系: 与现有条目无直接关系。
:建议归入: 不入活文档，仅在简报留档。

二、值得警惕的矛盾与待核实说法
******************************

.. warning:: C-1 · NIXL 1.1 的带宽说法

   发布说明称「NIXL 1.1 让权重传输快 3 倍」，没有配置；配置出来之前，该说法不写进 §3.2。

三、可引用的 arXiv 号
*********************

.. list-table::
   :header-rows: 1

   * - arXiv
     - 题名
     - S2
     - OpenAlex
     - 截至
   * - 2309.06180
     - Efficient Memory Management for Large Language Model Serving with PagedAttention
     - 5,271
     - 3,085
     - 2026-10-22

四、本轮结论与建议动作
**********************

- 两条：条目 1 原地更新 §3.2；条目 2 只留档。

.. todo:: 跟进 1：NIXL 1.1 的带宽配置（Bo）
"""

PLAIN = """inference · E1 预消化简报（2026-10-22）

作者：Ann · E1 日间预消化轮（inference）· 2026-10-22 22:00

一、今日增量（2 项）

条目 1：ModelExpress 0.3 发布说明（中等价值）

来源：https://github.com/ai-dynamo/modelexpress/releases
要点：
- 权重传输改走 NIXL 1.1
- 冷启动脚本换了参数 `--mx-load`
证据边界：仓库 release 说明；未复现。
与活文档脉络的关系：10-21 条目 3 开的那条。
建议归入：§3.2「ModelExpress 工程细节」原地更新。

条目 2：一篇 KV 卸载的博客（补白）

来源：作者的博客（https://example.org/blog/kv）
要点：
- KV 卸载的一个说法
证据边界：个人博客；未复现。
与活文档脉络的关系：与现有条目无直接关系。
建议归入：不入活文档，仅在简报留档。

二、值得警惕的矛盾与待核实说法

### C-1 · NIXL 1.1 的带宽说法

发布说明称「NIXL 1.1 让权重传输快 3 倍」，没有配置；配置出来之前，该说法不写进 §3.2。

三、可引用的 arXiv 号

| arXiv | 题名 | S2 | OpenAlex | 截至 |
|---|---|---|---|---|
| 2309.06180 | Efficient Memory Management for Large Language Model Serving with PagedAttention | 5,271 | 3,085 | 2026-10-22 |

四、本轮结论与建议动作

- 两条：条目 1 原地更新 §3.2；条目 2 只留档。

- 跟进 1：NIXL 1.1 的带宽配置（Bo）
"""


def _imported(night: str) -> dict:
    return YAML(typ="safe").load(import_full(night, known_briefs=[FIRST]).text)


def test_an_rst_night_reads_as_the_same_night_written_in_the_teams_markdown():
    rst, plain = _imported(RST), _imported(PLAIN)
    assert len(rst["items"]) == 2 and rst["items"][1]["placement"]["action"] == "not_placed"
    for key in ("items", "contradictions", "citations", "conclusions", "follow_ups"):
        assert rst.get(key) == plain.get(key), key


def test_a_role_is_read_as_its_text_so_the_earlier_item_it_names_is_updated():
    first, plain = _imported(RST)["items"][0], _imported(PLAIN)["items"][0]
    assert first["placement"]["action"] == "update_in_place"
    assert (
        first["placement"]["entry"] == plain["placement"]["entry"] == "modelexpress-weight-transfer"
    )  # 10-21's item 3
    assert "b1021-i3" not in first["relation"] and "10-21 条目 3" in first["relation"]


def test_the_warning_is_the_nights_contradiction_and_withholds_its_claim():
    (c,) = _imported(RST)["contradictions"]
    assert c["number"] == 1 and c["title"] == "NIXL 1.1 的带宽说法"
    assert any("快 3 倍" in p for w in c.get("withheld") or [] for p in w["patterns"])


def test_the_list_table_is_the_bibliography_with_its_counts_whole():
    (citation,) = _imported(RST)["citations"]
    assert citation["arxiv"] == "2309.06180"
    assert {c["source"]: c["count"] for c in citation["cited_by"]} == {"S2": 5271, "OpenAlex": 3085}


def test_every_line_keeps_its_number_and_a_table_keeps_its_rows_together():
    lines = [Line(n, t) for n, t in enumerate(RST.split("\n"), 1)]
    out = from_rst(lines)
    assert all(
        a.number < b.number or (a.number == b.number and b.text.startswith("|")) for a, b in itertools.pairwise(out)
    )
    table = [x for x in out if x.text.startswith("|")]
    assert [x.text for x in table][:2] == ["| arXiv | 题名 | S2 | OpenAlex | 截至 |", "|---|---|---|---|---|"]
    assert out[-3].text == "" and [x.text for x in out if x.text.startswith("- 跟进")] == [
        "- 跟进 1：NIXL 1.1 的带宽配置（Bo）"
    ]


def test_markdown_with_underlined_titles_is_not_read_as_rst():
    markdown = "一、今日增量\n==========\n\n条目 1：x（补白）\n\n来源：https://example.org/a\n"
    lines = [Line(n, t) for n, t in enumerate(markdown.split("\n"), 1)]
    assert from_rst(lines) == lines
