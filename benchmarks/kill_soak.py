"""Kill builds and editing commands at random moments, many times; then check nothing is left behind.

    python benchmarks/kill_soak.py [--rounds 100] [--seed 1] [--commands build,resolve,…] [--out FILE.json]

What issue 33 (4) asks a killed run to guarantee, tried the way the audit tried it: no plan of the
code, a SIGKILL after a random delay (seeded, so a failure can be replayed with the same seed).

For each command, on a copy of the shipped project (``mkdocs.yml``, ``docs/``, ``data/`` and
tomorrow's empty brief) with a private temporary folder (``TMPDIR``):

* the command is run once to the end, timed, and its result kept (the brief it writes, or the site);
* then, ``--rounds`` times: the command is started, killed after a delay drawn uniformly from zero to
  1.2 × that time, and the project is read at once:

  - an edit's brief is byte for byte the old one or the finished one (never partial or empty); a
    new brief (``new``, ``import``) is absent or whole;
  - ``site/`` is byte for byte the finished site (the data does not change, and the build is
    deterministic): never half old, half new, never missing;

* then the next run of anything (``digest check``) and, for builds, the next build, and nothing may
  be left: no ``*.tmp`` or ``.digest-scratch-*`` in the data folder, no ``.site.digest-*`` beside
  the site, nothing in the temporary folder.

It prints a table and writes the figures as JSON (exit 1 if any round broke a guarantee).  Counts,
not timings: the machine matters only for how the random moments fall.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = ROOT / "tests" / "fixtures" / "2026-10-21-inference-E1.md"
NEW = "data/briefs/2026-10-22-inference-E1.yml"
COMMANDS: dict[str, tuple[list[str], str]] = {
    "build": (["-m", "mkdocs", "build", "--strict"], "site"),
    "new": (
        ["-m", "digest_plugin.cli", "new", "--topic", "inference", "--date", "2026-10-23", "--round", "E1"],
        "data/briefs/2026-10-23-inference-E1.yml",
    ),
    "import": (
        ["-m", "digest_plugin.cli", "import", str(MARKDOWN), "-o", "data/briefs/imported.yml"],
        "data/briefs/imported.yml",
    ),
    "resolve": (["-m", "digest_plugin.cli", "resolve", NEW, "kapitsa-weekly-gain", "--text", "已修正"], NEW),
    "close-follow-up": (
        ["-m", "digest_plugin.cli", "close-follow-up", NEW, "vllm-long-prefill-issue", "--note", "找到"],
        NEW,
    ),
    "set-evidence": (
        [
            "-m",
            "digest_plugin.cli",
            "set-evidence",
            NEW,
            "vllm-long-prefill-freeze",
            "--level",
            "partially_verified",
            "--boundary",
            "已回溯",
        ],
        NEW,
    ),
    "cite": (["-m", "digest_plugin.cli", "cite", NEW, "2309.06180", "--title", "PagedAttention"], NEW),
}
"""Each command, and what it writes (relative to the project)."""


def tree_digest(folder: Path) -> str:
    """One digest of every file under ``folder`` (paths and bytes)."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def state(path: Path) -> str | None:
    """What a reader finds at ``path``: a digest of the file or folder, or None when absent."""
    if path.is_dir():
        return tree_digest(path)
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def leftovers(project: Path, tmpdir: Path) -> list[str]:
    """Whatever a killed run may leave: staged files and scratch folders in data/, build folders
    beside the site, anything in the private temporary folder."""
    found = [
        p.relative_to(project).as_posix()
        for p in (project / "data").rglob("*")
        if p.name.endswith(".tmp") or p.name.startswith(".digest-scratch-")
    ]
    found += [p.name for p in project.iterdir() if p.name.startswith(".site.digest-")]
    return found + [f"$TMPDIR/{p.name}" for p in tmpdir.iterdir()]


