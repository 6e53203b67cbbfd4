"""Data folder → one merged living doc per topic: load, check, apply the rules, merge.

The one entry point the MkDocs plugin, the ``digest`` command and tests share, so that the
build and ``digest check`` can never disagree about what is wrong.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from .check import check_references
from .load import DataError, Finding, load_data
from .merge import LivingDoc, merge
from .model import Rules
from .rules import check_rules


@dataclass
class Result:
    """The merged docs (None when any error was found) and every finding, errors and warnings."""

    docs: dict[str, LivingDoc] | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity != "error"]


def analyse(data_dir: Path, *, rules: Rules | None = None, relative_to: Path | None = None,
            today: dt.date | None = None) -> Result:
    """Load and validate every file, check references and rules; merge only if nothing is in error."""
    rules = rules or Rules()
    try:
        dataset = load_data(data_dir, relative_to=relative_to)
    except DataError as exc:
        return Result(None, exc.findings)
    findings = check_references(dataset)
    if findings:  # rules assume references resolve
        return Result(None, sorted(findings))
    findings = sorted(check_rules(dataset, rules, today))
    if any(f.severity == "error" for f in findings):
        return Result(None, findings)
    docs = {topic: merge(dataset.outlines[topic], dataset.briefs, rules) for topic in sorted(dataset.outlines)}
    return Result(docs, findings)


def living_docs(data_dir: Path, *, rules: Rules | None = None, relative_to: Path | None = None) -> dict[str, LivingDoc]:
    """The merged living doc of every topic, keyed by topic; raise DataError on any error."""
    result = analyse(data_dir, rules=rules, relative_to=relative_to)
    if result.docs is None:
        raise DataError(result.errors)
    return result.docs
