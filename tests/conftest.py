"""The suite's fixtures: scratch copies of the shipped data and site, the lifecycle data and site,
built once per session where they are read-only.  What tests import lives in ``helpers``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers import LIFECYCLE, ROOT, built, copy_project
from helpers.shared import end_run, every_core, pin_workers, start_run

if TYPE_CHECKING:
    from digest_plugin.core.load import Dataset


_SHARED_KEY = pytest.StashKey[Path | None]()


def pytest_configure(config: pytest.Config) -> None:
    """The run's shared folder (``helpers.shared``), made before any worker starts, so all find it;
    each worker pinned to a core of its own."""
    config.stash[_SHARED_KEY] = start_run()
    pin_workers()


def pytest_unconfigure(config: pytest.Config) -> None:
    end_run(config.stash.get(_SHARED_KEY, None))


@pytest.fixture(autouse=True)
def _every_core_when_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """``@pytest.mark.every_core``: the test (not its module's fixtures) runs on every core."""
    if request.node.get_closest_marker("every_core") is None:
        yield
        return
    with every_core():
        yield


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A copy of data/ under tmp_path/data; edit it freely."""
    target = tmp_path / "data"
    shutil.copytree(ROOT / "data", target)
    return target


@pytest.fixture(scope="session")
def shipped() -> Dataset:
    """data/ as loaded (do not change it: it is shared by every test that asks for it)."""
    from digest_plugin.core.load import load_data

    return load_data(ROOT / "data")


@pytest.fixture(scope="session")
def lifecycle_data(tmp_path_factory) -> Path:
    """data/ plus the three lifecycle fixture briefs (read-only: copy it before editing)."""
    target = tmp_path_factory.mktemp("lifecycle-data") / "data"
    shutil.copytree(ROOT / "data", target)
    for brief in LIFECYCLE.glob("*.yml"):
        shutil.copy(brief, target / "briefs" / brief.name)
    return target


@pytest.fixture(scope="session")
def lifecycle(lifecycle_data: Path) -> Dataset:
    """The shipped data and the lifecycle briefs, loaded (read-only)."""
    from digest_plugin.core.load import load_data

    return load_data(lifecycle_data)


@pytest.fixture(scope="session")
def shipped_project(tmp_path_factory) -> Path:
    """mkdocs.yml, docs/ and data/ as shipped, built once with ``--strict`` into its ``site/``.

    Read-only: a test that changes the project or builds again copies it first."""
    root = copy_project(tmp_path_factory.mktemp("shipped") / "project")
    built(root)
    return root


@pytest.fixture(scope="session")
def lifecycle_site(tmp_path_factory) -> Path:
    """The shipped site plus the lifecycle briefs, built once for every test that reads it (read-only)."""
    return built(copy_project(tmp_path_factory.mktemp("lifecycle-site"), lifecycle=True))
