"""The leak check reads finished output: a withheld claim anywhere but quoted in its own callout is reported."""

from __future__ import annotations

import gzip
import html
import json
import os
import re
import signal
import time
from pathlib import Path

import pytest
from helpers import BRIEF, ROOT, copy_project, mkdocs_build
from helpers.shared import machine_cores
from ruamel.yaml import YAML

from digest_plugin.core.merge import merge
from digest_plugin.core.model import WithheldClaim
from digest_plugin.site import leaks
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.leaks import Leak, LeakCheck, Reading, find_leaks
from digest_plugin.site.render import Renderer
from digest_plugin.site.text import Heading

SHIPPED = YAML(typ="safe").load((ROOT / "data" / BRIEF).read_text(encoding="utf-8"))
WITHHOLDING = next(c for c in SHIPPED["contradictions"] if c.get("withheld"))
"""Contradiction 1 of the shipped brief, the one that withholds a claim (Kapitsa's weekly gain)."""
ID = WITHHOLDING["id"]
SPELLINGS = WITHHOLDING["withheld"][0]["patterns"]
OTHER = next(c["id"] for c in SHIPPED["contradictions"] if c["id"] != ID)
PAGE = "inference/1/index.html"


@pytest.fixture(scope="module")
def check(shipped) -> LeakCheck:
    return LeakCheck({"inference": merge(shipped.outlines["inference"], shipped.briefs)})


def quoted(contradiction_id: str, text: str) -> str:
    return f'<span class="digest-withheld-quote" data-withheld-quote="{contradiction_id}">{html.escape(text)}</span>'


def callout(contradiction_id: str, inner: str) -> str:
    return (
        f'<details class="warning" data-digest-contradiction="{contradiction_id}" data-status="open">'
        f"<summary>矛盾</summary><p>{inner}</p></details>"
    )


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_withheld_spelling_on_a_page_is_reported(check, spelling):
    assert check.html(PAGE, f"<p>Kapitsa {html.escape(spelling)}，增长很快。</p>") == [Leak(PAGE, spelling, ID, "text")]


def test_quoted_in_its_own_callout_it_is_not_a_leak(check):
    page = "<p>Kapitsa 的周增见登记。</p>" + callout(ID, "原文：" + quoted(ID, SPELLINGS[0]))
    assert check.html(PAGE, page) == []


def test_anywhere_else_it_is(check):
    outside_the_callout = quoted(ID, SPELLINGS[0])
    in_another_callout = callout(OTHER, quoted(ID, SPELLINGS[0]))
    unmarked_in_its_callout = callout(ID, html.escape(SPELLINGS[0]))
    in_other_details = f'<details class="note"><summary>更多</summary><p>{html.escape(SPELLINGS[0])}</p></details>'
    for page in (outside_the_callout, in_another_callout, unmarked_in_its_callout, in_other_details):
        assert [leak.pattern for leak in check.html(PAGE, page)] == [SPELLINGS[0]], page


def test_outside_a_callout_on_the_same_page_it_still_is(check):
    page = callout(ID, quoted(ID, SPELLINGS[0])) + f"<p>{html.escape(SPELLINGS[1])}</p>"
    assert [leak.pattern for leak in check.html(PAGE, page)] == [SPELLINGS[1]]


def test_spelt_across_tags_and_lines_it_is_still_found(check):
    first, _, rest = SPELLINGS[0].partition(" ")
    assert len(check.html(PAGE, f"<p><strong>{first}</strong>\n  {html.escape(rest)}</p>")) == 1


def test_in_an_attribute_it_is_found_and_named(check):
    (leak,) = check.html(PAGE, f'<p><a href="#x" title="{html.escape(SPELLINGS[0])}">Kapitsa</a></p>')
    assert (leak.pattern, leak.where) == (SPELLINGS[0], "attribute title")
    assert str(leak).startswith(f"{PAGE}: withheld claim '{SPELLINGS[0]}'") and ID in str(leak)


