"""What listing every night's changes costs (issue 32), against one merge of the same data.

    python benchmarks/nights.py --days 3650 --data /tmp/render-data [--pairs 3]

A changes page per night needs, for each night D, what the past view of D differs by from the view of
the night before.  Two merges per night would do (``digest diff --from --to`` does that for one
pair), but at ten years that is thousands of merges of thousands of briefs.  ``core.nights`` runs the
merge once and freezes, after each night, only what the night touched.  This script times, on the
synthetic data ``render.py`` makes, in alternating pairs within one run:

* ``merge``: one merge of every brief (what a build does already), the baseline;
* ``nights``: the one pass over every night, each night's two small docs built;
* ``nights_listed``: the same, and each night's changes listed (``diff_json``, what a page shows);
* ``as_of_pair``: two past views (two merges) for one night near the end, the way without the pass,
  so the figure for every night is about ``as_of_pair`` × nights / 2 (the mean night is half as old).

Ratios are against ``merge`` of the same pair; the JSON goes to stdout.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from render import ensure_data  # noqa: E402  (this folder's render.py: the same synthetic data)

from digest_plugin.authoring.diff import diff_json  # noqa: E402
from digest_plugin.core.asof import as_of  # noqa: E402
from digest_plugin.core.merge import merge  # noqa: E402
from digest_plugin.core.nights import nights  # noqa: E402
from digest_plugin.core.pipeline import analyse  # noqa: E402


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    ensure_data(args.days, args.data)
    result = analyse(args.data)
    assert result.docs is not None, result.errors
    today = result.docs["inference"]
    outline, briefs, words = today.outline, today.briefs, today.vocabulary
    last = max(b.date for b in briefs)

    def one_merge() -> None:
        merge(outline, briefs, None, words)

    def one_pass() -> None:
        for _ in nights(outline, briefs, None, words, today=today):
            pass

    def one_pass_listed() -> None:
        for night in nights(outline, briefs, None, words, today=today):
            diff_json({"inference": night.before}, {"inference": night.after})

    def one_pair() -> None:
        as_of(outline, briefs, last - dt.timedelta(days=1), None, words, today=today)
        as_of(outline, briefs, last, None, words, today=today)

    figures: dict[str, list[float]] = {"merge": [], "nights": [], "nights_listed": [], "as_of_pair": []}
    for _ in range(args.pairs):
        figures["merge"].append(_timed(one_merge))
        figures["nights"].append(_timed(one_pass))
        figures["nights_listed"].append(_timed(one_pass_listed))
        figures["as_of_pair"].append(_timed(one_pair))
    count = len({b.date for b in briefs})
    out: dict[str, object] = {"days": args.days, "nights": count, "seconds": figures}
    for name in ("nights", "nights_listed", "as_of_pair"):
        out[f"{name}_ratio"] = round(
            statistics.median(a / m for a, m in zip(figures[name], figures["merge"], strict=True)), 2
        )
    out["as_of_every_night_estimate_s"] = round(statistics.median(figures["as_of_pair"]) * count / 2, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
