"""A one-off build renders the generated pages from both ends on two cores: every page gets what
rendering it in the build's own process gives, whoever rendered it and whatever went wrong."""

from __future__ import annotations

import filecmp
import os
import time
from collections.abc import Callable

import pytest
from helpers import built_on_one_core_and_on_two, copy_project
from helpers.shared import machine_cores

from digest_plugin.core.pipeline import living_docs
from digest_plugin.hosts.extension import DirectiveError, PageContext, directives, render_directive
from digest_plugin.hosts.prerender import Prerender
from digest_plugin.site.layout import layouts
from digest_plugin.site.pages import generated_pages

two_cores = pytest.mark.skipif(len(machine_cores()) < 2, reason="one core: the build renders every page itself")


@pytest.fixture(scope="module")
def laid(lifecycle_data):
    return layouts(living_docs(lifecycle_data))


@pytest.fixture(scope="module")
def stubs(laid) -> dict[str, str]:
    return {path: content for path, content in generated_pages(laid) if path.endswith(".md")}


def rendered_here(laid, path: str, stub: str) -> tuple[list, set[str]]:
    ctx = PageContext(laid, path)
    return [render_directive(ctx, args) for args in directives(stub)], ctx.anchors


def as_the_host_does(prerender: Prerender, laid, stubs) -> tuple[dict, set[str]]:
    """Each page in order, as MkDocs reaches it: take what the worker rendered, else render it here
    (as the extension does).  The pages' blocks and anchors, and which pages came from the worker."""
    pages, from_worker = {}, set()
    for path, stub in stubs.items():
        ctx = PageContext(laid, path)
        prerender.take(ctx)
        if ctx.prepared:
            from_worker.add(path)
            pages[path] = (ctx.prepared, ctx.anchors)
        else:
            try:
                pages[path] = ([render_directive(ctx, args) for args in directives(stub)], ctx.anchors)
            except DirectiveError as exc:
                pages[path] = (str(exc), set())
    prerender.close()
    return pages, from_worker


def worker_done(prerender: Prerender, timeout: float = 60) -> None:
    """Wait until the worker has rendered all it will (it is writing its result)."""
    assert prerender.worker is not None and prerender.worker.file is not None
    deadline = time.monotonic() + timeout
    while os.fstat(prerender.worker.file.fileno()).st_size == 0:
        assert time.monotonic() < deadline, "the worker never finished"
        time.sleep(0.01)


def context(laid) -> Callable[[str], PageContext]:
    return lambda path: PageContext(laid, path)


@two_cores
@pytest.mark.every_core
def test_pages_the_worker_rendered_are_the_pages_rendered_here(laid, stubs):
    assert len(stubs) >= 8  # the register, bibliography, follow-ups, legend, briefs index and each brief
    prerender = Prerender(stubs, context(laid))
    worker_done(prerender)  # it had every page to itself
    pages, from_worker = as_the_host_does(prerender, laid, stubs)
    assert from_worker == set(stubs)
    assert pages == {path: rendered_here(laid, path, stub) for path, stub in stubs.items()}


def test_wherever_the_two_meet_each_page_is_the_same(laid, stubs):
    for _ in range(3):  # the meeting point moves with the machine's timing; the pages may not
        pages, _ = as_the_host_does(Prerender(stubs, context(laid)), laid, stubs)
        assert pages == {path: rendered_here(laid, path, stub) for path, stub in stubs.items()}


def test_a_worker_that_fails_leaves_its_pages_to_the_build(laid, stubs):
    build = os.getpid()

    def breaks_in_the_worker(path: str) -> PageContext:
        if os.getpid() != build:
            raise RuntimeError("the worker broke")
        return PageContext(laid, path)

    pages, from_worker = as_the_host_does(Prerender(stubs, breaks_in_the_worker), laid, stubs)
    assert pages == {path: rendered_here(laid, path, stub) for path, stub in stubs.items()}
    assert not from_worker


@two_cores
@pytest.mark.every_core
def test_a_page_the_worker_cannot_render_is_rendered_here_where_the_error_is_reported(laid, stubs):
    broken = {**stubs, "inference/briefs/gone.md": "# 简报\n\n[[digest brief=2099-01-01-inference-E1]]\n"}
    prerender = Prerender(broken, context(laid))
    worker_done(prerender)
    pages, from_worker = as_the_host_does(prerender, laid, broken)
    assert from_worker == set(stubs)
    assert pages["inference/briefs/gone.md"] == ("unknown brief '2099-01-01-inference-E1' in topic 'inference'", set())


@two_cores
@pytest.mark.every_core
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this system")
def test_a_build_on_one_core_and_on_two_is_the_same_site(tmp_path):
    root = copy_project(tmp_path / "project", lifecycle=True)
    one, two, log_one = built_on_one_core_and_on_two(root, tmp_path)
    assert "digest: 0 of" in log_one  # pinned to one core, the build rendered every page
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    differ = [str(p) for p in files if not filecmp.cmp(one / p, two / p, shallow=False)]
    assert differ == []


def test_nothing_is_left_behind(laid, stubs, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    prerender = Prerender(stubs, context(laid))
    first = PageContext(laid, next(iter(stubs)))
    prerender.take(first)  # the build takes one page, then stops (an error elsewhere, say)
    prerender.close()
    assert not list(tmp_path.iterdir())
    assert prerender.worker is None or prerender.worker.pid is None
