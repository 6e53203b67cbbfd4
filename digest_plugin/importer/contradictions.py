"""Part 二, contradictions and unverified claims: disposition, withheld claims, required labels."""

from __future__ import annotations

import functools
import re
from typing import Any

from .. import arxiv
from ..model import (
    Disposition,
    Status,
)
from .common import QUOTED, SECTION_REF, _At, _Code, _Draft, _Part
from .markdown import _entries, _label_colon
from .numbering import _check_numbering, _dedupe_ids

NUMBERED = re.compile(r"^\s*(?:(?P<n1>\d+)\s*[.、．)）]|[（(](?P<n2>\d+)[）)])\s*(?P<text>.*?)\s*$")


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


STILL_TO_CHECK = re.compile(r"需确认|待确认|未核实|待核实|无交叉验证")


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


def _read_contradictions(part: _Part, stem: str, draft: _Draft) -> dict[str, Any]:
    """``N. title：text`` per contradiction; the disposition and withheld claims come from the words.

    What part 二 says outside its numbered list (「延续：…」 about earlier contradictions, 「今日无矛盾。」)
    is kept as ``contradictions_note``; later nights' updates are read from it."""
    entries, others = _entries(part.lines, NUMBERED)
    out: dict[str, Any] = {}
    if others:
        out["contradictions_note"] = "\n".join(text.strip() for _, text in others)
    contradictions = []
    for index, (line, text) in enumerate(entries):
        m = NUMBERED.match(text)
        assert m is not None, "_entries only starts an entry at a line NUMBERED matches"
        number = int(m["n1"] or m["n2"])
        at = ("contradictions", index)
        draft.origins[at] = line
        contradictions.append(_read_contradiction(number, f"{stem}-c{number}", m["text"], line, draft, at))
    _dedupe_ids(contradictions, "contradiction", draft, "contradictions")
    _check_numbering(
        [c["number"] for c in contradictions],
        [draft.origins[("contradictions", i)] for i in range(len(contradictions))],
        "矛盾",
        "contradictions",
        draft,
    )
    out["contradictions"] = contradictions
    return out


def _read_contradiction(number: int, cid: str, body: str, line: int, draft: _Draft, at: _At) -> dict[str, Any]:
    colon = _label_colon(body)
    if colon is None:
        title, text = body, body
        draft.warn(line, f"矛盾 {number}: no 'title：text' colon; the whole entry is used as both", at + ("title",))
    else:
        title, text = body[:colon].strip(), body[colon + 1 :].strip()
    whole = f"{title}\n{text}"
    c: dict[str, Any] = {"id": _Code(cid), "number": number, "title": title, "text": text}
    c["touches"] = {
        "sections": [m["section"] for m in SECTION_REF.finditer(whole)],
        "citations": list(dict.fromkeys(m["id"] for m in ARXIV_MENTION.finditer(whole))),
    }
    materials = [{"path": m["path"], "anchor": m["anchor"]} for m in MATERIAL_MENTION.finditer(whole)]
    if materials:
        c["materials"] = materials
    claims = [(m["claim"] or m["bare"] or m["quoted"]).strip() for m in WITHHELD.finditer(text)]
    claims += [m["claim"].strip() for m in _withheld_after(draft.words.phrases("withheld")).finditer(text)]
    quoted = list(dict.fromkeys(QUOTED.findall(whole)))
    if not claims and draft.words.wording("withheld").search(text):
        if len(quoted) == 1:  # 「X」：…这句话不上活文档: the one quoted claim is the one kept out
            claims = quoted
            draft.warn(
                line, f"矛盾 {number}: withholds「{quoted[0]}」, the one claim it quotes; check", at + ("withheld",)
            )
        else:  # a ban with no claim it names: never publish silently, never guess
            draft.warn(
                line,
                f"矛盾 {number}: keeps something out of the doc, but names no single claim"
                + (f" (it quotes {'、'.join(f'「{q}」' for q in quoted)})" if quoted else "")
                + "; write withheld: by hand",
                at + ("withheld",),
            )
    claims = list(dict.fromkeys(claims))
    if claims:
        c["withheld"] = [{"text": claim, "patterns": _spellings(claim, whole)} for claim in claims]
    if m := REQUIRED_LABEL.search(text):
        c["required_label"] = m["label"]
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


def _spellings(claim: str, text: str) -> list[str]:
    """The claim and every 「…」 in the same text with the same words in another order
    ("+175 周增" / "周增 +175"), in the order they appear."""
    words = sorted(claim.split())
    found = [q for q in QUOTED.findall(text) if sorted(q.split()) == words]
    return list(dict.fromkeys(found + [claim]))
