"""The doc as it stood on any past night, on the published site (issue 32).

The site's past views are pieces rendered night by night from one pass of the merge, each only on a
night that can change it.  Here they are held to two merges' worth of truth: every night's view of
every section and of the register must be, piece for piece, what the same renderer makes of that
night's past view merged whole (:func:`digest_plugin.core.asof.as_of`), on the lifecycle nights, the
reshaping night and the twelve corpus nights; and, statement by statement, what that past view holds
(ids, levels, figure values, retracted or not), read from the merged records with no renderer at all.

Then the built site: the page, a permalink per night and per view, the data a reader downloads,
the links from brief pages and section pages, and the leak check reading every piece.
"""

from __future__ import annotations

import datetime as dt
import gzip
import html
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from helpers import Site, brief_item, later_brief, night_brief, reshaping_changes, search_docs
from helpers.shared import corpus_nights

from digest_plugin.core import labels
from digest_plugin.core.asof import as_of
from digest_plugin.core.doc import LivingDoc
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief, Rules
from digest_plugin.core.nights import nights_of
from digest_plugin.core.pipeline import living_docs
from digest_plugin.site import pastviews
from digest_plugin.site.changelog import NightText
from digest_plugin.site.layout import Layout, Linker, as_of_page, section_anchor
from digest_plugin.site.leaks import LeakCheck, find_leaks
from digest_plugin.site.render import section_title
from digest_plugin.site.text import level_of

PAST = "inference/as-of"
NIGHTS = ["2026-10-21", "2026-10-22", "2026-10-23", "2026-10-24"]
CLAIM = "周增 +175"


def _views_by_night(today: LivingDoc) -> tuple[dict[tuple[str, str], list[str]], Layout]:
    """Every night's every view, as the site stores it: (night, view) → the pieces' HTML."""
    layout = Layout(today, past=True)
    linker = Linker(as_of_page(today.topic))
    pieces = pastviews._Pieces(layout, linker, NightText(layout, linker))
    nights_of(today, observe=pieces)
    shown = {}
    for path, data in pieces.files(today.topic):
        chunk = json.loads(gzip.decompress(data))
        view = path.rsplit("/", 1)[1].rsplit("-", 2)[0]  # <view>-<YYYY>-<MM>.pvd
        for night, ids in chunk["nights"].items():
            shown[(night, view)] = [chunk["pieces"][p] for p in ids]
    return shown, layout


def _past_view_rendered_whole(today: LivingDoc, layout: Layout, night: dt.date, view: str) -> list[str]:
    """What the renderer makes of the night's past view merged whole: the section page's entries (and
    each sub-section's heading), or the register's briefs and callouts, each rendered on its own."""
    rules = Rules(archive_after_days=today.archive_after_days, hide_discarded=today.hide_discarded)
    past = as_of(today.outline, today.briefs, night, rules, today.vocabulary, today=today)
    text = NightText(layout, Linker(as_of_page(today.topic)))
    text.doc = past
    shown: list[str] = []

    def alone(render, record) -> str:
        text.anchors = set()
        return render(record)

    if view == pastviews.REGISTER:
        for brief, views in Layout(past).register_groups(None):
            name = labels.BRIEF_NAME.format(date=brief.date.isoformat(), round=html.escape(brief.round))
            shown.append(f'<h2 id="brief-{brief.id}">{name}</h2>')
            shown += [alone(text.callout, c) for c in views]
        return shown
    if view not in past.sections:
        return []
    for number, entries in Layout(past).section_entries(view, None).items():
        if number != view:
            title = html.escape(text.plain(section_title(past.sections[number])))
            shown.append(f'<h2 id="{section_anchor(number)}">{title}</h2>')
        ordered = [e for e in entries if not e.footnote] + [e for e in entries if e.footnote]
        shown += [alone(text.entry, e) for e in ordered]
    return shown


def _night(day: str, **changes) -> Brief:
    """A brief of night 2026-10-<day> with the given changes (none: a quiet night)."""
    title = f"inference · E1（2026-10-{day}）"
    return Brief.model_validate(
        {**night_brief(), "id": f"2026-10-{day}-inference-E1", "date": f"2026-10-{day}", "title": title, **changes}
    )


