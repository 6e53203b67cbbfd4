"""The writing commands under stress: concurrent edits, SIGKILL at any moment, a read-only folder, a full disk.

The six commands that write a brief (`new`, `import`, `resolve`, `close-follow-up`, `set-evidence`,
`cite`) must never lose an edit, never leave a temporary file or a copy of the data folder behind,
and never end in a traceback or a partial (or empty) brief.  Kill points use the test hook of
`digest_plugin.core.files` (``DIGEST_TEST_PAUSE``, off by default).
"""

from __future__ import annotations

import builtins
import datetime as dt
import errno
import fcntl
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from helpers import BRIEF, ROOT, copy_project, run_cli

MARKDOWN = ROOT / "tests" / "fixtures" / "2026-10-21-inference-E1.md"
NEW = "data/briefs/2026-10-22-inference-E1.yml"
TEMP = re.compile(r"\.tmp$")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path → bytes)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(project: Path, tmpdir: Path) -> list[str]:
    """Temporary files and scratch folders in the data folder, and anything at all in the (private)
    temporary folder."""
    found = [
        p.relative_to(project).as_posix()
        for p in (project / "data").rglob("*")
        if TEMP.search(p.name) or p.name.startswith(".digest-scratch-")
    ]
    return found + [f"$TMPDIR/{p.name}" for p in tmpdir.iterdir()]


def env(tmpdir: Path, **extra: str) -> dict[str, str]:
    tmpdir.mkdir(exist_ok=True)
    base = {k: v for k, v in os.environ.items() if k != "DIGEST_TEST_PAUSE"}
    return {**base, "TMPDIR": str(tmpdir), "PYTHONDONTWRITEBYTECODE": "1", **extra}