def test_each_leak_is_reported_once(check):
    page = f"<p>{html.escape(SPELLINGS[0])}</p>" * 3 + f"<li>{html.escape(SPELLINGS[0])}</li>"
    assert len(check.html(PAGE, page)) == 1


def test_a_page_without_the_claim_is_clean(check):
    assert check.html(PAGE, "<p>Kapitsa 155 ⭐</p>") == []
    assert LeakCheck({}).html(PAGE, f"<p>{html.escape(SPELLINGS[0])}</p>") == []  # nothing withheld, nothing to find


def test_an_escaped_spelling_is_matched_however_the_page_encodes_it(shipped):
    (brief,) = shipped.briefs
    spelling = 'Q&A 延迟 <2s "实测"'
    claim = WithheldClaim(text="延迟实测", patterns=[spelling])
    first = brief.contradictions[0].model_copy(update={"withheld": [claim]})
    brief = brief.model_copy(update={"contradictions": [first, *brief.contradictions[1:]]})
    check = LeakCheck({"inference": merge(shipped.outlines["inference"], [brief])})
    for written in (
        "Q&amp;A 延迟 &lt;2s &quot;实测&quot;",  # as the renderer escapes it
        'Q&amp;A 延迟 &lt;2s "实测"',  # as Python-Markdown writes a hand-written page's text
        "Q&#38;A 延迟 &#x3C;2s &#34;实测&#34;",
    ):
        assert [leak.pattern for leak in check.html(PAGE, f"<p>{written}</p>")] == [spelling], written
    assert check.html(PAGE, callout(first.id, quoted(first.id, spelling))) == []


def test_feeds_and_the_search_index_are_read_too(check):
    body = html.escape(f"<p>{html.escape(SPELLINGS[0])}</p>")
    feed = (
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>inference</title>'
        f'<entry><title>{html.escape(SPELLINGS[1])}</title><content type="html">{body}</content></entry></feed>'
    )
    assert sorted((leak.pattern, leak.where) for leak in check.feed("inference/feed.xml", feed)) == sorted(
        [(SPELLINGS[0], "text"), (SPELLINGS[1], "feed")]
    )
    index = json.dumps({"docs": [{"location": "inference/1/", "title": "§1", "text": f"<p>{SPELLINGS[0]}</p>"}]})
    (leak,) = check.search_index("search/search_index.json", index)
    assert (leak.file, leak.pattern, leak.where) == ("search/search_index.json", SPELLINGS[0], "search index")


def test_zensicals_search_index_is_read_too(check, tmp_path):
    """Zensical writes its own index (``search.json``, entries under ``items``)."""
    index = json.dumps({"config": {}, "items": [{"location": "inference/1/", "title": "§1", "text": SPELLINGS[1]}]})
    assert [leak.pattern for leak in check.search_index("search.json", index)] == [SPELLINGS[1]]
    site = tmp_path / "site"
    site.mkdir()
    (site / "search.json").write_text(index, encoding="utf-8")
    assert [(leak.file, leak.where) for leak in check.site(site)] == [("search.json", "search index")]


def test_a_whole_site_is_read(shipped, tmp_path):
    site = tmp_path / "site"
    (site / "inference" / "1").mkdir(parents=True)
    (site / "search").mkdir()
    (site / "inference" / "1" / "index.html").write_text(f"<p>{html.escape(SPELLINGS[0])}</p>", encoding="utf-8")
    (site / "inference" / "register").mkdir()
    (site / "inference" / "register" / "index.html").write_text(callout(ID, quoted(ID, SPELLINGS[0])), "utf-8")
    (site / "search" / "search_index.json").write_text(json.dumps({"docs": []}), encoding="utf-8")
    (site / "sitemap.xml").write_text("<urlset><url><loc>x</loc></url></urlset>", encoding="utf-8")
    docs = {"inference": merge(shipped.outlines["inference"], shipped.briefs)}
    assert [(leak.file, leak.pattern) for leak in find_leaks(site, docs)] == [(PAGE, SPELLINGS[0])]


