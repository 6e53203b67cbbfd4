"""Search by Pagefind (issue 16, first step): `search: pagefind` in the digest plugin's config makes
the build index the finished site, and the search box in Material's header drives that index.

What a reader and an editor would check, on the real build of the shipped project (Material's own
`search` plugin taken out, as the README says):

* the build writes `site/pagefind/` and no `search_index.json`; a misconfigured site (both searches)
  is told so, and a strict build stops;
* the index holds the statement once, where it lives (the entry, not the brief page's copy), and
  nothing the pages keep out of search (badge tips, a brief's metadata) or withhold;
* the independent leak checker reads Pagefind's records too (a planted leak is found);
* in Chromium: Chinese and Latin queries lead to the entry first, a result shows the entry's
  evidence level, and one query fetches a few hundred KB, not the whole index.

Expected facts come from the data (the shipped brief's YAML), not from the plugin's code.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, copy_project, in_ci, mkdocs_build, replace_in
from ruamel.yaml import YAML

from digest_plugin.core.pipeline import analyse
from digest_plugin.site import searchindex
from digest_plugin.site.leaks import find_leaks

sys.path.insert(0, str(ROOT / "benchmarks"))
import search_bytes
from search_bytes import CHROMIUM, chromium_on, serving

BRIEF = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"


def brief() -> dict:
    return YAML(typ="safe").load(BRIEF.read_text(encoding="utf-8"))


def use_pagefind(root: Path) -> None:
    """The project's mkdocs.yml as shipped: Pagefind, the theme's own search off."""
    text = (root / "mkdocs.yml").read_text(encoding="utf-8")
    assert "      search: pagefind" in text and "  - search:\n      enabled: false" in text


def use_materials_search(root: Path) -> None:
    """mkdocs.yml switched to Material's own search as the README says for a small site."""
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = text.replace("  - search:\n      enabled: false", "  - search:\n      enabled: true\n      lang: zh")
    config.write_text(text.replace("      search: pagefind", "      search: material"), encoding="utf-8")


def records(site: Path) -> dict[str, dict]:
    """Pagefind's page records (gzip, a `pagefind_dcd` mark, JSON) by page URL."""
    found = {}
    for path in sorted((site / "pagefind" / "fragment").glob("*.pf_fragment")):
        raw = gzip.decompress(path.read_bytes())
        assert raw.startswith(b"pagefind_dcd"), path
        record = json.loads(raw[len(b"pagefind_dcd") :])
        found[record["url"]] = record
    return found


def plain(text: str) -> str:
    """Record text as a reader reads it (Pagefind puts zero-width spaces between the words)."""
    return re.sub(r"\s+", "", text.replace("\u200b", ""))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("pagefind"))
    use_pagefind(root)
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr[-3000:]
    return root / "site"


def test_the_build_writes_pagefinds_index_and_not_materials(site):
    assert (site / "pagefind" / "pagefind.js").is_file()
    assert not (site / "search" / "search_index.json").exists()
    pages = records(site)
    assert "/inference/1/" in pages and "/inference/register/" in pages
    assert "/404.html" not in pages and all("md-nav" not in r["content"] for r in pages.values())
    # The search box is on every page, in Chinese.
    script = (site / "assets" / "digest" / "search.js").read_text(encoding="utf-8")
    assert "搜索" in json.loads(script.split("window.DIGEST_SEARCH = ", 1)[1].split(";\n", 1)[0])["placeholder"]
    assert 'src="../../assets/digest/search.js"' in (site / "inference" / "1" / "index.html").read_text(
        encoding="utf-8"
    )


def test_each_statement_is_indexed_once_where_it_lives_and_nothing_kept_out_is_in(site):
    data = brief()
    pages = records(site)
    # a brief page whose items all went to §-pages is not indexed at all (test_search_scope)
    brief_page = plain(pages.get(f"/inference/briefs/{data['id']}/", {"content": ""})["content"])
    for item in data["items"]:
        boundary = plain(item["evidence"]["boundary"])[:30]
        on_section = [u for u, r in pages.items() if boundary in plain(r["content"]) and u.startswith("/inference/")]
        assert boundary not in brief_page, f"{item['id']}: the brief page's copy is indexed too"
        assert any(re.fullmatch(r"/inference/\d/", u) for u in on_section), f"{item['id']}: its entry is not indexed"
        # Pagefind copies the text of an element with an id into the record's anchors: the
        # boundary (which the badge points at by id) must not ride in a record twice.
        copies = [u for u, r in pages.items() for a in r["anchors"] if boundary in plain(a["text"])]
        assert copies == [], f"{item['id']}: the boundary is copied into the anchors of {copies}"
    everything = "".join(plain(r["content"]) for r in pages.values())
    assert "清单任务" not in everything  # a brief's metadata (kept out of search)
    assert plain("各等级、缺口与来源类型的含义") not in everything  # a badge's tip
    assert not find_leaks(site, analyse(ROOT / "data").docs or {})


