"""`digest review` (issue 29, part 3): the editor answers the importer's questions without opening
YAML.  A question sits in the brief beside the safe reading the import wrote; the site publishes that
reading and shows 待编辑确认 until the editor answers; the answer is written round-trip (every other
comment, the order and the quoting stay) and the question's mark goes with it."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from helpers import built, copy_project, run_cli
from ruamel.yaml import YAML

NIGHT = "2026-10-22-inference-E1"
QID = "2026-10-22-e1-q1"

BRIEF = f"""\
# yaml-language-server: $schema=../../schema/brief.schema.json
# the editor's own note: keep this line
schema: 1
id: "{NIGHT}"
topic: inference
round: E1
title: "inference · E1 预消化简报（2026-10-22）"
date: 2026-10-22
items:
  - id: "2026-10-22-e1-item-1"
    number: 1
    title: "llm-d 1.0.1 发布说明（原地刷新）"
    value: [refresh]
    sources:
      urls:
        - "https://github.com/llm-d/llm-d/releases/tag/v1.0.1"
    points:
      - "贡献者 580+、组织 29"
    evidence:
      level: verified
      boundary: "只读了发布说明。"
    relation: "接 10-21 条目 1。"
    placement:
      # digest-import: [{QID}] 条目 1 updates which §5.1 entry? kept as a lead until answered
      section: "5.1"
      action: mount_lead  # the safe reading
      text: "§5.1 原地更新：贡献者 580+、组织 29。"
questions:
  - id: "{QID}"
    at: "items[0].placement"
    ask: "条目 1 原地更新 §5.1 的哪一条？"
    reading: "作为 §5.1 的线索挂载，不改动任何条目"
    context: "§5.1 原地更新：贡献者 580+、组织 29。"
    line: 12
    choices:
      - label: "§5.1「llm-d 1.0」（2026-10-21 条目 1）"
        set: {{action: update_in_place, entry: llm-d-1-0}}
      - label: "§5.1 新增子条目"
        set: {{action: new_sub_entry}}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = copy_project(tmp_path / "project")
    (root / "data" / "briefs" / f"{NIGHT}.yml").write_text(BRIEF, encoding="utf-8")
    return root


def brief_file(project: Path) -> Path:
    return project / "data" / "briefs" / f"{NIGHT}.yml"


