"""Writing into the data folder safely: one writer at a time, a whole file or nothing, nothing left behind.

Every command that writes a brief (``new``, ``import``, ``resolve``, ``close-follow-up``,
``set-evidence``, ``cite``) goes through this module:

- **One writer per folder.** :func:`locked` takes an exclusive ``flock`` on the folder that holds
  the brief (the directory itself: no lock file to leave behind or commit).  A second writer
  waits for it, up to :data:`LOCK_TIMEOUT` seconds, then gives up with :class:`Busy` and writes
  nothing.  An edit reads, validates and writes under one lock, so no edit is ever lost.  The
  kernel drops the lock when its process dies, however it dies.
- **Whole files.** :func:`staged` writes the new text to a temporary file beside the target
  (``.<name>.<8 random characters>.tmp``, with the target's permissions), flushes it to disk and
  yields it; :func:`commit` renames it over the target (``os.replace``), :func:`create` links it
  to a name that must not exist yet (``os.link``, so a brief is never overwritten and never
  exists half-written or empty).  A reader sees the old file or the new one, never a mix.
- **Nothing left behind.** A temporary file exists only while its writer holds the folder's
  lock, so whoever takes the lock next removes any it finds (left by a writer that was killed).
  :func:`scratch` makes a hidden folder beside the brief (``.digest-scratch-*``, not in the system's
  temporary folder, where a killed edit's copy would outlive the project) that its process holds an
  ``flock`` on; whoever takes the folder's lock next removes every such folder whose lock is free
  (its process is gone).  Every command and build calls :func:`tidy_data` first, so "next" is the
  next run of anything, not the next edit.
- **One clear error.** Every ``OSError`` becomes a :class:`FileError` saying what could not be
  done to which path and why (``cannot write data/briefs/x.yml: No space left on device``); it
  is still an ``OSError``, with the original ``errno``.

Test hook (off by default): with ``DIGEST_TEST_PAUSE=<point>`` in the environment a command stops
at that point (see :func:`pause` and :data:`PAUSE_POINTS`), prints ``digest: test hook: paused at
<point>`` to stderr and waits to be killed; ``tests/test_edit_safety.py`` kills it there with
SIGKILL and checks that the next command leaves nothing behind.  Never set it outside tests.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

LOCK_TIMEOUT = 120.0
"""Seconds a writer waits for another one working in the same folder before giving up."""

PAUSE_ENV = "DIGEST_TEST_PAUSE"
PAUSE_POINTS = {
    "locked": "the folder is locked, stale temporary files removed; nothing written yet",
    "staged": "the new text is in a temporary file beside the brief; the brief is untouched",
    "validating": "a scratch view of the data folder is in the temporary folder, about to be checked",
    "replacing": "validated, about to rename the temporary file over the brief",
    "replaced": "the brief is replaced; the scratch view and the lock are still held",
    "creating": "a new brief's text is in a temporary file, about to be linked to its name",
    "created": "the new brief exists; its temporary name is not removed yet",
}
"""Where :func:`pause` can stop a command (test hook only)."""

SCRATCH_PREFIX = ".digest-scratch-"
_TEMP = re.compile(r"^\..+\.ya?ml\.[a-z0-9_]{8}\.tmp$")
"""A temporary file :func:`staged` makes (``tempfile.mkstemp(prefix=".<name>.", suffix=".tmp")``)."""


class FileError(OSError):
    """A file operation failed: ``cannot <verb> <path>: <reason>``; ``errno`` is the original one."""

    def __init__(self, verb: str, path: Path | str, cause: OSError | str, code: int | None = None) -> None:
        reason = cause if isinstance(cause, str) else (cause.strerror or str(cause))
        super().__init__(code if code is not None else getattr(cause, "errno", None), reason, str(path))
        self.verb = verb

    def __str__(self) -> str:
        return f"cannot {self.verb} {self.filename}: {self.strerror}"


class Busy(FileError):
    """Another writer held the folder's lock for longer than the timeout."""

    def __init__(self, folder: Path, waited: float) -> None:
        super().__init__(
            "lock",
            folder,
            f"another digest command is writing there (waited {waited:g} s); try again when it is done",
            errno.EWOULDBLOCK,
        )


