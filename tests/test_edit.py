"""Editing commands change only the lines they must, keep comments, and refuse invalid results."""

from __future__ import annotations

import datetime as dt
import difflib
import re
import shutil

import pytest
from helpers import BRIEF, ROOT, run_cli

from digest_plugin.authoring import edit
from digest_plugin.authoring.edit import EditError, add_citation, close_follow_up, resolve_contradiction, set_evidence
from digest_plugin.authoring.scaffold import new_brief
from digest_plugin.core.load import load_file
from digest_plugin.core.model import Brief
from digest_plugin.core.pipeline import living_docs


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """(removed, added) lines of a unified diff."""
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    return removed, added


def test_set_evidence_in_place_changes_one_line(data_copy):
    path = data_copy / BRIEF
    before = path.read_text(encoding="utf-8")
    set_evidence(path, "modelexpress-weight-transfer", "partially_verified")
    removed, added = changed_lines(before, path.read_text(encoding="utf-8"))
    assert removed == ["      level: lead"] and added == ["      level: partially_verified"]
    assert before.splitlines()[:3] == path.read_text(encoding="utf-8").splitlines()[:3]  # schema line and comments kept


def test_a_new_days_brief_resolves_closes_raises_and_cites(data_copy):
    path = new_brief(data_copy, "inference", dt.date(2026, 10, 22), "E2")
    scaffold = path.read_text(encoding="utf-8")
    resolve_contradiction(path, "kapitsa-weekly-gain", "采集器已修正：周增按 7 日窗口重算。")
    close_follow_up(path, "vllm-long-prefill-issue", "done", note="找到原始 issue")
    set_evidence(
        path,
        "vllm-long-prefill-freeze",
        "partially_verified",
        boundary="已回溯原始 issue。",
        gaps=["vendor_self_report"],
        follow_up="vllm-long-prefill-issue",
    )
    add_citation(
        path, "2309.06180", "Efficient Memory Management for Large Language Model Serving with PagedAttention", s2=3000
    )
    after = path.read_text(encoding="utf-8")
    removed, added = changed_lines(scaffold, after)
    # only the four empty lists were replaced; every comment of the scaffold is still there
    assert sorted(removed) == [
        "citations: []",
        "contradiction_updates: []",
        "evidence_updates: []",
        "follow_up_updates: []",
    ]
    assert [line for line in scaffold.splitlines() if line.startswith("#")] == [
        line for line in after.splitlines() if line.startswith("#")
    ]
    assert '    text: "采集器已修正：周增按 7 日窗口重算。"' in added
    assert '  - arxiv: "2309.06180"' in added
    doc = living_docs(data_copy)["inference"]
    assert not doc.contradiction("kapitsa-weekly-gain").is_open
    assert doc.entries["vllm-long-prefill-freeze"].evidence.level == "partially_verified"
    assert doc.citations["2309.06180"].number == 529


def test_an_edit_that_would_not_validate_writes_nothing(data_copy):
    path = data_copy / BRIEF
    before = path.read_bytes()
    with pytest.raises(EditError) as info:
        resolve_contradiction(path, "no-such-contradiction", "x")
    assert "no-such-contradiction" in str(info.value.findings[0])
    with pytest.raises(EditError):
        add_citation(path, "1605.8803", "bad id")  # 1605 needs five digits after the dot
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []


def test_a_crash_while_writing_leaves_the_old_file(data_copy, monkeypatch):
    path = data_copy / BRIEF
    before = path.read_bytes()

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(edit.os, "replace", boom)
    with pytest.raises(OSError):
        set_evidence(path, "modelexpress-weight-transfer", "partially_verified")
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_new_refuses_to_overwrite_and_gives_free_ids(data_copy):
    path = new_brief(data_copy, "inference", dt.date(2026, 10, 22))
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=../../schema/brief.schema.json"
    assert "Next free id: 2026-10-22-e1-item-1" in text
    brief, findings, _ = load_file(path, Brief)
    assert findings == [] and brief.id == "2026-10-22-inference-E1"
    with pytest.raises(FileExistsError):
        new_brief(data_copy, "inference", dt.date(2026, 10, 22))