def test_a_brief_with_an_open_question_checks_clean(project, capsys, monkeypatch):
    code, _, err = run_cli("check", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err


def test_the_list_shows_the_question_its_context_the_reading_and_ranked_candidates(project, capsys, monkeypatch):
    code, out, _ = run_cli("review", "--list", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0
    assert f"data/briefs/{NIGHT}.yml: {QID} 待编辑确认: 条目 1 原地更新 §5.1 的哪一条？" in out
    assert "the brief (line 12): «§5.1 原地更新：贡献者 580+、组织 29。»" in out
    assert "until answered: 作为 §5.1 的线索挂载，不改动任何条目" in out
    assert out.index("1. §5.1「llm-d 1.0」") < out.index("2. §5.1 新增子条目")
    assert f"digest review --answer {QID}=N" in out


def test_the_list_as_json_serves_the_pull_request_comment(project, capsys, monkeypatch):
    _, out, _ = run_cli("review", "--list", "--format", "json", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    (row,) = json.loads(out)
    assert row["id"] == QID and row["brief"] == NIGHT and row["file"] == f"data/briefs/{NIGHT}.yml"
    assert [c["set"] for c in row["choices"]] == [
        {"action": "update_in_place", "entry": "llm-d-1-0"},
        {"action": "new_sub_entry"},
    ]


def test_an_answer_is_written_round_trip_and_its_mark_goes(project, capsys, monkeypatch):
    code, _, err = run_cli("review", "--answer", f"{QID}=1", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    text = brief_file(project).read_text(encoding="utf-8")
    placement = YAML(typ="safe").load(text)["items"][0]["placement"]
    assert (placement["action"], placement["entry"]) == ("update_in_place", "llm-d-1-0")
    assert "questions" not in YAML(typ="safe").load(text)
    assert "digest-import" not in text  # its mark is gone
    # everything else is as the editor left it: comments, quoting, order
    assert "# the editor's own note: keep this line" in text
    assert '    title: "llm-d 1.0.1 发布说明（原地刷新）"' in text
    assert '      section: "5.1"' in text
    code, _, err = run_cli("check", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err


def test_only_the_answered_lines_change(project, capsys, monkeypatch):
    run_cli("review", "--answer", f"{QID}=1", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    after = brief_file(project).read_text(encoding="utf-8").splitlines()
    before = BRIEF.splitlines()
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    assert added == ["      action: update_in_place # the safe reading", "      entry: llm-d-1-0"]  # its comment kept
    assert removed[0].strip().startswith("# digest-import:")
    assert removed[1] == "      action: mount_lead  # the safe reading"
    assert removed[2] == "questions:" and all(line.startswith("  ") for line in removed[3:])


def test_keep_removes_the_question_and_keeps_the_reading(project, capsys, monkeypatch):
    code, _, err = run_cli("review", "--answer", f"{QID}=keep", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    data = YAML(typ="safe").load(brief_file(project).read_text(encoding="utf-8"))
    assert data["items"][0]["placement"]["action"] == "mount_lead" and "questions" not in data


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (f"{QID}=3", "answer with a number from 1 to 2, or keep"),
        (f"{QID}=maybe", "answer with a number from 1 to 2, or keep"),
        ("no-such-question=1", "no open question 'no-such-question'"),
    ],
)
def test_a_wrong_answer_is_refused_and_writes_nothing(project, capsys, monkeypatch, answer, says):
    code, _, err = run_cli("review", "--answer", answer, cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and says in err, err
    assert "Traceback" not in err
    assert brief_file(project).read_text(encoding="utf-8") == BRIEF


def test_an_answer_that_would_not_validate_is_refused_with_the_finding(project, capsys, monkeypatch):
    path = brief_file(project)
    path.write_text(BRIEF.replace("entry: llm-d-1-0}", "entry: no-such-entry}"), encoding="utf-8")
    code, _, err = run_cli("review", "--answer", f"{QID}=1", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1
    assert "would not validate; nothing was written" in err
    assert re.search(rf"data/briefs/{NIGHT}\.yml:\d+:\d+: error: unknown entry to update in place 'no-such-entry'", err)
    assert "digest-import" in path.read_text(encoding="utf-8")


def test_a_question_pointing_nowhere_is_a_check_error(project, capsys, monkeypatch):
    brief_file(project).write_text(BRIEF.replace('at: "items[0].placement"', 'at: "items[3].placement"'), "utf-8")
    code, _, err = run_cli("check", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1
    assert f"question {QID}: 'items[3].placement' names no part of this brief an answer can write" in err


def test_a_choice_writing_a_key_the_place_lacks_is_a_check_error(project, capsys, monkeypatch):
    brief_file(project).write_text(BRIEF.replace("{action: new_sub_entry}", "{actoin: new_sub_entry}"), "utf-8")
    code, _, err = run_cli("check", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and f"question {QID}: 'items[0].placement' has no key 'actoin'" in err


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("review"))
    (root / "data" / "briefs" / f"{NIGHT}.yml").write_text(BRIEF, encoding="utf-8")
    return built(root)


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_preview_shows_the_open_question_and_publishes_the_safe_reading(site):
    page = (site / "inference" / "briefs" / NIGHT / "index.html").read_text(encoding="utf-8")
    text = _text(page)
    assert "待编辑确认（1）" in text
    assert "待编辑确认 ：条目 1 原地更新 §5.1 的哪一条？" in text
    assert "确认前按此发布：作为 §5.1 的线索挂载，不改动任何条目" in text
    article = re.search(r'<article class="digest-item".*?</article>', page, re.S)
    assert article and "待编辑确认" in _text(article.group(0))  # the item itself says so
    section = _text((site / "inference" / "5" / "index.html").read_text(encoding="utf-8"))
    assert "待编辑确认" in section  # where the reader meets its safe reading too


def test_the_pull_request_comment_lists_the_open_question(project, capsys, monkeypatch):
    from digest_plugin.authoring.diff import diff_docs
    from digest_plugin.core.pipeline import analyse

    docs = analyse(project / "data").docs
    assert docs is not None
    comment = diff_docs({}, docs)
    assert "### 待编辑确认 (1)" in comment
    assert f"`{QID}` (2026-10-22) 条目 1 原地更新 §5.1 的哪一条？" in comment
    assert f"`digest review --answer {QID}=N`" in comment
