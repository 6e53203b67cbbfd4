"""``digest build --host zensical`` runs Zensical in its own process, handing the extension the docs
it merged and rendering the generated pages on a second core: the site must be the one
``digest pages && zensical build`` makes, the site's rules must reach it, and a Zensical that fails
(or is missing) must be one error line, not a traceback."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import copy_project, replace_in, run_cli
from helpers.shared import machine_cores

pytest.importorskip("zensical")

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def run(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *command], cwd=root, capture_output=True, text=True, timeout=600, env=ENV, check=False
    )


def files(site: Path) -> list[Path]:
    """Every file of a built site but Pagefind's index (the plain Zensical build makes none)."""
    return sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file() and "pagefind" not in p.parts)


def test_the_one_command_builds_the_site_digest_pages_and_zensical_build_make(tmp_path):
    plain = copy_project(tmp_path / "plain", lifecycle=True)
    done = run(plain, "-m", "digest_plugin.cli", "pages")
    assert done.returncode == 0, done.stderr
    done = run(plain, "-m", "zensical", "build", "--clean")
    assert done.returncode == 0, done.stderr[-3000:]
    ours = copy_project(tmp_path / "ours", lifecycle=True)
    done = run(ours, "-m", "digest_plugin.cli", "build", "--host", "zensical")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ok:" in done.stdout and "Traceback" not in done.stderr
    expected, got = plain / "site", ours / "site"
    assert files(got) == files(expected) and len(files(got)) > 20
    assert [str(p) for p in files(got) if not filecmp.cmp(expected / p, got / p, shallow=False)] == []


TAKEN = """
import sys
from pathlib import Path
from digest_plugin import cli
from digest_plugin.core import siteconfig
from digest_plugin.hosts import zensical_host
from digest_plugin.site.pages import write_pages
config = Path("mkdocs.yml")
settings = siteconfig.settings(config)
docs = cli._merged(Path("data"), config).docs
written = write_pages(Path("docs"), docs, settings.get("site_url"))
print(zensical_host.build(config, settings, Path("data"), docs, written))
"""


@pytest.mark.every_core
@pytest.mark.skipif(len(machine_cores()) < 2, reason="one core: Zensical's thread renders every page itself")
def test_a_second_process_renders_generated_pages_while_zensical_converts(tmp_path):
    root = copy_project(tmp_path / "p", lifecycle=True)
    done = run(root, "-c", TAKEN)
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout.split()[-1]) > 0  # the worker's pages were used, so it did the work


def test_the_sites_rules_reach_the_pages_zensical_renders(tmp_path):
    """`hide_discarded: false` shows the discarded Contabo contradiction on §1; the extension on its
    own would merge with the default rules and hide it."""
    root = copy_project(tmp_path / "p")
    mark = 'id="contradiction-contabo-low-credibility"'
    done = run(root, "-m", "digest_plugin.cli", "build", "--host", "zensical")
    assert done.returncode == 0, done.stderr[-3000:]
    assert mark not in (root / "site" / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    replace_in(
        root / "mkdocs.yml",
        "      search: pagefind\n",
        "      search: pagefind\n      rules: {hide_discarded: false}\n",
    )
    done = run(root, "-m", "digest_plugin.cli", "build", "--host", "zensical")
    assert done.returncode == 0, done.stderr[-3000:]
    assert mark in (root / "site" / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    # Plain `zensical build` (what `digest serve --host zensical` runs): the extension reads them too.
    shutil.rmtree(root / "site")
    done = run(root, "-m", "zensical", "build", "--clean")
    assert done.returncode == 0, done.stderr[-3000:]
    assert mark in (root / "site" / "inference" / "1" / "index.html").read_text(encoding="utf-8")


def test_an_extension_reading_another_folder_merges_that_folder_itself(tmp_path):
    """The hand-over is keyed by folder: when the extension's ``data_dir`` is not the one the
    command merged, the extension loads its own, and no page is rendered from the wrong data."""
    root = copy_project(tmp_path / "p")
    shutil.copytree(root / "data", root / "other")
    replace_in(
        root / "mkdocs.yml",
        "  - digest_plugin.extension:\n      data_dir: data\n",
        "  - digest_plugin.extension:\n      data_dir: other\n",
    )
    brief = next((root / "other" / "briefs").glob("*.yml"))
    replace_in(brief, "Kapitsa", "Kapitza-in-other")  # what only the extension's folder says
    done = run(root, "-m", "digest_plugin.cli", "build", "--host", "zensical")
    assert done.returncode == 0, done.stderr[-3000:]
    pages = "".join(p.read_text(encoding="utf-8") for p in (root / "site" / "inference").rglob("index.html"))
    assert "Kapitza-in-other" in pages


def test_a_zensical_build_that_fails_is_one_error_line(tmp_path):
    root = copy_project(tmp_path / "p")
    replace_in(root / "mkdocs.yml", "watch:\n  - data\n", "watch:\n  - 12\n")  # Zensical wants strings
    done = run(root, "-m", "digest_plugin.cli", "build", "--host", "zensical")
    assert done.returncode == 1
    assert "mkdocs.yml: error: zensical build failed: " in done.stderr and "watch" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (root / "site" / "pagefind").exists()  # nothing indexed after a failed build


def test_without_zensical_the_command_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    root = copy_project(tmp_path / "p")
    monkeypatch.setitem(sys.modules, "zensical", None)  # `import zensical` raises ImportError
    code, _, err = run_cli("build", "--host", "zensical", cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1
    assert "mkdocs.yml: error: Zensical is not installed: pip install -e '.[zensical]'" in err


def test_rules_the_extension_cannot_read_are_named_and_the_defaults_apply(tmp_path, caplog):
    from digest_plugin.core.model import Rules
    from digest_plugin.hosts.extension import HOSTLESS

    config = tmp_path / "mkdocs.yml"
    config.write_text("plugins:\n  - digest:\n      rules: {archive_after_days: 0}\n", encoding="utf-8")
    assert HOSTLESS.site_rules(config) == Rules()
    assert f"{config}: the digest plugin's rules are not valid, the defaults apply" in caplog.text
    config.write_text("plugins:\n  - digest:\n      rules: {archive_after_days: 7}\n", encoding="utf-8")
    os.utime(config, ns=(1, 1))  # a new time, whatever the clock's resolution: read again
    assert HOSTLESS.site_rules(config).archive_after_days == 7
