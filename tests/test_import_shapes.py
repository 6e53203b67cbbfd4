"""The skeleton of a brief read the same way in any hand (issue 29, part 4): parts, items and their
fields, and the follow-up list, each written the ways the team's writers write them.  One small
night, written here in each shape; every shape must give the same items, fields and follow-ups."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full

HEAD = """inference · E1 预消化简报（2026-10-22）

作者：Ana · E1 日间预消化轮（inference）· 2026-10-22 22:00

"""

FIELDS = {
    "来源": "https://docs.vllm.ai/en/latest/",
    "要点": "分块预填充默认开启",
    "证据边界": "已核查发布说明；未复现。",
    "与活文档脉络的关系": "§3.1 尚无此项。",
    "建议归入": "§3.1 新增子条目。",
}
SHORT = {"与活文档脉络的关系": "关系", "建议归入": "归入"}
TITLES = ["vLLM 分块预填充默认开启（高价值）", "SGLang 分块默认值（中等价值）"]


def _fields(style: str) -> str:
    if style == "lines":
        return "\n\n".join(f"{k}：{v}" for k, v in FIELDS.items())
    if style == "bullets":
        return "\n".join(f"- **{k}**：{v}" for k, v in FIELDS.items())
    if style == "brackets":
        return "\n".join(f"【{k}】{v}" for k, v in FIELDS.items())
    if style == "dashes":
        return "\n".join(f"{k} —— {v}" for k, v in FIELDS.items())
    if style == "definition list":  # Python-Markdown's def_list: the label, then 「: …」
        return "\n\n".join(f"{k}\n: {v}" for k, v in FIELDS.items())
    if style == "emoji, full-width space":
        marks = "📎📌🧱🔗📥"
        return "\n\n".join(f"{m} {k}\u3000{v}" for m, (k, v) in zip(marks, FIELDS.items(), strict=True))
    if style == "numbered, English":
        english = ["Source", "Points", "Evidence", "Relation", "Placement"]
        return "\n".join(f"{n}. {e} — {v}" for n, (e, v) in enumerate(zip(english, FIELDS.values(), strict=True), 1))
    if style == "one-character labels in brackets":  # unknown to the wordings: read by characters, then place
        short = ["[源]", "[点]", "[界]", "[联]", "[放]"]
        return "[值] 高价值\n" + "\n".join(f"{k} {v}" for k, v in zip(short, FIELDS.values(), strict=True))
    if style == "a form's spaced labels":  # 评　级, 出　处 … (关联 unknown: read by its place)
        spaced = ["出\u3000处", "要\u3000点", "边\u3000界", "关\u3000联", "落\u3000点"]
        values = list(FIELDS.values())
        values[1] = "\n\u3000\u3000① " + values[1]
        return "评\u3000级：高价值\n" + "\n".join(f"{k}：{v}" for k, v in zip(spaced, values, strict=True))
    if style == "blockquote, bold labels and a full-width space":  # labels the wordings do not know (证据到哪 …)
        own = ["出处", "摘要", "证据到哪", "与活文档", "落点"]
        return "\n>\n".join(f"> **{k}**\u3000{v}" for k, v in zip(own, FIELDS.values(), strict=True))
    if style == "key = value, labels no wording knows":  # read by what they hold, then by place; each asked
        own = ["from", "what", "checks", "ties", "goes"]
        values = list(FIELDS.values())
        values[1] = "\n  * " + values[1]
        lines = [f"{k} = {v}" if not v.startswith("\n") else f"{k} ={v}" for k, v in zip(own, values, strict=True)]
        return "rating = 高价值\n" + "\n".join(lines)
    if style == "table":
        rows = "\n".join(f"| {SHORT.get(k, k)} | {v} |" for k, v in FIELDS.items())
        return "| 字段 | 内容 |\n|---|---|\n" + rows
    raise AssertionError(style)


def night(parts: list[str], item_heading: str, fields: str, follow_ups: str) -> str:
    items = "\n\n".join(
        f"{item_heading.format(n=n, cn='一二'[n - 1], rn=['i', 'ii'][n - 1], t=t)}\n\n{_fields(fields)}"
        for n, t in enumerate(TITLES, 1)
    )
    return (
        HEAD
        + f"{parts[0]}\n\n{items}\n\n"
        + f"{parts[1]}\n\n  1. 「默认开启后 ITL 无损」：没有测量，在修正前不要把「默认开启后 ITL 无损」写进活文档。\n\n"
        + f"{parts[2]}\n\n无。\n\n"
        + f"{parts[3]}\n\n- 两条都在 §3.1。\n\n{follow_ups}\n"
    )


PARTS = {
    "plain": [
        "一、今日增量（2 条）",
        "二、值得警惕的矛盾与待核实说法",
        "三、可引用的 arXiv 号",
        "四、本轮结论与建议动作",
    ],
    "lenticular": ["【一】今日增量（2 条）", "【二】矛盾与待核实", "【三】arXiv 引用", "【四】结论与动作"],
    "markdown": ["## 一 / 增量（2）", "## 二 / 矛盾 & 待核", "## 三 / arXiv", "## 四 / 结论 & next"],
    "full-width space": ["一　今日增量（2 条）", "二　矛盾", "三　arXiv", "四　结论"],
    "financial numerals, setext": [
        "壹 · 新进展（2 条）\n==========",
        "贰 · 矛盾与待核\n==========",
        "叁 · arXiv\n==========",
        "肆 · 结论\n==========",
    ],
    "by position": ["## 1 ▸ Delta — 增量（2）", "## 2 ▸ Disputes", "## 3 ▸ Papers", "## 4 ▸ Wrap-up"],
}
ITEMS = {
    "条目 N": "条目 {n}：{t}",
    "bold （一）": "**（{cn}）{t}**",
    "#N heading": "### #{n} {t}",
    "第一条": "第{cn}条｜{t}",
    "▍条目 N": "▍条目 {n} {t}",
    "N of M": "#### {n}/2\u3000{t}",
    "letter and number": "**D{n} · {t}**",
    "No.N": "### No.{n}　{t}",
    "条 N, full-width space": "**条 {n}\u3000{t}**",
    "letter and number, full-width space": "### A{n}\u3000{t}",
    "第 N 项": "### 第 {n} 项 · {t}",
    "letter, hyphen and number": "### I-{n} · {t}",
    "lower-case Roman numeral": "### {rn}. {t}",
}
FOLLOW_UPS = {
    "bar, inline": "▍交给明天（1）复现 ITL；（2）问维护者默认值",
    "task list": "### TODO（→ 周一）\n- [ ] 1. 复现 ITL\n- [ ] 2. 问维护者默认值",
    "stems": "- 接下来：（甲）复现 ITL；（乙）问维护者默认值。",
    "task list with owners": "#### 看板（交周五）\n- [ ] 1 · @洛 · 复现 ITL\n- [ ] 2 · @Jay · 问维护者默认值",
    "其一 under a heading": "#### 移交（转周五）\n\n其一　复现 ITL\n其二　问维护者默认值",
    "⑴ under a bold line": "**留给明天的活**\n\n⑴ 复现 ITL\n⑵ 问维护者默认值",
    "letter and number, owner in brackets": "**交班单 · 周日**\n\nT1［洛］复现 ITL\nT2［Jay］问维护者默认值",
    "earthly branches, owner last": "### 托付周四\n\n子\u3000复现 ITL〔洛〕\n丑\u3000问维护者默认值〔Jay〕",
    "a table of its own": "### 交接表（→ 周二）\n\n| # | 事 | 谁 |\n|---|---|---|\n| 1 | 复现 ITL | 洛 |\n| 2 | 问维护者默认值 | Jay |",
    "circled letters under a 【】 line": "【烦请周五接手】\n\nⒶ 复现 ITL\nⒷ 问维护者默认值",
    "之一 under a heading": "#### 周五交钟\n\n之一　复现 ITL\n之二　问维护者默认值",
    "a symbol and the number, task boxes": "### ⏭ 周三 · 砚 接手\n- [ ] ⏭1 复现 ITL 👤 洛\n- [ ] ⏭2 问维护者默认值 👤 Jay",
    "Roman numerals inline": "下一轮：ⅰ 复现 ITL；ⅱ 问维护者默认值。",
    "letters in parentheses": "**交班单**\n\n⒜ 复现 ITL\n⒝ 问维护者默认值",
    "numbers with their stop, inline": "明天：1. 复现 ITL；2. 问维护者默认值。",
    "stems before a full-width space": "#### 交到 Leo 手上（周二）\n\n甲　复现 ITL\n乙　问维护者默认值",
    "capital letters under a line between dashes": "——周末值班单（交岚）——\nA. 复现 ITL\nB. 问维护者默认值",
    # shapes written here before the importer read them (2026-12-07): none of these four was read
    "a short line with no colon over 1、 2、": "跟进事项\n1、复现 ITL\n2、问维护者默认值",
    "part 五 of one word, unnumbered bullets": "五、跟进\n\n- 复现 ITL\n- 问维护者默认值",
    "bullets nested under a bullet with a colon": "- 后续：\n  - 复现 ITL\n  - 问维护者默认值",
    "unnumbered clauses after a follow-up word": "待跟进：复现 ITL；问维护者默认值。",
}


def imported(markdown: str) -> tuple[dict, list[str]]:
    done = import_full(markdown)
    return YAML(typ="safe").load(done.text), [n.message for n in done.notes]


def read_back(brief: dict) -> tuple:
    items = [
        (
            i["number"],
            i["title"].replace("**", ""),
            i["sources"].get("urls"),
            i["points"],
            i["relation"],
            i["placement"]["section"],
        )
        for i in brief["items"]
    ]
    follow_ups = [(f["number"], f["text"]) for f in brief.get("follow_ups", [])]
    withheld = [w["text"] for c in brief["contradictions"] for w in c.get("withheld", [])]
    return items, follow_ups, withheld


EXPECTED = (
    [
        (n, t, ["https://docs.vllm.ai/en/latest/"], ["分块预填充默认开启"], "§3.1 尚无此项。", "3.1")
        for n, t in enumerate(TITLES, 1)
    ],
    [(1, "复现 ITL"), (2, "问维护者默认值")],
    ["默认开启后 ITL 无损"],
)


@pytest.mark.parametrize("parts", PARTS)
@pytest.mark.parametrize("heading", ITEMS)
@pytest.mark.parametrize(
    "fields",
    [
        "lines",
        "bullets",
        "brackets",
        "dashes",
        "table",
        "definition list",
        "emoji, full-width space",
        "numbered, English",
        "one-character labels in brackets",
        "a form's spaced labels",
        "blockquote, bold labels and a full-width space",
        "key = value, labels no wording knows",
    ],
)
def test_parts_items_and_fields_written_any_known_way_read_the_same(parts, heading, fields):
    brief, notes = imported(night(PARTS[parts], ITEMS[heading], fields, FOLLOW_UPS["task list"]))
    assert read_back(brief) == EXPECTED
    assert not any("no item heading" in n for n in notes)  # found by a way the importer knows


@pytest.mark.parametrize("follow_ups", FOLLOW_UPS)
def test_a_follow_up_list_written_any_known_way_reads_the_same(follow_ups):
    brief, _ = imported(night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS[follow_ups]))
    owners = {  # kept as written
        "task list with owners": ["@洛 · ", "@Jay · "],
        "letter and number, owner in brackets": ["［洛］", "［Jay］"],
    }.get(follow_ups, ["", ""])
    after = {
        "earthly branches, owner last": ["〔洛〕", "〔Jay〕"],
        "a table of its own": [" · 洛", " · Jay"],
        "a symbol and the number, task boxes": [" 👤 洛", " 👤 Jay"],
    }.get(follow_ups, ["", ""])
    assert read_back(brief)[1] == [(n, owners[n - 1] + t + after[n - 1]) for n, t in EXPECTED[1]]


@pytest.mark.parametrize(
    "follow_ups",
    [
        "part 五 of one word, unnumbered bullets",
        "bullets nested under a bullet with a colon",
        "unnumbered clauses after a follow-up word",
    ],
)
def test_a_follow_up_list_read_by_a_guess_asks_the_editor_on_each_follow_up(follow_ups):
    """Nothing numbers these lists: reading them as tonight's follow-ups is a guess, and the YAML says so
    above each one (the list could be conclusions, or one follow-up of two clauses)."""
    done = import_full(night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS[follow_ups]))
    lines = done.text.splitlines()
    starts = [n for n, line in enumerate(lines) if line.strip().startswith('- id: "2026-10-22-e1-f')]
    assert len(starts) == 2
    for n in starts:
        above = lines[n - 1]
        assert above.lstrip().startswith("# digest-import:"), (follow_ups, lines[n - 2 : n + 1])


def test_a_counted_list_of_unnumbered_clauses_is_read_without_a_question():
    """「需 E2 跟进的两件事：…；…」: the heading counts two and the clauses are two, so nothing is guessed."""
    done = import_full(
        night(PARTS["plain"], ITEMS["条目 N"], "lines", "需 E2 跟进的两件事：复现 ITL；问维护者默认值。")
    )
    brief = YAML(typ="safe").load(done.text)
    assert [(f["number"], f["text"], f["round"]) for f in brief["follow_ups"]] == [
        (1, "复现 ITL", "E2"),
        (2, "问维护者默认值", "E2"),
    ]
    assert not any("numbers nothing" in n.message for n in done.notes)


def test_items_headed_in_an_unknown_way_are_found_by_their_fields_and_the_editor_is_told():
    brief, notes = imported(night(PARTS["plain"], "◆ {t}", "bullets", FOLLOW_UPS["task list"]))
    assert [(i["number"], i["title"]) for i in brief["items"]] == list(enumerate(TITLES, 1))
    assert any("no item heading this importer knows" in n for n in notes)


@pytest.mark.parametrize("heading", ["### {n}. {t}", "**{n}. {t}**", "### {t}"])
def test_a_markdown_heading_above_a_line_that_is_no_field_is_the_items_heading(heading):
    """「### 1. 标题」, then a line no field (a date, 「价值／高价值」 in a hand never seen), then the fields: the
    heading is the Markdown heading, not the line right above the first field (blind16's 01-09 in this shape
    gave every item its rating line as its title)."""
    markdown = night(PARTS["plain"], heading + "\n\n发布于 2026-10-22（周四）", "lines", FOLLOW_UPS["task list"])
    brief, _ = imported(markdown)
    assert [(i["number"], i["title"].replace("**", "")) for i in brief["items"]] == list(enumerate(TITLES, 1))
    assert all(any("2026-10-22（周四）" in n for n in i.get("notes") or []) for i in brief["items"])


UNKNOWN = ["链接", "摘记", "查到哪", "挂钩", "去向"]
"""Labels no wording knows, for the five fields in the format's order."""


