"""Previews in seconds (issue 16, part 2): under ``digest serve`` (a dirty ``mkdocs serve``) a rebuild
converts only the pages whose content changed, and the folder it serves is the clean build's.

The data is the real brief and the twelve later nights of ``tests/corpus/days`` (imported as an
editor would), so edits reach back: an early item's level, a contradiction the later nights settle,
a follow-up a later night closes.  Each rebuild runs in one long-lived process the way ``mkdocs
serve`` runs it (``tests/preview_session.py``); after every edit, the folder it left is compared
file by file, byte for byte, with a clean build of the same files in a fresh process.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import ROOT, built_on_one_core_and_on_two, copy_project
from helpers.shared import corpus_nights, machine_cores

SESSION = Path(__file__).with_name("preview_session.py")
ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1")
BRIEFS = "data/briefs"
FIRST = f"{BRIEFS}/2026-10-21-inference-E1.yml"
LATEST = f"{BRIEFS}/2026-11-02-inference-E1.yml"
BANNER = 'class="digest-serve-errors"'


class Session:
    """A preview session (one process, rebuilt on demand), and a clean build to compare it with."""

    def __init__(self, project: Path, site: Path, log: Path):
        self.project, self.site, self.log = project, site, log
        self._log = log.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, str(SESSION), str(project), str(site)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env=ENV,
        )

    def build(self) -> list[str]:
        """Rebuild; the files this rebuild wrote."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("build\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"the preview session died:\n{self.log.read_text(encoding='utf-8')[-3000:]}"
        written: list[str] = json.loads(line)["written"]
        return written

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self._log.close()


def clean_build(project: Path, site: Path) -> Path:
    """The same project built from scratch, as plain ``mkdocs serve`` builds it (nothing reused)."""
    shutil.rmtree(site, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, str(SESSION), str(project), str(site), "--clean"],
        input="build\n",
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return site


def differences(served: Path, clean: Path) -> list[str]:
    """Files only in one folder, or with different bytes."""
    mine = {p.relative_to(served).as_posix() for p in served.rglob("*") if p.is_file()}
    theirs = {p.relative_to(clean).as_posix() for p in clean.rglob("*") if p.is_file()}
    found = [f"only in the preview: {f}" for f in sorted(mine - theirs)]
    found += [f"missing from the preview: {f}" for f in sorted(theirs - mine)]
    found += [f for f in sorted(mine & theirs) if (served / f).read_bytes() != (clean / f).read_bytes()]
    return found


@pytest.fixture(scope="module")
def corpus_project(tmp_path_factory) -> Path:
    """mkdocs.yml, docs/, overrides/ and the real brief with the twelve later nights imported."""
    project = copy_project(tmp_path_factory.mktemp("preview-corpus") / "project")
    shutil.rmtree(project / "data")
    shutil.copytree(corpus_nights()[0] / "data", project / "data")
    return project


def _session(corpus_project: Path, folder: Path) -> Iterator[Session]:
    project = folder / "project"
    shutil.copytree(corpus_project, project)
    preview = Session(project, folder / "served", folder / "serve.log")
    preview.build()
    yield preview
    preview.close()


@pytest.fixture
def session(corpus_project: Path, tmp_path: Path) -> Iterator[Session]:
    """A fresh preview session of the corpus project."""
    yield from _session(corpus_project, tmp_path)


@pytest.fixture(scope="module")
def editing(corpus_project: Path, tmp_path_factory) -> Iterator[Session]:
    """One preview session that every edit of ``EDITS`` is made in, one after the other, as an editor
    working through an evening makes them: each edit is checked against a clean build of everything
    edited so far (a session started afresh for each edit cost 2.5 s apiece and tested less)."""
    yield from _session(corpus_project, tmp_path_factory.mktemp("editing"))


def replace(project: Path, path: str, old: str, new: str) -> None:
    file = project / path
    text = file.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} is not in {path}"
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(project: Path, path: str, text: str) -> None:
    file = project / path
    file.write_text(file.read_text(encoding="utf-8").rstrip("\n") + "\n" + text, encoding="utf-8")


ERRATUM = """errata:
  - brief: "2026-10-21-inference-E1"
    item: llm-d-1-0
    old: "500+ 贡献者"
    new: "550+ 贡献者"
    text: "复核发布页时数错了。"
"""
"""A later brief corrects the first one: the first brief's page (which the edit does not touch) says so."""
RESHAPED = """section_renames:
  - section: "3.1"
    title: "调度算法、JIL 攻击与分块调参"
    text: "改名，编号不动。"
moves:
  - entry: inferact-funding
    to: "5.2"
    text: "挪到成本一节。"
"""


