"""A preview's checks reuse what they found in a brief that did not change (``core/memo.py``), and
still see everything that changed around it: each edit below leaves the shipped brief's file alone
and changes what its findings depend on; the cached rebuild must then report exactly what a fresh
check of the same folder reports."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import night_brief, replace_in
from ruamel.yaml import YAML

from digest_plugin.core.load import Cache
from digest_plugin.core.model import Rules
from digest_plugin.core.pipeline import analyse

SEED = "2026-10-21-inference-E1.yml"
TODAY = dt.date(2026, 12, 5)


def _found(data: Path, cache: Cache | None = None, *, today: dt.date = TODAY, rules: Rules | None = None) -> list[str]:
    return [str(f) for f in analyse(data, cache=cache, today=today, rules=rules).findings]


@pytest.fixture
def previewed(data_copy: Path) -> tuple[Path, Cache]:
    """The data folder and a cache that has been through one preview build of it."""
    cache = Cache()
    _found(data_copy, cache)
    return data_copy, cache


def test_a_word_taken_out_of_the_vocabulary_is_missed_in_the_unchanged_brief(previewed):
    data, cache = previewed
    replace_in(data / "vocabulary.yml", "  personal_blog:", "  personal_blogs:")
    fresh = _found(data)
    assert any("'personal_blog' is not" in f for f in fresh), fresh
    assert _found(data, cache) == fresh


def test_a_day_before_the_brief_is_seen_in_the_unchanged_brief(previewed):
    data, cache = previewed
    earlier = dt.date(2026, 10, 1)
    fresh = _found(data, today=earlier)
    assert any("after today" in f or "future" in f for f in fresh), fresh
    assert _found(data, cache, today=earlier) == fresh
    assert _found(data, cache) == _found(data)  # and back


def test_a_claim_freed_elsewhere_and_withheld_again_is_seen_in_the_unchanged_brief_link(previewed):
    """The shipped brief links a page whose address holds its own withheld claim 「周增 +175」; a later brief
    confirms the claim (the link is free), then is deleted (the link holds a withheld claim again).  The
    shipped brief's file never changes in between."""
    data, _ = previewed
    seed = data / "briefs" / SEED
    url = YAML(typ="safe").load(seed.read_text(encoding="utf-8"))["items"][0]["sources"]["urls"][0]
    replace_in(seed, url, url + "?q=" + quote("周增 +175"))
    later = data / "briefs" / "2026-10-22-inference-E1.yml"
    confirm = night_brief(
        contradiction_updates=[
            {
                "contradiction": "kapitsa-weekly-gain",
                "change": "resolved",
                "outcome": "confirmed",
                "text": "一手出处到了。",
            }
        ]
    )
    with later.open("w", encoding="utf-8") as out:
        YAML().dump(confirm, out)
    cache = Cache()
    assert not any("holds the withheld claim" in f for f in _found(data, cache))
    later.unlink()
    fresh = _found(data)
    assert any("holds the withheld claim" in f for f in fresh), fresh
    assert _found(data, cache) == fresh


def test_other_rules_are_applied_to_the_unchanged_brief(data_copy):
    """The shipped brief writes its weekly gain as text (「"１７５"」), which the gain rule refuses; with a rule
    that compares no gain, the same unchanged brief has nothing to refuse."""
    replace_in(
        data_copy / "briefs" / SEED,
        '        label: "周增"\n        value: 175',
        '        label: "周增"\n        value: "１７５"',
    )
    cache = Cache()
    assert any("a number written as text" in f for f in _found(data_copy, cache))
    lenient = Rules(gain_totals={})
    fresh = _found(data_copy, rules=lenient)
    assert not any("a number written as text" in f for f in fresh), fresh
    assert _found(data_copy, cache, rules=lenient) == fresh
