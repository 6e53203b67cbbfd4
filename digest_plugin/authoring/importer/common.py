"""What every part of the import shares: the draft (warnings and the comments that go with them), the
lines and parts of the Markdown, and small text helpers.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from ...core.model import Brief
from ...core.vocabulary import Vocabulary, code_for, default_file

SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/brief.schema.json"


MARK = "digest-import"
"""Comments the importer writes start with ``# digest-import:``; an editor deletes each once checked."""


@dataclass(frozen=True)
class ImportNote:
    """Something the editor must check; ``line`` is 1-based, in the Markdown file."""

    line: int
    message: str


MARKDOWN_MARKS = re.compile(r"^\s*#{1,6}\s+|^\s*\*\*(?=.*\*\*\s*$)|\*\*\s*$")
"""Heading marks a person may add: "## 一、…", "### 条目 1：…", "**条目 1：…**"."""


BULLETS = "-•*·・+∙∘◦‣"
"""The marks a writer opens a list item with."""
BULLET = re.compile(rf"^\s*[{BULLETS}]\s+(?P<text>.*?)\s*$")


TABLE_ROW = re.compile(r"^\s*\|(?P<cells>.*?)\|?\s*$")
RULE_CELL = re.compile(r"^\s*:?-{3,}:?\s*$")


def table_cells(text: str) -> list[str] | None:
    """A Markdown table row's cells, stripped (「| 1 | 复跑 | 麦 |」 → ['1', '复跑', '麦']); None for a line
    that is no row.  A pipe written 「\\|」 stays inside its cell."""
    m = TABLE_ROW.match(text)
    return None if m is None else [c.strip() for c in re.split(r"(?<!\\)\|", m["cells"])]


def is_rule_row(cells: list[str] | None) -> bool:
    """「|---|:--:|」: the row under a table's header."""
    return cells is not None and any(cells) and all(RULE_CELL.match(c) for c in cells if c)


def unrolled_tables(
    lines: list[Line],
    accepts: Callable[[list[str]], bool],
    rows_of: Callable[[list[str], list[str], int, int], list[Line]],
) -> list[Line]:
    """Each Markdown table (a header row, its 「|---|」 rule, rows) whose header ``accepts`` becomes the
    lines ``rows_of(header, row, line number, position)`` makes of each row, so the readers of a part
    read a table as the lines a writer who used none would write; other lines stay as they are."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        header = table_cells(lines[i].text)
        rule = table_cells(lines[i + 1].text) if i + 1 < len(lines) else None
        if header is None or not is_rule_row(rule) or not accepts(header):
            out.append(lines[i])
            i += 1
            continue
        j, position = i + 2, 0
        while j < len(lines) and (row := table_cells(lines[j].text)) is not None:
            position += 1
            out.extend(rows_of(header, row, lines[j].number, position))
            j += 1
        i = j
    return out


# --- placement
SECTION_REF = re.compile(r"§\s*(?P<section>\d+(?:\.\d+)?)")


SUMMARY_ONLY = re.compile(r"仅读(?:搜索)?摘要|仅搜索摘要")


# --- value ratings
ITEM_NUMBERS = re.compile(r"条目\s*(?P<numbers>\d+(?:\s*[/、,，和与]\s*\d+)*)")


CORRECTED_TO = ("应为", "应是", "应作", "应改为")
"""The words between a wrong value and the right one when the vocabulary has no ``wordings: corrected_to``."""


def corrected_to(words: Vocabulary) -> tuple[str, ...]:
    """The team's words between what an earlier brief wrote wrong and what is right (「旧」应为「新」, 「…」实为「…」)."""
    return words.phrases("corrected_to") or CORRECTED_TO


QUOTED = re.compile(r"「(?P<text>[^」]+)」")


OPENING, CLOSING = "（(「《【[", "）)」》】]"


CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


class Code(str):
    """A code or an id: written unquoted in the YAML when that is safe, like the curated files."""


At: TypeAlias = tuple[str | int, ...]
"""Where a value sits in the brief: its keys and list indexes, ``("items", 0, "placement")``;
``("#top",)`` is the top of the file."""


@dataclass(frozen=True)
class _Question:
    line: int
    at: At
    ask: str
    reading: str
    choices: list[tuple[str, dict[str, object]]]
    context: str | None

    def place(self) -> str:
        """``("items", 2, "placement")`` → ``items[2].placement`` (how ``digest check`` names places)."""
        return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.at).lstrip(".")