EVIDENCE_UPDATE = """evidence_updates:
  - item: modelexpress-weight-transfer
    note: "复核了部署文档与源码。"
    evidence:
      level: verified
      source_kinds: [project_docs]
      boundary: "部署文档与源码均已读，传输路径已在源码中核实。"
"""
"""Tonight raises the level of an item of the first brief that the first brief's contradiction 2 names."""


def first_title(project: Path, path: str) -> str:
    match = re.search(r'^    title: "(.+)"$', (project / path).read_text(encoding="utf-8"), re.M)
    assert match, f"no item title in {path}"
    return match.group(1)


Edit = Callable[[Path], None]

EDITS: list[tuple[str, Edit]] = [
    ("an item's title in tonight's brief", lambda p: replace(p, LATEST, t := first_title(p, LATEST), f"{t} 〔改〕")),
    ("an early item's evidence level", lambda p: replace(p, FIRST, "level: partially_verified", "level: verified")),
    (
        "the text of a contradiction later nights settle",
        lambda p: replace(p, FIRST, "总 Stars 155，但「周增 +175」", "总 Stars 155（已复核），但「周增 +175」"),
    ),
    (
        "a follow-up a later night closed",
        lambda p: replace(p, f"{BRIEFS}/2026-10-22-inference-E2.yml", "status: done", "status: dropped"),
    ),
    (
        "a new withheld spelling",
        lambda p: replace(p, FIRST, '          - "周增 +175"', '          - "周增 +175"\n          - "experimental"'),
    ),
    (
        # The entry's current level changes and no item does: the first brief's callout names the item
        # with its entry's level tag, and must not keep the stale one (issue 33, 6: the mutation leaving
        # current evidence out of an entry's link face survived the suite).
        "a later night's evidence update of an item an earlier callout names",
        lambda p: append(p, LATEST, EVIDENCE_UPDATE),
    ),
    ("a hand-written page", lambda p: replace(p, "docs/inference/index.md", "\n", "\n\n本页由编辑手写。\n")),
    ("an erratum of an earlier brief", lambda p: append(p, LATEST, ERRATUM)),
    ("a section renamed and an entry moved", lambda p: append(p, LATEST, RESHAPED)),
]


@pytest.mark.parametrize("name,edit", EDITS, ids=[name for name, _ in EDITS])
def test_after_an_edit_the_preview_serves_what_a_clean_build_makes(editing, tmp_path, name, edit):
    edit(editing.project)
    editing.build()
    clean = clean_build(editing.project, tmp_path / "clean")
    assert differences(editing.site, clean) == [], f"after editing {name}"


def test_a_preview_converts_only_the_pages_whose_content_changed(session, tmp_path):
    before = {p.relative_to(session.site).as_posix(): p.read_bytes() for p in session.site.rglob("*.html")}
    title = first_title(session.project, LATEST)
    replace(session.project, LATEST, title, f"{title} 〔改〕")
    written = {f for f in session.build() if f.endswith(".html")}
    after = {p.relative_to(session.site).as_posix(): p.read_bytes() for p in session.site.rglob("*.html")}
    changed = {f for f in after if before.get(f) != after[f]}
    hand_written = {"index.html", *(f"inference/{n}/index.html" for n in ("", "1", "2", "3", "4", "5", "6"))}
    hand_written = {f.replace("//", "/") for f in hand_written} | {"404.html"}
    assert "inference/briefs/2026-11-02-inference-E1/index.html" in changed
    # Every page it wrote changed, but for the hand-written ones (macros may show data) and the 404.
    assert written - hand_written == changed - hand_written
    generated = set(after) - hand_written
    assert len(written - hand_written) <= len(generated) / 4, f"{sorted(written)} written for one title"
    assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == []


def test_a_rebuild_with_nothing_changed_converts_no_generated_page(session):
    written = session.build()
    pages = [f for f in written if f.endswith(".html") and "/briefs/" in f]
    assert pages == []
    assert "preview converts 0 of" in session.log.read_text(encoding="utf-8")


def test_a_deleted_brief_leaves_the_preview_and_comes_back(session, tmp_path):
    latest = session.project / LATEST
    text = latest.read_text(encoding="utf-8")
    latest.unlink()
    session.build()
    assert not (session.site / "inference/briefs/2026-11-02-inference-E1/index.html").exists()
    assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == []
    latest.write_text(text, encoding="utf-8")
    session.build()
    assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == []


