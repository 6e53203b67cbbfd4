"""`digest import`: the team's Markdown brief → brief YAML, with every doubt marked for the editor.

The team writes each night's brief as Markdown in a fixed pattern (see
``tests/fixtures/2026-10-21-inference-E1.md``): a header, 一 the day's items (条目) with
来源 / 要点 / 证据边界 / 与活文档脉络的关系 / 建议归入, 二 contradictions, 三 arXiv ids,
四 conclusions and follow-ups.  This module turns that pattern into the YAML the build loads.

Three kinds of fields come out:

* fields the text *gives* — a path, a § number, a keyword such as 付费墙 or 原地更新 — are read
  by the named rules below and written without comment;
* fields the text only *suggests* — a contradiction that names the same product as an item, a
  year that only appears in another section's prose — are filled in, but each one carries a
  ``# digest-import: …`` comment in the YAML and an :class:`ImportNote`, so a person
  confirms it rather than trusting a guess;
* fields nothing in the text decides are left empty (or set to their safest value, such as
  evidence level ``unverified``) and marked the same way.  An empty required field makes
  ``digest check`` fail on that very line, which keeps an unreviewed gap off the site.

Nothing in the brief is dropped: text the importer cannot place goes to the item's ``notes``
inside an item, and is quoted in a warning and a comment everywhere else.

Ids are not in the text.  They are derived from the brief's date, round and the number the
brief gives (``2026-10-21-e1-item-1``, ``-c1``, ``-f1``), the same stems ``digest new`` uses.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeAlias
from urllib.parse import urlparse

from pydantic import BaseModel, ValidationError

from . import arxiv
from .model import (
    Brief,
    Disposition,
    Entry,
    EvidenceLevel,
    FollowUpStatus,
    Gap,
    Outline,
    PlacementAction,
    Section,
    SourceKind,
    Status,
    ValueRating,
    inner_model,
)
from .vocabulary import Vocabulary, code_for, default_file

SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/brief.schema.json"
MARK = "digest-import"
"""Comments the importer writes start with ``# digest-import:``; an editor deletes each once checked."""


@dataclass(frozen=True)
class ImportNote:
    """Something the editor must check; ``line`` is 1-based, in the Markdown file."""

    line: int
    message: str


# =========================================================================== named patterns

# --- layout
SECTION_HEADING = re.compile(r"^\s*(?P<numeral>[一二三四五六七八九十]+)\s*[、.．]\s*(?P<title>\S.*?)\s*$")
ITEM_HEADING = re.compile(r"^\s*条目\s*(?P<number>\d+)\s*(?:[：:.、．]\s*|\s+)(?P<title>\S.*?)\s*$")
MARKDOWN_MARKS = re.compile(r"^\s*#{1,6}\s+|^\s*\*\*(?=.*\*\*\s*$)|\*\*\s*$")
"""Heading marks a person may add: "## 一、…", "### 条目 1：…", "**条目 1：…**"."""
BULLET = re.compile(r"^\s*[-•*·・]\s+(?P<text>.*?)\s*$")
NUMBERED = re.compile(r"^\s*(?:(?P<n1>\d+)\s*[.、．)）]|[（(](?P<n2>\d+)[）)])\s*(?P<text>.*?)\s*$")
ITEM_LABELS = ("来源", "要点", "证据边界", "与活文档脉络的关系", "建议归入", "顺带")
_LABEL_ALTERNATION = "|".join(ITEM_LABELS)
FIELD_LABEL = re.compile(
    rf"^\s*(?:[-•*]\s+)?\**(?P<label>{_LABEL_ALTERNATION})\**\s*(?:[（(](?P<note>[^）)]*)[）)])?\s*\**[：:]\**\s*(?P<text>.*)$",
    re.S,
)
INLINE_LABEL = re.compile(rf"\s+-\s+(?=(?:{_LABEL_ALTERNATION})\s*(?:[（(][^）)]*[）)])?\s*[：:])")
"""A label written inside another field's paragraph: "… - 建议归入：…", " - 顺带：…"."""
POINT_BULLET = re.compile(r"(?:^|\s+)-\s+")
"""Points are bullets: " - a - b" inside one line, or one "- a" per line (joined with newlines)."""

# --- header
BYLINE = re.compile(r"^作者\s*[：:]\s*(?P<rest>.*)$", re.S)
ROUND_LABEL = re.compile(r"^(?P<label>(?P<round>E\d)\b[^（(]*?)\s*(?:[（(](?P<topic>[^）)]+)[）)])?\s*$")
DATE_TIME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})(?:\s+(?P<time>\d{1,2}:\d{2}))?")
TITLE_FACTS = re.compile(r"^(?P<topic>[a-z0-9-]+)\s*·\s*(?P<round>E\d)\b.*?[（(](?P<date>\d{4}-\d{2}-\d{2})[）)]")
HEADER_LABEL = re.compile(r"^\s*(?:作者|处理依据)\s*[：:]")
PROVENANCE = re.compile(r"^处理依据\s*[：:]\s*(?P<rest>.*)$", re.S)
JOB = re.compile(r"^(?P<checklist>.+?)\s+job\s+(?P<job_id>[^\s（(，,]+)")
JOB_ITEM = re.compile(r"[（(]\s*item\s+(?P<item>[^\s，,）)]+)")
MATERIALS_NOTE = re.compile(r"(?P<note>(?P<count>\d+)\s*份\s*materials?[^，,；;）)]*)")
MATERIALS_LIST = re.compile(r"含\s*(?P<list>[^）)]+)[）)]")
REFERENCES = re.compile(
    r"参照\s*(?P<doc>[^\s（(]+)\s*[（(](?P<doc_meta>[^）)]*)[）)]"
    r"(?:\s*(?:与|和|及|、)\s*(?P<queue>[^\s（(]+)\s*[（(](?P<queue_meta>[^）)]*)[）)])?"
)
REFERENCE_COUNT = re.compile(r"引用\s*(?:→|->)\s*(?P<count>\d+)")
SCOPE = re.compile(r"(?<!证据)边界\s*[：:]\s*(?P<scope>.+)$", re.S)
COUNT_IN_HEADING = re.compile(r"[（(]\s*(?P<count>\d+)\s*条\s*[）)]")

# --- sources
URL = re.compile(r"https?://[^\s<>\"'（）「」，。；、]+")
MATERIAL = re.compile(r"^(?P<path>[^\s「（(]+?\.(?:md|txt|json|ya?ml|html|pdf))(?P<rest>.*)$", re.S)
COLLECTED = re.compile(
    r"^[（(]\s*首次采集\s*(?P<first>\d{4}-\d{2}-\d{2})\s*[，,、]\s*上次采集\s*(?P<last>\d{4}-\d{2}-\d{2})\s*[）)]$"
)

# --- placement
SECTION_REF = re.compile(r"§\s*(?P<section>\d+(?:\.\d+)?)")
ALTERNATIVE = re.compile(r"或[^，,；;。§]{0,12}§\s*(?P<section>\d+(?:\.\d+)?)[^，,；;。]*")
CROSS_REF = re.compile(r"§\s*(?P<section>\d+(?:\.\d+)?)\s*(?:与|和)?\s*(?P<name>[^，,；;。§]*?)\s*交叉引用")
ENTRY_NAME = re.compile(r"「(?P<name>[^」]+)」\s*(?:一行)?(?:分支|子条目|子节点|小节|补充|小注|注脚|条目|段落)")
AFTER = re.compile(r"(?P<name>[^\s，,；;。、（(「」]+)\s*段落?(?:之后|后|下)")
NEW_SECTION = re.compile(r"新建\s*§\s*(?P<section>\d+\.\d+)\s*「(?P<title>[^」]+)」")
"""建议归入：新建 §2.6「KV 与权重的跨实例传输」: the brief opens a sub-section (its title in 「」)."""
PLACEMENT_ACTIONS: list[tuple[PlacementAction, re.Pattern[str]]] = [
    (PlacementAction.update_in_place, re.compile(r"(?<!而非)(?<!不)(?:原地更新|原地刷新|数值更新)")),
    (PlacementAction.mount_lead, re.compile(r"挂线索|下挂|挂载线索")),
    (PlacementAction.footnote, re.compile(r"小注|注脚")),
    (PlacementAction.new_sub_entry, re.compile(r"新增|子节点|子条目|小节|分支|补充")),
    (PlacementAction.cross_reference, re.compile(r"交叉引用")),
    (PlacementAction.mount_lead, re.compile(r"挂载")),
]
"""First rule that matches wins; 原地更新 is looked for in the relation too ("应做原地更新而非新增条目")."""
GUARD_WORDS = re.compile(r"不要|不可|不得|必须|注意|⚠|显式声明|切勿|禁止")
LEADING_CONJUNCTION = re.compile(r"^(?:并且|并|且|同时|而且|另外|但)\s*")

# --- evidence
LEVEL_STATED: list[tuple[EvidenceLevel, re.Pattern[str]]] = [
    ("partially_verified", re.compile(r"已部分核查|部分核查")),
    ("lead", re.compile(r"线索级")),
    ("discard", re.compile(r"丢弃级")),
]
SUMMARY_ONLY = re.compile(r"仅读(?:搜索)?摘要|仅搜索摘要")
CHECKED_SOMETHING = re.compile(r"已核查|已核对|已核实|核实目录")
NOT_VERIFIED = re.compile(r"未验证|未核实|未经[^，。；]{0,6}验证|待核查|未披露")
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
COMMUNITY_HOSTS = (
    "csdn.net",
    "zhihu.com",
    "juejin.cn",
    "reddit.com",
    "news.ycombinator.com",
    "x.com",
    "twitter.com",
    "v2ex.com",
    "discord.com",
)
PERSONAL_HOSTS = ("substack.com", "medium.com", "github.io", "wordpress.com")

