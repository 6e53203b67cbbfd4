"""Which pages the living doc generates, and the files ``digest pages`` writes for a host that cannot
generate pages (site/pages.py), from the shipped data, the second topic of tests/fixtures/topics and
briefs written here.  What is checked is what a site's maintainer relies on: every page the README
lists exists for every topic; a generated page's Markdown carries no brief text (mkdocs-macros' Jinja
is not sandboxed); a hand-written page of the same path wins; ``docs/`` is kept tidy and unchanged
files are left alone (a host watching the folder rebuilds only what changed)."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import xml.etree.ElementTree as ET
from importlib.resources import files as package_files

import pytest
from helpers import FIXTURES, ROOT, brief_item, night_brief

from digest_plugin.core import labels, siteconfig
from digest_plugin.core.load import load_file
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief, Outline, Rules
from digest_plugin.site.layout import Layout
from digest_plugin.site.pages import MANIFEST, generated_pages, search_script, write_pages

ATOM = "{http://www.w3.org/2005/Atom}"
HOSTILE = "{{ config.site_dir }} {% include 'x' %} <script>alert(1)</script>"


@pytest.fixture(scope="module")
def training() -> tuple[Outline, Brief]:
    """The second topic: its outline and its one brief."""
    outline, findings, _ = load_file(FIXTURES / "topics" / "outlines" / "training.yml", Outline)
    brief, more, _ = load_file(FIXTURES / "topics" / "briefs" / "2026-10-21-training-E1.yml", Brief)
    assert not findings and not more, [*findings, *more]
    return outline, brief


def night(day: dt.date, **body) -> Brief:
    return Brief.model_validate(
        {**night_brief(), "id": f"{day}-inference-E1", "date": day.isoformat(), "title": f"简报 {day}", **body}
    )


def docs_of(shipped, training, *later: Brief, rules: Rules | None = None) -> dict:
    outline, brief = training
    return {
        "inference": merge(shipped.outlines["inference"], [*shipped.briefs, *later], rules),
        "training": merge(outline, [brief], rules),
    }


def pages_of(docs: dict) -> dict[str, str]:
    """Every generated file by its path (each path generated once)."""
    pairs = list(generated_pages({topic: Layout(doc) for topic, doc in docs.items()}))
    paths = [path for path, _ in pairs]
    assert len(paths) == len(set(paths)), sorted(p for p in paths if paths.count(p) > 1)
    return dict(pairs)


def briefs_by_topic(docs: dict) -> dict[str, list[Brief]]:
    return {topic: list(doc.briefs) for topic, doc in docs.items()}


def heading(stub: str) -> str:
    (line,) = [line for line in stub.splitlines() if line.startswith("# ")]
    return line


def directives(stub: str) -> list[str]:
    return re.findall(r"\[\[digest\b[^\]]*\]\]", stub)


# --------------------------------------------------------------------------- which pages exist


def test_every_topic_has_its_pages_under_its_own_prefix_and_the_assets_once(shipped, training):
    """README: "The site has, per topic: §1–§6 [hand-written], the register, the bibliography, the
    follow-ups, a page per brief, a legend and an Atom feed", with the briefs index; the stylesheet
    and scripts mkdocs.yml names are generated once for the whole site."""
    docs = docs_of(shipped, training, night(dt.date(2026, 10, 22)))
    pages = pages_of(docs)
    for topic, briefs in briefs_by_topic(docs).items():
        expected = {
            f"{topic}/{name}"
            for name in ("register.md", "bibliography.md", "follow-ups.md", "legend.md", "briefs/index.md", "feed.xml")
        } | {f"{topic}/briefs/{b.id}.md" for b in briefs}
        # what each night changed: a page a month, and a permalink a night (issue 32)
        expected |= {f"{topic}/changes/{b.date:%Y-%m}.md" for b in briefs}
        expected |= {f"{topic}/changes/{b.date.isoformat()}/index.html" for b in briefs}
        assert {p for p in pages if p.startswith(f"{topic}/")} == expected, topic
    hand_written = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert hand_written and not hand_written & set(pages)  # §1–§6 and the homes are the editors'
    config = siteconfig.settings(ROOT / "mkdocs.yml")
    assets = [*config["extra_css"], *config["extra_javascript"]]
    assert sorted(p for p in pages if not p.startswith(tuple(f"{t}/" for t in docs))) == sorted(assets)
    package = package_files("digest_plugin").joinpath("assets")
    assert pages["assets/digest/digest.css"] == package.joinpath("digest.css").read_text(encoding="utf-8")
    assert pages["assets/digest/digest.js"] == package.joinpath("digest.js").read_text(encoding="utf-8")


def test_each_topics_feed_lists_its_own_briefs(shipped, training):
    docs = docs_of(shipped, training)
    pages = pages_of(docs)
    for topic, briefs in briefs_by_topic(docs).items():
        others = [b for t, bs in briefs_by_topic(docs).items() if t != topic for b in bs]
        feed = ET.fromstring(pages[f"{topic}/feed.xml"])
        listed = [e.findtext(f"{ATOM}id").rpartition(":")[2] for e in feed.iter(f"{ATOM}entry")]
        assert listed == [b.id for b in reversed(briefs)], topic
        assert not {b.id for b in others} & set(listed), topic


def test_older_months_get_an_archive_page_each_and_the_current_month_none(shipped, training):
    """README: "older activity moves to one archive page per month" (``archive_after_days``, counted
    back from the newest brief): with three weeks and briefs on 10-21, 11-05 and 12-20, October and
    November have archive pages, December none; each page names its month."""
    rules = Rules(archive_after_days=21)
    later = [night(dt.date(2026, 11, 5)), night(dt.date(2026, 12, 20))]
    docs = docs_of(shipped, training, *later, rules=rules)
    pages = pages_of(docs)
    newest = max(b.date for b in docs["inference"].briefs)
    old = {f"{b.date:%Y-%m}" for b in docs["inference"].briefs if b.date < newest - dt.timedelta(days=21)}
    assert old == {"2026-10", "2026-11"}
    archived = {p for p in pages if re.fullmatch(r"inference/briefs/\d{4}-\d\d\.md", p)}
    assert archived == {f"inference/briefs/{month}.md" for month in old}
    for kind in ("register", "follow-ups", "bibliography"):  # the shipped brief's contradictions, follow-ups, paper
        assert f"inference/{kind}/2026-10.md" in pages, kind
    assert not [
        p for p in pages if "2026-12" in p and not p.startswith(("inference/briefs/2026-12-", "inference/changes/"))
    ]
    changes = {p for p in pages if p.startswith("inference/changes/") and p.endswith(".md")}
    assert changes == {
        f"inference/changes/{m}.md" for m in ("2026-10", "2026-11", "2026-12")
    }  # not archives: every month
    for path in archived | {f"inference/{k}/2026-10.md" for k in ("register", "follow-ups", "bibliography")}:
        month = path.rsplit("/", 1)[1].removesuffix(".md")
        assert month in heading(pages[path]) and [month in d for d in directives(pages[path])] == [True], path


# --------------------------------------------------------------------------- stubs carry no brief text


def test_a_generated_page_holds_no_brief_text_and_tells_macros_not_to_run(shipped, training):
    """A brief whose title, author and item hold Jinja and markup: no generated page's Markdown
    contains them (mkdocs-macros would evaluate them), each says ``render_macros: false`` and holds
    one ``[[digest …]]`` directive, and a brief's page is headed by its date and round (checked
    fields) and names the brief it shows."""
    hostile = night(
        dt.date(2026, 10, 22),
        title=f"今夜 {HOSTILE}",
        author=f"编辑 {HOSTILE}",
        items=[brief_item("hostile", 1, f"条目 {HOSTILE}", {"section": "5.2", "action": "new_sub_entry"})],
    )
    pages = pages_of(docs_of(shipped, training, hostile))
    stubs = {path: text for path, text in pages.items() if path.endswith(".md")}
    assert len(stubs) >= 2 * 6
    for path, text in stubs.items():
        assert "{{" not in text and "{%" not in text and "<script" not in text, path
        front, _, body = text.removeprefix("---\n").partition("\n---\n")
        assert text.startswith("---\n") and "render_macros: false" in front.splitlines(), path
        assert len(directives(body)) == 1, path
    for brief in [*shipped.briefs, hostile]:
        stub = stubs[f"inference/briefs/{brief.id}.md"]
        assert brief.date.isoformat() in heading(stub) and brief.round in heading(stub)
        assert [brief.id in d for d in directives(stub)] == [True]


# --------------------------------------------------------------------------- the files `digest pages` writes


def test_a_hand_written_page_of_the_same_path_is_never_overwritten(shipped, training, tmp_path):
    """README: "A page of the same path in docs/ replaces a generated one" — on a host that writes
    the pages too; every other page is written as generated."""
    docs_dir = tmp_path / "docs"
    mine = docs_dir / "inference" / "legend.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("# 我们的图例\n\n手写。\n", encoding="utf-8")
    docs = docs_of(shipped, training)
    for _ in range(2):  # and again, now that the manifest exists
        written = write_pages(docs_dir, docs)
        assert mine.read_text(encoding="utf-8") == "# 我们的图例\n\n手写。\n"
        assert "inference/legend.md" not in written
        assert "inference/legend.md" not in (docs_dir / MANIFEST).read_text(encoding="utf-8").split()
    expected = pages_of(docs)
    assert set(written) == set(expected) - {"inference/legend.md"}
    assert all((docs_dir / p).read_text(encoding="utf-8") == expected[p] for p in written)


def test_the_page_of_a_deleted_brief_goes_and_no_hand_written_file_does(shipped, training, tmp_path):
    docs_dir = tmp_path / "docs"
    hand_written = {"index.md": "# 首页\n", "inference/1.md": "# §1\n", "inference/notes.md": "# 笔记\n"}
    for path, text in hand_written.items():
        (docs_dir / path).parent.mkdir(parents=True, exist_ok=True)
        (docs_dir / path).write_text(text, encoding="utf-8")
    tonight = night(dt.date(2026, 10, 22))
    write_pages(docs_dir, docs_of(shipped, training, tonight))
    page = docs_dir / "inference" / "briefs" / f"{tonight.id}.md"
    assert page.is_file()
    written = write_pages(docs_dir, docs_of(shipped, training))  # the brief file was deleted
    assert not page.exists()
    assert all((docs_dir / p).read_text(encoding="utf-8") == text for p, text in hand_written.items())
    on_disk = {p.relative_to(docs_dir).as_posix() for p in docs_dir.rglob("*") if p.is_file()}
    assert on_disk == set(written) | set(hand_written) | {MANIFEST}
    assert sorted((docs_dir / MANIFEST).read_text(encoding="utf-8").split()) == sorted(written)


def test_writing_again_touches_only_what_changed(shipped, training, tmp_path):
    """A host watching docs/ (``zensical serve``) rebuilds what changed: after tonight's brief arrives
    only its page is new and only the feed (which carries the data) is rewritten; the stubs carry no
    data, so they keep their modification time."""
    docs_dir = tmp_path / "docs"
    before = write_pages(docs_dir, docs_of(shipped, training))
    old = 1_000_000_000 * 10**9  # 2001: any later write shows
    for path in before:
        os.utime(docs_dir / path, ns=(old, old))
    tonight = night(dt.date(2026, 10, 22))
    after = write_pages(docs_dir, docs_of(shipped, training, tonight))
    # its page and its night's permalink (its month's changes page is there already, and holds no data)
    assert set(after) - set(before) == {f"inference/briefs/{tonight.id}.md", "inference/changes/2026-10-22/index.html"}
    touched = {p for p in before if (docs_dir / p).stat().st_mtime_ns != old}
    assert touched == {"inference/feed.xml"}


# --------------------------------------------------------------------------- the search box's words


def search_words(script: str) -> dict:
    prefix = "window.DIGEST_SEARCH = "
    assert script.startswith(prefix)
    words, _ = json.JSONDecoder().raw_decode(script, len(prefix))
    code = package_files("digest_plugin").joinpath("assets/search.js").read_text(encoding="utf-8")
    assert script.endswith(code)  # then the box's code, as shipped
    return words


def test_the_search_box_says_the_sites_words_and_a_preview_says_its_index_may_lag():
    assert search_words(search_script()) == labels.SEARCH_UI
    preview = search_words(search_script(preview=True))
    assert preview == {**labels.SEARCH_UI, **labels.SEARCH_UI_PREVIEW}
    assert set(labels.SEARCH_UI_PREVIEW) - set(labels.SEARCH_UI)  # a word only a preview's box says


def test_a_search_word_with_markup_cannot_end_the_script(monkeypatch):
    """A word a maintainer writes in labels.py with ``</script>`` in it: the script, inlined or not,
    holds no ``</`` in its data and reads the word back as written."""
    word = "</script><script>alert(1)</script> 搜索"
    monkeypatch.setattr(labels, "SEARCH_UI", {**labels.SEARCH_UI, "placeholder": word})
    script = search_script()
    data = script[: script.index(";\n")]
    assert "</" not in data
    assert search_words(script)["placeholder"] == word
