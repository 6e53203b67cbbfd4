"""Part 三, the citable arXiv ids and their metadata."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ...core import arxiv
from ...core.model import DOI
from .common import BULLET, At, Code, Draft, Line, Part, one_line, split_outside, unrolled_tables
from .markdown import list_entries
from .numbers import NUMBER, read_number

FACT_SEPARATOR = re.compile(r"[；;，、]|(?<!\d),|,(?!\d)")
"""Between the facts in a citation's brackets; a comma between digits (``4,791``) is inside a number,
which :func:`read_number` then reads whole or refuses (``47,91``), never cut at the comma."""

# --- citations
CITATION_HEAD = re.compile(rf"^{arxiv.MENTION_LOOSE}\s*[—–-]+\s*(?P<rest>.*)$", re.S)


COUNT_THEN_SOURCE = rf"(?P<count>{NUMBER})\s*/\s*(?P<source>S2|OpenAlex|OA)(?![A-Za-z])"
"""A count, then whose it is: 「4,762 / S2」."""
SOURCE_THEN_COUNT = rf"(?<![A-Za-z])(?P<source>S2|OpenAlex|OA)\s*(?:被引|引用)?\s*[=:：]?\s*(?P<count>{NUMBER})"
"""Whose, then the count: 「S2 被引 5,231」, 「S2=5,216」, 「OpenAlex 418」, 「OA 7,346」 (OpenAlex, shortened)."""


def _source(said: str) -> str:
    """The count's source as the YAML names it: 「OA」 is OpenAlex."""
    return "OpenAlex" if said == "OA" else said


CITATION_FACTS: list[tuple[str, re.Pattern[str]]] = [
    ("card", re.compile(r"^卡片(?:来源)?\s*(?P<value>\S+)$")),
    ("cited_by", re.compile(rf"^(?:被引\s*)?{COUNT_THEN_SOURCE}$")),
    ("cited_by", re.compile(rf"^(?:被引\s*)?{SOURCE_THEN_COUNT}$")),
    ("as_of", re.compile(r"^截至\s*(?P<value>\d{4}-\d{2}-\d{2})$")),
    ("version", re.compile(r"^(?P<value>v[1-9]\d*)$")),
    ("openalex_id", re.compile(r"^OpenAlex\s*ID\s*(?P<value>W\d+)$")),
    ("doi", re.compile(r"^DOI\s*(?P<value>10\.\S+)$")),
    ("oa_status", re.compile(r"^开放获取\s*(?P<value>\w+)$")),
    ("first_listed", re.compile(r"^(?P<value>新登记|首次登记|新收录|首次收录)$")),
]


OA_CHANGED = re.compile(r"^开放获取(?:状态)?\s*(?:由|从)?\s*\w+\s*(?:→|->|⇒|改为|变为|转为|变成)\s*(?P<value>\w+)$")
"""「开放获取 green → gold」: the status changed since the paper was last listed; the new one is tonight's."""
EARLIER_COUNTS = re.compile(rf"^\S.{{0,15}}?\s*(?:为|是|时)?\s*{NUMBER}\s*/\s*{NUMBER}$")
"""「上周日 4,756 / 2,110」, 「11-12 为 23 / 11」: an earlier night's two counts, which the data already holds."""
ANY_ID = re.compile(r"(?:arXiv\s*[:：]?\s*)?(?<![\d.])(?P<id>\d{4}\.\d{4,5}(?:v\d+)?)(?![\d])", re.I)
SEPARATORS = re.compile(r"\s*(?:[|｜·—–]+|\s-\s|^\s*[:：]|\s+)\s*")
VERSION_IN_BRACKETS = re.compile(r"(?P<id>arXiv\s*[:：]\s*[\w./-]+?)\s*[（(](?P<version>v\d+)[）)]")
VERIFIED_NOTE = re.compile(r"(?<!未)(?:经核实|已核实)")


