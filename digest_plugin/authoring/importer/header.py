"""The header of a brief: title, byline (作者), provenance (处理依据), materials, reference versions, scope."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any

from ...core.model import Brief
from .common import Code, Draft, Part, bare_text, split_outside
from .markdown import list_entries

# --- header
BYLINE = re.compile(r"^作者\s*[：:]\s*(?P<rest>.*)$", re.S)


ROUND_LABEL = re.compile(r"^(?P<label>(?P<round>E\d)\b[^（(]*?)\s*(?:[（(](?P<topic>[^）)]+)[）)])?\s*$")


DATE_TIME = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})(?:\s+(?P<time>\d{1,2}:\d{2}))?")


TITLE_FACTS = re.compile(r"^(?P<topic>[a-z0-9-]+)\s*·\s*(?P<round>E\d)\b.*?[（(](?P<date>\d{4}-\d{2}-\d{2})[）)]")


HEADER_LABEL = re.compile(r"^\s*(?:作者|处理依据)\s*[：:]")


PROVENANCE = re.compile(r"^处理依据\s*[：:]\s*(?P<rest>.*)$", re.S)


JOB = re.compile(r"^(?P<checklist>.+?)\s+job\s+(?P<job_id>[^\s（(，,]+)")


JOB_ITEM = re.compile(r"[（(]\s*item\s+(?P<item>[^\s，,）)]+)")


MATERIALS_NOTE = re.compile(r"(?P<note>(?P<count>\d+)\s*份\s*(?:materials?|材料)[^，,；;）)：:]*)")


MATERIALS_LIST = re.compile(r"(?:份\s*(?:materials?|材料)[^含：:。]*?含|读取\s*[：:])\s*(?P<list>[^。]+)")
"""The materials read: 「7 份 materials 全部读取，含 a、b、c）」 or 「本轮 4 份材料全部读取：a、b、c。」."""
PATH_LIKE = re.compile(r"^[\w.-]+(?:/[\w.-]+)+$|^[\w.-]+\.(?:md|txt|json|ya?ml|html|pdf)$")
"""A material that is a file of the team's store (a path), not a description of what was read."""
PATH_IN = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:md|txt|json|ya?ml|html|pdf)\b|[\w.-]+(?:/[\w.-]+){2,}")
"""A path inside a piece of the list (「organized/paper_cards/x.md 及对应 arXiv 全文」)."""


REFERENCES = re.compile(
    r"参照\s*(?P<doc>[^\s（(]+)\s*[（(](?P<doc_meta>[^）)]*)[）)]"
    r"(?:\s*(?:与|和|及|、)\s*(?P<queue>[^\s（(]+)\s*[（(](?P<queue_meta>[^）)]*)[）)])?"
)


REFERENCE_COUNT = re.compile(r"引用\s*(?:→|->)\s*(?P<count>\d+)")


SCOPE = re.compile(r"(?<!证据)边界\s*[：:]\s*(?P<scope>.+)$", re.S)


def read_header(part: Part, draft: Draft, name: str | None = None) -> dict[str, Any]:
    """Title (the first line), byline (作者 · round · date time) and provenance (处理依据 … 参照 … 边界：…)."""
    header: dict[str, Any] = {}
    lines = list(part.lines)
    first = next((line for line in lines if line.text.strip()), None)
    if first is None:
        draft.warn(1, "the brief has no title line", ("title",))
        header["title"] = ""
        title, title_line = "", 1
    else:
        title, title_line = bare_text(first.text).strip(), first.number
        lines = lines[lines.index(first) + 1 :]
    header["title"] = title
    draft.origins[("title",)] = title_line
    entries, others = list_entries(lines, HEADER_LABEL)
    for number, text in entries:
        if m := BYLINE.match(text):
            header.update(_read_byline(m["rest"], number, draft))
        elif m := PROVENANCE.match(text):
            header.update(_read_provenance(m["rest"], number, draft))
    for number, text in others:
        draft.unplaced(number, text, "header")
    _header_fallbacks(header, title, title_line, draft, name)
    return header


def _read_byline(rest: str, line: int, draft: Draft) -> dict[str, Any]:
    """``Tom · E1 日间预消化轮（inference）· 2026-10-21 22:20``."""
    out: dict[str, Any] = {}
    pieces = [p.strip() for p in split_outside(rest, "·")]
    if pieces and pieces[0] and not ROUND_LABEL.match(pieces[0]) and not DATE_TIME.fullmatch(pieces[0]):
        out["author"] = pieces.pop(0)
    for piece in pieces:
        if (m := ROUND_LABEL.match(piece)) and m["round"]:
            out["round"] = Code(m["round"])
            out["round_label"] = m["label"].strip()
            if m["topic"]:
                out["topic"] = Code(m["topic"].strip())
        elif m := DATE_TIME.fullmatch(piece):
            out["date"] = m["date"]
            if m["time"]:
                out["written_at"] = m["time"]
        elif piece:
            draft.unplaced(line, piece, "byline (作者 …)")
    for key in out:
        draft.origins[(key,)] = line
    return out


def _read_provenance(rest: str, line: int, draft: Draft) -> dict[str, Any]:
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
        listed = m["list"].strip()
        while listed.count("）") + listed.count(")") > listed.count("（") + listed.count("("):
            listed = listed[:-1].rstrip()  # 「（…，含 a、b）」: the bracket the list sits in is not its own
        pieces = [p.strip() for p in split_outside(listed, "、，,") if p.strip()]
        paths = [found.group(0) for p in pieces if (found := PATH_IN.search(p))]
        whole = [p for p in pieces if PATH_LIKE.match(p)]
        if paths:
            out["materials"] = [{"path": p} for p in paths]
        if len(whole) < len(pieces):  # 「vLLM issue #41207 全帖（含…）」: what was read, kept as written
            out["materials_note"] = f"{out['materials_note']}：{listed}" if out.get("materials_note") else listed
            draft.warn(
                line,
                "处理依据: some materials are descriptions, not files of the store; the list is kept in materials_note",
                ("materials_note",),
            )
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


FILE_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})-(?P<topic>[a-z0-9]+(?:-[a-z0-9]+)*)-(?P<round>E\d+)$")
"""The team's name for a brief's file, ``2026-10-21-inference-E1``: its date, topic and round."""


def _header_fallbacks(header: dict[str, Any], title: str, line: int, draft: Draft, name: str | None = None) -> None:
    """Topic, round and date also appear in the title; use them where the byline lacks one,
    and warn where the two disagree.  A brief whose title and byline give none of them (exported from
    a tool with a header of its own) takes them from its file's name, the team's
    ``<date>-<topic>-<round>``, marked for the editor."""
    facts = TITLE_FACTS.match(title)
    named = FILE_NAME.match(name or "")
    for key in ("topic", "round", "date"):
        from_title = facts[key] if facts else None
        if key not in header and from_title:
            header[key] = Code(from_title) if key != "date" else from_title
        elif key not in header and named:
            header[key] = Code(named[key]) if key != "date" else named[key]
            draft.warn(line, f"no {key} in the byline or the title; read from the file's name «{name}»; check", (key,))
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


def id_stem(header: dict[str, Any], known_briefs: Iterable[Brief]) -> str:
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