def _contradiction(cid: str, **touches: list[str]) -> dict:
    """A contradiction a brief raises (to be written with a label) on what ``touches`` names."""
    return {
        "id": cid,
        "number": 1,
        "title": "口径",
        "text": "口径不一。",
        "touches": touches,
        "disposition": "with_label",
    }


def _assert_every_view_is_the_past_view_rendered_whole(today: LivingDoc) -> dict[tuple[str, str], list[str]]:
    shown, layout = _views_by_night(today)
    nights = sorted({b.date for b in today.briefs})
    keys = pastviews.views(layout)
    assert set(shown) == {(n.isoformat(), v) for n in nights for v in keys}
    for night in nights:
        for view in keys:
            want = _past_view_rendered_whole(today, layout, night, view)
            assert shown[(night.isoformat(), view)] == want, f"{night} {view}"
    return shown


def test_every_lifecycle_view_is_its_past_view_rendered_whole(lifecycle_data):
    shown = _assert_every_view_is_the_past_view_rendered_whole(living_docs(lifecycle_data)["inference"])
    # the lifecycle settles, retracts, re-opens: the views must differ from night to night, or this proves little
    assert len({tuple(shown[(n, "1")]) for n in NIGHTS}) == 4
    assert len({tuple(shown[(n, pastviews.REGISTER)]) for n in NIGHTS}) == 4


def test_every_corpus_view_is_its_past_view_rendered_whole():
    work, scored = corpus_nights()
    assert len(scored) == 12 and not any(n.errors for n in scored)
    _assert_every_view_is_the_past_view_rendered_whole(living_docs(work / "data")["inference"])


def test_a_reshaping_nights_views_are_its_past_view_rendered_whole(shipped):
    """A move, a split, a renamed section and an erratum on 10-22, and a quiet night after it."""
    today = merge(shipped.outlines["inference"], [*shipped.briefs, later_brief(**reshaping_changes()), _night("23")])
    _assert_every_view_is_the_past_view_rendered_whole(today)


def test_an_item_shown_by_two_entries_loses_its_dispute_tag_on_both(shipped):
    """An item that updates two entries (``placement.entries``) shows on both; a contradiction naming the
    item tags both, and when a later night settles it, both lose the tag that night (found on the blind
    nights: the second entry kept a stale tag)."""
    both = brief_item(
        "both-entries",
        1,
        "llm-d 与 ModelExpress 同一版本说明",
        {
            "section": "5.1",
            "entry": "llm-d-1-0",
            "entries": ["modelexpress-weight-transfer"],
            "action": "update_in_place",
            "text": "两条同改。",
        },
    )
    opened = later_brief(
        items=[both],
        contradictions=[_contradiction("both-version", items=["both-entries"])],
    )

    quiet = _night("23")  # the entries' "new" marks lapse: the settling night has no other reason to redraw them
    settled = _night(
        "24", contradiction_updates=[{"contradiction": "both-version", "change": "resolved", "text": "已核对。"}]
    )
    today = merge(shipped.outlines["inference"], [*shipped.briefs, opened, quiet, settled])
    shown = _assert_every_view_is_the_past_view_rendered_whole(today)

    def tagged(night: str) -> set[str]:
        pieces = [p for view in ("1", "2", "3", "4", "5", "6") for p in shown[(night, view)]]
        return {
            re.search(r'data-digest-entry="([^"]+)"', p).group(1)
            for p in pieces
            if 'class="digest-dispute" data-contradiction="both-version"' in p
        }

    assert tagged("2026-10-22") == tagged("2026-10-23") == {"llm-d-1-0", "modelexpress-weight-transfer"}
    assert tagged("2026-10-24") == set()


