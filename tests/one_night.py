"""A night of 2026-10-22 with one item, in the team's plain layout: tests that vary one part of a brief
(part 三's citation line, part 四's reshaping words) start from it and change only that part."""

from __future__ import annotations


def one_item_night(*, author: str = "Ana", citations: str = "无。", conclusions: str = "- 无。") -> str:
    """The night's Markdown: ``citations`` is part 三's body, ``conclusions`` part 四's."""
    return f"""inference · E1 预消化简报（2026-10-22）

作者：{author} · E1 日间预消化轮（inference）· 2026-10-22 22:00

一、今日增量（1 条）

条目 1：vLLM 分块预填充默认开启（高价值）

来源：https://docs.vllm.ai/en/latest/

要点：分块预填充默认开启

证据边界：已核查发布说明；未复现。

关系：§3.1 尚无此项。

建议归入：§3.1 新增子条目。

二、矛盾与待核实

无。

三、可引用的 arXiv 号

{citations}

四、结论与动作

{conclusions}
"""
