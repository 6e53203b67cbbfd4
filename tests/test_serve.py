"""`mkdocs serve` rebuilds when a brief under data/ changes.

MkDocs watches only docs/ and mkdocs.yml by default; the living doc comes from data/, so a reader
editing a brief must see the served page change without restarting the server.  Only loopback
traffic: the server listens on 127.0.0.1 and the test only talks to it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from ruamel.yaml import YAML

PROJECT = Path(__file__).resolve().parents[1]
BRIEF_YAML = "data/briefs/2026-10-21-inference-E1.yml"
ITEM_ID = "llm-d-1-0"  # 条目 1 of the brief, placed in §5.1
START_TIMEOUT = 60
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


def test_editing_a_brief_under_mkdocs_serve_changes_the_served_page(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(PROJECT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(PROJECT / "docs", project / "docs")
    shutil.copytree(PROJECT / "data", project / "data")

    brief_path = project / BRIEF_YAML
    source = brief_path.read_text(encoding="utf-8")
    item = next(i for i in YAML(typ="safe").load(source)["items"] if i["id"] == ITEM_ID)
    marker = f"SERVE-RELOAD-{uuid.uuid4().hex[:12]}"
    old_line = f'    title: "{item["title"]}"\n'
    assert source.count(old_line) == 1, "could not find the title line of the llm-d 1.0 item"

    port = free_port()
    url = f"http://127.0.0.1:{port}/inference/5/"
    log = tmp_path / "serve.log"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + START_TIMEOUT
            status, page = 0, ""
            while time.monotonic() < deadline:
                assert server.poll() is None, f"mkdocs serve exited early:\n{log_of(log)}"
                status, page = fetch(url)
                if status == 200 and f'data-digest-item="{ITEM_ID}"' in page:
                    break
                time.sleep(0.5)
            assert status == 200, f"{url} did not come up within {START_TIMEOUT}s:\n{log_of(log)}"
            assert f'data-digest-item="{ITEM_ID}"' in page, "§5 page does not show the llm-d 1.0 item"
            assert marker not in page

            new_title = f"{item['title']} {marker}"
            brief_path.write_text(source.replace(old_line, f'    title: "{new_title}"\n'), encoding="utf-8")

            deadline = time.monotonic() + RELOAD_TIMEOUT
            seen = False
            while time.monotonic() < deadline:
                assert server.poll() is None, f"mkdocs serve exited after the edit:\n{log_of(log)}"
                status, page = fetch(url)
                if status == 200 and marker in page:
                    seen = True
                    break
                time.sleep(0.5)
            assert seen, (
                f"the served §5 page did not change within {RELOAD_TIMEOUT}s of editing {BRIEF_YAML}:\n{log_of(log)}"
            )
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=15)


def wait_for(url: str, server: subprocess.Popen[bytes], log: Path, ok, what: str) -> str:
    """The page at ``url`` once ``ok(page)`` holds, or fail saying ``what`` did not happen."""
    deadline = time.monotonic() + RELOAD_TIMEOUT
    while time.monotonic() < deadline:
        assert server.poll() is None, f"mkdocs serve exited:\n{log_of(log)}"
        status, page = fetch(url)
        if status == 200 and ok(page):
            return page
        time.sleep(0.5)
    raise AssertionError(f"{what} within {RELOAD_TIMEOUT}s:\n{log_of(log)}")


def test_a_broken_brief_keeps_the_last_good_site_with_its_errors_on_every_page(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(PROJECT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(PROJECT / "docs", project / "docs")
    shutil.copytree(PROJECT / "data", project / "data")
    brief_path = project / BRIEF_YAML
    good = brief_path.read_text(encoding="utf-8")
    lines = good.splitlines(keepends=True)
    broken_line = next(n for n, line in enumerate(lines, 1) if line.strip() == "level: partially_verified")
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            home, section = f"http://127.0.0.1:{port}/", f"http://127.0.0.1:{port}/inference/5/"
            wait_for(section, server, log, lambda p: f'data-digest-item="{ITEM_ID}"' in p, "the site did not come up")
            brief_path.write_text(
                good.replace("level: partially_verified", "level: half_verified", 1), encoding="utf-8"
            )
            banner = 'class="digest-serve-errors"'
            page = wait_for(home, server, log, lambda p: banner in p, "no error banner appeared")
            assert f"{BRIEF_YAML}:{broken_line}:" in page and "half_verified" in page
            page = wait_for(section, server, log, lambda p: banner in p, "the banner is not on every page")
            assert f'data-digest-item="{ITEM_ID}"' in page  # the last good version, still served
            assert f"{BRIEF_YAML}:{broken_line}:" in log_of(log)  # the terminal says the same
            brief_path.write_text(good, encoding="utf-8")
            wait_for(section, server, log, lambda p: banner not in p, "the banner did not clear once fixed")
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=15)
