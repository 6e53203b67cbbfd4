"""Forked workers only ever make the build faster: same results, nothing left behind."""

from __future__ import annotations

import os
import tempfile
import threading

import pytest

from digest_plugin.core.workers import Worker, cores

pytestmark = pytest.mark.every_core  # the workers' own tests: on every core, not the one this test worker has


def test_a_worker_runs_in_another_process_when_this_one_has_no_other_thread():
    result = Worker(os.getpid).result()
    if threading.active_count() == 1 and cores() > 1:
        assert result != os.getpid()
    else:  # some earlier test left a thread running, or one core: then the rules below apply
        assert result == os.getpid()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this system")
def test_on_one_core_the_work_is_done_here():
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})  # what `taskset -c 0` or a one-core container gives
    try:
        assert cores() == 1
        assert Worker(os.getpid).result() == os.getpid()
    finally:
        os.sched_setaffinity(0, allowed)


def test_with_other_threads_running_the_work_is_done_here():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert Worker(os.getpid).result() == os.getpid()  # forking a threaded process can hang the child
    finally:
        stop.set()
        thread.join()


def test_results_come_back_whole_and_no_file_is_left(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    data = [{"标题": "x" * 1000, "n": [1, 2.5, None, True]}] * 50
    assert Worker(lambda: data).result() == data
    assert Worker(lambda: {1, 2}).result() == {1, 2}
    assert not list(tmp_path.iterdir())


def test_a_failing_worker_is_replaced_by_doing_the_work_here():
    calls = []

    def work():
        calls.append(os.getpid())
        if os.getpid() != parent:
            raise RuntimeError("worker crashed")
        return "done here"

    parent = os.getpid()
    assert Worker(work).result() == "done here"
    assert calls == [parent]  # the child's call is not seen here; this process did the work once


def test_no_fork_to_be_had_means_the_work_is_done_here(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert Worker(os.getpid).result() == os.getpid()
    assert not list(tmp_path.iterdir())


def test_a_worker_whose_result_is_not_wanted_is_stopped_and_leaves_nothing(tmp_path, monkeypatch):
    import time

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    worker = Worker(time.sleep, 60)
    start = time.monotonic()
    worker.close()
    assert time.monotonic() - start < 10 and not list(tmp_path.iterdir())


KILLED = """
import os, signal, sys, time
from digest_plugin.core.workers import Worker
worker = Worker(time.sleep, 30)   # the worker is busy: its result file is open in both processes
print(worker.pid, flush=True)
time.sleep(30)
"""


def test_a_build_killed_while_its_worker_runs_leaves_nothing_in_the_temporary_folder(tmp_path):
    """SIGKILL of the process that started a worker, and of the worker, at the moment both hold the
    result's file: the temporary folder is as it was (issue 33, 4: 4 of 10 killed builds left
    ``/tmp/digest-worker-*`` before the file had no name)."""
    import signal
    import subprocess
    import sys

    env = {**os.environ, "TMPDIR": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-c", KILLED], stdout=subprocess.PIPE, text=True, env=env)
    assert child.stdout is not None
    worker = int(child.stdout.readline())
    assert worker > 0  # a worker was forked (two cores here), so it made its file
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    os.kill(worker, signal.SIGKILL)
    assert list(tmp_path.iterdir()) == []