def test_a_file_replaced_while_the_site_is_read_stops_nothing(check, tmp_path, monkeypatch):
    """A preview's search index is replaced whole in the background while a rebuild reads the site
    (measured at 3,650 days: the rebuild failed with FileNotFoundError and the preview hung)."""
    site = tmp_path / "site"
    (site / "inference" / "1").mkdir(parents=True)
    (site / "inference" / "1" / "index.html").write_text(f"<p>{html.escape(SPELLINGS[0])}</p>", encoding="utf-8")
    fragments = site / ".pagefind-next" / "fragment"
    fragments.mkdir(parents=True)
    (fragments / "zh_1.pf_fragment").write_bytes(gzip.compress(b"pagefind_dcd" + b"{}"))
    real = leaks._files

    def listed_then_replaced(folder, prefix=""):
        found = list(real(folder, prefix))
        if not prefix:
            (fragments / "zh_1.pf_fragment").unlink()
        yield from found

    monkeypatch.setattr(leaks, "_files", listed_then_replaced)
    assert [(leak.file, leak.pattern) for leak in check.site(site)] == [(PAGE, SPELLINGS[0])]


def test_a_resolved_claim_is_no_longer_withheld(lifecycle):
    # 2026-10-22 E2 resolves contradiction 1 (kapitsa-weekly-gain); 2026-10-24 re-opens it
    outline = lifecycle.outlines["inference"]
    page = f"<p>{html.escape(SPELLINGS[0])}</p>"
    resolved = merge(outline, [b for b in lifecycle.briefs if b.date.day <= 22])
    assert LeakCheck({"inference": resolved}).html(PAGE, page) == []
    assert len(LeakCheck({"inference": merge(outline, lifecycle.briefs)}).html(PAGE, page)) == 1


def test_the_rendered_pages_of_the_shipped_data_do_not_leak(shipped, check):
    doc = merge(shipped.outlines["inference"], shipped.briefs)
    layout = Layout(doc)
    pages = {f"inference/{top.number}.md": lambda r, n=top.number: r.section(n) for top in doc.top_sections()}
    pages["inference/register.md"] = Renderer.register
    pages["inference/bibliography.md"] = Renderer.bibliography
    pages["inference/follow-ups.md"] = Renderer.follow_ups
    pages["inference/index.md"] = Renderer.overview
    pages.update({f"inference/briefs/{b.id}.md": lambda r, i=b.id: r.brief(i) for b in doc.briefs})
    quotes = 0
    for page, blocks in pages.items():
        rendered = "".join(
            html.escape(b.text) if isinstance(b, Heading) else b.html for b in blocks(Renderer(layout, Linker(page)))
        )
        assert check.html(page, rendered) == [], page
        quotes += rendered.count(f'data-withheld-quote="{ID}"')
    assert quotes > 0  # the claim is quoted in its callouts, so the check above had something to let through


@pytest.mark.parametrize(
    "written",
    [
        "周\u00ad增 +175",  # a soft hyphen inside the word
        "周增\u200b +175",  # a zero-width space
        "周增 ＋１７５",  # full-width digits
        "周增 +17<span>5</span>",  # markup inside the word
        "周增&nbsp;+175",  # a no-break space
        "&#x5468;&#x589E; +175",  # the ideographs as hexadecimal character references
        "&#21608;增 +175",  # one as a decimal reference
    ],
)
def test_a_claim_a_reader_sees_whole_is_found_however_it_is_written(check, written):
    assert [leak.pattern for leak in check.html(PAGE, f"<p>{written}</p>")] == ["周增 +175"]


def test_the_separators_material_writes_into_the_search_index_hide_nothing(check):
    """Material's search segments Chinese with jieba and joins the words with U+200B."""
    index = json.dumps({"docs": [{"location": "x/", "title": "x", "text": "<p>周增\u200b +175</p>"}]})
    assert [leak.pattern for leak in check.search_index("search/search_index.json", index)] == ["周增 +175"]


def test_a_file_that_is_not_well_formed_xml_is_still_read(check):
    assert [leak.pattern for leak in check.feed("inference/feed.xml", "<feed><title>周增 +175</feed>")] == ["周增 +175"]


