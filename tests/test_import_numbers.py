"""Numbers as briefs write them (issue 29, 4 and 10): a count with a thousands separator, 万,
full-width digits.  A number is read whole or it is a finding for the editor, never cut short
(``4,791`` was imported as 791)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_brief
from digest_plugin.authoring.importer.numbers import read_number

SEED = (Path(__file__).parent / "fixtures" / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")
WRITTEN = "被引 4677 / S2，被引 2066 / OpenAlex"


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("4791", 4791),
        ("4,791", 4791),
        ("1,234,567", 1234567),
        ("４，７９１", 4791),
        ("４７９１", 4791),
        ("1.2 万", 12000),
        ("3万", 30000),
        ("+58", 58),
        ("-3", -3),
        ("2.5", 2.5),
    ],
)
def test_a_number_written_whole_is_read_whole(text, number):
    assert read_number(text) == number


@pytest.mark.parametrize("text", ["47,91", "4,7910", "4.791.1", "约 4791", "4791 次", ""])
def test_what_is_not_a_whole_number_is_not_read(text):
    assert read_number(text) is None


def _counts(written: str) -> tuple[list[dict], str, list[str]]:
    text, notes = import_brief(SEED.replace(WRITTEN, written))
    brief = YAML(typ="safe").load(text)
    (citation,) = brief["citations"]
    return citation.get("cited_by", []), text, [n.message for n in notes]


@pytest.mark.parametrize(
    ("written", "s2", "openalex"),
    [
        ("被引 4,791 / S2，被引 2,066 / OpenAlex", 4791, 2066),
        ("被引 4,791 / S2, 被引 2,066 / OpenAlex", 4791, 2066),
        ("被引 ４７９１ / S2，被引 ２０６６ / OpenAlex", 4791, 2066),
        ("被引 1.2 万 / S2，被引 2066 / OpenAlex", 12000, 2066),
    ],
)
def test_citation_counts_keep_every_digit(written, s2, openalex):
    counts, _, _ = _counts(written)
    assert [(c["source"], c["count"]) for c in counts] == [("S2", s2), ("OpenAlex", openalex)]


def test_a_count_that_is_not_a_number_is_a_question_not_a_guess():
    counts, text, notes = _counts("被引 47,91 / S2，被引 2066 / OpenAlex")
    assert [(c["source"], c["count"]) for c in counts] == [("OpenAlex", 2066)]
    assert any("cannot read «47,91» as a count" in n for n in notes), notes
    assert "47,91" in text  # kept for the editor, not dropped


@pytest.mark.parametrize(
    ("written", "doi"),
    [
        ("DOI 10.48550/arXiv.1605.08803", "10.48550/arXiv.1605.08803"),
        ("DOI 10.12/x", None),  # a registrant has four to nine digits
        ('DOI 10.48550/arxiv.1605.08803"><script>', None),
    ],
)
def test_a_doi_is_taken_only_when_it_is_one(written, doi):
    """A DOI goes into https://doi.org/<doi> as written (issue 33, 5): one that is not 10.NNNN/… is kept
    for the editor, never linked."""
    text, notes = import_brief(SEED.replace("DOI 10.48550/arxiv.1605.08803", written))
    (citation,) = YAML(typ="safe").load(text)["citations"]
    assert citation.get("doi") == doi
    if doi is None:
        assert any("not a DOI" in n.message for n in notes)
