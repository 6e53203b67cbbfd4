"""How much a reader's past views would weigh if the site published one per night (issue 32, design).

    python benchmarks/as_of_versions.py --days 3650 --data /tmp/render-data

A past view of night D shows each entry and each contradiction as it stood after D.  Published as
whole pages per night, the site would hold every section page once a night; published as the pieces
that change (an entry's or a callout's HTML once per night it changed, and a small index per night
saying which piece each section shows), it holds each piece once per change.  This script counts
both on the synthetic data (``synth.py``, the data ``render.py`` makes) and renders today's entries
and callouts with the site's own renderer to weigh a piece, so the choice is made on figures:

* ``nights``: the nights with a brief;
* ``entries`` / ``entry_versions``: the entries today, and the nights on which a brief changed one
  (placed it, updated it, changed its evidence, retracted, moved or split it): one piece each;
* ``callouts`` / ``callout_versions``: the contradictions, and the nights one was opened or changed;
* ``entry_bytes`` / ``entry_bytes_without_history``: the mean size of an entry's HTML as section pages
  show it today, with and without its history table (a past piece could link to today's history);
* ``callout_bytes``: the mean size of a contradiction's callout;
* ``section_bytes_today``: the six section pages' fragments today (what one night's whole pages weigh);
* ``pieces_mb`` and ``whole_pages_mb``: the two ways, in MiB, over every night; compare them with the
  site's HTML (``render.py``'s ``html_bytes``: 353,887,926 bytes, 337.5 MiB, at 3,650 days on 2026-12-06).

The estimate counts a piece at today's size: a past version has a shorter history, so ``pieces_mb``
with history is an upper bound and without it a lower one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import datetime as dt  # noqa: E402

from render import ensure_data  # noqa: E402  (this folder's render.py: the same synthetic data)

from digest_plugin.core.model import Rules  # noqa: E402
from digest_plugin.core.pipeline import analyse  # noqa: E402
from digest_plugin.site.layout import Layout, Linker  # noqa: E402
from digest_plugin.site.render import Renderer  # noqa: E402


def measure(docs: dict) -> dict[str, float]:
    doc = docs["inference"]
    nights = sorted({b.date for b in doc.briefs})
    entry_versions = sum(len({u.brief.date for u in e.history if u.brief is not None}) for e in doc.entries.values())
    callout_versions = sum(1 + len({e.brief.date for e in c.history}) for c in doc.contradictions)
    renderer = Renderer(Layout(doc), Linker("inference/1.md"))
    entry_sizes = [len(renderer.entry(e)) for e in doc.entries.values()]
    history_sizes = [len(renderer.history(e)) for e in doc.entries.values()]
    callout_sizes = [len(renderer.callout(c, compact=False)) for c in doc.contradictions]
    sections = "".join(
        b.html for n in ("1", "2", "3", "4", "5", "6") for b in renderer.section(n) if hasattr(b, "html")
    )
    entry_bytes = sum(entry_sizes) / max(len(entry_sizes), 1)
    bare = (sum(entry_sizes) - sum(history_sizes)) / max(len(entry_sizes), 1)
    callout_bytes = sum(callout_sizes) / max(len(callout_sizes), 1)
    mb = 1024 * 1024
    return {
        "nights": len(nights),
        "entries": len(doc.entries),
        "entry_versions": entry_versions,
        "callouts": len(doc.contradictions),
        "callout_versions": callout_versions,
        "entry_bytes": round(entry_bytes),
        "entry_bytes_without_history": round(bare),
        "callout_bytes": round(callout_bytes),
        "section_bytes_today": len(sections.encode()),
        "pieces_mb": round((entry_versions * entry_bytes + callout_versions * callout_bytes) / mb, 1),
        "pieces_mb_without_history": round((entry_versions * bare + callout_versions * callout_bytes) / mb, 1),
        "whole_pages_mb": round(len(nights) * len(sections.encode()) / mb, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, required=True)
    parser.add_argument("--data", type=Path, required=True, help="the data folder render.py made (or makes)")
    args = parser.parse_args()
    ensure_data(args.days, args.data)
    result = analyse(args.data, rules=Rules(allow_future_dates=True), today=dt.date.today())
    if result.docs is None:
        raise SystemExit("the data has errors:\n" + "\n".join(map(str, result.errors[:10])))
    figures = measure(result.docs)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
