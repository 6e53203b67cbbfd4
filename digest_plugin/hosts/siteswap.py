"""The atomic publish of a one-off build: MkDocs writes into a fresh folder beside the site, and the
folder replaces the site only when the build succeeded (see :class:`SiteSwap`).

A module of its own, beside the adapter that uses it: what it guards (a reader never sees a site
half old, half new; a killed build never leaves none) is a property of the published folder, not
of MkDocs' events, and a second host that publishes a folder can use it as it is.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from mkdocs.utils import CountHandler

from ..core import files

log = logging.getLogger("mkdocs.plugins.digest")


class SiteSwap:
    """Build into a fresh folder beside the site and put it in place only when the build succeeded.

    MkDocs writes pages into ``site_dir`` one by one; a build that fails half-way (a crash, or a
    ``--strict`` warning found at the end) would leave a site half old, half new.  The fresh
    folder is a hidden sibling (same file system, so the swap is two renames), locked while its
    build runs: a folder left by a killed build (its lock free) is removed by the next one, one
    that another build is still writing is left alone, and two swaps never interleave.  Hidden
    entries of the old site (``.git`` of a gh-pages clone, ``.well-known``), which MkDocs' own
    cleaning keeps, move into the new one."""

    def __init__(self) -> None:
        self.warnings = CountHandler()
        self.warnings.setLevel(logging.WARNING)
        logging.getLogger("mkdocs").addHandler(self.warnings)
        self.final: Path | None = None
        self.fresh: Path | None = None
        self._lock: int | None = None

    def tidy(self, site_dir: Path) -> None:
        """Put back the old site a build killed mid-swap left hidden, and remove what killed builds
        left beside it; first thing in a build, so even one that fails on its data does it."""
        self.final = site_dir.resolve()
        self.final.parent.mkdir(parents=True, exist_ok=True)
        with self._swapping():
            self._recover()
            for stale in sorted(self.final.parent.glob(f".{self.final.name}.digest-*")):
                files.remove_if_stale(str(stale))

    def begin(self, site_dir: Path) -> Path:
        if self.final != site_dir.resolve():  # not tidied yet in this build (on_config tidies first)
            self.tidy(site_dir)
        assert self.final is not None
        self.fresh = self.final.parent / f".{self.final.name}.digest-build-{os.getpid()}"
        self.fresh.mkdir(parents=True, exist_ok=True)
        self._lock = files.open_folder(self.fresh)
        fcntl.flock(self._lock, fcntl.LOCK_EX)  # MkDocs empties the folder, it keeps the inode: the lock holds
        return self.fresh

    def finish(self, *, strict: bool) -> Path:
        """The published folder: the fresh build moved into place, or the old site if strict fails."""
        assert self.final is not None and self.fresh is not None, "begin() came first"
        if strict and self.warnings.get_counts():
            log.error(f"the site in {self.final} is left as it was: this build is not published")
            self.abandon()
            return self.final
        with self._swapping():
            old = self.final.parent / f".{self.final.name}.digest-old-{os.getpid()}"
            if self.final.is_dir():
                for entry in os.scandir(self.final):
                    if entry.name.startswith(".") and not (self.fresh / entry.name).exists():
                        os.rename(entry.path, self.fresh / entry.name)
                os.rename(self.final, old)
            os.rename(self.fresh, self.final)
            shutil.rmtree(old, ignore_errors=True)
        self.fresh = None
        self._unlock()
        return self.final

    @contextlib.contextmanager
    def _swapping(self) -> Iterator[None]:
        """The lock of the site's parent folder: one swap (or recovery) at a time there."""
        assert self.final is not None
        parent = files.open_folder(self.final.parent)
        try:
            fcntl.flock(parent, fcntl.LOCK_EX)
            yield
        finally:
            os.close(parent)

    def _recover(self) -> None:
        """A build killed between the swap's two renames left no site and the old one hidden beside
        it: put the old one back, so a kill never leaves readers without the last good site."""
        assert self.final is not None
        if os.path.lexists(self.final):
            return
        for old in sorted(self.final.parent.glob(f".{self.final.name}.digest-old-*")):
            os.rename(old, self.final)
            return

    def abandon(self) -> None:
        if self.fresh is not None:
            shutil.rmtree(self.fresh, ignore_errors=True)
            self.fresh = None
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def close(self) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warnings)
