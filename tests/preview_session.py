"""A ``serve`` session without the web server, for the preview tests and the benchmark.

    python tests/preview_session.py PROJECT SITE [--clean]

Builds PROJECT's site into SITE the way ``mkdocs serve`` rebuilds it (same plugin instance from
one rebuild to the next, a fresh config each time, ``dirty`` as ``digest serve`` passes it; with
``--clean``, as plain ``mkdocs serve`` does), once per ``build`` line read on stdin, answering
each with one line of JSON: ``{"seconds": …, "written": [files written by that build]}``.  The
web server only serves the folder, so the folder is what a reader gets.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

SERVE_URL = "http://127.0.0.1:8000/"


def main() -> None:
    project, site = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    dirty = "--clean" not in sys.argv[3:]
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    os.chdir(project)
    site.mkdir(parents=True, exist_ok=True)
    started = False
    for line in sys.stdin:
        if line.strip() != "build":
            break
        config = load_config(config_file=str(project / "mkdocs.yml"), site_dir=str(site))
        if not started:
            config.plugins.on_startup(command="serve", dirty=dirty)
            started = True
        config.site_url = SERVE_URL
        before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
        start = time.perf_counter()
        build(config, serve_url=SERVE_URL, dirty=dirty)
        seconds = time.perf_counter() - start
        written = sorted(
            p.relative_to(site).as_posix()
            for p in site.rglob("*")
            if p.is_file() and before.get(p) != p.stat().st_mtime_ns
        )
        print(json.dumps({"seconds": seconds, "written": written}), flush=True)


if __name__ == "__main__":
    main()