@pytest.mark.parametrize("between", [" → ", " >> "])
def test_items_whose_headings_and_labels_are_both_unknown_are_the_parts_markdown_headings(between):
    """「### 1. 标题」 over 「链接 → …」 lines: neither the heading's spelling nor a label is known, so no field marks
    where an item starts; each Markdown heading of part 一 is an item (the editor is told), nothing of it lost."""
    fields = "\n".join(f"{k}{between}{v}" for k, v in zip(UNKNOWN, FIELDS.values(), strict=True))
    markdown = night(PARTS["plain"], "### {n}. {t}", "lines", FOLLOW_UPS["task list"])
    brief, notes = imported(markdown.replace(_fields("lines"), fields))
    assert [(i["number"], i["title"]) for i in brief["items"]] == list(enumerate(TITLES, 1))
    assert all("链接" in " ".join(i.get("notes") or []) or i.get("sources") for i in brief["items"])
    assert any("each Markdown heading of the part was read as an item's heading" in n for n in notes)


def test_labels_followed_by_a_colon_typed_on_an_english_keyboard_are_read_by_their_place():
    """「链接: …」 as 「链接：…」: the labels no wording knows are read by their place either way."""
    fields = "\n".join(f"{k}: {v}" for k, v in zip(UNKNOWN, FIELDS.values(), strict=True))
    markdown = night(PARTS["plain"], "### {n}. {t}", "lines", FOLLOW_UPS["task list"])
    brief, _ = imported(markdown.replace(_fields("lines"), fields))
    assert read_back(brief)[0] == EXPECTED[0]


