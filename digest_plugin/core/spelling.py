"""A withheld claim however it is spelled: what the renderer masks (issue 33).

A contradiction withholds 「+175 周增」; a writer types 「周增+175」, 「＋１７５周增」, 「+175 周增」 with two
spaces, 「﹢175」 (U+FE62), 「&#43;175」 (a character reference, shown literally), 「TTFT」 or 「ttft」.  A
reader takes them all for the same claim, so the renderer must mask them all.  Their *canonical form*
is the same: character references decoded, Unicode NFKC (full-width and small forms fold to ASCII),
case folded, every white-space and invisible format character removed (Chinese needs no space
between words).

The renderer works on the original text (it must replace the characters it masks), so each
withheld spelling becomes a pattern over original characters: every character of its canonical form
matches any character whose canonical form it is (``+`` matches ``+``, ``＋``, ``﹢``, ``⁺`` …) or a
character reference to it, with any white space or format characters between two of them.  A figure
never runs into a longer number: ``+175`` does not match inside ``+1750``.

The checker (:mod:`.leaks`) reads the finished site with its own canonical form, written apart from
this one on purpose: the two are independent, and each test holds both to the same examples.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from html import unescape
from html.entities import html5

GAP = r"(?:\s|[\u00ad\u200b-\u200f\u2060\ufeff])*"
"""What may stand between two characters of a claim: white space, a soft hyphen, zero-width and
direction marks (Chinese writes no space between words, so a space is never part of the claim)."""
_DROPPED = re.compile(GAP.removesuffix("*") + "+")
_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


@functools.lru_cache(maxsize=1 << 15)
def canonical(text: str) -> str:
    """``text`` as the claim a reader perceives: references decoded, NFKC, case folded, no spaces.

    Kept for the texts asked most: a night's past view and its changes render the same entries'
    words night after night, and each text is read for withheld spellings by its canonical form."""
    if "&" in text and _REFERENCE.search(text):
        text = unescape(text)
    return _DROPPED.sub("", unicodedata.normalize("NFKC", text).casefold())


@functools.cache
def _spelled_as() -> dict[str, str]:
    """Every character of the Basic Multilingual Plane whose canonical form is one character, by
    that character: ``"+" → "+＋﹢⁺₊"`` (made once, some 60 ms)."""
    found: dict[str, list[str]] = {}
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char).casefold()
        if len(folded) == 1 and not _DROPPED.fullmatch(folded):
            found.setdefault(folded, []).append(char)
    return {c: "".join(chars) for c, chars in found.items()}


@functools.cache
def _named() -> dict[str, list[str]]:
    """HTML's named character references, by the character they stand for (``+`` → ``&plus;``)."""
    found: dict[str, list[str]] = {}
    for name, value in html5.items():
        if name.endswith(";") and len(value) == 1:
            found.setdefault(unicodedata.normalize("NFKC", value).casefold(), []).append(name)
    return found


@functools.cache
def _character(char: str) -> str:
    """A pattern for one character of a canonical form: any character spelling it, or a reference."""
    spellings = _spelled_as().get(char, char)
    alternatives = ["[" + "".join(re.escape(c) for c in spellings) + "]"]
    referred = sorted({char, *(c for c in spellings if c.isascii())})  # 「&#77;」 is an M, and an m
    alternatives.append("&#0*(?:" + "|".join(str(ord(c)) for c in referred) + ");")
    hexadecimal = "|".join("".join(f"[{h}{h.upper()}]" if h.isalpha() else h for h in f"{ord(c):x}") for c in referred)
    alternatives.append(f"&#[xX]0*(?:{hexadecimal});")
    alternatives += ["&" + re.escape(name) for name in _named().get(char, [])]
    return "(?:" + "|".join(alternatives) + ")"


def pattern(spelling: str) -> str | None:
    """The regular expression (over original text) that matches every spelling of ``spelling``;
    None for a spelling with nothing to match (only spaces)."""
    chars = canonical(spelling)
    if not chars:
        return None
    body = GAP.join(_character(c) for c in chars)
    if chars[0].isdigit():
        body = r"(?<!\d)" + body
    if chars[-1].isdigit():
        body += rf"(?!{GAP}(?:\d|&#))"  # not the start of a longer number (+175 in +1750)
    return body


_GAP_CHAR = re.compile(GAP.removesuffix("*"))


@functools.lru_cache(maxsize=65536)
def _read_as(char: str) -> str | None:
    """What :func:`pattern` reads one character of text as: "" for a character that may stand between
    two of a claim (a space, a format character), the one character of its canonical form, or None
    when only a pattern can say (a reference's "&", a character whose form is not one character,
    one past the Basic Multilingual Plane)."""
    if _GAP_CHAR.fullmatch(char):
        return ""
    if char == "&" or ord(char) > 0xFFFF:
        return None
    folded = unicodedata.normalize("NFKC", char).casefold()
    return folded if len(folded) == 1 and not _DROPPED.fullmatch(folded) else None


