"""Part 二, contradictions and unverified claims: disposition, withheld claims, required labels."""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from ...core import arxiv, spelling
from ...core.model import Disposition, Status
from .backrefs import History, find_references
from .common import (
    BULLETS,
    OWN_LABEL,
    QUOTED,
    SECTION_REF,
    SYMBOL_TAG,
    TAG_NUMBER,
    At,
    Code,
    Draft,
    Line,
    Part,
    own_labels,
    unrolled_tables,
)
from .markdown import label_colon, list_entries
from .numbering import check_numbering, dedupe_ids

NUMBERED = re.compile(
    r"^\s*(?:>\s*)?(?:#{1,6}\s+)?(?:\*\*)?(?:(?P<n1>[1-9]\d?)\s*[.、．)）](?!\d)|[（(](?P<n2>\d+)[）)]|(?P<dark>[❶-❿])"
    r"|(?P<circled>[①-⑩])|\[C?(?P<n3>\d+)\]|C(?P<n4>\d+)\s*[.:：、]"
    rf"|[★☆■◆●▶►▸※]?\s*(?P<tag>{TAG_NUMBER})\s*(?:\*\*)?\s*(?:(?:[·・、—–|｜]|\u3000)(?!\d)|[:：])"
    rf"|(?P<symbol>{SYMBOL_TAG})(?P<n5>[1-9]\d?)\s*(?:(?:[·・、—–|｜]|\u3000)(?!\d)|[:：]))"
    r"\s*(?:\*\*)?\s*(?P<text>.*?)\s*$"
)
"""A contradiction's number, however a writer sets it: 「1.」, 「（1）」, 「❶」, 「①」, 「[C1]」, 「C1：」, a short tag of the
writer's own and the number before a separator (「疑 1 · …」, 「C-1 · …」, 「D-1：…」, 「★ 新开 1　…」), a symbol glued to it (「⚠︎1 · …」), in a quote block (「> ❶ …」), a
Markdown heading or bold too (「**疑账 1**　…」, 「**矛盾 2**：…」: the bold closes before the separator).  A list's number is never 0 and is no version's first digit (「0.5.1 里程碑页…」); after a
colon the text may open with a digit (「新疑问 1：1）里…」 names tonight's item 1)."""


def _number(m: re.Match[str]) -> int:
    if m["dark"]:
        return ord(m["dark"]) - ord("❶") + 1
    if m["circled"]:
        return ord(m["circled"]) - ord("①") + 1
    return int(m["n1"] or m["n2"] or m["n3"] or m["n4"] or m["n5"] or m["tagged"])


def _mark(m: re.Match[str]) -> str | None:
    """The writer's own numbering (「❶」, 「C-1」, 「▲1」), kept: a later night names it so (「前天芮 ▲1」)."""
    if m["symbol"]:
        return f"{m['symbol']}{m['n5']}"
    return m["dark"] or m["tag"]


# --- contradictions
DISPOSITION_RULES: list[tuple[Disposition, re.Pattern[str]]] = [
    ("discarded", re.compile(r"丢弃级")),
    ("down_weighted", re.compile(r"降权")),
    ("pending_login", re.compile(r"待登录核查")),
    ("kept_out", re.compile(r"不入活文档|不建议进活文档")),
    ("with_label", re.compile(r"必须带|必须标|须带|不得据")),
    ("blocked", re.compile(r"在修正前不要|修正前不|前[^。；;]{0,16}(?:不得|不要|不能|不可|不)(?:把|写)")),
]
"""First rule that matches wins; otherwise ``pending_check`` (待确认), the safest reading."""


OTHER_QUOTES = re.compile(r"[“『](?P<text>[^”』\n]{2,120})[”』]|(?<![\w])\"(?P<plain>[^\"\n]{2,120})\"")
"""A claim quoted the other ways writers quote: “…”, 『…』, "…"."""
STILL_TO_CHECK = re.compile(r"需确认|待确认|未核实|待核实|无交叉验证")
LEAD_MARKS = re.compile(rf"^\s*(?:>\s*)?(?:[{BULLETS}]\s+)?")
"""What may open a paragraph of part 二 before its words: a quote block's mark, a list item's bullet."""
LIST_ITEM = re.compile(rf"^\s*(?:>\s*)?[{BULLETS}]\s+\S")
"""A list item at any depth (a quote block's too)."""
SECTION_HOLD = re.compile(
    r"§\s*\d+(?:\.\d+)*\s*(?:[、,，和与及]\s*§?\s*\d+(?:\.\d+)*\s*)*(?:[^。；;，,\n「」]{0,4}[，,])?[^。；;，,\n「」]{0,4}?"
    r"(?:别|不|勿|缓|冻结|封|禁|停|挡|拦|隐|免|按住|搁|压|锁|熔断)"
)
"""A hold said right after the section it applies to, in whatever words (「§1.1 先别…」, 「在 §3.1 中暂不
采信」, 「§5.4 冻结此句」, 「§1.1 封口」, 「§5.1 重新锁上，不出包」, 「§2.6 这句熔断」): bans are worded anew by every writer, but they name the section
and then hold.  With quoted claims and no ban the wordings know, the safe reading withholds them and
asks, even when the text also says what is left to check (待核实)."""


