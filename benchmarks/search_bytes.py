"""What a reader downloads: the home page, and one search, in Chromium, on a built site.

    python benchmarks/search_bytes.py SITE_DIR [--query Kapitsa --query 证据缓存 …] [--out FILE.json]

Serves ``SITE_DIR`` on loopback, opens the home page in Debian's Chromium (Playwright's Python
package drives it, as ``tests/test_browser.py`` does) and sums the bytes of every response: the
home page's cost before any search.  Then, for each query, on a fresh visit of §1, it types the
query into the search box and sums the bytes of the responses under ``pagefind/`` until the
results are shown: the first search of a visit (Pagefind's entry file, the index chunks the query
needs, and the records of the results shown).  Bytes as they come over the wire, twice: from a
server that sends the files as stored (``search_bytes``; Pagefind's index files and wasm are gzip
already, its two scripts are not), and from one that gzips text as GitHub Pages does
(``search_bytes_gzip``).  Note the machine beside the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import io
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


SENT: list[tuple[str, int]] = []
"""(path, body bytes) of every response the test server sent, in order: counted where they are
sent, as Chromium reports no size for what a worker fetches (Pagefind's worker script)."""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            SENT.append((self.path, int(value)))
        super().send_header(keyword, value)


TEXT_TYPES = (".html", ".js", ".css", ".json", ".xml", ".svg")
"""What a web server that compresses (GitHub Pages, nginx's ``gzip on`` with its usual types) sends
gzipped; Pagefind's index files and wasm are gzip already and go as they are."""


class _Compressing(_Quiet):
    """Sends text gzipped to a browser that accepts it, as the team's published site is served."""

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix not in TEXT_TYPES or "gzip" not in self.headers.get("Accept-Encoding", "") or not path.is_file():
            return super().send_head()
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def serving(site: Path, compress: bool = False) -> Iterator[str]:
    """The address ``site`` is served at on loopback, until the block ends (``compress``: text gzipped)."""
    handler = _Compressing if compress else _Quiet
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium_on(site: Path, compress: bool = False) -> Iterator[tuple[Any, str]]:
    """A Chromium browser context (Chinese locale, desktop size) and the address ``site`` is served
    at; both stopped after.  ``tests/test_pagefind.py`` searches through it too."""
    from playwright.sync_api import sync_playwright

    with serving(site, compress) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        yield browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900}), base
        browser.close()


def measure(site: Path, queries: tuple[str, ...], compress: bool = False) -> dict[str, Any]:
    """The figures, bytes as the test server sends them: as stored (``search_bytes[q]``), or with
    ``compress`` as a compressing server sends them (``search_bytes_gzip[q]``)."""
    figures: dict[str, Any] = {}
    suffix = "_gzip" if compress else ""
    with chromium_on(site, compress) as (context, base):
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        SENT.clear()
        tab.goto(base + "/")
        tab.wait_for_load_state("networkidle")
        figures[f"home_page_bytes{suffix}"] = sum(n for _, n in SENT)
        tab.close()
        for query in queries:  # each on a fresh visit: nothing cached by the one before
            fresh = context.browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
            tab = fresh.new_page()
            tab.set_default_timeout(60_000)
            tab.goto(base + "/inference/1/")
            tab.wait_for_load_state("networkidle")
            SENT.clear()
            box = tab.locator(".md-search__input")
            if not box.is_visible():  # a theme whose box is a dialog (Zensical's): open it first
                tab.locator("label.digest-search__open").click()
            box.click()
            box.press_sequentially(query, delay=20)
            tab.locator(".md-search-result__item").first.wait_for(state="visible")
            tab.wait_for_load_state("networkidle")
            figures[f"search_bytes{suffix}[{query}]"] = sum(n for path, n in SENT if "/pagefind/" in path)
            fresh.close()
    searches = [v for k, v in figures.items() if k.startswith(f"search_bytes{suffix}[")]
    figures[f"search_bytes{suffix}_min"], figures[f"search_bytes{suffix}_max"] = min(searches), max(searches)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--query", action="append", help="a query (repeat it); default: QUERIES, the real brief's")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    queries = tuple(args.query or QUERIES)
    figures = measure(args.site, queries) | measure(args.site, queries, compress=True)
    text = json.dumps(figures, ensure_ascii=False, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
