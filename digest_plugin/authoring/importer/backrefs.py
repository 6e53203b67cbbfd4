"""Find and resolve a brief's references back to what earlier briefs said.

From the second night on, a brief keeps pointing at earlier ones: 「昨日矛盾第 2 条」, 「10-21 简报条目 3」,
「前一轮跟进 ③」, 「10-21 矛盾清单其余各条（3、5–11）」, the name of an entry an earlier item created
(「长 prefill 头阻塞」), a section an earlier brief opened (§2.6), an arXiv id an earlier brief listed.  The
importer writes each of them as a ``back_refs`` row (see ``tests/corpus/days/FORMAT-NOTES.md``) so that a
reviewer can check what every reference was taken to mean.

The rule of this module is the editor's: **never guess**.  A reference that does not name exactly one
earlier object comes back with ``id=None`` and says why (``problem``) and, when it could mean several,
which (``candidates``), so the importer can put a located warning in front of the editor instead of a
wrong row.  Only the standard library and :mod:`digest_plugin.core.model` are used, so the importer (or a
checker) can plug it in without pulling in the rest of the tool.

What counts as a back-reference (decided from the corpus, night by night):

* A numbered reference needs a date, written or relative (``10-21``, ``10月21日``, ``2026-10-21``,
  ``昨日`` / ``昨天``, ``前天``, ``上周四``, ``周一``, ``前一轮``), or it must continue a dated reference in
  the same text: 「10-21 矛盾清单其余各条（3、5–11）维持原判；第 1 条已更正」, 「10-26 条目 1 与条目 3」,
  「上周四（10-22）封存的两条…：矛盾 1」, 「10-21 交给 E2 的三件事：① 已完成…；③ 已完成」.
* A bare 「条目 N」 is the brief's own item (「见条目 6」, 「首条为条目 1」) and not a reference; so is anything
  after 今日 / 今天 / 本轮 (「由今日矛盾 2 接手」).  A bare circled digit or 「第 N 条」 with no dated reference
  before it is the brief's own list (「下轮待办：① …」) or someone else's (「Airbnb 第 9 条」).
* A bare 「矛盾 N」 with no date anywhere before it (10-28: 「矛盾 3 仍挂着」) *is* a reference — a brief's
  own contradictions are 「今日矛盾 N」 — but it cannot be resolved: it comes back with the candidates.
* Entries of the outline (the living doc as it stood before the first brief, e.g. 「LFM2.5-24B-A2B 基准」)
  and its sections are not back-references: no earlier brief said them (the corpus lists none).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...core.model import Brief, Outline, PlacementAction
from . import lunar
from .numbers import ENCLOSED, MORE_ENCLOSED, ROMAN, ROMAN_NUMERAL, small_number

__all__ = ["History", "Reference", "find_references"]

KINDS = ("item", "contradiction", "follow_up", "entry", "section", "citation")


@dataclass(frozen=True)
class Reference:
    """One back-reference found in a piece of a brief, and what it resolves to."""

    text: str
    """The reference as written: exactly ``searched[start:end]``."""
    start: int
    end: int
    kind: str
    """``item`` | ``contradiction`` | ``follow_up`` | ``entry`` | ``section`` | ``citation``, or ``loose``: a night and a
    number that name no list (see :func:`find_references`)."""
    brief: str | None
    """The brief whose list it names; ``None`` when the candidates come from several briefs."""
    id: str | None
    """The stable id; ``None`` when the reference does not name exactly one object."""
    candidates: tuple[str, ...] = ()
    """When ambiguous: the ids it could mean (``id`` is ``None`` then)."""
    problem: str | None = None
    """When ``id`` is ``None``: why, in English, for a located warning."""


# --------------------------------------------------------------------------- the index of earlier briefs


@dataclass
class _Indexed:
    """One earlier brief, with its numbered lists as a later brief counts them."""

    id: str
    date: dt.date
    round: str
    items: dict[int, str] = field(default_factory=dict)
    contradictions: dict[int, str] = field(default_factory=dict)
    follow_ups: dict[int, str] = field(default_factory=dict)
    citations: list[str] = field(default_factory=list)
    follow_up_marks: dict[str, str] = field(default_factory=dict)
    """A follow-up's label as its list wrote it (「T4」, spaces aside) → its id."""
    item_labels: dict[str, int] = field(default_factory=dict)
    """An item's own label that is not its number (「行40」 of a night numbering its lines 行 10, 行 20 …, spaces
    aside) → the item's number: a later night names it so (「T-3 苒 行 40」)."""
    texts: dict[tuple[str, str], str] = field(default_factory=dict)
    """(kind, id) → the object's own words, for matching a descriptive reference (「10-24 的 Braintrust 待办」)."""
    circled_items: bool = False
    """The night headed its items ① ② ③ and labelled no follow-up so: its dated 「②」 is an item (「澄（1/9）②」)."""

    def numbered(self, kind: str) -> dict[int, str]:
        return {"item": self.items, "contradiction": self.contradictions, "follow_up": self.follow_ups}[kind]

    def objects(self, kind: str) -> list[str]:
        if kind == "citation":
            return list(self.citations)
        return list(dict.fromkeys(self.numbered(kind).values()))


@dataclass(frozen=True)
class _Entry:
    brief: str
    id: str
    section: str
    names: tuple[str, ...]
    """The entry's title as given (``entry_title``), and the head of the creating item's title."""


@dataclass(frozen=True)
class _Section:
    brief: str
    number: str
    title: str


_TITLE_HEAD = re.compile(r"^(.+?)(?:——|—|（|\(|；|：)")
_MARK_OF = re.compile(
    r"^\s*(?P<mark>[^\w\s]{1,2}|[A-Za-z]{1,3}|[^\w\s]?[\u4e00-\u9fff]{1,2}|[\u4e00-\u9fff]{1,2}\s?[A-Z]{1,2}[-‐－])"
    r"(?P<n>\d{1,2})(?!\d)"
)
"""A contradiction's title that starts with its writer's mark and number: 「▲1　…」, 「〖1〗…」, 「C1　…」,
「#疑1 …」, 「缺陷 Q-1　…」 (a defect ticket's word and its letter)."""
_TAG_OF = re.compile(r"^(?P<mark>[^\W\d_]{1,3}\s*[-‐－]?)\s*(?P<n>\d{1,2})$")
"""A contradiction's mark that is a tag of its writer's and its number: 「C-1」, 「疑 1」."""
_NOT_MARKS = frozenset("#(（[［【〔-*§$¥~@+=/.<>第其约近") | {"No", "T", "D", "E", "v", "V"}
"""Leads that number other things (items, follow-ups, rounds, versions) or count (第, 约): never learned as a
mark."""
_FOLLOW_UP_MARK = re.compile(
    r"^(?P<lead>[A-Za-z]{1,3}[-‐－]?|[\u4e00-\u9fff][-‐－]|〔\s*[\u4e00-\u9fff]{1,2}|[\u4e00-\u9fff]{2,4}(?=\s))\s*(?P<n>\d{1,2})〕?$"
)
"""A follow-up's label that is a letter, a tag or a word and its number: 「T4」, 「N1」, 「接-1」, 「工单 1」, 「〔办 1〕」 (a tag and the number
in brackets: the key leaves the closing bracket out, as a reference's match does)."""


def _no_space(text: str) -> str:
    return re.sub(r"\s+", "", text)


_ITEM_MARK = re.compile(r"^(?P<mark>[^\d\s]{1,4}?)\s*(?P<n>\d{1,2})$")
"""An item's mark that is a lead and its number: 「#增1」, 「A6」, 「No.3」 (not 「（五）」 or 「1/4」)."""
_PAREN_MARK = re.compile(r"^[（(](?P<n>[一二三四五六七八九十]{1,3})[）)]$")
"""An item's mark that is a Chinese numeral in brackets: 「（五）」."""
ROMAN_ITEMS = "i."
"""Stands in :attr:`History.item_marks` for a night whose items were headed 「i.」 「ii.」 …: a later night
names one by the numeral after the night (「周三砚 iv」)."""
_NOT_ITEM_MARKS = frozenset(
    {"#", "＃", "条", "条目", "第", "No", "No.", "T", "E", "C", "v", "V", "§", "$", "~", "+", "-"}
)
"""Leads every brief's references already read (条目 N, #N, No.N) or that number other things."""