@contextlib.contextmanager
def failing(verb: str, path: Path | str) -> Iterator[None]:
    """Turn an ``OSError`` raised inside into a :class:`FileError` about ``path``."""
    try:
        yield
    except (FileError, FileExistsError):
        raise
    except OSError as exc:
        raise FileError(verb, path, exc) from exc


def pause(point: str) -> None:
    """Test hook: stop here when ``DIGEST_TEST_PAUSE`` names this point (unset: does nothing)."""
    if os.environ.get(PAUSE_ENV) != point:
        return
    sys.stderr.write(f"digest: test hook: paused at {point} (pid {os.getpid()})\n")
    sys.stderr.flush()
    while True:  # until killed
        time.sleep(60)


def open_folder(folder: Path, *, nofollow: bool = False) -> int:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(folder, flags | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0))


@contextlib.contextmanager
def locked(folder: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the exclusive lock of ``folder`` (wait up to ``timeout`` s); remove stale temporary files."""
    folder = Path(folder)
    timeout = LOCK_TIMEOUT if timeout is None else timeout
    with failing("lock", folder):
        fd = open_folder(folder)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy(folder, timeout) from None
                time.sleep(0.02)
            except OSError as exc:
                raise FileError("lock", folder, exc) from exc
        remove_stale_temps(folder)
        remove_stale_scratch(folder)
        pause("locked")
        yield
    finally:
        os.close(fd)  # releases the lock


def tidy(folder: Path) -> None:
    """Remove what killed writers left in ``folder``, if no writer is busy there.

    For a command that ends without writing (a brief that already exists): it does not wait."""
    with contextlib.suppress(OSError), locked(folder, timeout=0):
        pass


def tidy_data(data_dir: Path) -> None:
    """Remove what killed writers left anywhere in the data folder (its folders that are not busy).

    Called by every command and at the start of every build, so a killed edit's files last until
    the next run of anything.  Reads only the data folder's own folders; a missing one is skipped."""
    data_dir = Path(data_dir)
    with contextlib.suppress(OSError):
        folders = [data_dir] + sorted(
            Path(e.path) for e in os.scandir(data_dir) if e.is_dir(follow_symlinks=False) and not is_ours(e.name)
        )
        for folder in folders:
            tidy(folder)


def is_ours(name: str) -> bool:
    """Whether a file name is one of this module's temporary ones (a staged file, a scratch folder)."""
    return bool(_TEMP.match(name)) or name.startswith(SCRATCH_PREFIX)


def remove_stale_temps(folder: Path) -> list[str]:
    """Remove the temporary files a killed writer left in ``folder`` (call with its lock held)."""
    removed: list[str] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if _TEMP.match(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed.append(entry.name)
    return removed


def _new_file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def staged(path: Path, text: str) -> Iterator[Path]:
    """A temporary file beside ``path`` holding ``text`` (UTF-8), on disk; removed on exit if still there.

    Call with the folder's lock held (see :func:`locked`).  Errors say ``cannot write <path>``."""
    path = Path(path)
    data = text.encode("utf-8")
    tmp: str | None = None
    try:
        with failing("write", path):
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except FileNotFoundError:
                mode = _new_file_mode()
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            try:
                os.fchmod(fd, mode)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
        pause("staged")
        yield Path(tmp)
    finally:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (best effort: the rename itself has happened)."""
    with contextlib.suppress(OSError):
        fd = open_folder(folder)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def commit(tmp: Path, path: Path) -> None:
    """Rename the staged file over ``path`` (atomic)."""
    pause("replacing")
    with failing("write", path):
        os.replace(tmp, path)
    _sync_folder(path.parent)
    pause("replaced")


def create(path: Path, text: str, *, timeout: float | None = None) -> None:
    """Write a new file at ``path`` whole, or nothing; ``FileExistsError`` if it exists (never overwritten).

    Creates the missing folders (and removes those it made if the file could not be written)."""
    path = Path(path)
    made = _make_folders(path.parent)
    try:
        with locked(path.parent, timeout):
            if os.path.lexists(path):
                raise FileExistsError(f"{path} already exists")
            with staged(path, text) as tmp:
                _link(tmp, path)
    except BaseException:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _link(tmp: Path, path: Path) -> None:
    """Give the staged file ``tmp`` the name ``path``, which must not exist."""
    pause("creating")
    with failing("write", path):
        try:
            os.link(tmp, path)  # fails if the name exists: never overwrites
        except FileExistsError:
            raise FileExistsError(f"{path} already exists") from None
        except OSError as exc:
            if exc.errno not in {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV}:
                raise
            os.rename(tmp, path)  # a file system without hard links; the name was free, under the lock
    _sync_folder(path.parent)
    pause("created")


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; return those created, outermost first."""
    missing: list[Path] = []
    at = folder
    while not at.exists() and at != at.parent:
        missing.append(at)
        at = at.parent
    made: list[Path] = []
    for each in reversed(missing):
        try:
            each.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            for done in reversed(made):
                with contextlib.suppress(OSError):
                    done.rmdir()
            raise FileError("write", each, exc) from exc
        made.append(each)
    return made


# --------------------------------------------------------------------------- scratch folders


@contextlib.contextmanager
def scratch(base: Path) -> Iterator[Path]:
    """A private hidden folder in ``base`` (the folder of the brief being edited, whose lock the caller
    holds), removed on exit, or by the next run if this one is killed."""
    base = Path(base)
    remove_stale_scratch(base)
    with failing("write", base / f"{SCRATCH_PREFIX}*"):
        while True:
            folder = tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=base)
            fd = open_folder(Path(folder))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # held while alive; a cleaner only removes unlocked ones
                if os.stat(folder).st_ino == os.fstat(fd).st_ino:
                    break
            except FileNotFoundError:
                pass  # a cleaner took it for stale between mkdtemp and flock: make another
            except BaseException:
                os.close(fd)
                shutil.rmtree(folder, ignore_errors=True)
                raise
            os.close(fd)
    try:
        yield Path(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        os.close(fd)


def remove_stale_scratch(base: Path) -> list[str]:
    """Remove this user's scratch folders in ``base`` whose process is gone (their lock is free)."""
    base = Path(base)
    try:
        candidates = sorted(e.path for e in os.scandir(base) if e.name.startswith(SCRATCH_PREFIX))
    except OSError:
        return []
    return [Path(path).name for path in candidates if remove_if_stale(path)]


def remove_if_stale(path: str) -> bool:
    """Remove the folder at ``path`` if it is this user's and no live process holds its lock."""
    try:
        fd = open_folder(Path(path), nofollow=True)  # a file or a symbolic link of that name is left alone
    except OSError:
        return False
    try:
        if os.fstat(fd).st_uid != os.getuid():
            return False  # another user's, in a shared temporary folder
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False  # its process is alive
    try:
        shutil.rmtree(path, ignore_errors=True)
        return True
    finally:
        os.close(fd)


def mirror(source: Path, into: Path, replace: Path, by: Path) -> Path:
    """A view of the folder ``source`` at ``into``, made of symbolic links, where ``replace`` (a file
    under ``source``) is ``by`` instead.  Nothing is copied.  Returns the view's path of ``replace``."""
    source = Path(source).resolve()
    rel = Path(replace).resolve().relative_to(source)  # ValueError if it is not under source
    at, view = source, Path(into)
    with failing("write", into):
        view.mkdir(parents=True, exist_ok=True)
        for depth, part in enumerate(rel.parts, 1):
            with os.scandir(at) as entries:
                for entry in entries:
                    if entry.name != part and not is_ours(entry.name):  # not the view itself
                        os.symlink(entry.path, view / entry.name)
            at, view = at / part, view / part
            if depth < len(rel.parts):
                view.mkdir()
        os.symlink(Path(by).resolve(), view)
    return view
