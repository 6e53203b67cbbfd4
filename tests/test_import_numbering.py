"""Item headings that repeat a number: the brief imports to data that checks clean, every item numbered by its
place, and the editor is asked about each number the importer gave (issue 29: no blocked night)."""

from __future__ import annotations

import shutil

from helpers import ROOT, run_cli
from ruamel.yaml import YAML

SEED = ROOT / "tests" / "fixtures" / "2026-10-21-inference-E1.md"
MARK = "# digest-import:"


def _import(markdown: str, tmp_path, capsys, monkeypatch) -> str:
    """``digest import`` of ``markdown`` into a data folder holding the outline and the team's words: the YAML."""
    shutil.copytree(ROOT / "data" / "outlines", tmp_path / "data" / "outlines")
    shutil.copy(ROOT / "data" / "vocabulary.yml", tmp_path / "data" / "vocabulary.yml")
    (tmp_path / "data" / "briefs").mkdir()
    (tmp_path / "brief.md").write_text(markdown, encoding="utf-8")
    code, out, err = run_cli(
        "import", "brief.md", "--data", "data", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0, err
    return (tmp_path / out.strip().splitlines()[-1]).read_text(encoding="utf-8")


def test_a_number_written_twice_is_numbered_by_place_and_asked(tmp_path, capsys, monkeypatch) -> None:
    markdown = SEED.read_text(encoding="utf-8").replace("条目 3：ModelExpress", "条目 2：ModelExpress", 1)  # a typo
    assert markdown.count("条目 2：") == 2
    text = _import(markdown, tmp_path, capsys, monkeypatch)
    items = YAML(typ="safe").load(text)["items"]
    assert [i["number"] for i in items] == list(range(1, 8))
    assert len({i["id"] for i in items}) == 7
    assert items[2]["title"].startswith("ModelExpress")  # the third heading is item 3, its text its own
    asked = [line for line in text.splitlines() if MARK in line and "numbered" in line and "by its place" in line]
    assert asked == [asked[0]] and "read as 2, is numbered 3" in asked[0]  # only the second 2 moved: 4–7 are in place
    code, _, err = run_cli("check", "data", "--config", "none", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err


def test_distinct_numbers_are_kept_as_written(tmp_path, capsys, monkeypatch) -> None:
    text = _import(SEED.read_text(encoding="utf-8"), tmp_path, capsys, monkeypatch)
    assert "by its place" not in text
    assert [i["number"] for i in YAML(typ="safe").load(text)["items"]] == list(range(1, 8))
