"""The doc night by night (issue 32): what each night changed, from one pass of the merge, must be what
``digest diff`` shows between the past views of that night and the night before (each a merge of its
own; :mod:`digest_plugin.core.asof`), on every night of the lifecycle, the reshaping night and the
twelve corpus nights."""

from __future__ import annotations

import datetime as dt
import random
import shutil

import pytest
from helpers import ROOT, brief_item, later_brief, night_brief, reshaping_changes
from helpers.shared import corpus_nights

from digest_plugin.authoring.diff import diff_json
from digest_plugin.core.asof import as_of
from digest_plugin.core.doc import LivingDoc
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief
from digest_plugin.core.nights import nights, nights_of, start_at
from digest_plugin.core.pipeline import living_docs

LIFECYCLE = ROOT / "tests" / "fixtures" / "lifecycle"


def _changes_by_night(today: LivingDoc) -> dict[dt.date, dict]:
    """Every night's changes, from the one pass."""
    found = {}
    for night in nights(today.outline, today.briefs, None, today.vocabulary, today=today):
        found[night.night] = diff_json({today.topic: night.before}, {today.topic: night.after})["topics"]
    return found


def _changes_from_past_views(today: LivingDoc, night: dt.date) -> dict:
    """What ``digest diff --from <the day before> --to <night>`` lists: two merges, compared whole."""
    before = as_of(today.outline, today.briefs, night - dt.timedelta(days=1), None, today.vocabulary, today=today)
    after = as_of(today.outline, today.briefs, night, None, today.vocabulary, today=today)
    return diff_json({today.topic: before}, {today.topic: after})["topics"]


def _assert_every_night_agrees(today: LivingDoc) -> dict[dt.date, dict]:
    found = _changes_by_night(today)
    assert sorted(found) == sorted({b.date for b in today.briefs})
    for night, changes in found.items():
        assert changes == _changes_from_past_views(today, night), night
    return found


@pytest.fixture(scope="module")
def lifecycle(lifecycle_data) -> LivingDoc:
    return living_docs(lifecycle_data)["inference"]


def test_each_lifecycle_night_lists_what_the_past_views_differ_by(lifecycle):
    found = _assert_every_night_agrees(lifecycle)
    kinds = {kind for changes in found.values() for kind in changes.get("inference", {})}
    # the lifecycle settles, re-opens and withholds again: the nights must show it, or the test proves little
    assert {
        "Entries added",
        "Contradictions opened",
        "Contradictions resolved",
        "Contradictions re-opened",
        "Contradictions superseded",
        "Entries retracted",
        "Follow-ups closed",
    } <= kinds, kinds
    reopened = found[dt.date(2026, 10, 24)]["inference"]["Contradictions re-opened"]
    assert len(reopened) == 1 and reopened[0].startswith("2026-10-21 矛盾 1 Kapitsa 卡片数值自相矛盾 (修正前不得写入)")


