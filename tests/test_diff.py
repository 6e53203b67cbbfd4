"""`digest diff BASE_REF`: a pull-request comment saying what the change does to the living doc."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import BRIEF, ROOT, replace_in, run_cli


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True, capture_output=True
    )


@pytest.fixture
def digest_diff(capsys, monkeypatch):
    """``digest diff REF data`` run from a repository, in this process: (exit code, stdout, stderr)."""

    def run(repo: Path, ref: str) -> tuple[int, str, str]:
        return run_cli("diff", ref, "data", "--config", "none", cwd=repo, capsys=capsys, monkeypatch=monkeypatch)

    return run


def committed_data(tmp_path: Path) -> Path:
    """A git repository whose one commit holds a copy of data/."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "data", repo / "data")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    return repo


def outline_then_first_brief(tmp_path: Path) -> Path:
    """A git repository whose one commit holds the outline alone; the shipped brief is added after it."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "data", repo / "data")
    brief = repo / "data" / BRIEF
    saved = brief.read_bytes()
    brief.unlink()
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "outline only")
    brief.write_bytes(saved)
    return repo


def test_diff_of_adding_the_first_brief(tmp_path, digest_diff):
    repo = outline_then_first_brief(tmp_path)
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    # the seven items, each under the section it was placed in (Kapitsa is an update, not an addition)
    assert "**Entries added**" in text and "**Entries updated**" in text
    added = text.split("**Entries added**")[1].split("**Entries updated**")[0]
    assert added.count("\n- §") == 6
    assert "- §5.1 llm-d 1.0 发布" in added
    updated = text.split("**Entries updated**")[1].split("**")[0]
    assert "§1.1 Kapitsa" in updated
    assert text.split("**Contradictions opened**")[1].split("**")[0].count("\n- ") == 11
    assert "“+175 周增” — 矛盾 1 (2026-10-21)" in text
    assert "[528] arXiv:1605.08803 Density Estimation Using Real NVP" in text
    assert text.split("**Follow-ups opened**")[1].count("\n- E2 ") == 3


def test_the_comment_shows_a_withheld_claim_as_the_site_does(tmp_path, digest_diff):
    """10-21 矛盾 1 withholds 「周增 +175」, which Kapitsa's new title carries: the site prints 〔暂扣〕 in
    the title, and so does the comment, so a reviewer reads the entry as readers will.  The claim is
    listed once, under the claims withheld, for the reviewer to weigh."""
    repo = outline_then_first_brief(tmp_path)
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    assert "「Kapitsa 仓库卡更新——Stars 155 / 〔暂扣〕 / C++ / Apache-2.0」" in section(text, "Entries updated")
    withheld = section(text, "Claims withheld")
    assert "“周增 +175”" in withheld and "“+175 周增”" in withheld
    assert "+175" not in text.replace(withheld, "")


def test_a_contradictions_own_line_quotes_its_claims_and_withholds_the_others(data_copy):
    """As the site's callout does: a contradiction's own claims are quoted in its line, another open
    contradiction's are 〔暂扣〕.  The seed's 矛盾 2 is given a claim to withhold beside 矛盾 1's."""
    from digest_plugin.authoring.diff import said
    from digest_plugin.core.pipeline import living_docs

    replace_in(
        data_copy / BRIEF,
        "    disposition: pending_check\n    status: open\n  - id: lfm2-5-basis",
        '    withheld:\n      - text: "0.23.0+ 原生支持"\n        patterns: ["0.23.0+ 原生支持"]\n'
        "    disposition: pending_check\n    status: open\n"
        "  - id: lfm2-5-basis",
    )
    doc = living_docs(data_copy)["inference"]
    first, second = doc.contradiction("kapitsa-weekly-gain"), doc.contradiction("vllm-version-basis")
    assert first is not None and second is not None
    text = "周增 +175 与 0.23.0+ 原生支持"
    assert said(doc, text, own=first) == "周增 +175 与 〔暂扣〕"
    assert said(doc, text, own=second) == "〔暂扣〕 与 0.23.0+ 原生支持"
    assert said(doc, text) == "〔暂扣〕 与 〔暂扣〕"