def read_citations(part: Part, draft: Draft) -> dict[str, Any]:
    """The note before the list, one bullet per arXiv id, and what was not registered after it."""
    # a bullet naming an arXiv id, or a line "arXiv:ID — title" (a paragraph that only mentions an
    # id, "arXiv:1605.08803 本轮未再出现", is prose about the list, not an entry of it; a line that opens
    # with the id and gives counts, 「arXiv:2407.21783　Title——被引 S2 …」, is an entry)
    part = Part(part.kind, part.heading, part.line, _prose_sentences(_unrolled_table(part.lines)))
    starts = re.compile(
        r"^\s*(?:[-•*·]\s*`?arXiv(?:\s*[:：]|\s+(?=\d{4}\.\d{4,5}))|`?arXiv\s*[:：]\s*[\w./-]+`?\s*(?:[（(]v\d+[）)])?\s*[—–]"
        r"|`?(?:arXiv\s*[:：]\s*)?\d{4}\.\d{4,5}(?:v\d+)?`?[\s\u3000]+(?=\S.*(?:S2|OpenAlex|被引)))"
    )
    entries, others = list_entries(part.lines, starts)
    out: dict[str, Any] = {}
    first_entry = entries[0][0] if entries else None
    stray = [(n, t) for n, t in list_entries(part.lines, BULLET)[0] if not starts.match(t)]
    for n, t in stray:
        draft.unplaced(n, t, "section 三: bullet without an arXiv id")
    others = [(n, t) for n, t in others if (n, t) not in stray]
    # (a paragraph of citation sentences leaves its other sentences on the line of its first citation)
    before = [(n, t) for n, t in others if first_entry is not None and n <= first_entry]
    after = [(n, t) for n, t in others if first_entry is None or n > first_entry]
    for key, paragraphs in (("citations_note", before), ("citations_not_registered", after)):
        if not paragraphs:
            continue
        out[key] = "\n".join(t.strip().rstrip("：:").strip() if key == "citations_note" else t for _, t in paragraphs)
        if len(paragraphs) > 1:  # the pattern has one paragraph on each side of the list: which one is it?
            for n, t in paragraphs:
                draft.unplaced(n, t, f"section 三: {len(paragraphs)} paragraphs joined into {key}", (key,))
    verified = bool(VERIFIED_NOTE.search(out.get("citations_note", "")))
    read = [_read_citation(line, text, verified, draft, ("citations", i)) for i, (line, text) in enumerate(entries)]
    out["citations"] = [c for c in read if c is not None]
    if len(out["citations"]) < len(read):  # an entry with no id left the list: its marks follow the rest
        draft.renumbered("citations", [i for i, c in enumerate(read) if c is not None])
    return out


def _prose_sentences(lines: list[Line]) -> list[Line]:
    """A paragraph that writes its citations as sentences, one paper a sentence (「Llama 3 Herd（arXiv:2407.21783，
    The Llama 3 Herd of Models）被引 S2 1.35 万、OpenAlex 7,309，截至 …；…。Sarathi-Serve（…）被引 …。」): each
    sentence that names one arXiv id and gives a count becomes a line of its own, the title in brackets
    beside the id made its 《title》 and the name before the brackets kept beside it, so the line is
    read like any citation line in another shape (:func:`_loose`).  A paragraph with a sentence that
    names two ids, or with no count, stays as it is (a note around the list)."""
    out: list[Line] = []
    for line in lines:
        text = line.text.strip()
        if BULLET.match(line.text) or not (COUNT_AFTER.search(text) or COUNT_BEFORE.search(text)):
            out.append(line)
            continue
        sentences = [x.strip() for x in split_outside(text, "。") if x.strip()]
        cited = [x for x in sentences if ANY_ID.search(x)]
        if not cited or any(len({m["id"] for m in ANY_ID.finditer(x)}) != 1 for x in cited):
            out.append(line)
            continue
        if len(cited) == 1 and cited[0] == sentences[0] and ANY_ID.match(text.lstrip("`")):
            out.append(line)  # 「arXiv:ID　Title——被引 …」: an entry line already
            continue
        notes = [x for x in sentences if x not in cited]
        if notes:
            out.append(Line(line.number, "。".join(notes) + "。"))
        out += [Line(line.number, "- " + _with_title(x)) for x in cited]
    return out


BRACKETED_ID = re.compile(
    r"^(?P<name>[^（(]*?)\s*[（(](?P<inside>[^（()）]*?(?:arXiv\s*[:：]\s*)?\d{4}\.\d{4,5}(?:v\d+)?[^（()）]*)[）)]"
)


def _with_title(sentence: str) -> str:
    """「Name（arXiv:ID，Title）rest」 as 「arXiv:ID 《Title》（Name）rest」; any other sentence as it is."""
    m = BRACKETED_ID.match(sentence)
    if not m:
        return sentence
    ident = ANY_ID.search(m["inside"])
    assert ident is not None
    title = m["inside"].replace(ident.group(0), "").strip(" ，,、;；:：")
    name = m["name"].strip()
    if not title:
        title, name = name, ""
    if not title:
        return sentence
    return f"arXiv:{ident['id']} 《{title}》{f'（{name}）' if name else ''}{sentence[m.end() :]}"


