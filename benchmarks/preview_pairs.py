"""Edit → served under ``digest serve``: this checkout against an earlier revision, in one run.

The preview's absolute time moves with the machine's mood from one day to the next, so the figure
worth quoting is a ratio against a baseline measured beside it.  This script serves the same
synthetic data with this checkout and with ``--baseline REV`` (its package from ``git archive``,
put first on ``PYTHONPATH``), one after the other, ``--rounds`` times each, and saves the last brief
``--edits`` times in each: the time from the save to the served brief index showing the edit.

    python benchmarks/preview_pairs.py --days 365 --baseline 97949ce --rounds 2 --edits 8

It prints every time, then the medians, their ratio and the machine, as JSON on the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build
from synth import generate

SERVED = "inference/briefs/"
MARK = 'title: "inference'


def serve_times(site: Path, code: Path | None, edits: int, pause: float) -> list[float]:
    """Seconds from each save of the last brief to the served brief index showing it."""
    env = dict(build.ENV)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    else:
        env.pop("PYTHONPATH", None)
    port = build.free_port()
    log = (site / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "digest_plugin.cli", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=site,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    url = f"http://127.0.0.1:{port}/{SERVED}"
    brief = sorted((site / "data" / "briefs").glob("*.yml"))[-1]
    text = brief.read_text(encoding="utf-8")
    try:
        build._wait_for(url, lambda body: True, timeout=1800)
        _wait_for_index(site / "serve.log", timeout=600)  # the first edit is not made while the index is written
        times = []
        for n in range(edits):
            marker = f"PREVIEW-PAIR-{n}-{time.time_ns()}"
            start = time.perf_counter()
            brief.write_text(text.replace(MARK, MARK + marker, 1), encoding="utf-8")
            build._wait_for(url, build._containing(marker), timeout=600)
            times.append(round(time.perf_counter() - start, 3))
            time.sleep(pause)
        return times
    finally:
        brief.write_text(text, encoding="utf-8")
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _wait_for_index(log: Path, timeout: float) -> None:
    """Until the preview says its search index is ready (the shipped site's search is Pagefind's)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if "search index is ready" in log.read_text(encoding="utf-8", errors="replace"):
            return
        time.sleep(0.2)
    raise SystemExit(f"the preview's search index was never ready: see {log}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, required=True)
    parser.add_argument("--baseline", required=True, help="the revision to compare with (e.g. 97949ce)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between edits (the editor reads)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="digest-preview-") as tmp:
        work = Path(tmp)
        data = generate(args.days, work / "data")
        ours = build.plugin_site(data, work, name="now")
        theirs, code = build.baseline_site(args.baseline, data, work)
        times: dict[str, list[float]] = {"now": [], "baseline": []}
        for _ in range(args.rounds):
            for name, site, root in (("now", ours, None), ("baseline", theirs, code)):
                shutil.rmtree(site / "site", ignore_errors=True)
                got = serve_times(site, root, args.edits, args.pause)
                print(name, got, flush=True)
                times[name] += got
        now, base = statistics.median(times["now"]), statistics.median(times["baseline"])
        figures = {
            "days": args.days,
            "baseline": args.baseline,
            "now_median_s": now,
            "baseline_median_s": base,
            "ratio": round(now / base, 3),
            "now_range_s": [min(times["now"]), max(times["now"])],
            "baseline_range_s": [min(times["baseline"]), max(times["baseline"])],
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        }
        print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
