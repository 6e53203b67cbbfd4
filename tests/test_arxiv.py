"""arXiv ids: a paper's identity without its version, ids that cannot exist, mentions in text."""

from __future__ import annotations

import re

import pytest
from helpers import FIXTURES

from digest_plugin.core import arxiv

BRIEF_MD = (FIXTURES / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "written, paper",
    [
        ("1605.08803", "1605.08803"),
        ("1605.08803v2", "1605.08803"),  # the lifecycle brief of 2026-10-24 cites Real NVP again as v2
        ("1605.08803v12", "1605.08803"),
        ("hep-th/9901001v3", "hep-th/9901001"),
    ],
)
def test_key_is_the_id_without_its_version(written, paper):
    assert arxiv.key(written) == paper


@pytest.mark.parametrize("good", ["1605.08803", "1605.08803v2", "1412.6980", "0704.0001", "2401.10241"])
def test_ids_that_exist_have_no_digits_problem(good):
    assert arxiv.digits_problem(good) is None


@pytest.mark.parametrize(
    "bad",
    [
        "1605.8803",  # 2016: five digits after the dot
        "1412.69801",  # 2014: four
        "2513.00001",  # month 13
        "2600.00001",  # month 0
    ],
)
def test_ids_that_cannot_exist_are_refused_with_the_rule(bad):
    problem = arxiv.digits_problem(bad)
    assert problem is not None and repr(bad) in problem and "5 digits after the dot since 2015" in problem


def test_old_style_ids_have_no_digit_rule():
    assert arxiv.digits_problem("hep-th/9901001") is None


@pytest.mark.parametrize(
    "good", ["1605.08803", "1605.08803v2", "0704.0001", "hep-th/9901001", "math.AG/0601001v1", "cond-mat/0102536"]
)
def test_id_accepts_both_styles_with_an_optional_version(good):
    assert arxiv.ID.fullmatch(good)


@pytest.mark.parametrize(
    "bad",
    [
        "1605.08803v0",  # versions start at 1
        "1605.088",
        "arXiv:1605.08803",
        "1605.08803 ",
        "HEP-TH/9901001",
        "javascript:alert(1)",
        "1605.08803]] {{ 7*7 }}",
    ],
)
def test_id_refuses_anything_else(bad):
    assert not arxiv.ID.fullmatch(bad)


def test_loose_id_tolerates_v0_for_page_authors():
    assert arxiv.LOOSE_ID.fullmatch("1605.08803v0") and not arxiv.ID.fullmatch("1605.08803v0")


def test_mention_finds_the_papers_the_markdown_brief_names():
    # the brief names one arXiv id, twice: in contradiction 11 and in its list 三、可引用的 arXiv 号
    assert arxiv.MENTION.findall(BRIEF_MD) == ["1605.08803", "1605.08803"]


def test_mention_drops_the_version_and_needs_the_prefix():
    assert arxiv.MENTION.findall("见 arXiv:1605.08803v2 与 arXiv:2309.06180。") == ["1605.08803", "2309.06180"]
    assert arxiv.MENTION.findall("1605.08803 and arxiv:1605.08803") == []


def test_loose_mention_reads_the_colon_and_spaces_the_team_types():
    found = [m.group("id") for m in re.finditer(arxiv.MENTION_LOOSE, "arXiv：1605.08803、arXiv : 2309.06180v1")]
    assert found == ["1605.08803", "2309.06180v1"]
    line = next(line for line in BRIEF_MD.splitlines() if "Density Estimation Using Real NVP" in line)
    assert re.search(arxiv.MENTION_LOOSE, line).group("id") == "1605.08803"
