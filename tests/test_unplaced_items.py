"""What briefs legitimately leave out (issue 29, part 1): an item with no value rating, an item kept
out of the living doc, an item that only refreshes a paper's metadata, and an item that repeats an
earlier one.  Each passes ``digest check`` and is shown for what it is: the brief's page keeps it
whole, no §-page gets it, and nothing is invented for it (no rating, no section)."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path

import pytest
from helpers import brief_item, built, copy_project, line_of, night_brief
from ruamel.yaml import YAML

from digest_plugin.core.pipeline import analyse

NIGHT = "2026-10-22-inference-E1"


def _item(number: int, title: str, placement: dict, value: list[str] | None = None) -> dict:
    return brief_item(f"night-item-{number}", number, title, placement, **({"value": value} if value else {}))


ITEMS = [
    _item(1, "无评级的新条目", {"section": "3.1", "action": "new_sub_entry", "text": "§3.1 新增子条目。"}),
    _item(2, "只留档的条目", {"action": "not_placed", "text": "丢弃级，不入活文档，仅在简报留档。"}, ["high"]),
    _item(3, "只刷新引用的条目", {"action": "citation_refresh", "text": "只刷新 Real NVP 的被引数，不新增条目。"}),
    _item(
        4,
        "重复报道的条目",
        {"action": "duplicate", "duplicate_of": "llm-d-1-0", "text": "与 10-21 条目 1 为同一事件，不重复归档。"},
    ),
]


def write_night(data: Path, items: list[dict] = ITEMS) -> Path:
    brief = night_brief(items=items)
    path = data / "briefs" / f"{NIGHT}.yml"
    with path.open("w", encoding="utf-8") as out:
        YAML().dump(brief, out)
    return path


def findings(data: Path) -> list[str]:
    """What ``digest check`` says, one line each: ``file:line:col: severity: message``."""
    result = analyse(data, relative_to=data.parent, today=dt.date(2026, 12, 4))
    return [f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.message}" for f in result.findings]


def test_items_briefs_leave_unrated_or_unplaced_pass_the_check(data_copy):
    write_night(data_copy)
    assert findings(data_copy) == []


def test_only_placed_items_become_entries_and_a_duplicate_points_at_the_earlier_item(data_copy):
    write_night(data_copy)
    docs = analyse(data_copy, today=dt.date(2026, 12, 4)).docs
    assert docs is not None
    doc = docs["inference"]
    assert "night-item-1" in doc.entries
    for unplaced in ("night-item-2", "night-item-3", "night-item-4"):
        assert unplaced not in doc.entries
    assert doc.items["night-item-4"].entry_id == "llm-d-1-0"  # later news of it goes to the earlier entry


@pytest.mark.parametrize(
    ("placement", "message"),
    [
        ({"action": "new_sub_entry", "text": "x"}, "a new_sub_entry placement names its section"),
        ({"action": "duplicate", "text": "x"}, "a duplicate placement names the earlier item it repeats"),
        ({"action": "not_placed", "duplicate_of": "llm-d-1-0", "text": "x"}, "duplicate_of belongs to action"),
    ],
)
def test_a_placement_that_misses_what_it_needs_is_an_error_on_its_line(data_copy, placement, message):
    path = write_night(data_copy, [_item(1, "坏条目", placement)])
    found = findings(data_copy)
    assert len(found) == 1 and message in found[0], found
    assert found[0].startswith(f"data/briefs/{NIGHT}.yml:{line_of(path, 'placement:')}:"), found


def test_a_duplicate_of_an_unknown_item_names_it(data_copy):
    placement = {"action": "duplicate", "duplicate_of": "no-such-item", "text": "x"}
    write_night(data_copy, [_item(1, "重复", placement)])
    found = findings(data_copy)
    assert len(found) == 1 and "unknown item 'no-such-item'" in found[0], found


def test_an_item_that_names_itself_as_its_duplicate_is_an_error(data_copy):
    placement = {"action": "duplicate", "duplicate_of": "night-item-1", "text": "x"}
    write_night(data_copy, [_item(1, "重复", placement)])
    found = findings(data_copy)
    assert len(found) == 1 and "unknown item 'night-item-1'" in found[0], found


def test_an_item_kept_out_of_the_doc_cannot_be_updated_in_place_later(data_copy):
    write_night(data_copy)
    later = {
        "schema": 1,
        "id": "2026-10-23-inference-E1",
        "topic": "inference",
        "round": "E1",
        "title": "inference · E1 预消化简报（2026-10-23）",
        "date": "2026-10-23",
        "items": [
            {
                **_item(
                    1, "更新", {"section": "3.1", "action": "update_in_place", "entry": "night-item-2", "text": "x"}
                ),
                "id": "next-night-item-1",
            }
        ],
    }
    with (data_copy / "briefs" / "2026-10-23-inference-E1.yml").open("w", encoding="utf-8") as out:
        YAML().dump(later, out)
    found = findings(data_copy)
    assert len(found) == 1 and "unknown entry to update in place 'night-item-2'" in found[0], found


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("unplaced"))
    write_night(root / "data")
    return built(root)


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _article(page: str, item_id: str) -> str:
    m = re.search(rf'<article class="digest-item"[^>]*data-digest-item="{item_id}".*?</article>', page, re.S)
    assert m, item_id
    return m.group(0)


def test_the_brief_page_keeps_every_item_whole_and_says_where_it_went(site):
    page = (site / "inference" / "briefs" / NIGHT / "index.html").read_text(encoding="utf-8")
    unrated = _text(_article(page, "night-item-1"))
    assert "未评级" in unrated and "已归入 §3.1" in unrated
    kept = _text(_article(page, "night-item-2"))
    assert "未归入活文档： 不入活文档" in kept and "高价值" in kept and "只留档的条目：要点。" in kept
    assert "未归入活文档： 仅刷新引用" in _text(_article(page, "night-item-3"))
    duplicate = _article(page, "night-item-4")
    assert "与 2026-10-21 条目 1 为同一事件（不重复归档）" in _text(duplicate)
    assert 'href="../2026-10-21-inference-E1/#item-llm-d-1-0"' in duplicate, duplicate


def test_no_section_page_shows_an_item_kept_out_of_the_doc(site):
    text = _text("".join((site / "inference" / str(n) / "index.html").read_text(encoding="utf-8") for n in range(1, 7)))
    assert "无评级的新条目" in text  # the placed one is there
    for title in ("只留档的条目", "只刷新引用的条目", "重复报道的条目"):
        assert title not in text
