"""The Atom feed of a topic (site/feed.py), made from the shipped data and briefs written here: what a
feed reader shows (the newest briefs first, each with its title, date and a link to its page), and
that brief text in it is text, never markup.  The site-wide checks (a withheld claim is in no feed,
the built feed's links land on built pages) are in test_publish.py and test_lifecycle.py."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from urllib.parse import urljoin

import feedparser
import pytest
from helpers import brief_item, night_brief
from html_dom import parse

from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief
from digest_plugin.site.feed import FEED_ENTRIES, atom
from digest_plugin.site.layout import Layout

ATOM = "{http://www.w3.org/2005/Atom}"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
HOSTILE = '<script>alert(1)</script> & "q" <b>bold</b> {{ 7*7 }}'
FEED_URL = "https://reader.example/living/inference/feed.xml"
"""Where a reader fetched a feed that has no ``xml:base``: its relative links resolve from here."""


def night(n: int, round_: str = "E1", **body) -> Brief:
    """A brief n days after the shipped one (2026-10-21)."""
    day = dt.date(2026, 10, 21) + dt.timedelta(days=n)
    return Brief.model_validate(
        {
            **night_brief(),
            "id": f"{day}-inference-{round_}",
            "date": day.isoformat(),
            "round": round_,
            "title": f"inference · {round_} 简报（{day}）",
            **body,
        }
    )


def feed_of(shipped, briefs: list[Brief], site_url: str | None = None, directory_urls: bool = True) -> str:
    return atom(Layout(merge(shipped.outlines["inference"], [*shipped.briefs, *briefs])), site_url, directory_urls)


def links(element: ET.Element, base: str) -> dict[str, str]:
    """rel → absolute href of the element's own links."""
    return {link.get("rel"): urljoin(base, link.get("href")) for link in element.findall(f"{ATOM}link")}


# --------------------------------------------------------------------------- what a feed reader lists


def test_the_newest_briefs_come_first_up_to_the_feeds_limit(shipped):
    """A reader polls the feed for what is new: the newest briefs, newest first (two rounds of one
    night by their ids), each dated its brief's day; the oldest fall off once there are more."""
    later = [night(n) for n in range(1, FEED_ENTRIES + 5)] + [night(FEED_ENTRIES + 4, "E2")]
    every = [*shipped.briefs, *later]
    assert len(every) > FEED_ENTRIES  # the limit bites
    newest_first = sorted(every, key=lambda b: (b.date, b.id), reverse=True)

    feed = feedparser.parse(feed_of(shipped, later))
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    shown = newest_first[:FEED_ENTRIES]
    assert [e.id.rpartition(":")[2] for e in feed.entries] == [b.id for b in shown]
    assert [e.title for e in feed.entries] == [b.title for b in shown]
    assert [e.updated for e in feed.entries] == [f"{b.date.isoformat()}T00:00:00Z" for b in shown]
    assert newest_first[0].round == "E2"  # the second round of the newest night leads
    assert feed.feed.updated == f"{newest_first[0].date.isoformat()}T00:00:00Z"
    assert shipped.briefs[0].id not in {e.id.rpartition(":")[2] for e in feed.entries}


def test_a_topic_without_briefs_has_a_valid_feed_with_no_entries(shipped):
    """A new topic, its outline written and no night yet: the feed is valid Atom (a title, an id and
    a date, as Atom requires) and lists nothing."""
    feed = feedparser.parse(atom(Layout(merge(shipped.outlines["inference"], []))))
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.entries == []
    assert feed.feed.title and feed.feed.id and feed.feed.updated


# --------------------------------------------------------------------------- where its links lead


def site_urls(root: str, directory_urls: bool) -> dict[str, str]:
    """Where a reader lands, under the site's root: the briefs index, a brief's page, §5's page
    (MkDocs' URLs: ``inference/5/``, or ``inference/5.html`` without directory URLs)."""
    if directory_urls:
        return {
            "index": f"{root}inference/briefs/",
            "brief": f"{root}inference/briefs/{{id}}/",
            "5": f"{root}inference/5/",
        }
    return {
        "index": f"{root}inference/briefs/index.html",
        "brief": f"{root}inference/briefs/{{id}}.html",
        "5": f"{root}inference/5.html",
    }


