"""Findings: one compiler-style line each, all of them at once, located on the YAML an editor wrote."""

from __future__ import annotations

import io

import pytest
from helpers import BRIEF, ROOT, line_of
from ruamel.yaml import YAML

from digest_plugin.core.findings import DataError, Finding, locate


def test_a_finding_reads_like_a_compiler_error():
    finding = Finding("data/briefs/x.yml", 206, 16, "周增 +175 is larger than the total Stars 155", "error", "fix it")
    assert str(finding) == "data/briefs/x.yml:206:16: error: 周增 +175 is larger than the total Stars 155 (fix it)"


def test_without_a_hint_there_are_no_brackets():
    assert str(Finding("a.yml", 1, 2, "file is empty", "warning")) == "a.yml:1:2: warning: file is empty"


def test_a_data_error_holds_every_finding_in_file_then_line_then_column_order():
    b_late = Finding("b.yml", 10, 1, "late")
    a_col9 = Finding("a.yml", 3, 9, "right")
    a_col2 = Finding("a.yml", 3, 2, "left")
    a_first = Finding("a.yml", 1, 5, "first")
    error = DataError([b_late, a_col9, a_col2, a_first])
    assert error.findings == [a_first, a_col2, a_col9, b_late]
    assert str(error).splitlines() == [
        "a.yml:1:5: error: first",
        "a.yml:3:2: error: left",
        "a.yml:3:9: error: right",
        "b.yml:10:1: error: late",
    ]


def test_findings_are_values():
    assert Finding("a.yml", 1, 1, "m") == Finding("a.yml", 1, 1, "m")
    with pytest.raises(AttributeError):
        Finding("a.yml", 1, 1, "m").line = 2  # type: ignore[misc]


# --------------------------------------------------------------------------- locate

DOC = """\
title: x
items:
  - id: a
    placement:
      section: "3.1"
      entry: kapitsa
  - id: b
"""
# line 6 is `      entry: kapitsa`: the value starts in column 14; `placement:` is line 4, column 5.


def rt(text: str):
    return YAML(typ="rt").load(io.StringIO(text))


def test_locate_points_at_a_nested_value():
    assert locate(rt(DOC), ("items", 0, "placement", "entry")) == (6, 14)


def test_locate_points_at_the_key_of_a_nested_mapping_and_at_a_list_item():
    assert locate(rt(DOC), ("items", 0, "placement")) == (4, 5)
    assert locate(rt(DOC), ("items", 1)) == (7, 5)


def test_locate_falls_back_to_the_nearest_parent_that_exists():
    tree = rt(DOC)
    assert locate(tree, ("items", 0, "placement", "after")) == (4, 5)  # no `after:`: its placement
    assert locate(tree, ("items", 5, "id")) == (2, 1)  # no sixth item: the list's key
    assert locate(tree, ("nothing",)) == (1, 1)  # the document


def test_locate_without_positions_is_the_first_line():
    assert locate({"items": [{"id": "a"}]}, ("items", 0, "id")) == (1, 1)
    assert locate(None, ("items",)) == (1, 1)


def test_locate_on_the_shipped_brief():
    path = ROOT / "data" / BRIEF
    text = path.read_text(encoding="utf-8")
    tree = rt(text)
    # item 5 (index 4) updates Kapitsa in place: `entry: kapitsa` under its placement
    line = line_of(path, "entry: kapitsa")
    col = text.splitlines()[line - 1].index("kapitsa") + 1
    assert locate(tree, ("items", 4, "placement", "entry")) == (line, col)
    # contradiction 1 withholds "周增 +175" first among its spellings
    line = line_of(path, '- "周增 +175"')
    col = text.splitlines()[line - 1].index('"周增') + 1
    assert locate(tree, ("contradictions", 0, "withheld", 0, "patterns", 0)) == (line, col)
