"""What a new writer's brief points at, read or not (issue 29, "safe when unsure").

A second night is written on top of the shipped 10-21 brief in words the vocabulary does not have:
a status sub-list in 二 whose verb is unknown, a change in 四 under a head the importer has never
seen, a new contradiction numbered ❶ that quotes its claim with “…” and bans it in new words, and
nothing at all about two of the follow-ups 10-21 handed over.  Nothing of it may pass silently:
every pointer that led to no decision is marked for the editor, by the name a reader uses, and the
new contradiction's claim is withheld until the editor answers.
"""

from __future__ import annotations

from helpers import SECOND_NIGHT, shipped_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import MARK, import_full
from digest_plugin.core.model import Brief

FIRST = shipped_brief()
NIGHT = SECOND_NIGHT.format(
    author="新人",
    two="""❶ 新基准的比值：博客说 “v6e 每美元快 1.3 倍”，配置没贴，这句先关在门外。

旧案：
- 10-21 矛盾 2（vLLM 版本口径）：维护者回帖了，口径两边都对，挂起。""",
    four="""- 改写：10-21 条目 3 的「NIXL/RDMA」→「NIXL over RDMA」。
- 10-21 跟进 ② 读完了，见条目 1。""",
)


def _imported() -> tuple[str, dict, list[str]]:
    done = import_full(NIGHT, known_briefs=[FIRST])
    return done.text, YAML(typ="safe").load(done.text), [n.message for n in done.notes]


def _marks(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if MARK in line]


def test_an_earlier_contradiction_named_with_an_unknown_verb_is_asked_about_by_its_name():
    text, brief, _ = _imported()
    assert not brief.get("contradiction_updates")  # the safe reading: nothing changes
    asked = [m for m in _marks(text) if "10-21 矛盾 2" in m]
    assert len(asked) == 1 and "vllm-version-basis" in asked[0] and "no change of it was read" in asked[0]


def test_a_change_under_an_unknown_head_is_asked_about_by_the_item_it_names():
    text, brief, _ = _imported()
    assert not brief.get("errata") and not brief.get("retractions")
    asked = [m for m in _marks(text) if "modelexpress-weight-transfer" in m]
    assert len(asked) == 1 and "10-21 条目 3" in asked[0] and "改写" in asked[0]


def test_every_follow_up_handed_over_and_not_read_is_asked_about():
    text, brief, _ = _imported()
    marks = _marks(text)
    for number, ident in ((1, "vllm-long-prefill-issue"), (3, "modelexpress-dynamo-relation")):
        assert any(f"10-21 跟进 {number}" in m and ident in m for m in marks), (number, marks)
    read = {u["follow_up"]: u["status"] for u in brief.get("follow_up_updates") or []}
    # ② is named in 四 with words that say no status the vocabulary knows: asked, not read as done
    assert read.get("recsys-vol178-anchors") is None
    assert any("10-21 跟进 2" in m and "recsys-vol178-anchors" in m for m in marks)


def test_a_contradiction_numbered_and_quoted_another_way_withholds_its_claim_until_answered():
    _text, brief, notes = _imported()
    [new] = brief["contradictions"]
    assert new["number"] == 1 and new["title"] == "新基准的比值"
    assert [w["text"] for w in new["withheld"]] == ["v6e 每美元快 1.3 倍"]
    assert [q["at"] for q in brief["questions"]] == ["contradictions[0]"]
    assert any("question: 矛盾 1 在修正前不许写进活文档的是哪句？" in n for n in notes)


UNTIL = SECOND_NIGHT.format(
    author="新人",
    two="""❶ Ironwood 的成本说法：博客原文「Ironwood delivers up to 45% lower cost per million tokens than Trillium」，\
「up to」两个字没给负载，价目页仍是「TBA」。官方价目页改出来之前，「Ironwood 每百万 token 成本比 v6e 低 45%」§5.2 按兵不动。""",
    four="- 10-21 跟进：① 顺延；② 已完成；③ 顺延。",
)


def test_a_claim_quoted_right_after_the_condition_it_waits_for_is_withheld_without_a_question():
    """The ban in words no vocabulary has (「按兵不动」), but in the team's shape: the condition
    (「…之前，」), then the claim.  The claim and the source's own sentence of it are withheld; the
    terms quoted as context (「up to」, 「TBA」) are not (withheld, they would be masked site-wide)."""
    done = import_full(UNTIL, known_briefs=[FIRST])
    brief = YAML(typ="safe").load(done.text)
    [new] = brief["contradictions"]
    assert [w["text"] for w in new["withheld"]] == [
        "Ironwood 每百万 token 成本比 v6e 低 45%",
        "Ironwood delivers up to 45% lower cost per million tokens than Trillium",
    ]
    assert new["disposition"] == "blocked"
    assert not brief.get("questions")
    assert not [m for m in _marks(done.text) if "矛盾 1" in m]


