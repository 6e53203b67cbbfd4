"""Part 一, the day's items (条目): the labelled paragraphs of each, read into an item."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...core.model import Outline, ValueRating
from .common import BULLET, At, Code, Draft, Field, Line, Part, bare_text, join_lines, own_labels
from .evidence import GAP_SHAPE, read_evidence, read_points, read_sources
from .markdown import ATX, BOLD_LINE, paragraphs_of
from .numbering import check_numbering
from .numbers import ENCLOSED, ROMAN, ROMAN_NUMERAL, small_number
from .placement import read_guards, read_placement, repo_card_figures
from .prose import prose_fields
from .shapes import reshaped
from .words import NEW_RATING, title_rating, value_words

ITEM_HEADINGS = [
    re.compile(r"^\s*[▍▎▌|]?\s*条目?\s*(?P<number>\d+)(?!\d)\s*(?:[：:.、．·・|｜—–]\s*|\s+)(?P<title>\S.*?)\s*$"),
    re.compile(
        r"^\s*[【\[［〔]?第\s*(?P<number>[一二三四五六七八九十\d]+)\s*[条项件则笔][】\]］〕]?\s*[：:.、．·・|｜—–]?\s*(?P<title>\S.*?)\s*$"
    ),
    re.compile(r"^\s*(?P<number>\d{1,2})\s*号(?:\s*[：:.、．·・|｜—–]\s*|[\s\u3000]+)(?P<title>\S.*?)\s*$"),
    re.compile(r"^\s*[（(]\s*(?P<number>[一二三四五六七八九十]+|\d{1,2})\s*[）)]\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^\s*[#＃]\s*(?P<number>\d{1,2})\b\s*[：:.、．·・|｜—–]?\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^\s*(?P<number>\d{1,2})\s*/\s*\d{1,2}(?!\d)\s*[：:.、．·・|｜—–]?\s*(?P<title>\S.*?)\s*$"),
    re.compile(
        r"^\s*[A-Z]{1,2}[-‐－]?(?P<number>\d{1,2})(?!\d)(?:\s*[：:.、．·・|｜—–]\s*|\u3000\s*)(?P<title>\S.*?)\s*$"
    ),
    re.compile(r"^\s*(?:No|NO|no|Nº|№)\s*\.?\s*(?P<number>\d{1,2})(?!\d)\s*[：:.、．·・|｜—–]?\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^\s*[#＃][^\s\d#＃]{1,3}(?P<number>\d{1,2})(?!\d)\s*[：:.、．·・|｜—–]?\s+(?P<title>\S.*?)\s*$"),
    re.compile(rf"^\s*(?P<number>{ROMAN_NUMERAL})\s*[.．、)）]\s*(?P<title>\S.*?)\s*$"),
    re.compile(r"^\s*[\[［](?P<number>\d{1,2})[\]］]\s*(?P<title>[^\s(（].*?)\s*$"),
    re.compile(r"^\s*[\[［]\d{1,4}\s*[-‐－]\s*(?P<number>\d{1,2})[\]］]\s*(?P<title>[^\s(（].*?)\s*$"),
    re.compile(r"^\s*(?P<number>[①-⑳❶-❿])\s*[：:.、．·・|｜—–]?\s*(?P<title>\S.*?)\s*$"),
]
"""How writers head an item: 「条目 N：…」 (also 「▍条目 N …」, 「条 N　…」), 「第一条｜…」 (or 「第 1 项 · …」, 「第一则」, 「【第 1 笔】…」), 「1 号　…」, 「（一）…」, 「#1 …」, 「1/4 …」 (N of
M), 「D1 · …」, 「A1　…」 or 「I-1 · …」 (a letter or two, a hyphen or none, and the number), 「No.1　…」, 「#增1 …」 (a tag and the number),
「iv. …」 (a lower-case Roman numeral), 「[1] …」 (the number in square brackets, not a link's), 「[021-1] …」 (a day's
number and the item's, in square brackets, as an on-call log numbers events), 「① …」 (a circled digit).  One
brief keeps to one way: the first way that heads a line of part 一 is the one its items use (so a
「（1）」 inside a 要点 of a 「条目 N」 brief is not an item)."""
ITEM_HEADING = ITEM_HEADINGS[0]


SYMBOL_LEAD = re.compile(r"^\s*[■□◆◇●○▶►▸★☆※◼▪]\s*")
"""A symbol a writer sets before each item's heading (「■ 第 1 件 …」): no part of the numbering."""


def _unmarked(text: str) -> str:
    """A heading line without its Markdown marks and the symbol before it."""
    return SYMBOL_LEAD.sub("", bare_text(text))


def _item_heading(part: Part) -> re.Pattern[str] | None:
    """The way this brief heads its items (see :data:`ITEM_HEADINGS`); None when it heads them in
    no way these know."""
    for line in part.lines:
        if line.text[:1].isspace() or BULLET.match(line.text):
            continue  # an indented or bulleted line is inside an item
        bare = _unmarked(line.text)
        for pattern in ITEM_HEADINGS:
            if pattern.match(bare):
                return pattern
    return None


ITEM_LABELS = ("来源", "要点", "证据边界", "与活文档脉络的关系", "建议归入", "顺带")
FIELD_ACTS = {
    "field_sources": "来源",
    "field_points": "要点",
    "field_evidence": "证据边界",
    "field_relation": "与活文档脉络的关系",
    "field_placement": "建议归入",
    "field_aside": "顺带",
}
"""The wordings (``data/vocabulary.yml``) that spell each field's label another way (关系, 归入 …)."""


@dataclass(frozen=True)
class _Labels:
    """The patterns that find an item's labelled fields, for one set of label spellings."""

    canonical: dict[str, str]
    """Each spelling, case-folded, to its field's label."""
    field: re.Pattern[str]
    heading: re.Pattern[str]
    inline: re.Pattern[str]
    table: re.Pattern[str]

    def of(self, spelling: str) -> str:
        """The field a label spells, whatever its letters' case (「SOURCE」, 「Source」)."""
        return self.canonical[spelling.casefold()]


OPEN, CLOSE = "[【\\[〔［]", "[】\\]〕］]"
"""The brackets a field's label may stand in: 【来源】, [来源], 〔来源〕, ［来源］."""
LEAD = r"(?:\d{1,2}\s*[.、)）]\s+)?(?:[^\w\s*#【|\-•·:：（(「\[]{1,2}\uFE0F?\s*)?"
"""What may stand before a field's label: its number in a numbered list of fields (「3. 来源 —— …」),
a symbol or emoji the writer marks labels with (「📎 来源：」, 「▸ 要点」)."""


@functools.cache
def _labels(spellings: tuple[tuple[str, str], ...]) -> _Labels:
    canonical = {spelling.casefold(): label for spelling, label in spellings}
    # Latin letters match in any case: an Org drawer's 「:EVIDENCE:」 is the label 「Evidence」
    alternation = "(?i:" + "|".join(re.escape(s) for s, _ in sorted(spellings, key=lambda p: -len(p[0]))) + ")"
    note = r"(?:[（(](?P<note>[^）)]*)[）)])?"
    note2 = note.replace("?P<note>", "?P<note2>")
    return _Labels(
        canonical,
        # 「来源：…」, 「- **来源**：…」, 「`来源`　…」, 「【来源】…」 (or [来源], 〔来源〕), 「来源 —— …」, 「来源　…」 (a full-width space)
        re.compile(
            rf"^\s*(?:[-•*·]\s+)?{LEAD}(?:[*`]*(?P<label>{alternation})[*`]*\s*{note}\s*\**(?:[：:｜／]|——|—|(?<=[^\s])\u3000(?=\S)|(?<=`)\s+(?=\S)|(?<=\s)[=▸►](?=\s|$))\**"
            rf"|{OPEN}(?P<label2>{alternation}){CLOSE}\s*{note2}\s*[：:]?)\s*(?P<text>.*)$",
            re.S,
        ),
        # a label alone on its line, as a Markdown heading or in bold: the text is the lines below
        re.compile(
            rf"^\s*(?:#{{1,6}}\s+|\*\*|`)?{LEAD}(?:(?P<label>{alternation})|{OPEN}(?P<label2>{alternation}){CLOSE})\s*{note}\s*(?:\*\*|`)?\s*[：:]?\s*$"
        ),
        # a label inside another field's paragraph: "… - 建议归入：…"
        re.compile(rf"(?:\s+|(?<=[。；;）)」]))-\s*(?=(?:{alternation})\s*(?:[（(][^）)]*[）)])?\s*[：:])"),
        # a row of a two-column table: 「| 来源 | … |」
        re.compile(rf"^\s*\|\s*\**(?P<label>{alternation})\**\s*{note}\s*\|\s*(?P<text>.*?)\s*\|?\s*$"),
    )


def _label_spellings(draft: Draft) -> tuple[tuple[str, str], ...]:
    pairs = [(label, label) for label in ITEM_LABELS]
    for act, label in FIELD_ACTS.items():
        pairs += [(spelling, label) for spelling in draft.words.phrases(act)]
    return tuple(dict(pairs).items())


BRACKET_LABEL = re.compile(
    rf"^\s*(?:[-•*·]\s+)?(?:{OPEN}(?P<label>[^\]】〕］\s\d]{{1,6}}){CLOSE}"
    r"|\*\*(?P<bold>[^*\s\d]{1,6}|[A-Za-z][A-Za-z_-]{5,15})\*\*(?:\s*[：:]|\u3000+(?=\S)|\s*$)"
    r"|`(?P<tick>[^`\s\d]{1,6})`(?:\s*[：:]|[\s\u3000]+(?=\S)|\s*$))"
)
"""A short label in brackets or in bold at the start of a line (「[源] …」, 「〔边界〕…」, 「**看到的**：…」, an
English word up to 16 letters, 「**BOUNDARY**：…」), or in backticks as a postmortem's fields are written
(「`盲区`　…」); a bold or backticked one ends in a colon, a space (「**证据到哪**　…」) or the line (the label
alone above its text)."""
FIELD_ORDER = ("来源", "要点", "证据边界", "与活文档脉络的关系", "建议归入")
"""The order the team's format gives an item's fields (the first real brief's)."""
_KNOWN_LEAD = re.compile(r"^\s*(?:[-•*·]\s+)?\**(?P<plain>[^\s*：:／\d]{1,9})\**\s*[：:／]")
"""Any short label and its colon at the start of a line: only its place is used, for a known one."""
PLAIN_LABEL = re.compile(
    r"^(?:[-•*·]\s+)?(?P<label>[A-Za-z][A-Za-z_-]{1,15}|[^\W\d_]{1,6})\s+[=▸►](?:\s+|$)|^(?P<latin>[A-Za-z][A-Za-z_-]{1,15})\s*:(?:\s+|$)"
    r"|^(?:[-•*·]\s+)?(?P<cjk>[^\W\d_A-Za-z]{2,8})\s*[：｜／:]"
)
"""A plain label at the start of an unindented line: 「src = …」 or 「来路 ▸ …」 (any short word and an equals
sign or a pointer between spaces, a bullet before it or not: 「- 波及 = …」), 「src: …」 (an English word and a colon) or 「哪来的：…」 (a few Chinese characters, a colon, full-width or not (「评估: …」),
a full-width bar or a full-width slash: 「取自｜…」, 「出处／…」; a bullet may stand before them: 「- 凭证：…」).  Read as a label only where the part has fields of this
shape: three labels or more, each heading two lines or more (see :func:`_lead_label`)."""


def _plain_labels(part: Part) -> set[str]:
    """The plain labels (:data:`PLAIN_LABEL`) this part's items are written with: those that head two
    lines or more, when three or more do (a key = value layout), else none."""
    counts = Counter(
        m["label"] or m["latin"] or m["cjk"]
        for row in part.lines
        if (m := PLAIN_LABEL.match(row.text)) and not row.text[:1].isspace()
    )
    repeated = {label for label, n in counts.items() if n >= 2}
    return repeated if len(repeated) >= 3 else set()


def _lead_label(text: str, plain: set[str]) -> tuple[str, str] | None:
    """The label a line starts with and the text after it: one in brackets or bold
    (:data:`BRACKET_LABEL`), or a plain one of this part (``plain``)."""
    if m := BRACKET_LABEL.match(text):
        rest = re.sub(r"^\s*\**\s*[：:]?\s*", "", text[m.end() :])
        return m["label"] or m["bold"] or m["tick"], rest
    if (m := PLAIN_LABEL.match(text)) and (m["label"] or m["latin"] or m["cjk"]) in plain:
        return m["label"] or m["latin"] or m["cjk"], text[m.end() :]
    return None


def _guessed_labels(part: Part, known: dict[str, str], draft: Draft) -> dict[str, str]:
    """Field labels in brackets or bold that the wordings do not know (「[源]」, 「**看到的**：」), read as
    fields and marked.

    A label is read as the one field whose spellings hold all its characters (源 is in 来源, 界 in
    证据边界), else by its place among the labels read (known ones and those read by characters):
    between two of them, where the format has exactly one field left between them (联 after 界 and
    before 放: the relation); or in a run of unread labels after one read, as many as the fields the
    format has left after it, taken in the format's order (看到的 · 没看到的 · 牵连 · 落脚 after 出处:
    points, boundary, relation, placement).  The editor is told each reading and where to write the
    label so that the next brief needs no guess; a label no way reads stays unread (its paragraph is
    kept in the item's notes, or read as the value rating when it holds only that)."""
    known = {spelling.casefold(): field for spelling, field in known.items()}  # 「SOURCE」 is 「Source」
    order: dict[str, int] = {}  # label → the line it first heads, known labels too (their place counts)
    plain = _plain_labels(part)
    for row in part.lines:
        lead = _lead_label(row.text, plain)
        label = lead[0] if lead else None
        if label is None and (known_lead := _KNOWN_LEAD.match(row.text)) and known_lead["plain"].casefold() in known:
            label = known_lead["plain"]
        if label:
            order.setdefault(label, row.number)
    unknown = [label for label in order if label.casefold() not in known]
    if not unknown:
        return {}
    spelled: dict[str, set[str]] = {}
    for spelling, field in known.items():
        spelled.setdefault(field, set()).add(spelling)
    read = {label: (known[label.casefold()], "") for label in order if label.casefold() in known}
    for label in (x for x in unknown if not x.isascii()):  # (Latin letters say nothing one by one: 「ties」)
        fields = {f for f, spellings in spelled.items() if any(all(c in s for c in label) for s in spellings)}
        if len(fields) == 1 and (field := fields.pop()) in FIELD_ORDER:
            read[label] = (field, "its characters")
    texts = _label_texts(part, plain)
    for label in unknown:
        if label not in read and (held := _by_content(label, texts, read, draft)):
            read[label] = (held, "what it holds")
    labels = [x for x in order if not _all_ratings(texts.get(x, []), draft)]  # a rating line is no field
    _by_place(labels, read)
    acts = {label: act for act, label in FIELD_ACTS.items()}
    for label in unknown:
        if label in read:
            field, how = read[label]
            draft.warn(
                order[label],
                f"section 一: the label «{label}» is read as {field} by {how}; if right, add «{label}» to "
                f"wordings: {acts[field]} in the vocabulary file",
                ("items",),
            )
    return {label: field for label, (field, _) in read.items() if label in unknown}


def _by_place(labels: list[str], read: dict[str, tuple[str, str]]) -> None:
    """Unread labels read by where they stand among the read ones (see :func:`_guessed_labels`): a run
    of unread labels after a read one, up to the next read one or the end, is read in the format's
    order when it has exactly as many labels as the format has fields left there."""
    fields_of = {label: read[label][0] for label in labels if label in read and read[label][0] in FIELD_ORDER}
    k = 0
    while k < len(labels):
        if labels[k] in read:
            k += 1
            continue
        end = k
        while end < len(labels) and labels[end] not in read:
            end += 1
        run = labels[k:end]
        before = next((fields_of[x] for x in reversed(labels[:k]) if x in fields_of), None)
        after = fields_of.get(labels[end]) if end < len(labels) else None
        if before is not None:
            later = after is not None and FIELD_ORDER.index(after) > FIELD_ORDER.index(before)
            stop = FIELD_ORDER.index(after) if after and later else len(FIELD_ORDER)
            left = [f for f in FIELD_ORDER[FIELD_ORDER.index(before) + 1 : stop] if f not in fields_of.values()]
            if len(run) == len(left):
                where = f"between {before} and {after}" if after and later else f"after {before}, in the format's order"
                for label, field in zip(run, left, strict=True):
                    read[label] = (field, f"its place {where}")
                    fields_of[label] = field
        k = end


def _label_texts(part: Part, plain: set[str]) -> dict[str, list[tuple[str, bool]]]:
    """Each bold, bracketed or plain label's texts in the part: (the text after it on its line, whether
    bullets follow it), one per line it heads."""
    texts: dict[str, list[tuple[str, bool]]] = {}
    lines = part.lines
    for i, row in enumerate(lines):
        lead = _lead_label(row.text, plain)
        if lead is None:
            continue
        nxt = next((x for x in lines[i + 1 :] if x.text.strip()), None)
        listed = nxt is not None and bool(BULLET.match(nxt.text)) and _indent(nxt.text) >= _indent(row.text)
        texts.setdefault(lead[0], []).append((lead[1].strip(), listed))
    return texts


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


SOURCE_SHAPE = re.compile(r"https?://|[\w.-]+/[\w./-]+\.(?:md|txt|json|ya?ml|html|pdf)\b")
"""What only a source field holds: a link, or a path of the team's store."""


def _by_content(
    label: str, texts: dict[str, list[tuple[str, bool]]], read: dict[str, tuple[str, str]], draft: Draft
) -> str | None:
    """The field an unknown label holds, by what it holds in most of the items (an outliner's 凭据 with
    links is the sources, 说了啥 with bullets under it the points, 没核到 with 「未复现」 the evidence
    boundary); None unless exactly this label holds it and that field is not read yet."""
    taken = {field for field, _ in read.values()}

    def holds(name: str) -> str | None:
        rows = texts.get(name, [])
        if not rows:
            return None
        votes = Counter(field for text, listed in rows if (field := _what_it_holds(text, listed, draft)))
        best = votes.most_common(1)
        return best[0][0] if best and best[0][1] * 2 > len(rows) else None

    field = holds(label)
    if field is None or field in taken:
        return None
    if any(holds(other) == field for other in texts if other != label and other not in read):
        return None  # two labels hold the same: neither is read by it
    return field


def _what_it_holds(text: str, listed: bool, draft: Draft) -> str | None:
    if SOURCE_SHAPE.search(text):
        return "来源"
    if not text and listed:
        return "要点"
    if text and (
        draft.words.level_reading(text)
        or any(GAP_SHAPE.fullmatch(p.strip()) for p in re.split(r"[，,；;。（）()]", text))
    ):
        return "证据边界"
    return None


def _all_ratings(rows: list[tuple[str, bool]], draft: Draft) -> bool:
    """Every text of the label is a value rating and nothing else (「成色：高价值」)."""
    return bool(rows) and all(text and _line_rating(text, 0, draft) for text, _ in rows)


TABLE_FRAME = re.compile(r"^\s*\|?\s*(?::?-{3,}:?\s*\|\s*)+(?::?-{3,}:?)?\s*\|?\s*$|^\s*\|\s*字段\s*\|")
"""A table's header row (「| 字段 | 内容 |」) and rule row (「|---|---|」): the frame, not a field."""


def read_items(part: Part, stem: str, outline: Outline | None, draft: Draft) -> list[dict[str, Any]]:
    """Each 条目 N：title and the labelled paragraphs under it."""
    blocks: list[tuple[Line, re.Match[str], list[Line]]] = []
    leading: list[Line] = []
    spellings = _label_spellings(draft)
    part = reshaped(part, {spelling for spelling, _ in spellings})
    heading_of = _item_heading(part)
    spellings += tuple(_guessed_labels(part, dict(spellings), draft).items())
    labels = _labels(spellings)
    unknown = heading_of is None and not any(
        ITEM_HEADING.match(bare_text(x.text)) for x in part.lines if not x.text[:1].isspace()
    )  # (a bulleted 「- 条目 1」 still counts as a known way: its brief is not read by shape)
    by_shape = _headings_by_shape(part, labels) if unknown else {}
    if by_shape:
        draft.warn(
            min(by_shape),
            "section 一: no item heading this importer knows (条目 N, 第一条, （一）, #1 …); each line right above an "
            "item's first field (来源, 要点 …) was read as an item's heading; check the items",
            ("items",),
        )
    elif unknown and (by_shape := _markdown_headings(part, labels)):
        draft.warn(
            min(by_shape),
            "section 一: no item heading this importer knows and no field it knows; each Markdown heading of the part "
            "was read as an item's heading and the lines under it as its fields, by their place; check the items",
            ("items",),
        )
    for line in part.lines:
        if line.number in by_shape:
            blocks.append((line, by_shape[line.number], []))
        elif (
            heading_of is not None
            and not line.text[:1].isspace()
            and not BULLET.match(line.text)
            and (m := heading_of.match(_unmarked(line.text)))
        ):
            blocks.append((line, m, []))
        elif blocks:
            blocks[-1][2].append(line)
        else:
            leading.append(line)
    for number, text in paragraphs_of(leading):
        draft.unplaced(number, text, "section 一 before the first 条目")
    items: list[dict[str, Any]] = []
    seen: Counter[int] = Counter()
    for index, (heading, m, body) in enumerate(blocks):
        spelled = m["number"] or ""
        number = small_number(spelled) or ROMAN.get(spelled) or ENCLOSED.get(spelled) or index + 1  # else its place
        seen[number] += 1
        item_id = f"{stem}-item-{number}" + ("" if seen[number] == 1 else f"-{seen[number]}")
        at = ("items", index)
        draft.origins[at] = heading.number
        item = _read_item(number, item_id, m["title"], heading.number, body, outline, draft, at, labels)
        if mark := _mark_of(m):
            item = {"id": item["id"], "number": item["number"], "mark": mark, **item}  # (after the number)
        items.append(item)
    if len(seen) < len(items):
        _number_by_place(items, stem, draft)
    _lead_labels(items)
    check_numbering(
        [i["number"] for i in items], [draft.origins[("items", i)] for i in range(len(items))], "条目", "items", draft
    )
    return items


def _number_by_place(items: list[dict[str, Any]], stem: str, draft: Draft) -> None:
    """Headings that repeat a number (a 「条目 2」 written twice, or a numbering read as one number for all):
    two items of one number fail the check, and which number the writer meant is not known.  So every
    item is numbered by its place, the one reading that keeps them apart, and the editor is asked."""
    for place, item in enumerate(items, 1):
        if item["number"] != place:
            draft.warn(
                draft.origins[("items", place - 1)],
                f"条目 numbers repeat in this brief: this one, read as {item['number']}, is numbered {place} by its "
                "place; if the writer numbered it otherwise, give that number",
                ("items", place - 1, "number"),
            )
        item["number"] = place
        item["id"] = Code(f"{stem}-item-{place}")


LEAD_LABEL = re.compile(r"^(?P<word>[\u4e00-\u9fff]{1,3})\s?(?P<n>\d{1,3})[\u3000\s]+(?P<text>\S.*)$")
"""「行 10　第二批 H200 节点…」: a heading that leads its title with the writer's own word and number."""


def _lead_labels(items: list[dict[str, Any]]) -> None:
    """Every title led by one word and a number that rises from item to item (「行 10」, 「行 20」 … as a
    purchase order numbers its lines): that is the writer's numbering, kept as each item's mark (a later
    night names 「行 20」), not part of the title.  The items keep the numbers of their places."""
    if any(item.get("mark") for item in items):
        return
    labels = own_labels([str(item.get("title") or "") for item in items], LEAD_LABEL, rising=True)
    for index, (item, (mark, title)) in enumerate(zip(items, labels or [], strict=False)):
        items[index] = {"id": item["id"], "number": item["number"], "mark": mark, **item}
        items[index]["title"] = title


PLAIN_MARK = re.compile(r"^(?:条目|第)?\s*\d{1,2}\s*(?:条)?$")


def _mark_of(m: re.Match[str]) -> str | None:
    """The heading's numbering as written, when it is not the plain 「条目 N」 (「#增1」, 「第 1 项」, 「A6」,
    「（五）」): kept, so a later night that names the item in its writer's numbering is understood."""
    mark = re.sub(r"[*#]+\s+|\*\*", "", m.string[: m.start("title")]).strip(" \u3000：:.、．·・|｜—–")
    return mark if mark and not PLAIN_MARK.match(mark) else None


ANY_HEADING = re.compile(
    r"^[^\w「]*(?:第\s*|(?:[A-Za-z]{1,2}|[\u0370-\u03ff])(?=\d{1,2}(?![\w.])))?(?P<number>\d{1,2}(?!\d|\.\d)|[一二三四五六七八九十]{1,3}(?=[^\w]|条))?\s*(?:条)?[^\w「]*\s*"
    r"(?P<title>[\w「（(].*?)[*\s]*$"
)
"""An item heading in a shape no rule names (「〔3〕…」, 「◆ 3 …」, 「D1 · …」, 「Δ1 · …」): marks, an optional number
(after a lead of one or two Latin letters, or a Greek one, that is the writer's mark), the title."""


def _headings_by_shape(part: Part, labels: _Labels) -> dict[int, re.Match[str]]:
    """Item headings found by the brief's structure, not by their spelling: an item is the block that
    carries labelled fields, and its heading is the line right above its first field.  Used only when
    no known way of heading items heads any line."""
    found: dict[int, re.Match[str]] = {}
    previous: Line | None = None
    marked: Line | None = None  # the last Markdown heading since the fields above ended
    in_fields = False
    for line in part.lines:
        text = line.text
        if not text.strip() or TABLE_FRAME.match(text):
            continue
        is_field = bool(
            labels.field.match(text)
            or labels.heading.match(text)
            or labels.table.match(text)
            or BRACKET_LABEL.match(text)
        )  # (a bold label no wording knows, 「**VALUE**：高价值」, is a field too: the heading is above it)
        heading = previous is not None and not BULLET.match(previous.text) and is_field and not in_fields
        above = marked or previous  # 「### 1. 标题」, then 「价值／高价值」 (a rating line, no field), then the fields
        if heading and above is not None and (m := ANY_HEADING.match(_bold_then_tail(above.text))):
            found[above.number] = m
        in_fields = is_field or (in_fields and (text[:1].isspace() or bool(BULLET.match(text)) or text.startswith(":")))
        if in_fields:
            marked = None
        elif ATX.match(text) or BOLD_LINE.match(text):  # a Markdown heading, or a line bold as a whole
            marked = line
        previous = line
    if len(found) < 1:
        return {}
    numbered = [m for m in found.values() if m["number"]]
    if len(numbered) < len(found):  # no number on some: number them by position
        return {n: _numbered(m, k) for k, (n, m) in enumerate(sorted(found.items()), 1)}
    return found


def _markdown_headings(part: Part, labels: _Labels) -> dict[int, re.Match[str]]:
    """Item headings when neither their spelling nor their fields are known (「### 1. 标题」 over 「评估: …」 lines in
    a hand never seen): the part's Markdown headings of its shallowest level, not a field's own heading.  The
    lines under each are its body, read by their place; nothing of the part is left out of the items."""
    heads = [
        (len(m["level"]), line)
        for line in part.lines
        if (m := ATX.match(line.text)) and not labels.heading.match(line.text)
    ]
    if not heads:
        return {}
    level = min(depth for depth, _ in heads)
    found = {
        line.number: m for depth, line in heads if depth == level and (m := ANY_HEADING.match(bare_text(line.text)))
    }
    if any(not m["number"] for m in found.values()):  # no number on some: number them by position
        return {n: _numbered(m, k) for k, (n, m) in enumerate(sorted(found.items()), 1)}
    return found


BOLD_THEN_TAIL = re.compile(r"^\s*\*\*(?P<head>[^*]+)\*\*\s*(?P<tail>[·|｜—–-]\s*[_*]*(?P<word>[^_*]{1,12}?)[_*]*)\s*$")
"""「**D1 · 标题** · _高价值_」: a bold heading and, after it, a short word (the value rating) set apart."""


def _bold_then_tail(text: str) -> str:
    """A heading line without its Markdown marks; a bold heading with a short word after it keeps the
    word, without its emphasis marks, so the rating is read: 「D1 · 标题 · 高价值」."""
    if m := BOLD_THEN_TAIL.match(text):
        return f"{m['head'].strip()} {m['tail'][0]} {m['word'].strip()}"
    return bare_text(text)


def _numbered(m: re.Match[str], position: int) -> re.Match[str]:
    """The heading read again with its position as its number (「◆ Kapitsa …」 is the second item)."""
    again = ANY_HEADING.match(f"{position} {m['title']}")
    assert again is not None
    return again


def _item_fields(body: list[Line], labels: _Labels) -> list[Field]:
    """The labelled paragraphs of an item, however written: one per line (「来源：」, 「- **来源**：」,
    「【来源】」), a label alone above its text, inline (" - 建议归入："), or a table's rows."""
    fields: list[Field] = []
    current: Field | None = None
    previous_blank = True
    for line in body:
        text = line.text.strip()
        if not text:
            previous_blank = True
            continue
        if TABLE_FRAME.match(line.text):
            continue
        if m := labels.heading.match(line.text):
            label = m["label"] or m["label2"]
            current = Field(labels.of(label), "", line.number, m["note"], label + "：")
            fields.append(current)
            previous_blank = False
            continue
        if m := labels.table.match(line.text):
            current = Field(labels.of(m["label"]), m["text"].strip(), line.number, m["note"], _head(m))
            fields.append(current)
        elif m := labels.field.match(line.text):
            label = m["label"] or m["label2"]
            current = Field(labels.of(label), m["text"].strip(), line.number, _note(m), _head(m))
            fields.append(current)
        elif (bullet := BULLET.match(line.text)) and current is not None:
            current.text += "\n- " + bullet["text"]
        elif BRACKET_LABEL.match(line.text) and current is not None and current.text:
            current = Field(None, text, line.number)  # a label no wording knows still starts a paragraph
            fields.append(current)
        elif current is not None and (not previous_blank or (current.label and not current.text)):
            current.text = join_lines(current.text, text) if current.text else text
        else:
            current = Field(None, text, line.number)
            fields.append(current)
        previous_blank = False
    for f in fields:
        if f.text.startswith("\n- ") and f.text.count("\n- ") == 1:
            f.text = f.text.removeprefix("\n- ")  # one bullet (or 「: …」 line) under its label: the text itself
    return [piece for f in fields for piece in _inline_fields(f, labels)]


def _inline_fields(f: Field, labels: _Labels) -> Iterator[Field]:
    """Split "关系… - 建议归入：… - 顺带：…" into its three fields."""
    cuts = list(labels.inline.finditer(f.text))
    ends = [m.start() for m in cuts] + [len(f.text)]
    yield Field(f.label, f.text[: ends[0]].strip(), f.line, f.note, f.head)
    for m, end in zip(cuts, ends[1:], strict=True):  # ends: the next cut's start, or the text's end
        found = labels.field.match(f.text[m.end() : end])
        assert found is not None, "the inline pattern only cuts before a label the field pattern reads"
        label = found["label"] or found["label2"]
        line = f.line + f.text[: m.end()].count("\n")
        yield Field(labels.of(label), found["text"].strip(), line, _note(found), _head(found))


RATING_LINE = re.compile(
    r"^(?:[\[【〔［(（〈<][^\]】〕］)）〉>]{1,4}[\]】〕］)）〉>]|`[^`\s]{1,6}`|[^\w\s]{1,2}\uFE0F?\s*\w{1,4}[：:\s]|(?:\w{1,4}|[A-Za-z]{1,12})\s*[：:=｜／])?\s*(?P<rating>.+)$"
)
"""A line that may hold only the item's value rating, after a short label of any kind (「`级别`　高价值」 too)."""


def _line_rating(text: str, line: int, draft: Draft) -> list[ValueRating]:
    """The value ratings of a paragraph that says nothing else (「[值] 高价值」, 「🏷 评级　中等价值」,
    「价值：低价值」, 「价值／高价值」): each word a rating of the vocabulary; anything more and it is not a rating line."""
    m = RATING_LINE.match(re.sub(r"^[-•*·]\s+|\*\*", "", text.strip()))
    if m is None:
        return []
    words = [w for w in re.split(r"[\s，,、/；;|｜。.]+", m["rating"].strip("*")) if w]
    if len(words) == 1 and m["rating"] != text.strip() and NEW_RATING.fullmatch(words[0]):
        return [draft.code("value_ratings", words[0], line)]  # 「价值：偏低价值」: after a label, a new word's shape
    if not words or len(words) > 3 or not all(value_words(w, draft) == [w] for w in words):
        return []
    return [draft.code("value_ratings", w, line) for w in words]


def _note(m: re.Match[str]) -> str | None:
    """The bracketed note after a label (「要点（摘录）」), whichever way the label was written."""
    return m["note"] or m.groupdict().get("note2")


def _head(m: re.Match[str]) -> str:
    """The label as written, up to its text (「要点（摘录）：」), without bullet, bold or table marks."""
    start = m.start("label") if m["label"] else m.start("label2") - 1
    return re.sub(r"[*|]", "", m.string[start : m.start("text")])


def _read_item(
    number: int,
    item_id: str,
    title: str,
    line: int,
    body: list[Line],
    outline: Outline | None,
    draft: Draft,
    at: At,
    labels: _Labels,
) -> dict[str, Any]:
    fields = _item_fields(body, labels)
    if fields and all(f.label is None for f in fields):  # told in prose: sorted sentence by sentence, then asked
        fields = prose_fields([(f.line, f.text) for f in fields], lambda text: value_words(text, draft))
        draft.warn(
            line,
            f"条目 {number}: written as prose, with no field labels; each sentence was sorted into a field by its "
            "words (source, points, evidence boundary, relation, placement); check every field",
            at,
        )
    by_label: dict[str, Field] = {}
    notes: list[str] = []
    rated: list[ValueRating] = []
    for f in fields:
        if f.label is None and not rated and (rated := _line_rating(f.text, f.line, draft)):
            continue  # 「[值] 高价值」, 「🏷 评级　中等价值」: the item's value rating on a line of its own
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
    item: dict[str, Any] = {"id": Code(item_id), "number": number, "title": title}
    item["value"] = title_rating(title, line, draft) or rated
    item["sources"] = read_sources(by_label.get("来源"), number, line, draft, at + ("sources",), notes)
    points = by_label.get("要点")
    if points and points.note:
        item["points_note"] = points.note.strip()
    item["points"] = read_points(points, number, line, draft, at + ("points",))
    relation = by_label.get("与活文档脉络的关系")
    source = by_label.get("来源")
    item["evidence"] = read_evidence(
        by_label.get("证据边界"), item, number, line, draft, at + ("evidence",), source.text if source else ""
    )
    if relation and relation.text:
        item["relation"] = relation.text
    else:  # left out, not made up: the site shows none (the model allows it)
        where = relation.line if relation else by_label.get("建议归入", Field(None, "", line)).line
        draft.warn(where, f"条目 {number}: no 与活文档脉络的关系; relation left out (write it or ask the author)", at)
    placement_field = by_label.get("建议归入")
    item["placement"] = read_placement(
        placement_field, item, relation.text if relation else "", line, outline, draft, at + ("placement",)
    )
    guards = read_guards(placement_field.text) if placement_field else []
    if guards:
        item["guards"] = guards
    figures = repo_card_figures(item, line, draft, at + ("figures",))
    if figures:
        item["figures"] = figures
    if notes:
        item["notes"] = notes
    return item