TITLE_COLUMNS = ("题目", "标题", "题名", "篇名", "论文", "Title", "title")
SOURCE_COLUMNS = ("S2", "OpenAlex")


def _unrolled_table(lines: list[Line]) -> list[Line]:
    """A table of citations, one row a paper under a header that names its columns (「| 编号 | 题目 | S2 |
    OpenAlex | 截至 | 上次 | 备注 |」): each row becomes the team's line, 「- arXiv:ID — title（被引 N / S2，M /
    OpenAlex，截至 …）——note」, the cells no column names kept in the note as 「header：cell」.  Other
    tables stay as they are."""
    return unrolled_tables(
        lines,
        lambda header: set(SOURCE_COLUMNS) <= set(header),
        lambda header, row, number, _: [Line(number, _citation_row(header, row))],
    )


def _citation_row(header: list[str], row: list[str]) -> str:
    cells = dict(zip(header, (c.strip() for c in row), strict=False))
    ident = next((c for c in cells.values() if ANY_ID.search(c)), "")
    title = next((cells[c] for c in header if c in TITLE_COLUMNS), "")  # none: the reader asks for it
    facts = [f"被引 {cells[c]} / {c}" for c in SOURCE_COLUMNS if cells.get(c)]
    facts += [f"截至 {cells[c]}" for c in header if c == "截至" and cells.get(c)]
    rest = [
        f"{c}：{cells[c]}" if c not in ("备注", "用途", "note") else cells[c]
        for c in header
        if cells.get(c) and cells[c] != ident and c not in (*TITLE_COLUMNS, *SOURCE_COLUMNS, "截至")
    ]
    line = f"- {ident if ident.lower().startswith('arxiv') else 'arXiv:' + ident} — {title}（{'，'.join(facts)}）"
    return line + (f"——{'；'.join(rest)}" if rest else "")


def _read_citation(line: int, text: str, verified: bool, draft: Draft, at: At) -> dict[str, Any] | None:
    """``arXiv:ID — Title（卡片来源 …；被引 N / S2，…）——use note``; a line in another shape that names one
    arXiv id is that id with the rest of the line as its title (marked); one that names none is no
    citation (quoted for the editor, never an empty id that fails the check)."""
    draft.origins[at] = line
    text = BULLET.sub(r"\g<text>", text, count=1)
    text = VERSION_IN_BRACKETS.sub(r"\g<id>\g<version>", text, count=1)  # arXiv:1605.08803（v3）
    m = CITATION_HEAD.match(text)
    if not m:
        ids = list(dict.fromkeys(x["id"] for x in ANY_ID.finditer(text)))
        if len(ids) != 1:
            draft.unplaced(line, text, "section 三: no single arXiv id to cite here")
            return None
        loose = _loose(ids[0], text)
        if loose is None:
            title = SEPARATORS.sub(" ", ANY_ID.sub(" ", text)).strip()
            draft.warn(
                line,
                f"«{one_line(text)[:60]}» is not 'arXiv:ID — title': read as {ids[0]}, the rest as its title; check",
                at,
            )
            loose = {"arxiv": ids[0], "title": title or ids[0]}
        if verified:
            loose["verified"] = True
        if draft.words.wording("withdrawn").search(text):
            loose["withdrawn"] = True  # 「… · 作者撤稿，见 [3]」: its authors withdrew it, in any shape of line
        _cited_before(loose, draft)
        return loose
    citation: dict[str, Any] = {"arxiv": m["id"], "title": ""}
    rest = m["rest"]
    open_at = min((i for i in (rest.find("（"), rest.find("(")) if i >= 0), default=-1)
    if open_at < 0:
        title, meta, note = rest, "", ""
    else:
        close_at = _matching_close(rest, open_at)
        title, meta, note = rest[:open_at], rest[open_at + 1 : close_at], rest[close_at + 1 :]
    head, colon, tail = title.partition("：")
    facts = [p.strip() for p in FACT_SEPARATOR.split(tail) if p.strip()]
    if colon and facts and all(any(pattern.match(p) for _, pattern in CITATION_FACTS) for p in facts):
        title, meta = head, "，".join([*facts, meta])  # "Title：被引 4690 / S2、2073 / OpenAlex（截至 …）"
    citation["title"] = title.strip()
    if not citation["title"]:  # 「arXiv:ID —（被引 …）」, a table with no title column: never an empty title
        citation["title"] = citation["arxiv"]
        draft.warn(line, f"citation {citation['arxiv']}: no title read; its id stands in for it; write title", at)
    lead, _, after = note.strip().lstrip("—–-。；;，,").strip().partition("。")
    facts = [p.strip() for p in FACT_SEPARATOR.split(lead) if p.strip()]
    if facts and all(any(pattern.match(p) for _, pattern in CITATION_FACTS) for p in facts):
        meta, note = "，".join([meta, *facts]), after  # 「（作者…）；被引 612 / S2，…，开放获取 green。用途：…」
    for piece in (p.strip() for p in FACT_SEPARATOR.split(meta) if p.strip()):
        _citation_fact(citation, piece, line, draft, at)
    if as_of := citation.pop("as_of", None):  # 截至 …: the date of every count given
        for count in citation.get("cited_by", []):
            count["as_of"] = dt.date.fromisoformat(as_of)
    if (version := citation.pop("version", None)) and not re.search(r"v\d+$", citation["arxiv"]):
        citation["arxiv"] += version
    if verified:
        citation["verified"] = True
    if draft.words.wording("withdrawn").search(f"{meta} {note}"):
        citation["withdrawn"] = True  # its authors withdrew it: number kept, shown 已撤稿
    note = note.strip().lstrip("—–-。；;，,").strip()
    if note:
        citation["use_note"] = note + citation.get("use_note", "")  # (an earlier night's counts after it)
    if not citation.get("cited_by") and (COUNT_AFTER.search(rest) or COUNT_BEFORE.search(rest)):
        # counts written in a way not read: asked, never dropped in silence
        draft.warn(line, f"citation {citation['arxiv']}: the line gives counts, but none was read; write cited_by", at)
    _cited_before(citation, draft)
    return citation