def test_a_paragraph_whose_numbers_run_in_no_sequence_is_no_list():
    """「下一轮：3（含昨天的两件）件」: a 3 is no list's first entry; a paragraph like it crashed the
    importer on a night of blind5/ (2026-12-04)."""
    from digest_plugin.authoring.importer import lists

    assert lists.inline_lists("下一轮：3（含昨天的两件）件，先看 H100。", 1) == []
    brief, _ = imported(night(PARTS["plain"], ITEMS["条目 N"], "lines", "下一轮：3（含昨天的两件）件，先看 H100。"))
    assert brief.get("follow_ups") is None


def test_a_conclusion_that_recaps_tonights_items_by_number_opens_no_follow_up():
    """「六项：1 号 §5.2 …；2 号 …」 names tonight's items by their counter; it is no list of six new
    follow-ups (blind11/ 12-19 was read so, inventing six)."""
    from digest_plugin.authoring.importer import lists

    recap = "六项：1 号 §5.2 成本那条重算；2 号 §1.1 加一行；3 号只动书目；4 号 §3.1 加一行。"
    assert lists.inline_lists(recap, 1) == []
    brief, _ = imported(night(PARTS["plain"], ITEMS["条目 N"], "lines", recap))
    assert brief.get("follow_ups") is None
    assert any("1 号 §5.2" in c for c in brief["conclusions"])
    listed = lists.inline_lists("明天：1 复跑头阻塞；2 问 Google 价格栏。", 1)
    assert [e.text for e in listed[0].entries] == ["复跑头阻塞", "问 Google 价格栏"]