def find(text: str, spellings: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """The spans where an alternation of the :func:`pattern` of each canonical spelling (tried in the
    order given, as such an alternation is) matches ``text``, found without compiling one; None when
    the text holds a character only the pattern can read (:func:`_read_as`).  Compiling costs some
    4 ms a spelling, and a ten-year site's nights withhold 3,650 of them."""
    where: list[int] = []
    kept: list[str] = []
    for i, char in enumerate(text):
        read = _read_as(char)
        if read is None:
            return None
        if read:
            where.append(i)
            kept.append(read)
    canon = "".join(kept)
    starts: dict[int, list[tuple[int, int]]] = {}
    for order, claim in enumerate(spellings):
        at = canon.find(claim)
        while at >= 0:
            starts.setdefault(at, []).append((order, at + len(claim)))
            at = canon.find(claim, at + 1)
    spans: list[tuple[int, int]] = []
    k = 0
    for at in sorted(starts):
        if at < k:
            continue
        for _, stop in sorted(starts[at]):
            claim = canon[at:stop]
            begin, end = where[at], where[stop - 1] + 1
            if claim[0].isdigit() and begin > 0 and text[begin - 1].isdecimal():
                continue  # not the end of a longer number
            if claim[-1].isdigit() and _number_follows(text, end):
                continue  # not the start of a longer number
            spans.append((begin, end))
            k = stop
            break
    return spans


def _number_follows(text: str, end: int) -> bool:
    r"""What ``(?!GAP(?:\d|&#))`` after a claim ending in a digit refuses: a digit or a reference next, spaces aside."""
    while end < len(text) and _GAP_CHAR.fullmatch(text[end]):
        end += 1
    return end < len(text) and (text[end].isdecimal() or text.startswith("&#", end))


FIGURE = re.compile(
    r"(?<![A-Za-z0-9.])[+\-−±~≈]?\$?\d+(?:[.,]\d+)*(?:\s*(?:×|倍|%|％|ms|tok/s|万|[kKxX](?![A-Za-z])))?(?![A-Za-z0-9])"
)
"""A figure as claims state one: 「6×」, 「+175」, 「$1.26」, 「10%」, 「50 ms」."""
QUANTITY = re.compile(r"^[+\-−±~≈$]|[×倍%％万kKxX]$|ms$|tok/s$")
"""A figure that measures something (a sign, a currency, a unit), not a version (「llm-d 1.0」)."""
METRIC = re.compile(r"[A-Za-z][A-Za-z0-9/.\-]*[A-Za-z0-9]|[A-Za-z]")
SENTENCE = re.compile(r"[^。；;！？!?\n]+")


@functools.cache
def _parts(claim: str) -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """(its measured figures, its words, its canonical form) of a claim: made once per claim, as
    ``digest check`` asks about every claim for every text of its brief."""
    figures = tuple(canonical(f.group()) for f in FIGURE.finditer(claim) if QUANTITY.search(f.group()))
    rest = FIGURE.sub(" ", claim)
    words = [w for w in METRIC.findall(rest) if len(w) >= 2] or [
        rest[i : i + 2] for i in range(len(rest) - 1) if all("\u4e00" <= c <= "\u9fff" for c in rest[i : i + 2])
    ]
    return figures, tuple(words), canonical(claim)


def near_misses(claim: str, text: str) -> list[str]:
    """The sentences of ``text`` that state the claim's figures with one of its metrics (「TTFT 降 6×」
    for the claim 「HiCache 使 TTFT 降 6×」) without its withheld spelling: each as the span a pattern
    would need, from the first word of the claim the sentence has to its last figure.  None when the
    claim states no figure, or no sentence says it another way (a ban on a wording no item uses yet)."""
    figures, words, whole = _parts(claim)
    if not figures:
        return []
    found: list[str] = []
    for m in SENTENCE.finditer(text):
        sentence = m.group()
        said = canonical(sentence)
        if whole in said or not all(f in said for f in figures):
            continue
        starts = [hit.start() for w in words if canonical(w) in said and (hit := _word(w).search(sentence))]
        ends = [f.end() for f in FIGURE.finditer(sentence) if canonical(f.group()) in figures]  # (measured ones)
        if starts and ends and max(ends) > min(starts):
            found.append(sentence[min(starts) : max(ends)].strip())
    return list(dict.fromkeys(found))


@functools.cache
def _word(word: str) -> re.Pattern[str]:
    """A word of a claim in any of its spellings (「ＴＴＦＴ」 is 「TTFT」)."""
    return re.compile(pattern(word) or re.escape(word))