def test_a_claim_withheld_one_night_and_released_the_next_is_listed_on_each(tmp_path):
    """Without 10-24 (which re-opens it), 10-22's resolution releases 「周增 +175」 for good: 10-21 lists
    it withheld, 10-22 released."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    for brief in LIFECYCLE.glob("*.yml"):
        if not brief.name.startswith("2026-10-24"):
            shutil.copy(brief, data / "briefs" / brief.name)
    found = _assert_every_night_agrees(living_docs(data)["inference"])
    withheld = found[dt.date(2026, 10, 21)]["inference"][
        "Claims withheld (shown only in their callout and the register)"
    ]
    released = found[dt.date(2026, 10, 22)]["inference"][
        "Claims released (no longer withheld: their contradiction is no longer open)"
    ]
    assert [row for row in withheld if row.startswith("“周增 +175”")] == ["“周增 +175” — 矛盾 1 (2026-10-21)"]
    assert [row for row in released if row.startswith("“周增 +175”")] == ["“周增 +175” — 矛盾 1 (2026-10-21)"]


def test_a_night_that_reshapes_the_doc_lists_its_moves_split_rename_and_erratum(shipped):
    reshaping = later_brief(**reshaping_changes())
    quiet = Brief.model_validate(
        {
            **night_brief(),
            "id": "2026-10-23-inference-E1",
            "date": "2026-10-23",
            "title": "inference · E1（2026-10-23）",
        }
    )
    today = merge(shipped.outlines["inference"], [*shipped.briefs, reshaping, quiet])
    found = _assert_every_night_agrees(today)
    kinds = set(found[dt.date(2026, 10, 22)]["inference"])
    assert {"Entries moved", "Entries split", "Sections retitled", "Errata applied (勘误)"} <= kinds, kinds


def test_each_corpus_night_lists_what_the_past_views_differ_by():
    work, scored = corpus_nights()
    assert len(scored) == 12 and not any(n.errors for n in scored)
    today = living_docs(work / "data")["inference"]
    found = _assert_every_night_agrees(today)
    assert len(found) == 13 and all(found.values())  # the shipped night and twelve more, each changing something


def test_the_nights_read_the_briefs_in_any_order(lifecycle):
    shuffled = list(lifecycle.briefs)
    random.Random(7).shuffle(shuffled)
    again = merge(lifecycle.outline, shuffled, None, lifecycle.vocabulary)
    assert _changes_by_night(again) == _changes_by_night(lifecycle)


def test_a_claim_an_untouched_contradiction_withholds_that_night_is_withheld_in_the_nights_rows(shipped):
    """10-21 withholds 「周增 +175」; 10-22 adds an entry that quotes it, touching no contradiction; 10-23
    releases it.  10-22's row must withhold it as that night's view does, though today does not."""
    quoting = later_brief(
        items=[
            brief_item("night-1", 1, "复核 Kapitsa：周增 +175 仍待查", {"section": "1.1", "action": "new_sub_entry"})
        ]
    )
    releasing = Brief.model_validate(
        {
            **night_brief(),
            "id": "2026-10-23-inference-E1",
            "date": "2026-10-23",
            "title": "inference · E1（2026-10-23）",
            "contradiction_updates": [
                {"contradiction": "kapitsa-weekly-gain", "change": "resolved", "text": "采集器已修正，口径一致。"}
            ],
        }
    )
    today = merge(shipped.outlines["inference"], [*shipped.briefs, quoting, releasing])
    assert "周增 +175" not in today.withheld
    found = _assert_every_night_agrees(today)
    added = found[dt.date(2026, 10, 22)]["inference"]["Entries added"]
    assert [row for row in added if "复核 Kapitsa" in row] == [
        "§1.1 复核 Kapitsa：〔暂扣〕 仍待查 (brief `2026-10-22-inference-E1`)"
    ]


def test_a_contradiction_naming_an_item_that_made_no_entry_and_one_sharing_a_withheld_claim(shipped):
    """Two shapes later nights have: a contradiction naming a discard-level item (the merge makes no
    entry of it), and a contradiction withholding a claim an earlier open one withholds already (the
    earlier one withholds it, so the later one's own line does not quote it)."""
    later = later_brief(
        items=[
            brief_item(
                "night-1",
                1,
                "传闻：某厂推理成本降到一半",
                {"section": "4.1", "action": "new_sub_entry"},
                evidence={"level": "discard", "boundary": "只有一条转帖。"},
            )
        ],
        contradictions=[
            {
                "id": "night-rumour",
                "number": 1,
                "title": "成本减半的传闻无出处",
                "text": "转帖无原始出处。",
                "touches": {"items": ["night-1"]},
                "disposition": "discarded",
            },
            {
                "id": "night-weekly-gain-again",
                "number": 2,
                "title": "周增 +175 又出现在另一张卡片上",
                "text": "另一张卡片也写着周增 +175。",
                "touches": {"entries": ["kapitsa"]},
                "withheld": [{"text": "周增 +175", "patterns": ["周增 +175"], "figure": "weekly-gain"}],
                "disposition": "blocked",
            },
        ],
    )
    today = merge(shipped.outlines["inference"], [*shipped.briefs, later])
    found = _assert_every_night_agrees(today)
    opened = found[dt.date(2026, 10, 22)]["inference"]["Contradictions opened"]
    again = [row for row in opened if "又出现在另一张卡片上" in row]
    assert again == ["2026-10-22 矛盾 2 〔暂扣〕 又出现在另一张卡片上 (修正前不得写入)"]


def test_the_nights_from_a_later_one_on_are_those_of_the_whole_pass(lifecycle, shipped):
    """A preview renders tonight's month only: the pass may start at any night (the nights before merged,
    not followed) and must give, from there on, what the whole pass gives."""
    work, _ = corpus_nights()
    for today in (lifecycle, living_docs(work / "data")["inference"]):
        whole = _changes_by_night(today)
        for since in sorted(whole)[1:]:
            later = nights(today.outline, today.briefs, None, today.vocabulary, today=today, since=since)
            found = {n.night: diff_json({today.topic: n.before}, {today.topic: n.after})["topics"] for n in later}
            assert found == {night: changes for night, changes in whole.items() if night >= since}, since


def test_a_pass_started_from_nights_merged_ahead_is_the_pass_that_merges_them(lifecycle):
    """``digest serve`` merges the nights before tonight's month while the editor reads (:func:`start_at`);
    the next edit's pass takes that state instead of merging them again, and must give the same nights.
    A state merged from other brief objects (the file was edited since), or for another night, is not
    taken: the pass merges the nights itself."""
    work, _ = corpus_nights()
    for today in (lifecycle, living_docs(work / "data")["inference"]):
        known = sorted({b.date for b in today.briefs})
        for since in (known[1], known[len(known) // 2], known[-1]):
            whole = nights_of(today, since)
            ahead = start_at(today, since)
            assert ahead.seen and all(b.date < since for b in ahead.seen)
            assert nights_of(today, since, start=ahead) == whole, since
            assert not ahead.seen and ahead.log is None  # taken: that pass changed its state and records
    today = living_docs(work / "data")["inference"]
    since = sorted({b.date for b in today.briefs})[-1]
    again = living_docs(work / "data")["inference"]  # the same files, read again: other objects
    stale = start_at(again, since)
    assert nights_of(today, since, start=stale) == nights_of(today, since) and stale.seen
    elsewhere = start_at(today, since - dt.timedelta(days=1))
    assert nights_of(today, since, start=elsewhere) == nights_of(today, since) and elsewhere.seen
