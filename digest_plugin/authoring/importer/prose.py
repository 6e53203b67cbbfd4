"""An item written as prose, with no field labels at all.

Some writers tell an item in paragraphs, in the team's order but without a label (「下面每一则都按同一个次序说：
分量、出处、内容、靠得住到哪、跟活文档的关系、怎么放，只是不逐项打标签」, blind11's 朔).  Each sentence is sorted into
the field its words belong to: a sentence that only rates the item is its value; one that hands the item's
material or links is its source; one that says how far it was checked is its evidence boundary; one that
ties it to the doc is the relation; one that says what to do with it is the placement; the rest are its
points, in order.  Sorting by cue words is a guess about the writer's intent, so the item is marked for the
editor, and nothing is dropped: every sentence lands in one field.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .common import Field, split_outside

PLACEMENT = re.compile(
    r"^(?:我的)?处理(?:上|是|方式)|^(?:这一则|本则|这条)?(?:不进|只在本篇|只记|不入)"
    r"|§\s*\d[\d.]*[^。]{0,60}?(?:加一行|新增|新开|挂一行|挂线索|原地|写进|改写|并入|划归)"
)
"""What to do with the item: 「我的处理是在 §2.6「…」加一行」, 「处理上，§5.4 昇腾那条加一行」, 「这一则不进活文档」."""
BOUNDARY = re.compile(
    r"未复现|没复现|未核实|没核实|没上机|未上机|靠得住|可信|只是项目|项目自己的|自测|未经|没有原始|无从|都只是|论文自报"
    r"|媒体转述|社区帖子|匿名|对不上"
)
"""How far the item was checked: 「靠得住的部分到此为止」, 「没上机，未复现」, 「这些都只是项目的发布说明」."""
SOURCE = re.compile(r"https?://|出处|材料是|来源是|原帖|原文在|inbox/|organized/")
"""Where the item comes from: a link, a material path, 「出处是」, 「材料是」."""
RELATION = re.compile(r"活文档|接的是|它接|前情|对应的是|上一行|那一条|那条")
"""How the item ties to the doc: 「活文档里接的是…」, 「它接的是前天钟那篇的疑点 1」."""


def prose_fields(paragraphs: list[tuple[int, str]], rating: Callable[[str], list[str]]) -> list[Field]:
    """The item's paragraphs, ``(line, text)``, as labelled fields, sentence by sentence.  A short sentence
    that names a rating of the vocabulary (``rating`` finds them: 「论分量，这一则算高价值」) also gives an unlabelled line
    with that word alone, which the item reader takes as its rating; the sentence stays in the points."""
    said: dict[str, list[tuple[int, str]]] = {}
    rated: list[Field] = []
    placed = False
    for line, paragraph in paragraphs:
        for sentence in (s.strip() for s in split_outside(paragraph, "。")):
            if not sentence:
                continue
            named = rating(sentence) if len(sentence) <= 20 else []
            if named and not rated:
                rated.append(Field(None, named[0], line))
                said.setdefault("要点", []).append((line, sentence))
                continue
            label = "建议归入" if placed else _label_of(sentence)
            placed = label == "建议归入"
            said.setdefault(label, []).append((line, sentence))
    fields = [
        Field(label, "。".join(s for _, s in sentences) + "。", sentences[0][0], head=f"{label}：")
        for label, sentences in said.items()
    ]
    return rated + fields


def _label_of(sentence: str) -> str:
    """The field one sentence belongs to (the sentences after the placement stay with it: see above)."""
    if PLACEMENT.search(sentence):
        return "建议归入"
    if BOUNDARY.search(sentence):
        return "证据边界"
    if SOURCE.search(sentence):
        return "来源"
    if RELATION.search(sentence):
        return "与活文档脉络的关系"
    return "要点"