LOOSE_TITLE = re.compile(r"《(?P<title>[^》]+)》|^\s*[|｜]\s*(?P<cell>[^|｜]+?)\s*[|｜]")
"""The title of a citation line in another shape: in 《》, or the first cell after the id (「| title | S2=… |」)."""
COUNT_AFTER = re.compile(SOURCE_THEN_COUNT)
COUNT_BEFORE = re.compile(COUNT_THEN_SOURCE)
LOOSE_AS_OF = re.compile(r"截至\s*[=:：]?\s*(?P<date>\d{4}-\d{2}-\d{2})")
TITLE_END = re.compile(
    r"\s*(?:——|—|\s[-–·]\s|[（(]|[|｜]|[：:]\s*(?:S2|OpenAlex|被引)|[；;]|\s(?=S2\b|OpenAlex\b)|\s+被引)"
)
USE_NOTE = re.compile(r"(?:用途\s*[：:=]\s*|[）)]\s*(?:——|—)\s*)(?P<note>[^（(]+?)\s*$")


def _loose(arxiv_id: str, text: str) -> dict[str, Any] | None:
    """A citation line in a shape other than 「arXiv:ID — Title（…）——note」, read by its pieces: the title in
    《》, or up to the first separator after the id; the first count given for each source (「S2 被引 5,231」,
    「S2 771 · OpenAlex 418」, 「S2=5,216」, 「4,762 / S2」: the first, since later ones are the last night's);
    the date after 截至; the use note after 用途 or after the closing bracket.  None unless the title and
    both sources' counts are read, each whole: the line then needs no question."""
    named = ANY_ID.search(text)
    after = text[named.end() :] if named else text
    after = re.sub(r"\*\*([^*]+)\*\*\s*[：:]?", r"；\1：", after)  # 「**被引**：」: a fact of its own
    after = re.sub(r"^[`\s]+", "", after)
    m = LOOSE_TITLE.search(after)
    if m and m["title"]:
        title = m["title"]
    elif m and m["cell"]:
        title = m["cell"]
    else:
        end = TITLE_END.search(after)
        title = after[: end.start()] if end else ""
    title = title.strip(" —–-:：·`")
    counts: dict[str, int] = {}
    # the numbers already read: 「S2 1.31 万 / OpenAlex 7,196」 gives 1.31 万 to S2 only
    used: list[tuple[int, int]] = []
    said: list[tuple[int, int]] = []  # the whole of each count read, its source too: no part of the use note
    for found in sorted([*COUNT_AFTER.finditer(after), *COUNT_BEFORE.finditer(after)], key=lambda x: x.start()):
        span = found.span("count")
        if any(span[0] < end and start < span[1] for start, end in used):
            continue
        used.append(span)
        said.append(found.span())
        count = read_number(found["count"].strip().rstrip(",，.．"))
        if _source(found["source"]) not in counts:
            if not isinstance(count, int) or count < 0:
                return None  # a count not read whole: the editor writes it
            counts[_source(found["source"])] = count
    if not title or set(counts) != {"S2", "OpenAlex"}:
        return None
    citation: dict[str, Any] = {"arxiv": arxiv_id, "title": title}
    dated = LOOSE_AS_OF.search(after)
    citation["cited_by"] = [
        {
            "source": source,
            "count": counts[source],
            **({"as_of": dt.date.fromisoformat(dated["date"])} if dated else {}),
        }
        for source in ("S2", "OpenAlex")
    ]
    note = USE_NOTE.search(after)
    taken = [*said, *([dated.span()] if dated else []), *([note.span()] if note else [])]
    rest = "".join(c for i, c in enumerate(after) if not any(a <= i < b for a, b in taken)).replace(title, "", 1)
    pieces = [p.strip(" ，,、:：=·《》/`") for p in re.split(r"[|｜；;。（）()]|——|—", rest)]
    kept = [p for p in pieces if re.search(r"\w{2}", re.sub(r"S2|OpenAlex|被引|截至|用途", "", p))]
    told = [note["note"].strip(" 。")] if note else []
    if kept:
        told.append(f"（{'；'.join(kept)}）")  # what else the line says (last night's counts …): kept, not lost
    if told:
        citation["use_note"] = "".join(told)
    return citation


