"""Import the blind corpus of twelve later nights (tests/corpus/days/) in order, as an editor would,
and compare what the importer wrote with what a careful editor wrote, field by field.

Run it as a script to see the table: ``python tests/corpus_days.py`` (``--data DIR`` to start from
another data folder).  The test (test_corpus_days.py) holds the figures it reaches.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
DAYS = ROOT / "tests" / "corpus" / "days"
UPDATE_LISTS = ("contradiction_updates", "follow_up_updates", "evidence_updates", "retractions", "back_refs")


@dataclass
class Night:
    brief: str
    matched: int = 0
    total: int = 0
    update_matched: int = 0
    update_total: int = 0
    errors: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


def leaves(value: Any, path: str = "") -> dict[str, Any]:
    """Every scalar of a YAML tree by its path (``items[1].evidence.gaps[0]``); dates as text."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(leaves(inner, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(value, list):
        out = {}
        for i, inner in enumerate(value):
            out.update(leaves(inner, f"{path}[{i}]"))
        return out
    return {path: value.isoformat() if isinstance(value, dt.date) else value}


def compare(expected: dict[str, Any], got: dict[str, Any], night: Night) -> None:
    """Count the expected leaves the import reproduced exactly; the update lists and ``back_refs``
    (the references to earlier nights, resolved) are also counted on their own."""
    want, have = leaves(expected), leaves(got)
    for path, value in want.items():
        hit = have.get(path) == value
        night.total += 1
        night.matched += hit
        if path.split("[")[0].split(".")[0] in UPDATE_LISTS:
            night.update_total += 1
            night.update_matched += hit
        if not hit:
            night.missed.append(f"{path}: want {value!r}, got {have.get(path)!r}")


def run(data: Path, work: Path) -> list[Night]:
    """Import every night in date order into a copy of ``data`` under ``work``, checking each."""
    from digest_plugin.cli import main

    shutil.copytree(data, work / "data")
    yaml = YAML(typ="safe")
    nights = []
    for markdown in sorted(DAYS.glob("2026-*.md")):
        night = Night(markdown.stem)
        cwd = Path.cwd()
        try:
            import contextlib
            import io
            import os

            os.chdir(work)
            err, said = io.StringIO(), io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(said):
                main(["import", str(markdown), "--data", "data"])  # as an editor runs it
            out = work / (said.getvalue().strip().splitlines() or ["-"])[-1]
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(["check", "data", "--config", str(work / "none.yml")])
            night.errors = [
                line for line in err.getvalue().splitlines() if f"{out.name}:" in line and ": error:" in line
            ]
            assert code in (0, 1)
        finally:
            os.chdir(cwd)
        expected = yaml.load(markdown.with_suffix(".yml").read_text(encoding="utf-8"))
        got = yaml.load(out.read_text(encoding="utf-8")) if out.is_file() else {}
        compare(expected, got or {}, night)
        nights.append(night)
    return nights


def table(nights: list[Night]) -> str:
    rows = [f"{'night':<26} {'fields':>13} {'updates':>11} {'check errors':>13}"]
    for n in nights:
        rows.append(
            f"{n.brief:<26} {n.matched:>5}/{n.total:<5} {n.update_matched:>4}/{n.update_total:<4} {len(n.errors):>13}"
        )
    m, t = sum(n.matched for n in nights), sum(n.total for n in nights)
    um, ut = sum(n.update_matched for n in nights), sum(n.update_total for n in nights)
    rows.append(
        f"{'all':<26} {m:>5}/{t:<5} {um:>4}/{ut:<4} {sum(len(n.errors) for n in nights):>13}"
        f"   ({m / t:.1%} of fields; {sum(not n.errors for n in nights)}/{len(nights)} nights check clean)"
    )
    return "\n".join(rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    parser.add_argument("--missed", action="store_true", help="list every field that did not match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = run(args.data, Path(tmp))
    print(table(result))
    for n in result:
        for e in n.errors:
            print("  ", e)
        if args.missed:
            for line in n.missed:
                print(f"   {n.brief}: {line}")
    sys.exit(0)