def test_an_inline_list_ends_with_its_sentence():
    """「…；2 问维护者——续挂。另有 11月4日 那件，这件划掉。」: the words after the list's sentence are about
    something else; the last entry's status is its own (carried over), not the next sentence's (blind2's
    11-14 read it as dropped)."""
    from digest_plugin.authoring.importer import lists

    (listed,) = lists.inline_lists("昨晚的两件：1 复现 ITL——完成；2 问维护者——续挂。另有 11月4日 那件，这件划掉。", 1)
    assert [e.text for e in listed.entries] == ["复现 ITL——完成", "问维护者——续挂"]


def test_contradictions_in_a_nested_list_are_each_read_and_their_claims_withheld():
    """Part 二 as a list of groups (「- 新的」 over 「  - 甲 …」): each item is a paragraph of its own, so
    a new contradiction in a group is read by its place and its claim withheld.  Before, the whole
    list became one note and the claim was published with no mark."""
    markdown = (
        HEAD
        + f"{PARTS['plain'][0]}\n\n条目 1：{TITLES[0]}\n\n{_fields('lines')}\n\n"
        + f"{PARTS['plain'][1]}\n\n"
        + "- 新的\n"
        + "  - 甲　ITL 口径：博客说「默认开启后 ITL 无损」，没有测量；同机复测之前「默认开启后 ITL 无损」§3.1 暂时不碰。\n"
        + "- 以前的\n"
        + "  - 10-21 矛盾 1：照旧。\n\n"
        + f"{PARTS['plain'][2]}\n\n无。\n\n{PARTS['plain'][3]}\n\n- 一条，在 §3.1。\n"
    )
    brief, notes = imported(markdown)
    assert [[w["text"] for w in c.get("withheld", [])] for c in brief["contradictions"]] == [["默认开启后 ITL 无损"]]
    assert any("read as 矛盾 1" in n for n in notes), notes


def test_a_hold_after_its_section_withholds_the_quoted_claim_even_beside_what_is_left_to_check():
    """「…待核实；「X」§5.2 先压着」: a ban in words no wording lists, said right after its section;
    the claim is withheld until the editor answers (asked), not published as a pending check."""
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["stems"]).replace(
        "1. 「默认开启后 ITL 无损」：没有测量，在修正前不要把「默认开启后 ITL 无损」写进活文档。",
        "1. ITL 口径：厂商称「吞吐提升 3 倍」，待核实；「吞吐提升 3 倍」§5.2 先压着。",
    )
    brief, _ = imported(markdown)
    assert [w["text"] for c in brief["contradictions"] for w in c.get("withheld", [])] == ["吞吐提升 3 倍"]
    assert "digest-import: [" in import_full(markdown).text  # a question for the editor, not a silent reading


def test_a_contradiction_labelled_in_the_writers_own_word_is_tonights_and_its_claim_withheld():
    """「疑点 1　…」 opening a paragraph of part 二, with no night before it, is tonight's own label, not a
    report on an earlier 疑点 1: the paragraph is read as a new contradiction and its claim withheld
    (read as a reference to an earlier night, the paragraph would go to the note and its claim be
    published, as it was on the way to reading 「23/11 疑点 1」 as a reference)."""
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["stems"]).replace(
        "  1. 「默认开启后 ITL 无损」：没有测量，在修正前不要把「默认开启后 ITL 无损」写进活文档。",
        "疑点 1　ITL 口径：厂商称「吞吐提升 3 倍」，没有测量；同机复测之前「吞吐提升 3 倍」§5.2 冻结此句。",
    )
    brief, _ = imported(markdown)
    assert [w["text"] for c in brief["contradictions"] for w in c.get("withheld", [])] == ["吞吐提升 3 倍"]


def _one_item_night(items: str) -> str:
    return (
        HEAD
        + f"## 增量（2）\n\n{items}\n\n## 矛盾\n\n无。\n\n## arXiv\n\n无。\n\n## 收尾\n\n- 两条都在 §3.1。\n\n"
        + FOLLOW_UPS["task list"]
        + "\n"
    )


def test_items_written_as_the_rows_of_one_table_are_read_cell_by_cell():
    table = (
        "| 条 | 标题 | 价值 | 出处 | 要点 | 边界 | 与活文档 | 落点 |\n"
        "|---|---|---|---|---|---|---|---|\n"
        "| 1 | vLLM 分块预填充默认开启 | 高价值 | https://docs.vllm.ai/en/latest/ | ① 默认开启 ② 阈值 2048 |"
        " 已核查发布说明；未复现。 | §3.1 尚无此项。 | §3.1 新增子条目。 |\n"
        "| 2 | SGLang 分块默认值 |  | https://docs.sglang.ai/ | ① 默认 8192 | 已核查文档；未复现。 |"
        " §3.1 只写了 vLLM。 | §3.1 新增子条目。 |"
    )
    brief, notes = imported(_one_item_night(table))
    got = [
        (
            i["number"],
            i["title"],
            i["value"],
            i["sources"]["urls"],
            i["points"],
            i["relation"],
            i["placement"]["section"],
        )
        for i in brief["items"]
    ]
    assert got == [
        (
            1,
            "vLLM 分块预填充默认开启",
            ["high"],
            ["https://docs.vllm.ai/en/latest/"],
            ["默认开启", "阈值 2048"],
            "§3.1 尚无此项。",
            "3.1",
        ),
        (2, "SGLang 分块默认值", [], ["https://docs.sglang.ai/"], ["默认 8192"], "§3.1 只写了 vLLM。", "3.1"),
    ]  # the empty 价值 cell is no rating (shown as 未评级), not a word made up
    assert any("«与活文档» is read as 与活文档脉络的关系" in n for n in notes)  # the editor is told the reading