def test_a_condition_with_no_claim_after_it_is_still_asked_about():
    night = UNTIL.replace(
        "官方价目页改出来之前，「Ironwood 每百万 token 成本比 v6e 低 45%」§5.2 按兵不动。", "§5.2 按兵不动。"
    )
    done = import_full(night, known_briefs=[FIRST])
    brief = YAML(typ="safe").load(done.text)
    assert [q["at"] for q in brief["questions"]] == ["contradictions[0]"]


def test_a_night_that_reads_everything_gets_no_such_mark():
    """The same night with the team's own words: each pointer leads to a decision, nothing is asked."""
    night = (
        NIGHT.replace("维护者回帖了，口径两边都对，挂起", "维持，没有新材料")
        .replace("- 改写：10-21 条目 3 的「NIXL/RDMA」→「NIXL over RDMA」。\n", "")
        .replace("- 10-21 跟进 ② 读完了，见条目 1。", "- 10-21 跟进：① 顺延；② 已完成；③ 顺延。")
    )
    done = import_full(night, known_briefs=[FIRST])
    assert not [m for m in _marks(done.text) if "no change of it was read" in m or "was handed" in m]


def test_an_item_with_no_relation_and_no_placement_builds_and_shows_what_the_brief_said(tmp_path):
    """A new writer leaves out 与活文档脉络的关系, 建议归入, 证据边界 and 要点 (the points sit under a label
    the importer does not know): the import checks clean with no edit, the
    strict build passes, and the brief's page shows the item without a made-up relation and says the
    placement is the editor's to decide (the item is kept out of §1–§6 until then)."""
    import contextlib
    import io

    from helpers import built, copy_project
    from html_dom import parse

    from digest_plugin.cli import main

    root = copy_project(tmp_path / "project")
    night = tmp_path / "2026-10-22-inference-E1.md"
    night.write_text(
        NIGHT.replace("与活文档脉络的关系：§1.1 Kapitsa 换数。\n", "")
        .replace("建议归入：§1.1 Kapitsa 原地更新。\n", "")
        .replace("证据边界：自动采集；未复现。\n", "")
        .replace("要点：Stars 188\n", "另：Stars 188\n"),
        encoding="utf-8",
    )
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["import", str(night), "--data", str(root / "data")]) == 0
        assert main(["check", str(root / "data"), "--config", str(root / "mkdocs.yml")]) == 0
    site = built(root)
    html = (site / "inference" / "briefs" / "2026-10-22-inference-E1" / "index.html").read_text(encoding="utf-8")
    [item] = [n for n in parse(html).all("article") if "digest-item" in n.classes and "Kapitsa 周四卡" in n.text()]
    assert "与活文档脉络的关系" not in item.text()
    assert "简报未写建议归入，待编辑确认" in item.text()
    assert (
        "简报未写证据边界，按未核实处理" in item.text() and "未核实" in item.one("span", class_="digest-badge").text()
    )
    assert not item.all("ul", class_="digest-points") and "Stars 188" in item.text()  # kept, as a note
    assert "Kapitsa 周四卡" not in (site / "inference" / "1" / "index.html").read_text(encoding="utf-8")


def test_a_list_handed_on_before_a_night_off_is_asked_about_too():
    """10-22's writer reports nothing of 10-21's list and hands on a list of its own; on 10-23 (a Friday) a
    writer answers the follow-ups in words the vocabulary does not have.  Both lists are waiting for a word:
    10-22's, and 10-21's, which no night since has spoken of (the night before is not the only one that hands
    work on)."""
    second_night = (
        NIGHT.replace("- 10-21 跟进 ② 读完了，见条目 1。", "- 交给明晚的：① 盯 Kapitsa 的下一张卡。")
        .replace("旧案：\n- 10-21 矛盾 2（vLLM 版本口径）：维护者回帖了，口径两边都对，挂起。\n", "")
        .replace("- 改写：10-21 条目 3 的「NIXL/RDMA」→「NIXL over RDMA」。\n", "")
    )
    second = Brief.model_validate(YAML(typ="safe").load(import_full(second_night, known_briefs=[FIRST]).text))
    assert [f.text for f in second.follow_ups] == ["盯 Kapitsa 的下一张卡"]
    third_night = (
        NIGHT.replace("2026-10-22", "2026-10-23")
        .replace("旧案：\n- 10-21 矛盾 2（vLLM 版本口径）：维护者回帖了，口径两边都对，挂起。\n", "")
        .replace("- 改写：10-21 条目 3 的「NIXL/RDMA」→「NIXL over RDMA」。\n", "")
        .replace("- 10-21 跟进 ② 读完了，见条目 1。", "- 前两晚的单子都看过了，明天再细说。")
    )
    done = import_full(third_night, known_briefs=[FIRST, second])
    marks = [m for m in _marks(done.text) if "was handed" in m]
    assert any("10-22 跟进 1" in m for m in marks), marks
    for number in (1, 2, 3):
        assert any(f"10-21 跟进 {number}" in m for m in marks), (number, marks)
    assert not YAML(typ="safe").load(done.text).get("follow_up_updates")  # nothing decided for the editor