def test_a_large_site_is_read_whole_on_two_cores(check, tmp_path):
    """Past SPLIT_BYTES a forked worker reads the second half of the files: a leak in the last
    page, the last feed and the last search record is found as surely as one in the first page."""
    site = tmp_path / "site"
    filler = "<p>" + "活文档的普通段落，没有任何暂扣说法。" * 2000 + "</p>\n"  # ~110 KB a page
    pages = [site / "inference" / "briefs" / f"2027-{n:03d}" / "index.html" for n in range(120)]
    for page in pages:
        page.parent.mkdir(parents=True)
        page.write_text(filler, encoding="utf-8")
    assert sum(page.stat().st_size for page in pages) > leaks.SPLIT_BYTES  # the worker has a half to read
    pages[0].write_text(f"<p>{html.escape(SPELLINGS[0])}</p>" + filler, encoding="utf-8")
    pages[-1].write_text(filler + f"<p>{html.escape(SPELLINGS[1])}</p>", encoding="utf-8")
    feed = site / "zz" / "feed.xml"
    feed.parent.mkdir()
    feed.write_text(f'<feed xmlns="http://www.w3.org/2005/Atom"><title>{SPELLINGS[0]}</title></feed>', "utf-8")
    record = site / "zz" / "pagefind" / "fragment" / "zz.pf_fragment"
    record.parent.mkdir(parents=True)
    record.write_bytes(gzip.compress(b"pagefind_dcd" + json.dumps({"content": SPELLINGS[1]}).encode()))

    found = [(leak.file, leak.pattern, leak.where) for leak in check.site(site)]
    assert found == [
        ("inference/briefs/2027-000/index.html", SPELLINGS[0], "text"),
        ("inference/briefs/2027-119/index.html", SPELLINGS[1], "text"),
        ("zz/feed.xml", SPELLINGS[0], "feed"),
        ("zz/pagefind/fragment/zz.pf_fragment", SPELLINGS[1], "search index"),
    ]


# ---------------------------------------------------------------------------- read while the build writes


