"""What the past views (issue 32) cost a build and weigh on the site, against what the build does already.

    python benchmarks/past_views.py --days 3650 --data /tmp/render-data [--pairs 1]

The site's past views are pieces rendered night by night from one pass of the merge
(``site.pastviews``).  On the synthetic data ``render.py`` makes, in alternating pairs within one run:

* ``merge``: one merge of every brief (what a build does already), the baseline;
* ``nights``: the one pass over every night (what the changes pages run already);
* ``past_views``: the same pass with the past views' observer, every piece rendered and every
  chunk written to bytes (``past_files``: what a build adds);
* ``section_page``: today's §1 page rendered whole, once (what a reader opens today, for scale).

Then what the site holds: pieces, renders (entries and callouts), chunks, their bytes gzip'd (what the
site stores) and unpacked, and what a reader downloads to open one night's view (the chunk of its
view and month, median and largest) against today's §1 page.  JSON to stdout.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from render import ensure_data  # noqa: E402  (this folder's render.py: the same synthetic data)

from digest_plugin.core.merge import merge  # noqa: E402
from digest_plugin.core.nights import nights  # noqa: E402
from digest_plugin.core.pipeline import analyse  # noqa: E402
from digest_plugin.site import pastviews  # noqa: E402
from digest_plugin.site.layout import Layout, Linker, section_page  # noqa: E402
from digest_plugin.site.render import Renderer  # noqa: E402
from digest_plugin.site.text import Raw  # noqa: E402


def _timed(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=1)
    args = parser.parse_args()
    ensure_data(args.days, args.data)
    result = analyse(args.data)
    assert result.docs is not None, result.errors
    today = result.docs["inference"]
    outline, briefs, words = today.outline, today.briefs, today.vocabulary
    made: list[tuple[str, bytes]] = []

    def one_merge() -> None:
        merge(outline, briefs, None, words)

    def one_pass() -> None:
        for _ in nights(outline, briefs, None, words, today=today):
            pass

    def past() -> None:
        made[:] = pastviews.past_files(Layout(today, past=True))  # a fresh layout: nothing kept from a pair before

    page = ""

    def section() -> None:
        nonlocal page
        blocks = Renderer(Layout(today), Linker(section_page("inference", "1"))).section("1")
        page = "".join(b.html for b in blocks if isinstance(b, Raw))

    figures: dict[str, list[float]] = {"merge": [], "nights": [], "past_views": [], "section_page": []}
    for _ in range(args.pairs):
        figures["merge"].append(_timed(one_merge))
        figures["nights"].append(_timed(one_pass))
        figures["past_views"].append(_timed(past))
        figures["section_page"].append(_timed(section))
    chunks = {path: data for path, data in made if not path.endswith("/nights.pvd")}
    one_view = sorted(len(data) for path, data in chunks.items() if "/data/1-" in path)
    unpacked = sum(len(gzip.decompress(data)) for data in chunks.values())
    out: dict[str, object] = {
        "days": args.days,
        "nights": len({b.date for b in briefs}),
        "seconds": figures,
        "past_views_vs_merge": round(
            statistics.median(p / m for p, m in zip(figures["past_views"], figures["merge"], strict=True)), 2
        ),
        "chunks": len(chunks),
        "site_bytes_gzip": sum(len(d) for _, d in made),
        "unpacked_bytes": unpacked,
        "one_night_of_s1_download_median": one_view[len(one_view) // 2] if one_view else 0,
        "one_night_of_s1_download_max": one_view[-1] if one_view else 0,
        "todays_s1_page_fragments_bytes": len(page.encode("utf-8")),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
