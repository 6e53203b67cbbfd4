"""The merge: briefs + outline → one frozen living doc, the same whatever order the briefs come in."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest
from helpers import later_brief

from digest_plugin.core.merge import merge
from digest_plugin.core.model import FollowUpStatus, Rules, Status


@pytest.fixture(scope="module")
def doc(shipped):
    return merge(shipped.outlines["inference"], shipped.briefs)


@pytest.fixture(scope="module")
def later(lifecycle):
    """The shipped brief and the three lifecycle briefs, merged."""
    return merge(lifecycle.outlines["inference"], lifecycle.briefs)


# --------------------------------------------------------------------------- the shipped brief


def test_kapitsa_is_updated_in_place_with_its_history(doc):
    kapitsa = doc.entries["kapitsa"]
    assert kapitsa.section == "1.1" and kapitsa.item.number == 5
    stars = next(f for f in kapitsa.figures if f.key == "stars")
    assert (stars.current.value, str(stars.current.as_of)) == (155, "2026-10-21")
    assert [(old.value, str(old.as_of)) for old, *_ in stars.history] == [(105, "2026-10-19")]
    weekly = next(f for f in kapitsa.figures if f.key == "weekly-gain")
    assert weekly.withheld_by.number == 1
    # one entry for one object: the update did not add a second Kapitsa entry
    assert [e.id for e in doc.sections["1.1"].entries].count("kapitsa") == 1
    assert "kapitsa-card-refresh" not in doc.entries
    assert doc.items["kapitsa-card-refresh"].entry_id == "kapitsa"


def test_new_sub_entry_follows_the_entry_it_hangs_under(doc):
    ids = [e.id for e in doc.sections["5.1"].entries]
    assert ids.index("llm-d-1-0") == ids.index("llm-d-v0-8") + 1
    ids = [e.id for e in doc.sections["3.2"].entries]
    assert ids.index("modelexpress-weight-transfer") == ids.index("dynamo-1-0-ga") + 1


def test_a_cross_reference_leaves_a_stub_in_the_other_section(doc):
    # item 2 (TorchTPU) is placed in §1.1 and cross-referenced from §5.1
    (stub,) = doc.sections["5.1"].stubs
    assert (stub.item.id, stub.home) == ("torchtpu-backends", "1.1")


def test_contradictions_reach_every_section_they_touch(doc):
    where = {c.id: c.sections for c in doc.contradictions}
    assert where["lfm2-5-basis"] == ("1.2", "3.1")  # §1.2 named, and the long-prefill item sits in §3.1
    assert where["kapitsa-weekly-gain"] == ("1.1",)
    assert where["dolphin-venice-vvv"] == ()  # kept out of the doc: register only


def test_a_discarded_contradiction_stays_off_section_pages(shipped, doc):
    contabo = doc.contradiction("contabo-low-credibility")
    assert contabo.contradiction.disposition == "discarded"
    assert contabo.sections == ("1.2",)  # it does touch §1.2 …
    assert all(c.id != contabo.id for s in doc.sections.values() for c in s.contradictions)  # … but is not shown
    shown = merge(shipped.outlines["inference"], shipped.briefs, Rules(hide_discarded=False))
    assert contabo.id in [c.id for c in shown.sections["1.2"].contradictions]


def test_citations_continue_after_the_existing_527_and_never_renumber(shipped, doc):
    assert doc.citations["1605.08803"].number == 528
    again = merge(shipped.outlines["inference"], [*shipped.briefs, later_brief()])
    assert again.citations["1605.08803"].number == 528  # cited again as v2: same paper, same number
    assert again.citations["2309.06180"].number == 529
    assert again.reference_count == 529


def test_only_open_contradictions_withhold_their_claims(doc):
    # contradiction 1 withholds "+175 周增", spelt "周增 +175" or "+175 周增"
    assert {p: v.id for p, v in doc.withheld.items()} == {
        "周增 +175": "kapitsa-weekly-gain",
        "+175 周增": "kapitsa-weekly-gain",
    }
    assert doc.withheld_pattern.findall("Kapitsa 周增 +175，+175 周增") == ["周增 +175", "+175 周增"]


# --------------------------------------------------------------------------- over time (tests/fixtures/lifecycle)


def test_a_resolved_claim_is_publishable_and_a_reopened_one_is_withheld_again(lifecycle):
    outline = lifecycle.outlines["inference"]
    upto_e2 = [b for b in lifecycle.briefs if b.date.day <= 22]  # 2026-10-22 E2 resolves kapitsa-weekly-gain
    resolved = merge(outline, upto_e2)
    assert resolved.contradiction("kapitsa-weekly-gain").status is Status.resolved
    assert resolved.withheld == {}
    reopened = merge(outline, lifecycle.briefs)  # 2026-10-24 re-opens it
    assert reopened.contradiction("kapitsa-weekly-gain").status is Status.open
    assert set(reopened.withheld) == {"周增 +175", "+175 周增"}


def test_history_of_updates_follow_ups_and_figures(later):
    gain = later.contradiction("kapitsa-weekly-gain")
    assert [(e.brief.id, e.update.change.value) for e in gain.history] == [
        ("2026-10-22-inference-E2", "resolved"),
        ("2026-10-24-inference-E1", "reopened"),
    ]
    anchors = later.follow_up("recsys-vol178-anchors")  # carried over on 10-23, dropped on 10-24
    assert [e.update.status for e in anchors.history] == [FollowUpStatus.carried_over, FollowUpStatus.dropped]
    assert not anchors.pending
    stars = next(f for f in later.entries["kapitsa"].figures if f.key == "stars")
    assert [v.figure.value for v in stars.history] + [stars.current.value] == [105, 155, 160, 170]
    assert [v.stated_in for v in stars.history] == ["baseline", "2026-10-21-inference-E1", "2026-10-22-inference-E2"]


def test_a_retracted_entry_stays_with_its_reason(later):
    entry = later.entries["braintrust-series-b"]  # retracted on 2026-10-23
    assert entry.retracted and entry.retracted_in.id == "2026-10-23-inference-E1"
    assert entry.retraction.superseded_by == "braintrust-series-b-official"
    assert later.changes["2026-10-23-inference-E1"].entries_retracted == ("braintrust-series-b",)


def test_merging_the_briefs_in_reversed_order_gives_an_equal_doc(lifecycle, later):
    outline = lifecycle.outlines["inference"]
    assert merge(outline, list(reversed(lifecycle.briefs))) == later
    assert merge(outline, lifecycle.briefs[1:] + lifecycle.briefs[:1]) == later
    assert merge(outline, lifecycle.briefs[:-1]) != later  # and equality does see a missing brief


def test_a_brief_of_another_topic_is_left_out(shipped, doc):
    other = later_brief(id="2026-10-22-training-E1", topic="training")
    assert merge(shipped.outlines["inference"], [*shipped.briefs, other]) == doc


# --------------------------------------------------------------------------- frozen


def test_the_records_are_frozen(later):
    entry = later.entries["kapitsa"]
    stars = next(f for f in entry.figures if f.key == "stars")
    records = [
        later,
        later.sections["1.1"],
        entry,
        stars,
        entry.history[-1],
        later.contradiction("kapitsa-weekly-gain"),
        later.follow_up("recsys-vol178-anchors"),
        later.citations["1605.08803"],
        later.sections["5.1"].stubs[0],
        later.changes["2026-10-23-inference-E1"],
    ]
    for record in records:
        field = dataclasses.fields(record)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)


def test_the_named_tuples_cannot_be_changed(later):
    gain = later.contradiction("kapitsa-weekly-gain")
    stars = next(f for f in later.entries["kapitsa"].figures if f.key == "stars")
    for record in (
        later.items["kapitsa-card-refresh"],
        stars.history[0],
        gain.history[0],
        later.follow_up("recsys-vol178-anchors").history[0],
    ):
        with pytest.raises(AttributeError):
            setattr(record, record._fields[0], None)


def test_the_mappings_are_read_only_and_the_lists_are_tuples(later):
    for mapping in (later.sections, later.items, later.entries, later.citations, later.changes):
        assert isinstance(mapping, Mapping)
        key = next(iter(mapping))
        with pytest.raises(TypeError):
            mapping[key] = None
        with pytest.raises(TypeError):
            del mapping[key]
    section = later.sections["1.1"]
    entry = later.entries["kapitsa"]
    gain = later.contradiction("kapitsa-weekly-gain")
    for sequence in (
        later.briefs,
        later.contradictions,
        later.follow_ups,
        section.entries,
        section.stubs,
        section.contradictions,
        entry.figures,
        entry.history,
        entry.figures[0].history,
        gain.history,
        gain.sections,
        later.changes["2026-10-23-inference-E1"].entries_added,
    ):
        assert isinstance(sequence, tuple)


def test_a_withheld_figure_is_withheld_whether_the_contradiction_names_the_entry_or_its_item(shipped):
    """Contradiction 1 withholds the weekly gain (figure ``weekly-gain``) of Kapitsa; naming only the
    item that updated the entry must withhold it too, as the rules read it (they skip the gain
    check for such a figure)."""
    brief = shipped.briefs[0]
    first = brief.contradictions[0]
    assert first.withheld[0].figure == "weekly-gain" and first.touches.items
    only_items = first.model_copy(update={"touches": first.touches.model_copy(update={"entries": []})})
    changed = brief.model_copy(update={"contradictions": [only_items, *brief.contradictions[1:]]})
    doc = merge(shipped.outlines["inference"], [changed])
    entry = next(e for e in doc.entries.values() if any(f.key == "weekly-gain" for f in e.figures))
    gain = next(f for f in entry.figures if f.key == "weekly-gain")
    assert gain.withheld_by is not None and gain.withheld_by.id == first.id


def test_a_paper_cited_again_keeps_its_number_and_its_counts_are_refreshed(shipped):
    """The 10-21 brief gives Real NVP (arXiv 1605.08803) S2 4677 and OpenAlex 2066 without a date; a
    later brief cites it again as v2 with a new S2 count: the number stays, the S2 count is the new
    one dated by that brief, and the earlier counts are kept."""
    first = next(c for c in shipped.briefs[0].citations if c.arxiv.startswith("1605.08803"))
    assert [(x.source.value, x.count) for x in first.cited_by] == [("S2", 4677), ("OpenAlex", 2066)]
    later = later_brief(
        citations=[
            {
                "arxiv": "1605.08803v2",
                "title": "Density Estimation Using Real NVP",
                "cited_by": [{"source": "S2", "count": 4702}],
            }
        ]
    )
    before = merge(shipped.outlines["inference"], shipped.briefs)
    doc = merge(shipped.outlines["inference"], [*shipped.briefs, later])
    view = doc.citations["1605.08803"]
    assert view.number == before.citations["1605.08803"].number
    latest = {x.source: (x.value, x.as_of.isoformat()) for x in view.latest_counts}
    assert latest == {"S2": (4702, "2026-10-22"), "OpenAlex": (2066, "2026-10-21")}
    assert [(x.source, x.value, x.as_of.isoformat()) for x in view.earlier_counts] == [("S2", 4677, "2026-10-21")]
    assert view.number not in doc.changes[later.id].citations_added


def corrected_gain(outcome: str = "corrected"):
    """The day after: contradiction 1 (Kapitsa's weekly gain, withheld as 周增 +175) is settled."""
    update = {
        "contradiction": "kapitsa-weekly-gain",
        "change": "resolved",
        "text": "采集器口径已查明。",
        "outcome": outcome,
    }
    if outcome == "corrected":
        update["corrections"] = [
            {"key": "weekly-gain", "old": 175, "new": 58, "reason": "采集器把整个组织的周增算进来了"}
        ]
    return later_brief(citations=[], contradiction_updates=[update])


def test_a_claim_corrected_stays_withheld_and_its_wrong_value_leaves_the_figure(shipped):
    doc = merge(shipped.outlines["inference"], [*shipped.briefs, corrected_gain()])
    view = doc.contradiction("kapitsa-weekly-gain")
    assert view is not None and view.status is Status.resolved and view.corrected
    assert doc.withheld.get("周增 +175") is view  # a wrong claim never becomes publishable
    entry = next(e for e in doc.entries.values() if any(f.key == "weekly-gain" for f in e.figures))
    gain = next(f for f in entry.figures if f.key == "weekly-gain")
    assert (gain.current.value, gain.current.as_of.isoformat()) == (58, "2026-10-22")
    assert gain.withheld_by is None  # the right value is published
    assert [v.figure.value for v in gain.history if v.corrected_by == view.id] == [175]
    assert 175 not in [f.value for f in gain.series()] and gain.earlier == [
        v for v in gain.history if v.corrected_by is None
    ]
    assert entry.history[-1].kind == "corrected" and entry.history[-1].correction.new == 58


def test_a_correction_of_a_value_never_published_makes_the_right_one_current(shipped):
    """10-22 corrects +175 → +58; 10-27 re-opens it on a withheld +296; 10-29 corrects 296 → 108:
    108 is current from 10-29, and 58 (right in its day) stays a point of the chart."""
    reopened = {"contradiction": "kapitsa-weekly-gain", "change": "reopened", "text": "周增再次按组织级汇总（+296）。"}
    again = {
        "contradiction": "kapitsa-weekly-gain",
        "change": "resolved",
        "outcome": "corrected",
        "text": "人工核对：+108。",
        "corrections": [{"key": "weekly-gain", "old": 296, "new": 108, "reason": "组织级口径"}],
    }
    briefs = [
        *shipped.briefs,
        corrected_gain(),
        later_brief(id="2026-10-27-inference-E1", date="2026-10-27", citations=[], contradiction_updates=[reopened]),
        later_brief(id="2026-10-29-inference-E1", date="2026-10-29", citations=[], contradiction_updates=[again]),
    ]
    doc = merge(shipped.outlines["inference"], briefs)
    gain = next(f for e in doc.entries.values() for f in e.figures if f.key == "weekly-gain")
    assert (gain.current.value, gain.current.as_of.isoformat()) == (108, "2026-10-29")
    assert [f.value for f in gain.series()] == [58, 108]


def test_a_claim_confirmed_is_published(shipped):
    doc = merge(shipped.outlines["inference"], [*shipped.briefs, corrected_gain("confirmed")])
    view = doc.contradiction("kapitsa-weekly-gain")
    assert view is not None and not view.corrected and "周增 +175" not in doc.withheld


@pytest.mark.parametrize(
    ("update", "says"),
    [
        ({"change": "reopened", "outcome": "confirmed"}, "use it with change: resolved"),
        ({"change": "resolved", "outcome": "corrected"}, "names what it corrects"),
        (
            {"change": "resolved", "corrections": [{"key": "weekly-gain", "old": 1, "new": 2, "reason": "x"}]},
            "outcome: corrected",
        ),
    ],
)
def test_an_outcome_and_its_corrections_go_together(update, says):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=says):
        later_brief(
            citations=[], contradiction_updates=[{"contradiction": "kapitsa-weekly-gain", "text": "x", **update}]
        )
