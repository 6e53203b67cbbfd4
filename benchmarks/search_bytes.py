"""What a reader downloads: the home page, and one search, in Chromium, on a built site.

    python benchmarks/search_bytes.py SITE_DIR [--query Kapitsa --query 证据缓存 …] [--out FILE.json]

Serves ``SITE_DIR`` on loopback, opens the home page in Debian's Chromium (Playwright's Python
package drives it, as ``tests/test_browser.py`` does) and sums the bytes of every response: the
home page's cost before any search.  Then, for each query, on a fresh visit of §1, it types the
query into the search box and sums the bytes of the responses under ``pagefind/`` until the
results are shown: the first search of a visit (Pagefind's entry file, the index chunks the query
needs, and the records of the results shown).  Response bodies as sent (the test server does not
compress; Pagefind's own files are gzip already).  Note the machine beside the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
QUERIES = (
    "Kapitsa",
    "TorchTPU",
    "头阻塞",
    "证据缓存",
    "llm-d",
    "ModelExpress",
    "1605.08803",
    "RecSys",
    "Dynamo",
    "NIXL",
    "付费墙",
)
"""Words of the real brief a reader would type: product names, a hyphenated one, Chinese terms, an
arXiv id.  Issue 30 holds every first search to 300 KB for these."""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serving(site: Path) -> Iterator[str]:
    """The address ``site`` is served at on loopback, until the block ends."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium_on(site: Path) -> Iterator[tuple[Any, str]]:
    """A Chromium browser context (Chinese locale, desktop size) and the address ``site`` is served
    at; both stopped after.  ``tests/test_pagefind.py`` searches through it too."""
    from playwright.sync_api import sync_playwright

    with serving(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        yield browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900}), base
        browser.close()


def measure(site: Path, queries: tuple[str, ...]) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with chromium_on(site) as (context, base):
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        home: list[int] = []
        tab.on("response", lambda r: home.append(len(r.body())) if r.ok else None)
        tab.goto(base + "/")
        tab.wait_for_load_state("networkidle")
        figures["home_page_bytes"] = sum(home)
        tab.close()
        for query in queries:
            context.clear_cookies()
            tab = context.new_page()
            tab.set_default_timeout(60_000)
            tab.goto(base + "/inference/1/")
            tab.wait_for_load_state("networkidle")
            fetched: list[int] = []
            tab.on("response", lambda r, f=fetched: f.append(len(r.body())) if "/pagefind/" in r.url else None)
            box = tab.locator(".md-search__input")
            if not box.is_visible():  # a theme whose box is a dialog (Zensical's): open it first
                tab.locator("label.digest-search__open").click()
            box.click()
            box.press_sequentially(query, delay=20)
            tab.locator(".md-search-result__item").first.wait_for(state="visible")
            tab.wait_for_load_state("networkidle")
            figures[f"search_bytes[{query}]"] = sum(fetched)
            tab.close()
    searches = [v for k, v in figures.items() if k.startswith("search_bytes")]
    figures["search_bytes_min"], figures["search_bytes_max"] = min(searches), max(searches)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--query", action="append", help="a query (repeat it); default: QUERIES, the real brief's")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    figures = measure(args.site, tuple(args.query or QUERIES))
    text = json.dumps(figures, ensure_ascii=False, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