def _cited_before(citation: dict[str, Any], draft: Draft) -> None:
    """A paper an earlier brief listed comes back to refresh its counts: marked ``refresh``, and
    a down-weighting stays with it (the earlier contradiction that decided it)."""
    key = arxiv.key(citation["arxiv"])
    before = [c for b in draft.earlier for c in b.citations if arxiv.key(c.arxiv) == key]
    if not before:
        return
    citation["refresh"] = True
    down = [c.down_weighted_by for c in before if c.down_weighted_by]
    if down and "降权" in citation.get("use_note", "") + citation.get("title", ""):
        citation["down_weighted_by"] = Code(down[-1])


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


def _keep_in_note(citation: dict[str, Any], piece: str) -> None:
    """A fact the data already holds, or holds another way, kept in the citation's note as the brief said it."""
    note = citation.get("use_note")
    citation["use_note"] = f"{note}（{piece}）" if note else f"（{piece}）"


def _citation_fact(citation: dict[str, Any], piece: str, line: int, draft: Draft, at: At) -> None:
    for key, pattern in CITATION_FACTS:
        if m := pattern.match(piece):
            if key == "cited_by":
                count = read_number(m["count"])
                if not isinstance(count, int) or count < 0:
                    draft.warn(
                        line,
                        f"citation {citation['arxiv']}: cannot read «{m['count'].strip()}» as a count; write it in digits "
                        "(4791 or 4,791)",
                        at + ("cited_by",),
                    )
                    draft.unplaced(line, piece, f"citation {citation['arxiv']}: count not read", at + ("title",))
                    return
                citation.setdefault("cited_by", []).append({"source": _source(m["source"]), "count": count})
            elif key == "first_listed":  # 「新登记」: the paper is new to the list, as its missing refresh says; kept
                citation["use_note"] = citation.get("use_note", "") + f"（{m['value']}）"
            elif key == "doi" and not DOI.fullmatch(m["value"]):
                draft.unplaced(line, piece, f"citation {citation['arxiv']}: not a DOI (10.NNNN/…)", at + ("title",))
            else:
                citation[key] = m["value"]
            return
    if m := OA_CHANGED.match(piece):  # 「开放获取 green → gold」: tonight's status, and the change kept as said
        citation["oa_status"] = m["value"]
        _keep_in_note(citation, piece)
        return
    if EARLIER_COUNTS.match(piece):  # 「上周日 4,756 / 2,110」: the counts an earlier night gave, said again
        _keep_in_note(citation, piece)
        return
    draft.unplaced(line, piece, f"citation {citation['arxiv']}: fact in brackets not understood", at + ("title",))
