"""The team's words are data: a brief may use only the words of data/vocabulary.yml (and its
topic's additions), a new word is one line in that file, and readers see its label and meaning."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from helpers import BRIEF, ROOT, line_of, replace_in, run_cli

from digest_plugin.core.findings import DataError
from digest_plugin.core.load import load_data, site_vocabulary
from digest_plugin.core.pipeline import analyse
from digest_plugin.core.vocabulary import Vocabulary, code_for, default_file
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.render import Renderer

KAPITSA_GAPS = "      gaps:\n        - auto_collected\n"  # item 5 of the shipped brief (the only auto_collected)


def check(data_dir):
    result = analyse(data_dir, today=dt.date(2026, 12, 3))
    return [f for f in result.findings if f.severity == "error"], result


def test_a_new_word_fails_check_on_its_line_until_it_is_added_to_the_vocabulary(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, KAPITSA_GAPS, KAPITSA_GAPS + "        - not_reproduced\n")
    (error,), _ = check(data_copy)
    assert (error.path, error.line) == ("data/" + BRIEF, line_of(brief, "not_reproduced"))
    assert "'not_reproduced' is not an evidence gap in data/vocabulary.yml" in error.message
    assert error.hint == "add `not_reproduced: <中文标签>` under gaps: in data/vocabulary.yml"

    words = data_copy / "vocabulary.yml"
    replace_in(words, "gaps:\n", "gaps:\n  not_reproduced: {label: 未复现, meaning: 没有在本地复现过}\n")
    errors, result = check(data_copy)
    assert errors == []
    doc = result.docs["inference"]
    html = Renderer(Layout(doc), Linker("inference/1.md")).entry(
        doc.entries[doc.items["kapitsa-card-refresh"].entry_id]
    )
    assert '<span class="digest-gap" data-gap="not_reproduced">未复现</span>' in html
    assert "未复现：没有在本地复现过" in html.split('class="digest-badge__tip"')[1]  # its meaning, in the badge's tip


def test_a_misspelt_word_gets_the_nearest_one(data_copy):
    replace_in(data_copy / BRIEF, "level: lead", "level: laed")
    (error,), _ = check(data_copy)
    assert error.hint.startswith("did you mean lead? If it is a new word, add `laed: <中文标签>`")


def test_a_topic_may_add_words_for_itself_only(data_copy):
    replace_in(data_copy / BRIEF, KAPITSA_GAPS, KAPITSA_GAPS + "        - screenshot_only\n")
    outline = data_copy / "outlines" / "inference.yml"
    outline.write_text(
        outline.read_text(encoding="utf-8") + "vocabulary:\n  gaps:\n    screenshot_only: 仅见截图\n", encoding="utf-8"
    )
    errors, result = check(data_copy)
    assert errors == []
    assert result.docs["inference"].vocabulary.label("gaps", "screenshot_only") == "仅见截图"
    assert ("gaps", "screenshot_only") not in Vocabulary(load_data(data_copy).words or default_file())


def test_a_site_without_a_vocabulary_file_uses_the_words_of_the_first_brief(data_copy):
    (data_copy / "vocabulary.yml").unlink()
    errors, result = check(data_copy)
    assert errors == []
    assert result.docs["inference"].vocabulary.label("dispositions", "blocked") == "修正前不得写入"


def test_the_shipped_vocabulary_file_holds_the_packages_words():
    assert load_data(ROOT / "data").words == default_file()


def _refused(data_copy, old: str, new: str):
    """The one finding a vocabulary file edited from ``old`` to ``new`` gets, on the edited line."""
    words = data_copy / "vocabulary.yml"
    replace_in(words, old, new)
    with pytest.raises(DataError) as refused:
        load_data(data_copy)
    (finding,) = refused.value.findings
    assert (finding.path, finding.line) == ("data/vocabulary.yml", line_of(words, new.strip()))
    return finding


def test_a_broken_vocabulary_file_is_reported_where_it_is_wrong(data_copy):
    finding = _refused(data_copy, "  paywall: {label: 付费墙", "  Pay-wall: {label: 付费墙")
    assert "'Pay-wall' is not a vocabulary code" in finding.message


def test_evidence_levels_are_ranked_in_the_order_the_file_lists_them():
    words = site_vocabulary(ROOT / "data")
    assert [words.rank(c) for c in ("verified", "partially_verified", "lead", "discard")] == [0, 1, 3, 4]


def test_a_proposed_code_is_made_of_the_words_ascii_part_or_is_a_placeholder():
    assert code_for("GitHub issue", set(), "source_kinds") == "github_issue"
    assert code_for("未复现", set(), "gaps") == "gap_1"
    assert code_for("未复现", {"gap_1"}, "gaps") == "gap_2"


def test_the_editing_commands_take_the_sites_words(data_copy, capsys, monkeypatch):
    def run(*args: str) -> tuple[int, str, str]:
        return run_cli(*args, cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)

    assert run("new", "--topic", "inference", "--date", "2026-10-22", "--data", "data")[0] == 0
    brief = "data/briefs/2026-10-22-inference-E1.yml"
    args = ("set-evidence", brief, "vllm-long-prefill-freeze", "--level", "reproduced", "--boundary", "本地复现 2.1s")
    code, _, err = run(*args)
    assert code == 1 and "'reproduced' is not an evidence level" in err
    replace_in(data_copy / "vocabulary.yml", "evidence_levels:\n", "evidence_levels:\n  reproduced: 已本地复现\n")
    assert run(*args)[0] == 0


def test_an_import_meeting_a_new_word_writes_the_sites_vocabulary_file(data_copy, capsys, monkeypatch):
    (data_copy / "vocabulary.yml").unlink()  # a site that never needed its own file
    night = ROOT / "tests" / "corpus" / "days" / "2026-10-23-inference-E1.md"  # 条目 3 …（低价值，仅见截图）
    code, _out, err = run_cli(
        "import", str(night), "--data", "data", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0 and "new word «低价值» (value_ratings): proposed as `rating_1`" in err
    words = load_data(data_copy).words
    assert words is not None and words.value_ratings["rating_1"].label == "低价值"
    shipped = default_file().gaps
    assert {c: w for c, w in words.gaps.items() if c in shipped} == shipped  # the package's words, kept
    # and the gaps the night words as the team does (「；未复现」, 「仅见截图」), proposed (FORMAT-NOTES.md, 9)
    assert {w.label for c, w in words.gaps.items() if c not in shipped} == {"未复现", "仅见截图"}
    errors, _ = check(data_copy)
    assert not [e for e in errors if "vocabulary" in e.message]


def test_a_new_brief_offers_the_sites_words(data_copy):
    from digest_plugin.authoring.scaffold import new_brief

    replace_in(data_copy / "vocabulary.yml", "value_ratings:\n", "value_ratings:\n  low: 低价值\n")
    text = new_brief(data_copy, "inference", dt.date(2026, 10, 22)).read_text(encoding="utf-8")
    assert "#    value: [low]                 # low | high | high_pending | refresh | medium | filler" in text
    assert "# levels: verified | partially_verified | unverified | lead | discard" in text


def test_the_legend_explains_every_word_of_the_topic_in_rank_order(data_copy):
    outline = data_copy / "outlines" / "inference.yml"
    outline.write_text(
        outline.read_text(encoding="utf-8")
        + "vocabulary:\n  gaps:\n    screenshot_only: {label: 仅见截图, meaning: 只看到截图}\n",
        encoding="utf-8",
    )
    _, result = check(data_copy)
    doc = result.docs["inference"]
    html = "".join(b.html for b in Renderer(Layout(doc), Linker("inference/legend.md")).legend() if hasattr(b, "html"))
    levels = re.findall(r'<tr id="level-(\w+)"', html)
    assert levels == ["verified", "partially_verified", "unverified", "lead", "discard"]
    assert '<tr id="gap-screenshot_only" data-gap="screenshot_only"><th>仅见截图</th><td>只看到截图</td></tr>' in html
    assert "●●●● 已核查" in re.sub(r"<[^>]+>", "", html) and "○○○○ 丢弃级" in re.sub(r"<[^>]+>", "", html)
    assert "<th>E2</th>" in html  # the team's terms
    badge = Renderer(Layout(doc), Linker("inference/1.md")).badge(doc.briefs[0].items[0].evidence, "k")
    assert 'href="../legend/#level-' in badge  # each badge's tip links to its row


def test_a_named_day_that_is_no_month_and_day_is_reported_on_its_line_with_the_fix(data_copy):
    finding = _refused(data_copy, '  平安夜: "12-24"', '  平安夜: "12-32"')
    assert "'12-32' is not a month and day" in finding.message
    assert '"MM-DD"' in (finding.hint or finding.message)