def test_a_broken_brief_puts_the_banner_on_every_page_and_fixing_it_takes_it_off(session, tmp_path):
    good = (session.project / FIRST).read_text(encoding="utf-8")
    replace(session.project, FIRST, "level: partially_verified", "level: half_verified")
    session.build()
    # the 404 is a theme template, not a page; a night's permalink sends the reader on to its page at once
    pages = sorted(
        p
        for p in session.site.rglob("*.html")
        if p.name != "404.html" and not re.fullmatch(r"\d{4}-\d\d-\d\d", p.parent.name)
    )
    without = [p for p in pages if BANNER not in p.read_text(encoding="utf-8")]
    assert without == [], f"{len(without)} of {len(pages)} pages have no banner"
    (session.project / FIRST).write_text(good, encoding="utf-8")
    session.build()
    assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == []


def test_with_materials_search_a_preview_converts_every_page(corpus_project, tmp_path):
    """Material's search indexes only the pages a build converts: a preview that skipped pages would
    serve an index without them, so with that search on every page is converted."""
    project = tmp_path / "project"
    shutil.copytree(corpus_project, project)
    replace(project, "mkdocs.yml", "  - search:\n      enabled: false\n", "  - search:\n      lang: zh\n")
    replace(project, "mkdocs.yml", "      search: pagefind\n", "      search: material\n")
    preview = Session(project, tmp_path / "served", tmp_path / "serve.log")
    try:
        preview.build()
        replace(project, LATEST, t := first_title(project, LATEST), f"{t} 〔改〕")
        preview.build()
        index = json.loads((preview.site / "search" / "search_index.json").read_text(encoding="utf-8"))
        locations = {doc["location"].split("#")[0] for doc in index["docs"]}
        assert "inference/briefs/2026-10-21-inference-E1/" in locations  # a page the edit did not touch
        assert "preview converts" in preview.log.read_text(encoding="utf-8")
        assert "rendered to compare" not in preview.log.read_text(encoding="utf-8")
    finally:
        preview.close()


@pytest.fixture(scope="module")
def unseen_nights(corpus_project, tmp_path_factory) -> Path:
    """The two nights written blind (tests/corpus/unseen), imported on top of the twelve as an editor
    would: a data folder holding their YAML and the vocabulary the importer grew."""
    from digest_plugin.cli import main

    work = tmp_path_factory.mktemp("unseen-nights")
    shutil.copytree(corpus_project / "data", work / "data")
    cwd = os.getcwd()
    os.chdir(work)
    try:
        for night in sorted((ROOT / "tests" / "corpus" / "unseen").glob("2026-*.md")):
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
                assert main(["import", str(night), "--data", "data"]) == 0, night
    finally:
        os.chdir(cwd)
    return work / "data"


def test_the_next_nights_nobody_here_wrote_arrive_and_are_edited_under_the_preview(session, unseen_nights, tmp_path):
    """Tonight's brief arrives (with the words it brings), then tomorrow's, which refers back and
    corrects; then an edit to it: after each, the preview is the clean build."""
    briefs = session.project / BRIEFS
    shutil.copy2(unseen_nights / "vocabulary.yml", session.project / "data" / "vocabulary.yml")
    for name in ("2026-11-03-inference-E1.yml", "2026-11-04-inference-E1.yml"):
        shutil.copy2(unseen_nights / "briefs" / name, briefs / name)
        session.build()
        assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == [], name
    night = f"{BRIEFS}/2026-11-04-inference-E1.yml"
    replace(session.project, night, t := first_title(session.project, night), f"{t} 〔改〕")
    written = session.build()
    assert "inference/briefs/2026-11-04-inference-E1/index.html" in written
    assert differences(session.site, clean_build(session.project, tmp_path / "clean")) == []


@pytest.mark.every_core
@pytest.mark.skipif(
    len(machine_cores()) < 2 or not hasattr(os, "sched_setaffinity"), reason="needs two cores to compare"
)
def test_the_nights_nobody_here_wrote_build_the_same_on_one_core_and_on_two(corpus_project, unseen_nights, tmp_path):
    """A one-off build renders pages and reads them for withheld claims in second processes: with
    the blind nights (their new words, their corrections of earlier nights) the site is the same."""
    project = tmp_path / "project"
    shutil.copytree(corpus_project, project)
    shutil.rmtree(project / "data")
    shutil.copytree(unseen_nights, project / "data")
    one, two, _ = built_on_one_core_and_on_two(project, tmp_path)
    assert (two / "inference" / "briefs" / "2026-11-04-inference-E1" / "index.html").is_file()
    assert differences(two, one) == []
