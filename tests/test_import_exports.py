"""Briefs saved by another tool as it is (issue 29): a Logseq outline and an Emacs Org file.  Both
carry the team's night in the tool's own layout, with field labels of the writer's own that no
wording lists; each must give the same items, fields, withheld claim and follow-ups as the plain
brief, and tell the editor how each label was read."""

from __future__ import annotations

from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full
from digest_plugin.authoring.importer.common import Line
from digest_plugin.authoring.importer.orgmode import from_org

URL = "https://docs.vllm.ai/en/latest/"
EXPECTED_ITEMS = [
    (1, "vLLM 分块预填充默认开启", ["high"], [URL], ["分块预填充默认开启", "发布说明写明"], "§3.1 尚无此项。", "3.1"),
    (2, "SGLang 分块默认值", ["medium"], [URL], ["分块默认 8192"], "§3.1 尚无此项。", "3.1"),
]
CLAIM = "默认开启后 ITL 无损"

LOGSEQ = f"""inference · E1 预消化简报（2026-10-22）

作者：Ana · E1 日间预消化轮（inference）· 2026-10-22 22:00

## ㊀ 增量（2）

- #增1 vLLM 分块预填充默认开启
  成色:: 高价值
  凭据:: {URL}
  没核到:: 已核查发布说明；未复现
  挂钩:: §3.1 尚无此项。
  去向:: §3.1 新增子条目。
  - 说了啥
    - 分块预填充默认开启
    - 发布说明写明
- #增2 SGLang 分块默认值
  成色:: 中等价值
  凭据:: {URL}
  没核到:: 已核查文档；未复现
  挂钩:: §3.1 尚无此项。
  去向:: §3.1 新增子条目。
  - 说了啥
    - 分块默认 8192

## ㊁ 矛盾与待核

- #疑1 ITL：没有测量，在修正前不要把「{CLAIM}」写进活文档。

## ㊂ arXiv

- 无。

## ㊃ 收口与跟进

- 两条都在 §3.1。

### 留给明天的 LATER

- LATER L1 〔洛〕复现 ITL
- LATER L2 〔Jay〕问维护者默认值
"""

ORG = f"""#+TITLE: inference · E1 预消化简报
#+AUTHOR: Ana
#+DATE: [2026-10-22 Thu 22:00]

* 增量（2）
** 1. vLLM 分块预填充默认开启
:PROPERTIES:
:VALUE: 高价值
:SOURCE: [[{URL}][vLLM 文档]]
:POINTS: 分块预填充默认开启；发布说明写明
:BOUNDARY: 已核查发布说明；未复现
:RELATION: §3.1 尚无此项。
:PLACE: §3.1 新增子条目。
:END:
** 2. SGLang 分块默认值
:PROPERTIES:
:VALUE: 中等价值
:SOURCE: {URL}
:POINTS: 分块默认 8192
:BOUNDARY: 已核查文档；未复现
:RELATION: §3.1 尚无此项。
:PLACE: §3.1 新增子条目。
:END:
* 矛盾与待核
- ITL：没有测量，在修正前不要把「{CLAIM}」写进活文档。
* arXiv
- 无。
* 结论与跟进
- 两条都在 §3.1。

留给明天：
1. 复现 ITL
2. 问维护者默认值
"""


def imported(markdown: str, name: str | None = None) -> tuple[dict, list[str]]:
    done = import_full(markdown, name=name)
    return YAML(typ="safe").load(done.text), [n.message for n in done.notes]


def items_of(brief: dict) -> list[tuple]:
    return [
        (
            i["number"],
            i["title"],
            i["value"],
            i["sources"].get("urls"),
            i["points"],
            i.get("relation"),
            i["placement"].get("section"),
        )
        for i in brief["items"]
    ]


def test_a_logseq_export_reads_like_the_plain_brief():
    brief, notes = imported(LOGSEQ)
    assert items_of(brief) == EXPECTED_ITEMS
    assert [i.get("mark") for i in brief["items"]] == ["#增1", "#增2"]  # the writer's numbering, kept
    assert [w["text"] for c in brief["contradictions"] for w in c.get("withheld", [])] == [CLAIM]
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [
        (1, "LATER 〔洛〕复现 ITL"),
        (2, "LATER 〔Jay〕问维护者默认值"),
    ]
    # the writer's labels, read by what they hold and by their place, each told to the editor
    for label, field in (("凭据", "来源"), ("没核到", "证据边界"), ("说了啥", "要点"), ("挂钩", "与活文档脉络的关系")):
        assert any(f"«{label}» is read as {field}" in n for n in notes), label
    assert brief["date"].isoformat() == "2026-10-22" and brief["author"] == "Ana"


def test_an_org_file_reads_like_the_plain_brief_and_takes_its_date_from_the_file_name():
    brief, notes = imported(ORG, name="2026-10-22-inference-E1")
    assert items_of(brief)[1] == EXPECTED_ITEMS[1]
    first = items_of(brief)[0]
    assert first[:4] == EXPECTED_ITEMS[0][:4] and first[5:] == EXPECTED_ITEMS[0][5:]
    assert first[4] == ["分块预填充默认开启；发布说明写明"]  # one line of points is one point, as in Markdown
    assert "vLLM 文档" in str(brief["items"][0].get("notes"))  # the link's text is kept, beside the link
    assert [w["text"] for c in brief["contradictions"] for w in c.get("withheld", [])] == [CLAIM]
    assert [(f["number"], f["text"]) for f in brief["follow_ups"]] == [(1, "复现 ITL"), (2, "问维护者默认值")]
    assert (brief["id"], brief["author"]) == ("2026-10-22-inference-E1", "Ana")
    assert any("read from the file's name «2026-10-22-inference-E1»" in n for n in notes)


def test_an_org_file_without_a_file_name_that_says_its_date_is_left_for_the_editor():
    brief, notes = imported(ORG, name="tonight")
    assert brief["id"] == "" and any("brief id needs the date" in n for n in notes)


def test_org_lines_become_markdown_lines_and_keep_their_numbers():
    lines = [
        Line(1, "#+TITLE: t"),
        Line(2, "#+TODO: TODO WAIT | DONE KILL"),
        Line(3, "** KILL ⑵ 去讨论区问配置 :ops:"),
        Line(4, ":PROPERTIES:"),
        Line(5, ":SOURCE: [[https://a.example/x]]"),
        Line(6, ":END:"),
        Line(7, "见 <2026-12-08 Tue 10:00> 的记录"),
        Line(8, "|---+---|"),
        Line(9, "* WAIT 结论"),
    ]
    assert [(x.number, x.text) for x in from_org(lines)] == [
        (1, "t"),
        (2, "#+TODO: TODO WAIT | DONE KILL"),
        (3, "## ⑵ KILL 去讨论区问配置"),
        (4, ""),
        (5, "**SOURCE**：https://a.example/x"),
        (6, ""),
        (7, "见 2026-12-08 10:00 的记录"),
        (8, "|---|---|"),
        (9, "# WAIT 结论"),
    ]


def test_markdown_with_star_bullets_is_no_org_file():
    lines = [Line(1, "* 一条要点"), Line(2, "** 加粗** 不是标题")]
    assert from_org(lines) == lines
