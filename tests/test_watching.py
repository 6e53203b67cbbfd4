"""The preview hears a save from the system (inotify here), not at MkDocs' next poll; where the system
refuses, MkDocs' polling observer keeps every watch (digest_plugin.hosts.watching)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from mkdocs.livereload import LiveReloadServer
from watchdog.observers.polling import PollingObserver

from digest_plugin.hosts import watching


def _server(tmp_path: Path) -> LiveReloadServer:
    """A live-reload server as ``mkdocs serve`` makes it, never bound to a port."""
    return LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))


def _wants_rebuild_after(server: LiveReloadServer, path: Path, timeout: float = 5.0) -> bool:
    """Write ``path`` and wait for the server to ask for a rebuild."""
    with server._rebuild_cond:
        server._want_rebuild = False
    path.write_text(f"saved {time.time_ns()}\n", encoding="utf-8")
    with server._rebuild_cond:
        return server._rebuild_cond.wait_for(lambda: server._want_rebuild, timeout=timeout)


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    docs, config, data = tmp_path / "docs", tmp_path / "mkdocs.yml", tmp_path / "data" / "briefs"
    docs.mkdir()
    data.mkdir(parents=True)
    config.write_text("site_name: t\n", encoding="utf-8")
    return docs, config, data


def test_every_watch_moves_to_the_system_and_a_save_is_heard(tmp_path, folders) -> None:
    docs, config, data = folders
    server = _server(tmp_path)
    server.watch(str(docs))
    server.watch(str(docs))  # watched twice (a plugin's watch too): counted twice, as MkDocs counts
    server.watch(str(config))
    polling = server.observer
    assert isinstance(polling, PollingObserver)
    try:
        assert watching.hear_saves(server, [str(data.parent)]) is True
        assert not isinstance(server.observer, PollingObserver)
        assert server.observer.is_alive()  # started here: a refused watch shows now, not in serve()
        assert server._watched_paths == {str(docs): 2, str(config): 1, str(data.parent): 1}
        assert not polling.emitters  # the old observer watches nothing any more
        # MkDocs then watches its `watch:` list and starts the observer: both are harmless
        server.watch(str(data.parent))
        assert server._watched_paths[str(data.parent)] == 2
        server.observer.start()
        assert _wants_rebuild_after(server, docs / "index.md")
        assert _wants_rebuild_after(server, data / "2026-12-06-inference-E1.yml")
        assert _wants_rebuild_after(server, config)
        # a rebuild reads every watched file: reading is not saving, else each rebuild asks for the next
        time.sleep(0.5)  # the last save's own events (written, then closed) all heard
        with server._rebuild_cond:
            server._want_rebuild = False
        for path in (docs / "index.md", data / "2026-12-06-inference-E1.yml", config):
            path.read_text(encoding="utf-8")
        with server._rebuild_cond:
            assert not server._rebuild_cond.wait_for(lambda: server._want_rebuild, timeout=1.0)
    finally:
        server.observer.stop()
        server.observer.join(5)


def test_a_system_that_refuses_a_watch_leaves_mkdocs_polling(tmp_path, folders, monkeypatch) -> None:
    docs, config, data = folders
    server = _server(tmp_path)
    server.watch(str(docs))
    server.watch(str(config))
    polling = server.observer

    def refuse(self) -> None:
        raise OSError(24, "inotify instance limit reached")

    monkeypatch.setattr(watching._Started, "start", refuse)
    assert watching.hear_saves(server, [str(data.parent)]) is False
    assert server.observer is polling
    assert server._watched_paths == {str(docs): 1, str(config): 1, str(data.parent): 1}
    assert set(server._watch_refs) == set(server._watched_paths)
    server.observer.start()
    try:
        assert _wants_rebuild_after(server, data / "2026-12-06-inference-E1.yml")
        assert _wants_rebuild_after(server, docs / "index.md")
    finally:
        server.observer.stop()
        server.observer.join(5)


def test_a_server_with_other_insides_is_left_as_it_is(tmp_path) -> None:
    class Other:
        observer = PollingObserver()

    other = Other()
    assert watching.hear_saves(other, []) is False
    assert other.observer is Other.observer
    server = _server(tmp_path)
    server.observer.start()  # already watching: too late to move
    try:
        assert watching.hear_saves(server, []) is False
        assert isinstance(server.observer, PollingObserver)
    finally:
        server.observer.stop()
        server.observer.join(5)