def test_the_leak_checker_reads_pagefinds_records(site, tmp_path):
    docs = analyse(ROOT / "data").docs
    assert docs
    withheld = next(w["text"] for c in brief()["contradictions"] for w in c.get("withheld", []))
    planted = tmp_path / "site" / "pagefind" / "fragment"
    planted.mkdir(parents=True)
    record = {"url": "/x/", "content": f"据称 {withheld}", "meta": {"title": "x"}, "anchors": []}
    (planted / "zh_planted.pf_fragment").write_bytes(gzip.compress(b"pagefind_dcd" + json.dumps(record).encode()))
    leaks = find_leaks(tmp_path / "site", docs)
    assert [(leak.file, leak.where) for leak in leaks] == [("pagefind/fragment/zh_planted.pf_fragment", "search index")]


def test_both_searches_configured_is_told_and_stops_a_strict_build(tmp_path):
    root = copy_project(tmp_path / "p")
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("  - search:\n      enabled: false", "  - search:\n      lang: zh"), encoding="utf-8"
    )
    done = mkdocs_build(root)
    assert done.returncode != 0
    assert "`search: pagefind` and Material's `search` plugin are both enabled" in done.stderr
    assert "set `enabled: false` under `- search`" in done.stderr


def test_a_missing_pagefind_is_named_with_the_fix(tmp_path, monkeypatch):
    (tmp_path / "index.html").write_text("<html><body><article class='md-content__inner'>x</article></body></html>")
    monkeypatch.setattr(searchindex, "command", lambda site: [sys.executable, "-m", "no_such_pagefind"])
    with pytest.raises(searchindex.SearchIndexError, match=r"Pagefind could not index the site.*pip install"):
        searchindex.build(tmp_path)


# --------------------------------------------------------------------------------------------
# In Chromium
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(site):
    missing = None if CHROMIUM.exists() else f"{CHROMIUM} is missing"
    if importlib.util.find_spec("playwright") is None:
        missing = "the playwright package is missing"
    if missing:
        if in_ci():
            pytest.fail(missing + " — CI must run the browser tests", pytrace=False)
        pytest.skip(missing)
    with chromium_on(site) as (context, base):  # the benchmark's (benchmarks/search_bytes.py)
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        tab.base = base  # type: ignore[attr-defined]
        yield tab


def search(tab, query: str) -> tuple[list[str], str, int]:
    """(result links, the first result's text, bytes of Pagefind's files fetched for the query)."""
    tab.goto(tab.base + "/inference/1/")
    tab.wait_for_load_state("networkidle")
    fetched: list[int] = []

    def count(response) -> None:
        if "/pagefind/" in response.url:
            fetched.append(len(response.body()))

    tab.on("response", count)
    box = tab.locator(".md-search__input")
    if not box.is_visible():  # a theme where the box is a dialog (Zensical's, or a phone): open it first
        tab.locator("label.digest-search__open").click()
    box.click()
    box.press_sequentially(query, delay=20)
    box.press("End")
    tab.locator(".md-search-result__item").first.wait_for(state="visible")
    tab.wait_for_load_state("networkidle")
    links = [a.get_attribute("href") or "" for a in tab.locator(".md-search-result__item a").all()]
    text = re.sub(r"\s+", " ", tab.locator(".md-search-result__item").first.inner_text().replace("\u200b", ""))
    tab.remove_listener("response", count)
    return links, text, sum(fetched)


LEVELS = {"verified": "已核查", "partially_verified": "部分核查", "unverified": "未核实", "lead": "线索级"}


