"""`digest diff BASE_REF`: a pull-request comment saying what the change does to the living doc."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import BRIEF, ROOT, replace_in, run_cli


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


def test_diff_of_adding_the_first_brief(tmp_path, digest_diff):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "data", repo / "data")
    brief = repo / "data" / BRIEF
    saved = brief.read_bytes()
    brief.unlink()
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "outline only")
    brief.write_bytes(saved)

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


def test_diff_of_an_edit_and_of_no_change(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    assert "No change to the living doc." in digest_diff(repo, "HEAD")[1]
    replace_in(repo / "data" / BRIEF, "value: 155", "value: 156")
    code, text, _ = digest_diff(repo, "HEAD")
    assert code == 0
    assert "**Entries updated**\n- §1.1 Kapitsa" in text
    assert "Entries added" not in text and "Contradictions opened" not in text


def test_diff_refuses_broken_data_and_unknown_refs(tmp_path, digest_diff):
    repo = committed_data(tmp_path)
    code, _, err = digest_diff(repo, "no-such-ref")
    assert code != 0 and "unknown git ref 'no-such-ref'" in err and "Traceback" not in err
    replace_in(repo / "data" / BRIEF, "level: lead", "level: rumour")
    code, _, err = digest_diff(repo, "HEAD")
    assert code == 1 and "rumour" in err and "Traceback" not in err


def test_brief_text_in_the_comment_is_inert():
    from digest_plugin.diff import md

    assert (
        md("[x](javascript:alert(1)) <img src=x> @team *bold* `code`\n# h")
        == "\\[x\\](javascript:alert(1)) \\<img src=x\\> \\@team \\*bold\\* \\`code\\` \\# h"
    )
