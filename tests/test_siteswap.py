"""The atomic publish on its own, without a build: a reader sees the old site or the new one, never
half of each and never none (``tests/test_publish.py`` checks the same through real MkDocs builds)."""

from __future__ import annotations

import logging
import os

import pytest

from digest_plugin.hosts.siteswap import SiteSwap


@pytest.fixture
def swap():
    s = SiteSwap()
    yield s
    s.abandon()
    s.close()


def old_site(tmp_path):
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    (site / "index.html").write_text("old")
    return site


def test_a_good_build_replaces_the_site_and_keeps_its_hidden_entries(tmp_path, swap):
    site = old_site(tmp_path)
    fresh = swap.begin(site)
    assert fresh != site.resolve() and fresh.parent == site.resolve().parent
    (fresh / "index.html").write_text("new")
    assert (site / "index.html").read_text() == "old"  # nothing published while the build runs
    assert swap.finish(strict=True) == site.resolve()
    assert (site / "index.html").read_text() == "new"
    assert (site / ".git" / "HEAD").read_text().startswith("ref:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no fresh or old folder left beside


def test_a_strict_warning_leaves_the_old_site_and_removes_the_fresh_one(tmp_path, swap):
    site = old_site(tmp_path)
    fresh = swap.begin(site)
    (fresh / "index.html").write_text("half")
    logging.getLogger("mkdocs.structure").warning("a broken link")
    assert swap.finish(strict=True) == site.resolve()
    assert (site / "index.html").read_text() == "old"
    assert not fresh.exists()


def test_without_strict_a_warning_still_publishes(tmp_path, swap):
    site = old_site(tmp_path)
    (swap.begin(site) / "index.html").write_text("new")
    logging.getLogger("mkdocs").warning("a note")
    swap.finish(strict=False)
    assert (site / "index.html").read_text() == "new"


def test_the_first_build_publishes_where_no_site_was(tmp_path, swap):
    site = tmp_path / "out" / "site"
    (swap.begin(site) / "index.html").write_text("new")
    swap.finish(strict=True)
    assert (site / "index.html").read_text() == "new"


def test_a_site_hidden_by_a_build_killed_mid_swap_is_put_back(tmp_path, swap):
    site = old_site(tmp_path)
    os.rename(site, tmp_path / ".site.digest-old-99999")  # killed between the swap's two renames
    swap.tidy(site)
    assert (site / "index.html").read_text() == "old"


def test_what_a_killed_build_left_beside_the_site_is_removed(tmp_path, swap):
    site = old_site(tmp_path)
    left = tmp_path / ".site.digest-build-99999"
    (left / "assets").mkdir(parents=True)
    swap.tidy(site)
    assert not left.exists()
    assert (site / "index.html").read_text() == "old"


def test_a_fresh_folder_another_build_still_writes_is_left_alone(tmp_path):
    site = old_site(tmp_path)
    first, second = SiteSwap(), SiteSwap()
    try:
        busy = first.begin(site)  # locked while its build runs
        (busy / "page.html").write_text("being written")
        second.tidy(site)
        assert (busy / "page.html").exists()
    finally:
        first.abandon()
        first.close()
        second.close()
