"""`mkdocs serve` rebuilds when a brief under data/ changes.

MkDocs watches only docs/ and mkdocs.yml by default; the living doc comes from data/, so a reader
editing a brief must see the served page change without restarting the server.  Only loopback
traffic: the server listens on 127.0.0.1 and the test only talks to it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import copy_project
from ruamel.yaml import YAML

PROJECT = Path(__file__).resolve().parents[1]
BRIEF_YAML = "data/briefs/2026-10-21-inference-E1.yml"
ITEM_ID = "llm-d-1-0"  # 条目 1 of the brief, placed in §5.1
RELOAD_TIMEOUT = 60


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, ""


def log_of(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-4000:] if path.exists() else ""


@contextlib.contextmanager
def serving(
    project: Path, log: Path, command: tuple[str, ...] = ("-m", "mkdocs", "serve")
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``mkdocs serve`` (or ``command``) of ``project`` on a free loopback port, its output in ``log``;
    stopped after."""
    port = free_port()
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            [sys.executable, *command, "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            yield server, port
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=15)


def wait_for(url: str, server: subprocess.Popen[bytes], log: Path, ok: Callable[[str], bool], what: str) -> str:
    """The page at ``url`` once ``ok(page)`` holds, or fail saying ``what`` did not happen."""
    deadline = time.monotonic() + RELOAD_TIMEOUT
    while time.monotonic() < deadline:
        assert server.poll() is None, f"mkdocs serve exited:\n{log_of(log)}"
        status, page = fetch(url)
        if status == 200 and ok(page):
            return page
        time.sleep(0.5)
    raise AssertionError(f"{what} within {RELOAD_TIMEOUT}s:\n{log_of(log)}")


def wait_in_log(log: Path, server: subprocess.Popen[bytes], said: str) -> None:
    """Until the server's log says ``said``: a line the server writes after its work is done (the search
    index is swapped in, then its leak check reads it, then the line is logged)."""
    deadline = time.monotonic() + RELOAD_TIMEOUT
    while said not in log_of(log):
        assert server.poll() is None, f"mkdocs serve exited:\n{log_of(log)}"
        assert time.monotonic() < deadline, f"the log never said «{said}» within {RELOAD_TIMEOUT}s:\n{log_of(log)}"
        time.sleep(0.2)


@dataclass
class TitleEdit:
    """A copy of the project, and the edit every serve test makes: the llm-d 1.0 item (§5.1) gets a
    marker in its title."""

    project: Path
    marker: str

    @property
    def brief(self) -> Path:
        return self.project / BRIEF_YAML

    def apply(self) -> None:
        source = self.brief.read_text(encoding="utf-8")
        item = next(i for i in YAML(typ="safe").load(source)["items"] if i["id"] == ITEM_ID)
        old_line = f'    title: "{item["title"]}"\n'
        assert source.count(old_line) == 1, "could not find the title line of the llm-d 1.0 item"
        self.brief.write_text(
            source.replace(old_line, f'    title: "{item["title"]} {self.marker}"\n'), encoding="utf-8"
        )


def title_edit(tmp_path: Path, prefix: str) -> TitleEdit:
    return TitleEdit(copy_project(tmp_path / "project"), f"{prefix}-{uuid.uuid4().hex[:12]}")


def test_editing_a_brief_under_mkdocs_serve_changes_the_served_page(tmp_path):
    edit = title_edit(tmp_path, "SERVE-RELOAD")
    project, marker = edit.project, edit.marker
    log = tmp_path / "serve.log"
    with serving(project, log) as (server, port):
        url = f"http://127.0.0.1:{port}/inference/5/"
        page = wait_for(url, server, log, lambda p: f'data-digest-item="{ITEM_ID}"' in p, "§5 did not come up")
        assert marker not in page
        edit.apply()
        wait_for(
            url, server, log, lambda p: marker in p, f"the served §5 page did not change after editing {BRIEF_YAML}"
        )
        # The preview has a search: Pagefind indexes it in the background once the server is up.
        wait_for(f"http://127.0.0.1:{port}/pagefind/pagefind.js", server, log, bool, "no preview search index")
        wait_in_log(log, server, "the preview's search index is ready")


def test_digest_serve_previews_an_edit_converting_only_what_changed(tmp_path):
    """The README's preview command: a dirty ``mkdocs serve`` whose plugin picks the pages to convert."""
    edit = title_edit(tmp_path, "DIGEST-SERVE")
    project, marker = edit.project, edit.marker
    log = tmp_path / "serve.log"
    with serving(project, log, ("-m", "digest_plugin.cli", "serve")) as (server, port):
        url = f"http://127.0.0.1:{port}/inference/5/"
        wait_for(url, server, log, lambda p: f'data-digest-item="{ITEM_ID}"' in p, "§5 did not come up")
        edit.apply()
        wait_for(url, server, log, lambda p: marker in p, "the served §5 page did not change")
        brief = f"http://127.0.0.1:{port}/inference/briefs/2026-10-21-inference-E1/"
        wait_for(brief, server, log, lambda p: marker in p, "the brief's own page did not change")
    assert fetch(url)[0] == 0, "stopping `digest serve` left a server running on its port"
    text = log_of(log)
    # After the edit, only the pages whose content changed were converted (not every page again).
    assert re.search(r"preview converts \d+ of \d+ generated pages \(\d+ rendered to compare\)", text), text
    assert "A 'dirty' build" not in text