class Project:
    """A copy of the shipped project with tomorrow's empty brief, and a private temporary folder."""

    def __init__(self, where: Path, checkout: Path = ROOT) -> None:
        self.root = where / "project"
        self.tmpdir = where / "tmp"
        self.tmpdir.mkdir(parents=True)
        self.root.mkdir()
        for name in ("mkdocs.yml", "docs", "data", "overrides"):
            src = checkout / name
            (shutil.copytree if src.is_dir() else shutil.copy)(src, self.root / name)
        self.env = {
            **{k: v for k, v in os.environ.items() if k != "DIGEST_TEST_PAUSE"},
            "PYTHONPATH": str(checkout),  # the checkout's package runs, whatever is installed
            "TMPDIR": str(self.tmpdir),
            "PYTHONDONTWRITEBYTECODE": "1",
            "NO_MKDOCS_2_WARNING": "1",
        }
        made = self.run(
            "-m", "digest_plugin.cli", "new", "--topic", "inference", "--date", "2026-10-22", "--round", "E1"
        )
        if made != 0:
            raise SystemExit("digest new failed: the checkout cannot make tomorrow's brief")

    def start(self, command: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, *COMMANDS[command][0]],
            cwd=self.root,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def run(self, *args: str) -> int:
        done = subprocess.run([sys.executable, *args], cwd=self.root, env=self.env, capture_output=True, timeout=900)
        return done.returncode


def soak(command: str, rounds: int, rng: random.Random, where: Path, checkout: Path = ROOT) -> dict[str, Any]:
    """``rounds`` random kills of ``command``; the counts of what was found."""
    project = Project(where / command, checkout)
    target = project.root / COMMANDS[command][1]
    before_bytes = target.read_bytes() if target.is_file() else None
    before = state(target)
    started = time.monotonic()
    finished = project.start(command)
    if finished.wait(timeout=900) != 0:
        raise SystemExit(f"{command}: the command itself fails; nothing to soak")
    took = time.monotonic() - started
    after = state(target)
    if command == "build":
        before = after  # the site a reader has from now on: every kill must leave exactly it
    counts: dict[str, Any] = {
        "rounds": rounds,
        "seconds_to_finish": round(took, 2),
        "landed_old": 0,
        "landed_new": 0,
        "stray_right_after_kill": 0,
        "broken": [],
    }
    for n in range(rounds):
        if command != "build":  # every round starts from the old brief (or none)
            if before_bytes is None:
                target.unlink(missing_ok=True)
            else:
                target.write_bytes(before_bytes)
        delay = rng.uniform(0.0, 1.2 * took)
        proc = project.start(command)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        found = state(target)
        ok = found in (before, after)  # for a build both are the whole site
        counts["landed_new" if found == after and found != before else "landed_old"] += 1
        if not ok:
            counts["broken"].append(f"round {n} (delay {delay:.3f} s): {COMMANDS[command][1]} is neither old nor new")
        if leftovers(project.root, project.tmpdir):
            counts["stray_right_after_kill"] += 1
        project.run("-m", "digest_plugin.cli", "check", "data", "--config", "none")  # the next run of anything
        if command == "build":
            project.run(*COMMANDS["build"][0])
        stray = leftovers(project.root, project.tmpdir)
        if stray:
            counts["broken"].append(f"round {n} (delay {delay:.3f} s): left after the next run: {stray}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="a clone at any revision: its package and project are soaked"
    )
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated, of: " + ", ".join(COMMANDS))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    figures: dict[str, Any] = {"seed": args.seed}
    with tempfile.TemporaryDirectory(prefix="kill-soak-") as where:
        for command in args.commands.split(","):
            figures[command] = soak(command, args.rounds, rng, Path(where), args.checkout.resolve())
            row = figures[command]
            print(
                f"{command:16} {row['rounds']:4} kills  {row['landed_old']:4} old  {row['landed_new']:4} new  "
                f"{row['stray_right_after_kill']:4} stray until the next run  {len(row['broken']):3} broken",
                flush=True,
            )
            for line in row["broken"][:5]:
                print("   ", line)
    if args.out:
        args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 1 if any(isinstance(v, dict) and v["broken"] for v in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
