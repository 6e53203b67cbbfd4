"""The site's search index, made by Pagefind from the finished HTML, on either host.

Why Pagefind and not the theme's own search: Material writes one ``search_index.json`` that every
reader downloads before a first result (34.6 MB at 365 days, ~325 MB at 3,650, every Chinese
character a 6-byte ``\\uXXXX``), and segmenting it with jieba is most of a large build.  Pagefind
(the ``extended`` build segments Chinese) splits its index into chunks a query fetches as it needs
them (a few hundred KB), and runs on the built ``site/`` of MkDocs or Zensical alike.

What is indexed: the page's article only (not the navigation), less what a search result should not
show: everything the renderer marks ``data-search-exclude`` (charts, count tables, a brief's
metadata, badge tips, citation cards, filter bars, claims quoted in their callouts) and the "¶"
permalinks.  Headings with an id are Pagefind's sub-results, so a result leads to the entry.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .text import SEARCH_EXCLUDE

log = logging.getLogger("mkdocs.plugins.digest")

ROOT_SELECTOR = "article.md-content__inner"
"""The page's content in Material's (and Zensical's) markup."""
EXCLUDE_SELECTORS = (f"[{SEARCH_EXCLUDE}]", ".headerlink", ".md-content__button")
"""Kept out of the index (the renderer's own exclusions; the permalinks; the edit buttons)."""
INCLUDE_CHARACTERS = "-."
"""Kept inside a word: a product name (llm-d) and an arXiv id (1605.08803) are one word each."""
OUTPUT_SUBDIR = "pagefind"
NEXT_SUBDIR = f".{OUTPUT_SUBDIR}-next"
"""Where a preview makes its next index before putting it in place of the live one."""
OLD_SUBDIR = f".{OUTPUT_SUBDIR}-old"
"""Where the live index goes while the next one takes its place, until it is removed."""
TIMEOUT_S = 1800
T = TypeVar("T")


class SearchIndexError(RuntimeError):
    """Pagefind could not index the site: the message says why and what to do."""


def command(site_dir: Path, output: Path | None = None) -> list[str]:
    """The Pagefind command line for a built site (the binary the ``pagefind[extended]`` wheel ships),
    writing into ``<site>/pagefind/`` or, given ``output``, into that folder."""
    where = ["--output-path", str(output)] if output is not None else ["--output-subdir", OUTPUT_SUBDIR]
    args = [sys.executable, "-m", "pagefind", "--site", str(site_dir), *where]
    args += ["--root-selector", ROOT_SELECTOR, f"--include-characters={INCLUDE_CHARACTERS}", "--silent"]
    for selector in EXCLUDE_SELECTORS:
        args += ["--exclude-selectors", selector]
    return args


class Indexing:
    """Pagefind indexing a built site in its own process: the build may do something else meanwhile
    (read the pages for withheld claims) and then :meth:`wait`."""

    def __init__(self, site_dir: Path) -> None:
        self.out = site_dir / OUTPUT_SUBDIR
        if self.out.exists():
            shutil.rmtree(self.out)
        self.error: str | None = None
        self.proc: subprocess.Popen[str] | None = None
        try:
            self.proc = subprocess.Popen(command(site_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        except OSError as exc:
            self.error = f"search: Pagefind did not run ({exc})"

    def stop(self) -> None:
        """Stop Pagefind (the build failed meanwhile): no process is left behind."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()

    def wait(self) -> Path:
        """The folder Pagefind wrote; raises :class:`SearchIndexError` when it is missing or failed,
        so a build that cannot give its readers a search publishes nothing."""
        if self.proc is None:
            raise SearchIndexError(self.error or "search: Pagefind did not run")
        try:
            stdout, stderr = self.proc.communicate(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            self.proc.kill()
            self.proc.communicate()
            raise SearchIndexError(f"search: Pagefind did not run ({exc})") from None
        if self.proc.returncode != 0 or not (self.out / "pagefind.js").is_file():
            why = (stderr or stdout).strip().splitlines()[-5:]
            hint = (
                "install it with `pip install 'pagefind[extended]'`"
                if "No module named" in stderr
                else "see Pagefind's message above"
            )
            raise SearchIndexError("search: Pagefind could not index the site: " + " | ".join(why) + f" ({hint})")
        return self.out


def build_beside(site_dir: Path, read: Callable[[Callable[[str], bool]], list[T]]) -> list[T]:
    """Index the built site with Pagefind while ``read`` reads every file outside the index (it is
    given the test of the files to skip), then ``read`` the index once written: what the leak
    check reads, it reads while Pagefind works.  Raises :class:`SearchIndexError` as :func:`build`."""
    indexing = Indexing(site_dir)
    inside = f"{OUTPUT_SUBDIR}/"
    try:
        found = read(lambda name: name.startswith(inside))
    except BaseException:
        indexing.stop()
        raise
    indexing.wait()
    return found + read(lambda name: not name.startswith(inside))


def build(site_dir: Path) -> Path:
    """Index the built site in place (``<site>/pagefind/``, replaced whole); the folder it wrote.

    Raises :class:`SearchIndexError` when Pagefind is missing or fails, so a build that cannot give
    its readers a search publishes nothing."""
    return Indexing(site_dir).wait()


def in_preview_index(name: str) -> bool:
    """Whether a file of a preview's site (by its name there) belongs to its search index, live or
    being made: :class:`PreviewIndex` reads those itself once each indexing ends, and replaces them
    whole meanwhile, so a rebuild's own read leaves them out."""
    return name.startswith((f"{OUTPUT_SUBDIR}/", f"{NEXT_SUBDIR}/", f"{OLD_SUBDIR}/"))


PREVIEW_REINDEX_S = 1.0
"""A preview indexes again after an edit only where indexing took at most this long: on a large
site the index of the preview's start is kept (the box says it may miss the latest edits), so
Pagefind never competes with the next rebuild for the editor's cores."""


class PreviewIndex:
    """The search of a ``serve`` preview: Pagefind indexes the served folder in the background, into
    a folder of its own that then replaces ``pagefind/`` whole (a search never reads half an index),
    and the leak check reads what it wrote.  Started once the server is up; again after a rebuild
    only on a site small enough (:data:`PREVIEW_REINDEX_S`)."""

    def __init__(self, check: Callable[[Path], list[str]]) -> None:
        """``check(site)``: the withheld claims found in ``<site>/pagefind/``, as lines to warn with."""
        self.check = check
        self.proc: subprocess.Popen[str] | None = None
        self.thread: threading.Thread | None = None
        self.took: float | None = None
        """Seconds the last indexing took (None before the first one ends)."""
        self._stopped = False

    def start(self, site_dir: Path) -> bool:
        """Index ``site_dir`` in the background unless an indexing runs; whether one was started."""
        if self._stopped or (self.thread is not None and self.thread.is_alive()):
            return False
        fresh = site_dir / NEXT_SUBDIR
        shutil.rmtree(fresh, ignore_errors=True)
        began = time.monotonic()
        try:
            self.proc = subprocess.Popen(
                command(site_dir, fresh), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        except OSError as exc:
            log.warning(f"digest: the preview has no search: Pagefind did not run ({exc})")
            return False
        self.thread = threading.Thread(target=self._finish, args=(site_dir, fresh, self.proc, began), daemon=True)
        self.thread.start()
        return True

    def after_rebuild(self, site_dir: Path) -> None:
        """After a rebuild: index again where that fits the preview's budget."""
        if self.took is not None and self.took <= PREVIEW_REINDEX_S:
            self.start(site_dir)

    def _finish(self, site_dir: Path, fresh: Path, proc: subprocess.Popen[str], began: float) -> None:
        _, stderr = proc.communicate()
        if self._stopped:
            shutil.rmtree(fresh, ignore_errors=True)
            return
        if proc.returncode != 0 or not (fresh / "pagefind.js").is_file():
            shutil.rmtree(fresh, ignore_errors=True)
            log.warning("digest: the preview's search index failed: " + " | ".join(stderr.strip().splitlines()[-3:]))
            return
        live, old = site_dir / OUTPUT_SUBDIR, site_dir / OLD_SUBDIR
        shutil.rmtree(old, ignore_errors=True)
        if live.exists():
            os.replace(live, old)
        os.replace(fresh, live)
        shutil.rmtree(old, ignore_errors=True)
        self.took = time.monotonic() - began
        for line in self.check(site_dir):
            log.warning(line)
        log.info(f"digest: the preview's search index is ready ({self.took:.1f} s)")

    def stop(self) -> None:
        """The server stops: so does Pagefind, and nothing more is written."""
        self._stopped = True
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.thread is not None:
            self.thread.join(timeout=10)
