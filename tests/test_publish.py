"""What a build publishes, end to end: no withheld claim in any output, whatever field it was
written in; an independent check of any host's output (``digest verify``); and a failed build
that leaves the previous site exactly as it was."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

import pytest
from helpers import BRIEF, ROOT, plant_in_search_index, search_docs, search_index_files
from ruamel.yaml import YAML

CLAIM = "周增 +175"  # withheld by contradiction 1 of the shipped brief (kapitsa-weekly-gain)
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in ("mkdocs.yml", "docs", "data", "overrides"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    return root


def build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )


def tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def plant_claim_everywhere(brief: Path) -> int:
    """Write the withheld claim into every free-text field of the brief; return how many."""
    yaml = YAML()
    yaml.preserve_quotes = True
    data = yaml.load(brief.read_text(encoding="utf-8"))
    planted = 0

    def add(mapping, key: str) -> None:
        nonlocal planted
        if isinstance(mapping.get(key), str):
            mapping[key] = f"{mapping[key]}（{CLAIM}）"
            planted += 1

    for key in ("title", "author", "round_label", "materials_note", "scope", "items_heading", "citations_note"):
        add(data, key)
    data["conclusions"] = [f"{c}（{CLAIM}）" for c in data["conclusions"]]
    planted += len(data["conclusions"])
    for item in data["items"]:
        for key in ("title", "relation", "points_note"):
            add(item, key)
        add(item["evidence"], "boundary")
        add(item["placement"], "text")
        add(item["placement"], "entry_title")
        for key in ("points", "guards", "notes"):
            if item.get(key):
                item[key] = [f"{x}（{CLAIM}）" for x in item[key]]
                planted += len(item[key])
        for figure in item.get("figures") or []:
            add(figure, "label")
            add(figure, "unit")
    for citation in data["citations"]:
        for key in ("title", "use_note", "card_topic"):
            add(citation, key)
    for follow_up in data["follow_ups"]:
        add(follow_up, "text")
    for contradiction in data["contradictions"]:
        if contradiction["id"] != "kapitsa-weekly-gain":  # its own callout may quote it: that is allowed
            add(contradiction, "title")
            add(contradiction, "text")
    with brief.open("w", encoding="utf-8") as out:
        yaml.dump(data, out)
    return planted


@pytest.fixture(scope="module")
def planted_site(tmp_path_factory) -> Path:
    root = project(tmp_path_factory.mktemp("planted"))
    assert plant_claim_everywhere(root / "data" / BRIEF) > 40
    out = build(root, "--strict")
    assert out.returncode == 0, out.stderr[-3000:]  # --strict: the build's own leak check found nothing
    return root


def visible_text(html: str) -> str:
    """A page's text and attribute values with the claim's own quotes in their callouts taken out,
    read with a plain regex pass rather than the plugin's parser."""
    html = re.sub(r'<span class="digest-withheld-quote"[^>]*>[^<]*</span>', " ", html)
    return unescape(re.sub(r"<[^>]+>", " ", html)) + " ".join(unescape(v) for v in re.findall(r'="([^"]*)"', html))


def test_the_claim_written_in_every_field_is_in_no_page(planted_site):
    pages = sorted((planted_site / "site").rglob("*.html"))
    assert len(pages) > 10
    offenders = [
        p.relative_to(planted_site).as_posix() for p in pages if CLAIM in " ".join(visible_text(p.read_text()).split())
    ]
    assert offenders == []


def test_the_claim_is_in_no_feed_and_not_in_the_search_index(planted_site):
    site = planted_site / "site"
    feed = ET.parse(site / "inference" / "feed.xml").getroot()
    feed_text = " ".join(
        visible_text(e.text) if e.get("type") == "html" else (e.text or "") for e in feed.iter() if e.text
    )
    assert CLAIM not in " ".join(feed_text.split())
    docs = search_docs(site)
    assert not [d["location"] for d in docs if CLAIM in " ".join(unescape(d["text"] + d["title"]).split())]


