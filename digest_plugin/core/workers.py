"""Run a pure function in a forked worker while this process goes on with something else.

The build machine has two cores and a build has two big independent jobs at a time (parsing
two halves of the briefs; checking while merging; rendering the generated pages from both ends;
reading two halves of the built site for withheld claims).  A forked worker sees this process's data
without copying it; its result comes back through a private temporary file that has no name (Linux's
``O_TMPFILE``, through :func:`tempfile.TemporaryFile`; elsewhere it is unlinked as it is made), so a
build killed at any moment leaves nothing in the temporary folder; the result is written with
:mod:`marshal` (plain data only: nothing read back can run code, unlike pickle).  Anything going
wrong in the worker (or no ``fork``, other threads running, or one core only) is not an error:
:meth:`Worker.result` then runs the function here, so a worker can only make things faster.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import marshal
import os
import signal
import tempfile
import threading
from collections.abc import Callable
from typing import IO, Any, Generic, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def cores() -> int:
    """The cores this process may run on (its affinity, which a container or ``taskset`` narrows)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def give_back_memory() -> None:
    """Collect garbage and hand the freed heap back to the system (glibc's ``malloc_trim``).

    Why: CPython frees objects into its allocator and glibc's heap, which keep the pages.  A
    ten-year build that has just let go of its merged docs, or of its pages' HTML, still holds a
    gigabyte it no longer uses; a worker forked then shares those pages and copies each one either
    process writes to, and Pagefind's memory adds to all of it.  Given back first, the build's
    process went from 1.04 to 0.42 GB before Pagefind (3,650 days).  Without glibc it only collects."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


class Worker(Generic[T]):
    """``fn(*args)`` started in a forked process (or deferred, where there is no fork)."""

    def __init__(self, fn: Callable[[*Ts], T], *args: *Ts) -> None:
        """``fn`` must return plain data (None, bool, numbers, str, bytes, and tuples, lists, sets
        and dicts of them): it travels back with marshal, the fastest way both ways."""
        self.fn: Callable[..., T] = fn
        self.args: tuple[object, ...] = args
        self.pid: int | None = None
        self.file: IO[bytes] | None = None
        """The result's file, open in both processes; it has no name to leave behind."""
        if not hasattr(os, "fork") or threading.active_count() > 1 or cores() < 2:
            # forking a threaded process (``mkdocs serve``'s server) can hang the child; on one
            # core a worker only takes turns with this process: run here
            return
        try:
            self.file = tempfile.TemporaryFile()  # noqa: SIM115 - open across the fork; close() ends it
            self.pid = os.fork()
        except OSError:  # no file or no process to be had: run here
            self.close()
            return
        if self.pid == 0:  # the worker: never returns into the caller's code
            code = 1
            try:
                result: Any = fn(*args)  # plain data, or marshal raises and this worker fails
                marshal.dump(result, self.file)
                self.file.flush()
                code = 0
            finally:
                os._exit(code)

    def result(self) -> T:
        """The worker's result, or the function's result computed here if the worker failed."""
        try:
            if self.pid is not None:
                assert self.file is not None, "a worker was forked, so its file was made first"
                _, status = os.waitpid(self.pid, 0)
                self.pid = None
                if os.waitstatus_to_exitcode(status) == 0:
                    self.file.seek(0)  # the worker wrote through the same open file
                    sent: T = marshal.load(self.file)  # what the worker dumped: fn's result
                    return sent
        except (OSError, EOFError, ValueError, TypeError):
            pass
        finally:
            self.close()
        return self.fn(*self.args)

    def close(self) -> None:
        """Stop a worker whose result was not taken and close its file (a caller that stops early,
        or is interrupted, leaves nothing behind; one that is killed has nothing named to leave)."""
        if self.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            self.pid = None
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None
