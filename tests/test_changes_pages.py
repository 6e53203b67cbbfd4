"""What each night changed, on the published site (issue 32): a changes page a month, a section a
night, a permalink a night, and a link from each brief's page.  Built through MkDocs from the shipped
brief and the lifecycle nights (10-21 opens, 10-22 settles, 10-23 retracts and supersedes, 10-24
re-opens), and read as a reader reads it."""

from __future__ import annotations

import re

import pytest
from helpers import Site, search_docs

CLAIM = "周增 +175"
MONTH = "inference/changes/2026-10"
NIGHTS = ["2026-10-21", "2026-10-22", "2026-10-23", "2026-10-24"]


@pytest.fixture(scope="module")
def site(lifecycle_site) -> Site:
    return Site(lifecycle_site.parent, lifecycle_site)


def _night(site: Site, night: str):
    """The night's rows: the block after its heading on the month's page."""
    return site.page(MONTH).one("div", data_night=night)


def _rows(site: Site, night: str, kind: str) -> list[str]:
    return [li.text() for li in _night(site, night).all("li", data_change=kind)]


def test_the_months_page_has_a_heading_and_a_section_for_each_night(site):
    page = site.page(MONTH)
    headings = [h.attrs.get("id") for h in page.all("h2")]
    assert headings == [f"night-{n}" for n in NIGHTS]
    for night in NIGHTS:
        assert site.has_anchor(f"{MONTH}/index.html", f"night-{night}")
        assert "简报" in _night(site, night).one("p", class_="digest-night__briefs").text()


def test_each_night_lists_what_it_did_kind_by_kind(site):
    assert len(_rows(site, "2026-10-21", "entries_added")) == 6
    assert len(_rows(site, "2026-10-21", "contradictions_opened")) == 11
    resolved = _rows(site, "2026-10-22", "contradictions_resolved")
    assert len(resolved) == 2 and any("Kapitsa 卡片数值自相矛盾" in r and "2026-10-22 E2 简报" in r for r in resolved)
    assert _rows(site, "2026-10-22", "evidence_changed") == ["§3.1 长 prefill 头阻塞 — 线索级 → 部分核查"]
    retracted = _rows(site, "2026-10-23", "entries_retracted")
    assert len(retracted) == 1 and "财经媒体转载的金额无法与官方公告对上" in retracted[0]
    assert len(_rows(site, "2026-10-23", "contradictions_superseded")) == 1
    assert len(_rows(site, "2026-10-23", "follow_ups_carried")) == 1
    reopened = _rows(site, "2026-10-24", "contradictions_reopened")
    assert len(reopened) == 1 and "重新打开" in reopened[0]
    assert len(_rows(site, "2026-10-24", "follow_ups_closed")) == 2


def test_an_updated_entry_shows_old_and_new_and_a_value_withheld_today_stays_withheld(site):
    """10-22 re-collects Kapitsa's card; its weekly gain is withheld today (10-24 re-opened the
    contradiction), so the night's row must not print it either, nor anything else on the page."""
    (kapitsa,) = [r for r in _rows(site, "2026-10-22", "entries_updated") if r.startswith("§1.1 Kapitsa")]
    assert "Stars 155 → 160" in kapitsa and "周增 〔暂扣〕" in kapitsa
    text = site.page(MONTH).text()
    assert CLAIM not in text and "+175 周增" not in text
    marks = _night(site, "2026-10-21").all(class_="digest-withheld")
    assert marks and all(m.attrs.get("data-withheld-by") == "kapitsa-weekly-gain" for m in marks)


def test_every_link_on_the_changes_page_lands_where_the_thing_lives_today(site):
    rel = f"{MONTH}/index.html"
    links = [a.attrs["href"] for a in _night(site, "2026-10-22").all("a") + _night(site, "2026-10-23").all("a")]
    assert links
    for href in links:
        target, anchor = site.resolve(rel, href)
        assert target is not None, href
        assert not anchor or site.has_anchor(target, anchor), href
    superseded = _night(site, "2026-10-23").one("li", data_change="contradictions_superseded")
    target, anchor = site.resolve(rel, superseded.one("a", class_="digest-contradiction-link").attrs["href"])
    assert anchor == "contradiction-vllm-version-basis" and target.startswith("inference/register")


def test_a_nights_permalink_sends_the_reader_to_the_night(site):
    for night in NIGHTS:
        rel = f"inference/changes/{night}/index.html"
        raw = site.raw(rel)
        refresh = re.search(r'<meta http-equiv="refresh" content="0; url=([^"]+)">', raw)
        assert refresh, rel
        target, anchor = site.resolve(rel, refresh.group(1))
        assert (target, anchor) == (f"{MONTH}/index.html", f"night-{night}")
        assert f'<link rel="canonical" href="{refresh.group(1)}">' in raw


def test_each_briefs_page_links_to_its_night(site):
    for brief, night in [
        ("2026-10-21-inference-E1", "2026-10-21"),
        ("2026-10-22-inference-E2", "2026-10-22"),
        ("2026-10-24-inference-E1", "2026-10-24"),
    ]:
        rel = f"inference/briefs/{brief}/index.html"
        (link,) = site.page(f"inference/briefs/{brief}").one("p", class_="digest-night-link").all("a")
        assert link.text() == "这一晚对活文档的全部变更"
        assert site.resolve(rel, link.attrs["href"]) == (f"{MONTH}/index.html", f"night-{night}")


def test_the_changes_pages_stay_out_of_the_search_index(site):
    """They name statements whose own places are indexed: a search must lead there, not here."""
    assert not [d["location"] for d in search_docs(site.dir) if "/changes/" in d["location"]]


def test_a_closing_note_that_states_a_claim_withheld_today_is_withheld_on_its_night(lifecycle_data, tmp_path):
    """A follow-up's closing note is brief text like any other: 10-24 drops a follow-up with a note
    that repeats Kapitsa's weekly gain, withheld today, so the night's row must withhold it too, with
    the mark that names its contradiction as everywhere else (the leak check, reading the rendered
    page, agrees)."""
    import shutil

    from digest_plugin.core.pipeline import analyse
    from digest_plugin.site import changelog
    from digest_plugin.site.layout import Layout, Linker
    from digest_plugin.site.leaks import LeakCheck
    from digest_plugin.site.render import Renderer

    data = tmp_path / "data"
    shutil.copytree(lifecycle_data, data)
    night = data / "briefs" / "2026-10-24-inference-E1.yml"
    night.write_text(
        night.read_text(encoding="utf-8").replace("付费墙无法绕过，放弃", f"付费墙无法绕过，放弃（原帖称{CLAIM}）"),
        encoding="utf-8",
    )
    doc = analyse(data).docs["inference"]
    page = f"{MONTH}.md"
    rendered = "".join(
        getattr(b, "html", "") for b in changelog.changes_month(Renderer(Layout(doc), Linker(page)), "2026-10")
    )
    (row,) = [r for r in re.findall(r'<li data-change="follow_ups_closed">.*?</li>', rendered, re.S) if "付费墙" in r]
    assert "付费墙无法绕过，放弃（原帖称" in row and CLAIM not in row
    assert 'data-withheld-by="kapitsa-weekly-gain"' in row
    assert LeakCheck({"inference": doc}).html(page, rendered) == []
