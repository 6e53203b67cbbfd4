"""Every word the site shows a reader comes from labels.py, so a second language is one file."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "digest_plugin"
CJK = re.compile(r"[\u3400-\u9fff]")
# Modules that write what a reader sees (pages, feed, charts, the theme tweak of the plugin).
SHOWN = [
    "site/render",
    "site/layout",
    "site/pages",
    "site/feed",
    "site/chart",
    "hosts/plugin",
    "hosts/extension",
    "site/leaks",
]


def words_in_code(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant with Chinese words in it, docstrings and comments aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and CJK.search(node.value)
    ]


@pytest.mark.parametrize("module", SHOWN)
def test_no_reader_facing_word_is_written_outside_labels(module):
    found = words_in_code((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    assert found == [], f"move these words to labels.py: {found}"


def test_the_check_would_see_a_word_written_in_code():
    assert words_in_code('def f():\n    """文档"""\n    return f"<p>已核实 {x}</p>"\n') == [(3, "<p>已核实 ")]


def test_every_kind_of_change_a_brief_makes_has_a_label():
    from digest_plugin.core import doc, labels

    assert set(labels.CHANGE_KINDS) == set(doc.CHANGE_KINDS)
