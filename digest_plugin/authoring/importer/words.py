"""The team's words in a brief, looked up in the site's vocabulary (value ratings, gaps); a new word is
proposed, never dropped or forced.
"""

from __future__ import annotations

import re

from ...core.model import Gap, ValueRating
from .common import ITEM_NUMBERS, SUMMARY_ONLY, Draft, split_outside, without_asides

GAP_WORDS: list[tuple[Gap, re.Pattern[str]]] = [
    ("truncated", re.compile(r"截断")),
    ("summary_only", SUMMARY_ONLY),
    ("paywall", re.compile(r"付费墙")),
    ("login_wall", re.compile(r"登录")),
    ("vendor_self_report", re.compile(r"厂商自述")),
    ("financial_media", re.compile(r"财经媒体")),
    ("auto_collected", re.compile(r"自动采集")),
    ("no_version", re.compile(r"未标(?:注)?版本|版本(?:号)?未(?:标|知)|无[^，。；,;]{0,8}版本号|缺版本")),
    ("no_issue_link", re.compile(r"(?:未给|无|缺)[^，。；,;]{0,8}(?:PR|issue)")),
    ("status_unconfirmed", re.compile(r"状态[^，。；,;]{0,8}待确认")),
]
"""Gaps are read from the 证据边界 only, and listed in the order the boundary names them."""


TRAILING_BRACKET = re.compile(r"[（(](?P<inner>[^（()）]*)[）)]\s*$")
LEADING_BRACKET = re.compile(r"^\s*[〈<【\[［〔（(](?P<inner>[^〈<【\[［〔（()）〕］\]】>〉]{1,12})[〉>】\]］〕）)]")
"""「〈中等价值〉 标题」, 「[高价值] 标题」: a rating in brackets before the title."""
OTHER_TRAILING = re.compile(r"[〈<【\[［〔](?P<inner>[^〈<【\[［〔〕］\]】>〉]{1,12})[〉>】\]］〕]\s*$")
"""「标题〈高价值〉」, 「标题【中等价值】」: a rating in other brackets after it."""
SET_APART = re.compile(r"(?:\s[·|]|\s?｜)\s*(?P<inner>[^·|｜]{1,12})$")
"""「标题 · 高价值」, 「标题｜高价值」: a rating set apart after the title by a middle dot or a bar (a full-width
bar needs no space before it)."""


def title_rating(title: str, line: int, draft: Draft) -> list[ValueRating]:
    """A rating written at the end of the title: "…（高价值）", "…（低价值，仅见截图）"; or, rating words only, in
    other brackets before or after it: "〈中等价值〉 …", "…【高价值】".

    A bracket part that is a word of the vocabulary is read as it; one of the same shape as a
    rating (低价值, 极高价值) is a new word, proposed for the vocabulary file."""
    m = TRAILING_BRACKET.search(title)
    if not m:
        other = LEADING_BRACKET.search(title) or OTHER_TRAILING.search(title) or SET_APART.search(title)
        if other is None or not all(value_words(p.strip(), draft) for p in re.split(r"[，,、/；;]", other["inner"])):
            return []  # (in other brackets only a rating and nothing else: 「【更正】…」 is no rating)
        m = other
    codes = []
    for part in re.split(r"[，,、/；;]", m["inner"]):
        part = part.strip()
        if found := value_words(part, draft):
            codes += [draft.code("value_ratings", w, line) for w in found]
        elif NEW_RATING.fullmatch(part):
            codes.append(draft.code("value_ratings", part, line))
    return codes


NEW_RATING = re.compile(r"[\u4e00-\u9fff]{1,4}价值")
"""The shape of a value rating the vocabulary does not have yet, as a whole bracket part."""


def value_words(text: str, draft: Draft) -> list[str]:
    """The value ratings a piece of text names: the site's words and those this brief proposed
    (longest first, so 高价值但待回溯 is not read as 高价值)."""
    spellings = [spelling for spelling, _ in draft.words.spellings("value_ratings")]
    spellings += list(draft.proposed.get("value_ratings", {}).values())
    if not spellings:
        return []
    return re.findall("|".join(re.escape(x) for x in sorted(set(spellings), key=lambda x: (-len(x), x))), text)


def gap_codes(boundary: str) -> list[Gap]:
    found = [(m.start(), gap) for gap, words in GAP_WORDS if (m := words.search(boundary))]
    return [gap for _, gap in sorted(found, key=lambda pair: pair[0])]


def conclusion_ratings(bullets: list[tuple[int, str]], draft: Draft) -> dict[int, tuple[int, list[ValueRating]]]:
    """ "条目 1（…）、条目 2 … 为高价值增量，条目 4 … 为高价值但待回溯，条目 6/7 为中等价值补白"."""
    ratings: dict[int, tuple[int, list[ValueRating]]] = {}
    for line, text in bullets:
        for clause in split_outside(text, "，,；;"):
            bare = without_asides(clause)
            words = value_words(bare, draft)
            if not words:
                continue
            for m in ITEM_NUMBERS.finditer(bare):
                for n in re.findall(r"\d+", m["numbers"]):
                    ratings[int(n)] = (line, [draft.code("value_ratings", w, line) for w in words])
    return ratings