def test_an_item_written_as_one_paragraph_of_run_in_labels_of_the_writers_own_is_read_field_by_field():
    paragraph = (
        "**分量**：高价值。**出处**：https://docs.vllm.ai/en/latest/。**看到的**：一是默认开启；二是阈值 2048。"
        "**没看到的**：已核查发布说明；未复现。**牵连**：§3.1 尚无此项。**落脚**：§3.1 新增子条目。"
    )
    brief, notes = imported(_one_item_night(f"### A1\u3000vLLM 分块预填充默认开启\n\n{paragraph}"))
    (item,) = brief["items"]
    assert (item["number"], item["title"], item["value"]) == (1, "vLLM 分块预填充默认开启", ["high"])
    assert item["sources"]["urls"] == ["https://docs.vllm.ai/en/latest/"]
    assert item["points"] == ["默认开启", "阈值 2048。"]
    assert item["evidence"]["boundary"] == "已核查发布说明；未复现。"
    assert (item["relation"], item["placement"]["section"]) == ("§3.1 尚无此项。", "3.1")
    for label, field in (
        ("看到的", "要点"),
        ("没看到的", "证据边界"),
        ("牵连", "与活文档脉络的关系"),
        ("落脚", "建议归入"),
    ):
        assert any(f"«{label}» is read as {field} by" in n for n in notes), label  # its place, or what it holds


def test_a_paragraph_that_bolds_a_word_or_two_is_not_cut_into_fields():
    prose = "来源：https://docs.vllm.ai/en/latest/\n\n要点：默认开启，**阈值**：2048，**上限**：8192\n\n证据边界：已核查发布说明；未复现。\n\n"
    prose += "关系：§3.1 尚无此项。\n\n建议归入：§3.1 新增子条目。"
    brief, _ = imported(_one_item_night(f"条目 1：vLLM 分块预填充默认开启\n\n{prose}"))
    assert brief["items"][0]["points"] == ["默认开启，**阈值**：2048，**上限**：8192"]


def test_new_words_of_a_boundary_written_the_teams_way_are_proposed_not_lost():
    """「工单回复」 (a kind of source: its last word is a source noun), 「不可公开引用」 (what may not be done
    with it) and 「身份未核验」 (a thing and what was not checked) are proposed as words (issue 29, item 11)."""
    boundary = "工单回复，客服个人回信，不可公开引用；身份未核验；未复现。"
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace(
        "已核查发布说明；未复现。", boundary
    )
    _, notes = imported(markdown)
    proposed = {n.split("«")[1].split("»")[0] for n in notes if n.startswith("new word")}
    assert {"工单回复", "不可公开引用", "身份未核验"} <= proposed


@pytest.mark.parametrize("rating", ["〈高价值〉 ", "[高价值] ", "【高价值】", "<高价值>"])
def test_a_rating_in_brackets_before_the_title_is_the_items_rating(rating):
    markdown = night(PARTS["plain"], "条目 {n}：" + rating + "{t}", "lines", FOLLOW_UPS["task list"])
    brief, _ = imported(markdown.replace("（高价值）", "").replace("（中等价值）", ""))
    assert [i["value"] for i in brief["items"]] == [["high"], ["high"]]


@pytest.mark.parametrize("after", ["｜高价值", " · 高价值", " | 高价值"])
def test_a_rating_set_apart_after_the_title_is_the_items_rating(after):
    """「### 第一条｜title｜高价值」 (blind11's 乔): a full-width bar needs no space before the rating."""
    markdown = night(PARTS["plain"], "条目 {n}：{t}" + after, "lines", FOLLOW_UPS["task list"])
    brief, _ = imported(markdown.replace("（高价值）", "").replace("（中等价值）", ""))
    assert [i["value"] for i in brief["items"]] == [["high"], ["high"]]


def test_a_bracketed_word_before_the_title_that_is_no_rating_is_no_rating():
    brief, _ = imported(night(PARTS["plain"], "条目 {n}：【更正】{t}", "lines", FOLLOW_UPS["task list"]))
    assert brief["items"][0]["value"] == ["high"]  # from the title's end, not from 【更正】
    plain = night(PARTS["plain"], "条目 {n}：【更正】{t}", "lines", FOLLOW_UPS["task list"]).replace("（高价值）", "")
    brief, notes = imported(plain)
    assert brief["items"][0]["value"] == [] and any("条目 1: no value rating" in n for n in notes)


def test_a_source_kind_of_two_latin_words_joined_with_a_plus_is_proposed():
    """「发布说明（项目文档）+ GitHub issue 关闭说明」: the second source, 「GitHub issue」, is a kind the vocabulary
    lacks (its last word a source noun): proposed, not lost."""
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace(
        "证据边界：已核查发布说明；未复现。", "证据边界：发布说明（项目文档）+ GitHub issue 关闭说明；未复现。"
    )
    done = import_full(markdown)
    assert "GitHub issue" in done.new_words.get("source_kinds", {}).values()