def test_the_claim_stays_quoted_in_its_own_callout(planted_site):
    page = (planted_site / "site" / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    assert 'data-withheld-quote="kapitsa-weekly-gain"' in page


def test_digest_verify_reads_any_site(planted_site, tmp_path):
    def verify(site: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "digest_plugin.cli", "verify", str(site), "--data", str(planted_site / "data")],
            cwd=planted_site,
            capture_output=True,
            text=True,
            timeout=120,
        )

    clean = verify(planted_site / "site")
    assert clean.returncode == 0, clean.stderr
    # the same site with the claim slipped into a tooltip, the feed and the search index by hand
    leaky = tmp_path / "site"
    shutil.copytree(planted_site / "site", leaky)
    page = leaky / "inference" / "5" / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("<article", f'<article title="{CLAIM}"', 1))
    feed = leaky / "inference" / "feed.xml"
    feed.write_text(feed.read_text(encoding="utf-8").replace("</title>", f" {CLAIM}</title>", 1))
    index = plant_in_search_index(leaky, CLAIM)
    out = verify(leaky)
    assert out.returncode == 1
    for where in ("inference/5/index.html", "attribute title", "inference/feed.xml", index):
        assert where in out.stderr, out.stderr


def test_digest_verify_without_a_site_says_so(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "verify", str(tmp_path / "nowhere")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "no built site" in out.stderr and "Traceback" not in out.stderr


# --------------------------------------------------------------------------- a failed build publishes nothing


@pytest.fixture
def published(tmp_path, shipped_project) -> Path:
    """A project whose site a strict build has published (a copy of the session's, to change freely)."""
    root = tmp_path / "project"
    shutil.copytree(shipped_project, root, symlinks=True)
    assert (root / "site" / "index.html").is_file() and leftovers(root) == []
    return root


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".site."))


def test_a_strict_warning_leaves_the_previous_site_as_it_was(published):
    before = tree_digest(published / "site")
    (published / "docs" / "index.md").write_text(f"# 首页\n\n{CLAIM}。\n", encoding="utf-8")
    out = build(published, "--strict")
    assert out.returncode == 1 and "left as it was" in out.stderr
    assert tree_digest(published / "site") == before
    assert leftovers(published) == []


def test_a_crash_during_the_build_leaves_the_previous_site_as_it_was(published):
    before = tree_digest(published / "site")
    (published / "hook.py").write_text(
        "def on_page_markdown(markdown, page, **kw):\n"
        "    if page.file.src_uri == 'inference/5.md':\n"
        "        raise RuntimeError('boom')\n"
        "    return markdown\n",
        encoding="utf-8",
    )
    config = published / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\nhooks:\n  - hook.py\n", encoding="utf-8")
    out = build(published)
    assert out.returncode != 0 and "boom" in out.stderr
    assert tree_digest(published / "site") == before
    assert leftovers(published) == []


def test_a_good_build_replaces_the_site_and_leftovers_of_a_killed_one_go(published):
    (published / ".site.digest-build-99999").mkdir()  # as a killed build would leave it
    (published / "docs" / "index.md").write_text("# 首页\n\n新的一天。\n", encoding="utf-8")
    out = build(published)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "新的一天" in (published / "site" / "index.html").read_text(encoding="utf-8")
    assert leftovers(published) == []


def test_a_build_killed_between_the_swaps_two_renames_leaves_readers_the_old_site(published):
    """Killed after the old site was moved aside and before the new one took its name, a build left
    no site at all, and the next build deleted the old one as stale; a next build that fails must
    leave the last good site where it was (issue 33, 4)."""
    before = tree_digest(published / "site")
    (published / "site").rename(published / ".site.digest-old-99999")  # as the kill left it
    brief = published / "data" / BRIEF
    brief.write_text(brief.read_text(encoding="utf-8").replace("date: ", "date: not-a-date ", 1), encoding="utf-8")
    out = build(published, "--strict")
    assert out.returncode != 0
    assert (published / "site").is_dir() and tree_digest(published / "site") == before
    assert leftovers(published) == []


