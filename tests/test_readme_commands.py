"""Every ``digest`` command the README shows in its shell blocks, run as written (issue 34, point 12):
the editor's path ("Add a day's brief": import, check, review) and the hand-written one (new,
resolve, close-follow-up, set-evidence, cite), each in a fresh copy of the project, with the data the
README's text says is there.  ``digest serve`` (a server) is run by ``tests/test_serve.py``; the two
set-up commands are what ``.ci/run`` itself runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, copy_project
from helpers.shared import corpus_nights

README = ROOT / "README.md"
DAYS = ROOT / "tests" / "corpus" / "days"
UNSEEN = ROOT / "tests" / "corpus" / "unseen"


def readme_commands() -> list[str]:
    """The ``digest …`` commands of the README's ``sh`` blocks, continuation lines joined, comments
    and ``&& …`` chains split off."""
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    commands = []
    for block in blocks:
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            for part in (p.strip() for p in line.split("&&")):
                if part.startswith("digest "):
                    commands.append(part)
    return commands


def run(command: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_MKDOCS_2_WARNING": "1",
    }
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )


def by_name(*names: str) -> list[str]:
    found = [c for c in readme_commands() if c.split()[1] in names]
    assert found, f"the README shows no digest {' / '.join(names)}"
    return found


def test_the_readme_shows_every_editing_command():
    shown = {c.split()[1] for c in readme_commands()}
    assert {"import", "check", "serve", "review", "new", "resolve", "close-follow-up", "set-evidence", "cite"} <= shown


def test_adding_a_days_brief_as_the_readme_shows(tmp_path):
    """The night the README names is in ``~/briefs/``; import, then check, as written."""
    root, home = copy_project(tmp_path / "project"), tmp_path / "home"
    (home / "briefs").mkdir(parents=True)
    shutil.copy(DAYS / "2026-10-22-inference-E2.md", home / "briefs")
    (imported,) = by_name("import")
    done = run(imported, root, home)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (root / "data" / "briefs" / "2026-10-22-inference-E2.yml").is_file()
    for command in (c for c in by_name("check") if "serve" not in c):
        done = run(command, root, home)
        assert "error:" not in done.stderr, done.stderr[-2000:]


@pytest.fixture(scope="module")
def through_11_04(tmp_path_factory) -> tuple[Path, Path]:
    """The project after the nights up to 11-04 are imported: the README's review example is on 11-04.

    The twelve nights of ``tests/corpus/days/`` come imported (``helpers.shared``: the README's import
    command is run by ``test_adding_a_days_brief_as_the_readme_shows``); the two after them are
    imported here with the README's command."""
    root, home = copy_project(tmp_path_factory.mktemp("review") / "project"), tmp_path_factory.mktemp("home")
    shutil.rmtree(root / "data")
    shutil.copytree(corpus_nights()[0] / "data", root / "data")
    for night in sorted(UNSEEN.glob("2026-*.md")):
        done = run(f"digest import {night}", root, home)
        assert done.returncode == 0, (night.name, done.stderr[-1000:])
    return root, home


def test_the_review_commands_as_the_readme_shows(through_11_04):
    root, home = through_11_04
    for command in by_name("review"):
        done = run(command, root, home)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        if command.strip() == "digest review":  # at a terminal it asks; with none it lists, as --list does
            assert "answer: digest review --answer" in done.stdout, done.stdout[-1000:]
        if "--answer" in command:
            assert (
                "2026-11-04-e1-q1"
                not in (root / "data" / "briefs" / "2026-11-04-inference-E1.yml")
                .read_text(encoding="utf-8")
                .split("questions:")[-1]
            )


def test_writing_the_yaml_by_hand_as_the_readme_shows(tmp_path):
    root, home = copy_project(tmp_path / "project"), tmp_path / "home"
    home.mkdir()
    for command in by_name("new", "resolve", "close-follow-up", "set-evidence", "cite"):
        done = run(command, root, home)
        assert done.returncode == 0, (command, done.stderr[-2000:])
    done = run("digest check", root, home)
    assert "error:" not in done.stderr, done.stderr[-2000:]


def test_the_readme_reads_in_five_minutes_and_every_link_lands():
    """Issue 31: about 250 lines — what it is, a section page, the two commands, tonight's brief,
    a pull request's review, configuration, hosts and the three short tables; the rest is linked
    (EDITORS.md, DEVELOPING.md, benchmarks/README.md), and every link and image is there."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260
    for heading in ("## Two commands", "## Add tonight's brief", "## Review a pull request", "## Configuration"):
        assert heading in text
    assert [t for t in ("**Build time**", "**Memory**", "**Search**") if t in text] == [
        "**Build time**",
        "**Memory**",
        "**Search**",
    ]
    for doc in (README, ROOT / "EDITORS.md", ROOT / "DEVELOPING.md", ROOT / "benchmarks" / "README.md"):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if not target.startswith(("http://", "https://")):
                assert (doc.parent / target).exists(), f"{doc.name}: {target} is not there"