def test_labels_no_wording_knows_are_read_and_each_reading_is_put_to_the_editor():
    """「from = …」, 「what =」 over bullets, 「checks = …」, 「ties = …」, 「goes = …」 (a key = value layout, blind10's
    Leo): the fields are read by what they hold and where they stand, the rating line is the value, and the
    editor is told each reading with the one-line vocabulary edit that makes it known."""
    brief, notes = imported(night(PARTS["plain"], ITEMS["条目 N"], "key = value, labels no wording knows", ""))
    assert brief["items"][0]["value"] == ["high"]
    for label, field in (("from", "来源"), ("what", "要点"), ("checks", "证据边界"), ("ties", "与活文档脉络的关系")):
        assert any(f"the label «{label}» is read as {field}" in n for n in notes), (label, notes)


def test_an_equals_sign_inside_a_field_is_no_label():
    """Only a part whose items are written key = value reads 「x = y」 as a label: 「TP=4」 or one 「bs = 8」 line in
    a point stays text."""
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace(
        "分块预填充默认开启", "分块预填充默认开启\nbs = 8，TP=4"
    )
    brief, notes = imported(markdown)
    assert not any("the label «bs»" in n for n in notes)
    assert brief["items"][0]["points"] == ["分块预填充默认开启 bs = 8，TP=4"] or "bs = 8" in str(brief["items"][0])