def test_a_night_and_a_number_with_no_list_word_asks_which_list_it_means():
    """「10-21 第 3 条作废」: 10-21 has an item 3, a contradiction 3 and a follow-up 3, and the clause names no
    list.  The importer picks none (a guess could retract the wrong thing), and asks, naming all three."""
    night = SECOND_NIGHT.format(author="新人", two="无。", four="- 10-21 第 3 条作废，数字对不上。")
    done = import_full(night, known_briefs=[FIRST])
    brief = YAML(typ="safe").load(done.text)
    assert not brief.get("retractions") and not brief.get("contradiction_updates")
    [mark] = [m for m in _marks(done.text) if "第 3 条" in m]
    item, contradiction, follow_up = (
        FIRST.items[2].id,
        next(c.id for c in FIRST.contradictions if c.number == 3),
        next(f.id for f in FIRST.follow_ups if f.number == 3),
    )
    for name, ident in (("10-21 条目 3", item), ("10-21 矛盾 3", contradiction), ("10-21 跟进 3", follow_up)):
        assert f"{name} ({ident})" in mark, mark
    assert "作废" in mark  # the clause, for the editor to judge


def test_a_number_with_no_night_and_no_list_word_asks_nothing():
    """「第 3 条作废」 with no night before it: tonight's own third point, nothing earlier to ask about."""
    night = SECOND_NIGHT.format(author="新人", two="无。", four="- 第 3 条作废，数字对不上。")
    done = import_full(night, known_briefs=[FIRST])
    assert not [m for m in _marks(done.text) if "names no list" in m]


def test_an_earlier_contradiction_named_in_an_items_evidence_boundary_is_asked_about():
    """「证据边界：…10-21 矛盾 2 那句口径，维护者今天在帖子里给了说法」: the writer answers an earlier contradiction
    inside an item's field, in no verb the importer knows.  Nothing is read, so the editor is asked, by the name
    a reader uses; the item itself is imported as before."""
    night = SECOND_NIGHT.format(author="新人", two="无。", four="- 无。").replace(
        "证据边界：自动采集；未复现。", "证据边界：自动采集；10-21 矛盾 2 那句口径，维护者今天在帖子里给了说法。"
    )
    done = import_full(night, known_briefs=[FIRST])
    brief = YAML(typ="safe").load(done.text)
    assert [i["title"] for i in brief["items"]] == ["Kapitsa 周四卡（中等价值）"]
    second = next(c.id for c in FIRST.contradictions if c.number == 2)
    assert [m for m in _marks(done.text) if f"10-21 矛盾 2 ({second})" in m], _marks(done.text)


def test_a_short_quote_is_withheld_with_the_claim_only_when_it_shares_a_name_or_figure():
    """「2.6x faster」 in the release note, 「2.6 倍」 in the team's claim: one figure written two ways, so the
    source's words are withheld too; 「preview」, quoted as context, shares nothing and stays readable."""
    night = SECOND_NIGHT.format(
        author="新人",
        two="❶ 倍数：说明只写「2.6x faster」，页面还标着「preview」，配置没给。"
        "配置贴出来之前，「Ironwood 每芯片 decode 是 v6e 的 2.6 倍」§1.1 先不碰。",
        four="- 10-21 跟进：① 顺延；② 已完成；③ 顺延。",
    )
    brief = YAML(typ="safe").load(import_full(night, known_briefs=[FIRST]).text)
    assert [w["text"] for w in brief["contradictions"][0]["withheld"]] == [
        "Ironwood 每芯片 decode 是 v6e 的 2.6 倍",
        "2.6x faster",
    ]