def test_a_move_redraws_what_names_the_moved_entry(shipped):
    """Two records show where another entry is: a split's notices name the parts and the whole by their
    section, and a callout lists the sections of the entries it names.  When one of those entries moves on
    a later night, both are redrawn that night though no brief touched them (found on the blind nights)."""
    reshaping = reshaping_changes()
    opened = later_brief(
        **reshaping,
        contradictions=[_contradiction("kapitsa-basis", entries=["kapitsa"])],
    )

    moves = [
        {"entry": "kapitsa", "to": "5.2", "text": "挪到成本一节。"},
        {"entry": "night-1", "to": "3.1", "text": "挪到调度一节。"},
    ]
    today = merge(shipped.outlines["inference"], [*shipped.briefs, opened, _night("23"), _night("24", moves=moves)])
    shown = _assert_every_view_is_the_past_view_rendered_whole(today)
    callout = next(
        p for p in shown[("2026-10-24", pastviews.REGISTER)] if 'data-digest-contradiction="kapitsa-basis"' in p
    )
    assert "5.2" in re.search(r'data-sections="([^"]*)"', callout).group(1).split()
    whole = next(
        p
        for view in ("1", "2", "3", "4", "5", "6")
        for p in shown[("2026-10-24", view)]
        if 'id="entry-torchtpu-backends"' in p
    )
    assert "§3.1" in whole


def test_each_view_states_what_its_night_held_statement_by_statement(lifecycle_data):
    """Read with no renderer: the entries a section's view shows are those its page showed that night
    (the past view's own records), each with that night's level, figure values and retraction."""
    today = living_docs(lifecycle_data)["inference"]
    shown, _ = _views_by_night(today)
    for night in NIGHTS:
        past = as_of(today.outline, today.briefs, dt.date.fromisoformat(night), None, today.vocabulary, today=today)
        layout = Layout(past)
        for view in ("1", "2", "3", "4", "5", "6"):
            pieces = "".join(shown[(night, view)])
            opening = dict(re.findall(r'<section class="digest-entry[^>]*?data-digest-entry="([^"]+)"([^>]*)>', pieces))
            expected = [e for group in layout.section_entries(view, None).values() for e in group]
            assert sorted(opening) == sorted(e.id for e in expected), f"{night} §{view}"
            for entry in expected:
                attributes = opening[entry.id]
                assert f'data-level="{level_of(entry)}"' in attributes, f"{night} {entry.id}"
                assert ('data-retracted="true"' in attributes) == entry.retracted, f"{night} {entry.id}"
                piece = next(p for p in shown[(night, view)] if f'data-digest-entry="{entry.id}"' in p)
                for figure in entry.figures:
                    if figure.withheld_by is None:
                        value = html.escape(str(figure.current.value))
                        assert value in piece, f"{night} {entry.id} {figure.key} {value}"


def test_the_views_read_the_briefs_in_any_order(lifecycle_data):
    today = living_docs(lifecycle_data)["inference"]
    again = merge(today.outline, list(reversed(today.briefs)), None, today.vocabulary)
    assert _views_by_night(again)[0] == _views_by_night(today)[0]


# ------------------------------------------------------------------ the built site


@pytest.fixture(scope="module")
def site(lifecycle_site) -> Site:
    return Site(lifecycle_site.parent, lifecycle_site)


def _chunk(site: Site, name: str) -> dict:
    return json.loads(gzip.decompress((site.dir / PAST / "data" / name).read_bytes()))


def test_the_page_has_the_controls_and_the_data_it_reads(site):
    past = site.page(PAST).one("div", class_="digest-past")
    assert past.attrs["data-first"] == NIGHTS[0] and past.attrs["data-last"] == NIGHTS[-1]
    views = [a.attrs["data-view"] for a in past.all("a", class_="digest-past__view")]
    assert views == ["1", "2", "3", "4", "5", "6", "register"]
    target, _ = site.resolve(f"{PAST}/index.html", past.attrs["data-index"])
    assert target == f"{PAST}/data/nights.pvd"
    index = _chunk(site, "nights.pvd")
    assert index == {"nights": NIGHTS, "views": views}
    month = _chunk(site, "3-2026-10.pvd")
    assert sorted(month["nights"]) == NIGHTS
    for ids in month["nights"].values():
        assert ids and all(i in month["pieces"] for i in ids)
    for piece, html_ in month["pieces"].items():  # comparing two nights pairs the pieces of one record
        entry = re.search(r'data-digest-entry="([^"]+)"', html_)
        assert month["records"].get(piece) == (f"entry-{entry.group(1)}" if entry else None), piece


