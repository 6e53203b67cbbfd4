"""The layout of the Markdown: the 一/二/三/四 parts, paragraphs, bullet and numbered entries."""

from __future__ import annotations

import re

from .common import CLOSING, OPENING, Draft, Line, Part, bare_text, join_lines


def normalized(text: str) -> str:
    """The brief as the importer reads it, whatever editor saved it: no byte-order mark, ``\\n`` line
    ends, no white space (U+3000 included) at the end of a line.

    Windows editors save a BOM and CRLF, and Chinese input methods leave full-width spaces at line
    ends; none of it is the writer's meaning, and every reader of the text (the topic the command
    looks for on the first line too) must see the same characters, so the file imports byte for
    byte like the plain one."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(DEFINITION.sub("- ", line.rstrip()) for line in text.split("\n"))


DEFINITION = re.compile(r"^:[ \t]+(?=\S)")
"""A definition list's entry (「要点」 on a line, then 「: …」 one point a line; Python-Markdown's
``def_list``): read as the bullet it means, one source or point each."""


# --- layout
SECTION_HEADING = re.compile(
    r"^\s*(?:[¶❡]\s*)?(?:(?:Part|PART|part)\s*\d+\s*[/／|｜·:：-]\s*)?(?:第)?(?P<open>[【\[〔])?\s*"
    r"(?P<numeral>[一二三四五六七八九十]+|[壹贰叁肆])\s*(?:部分)?\s*(?(open)[】\]〕])\s*"
    r"(?:[、.．/／|｜:：·]|(?<=[】\]〕])|\s)\s*(?P<title>(?!\d)\S.*?)\s*$"
)
"""A part's heading, however the writer numbers it: 「一、…」, 「【一】…」, 「## 一 / …」, 「一　…」 (a
full-width space), 「第一部分：…」, 「Part 2 / 二 …」, 「贰 …」, 「¶ 一　…」 (a pilcrow before it) (not 「（一）…」:
that numbers items)."""


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
NUMERAL_KINDS |= dict(zip("壹贰叁肆", NUMERAL_KINDS.values(), strict=True))
PART_ORDER = list(NUMERAL_KINDS.values())[:4]

ATX = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>\S.*?)\s*#*\s*$")
SETEXT = re.compile(r"^(?:=+|-+)\s*$")
BOLD_LINE = re.compile(r"^\s*\*\*(?P<title>[^*]+)\*\*\s*$")


def _headings_by_level(lines: list[Line]) -> dict[str, list[tuple[int, str]]]:
    """Every heading of the brief by its kind and level: ``#``…``######``, a line underlined with
    ``===`` or ``---`` (setext), a line that is all bold; (index in ``lines``, title) each."""
    found: dict[str, list[tuple[int, str]]] = {}
    for i, line in enumerate(lines):
        if m := ATX.match(line.text):
            found.setdefault(m["level"], []).append((i, m["title"]))
        elif m := BOLD_LINE.match(line.text):
            found.setdefault("bold", []).append((i, m["title"].strip()))
        elif (
            i + 1 < len(lines)
            and line.text.strip()
            and SETEXT.match(lines[i + 1].text)
            and lines[i + 1].text.strip()[:1] == "="
        ):
            found.setdefault("setext", []).append((i, line.text.strip()))
    return found


def _parts_by_position(lines: list[Line], draft: Draft) -> list[Part] | None:
    """The four parts when no heading is numbered the team's way: the one heading level used exactly
    four times after the first heading, in order (whatever numbers them: 「### 2 ▸ …」); each heading's
    words decide its kind when they can, else its place.  Of several Markdown levels used four times, the
    outermost holds the others.  None when no level fits (never a guess among several kinds of heading)."""
    fits = [(level, heads) for level, heads in _headings_by_level(lines).items() if len(heads) == 4]
    if len(fits) > 1 and all(level.startswith("#") for level, _ in fits):
        fits = [min(fits, key=lambda fit: len(fit[0]))]  # 「## 01 · 增量」 holds the 「### Δ1 …」 under it: the parts
    if len(fits) != 1:
        return None
    level, heads = fits[0]
    parts = [Part("header", None, 1, lines[: heads[0][0]])]
    for k, (index, title) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        kind = next((kind for kind, words in SECTION_KINDS if words.search(title)), PART_ORDER[k])
        body = [x for x in lines[index + 1 : end] if not (SETEXT.match(x.text) and x is lines[index + 1])]
        parts.append(Part(kind, title, lines[index].number, body))
    if len({p.kind for p in parts}) != 5:
        return None
    draft.warn(
        lines[heads[0][0]].number,
        f"no part heading is numbered 一–四; the four {level} headings (lines "
        + ", ".join(str(lines[i].number) for i, _ in heads)
        + ") are read as parts 一–四; check",
    )
    return parts


FRAME = re.compile(r"^\s*([=~*_+\-—])\1+\s*|\s*([=~*_+\-—])\2+\s*$")
"""The runs of one symbol a writer frames a heading with: 「=== 二、矛盾与待核 ===」, 「--- 三 ---」."""


def split_parts(lines: list[Line], draft: Draft) -> list[Part]:
    """Header + one part per 一、二、三、四 heading (bare, or framed in runs of a symbol); the kind comes
    from the heading's words."""
    parts = [Part("header", None, 1, [])]
    for line in lines:
        m = SECTION_HEADING.match(FRAME.sub("", bare_text(line.text)))
        if m:
            kind = next(
                (k for k, words in SECTION_KINDS if words.search(m["title"])),
                NUMERAL_KINDS.get(m["numeral"], "unknown"),
            )
            earlier = next((p for p in parts if p.kind == kind and kind != "unknown"), None)
            if earlier is not None:  # a second 一 (or 二 …): read on as more of the first, lose nothing
                parts.append(earlier)
                if kind != "conclusions":
                    draft.unplaced(
                        line.number, line.text, f"a second {kind} section; its content is read with the first"
                    )
                    continue
                draft.warn(
                    line.number, f"«{line.text.strip()}» is a second part 四; read with the first, its heading too"
                )
                earlier.lines.append(line)  # 「五、跟进」: its heading, as written, heads what follows (a list, say)
                continue
            if kind == "unknown" and parts[-1].kind == "conclusions" and m["numeral"] not in NUMERAL_KINDS:
                # 「五、明日事项」 after 四: what a brief adds after its conclusions is read with them (a list there is
                # the next round's follow-ups, each asked about), not left as text no reader sees
                draft.warn(line.number, f"«{line.text.strip()}» after part 四 is read as more of part 四; check")
                parts[-1].lines.append(line)
                continue
            parts.append(Part(kind, m["title"], line.number, []))
            if kind in STANDARD_HEADINGS and m["title"] != STANDARD_HEADINGS[kind]:
                draft.unplaced(
                    line.number, m["title"], f"heading of section {m['numeral']} (the YAML keeps no heading here)"
                )
            elif kind == "unknown":
                draft.unplaced(line.number, line.text, "unknown section heading")
        else:
            parts[-1].lines.append(line)
    parts = [p for i, p in enumerate(parts) if all(p is not q for q in parts[:i])]  # a repeated section once
    if len(parts) == 1 and (by_position := _parts_by_position(lines, draft)) is not None:
        return by_position
    for part in parts[1:]:
        if part.lines and SETEXT.match(part.lines[0].text) and part.lines[0].number == part.line + 1:
            part.lines = part.lines[1:]  # the 「====」 under a heading: the heading's, not the part's
    for part in parts:
        if part.kind == "unknown":
            for number, text in paragraphs_of(part.lines):
                draft.unplaced(number, text, "unknown section")
    return parts


def paragraphs_of(lines: list[Line]) -> list[tuple[int, str]]:
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
            out[-1] = (out[-1][0], join_lines(out[-1][1], line.text.strip()))
        previous_blank = False
    return out


def list_entries(
    lines: list[Line], starts: re.Pattern[str], apart: re.Pattern[str] | None = None
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Split a section into its entries (lines matching ``starts``, with their continuation lines)
    and the other paragraphs, each with its first line.  Outside the entries, a line matching ``apart``
    (a list item) is a paragraph of its own, not a continuation of the one above it.

    An entry written as a Markdown heading (「## 疑 1 · title」, an Org headline) holds the paragraphs
    under it up to the next heading, its title parted from them by a colon, as 「title：text」 reads; so
    does any other heading from the text right under it (「### 勘误」, an Obsidian callout's title)."""
    entries: list[tuple[int, str]] = []
    others: list[tuple[int, str]] = []
    current: list[tuple[int, str]] | None = None
    previous_blank = True
    headed = False  # the entry being read is a heading: its body is every paragraph up to the next heading
    for line in lines:
        text = line.text.strip()
        if not text:
            previous_blank = True
            continue
        if starts.match(line.text):
            entries.append((line.number, text))
            current = entries
            headed = text.startswith("#")
        elif headed and current is entries and not text.startswith("#"):
            entries[-1] = (entries[-1][0], _under(entries[-1][1], text))
        elif apart is not None and current is others and apart.match(line.text):
            others.append((line.number, text))
        elif not previous_blank and current is not None and not text.startswith("#"):
            current[-1] = (current[-1][0], _under(current[-1][1], text))
        else:
            others.append((line.number, text))
            current = others
            headed = False
        previous_blank = False
    return entries, others


def _under(before: str, text: str) -> str:
    """A paragraph's next line joined on; a Markdown heading with no colon of its own (「### 勘误」) titles
    the text under it, 「勘误：text」, rather than running into it."""
    if before.startswith("#") and "：" not in before and ":" not in before:
        return f"{before.lstrip('#').strip()}：{text}"
    return join_lines(before, text)


def label_colon(text: str) -> int | None:
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
