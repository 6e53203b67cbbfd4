"""Part 三 written the ways writers write a citation line (issue 29): the title in 《》 or a table's
cell, the counts source first or last, in full-width digits or 万, the date after 截至; the line read
whole or asked about, never a count dropped in silence, and nothing else on the line lost."""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import SECOND_NIGHT, shipped_brief
from one_night import one_item_night
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full

TITLE = "Efficient Memory Management for Large Language Model Serving with PagedAttention"


def cited(line: str) -> tuple[dict, list[str]]:
    done = import_full(one_item_night(citations=line))
    brief = YAML(typ="safe").load(done.text)
    (citation,) = brief["citations"]
    return citation, [n.message for n in done.notes if "2309.06180" in n.message or "citation" in n.message]


@pytest.mark.parametrize(
    "line",
    [
        f"· arXiv:2309.06180《{TITLE}》——S2 被引 5,231，OpenAlex 3,068，截至 2026-10-22（上周为 5,216 / 3,060）。用途：分页块",
        f"- `arXiv:2309.06180` {TITLE} — S2 5,231 · OpenAlex 3,068（截至 2026-10-22；上周为 5,216 / 3,060）— 分页块",
        f"- arXiv:2309.06180 | {TITLE} | S2=5,231 | OpenAlex=3,068 | 截至=2026-10-22 | 上周为 5,216 / 3,060 | 分页块",
        f"- arXiv:2309.06180 {TITLE} —— S2 ５,２３１ / OpenAlex ３,０６８（截至 2026-10-22；上周为 5,216 / 3,060）—— 分页块",
        f"- arXiv:2309.06180 — {TITLE}（被引 5,231 / S2、3,068 / OpenAlex，截至 2026-10-22；上周为 5,216 / 3,060）——分页块",
        f"- arXiv:2309.06180 — {TITLE}：S2 5,231、OpenAlex 3,068（截至 2026-10-22；上周为 5,216 / 3,060）——分页块",
        f"arXiv:2309.06180\u3000{TITLE}——被引 S2 5,231、OpenAlex 3,068（截至 2026-10-22；上周为 5,216 / 3,060）——分页块",
        f"- arXiv:2309.06180 — {TITLE}（被引 5,231 / S2、3,068 / OpenAlex，截至 2026-10-22；新登记）——分页块；上周为 5,216 / 3,060",
    ],
)
def test_a_citation_line_in_any_of_the_writers_shapes_reads_the_same(line):
    citation, notes = cited(line)
    assert (citation["arxiv"], citation["title"]) == ("2309.06180", TITLE)
    assert [(c["source"], c["count"], c.get("as_of")) for c in citation["cited_by"]] == [
        ("S2", 5231, dt.date(2026, 10, 22)),
        ("OpenAlex", 3068, dt.date(2026, 10, 22)),
    ]
    assert "分页块" in citation["use_note"] and "5,216 / 3,060" in citation["use_note"]  # nothing of it lost
    assert notes == []  # read whole: no question


def test_lines_that_open_with_their_ids_are_one_citation_each_and_prose_about_an_id_is_none():
    """Two lines 「arXiv:ID　Title——被引 …」 with no bullet and no blank line between (blind10's 蘅) are two
    citations, not one paragraph of what was not registered; a line that only mentions an id is prose."""
    lines = (
        f"arXiv:2309.06180\u3000{TITLE}——被引 S2 5,231、OpenAlex 3,068（截至 2026-10-22）——分页块\n"
        "arXiv:2407.00079\u3000Mooncake——被引 S2 ３４０、OpenAlex １８５（截至 2026-10-22）——以 KV 为中心\n\n"
        "arXiv:1605.08803 本轮未再出现"
    )
    brief = YAML(typ="safe").load(import_full(one_item_night(citations=lines)).text)
    assert [(c["arxiv"], [x["count"] for x in c["cited_by"]]) for c in brief["citations"]] == [
        ("2309.06180", [5231, 3068]),
        ("2407.00079", [340, 185]),
    ]
    assert brief["citations_not_registered"] == "arXiv:1605.08803 本轮未再出现"


def test_citations_written_as_sentences_of_one_paragraph_are_one_citation_each_and_keep_every_word():
    """朔 (blind11/) writes part 三 as prose, one paper a sentence, the title in brackets beside the id and
    a short name before them.  Each sentence is a citation read whole: the full title, both counts (万
    read), the date; the short name, last week's counts and the use are kept in its note.  A sentence
    of the paragraph that cites nothing stays the list's note."""
    prose = (
        "两篇都只刷新数字。"
        "Llama 3 Herd（arXiv:2407.21783，The Llama 3 Herd of Models）被引 S2 1.35 万、OpenAlex 7,309，截至 2026-12-20"
        "（周四记的是 1.34 万 / 7,291）；70B 出于此，引法不变。"
        f"vLLM（arXiv:2309.06180，{TITLE}）被引 S2 5,231、OpenAlex 3,068，截至 2026-12-20；分页块的定义照它读。"
    )
    done = import_full(one_item_night(citations=prose))
    brief = YAML(typ="safe").load(done.text)
    read = [
        (c["arxiv"], c["title"], [(x["source"], x["count"], x.get("as_of")) for x in c["cited_by"]])
        for c in brief["citations"]
    ]
    day = dt.date(2026, 12, 20)
    assert read == [
        ("2407.21783", "The Llama 3 Herd of Models", [("S2", 13500, day), ("OpenAlex", 7309, day)]),
        ("2309.06180", TITLE, [("S2", 5231, day), ("OpenAlex", 3068, day)]),
    ]
    first, second = (c["use_note"] for c in brief["citations"])
    assert all(w in first for w in ("Llama 3 Herd", "1.34 万 / 7,291", "70B 出于此，引法不变"))
    assert all(w in second for w in ("vLLM", "分页块的定义照它读"))
    assert brief["citations_note"] == "两篇都只刷新数字。"
    assert not [n for n in done.notes if "citation" in n.message or "三" in n.message]