def test_a_contradiction_headed_by_a_tag_of_its_own_holds_the_paragraphs_under_it():
    """「## 疑 1 · title」 (or an Org headline 「** OPEN 疑 1 · title」) with its ban in the paragraphs below: one
    contradiction, number 1, its claim withheld; a paragraph that starts with a version (「0.5.1 里程碑页…」) is
    never a contradiction numbered 0."""
    body = (
        "0.5.1 里程碑页改了描述：「ITL 开销降到 0.5% 以下」。配置出来之前，「LMCache 0.5.1 让 ITL 开销降到 0.5% 以下」"
        "不要写进活文档。"
    )
    for heading in (
        "## 疑 1 · LMCache 0.5.1 的开销",
        "### C-1 · LMCache 0.5.1 的开销",
        "### 矛盾 1：LMCache 0.5.1 的开销",
    ):
        markdown = night(PARTS["markdown"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"])
        before, _, after = markdown.partition("## 二 / 矛盾 & 待核\n\n")
        rest = after.split("\n\n", 1)[1]
        brief, _ = imported(f"{before}## 二 / 矛盾 & 待核\n\n{heading}\n\n{body}\n\n{rest}")
        (c,) = brief["contradictions"]
        assert c["number"] == 1, heading
        assert (c["title"], c["text"]) == ("LMCache 0.5.1 的开销", body), heading  # the heading is the title
        withheld = [w["text"] for w in c.get("withheld", [])]
        assert "LMCache 0.5.1 让 ITL 开销降到 0.5% 以下" in withheld, (heading, c)


def test_a_list_headed_by_the_night_befores_writer_reports_on_that_nights_follow_ups():
    """「乔的（甲）–（丁）：」 the night after 乔 wrote: what became of his list, not four new follow-ups; the new
    list is the one under its own heading (blind10's Leo).  The reading is put to the editor."""
    from digest_plugin.core.model import Brief

    first = YAML(typ="safe").load(
        import_full(night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"])).text
    )
    first["author"] = "乔"
    earlier = Brief.model_validate(first)
    markdown = night(
        PARTS["plain"],
        ITEMS["条目 N"],
        "lines",
        "- 乔的（甲）–（乙）：\n  * （甲）复现 ITL — 做完了\n  * （乙）问维护者默认值 — 明天再说\n\n"
        "#### hand-off ▸ Wed\n\n- R1 看 p99\n- R2 问配置",
    ).replace("2026-10-22", "2026-10-23")
    done = import_full(markdown, known_briefs=[earlier])
    brief = YAML(typ="safe").load(done.text)
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [(1, "看 p99"), (2, "问配置")]
    assert any("names 乔, who wrote 10-22" in n.message for n in done.notes)


@pytest.mark.parametrize(
    "report",
    [
        "珩留的两件：T1（复现）机器明天才到，往下传；T2（默认值）合了，告一段落。下一轮：ⅰ 看 p99；ⅱ 问配置。",
        "### 昨天珩交下的 ⒜ ⒝\n\n| 编号 | 状态 | 说明 |\n|---|---|---|\n| ⒜ | 仍打开 | 机器明天才到 |\n"
        "| ⒝ | 已合入 | 维护者答了 |\n\n#### 请周日接续\n\n- T1 看 p99\n\n- T2 问配置",
        "· 珩 留的两件：\n  · 〔续上〕ⅰ 复现——机器明天才到\n  · 〔收讫〕ⅱ 默认值——维护者答了\n\n"
        "#### 交到 Leo 手上（周二）\n\n甲　看 p99\n乙　问配置",
    ],
    ids=[
        "tags inline, Roman numerals after",
        "a table of statuses, a list of task lines",
        "a nested list whose tags say the status, stems after",
    ],
)
def test_what_became_of_the_night_befores_list_is_read_in_a_paragraph_or_a_table(report):
    """朔 reports on 珩's T1 T2 in one paragraph, then opens ⅰ ⅱ; 珩 reports on 钟's ⒜ ⒝ in a table whose
    status column borrows pull-request words; 乔 tags each of 朔's ⅰ ⅱ with a status word in 〔〕, then opens
    甲 乙 (blind11/).  Each earlier follow-up gets the status its words
    say, and only the list after is tonight's."""
    from digest_plugin.core.model import Brief

    first = YAML(typ="safe").load(
        import_full(night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"])).text
    )
    first["author"] = "珩"
    earlier = Brief.model_validate(first)
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", report).replace("2026-10-22", "2026-10-23")
    brief = YAML(typ="safe").load(import_full(markdown, known_briefs=[earlier]).text)
    ids = [f.id for f in earlier.follow_ups]
    assert {u["follow_up"]: u["status"] for u in brief["follow_up_updates"]} == {
        ids[0]: "carried_over",
        ids[1]: "done",
    }
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [(1, "看 p99"), (2, "问配置")]


def test_earlier_follow_ups_quoted_and_answered_below_each_quote_get_the_answers_status():
    """「> 1. 复现 ITL」 then 「办妥，…」 (blind10's 蘅): the writer quotes each of the night before's follow-ups
    and answers under it.  The answer's word is the status (done, carried over, dropped); a quote with no
    status word under it is left to the editor's question; the list that restates a carried one gives it
    its number instead of opening it again."""
    from digest_plugin.core.model import Brief

    first = YAML(typ="safe").load(
        import_full(
            night(
                PARTS["plain"],
                ITEMS["条目 N"],
                "lines",
                "### 明日待办\n- [ ] 1. 复现长 prefill 冻结\n"
                "- [ ] 2. 问维护者 chunk 默认值\n- [ ] 3. 跑一遍 H100 上的 p99 对照\n- [ ] 4. 核对 TCO 表的三年价",
            )
        ).text
    )
    earlier = Brief.model_validate(first)
    answers = (
        "昨天的四件，我在原文下面回：\n\n> 1. 复现长 prefill 冻结\n\n办妥，见条目 1。\n\n"
        "> 2. 问维护者 chunk 默认值\n\n维护者说下个版本再定，免办。\n\n"
        "> 3. 跑一遍 H100 上的 p99 对照\n\n机器明天才空出来，留待周五（Ⓐ）。\n\n"
        "> 4. 核对 TCO 表的三年价\n\n还在看。\n\n"
        "【烦请周五接手】\n\nⒶ 跑一遍 H100 上的 p99 对照\nⒷ 问 Google 要价格栏\nⒸ 新增：H100 上的 p99 对照跑完后再看 p50"
    )
    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", answers).replace("2026-10-22", "2026-10-23")
    done = import_full(markdown, known_briefs=[earlier])
    brief = YAML(typ="safe").load(done.text)
    updates = {u["follow_up"]: (u["status"], u.get("number")) for u in brief["follow_up_updates"]}
    ids = [f.id for f in earlier.follow_ups]
    assert updates == {ids[0]: ("done", None), ids[1]: ("dropped", None), ids[2]: ("carried_over", 1)}
    # The night after says nothing of what this night handed on, restated (Ⓐ, carried) or new (Ⓑ): each is asked.
    third = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace("2026-10-22", "2026-10-24")
    silent = import_full(third, known_briefs=[earlier, Brief.model_validate(brief)])
    handed = [ids[2], *(f["id"] for f in brief["follow_ups"])]
    for fid in handed:
        assert any(fid in n.message and "was handed to tonight" in n.message for n in silent.notes), fid
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (2, "问 Google 要价格栏"),
        (3, "H100 上的 p99 对照跑完后再看 p50"),  # 新增: new, whatever carried follow-up it shares words with
    ]
    assert any(ids[3] in n.message and "no status of it was read" in n.message for n in done.notes)


def test_tags_before_a_colon_heading_the_source_and_the_boundary_are_proposed_as_words():
    """「来源：CI 日志：…」 over 「证据边界：CI 日志，产物已过期：…」 (blind10's Leo): the writer tags the kind of
    source and the gap before a colon; both new words are proposed (issue 29, item 11), and the kind is the
    item's.  A boundary opening 「注意：」 is no such tag list and proposes nothing."""
    tagged = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace(
        "来源：https://docs.vllm.ai/en/latest/",
        "来源：CI 日志：nightly job run #8841 · https://github.com/vllm-project/vllm/actions/runs/1",
    )
    done = import_full(
        tagged.replace("证据边界：已核查发布说明；未复现。", "证据边界：CI 日志，产物已过期：artifact 已清；未复现。")
    )
    assert "CI 日志" in done.new_words.get("source_kinds", {}).values()
    assert "产物已过期" in done.new_words.get("gaps", {}).values()
    item = YAML(typ="safe").load(done.text)["items"][0]
    assert [done.new_words["source_kinds"].get(k) for k in item["evidence"]["source_kinds"]] == ["CI 日志"]
    plain = import_full(tagged.replace("证据边界：已核查发布说明；未复现。", "证据边界：注意：artifact 已清；未复现。"))
    assert "注意" not in plain.new_words.get("gaps", {}).values()
    assert "注意" not in plain.new_words.get("source_kinds", {}).values()


def test_a_kind_named_by_both_the_source_gloss_and_the_boundary_is_proposed():
    """「来源：…（基准榜单，ServeBench 11 月快照）」 over 「证据边界：基准榜单，各行由提交方自报；…」 (blind2's 岚),
    or a bracketed gloss headed 「（会议海报：…）」 over 「证据边界：会议海报，仅口头交流：…」 (blind8's 乔): the
    source line and the boundary name the same kind, so it is proposed (issue 29, item 11); a boundary
    opening with a phrase its source line does not name proposes no kind."""
    base = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"])
    glossed = base.replace(
        "来源：https://docs.vllm.ai/en/latest/", "来源：https://servebench.org/lb（基准榜单，ServeBench 11 月快照）"
    )
    done = import_full(
        glossed.replace("证据边界：已核查发布说明；未复现。", "证据边界：基准榜单，各行由提交方自报；未复现。")
    )
    assert "基准榜单" in done.new_words.get("source_kinds", {}).values()
    item = YAML(typ="safe").load(done.text)["items"][0]
    assert "基准榜单" in [done.new_words["source_kinds"].get(k) for k in item["evidence"]["source_kinds"]]
    poster = base.replace(
        "来源：https://docs.vllm.ai/en/latest/", "来源：notes/poster.md 第 3 节（会议海报：workshop 海报区，我的手记）"
    ).replace("证据边界：已核查发布说明；未复现。", "证据边界：会议海报，仅口头交流：作者当面说的；未复现。")
    done = import_full(poster)
    assert "会议海报" in done.new_words.get("source_kinds", {}).values()
    assert "仅口头交流" in done.new_words.get("gaps", {}).values()
    unglossed = import_full(
        base.replace("证据边界：已核查发布说明；未复现。", "证据边界：基准榜单，各行由提交方自报；未复现。")
    )
    assert "基准榜单" not in unglossed.new_words.get("source_kinds", {}).values()
    # named inside the gloss, not at its head (blind2's 岚: 「（Jay 转存的 llm-d 频道 Slack 消息，11/14）」)
    inside = base.replace(
        "来源：https://docs.vllm.ai/en/latest/",
        "来源：inbox/jay/slack.md（Jay 转存的 llm-d 频道 Slack 消息，11/14 22:05）",
    ).replace("证据边界：已核查发布说明；未复现。", "证据边界：Slack 消息，Jay 复制下来的文字；未复现。")
    assert "Slack 消息" in import_full(inside).new_words.get("source_kinds", {}).values()


def _leo_night() -> tuple:
    """A night by Leo (10-22) whose two contradictions are headed 「C-1 ·」 and 「C-2 ·」."""
    from digest_plugin.core.model import Brief

    markdown = night(PARTS["plain"], ITEMS["条目 N"], "lines", FOLLOW_UPS["task list"]).replace(
        "  1. 「默认开启后 ITL 无损」：没有测量，在修正前不要把「默认开启后 ITL 无损」写进活文档。",
        "C-1 · scorer 的数：没有配置，在修正前不要把「scorer v2 让 TTFT 降 25%」写进活文档。\n\n"
        "C-2 · 回写的开销：没有机器，在修正前不要把「回写开销低于 0.5%」写进活文档。",
    )
    first = YAML(typ="safe").load(import_full(markdown).text)
    first["author"] = "Leo"
    assert [c.get("mark") for c in first["contradictions"]] == ["C-1", "C-2"]
    return Brief.model_validate(first), markdown


def test_a_contradiction_named_by_its_writers_tag_and_a_sub_list_of_statuses_are_read_line_by_line():
    """The next night names Leo's contradictions by his tags (「周二（22 日）Leo 那封 C-1」), one 「∙」 line each,
    each status in brackets at the line's end: C-1 is settled, and C-2 stays withheld — the 【成立】 ending the
    line above is not read as C-2's (blind10's 蘅; that misreading would publish C-2's claim)."""
    earlier, markdown = _leo_night()
    statuses = (
        "★ 新开 1　TCO 的比例：厂商自述，在修正前不要把「v6e 每 token 成本是 H100 的 40%」写进活文档。\n\n"
        "上期遗留：\n"
        "  ∙ 昨天（22 日）Leo 那封 C-1（scorer 的数）：基准文档补了配置，一手出处到了；§3.2 照写。【成立】\n"
        "  ∙ 昨天（22 日）Leo 那封 C-2（回写的开销）：维护者说配置 1 月中旬才出。【未变】"
    )
    later = markdown.replace("2026-10-22", "2026-10-23").replace(
        "C-1 · scorer 的数：没有配置，在修正前不要把「scorer v2 让 TTFT 降 25%」写进活文档。\n\n"
        "C-2 · 回写的开销：没有机器，在修正前不要把「回写开销低于 0.5%」写进活文档。",
        statuses,
    )
    brief = YAML(typ="safe").load(import_full(later, known_briefs=[earlier]).text)
    updates = {u["contradiction"]: u for u in brief.get("contradiction_updates") or []}
    first, second = (c.id for c in earlier.contradictions)
    assert updates[first]["change"] == "resolved", updates
    assert second not in updates or updates[second]["change"] not in ("resolved", "superseded"), updates


def test_a_bracketed_recap_after_a_contradiction_does_not_decide_tonights_change():
    """「23/11 疑点 1（…，26/11 改列暂挂）纠正：「转为 GA」→「仍为 preview」」 (blind3's 岚): the bracket retells
    what an earlier night did (put it on hold); the word after it says what tonight does (corrects it,
    or puts on hold what an earlier night had corrected once) (issue 29)."""
    earlier, markdown = _leo_night()
    first = earlier.contradictions[0].id

    def updates(statuses: str) -> dict:
        later = markdown.replace("2026-10-22", "2026-10-23").replace(
            "C-1 · scorer 的数：没有配置，在修正前不要把「scorer v2 让 TTFT 降 25%」写进活文档。\n\n"
            "C-2 · 回写的开销：没有机器，在修正前不要把「回写开销低于 0.5%」写进活文档。",
            "★ 新开 1　TCO 的比例：厂商自述，在修正前不要把「v6e 每 token 成本是 H100 的 40%」写进活文档。\n\n"
            + statuses,
        )
        brief = YAML(typ="safe").load(import_full(later, known_briefs=[earlier]).text)
        return {u["contradiction"]: u for u in brief.get("contradiction_updates") or []}

    held = updates("旧疑点：\n- 昨天 Leo 那封 C-1（scorer 的数，前天校正过一回）改判暂挂观察：等维护者补配置。\n")
    assert held[first]["change"] == "redisposed", held
    fixed = updates(
        "旧疑点：\n- 昨天 Leo 那封 C-1（scorer 的数，前天改列暂挂观察）纠正：「TTFT 降 25%」→「TTFT 降 12%」。见条目 1。\n"
    )
    assert (fixed[first]["change"], fixed[first].get("outcome")) == ("resolved", "corrected"), fixed
    assert [(c["old"], c["new"]) for c in fixed[first]["corrections"]] == [("TTFT 降 25%", "TTFT 降 12%")]
