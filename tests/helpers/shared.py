"""What the test processes of one run share: folders made once, and the machine's cores.

The suite runs on every core (pytest-xdist), and each worker is its own process: a module-level cache
or a session fixture is made once *per worker*, and the importer's twelve corpus nights were imported
eight times a run (about 7 s each), twice of them while collecting.  Here the controller makes one
scratch folder for the run (``start_run``, from ``conftest.pytest_configure``) and hands it to the
workers through the environment; ``made_once`` makes a named folder in it under a file lock, so the
others wait for it instead of making it again.  What is made here is read-only: a test that changes
it copies it first.  Nothing is kept between runs, so nothing stale is ever read.

Each worker is also pinned to a core of its own (``pin_workers``), and a test that needs the parallel
path gets every core back while it runs (``every_core``).
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import fcntl
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SHARED = "DIGEST_TESTS_SHARED"
"""The environment variable naming this run's shared folder (set by the controller, read by workers)."""
MADE = ".made"


def start_run() -> Path | None:
    """Make this run's shared folder unless a parent process already did; return it if this one made it."""
    if os.environ.get(SHARED):
        return None
    folder = Path(tempfile.mkdtemp(prefix="digest-tests-"))
    os.environ[SHARED] = str(folder)
    return folder


def end_run(folder: Path | None) -> None:
    """Remove the shared folder this process made (``start_run``'s answer)."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SHARED, None)


def _root() -> Path:
    if not os.environ.get(SHARED):  # run outside pytest's configure (a script importing a test module)
        folder = start_run()
        atexit.register(end_run, folder)
    return Path(os.environ[SHARED])


def made_once(name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` of this run, made by ``make(folder)`` in whichever process asks first.

    A process that finds it half-made by one that failed makes it again: ``MADE`` is written last."""
    root = _root()
    folder = root / name
    with open(root / f"{name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (folder / MADE).is_file():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                make(folder)
                (folder / MADE).touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder


def corpus_nights() -> tuple[Path, list[Any]]:
    """The twelve nights of ``tests/corpus/days/`` imported in order onto the shipped data, as an editor
    imports them (``corpus_days.run``), and how each night scored: ``(work, nights)`` with the data in
    ``work / "data"``.  Read-only; copy ``work / "data"`` before importing more or editing."""
    from corpus_days import Night, run  # a script beside the tests, found on the tests' path

    def make(folder: Path) -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            nights = run(Path(__file__).resolve().parents[2] / "data", folder)
        (folder / "nights.json").write_text(json.dumps([dataclasses.asdict(n) for n in nights]), encoding="utf-8")

    work = made_once("corpus-days", make)
    nights = [Night(**n) for n in json.loads((work / "nights.json").read_text(encoding="utf-8"))]
    return work, nights


# --------------------------------------------------------------------------- one core per worker

CPUS = "DIGEST_TESTS_CPUS"
"""The cores the run was given (set by the controller before it pins anything), for the tests that
need more than the one core their worker is pinned to."""


def pin_workers() -> None:
    """Pin each test worker to a core of its own (from ``conftest.pytest_configure``).

    The suite runs a worker per core, and each end-to-end build in it used to fork workers of its own
    (checks, pages, the leak read) for cores the other test workers were already using: about 20 s of
    a default run went to processes competing for them.  Pinned, a worker's builds run as on a
    one-core machine (the path ``taskset -c 0`` takes); the tests of the parallel path say
    ``@pytest.mark.every_core`` and get every core back for their duration (``every_core``)."""
    if not hasattr(os, "sched_setaffinity"):
        return
    if not os.environ.get(CPUS):
        os.environ[CPUS] = ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))
    worker, count = os.environ.get("PYTEST_XDIST_WORKER"), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    cpus = machine_cores()
    if worker and count > 1 and len(cpus) > 1:
        os.sched_setaffinity(0, {sorted(cpus)[int(worker.removeprefix("gw")) % len(cpus)]})


def machine_cores() -> set[int]:
    """The cores the run was given, whatever this worker is pinned to."""
    given = os.environ.get(CPUS)
    if given:
        return {int(c) for c in given.split(",")}
    return set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else {0}


@contextlib.contextmanager
def every_core() -> Iterator[None]:
    """This process (and what it starts) on every core the run was given, for the block."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    pinned = os.sched_getaffinity(0)
    os.sched_setaffinity(0, machine_cores())
    try:
        yield
    finally:
        os.sched_setaffinity(0, pinned)
