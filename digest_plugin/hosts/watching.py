"""A preview that hears a save when it happens, not at the next poll.

``mkdocs serve`` watches the docs, the config and the data folder with watchdog's *polling* observer:
every half second it lists every watched file again.  An editor's save then waits 0.25 s on average
(up to 0.5 s) before the rebuild starts — a fifth of the 1 s a 365-day preview may take (issue 30) —
and at ten years of briefs the listing itself keeps a core 6 % busy.  Where the system tells a process
about file changes (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows), watchdog's
default observer uses it; :func:`hear_saves` moves the server's watches over to it before the server
starts watching.

MkDocs keeps the polling observer because file events do not reach every setup (some network and
container mounts): so this is done only where the system observer is a real one, every watch is
moved or none is, and anything unexpected (a MkDocs whose server has other insides, a system that
refuses another watch) leaves MkDocs' own observer in place, which is never worse than before.
"""

from __future__ import annotations

import logging
from typing import Any

from watchdog.events import (
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
)
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

log = logging.getLogger("mkdocs.plugins.digest")


def hear_saves(server: Any, also: list[str]) -> bool:
    """Move every watch of MkDocs' live-reload ``server`` from its polling observer to the system's.

    Called from the plugin's ``on_serve``, before ``server.serve()`` starts the observer.  ``also``:
    the paths MkDocs will watch after ``on_serve`` (the ``watch:`` list of ``mkdocs.yml``, where the
    data folder is), watched here first so that every watch is made, and started, right here: a
    system that refuses one (its limit of watches reached) refuses it now, and MkDocs' polling
    observer stays, with every watch it had.  MkDocs' own later ``watch`` of those paths only counts
    them again.  True when the server now hears saves from the system."""
    old = getattr(server, "observer", None)
    watched = getattr(server, "_watched_paths", None)
    refs = getattr(server, "_watch_refs", None)
    if (
        Observer is PollingObserver  # no system file events here: watchdog polls anyway
        or not isinstance(old, PollingObserver)
        or old.is_alive()
        or not isinstance(watched, dict)
        or not isinstance(refs, dict)
        or set(watched) != set(refs)
    ):
        return False
    counts, old_refs = dict(watched), dict(refs)
    new = _Started()
    server.observer = new
    watched.clear()
    refs.clear()
    try:
        for path, count in counts.items():
            for _ in range(count):
                server.watch(path)
        for path in also:
            server.watch(path)
        new.start()
    except OSError as exc:  # e.g. the system's limit of watches reached: poll, as MkDocs does
        new.unschedule_all()
        server.observer = old
        watched.clear()
        watched.update(counts)
        refs.clear()
        refs.update(old_refs)
        for path in also:
            server.watch(path)  # on the polling observer, as MkDocs would have
        log.debug("digest: no file events here (%s); the preview polls for changes", exc)
        return False
    old.unschedule_all()
    log.debug("digest: the preview hears saves from the system (%d paths)", len(watched))
    return True


SAVES: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileClosedEvent,
]
"""The file events that say something was written.  The system also reports a file opened and closed
unwritten, and MkDocs rebuilds on any event of a file: each rebuild reads the docs and the data, which
would ask for the next rebuild, for ever (the polling observer sees only what a listing shows)."""


class _Started(Observer):  # type: ignore[misc,valid-type]
    """The system's observer, reporting only saves (``SAVES``), started by :func:`hear_saves`;
    ``server.serve()`` starts its observer again, which is then nothing to do."""

    def schedule(self, event_handler: Any, path: Any, **options: Any) -> Any:
        options.setdefault("event_filter", SAVES)
        return super().schedule(event_handler, path, **options)

    def start(self) -> None:
        if not self.is_alive():
            super().start()
