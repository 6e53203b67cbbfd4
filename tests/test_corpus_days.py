"""Twelve later nights, written blind to the importer (tests/corpus/days/), imported in order as an
editor would (`digest import`, then `digest check`), compared field by field with what a careful
editor wrote.  The figures are a floor: an importer change that loses ground fails here.

First run, before any tuning (2026-12-03, importer of 0.2.0): 984 of 3,333 fields (29.5 %), none of
the 1,594 update and back-reference fields, 1 of 12 nights checking clean (24 errors).
"""

from __future__ import annotations

import pytest
from conftest import ROOT
from corpus_days import run, table
from ruamel.yaml import YAML

MATCHED_AT_LEAST = 1005
CLEAN_NIGHTS_AT_LEAST = 6


@pytest.fixture(scope="module")
def nights(tmp_path_factory):
    work = tmp_path_factory.mktemp("days")
    result = run(ROOT / "data", work)
    print("\n" + table(result))
    return result, work


def test_the_corpus_imports_at_least_as_well_as_before(nights):
    result, _ = nights
    assert len(result) == 12
    assert sum(n.matched for n in result) >= MATCHED_AT_LEAST, table(result)
    assert sum(not n.errors for n in result) >= CLEAN_NIGHTS_AT_LEAST, table(result)


def test_an_update_of_an_entry_an_earlier_brief_created_names_it(nights):
    _, work = nights
    brief = YAML(typ="safe").load((work / "data" / "briefs" / "2026-10-23-inference-E1.yml").read_text("utf-8"))
    placement = brief["items"][0]["placement"]  # §5.1「llm-d 1.0」子节点原地更新 (10-21 item 1 created it)
    assert (placement["action"], placement["entry"]) == ("update_in_place", "llm-d-1-0")


def test_a_brief_that_opens_a_section_gives_its_number_and_title(nights):
    _, work = nights
    brief = YAML(typ="safe").load((work / "data" / "briefs" / "2026-10-23-inference-E1.yml").read_text("utf-8"))
    placement = brief["items"][1]["placement"]  # 建议归入：新建 §2.6「KV 与权重的跨实例传输」
    assert (placement["action"], placement["section"], placement["section_title"]) == (
        "new_section",
        "2.6",
        "KV 与权重的跨实例传输",
    )


def test_a_new_word_is_proposed_in_the_vocabulary_file_for_the_reviewer(nights):
    _, work = nights
    text = (work / "data" / "vocabulary.yml").read_text("utf-8")
    (line,) = [x for x in text.splitlines() if "低价值" in x]
    assert "# digest-import: new word in 2026-10-23-inference-E1" in line
    shipped = (ROOT / "data" / "vocabulary.yml").read_text("utf-8")
    assert [x for x in shipped.splitlines() if x.startswith("#")] == [x for x in text.splitlines() if x.startswith("#")]
    code = line.split(":")[0].strip()
    brief = YAML(typ="safe").load((work / "data" / "briefs" / "2026-10-23-inference-E1.yml").read_text("utf-8"))
    assert brief["items"][2]["value"] == [code]  # 条目 3 …（低价值，仅见截图）
