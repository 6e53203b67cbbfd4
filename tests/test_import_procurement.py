"""Habits of the writers of blind18's tuned nights (issue 29), each written here in a night of its own on top
of the shipped 10-21 brief, so that a reading that regresses shows here and not only in the corpus's totals:

* a brief that recaps tonight's items inline (「今晚两条：① …；② …」) and ends on its list for the next round,
  each line led by the writer's own label and number (「- 工单 1〔Jay〕…」): that list is tonight's, and its
  labels are kept as the follow-ups' marks;
* a later writer who counts days in the lunar calendar and gives the key in the header (「九月十二是 10 月 22
  日」), and answers that list one line a label (「- 工单 1（release）：已到货」);
* items numbered as a purchase order numbers its lines (「### 行 10　title」), and follow-ups written one a
  line with bars and no bullet (「催 1｜Jay｜…」);
* an entry named by a figure it holds (「写着「Stars 188」的那条加一行」), and a lead under the entry tonight's
  own item makes (「②那条挂一行线索」).
"""

from __future__ import annotations

import datetime as dt

from helpers import SECOND_NIGHT, shipped_brief, shipped_outline
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full, lunar
from digest_plugin.core.model import Brief

FIRST = shipped_brief()

HANDED_ON = SECOND_NIGHT.format(
    author="澄",
    two="无。",
    four="""- 今晚两条：① Kapitsa 换数；② 明天再看 release。

### 周五值守交接（苒）

- 工单 1〔Jay〕盯 Kapitsa 下一个 release 的 tag
- 工单 2〔澄〕问维护者要 benchmark 的脚本""",
)

LUNAR_NIGHT = """inference · E1 预消化简报（2026-10-23）

作者：苒 · E1 日间预消化轮（inference）· 2026-10-23 21:45

处理依据：我记日子用农历：今天九月十三，九月十二是 10 月 22 日；提到各篇写「农历日子＋人＋那人自己的编号」。

## 第一栏　到货（3 行）

### 行 10　Kapitsa 周五卡

［档次］中等价值
［单据］https://github.com/nace-ai/kapitsa
［到货内容］Stars 201
［验收］自动采集；未复现。
［台账］九月十二澄 条目 1 换过数的那条。
［入库］写着「Stars 188」的那条加一行（截至 2026-10-23）：Stars 201。

### 行 20　Kapitsa 的 fork 起了一个推理后端

［档次］中等价值
［单据］https://github.com/nace-ai/kapitsa-serve
［到货内容］fork 自 Kapitsa，加了一个推理后端
［验收］只读了 README；未复现。
［台账］§1.1 没有一条记 Kapitsa 的 fork。
［入库］§1.1 新开货位「Kapitsa 推理后端 fork」：README 说加了一个推理后端。

### 行 30　那个 fork 的 stars

［档次］低价值
［单据］https://github.com/nace-ai/kapitsa-serve/stargazers
［到货内容］Stars 12
［验收］自动采集；未复现。
［台账］行 20 那条。
［入库］②那条挂一行线索：Stars 12。

## 第二栏　有异议的和待核的

无。

## 第三栏　arXiv

无。

## 第四栏　结论与催办

- 到货核对（九月十二澄的工单 1–2）：
  - 工单 1（release 的 tag）：已到货，见行 10。
  - 工单 2（benchmark 的脚本）：维护者说不放，退订。

### 催办单（交九月十四 · 周六 珂）

催 1｜Jay｜限九月十五｜再看一次 fork 的 benchmark
催 2｜苒｜限九月十四｜问原厂交期
"""


def _yaml(text: str) -> dict:
    return YAML(typ="safe").load(text)


def _two_nights() -> tuple[dict, dict]:
    outline = shipped_outline()
    first = import_full(HANDED_ON, outline=outline, known_briefs=[FIRST])
    second_night = Brief.model_validate(_yaml(first.text))
    second = import_full(LUNAR_NIGHT, outline=outline, known_briefs=[FIRST, second_night])
    return _yaml(first.text), _yaml(second.text)


def test_the_list_a_brief_ends_on_is_tonights_and_keeps_its_writers_labels():
    night, _ = _two_nights()
    follow_ups = night["follow_ups"]
    assert [(f["number"], f.get("mark")) for f in follow_ups] == [(1, "工单 1"), (2, "工单 2")]
    assert follow_ups[0]["text"].startswith("〔Jay〕盯 Kapitsa")
    assert any("今晚两条" in c for c in night["conclusions"])  # the recap stays a conclusion: nothing lost


def test_a_lunar_writer_answers_that_list_by_its_labels():
    night, later = _two_nights()
    ids = [f["id"] for f in night["follow_ups"]]
    statuses = {u["follow_up"]: u["status"] for u in later.get("follow_up_updates") or []}
    assert statuses == {ids[0]: "done", ids[1]: "dropped"}


