"""A new editor's night, end to end (issue 34, points 1–5): the 10-22 brief in
``tests/fixtures/editor/`` is imported onto the shipped data with no edit by hand, the site is built,
and what a reader sees is read from the HTML.

The night updates 10-21 条目 4's entry in place and so completes 10-21's follow-up ①; its 证据边界
says 全文已读; its part 四 carries ② and ③ over in one phrase (「② ③ 顺延」) and opens a follow-up
under 「新跟进：」."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import re
from pathlib import Path

import pytest
from helpers import ROOT, built, copy_project, replace_in, run_cli
from html_dom import Node, parse
from ruamel.yaml import YAML

from digest_plugin.cli import main
from digest_plugin.core.pipeline import analyse

BRIEF = ROOT / "tests" / "fixtures" / "editor" / "2026-10-22-inference-E2.md"
NIGHT = "2026-10-22-inference-E2"
FREEZE = "vllm-long-prefill-freeze"  # 10-21 条目 4's entry, §3.1


def imported(root: Path) -> Path:
    """``digest import`` of the night into ``root/data``; the brief YAML it wrote."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["import", str(BRIEF), "--data", str(root / "data")]) == 0
    return root / "data" / "briefs" / f"{NIGHT}.yml"


def load(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def article(site: Path, page: str) -> Node:
    html = (site / page / "index.html").read_text(encoding="utf-8")
    (found,) = [n for n in parse(html).all("article") if "md-content__inner" in n.classes]
    return found


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("editor") / "project")
    imported(root)
    return root


@pytest.fixture(scope="module")
def site(project: Path) -> Path:
    return built(project)


def test_the_night_imports_and_checks_clean_with_no_edit(project):
    result = analyse(project / "data", relative_to=project, today=dt.date(2026, 12, 4))
    assert [f for f in result.findings if f.severity == "error"] == []


def test_an_in_place_update_brings_its_evidence_once_and_nothing_lowers_the_entry(project, site):
    """Point 1: the follow-up the update completes gave the updated entry a second, evidence-only
    update, which lowered it (「部分核查 → 未核实」) though the brief said nothing of the kind."""
    brief = load(project / "data" / "briefs" / f"{NIGHT}.yml")
    assert [u for u in brief.get("evidence_updates") or [] if u["item"] == FREEZE] == []
    entry = article(site, "inference/3").one("section", **{"data-digest-entry": FREEZE})
    rows = entry.all("li", data_history=NIGHT)
    assert [r.attrs["data-change"] for r in rows] == ["updated"]
    badge = entry.one("p", class_="digest-item__meta").one("span", class_="digest-badge")
    assert badge.attrs["data-evidence"] == "partially_verified"  # what the night's 全文已读 says
    assert "→ 未核实" not in entry.text()


def test_a_run_of_follow_ups_carried_in_one_phrase_carries_each(site):
    """Point 2: 「② ③ 顺延」 carried over only ③."""
    page = article(site, "inference/follow-ups")
    status = {
        fid: page.one("li", data_follow_up=fid).attrs["data-status"]
        for fid in ("vllm-long-prefill-issue", "recsys-vol178-anchors", "modelexpress-dynamo-relation")
    }
    assert status == {
        "vllm-long-prefill-issue": "done",
        "recsys-vol178-anchors": "carried_over",
        "modelexpress-dynamo-relation": "carried_over",
    }


def test_a_follow_up_under_a_new_heading_is_opened(project, site):
    """「新跟进：① …」 is tonight's list, not a report on earlier follow-ups (it was lost)."""
    (new,) = load(project / "data" / "briefs" / f"{NIGHT}.yml")["follow_ups"]
    assert new["text"] == "在本地复现 SGLang 0.5.23 的 ITL"
    row = article(site, "inference/follow-ups").one("li", data_follow_up=new["id"])
    assert row.attrs["data-status"] == "open"


def test_the_brief_page_counts_carried_follow_ups_apart_from_closed_ones(site):
    """Point 3: the page said 「关闭跟进 3」 for one done and two carried over."""
    changes = article(site, f"inference/briefs/{NIGHT}").one("ul", class_="digest-changes")
    counts = {li.attrs["data-change"]: li.attrs["data-count"] for li in changes.all("li")}
    assert counts["follow_ups_closed"] == "1" and counts["follow_ups_carried"] == "2"
    carried = changes.one("li", data_change="follow_ups_carried").text()
    assert carried.startswith("顺延跟进 2")


def test_the_level_a_boundary_implies_is_the_vocabularys(tmp_path):
    """Point 4: the words that set a level are data: the team makes 全文已读 mean 已核查, and the
    same night imports so, with no code changed."""
    root = copy_project(tmp_path / "project")
    vocabulary = root / "data" / "vocabulary.yml"
    replace_in(
        vocabulary, "levels_from_boundary:\n", "levels_from_boundary:\n  - {level: verified, words: [全文已读]}\n"
    )
    written = imported(root)
    item = next(i for i in load(written)["items"] if i["number"] == 1)
    assert item["evidence"]["level"] == "verified"
    # a level set by words that name no level is the rule's reading, not the writer's: the editor is asked
    assert "level read as «已核查» from «全文已读»" in written.read_text(encoding="utf-8")