@dataclass
class Draft:
    """What the import collects besides the brief: warnings, and the comments that go with them."""

    warnings: list[ImportNote] = field(default_factory=list)
    comments: dict[At, list[str]] = field(default_factory=dict)
    origins: dict[At, int] = field(default_factory=dict)
    """Markdown line of each part of the brief, so a late finding can still name a line."""
    words: Vocabulary = field(default_factory=lambda: Vocabulary(default_file()))
    """The site's words, which the brief's Chinese words are looked up in."""
    earlier: list[Brief] = field(default_factory=list)
    """The briefs already in the data folder, oldest first: what tonight's brief can refer back to."""
    proposed: dict[str, dict[str, str]] = field(default_factory=dict)
    """New words met in the brief, by vocabulary: proposed code → the label as written."""
    questions: list[_Question] = field(default_factory=list)
    """Readings put to the editor; numbered and written under ``questions:`` at the end."""

    def code(self, kind: str, label: str, line: int) -> str:
        """The code of a word the brief writes; a new word gets a proposed code (added to the
        vocabulary file, marked for the reviewer) instead of being dropped or forced."""
        if found := self.words.find(kind, label):
            return found
        mine = self.proposed.setdefault(kind, {})
        for code, known in mine.items():
            if known == label:
                return code
        code = code_for(label, set(self.words.words(kind)) | set(mine), kind)
        mine[code] = label
        self.warn(line, f"new word «{label}» ({kind}): proposed as `{code}` in the vocabulary file; check it")
        return code

    def renumbered(self, part: str, kept: list[int]) -> None:
        """``part``'s list kept only the entries at the old indexes ``kept`` (in order): the marks and
        questions on them follow them to their new index; a question on an entry that left the list
        goes (what it asked no longer applies), its marks go to the top, never lost."""
        new = {old: index for index, old in enumerate(kept)}

        def moved(at: At) -> At | None:
            if len(at) < 2 or at[0] != part or not isinstance(at[1], int):
                return at
            return (part, new[at[1]], *at[2:]) if at[1] in new else None

        comments: dict[At, list[str]] = {}
        for at, messages in self.comments.items():
            comments.setdefault(moved(at) or ("#top",), []).extend(messages)
        self.comments = comments
        self.questions = [dataclasses.replace(q, at=to) for q in self.questions if (to := moved(q.at)) is not None]

    def ask(
        self,
        line: int,
        at: At,
        ask: str,
        reading: str,
        choices: list[tuple[str, dict[str, object]]],
        context: str | None = None,
    ) -> None:
        """Put a reading the import cannot decide to the editor (``digest review``).

        The caller has already written the safe reading at ``at`` (the one that publishes nothing
        new); ``choices`` are the other readings, likeliest first, as (label, keys to write at ``at``)."""
        self.questions.append(_Question(line, at, ask, reading, choices, context))
        self.warnings.append(ImportNote(line, f"question: {ask} (until answered: {reading}); digest review"))

    def warn(self, line: int, message: str, at: At = ("#top",)) -> None:
        """Report to the CLI and mark the field ``at`` in the YAML (the top of the file when the
        doubt is about no single field, or about a field that was left out)."""
        self.warnings.append(ImportNote(line, message))
        self.comments.setdefault(at, []).append(message)

    def settled(self, at: At) -> list[str]:
        """The doubts marked on ``at``, taken back (a later reading decided it); the messages, so a
        caller can say what settled them."""
        messages = self.comments.pop(at, [])
        self.warnings = [w for w in self.warnings if w.message not in messages]
        return messages

    def unplaced(self, line: int, text: str, where: str, at: At = ("#top",)) -> None:
        """Text with no place in the format: quoted, so it is not lost."""
        self.warn(line, f"{where}: text not placed, keep or move it by hand: «{one_line(text)}»", at)


@dataclass
class Line:
    number: int
    text: str


@dataclass
class Part:
    """The header, or one of the numbered sections 一…四 of the brief."""

    kind: str
    heading: str | None
    line: int
    lines: list[Line]


@dataclass
class Field:
    """One labelled part of an item (来源, 要点 …); ``label`` is None for unlabelled text."""

    label: str | None
    text: str
    line: int
    note: str | None = None
    head: str = ""
    """The label as written, with its note and colon ("顺带：", "要点（…）:")."""

    @property
    def raw(self) -> str:
        """The field as the brief wrote it, label included (how a 顺带 aside is kept in notes)."""
        return f"{self.head}{self.text}"


SYMBOL_TAG = r"[\u2190-\u2bff][\ufe0e\ufe0f]?"
"""A symbol a writer numbers with, glued to the number (「⏭1」, 「▲1」, 「⚠︎1」): arrows, technical and geometric
signs, dingbats (U+2190 … U+2BFF), with the variation selector an emoji keyboard adds."""
TAG_NUMBER = r"[^\W\d_]{1,3}\s*[-‐－]?\s*(?P<tagged>[1-9]\d?)(?![\d.])"
"""A short tag of the writer's own and a number (「疑 1」, 「C-1」, 「接-1」): never 0, never a version's first digit."""


ENTRY_NUMBER = re.compile(
    r"(?P<mark>[①-⑩⑴-⑽]|[A-Za-z]?\d{1,2}(?!\d)[.、．)）]?|[（(]\d{1,2}[）)]|[ivx]{1,4}\.|"
    rf"{TAG_NUMBER}(?=\s*[·・:：])|[^\W\d_]{{1,3}}[-‐－][1-9]\d?(?![\d.])|{SYMBOL_TAG}[1-9]\d?(?![\d.]))"
    r"(?P<sep>\s*[·・:：]\s*|\s+)"
)
"""An entry's own number, right after a task's status marker (「⑵」, 「L1」, 「3.」, 「（2）」, 「iv.」, 「疑 1 ·」, 「接-1」, 「⏭1」), and
what parts it from the text."""