# --- figures of a repo card
LANGUAGES = {
    "C",
    "C++",
    "C#",
    "CUDA",
    "Go",
    "Java",
    "JavaScript",
    "Julia",
    "Kotlin",
    "Mojo",
    "Python",
    "Rust",
    "Swift",
    "TypeScript",
    "Zig",
}
LICENSE = re.compile(
    r"^(?:Apache-\d\.\d|MIT|ISC|Unlicense|BSD-\d-Clause|[AL]?GPL-\d\.\d(?:-only|-or-later)?|MPL-\d\.\d)$"
)
FIGURE_RULES: list[tuple[str, str, re.Pattern[str], str | None]] = [
    ("stars", "Stars", re.compile(r"^(?:(?P<value>\d[\d,]*)\s*⭐|Stars\s*(?P<value2>\d[\d,]*))$"), "⭐"),
    ("weekly-gain", "周增", re.compile(r"^周增\s*\+?(?P<value>\d[\d,]*)$"), None),
    ("last-commit", "最近提交", re.compile(r"^最近提交\s*(?P<value>\d{4}-\d{2}-\d{2})$"), None),
    ("maturity", "成熟度", re.compile(r"^成熟度(?:标为|为|[：:])?\s*(?P<value>[A-Za-z][\w-]*)$"), None),
]
COUNTED_AS_OF_COLLECTION = {"stars", "weekly-gain"}
"""Counts on a repo card are as of the card's last collection; the other fields are undated."""

# --- value ratings
ITEM_NUMBERS = re.compile(r"条目\s*(?P<numbers>\d+(?:\s*[/、,，和与]\s*\d+)*)")
TRAILING_BRACKET = re.compile(r"[（(](?P<inner>[^（()）]*)[）)]\s*$")

# --- contradictions
DISPOSITION_RULES: list[tuple[Disposition, re.Pattern[str]]] = [
    ("discarded", re.compile(r"丢弃级")),
    ("down_weighted", re.compile(r"降权")),
    ("pending_login", re.compile(r"待登录核查")),
    ("kept_out", re.compile(r"不入活文档|不建议进活文档")),
    ("blocked", re.compile(r"在修正前不要|修正前不")),
    ("with_label", re.compile(r"必须带|必须标|不得据")),
]
"""First rule that matches wins; otherwise ``pending_check`` (待确认), the safest reading."""
STILL_TO_CHECK = re.compile(r"需确认|待确认|未核实|待核实|无交叉验证")
WITHHELD = re.compile(r"不要把\s*(?:「(?P<claim>[^」]+)」|(?P<bare>[^「」，,。；;]+?))\s*写(?:进|入)")
QUOTED = re.compile(r"「(?P<text>[^」]+)」")
REQUIRED_LABEL = re.compile(r"必须带\s*「(?P<label>[^」]+)」")
MATERIAL_MENTION = re.compile(r"(?P<path>[\w./-]+\.md)\s*(?P<anchor>第\s*\d+\s*条)")
ARXIV_MENTION = re.compile(arxiv.MENTION_LOOSE)

# --- citations
CITATION_HEAD = re.compile(rf"^{arxiv.MENTION_LOOSE}\s*[—–-]+\s*(?P<rest>.*)$", re.S)
CITATION_FACTS: list[tuple[str, re.Pattern[str]]] = [
    ("card", re.compile(r"^卡片来源\s*(?P<value>\S+)$")),
    ("cited_by", re.compile(r"^被引\s*(?P<count>\d+)\s*/\s*(?P<source>S2|OpenAlex)$")),
    ("openalex_id", re.compile(r"^OpenAlex\s*ID\s*(?P<value>W\d+)$")),
    ("doi", re.compile(r"^DOI\s*(?P<value>10\.\S+)$")),
    ("oa_status", re.compile(r"^开放获取\s*(?P<value>\w+)$")),
]
VERIFIED_NOTE = re.compile(r"(?<!未)(?:经核实|已核实)")
YEAR_IN_PROSE = re.compile(r"(?P<year>(?:19|20)\d{2})\s*年")
CARD_TOPIC_IN_PROSE = re.compile(r"卡[^，。,；;]{0,8}主题为\s*(?P<topic>[\w.-]+)")

# --- follow-ups
FOLLOW_UPS = re.compile(
    r"^(?P<heading>需\s*(?P<round>E\d)?\s*跟进的(?P<count>[^：:]*?)件?事?)\s*[：:]\s*(?P<body>.*)$", re.S
)
FOLLOW_UP_MARK = re.compile(r"[①②③④⑤⑥⑦⑧⑨⑩]|[（(]\d+[）)]")
CHINESE_COUNT = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}

# --- names shared between sections (for links the text only suggests)
NAME_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._\-]*[A-Za-z0-9])?%?")
VERSION = re.compile(r"\d+\.\d+\.\d+")
COMMON_WORDS = {"the", "and", "for", "with", "from", "via", "per", "not", "new"}

STANDARD_HEADINGS = {
    "contradictions": "值得警惕的矛盾与待核实说法",
    "citations": "可引用的 arXiv 号",
    "conclusions": "本轮结论与建议动作",
}
SECTION_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("items", re.compile(r"增量|条目")),
    ("contradictions", re.compile(r"矛盾|待核实")),
    ("citations", re.compile(r"arXiv|引用", re.I)),
    ("conclusions", re.compile(r"结论|建议动作|跟进")),
]
NUMERAL_KINDS = {"一": "items", "二": "contradictions", "三": "citations", "四": "conclusions"}

OPENING, CLOSING = "（(「《【[", "）)」》】]"
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")


# =========================================================================== the draft


class _Code(str):
    """A code or an id: written unquoted in the YAML when that is safe, like the curated files."""


_At: TypeAlias = tuple[str | int, ...]
"""Where a value sits in the brief: its keys and list indexes, ``("items", 0, "placement")``;
``("#top",)`` is the top of the file."""


@dataclass
class _Draft:
    """What the import collects besides the brief: warnings, and the comments that go with them."""

    warnings: list[ImportNote] = field(default_factory=list)
    comments: dict[_At, list[str]] = field(default_factory=dict)
    origins: dict[_At, int] = field(default_factory=dict)
    """Markdown line of each part of the brief, so a late finding can still name a line."""
    words: Vocabulary = field(default_factory=lambda: Vocabulary(default_file()))
    """The site's words, which the brief's Chinese words are looked up in."""
    proposed: dict[str, dict[str, str]] = field(default_factory=dict)
    """New words met in the brief, by vocabulary: proposed code → the label as written."""

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

    def warn(self, line: int, message: str, at: _At = ("#top",)) -> None:
        """Report to the CLI and mark the field ``at`` in the YAML (the top of the file when the
        doubt is about no single field, or about a field that was left out)."""
        self.warnings.append(ImportNote(line, message))
        self.comments.setdefault(at, []).append(message)

    def unplaced(self, line: int, text: str, where: str, at: _At = ("#top",)) -> None:
        """Text with no place in the format: quoted, so it is not lost."""
        self.warn(line, f"{where}: text not placed, keep or move it by hand: «{_one_line(text)}»", at)


@dataclass
class _Line:
    number: int
    text: str


@dataclass
class _Part:
    """The header, or one of the numbered sections 一…四 of the brief."""

    kind: str
    heading: str | None
    line: int
    lines: list[_Line]


@dataclass
class _Field:
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


# =========================================================================== entry point


@dataclass(frozen=True)
class Imported:
    """What an import gives: the brief's YAML, what the editor must check, and the new words the
    brief used (by vocabulary: proposed code → label) for the site's vocabulary file."""

    text: str
    notes: list[ImportNote]
    new_words: dict[str, dict[str, str]]


def import_brief(
    markdown: str,
    *,
    outline: Outline | None = None,
    known_briefs: Iterable[Brief] = (),
    vocabulary: Vocabulary | None = None,
) -> tuple[str, list[ImportNote]]:
    """:func:`import_full` without the new words (for callers that keep no vocabulary file)."""
    done = import_full(markdown, outline=outline, known_briefs=known_briefs, vocabulary=vocabulary)
    return done.text, done.notes


def import_full(
    markdown: str,
    *,
    outline: Outline | None = None,
    known_briefs: Iterable[Brief] = (),
    vocabulary: Vocabulary | None = None,
) -> Imported:
    """Markdown text of a brief → YAML text of the brief, plus warnings (never raises on content).

    ``outline`` lets the importer name existing entries (update in place, "after", touches) and
    check § numbers; ``known_briefs`` keeps derived ids unique across the data folder."""
    draft = _Draft(words=vocabulary or Vocabulary(default_file()))
    known_briefs = list(known_briefs)
    outline = _with_brief_entries(outline, known_briefs)
    text = markdown.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = [_Line(n, line.rstrip()) for n, line in enumerate(text.split("\n"), 1)]
    parts = _split_parts(lines, draft)
    brief: dict[str, Any] = {"schema": 1}
    brief.update(_read_header(parts[0], draft))
    stem = _id_stem(brief, known_briefs)
    items: list[dict[str, Any]] = []
    for part in parts[1:]:
        if part.kind == "items":
            brief["items_heading"] = part.heading
            items = _read_items(part, stem, outline, draft)
        elif part.kind == "contradictions":
            brief["contradictions"] = _read_contradictions(part, stem, draft)
        elif part.kind == "citations":
            brief.update(_read_citations(part, draft))
        elif part.kind == "conclusions":
            brief.update(_read_conclusions(part, stem, brief.get("round"), draft))
    brief["items"] = items
    _link(brief, outline, draft)
    _check_counts(brief, parts, draft)
    _validate(brief, draft)
    text = _emit(_reorder(brief, Brief), draft.comments)
    return Imported(text, sorted(draft.warnings, key=lambda w: w.line), draft.proposed)


