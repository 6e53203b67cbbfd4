"""Under Zensical the extension loads the data itself, once per change, not once per page: a brief
added or deleted is seen on the next page, one saved in place within half a second, and the
folders are not listed again for every page (3,650 names in ``briefs/`` at ten years)."""

from __future__ import annotations

import os
import shutil
import time

from helpers import LIFECYCLE

from digest_plugin.hosts import extension
from digest_plugin.hosts.extension import DataFolders

NEXT = "2026-10-22-inference-E2"


def briefs(layouts) -> set[str]:
    return set(layouts["inference"].doc.briefs_by_id)


def test_pages_in_a_row_share_one_load_and_one_listing(data_copy, monkeypatch):
    listed = []
    walk = os.walk
    monkeypatch.setattr(extension.os, "walk", lambda top: listed.append(top) or walk(top))
    folders = DataFolders()
    first = folders.layouts(data_copy, "index.md")
    assert all(folders.layouts(data_copy, f"inference/briefs/{n}.md") is first for n in range(200))  # one load
    assert len(listed) <= 2  # once, and once more if the half second ran out meanwhile


def test_a_brief_added_or_deleted_is_seen_on_the_next_page(data_copy):
    folders = DataFolders()
    assert NEXT not in briefs(folders.layouts(data_copy))
    shutil.copy(LIFECYCLE / f"{NEXT}.yml", data_copy / "briefs" / f"{NEXT}.yml")
    assert NEXT in briefs(folders.layouts(data_copy))
    (data_copy / "briefs" / f"{NEXT}.yml").unlink()
    assert NEXT not in briefs(folders.layouts(data_copy))


def test_a_brief_saved_in_place_is_seen_within_half_a_second(data_copy):
    folders = DataFolders()
    path = next((data_copy / "briefs").glob("*.yml"))
    before = folders.layouts(data_copy)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('title: "', 'title: "改过的', 1), encoding="utf-8")
    time.sleep(DataFolders.RECHECK + 0.1)
    after = folders.layouts(data_copy)
    assert after is not before
    assert any(b.title.startswith("改过的") for b in after["inference"].doc.briefs)


def test_the_next_build_sees_a_brief_saved_in_place_at_once(data_copy):
    """Zensical renders every page again after a data edit: the first page that comes round again
    reads the files, however soon after the last look (the race a half-second timer alone left)."""
    folders = DataFolders()
    path = next((data_copy / "briefs").glob("*.yml"))
    for page in ("index.md", "inference/1.md", "inference/5.md"):  # a build
        before = folders.layouts(data_copy, page)
    path.write_text(path.read_text(encoding="utf-8").replace('title: "', 'title: "改过的', 1), encoding="utf-8")
    after = folders.layouts(data_copy, "index.md")  # the next build, at once
    assert after is not before
    assert any(b.title.startswith("改过的") for b in after["inference"].doc.briefs)
    assert folders.layouts(data_copy, "inference/1.md") is after  # and the rest of it shares that load