def test_diff_of_an_edit_and_of_no_change(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    assert "No change to the living doc." in digest_diff(repo, "HEAD")[1]
    replace_in(repo / "data" / BRIEF, "value: 155", "value: 156")
    code, text, _ = digest_diff(repo, "HEAD")
    assert code == 0
    assert "**Entries updated**\n- §1.1 Kapitsa" in text
    assert "Entries added" not in text and "Contradictions opened" not in text
    # what changed, before → after, as the entry's history says it (issue 34, point 7)
    updated = text.split("**Entries updated**")[1].split("**")[0]
    assert "155 → 156" in updated, updated


def test_diff_shows_an_updated_entrys_title_and_level_before_and_after(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    replace_in(repo / "data" / BRIEF, 'title: "llm-d 1.0 发布', 'title: "llm-d 1.0 正式发布')
    replace_in(repo / "data" / BRIEF, "level: partially_verified", "level: verified")
    code, text, _ = digest_diff(repo, "HEAD")
    assert code == 0
    line = next(x for x in text.splitlines() if x.startswith("- §5.1 llm-d 1.0"))
    assert "「llm-d 1.0 发布" in line and "→「llm-d 1.0 正式发布" in line, line
    assert "部分核查 → 已核查" in line, line


def test_diff_refuses_broken_data_and_unknown_refs(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    code, _, err = digest_diff(repo, "no-such-ref")
    assert code != 0 and "unknown git ref 'no-such-ref'" in err and "Traceback" not in err
    replace_in(repo / "data" / BRIEF, "level: lead", "level: rumour")
    code, _, err = digest_diff(repo, "HEAD")
    assert code == 1 and "rumour" in err and "Traceback" not in err


def test_brief_text_in_the_comment_is_inert():
    from digest_plugin.authoring.diff import md

    assert (
        md("[x](javascript:alert(1)) <img src=x> @team *bold* `code`\n# h")
        == "\\[x\\](javascript:alert(1)) \\<img src=x\\> \\@team \\*bold\\* \\`code\\` \\# h"
    )


# --------------------------------------------------------------------------- what a later brief does to earlier ones

LIFECYCLE_DIR = ROOT / "tests" / "fixtures" / "lifecycle"


def section(text: str, heading: str) -> str:
    """The lines under one bold heading of the comment ('' when the heading is absent)."""
    if f"**{heading}" not in text:
        return ""
    return text.split(f"**{heading}", 1)[1].split("\n\n", 1)[0]


def test_a_brief_that_settles_earlier_ones_shows_each_change(tmp_path, digest_diff):
    """2026-10-22 E2 resolves two contradictions of 10-21, closes a follow-up and raises an item's
    evidence (tests/fixtures/lifecycle): the comment must say so, although nothing in the 10-21
    brief changed."""
    repo = committed_data(tmp_path)
    shutil.copy(LIFECYCLE_DIR / "2026-10-22-inference-E2.yml", repo / "data" / "briefs")
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    resolved = section(text, "Contradictions resolved")
    assert resolved.count("\n- ") == 2 and "2026-10-21 矛盾 1" in resolved
    assert "“+175 周增”" in section(text, "Claims released") and "“周增 +175”" in section(text, "Claims released")
    assert "找到原始 issue 与版本区间" in section(text, "Follow-ups closed")
    # lead → partially_verified (data/ and the fixture), in the vocabulary's words
    assert "线索级 → 部分核查" in section(text, "Evidence changed")
    assert section(text, "Contradictions opened") == ""
    assert section(text, "Citations renumbered") == ""


def test_superseded_carried_over_and_retracted(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    shutil.copy(LIFECYCLE_DIR / "2026-10-22-inference-E2.yml", repo / "data" / "briefs")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "day 2")
    shutil.copy(LIFECYCLE_DIR / "2026-10-23-inference-E1.yml", repo / "data" / "briefs")
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    assert "\n- " in section(text, "Contradictions superseded")
    assert "付费墙仍未解决，顺延至下一轮" in section(text, "Follow-ups carried over")
    assert "财经媒体转载的金额无法与官方公告对上" in section(text, "Entries retracted")
    assert section(text, "Follow-ups closed") == ""


def test_a_reopened_contradiction_withholds_its_claim_again(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    for name in ("2026-10-22-inference-E2.yml", "2026-10-23-inference-E1.yml"):
        shutil.copy(LIFECYCLE_DIR / name, repo / "data" / "briefs")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "days 2-3")
    shutil.copy(LIFECYCLE_DIR / "2026-10-24-inference-E1.yml", repo / "data" / "briefs")
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    assert "2026-10-21 矛盾 1" in section(text, "Contradictions re-opened")
    assert "“周增 +175”" in section(text, "Claims withheld")
    closed = section(text, "Follow-ups closed")
    assert "付费墙无法绕过，放弃" in closed and closed.count("\n- ") == 2


def test_what_a_change_removes_is_shown_too(tmp_path, digest_diff):
    """Deleting a follow-up, a citation and a contradiction from a brief still checks clean: the
    comment must say what disappears from the doc (and that a citation number would be reused)."""
    from ruamel.yaml import YAML

    repo = committed_data(tmp_path)
    path = repo / "data" / BRIEF
    yaml = YAML()
    data = yaml.load(path.read_text(encoding="utf-8"))
    follow_up, citation = data["follow_ups"][0], data["citations"][0]
    contradiction = next(c for c in data["contradictions"] if c["id"] == "recsys-paywall")
    del data["follow_ups"][0]
    del data["citations"][0]
    data["contradictions"].remove(contradiction)

    def drop_references(node) -> None:  # the lists that name the paper (touches, supported_by)
        for value in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
            if isinstance(value, list) and citation["arxiv"] in value:
                value.remove(citation["arxiv"])
            drop_references(value)

    drop_references(data)
    with path.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    code, text, err = digest_diff(repo, "HEAD")
    assert code == 0, err
    assert follow_up["text"][:10] in section(text, "⚠ Follow-ups removed")
    assert f"arXiv:{citation['arxiv']}" in section(text, "⚠ Citations removed")
    assert contradiction["title"][:6] in section(text, "⚠ Contradictions removed")


def test_diff_as_json_for_scripts_holds_what_the_markdown_says(tmp_path, capsys, monkeypatch):
    """``digest diff --format json``: the same rows, by topic and kind of change (issue 34, point 8)."""
    import json

    from helpers import run_cli

    repo = committed_data(tmp_path)
    replace_in(repo / "data" / BRIEF, "value: 155", "value: 156")
    code, text, _ = run_cli("diff", "HEAD", cwd=repo, capsys=capsys, monkeypatch=monkeypatch)
    code_json, out, err = run_cli("diff", "HEAD", "--format", "json", cwd=repo, capsys=capsys, monkeypatch=monkeypatch)
    assert code == code_json == 0, err
    found = json.loads(out)
    assert found["changed"] is True
    (row,) = found["topics"]["inference"]["Entries updated"]
    assert row.startswith("§1.1 Kapitsa") and "155 → 156" in row
    assert f"- {row}" in text  # the Markdown lists the same row
    unchanged = committed_data(tmp_path / "again")
    _, out, _ = run_cli("diff", "HEAD", "--format", "json", cwd=unchanged, capsys=capsys, monkeypatch=monkeypatch)
    assert json.loads(out) == {"changed": False, "topics": {}, "questions": []}
