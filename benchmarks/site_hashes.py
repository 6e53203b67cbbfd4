"""Hashes of three built sites, to show a restructuring changed no byte of what is published.

    python benchmarks/site_hashes.py --save before.json      # before a structural step
    python benchmarks/site_hashes.py --compare before.json   # after it: exit 1 and the files that differ

The three sites (issue 31): the shipped project (``data/`` as it is), the corpus site (the twelve
nights of ``tests/corpus/days/`` imported on top of it, as ``tests/test_corpus_site.py`` builds it)
and a 90-day synthetic site (``benchmarks/synth.py``).  Each is built by ``mkdocs build --strict``
in a folder of its own; a site's hash is the SHA-256 of its files' paths and contents in path
order, and every file's own hash is kept so a comparison names what changed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from helpers import copy_project, mkdocs_build  # noqa: E402 - the suite's own copy and build


def _project(at: Path, data: Path | None = None) -> Path:
    """A copy of the project at ``at`` (``data``: its data folder replaced)."""
    copy_project(at)
    if data is not None:
        shutil.rmtree(at / "data")
        shutil.copytree(data, at / "data")
    return at


def _build(project: Path) -> Path:
    done = mkdocs_build(project)
    if done.returncode != 0:
        raise SystemExit(f"{project}: the build failed\n{done.stderr[-3000:]}")
    return project / "site"


def _corpus_data(work: Path) -> Path:
    from corpus_days import run  # the test suite's own import of the twelve nights

    with contextlib.redirect_stdout(io.StringIO()):
        run(ROOT / "data", work)
    return work / "data"


def _synthetic_project(work: Path, days: int) -> Path:
    out = work / f"synth-{days}"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "synth.py"), "--days", str(days), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from build import plugin_site  # the benchmark's own project: its nights run past today

    return plugin_site(out, work, "synthetic")


def file_hashes(site: Path) -> dict[str, str]:
    return {
        path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def site_hash(files: dict[str, str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(f"{name}\0{files[name]}\n".encode())
    return digest.hexdigest()


def measure(days: int = 90) -> dict[str, dict]:
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="site-hashes-") as tmp:
        work = Path(tmp)
        projects = {
            "shipped": _project(work / "shipped"),
            "corpus": _project(work / "corpus", _corpus_data(work / "corpus-import")),
            f"synthetic-{days}": _synthetic_project(work, days),
        }
        for name, project in projects.items():
            files = file_hashes(_build(project))
            out[name] = {"hash": site_hash(files), "files": files}
    return out


def differences(before: dict[str, dict], after: dict[str, dict]) -> list[str]:
    found = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, {}).get("files", {}), after.get(name, {}).get("files", {})
        for path in sorted(set(old) | set(new)):
            if old.get(path) != new.get(path):
                state = "added" if path not in old else "removed" if path not in new else "changed"
                found.append(f"{name}: {path} {state}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write the hashes to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare with hashes saved before; exit 1 on a difference")
    parser.add_argument("--days", type=int, default=90)
    args = parser.parse_args()
    now = measure(args.days)
    for name, site in now.items():
        print(f"{name:14} {site['hash']}  ({len(site['files'])} files)")
    if args.save:
        args.save.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if args.compare:
        changed = differences(json.loads(args.compare.read_text(encoding="utf-8")), now)
        for line in changed[:50]:
            print(line)
        print(f"{len(changed)} files differ" if changed else "byte-identical")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
