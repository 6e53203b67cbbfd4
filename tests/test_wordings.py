"""Wordings are data (issue 29, part 4): the phrases a brief uses for what it does (retract, confirm,
correct, carry over, drop, withhold, the placements …) are ``wordings:`` in ``data/vocabulary.yml``.
A brief worded anew needs a line there, which ``digest check`` validates, not a change to the code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import ROOT, line_of, replace_in, run_cli
from helpers.shared import corpus_nights
from ruamel.yaml import YAML

NIGHT = ROOT / "tests" / "corpus" / "days" / "2026-10-26-inference-E1.md"
"""撤回：10-23 条目 3（社区帖 41% 截图）…由本条目替代。"""


@pytest.fixture(scope="module")
def before_the_night(tmp_path_factory) -> Path:
    """The data folder as it stood before 2026-10-26: the shipped brief and the days before, imported."""
    work = tmp_path_factory.mktemp("wordings")
    shutil.copytree(corpus_nights()[0] / "data", work / "data")
    for later in sorted((work / "data" / "briefs").glob("*.yml")):
        if later.stem >= "2026-10-26":
            later.unlink()
    return work


@pytest.fixture
def project(before_the_night: Path, tmp_path: Path) -> Path:
    shutil.copytree(before_the_night / "data", tmp_path / "data")
    return tmp_path


def retractions(project: Path, markdown: Path, capsys, monkeypatch) -> list[dict]:
    code, out, err = run_cli(
        "import", str(markdown), "--data", "data", "--stdout", cwd=project, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0, err
    return YAML(typ="safe").load(out).get("retractions", [])


def test_a_new_wording_is_one_line_of_the_vocabulary_file(project, tmp_path, capsys, monkeypatch):
    night = tmp_path / NIGHT.name
    night.write_text(NIGHT.read_text(encoding="utf-8").replace("撤回", "划掉"), encoding="utf-8")
    assert retractions(project, night, capsys, monkeypatch) == []  # a wording nobody has taught it
    replace_in(project / "data" / "vocabulary.yml", "  retracted: [撤回", "  retracted: [划掉, 撤回")
    (found,) = retractions(project, night, capsys, monkeypatch)
    assert found["item"] == "2026-10-23-e1-item-3" and found["superseded_by"] == "2026-10-26-e1-item-1"
    assert retractions(project, NIGHT, capsys, monkeypatch)[0]["item"] == found["item"]  # 撤回 still reads


def test_an_act_the_importer_does_not_know_is_a_check_error_on_its_line(project, capsys, monkeypatch):
    vocabulary = project / "data" / "vocabulary.yml"
    replace_in(vocabulary, "  retracted: [", "  retract: [")
    code, _, err = run_cli("check", "data", "--config", "none", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and "Traceback" not in err
    assert f"data/vocabulary.yml:{line_of(vocabulary, '  retract: [')}:" in err
    assert "'retract' is not an act the importer reads" in err and "retracted" in err


def test_an_empty_phrase_is_a_check_error(project, capsys, monkeypatch):
    vocabulary = project / "data" / "vocabulary.yml"
    replace_in(vocabulary, "  retracted: [撤回", "  retracted: ['', 撤回")
    code, _, err = run_cli("check", "data", "--config", "none", cwd=project, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and f"data/vocabulary.yml:{line_of(vocabulary, '  retracted: [')}:" in err


def test_a_negated_phrase_does_not_count():
    from digest_plugin.core.vocabulary import Vocabulary, default_file

    words = Vocabulary(default_file())
    assert words.wording("confirmed").search("这条今天证实了")
    assert not words.wording("confirmed").search("这条仍未证实")
    assert words.wording("update_in_place").search("§1.1 Kapitsa 原地更新")
    assert not words.wording("new_sub_entry").search("应做原地更新而非新增条目")


def test_how_a_brief_says_yesterday_is_a_wording_too(shipped):
    import datetime as dt

    from digest_plugin.authoring.importer.backrefs import History, find_references

    brief, outline = shipped.briefs[0], shipped.outlines["inference"]
    night = dt.date(2026, 10, 22)
    plain = History([brief], outline)
    assert [r.id for r in find_references("昨天矛盾 1 更正", night, plain)] == ["kapitsa-weekly-gain"]
    # a word nobody has taught it: no date, so the reference resolves to nothing (it is asked about)
    assert [r.id for r in find_references("昨儿矛盾 1 更正", night, plain)] == [None]
    taught = History([brief], outline, {"yesterday": ("昨儿", "昨天")})
    assert [r.id for r in find_references("昨儿矛盾 1 更正", night, taught)] == ["kapitsa-weekly-gain"]
