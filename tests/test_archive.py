"""Pages stay light over the years: older activity moves to per-month archive pages, and every link
still lands (checked across the whole built site)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from helpers import built, copy_project, replace_in


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.hrefs.append(attrs["href"])


def build(root: Path, archive_after_days: int) -> Path:
    """The shipped site plus the lifecycle briefs, built with the given archive window."""
    copy_project(root, lifecycle=True)
    replace_in(
        root / "mkdocs.yml",
        "      data_dir: data",
        f"      data_dir: data\n      rules: {{archive_after_days: {archive_after_days}}}",
    )
    return built(root)


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> Path:
    # the newest fixture brief is 2026-10-24: with a 1-day window, what last changed before 10-23 is archived
    return build(tmp_path_factory.mktemp("archive"), archive_after_days=1)


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_old_entries_move_to_their_month_and_current_ones_stay(archived):
    main, archive = page(archived, "inference/5"), page(archived, "inference/5/2026-10")
    assert 'data-digest-entry="llm-d-1-0"' in archive and 'data-digest-entry="llm-d-1-0"' not in main
    assert 'data-digest-entry="llm-d-v0-8"' in main  # the doc's own entries are never archived
    assert re.search(r'data-archive="5".*?2026 年：<a href="2026-10/">10 月（\d+ 条）</a>', main, re.S)
    kapitsa = page(archived, "inference/1")
    assert 'data-digest-entry="kapitsa"' in kapitsa  # changed on 10-24: current


def test_register_follow_ups_bibliography_and_briefs_archive_by_month(archived):
    register = page(archived, "inference/register")
    old = page(archived, "inference/register/2026-10")
    assert 'data-digest-contradiction="long-prefill-no-version"' in old  # resolved on 10-22
    assert 'data-digest-contradiction="long-prefill-no-version"' not in register
    assert 'data-digest-contradiction="kapitsa-weekly-gain"' in register  # open: always current
    assert 'data-follow-up="vllm-long-prefill-issue"' in page(archived, "inference/follow-ups/2026-10")
    assert 'data-ref="528"' in page(archived, "inference/bibliography/2026-10")
    assert 'data-brief="2026-10-21-inference-E1"' in page(archived, "inference/briefs/2026-10")
    assert 'data-brief="2026-10-24-inference-E1"' in page(archived, "inference/briefs")


@pytest.mark.parametrize("window", [None, 1])
def test_every_internal_link_lands_on_an_existing_page_and_anchor(window, archived, lifecycle_site):
    site = archived if window == 1 else lifecycle_site  # the default window of 60 days
    pages = {p: p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    parsed = {}
    for path, html in pages.items():
        parsed[path] = Links()
        parsed[path].feed(html)
    broken = []
    for path, links in parsed.items():
        base = "/" + path.relative_to(site).as_posix()
        for href in links.hrefs:
            if href.startswith(("http:", "https:", "mailto:", "javascript:", "data:")):
                continue
            target = urlsplit(urljoin(base, href))
            file = site / unquote(target.path).lstrip("/")
            if target.path.endswith("/") or file.is_dir():
                file = file / "index.html"
            if not file.is_file():
                broken.append(f"{path.relative_to(site)} → {href}")
            elif target.fragment and file.suffix == ".html" and target.fragment not in parsed[file].ids:
                broken.append(f"{path.relative_to(site)} → {href} (no #{target.fragment})")
    assert broken == []
