"""Shared helpers: a scratch copy of the shipped data that a test may break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BRIEF = "briefs/2026-10-21-inference-E1.yml"


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A copy of data/ under tmp_path/data; edit it freely."""
    target = tmp_path / "data"
    shutil.copytree(ROOT / "data", target)
    return target


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line containing needle."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")
