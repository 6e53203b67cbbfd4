"""A brief kept in Word and converted by pandoc (``pandoc -t markdown``): grid tables, footnotes, escapes
and attributes read as the team's Markdown (digest_plugin.authoring.importer.pandoc).  The shapes are pandoc's
own (https://pandoc.org/MANUAL.html#tables, #footnotes, #backslash-escapes), written here by hand."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full
from digest_plugin.authoring.importer.common import Line
from digest_plugin.authoring.importer.pandoc import from_pandoc

ROOT = Path(__file__).resolve().parents[1]


def lines(text: str) -> list[Line]:
    return [Line(n, t) for n, t in enumerate(text.split("\n"), 1)]


def texts(text: str) -> list[str]:
    return [x.text for x in from_pandoc(lines(text)) if x.text]


def test_a_grid_table_with_a_header_and_cells_over_several_lines_is_a_pipe_table() -> None:
    """Pandoc lines columns up by display width: a Chinese character is two columns wide."""
    table = (
        "+--------------+----------------------+\n"
        "| 哪一桩       | 今天                 |\n"
        "+==============+======================+\n"
        "| 昨天那桩     | 价目表改了，和预告表 |\n"
        "|              | 一致；落锤           |\n"
        "+--------------+----------------------+\n"
        "| C2 (preview) | 照旧                 |\n"
        "+--------------+----------------------+"
    )
    assert texts(table) == [
        "| 哪一桩 | 今天 |",
        "| --- | --- |",
        "| 昨天那桩 | 价目表改了，和预告表一致；落锤 |",
        "| C2 (preview) | 照旧 |",
    ]
    rows = from_pandoc(lines(table))
    assert [x.number for x in rows if x.text.startswith("| 昨天")] == [4]  # a row keeps its first line's number


def test_a_form_of_two_columns_is_labelled_lines() -> None:
    form = (
        "+----------+------------------------------+\n"
        "| 出处     | 发布说明（项目文档）         |\n"
        "+----------+------------------------------+\n"
        "| 证据边界 | 只读了发布说明，未复现       |\n"
        "+----------+------------------------------+"
    )
    assert texts(form) == ["**出处**：发布说明（项目文档）", "**证据边界**：只读了发布说明，未复现"]
    # a two-column table whose left cells are sentences is a table, not a form
    sentences = form.replace("| 出处     |", "| 出处，见下 |").replace("+----------+", "+------------+", 1)
    assert texts(sentences)[0].startswith("|")


def test_footnotes_are_read_where_they_are_referred_to() -> None:
    text = (
        "Dynamo 1.2 的路由再降 TTFT[^1]，见发布说明[^note]。\n\n"
        "[^1]: 只在 70B、TP=4 上测过，\n    8B 没有数。\n\n"
        "[^note]: GitHub release notes。\n"
        "下一段。"
    )
    assert texts(text) == [
        "Dynamo 1.2 的路由再降 TTFT（注：只在 70B、TP=4 上测过，8B 没有数。），见发布说明（注：GitHub release notes。）。",
        "下一段。",
    ]


def test_escapes_attributes_and_hard_breaks_are_the_characters_as_written() -> None:
    text = "+---+\n| x |\n+---+\n\n\\[C1\\] 不得写 \\*快 12%\\* [强调]{.underline}\\\n第二行 {#id}"
    assert texts(text)[-2:] == ["[C1] 不得写 *快 12%* 强调", "第二行"]


def test_a_file_pandoc_did_not_write_stays_as_it_is() -> None:
    text = "正则 \\d+ 与路径 C:\\tmp\\x 照原样。\n| a | b |\n|---|---|\n| 1 | 2 |"
    assert [x.text for x in from_pandoc(lines(text))] == text.split("\n")


def test_a_night_converted_by_pandoc_imports_like_the_night_as_written() -> None:
    """One corpus night, its first item's sources and evidence boundary laid out as a Word form (a grid
    table) and a footnote in its points: the YAML is the same but for the footnote's words, now in the
    point that referred to it."""
    night = (ROOT / "tests" / "corpus" / "days" / "2026-10-22-inference-E2.md").read_text(encoding="utf-8")
    first = (ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml").read_text(encoding="utf-8")
    from digest_plugin.core.model import Brief

    known = [Brief.model_validate(YAML(typ="safe").load(first))]
    plain = YAML(typ="safe").load(import_full(night, known_briefs=known).text)
    item = plain["items"][0]
    source_line = next(x for x in night.split("\n") if x.startswith("来源："))
    boundary_line = next(x for x in night.split("\n") if x.startswith("证据边界："))
    width = 4 + max(len(source_line), len(boundary_line)) * 2
    rule = "+----------+" + "-" * width + "+"
    rows = [
        f"| {label} | {value}{' ' * (width - 1 - sum(2 if ord(c) > 0x2E7F else 1 for c in value))}|"
        for label, value in (("来源    ", source_line[3:]), ("证据边界", boundary_line[5:]))
    ]
    form = "\n".join([rule, rows[0], rule, rows[1], rule])
    converted = night.replace(source_line + "\n", "", 1).replace(boundary_line, "\n" + form + "\n", 1)
    point = item["points"][0]
    converted = converted.replace(point, point + "[^1]", 1) + "\n[^1]: 据维护者回帖。\n"
    imported = YAML(typ="safe").load(import_full(converted, known_briefs=known).text)
    assert imported["items"][0]["points"][0] == point + "（注：据维护者回帖。）"
    imported["items"][0]["points"][0] = point
    assert imported["items"][0]["sources"] == item["sources"]
    assert imported["items"][0]["evidence"] == item["evidence"]


def test_a_pipe_in_a_grid_cell_stays_inside_its_cell() -> None:
    """Pandoc escapes a 「|」 a cell holds (``\\|``): the row keeps its two cells, the pipe written in the first."""
    from digest_plugin.authoring.importer.common import table_cells

    table = "+------------+------+\n| 甲 \\| 乙   | 照旧 |\n+------------+------+"
    (row,) = texts(table)[2:]
    assert table_cells(row) == ["甲 \\| 乙", "照旧"]