def test_a_broken_brief_keeps_the_last_good_site_with_its_errors_on_every_page(tmp_path):
    project = copy_project(tmp_path / "project")
    brief_path = project / BRIEF_YAML
    good = brief_path.read_text(encoding="utf-8")
    broken_line = next(n for n, line in enumerate(good.splitlines(), 1) if line.strip() == "level: partially_verified")
    log = tmp_path / "serve.log"
    with serving(project, log) as (server, port):
        home, section = f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/inference/5/"
        wait_for(section, server, log, lambda p: f'data-digest-item="{ITEM_ID}"' in p, "the site did not come up")
        brief_path.write_text(good.replace("level: partially_verified", "level: half_verified", 1), encoding="utf-8")
        banner = 'class="digest-serve-errors"'
        page = wait_for(home, server, log, lambda p: banner in p, "no error banner appeared")
        assert f"{BRIEF_YAML}:{broken_line}:" in page and "half_verified" in page
        page = wait_for(section, server, log, lambda p: banner in p, "the banner is not on every page")
        assert f'data-digest-item="{ITEM_ID}"' in page  # the last good version, still served
        assert f"{BRIEF_YAML}:{broken_line}:" in log_of(log)  # the terminal says the same
        brief_path.write_text(good, encoding="utf-8")
        wait_for(section, server, log, lambda p: banner not in p, "the banner did not clear once fixed")


def test_digest_serve_on_zensical_follows_a_data_edit_and_a_new_brief(tmp_path):
    """Zensical runs no plugins: ``digest serve --host zensical`` writes the generated pages, runs
    ``zensical serve`` and writes the pages again when data/ changes (a new brief's page); Zensical
    watches data/ itself (``watch:`` in mkdocs.yml) and re-renders what shows the edit."""
    edit = title_edit(tmp_path, "ZENSICAL-SERVE")
    project, marker = edit.project, edit.marker
    log = tmp_path / "serve.log"
    command = ("-m", "digest_plugin.cli", "serve", "--host", "zensical")
    with serving(project, log, command) as (server, port):
        url = f"http://127.0.0.1:{port}/inference/5/"
        wait_for(url, server, log, lambda p: f'data-digest-item="{ITEM_ID}"' in p, "§5 did not come up")
        edit.apply()
        wait_for(url, server, log, lambda p: marker in p, "the served §5 page did not change")
        later = "2026-10-22-inference-E2.yml"
        shutil.copy2(PROJECT / "tests" / "fixtures" / "lifecycle" / later, project / "data" / "briefs" / later)
        page = f"http://127.0.0.1:{port}/inference/briefs/2026-10-22-inference-E2/"
        wait_for(page, server, log, lambda p: 'data-brief="2026-10-22-inference-E2"' in p, "the new brief has no page")
    assert fetch(url)[0] == 0, "stopping `digest serve --host zensical` left a server running on its port"


def test_the_preview_has_a_search_that_finds_tonights_edit(tmp_path):
    """`digest serve` serves a search box that works (issue 30): the index is made in the background,
    the box says it may miss the latest edits, and on a small site an edit is searchable moments later."""
    playwright = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip(f"{chromium} is missing")
    edit = title_edit(tmp_path, "PREVIEWSEARCH")
    project, marker = edit.project, edit.marker
    log = tmp_path / "serve.log"
    with serving(project, log, ("-m", "digest_plugin.cli", "serve")) as (server, port):
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/pagefind/pagefind.js", server, log, bool, "no preview search index")
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(chromium), args=["--headless", "--no-sandbox"])
            tab = browser.new_page(locale="zh-CN")
            tab.set_default_timeout(20_000)

            def search(query: str) -> list[str]:
                tab.goto(f"{base}/inference/1/")
                box = tab.locator(".md-search__input")
                box.click()
                box.press_sequentially(query, delay=20)
                tab.locator(".md-search-result__item").first.wait_for(state="visible")
                return [a.get_attribute("href") or "" for a in tab.locator(".md-search-result__item a").all()]

            assert any("#entry-" in link for link in search("Kapitsa"))
            assert "可能还没有收录最近的修改" in tab.locator(".digest-search__note").inner_text()
            ready = "the preview's search index is ready"
            indexed = log.read_text(encoding="utf-8").count(ready)
            edit.apply()
            wait_for(f"{base}/inference/5/", server, log, lambda p: marker in p, "the edit was not served")
            deadline = time.monotonic() + RELOAD_TIMEOUT
            while log.read_text(encoding="utf-8").count(ready) <= indexed:  # indexed again after the rebuild
                assert time.monotonic() < deadline, log_of(log)
                time.sleep(0.5)
            wait_for(f"{base}/pagefind/pagefind.js", server, log, bool, "the index went missing")
            found = search(marker)
            assert found and found[0].startswith("/inference/5/"), found
            browser.close()