WITHHELD = re.compile(
    r"(?:不要|不得|不能|不可|别|勿|切勿|禁止)把\s*(?:「(?P<claim>[^」]+)」|(?P<bare>[^「」，,。；;]+?))\s*写(?:进|入|成|为)"
    r"|(?:不要|不得|不能|不可|勿|切勿|不)\s*(?:再)?写(?:成|为|入|进)?\s*「(?P<quoted>[^」]+)」"
)
"""A claim the doc must not state: 不要把「X」写进…, 不得写「X」, 只写「A」，不写「X」, 不得写成「X」."""


@functools.cache
def _withheld_after(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """The claim first, the ban after it: 「X」不写进 §3.3, 「X」从活文档里拿掉 (not a label the statement
    must carry, 须带「preview」字样, and not a ban that names its own claim next, 不得写成「Y」); the
    ban's phrases are the team's (``withheld:`` of ``wordings:``)."""
    kept_out = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)) or r"(?!x)x"
    return re.compile(
        rf"(?<!须带)(?<!必须带)「(?P<claim>[^」]+)」[^「」。；;]{{0,24}}?(?:{kept_out})(?![成为入进]?\s*「)"
    )


REQUIRED_LABEL = re.compile(r"必须带\s*「(?P<label>[^」]+)」")


MATERIAL_MENTION = re.compile(r"(?P<path>[\w./-]+\.md)\s*(?P<anchor>第\s*\d+\s*条)")


ARXIV_MENTION = re.compile(arxiv.MENTION_LOOSE)


def read_contradictions(
    part: Part, stem: str, draft: Draft, today: dt.date | None = None, history: History | None = None
) -> dict[str, Any]:
    """``N. title：text`` per contradiction; the disposition and withheld claims come from the words.

    What part 二 says outside its numbered list (「延续：…」 about earlier contradictions, 「今日无矛盾。」)
    is kept as ``contradictions_note``; later nights' updates are read from it.  When nothing in the
    part is numbered a way these patterns know, each paragraph that quotes something and names no
    earlier contradiction is read as a new one, in order, and marked: its claims are then withheld
    until the editor answers, never published because the numbering was new."""
    lines = unrolled_tables(part.lines, lambda _: True, _row_paragraph)
    entries, others = list_entries(lines, NUMBERED, apart=LIST_ITEM)  # 「往期疑账：」 then one line an old doubt
    if not entries and today is not None and history is not None:
        # each item of a list (at any depth: 「- 新开」 over 「  - C1 …」) is a paragraph of its own
        items, paragraphs = list_entries(lines, LIST_ITEM)
        entries, others = _by_position(sorted(items + paragraphs), today, history, draft)
    out: dict[str, Any] = {}
    if others:
        out["contradictions_note"] = "\n".join(text.strip() for _, text in others)
    contradictions = []
    for index, (line, text) in enumerate(entries):
        m = NUMBERED.match(text)
        assert m is not None, "list_entries only starts an entry at a line NUMBERED matches"
        number = _number(m)
        at = ("contradictions", index)
        draft.origins[at] = line
        heading = _heading_title(lines, line)
        body = m["text"]
        if heading and body.startswith(heading) and body[len(heading) :].strip():
            # 「### 矛盾 1：title」 over its paragraphs: the heading is the title, the paragraphs the text
            body = f"{heading}\n{body[len(heading) :].strip()}"
        else:
            heading = None
        contradictions.append(
            _read_contradiction(number, f"{stem}-c{number}", body, line, draft, at, _mark(m), heading=heading)
        )
    dedupe_ids(contradictions, "contradiction", draft, "contradictions")
    check_numbering(
        [c["number"] for c in contradictions],
        [draft.origins[("contradictions", i)] for i in range(len(contradictions))],
        "矛盾",
        "contradictions",
        draft,
    )
    out["contradictions"] = contradictions
    return out


