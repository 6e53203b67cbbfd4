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

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT_SELECTOR = "article.md-content__inner"
"""The page's content in Material's (and Zensical's) markup."""
EXCLUDE_SELECTORS = ("[data-search-exclude]", ".headerlink", ".md-content__button")
"""Kept out of the index (the renderer's own exclusions; the permalinks; the edit buttons)."""
INCLUDE_CHARACTERS = "-."
"""Kept inside a word: a product name (llm-d) and an arXiv id (1605.08803) are one word each."""
OUTPUT_SUBDIR = "pagefind"
TIMEOUT_S = 1800
T = TypeVar("T")


class SearchIndexError(RuntimeError):
    """Pagefind could not index the site: the message says why and what to do."""


def command(site_dir: Path) -> list[str]:
    """The Pagefind command line for a built site (the binary the ``pagefind[extended]`` wheel ships)."""
    args = [sys.executable, "-m", "pagefind", "--site", str(site_dir), "--output-subdir", OUTPUT_SUBDIR]
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