def digest(*args: str, cwd: Path, tmpdir: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """``digest ARGS`` in a fresh process (its temporary folder is ``tmpdir``)."""
    return subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", *args],
        cwd=cwd,
        env=env(tmpdir, **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def project(data_copy: Path) -> Path:
    """A project folder holding a copy of data/ and tomorrow's empty brief (NEW)."""
    from digest_plugin.authoring.scaffold import new_brief

    new_brief(data_copy, "inference", dt.date(2026, 10, 22))
    return data_copy.parent


# --------------------------------------------------------------------------- 1. concurrent edits

WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from digest_plugin.cli import main
    command, brief, ids, marker, rounds, start = sys.argv[1:7]
    ids = ids.split(",")
    while not Path(start).exists():
        time.sleep(0.005)
    codes = []
    for n in range(int(rounds)):
        target = ids[n % len(ids)]
        if command == "resolve":
            codes.append(main(["resolve", brief, target, "--text", f"{marker}-{n}"]))
        else:
            codes.append(main(["close-follow-up", brief, target, "--status", "carried_over", "--note", f"{marker}-{n}"]))
    print(codes)
    """
)


def test_two_concurrent_editors_of_one_brief_lose_no_edit(project, tmp_path):
    from digest_plugin.core.load import load_data

    rounds = 20
    contradictions = [c.id for b in load_data(project / "data").briefs for c in b.contradictions]
    follow_ups = [f.id for b in load_data(project / "data").briefs for f in b.follow_ups]
    start = tmp_path / "start"
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, command, NEW, ",".join(ids), marker, str(rounds), str(start)],
            cwd=project,
            env=env(tmp_path / "tmp"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command, ids, marker in (("resolve", contradictions, "A"), ("close", follow_ups, "B"))
    ]
    time.sleep(1.0)  # both imported and waiting
    start.touch()
    outputs = [w.communicate(timeout=300) for w in workers]
    for (out, err), worker in zip(outputs, workers, strict=True):
        assert worker.returncode == 0, err
        assert out.splitlines()[-1] == str([0] * rounds), err
    text = (project / NEW).read_text(encoding="utf-8")
    missing = [f"{m}-{n}" for m in "AB" for n in range(rounds) if f'"{m}-{n}"' not in text]
    assert missing == [], f"{len(missing)} of {2 * rounds} edits lost: {missing}"
    assert digest("check", "data", "--config", "none", cwd=project, tmpdir=tmp_path / "tmp").returncode == 0
    assert leftovers(project, tmp_path / "tmp") == []


def test_an_editor_that_cannot_get_the_lock_says_so_in_one_line(project, capsys, monkeypatch):
    monkeypatch.setattr("digest_plugin.core.files.LOCK_TIMEOUT", 0.3)
    brief = project / NEW
    before = brief.read_bytes()
    fd = os.open(brief.parent, os.O_RDONLY)  # another writer holds the folder
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        code, out, err = run_cli(
            "resolve", NEW, "kapitsa-weekly-gain", "--text", "x", cwd=project, capsys=capsys, monkeypatch=monkeypatch
        )
    finally:
        os.close(fd)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        f"{NEW}: error: cannot lock data/briefs: another digest command is writing there (waited 0.3 s); "
        "try again when it is done"
    ]
    assert brief.read_bytes() == before


# --------------------------------------------------------------------------- 2. SIGKILL at any moment


def start_paused(args: list[str], point: str, cwd: Path, tmpdir: Path) -> subprocess.Popen[str]:
    """``digest ARGS`` stopped by the test hook at ``point`` (fails if it ends without getting there)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "digest_plugin.cli", *args],
        cwd=cwd,
        env=env(tmpdir, DIGEST_TEST_PAUSE=point),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    said = []
    for line in proc.stderr:  # warnings, then the hook's line; or EOF if the command ended without pausing
        said.append(line)
        if "test hook: paused at" in line:
            return proc
    proc.wait()
    pytest.fail(f"never paused at {point}: exit {proc.returncode}\n{''.join(said)}")


def kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL


EDIT = ["resolve", NEW, "kapitsa-weekly-gain", "--text", "killed edit"]


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> bytes:
    """The brief after ``EDIT`` run to its end on a project like ``project``: what "the new version" is
    (the same for every point the edit is killed at, so made once)."""
    from digest_plugin.authoring.scaffold import new_brief

    twin = tmp_path_factory.mktemp("twin")
    shutil.copytree(ROOT / "data", twin / "data")
    new_brief(twin / "data", "inference", dt.date(2026, 10, 22))
    assert digest(*EDIT, cwd=twin, tmpdir=twin / "tmp").returncode == 0
    return (twin / NEW).read_bytes()


@pytest.mark.parametrize("point", ["locked", "staged", "validating", "replacing", "replaced"])
def test_an_edit_killed_at_any_point_leaves_the_old_or_the_new_brief_and_nothing_else(project, tmp_path, point, edited):
    tmpdir = tmp_path / "tmp"
    brief = project / NEW
    before, after = brief.read_bytes(), edited

    proc = start_paused(EDIT, point, project, tmpdir)
    if point == "validating":  # the check reads a view of the data folder: links, not a copy, beside the brief
        scratch = list(brief.parent.glob(".digest-scratch-*"))
        assert len(scratch) == 1 and not list(tmpdir.iterdir()), scratch
        view = list(scratch[0].rglob("*"))
        assert any(p.name == Path(NEW).name for p in view)
        assert [p for p in view if p.is_file() and not p.is_symlink()] == []
    kill(proc)
    assert brief.read_bytes() == (after if point == "replaced" else before)

    done = digest("close-follow-up", NEW, "vllm-long-prefill-issue", cwd=project, tmpdir=tmpdir)
    assert done.returncode == 0, done.stderr
    assert leftovers(project, tmpdir) == []
    assert ("killed edit" in brief.read_text(encoding="utf-8")) == (point == "replaced")


@pytest.mark.parametrize(
    ("command", "point"),
    [("new", "creating"), ("new", "created"), ("import", "creating"), ("import", "created")],
)
def test_a_new_brief_killed_while_written_is_whole_or_absent_and_nothing_is_left(data_copy, tmp_path, command, point):
    project, tmpdir = data_copy.parent, tmp_path / "tmp"
    if command == "new":
        # the round given: without it a second run writes the night's next round (E2), not "exists"
        args, target = ["new", "--topic", "inference", "--date", "2026-10-22", "--round", "E1"], project / NEW
    else:
        (data_copy / BRIEF).unlink()  # the shipped brief is the one the Markdown fixture imports
        args, target = ["import", str(MARKDOWN)], data_copy / BRIEF
    twin = tmp_path / "twin"
    shutil.copytree(project / "data", twin / "data")
    assert digest(*args, cwd=twin, tmpdir=tmp_path / "twin-tmp").returncode == 0
    whole = (twin / target.relative_to(project)).read_bytes()

    kill(start_paused(args, point, project, tmpdir))
    assert target.read_bytes() == whole if point == "created" else not target.exists()

    again = digest(*args, cwd=project, tmpdir=tmpdir)  # the next run: writes it, or says it exists
    assert again.returncode == (1 if point == "created" else 0), again.stderr
    assert "Traceback" not in again.stderr
    assert target.read_bytes() == whole
    assert leftovers(project, tmpdir) == []


@pytest.mark.parametrize("next_run", ["check", "build"])
def test_what_a_killed_edit_left_is_removed_by_the_next_run_of_anything(tmp_path, next_run):
    """Issue 33, 4: the staged file and the scratch view live beside the brief, not in /tmp, and the
    next `digest check` or site build removes them (before, only the next edit did)."""
    from digest_plugin.authoring.scaffold import new_brief

    project = copy_project(tmp_path / "p")
    new_brief(project / "data", "inference", dt.date(2026, 10, 22))
    tmpdir = tmp_path / "tmp"
    kill(start_paused(EDIT, "validating", project, tmpdir))
    left = leftovers(project, tmpdir)
    assert any(".digest-scratch-" in name for name in left) and any(name.endswith(".tmp") for name in left), left
    if next_run == "check":
        done = digest("check", "data", "--config", "none", cwd=project, tmpdir=tmpdir)
    else:
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")],
            cwd=project,
            env=env(tmpdir),
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    assert leftovers(project, tmpdir) == []


def test_a_scratch_folder_is_removed_only_once_its_process_is_gone(tmp_path):
    from digest_plugin.core import files

    dead = tmp_path / ".digest-scratch-left-by-a-killed-edit"
    (dead / "data" / "briefs").mkdir(parents=True)
    (tmp_path / ".digest-scratch-a-file").write_text("not a folder: not ours")
    with files.scratch(tmp_path) as alive:
        assert alive.parent == tmp_path and alive.name.startswith(".digest-scratch-")
        assert files.remove_stale_scratch(tmp_path) == []  # the live one (this process holds its lock) stays
        assert alive.is_dir() and not dead.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".digest-scratch-a-file"]