@pytest.mark.parametrize(
    ("query", "item_title_has"),
    [
        ("Kapitsa", "Kapitsa"),
        ("TorchTPU", "TorchTPU"),
        ("头阻塞", "prefill"),  # two characters inside the longer 「长 prefill 头阻塞」
        ("证据缓存", "RecSys"),  # indexed inside 「证据缓存复用」, cut differently at query time
        ("缓存", "RecSys"),
        ("ModelExpress", "ModelExpress"),
    ],
)
def test_a_query_leads_to_the_entry_first_and_shows_its_level(page, query, item_title_has):
    item = next(i for i in brief()["items"] if item_title_has.lower() in i["title"].lower())
    links, text, fetched = search(page, query)
    assert links and "#entry-" in links[0], f"{query}: the first result is not an entry: {links[:3]}"
    assert links[0].startswith(f"/inference/{str(item['placement']['section']).split('.')[0]}/"), links[0]
    assert LEVELS[item["evidence"]["level"]] in text, f"{query}: the result does not show the level: {text[:120]}"
    assert fetched < 600_000, f"{query}: {fetched} bytes fetched for one query"


def test_a_product_name_with_a_hyphen_and_an_arxiv_id_find_their_place(page):
    links, _, _ = search(page, "llm-d")
    section = next(str(i["placement"]["section"]) for i in brief()["items"] if "llm-d" in i["title"])
    assert links[0].startswith(f"/inference/{section.split('.')[0]}/"), links[:3]
    arxiv = brief()["citations"][0]["arxiv"].removeprefix("arXiv:")
    links, _, _ = search(page, arxiv)
    assert re.fullmatch(r"/inference/bibliography/#ref-\d+", links[0]), links[:3]


def test_one_latin_letter_is_not_searched_and_fetches_no_index(page):
    """A reader who has typed one letter has not asked anything yet: "d" is in nearly every page,
    and its part of the index is among the largest a query can fetch (issue 30)."""
    page.goto(page.base + "/inference/1/")
    page.wait_for_load_state("networkidle")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/pagefind/index/" in request.url else None)
    box = page.locator(".md-search__input")
    box.click()
    box.press_sequentially("d", delay=20)
    page.wait_for_timeout(1200)  # four times the box's pause before it asks
    page.wait_for_load_state("networkidle")
    assert asked == []
    assert page.locator(".md-search-result__item").count() == 0
    assert page.locator(".md-search-result__meta").inner_text() == "键入以开始搜索"
    box.fill("")
    box.press_sequentially("llm", delay=20)  # more letters are a query
    page.locator(".md-search-result__item").first.wait_for(state="visible")
    assert asked


def test_a_first_search_fetches_no_worker_script_and_each_record_once(page):
    """What the server sends for one search (counted where it is sent, as Chromium gives no size
    for what a worker fetches): Pagefind's script, the wasm, the index's parts and the records of
    the results, and not the 41 KB worker script Pagefind 1.5 would fetch first (issue 30)."""
    fresh = page.context.browser.new_context()  # nothing cached by the tests before
    try:
        tab = fresh.new_page()
        tab.set_default_timeout(15_000)
        tab.base = page.base
        search_bytes.SENT.clear()
        links, _, _ = search(tab, "Kapitsa")
    finally:
        fresh.close()
    sent = [path.split("?")[0] for path, _ in search_bytes.SENT if "/pagefind/" in path]
    assert links and any(path.endswith("/pagefind.js") for path in sent), sent
    assert not any("worker" in path for path in sent), sent
    fragments = [path for path in sent if "/fragment/" in path]
    assert fragments and len(fragments) == len(set(fragments)), sent


