"""The review and publish workflows run the same checks an editor runs locally."""

from __future__ import annotations

from conftest import ROOT
from ruamel.yaml import YAML


def load(name: str):
    return YAML(typ="safe").load((ROOT / name).read_text(encoding="utf-8"))


def commands(workflow) -> str:
    return "\n".join(step.get("run", "") for job in workflow["jobs"].values() for step in job.get("steps", []))


def test_pull_requests_are_checked_built_tested_and_commented():
    wf = load(".github/workflows/pull-request.yml")
    assert "pull_request" in wf["on"]
    run = commands(wf)
    for command in ("digest check", "mkdocs build --strict", "pytest", "digest diff", "gh pr comment"):
        assert command in run


def test_main_publishes_only_after_the_checks():
    wf = load(".github/workflows/publish.yml")
    steps = wf["jobs"]["build"]["steps"]
    runs = [s.get("run", "") or s.get("uses", "") for s in steps]
    upload = next(i for i, r in enumerate(runs) if r.startswith("actions/upload-pages-artifact"))
    for command in ("digest check", "mkdocs build --strict", "pytest"):
        assert any(command in r for r in runs[:upload]), command
    assert wf["jobs"]["deploy"]["needs"] == "build"


def test_pre_commit_hook_runs_digest_check():
    (hook,) = load(".pre-commit-hooks.yaml")
    assert hook["entry"] == "digest check" and hook["pass_filenames"] is False
