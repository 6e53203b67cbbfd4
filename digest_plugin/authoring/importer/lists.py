"""The lists of part 四, read by their shape rather than by their words.

Writers head and number a follow-up list every which way: 「交给周末：」 then ① ② ③ on lines of their own,
「### 下周一前要摸清的」 then 1. 2. 3., or the whole list inline at the end of one paragraph
(「接下来盯：① …；② …；③ …。」).  What they share is the shape: a heading (a line ending in a colon, a
Markdown heading, or the words before a colon inside a paragraph) and entries numbered ①…⑩ or 1. 2. 3.

A list whose heading points back at an earlier night (「昨晚林留的三件：」, 「昨天 Tom 的清单：」, 「旧清单：」)
reports what became of that night's follow-ups: each entry's number is that night's, and its words say
the status (the ``follow_up_*`` acts of ``wordings:``, read by :func:`.updates.last_status`).  Any other numbered list of part 四 is tonight's
new follow-ups; an entry of it that carries an earlier follow-up on (「① SGLang 分块 ITL（昨晚 ①，顺延）」)
restates that follow-up instead of opening a new one.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass, field

from ...core.model import Brief
from .backrefs import History, Reference, find_references
from .common import HEADING_NIGHT, MARKDOWN_MARKS, SYMBOL_TAG, Line, split_outside, strip_end, table_cells
from .numbers import ENCLOSED, MORE_ENCLOSED

STEMS = "甲乙丙丁戊己庚辛壬癸"
"""The heavenly stems some writers number a list with: （甲）（乙）（丙）."""


BRANCHES = "子丑寅卯辰巳午未申酉"
"""The earthly branches some writers number a list with, one a line: 「子　…」 「丑　…」."""
ORDINALS = "一二三四五六七八九十"
"""「其一 其二 …」, 「之一 之二 …」: the ordinal a writer may number a list with (其 or 之 and a Chinese numeral)."""
COUNTERS = "[号条项件则]"
"""「1 号」, 「2 条」: a number with a counter after it names one of tonight's items (「六项：1 号 §5.2 …；2 号 …」
recaps them); it does not number a list.  ``{COUNTER}`` in a pattern."""
PARENTHESIZED = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽"
"""「⑴ ⑵ …」: one character each, a digit in parentheses."""


def _compiled(pattern: str) -> re.Pattern[str]:
    """A pattern of this module: ``{STEMS}``, ``{ORDINALS}``, ``{PAREN}`` and ``{BRANCHES}`` stand for
    their characters in a character class, ``{MORE}`` for the other numberings an entry may carry (其一,
    ⑴, 子, 甲 before a full-width space), ``{CIRCLED}`` for the enclosed numerals an entry may start with (「①」, 「Ⓐ」, 「➊」)."""
    more = r"|[其之](?P<ordinal>[{ORDINALS}])(?![^\s　（(：:——-]{4})|(?P<paren2>[{PAREN}])|(?P<branch>[{BRANCHES}])(?=\u3000)|(?P<stem>[{STEMS}])(?=\u3000)"
    pattern = (
        pattern.replace("{MORE}", more).replace("{CIRCLED}", f"①-⑩{MORE_ENCLOSED}").replace("{SYMBOL}", SYMBOL_TAG)
    )
    for name, chars in (("{STEMS}", STEMS), ("{ORDINALS}", ORDINALS), ("{PAREN}", PARENTHESIZED)):
        pattern = pattern.replace(name, chars)
    return re.compile(pattern.replace("{BRANCHES}", BRANCHES).replace("{COUNTER}", COUNTERS))


ENTRY = _compiled(
    r"^\s*(?:#{1,6}\s+)?(?:[-•*·・]\s+)?(?:\[(?P<box>[ xX✓>/-]?)\]\s*)?(?P<tag>〔[^〕]{1,8}〕\s*)?"
    r"(?:(?P<circled>[{CIRCLED}])|(?P<num>\d{1,2})(?:\s*[.、．)）](?!\d)|\s+[·|｜—–-]\s)|[（(](?P<paren>\d{1,2}|[{STEMS}])[）)]"
    r"{MORE}|(?P<cnum>[{ORDINALS}])[）)]|〈(?P<angle>\d{1,2})〉|(?P<stem2>[{STEMS}])(?=[（(])|〔[^〕\d]{0,3}\s*(?P<tagnum>\d{1,2})〕|(?P<letter>[A-Z]|[A-Z]{1,2}[-‐－]|[\u4e00-\u9fff]{1,2}[-‐－]|[\u4e00-\u9fff]{1,2}\s(?=\d{1,2}\s*[|｜])|{SYMBOL})(?P<lnum>\d{1,2})(?=\s*[［\[【（(·|｜:：]|\s)"
    r"|(?P<alpha>[A-J])[.．](?=\s))"
    r"\s*(?P<text>\S.*)$"
)
"""A numbered entry on a line of its own: 「① …」, 「1. …」, 「- ② …」, 「（3）…」, 「- [ ] 1. …」 (a task
list; ``box`` keeps its status: 「[x]」, 「[>]」 …), 「1 · @洛 · …」, 「（甲）…」, 「甲（…）…」, 「其一　…」, 「一）…」, 「〈1〉…」, 「〔待 1〕…」, 「⑴ …」, 「子　…」, 「T1［钟］…」
(a letter and the number), 「催 1｜…」 (a word, a space and the number before a bar), 「A. …」 (a capital letter alone, A to J), 「I-1 …」, 「接-1 …」 (a tag and a hyphen before it), 「⏭1 …」 (a symbol), each also as a Markdown heading (an Org file's 「*** DONE R1 …」),
and after a tag in 〔〕 (「· 〔收讫〕ⅰ …」), which stays in the entry's text: it says the entry's status."""
HEADING = _compiled(
    r"^\s*(?:#{1,6}\s+(?P<md>.+?)|\*\*(?P<bold>[^*]+?)\*\*|——\s*(?P<dash>[^—]+?)\s*——|【(?P<lent>[^】]+)】|[▍▎▌]\s*(?P<bar>[^（({CIRCLED}]+?(?:[（(][^）)]*[）)])?)(?=\s*$|\s*[（(][\d{STEMS}]|\s*[{CIRCLED}])"
    r"|(?:[-•*·・]\s+)?(?P<colon>.+?)\s*[：:]|[五六七八九十]{1,2}\s*[、.．]\s*(?P<part>[^\d\s].*?))\s*$"
)
"""A line that heads what follows: a Markdown heading, a line all in bold, a 「——…——」 line, a 「【…】」 line,
a 「▍…」 bar, a line ending in a colon, or a part's heading past 四 (「五、明日事项」, read on with part 四)."""
INLINE_START = _compiled(
    r"(?:^[▍▎▌]\s*(?P<bar>[^（({CIRCLED}：:]+?(?:[（(][^）)]*[）)])?)(?=\s*(?:[（(](?:\d{1,2}|[{STEMS}])[）)]|[{CIRCLED}]))"
    r"|(?P<heading>[^。；;：:\n]{1,40})[：:]\s*(?=[{CIRCLED}{PAREN}]|其[一二]|\d{1,2}\s*[（(.、]|[（(](?:\d{1,2}|[{STEMS}])[）)]|1\s+(?!{COUNTER})\S|[A-Z]1(?=[（(\s])))"
)
"""Inside a paragraph, the words that head a numbered list: before a colon (「接下来盯：① …」), or a
「▍」 heading the entries follow directly (「▍接棒事项（交给明天的 Kai）（1）…」)."""
INLINE_MARK = _compiled(
    r"(?:(?<=[：:；;。，,])|^|(?<=[）)]))\s*(?:(?P<circled>[{CIRCLED}])|(?P<num>\d{1,2})(?=\s*[（(.、]|\s+(?!{COUNTER})\S)"
    r"|[（(](?P<paren>\d{1,2}|[{STEMS}])[）)]{MORE}|(?P<letter>[A-Z])(?P<lnum>\d{1,2})(?=[（(\s]))"
)
"""An entry's number inside a paragraph: only at the start of a clause (「顺延昨天的 ③」 is a reference);
「1 自算成本——…；2 M4 Max——…」 and 「T1（…）…；T2（…）…」 count only as a run numbered 1, 2, 3 …"""
EARLIER = re.compile(rf"(?<![下每这本今])(?:{HEADING_NIGHT}|昨|前天|前晚|前一轮|上一?轮|上周|旧|留下|遗留)")
"""A heading that points back at an earlier night: its list reports on that night's follow-ups."""


WEEKDAY_AHEAD = re.compile(
    r"(?<![上前昨])(?:周|星期|礼拜)[一二三四五六日天]"
    r"|\b(?:Mon|Tues?|Wed(?:nes)?|Thu(?:rs?)?|Fri|Sat(?:ur)?|Sun)(?:day)?\b|T\s*\+\s*\d"
)
"""A weekday with no 上 before it (「托付周四」, 「→ Tue」) or 「T+1」: in a list's heading, a night to come."""


def hands_on(title: str, ahead: re.Pattern[str]) -> bool:
    """Whether a list's heading hands it to a night to come (「交给 W01-7（周日，楠）」, 「Parking lot → Tue」,
    「下一轮待测」): the list is tonight's follow-ups, not a conclusion, and nothing needs asking.  ``ahead``
    is the team's words for the nights ahead (``days_ahead`` of ``wordings:``)."""
    return not EARLIER.search(title) and bool(WEEKDAY_AHEAD.search(title) or ahead.search(title))


@dataclass
class Entry:
    number: int
    text: str
    line: int
    box: str | None = None
    """A task list's box, what stands between its brackets: 「x」 (done), 「>」 (forwarded), 「-」 (cancelled), 「/」
    (in progress), 「」 for 「[ ]」; ``None`` when the entry has none."""
    mark: str | None = None
    """The label the writer numbered it with, a letter or a tag and its number (「T4」, 「N1」, 「接-1」), when
    not a bare numeral: a later night may name it so."""


@dataclass
class NumberedList:
    heading: str
    line: int
    entries: list[Entry] = field(default_factory=list)
    lines: set[int] = field(default_factory=set)
    """The Markdown lines it takes (a list of its own lines, not an inline one)."""
    night: dt.date | None = None
    """The earlier night whose follow-ups it reports on, when its heading names that night's writer
    (「乔的（甲）–（丁）」 the night after 乔 wrote): see :func:`reports_on_writer`."""

    @property
    def earlier(self) -> bool:
        return self.night is not None or bool(EARLIER.search(self.heading))


def _number(m: re.Match[str]) -> int:
    if m["circled"]:
        return ENCLOSED[m["circled"]]
    found = m.groupdict()
    paren = found.get("paren")
    if paren and paren in STEMS:
        return STEMS.index(paren) + 1
    if found.get("ordinal") or found.get("cnum"):
        return ORDINALS.index(found.get("ordinal") or found["cnum"]) + 1
    if found.get("paren2"):
        return PARENTHESIZED.index(found["paren2"]) + 1
    if found.get("branch"):
        return BRANCHES.index(found["branch"]) + 1
    if found.get("stem"):
        return STEMS.index(found["stem"]) + 1
    if found.get("angle") or found.get("tagnum"):
        return int(found.get("angle") or found["tagnum"])
    if found.get("stem2"):
        return STEMS.index(found["stem2"]) + 1
    if found.get("lnum"):
        return int(found["lnum"])
    if found.get("alpha"):
        return ord(found["alpha"]) - ord("A") + 1
    return int(found.get("num") or paren or 0)


def _mark(m: re.Match[str]) -> str | None:
    """「T4」 of 「T4［Jay］…」: a letter (or tag) and its number, as written; 「〔办 1〕」 of 「〔办 1〕Jay：…」, a tag and
    its number in brackets, as written (a later night names the line by it: 「T-1 晏〔办 2〕」); None for other
    numberings (「〔2〕」, a bare number in brackets, is no label of its own)."""
    found = m.groupdict()
    if found.get("letter") and found.get("lnum"):
        return f"{found['letter']}{found['lnum']}"
    if found.get("tagnum"):
        opened = m.string.rfind("〔", 0, m.start("tagnum"))
        written = m.string[opened : m.end("tagnum") + 1]
        return written if re.match(r"〔\s*[^\W\d_]", written) else None
    return None


def _cell_number(cell: str) -> int | None:
    """The number a table's first cell gives its row: 「1」, 「①」, 「⒜」; ``None`` for any other cell."""
    cell = cell.strip()
    if re.fullmatch(r"\d{1,2}", cell):
        return int(cell)
    return ENCLOSED.get(cell)


def heading_title(head: re.Match[str]) -> str:
    """The words of a line :data:`HEADING` matched, without its marks (「### 明天接着做」 → 明天接着做)."""
    said = (
        head["md"] or head["bold"] or head["dash"] or head["lent"] or head["bar"] or head["colon"] or head["part"] or ""
    )
    return MARKDOWN_MARKS.sub("", said).strip()


BARE_HEADING = re.compile(r"^[^\s#>|\-•*·・。；;，,！!？?：:][^。；;，,！!？?：:]{0,19}$")
"""A short line with no sentence's punctuation (「跟进事项」): it heads the list whose first entry it stands over."""


def _bare_heading(lines: list[Line], i: int) -> str | None:
    """「跟进事项」 over 「1、…」 「2、…」: a writer heads a list with a short line and no colon.  A heading only when
    the next line that is not blank is an entry numbered 1 (a list starts there); any other short line is text."""
    text = lines[i].text.strip()
    if not BARE_HEADING.match(text):
        return None
    following = next((lines[j].text for j in range(i + 1, len(lines)) if lines[j].text.strip()), "")
    first = ENTRY.match(following)
    return MARKDOWN_MARKS.sub("", text).strip() if first is not None and _number(first) == 1 else None


@functools.cache
def _labelled_entry(labels: tuple[str, ...]) -> re.Pattern[str]:
    """An entry led by one of ``labels`` and its number (「- 工单 1（Dynamo 的 tag）：…」), with :data:`ENTRY`'s groups."""
    words = "|".join(re.escape(w) for w in sorted(labels, key=len, reverse=True))
    unused = "".join(f"(?P<{g}>(?!))?" for g in ENTRY.groupindex if g not in ("letter", "lnum", "text"))
    return re.compile(
        rf"^\s*(?:[-•*·・]\s+)?{unused}(?P<letter>(?:{words})\s?)(?P<lnum>\d{{1,2}})"
        r"(?=\s*[（(〔［\[｜|:：\s])\s*(?P<text>\S.*)$"
    )


def block_lists(lines: list[Line], labels: tuple[str, ...] = ()) -> list[NumberedList]:
    """Lists written one entry a line under a heading line (or a Markdown heading); ``labels``: the words
    earlier nights led their follow-ups with (:meth:`.History.follow_up_labels`), which lead entries too."""
    labelled = _labelled_entry(labels) if labels else None

    def entry(text: str) -> re.Match[str] | None:
        return ENTRY.match(text) or (labelled.match(text) if labelled is not None else None)

    found: list[NumberedList] = []
    i = 0
    while i < len(lines):
        head = HEADING.match(lines[i].text)
        title = heading_title(head) if head else _bare_heading(lines, i)
        if title is None or entry(lines[i].text):
            i += 1
            continue
        current = NumberedList(title, lines[i].number, lines={lines[i].number})
        j = i + 1
        while j < len(lines) and not lines[j].text.strip():
            j += 1
        while j < len(lines):
            text = lines[j].text
            row = table_cells(text)
            if row and (number := _cell_number(row[0])):
                # 「| 1 | 复跑头阻塞 | 麦 | 1202 |」, 「| ⒜ | 已合入 | … |」: the other cells are its text
                current.entries.append(Entry(number, " · ".join(c for c in row[1:] if c), lines[j].number))
                current.lines.add(lines[j].number)
            elif row and not current.entries:
                current.lines.add(lines[j].number)  # the header and rule rows above the first entry
            elif m := entry(text):
                box = None if m["box"] is None else m["box"].strip()
                said = (m["tag"] or "").strip() + m["text"].strip()  # 「〔收讫〕ⅰ …」: the tag is its status word
                said = (
                    said[1:].lstrip() if said[:1] in "|｜" else said
                )  # 「催 1｜Jay｜…」: the bar only parts the number
                current.entries.append(Entry(_number(m), said, lines[j].number, box, _mark(m)))
                current.lines.add(lines[j].number)
            elif text.strip() and current.entries and not HEADING.match(text) and not text.lstrip().startswith("#"):
                current.entries[-1].text += text.strip()  # a continuation line
                current.lines.add(lines[j].number)
            elif text.strip() or not current.entries:
                break
            elif j + 1 < len(lines) and not entry(lines[j + 1].text):
                break  # a blank line, then something else
            j += 1
        if current.entries:
            found.append(current)
            i = j
        else:
            i += 1
    return found


def inline_lists(text: str, line: int) -> list[NumberedList]:
    """Lists inside one paragraph: 「昨天留下的三件：② 已办结；① …，顺延。接下来盯：① …；② …。」"""
    starts = list(INLINE_START.finditer(text))
    found = []
    for k, start in enumerate(starts):
        end = starts[k + 1].start("heading") if k + 1 < len(starts) else len(text)
        body = text[start.end() : end]
        marks = list(INLINE_MARK.finditer(body))
        if not marks:
            continue
        marks = _in_sequence(marks)
        if not marks:
            continue  # numbers that run 1, 2, 3 nowhere: no list (「3（含昨天的两件）件」)
        current = NumberedList((start["heading"] or start["bar"] or "").strip(" ，,。；;"), line)
        for mk, nxt in zip(marks, [*marks[1:], None], strict=True):
            piece = body[mk.end() : nxt.start() if nxt else len(body)]
            if nxt is None:  # the list ends with its sentence: 「…；3 #1931——没合，续挂。另有 …，这件划掉。」
                piece = split_outside(piece, "。")[0]
            piece = strip_end(piece)
            piece = re.sub(r"^[.、．]\s*", "", piece)  # 「1. …」, 「1、…」: the number's own stop
            if piece[:1] in "（(" and not re.match(r"[（(][^（()）]*[）)]", piece):
                piece = piece[1:]  # an opening parenthesis nothing closes
            if piece.strip():
                current.entries.append(Entry(_number(mk), piece.strip(), line, mark=_mark(mk)))
        if current.entries:
            found.append(current)
    return found


def _in_sequence(marks: list[re.Match[str]]) -> list[re.Match[str]]:
    """The marks that number one list 1, 2, 3 …: a bare 「2 」 inside an entry's text (「跑 2 轮」) is
    not the next entry unless it is the next number."""
    kept: list[re.Match[str]] = []
    for mark in marks:
        bare = mark["lnum"] or (mark["num"] and not re.match(r"\d{1,2}\s*[（(.、]", mark.group().strip()))
        if bare and _number(mark) != (_number(kept[-1]) + 1 if kept else 1):
            continue
        kept.append(mark)
    return kept


def earlier_follow_ups(
    numbered: NumberedList, entry: Entry, today: dt.date, history: History, round_: str | None
) -> list[str]:
    """The earlier follow-ups an entry names: by its number in the night its heading dates
    (「昨晚林留的三件：② …」), else by a reference of its own (「10-29 清单 ② 交差」, 「（昨晚 ①，顺延）」)."""
    date = history.dates.search(numbered.heading) if numbered.earlier else None
    spelled = date.group(0) if date else numbered.night.isoformat() if numbered.night else None
    if spelled:
        refs = [r for r in _refs(f"{spelled}的跟进 {entry.number}", today, history, round_) if r.id]
        if refs:
            return [str(r.id) for r in refs]
    part = "follow_up_status" if numbered.earlier else "follow_ups"
    refs = [r for r in _refs(entry.text, today, history, round_, part=part) if r.kind == "follow_up" and r.id]
    return list(dict.fromkeys(str(r.id) for r in refs))


def _refs(
    text: str, today: dt.date, history: History, round_: str | None, part: str = "conclusions"
) -> list[Reference]:
    return find_references(text, today, history, part=part, round=round_)


def reports_on_writer(numbered: NumberedList, last: Brief) -> bool:
    """Whether a list with no date in its heading reports on the night before's follow-ups because its
    heading names that night's writer (``last``: the night before's brief): 「乔的（甲）–（丁）：」 the night
    after 乔 wrote, numbered as his list was.  A list addressed to someone (「交给乔」, 「hand-off ▸ Wed（砚）」)
    names a writer too; it is not read so unless that writer wrote the night before and the entries
    carry that night's numbers and no more of them."""
    if numbered.earlier or not last.author or last.author not in numbered.heading:
        return False
    numbers = [e.number for e in numbered.entries]
    handed = [f.number for f in last.follow_ups] + [u.number for u in last.follow_up_updates if u.number]
    # 「T1」 may restate a follow-up of the night before that: it is in that night's list all the same
    return bool(numbers) and len(set(numbers)) == len(numbers) and max(numbers) <= max(handed, default=0)