def test_a_small_site_can_keep_materials_own_search(tmp_path):
    """`search: material` with Material's `search` plugin: its index, no Pagefind, no second box."""
    root = copy_project(tmp_path / "p")
    use_materials_search(root)
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr[-3000:]
    site = root / "site"
    assert (site / "search" / "search_index.json").is_file()
    assert not (site / "pagefind").exists()
    page = (site / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="md-search"') == 1  # Material's own box


def run_digest_build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "build", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def test_one_command_builds_the_site_on_zensical_with_pagefinds_search_and_the_leak_check(tmp_path, page):
    root = copy_project(tmp_path / "z")
    done = run_digest_build(root, "--host", "zensical")
    assert done.returncode == 0, done.stdout + done.stderr
    site = root / "site"
    assert (site / "pagefind" / "pagefind.js").is_file() and records(site)
    html = (site / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    assert "assets/digest/search.js" in html and 'class="md-search"' not in html  # our box, not Zensical's
    assert "ok:" in done.stdout
    # In Chromium, the box on Zensical's page leads to the entry (the module's browser tab).
    mkdocs_base = page.base
    with serving(site) as base:
        page.base = base
        try:
            links, _, _ = search(page, "Kapitsa")
        finally:
            page.base = mkdocs_base
    assert links and links[0].endswith("#entry-kapitsa"), links[:3]
    # …and is laid out: a dialog over the page, icons in one row, results in body-size type (issue 34:
    # on Zensical the icons stacked and the results were heading-size).
    looks = page.evaluate(
        """() => {
          const box = (sel) => document.querySelector(sel).getBoundingClientRect();
          const size = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
          const icons = [...document.querySelectorAll('.md-search__form .md-search__icon svg')]
            .filter((svg) => svg.getBoundingClientRect().height > 0).map((svg) => svg.getBoundingClientRect());
          return {
            position: getComputedStyle(document.querySelector('.digest-search')).position,
            input: size('.md-search__input'), title: size('.md-search-result__article h1'),
            text: size('.md-search-result__article p'), body: size('article.md-content__inner') || size('body'),
            icons: icons.map((r) => [Math.round(r.top), Math.round(r.height)]), form: box('.md-search__form').height,
          };
        }"""
    )
    assert looks["position"] == "fixed", looks
    assert looks["title"] <= 1.25 * looks["body"] and looks["text"] <= looks["body"], looks
    assert len(looks["icons"]) == 2 and all(h <= 32 for _, h in looks["icons"]), looks
    assert abs(looks["icons"][0][0] - looks["icons"][1][0]) <= 4 and looks["form"] <= 64, looks  # one row
    # A withheld claim written into a hand-made page is found, and the command fails.
    withheld = next(w["text"] for c in brief()["contradictions"] for w in c.get("withheld", []))
    (root / "docs" / "inference" / "note.md").write_text(f"# 笔记\n\n据称 {withheld}。\n", encoding="utf-8")
    done = run_digest_build(root, "--host", "zensical")
    assert done.returncode == 1
    assert "inference/note/index.html: error: withheld claim" in done.stderr


def test_zensical_with_its_own_search_on_is_warned_and_what_it_lets_through_is_caught(tmp_path):
    """Zensical's search takes ``data-search-exclude`` off the pages; Pagefind then indexes the claim
    quoted in its callout.  The command says why up front, and the leak check still fails it."""
    root = copy_project(tmp_path / "z")
    replace_in(root / "mkdocs.yml", "  - search:\n      enabled: false\n", "")
    done = run_digest_build(root, "--host", "zensical")
    assert "Zensical's own search is on with `search: pagefind`" in done.stderr
    assert done.returncode == 1 and "withheld claim" in done.stderr + done.stdout, done.stdout + done.stderr


WRITTEN = {"Zyxwq": "Zyxwq 写 &lt;b&gt;粗&lt;/b&gt; 与 R&amp;D", "Qvxzk": "Qvxzk 写 &#43;12 与 <i>斜</i>"}
"""Points as an editor may write them: entity-like and markup-like text, all of it text to show."""


def test_a_result_shows_entity_and_markup_like_text_exactly_as_the_page_shows_it(tmp_path, page):
    """Issue 33, 3: Pagefind's excerpt escapes only < and >, and a box that parsed it as HTML showed
    ``&#43;12`` as ``+12`` and ``&lt;b&gt;`` as ``<b>``; a result must read as the page reads."""
    root = copy_project(tmp_path / "p")
    data = root / "data" / "briefs" / BRIEF.name
    first = brief()["items"][0]["points"][0]
    replace_in(data, f'      - "{first}"', f'      - "{first}"' + "".join(f'\n      - "{w}"' for w in WRITTEN.values()))
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr[-3000:]
    mkdocs_base = page.base
    with serving(root / "site") as base:
        page.base = base
        try:
            for word, written in WRITTEN.items():
                links, text, _ = search(page, word)
                marked = page.locator(".md-search-result__item").first.locator("mark").all_inner_texts()
                page.goto(base + links[0])
                shown = page.locator("li", has_text=word).last.inner_text()
                assert shown.strip() == written, shown  # the page shows what was written…
                assert written in text, text  # …and so does the search result, character for character
                assert marked and all(m.strip() == word for m in marked), marked  # Pagefind's highlight stays
        finally:
            page.base = mkdocs_base
