"""What a reader meets on the built pages (issue 15), read from the HTML of real builds: entries
under real headings, one muted withheld mark per entry with the sentences about the withheld value
folded (and whole on the brief's page), what the latest brief added or changed, the date of each
entry's last change, callouts after the statements they qualify, and callouts named by kind.

Expected facts come from the briefs' YAML (the shipped one and the lifecycle fixtures).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT
from html_dom import Node, parse
from ruamel.yaml import YAML

SHIPPED_BRIEF = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"
SECTIONS = ["1", "2", "3", "5", "6"]


def brief(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def page(site: Path, rel: str) -> Node:
    return parse((site / rel / "index.html").read_text(encoding="utf-8"))


def entries(site: Path) -> list[tuple[str, Node]]:
    return [
        (number, n)
        for number in SECTIONS
        for n in page(site, f"inference/{number}").all("section", class_="digest-entry")
    ]


@pytest.fixture(scope="module")
def shipped_site(shipped_project) -> Path:
    return shipped_project / "site"


def test_every_entry_has_a_real_heading_that_names_it_and_carries_its_anchor(shipped_site):
    found = entries(shipped_site)
    assert len(found) >= 10
    for number, entry in found:
        (heading,) = [n for n in entry.children if isinstance(n, Node) and n.tag in ("h3", "h4", "h5", "h6")]
        assert heading.attrs["id"] == "entry-" + entry.attrs["data-digest-entry"], (number, heading.attrs)
        assert entry.attrs["aria-labelledby"] == heading.attrs["id"]
        assert heading.text().strip(), f"§{number}: an entry heading without words"


def test_one_clear_withheld_mark_per_entry_and_no_sentence_left_as_nonsense(shipped_site):
    data = brief(SHIPPED_BRIEF)
    blocked = [c for c in data["contradictions"] if c.get("withheld")]
    assert blocked, "the shipped brief withholds a claim"
    spellings = {p for c in blocked for w in c["withheld"] for p in [w["text"], *w.get("patterns", [])]}
    marked = 0
    for number, entry in entries(shipped_site):
        links = entry.all("a", class_="digest-withheld")
        marks = entry.all(None, class_="digest-withheld")
        if not marks:
            continue
        marked += 1
        assert len(links) == 1, f"§{number} {entry.attrs['data-digest-entry']}: {len(links)} linked marks"
        assert marks[0].tag == "a", "the first mark is the one that names and links the contradiction"
        text = entry.text()
        assert not any(s in text for s in spellings)
        # 「⚠ 周增 +175 > 总 Stars 155 …」 must not read 「⚠ 〔暂扣〕 > 总 Stars 155 …」
        for mark in marks:
            after = mark.parent.text().split(mark.text(), 1)[1].lstrip() if mark.parent else ""
            assert not after.startswith((">", "<", "＞", "＜")), f"a comparison with a cut-out value: {after[:40]}"
    assert marked, "no entry shows the withheld mark"
    # the brief's own page keeps every sentence whole (with the value withheld)
    placement = next(i for i in data["items"] if i["id"] == "kapitsa-card-refresh")["placement"]["text"]
    rest = placement.split("周增 +175", 1)[1].split("（", 1)[0].strip()  # 「> 总 Stars 155 属明显口径异常」
    brief_page = page(shipped_site, "inference/briefs/2026-10-21-inference-E1")
    item = brief_page.one(None, **{"data-digest-item": "kapitsa-card-refresh"})
    assert rest in item.text()
    section = page(shipped_site, "inference/1").one("section", **{"data-digest-entry": "kapitsa"})
    assert rest not in section.text() and section.all(None, **{"data-folded": None})


def test_the_latest_brief_marks_what_it_added_and_changed_and_each_entry_its_last_change(lifecycle_site):
    briefs = sorted(
        [brief(SHIPPED_BRIEF)] + [brief(p) for p in sorted((FIXTURES / "lifecycle").glob("*.yml"))],
        key=lambda b: (str(b["date"]), b["round"]),
    )
    latest = briefs[-1]
    placed = {i["id"]: (i.get("placement") or {}).get("action") for i in latest.get("items") or []}
    assert placed, "the latest fixture brief has items"
    found = {}
    for _, entry in entries(lifecycle_site):
        item = entry.attrs.get("data-digest-item")
        fresh = entry.attrs.get("data-fresh")
        found[item] = fresh
        heading = entry.one(None, class_="digest-entry__title")
        marker = heading.all(None, class_="digest-fresh")
        assert bool(marker) == bool(fresh)
        if fresh:
            assert marker[0].text() in ("新", "有更新") and entry.attrs["data-brief"] == latest["id"]
        if item:  # the date of its last change, which is the date of the brief that made it
            changed = entry.one(None, class_="digest-entry__changed")
            assert changed.attrs["data-changed"] in changed.text()
            assert changed.attrs["data-changed"] == str(
                next(b["date"] for b in briefs if b["id"] == entry.attrs["data-brief"])
            )
    for item, action in placed.items():  # an update of an earlier entry is a change, anything else is new
        if item in found:
            assert found[item] == ("changed" if action == "update_in_place" else "new"), (item, action, found[item])
    assert any(item in found for item in placed)
    assert all(fresh in (None, "new", "changed") for fresh in found.values())


def test_a_callout_follows_the_last_entry_it_qualifies(shipped_site):
    for number in SECTIONS:
        for section in page(shipped_site, f"inference/{number}").all("div", class_="digest-section"):
            kids = [n for n in section.children if isinstance(n, Node)]
            for at, callout in enumerate(kids):
                if "digest-contradiction" not in callout.classes:
                    continue
                cid = callout.attrs["data-digest-contradiction"]
                touched = [
                    i
                    for i, n in enumerate(kids)
                    if n.tag == "section" and n.all(None, **{"data-contradiction": cid})  # its dispute tag
                ]
                if touched:
                    assert at > max(touched), f"§{number}: {cid} comes before an entry it qualifies"


def test_callouts_are_named_by_what_they_are(shipped_site):
    words = YAML(typ="safe").load((ROOT / "data" / "vocabulary.yml").read_text(encoding="utf-8"))["dispositions"]
    register = page(shipped_site, "inference/register")
    callouts = register.all("details", class_="digest-contradiction")
    assert len(callouts) == len(brief(SHIPPED_BRIEF)["contradictions"])
    kinds = set()
    for c in callouts:
        word = words[c.attrs["data-disposition"]]
        kind = word.get("kind", "矛盾") if isinstance(word, dict) else "矛盾"
        assert c.one(None, class_="digest-kind").text() == kind
        kinds.add(kind)
    assert len(kinds) >= 3, kinds  # a paywall or a login wall is not called 矛盾


STOPS = "。；！？"


def _sentences(text: str) -> list[str]:
    """A placement text cut where the brief's author ended a sentence or a clause (。；！？)."""
    pieces, piece = [], ""
    for ch in text:
        piece += ch
        if ch in STOPS:
            pieces.append(piece)
            piece = ""
    return [p.strip(" ⚠").rstrip(STOPS).strip() for p in [*pieces, piece] if p.strip(" ⚠").rstrip(STOPS).strip()]