ROW_NUMBER = re.compile(r"[❶-❿①-⑩]|\d{1,2}|C\d{1,2}|\[C?\d{1,2}\]")
"""A table's first cell that only numbers the row (「❶」, 「1」, 「C1」)."""


def _row_paragraph(header: list[str], row: list[str], number: int, position: int) -> list[Line]:
    """A row of a table in part 二 is one paragraph, as a writer with no table writes it: 「what：cell；cell」
    (「礼拜三乔那桩（预告表）：价目表改了；落锤」), or 「N. title：cell；cell」 for a row the first cell numbers (a
    new contradiction).  The header only names the columns."""
    cells = [c for c in row if c]
    if len(cells) > 1 and ROW_NUMBER.fullmatch(cells[0]):
        lead = f"{cells[0]}." if cells[0].isdigit() else f"[{cells[0]}]" if cells[0][0] == "C" else cells[0]
        cells = [f"{lead} {cells[1]}", *cells[2:]]
    head, rest = (cells[0], cells[1:]) if cells else ("", [])
    return [Line(number, ""), Line(number, head + ("：" + "；".join(rest) if rest else "")), Line(number, "")]


def _by_position(
    paragraphs: list[tuple[int, str]], today: dt.date, history: History, draft: Draft
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(entries numbered by their place, the other paragraphs): see :func:`read_contradictions`."""
    bodies: list[tuple[int, str]] = []
    others: list[tuple[int, str]] = []
    for line, text in paragraphs:
        quotes = QUOTED.search(text) or OTHER_QUOTES.search(text)
        lead = m.end() if (m := LEAD_MARKS.match(text)) else 0
        earlier = [
            r
            for r in find_references(text, today, history, part="contradictions")
            if r.kind == "contradiction"
            and (history.dates.match(r.text) or r.start > lead + 2)  # 「疑点 1　…」 opening it, undated: its own label
        ]
        if quotes and not earlier:
            bodies.append((line, text[lead:]))
        else:
            others.append((line, text))
    own = _own_numbers([body for _, body in bodies])
    entries: list[tuple[int, str]] = []
    for k, (line, body) in enumerate(bodies):
        number = own[k] if own is not None else k + 1
        entries.append((line, f"{number}. {body}"))
        said = (
            f"is read as 矛盾 {number}, by the writer's own number; check"
            if own is not None
            else f"is numbered no way this importer knows; read as 矛盾 {number}"
        )
        draft.warn(line, f"section 二: «{body[:30]}…» {said}")
    return entries, others


def _own_numbers(bodies: list[str]) -> list[int] | None:
    """The numbers the writer's own labels give the doubts (:data:`.common.OWN_LABEL`, rising: 「缺陷 Q-2」,
    「缺陷 Q-3」; one doubt alone only as number 1), or None: numbered by place."""
    matches = [OWN_LABEL.match(body) for body in bodies]
    numbers = [int(m["n"]) for m in matches if m is not None]
    if len(numbers) == 1 == len(bodies) and numbers[0] == 1:
        return numbers
    return numbers if own_labels(bodies, OWN_LABEL, rising=True) is not None else None


def _heading_title(lines: list[Line], number: int) -> str | None:
    """The title a Markdown heading at line ``number`` gives its contradiction (「### 矛盾 1：title」), or None
    when the entry does not open with a heading."""
    first = next((x.text for x in lines if x.number == number), "")
    if not re.match(r"\s*#{1,6}\s", first):
        return None
    m = NUMBERED.match(first.strip())
    return m["text"].strip() if m and m["text"].strip() else None


def _read_contradiction(
    number: int,
    cid: str,
    body: str,
    line: int,
    draft: Draft,
    at: At,
    mark: str | None = None,
    heading: str | None = None,
) -> dict[str, Any]:
    colon = label_colon(body)
    if heading is not None:
        title, text = heading, body[len(heading) :].strip().lstrip("：:").strip()
    elif colon is None:
        title, text = body, body
        draft.warn(line, f"矛盾 {number}: no 'title：text' colon; the whole entry is used as both", at + ("title",))
    else:
        title, text = body[:colon].strip(), body[colon + 1 :].strip()
    whole = f"{title}\n{text}"
    c: dict[str, Any] = {"id": Code(cid), "number": number, "title": title, "text": text}
    if mark:  # 「❶」, 「C-1」: a numbering of the writer's own, which a later night names it by (「昨晚宁的 ❶」)
        c["mark"] = mark
    c["touches"] = {
        "sections": [m["section"] for m in SECTION_REF.finditer(whole)],
        "citations": list(dict.fromkeys(m["id"] for m in ARXIV_MENTION.finditer(whole))),
    }
    materials = [{"path": m["path"], "anchor": m["anchor"]} for m in MATERIAL_MENTION.finditer(whole)]
    if materials:
        c["materials"] = materials
    claims = [(m["claim"] or m["bare"] or m["quoted"]).strip() for m in WITHHELD.finditer(text)]
    claims += [m["claim"].strip() for m in _withheld_after(draft.words.phrases("withheld")).finditer(text)]
    quoted = list(
        dict.fromkeys([*QUOTED.findall(whole), *(m["text"] or m["plain"] for m in OTHER_QUOTES.finditer(whole))])
    )
    if not claims and not quoted and draft.words.wording("withheld").search(text):
        draft.warn(  # a ban with no claim it names: never publish silently, never guess
            line, f"矛盾 {number}: keeps something out of the doc, but names no claim; write withheld: by hand", at
        )
    claims = list(dict.fromkeys(claims))
    label = REQUIRED_LABEL.search(text)
    unread = [
        q
        for q in quoted
        if not (label and q == label["label"]) and not _named_not_claimed(q, whole) and len(q.strip()) >= MIN_CLAIM
    ]
    said = any(words.search(whole) for d, words in DISPOSITION_RULES if d != "blocked") or STILL_TO_CHECK.search(whole)
    held = SECTION_HOLD.search(text) is not None
    if not claims and unread and (not said or held):  # quotes a claim, bans in words the rules do not know
        until = _claims_until(text, unread, draft.words.wording("withheld_until"))
        if until:  # 「价目页改过来之前，「X」§5.2 按兵不动」: the condition says which quote waits for it
            claims = until
        else:
            _withhold_until_answered(c, number, unread, whole, line, draft, at)
            claims = unread
    if claims:
        c["withheld"] = [{"text": claim, "patterns": _spellings(claim, whole)} for claim in claims]
    if label:
        c["required_label"] = label["label"]
    disposition = next((d for d, words in DISPOSITION_RULES if words.search(whole)), None)
    if disposition is None and claims:
        disposition = "blocked"  # a claim kept out of the doc until the contradiction is settled
    if disposition is None:
        disposition = "pending_check"
        if not STILL_TO_CHECK.search(whole):
            draft.warn(
                line,
                f"矛盾 {number}: no word says what to do with it; disposition set to pending_check",
                at + ("disposition",),
            )
    c["disposition"] = disposition
    c["status"] = Status.open
    c["_line"] = line
    return c


MIN_CLAIM = 2
"""A quote shorter than this (「读」, one character) names a word, never a claim: withholding it would hide that
character across the whole site (a held-out night of blind17 did, and its build failed the leak check)."""

NOT_A_CLAIM_BEFORE = re.compile(r"(?:标|标注|注明|带上?|写明|§\s*\d+(?:\.\d+)*\s*的?|见|按|叫|称为|名为)\s*$")
NOT_A_CLAIM_AFTER = re.compile(r"^\s*(?:字样|标注|子条目|条目|一节|小节|那条|那段|段落?|页)")


def _named_not_claimed(quote: str, text: str) -> bool:
    """A quote that names rather than claims: a label to carry (标「项目自述」), an entry or section
    (§1.1 的「与 Ollama 差距」, 「v6e 定价」子条目)."""
    for m in re.finditer(re.escape(f"「{quote}」"), text):
        if NOT_A_CLAIM_BEFORE.search(text[: m.start()]) or NOT_A_CLAIM_AFTER.match(text[m.end() :]):
            return True
    return False


def _claims_until(text: str, quoted: list[str], until: re.Pattern[str]) -> list[str]:
    """The claims a contradiction keeps out of the doc until a condition is met, read from the shape
    the team writes it in, whatever the ban's own words: the condition, then the claim quoted right
    after it (「价目页改过来之前，「X」§5.2 按兵不动」, 「测试环境公开以前，「X」…」).

    The other quotes of the text are withheld with it when they say the same thing in the source's
    words (the release note's English sentence beside the team's Chinese one): every quote but a
    short one (a term, 「up to」, 「TBA」, 「可忽略」) that shares no name or figure with a claim.  Such a
    term is context; withholding it would mask it on every page of the site.  No claim after a
    condition: nothing is read here (the caller asks the editor)."""
    after = (CLAIM_AFTER.match(text, m.end()) for m in until.finditer(text))
    claims = [q for q in dict.fromkeys(c["claim"].strip() for c in after if c) if q in quoted]
    if not claims:
        return []
    named = set().union(*(_names_and_figures(claim) for claim in claims))
    same = [q for q in quoted if q not in claims and (not _short(q) or _names_and_figures(q) & named)]
    return claims + same


CLAIM_AFTER = re.compile(r"\s*[，,]?\s*「(?P<claim>[^」]+)」")
"""The claim quoted right after the condition's word (「…之前，「X」」)."""
NAME_OR_FIGURE = re.compile(r"[A-Za-z][A-Za-z0-9_.+/-]*|\d+(?:\.\d+)?(?:\s*[%％×倍]|[A-Za-z]+)?")
"""A Latin name (v5p, llm-d, SGLang-TorchTPU) or a figure (25%, 1.1, 2.6 倍); ASCII only, so a name written
against Chinese (「Ironwood上」) is the name alone."""


def _names_and_figures(text: str) -> set[str]:
    """The Latin names (v5p, llm-d, TTFT) and the figures (25%, 1.1) of a quote, folded."""
    found = (
        m.group().replace(" ", "").replace("倍", "x").replace("×", "x").replace("％", "%").rstrip(".")
        for m in NAME_OR_FIGURE.finditer(text)
    )  # 「2.6 倍」 is the English 「2.6x」
    # a short lowercase word (to, by, up) is English, not a name: 「up to」 shares nothing with a claim
    return {f.lower() for f in found if len(f) > 3 or not f.isalpha() or not f.islower()}


def _short(quote: str) -> bool:
    """A term rather than a sentence: at most three Latin words and at most eight other characters."""
    latin = re.findall(r"[A-Za-z]+", quote)
    return len(latin) <= 3 and len(re.sub(r"[A-Za-z\s\d.,%-]+", "", quote)) <= 8


def _withhold_until_answered(
    c: dict[str, Any], number: int, claims: list[str], whole: str, line: int, draft: Draft, at: At
) -> None:
    """A contradiction that quotes claims but says no ban the wordings know (「…」挡在 §3.3 门外): the
    safe reading withholds every claim it quotes, and the editor is asked which (``digest review``)."""
    spelled = [{"text": claim, "patterns": _spellings(claim, whole)} for claim in claims]
    choices: list[tuple[str, dict[str, object]]] = []
    if len(claims) > 1:
        choices += [(f"只暂扣「{claim}」", {"withheld": [one]}) for claim, one in zip(claims, spelled, strict=True)]
    choices.append(("不暂扣任何说法（可以写进活文档）", {"withheld": None, "disposition": "pending_check"}))
    draft.ask(
        line,
        at,
        f"矛盾 {number} 在修正前不许写进活文档的是哪句？",
        "暂扣它引用的每一句：" + "、".join(f"「{claim}」" for claim in claims),
        choices,
        whole.replace("\n", "：", 1),
    )


def _spellings(claim: str, text: str) -> list[str]:
    """The claim and every 「…」 in the same text with the same words in another order
    ("+175 周增" / "周增 +175"), in the order they appear."""
    words = sorted(claim.split())
    found = [q for q in QUOTED.findall(text) if sorted(q.split()) == words]
    return list(dict.fromkeys(found + [claim]))


def propose_patterns(brief: dict[str, Any], draft: Draft) -> None:
    """Where an item of the brief states a withheld claim's figure in other words (「TTFT 降 6×」 for
    「HiCache 使 TTFT 降 6×」), the ban would miss it: the words go into the claim's ``patterns``, marked
    for the editor, so the item's sentence is masked rather than published (issue 33, 2)."""
    texts = [
        text
        for item in brief.get("items") or []
        for text in [
            item.get("title", ""),
            *(item.get("points") or []),
            (item.get("evidence") or {}).get("boundary") or "",
            item.get("relation") or "",
            (item.get("placement") or {}).get("text") or "",
            *(item.get("notes") or []),
        ]
        if text
    ]
    for index, c in enumerate(brief.get("contradictions") or []):
        for n, claim in enumerate(c.get("withheld") or []):
            spelled = [spelling.canonical(p) for p in claim["patterns"]]
            for text in texts:
                for span in spelling.near_misses(claim["text"], text):
                    if any(p and p in spelling.canonical(span) for p in spelled):
                        continue
                    claim["patterns"].append(span)
                    spelled.append(spelling.canonical(span))
                    draft.warn(
                        c.get("_line", 1),
                        f"矛盾 {c['number']}: an item states «{span}», the figure of 「{claim['text']}」 in other words; "
                        "added to the claim's patterns so it is masked too; check",
                        ("contradictions", index, "withheld", n),
                    )
