"""Numbers as briefs write them: ``4,791``, ``1.2 万``, full-width ``４７９１`` and ``１２％``.

A count read wrong is worse than one not read: ``4,791`` cut at its separator became 791.  So a
number is read whole or not at all (None), and the caller turns None into a finding."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

NUMBER = r"[0-9０-９][0-9０-９,，.．]*\s*[万亿]?"
"""What may be a number in a brief's text, for a pattern that then hands it to :func:`read_number`."""

_PLAIN = re.compile(r"^(?P<sign>[+-]?)(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<fraction>\.\d+)?\s*(?P<scale>[万亿]?)$")
_SCALES = {"": 1, "万": 10_000, "亿": 100_000_000}


ENCLOSED = (
    {chr(0x2460 + i): i + 1 for i in range(20)}  # ①–⑳
    | {chr(0x2474 + i): i + 1 for i in range(10)}  # ⑴–⑽
    | {chr(0x2776 + i): i + 1 for i in range(10)}  # ❶–❿
    | {chr(0x2780 + i): i + 1 for i in range(10)}  # ➀–➉
    | {chr(0x278A + i): i + 1 for i in range(10)}  # ➊–➓
    | {chr(0x24B6 + i): i + 1 for i in range(26)}  # Ⓐ–Ⓩ
    | {chr(0x24D0 + i): i + 1 for i in range(26)}  # ⓐ–ⓩ
    | {chr(0x249C + i): i + 1 for i in range(26)}  # ⒜–⒵
    | {chr(0x2170 + i): i + 1 for i in range(10)}  # ⅰ–ⅹ
    | {chr(0x2160 + i): i + 1 for i in range(10)}  # Ⅰ–Ⅹ
)
"""One character that numbers a list entry, and its number: writers enumerate with circled digits,
digits in parentheses, dark or sans-serif circles, circled letters, letters in parentheses and the one-character
Roman numerals (「Ⓐ Ⓑ Ⓒ」, 「⒜ ⒝ ⒞」 and 「ⅰ ⅱ ⅲ」 are 1, 2, 3)."""
MORE_ENCLOSED = "Ⓐ-Ⓩⓐ-ⓩ⒜-⒵ⅰ-ⅹⅠ-Ⅹ➀-➉➊-➓"
"""The ranges of :data:`ENCLOSED` beyond ①–⑳, ⑴–⑽ and ❶–❿ (circled letters, sans-serif circles), for a
pattern's character class."""


CHINESE_DIGITS = {c: i for i, c in enumerate("一二三四五六七八九", 1)} | {"两": 2}


ROMAN = {
    r: n
    for n, r in enumerate(
        ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv"], 1
    )
}
"""Lower-case Roman numerals, as some writers number their items (「i. …」, 「iv. …」) and name them later
(「周三砚 iv」)."""
ROMAN_NUMERAL = r"(?:i{1,3}|iv|vi{0,3}|ix|x)"
"""One of :data:`ROMAN` up to ten, for a pattern (an item's heading, a reference to it)."""


def small_number(text: str) -> int | None:
    """A count or list number as briefs write it: 「3」, 「三」, 「两」, 「十二」; None for anything else."""
    text = text.strip()
    if text.isdecimal():  # not 「①」, which isdigit() lets through
        return int(text)
    tens, ten, units = text.partition("十")
    if not ten:
        return CHINESE_DIGITS.get(text) if len(text) == 1 else None
    high = CHINESE_DIGITS.get(tens, 0 if tens else 1)
    low = CHINESE_DIGITS.get(units, 0 if not units else -100)
    return high * 10 + low if high and low >= 0 else None


def read_number(text: str) -> int | float | None:
    """``text`` as a number, or None when it is not one written whole.

    Thousands separators count only in groups of three (``4,791``; ``47,91`` is not a number),
    full-width digits and signs are read as ASCII (NFKC), and 万 / 亿 multiply (``1.2 万`` is 12000)."""
    plain = unicodedata.normalize("NFKC", text).strip().replace("，", ",")
    m = _PLAIN.match(plain)
    if not m:
        return None
    # in decimal, not binary: 1.37 万 is 13700 exactly (a float makes it 13700.000000000002, no count)
    exact = Decimal(m["digits"].replace(",", "") + (m["fraction"] or "")) * _SCALES[m["scale"]]
    if m["sign"] == "-":
        exact = -exact
    if exact == exact.to_integral_value() and (not m["fraction"] or m["scale"]):
        return int(exact)
    return float(exact)
