"""A withheld claim is found however it is spelled (issue 33, 1).

Every withheld spelling of the corpora (the shipped brief, the lifecycle fixtures, the twelve nights
of ``days/``) is written again the ways a hostile or careless editor writes it: spaces removed or
added, signs and digits in every width (``＋１７５``, U+FE62 ``﹢``), a character reference
(``&#43;``, shown literally on the page), another case, a zero-width space inside it.  Two
independent pieces of code must each know every variant for the claim:

* the renderer's matcher (:mod:`digest_plugin.core.spelling`) masks it, so nothing of the claim is left
  in the text it writes;
* the checker (:mod:`digest_plugin.site.leaks`, ``digest verify``) finds it in a page where it was *not*
  masked (the masking switched off), in text, in an attribute, split by inline markup, and
  percent-encoded in a link.

A figure never runs into a longer number, in either: ``+175`` is not in ``+1750``.  An end-to-end
build puts every variant of the seed's claim into a brief, and the built site hides every one.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import ROOT, built, copy_project, read_data
from ruamel.yaml import YAML

from digest_plugin.core import spelling
from digest_plugin.site.leaks import LeakCheck, find_leaks

CORPORA = [ROOT / "data" / "briefs", ROOT / "tests" / "fixtures" / "lifecycle", ROOT / "tests" / "corpus" / "days"]


def _claims() -> list[str]:
    found: list[str] = []
    for folder in CORPORA:
        for path in sorted(folder.glob("*.yml")):
            brief = read_data(path) or {}
            for c in brief.get("contradictions") or []:
                for w in c.get("withheld") or []:
                    found += [p for p in w.get("patterns") or [w["text"]] if p.strip()]
    return sorted(set(found))


CLAIMS = _claims()


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _references(text: str) -> str:
    """Each sign, digit or letter as a character reference (as an editor pastes it from HTML)."""
    return "".join(f"&#{ord(c)};" if (c.isascii() and c.isalnum()) or c in "+-%." else c for c in text)


def variants(claim: str) -> dict[str, str]:
    """The claim spelled other ways a reader still reads as the claim."""
    chars = claim.replace(" ", "")
    out = {
        "no space": chars,
        "spaces doubled": claim.replace(" ", "  "),
        "a space between every character": " ".join(chars),
        "full width": _full_width(claim),
        "small plus": claim.replace("+", "\ufe62"),
        "character references": _references(claim),
        "hexadecimal reference": "".join(f"&#x{ord(c):X};" if not c.isspace() else c for c in claim[:3]) + claim[3:],
        "another case": claim.swapcase(),
        "zero-width space": chars[: len(chars) // 2] + "\u200b" + chars[len(chars) // 2 :],
        "no-break spaces": claim.replace(" ", "\u00a0\u3000"),
    }
    return {k: v for k, v in out.items() if v != claim or k == "no space"}


CASES = [(claim, name, text) for claim in CLAIMS for name, text in variants(claim).items()]


def test_the_corpora_have_claims_to_spell():
    assert len(CLAIMS) >= 10 and any("+175" in c for c in CLAIMS)


@dataclass
class _Doc:
    """What the checker reads of a living doc: its withheld spellings and who withholds them."""

    withheld: dict[str, object]


@dataclass
class _View:
    id: str


def _checker(claim: str) -> LeakCheck:
    return LeakCheck({"t": _Doc({claim: _View("c1")})})  # type: ignore[dict-item]


@pytest.mark.parametrize(("claim", "name", "text"), CASES, ids=[f"{c}|{n}" for c, n, _ in CASES])
def test_the_renderer_masks_every_spelling(claim, name, text):
    pattern = re.compile(spelling.pattern(claim))
    masked = pattern.sub("〔暂扣〕", f"前文，{text}，后文")
    assert masked != f"前文，{text}，后文", name
    assert _checker(claim).html("p.html", f"<p>{html.escape(masked)}</p>") == [], masked


@pytest.mark.parametrize(("claim", "name", "text"), CASES, ids=[f"{c}|{n}" for c, n, _ in CASES])
def test_unmasked_every_spelling_fails_the_checker(claim, name, text):
    check = _checker(claim)
    assert check.html("p.html", f"<p>前文，{html.escape(text)}，后文</p>"), name
    assert check.html("p.html", f'<p><a title="{html.escape(text, quote=True)}">x</a></p>'), name
    href = "https://example.org/?q=" + quote(text.replace("&#", "#"), safe="")
    if "&#" not in text:  # a reference inside a link's query is not a reference
        assert check.html("p.html", f'<p><a href="{html.escape(href)}">x</a></p>'), (name, href)


@pytest.mark.parametrize("claim", CLAIMS)
def test_a_claim_split_by_inline_markup_is_still_the_claim_and_paragraphs_are_not(claim):
    check = _checker(claim)
    half = len(claim) // 2
    assert check.html("p.html", f"<p>{html.escape(claim[:half])}<strong>{html.escape(claim[half:])}</strong></p>")
    assert not check.html("p.html", f"<p>{html.escape(claim[:half])}</p><p>{html.escape(claim[half:])}</p>")


@pytest.mark.parametrize(
    ("claim", "text", "found"),
    [
        ("+175 周增", "+175 周增", True),
        ("+175 周增", "+1750 周增", False),
        ("+175 周增", "1+175 周增", True),
        ("周增 +175", "周增 +1750", False),  # the claim ends with a figure: the checker must not read on into 0
        ("周增 +175", "周增 +175。", True),
    ],
)
def test_a_figure_never_runs_into_a_longer_number(claim, text, found):
    pattern = re.compile(spelling.pattern(claim))
    assert bool(pattern.search(text)) is found
    assert bool(_checker(claim).html("p.html", f"<p>{text}</p>")) is found


def test_every_spelling_in_a_brief_is_hidden_on_the_built_site(tmp_path):
    """The seed withholds 「+175 周增」 (and 「周增 +175」): a later brief writes every variant of them in
    its item's points, its title and a citation's title; the strict build passes, `digest verify`
    finds nothing, and each point shows the withheld mark in the variant's place."""
    root = copy_project(tmp_path / "project")
    seed = [c for c in CLAIMS if c in ("+175 周增", "周增 +175")]
    # (a zero-width space the loader refuses outright, with file:line: test_corpus's inert cases)
    spelled = [text for claim in seed for name, text in variants(claim).items() if name != "zero-width space"]
    brief = {
        "schema": 1,
        "id": "2026-10-22-inference-E1",
        "topic": "inference",
        "round": "E1",
        "title": f"inference · E1 预消化简报（2026-10-22）{spelled[0]}",
        "date": "2026-10-22",
        "items": [
            {
                "id": "2026-10-22-e1-item-1",
                "number": 1,
                "title": f"Kapitsa 周增 {spelled[1]}",
                "value": ["medium"],
                "sources": {"urls": ["https://github.com/nace-ai/kapitsa"]},
                "points": [f"第 {n} 种写法：{text}" for n, text in enumerate(spelled, 1)],
                "evidence": {"level": "unverified", "boundary": "自动采集"},
                "relation": "§1.1 Kapitsa。",
                "placement": {"section": "1.1", "action": "footnote", "text": "§1.1 小注。"},
            }
        ],
    }
    path = root / "data" / "briefs" / "2026-10-22-inference-E1.yml"
    with path.open("w", encoding="utf-8") as out:
        YAML().dump(brief, out)
    site = built(root)
    assert find_leaks(site, _docs(root)) == []
    page = (site / "inference" / "briefs" / "2026-10-22-inference-E1" / "index.html").read_text(encoding="utf-8")
    for n, _ in enumerate(spelled, 1):
        point = re.search(rf"<li>第 {n} 种写法：(.*?)</li>", page)
        assert point and 'class="digest-withheld' in point.group(1), (n, point and point.group(1))