class History:
    """What earlier briefs of a topic said, indexed for resolving references."""

    def __init__(
        self,
        briefs: Iterable[Brief],
        outline: Outline | None = None,
        relative: Mapping[str, Sequence[str]] | None = None,
        named_days: Mapping[str, str] | None = None,
    ) -> None:
        said = {act: tuple(relative.get(act) or words) if relative else words for act, words in RELATIVE.items()}
        self.yesterday, self.day_before = said["yesterday"], said["day_before"]
        self.three_back = said["three_back"]
        self.named_days = dict(named_days or {})
        """平安夜 → "12-24" (``named_days:`` of the vocabulary)."""
        self.lunar_months: dict[str, dt.date] = {}
        """The first day of each lunar month tonight's header gives a key for (:mod:`.lunar`)."""
        self.dates = _date_pattern(
            (*self.yesterday, *self.day_before, *self.three_back, *said["previous_round"]), tuple(self.named_days)
        )
        self._briefs: list[_Indexed] = []
        self._entry_of: dict[str, str] = {}
        self._entries: list[_Entry] = []
        self._sections: list[_Section] = []
        self._citations: dict[str, list[tuple[str, str]]] = {}
        self._outline_names: set[str] = set()
        self._outline_sections: set[str] = set()
        self.list_names: set[str] = set()
        """What earlier nights called their follow-up lists (「接棒事项」, 「TODO」)."""
        self.contradiction_marks: set[str] = set()
        """How earlier nights marked their contradictions' numbers (「▲1」, 「〖1〗」, 「C1」): a later night
        names one by its writer's mark (「昨天芮 ▲2」)."""
        self.item_marks: set[str] = set()
        """How earlier nights' headings numbered their items (「#增1」, 「A6」): a later night names one so
        (「昨晚霁的 #增1」, 「12-02 A6」)."""
        self.follow_up_marks: set[str] = set()
        """How earlier nights labelled their follow-ups (「T」 of 「T1」 … 「T4」): a later night names one so,
        in part 四 (「昨晚宁的交班单里，T4 完工」)."""
        self.authors: set[str] = set()
        """Who wrote the earlier nights: a name between a night and a number (「前天芮 #5」) is no gap."""
        self._section_of: dict[str, str] = {}
        """The section each entry stands in after the earlier nights (made there, or moved there)."""
        if outline is not None:
            self._outline_names = {_norm(entry.title) for entry in outline.entries}
            self._outline_sections = {section.number for section in outline.sections}
            self._section_of.update({entry.id: entry.section for entry in outline.entries})
        for brief in sorted(briefs, key=lambda b: (b.date, b.round)):
            self.add(brief)

    def _learn_item_mark(self, mark: str | None, number: int, index: _Indexed | None = None) -> None:
        """「#增1」 → 「#增」, 「（五）」 → 「（）」: how that night's writer numbered items, when the mark agrees
        with the item's number."""
        if not mark:
            return
        own = _ITEM_MARK.match(mark)
        if own and int(own["n"]) == number and own["mark"] not in _NOT_ITEM_MARKS:
            self.item_marks.add(own["mark"])
        elif own and own["mark"] not in _NOT_ITEM_MARKS and index is not None:
            index.item_labels[_no_space(mark)] = number  # 「行 40」, the fourth line: named so later
            self.item_marks.add(own["mark"])
        bracketed = _PAREN_MARK.match(mark)
        if bracketed and small_number(bracketed["n"]) == number:
            self.item_marks.add("（）")  # 「1129 岚（五）」: item 5 of that night
        if ROMAN.get(mark.rstrip(".．、)）")) == number:
            self.item_marks.add(ROMAN_ITEMS)  # 「周三砚 iv」: item 4 of a night headed 「i.」 「ii.」 …

    def add(self, brief: Brief) -> None:
        """Index ``brief``: after it is imported, the next night can refer to it."""
        index = _Indexed(brief.id, brief.date, brief.round)
        index.circled_items = (
            bool(brief.items)
            and all(ENCLOSED.get(item.mark or "") == item.number for item in brief.items)
            and not any(f.mark and f.mark[:1] in ENCLOSED for f in brief.follow_ups)
        )
        for item in brief.items:
            index.items[item.number] = item.id
            self._learn_item_mark(item.mark, item.number, index)
            if item.placement.action.creates_entry:
                self._entry_of[item.id] = item.id
            elif item.placement.action is PlacementAction.update_in_place and item.placement.entry:
                self._entry_of[item.id] = item.placement.entry
            index.texts["item", item.id] = " ".join([item.title, *item.points, item.relation or ""])
            placement = item.placement
            if placement.action.creates_entry and placement.section is not None:
                names = [placement.entry_title] if placement.entry_title else []
                if head := _TITLE_HEAD.match(item.title):
                    names.append(head.group(1).strip())
                names.append(item.title)
                self._entries.append(_Entry(brief.id, item.id, placement.section, tuple(n for n in names if n)))
                self._section_of[item.id] = placement.section
            if placement.action is PlacementAction.new_section and placement.section and placement.section_title:
                self._sections.append(_Section(brief.id, placement.section, placement.section_title))
        self._section_of.update({move.entry: move.to for move in brief.moves})
        if brief.follow_ups_heading and (name := _list_name(brief.follow_ups_heading)):
            self.list_names.add(name)
        if brief.author:
            self.authors.add(brief.author)
        for contradiction in brief.contradictions:
            index.contradictions[contradiction.number] = contradiction.id
            for lead in (contradiction.title, contradiction.mark or ""):  # 「▲1　…」 in the title, or kept as its mark
                mark = _MARK_OF.match(lead)
                if mark and int(mark["n"]) == contradiction.number and mark["mark"] not in _NOT_MARKS:
                    self.contradiction_marks.add(mark["mark"])
            tagged = _TAG_OF.match(contradiction.mark or "")
            if tagged and int(tagged["n"]) == contradiction.number and tagged["mark"].strip() not in _NOT_MARKS:
                self.contradiction_marks.add(tagged["mark"].strip())  # 「C-1」, 「疑 1」: 「Leo 那封 C-1」
            if contradiction.mark and ENCLOSED.get(contradiction.mark) == contradiction.number:
                self.contradiction_marks.add(DARK)  # 「❶」: the night numbered its contradictions so
            index.texts["contradiction", contradiction.id] = f"{contradiction.title} {contradiction.text}"
        for c_update in brief.contradiction_updates:  # a restated line keeps the old id (FORMAT-NOTES 4)
            if c_update.number is not None:
                index.contradictions.setdefault(c_update.number, c_update.contradiction)
                index.texts["contradiction", c_update.contradiction] = c_update.text
        for follow_up in brief.follow_ups:
            index.follow_ups[follow_up.number] = follow_up.id
            index.texts["follow_up", follow_up.id] = follow_up.text
            own = _FOLLOW_UP_MARK.match(follow_up.mark or "")
            if own and int(own["n"]) == follow_up.number:
                index.follow_up_marks[_no_space(follow_up.mark or "").rstrip("〕")] = follow_up.id
                self.follow_up_marks.add(_no_space(own["lead"]))
        for f_update in brief.follow_up_updates:
            if f_update.number is not None:
                index.follow_ups.setdefault(f_update.number, f_update.follow_up)
                index.texts["follow_up", f_update.follow_up] = f_update.note or ""
        for citation in brief.citations:
            index.citations.append(citation.arxiv)
            index.texts["citation", citation.arxiv] = f"{citation.arxiv} {citation.title} {citation.use_note or ''}"
            self._citations.setdefault(_arxiv_base(citation.arxiv), []).append((brief.id, citation.arxiv))
        self._briefs.append(index)
        self._briefs.sort(key=lambda b: (b.date, b.round))

    # ------------------------------------------------------------------ look-ups

    def entry_of(self, item_id: str) -> str | None:
        """The entry an earlier item made (its own id) or updated in place, or None (kept out)."""
        return self._entry_of.get(item_id)

    def section_of(self, entry_id: str) -> str | None:
        """The section an earlier entry stands in tonight (where it was made, or last moved to)."""
        return self._section_of.get(entry_id)

    def item_label(self, item_id: str) -> str | None:
        """「2026-11-06 条目 1」: how a reader names an earlier item (for the editor's questions)."""
        for b in self._briefs:
            for number, ident in b.items.items():
                if ident == item_id:
                    return f"{b.date.isoformat()} 条目 {number}"
        return None

    def night_dated(self, text: str, today: dt.date) -> dt.date | None:
        """The one earlier night ``text`` names by a date, a named day or a relative word (「平安夜岑的
        (1)–(4)」, 「12 月 21 日那张单子」, 「昨晚的」); None for none, or a weekday alone, which a heading
        also uses for the night a list goes to (「给星期一（乔）的便条」 on a Sunday)."""
        for match in self.dates.finditer(text):
            if match.lastgroup not in _DATED:
                continue
            for when in _dates(match.group(), today, self, None):
                nights = {b.date for b in when.briefs}
                if len(nights) == 1 and (night := nights.pop()) < today:
                    return night
            return None
        return None

    def follow_up_labels(self) -> tuple[str, ...]:
        """The words earlier nights led their follow-ups with, a number after (「工单」 of 「工单 1」): a later
        night answers them one a line by them (「- 工单 1（Dynamo 的 tag）：未到货」).  Only words; a letter
        (「T」 of 「T1」) is read as a numbering everywhere already."""
        return tuple(sorted(m for m in self.follow_up_marks if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", m)))

    def _before(self, today: dt.date) -> list[_Indexed]:
        """Briefs a brief dated ``today`` can refer to (one of another round on the same date included)."""
        return [b for b in self._briefs if b.date <= today]

    def _on(self, day: dt.date) -> list[_Indexed]:
        return [b for b in self._briefs if b.date == day]

    def _by_id(self, brief_id: str) -> _Indexed | None:
        return next((b for b in self._briefs if b.id == brief_id), None)


# --------------------------------------------------------------------------- text patterns

_DATED = frozenset(("iso", "md", "cn", "named", "lunar", "slash", "en", "den", "hao", "rel"))
"""The spellings of a date that name a night written before, never one to come (see :meth:`History.night_dated`)."""

_FULL_WIDTH = str.maketrans("０１２３４５６７８９：（）", "0123456789:()")
_STEMS = "甲乙丙丁戊己庚辛壬癸"
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_EN_WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
DARK = "❶"
"""Stands in :attr:`History.contradiction_marks` for a night that numbered its contradictions ❶ ❷ ❸:
a later night names one by the numeral alone, after the night (「Sat ❶」, 「昨晚宁的 ❶」)."""
_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_N = rf"(?:\d{{1,2}}(?![\d\-月./]|\s*[日号])|[①-⑳{MORE_ENCLOSED}]|\(\d{{1,2}}\))"
_NL = rf"{_N}(?:\s*(?:、|/|和|及|与|–|—|~|至|到)\s*{_N})*"
RELATIVE: dict[str, tuple[str, ...]] = {
    "yesterday": ("昨日", "昨天", "昨晚", "昨夜"),
    "day_before": ("前天", "前晚"),
    "three_back": ("大前天", "大前晚"),
    "previous_round": ("前一轮", "上一轮", "上轮"),
}
"""How a brief says the night before, the two nights before that, and the round before; the importer
passes the site's words (``wordings:`` of the vocabulary file), these when it has none."""


@functools.cache
def _date_pattern(relative: tuple[str, ...], named: tuple[str, ...] = ()) -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in sorted(relative, key=len, reverse=True))
    names = "|".join(re.escape(w) for w in sorted(named, key=len, reverse=True)) or r"(?!x)x"
    return re.compile(
        r"(?P<iso>(?<!\d)20\d\d(?P<isosep>[-/.])\d{1,2}(?P=isosep)\d{1,2}(?![\d/.]\d))"
        r"|(?P<isowk>(?<![A-Za-z\d])(?:20\d\d-?)?W\d{2}-?[1-7](?!\d))"
        r"|(?P<tminus>(?<![A-Za-z\d\-])T\s?[-−–]\s?\d{1,2}(?![\d.]))"
        r"|(?P<ordinal>(?<![A-Za-z\d\-])(?:D|20\d\d-)\d{3}(?![\d.\-]))"
        r"|(?P<dmy>(?<![\d/.v])\d{1,2}/\d{1,2}/(?:20)?\d\d(?![\d/]))"
        r"|(?P<md>(?<![\d\-.v/])\d{1,2}-\d{1,2}(?![\d\-.%]))"
        r"|(?P<cn>(?<!\d)\d{1,2}\s?月\s?\d{1,2}\s?日)"
        rf"|(?P<named>{names})"
        rf"|(?P<lunar>{lunar.LUNAR.pattern.replace('?P<month>', '?:').replace('?P<day>', '?:')})"
        r"|(?P<slash>(?<![\d/.v])\d{1,2}/\d{1,2}(?![\d/]))"
        r"|(?P<mmdd>(?<![A-Za-z0-9_.\-/$#=×x])(?<!\d:)(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?![\d.%,]"
        r"|\s*(?:tok|ms|GB|MB|KB|B\b|s\b|万|倍|块|颗|张|路|个|次|台|卡|字|行|维|位|元|秒|毫秒|⭐)))"
        r"|(?P<hao>(?<![\d月/·・])\d{1,2}\s*号(?![\d]))"
        r"|(?P<dot>(?<![\w.§\-$])\d{1,2}\.\d{1,2}(?![\d.%]|\s*(?:万|倍|×|x|ms|s\b|GB|B\b|美元)))"
        r"|(?P<ri>(?<![\d月/.])\d{1,2}\s*日(?![\d内前后窗均]))"
        r"|(?P<en>(?<![A-Za-z])(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s*\d{1,2}(?!\d))"
        r"|(?P<den>(?<![\w.\-])\d{1,2}[\s\-]?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*(?![A-Za-z]))"
        r"|(?P<enwk>(?<![A-Za-z])(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day|sday|nesday|rsday|urday)?(?:'s)?(?![A-Za-z]))"
        rf"|(?P<rel>{words})"
        r"|(?<![下每上])(?P<wk>(?:上上|上|本)?(?:周|礼拜|星期)[一二三四五六日天](?!末))"
        r"|(?<![\u4e00-\u9fff\w])(?P<wkdot>[一二三四五六日])(?=[·・][\u4e00-\u9fffA-Za-z]{1,6}[·・])"
        r"|(?P<lastweek>上周)"
    )


@functools.cache
def _list_pattern(
    names: tuple[str, ...] = (),
    marks: tuple[str, ...] = (),
    item_marks: tuple[str, ...] = (),
    follow_up_marks: tuple[str, ...] = (),
) -> re.Pattern[str]:
    """The numbered references of a brief; ``names`` are the headings earlier nights gave their
    follow-up lists (「接棒事项」, 「TODO」): a later night names a follow-up by its list's name; ``marks``
    the marks earlier nights numbered their contradictions with (「▲」, 「〖」), ``item_marks`` their items
    (「#增」, 「A」), ``follow_up_marks`` their follow-ups (「T」)."""
    listed = "|".join(["跟进", "待办", "清单", *(re.escape(n) for n in sorted(names, key=len, reverse=True))])
    source = _LIST_SOURCE.replace("(?:跟进|待办|清单)", f"(?:{listed})")
    if leads := [m for m in marks if m != DARK]:  # (a Chinese tag follows a word: 「砚那封疑 1」)
        marked = "|".join(
            ("" if re.match(r"[\u4e00-\u9fff]", m) else r"(?<![\w])") + re.escape(m)
            for m in sorted(leads, key=len, reverse=True)
        )
        source = rf"(?:{marked})\s*(?P<cmark>\d{{1,2}})(?!\d)|" + source
    if DARK in marks:
        source = r"(?P<cdark>[❶-❿])|" + source
    if "（）" in item_marks:  # a night numbered its items （一）（二）: 「1129 岚（五）」 names its fifth
        source = r"[（(](?P<iparen>[一二三四五六七八九十]{1,3})[）)]|" + source
    if ROMAN_ITEMS in item_marks:
        roman = rf"{ROMAN_NUMERAL}(?![\w.])"
        source = rf"(?<![A-Za-z])(?P<iroman>{roman}(?:\s*(?:、|/|和|及|与)\s*{roman})*)|" + source
    if leads := [m for m in item_marks if m not in ("（）", ROMAN_ITEMS)]:
        marked = "|".join(re.escape(m) for m in sorted(leads, key=len, reverse=True))
        source = rf"(?<![\w])(?:{marked})\s*(?P<imark>\d{{1,2}})(?![\d.])|" + source
    if follow_up_marks:  # last: a label an item's or a contradiction's mark also reads (「D5」) is theirs
        # (a lead in brackets, 「〔办」, needs no boundary before it: 「晏〔办 2〕」)
        marked = "|".join(
            (re.escape(m) if m.startswith("〔") else rf"(?<![\w\-]){re.escape(m)}")
            for m in sorted(follow_up_marks, key=len, reverse=True)
        )
        source += rf"|(?:{marked})\s*(?P<fmark>\d{{1,2}})(?![\d.\w])"
    return re.compile(source)


_LIST_SOURCE = (
    rf"矛盾清单其余各条\s*\(\s*(?P<c_rest>{_NL})\s*\)"
    rf"|矛盾(?:清单)?\s*第\s*(?P<c_nth>{_NL})\s*条"
    rf"|第\s*(?P<nth_c>{_NL})\s*[条个]矛盾"
    rf"|矛盾(?:清单)?\s*[#＃]?\s*(?P<c>{_NL}|[一二三四五六七八九十]{{1,2}}(?![\u4e00-\u9fff]))"
    rf"|(?P<i_pre>简报|深读)?条目\s*(?P<i>{_NL})"
    rf"|疑点\s*(?P<cy>{_NL}|[一二三四五六七八九十]{{1,2}}(?![\u4e00-\u9fff]))"
    r"|(?<![\w.])No\.?\s*(?P<ino>\d{1,2})(?![\d.])"
    rf"|第\s*(?P<ixiang>{_NL}|[一二三四五六七八九十]{{1,3}})\s*项"
    r"|(?<![\w])其(?P<fqi>[一二三四五六七八九十])(?![一二三四五六七八九十他它中实余次])"
    r"|(?P<fpar>[⑴-⑽](?:\s*(?:、|/|和|及|与)\s*[⑴-⑽])*)"
    r"|(?<![\w#])C\s*(?P<cc>\d{1,2})(?!\d)"
    r"|(?<![^\W\d])(?<!#)#(?P<ih>\d{1,2})(?![\d.])"
    r"|(?<![第A-Za-z0-9_])条\s*(?P<itiao>\d{1,2})(?![\d.])"
    rf"|(?:跟进|待办|清单)(?:情况|事项|项)?\s*:?\s*(?:第\s*(?P<f_nth>{_NL})\s*条|(?P<f>{_NL}))"
    rf"|第\s*(?P<nth>{_NL}|[一二三四五六七八九十]{{1,3}})\s*[条项件则笔](?!矛盾)"
    rf"|(?P<circled>[①-⑳{MORE_ENCLOSED}](?:\s*(?:、|/|和|及|与)\s*[①-⑳{MORE_ENCLOSED}])*)"
    r"|(?<![A-Za-z_)])\((?P<paren>\d{1,2}|[甲乙丙丁戊己庚辛壬癸])\)"
    r"|(?<![^\s的：:（(「，,、）)])一\s*(?:[·・．]|之)\s*(?P<part1>\d{1,2})(?!\d)"
    r"|(?<![^\s的：:（(「，,、）)])二\s*(?:[·・．]|之)\s*(?P<part2>\d{1,2})(?!\d)"
    r"|(?<![\d/.\-])(?P<iof>\d{1,2})\s*/\s*(?P<iof_total>\d{1,2})(?![\d/.\-月日])"
    r"|(?<=[·・])\s*(?P<ihao>\d{1,2})\s*号(?!\d)"
    r"|(?<=[·・\s的])\s*(?P<idot>\d{1,2})[）)](?![\d.])"
    r"|(?<=[·・])\s*(?P<fdot>[一二三四五六七八九十])[）)]"
    r"|(?<=[·・])\s*〈(?P<fangle>\d{1,2})〉"
)
"""(「#3」 may follow a night's digits: 「5/1#2」 is the 01-05 brief's item 2.  Two before the last: a brief's part and a number in it, 「乔的二·1」 or 「乔（1/4）二之 3」: part 一 holds the items,
part 二 the contradictions; after a space, a 的 or punctuation only, so 「统一·3」 is no part.  The last: 「11月21日 1/4」,
item 1 of that night's 4, read only after a night that has exactly that many items.  After it, 「12-19·珩·4 号」:
the night, its writer and the item's number with 号, dotted together; 「日·杉·1）」 (or 「27 号杉 2）」, right after a
night and its writer) an item and 「日·杉·一）」 a follow-up, numbered as that night's writer numbered them.)"""
_LIST = re.compile(_LIST_SOURCE)
_GROUP_KIND = {
    "c_rest": "contradiction",
    "c_nth": "contradiction",
    "nth_c": "contradiction",
    "c": "contradiction",
    "i": "item",
    "cy": "contradiction",
    "ino": "item",
    "ixiang": "item",
    "fqi": "follow_up",
    "fpar": "follow_up",
    "cc": "contradiction",
    "ih": "item",
    "itiao": "item",
    "cmark": "contradiction",
    "cdark": "contradiction",
    "imark": "item",
    "iparen": "item",
    "f_nth": "follow_up",
    "f": "follow_up",
    "nth": None,
    "circled": "follow_up",
    "paren": "follow_up",
    "part1": "item",
    "part2": "contradiction",
    "iof": "item",
    "ihao": "item",
    "idot": "item",
    "fdot": "follow_up",
    "fangle": "follow_up",
    "iroman": "item",
    "fmark": "follow_up",
}
_FILLER = re.compile(
    r"(?:\s|的|[·・]|[篇稿]|简报|深读|E[12]|\)|\(\d{1,2}-\d{1,2}\)|\(\d{1,2}\s*[日号]\)|那[封份篇期]|交办的?|交给\s*E\d\s*的[一二三四五六七八九十两]件事\s*:?|留下?的"
    r"|(?:[A-Za-z]{1,10}|[\u4e00-\u9fff]{1,2})\s*(?:列|留|写)?的)*\Z"
)
_ITEM_NTH = re.compile(r"[\u4e00-\u9fff]{0,2}[A-Za-z\u4e00-\u9fff]\s*\Z")
"""Right before 「第 3 条」, a name or a night (「乔第 3 条」, 「昨晚第三条」): the night's items, as is a
dated 「第三条」 in Chinese numerals (「11.18 第三条」); a dated 「10-21 第 3 条」 names no list."""
_LINE_START = re.compile(r"[\s\-*•·>|]*")
"""What may stand before the first words of a line (a bullet, a quote's mark, a table's pipe)."""
_TODAY = re.compile(r"(?:今日|今天|今晚|本轮|本日|本条|本次|当日|新开|新立|新提)[\s的]*\Z")
"""Words before an undated 「矛盾 2」 that make it tonight's own: 「今日矛盾 2」, 「新开矛盾 1、2」."""
_LIST_CONTINUES = re.compile(r"(?:与|和|及|、)\s*\Z")
_CLAUSE_START = re.compile(r"(?:\A|[；;，,、:。\n])\s*\Z")
_ENTRY = re.compile(
    r"(?:§\s*(?P<sec>\d+(?:\.\d+)+)\s*(?:的\s*)?)?「(?P<name>[^「」\n]{1,60})」(?P<suffix>子条目|子节点|分支|小节|小注|条目|段落?)?"
)
_ENTRY_DESCRIBED = re.compile(
    r"§\s*(?P<sec>\d+(?:\.\d+)+)\s*(?:的\s*)?(?P<words>[^\s§「」，,。；;:()、]{2,12}?)(?:子条目|条目|子节点|小注|分支)"
)
_SECTION = re.compile(r"§\s*(?P<sec>\d+(?:\.\d+)+)(?![\d.]|\s*[–—-])")
_ARXIV = re.compile(r"(?:arXiv\s*:\s*)?(?<![\d.])(?P<ax>\d{4}\.\d{4,5})(?P<v>v\d+|\s*\(v\d+\))?(?![\d])", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[，,。；;:()§\n]|——")
_HINTS: tuple[tuple[str, str], ...] = (
    ("待办", "follow_up"),
    ("交办", "follow_up"),
    ("留给", "follow_up"),
    ("跟进", "follow_up"),
    ("登记", "citation"),
    ("记为", "citation"),
    ("条目", "item"),
    ("复采", "item"),
    ("卡", "item"),
    ("博客", "item"),
)
_STATUS_AFTER = re.compile(r"\A(?:\([^()]*\))?\s*(?:——|:)\s*(?:完成|顺延|放弃|仍|今天|已)")
_STOP = {"完成", "顺延", "放弃", "维持", "证实", "更正", "已经", "今天", "一天", "由此", "仍然"}
_AS_OF = re.compile(r"(?:截至|截止|于|自|从|起|到|为)\s*\Z")


UNDATED = "no date says whose list it is"
"""The problem of a 「矛盾 N」 written with no date: whose list it is, only the brief's own could say."""


def _list_name(heading: str) -> str | None:
    """The name a follow-up list's heading gives it: its first words (「接棒事项（交给明天的 Kai）」 →
    接棒事项); none for a heading of numbers or a generic word."""
    name = re.split(r"[（(\s：:，,]", heading.strip(" ▍#*"), maxsplit=1)[0]
    if len(name) < 2 or re.search(r"\d", name) or name in ("跟进", "待办", "清单"):
        return None
    return name


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_FULL_WIDTH)).strip().lower()