def _with_brief_entries(outline: Outline | None, briefs: list[Brief]) -> Outline | None:
    """The outline as the living doc now stands: with the sections earlier briefs opened and the
    entries their items created (an entry is named by the id of the item that created it), so a
    later brief can update them in place by name."""
    if outline is None:
        return None
    sections = list(outline.sections)
    entries = list(outline.entries)
    numbers = {s.number for s in sections}
    creating = {PlacementAction.new_sub_entry, PlacementAction.new_section, PlacementAction.footnote}
    for brief in sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id)):
        for item in brief.items:
            p = item.placement
            if p.action is PlacementAction.new_section and p.section not in numbers:
                numbers.add(p.section)
                sections.append(Section.model_construct(number=p.section, title=p.section_title, aliases=[]))
            title = p.entry_title or _title_head(item.title)
            taken = any(e.section == p.section and _fold(e.title) == _fold(title) for e in entries)
            if p.action in creating and not taken:  # a name already there names that entry
                entries.append(
                    Entry.model_construct(
                        id=item.id, section=p.section, title=title, text=item.title, figures=[], stated_in=brief.id
                    )
                )
    return outline.model_copy(update={"sections": sections, "entries": entries})


def _title_head(title: str) -> str:
    """ "llm-d 1.0 发布——CNCF Sandbox …（高价值）" → "llm-d 1.0 发布": what a later brief calls it."""
    return re.split(r"——|—|：|:|（|\(", title, maxsplit=1)[0].strip() or title


# =========================================================================== layout


def _split_parts(lines: list[_Line], draft: _Draft) -> list[_Part]:
    """Header + one part per 一、二、三、四 heading; the kind comes from the heading's words."""
    parts = [_Part("header", None, 1, [])]
    for line in lines:
        m = SECTION_HEADING.match(_bare(line.text))
        if m:
            kind = next(
                (k for k, words in SECTION_KINDS if words.search(m["title"])),
                NUMERAL_KINDS.get(m["numeral"], "unknown"),
            )
            earlier = next((p for p in parts if p.kind == kind and kind != "unknown"), None)
            if earlier is not None:  # a second 一 (or 二 …): read on as more of the first, lose nothing
                draft.unplaced(line.number, line.text, f"a second {kind} section; its content is read with the first")
                parts.append(earlier)
                continue
            parts.append(_Part(kind, m["title"], line.number, []))
            if kind in STANDARD_HEADINGS and m["title"] != STANDARD_HEADINGS[kind]:
                draft.unplaced(
                    line.number, m["title"], f"heading of section {m['numeral']} (the YAML keeps no heading here)"
                )
            elif kind == "unknown":
                draft.unplaced(line.number, line.text, "unknown section heading")
        else:
            parts[-1].lines.append(line)
    parts = [p for i, p in enumerate(parts) if all(p is not q for q in parts[:i])]  # a repeated section once
    for part in parts:
        if part.kind == "unknown":
            for number, text in _paragraphs(part.lines):
                draft.unplaced(number, text, "unknown section")
    return parts


def _paragraphs(lines: list[_Line]) -> list[tuple[int, str]]:
    """(first line, text) of each run of non-blank lines, joined as Markdown would."""
    out: list[tuple[int, str]] = []
    previous_blank = True
    for line in lines:
        if not line.text.strip():
            previous_blank = True
            continue
        if previous_blank:
            out.append((line.number, line.text.strip()))
        else:
            out[-1] = (out[-1][0], _join(out[-1][1], line.text.strip()))
        previous_blank = False
    return out