def test_an_edit_keeps_the_briefs_permissions_and_a_new_brief_gets_the_usual_ones(project, capsys, monkeypatch):
    brief = project / NEW
    brief.chmod(0o640)
    assert run_cli(*EDIT, cwd=project, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    assert brief.stat().st_mode & 0o777 == 0o640
    mask = os.umask(0o022)
    try:
        assert run_cli(*COMMANDS["new"][0], cwd=project, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    finally:
        os.umask(mask)
    assert (project / COMMANDS["new"][1]).stat().st_mode & 0o777 == 0o644


@pytest.mark.slow
def test_edits_killed_at_random_moments_leave_nothing_behind(project, tmp_path):
    """What the audit did: SIGKILL after a delay, many times, then one more command; no plan of the code."""
    tmpdir = tmp_path / "tmp"
    brief = project / NEW
    for n, delay in enumerate([0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6]):
        before = brief.read_bytes()
        args = ["resolve", NEW, "kapitsa-weekly-gain", "--text", f"edit {n}"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "digest_plugin.cli", *args],
            cwd=project,
            env=env(tmpdir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        text = brief.read_text(encoding="utf-8")
        if brief.read_bytes() != before:  # the edit landed whole: the old text plus its own three lines
            assert f'text: "edit {n}"' in text and text.count("contradiction: kapitsa-weekly-gain") == (
                before.decode("utf-8").count("contradiction: kapitsa-weekly-gain") + 1
            )
    done = digest("close-follow-up", NEW, "vllm-long-prefill-issue", cwd=project, tmpdir=tmpdir)
    assert done.returncode == 0, done.stderr
    assert leftovers(project, tmpdir) == []
    assert digest("check", "data", "--config", "none", cwd=project, tmpdir=tmpdir).returncode == 0


# --------------------------------------------------------------------------- 3. read-only folder, full disk

COMMANDS = {
    "new": (
        ["new", "--topic", "inference", "--date", "2026-10-23", "--data", "data"],
        "data/briefs/2026-10-23-inference-E1.yml",
    ),
    "import": (["import", str(MARKDOWN), "-o", "data/briefs/imported.yml"], "data/briefs/imported.yml"),
    "resolve": (["resolve", NEW, "kapitsa-weekly-gain", "--text", "已修正"], NEW),
    "close-follow-up": (["close-follow-up", NEW, "vllm-long-prefill-issue", "--note", "找到"], NEW),
    "set-evidence": (
        ["set-evidence", NEW, "vllm-long-prefill-freeze", "--level", "partially_verified", "--boundary", "已回溯"],
        NEW,
    ),
    "cite": (["cite", NEW, "2309.06180", "--title", "PagedAttention"], NEW),
}
REASONS = {errno.EROFS: "Read-only file system", errno.ENOSPC: "No space left on device"}


class FullFile(io.StringIO):
    """What ``open(..., "w")`` gives on a full disk: the file exists, every write fails."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def fail_writes(monkeypatch, folder: Path, code: int) -> None:
    """Make every write under ``folder`` fail as a read-only folder (EROFS) or a full disk (ENOSPC) does.

    Read-only: creating, renaming, linking or removing anything there fails.  Full disk: files can
    be created (and removed) but every byte written fails, as does making a folder."""
    folder = folder.resolve()
    real = {
        name: getattr(os, name)
        for name in ("open", "write", "fsync", "replace", "rename", "link", "mkdir", "unlink", "rmdir", "chmod")
    }
    real_open, real_close = builtins.open, os.close
    doomed: set[int] = set()

    def inside(path) -> bool:
        return not isinstance(path, int) and folder in (
            Path(os.fspath(path)).resolve(),
            *Path(os.fspath(path)).resolve().parents,
        )

    def fail(*_):
        raise OSError(code, os.strerror(code))

    def fake_os_open(path, flags, *args, **kwargs):
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            if code == errno.EROFS:
                fail()
            fd = real["open"](path, flags, *args, **kwargs)
            doomed.add(fd)
            return fd
        return real["open"](path, flags, *args, **kwargs)

    def fake_write(fd, data):
        return fail() if fd in doomed else real["write"](fd, data)

    def fake_close(fd):
        doomed.discard(fd)
        return real_close(fd)

    def fake_fsync(fd):
        return fail() if fd in doomed else real["fsync"](fd)

    def fake_builtin_open(file, mode="r", *args, **kwargs):
        writing = any(c in mode for c in "wxa+")
        if writing and (inside(file) or file in doomed):
            if code == errno.EROFS:
                fail()
            if not isinstance(file, int):
                real_open(file, mode.replace("t", "")).close()  # the file is created, empty
            return FullFile()
        return real_open(file, mode, *args, **kwargs)

    def guard(name: str):
        def fake(*paths, **kwargs):
            targets = [p for p in paths if isinstance(p, (str, bytes, os.PathLike))]
            if name in {"unlink", "rmdir"} and code == errno.ENOSPC:
                return real[name](*paths, **kwargs)
            if any(inside(p) for p in targets):
                fail()
            return real[name](*paths, **kwargs)

        return fake

    monkeypatch.setattr(os, "open", fake_os_open)
    monkeypatch.setattr(os, "write", fake_write)
    monkeypatch.setattr(os, "close", fake_close)
    monkeypatch.setattr(os, "fsync", fake_fsync)
    for name in ("replace", "rename", "link", "mkdir", "unlink", "rmdir", "chmod"):
        monkeypatch.setattr(os, name, guard(name))
    monkeypatch.setattr(builtins, "open", fake_builtin_open)
    monkeypatch.setattr(io, "open", fake_builtin_open)


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC], ids=["read-only", "full-disk"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_that_cannot_write_says_so_in_one_line_and_writes_nothing(
    project, tmp_path, capsys, monkeypatch, command, code
):
    args, target = COMMANDS[command]
    before = snapshot(project / "data")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    fail_writes(monkeypatch, project / "data", code)
    exit_code, out, err = run_cli(*args, cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    monkeypatch.undo()
    lines = [line for line in err.splitlines() if ": warning: " not in line]  # import warns the editor first
    assert (exit_code, out) == (1, "")
    assert len(lines) == 1 and re.fullmatch(
        rf"{re.escape(target)}: error: cannot write \S+: {REASONS[code]}", lines[0]
    ), err
    assert snapshot(project / "data") == before  # no empty or partial brief, no temporary file


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores a folder's permissions")
def test_a_read_only_briefs_folder_is_one_line_per_command(project, tmp_path):
    briefs = project / "data" / "briefs"
    before = snapshot(project / "data")
    briefs.chmod(0o555)
    try:
        for command, (args, target) in COMMANDS.items():
            done = digest(*args, cwd=project, tmpdir=tmp_path / "tmp")
            last = done.stderr.splitlines()[-1]
            assert done.returncode == 1, (command, done.stderr)
            assert last == f"{target}: error: cannot write {target}: Permission denied", (command, done.stderr)
            assert "Traceback" not in done.stderr
    finally:
        briefs.chmod(0o755)
    assert snapshot(project / "data") == before


DRIVER = textwrap.dedent(
    """
    # Runs as root of its own user and mount namespace (unshare -rm): a real tmpfs, read-only or full.
    import json, os, shutil, subprocess, sys
    mode, root, project, commands = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", root], check=True)
    shutil.copytree(os.path.join(project, "data"), os.path.join(root, "data"))
    if mode == "read-only":
        subprocess.run(["mount", "-o", "remount,ro", root], check=True)
    else:
        filler = os.open(os.path.join(root, "filler"), os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(filler, b"x" * 4096)
        except OSError:
            os.close(filler)
    def files():
        return {os.path.relpath(os.path.join(d, f), root): os.path.getsize(os.path.join(d, f))
                for d, _, fs in os.walk(os.path.join(root, "data")) for f in fs}
    before, results = files(), {}
    for name, args in commands.items():
        done = subprocess.run([sys.executable, "-m", "digest_plugin.cli", *args], cwd=root,
                              capture_output=True, text=True)
        results[name] = [done.returncode, done.stderr]
    print(json.dumps({"results": results, "unchanged": files() == before}))
    """
)


@pytest.mark.parametrize("mode", ["read-only", "full-disk"])
def test_on_a_real_read_only_or_full_file_system(project, tmp_path, mode):
    """The same on a real tmpfs (read-only, or filled up), where the system lets us mount one."""
    unshare = shutil.which("unshare")
    probe = unshare and subprocess.run([unshare, "-rm", "true"], capture_output=True)
    if not probe or probe.returncode != 0:
        pytest.skip("no unshare -rm here (user namespaces unavailable): cannot mount a test file system")
    root = tmp_path / "mnt"
    root.mkdir()
    commands = {name: args for name, (args, _) in COMMANDS.items()}
    done = subprocess.run(
        [unshare, "-rm", sys.executable, "-c", DRIVER, mode, str(root), str(project), json.dumps(commands)],
        capture_output=True,
        text=True,
        env=env(tmp_path / "tmp"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    reason = REASONS[errno.EROFS if mode == "read-only" else errno.ENOSPC]
    for name, (code, err) in report["results"].items():
        target = COMMANDS[name][1]
        assert code == 1 and "Traceback" not in err, (name, err)
        assert re.fullmatch(rf"{re.escape(target)}: error: cannot write \S+: {reason}", err.splitlines()[-1]), (
            name,
            err,
        )
    assert report["unchanged"], "a command left a file behind (an empty or partial brief, a temporary file)"