def test_cli_edit_commands(data_copy, capsys, monkeypatch):
    def run(*args: str) -> tuple[int, str, str]:
        return run_cli(*args, cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)

    code, out, _ = run("new", "--topic", "inference", "--date", "2026-10-22", "--data", "data")
    assert code == 0 and out.strip().endswith("2026-10-22-inference-E1.yml")
    brief = "data/briefs/2026-10-22-inference-E1.yml"
    assert run("resolve", brief, "kapitsa-weekly-gain", "--text", "已修正")[0] == 0
    assert run("close-follow-up", brief, "recsys-vol178-anchors", "--status", "carried_over")[0] == 0
    code, _, err = run("resolve", brief, "kapitsa-weekly-gian", "--text", "x")
    assert code == 1 and "did you mean kapitsa-weekly-gain?" in err and "Traceback" not in err
    code, _, err = run("set-evidence", brief, "vllm-long-prefill-freeze", "--level", "rumour", "--boundary", "b")
    assert code == 1 and "'rumour' is not an evidence level in data/vocabulary.yml" in err
    doc = living_docs(data_copy)["inference"]
    assert not doc.contradiction("kapitsa-weekly-gain").is_open
    assert doc.follow_up("recsys-vol178-anchors").status.value == "carried_over"


def test_cli_import_writes_a_brief_that_checks(tmp_path, capsys, monkeypatch):
    shutil.copytree(ROOT / "data" / "outlines", tmp_path / "data" / "outlines")
    markdown = ROOT / "tests" / "fixtures" / "2026-10-21-inference-E1.md"

    def run(*args: str) -> tuple[int, str, str]:
        return run_cli(*args, cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)

    code, out, err = run("import", str(markdown))
    assert code == 0, err
    assert out.strip() == "data/briefs/2026-10-21-inference-E1.yml"
    assert re.search(rf"^{re.escape(str(markdown))}:\d+: warning: ", err, re.M)  # what to check, located
    assert run("check", "data", "--config", "none")[0] == 0
    code, _, err = run("import", str(markdown))
    assert code == 1 and "already exists" in err


def test_an_edit_is_checked_with_the_sites_own_rules(data_copy, capsys, monkeypatch):
    """`digest cite` with cited-by counts 2.5× apart: the default rules (factor 3) say nothing; a
    site whose mkdocs.yml sets the factor to 2 hears about it from the edit, as from `digest check`."""

    root = data_copy.parent
    brief = f"data/{BRIEF}"
    args = ("cite", brief, "2309.06180", "--title", "PagedAttention", "--s2", "1000", "--openalex", "400")
    (root / "mkdocs.yml").write_text("plugins:\n  - digest:\n      rules: {citation_count_factor: 2}\n", "utf-8")
    code, out, err = run_cli(*args, cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0 and "updated" in out
    assert "2309.06180" in err and "warning" in err
    (root / "mkdocs.yml").write_text("plugins:\n  - digest\n", "utf-8")
    code, out, err = run_cli(
        *(a if a != "2309.06180" else "2309.06181" for a in args), cwd=root, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0 and "warning" not in err


def test_resolve_records_how_a_contradiction_was_settled(data_copy, capsys, monkeypatch):
    """`digest resolve --outcome corrected --correct FIGURE WRONG RIGHT REASON` on tonight's brief:
    the merged doc then never publishes the wrong value."""
    from digest_plugin.core.pipeline import living_docs

    root = data_copy.parent
    code, out, err = run_cli(
        "new", "--topic", "inference", "--date", "2026-10-22", cwd=root, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0, err
    brief = out.strip()
    args = ("resolve", brief, "kapitsa-weekly-gain", "--text", "采集器口径已查明。", "--outcome", "corrected")
    code, out, err = run_cli(*args, cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and "names what it corrects" in err  # a correction must say what it corrects
    args += ("--correct", "weekly-gain", "175", "58", "采集器把整个组织的周增算进来了")
    code, out, err = run_cli(*args, cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    text = (root / brief).read_text(encoding="utf-8")
    assert "outcome: corrected" in text and "old: 175" in text and "new: 58" in text
    doc = living_docs(data_copy)["inference"]
    assert doc.contradiction("kapitsa-weekly-gain").corrected and "周增 +175" in doc.withheld


def test_resolve_records_a_re_judged_contradiction_with_its_new_disposition(data_copy, capsys, monkeypatch):
    def run(*args: str) -> tuple[int, str, str]:
        return run_cli(*args, cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)

    assert run("new", "--topic", "inference", "--date", "2026-10-22", "--data", "data")[0] == 0
    brief = "data/briefs/2026-10-22-inference-E1.yml"
    args = ("resolve", brief, "stepfun-mtp", "--text", "转交 models 主题。", "--change", "redisposed")
    code, _, err = run(*args)  # without the new disposition: refused, nothing written, the fix said
    assert code == 1 and "names its new disposition" in err and "Traceback" not in err
    code, _, err = run(*args, "--disposition", "kept_out")
    assert code == 0, err
    doc = living_docs(data_copy)["inference"]
    assert doc.contradiction("stepfun-mtp").disposition == "kept_out"
    text = (data_copy / "briefs" / "2026-10-22-inference-E1.yml").read_text(encoding="utf-8")
    assert "    disposition: kept_out\n" in text  # a code, written like the other codes
