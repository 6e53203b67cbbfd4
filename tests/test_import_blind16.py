"""The habits blind16's tuned writers brought (issue 29): a night named by its ISO week date (「W43-3 Tom 的 ②」,
「W53-5」 across the year's end), a day and month with the year after them (「21/10/26」) and an item number glued to
a night (「21/10#2」), and items headed by a circled digit (「### ① …」) with fields written 「label／text」.

Each night is written on top of the shipped 10-21 brief (moved to another date where the test needs one).
"""

from __future__ import annotations

from helpers import SECOND_NIGHT, follow_up_statuses, shipped_brief, shipped_outline
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief

FIRST = shipped_brief()
OUTLINE = shipped_outline()


def _moved(brief: Brief, date: str) -> Brief:
    """The shipped brief, as if written on ``date`` (YYYY-MM-DD)."""
    data = brief.model_dump(mode="json", by_alias=True, exclude_none=True)
    data.update(id=f"{date}-inference-E1", date=date)
    return Brief.model_validate(data)


def _night(markdown: str, first: Brief = FIRST) -> tuple[str, dict]:
    done = import_full(markdown, known_briefs=[first], outline=OUTLINE)
    return done.text, YAML(typ="safe").load(done.text)


def _second(four: str, on: str = "2026-10-22", first: Brief = FIRST) -> tuple[str, dict]:
    return _night(SECOND_NIGHT.format(author="澄", two="无。", four=four).replace("2026-10-22", on), first)


def test_a_night_named_by_its_iso_week_date():
    """2026-10-21 is the Wednesday of ISO week 43: 「W43-3 Tom 的跟进 ②」 is its follow-up 2."""
    _, brief = _second("- W43-3 Tom 的跟进 ② 闭环：锚点页已下线，见条目 1。", on="2026-10-25")
    assert follow_up_statuses(brief) == {"recsys-vol178-anchors": "done"}


def test_an_iso_week_date_of_last_years_week_53_names_new_years_day():
    """On 2027-01-09 (week 1 of 2027), 「W53-5」 is the Friday of 2026's last week: 2027-01-01."""
    first = _moved(FIRST, "2027-01-01")
    _, brief = _second("- W53-5 Tom 的跟进 ② 撤单：锚点页已下线。", on="2027-01-09", first=first)
    assert follow_up_statuses(brief) == {"recsys-vol178-anchors": "dropped"}


def test_a_day_month_and_year_and_an_item_number_glued_to_the_night():
    """「21/10/26#5」: the 2026-10-21 brief (its day first, then its month and year) and its item 5, Kapitsa."""
    night = SECOND_NIGHT.format(author="钟", two="无。", four="- 一条。").replace(
        "§1.1 Kapitsa 换数。", "21/10/26#5 的卡片换数。"
    )
    text, brief = _night(night.replace("2026-10-22", "2026-11-20"))
    refs = [(r["text"], r["kind"], r["brief"], r["id"]) for r in brief.get("back_refs") or []]
    assert ("21/10/26#5", "item", "2026-10-21-inference-E1", "kapitsa-card-refresh") in refs, [
        line for line in text.splitlines() if MARK in line
    ]


NIGHT = """inference · E1 预消化简报（2026-10-22）

作者：澄 · E1 日间预消化轮（inference）· 2026-10-22 22:00

## 甲部　今日增量（2 条）

### ① Kapitsa 周四卡

价值／中等价值
出处／https://github.com/nace-ai/kapitsa
要点／
　・ Stars 188
核实到／自动采集；未复现。
关联条目／§1.1 Kapitsa 换数。
落位／§1.1 Kapitsa 原地更新。

### ② 一篇博客

价值／补白
出处／https://example.org/blog
要点／
　・ 没有新数
核实到／博客，未复现。
关联条目／无。
落位／不上线，本篇留档即可。

## 乙部　矛盾与待核

无。

## 丙部　arXiv

无。

## 丁部　结论与跟进

- 今晚两条：① Kapitsa 换数；② 不上线。

### 交给 W43-5（周五，楠）

- 工单 1〔岑〕查推理池数据盘的固件版本
- 工单 2〔Jay〕问 NIXL 维护者拷多快那句的条件
"""


def test_items_headed_by_a_circled_digit_with_fields_after_a_full_width_slash():
    _, brief = _night(NIGHT)
    items = brief["items"]
    assert [(i["number"], i["title"]) for i in items] == [(1, "Kapitsa 周四卡"), (2, "一篇博客")]
    assert items[0]["value"] == ["medium"] and items[1]["value"] == ["filler"]
    assert items[0]["sources"]["urls"] == ["https://github.com/nace-ai/kapitsa"]
    assert items[0]["evidence"]["boundary"] == "自动采集；未复现。"
    assert items[0]["placement"]["section"] == "1.1"