def _arxiv_base(arxiv: str) -> str:
    return re.sub(r"v\d+$", "", arxiv)


def _numbers(spelled: str) -> list[int] | None:
    """「3、5–11」 → [3, 5, …, 11]; ``None`` for a range too wide to be meant (a misread)."""
    parts = re.split(r"\s*(?:、|/|和|及|与)\s*", spelled.strip())
    out: list[int] = []
    for part in parts:
        if (chinese := small_number(part)) is not None:
            out.append(chinese)
            continue
        if (roman := ROMAN.get(part.strip())) is not None:
            out.append(roman)  # 「砚 iv」
            continue
        if (stem := part.strip("() ")) and stem in _STEMS:
            out.append(_STEMS.index(stem) + 1)  # 「（丙）」: the third
            continue
        bounds = [
            ENCLOSED.get(b.strip()) or int(b.strip("() "))
            for b in re.split(r"\s*(?:–|—|~|至|到)\s*", part)
            if b.strip()
        ]
        if len(bounds) == 2:
            low, high = bounds
            if not 0 < high - low <= 30:
                return None
            out.extend(range(low, high + 1))
        else:
            out.extend(bounds)
    return out


def _tokens(text: str) -> set[str]:
    """Words to compare a description with an object's words: ASCII words, signed numbers, Chinese pairs."""
    text = _norm(text)
    out = {w for w in re.findall(r"[a-z][a-z0-9.+\-]*[a-z0-9+]|[a-z]{2,}", text) if len(w) >= 2}
    out |= set(re.findall(r"[+\-]\d+|\d{2,}\+?", text))
    for run in re.findall(r"[\u4e00-\u9fff]{2,}", text):
        out |= {run[i : i + 2] for i in range(len(run) - 1)}
    return out - _STOP