@pytest.mark.parametrize(
    ("site_url", "directory_urls", "root"),
    [
        (None, True, "https://reader.example/living/"),  # the feed's own address (FEED_URL) decides
        (None, False, "https://reader.example/living/"),
        ("https://docs.example.org/doc/", True, "https://docs.example.org/doc/"),
        ("https://docs.example.org/doc", False, "https://docs.example.org/doc/"),
    ],
    ids=["relative", "relative-html", "site-url", "site-url-html"],
)  # fmt: skip
def test_each_entry_links_to_its_briefs_page_and_what_it_changed(shipped, site_url, directory_urls, root):
    """Without ``site_url`` the links are relative to the feed wherever it is served; with it they
    resolve under the site's address (``xml:base``).  Either way the feed leads to the briefs index,
    a brief's entry to its page (``/inference/briefs/<id>/``, README) and the entry it added to that
    entry's § page."""
    tonight = night(1, items=[brief_item("night-entry", 1, "新条目", {"section": "5.2", "action": "new_sub_entry"})])
    expected = site_urls(root, directory_urls)
    feed = ET.fromstring(feed_of(shipped, [tonight], site_url, directory_urls))
    assert (feed.get(XML_BASE) is None) == (site_url is None)
    base = feed.get(XML_BASE) or FEED_URL
    assert links(feed, base) == {"self": f"{root}inference/feed.xml", "alternate": expected["index"]}
    entries = {e.findtext(f"{ATOM}id").rpartition(":")[2]: e for e in feed.findall(f"{ATOM}entry")}
    assert set(entries) == {tonight.id, shipped.briefs[0].id}
    for brief_id, entry in entries.items():
        assert links(entry, base) == {"alternate": expected["brief"].format(id=brief_id)}
    link, night_link = parse(entries[tonight.id].findtext(f"{ATOM}content")).all("a")
    assert urljoin(base, link.attrs["href"]) == expected["5"] + "#entry-night-entry"
    assert "新条目" in link.text()
    # and to the whole night on its month's changes page (issue 32)
    changes_page = expected["5"].replace("inference/5", "inference/changes/2026-10")
    assert urljoin(base, night_link.attrs["href"]) == changes_page + f"#night-{tonight.date.isoformat()}"


# --------------------------------------------------------------------------- brief text is text


def test_brief_text_is_text_in_the_feed_never_markup(shipped):
    """A title, an author and an item's title holding markup and a template: a feed reader shows them
    as written (escaped once: no raw tag, no double escape), in the entry's HTML as in its fields."""
    outline = shipped.outlines["inference"].model_copy(update={"title": f"活文档 {HOSTILE}"})
    tonight = night(
        1,
        title=f"今夜 {HOSTILE}",
        author=f"编辑 {HOSTILE}",
        items=[brief_item("hostile", 1, f"条目 {HOSTILE}", {"section": "5.2", "action": "new_sub_entry"})],
    )
    text = atom(Layout(merge(outline, [*shipped.briefs, tonight])))
    assert "<script" not in text and "<b>" not in text
    root = ET.fromstring(text)  # well-formed XML
    assert HOSTILE in root.findtext(f"{ATOM}title")
    assert root.findtext(f"{ATOM}author/{ATOM}name") == outline.title
    entry = next(e for e in root.findall(f"{ATOM}entry") if e.findtext(f"{ATOM}id").endswith(tonight.id))
    assert entry.findtext(f"{ATOM}title") == tonight.title
    assert entry.findtext(f"{ATOM}author/{ATOM}name") == tonight.author
    assert entry.find(f"{ATOM}content").get("type") == "html"
    html = entry.findtext(f"{ATOM}content")  # the HTML a feed reader renders
    assert "<script" not in html and "<b>" not in html
    content = parse(html)
    assert content.all("script") == [] and content.all("b") == []
    assert any(HOSTILE in a.text() for a in content.all("a")), html