def planted_site(tmp_path, pages: int = 30) -> tuple[Path, list[str]]:
    """A site whose pages 0, middle and last state the withheld claim (every other page is clean)."""
    site = tmp_path / "site"
    names = [f"inference/briefs/2027-{n:03d}/index.html" for n in range(pages)]
    for n, name in enumerate(names):
        (site / name).parent.mkdir(parents=True)
        claim = f"<p>{html.escape(SPELLINGS[0])}</p>" if n in (0, pages // 2, pages - 1) else ""
        (site / name).write_text(f"<p>第 {n} 页</p>{claim}", encoding="utf-8")
    return site, names


def leaks_found(check: LeakCheck, site: Path, reading: Reading) -> list[str]:
    """What the build reports: the worker's leaks and the sweep's over the files it did not read."""
    found, read = reading.result()
    return [leak.file for leak in sorted(found + check.site(site, skip=read.__contains__))]


@pytest.mark.every_core
@pytest.mark.skipif(len(machine_cores()) < 2, reason="one core: no worker, the sweep reads everything")
def test_pages_named_as_they_are_written_are_read_by_the_worker(check, tmp_path):
    site, names = planted_site(tmp_path)
    reading = Reading(check, site)
    assert reading.worker is not None
    for name in names:
        reading.written(name)
    reading.all_written()
    found, read = reading.result()
    assert read == frozenset(names)  # the sweep has nothing left to read
    assert [leak.file for leak in sorted(found)] == [names[0], names[15], names[-1]]
    assert check.site(site, skip=read.__contains__) == []


@pytest.mark.every_core
@pytest.mark.skipif(len(machine_cores()) < 2 or not hasattr(signal, "SIGSTOP"), reason="needs a worker to pause")
def test_the_build_never_waits_for_the_worker(check, tmp_path):
    site, names = planted_site(tmp_path)
    reading = Reading(check, site)
    assert reading.worker is not None and reading.worker.pid is not None
    os.kill(reading.worker.pid, signal.SIGSTOP)  # a worker that reads nothing for now
    try:
        start = time.monotonic()
        for n in range(20_000):  # ~1 MB of names: far more than a pipe holds
            reading.written(names[n % len(names)])
        assert time.monotonic() - start < 5
    finally:
        os.kill(reading.worker.pid, signal.SIGCONT)
    assert leaks_found(check, site, reading) == [names[0], names[15], names[-1]]


def test_a_worker_that_dies_leaves_every_page_to_the_sweep(check, tmp_path):
    site, names = planted_site(tmp_path)
    reading = Reading(check, site)
    if reading.worker is not None and reading.worker.pid is not None:
        os.kill(reading.worker.pid, signal.SIGKILL)
    for name in names:
        reading.written(name)
    assert leaks_found(check, site, reading) == [names[0], names[15], names[-1]]


def test_pages_never_named_are_read_by_the_sweep(check, tmp_path):
    site, names = planted_site(tmp_path)
    reading = Reading(check, site)
    for name in names[:10]:  # the build stopped naming pages (or they were written some other way)
        reading.written(name)
    assert leaks_found(check, site, reading) == [names[0], names[15], names[-1]]


def test_a_strict_build_names_each_leaking_page_once(tmp_path):
    """Pages the worker reads and pages the sweep reads are reported alike, each once."""
    project = copy_project(tmp_path / "project")
    for page in ("index.md", "inference/1.md", "inference/5.md"):
        path = project / "docs" / page
        path.write_text(path.read_text(encoding="utf-8") + "\nKapitsa 周增 +175，增长很快。\n", encoding="utf-8")
    out = mkdocs_build(project)
    assert out.returncode != 0
    named = re.findall(r"WARNING +-  (\S+): withheld claim '周增 \+175'", out.stderr)
    assert len(named) == len(set(named)), out.stderr[-3000:]
    pages = sorted(name for name in named if name.endswith(".html"))
    assert pages == ["index.html", "inference/1/index.html", "inference/5/index.html"], out.stderr[-3000:]
    assert any(name.endswith(".pf_fragment") for name in named)  # and in the search records made from them


def test_a_preview_reads_again_only_the_files_whose_bytes_changed(shipped, check, tmp_path, monkeypatch):
    """``digest serve`` writes the hand-written pages again after every edit, mostly byte for byte;
    what an earlier rebuild found in the same bytes, against the same spellings, still holds, and
    every file that changed is read afresh: a leak written in is found, one taken out is gone."""
    site = tmp_path / "site"
    (site / "inference" / "1").mkdir(parents=True)
    (site / "inference" / "2").mkdir(parents=True)
    leaking, clean = site / "inference" / "1" / "index.html", site / "inference" / "2" / "index.html"
    leaking.write_text(f"<p>{html.escape(SPELLINGS[0])}</p>", encoding="utf-8")
    clean.write_text("<p>Kapitsa 的周增见登记。</p>", encoding="utf-8")
    before = leaks.ReadBefore()
    assert [leak.file for leak in check.site(site, before=before)] == [PAGE]
    parsed: list[str] = []
    real = LeakCheck.html
    monkeypatch.setattr(LeakCheck, "html", lambda self, name, page: parsed.append(name) or real(self, name, page))
    assert [leak.file for leak in check.site(site, before=before)] == [PAGE] and parsed == []  # the same bytes
    leaking.write_text("<p>已改写。</p>", encoding="utf-8")
    clean.write_text(f"<p>{html.escape(SPELLINGS[-1])}</p>", encoding="utf-8")
    assert [leak.file for leak in check.site(site, before=before)] == ["inference/2/index.html"]
    assert sorted(parsed) == ["inference/1/index.html", "inference/2/index.html"]
    parsed.clear()  # other spellings (a contradiction settled): every file is read again
    other = LeakCheck({"inference": merge(shipped.outlines["inference"], shipped.briefs)})
    other.spellings = dict(list(check.spellings.items())[1:])
    other.site(site, before=before)
    assert sorted(parsed) == ["inference/1/index.html", "inference/2/index.html"]