def test_a_boundary_rule_naming_no_level_is_refused_with_its_line(tmp_path, capsys, monkeypatch):
    root = copy_project(tmp_path / "project")
    vocabulary = root / "data" / "vocabulary.yml"
    replace_in(vocabulary, "levels_from_boundary:\n", "levels_from_boundary:\n  - {level: solid, words: [全文已读]}\n")
    code, out, err = run_cli("check", "data", cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    out += err
    assert code == 1
    line = vocabulary.read_text(encoding="utf-8").splitlines().index("  - {level: solid, words: [全文已读]}") + 1
    assert f"data/vocabulary.yml:{line}:" in out and "'solid' is not" in out
    assert "add `solid: <中文标签>` under evidence_levels:" in out


def test_set_evidence_replaces_its_own_update_and_keeps_the_source_kinds(tmp_path, capsys, monkeypatch):
    """Point 5: a second ``set-evidence`` added a second evidence update, and an update that named no
    source kinds blanked the entry's badge."""
    root = copy_project(tmp_path / "project")
    brief = imported(root)
    rel = str(brief.relative_to(root))
    for level in ("lead", "partially_verified"):
        code, _, err = run_cli(
            "set-evidence", rel, "llm-d-1-0", "--level", level, "--boundary", "重读了发布页。",
            cwd=root, capsys=capsys, monkeypatch=monkeypatch,
        )  # fmt: skip
        assert code == 0, err
    (update,) = [u for u in load(brief)["evidence_updates"] if u["item"] == "llm-d-1-0"]
    assert update["evidence"]["level"] == "partially_verified"
    assert update["evidence"]["source_kinds"] == ["official_blog"]  # the 10-21 item's, kept
    assert "# Imported from the team's Markdown brief" in brief.read_text(encoding="utf-8")  # comments kept


def test_set_evidence_on_an_entry_tonight_updates_in_place_sets_that_items_evidence(tmp_path, capsys, monkeypatch):
    root = copy_project(tmp_path / "project")
    brief = imported(root)
    code, _, err = run_cli(
        "set-evidence", str(brief.relative_to(root)), FREEZE, "--level", "verified", "--source-kinds", "project_docs",
        cwd=root, capsys=capsys, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 0, err
    data = load(brief)
    assert data.get("evidence_updates") in (None, [])
    item = next(i for i in data["items"] if i["number"] == 1)
    assert item["evidence"]["level"] == "verified" and item["evidence"]["source_kinds"] == ["project_docs"]


def test_a_hand_written_evidence_update_that_lowers_an_entry_updated_in_place_is_warned_of(tmp_path):
    root = copy_project(tmp_path / "project")
    brief = imported(root)
    text = brief.read_text(encoding="utf-8")
    brief.write_text(
        text.replace(
            "back_refs:",
            f'evidence_updates:\n  - item: {FREEZE}\n    evidence:\n      level: unverified\n      boundary: "复述。"\n'
            "back_refs:",
            1,
        ),
        encoding="utf-8",
    )
    result = analyse(root / "data", relative_to=root, today=dt.date(2026, 12, 4))
    (warning,) = [f for f in result.findings if "updated in place by 条目 1" in f.message]
    assert "lowers the entry to 未核实" in warning.message and warning.severity == "warning"
    assert "remove this evidence update" in (warning.hint or "")


def test_every_page_digest_pages_writes_is_git_ignored(tmp_path, capsys, monkeypatch):
    """The README says the generated pages are git-ignored: a Zensical build left docs/inference/legend.md
    untracked (issue 34, point 10)."""
    import shutil
    import subprocess

    root = copy_project(tmp_path / "project")
    shutil.copy(ROOT / ".gitignore", root / ".gitignore")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    code, _, err = run_cli("pages", cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    written = (root / "docs" / ".digest-pages").read_text(encoding="utf-8").split()
    assert len(written) >= 10 and any(w.endswith("legend.md") for w in written)
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "docs"], cwd=root, capture_output=True, text=True
    )
    untracked = [line for line in status.stdout.splitlines() if line.startswith("??")]
    hand_written = {f"?? docs/{p.relative_to(ROOT / 'docs')}" for p in (ROOT / "docs").rglob("*.md")}
    assert set(untracked) == hand_written  # only the pages a person wrote (none of them committed here)


def test_pages_a_zensical_preview_left_in_docs_are_generated_again_by_mkdocs(tmp_path, capsys, monkeypatch):
    """After `digest serve --host zensical` (which writes the generated pages into docs/), MkDocs took
    them for hand-written pages: 「preview converts 0 of 0 generated pages」, none of them rendered
    ahead or planned by the preview (issue 34, point 10)."""
    import subprocess
    import sys

    root = copy_project(tmp_path / "project")
    assert run_cli("pages", cwd=root, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    imported(root)  # tonight's brief arrives after the Zensical preview wrote the pages
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-v", "-d", str(root / "site")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert re.search(r"digest: \d+ of 9 generated pages", done.stderr), done.stderr[
        -2000:
    ]  # 6, the brief, the changes, the past
    site = root / "site"
    changes = article(site, f"inference/briefs/{NIGHT}").one("ul", class_="digest-changes")
    assert changes.one("li", data_change="follow_ups_carried").attrs["data-count"] == "2"


def test_the_home_tables_sections_are_named_as_the_navigation_names_them(site):
    """The overview said 「§1」 where the navigation says 「§1 推理引擎格局」 (issue 34, point 11): a
    section the outline gives no title takes its page's heading."""
    heading = (ROOT / "docs" / "inference" / "1.md").read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
    row = article(site, "inference").one("tr", data_section="1")
    assert row.all("td")[0].text() == heading  # 「§1 推理引擎格局」