def test_text_that_looks_like_an_entity_stays_as_written_in_headings_and_the_toc(tmp_path):
    """Python-Markdown decodes entities in heading text; a heading from the data must not."""
    root = project(tmp_path / "project")
    brief = root / "data" / BRIEF
    text = brief.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("items_heading:"))
    brief.write_text(text.replace(line, 'items_heading: "&lt;script&gt; 与 &amp; 条目"'), encoding="utf-8")
    out = build(root, "--strict")
    assert out.returncode == 0, out.stderr[-2000:]
    page = (root / "site" / "inference" / "briefs" / "2026-10-21-inference-E1" / "index.html").read_text(
        encoding="utf-8"
    )
    found = re.search(r'<h2[^>]* id="items"', page)  # a brief page's headings may be kept out of search
    assert found, "no items heading on the brief page"
    start = found.start()
    heading = page[start : page.index("</h2>", start)]
    assert unescape(re.sub(r"<[^>]+>", "", heading)).startswith("一、&lt;script&gt; 与 &amp; 条目")
    start = page.index('href="#items"')
    assert "&lt;script&gt;" in unescape(re.sub(r"<[^>]+>", "", page[start : page.index("</a>", start)]))


# --------------------------------------------------------------------------- what a published site and its log carry


def test_the_published_site_has_a_sitemap_and_canonical_links(shipped_project):
    site = shipped_project / "site"
    config = (shipped_project / "mkdocs.yml").read_text(encoding="utf-8")
    assert "site_url:" in config
    locations = [e.text for e in ET.parse(site / "sitemap.xml").getroot().iter() if e.tag.endswith("loc")]
    assert len(locations) >= 10 and all(loc and loc.startswith("http") for loc in locations)
    assert '<link rel="canonical" href="http' in (site / "inference" / "1" / "index.html").read_text(encoding="utf-8")


def test_the_site_url_can_be_set_where_the_site_is_built(tmp_path):
    root = project(tmp_path / "project")
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**ENV, "DIGEST_SITE_URL": "https://docs.example.org/living/"},
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    page = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="canonical" href="https://docs.example.org/living/">' in page


def test_a_build_log_shows_what_an_editor_acts_on_and_no_chatter(tmp_path):
    out = build(project(tmp_path / "project"))
    assert out.returncode == 0, out.stderr[-2000:]
    log = out.stdout + out.stderr
    for chatter in ("[macros]", "Building prefix dict", "Loading model", "end of life"):
        assert chatter not in log, chatter
    assert "Documentation built" in log


def test_the_hidden_entries_of_the_old_site_stay_as_mkdocs_keeps_them(published):
    """MkDocs' own cleaning keeps dot-entries in site/ (the .git of a gh-pages clone)."""
    (published / "site" / ".git").mkdir()
    (published / "site" / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n", encoding="utf-8")
    (published / "site" / ".well-known").mkdir()
    out = build(published)
    assert out.returncode == 0, out.stderr[-2000:]
    assert (published / "site" / ".git" / "HEAD").read_text(encoding="utf-8") == "ref: refs/heads/gh-pages\n"
    assert (published / "site" / ".well-known").is_dir()


def test_two_builds_at_once_publish_a_whole_site(published):
    """A second build must not remove the folder the first is still writing, nor swap into it."""
    (published / "slow.py").write_text(
        "import os, time\n"
        "def on_page_markdown(markdown, page, **kw):\n"
        "    if os.environ.get('SLOW_BUILD') and page.file.src_uri == 'inference/5.md':\n"
        "        time.sleep(4)\n"
        "    return markdown\n",
        encoding="utf-8",
    )
    config = published / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\nhooks:\n  - slow.py\n", encoding="utf-8")
    command = [sys.executable, "-m", "mkdocs", "build"]
    slow = subprocess.Popen(command, cwd=published, env={**ENV, "SLOW_BUILD": "1"}, stderr=subprocess.PIPE)
    time.sleep(2)  # the slow build is writing its fresh folder now
    fast = build(published)
    assert fast.returncode == 0, fast.stderr[-2000:]
    assert slow.wait(timeout=300) == 0
    site = published / "site"
    for needed in ("index.html", "sitemap.xml", "assets", "inference/5/index.html"):
        assert (site / needed).exists(), needed
    assert search_index_files(site), "the published site has no search index"
    assert leftovers(published) == []
