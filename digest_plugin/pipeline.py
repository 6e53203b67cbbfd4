"""Data folder → one merged living doc per topic: load, check, merge.

The one entry point the MkDocs plugin, the ``digest`` command and tests share, so that the
build and ``digest check`` can never disagree about what is wrong.
"""

from __future__ import annotations

from pathlib import Path

from .check import check_references
from .load import DataError, Dataset, load_data
from .merge import LivingDoc, merge


def load_checked(data_dir: Path, *, relative_to: Path | None = None) -> Dataset:
    """Load and validate every file, then check references across them; raise DataError on any finding."""
    dataset = load_data(data_dir, relative_to=relative_to)
    findings = check_references(dataset)
    if findings:
        raise DataError(findings)
    return dataset


def living_docs(data_dir: Path, *, relative_to: Path | None = None) -> dict[str, LivingDoc]:
    """The merged living doc of every topic that has an outline, keyed by topic, in topic order."""
    dataset = load_checked(data_dir, relative_to=relative_to)
    return {topic: merge(dataset.outlines[topic], dataset.briefs) for topic in sorted(dataset.outlines)}