def marker_after_number(marker: str, rest: str) -> str:
    """「DONE ⑶ 交叉引用」 → 「⑶ DONE 交叉引用」: an outliner's or Org's task marker moved after the entry's number,
    so the list reads as any numbered list and the marker as a status word (``wordings: follow_up_*``); with
    no number after it, the marker stays first."""
    if m := ENTRY_NUMBER.match(rest):
        sep = m["sep"] if m["sep"].strip() else " "
        return f"{m['mark']}{sep}{marker} {rest[m.end() :]}".rstrip()
    return f"{marker} {rest}".rstrip()


URL_AT_END = re.compile(r"https?://\S+$")


def join_lines(before: str, after: str) -> str:
    """Join a wrapped line: no space between Chinese characters, one between Latin words, and one after a
    URL, whatever follows (「https://…/kapitsa」 then 「来源类型：…」 must not become one address)."""
    if not before:
        return after
    if URL_AT_END.search(before):
        return f"{before} {after}"
    if CJK.match(before[-1]) or CJK.match(after[0]):
        return before + after
    return f"{before} {after}"


def split_outside(text: str, separators: str) -> list[str]:
    """Split at any character of ``separators`` that is not inside brackets （）「」《》."""
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in OPENING:
            depth += 1
        elif char in CLOSING:
            depth = max(0, depth - 1)
        elif depth == 0 and char in separators:
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    return pieces


BOLD_LEAD = re.compile(r"^(\s*)\*\*([^*\n]{1,12})\*\*(?=\s|\u3000|[：:])")
"""A heading whose number alone is bold: 「**第一则**　标题」."""


def bare_text(text: str) -> str:
    """A heading line without the Markdown marks around it (or around its number alone)."""
    return BOLD_LEAD.sub(r"\1\2", MARKDOWN_MARKS.sub("", text))


ASIDE = re.compile(r"[（(][^）)]*[）)]")
"""A bracketed aside: 「（26/11 改列暂挂）」, 「（会后整理稿）」."""


def without_asides(text: str) -> str:
    """``text`` without its bracketed asides, where they say something else than the words around them:
    what an earlier night did, where a source came from."""
    return ASIDE.sub("", text)


def one_line(text: str) -> str:
    return " ".join(text.split())


def strip_end(text: str) -> str:
    return text.strip().rstrip("；;，,。.").strip()


def unique_ids(values: list[str]) -> str | None:
    values = list(dict.fromkeys(values))
    return values[0] if len(values) == 1 else None


HEADING_NIGHT = r"(?<![\dW])\d{1,2}-\d{1,2}|\d{1,2}月\d{1,2}日"
"""A night a list's heading names by its month and day (「10-21 交给 E2 的三件事」, 「11月5日的单子」); 「W01-7」, an
ISO week date, is none (「交给 W01-7」 hands the list on to a night to come)."""


def shared_run(a: str, b: str) -> int:
    """The length of the longest run of characters ``a`` and ``b`` share: how a restated line, or a line that
    describes an earlier follow-up in its own words, is matched to it without a number."""
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best


OWN_LABEL = re.compile(
    r"^(?P<word>[\u4e00-\u9fff]{1,4}\s*[A-Z]{0,3}|[A-Z]{1,4})\s*[-‐－]?\s*(?P<n>\d{1,2})(?![\d.:：/\-])[\s\u3000]*(?P<text>.*)$",
    re.S,
)
"""A writer's own label of a new doubt with its number (「缺陷 Q-2　…」, 「PRB-1　…」, 「乙-3 …」): the number later
nights name it by (「D020 汀 Q-2」), so it is kept when the numbers only rise (the list may restate an earlier
doubt first, as 「缺陷 Q-1」, and open new ones from 2)."""


def own_labels(texts: Sequence[str], pattern: re.Pattern[str], *, rising: bool = False) -> list[tuple[str, str]] | None:
    """(mark, rest) of each text when every one is led by one word of the writer's and a number (``pattern``'s
    ``word``, ``n`` and ``text``): the writer's own numbering, which a later night names (「行 20」, 「工单 1」).
    The numbers must run 1, 2, 3 …, or with ``rising`` only rise, from two texts on (「行 10」, 「行 20」 …, as
    a purchase order numbers its lines); anything else is no numbering: None."""
    found = [pattern.match(text) for text in texts]
    matches = [m for m in found if m is not None]
    if not found or len(matches) < len(found) or len({m["word"] for m in matches}) != 1:
        return None
    numbers = [int(m["n"]) for m in matches]
    if rising:
        if len(numbers) < 2 or any(b <= a for a, b in itertools.pairwise(numbers)):
            return None
    elif numbers != list(range(1, len(numbers) + 1)):
        return None
    return [(f"{m['word']}{_separator(m)}{m['n']}", m["text"]) for m in matches]


def _separator(m: re.Match[str]) -> str:
    """What stands between a label's word and its number, as written when it is a hyphen (「F-1」), else a space."""
    sep = m.groupdict().get("sep")
    return sep if sep and sep.strip() else " "
