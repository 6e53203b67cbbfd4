"""The seeded kill soak (``benchmarks/kill_soak.py``, issue 33, 4) in a short run: a few random
SIGKILLs of an edit, a new brief and a build, each followed by the next run of anything, break no
guarantee (old or new brief, the whole site, nothing left).  The 100-kill run is the benchmark's;
this keeps the script working and the guarantees checked at moments no pause point names."""

from __future__ import annotations

import json
import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import kill_soak


@pytest.mark.slow
def test_random_kills_of_an_edit_a_new_brief_and_a_build_leave_nothing_and_break_nothing(tmp_path):
    out = tmp_path / "soak.json"
    code = kill_soak.main(["--rounds", "3", "--seed", "7", "--commands", "resolve,new,build", "--out", str(out)])
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert [figures[c]["broken"] for c in ("resolve", "new", "build")] == [[], [], []], figures
    assert code == 0
    assert all(figures[c]["landed_old"] + figures[c]["landed_new"] == 3 for c in ("resolve", "new", "build"))


def test_the_soak_sees_a_leftover_it_is_shown(tmp_path):
    """The checker itself can fail: a stray scratch folder or staged file is reported."""
    project, tmpdir = tmp_path / "p", tmp_path / "t"
    (project / "data" / "briefs" / ".digest-scratch-abc").mkdir(parents=True)
    (project / "data" / "briefs" / ".x.yml.abcdefgh.tmp").write_text("half")
    (project / ".site.digest-build-1").mkdir()
    tmpdir.mkdir()
    (tmpdir / "digest-worker-1").write_text("x")
    assert sorted(kill_soak.leftovers(project, tmpdir)) == [
        "$TMPDIR/digest-worker-1",
        ".site.digest-build-1",
        "data/briefs/.digest-scratch-abc",
        "data/briefs/.x.yml.abcdefgh.tmp",
    ]
