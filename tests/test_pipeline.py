"""Loading and merging as a host calls it: what a preview does between rebuilds."""

from __future__ import annotations

import gc
import time
import weakref

import pytest

from digest_plugin.core import pipeline


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def _frozen_garbage() -> weakref.ref[Node]:
    node = Node()
    gone = weakref.ref(node)
    gc.freeze()  # as a load leaves what it made
    del node
    return gone


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(pipeline, "IDLE_COLLECT_S", 0.05)
    yield
    gc.unfreeze()


def test_a_preview_collects_what_earlier_builds_left_once_it_is_idle(quick):
    gone = _frozen_garbage()
    gc.collect()
    assert gone() is not None  # frozen: no collection frees it
    idle = pipeline.IdleCollection()
    idle.schedule()
    deadline = time.monotonic() + 5
    while gone() is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone() is None


def test_a_rebuild_that_starts_first_puts_the_collection_off(quick):
    gone = _frozen_garbage()
    idle = pipeline.IdleCollection()
    idle.schedule()
    idle.cancel()  # the next rebuild began
    time.sleep(0.3)
    assert gone() is not None