def _entries(lines: list[_Line], starts: re.Pattern[str]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Split a section into its entries (lines matching ``starts``, with their continuation lines)
    and the other paragraphs, each with its first line."""
    entries: list[tuple[int, str]] = []
    others: list[tuple[int, str]] = []
    current: list[tuple[int, str]] | None = None
    previous_blank = True
    for line in lines:
        text = line.text.strip()
        if not text:
            previous_blank = True
            continue
        if starts.match(line.text):
            entries.append((line.number, text))
            current = entries
        elif not previous_blank and current is not None:
            current[-1] = (current[-1][0], _join(current[-1][1], text))
        else:
            others.append((line.number, text))
            current = others
        previous_blank = False
    return entries, others


def _join(before: str, after: str) -> str:
    """Join a wrapped line: no space between Chinese characters, one between Latin words."""
    if not before:
        return after
    if CJK.match(before[-1]) or CJK.match(after[0]):
        return before + after
    return f"{before} {after}"


def _split_outside(text: str, separators: str) -> list[str]:
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


def _label_colon(text: str) -> int | None:
    """Index of the colon that ends a "title：text" lead, outside brackets.

    A half-width colon only counts when it is not part of a word or link (``arXiv:1605.08803``,
    ``e1_prep:inference``, ``https://``, ``22:20``)."""
    depth = 0
    for i, char in enumerate(text):
        if char in OPENING:
            depth += 1
        elif char in CLOSING:
            depth = max(0, depth - 1)
        elif depth == 0 and char == "：":
            return i
        elif depth == 0 and char == ":":
            before, after = text[i - 1 : i], text[i + 1 : i + 2]
            if after == "/" or (before.isascii() and before.isalnum() and after.isascii() and after.isalnum()):
                continue
            return i
    return None


def _bare(text: str) -> str:
    """A heading line without the Markdown marks around it."""
    return MARKDOWN_MARKS.sub("", text)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _strip_end(text: str) -> str:
    return text.strip().rstrip("；;，,。.").strip()


# =========================================================================== header


def _read_header(part: _Part, draft: _Draft) -> dict[str, Any]:
    """Title (the first line), byline (作者 · round · date time) and provenance (处理依据 … 参照 … 边界：…)."""
    header: dict[str, Any] = {}
    lines = list(part.lines)
    first = next((line for line in lines if line.text.strip()), None)
    if first is None:
        draft.warn(1, "the brief has no title line", ("title",))
        header["title"] = ""
        title, title_line = "", 1
    else:
        title, title_line = _bare(first.text).strip(), first.number
        lines = lines[lines.index(first) + 1 :]
    header["title"] = title
    draft.origins[("title",)] = title_line
    entries, others = _entries(lines, HEADER_LABEL)
    for number, text in entries:
        if m := BYLINE.match(text):
            header.update(_read_byline(m["rest"], number, draft))
        elif m := PROVENANCE.match(text):
            header.update(_read_provenance(m["rest"], number, draft))
    for number, text in others:
        draft.unplaced(number, text, "header")
    _header_fallbacks(header, title, title_line, draft)
    return header


def _read_byline(rest: str, line: int, draft: _Draft) -> dict[str, Any]:
    """``Tom · E1 日间预消化轮（inference）· 2026-10-21 22:20``."""
    out: dict[str, Any] = {}
    pieces = [p.strip() for p in _split_outside(rest, "·")]
    if pieces and pieces[0] and not ROUND_LABEL.match(pieces[0]) and not DATE_TIME.fullmatch(pieces[0]):
        out["author"] = pieces.pop(0)
    for piece in pieces:
        if (m := ROUND_LABEL.match(piece)) and m["round"]:
            out["round"] = _Code(m["round"])
            out["round_label"] = m["label"].strip()
            if m["topic"]:
                out["topic"] = _Code(m["topic"].strip())
        elif m := DATE_TIME.fullmatch(piece):
            out["date"] = m["date"]
            if m["time"]:
                out["written_at"] = m["time"]
        elif piece:
            draft.unplaced(line, piece, "byline (作者 …)")
    for key in out:
        draft.origins[(key,)] = line
    return out


def _read_provenance(rest: str, line: int, draft: _Draft) -> dict[str, Any]:
    """处理依据: job and materials read, the reference versions (参照), and the scope (边界)."""
    out: dict[str, Any] = {}
    if m := JOB.match(rest):
        out["job"] = {"checklist": m["checklist"].strip(), "job_id": m["job_id"]}
        if item := JOB_ITEM.search(rest):
            out["job"]["item"] = item["item"]
    else:
        draft.warn(line, "处理依据: no 'job <id>' found; job left empty", ("job",))
    if m := MATERIALS_NOTE.search(rest):
        out["materials_read"] = int(m["count"])
        out["materials_note"] = m["note"].strip()
    if m := MATERIALS_LIST.search(rest):
        out["materials"] = [{"path": p.strip()} for p in re.split(r"[、，,]", m["list"]) if p.strip()]
    else:
        draft.warn(line, "处理依据: no materials list (含 a、b、…) found; materials left empty", ("materials",))
    if m := REFERENCES.search(rest):
        out["living_doc"] = _doc_ref(m["doc"], m["doc_meta"])
        if m["queue"]:
            out["queue"] = _doc_ref(m["queue"], m["queue_meta"])
    else:
        draft.warn(line, "处理依据: no 参照 <living doc>（version） found; living_doc left empty", ("living_doc",))
    if m := SCOPE.search(rest):
        out["scope"] = m["scope"].strip()
    else:
        draft.warn(line, "处理依据: no 边界：… (scope) found; scope left empty", ("scope",))
    for key in out:
        draft.origins[(key,)] = line
    return out


def _doc_ref(path: str, meta: str) -> dict[str, Any]:
    """``organized/knowledge/inference.md（Oct20 午版，引用→527）``: path, version, reference count."""
    ref: dict[str, Any] = {"path": path}
    pieces = [p.strip() for p in re.split(r"[，,]", meta) if p.strip()]
    rest = []
    for piece in pieces:
        if m := REFERENCE_COUNT.search(piece):
            ref["reference_count"] = int(m["count"])
        else:
            rest.append(piece)
    if rest:
        ref["version"] = "，".join(rest) if len(rest) > 1 else rest[0]
    return ref


def _header_fallbacks(header: dict[str, Any], title: str, line: int, draft: _Draft) -> None:
    """Topic, round and date also appear in the title; use them where the byline lacks one,
    and warn where the two disagree."""
    facts = TITLE_FACTS.match(title)
    for key in ("topic", "round", "date"):
        from_title = facts[key] if facts else None
        if key not in header and from_title:
            header[key] = _Code(from_title) if key != "date" else from_title
        elif key in header and from_title and str(header[key]) != from_title:
            draft.warn(
                draft.origins.get((key,), line),
                f"the byline says {key} {header[key]} but the title says {from_title}",
                (key,),
            )
        elif key not in header:
            draft.warn(line, f"no {key} in the byline or the title; {key} left empty", (key,))
            header[key] = ""
    try:
        header["date"] = dt.date.fromisoformat(header["date"]) if header["date"] else ""
    except ValueError:
        draft.warn(draft.origins.get(("date",), line), f"{header['date']!r} is not a date; date left empty", ("date",))
        header["date"] = ""
    if header["topic"] and header["round"] and header["date"]:
        header["id"] = f"{header['date'].isoformat()}-{header['topic']}-{header['round']}"
    else:
        header["id"] = ""
        draft.warn(line, "brief id needs the date, topic and round; left empty", ("id",))


def _id_stem(header: dict[str, Any], known_briefs: Iterable[Brief]) -> str:
    """``2026-10-21-e1`` like ``digest new``; with the topic too if another brief already uses the stem."""
    date = header.get("date")
    day = date.isoformat() if isinstance(date, dt.date) else "undated"
    round_ = str(header.get("round") or "e0").lower()
    stem = f"{day}-{round_}"
    others = [b for b in known_briefs if b.id != header.get("id")]
    taken = (
        {i.id for b in others for i in b.items}
        | {c.id for b in others for c in b.contradictions}
        | {f.id for b in others for f in b.follow_ups}
    )
    if any(t.startswith(f"{stem}-") for t in taken) and header.get("topic"):
        stem = f"{day}-{header['topic']}-{round_}"
    return stem


# =========================================================================== items


def _read_items(part: _Part, stem: str, outline: Outline | None, draft: _Draft) -> list[dict[str, Any]]:
    """Each 条目 N：title and the labelled paragraphs under it."""
    blocks: list[tuple[_Line, re.Match[str], list[_Line]]] = []
    leading: list[_Line] = []
    for line in part.lines:
        if m := ITEM_HEADING.match(_bare(line.text)):
            blocks.append((line, m, []))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            leading.append(line)
    for number, text in _paragraphs(leading):
        draft.unplaced(number, text, "section 一 before the first 条目")
    items: list[dict[str, Any]] = []
    seen: Counter[int] = Counter()
    for index, (heading, m, body) in enumerate(blocks):
        number = int(m["number"])
        seen[number] += 1
        item_id = f"{stem}-item-{number}" + ("" if seen[number] == 1 else f"-{seen[number]}")
        at = ("items", index)
        draft.origins[at] = heading.number
        if seen[number] > 1:
            draft.warn(heading.number, f"条目 {number} appears twice; the second got id {item_id}", at + ("id",))
        items.append(_read_item(number, item_id, m["title"], heading.number, body, outline, draft, at))
    _check_numbering(
        [i["number"] for i in items], [draft.origins[("items", i)] for i in range(len(items))], "条目", "items", draft
    )
    return items


def _item_fields(body: list[_Line]) -> list[_Field]:
    """The labelled paragraphs of an item, whether written inline (" - 建议归入：") or one per line."""
    fields: list[_Field] = []
    current: _Field | None = None
    previous_blank = True
    for line in body:
        text = line.text.strip()
        if not text:
            previous_blank = True
            continue
        if m := FIELD_LABEL.match(line.text):
            current = _Field(m["label"], m["text"].strip(), line.number, m["note"], _head(m))
            fields.append(current)
        elif (bullet := BULLET.match(line.text)) and current is not None:
            current.text += "\n- " + bullet["text"]
        elif current is not None and not previous_blank:
            current.text = _join(current.text, text)
        else:
            current = _Field(None, text, line.number)
            fields.append(current)
        previous_blank = False
    return [piece for f in fields for piece in _inline_fields(f)]


def _inline_fields(f: _Field) -> Iterator[_Field]:
    """Split "关系… - 建议归入：… - 顺带：…" into its three fields."""
    cuts = list(INLINE_LABEL.finditer(f.text))
    ends = [m.start() for m in cuts] + [len(f.text)]
    yield _Field(f.label, f.text[: ends[0]].strip(), f.line, f.note, f.head)
    for m, end in zip(cuts, ends[1:], strict=True):  # ends: the next cut's start, or the text's end
        label = FIELD_LABEL.match(f.text[m.end() : end])
        assert label is not None, "INLINE_LABEL only cuts before a label that FIELD_LABEL reads"
        line = f.line + f.text[: m.end()].count("\n")
        yield _Field(label["label"], label["text"].strip(), line, label["note"], _head(label))


def _head(m: re.Match[str]) -> str:
    """The label part of a FIELD_LABEL match, without a bullet or bold marks in front."""
    return m.string[m.start("label") : m.start("text")].replace("*", "")


def _read_item(
    number: int,
    item_id: str,
    title: str,
    line: int,
    body: list[_Line],
    outline: Outline | None,
    draft: _Draft,
    at: _At,
) -> dict[str, Any]:
    fields = _item_fields(body)
    by_label: dict[str, _Field] = {}
    notes: list[str] = []
    for f in fields:
        if f.label is None:
            notes.append(f.text)
            draft.unplaced(f.line, f.text, f"条目 {number}: paragraph without a label, kept in notes", at + ("notes",))
        elif f.label == "顺带":
            notes.append(f.raw)
        elif f.label in by_label:
            notes.append(f.raw)
            draft.warn(f.line, f"条目 {number}: a second {f.label}; kept in notes", at + ("notes",))
        else:
            by_label[f.label] = f
    item: dict[str, Any] = {"id": _Code(item_id), "number": number, "title": title}
    item["value"] = _title_rating(title, line, draft)
    item["sources"] = _read_sources(by_label.get("来源"), number, line, draft, at + ("sources",), notes)
    points = by_label.get("要点")
    if points and points.note:
        item["points_note"] = points.note.strip()
    item["points"] = _read_points(points, number, line, draft, at + ("points",))
    relation = by_label.get("与活文档脉络的关系")
    item["evidence"] = _read_evidence(by_label.get("证据边界"), item, number, line, draft, at + ("evidence",))
    item["relation"] = relation.text if relation else ""
    if not relation or not relation.text:
        where = relation.line if relation else by_label.get("建议归入", _Field(None, "", line)).line
        draft.warn(
            where,
            f"条目 {number}: no 与活文档脉络的关系; relation left empty (write it or ask the author)",
            at + ("relation",),
        )
    placement_field = by_label.get("建议归入")
    item["placement"] = _read_placement(
        placement_field, item, relation.text if relation else "", line, outline, draft, at + ("placement",)
    )
    guards = _guards(placement_field.text) if placement_field else []
    if guards:
        item["guards"] = guards
    figures = _repo_card_figures(item, line, draft, at + ("figures",))
    if figures:
        item["figures"] = figures
    if notes:
        item["notes"] = notes
    return item


def _title_rating(title: str, line: int, draft: _Draft) -> list[ValueRating]:
    """A rating written at the end of the title: "…（高价值）", "…（低价值，仅见截图）".

    A bracket part that is a word of the vocabulary is read as it; one of the same shape as a
    rating (低价值, 极高价值) is a new word, proposed for the vocabulary file."""
    m = TRAILING_BRACKET.search(title)
    if not m:
        return []
    codes = []
    for part in re.split(r"[，,、/；;]", m["inner"]):
        part = part.strip()
        if found := _value_words(part, draft):
            codes += [draft.code("value_ratings", w, line) for w in found]
        elif NEW_RATING.fullmatch(part):
            codes.append(draft.code("value_ratings", part, line))
    return codes


NEW_RATING = re.compile(r"[\u4e00-\u9fff]{1,4}价值")
"""The shape of a value rating the vocabulary does not have yet, as a whole bracket part."""


def _value_words(text: str, draft: _Draft) -> list[str]:
    """The value ratings a piece of text names: the site's words and those this brief proposed
    (longest first, so 高价值但待回溯 is not read as 高价值)."""
    spellings = [spelling for spelling, _ in draft.words.spellings("value_ratings")]
    spellings += list(draft.proposed.get("value_ratings", {}).values())
    if not spellings:
        return []
    return re.findall("|".join(re.escape(x) for x in sorted(set(spellings), key=lambda x: (-len(x), x))), text)


def _read_sources(f: _Field | None, number: int, line: int, draft: _Draft, at: _At, notes: list[str]) -> dict[str, Any]:
    """``path 第 2 条 与 path2 保留来源 · https://…``: materials (with anchors or collection dates) and URLs."""
    sources: dict[str, Any] = {"materials": [], "urls": []}
    if f is None:
        draft.warn(line, f"条目 {number}: no 来源; sources left empty", at)
        return sources
    for piece in (p.strip() for p in _split_outside(f.text, "·")):
        if not piece:
            continue
        sources["urls"] += [u.rstrip(".,;:)") for u in URL.findall(piece)]
        rest = URL.sub("", piece).strip()
        for material in (m.strip() for m in re.split(r"\s+与\s+", rest) if m.strip()):
            ref = _material(material)
            if ref is None:
                notes.append(material)
                draft.unplaced(
                    f.line,
                    material,
                    f"条目 {number}: 来源 part with no material path, kept in notes",
                    at[:-1] + ("notes",),
                )
            else:
                sources["materials"].append(ref)
    return {k: v for k, v in sources.items() if v}


def _material(text: str) -> dict[str, Any] | None:
    m = MATERIAL.match(text)
    if not m:
        return None
    ref: dict[str, Any] = {"path": m["path"]}
    rest = m["rest"].strip()
    if collected := COLLECTED.match(rest):
        ref["first_collected"] = dt.date.fromisoformat(collected["first"])
        ref["last_collected"] = dt.date.fromisoformat(collected["last"])
    elif rest:
        ref["anchor"] = rest
    return ref


def _read_points(f: _Field | None, number: int, line: int, draft: _Draft, at: _At) -> list[str]:
    """要点 bullets, inline (" - a - b") or one per line; a 要点 without bullets is one point."""
    if f is None or not f.text.strip():
        draft.warn(f.line if f else line, f"条目 {number}: no 要点; points left empty", at)
        return []
    text = f.text.strip()
    pieces = [p.strip() for p in POINT_BULLET.split(text)]
    if len(pieces) > 1 and pieces[0]:
        draft.warn(f.line, f"条目 {number}: 要点 has text before its first bullet; kept as the first point", at)
    return [p for p in pieces if p]


def _read_evidence(
    f: _Field | None, item: dict[str, Any], number: int, line: int, draft: _Draft, at: _At
) -> dict[str, Any]:
    """Level, gaps and source kinds, read from the 证据边界 (and the points for the level)."""
    boundary = f.text if f else ""
    if not boundary:
        draft.warn(f.line if f else line, f"条目 {number}: no 证据边界; boundary left empty", at + ("boundary",))
    points_text = "\n".join(item["points"] + [item.get("points_note", "")])
    level = _evidence_level(boundary, points_text)
    if level is None:
        level = "unverified"
        draft.warn(
            f.line if f else line,
            f"条目 {number}: the 证据边界 says nothing about how far it was checked; level set to unverified",
            at + ("level",),
        )
    gaps = _gaps(boundary)
    evidence: dict[str, Any] = {"level": level}
    kinds = _source_kinds(item["sources"], gaps, number, f.line if f else line, draft, at + ("source_kinds",))
    if kinds:
        evidence["source_kinds"] = kinds
    if gaps:
        evidence["gaps"] = gaps
    evidence["boundary"] = boundary
    return evidence


def _evidence_level(boundary: str, points: str) -> EvidenceLevel | None:
    """Explicit words first (属已部分核查, 属线索级, 丢弃级), then what was done (仅读搜索摘要 →
    lead, 已核查/已核对/核实目录 → partially verified), then 未验证/待核查 → unverified."""
    for level, words in LEVEL_STATED:
        if words.search(boundary) or words.search(points):
            return level
    if SUMMARY_ONLY.search(boundary):
        return "lead"
    if CHECKED_SOMETHING.search(points) or CHECKED_SOMETHING.search(boundary):
        return "partially_verified"
    if NOT_VERIFIED.search(boundary):
        return "unverified"
    return None


def _gaps(boundary: str) -> list[Gap]:
    found = [(m.start(), gap) for gap, words in GAP_WORDS if (m := words.search(boundary))]
    return [gap for _, gap in sorted(found, key=lambda pair: pair[0])]


def _source_kinds(
    sources: dict[str, Any], gaps: list[Gap], number: int, line: int, draft: _Draft, at: _At
) -> list[SourceKind]:
    """What kind of source each link or card is: by host, refined by the gaps (a paywalled
    Substack is a paywalled newsletter, a financial-media one is financial media)."""
    kinds: list[SourceKind] = []
    unknown: list[str] = []
    for url in sources.get("urls", []):
        kind = _url_kind(url, gaps)
        if kind is None:
            unknown.append(urlparse(url).hostname or url)
        elif kind not in kinds:
            kinds.append(kind)
    for material in sources.get("materials", []):
        kind = (
            "repo_card"
            if "repo_cards/" in material["path"]
            else "paper_card"
            if "paper_cards/" in material["path"]
            else None
        )
        if kind and kind not in kinds:
            kinds.append(kind)
    for gap, kind in (
        ("vendor_self_report", "vendor_self_report"),
        ("financial_media", "financial_media"),
    ):
        if gap in gaps and kind not in kinds:
            kinds.append(kind)
    if unknown and not kinds:
        draft.warn(
            line,
            f"条目 {number}: no rule says what kind of source {', '.join(unknown)} is; source_kinds left empty",
            at[:-1] + ("level",),
        )  # source_kinds is left out, so the mark goes on its neighbour
    return kinds


def _url_kind(url: str, gaps: list[Gap]) -> SourceKind | None:
    parsed = urlparse(url)
    host, path = (parsed.hostname or "").lower(), parsed.path.lower()
    if host.endswith(PERSONAL_HOSTS):
        if "paywall" in gaps:
            return "paywalled_newsletter"
        if "financial_media" in gaps:
            return "financial_media"
        return "personal_blog"
    if host.endswith(COMMUNITY_HOSTS):
        return "community_post"
    if (
        host.startswith("docs.")
        or "readthedocs" in host
        or (host in ("github.com", "gitlab.com") and ("/docs/" in path or path.endswith((".md", ".rst"))))
    ):
        return "project_docs"
    if "blog" in host or path.startswith("/blog") or "/blog/" in path:
        return "official_blog"
    return None


# --------------------------------------------------------------------------- placement


def _read_placement(
    f: _Field | None, item: dict[str, Any], relation: str, line: int, outline: Outline | None, draft: _Draft, at: _At
) -> dict[str, Any]:
    """建议归入: the section (first §), the action (by the words), the entry, alternatives."""
    number = item["number"]
    if f is None or not f.text:
        draft.warn(f.line if f else line, f"条目 {number}: no 建议归入; placement left empty", at + ("section",))
        return {"section": "", "action": PlacementAction.mount_lead, "text": f.text if f else ""}
    text = f.text
    sections = [m["section"] for m in SECTION_REF.finditer(text)]
    placement: dict[str, Any] = {"section": sections[0] if sections else "", "text": text}
    if not sections:
        draft.warn(f.line, f"条目 {number}: 建议归入 names no § section; section left empty", at + ("section",))
    elif not NEW_SECTION.search(text):
        _known_section(sections[0], outline, f.line, draft, at + ("section",))
    action = _placement_action(text, relation)
    if opened := NEW_SECTION.search(text):
        action = PlacementAction.new_section
        placement["section"] = opened["section"]
        placement["section_title"] = opened["title"]
    if action is None:
        action = PlacementAction.mount_lead
        draft.warn(
            f.line,
            f"条目 {number}: 建议归入 does not say how (新增/原地更新/小注…); action set to mount_lead",
            at + ("action",),
        )
    placement["action"] = action
    section = placement["section"]
    if action is PlacementAction.update_in_place:
        entry = _entry_to_update(text, item["title"], section, outline)
        placement["entry"] = _Code(entry) if entry else ""
        if not entry:
            draft.warn(
                f.line,
                f"条目 {number}: an in-place update (原地更新) of §{section}, but no entry of that section "
                "(in the outline or created by an earlier brief) is named in 建议归入; write entry: <id>",
                at + ("entry",),
            )
    elif name := ENTRY_NAME.search(text):
        placement["entry_title"] = name["name"]
    if after := _after(text, number, section, outline, f.line, draft, at):
        placement["after"] = _Code(after)
    alternatives = [
        {"section": m["section"], "note": m.group(0).strip()}
        for m in ALTERNATIVE.finditer(text)
        if m["section"] != section
    ]
    for j, alternative in enumerate(alternatives):
        _known_section(alternative["section"], outline, f.line, draft, at + ("alternatives", j, "section"))
    if alternatives:
        placement["alternatives"] = alternatives
    cross_refs = [{"section": m["section"], "_name": m["name"], "_line": f.line} for m in CROSS_REF.finditer(text)]
    if cross_refs:
        placement["cross_refs"] = cross_refs  # the names are resolved once every item is read (see _link)
    return placement


def _after(
    text: str, number: int, section: str, outline: Outline | None, line: int, draft: _Draft, at: _At
) -> str | None:
    """ "作为 v0.8 段落后的…" / "Dynamo 段落下": the one outline entry of the section with that name."""
    m = AFTER.search(text)
    if not m:
        return None
    after = _unique([e.id for e in _section_entries(outline, section) if m["name"].lower() in e.title.lower()])
    if not after:
        draft.warn(
            line,
            f"条目 {number}: 建议归入 places it after «{m['name']}», which names no single entry of "
            f"§{section}; add after: <entry id>",
            at + ("text",),
        )
    return after


def _placement_action(text: str, relation: str) -> PlacementAction | None:
    for action, words in PLACEMENT_ACTIONS:
        if words.search(text) or (action is PlacementAction.update_in_place and words.search(relation)):
            return action
    return None


def _entry_to_update(text: str, item_title: str, section: str, outline: Outline | None) -> str | None:
    """The outline entry of the section whose title the placement names; the item's title breaks a tie
    ("Kapitsa 段数值更新 + 选型决策树保持不变" updates Kapitsa, the item is about Kapitsa)."""
    entries = _section_entries(outline, section)
    named = [e for e in entries if _fold(e.title) in _fold(text)]
    if len(named) > 1:
        named = [e for e in named if _fold(e.title) in _fold(item_title)]
    if not named:  # 「llm-d 1.0」子节点: a quoted name that is part of one entry's title
        quoted = [_fold(m["text"]) for m in QUOTED.finditer(text.split("原地")[0])]
        named = [e for e in entries if any(q and q in _fold(e.title) for q in quoted)]
    return named[0].id if len(named) == 1 else None


def _fold(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def _section_entries(outline: Outline | None, section: str) -> list[Entry]:
    return [e for e in outline.entries if e.section == section] if outline else []


def _known_section(section: str, outline: Outline | None, line: int, draft: _Draft, at: _At) -> None:
    if outline and section not in {s.number for s in outline.sections}:
        draft.warn(line, f"§{section} is not a section of the {outline.topic} outline", at)


def _unique(values: list[str]) -> str | None:
    values = list(dict.fromkeys(values))
    return values[0] if len(values) == 1 else None


def _guards(text: str) -> list[str]:
    """The clauses of 建议归入 that forbid or require something (不要/不可/必须/注意/⚠/显式声明).

    A guard runs from the first comma-clause that holds such a word to the end of its
    ；-clause, so "必须带…，不可直接当作结论。" stays one guard."""
    guards = []
    for sentence in re.findall(r"[^。]+。?", text):
        for clause in re.split(r"[；;]", sentence):
            parts = _split_outside(clause, "，,")
            for k, part in enumerate(parts):
                if GUARD_WORDS.search(part):
                    joined = clause[sum(len(p) + 1 for p in parts[:k]) :]
                    guards.append(LEADING_CONJUNCTION.sub("", joined.strip()))
                    break
    return [g for g in guards if g]


# --------------------------------------------------------------------------- figures


def _repo_card_figures(item: dict[str, Any], line: int, draft: _Draft, at: _At) -> list[dict[str, Any]]:
    """Figures of a repo-card refresh: "155 ⭐，周增 +175，C++，Apache-2.0，最近提交 …，成熟度标为 …"."""
    cards = [m for m in item["sources"].get("materials", []) if "repo_cards/" in m["path"]]
    if not cards:
        return []
    point = next((p for p in item["points"] if "⭐" in p or "Stars" in p), None)
    if point is None:
        draft.warn(
            line,
            f"条目 {item['number']}: a repo card, but no point gives its Stars; no figures read",
            at[:-1] + ("points",),
        )
        return []
    as_of = cards[0].get("last_collected")
    figures = []
    for clause in (c.strip() for c in re.split(r"[，,]", point) if c.strip()):
        figure = _figure(clause)
        if figure is None:
            draft.warn(line, f"条目 {item['number']}: «{clause}» is not read as a figure; it stays in the points", at)
            continue
        if figure["key"] in COUNTED_AS_OF_COLLECTION and as_of:
            figure["as_of"] = as_of
        figures.append(figure)
    return figures


def _figure(clause: str) -> dict[str, Any] | None:
    for key, label, pattern, unit in FIGURE_RULES:
        if m := pattern.match(clause):
            raw = m.group("value") or (m.groupdict().get("value2") or "")
            value: int | str = int(raw.replace(",", "")) if key in COUNTED_AS_OF_COLLECTION else raw
            figure = {"key": _Code(key), "label": label, "value": value}
            if unit:
                figure["unit"] = unit
            return figure
    if clause in LANGUAGES:
        return {"key": _Code("language"), "label": "语言", "value": clause}
    if LICENSE.match(clause):
        return {"key": _Code("license"), "label": "许可", "value": clause}
    return None


# =========================================================================== contradictions


def _read_contradictions(part: _Part, stem: str, draft: _Draft) -> list[dict[str, Any]]:
    """``N. title：text`` per contradiction; the disposition and withheld claims come from the words."""
    entries, others = _entries(part.lines, NUMBERED)
    for number, text in others:
        draft.unplaced(number, text, "section 二: paragraph outside a numbered contradiction")
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
    return contradictions


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
    claims = list(dict.fromkeys((m["claim"] or m["bare"]).strip() for m in WITHHELD.finditer(text)))
    if claims:
        c["withheld"] = [{"text": claim, "patterns": _spellings(claim, whole)} for claim in claims]
    if m := REQUIRED_LABEL.search(text):
        c["required_label"] = m["label"]
    disposition = next((d for d, words in DISPOSITION_RULES if words.search(whole)), None)
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


# =========================================================================== citations


def _read_citations(part: _Part, draft: _Draft) -> dict[str, Any]:
    """The note before the list, one bullet per arXiv id, and what was not registered after it."""
    starts = re.compile(r"^\s*(?:[-•*·]\s*)?arXiv\s*[:：]")
    entries, others = _entries(part.lines, starts)
    out: dict[str, Any] = {}
    first_entry = entries[0][0] if entries else None
    stray = [(n, t) for n, t in _entries(part.lines, BULLET)[0] if not starts.match(t)]
    for n, t in stray:
        draft.unplaced(n, t, "section 三: bullet without an arXiv id")
    others = [(n, t) for n, t in others if (n, t) not in stray]
    before = [(n, t) for n, t in others if first_entry is not None and n < first_entry]
    after = [(n, t) for n, t in others if first_entry is None or n > first_entry]
    for key, paragraphs in (("citations_note", before), ("citations_not_registered", after)):
        if not paragraphs:
            continue
        out[key] = "\n".join(t.strip().rstrip("：:").strip() if key == "citations_note" else t for _, t in paragraphs)
        if len(paragraphs) > 1:  # the pattern has one paragraph on each side of the list: which one is it?
            for n, t in paragraphs:
                draft.unplaced(n, t, f"section 三: {len(paragraphs)} paragraphs joined into {key}", (key,))
    verified = bool(VERIFIED_NOTE.search(out.get("citations_note", "")))
    out["citations"] = [
        _read_citation(line, text, verified, draft, ("citations", i)) for i, (line, text) in enumerate(entries)
    ]
    return out


def _read_citation(line: int, text: str, verified: bool, draft: _Draft, at: _At) -> dict[str, Any]:
    """``arXiv:ID — Title（卡片来源 …；被引 N / S2，…）——use note``."""
    draft.origins[at] = line
    text = BULLET.sub(r"\g<text>", text, count=1)
    m = CITATION_HEAD.match(text)
    citation: dict[str, Any] = {"arxiv": m["id"] if m else "", "title": ""}
    if not m:
        draft.warn(line, f"cannot read «{_one_line(text)}» as 'arXiv:ID — title'", at + ("arxiv",))
        return citation
    rest = m["rest"]
    open_at = min((i for i in (rest.find("（"), rest.find("(")) if i >= 0), default=-1)
    if open_at < 0:
        title, meta, note = rest, "", ""
    else:
        close_at = _matching_close(rest, open_at)
        title, meta, note = rest[:open_at], rest[open_at + 1 : close_at], rest[close_at + 1 :]
    citation["title"] = title.strip()
    for piece in (p.strip() for p in re.split(r"[；;，,]", meta) if p.strip()):
        _citation_fact(citation, piece, line, draft, at)
    if verified:
        citation["verified"] = True
    note = note.strip().lstrip("—–-").strip()
    if note:
        citation["use_note"] = note
    return citation


def _matching_close(text: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "（(":
            depth += 1
        elif text[i] in "）)":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _citation_fact(citation: dict[str, Any], piece: str, line: int, draft: _Draft, at: _At) -> None:
    for key, pattern in CITATION_FACTS:
        if m := pattern.match(piece):
            if key == "cited_by":
                citation.setdefault("cited_by", []).append({"source": m["source"], "count": int(m["count"])})
            else:
                citation[key] = m["value"]
            return
    draft.unplaced(line, piece, f"citation {citation['arxiv']}: fact in brackets not understood", at + ("title",))


# =========================================================================== conclusions


def _read_conclusions(part: _Part, stem: str, round_: str | None, draft: _Draft) -> dict[str, Any]:
    """Bullets are conclusions, except "需 E2 跟进的三件事：①…②…③…", which holds the follow-ups."""
    bullets, others = _entries(part.lines, BULLET)
    out: dict[str, Any] = {"conclusions": [], "_ratings": _conclusion_ratings(bullets, draft)}
    for line, text in sorted(bullets + others):
        bullet = BULLET.match(text)
        body = bullet["text"] if bullet else text
        if bullet and (m := FOLLOW_UPS.match(body)):
            if "follow_ups" in out:
                draft.warn(line, "a second follow-up list; its follow-ups are numbered on", ("follow_ups_heading",))
            out.setdefault("follow_ups_heading", m["heading"].strip())
            earlier = out.setdefault("follow_ups", [])
            earlier.extend(_read_follow_ups(m, line, stem, round_, len(earlier), draft))
            continue
        out["conclusions"].append(body)
        draft.origins[("conclusions", len(out["conclusions"]) - 1)] = line
        if not bullet:
            draft.warn(
                line,
                f"section 四: «{_one_line(text)[:40]}…» is not a bullet; kept as a conclusion",
                ("conclusions", len(out["conclusions"]) - 1),
            )
    return out


def _read_follow_ups(
    m: re.Match[str], line: int, stem: str, round_: str | None, before: int, draft: _Draft
) -> list[dict[str, Any]]:
    """① … ② … ③ …: one follow-up each, for the round the heading names (needed E2 → E2)."""
    follow_round = m["round"]
    if not follow_round:
        follow_round = f"E{int(str(round_)[1:]) + 1}" if round_ and str(round_)[1:].isdigit() else ""
        draft.warn(
            line,
            f"follow-ups: the heading names no round; round set to {follow_round or '(empty)'}",
            ("follow_ups", before, "round"),
        )
    texts = [_strip_end(t) for t in FOLLOW_UP_MARK.split(m["body"])]
    if texts and texts[0]:
        draft.unplaced(line, texts[0], "follow-ups: text before ①", ("follow_ups_heading",))
    texts = [t for t in texts[1:] if t] if len(texts) > 1 else [t for t in texts if t]
    said = CHINESE_COUNT.get(m["count"].strip()[:1]) if m["count"] else None
    if said is not None and said != len(texts):
        draft.warn(line, f"follow-ups: the heading counts {said}, the list has {len(texts)}", ("follow_ups_heading",))
    follow_ups = []
    for n, text in enumerate(texts, before + 1):
        draft.origins[("follow_ups", n - 1)] = line
        follow_ups.append(
            {
                "id": _Code(f"{stem}-f{n}"),
                "number": n,
                "round": _Code(follow_round),
                "text": text,
                "status": FollowUpStatus.open,
            }
        )
    return follow_ups


def _conclusion_ratings(bullets: list[tuple[int, str]], draft: _Draft) -> dict[int, tuple[int, list[ValueRating]]]:
    """ "条目 1（…）、条目 2 … 为高价值增量，条目 4 … 为高价值但待回溯，条目 6/7 为中等价值补白"."""
    ratings: dict[int, tuple[int, list[ValueRating]]] = {}
    for line, text in bullets:
        for clause in _split_outside(text, "，,；;"):
            bare = re.sub(r"[（(][^）)]*[）)]", "", clause)
            words = _value_words(bare, draft)
            if not words:
                continue
            for m in ITEM_NUMBERS.finditer(bare):
                for n in re.findall(r"\d+", m["numbers"]):
                    ratings[int(n)] = (line, [draft.code("value_ratings", w, line) for w in words])
    return ratings


# =========================================================================== links across sections


def _link(brief: dict[str, Any], outline: Outline | None, draft: _Draft) -> None:
    """Fields that join two parts of the brief: ratings, cross-references, touches, follow-up items,
    citation back-links.  Exact names are taken silently; names matched word by word are marked."""
    items = brief["items"]
    _apply_ratings(items, brief.pop("_ratings", {}), draft)
    item_names = [(item["id"], _names(f"{item['title']}\n" + "\n".join(item["points"]))) for item in items]
    labels = {item["id"]: f"条目 {item['number']}" for item in items}
    for i, item in enumerate(items):
        _resolve_cross_refs(item, items, outline, draft, ("items", i, "placement", "cross_refs"))
    for i, c in enumerate(brief.get("contradictions", [])):
        _touches(c, items, item_names, labels, outline, draft, ("contradictions", i, "touches"))
        _withheld_figure(c, items)
    for i, f in enumerate(brief.get("follow_ups", [])):
        stated = _stated_items(f["text"], items)
        matched = [] if stated else _match_by_names("", f["text"], item_names)
        if stated or matched:
            f["items"] = [_Code(x) for x in stated + [x for x, _ in matched]]
        if matched:
            draft.warn(
                draft.origins.get(("follow_ups", i), 1),
                f"follow-up {f['number']}: items matched by shared names ({_shared(matched, labels)}); check",
                ("follow_ups", i, "items"),
            )
    for i, citation in enumerate(brief.get("citations", [])):
        _citation_links(citation, brief.get("contradictions", []), draft, ("citations", i))
    for c in brief.get("contradictions", []):
        c.pop("_line", None)


def _apply_ratings(
    items: list[dict[str, Any]], ratings: dict[int, tuple[int, list[ValueRating]]], draft: _Draft
) -> None:
    """An item's value: the title's rating, then what the conclusions say of it (both kept if they differ)."""
    numbers = {item["number"] for item in items}
    for n, (line, _) in sorted(ratings.items()):
        if n not in numbers:
            draft.warn(line, f"the conclusions rate 条目 {n}, which the brief does not have", ("conclusions",))
    for i, item in enumerate(items):
        said: list[ValueRating] = []
        if (rated := ratings.get(item["number"])) is not None:
            line, said = rated
            if item["value"] and said and set(said) != set(item["value"]):
                draft.warn(
                    line,
                    f"条目 {item['number']}: the title rates it {item['value'][0]}, the conclusions "
                    f"{'/'.join(said)}; both kept",
                    ("items", i, "value"),
                )
        item["value"] = list(dict.fromkeys(item["value"] + said))
        if not item["value"]:
            draft.warn(
                draft.origins[("items", i)],
                f"条目 {item['number']}: no value rating in its title or the conclusions; value left empty",
                ("items", i, "value"),
            )


def _resolve_cross_refs(
    item: dict[str, Any], items: list[dict[str, Any]], outline: Outline | None, draft: _Draft, at: _At
) -> None:
    """ "并在 §5.1 与 llm-d 1.0 交叉引用": the item of this brief placed in §5.1 whose title says
    "llm-d 1.0", else an outline entry of §5.1 of that name."""
    for j, ref in enumerate(item["placement"].get("cross_refs", [])):
        name, line = ref.pop("_name").lower(), ref.pop("_line")
        section = ref["section"]
        if not name:
            continue
        mine = _unique(
            [
                x["id"]
                for x in items
                if x is not item and x["placement"]["section"] == section and name in x["title"].lower()
            ]
        )
        theirs = _unique(
            [e.id for e in _section_entries(outline, section) if name in e.title.lower() or e.title.lower() in name]
        )
        if mine:
            ref["item"] = _Code(mine)
        elif theirs:
            ref["entry"] = _Code(theirs)
        else:
            draft.warn(
                line,
                f"条目 {item['number']}: cross-reference to «{name}» in §{section} names no single item or "
                "entry; add item: or entry:",
                at + (j, "section"),
            )


def _touches(
    c: dict[str, Any],
    items: list[dict[str, Any]],
    item_names: list[tuple[str, set[str]]],
    labels: dict[str, str],
    outline: Outline | None,
    draft: _Draft,
    at: _At,
) -> None:
    """What a contradiction touches: the § it names, the items it names (条目 N, or a name only that
    item uses), their sections when it names none, and the outline entries it names."""
    touches, line = c["touches"], c["_line"]
    whole = f"{c['title']}\n{c['text']}"
    stated = _stated_items(whole, items)
    matched = [] if stated else _match_by_names(c["title"], c["text"], item_names)
    touches["items"] = list(dict.fromkeys(stated + [x for x, _ in matched]))
    if matched:
        draft.warn(
            line,
            f"矛盾 {c['number']}: touches items matched by shared names ({_shared(matched, labels)}); check",
            at + ("items",),
        )
    if not touches["sections"]:
        placed = {item["id"]: item["placement"]["section"] for item in items}
        touches["sections"] = list(dict.fromkeys(placed[x] for x in touches["items"] if placed.get(x)))
    for j, section in enumerate(touches["sections"]):
        _known_section(section, outline, line, draft, at + ("sections", j))
    candidates = [e for s in touches["sections"] for e in _section_entries(outline, s)]
    exact = [e.id for e in candidates if e.title in whole]
    entry_names = [(e.id, _names(e.title)) for e in candidates if e.id not in exact]
    guessed = _match_by_names(c["title"], c["text"], entry_names)
    touches["entries"] = list(dict.fromkeys(exact + [x for x, _ in guessed]))
    if guessed:
        draft.warn(
            line,
            f"矛盾 {c['number']}: touches entries matched by shared names ({_shared(guessed)}); check",
            at + ("entries",),
        )
    c["touches"] = {
        k: [_Code(v) if k in ("items", "entries") else v for v in touches[k]]
        for k in ("items", "entries", "sections", "citations")
        if touches.get(k)
    }
    if not c["touches"]:
        del c["touches"]


def _stated_items(text: str, items: list[dict[str, Any]]) -> list[str]:
    """Items the text names by number ("条目 4", "条目 6/7"): a link the brief states, taken as is."""
    by_number = {item["number"]: item["id"] for item in items}
    numbers = [int(n) for m in ITEM_NUMBERS.finditer(text) for n in re.findall(r"\d+", m["numbers"])]
    return list(dict.fromkeys(by_number[n] for n in numbers if n in by_number))


def _names(text: str) -> set[str]:
    """Product and version names in a text (Latin words, versions like 0.23.0), lower-cased."""
    names = set()
    for token in NAME_TOKEN.findall(text):
        token = token.lower()
        if len(token) < 3 or token in COMMON_WORDS:
            continue
        if re.search(r"[a-z%]", token) or VERSION.fullmatch(token):
            names.add(token)
    return names


def _match_by_names(title: str, text: str, candidates: list[tuple[str, set[str]]]) -> list[tuple[str, set[str]]]:
    """Candidates that share a name only they have: one in ``title``, or two anywhere."""
    counts = Counter(n for _, names in candidates for n in names)
    in_title, anywhere = _names(title), _names(title) | _names(text)
    matched = []
    for cid, names in candidates:
        own = {n for n in names if counts[n] == 1}
        if own & in_title or len(own & anywhere) >= 2:
            matched.append((cid, own & anywhere))
    return matched


def _shared(matched: list[tuple[str, set[str]]], labels: dict[str, str] | None = None) -> str:
    """ "条目 5 by kapitsa, stars": which candidate, and the names that matched it."""
    labels = labels or {}
    return "; ".join(f"{labels.get(cid, cid)} by {', '.join(sorted(names))}" for cid, names in matched)


def _withheld_figure(c: dict[str, Any], items: list[dict[str, Any]]) -> None:
    """A withheld claim that names a figure's label ("+175 周增" names 周增) withholds that figure."""
    for claim in c.get("withheld", []):
        keys = _unique([f["key"] for item in items for f in item.get("figures", []) if f["label"] in claim["text"]])
        if keys:
            claim["figure"] = _Code(keys)


def _citation_links(citation: dict[str, Any], contradictions: list[dict[str, Any]], draft: _Draft, at: _At) -> None:
    """The contradiction that down-weights a paper; its year and card topic if only that prose gives them."""
    about = [c for c in contradictions if citation["arxiv"] in c.get("touches", {}).get("citations", [])]
    down = _unique([c["id"] for c in about if c["disposition"] == "down_weighted"])
    if down:
        citation["down_weighted_by"] = _Code(down)
    line = draft.origins.get(at, 1)
    for c in about:
        prose = f"{c['title']}\n{c['text']}"
        years = list(dict.fromkeys(m["year"] for m in YEAR_IN_PROSE.finditer(prose)))
        if "year" not in citation and len(years) == 1:
            citation["year"] = int(years[0])
            draft.warn(
                line,
                f"citation {citation['arxiv']}: year {years[0]} read from 矛盾 {c['number']}; check",
                at + ("year",),
            )
        if "card_topic" not in citation and (m := CARD_TOPIC_IN_PROSE.search(prose)):
            citation["card_topic"] = m["topic"]
            draft.warn(
                line,
                f"citation {citation['arxiv']}: card topic {m['topic']} read from 矛盾 {c['number']}; check",
                at + ("card_topic",),
            )


# =========================================================================== counts and numbering


def _check_numbering(numbers: list[int], lines: list[int], what: str, key: str, draft: _Draft) -> None:
    """Warn where the brief skips or repeats a number (条目 1, 条目 3): the ids keep the brief's numbers."""
    expected = 1
    for index, (number, line) in enumerate(zip(numbers, lines, strict=True)):  # one line per number
        if number > expected:
            missing = "、".join(str(n) for n in range(expected, number))
            draft.warn(line, f"{what} {missing} missing: numbering jumps to {number}", (key, index, "number"))
        elif number < expected:
            draft.warn(line, f"{what} {number} is out of order (after {expected - 1})", (key, index, "number"))
        expected = max(expected, number + 1)


def _check_counts(brief: dict[str, Any], parts: list[_Part], draft: _Draft) -> None:
    """The brief states counts ("（7 条）", "8 份 materials"); say when the lists disagree."""
    heading = brief.get("items_heading") or ""
    if m := COUNT_IN_HEADING.search(heading):
        line = next((p.line for p in parts if p.kind == "items"), 1)
        if int(m["count"]) != len(brief["items"]):
            draft.warn(
                line, f"the heading says {m['count']} 条, the brief has {len(brief['items'])} items", ("items_heading",)
            )
    read, listed = brief.get("materials_read"), brief.get("materials", [])
    if read is not None and listed and read != len(listed):
        draft.warn(
            draft.origins.get(("materials",), 1), f"{read} materials read, {len(listed)} listed", ("materials_read",)
        )
    for kind in ("items", "contradictions", "citations", "conclusions"):
        if not any(p.kind == kind for p in parts):
            draft.warn(1, f"no section for {kind} (一 条目 / 二 矛盾 / 三 arXiv / 四 结论) was found")


def _dedupe_ids(entries: list[dict[str, Any]], what: str, draft: _Draft, key: str) -> None:
    seen: Counter[str] = Counter()
    for i, entry in enumerate(entries):
        seen[entry["id"]] += 1
        if seen[entry["id"]] > 1:
            entry["id"] = _Code(f"{entry['id']}-{seen[entry['id']]}")
            draft.warn(
                draft.origins.get((key, i), 1),
                f"{what} number {entry['number']} appears twice; the second got id {entry['id']}",
                (key, i, "id"),
            )


def _validate(brief: dict[str, Any], draft: _Draft) -> None:
    """Last safety net: whatever would still fail the model is reported, at the nearest Markdown line."""
    try:
        Brief.model_validate(_plain(brief))
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            if any(p[: len(loc)] == loc or p == loc[:-1] for p in draft.comments):
                continue  # already marked: the field, one below it, or its parent was left empty on purpose
            line = next((draft.origins[loc[:n]] for n in range(len(loc), 0, -1) if loc[:n] in draft.origins), 1)
            where = ".".join(str(p) for p in loc)
            draft.warn(line, f"{where}: {error['msg']}", loc or ("#top",))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


# =========================================================================== YAML


PLAIN_SCALAR = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def _reorder(value: Any, model: type[BaseModel] | None) -> Any:
    """Keys in the model's field order, so the file reads like the curated ones."""
    if isinstance(value, list):
        return [_reorder(v, model) for v in value]
    if not isinstance(value, dict) or model is None:
        return value
    ordered = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in value:
            ordered[key] = _reorder(value[key], inner_model(info.annotation))
    ordered.update({k: v for k, v in value.items() if k not in ordered and not k.startswith("_")})
    return ordered


def _emit(brief: dict[str, Any], comments: dict[_At, list[str]]) -> str:
    """YAML text: double-quoted text, plain codes and dates, a ``# digest-import:`` line above each doubt."""
    comments = {k: list(v) for k, v in comments.items()}
    body: list[str] = []
    _emit_mapping(brief, (), 0, body, comments)
    top = [f"# {MARK}: {_one_line(m)}" for m in comments.pop(("#top",), [])]
    for path, messages in comments.items():  # a doubt about a field that was left out: keep it at the top
        top += [f"# {MARK}: ({'.'.join(str(p) for p in path)}) {_one_line(m)}" for m in messages]
    head = [
        SCHEMA_LINE,
        f"# Imported from the team's Markdown brief by `digest import`; check every `# {MARK}:` line, then delete it.",
    ]
    return "\n".join(head + top + body) + "\n"


def _emit_mapping(
    mapping: dict[str, Any],
    path: _At,
    indent: int,
    out: list[str],
    comments: dict[_At, list[str]],
    first_prefix: str = "",
) -> None:
    """One key per line; the first key of a list item goes on the "- " line (its comments were
    written above that line by :func:`_emit_sequence`)."""
    pad = " " * indent
    for n, (key, value) in enumerate(mapping.items()):
        if value is None:
            continue
        here = path + (key,)
        prefix = first_prefix if n == 0 and first_prefix else pad
        out += [f"{pad}# {MARK}: {_one_line(m)}" for m in comments.pop(here, [])]
        if isinstance(value, dict) and value:
            out.append(f"{prefix}{key}:")
            _emit_mapping(value, here, indent + 2, out, comments)
        elif isinstance(value, list) and value:
            out.append(f"{prefix}{key}:")
            _emit_sequence(value, here, indent + 2, out, comments)
        elif isinstance(value, (dict, list)):
            out.append(f"{prefix}{key}: {'{}' if isinstance(value, dict) else '[]'}")
        else:
            out.append(f"{prefix}{key}: {_scalar(value)}")


def _emit_sequence(values: list[Any], path: _At, indent: int, out: list[str], comments: dict[_At, list[str]]) -> None:
    pad = " " * indent
    for i, value in enumerate(values):
        here = path + (i,)
        for message in comments.pop(here, []):
            out.append(f"{pad}# {MARK}: {_one_line(message)}")
        if isinstance(value, dict):
            first_key = next(iter(value), None)
            if first_key is not None:  # an empty mapping has no first key, and so no comments on one
                for message in comments.pop(here + (first_key,), []):
                    out.append(f"{pad}# {MARK}: {_one_line(message)}")
            _emit_mapping(value, here, indent + 2, out, comments, first_prefix=f"{pad}- ")
        else:
            out.append(f"{pad}- {_scalar(value)}")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Enum):
        value = _Code(value.value)
    if isinstance(value, _Code) and PLAIN_SCALAR.fullmatch(value) and value.lower() not in YAML_WORDS:
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)