def test_a_line_whose_counts_cannot_be_read_whole_is_asked_about():
    citation, notes = cited(f"· arXiv:2309.06180《{TITLE}》——S2 被引 52,31，OpenAlex 3,068。")
    assert "cited_by" not in citation
    assert notes  # the editor is told, with the line


def test_a_line_that_gives_counts_in_a_way_not_read_is_asked_about():
    citation, notes = cited(f"- arXiv:2309.06180 — {TITLE}（S2 五千二百 / OpenAlex 约 3k）——分页块")
    assert "cited_by" not in citation and notes


@pytest.mark.parametrize("column", ["题目", "题名"])
def test_a_table_of_citations_reads_row_by_row_and_keeps_every_cell(column):
    table = (
        f"| 编号 | {column} | S2 | OpenAlex | 截至 | 上次 | 备注 |\n|---|---|---|---|---|---|---|\n"
        f"| arXiv:2309.06180 | {TITLE} | ５,２３１ | ３,０６８ | 2026-10-22 | 5,216 / 3,060（礼拜三） | 分页块 |"
    )
    citation, notes = cited(table)
    assert (citation["arxiv"], citation["title"]) == ("2309.06180", TITLE)
    assert [(c["source"], c["count"], c.get("as_of")) for c in citation["cited_by"]] == [
        ("S2", 5231, dt.date(2026, 10, 22)),
        ("OpenAlex", 3068, dt.date(2026, 10, 22)),
    ]
    assert "上次：5,216 / 3,060（礼拜三）" in citation["use_note"] and "分页块" in citation["use_note"]
    assert notes == []


def test_a_table_of_citations_with_no_title_column_asks_for_the_title_and_never_leaves_it_empty():
    table = "| 编号 | S2 | OpenAlex |\n|---|---|---|\n| arXiv:2309.06180 | 5,231 | 3,068 |"
    citation, notes = cited(table)
    assert citation["title"] == "2309.06180" and any("no title read" in n for n in notes)
    assert [c["count"] for c in citation["cited_by"]] == [5231, 3068]


def test_a_citation_said_to_be_newly_listed_keeps_the_words_and_asks_nothing():
    """「（被引 …，截至 …；新登记）」 (blind11's 乔): the paper is new to the list; the words stay in its note."""
    citation, notes = cited(
        f"- arXiv:2309.06180 — {TITLE}（被引 5,231 / S2、3,068 / OpenAlex，截至 2026-10-22；新登记）——分页块"
    )
    assert "新登记" in citation["use_note"] and "分页块" in citation["use_note"]
    assert notes == []


@pytest.mark.parametrize("said", ["开放获取 green → gold", "开放获取由 green 改为 gold"])
def test_a_changed_open_access_status_is_read_as_tonights_and_the_change_is_kept(said):
    """「（…，开放获取 green → gold）」: the status is gold tonight; the source's words of the change stay in the note."""
    citation, notes = cited(f"- arXiv:2309.06180 — {TITLE}（被引 5,231 / S2，截至 2026-10-22，{said}）——分页块")
    assert citation["oa_status"] == "gold"
    assert said in citation["use_note"] and "分页块" in citation["use_note"]
    assert notes == []


CARD_ITEM = SECOND_NIGHT.replace(
    "来源：https://github.com/nace-ai/kapitsa", "来源：organized/paper_cards/2216-2309-06180.md"
).replace(
    "与活文档脉络的关系：§1.1 Kapitsa 换数。\n建议归入：§1.1 Kapitsa 原地更新。",
    "与活文档脉络的关系：动的只是题录，没有新论点。\n建议归入：正文一字不改、条目一条不加；题录在三里更新。",
)


def test_a_paper_cards_item_that_names_no_section_and_is_cited_tonight_refreshes_the_citation():
    """An item that only brings a paper card's new counts, with part 三 citing that paper, places nothing:
    it is a citation refresh, read from the shape (its card, tonight's citation), not from its words."""
    night = CARD_ITEM.format(author="新人", two="无。", four="- 无。").replace(
        "三、可引用的 arXiv 号\n\n无。",
        f"三、可引用的 arXiv 号\n\n- arXiv:2309.06180 {TITLE}；被引 5,231（S2），截至 2026-10-22。",
    )
    done = import_full(night, known_briefs=[shipped_brief()])
    brief = YAML(typ="safe").load(done.text)
    assert brief["items"][0]["placement"]["action"] == "citation_refresh"
    assert "section" not in brief["items"][0]["placement"]
    assert not brief.get("questions")


def test_a_paper_cards_item_that_names_no_section_and_is_not_cited_is_still_kept_out_and_marked():
    night = CARD_ITEM.format(author="新人", two="无。", four="- 无。")
    done = import_full(night, known_briefs=[shipped_brief()])
    brief = YAML(typ="safe").load(done.text)
    assert brief["items"][0]["placement"]["action"] == "not_placed"
    assert any("names no § section" in n.message for n in done.notes)