def _docs(root: Path) -> dict:
    from digest_plugin.core.pipeline import analyse

    return analyse(root / "data", relative_to=root).docs


def test_a_link_that_holds_a_claim_once_decoded_is_a_located_error(data_copy):
    """「?q=%E5%91%A8%E5%A2%9E%20%2B175」 carries the claim into href, where no mark can stand in for it:
    `digest check` refuses the link with file:line (issue 33, 1)."""
    from helpers import replace_in
    from test_corpus import run_check

    brief = data_copy / "briefs" / "2026-10-21-inference-E1.yml"
    url = YAML(typ="safe").load(brief.read_text(encoding="utf-8"))["items"][0]["sources"]["urls"][0]
    for link in (url + "?q=" + quote("周增 +175"), url + "#" + quote("+175周增")):
        replace_in(brief, url, link)
        found = run_check(data_copy)
        assert len(found) == 1 and "the link holds the withheld claim" in found[0], found
        assert found[0].startswith("data/briefs/2026-10-21-inference-E1.yml:"), found
        replace_in(brief, link, url)
    assert run_check(data_copy) == []


def test_a_link_may_hold_a_claim_a_later_brief_confirmed(data_copy, capsys, monkeypatch):
    """A confirmed claim is free: once a later brief confirms it, a source URL that holds it is no error
    (a corrected one stays withheld, in links as on pages)."""
    from helpers import replace_in, run_cli
    from test_corpus import run_check

    from digest_plugin.authoring.scaffold import new_brief

    brief = data_copy / "briefs" / "2026-10-21-inference-E1.yml"
    url = YAML(typ="safe").load(brief.read_text(encoding="utf-8"))["items"][0]["sources"]["urls"][0]
    replace_in(brief, url, url + "?q=" + quote("周增 +175"))
    assert len(run_check(data_copy)) == 1
    later = new_brief(data_copy, "inference", dt.date(2026, 10, 22))
    monkeypatch.chdir(data_copy.parent)
    args = ("resolve", str(later), "kapitsa-weekly-gain", "--text", "仓库页一手数据证实", "--outcome", "confirmed")
    assert run_cli(*args, cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    assert run_check(data_copy) == []


HICACHE = "HiCache 使 TTFT 降 6×"
STATED = "官方博客称多轮对话场景 TTFT 降 6×"


def _ban_and_state(data: Path, stated: str | None) -> None:
    """The seed brief with a ban on 「HiCache 使 TTFT 降 6×」 and, in item 1's points, ``stated``."""
    from helpers import replace_in

    brief = data / "briefs" / "2026-10-21-inference-E1.yml"
    tree = YAML(typ="safe").load(brief.read_text(encoding="utf-8"))
    first_point = tree["items"][0]["points"][0]
    if stated is not None:
        replace_in(brief, f'"{first_point}"', f'"{first_point}"\n      - "{stated}"')
    claim = tree["contradictions"][0]["withheld"][0]["text"]
    replace_in(
        brief, f'- text: "{claim}"', f'- text: "{HICACHE}"\n        patterns: ["{HICACHE}"]\n      - text: "{claim}"'
    )


def test_a_ban_that_misses_how_an_item_states_the_claim_is_a_warning(data_copy):
    """The item holds the claim's figure and metric (6×, TTFT) but not the withheld spelling: `digest
    check` names the sentence, with file:line, and proposes the pattern that masks it (issue 33, 2)."""
    from test_corpus import run_check

    _ban_and_state(data_copy, STATED)
    found = run_check(data_copy)
    assert len(found) == 1, found
    assert (
        ": warning: 条目 1 states «TTFT 降 6×», the figure of 「HiCache 使 TTFT 降 6×」 that 矛盾 1 withholds"
        in found[0]
    )
    assert found[0].endswith("""(add it to that claim's patterns: - "TTFT 降 6×")""")
    assert found[0].startswith("data/briefs/2026-10-21-inference-E1.yml:")


def test_a_ban_on_a_wording_no_item_uses_stays_silent(data_copy):
    from test_corpus import run_check

    _ban_and_state(data_copy, None)
    assert run_check(data_copy) == []


def test_the_importer_proposes_the_pattern_itself():
    """A new editor's brief bans 「HiCache 使 TTFT 降 6×」 while its item says 「…TTFT 降 6×」: the import
    adds 「TTFT 降 6×」 to the claim's patterns (marked), and the item's sentence is masked."""
    from digest_plugin.authoring.importer import import_full

    night = f"""inference · E1 预消化简报（2026-10-21）

作者：新人 · E1 日间预消化轮（inference）· 2026-10-21 22:00

一、今日增量（1 条）

条目 1：SGLang HiCache 多轮对话（中等价值）

来源：https://lmsys.org/blog/
要点：{STATED}
证据边界：官方博客；未复现。
与活文档脉络的关系：§2.6 尚无此项。
建议归入：§2.6 新增子条目。

二、值得警惕的矛盾与待核实说法

1. HiCache 的倍数：只有官方博客一句，在修正前不要把「{HICACHE}」写进活文档。

三、可引用的 arXiv 号

无。

四、本轮结论与建议动作

- 一条。
"""
    done = import_full(night)
    brief = YAML(typ="safe").load(done.text)
    [claim] = brief["contradictions"][0]["withheld"]
    assert claim["patterns"] == [HICACHE, "TTFT 降 6×"]
    assert any("an item states «TTFT 降 6×»" in n.message for n in done.notes)
    assert re.search(spelling.pattern("TTFT 降 6×"), STATED)


def test_a_near_miss_in_full_width_is_found_and_nothing_breaks():
    """The item writes the claim's metric and figure in full width (「ＴＴＦＴ 降 ６×」): found as the
    span to mask, in the item's own characters (a word's place was looked for as ASCII, and `digest
    check` stopped on a ValueError)."""
    assert spelling.near_misses(HICACHE, "官方博客称多轮对话场景 ＴＴＦＴ 降 ６×。") == ["ＴＴＦＴ 降 ６×"]


def test_finding_spellings_without_a_pattern_finds_what_the_pattern_finds():
    """The nights' pages find withheld spellings without compiling a pattern (4 ms a spelling, 3,650
    spellings at ten years): on texts made of claims, their variants (other widths, case, spaces and
    format characters inside, digits around) and other words, the spans equal the compiled pattern's,
    or the finder says only the pattern can read the text."""
    import random

    from digest_plugin.core import spelling
    from digest_plugin.core.doc import compile_spellings

    claims = ["周增 +175", "+175 周增", "TTFT 80ms", "1.8–2.4s", "vLLM 0.23.0", "55"]
    spellings = tuple(sorted({spelling.canonical(c) for c in claims}, key=lambda s: (-len(s), s)))
    pattern = compile_spellings(spellings)
    assert pattern is not None
    pieces = [
        *claims, "周增＋１７５", "ttft 80MS", "周 增 +175", "周\u200b增+175", "1755", "+1750", "9+175 周增",
        "55", "555", "５５", "Stars 155 / ", "，", "（见矛盾 1）", " ", "\u00a0", "1", "。", "vllm 0.23.01",
    ]  # fmt: skip
    rng = random.Random(32)
    compared = 0
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        found = spelling.find(text, spellings)
        assert found is not None, text
        assert found == [m.span() for m in pattern.finditer(text)], text
        compared += 1
    assert compared == 3000
    # what only the pattern can read: a character reference, a ligature, a character past the BMP
    for text in ("周增 &#43;175", "ﬁne 55", "55 \U0001f600"):
        assert spelling.find(text, spellings) is None
