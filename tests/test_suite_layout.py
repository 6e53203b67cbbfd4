"""The suite as a suite (issue 31): what tests share is imported from ``tests/helpers``, never from
``conftest`` (which holds only fixtures), and a shared helper is written once."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest
from helpers.shared import machine_cores

TESTS = Path(__file__).resolve().parent


def sources() -> dict[str, str]:
    return {
        p.relative_to(TESTS).as_posix(): p.read_text(encoding="utf-8")
        for p in TESTS.rglob("*.py")
        if "node_modules" not in p.parts
    }


def test_tests_import_what_they_share_from_helpers_not_conftest():
    importing = sorted(name for name, text in sources().items() if re.search(r"^\s*from conftest import", text, re.M))
    assert importing == []


def test_conftest_holds_only_fixtures():
    """Fixtures, and pytest's hooks (``pytest_configure`` …), which only a conftest or a plugin can hold."""
    tree = ast.parse((TESTS / "conftest.py").read_text(encoding="utf-8"))
    plain = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and not any("fixture" in ast.unparse(d) for d in node.decorator_list)
        and not node.name.startswith("pytest_")
    ]
    assert plain == [], f"move these to tests/helpers: {plain}"


def test_a_shared_helper_is_written_once():
    """A function or a class the suite shares is written once; ``Site`` (a built site read back, which
    two files once wrote each their own) in tests/helpers."""
    for name in ("copy_project", "open_page", "mkdocs_build", "run_cli", "Site"):
        where = [f for f, text in sources().items() if re.search(rf"^(?:def|class) {name}\b", text, re.M)]
        assert len(where) == 1, f"{name} is written in {where}"
    (site,) = [f for f, text in sources().items() if re.search(r"^class Site\b", text, re.M)]
    assert site.startswith("helpers/"), f"Site is written in {site}, not in tests/helpers"


def test_slow_checks_leave_the_default_run_and_ci_and_the_readme_run_them():
    """A check marked slow is not lost: the default `pytest` leaves it out, and both the README's test
    command and `.ci/run` run `pytest -m slow` after the default run."""
    root = TESTS.parent
    config = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r"""^addopts = ".*-m 'not slow'""", config, re.M)
    ci = [line.strip() for line in (root / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ci.index("pytest") < ci.index("pytest -m slow")
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^python3 -m venv .*&& pytest && pytest -m slow$", readme, re.M)
    marked = [name for name, text in sources().items() if "pytest.mark.slow" in text]
    assert "test_corpus_blind.py" in marked


def _pinned_run() -> bool:
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return count > 1 and len(machine_cores()) > 1 and hasattr(os, "sched_getaffinity")


def test_a_test_worker_runs_on_one_core_of_its_own():
    """Under pytest-xdist each worker is pinned to one core (helpers.shared.pin_workers), so the
    builds a test runs do not fork workers onto cores the other test workers use."""
    if not _pinned_run():
        pytest.skip("one worker or one core: nothing is pinned")
    assert len(os.sched_getaffinity(0)) == 1


@pytest.mark.every_core
def test_a_test_marked_every_core_gets_them_all():
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no CPU affinity on this system")
    assert os.sched_getaffinity(0) == machine_cores()