def test_a_guard_the_placement_also_states_is_said_once_and_nothing_of_the_placement_is_lost(shipped_site):
    data = brief(SHIPPED_BRIEF)
    items = {i["id"]: i for i in data["items"]}
    doc = page(shipped_site, f"inference/briefs/{data['id']}")
    checked = 0
    for article in doc.all("article", class_="digest-item"):
        item = items[article.attrs["data-digest-item"]]
        guards = [g.strip(" ⚠").rstrip(STOPS).strip() for g in item.get("guards", [])]
        if not guards:
            continue
        placement = " ".join(p.text() for p in article.all("p", class_="digest-placement"))
        guard_text = " ".join(
            li.text() for li in article.all("li") if li.parent and "digest-guards" in li.parent.attrs.get("class", "")
        )
        whole = placement + " " + guard_text
        for sentence in _sentences(item["placement"]["text"]):
            if any(
                spelling in sentence
                for c in data["contradictions"]
                for w in c.get("withheld", [])
                for spelling in [w["text"], *w.get("patterns", [])]
            ):
                continue  # a withheld value is shown as its mark, not as written
            if "矛盾清单" in sentence:
                continue  # its layout words become a link (the test below)
            assert sentence in whole, f"{item['id']}: {sentence!r} is gone"
        for guard in guards:
            if guard in _sentences(item["placement"]["text"]):  # a sentence of its own there
                probe = guard.split("（见")[0]  # its layout words become a link
                for c in data["contradictions"]:
                    for w in c.get("withheld", []):  # a withheld value is shown as its mark
                        for spelling in [w["text"], *w.get("patterns", [])]:
                            probe = max(probe.split(spelling), key=len).strip()
                assert whole.count(probe) == 1, f"{item['id']}: {probe!r} said {whole.count(probe)} times"
                checked += 1
    assert checked >= 4, "the shipped brief repeats several guards in its placement texts"


def test_the_briefs_layout_words_become_links_to_the_contradictions(shipped_site):
    data = brief(SHIPPED_BRIEF)
    numbered = {c["number"]: c["id"] for c in data["contradictions"]}
    pages = ["inference/bibliography", f"inference/briefs/{data['id']}", *[f"inference/{n}" for n in SECTIONS]]
    for rel in pages:
        text = page(shipped_site, rel).text()
        assert "见上方" not in text and "见下方" not in text, f"{rel}: the brief's layout words are on the page"
    notes = [c for c in data["citations"] if "矛盾清单第" in (c.get("use_note") or "")]
    assert notes, "the shipped brief points a citation's use at its contradictions list by number"
    bibliography = page(shipped_site, "inference/bibliography")
    for citation in notes:
        number = int(citation["use_note"].split("矛盾清单第")[1].split("条")[0])
        hrefs = [a.attrs.get("href", "") for n in bibliography.all("p", class_="digest-ref__note") for a in n.all("a")]
        assert any(h.endswith(f"#contradiction-{numbered[number]}") for h in hrefs), (number, hrefs)


def test_the_register_shows_how_solid_each_statement_a_contradiction_touches_is(shipped_site):
    data = brief(SHIPPED_BRIEF)
    levels = {i["id"]: i["evidence"]["level"] for i in data["items"]}
    register = page(shipped_site, "inference/register")
    checked = 0
    for c in data["contradictions"]:
        items = [i for i in c.get("touches", {}).get("items", []) if i in levels]
        if not items:
            continue
        (callout,) = register.all("details", **{"data-digest-contradiction": c["id"]})
        meta = callout.all("p", class_="digest-contradiction__meta")[0]
        shown = [n.attrs["data-level"] for n in meta.all("span", class_="digest-entry__level")]
        assert shown == [levels[i] for i in items], (c["id"], shown)
        for tag in meta.all("span", class_="digest-entry__level"):
            assert tag.text().strip(), "a level with no word for search and screen readers"
        checked += 1
    assert checked >= 3