def test_a_purchase_orders_line_numbers_are_the_items_marks_and_its_barred_lines_are_follow_ups():
    _, later = _two_nights()
    assert [(i["number"], i.get("mark"), i["title"]) for i in later["items"]] == [
        (1, "行 10", "Kapitsa 周五卡"),
        (2, "行 20", "Kapitsa 的 fork 起了一个推理后端"),
        (3, "行 30", "那个 fork 的 stars"),
    ]
    assert [(f["number"], f.get("mark"), f["text"][:4]) for f in later["follow_ups"]] == [
        (1, "催 1", "Jay｜"),
        (2, "催 2", "苒｜限九"),
    ]


def test_an_entry_named_by_a_figure_it_holds_is_the_one_updated():
    """「Stars 188」 is in the points of the 10-22 item that updated the Kapitsa entry, and nowhere else."""
    _, later = _two_nights()
    placement = later["items"][0]["placement"]
    assert (placement["action"], placement["section"], placement["entry"]) == ("update_in_place", "1.1", "kapitsa")


def test_a_lead_under_the_entry_tonights_own_item_makes_hangs_there():
    """「②那条挂一行线索」 with no §: under the entry item ② opens tonight, in its section."""
    _, later = _two_nights()
    opened, lead = later["items"][1], later["items"][2]
    assert (opened["placement"]["action"], opened["placement"]["section"]) == ("new_sub_entry", "1.1")
    assert (lead["placement"]["action"], lead["placement"]["section"]) == ("mount_lead", "1.1")
    assert lead["placement"]["after"] == opened["id"]


def test_a_lead_under_an_item_that_makes_no_entry_is_not_placed_by_it():
    """「①那条」 names item ①, which only updates an entry: no entry of tonight's to hang under, so nothing is
    guessed (the lead keeps no section, and the editor is asked where)."""
    night = LUNAR_NIGHT.replace("［入库］②那条挂一行线索", "［入库］①那条挂一行线索")
    outline = shipped_outline()
    first = Brief.model_validate(_yaml(import_full(HANDED_ON, outline=outline, known_briefs=[FIRST]).text))
    later = _yaml(import_full(night, outline=outline, known_briefs=[FIRST, first]).text)
    assert "after" not in later["items"][2]["placement"] and not later["items"][2]["placement"].get("section")


def test_lunar_days_follow_from_the_key_the_header_gives():
    starts = lunar.month_starts("今天腊月初十（1 月 17 日），冬月廿八是 1 月 5 日。", dt.date(2027, 1, 17))
    assert lunar.resolve("腊月初一", starts) == dt.date(2027, 1, 8)
    assert lunar.resolve("腊月初五", starts) == dt.date(2027, 1, 12)
    assert lunar.resolve("冬月廿八", starts) == dt.date(2027, 1, 5)
    assert lunar.resolve("十二月初九", starts) == dt.date(2027, 1, 16)  # 十二月 is 腊月
    assert lunar.resolve("正月十五", starts) is None  # no key for that month: never guessed
    assert lunar.month_starts("腊月初十有雪。", dt.date(2027, 1, 17)) == {}  # a lunar day alone is no key


def test_a_re_judged_contradiction_takes_the_disposition_its_line_ends_on():
    """「出处已经不在了；之前记成暂挂观察……——结论：归丢弃级」: the line retells an earlier disposition and ends on
    tonight's (「已经」 there says how things stand, not that an earlier night changed it)."""
    night = SECOND_NIGHT.format(
        author="岑",
        two="""旧案：
- 10-21 矛盾 2（vLLM 版本口径）：维护者把那句删了，出处已经不在了；之前记成暂挂观察，等的是维护者回帖，现在没有要等的了。——结论：归丢弃级""",
        four="- 无。",
    )
    brief = _yaml(import_full(night, outline=shipped_outline(), known_briefs=[FIRST]).text)
    updates = [
        (u["contradiction"], u["change"], u.get("disposition")) for u in brief.get("contradiction_updates") or []
    ]
    assert updates == [("vllm-version-basis", "redisposed", "discarded")]


def test_a_line_headed_by_its_verb_retracts_what_follows_the_colon():
    """「退货，不换：10-21 条目 3 …」: the head before the colon says what happens to the item it names, comma and all."""
    night = SECOND_NIGHT.format(
        author="苒", two="无。", four="- 退货，不换：10-21 条目 3 那一行的出处撤了，活文档里拿掉。"
    )
    brief = _yaml(import_full(night, outline=shipped_outline(), known_briefs=[FIRST]).text)
    assert [(r["item"], r.get("superseded_by")) for r in brief.get("retractions") or []] == [
        ("modelexpress-weight-transfer", None)
    ]
