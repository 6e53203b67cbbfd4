"""Data folder → one merged living doc per topic: load, check, apply the rules, merge.

The one entry point the MkDocs plugin, the ``digest`` command and tests share, so that the
build and ``digest check`` can never disagree about what is wrong.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import load
from .check import check_references
from .doc import LivingDoc
from .findings import DataError, Finding
from .load import Cache, Dataset, load_data
from .merge import merge
from .model import Rules
from .rules import check_rules
from .workers import Worker


@dataclass
class Result:
    """The merged docs (None when any error was found) and every finding, errors and warnings."""

    docs: dict[str, LivingDoc] | None
    findings: list[Finding] = field(default_factory=list)
    rules: Rules | None = None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != "error"]


def analyse(
    data_dir: Path,
    *,
    rules: Rules | None = None,
    relative_to: Path | None = None,
    today: dt.date | None = None,
    cache: Cache | None = None,
    previous: Result | None = None,
    cache_dir: Path | None = None,
    collect: bool = True,
) -> Result:
    """Load and validate every file, check references and rules; merge only if nothing is in error.

    With a ``cache`` kept between calls (``mkdocs serve``), only changed files are parsed, and
    when none changed the ``previous`` result is returned as it is: no data work at all.  With a
    ``cache_dir``, files parsed by an earlier build are not parsed again.  ``collect=False``: what an
    earlier load left is not collected first (a preview does it while the editor reads:
    :class:`IdleCollection`)."""
    rules = rules or Rules()
    with _no_gc(collect=collect):
        return _analyse(data_dir, rules, relative_to, today, cache, previous, cache_dir)


@contextmanager
def _no_gc(*, collect: bool = True) -> Iterator[None]:
    """Loading builds millions of small objects and no cycles; Python's cyclic collector would
    rescan them all again and again (measured: 3× slower at 3650 briefs).

    What loading made lives as long as the build, so it is then frozen out of the collector's
    sight (``gc.freeze``): else the first collection after loading walks it all once more
    (measured: 1.3 s at 3650 briefs).  A later load (a ``serve`` rebuild) unfreezes it and
    collects once, so what earlier builds left behind is freed, not kept frozen for good."""
    enabled = gc.isenabled()
    if collect and gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


IDLE_COLLECT_S = 2.0
"""How long a preview waits after a rebuild before it collects what earlier ones left."""


class IdleCollection:
    """Under ``serve``: the collection that :func:`_no_gc` makes before each load, made instead once
    the rebuild is served and the editor reads (``IDLE_COLLECT_S`` later), unless the next rebuild
    starts first.  Collecting everything again was 2.1 s of each 3,650-day rebuild, on the way
    from the editor's save to the served page."""

    def __init__(self) -> None:
        self._timer: threading.Timer | None = None

    def schedule(self) -> None:
        self.cancel()
        self._timer = threading.Timer(IDLE_COLLECT_S, _collect_all)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _collect_all() -> None:
    """What earlier builds left, collected; what lives on frozen again (see :func:`_no_gc`)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _analyse(data_dir, rules, relative_to, today, cache, previous, cache_dir) -> Result:
    try:
        dataset = load_data(data_dir, relative_to=relative_to, cache=cache, cache_dir=cache_dir)
    except DataError as exc:
        return Result(None, exc.findings, rules)
    if cache is not None and cache.reads == 0 and previous is not None and previous.docs and previous.rules == rules:
        return previous
    dataset.memo.keep_only({brief.id for brief in dataset.briefs})
    docs = None
    if len(dataset.briefs) < load.PARALLEL_FROM:
        findings = _checks(dataset, rules, today)  # then merge below, only if nothing is in error
    else:
        # Many briefs: check in a forked worker while this process merges (the two take about as
        # long).  Bad data can break the merge; then the checks say what is wrong.
        checking = Worker(_plain_checks, dataset, rules, today)
        try:
            with contextlib.suppress(Exception):
                docs = _merge(dataset, rules)
            findings = [Finding(*row) for row in checking.result()]
        finally:
            checking.close()  # even when interrupted: no worker or file left behind
    if any(f.severity == "error" for f in findings):
        return Result(None, findings, rules)
    return Result(docs if docs is not None else _merge(dataset, rules), findings, rules)


def _checks(dataset: Dataset, rules: Rules, today: dt.date | None) -> list[Finding]:
    """References first; the editorial rules only once every reference resolves (they assume it).
    A warning about references (two titles for one new section) does not stop the rules."""
    findings = check_references(dataset)
    if any(f.severity == "error" for f in findings):
        return sorted(findings)
    return sorted(findings + check_rules(dataset, rules, today))


def _plain_checks(
    dataset: Dataset, rules: Rules, today: dt.date | None
) -> list[tuple[str, int, int, str, str, str | None]]:
    """:func:`_checks` as plain data, to come back from a worker (see :mod:`workers`)."""
    return [(f.path, f.line, f.col, f.message, f.severity, f.hint) for f in _checks(dataset, rules, today)]


def _merge(dataset: Dataset, rules: Rules) -> dict[str, LivingDoc]:
    return {
        topic: merge(dataset.outlines[topic], dataset.briefs, rules, dataset.vocabulary(topic))
        for topic in sorted(dataset.outlines)
    }


def living_docs(data_dir: Path, *, rules: Rules | None = None, relative_to: Path | None = None) -> dict[str, LivingDoc]:
    """The merged living doc of every topic, keyed by topic; raise DataError on any error."""
    result = analyse(data_dir, rules=rules, relative_to=relative_to)
    if result.docs is None:
        raise DataError(result.errors)
    return result.docs