def test_a_section_on_a_night_holds_what_it_said_then(site):
    """§3 on 10-21: vLLM's long-prefill freeze is a lead; on 10-22, once checked, partially verified."""

    def level(night: str) -> str:
        chunk = _chunk(site, "3-2026-10.pvd")
        piece = next(
            chunk["pieces"][i]
            for i in chunk["nights"][night]
            if 'id="entry-vllm-long-prefill-freeze"' in chunk["pieces"][i]
        )
        return re.search(r'class="digest-entry__level" data-level="([^"]+)"', piece).group(1)

    assert [level(n) for n in NIGHTS] == ["lead", "partially_verified", "partially_verified", "partially_verified"]


def test_a_claim_withheld_today_is_withheld_in_every_view_and_the_leak_check_reads_them(site, lifecycle_data):
    """「周增 +175」: withheld 10-21, released by 10-22's resolution, withheld again since 10-24.  The
    view of 10-22 and 10-23, when it was no longer withheld, must withhold it as today does."""
    for name in sorted(p.name for p in (site.dir / PAST / "data").iterdir()):
        chunk = _chunk(site, name)
        for night, ids in chunk.get("nights", {}).items() if isinstance(chunk.get("nights"), dict) else []:
            text = re.sub(r"<[^>]+>", "", "".join(chunk["pieces"][i] for i in ids))
            quotes = re.findall(r'data-withheld-quote="[^"]+"', "".join(chunk["pieces"][i] for i in ids))
            if not quotes:
                assert CLAIM not in html.unescape(text), f"{name} {night}"
    marks = _chunk(site, "1-2026-10.pvd")
    shown = "".join(marks["pieces"][i] for i in marks["nights"]["2026-10-22"])
    assert 'data-withheld-by="kapitsa-weekly-gain"' in shown
    assert find_leaks(site.dir, living_docs(lifecycle_data)) == []


def test_the_leak_check_finds_a_claim_planted_in_a_past_views_piece(lifecycle_data):
    today = living_docs(lifecycle_data)
    check = LeakCheck(today)
    planted = {"nights": {"2026-10-22": ["x"]}, "pieces": {"x": f"<p>Kapitsa {CLAIM}</p>"}}
    raw = gzip.compress(json.dumps(planted, ensure_ascii=False).encode())
    leaks = check.past_view(f"{PAST}/data/1-2026-10.pvd", raw)
    assert leaks and leaks[0].contradiction == "kapitsa-weekly-gain"
    assert check.past_view("x.pvd", b"not gzip")  # a file it cannot read is not passed


def test_each_night_and_view_has_a_permalink_that_lands_there(site):
    for night in NIGHTS:
        for view in [None, "1", "2", "3", "4", "5", "6", "register"]:
            rel = f"{PAST}/{night}/" + (f"{view}/" if view else "") + "index.html"
            raw = site.raw(rel)
            refresh = re.search(r'<meta http-equiv="refresh" content="0; url=([^"]+)">', raw)
            assert refresh, rel
            href = html.unescape(refresh.group(1))
            assert site.resolve(rel, href)[0] == f"{PAST}/index.html", rel
            query = parse_qs(urlsplit(href).query)
            assert query == {"night": [night], **({"view": [view]} if view else {})}, rel


def test_briefs_and_sections_lead_to_the_past(site):
    rel = "inference/briefs/2026-10-23-inference-E1/index.html"
    link = site.page("inference/briefs/2026-10-23-inference-E1").one("a", class_="digest-past-link")
    assert link.text() == labels.PAST_LINK
    target, _ = site.resolve(rel, link.attrs["href"])
    assert target == f"{PAST}/2026-10-23/index.html"  # the night's permalink
    form = site.page("inference/3").one("form", class_="digest-past-pick")
    assert site.resolve("inference/3/index.html", form.attrs["action"])[0] == f"{PAST}/index.html"
    night = form.one("input", type="date")
    assert (night.attrs["min"], night.attrs["max"]) == (NIGHTS[0], NIGHTS[-1])
    assert form.one("input", type="hidden").attrs["value"] == "3"


def test_the_past_stays_out_of_the_search_index(site):
    """A search must lead to where a statement lives today, not to a night it once read differently."""
    assert not [d["location"] for d in search_docs(site.dir) if "/as-of/" in d["location"]]
