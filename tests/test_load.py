"""Editors get compiler-style errors: file:line:col, a message, a hint; never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import BRIEF, line_of, replace_in

from digest_plugin.findings import DataError
from digest_plugin.pipeline import living_docs


def findings(data_dir):
    with pytest.raises(DataError) as info:
        living_docs(data_dir, relative_to=data_dir.parent)
    return info.value.findings


def test_unknown_section_points_at_the_line_and_suggests(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, 'section: "3.1"\n      action: new_sub_entry', 'section: "3.3"\n      action: new_sub_entry')
    (f,) = findings(data_copy)
    assert (f.path, f.line) == ("data/" + BRIEF, line_of(brief, '"3.3"'))
    assert "§3.3" in f.message and "§3." in (f.hint or "")


def test_unknown_enum_value_lists_the_allowed_ones(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "level: lead", "level: rumour")
    (f,) = findings(data_copy)
    assert f.line == line_of(brief, "level: rumour")
    assert "rumour" in f.message and "partially_verified" in f.hint


def test_misspelt_key_is_an_error_with_a_suggestion(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "    relation:", "    relaton:")
    (f,) = findings(data_copy)
    assert "relaton" in f.message
    assert f.hint == "did you mean 'relation'?"
    assert f.line == line_of(brief, "relaton:")


def test_missing_required_field(data_copy):
    brief = data_copy / BRIEF
    text = brief.read_text(encoding="utf-8")
    brief.write_text(text.replace('title: "inference · E1 预消化简报（2026-10-21）"\n', ""), encoding="utf-8")
    (f,) = findings(data_copy)
    assert "missing required field 'title'" in f.message


def test_javascript_url_is_refused(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, '"https://cloud.google.com/blog', '"javascript:alert(1)//cloud.google.com/blog')
    (f,) = findings(data_copy)
    assert "http(s)" in f.message and f.line == line_of(brief, "javascript:")


def test_tab_indentation(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "\nround: E1", "\n\tround: E1")
    (f,) = findings(data_copy)
    assert f.line == line_of(brief, "\tround")
    assert "tab" in (f.hint or "") + f.message


def test_duplicate_key(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "\nround: E1", "\nround: E1\nround: E2")
    (f,) = findings(data_copy)
    assert "duplicate" in f.message and f.line == line_of(brief, "round: E2")


def test_alias_bomb_is_refused_quickly(data_copy):
    bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    for i in "bcdefghi":
        prev = chr(ord(i) - 1)
        bomb += f"{i}: &{i} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
    (data_copy / "briefs" / "2026-10-22-inference-E1.yml").write_text(bomb, encoding="utf-8")
    (f,) = findings(data_copy)
    assert "aliases" in f.message and f.path.endswith("2026-10-22-inference-E1.yml")


def test_non_utf8_and_empty_files(data_copy):
    (data_copy / "briefs" / "2026-10-22-inference-E1.yml").write_bytes(b"schema: 1\ntitle: \xff\xfe\n")
    (data_copy / "briefs" / "2026-10-23-inference-E1.yml").write_text("# nothing yet\n", encoding="utf-8")
    found = {f.path.rsplit("/", 1)[-1]: f for f in findings(data_copy)}
    assert (found["2026-10-22-inference-E1.yml"].line, found["2026-10-22-inference-E1.yml"].col) == (2, 8)
    assert "UTF-8" in found["2026-10-22-inference-E1.yml"].message
    assert found["2026-10-23-inference-E1.yml"].message == "file is empty"


def test_update_in_place_of_unknown_entry(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "entry: kapitsa", "entry: kapitza")
    (f,) = findings(data_copy)
    assert "kapitza" in f.message and f.hint == "did you mean kapitsa?"


def test_cli_check_reports_like_a_compiler(data_copy):
    replace_in(data_copy / BRIEF, "level: lead", "level: rumour")
    ok = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "check", "data"],
        cwd=data_copy.parent.parent / "data" / ".." if False else data_copy.parent,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 1
    assert f"data/{BRIEF}:{line_of(data_copy / BRIEF, 'rumour')}:" in ok.stderr
    assert "Traceback" not in ok.stderr


def test_cli_check_clean_data_exits_zero(tmp_path):
    from conftest import ROOT

    result = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "check", str(ROOT / "data")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "1 brief" in result.stdout
