"""An item's sources and evidence boundary (证据边界): materials, URLs, level, gaps and source kinds."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

from ...core.model import Gap, SourceKind
from .common import At, Draft, Field, split_outside, without_asides
from .words import gap_codes

POINT_BULLET = re.compile(r"(?:^|\s+)-\s+")
"""Points are bullets: " - a - b" inside one line, or one "- a" per line (joined with newlines)."""


# --- sources
URL = re.compile(r"https?://[^\s<>\"'（）「」，。；、]+")


MATERIAL = re.compile(r"^(?P<path>[^\s「（(]+?\.(?:md|txt|json|ya?ml|html|pdf))(?P<rest>.*)$", re.S)


COLLECTED = re.compile(
    r"^[（(]\s*(?:首次采集\s*(?P<first>\d{4}-\d{2}-\d{2}))?\s*[，,、]?\s*"
    r"(?:上次采集\s*(?P<last>\d{4}-\d{2}-\d{2}))?\s*[）)]$"
)
"""（首次采集 2026-10-19，上次采集 2026-10-21）, or either date alone (（上次采集 2026-10-23））."""


# --- evidence
# How far an item was checked is the vocabulary's ``levels_from_boundary``; which kind of source a
# link is, its ``source_kinds_by_host`` (the team edits both).


BULLET_MARK = re.compile(r"^[-•*・]\s+")


def read_sources(f: Field | None, number: int, line: int, draft: Draft, at: At, notes: list[str]) -> dict[str, Any]:
    """``path 第 2 条 与 path2 保留来源 · https://…``: materials (with anchors or collection dates) and URLs."""
    sources: dict[str, Any] = {"materials": [], "urls": []}
    if f is None:
        draft.warn(line, f"条目 {number}: no 来源; sources left empty", at)
        return sources
    for piece in _source_pieces(f.text):
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


def _source_pieces(text: str) -> Iterator[str]:
    """Each source of a 来源 field: one a bullet (or a definition list's 「: …」 line), several parted by 「·」."""
    return (BULLET_MARK.sub("", p.strip()) for bullet in text.split("\n- ") for p in split_outside(bullet, "·"))


def _material(text: str) -> dict[str, Any] | None:
    m = MATERIAL.match(text)
    if not m:
        return None
    ref: dict[str, Any] = {"path": m["path"]}
    rest = m["rest"].strip()
    if (collected := COLLECTED.match(rest)) and (collected["first"] or collected["last"]):
        if collected["first"]:
            ref["first_collected"] = dt.date.fromisoformat(collected["first"])
        if collected["last"]:
            ref["last_collected"] = dt.date.fromisoformat(collected["last"])
    elif rest:
        ref["anchor"] = rest
    return ref


NUMBERED_POINT = re.compile(r"(?:^|(?<=\s)|(?<=[。；;，,]))(?:[①-⑩]|[一二三四五六七八九十]是)\s*")
"""A point numbered inside one paragraph: 「① … ② …」, 「一是…；二是…」."""


def _numbered_points(text: str) -> list[str]:
    """「① a ② b」 or 「一是 a；二是 b」 → [a, b] when the numbers run 1, 2, 3 … from the start (「① a」
    alone is [a]); else the text is one point."""
    marks = list(NUMBERED_POINT.finditer(text))
    numbers = [int(unicodedata.numeric(m.group().strip()[0])) for m in marks]  # ② and 二 are both 2
    alone = len(marks) == 1 and marks[0].group().strip() == "①"  # a list of one: 「① …」
    if (len(marks) < 2 and not alone) or numbers != list(range(1, len(marks) + 1)) or text[: marks[0].start()].strip():
        return [text]
    ends = [m.start() for m in marks[1:]] + [len(text)]
    return [text[m.end() : end].strip().rstrip("；;") for m, end in zip(marks, ends, strict=True)]


def read_points(f: Field | None, number: int, line: int, draft: Draft, at: At) -> list[str]:
    """要点 bullets, inline (" - a - b") or one per line; a 要点 without bullets is one point."""
    if f is None or not f.text.strip():
        draft.warn(f.line if f else line, f"条目 {number}: no 要点; points left empty", at)
        return []
    text = f.text.strip()
    pieces = [p.strip() for p in POINT_BULLET.split(text)]
    if len(pieces) == 1:
        pieces = _numbered_points(text)
    if len(pieces) > 1 and pieces[0]:
        draft.warn(f.line, f"条目 {number}: 要点 has text before its first bullet; kept as the first point", at)
    return [p for p in pieces if p]


def read_evidence(
    f: Field | None, item: dict[str, Any], number: int, line: int, draft: Draft, at: At, source_text: str = ""
) -> dict[str, Any]:
    """Level, gaps and source kinds, read from the 证据边界 (and the points for the level, and the tags
    heading the 来源 line, ``source_text``)."""
    boundary = f.text if f else ""
    if not boundary:
        draft.warn(f.line if f else line, f"条目 {number}: no 证据边界; boundary left out", at + ("boundary",))
    points_text = "\n".join(item["points"] + [item.get("points_note", "")])
    reading = draft.words.level_reading(boundary, points_text)
    level = reading[0] if reading else None
    if reading and _implied(reading, draft):
        draft.warn(
            f.line if f else line,
            f"条目 {number}: level read as «{draft.words.label('evidence_levels', reading[0])}» from «{reading[1]}» "
            "(levels_from_boundary in the vocabulary file); check",
            at + ("level",),
        )
    if level is None:
        level = "unverified"
        draft.warn(
            f.line if f else line,
            f"条目 {number}: the 证据边界 says nothing about how far it was checked; level set to unverified",
            at + ("level",),
        )
    where = f.line if f else line
    tagged_kinds, tagged_gaps = _clause_tags(boundary, source_heads(source_text), draft, where, source_text)
    gaps = _merged(
        gap_codes(boundary), named_words(boundary, "gaps", draft), new_gaps(boundary, draft, where), tagged_gaps
    )
    evidence: dict[str, Any] = {"level": level}
    by_host, unknown = _source_kinds(item["sources"], gaps, draft)
    kinds = _merged(
        by_host, named_words(boundary, "source_kinds", draft), new_source_kind(boundary, draft, where), tagged_kinds
    )
    if unknown:
        draft.warn(
            where,
            f"条目 {number}: no rule says what kind of source {', '.join(unknown)} is (source_kinds_by_host in the "
            "vocabulary file); "
            + ("source_kinds left empty" if not kinds else "source_kinds has only the other sources' kinds"),
            at + ("level",),
        )  # source_kinds may be left out, so the mark goes on its neighbour
    if kinds:
        evidence["source_kinds"] = kinds
    if gaps:
        evidence["gaps"] = gaps
    if boundary:  # none written: left out (the site says so), never an empty string that fails the check
        evidence["boundary"] = boundary
    return evidence


def _implied(reading: tuple[str, str], draft: Draft) -> bool:
    """A level above 未核实 set by words that are no level's name (全文已读, 已核对): the team's rule
    decided it, not the writer's word, so the editor is asked to look (a writer may mean 已核查)."""
    level, word = reading
    if draft.words.rank(level) >= draft.words.rank("unverified"):
        return False
    return not any(draft.words.find("evidence_levels", word.removeprefix(p)) for p in ("", "已", "属"))


def _merged(*lists: list[str]) -> list[str]:
    return list(dict.fromkeys(code for codes in lists for code in codes))


def named_words(text: str, kind: str, draft: Draft) -> list[str]:
    """The words of ``kind`` the text spells (a label or an alias of the site's vocabulary, or a word
    this brief proposed), in the order written: 「本地复现；…；未复现」 names both."""
    spellings = [(s, code) for s, code in draft.words.spellings(kind) if len(s) >= 2]
    spellings += [(label, code) for code, label in draft.proposed.get(kind, {}).items()]
    found: list[tuple[int, str]] = []
    for spelling, code in sorted(spellings, key=lambda sc: -len(sc[0])):
        for m in re.finditer(re.escape(spelling), text):
            if not re.search(r"[不未没非][在于]?$", text[: m.start()]):  # 「未在本地复现」 is not a reproduction
                found.append((m.start(), code))
                break
    return [code for _, code in sorted(found)]


LEVEL_WORDS = re.compile(r"未验证|未经[^，。；]{0,6}验证|待核查|未披露|核实|核查|核对")
"""What was or was not checked says the level (仅核实目录结构, 未经独立验证), not a gap."""
BOUNDARY_CLAUSES = re.compile(r"[；;。]|——|\n")
GAP_SHAPE = re.compile(
    r"(?:[\u4e00-\u9fff]{1,3}(?=未[\u4e00-\u9fff]{2}))?(?:未|仅|缺|无|不可|不能)[\u4e00-\u9fff]{2,6}"
)
"""A gap as the team words one, a whole phrase of the boundary: 「；未附测试脚本；」, 「，未复现——」
(not the end of a sentence about something else, 「…均未取到」; not a level, 「未经独立验证」); a thing
and what it lacks (「配置未公开」, 「身份未核验」), what there is none of (「无回放」), what may not be done
with it (「不可公开引用」), and a 「仅…」 that ends a phrase (「TTFT 那句仅单次测量」)."""
TRAILING_ONLY = re.compile(r"(?<=[\u4e00-\u9fffA-Za-z\s])仅[\u4e00-\u9fff]{3,6}$")


def new_gaps(boundary: str, draft: Draft, line: int) -> list[Gap]:
    """Gaps the boundary words the team's way (「；未附测试脚本；」) that the vocabulary lacks: proposed,
    so the word is neither lost nor forced onto another."""
    found = []
    for clause in BOUNDARY_CLAUSES.split(without_asides(boundary)):
        for phrase in (p.strip() for p in re.split(r"[，,、]", clause)):
            m = GAP_SHAPE.fullmatch(phrase) or TRAILING_ONLY.search(phrase)
            if m and not LEVEL_WORDS.search(phrase) and not _any_word(m.group(0), draft):
                found.append(draft.code("gaps", m.group(0), line))
    return found


def new_source_kind(boundary: str, draft: Draft, line: int) -> list[SourceKind]:
    """The boundary's first phrase (and each phrase it joins to it with 「+」), when it names a kind of source
    the vocabulary lacks (「社区例会纪要（会后整理稿）；…」, 「邮件回复（厂商自述）；…」, 「AMA 问答」, 「… + GitHub
    issue」): its last word is a source noun of ``wordings: source_noun``."""
    head = re.split(r"[；;。]", boundary.strip(), maxsplit=1)[0]
    nouns = draft.words.phrases("source_noun")
    found = []
    for joined in head.split("+"):  # 「发布说明（项目文档）+ GitHub issue 维护者回复」: each source joined by +
        first = re.split(r"[（(，,·—]", joined.strip(), maxsplit=1)[0].strip()
        latin = re.match(
            r"[A-Za-z]{2,10}\s[A-Za-z]{2,10}(?![A-Za-z])", first
        )  # 「GitHub issue 关闭说明」: GitHub issue
        for name in (first, latin.group(0) if latin else ""):
            if (
                SOURCE_KIND_SHAPE.fullmatch(name)
                and name.endswith(nouns)
                and not _any_word(name, draft)
                and not draft.words.level_reading(name)  # 「已核查发布说明」 says how far, not what kind
            ):
                found.append(draft.code("source_kinds", name, line))
                break
    return found


HEAD = re.compile(
    r"^\s*(?P<head>[^：:\n「」《》（）()，,。；;]{2,12}(?:[，,、/][^：:\n「」《》（）()，,。；;]{2,12}){0,3})\s*[：:]"
)
"""Tags a writer puts before a colon at the start of a source or a boundary: 「CI 日志：LMCache 仓库…」,
「白皮书，需留资下载：要填公司邮箱…」."""


def _tags(text: str) -> list[str]:
    m = HEAD.match(text)
    if not m:
        return []
    tags = [t.strip() for t in re.split(r"[，,、/]", m["head"])]
    return tags if all(TAG_SHAPE.fullmatch(t) for t in tags) else []


BRACKET_HEAD = re.compile(r"[（(]\s*(?P<tag>[^：:，,（）()「」\n]{2,12}?)\s*[：:，,]")
"""A source's gloss in brackets that opens with its kind: 「…第 3 节（会议海报：ML 系统 workshop…）」,
「…（基准榜单，ServeBench 2026-11 快照）」."""


def source_heads(text: str) -> list[str]:
    """The tag heading each source of a 来源 line (「CI 日志：…」 · 「白皮书：…」), as written, and the tag
    opening a bracketed gloss of a source (「（性能看板：vLLM 官方 perf dashboard…）」)."""
    heads = [tags[0] for piece in _source_pieces(text) if len(tags := _tags(URL.sub("", piece))) == 1]
    heads += [m["tag"] for m in BRACKET_HEAD.finditer(URL.sub("", text)) if TAG_SHAPE.fullmatch(m["tag"])]
    return heads


def head_tags(
    boundary: str, heads: list[str], draft: Draft, line: int, source: str = ""
) -> tuple[list[SourceKind], list[Gap]]:
    """A boundary headed by tags before a colon (「CI 日志，产物已过期：artifact 只留 72 小时…」) whose
    first tag is the kind its source line is headed by, or a kind the vocabulary knows: that tag is the
    source's kind, the others are gaps.  A new one is proposed for the vocabulary file, never dropped;
    a head that is no such tag list (「注意：…」) says nothing."""
    named = _first_phrase_in(boundary, heads, source)
    tags = _tags(boundary) or named
    if not tags or draft.words.level_reading(tags[0]):  # 「已核查发布说明」 says how far, not what kind
        return [], []
    if not (tags[0] in heads or tags == named or draft.words.find("source_kinds", tags[0])):
        return [], []
    kinds = [draft.code("source_kinds", tags[0], line)]
    gaps = [
        draft.code("gaps", tag, line)
        for tag in tags[1:]
        if not draft.words.level_reading(tag) and not draft.words.find("source_kinds", tag)
    ]
    return kinds, gaps


def _clause_tags(
    boundary: str, heads: list[str], draft: Draft, line: int, source: str = ""
) -> tuple[list[SourceKind], list[Gap]]:
    """:func:`head_tags` of the boundary's first clause, and of each later clause headed by the kind of another of
    the item's sources (「验收测试报告，仅预发环境：…；厂商兼容性矩阵，未列本型号：…」): a boundary of two sources
    says each one's kind and gaps in its own clause."""
    kinds, gaps = head_tags(boundary, heads, draft, line, source)
    for clause in re.split(r"[；;。]\s*", boundary)[1:]:
        tags = _tags(clause)
        if tags and tags[0] in heads:
            more, also = head_tags(clause, heads, draft, line, source)
            kinds, gaps = _merged(kinds, more), _merged(gaps, also)
    return kinds, gaps


def _first_phrase_in(boundary: str, heads: list[str], source: str = "") -> list[str]:
    """A boundary with no tags before a colon whose first phrase is the kind its source line names
    (「基准榜单，各行由提交方自报；…」 under 「…（基准榜单，ServeBench 快照）」), as a head or anywhere in its words
    (「Slack 消息，Jay 复制下来的文字；…」 under 「…（Jay 转存的 llm-d 频道 Slack 消息，11/14）」): that phrase, as a
    tag.  Both fields saying it is what makes it a kind, not a guess from one of them."""
    first = re.split(r"[，,；;。：:（(]", boundary.strip(), maxsplit=1)[0].strip()
    if first in heads:
        return [first]
    said = URL.sub("", source)
    return [first] if TAG_SHAPE.fullmatch(first) and first in said else []


TAG_SHAPE = re.compile(r"(?:[A-Za-z]{2,10}\s?)?[\u4e00-\u9fff]{2,8}|[A-Za-z]{2,10}(?:\s[A-Za-z]{2,10})?")
"""A tag is a short name: a few Chinese characters (after one Latin word, 「CI 日志」), or Latin words."""


SOURCE_KIND_SHAPE = re.compile(r"(?:[A-Za-z]{2,8}\s?)?[\u4e00-\u9fff]{2,8}|[A-Za-z]{2,10}\s[A-Za-z]{2,10}")
"""A kind of source as a name: a few Chinese characters (after one Latin word, 「AMA 问答」), or two Latin
words (「GitHub issue」)."""


def _any_word(text: str, draft: Draft) -> bool:
    """``text`` is already a word of some vocabulary (a gap spelled as a source kind is not new)."""
    return any(draft.words.find(kind, text) for kind in ("gaps", "source_kinds", "value_ratings", "evidence_levels"))


def _source_kinds(sources: dict[str, Any], gaps: list[Gap], draft: Draft) -> tuple[list[SourceKind], list[str]]:
    """What kind of source each link or card is: by host, refined by the gaps (a paywalled
    Substack is a paywalled newsletter, a financial-media one is financial media); and the hosts
    no rule knows."""
    kinds: list[SourceKind] = []
    unknown: list[str] = []
    for url in sources.get("urls", []):
        kind = _url_kind(url, gaps, draft)
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
    return kinds, unknown


def _url_kind(url: str, gaps: list[Gap], draft: Draft) -> SourceKind | None:
    """The vocabulary's rule for the link's host, refined by the gaps (a paywalled personal
    newsletter is a paywalled newsletter); then what a link's shape says (``docs.…``, ``…/blog/…``)."""
    parsed = urlparse(url)
    host, path = (parsed.hostname or "").lower(), parsed.path.lower()
    kind = draft.words.source_kind_of(host, path)
    if kind == "personal_blog":
        if "paywall" in gaps:
            return "paywalled_newsletter"
        if "financial_media" in gaps:
            return "financial_media"
    if kind is not None:
        return kind
    if host.startswith("docs.") or (host in ("github.com", "gitlab.com") and path.endswith((".md", ".rst"))):
        return "project_docs"
    if "blog" in host or path.startswith("/blog") or "/blog/" in path:
        return "official_blog"
    return None