def _strong(tokens: set[str]) -> set[str]:
    """The tokens that single an object out without a kind word: ASCII words and signed numbers."""
    return {t for t in tokens if t.isascii() and (t[0] in "+-" or (len(t) >= 3 and not t.isdigit()))}


# --------------------------------------------------------------------------- dates


@dataclass(frozen=True)
class _When:
    """A date as written, and the earlier briefs it can name."""

    start: int
    end: int
    briefs: tuple[_Indexed, ...]
    problem: str | None = None
    relative_round: bool = False
    """「前一轮」 after a brief of another round: the previous brief, or the previous one of today's round."""


def _calendar(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _dates(text: str, today: dt.date, history: History, round_: str | None) -> list[_When]:
    earlier = history._before(today)
    out: list[_When] = []
    for match in history.dates.finditer(text):
        kind = match.lastgroup
        spelled = match.group()
        day: dt.date | None = None
        if kind == "iso":
            y, m, d = (int(x) for x in re.findall(r"\d+", spelled))  # 「2026-10-26」, 「2026/10/26」, 「2026.10.26」
            day = _calendar(y, m, d)
        elif kind == "isowk":  # 「W01-5」, 「2026-W53-5」: an ISO week date, the week's year this one or the last
            day = _iso_week(today, spelled)
        elif kind == "ordinal":  # 「D020」, 「2027-020」: the day of the year, as an alerting system writes dates
            day = _ordinal(today, spelled)
        elif kind == "tminus":  # 「T-1」, 「T-4」: days counted back from today, as a test team counts to a release
            day = today - dt.timedelta(days=int(re.findall(r"\d+", spelled)[0]))
        elif kind == "dmy":  # 「31/12/26」, 「10/12/26」: a day, a month and the year, in either order of the two
            first, second, year = (int(x) for x in spelled.split("/"))
            year += 2000 if year < 100 else 0
            month_first, day_first = _calendar(year, first, second), _calendar(year, second, first)
            day = _day_first_if_recent(month_first, day_first, today, history) if month_first else day_first
        elif kind == "named":  # 「平安夜」: the day the vocabulary names, this year or the year before
            m, d = (int(x) for x in history.named_days[spelled].split("-"))
            day = _month_day(today, m, d)
        elif kind == "lunar":  # 「腊月初九」: by the key the brief's header gives for that lunar month
            day = lunar.resolve(spelled, history.lunar_months)
        elif kind == "mmdd":  # 「1129 岚（五）」: month and day in four digits, only a night some brief is dated
            day = _month_day(today, int(spelled[:2]), int(spelled[2:]))
        elif kind in ("md", "cn", "slash", "dot"):
            m, d = (int(x) for x in re.findall(r"\d+", spelled))
            day = _month_day(today, m, d)
            if kind == "slash":  # 「25/11」, 「4/11」: a writer who puts the day first
                day = _day_first_if_recent(day, _month_day(today, d, m), today, history)
        elif kind == "en":  # 「Nov 22」, 「Dec14」
            day = _month_day(today, _MONTHS.index(spelled[:3].title()) + 1, int(re.findall(r"\d+", spelled)[0]))
        elif kind == "den":  # 「14-Dec」, 「14 Dec」: the day first
            month = re.sub(r"^[\d\s\-]+", "", spelled)[:3].title()
            day = _month_day(today, _MONTHS.index(month) + 1, int(re.findall(r"\d+", spelled)[0]))
        elif kind in ("enwk", "wkdot"):  # 「Sat」, 「Thu's」, 「六·珩·」: the last such day before tonight
            weekday = _WEEKDAYS[spelled] if kind == "wkdot" else _EN_WEEKDAYS.index(spelled[:3].title())
            back = (today.weekday() - weekday) % 7 or 7
            day = today - dt.timedelta(days=back)
            if not history._on(day):
                continue  # a weekday named as a day to come, or a night nobody wrote
        elif kind in ("hao", "ri"):  # 「14 号」, 「15 日」: that day of this month, else of the month before
            day = _day_of_month(today, int(re.findall(r"\d+", spelled)[0]))
        elif kind == "rel":
            if spelled in history.yesterday:
                day = today - dt.timedelta(days=1)
            elif spelled in history.day_before:
                day = today - dt.timedelta(days=2)
            elif spelled in history.three_back:  # 「大前天」 (the longer word is tried first: not 前天)
                day = today - dt.timedelta(days=3)
            else:
                out.append(_previous_round(match, earlier, round_))
                continue
        elif kind == "wk":
            monday = today - dt.timedelta(days=today.weekday())
            monday -= dt.timedelta(days=7 * len(spelled) - 7 * len(spelled.lstrip("上")))  # 上周, 上上周
            day = monday + dt.timedelta(days=_WEEKDAYS[spelled[-1]])
            if day >= today:  # 「留给周三」 on a Tuesday: a day to come, not a brief
                continue
        else:  # 上周: the whole previous week
            monday = today - dt.timedelta(days=today.weekday() + 7)
            week = tuple(b for b in earlier if monday <= b.date < monday + dt.timedelta(days=7))
            out.append(_When(match.start(), match.end(), week, None if week else "no brief last week"))
            continue
        if kind in ("dot", "ri", "mmdd") and (day is None or day < today - RECENT or not history._on(day)):
            continue  # 「11.17」, 「15 日」: only a day some recent brief is dated
        if day is None or day > today:
            continue
        briefs = tuple(history._on(day))
        out.append(_When(match.start(), match.end(), briefs, None if briefs else f"no brief dated {day}"))
    return out


RECENT = dt.timedelta(days=62)
"""How far back a date written as 「11.17」 or 「15 日」 may point: the same spellings are version numbers
(Llama 3.1) and spans (7 日窗口) too, so only a day a brief of the last two months is dated counts."""


def _day_first_if_recent(
    month_first: dt.date | None, day_first: dt.date | None, today: dt.date, history: History
) -> dt.date | None:
    """Of the two readings of 「4/11」 or 「10/12/26」, the month first unless only the day first is a recent
    night some brief is dated (a writer who puts the day first)."""
    if _recent(month_first, today, history) or not _recent(day_first, today, history):
        return month_first
    return day_first


def _ordinal(today: dt.date, spelled: str) -> dt.date | None:
    """The day an ordinal date names (「D005」 is 5 January, 「2027-021」 the 21st day of 2027): of the year it gives,
    else of this year when that day has come, else of the year before (「D360」 in January)."""
    m = re.fullmatch(r"(?:(?P<year>20\d\d)-)?D?(?P<day>\d{3})", spelled)
    if m is None or not 1 <= int(m["day"]) <= 366:
        return None
    number = int(m["day"])
    year = int(m["year"]) if m["year"] else today.year if number <= today.timetuple().tm_yday else today.year - 1
    day = dt.date(year, 1, 1) + dt.timedelta(days=number - 1)
    return day if day.year == year else None


def _iso_week(today: dt.date, spelled: str) -> dt.date | None:
    """The day an ISO week date names (「W01-5」 is the Friday of week 1): of the year it gives, else of
    this ISO year when that week has begun, else of the year before (「W53-5」 in January).  A day still
    to come (「交给 W01-7」 on the Saturday) is no night a brief is dated: None."""
    m = re.fullmatch(r"(?:(?P<year>20\d\d)-?)?W(?P<week>\d{2})-?(?P<day>[1-7])", spelled)
    if m is None:
        return None
    week, weekday = int(m["week"]), int(m["day"])
    this_year, this_week, _ = today.isocalendar()
    year = int(m["year"]) if m["year"] else this_year if week <= this_week else this_year - 1
    try:
        day = dt.date.fromisocalendar(year, week, weekday)
    except ValueError:  # no week 53 that year
        return None
    return day if day <= today else None


def _recent(day: dt.date | None, today: dt.date, history: History) -> bool:
    """Whether ``day`` is a night of the last two months that a brief is dated."""
    return day is not None and today - RECENT <= day <= today and bool(history._on(day))


def _month_day(today: dt.date, month: int, day: int) -> dt.date | None:
    """That day of this year, else of the year before (a brief never names a night to come)."""
    found = _calendar(today.year, month, day)
    return _calendar(today.year - 1, month, day) if found is not None and found > today else found


def _day_of_month(today: dt.date, day: int) -> dt.date | None:
    """That day of this month, else of the month before."""
    found = _calendar(today.year, today.month, day)
    if found is None or found > today:
        last = today.replace(day=1) - dt.timedelta(days=1)
        found = _calendar(last.year, last.month, day)
    return found


def _previous_round(match: re.Match[str], earlier: list[_Indexed], round_: str | None) -> _When:
    if not earlier:
        return _When(match.start(), match.end(), (), "no earlier brief")
    latest = earlier[-1]
    briefs = [latest]
    if round_ is not None and latest.round != round_:
        same = [b for b in earlier if b.round == round_]
        if same:
            briefs.insert(0, same[-1])
    return _When(match.start(), match.end(), tuple(briefs), None, relative_round=len(briefs) > 1)


# --------------------------------------------------------------------------- finding


def find_references(
    text: str,
    today: dt.date,
    history: History,
    *,
    part: str | None = None,
    round: str | None = None,
    loose: list[Reference] | None = None,
) -> list[Reference]:
    """Every back-reference in `text` (one piece of a brief being imported, dated `today`), resolved
    against `history`. Never guesses: a reference that does not resolve to exactly one id comes back
    with id=None and a problem / candidates.

    ``part`` is the part of the brief the text comes from (``items``, ``contradictions``, …): a bare
    「第 N 条」 in part 二 continuing nothing names a contradiction; in ``follow_ups`` (a line of a
    follow-up status list, 「顺延清单：10-30 的 v0.29.2 复跑——…」, read as ``follow_up_status``) a description
    names a follow-up.  ``round`` is the round of the brief
    being imported (``E1``): with it, 「前一轮」 after a brief of another round (an E1 brief the night
    after an E2 deep read) is seen to be ambiguous, as the editor found on 2026-10-23.

    ``loose`` collects what is too loose to read (「10-21 第 3 条」, a night and a number with no list's word),
    kind ``loose`` and as candidates that night's item, contradiction and follow-up of the number: the caller
    may ask the editor which, never pick one.
    """
    scan = text.translate(_FULL_WIDTH)  # one character for one: offsets stay those of `text`
    dates = _dates(scan, today, history, round)
    refs: list[Reference] = []
    used: list[tuple[int, int]] = []
    last_dated: tuple[tuple[_Indexed, ...], str, bool] | None = None  # briefs, kind, 前一轮-ambiguous
    last_when: _When | None = None
    date_iter = iter(dates)
    pending = next(date_iter, None)

    pattern = _list_pattern(
        tuple(sorted(history.list_names)),
        tuple(sorted(history.contradiction_marks)),
        tuple(sorted(history.item_marks)),
        tuple(sorted(history.follow_up_marks)),
    )
    for match in pattern.finditer(scan):
        while pending is not None and pending.end <= match.start():
            last_when = pending
            pending = next(date_iter, None)
        group = next(g for g, v in match.groupdict().items() if v is not None and g in _GROUP_KIND)
        kind = _GROUP_KIND[group] or ("contradiction" if part == "contradictions" else None)
        numbers = _numbers(match.group(group))
        if numbers is None:
            continue
        before = scan[: match.start()]
        gap = scan[last_when.end : match.start()] if last_when is not None else ""
        for name in history.authors:
            gap = gap.replace(name, "")  # 「前天芮 #5」: the night's writer between the night and the number
        when = last_when if last_when is not None and _FILLER.match(gap) else None
        start = match.start()
        briefs: tuple[_Indexed, ...] | None = None
        ambiguous_round = False
        undated_problem: str | None = None
        if when is not None:
            start, briefs, ambiguous_round = when.start, when.briefs, when.relative_round
            if kind is None and (
                _ITEM_NTH.search(before[-8:])
                or not match.group(group)[:1].isdigit()
                or before.rstrip().endswith(("·", "・"))
            ):
                kind = "item"  # 「昨晚乔第三条」, 「四·岑·第 4 条」: a writer's own way to number items
            if group == "circled" and briefs and all(b.circled_items for b in briefs):
                kind = "item"  # 「澄（1/9）②」: that night headed its items ① ② ③, and no follow-up so
            if kind is None:  # 「10-21 第 3 条」 with no list word: too loose to read
                if loose is not None and briefs:
                    loose.extend(_loose(text, start, match.end(), numbers, briefs))
                continue
            if group == "fmark":  # 「11/23 P2」: only a night whose list labelled a follow-up so
                briefs = tuple(b for b in briefs if _no_space(match.group(0)) in b.follow_up_marks)
                if not briefs:
                    continue
            if group == "imark" and (labelled := [b for b in briefs if _no_space(match.group(0)) in b.item_labels]):
                # 「T-3 苒 行 40」: that night labelled its items 行 10, 行 20 …; the label names the item, not its number
                briefs, numbers = tuple(labelled), [labelled[0].item_labels[_no_space(match.group(0))]]
            if group == "iof":  # 「1/4」: only a night of four items has it; else a fraction or a date
                briefs = tuple(b for b in briefs if len(b.numbered("item")) == int(match["iof_total"]))
                if not briefs:
                    continue
            if not briefs:
                refs.extend(_unresolved(text, start, match.end(), kind, numbers, when.problem or "no brief"))
                continue
            last_dated = (briefs, kind, ambiguous_round)
        elif _TODAY.search(before):
            continue  # 今日矛盾 2: the brief's own list
        elif group == "fmark":
            # 「T4 完工」 in part 四: the latest earlier night whose list labelled a follow-up so (tonight's own
            # list, if it labels so too, is read as its entries, not as references)
            if part not in ("conclusions", "follow_up_status"):
                continue
            said = _no_space(match.group(0))
            labelled = [b for b in history._before(today) if b.date < today and said in b.follow_up_marks]
            if not labelled:
                continue
            briefs = (labelled[-1],)
        elif group in (
            "ih",
            "cc",
            "itiao",
            "cmark",
            "cdark",
            "imark",
            "iparen",
            "part1",
            "part2",
            "iof",
            "iroman",
            "ihao",
            "idot",
            "fdot",
        ):
            continue  # 「#2」, 「C1」, 「条 3」, 「▲1」, 「❶」, 「#增1」 undated: tonight's own (or a PR number)
        elif group == "i":
            if last_dated is None or last_dated[1] != "item" or not _LIST_CONTINUES.search(before):
                continue  # 「见条目 3」: the brief's own item
            briefs, kind, ambiguous_round = last_dated
        elif group in ("nth", "circled", "paren", "f", "f_nth"):
            if last_dated is None:
                continue
            if group == "nth" and not _CLAUSE_START.search(before):
                continue  # 「Airbnb 第 9 条」, 「§6.1 第 17 条开放问题」
            if group != "nth" and last_dated[1] != "follow_up":
                continue
            briefs, kind, ambiguous_round = last_dated
        else:  # an undated 矛盾 N
            if last_when is not None and last_when.briefs:
                briefs, ambiguous_round = last_when.briefs, last_when.relative_round
            elif last_dated is not None:
                briefs, _, ambiguous_round = last_dated
            else:
                briefs = tuple(history._before(today))
                undated_problem = UNDATED
        assert kind is not None and briefs is not None
        end = match.end()
        used.append((start, end))
        after = scan[end:]
        for number in numbers:
            refs.append(
                _resolve(
                    text, start, end, kind, number, briefs, after, undated_problem, ambiguous_round or len(briefs) > 1
                )
            )

    refs.extend(_descriptive(text, scan, dates, history, used, part))
    refs.extend(list_entries(text, scan, today, history, used))
    refs.extend(_citations(text, scan, today, history))
    refs.sort(key=lambda r: (r.start, r.end))
    return refs


def _loose(text: str, start: int, end: int, numbers: Sequence[int], briefs: Sequence[_Indexed]) -> list[Reference]:
    """「10-21 第 3 条」: a reference to that night's item, contradiction or follow-up 3, whichever it has."""
    return [
        Reference(
            text[start:end],
            start,
            end,
            "loose",
            briefs[0].id if len(briefs) == 1 else None,
            None,
            candidates,
            "a night and a number, with no word for the list it numbers",
        )
        for number in numbers
        if (
            candidates := tuple(
                b.numbered(kind)[number]
                for b in briefs
                for kind in ("item", "contradiction", "follow_up")
                if number in b.numbered(kind)
            )
        )
    ]


def _unresolved(text: str, start: int, end: int, kind: str, numbers: Sequence[int], problem: str) -> list[Reference]:
    return [Reference(text[start:end], start, end, kind, None, None, (), problem) for _ in numbers]


def _resolve(
    text: str,
    start: int,
    end: int,
    kind: str,
    number: int,
    briefs: Sequence[_Indexed],
    after: str,
    undated_problem: str | None,
    may_describe: bool,
) -> Reference:
    """The object numbered ``number`` in the ``kind`` list of one of ``briefs``; its description right after
    the reference (「③ llm-d release notes——完成」) decides between dated candidates, never between undated ones."""
    found = [(b, b.numbered(kind)[number]) for b in briefs if number in b.numbered(kind)]
    spelled = text[start:end]
    label = kind.replace("_", "-")
    if len(found) == 1:
        brief, ident = found[0]
        if undated_problem is None:
            return Reference(spelled, start, end, kind, brief.id, ident)
        return Reference(
            spelled,
            start,
            end,
            kind,
            brief.id,
            None,
            (ident,),
            f"{undated_problem}; only {brief.id} has {label} {number}",
        )
    if not found:
        names = ", ".join(b.id for b in briefs) or "no earlier brief"
        return Reference(spelled, start, end, kind, None, None, (), f"{names} has no {label} {number}")
    if undated_problem is None and may_describe:
        picked = _described(after, [(b.id, kind, ident) for b, ident in found], {b.id: b for b in briefs})
        if picked is not None:
            return Reference(spelled, start, end, kind, picked[0], picked[2])
    owners = {b.id for b, _ in found}
    problem = undated_problem or "the date names several briefs"
    return Reference(
        spelled,
        start,
        end,
        kind,
        next(iter(owners)) if len(owners) == 1 else None,
        None,
        tuple(dict.fromkeys(ident for _, ident in found)),
        f"{problem}: {label} {number} of " + " or ".join(f"{b.id} ({ident})" for b, ident in found),
    )


def _clause(after: str) -> str:
    """The words right after a reference, up to the end of its clause (a parenthesis included)."""
    paren = re.match(r"\s*\(([^()]{1,40})\)", after)
    head = paren.group(1) if paren else ""
    rest = after[paren.end() :] if paren else after
    stop = _CLAUSE_END.search(rest)
    return f"{head} {rest[: stop.start() if stop else 40]}"


def _described(
    after: str, candidates: Sequence[tuple[str, str, str]], briefs: dict[str, _Indexed], *, strong_only: bool = False
) -> tuple[str, str, str] | None:
    """The one candidate whose own words the description shares, if exactly one shares any: its ASCII
    names and signed figures first (「modelexpress 文档」 is the doubt about modelexpress, though 文档 is
    in others too), then any of its words."""
    words = _tokens(_clause(after))
    for tier in (_strong(words),) if strong_only else (_strong(words), words):
        hits = [c for c in candidates if tier & _tokens(briefs[c[0]].texts.get((c[1], c[2]), ""))]
        if hits:
            return hits[0] if len(hits) == 1 else None
    return None


_QUOTED_AFTER = re.compile(r"\s*[^「」，,。；;\n]{0,6}?「([^「」\n]{4,80})」")
"""A quote right after a night, a few words between (「11月4日 那件「v1.1 发版后核对 SGLang-TorchTPU」」)."""


def _quoted_follow_up(
    rest: str, candidates: Sequence[tuple[str, str, str]], briefs: dict[str, _Indexed]
) -> tuple[tuple[str, str, str], int] | None:
    """The one follow-up of the night whose words hold the quote that follows the night, and where the
    quote ends: a writer names a follow-up of an earlier list by quoting it (「11月4日 那件「v1.1 发版后核对
    SGLang-TorchTPU」，…这件划掉」).  Items and entries named by a quoted title are found by
    :func:`list_entries`; a quote two follow-ups share names neither."""
    quoted = _QUOTED_AFTER.match(rest)
    if quoted is None:
        return None
    words = _norm(quoted.group(1))
    fits = [c for c in candidates if c[1] == "follow_up" and words in _norm(briefs[c[0]].texts.get((c[1], c[2]), ""))]
    if len(fits) != 1:
        return None
    brief_id, kind, ident = fits[0]
    return (kind, brief_id, ident), quoted.end()


def _descriptive(
    text: str,
    scan: str,
    dates: Sequence[_When],
    history: History,
    used: Sequence[tuple[int, int]],
    part: str | None = None,
) -> list[Reference]:
    """「10-24 的 Braintrust 待办」, 「10-27 卡上的 +296」, 「10-25 模型卡」: a date and a description instead of
    a number.  A word of the description says which list (待办 → follow-ups, 卡 → items, 登记 → citations);
    the description must then fit exactly one object of that list (or the list hold just one).  With no
    such word only an ASCII word or a signed figure shared by exactly one object will do."""
    out: list[Reference] = []
    for k, when in enumerate(dates):
        if not when.briefs or any(s <= when.start < e for s, e in used) or _AS_OF.search(scan[: when.start]):
            continue
        limit = dates[k + 1].start if k + 1 < len(dates) else len(scan)
        rest = scan[when.end : limit]
        stop = _CLAUSE_END.search(rest)
        clause = rest[: stop.start() if stop else min(len(rest), 30)]
        if not clause.strip() or _LIST.search(clause) or _ARXIV.search(clause):
            continue  # the number, id or section written next to it says more than the description
        kinds = [kind for word, kind in _HINTS if word in clause]
        if not kinds and (_STATUS_AFTER.match(rest[len(clause) :]) or part == "follow_up_status"):
            kinds = ["follow_up"]  # (a line of a follow-up status list names follow-ups)
        if not kinds and part == "contradictions" and _LINE_START.fullmatch(scan[: when.start]):
            kinds = ["contradiction"]  # a line of part 二 that opens with a night (「礼拜三乔那桩」) names its doubt
        hinted = kinds[0] if kinds else None
        described = clause
        if aside := re.match(r"\s*\(([^()]{1,40})\)", rest[len(clause) :]):
            described = f"{clause} {aside.group(1)}"  # 「那桩（Inferact 预告表）」: the brackets describe it
        candidates = [
            (b.id, kind, ident)
            for b in when.briefs
            for kind in ([hinted] if hinted else ["item", "contradiction", "follow_up"])
            for ident in b.objects(kind)
        ]
        if not candidates:
            continue
        briefs = {b.id: b for b in when.briefs}
        quoted = _quoted_follow_up(rest, candidates, briefs) if hinted in (None, "follow_up") else None
        if quoted is not None:
            (kind, brief_id, ident), length = quoted
            out.append(
                Reference(text[when.start : when.end + length], when.start, when.end + length, kind, brief_id, ident)
            )
            continue
        picked = _described(described, candidates, briefs, strong_only=hinted is None)
        if picked is None and hinted and len(candidates) == 1:
            picked = candidates[0]
        end = when.end + len(clause.rstrip())
        spelled = text[when.start : end]
        if picked is not None:
            out.append(Reference(spelled, when.start, end, picked[1], picked[0], picked[2]))
        elif hinted:
            owners = {c[0] for c in candidates}
            out.append(
                Reference(
                    spelled,
                    when.start,
                    end,
                    hinted,
                    next(iter(owners)) if len(owners) == 1 else None,
                    None,
                    tuple(c[2] for c in candidates),
                    f"the description fits no single {hinted.replace('_', '-')} of {', '.join(sorted(owners))}",
                )
            )
    return out


def list_entries(
    text: str, scan: str, today: dt.date, history: History, used: Sequence[tuple[int, int]]
) -> list[Reference]:
    """「长 prefill 头阻塞」 and §2.6: entries earlier items created, sections earlier briefs opened."""
    out: list[Reference] = []
    known = {b.id for b in history._before(today)}
    entries = [e for e in history._entries if e.brief in known]
    sections = [s for s in history._sections if s.brief in known]
    taken: list[tuple[int, int]] = []
    for match in _ENTRY.finditer(scan):
        name = _norm(match.group("name"))
        sec = match.group("sec")
        start, end = match.span()
        opened = [s for s in sections if s.number == sec and _names_match(name, _norm(s.title))] if sec else []
        if not opened:
            opened = [s for s in sections if _norm(s.title) == name]
        if opened:
            head = _title_start(scan, start)
            out.append(Reference(text[head:end], head, end, "section", opened[0].brief, opened[0].number))
            taken.append((start, end))
            continue
        if name in history._outline_names:
            continue
        exact = [e for e in entries if any(_norm(n) == name for n in e.names)]
        hits = exact or [e for e in entries if any(_names_match(name, _norm(n)) for n in e.names)]
        if sec and len({e.id for e in hits}) > 1:
            hits = [e for e in hits if e.section == sec] or hits
        ids = tuple(dict.fromkeys(e.id for e in hits))
        if not ids:
            continue
        taken.append((start, end))
        if len(ids) == 1:
            out.append(Reference(text[start:end], start, end, "entry", hits[0].brief, ids[0]))
        else:
            owners = {e.brief for e in hits}
            out.append(
                Reference(
                    text[start:end],
                    start,
                    end,
                    "entry",
                    next(iter(owners)) if len(owners) == 1 else None,
                    None,
                    ids,
                    f"「{match.group('name')}」 names several entries: {', '.join(ids)}",
                )
            )
    for match in _ENTRY_DESCRIBED.finditer(scan):
        if any(s <= match.start() < e for s, e in taken):
            continue
        words = _tokens(match.group("words"))
        hits = [e for e in entries if e.section == match.group("sec") and words & _tokens(" ".join(e.names))]
        if len(hits) == 1:  # 「§5.2 文献条目」: the one entry of §5.2 whose name has 文献
            start, end = match.span()
            out.append(Reference(text[start:end], start, end, "entry", hits[0].brief, hits[0].id))
            taken.append((start, end))
    for match in _SECTION.finditer(scan):
        if any(s <= match.start() < e for s, e in taken):
            continue
        opened = [s for s in sections if s.number == match.group("sec")]
        if opened and match.group("sec") not in history._outline_sections:
            start, end = match.span()
            out.append(Reference(text[start:end], start, end, "section", opened[0].brief, opened[0].number))
    return out


def _names_match(written: str, known: str) -> bool:
    """「llm-d 1.0」 for the item 「llm-d 1.0 发布——…」: the written name starts the known one at a word's end."""
    if len(written) < 3 or not known.startswith(written):
        return False
    return len(known) == len(written) or not (known[len(written)].isalnum() and written[-1].isascii())


def _title_start(scan: str, start: int) -> int:
    """Take in 「昨天新开的」 before 「§2.6「…」」: the words that say which brief opened it."""
    found = re.search(r"(?:昨天|昨日|前天|\d{1,2}-\d{1,2})新开的\s*\Z", scan[:start])
    return found.start() if found else start


def _citations(text: str, scan: str, today: dt.date, history: History) -> list[Reference]:
    """An arXiv id an earlier brief listed: the brief that first registered it, and its spelling there."""
    known = {b.id for b in history._before(today)}
    out: list[Reference] = []
    for match in _ARXIV.finditer(scan):
        listed = [(b, a) for b, a in history._citations.get(match.group("ax"), []) if b in known]
        if not listed:
            continue
        version = re.sub(r"[\s()]", "", match.group("v") or "")
        brief, arxiv = next(((b, a) for b, a in listed if a == match.group("ax") + version), listed[0])
        out.append(Reference(text[match.start() : match.end()], match.start(), match.end(), "citation", brief, arxiv))
    return out
