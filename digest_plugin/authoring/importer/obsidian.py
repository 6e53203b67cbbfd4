"""A brief kept as an Obsidian note and pasted as it is, rewritten line by line into the Markdown the
readers read.

Obsidian (https://help.obsidian.md/) stores a note as Markdown with a few marks of its own.  None of
them is the writer's meaning; each is how the tool lays out or links a page.  So, before the parts are
read:

* the note's **properties**, a YAML block between ``---`` lines at the very top, are blank lines (the
  title line and byline follow in the note, as in any brief; the block repeats them);
* a **callout**, ``> [!note|meta] title`` and the ``> `` lines under it, is a box drawn around a block,
  not a quotation: its first line is a heading (``### title``), the callout's metadata after a 「｜」
  (where a writer puts the item's value rating: ``[!note|高价值]``), and its lines lose one ``>``.  A
  folded callout (``[!quote]-``) is the same;
* a **wikilink** ``[[target|alias]]`` is its alias, and, when the target is a dated note (a brief's
  file, ``2026-12-07-inference-E1``), that date before it, the alias's middle dots as spaces:
  ``2026-12-07 昨天 乔``, read as any date and writer;
  ``[[target]]`` is the target;
* an **embed** ``![[file]]`` is the file's name.

Task boxes other than ``[ ]`` and ``[x]`` (``[>]`` forwarded, ``[-]`` cancelled: the Tasks plugin's
and most themes' statuses) are read where lists are (:mod:`.lists`).  Only a note with properties, a
callout or a wikilink is read as Obsidian's; every line keeps its number, so findings point at the
file as written, and nothing is dropped.
"""

from __future__ import annotations

import re

from .common import Line

CALLOUT = re.compile(r"^(?P<indent>\s*)>\s*\[!(?P<type>[\w-]+)(?:\|(?P<meta>[^\]]*))?\][+-]?\s*(?P<title>.*)$")
"""``> [!note|高价值] Δ1 · title``: a callout's first line (type, metadata, fold mark, title)."""
BLOCKQUOTE = re.compile(r"^(?P<indent>\s*)>\s?")
"""A line of a block quote (a callout's body): its ``>`` and one space."""
WIKILINK = re.compile(r"!?\[\[(?P<target>[^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|(?P<alias>[^\[\]\n]+))?\]\]")
"""``[[target|alias]]``, ``[[target#heading]]``, ``![[embed]]``."""
DATED = re.compile(r"(?:^|/)(?P<date>\d{4}-\d{2}-\d{2})(?:\D|$)")
"""A note named by its date (``2026-12-07-inference-E1``, ``briefs/2026-12-07``)."""
MIDDLE_DOT = re.compile(r"\s*[·・]\s*")
FENCE = re.compile(r"^---\s*$")


def is_obsidian(lines: list[Line]) -> bool:
    """A note with properties at the top, a callout or a wikilink to a dated note."""
    first = next((x.text for x in lines if x.text.strip()), "")
    return (
        bool(FENCE.match(first) and _properties_end(lines) is not None)
        or any(CALLOUT.match(x.text) for x in lines)
        or any((m := WIKILINK.search(x.text)) and DATED.search(m["target"]) for x in lines)
    )


def from_obsidian(lines: list[Line]) -> list[Line]:
    """The note as Markdown (see the module), or as it is when it is none of Obsidian's."""
    if not is_obsidian(lines):
        return lines
    end = _properties_end(lines)
    out: list[Line] = []
    in_callout = False
    for k, line in enumerate(lines):
        if end is not None and k <= end:
            out.append(Line(line.number, ""))
            continue
        text = line.text
        if m := CALLOUT.match(text):
            title = m["title"].strip()
            meta = (m["meta"] or "").strip()
            heading = f"{title} ｜{meta}" if meta and title else title or meta or m["type"]
            out.append(Line(line.number, f"{m['indent']}### {_linked(heading)}"))
            in_callout = True
            continue
        if in_callout and (q := BLOCKQUOTE.match(text)):
            text = q["indent"] + text[q.end() :]
        else:
            in_callout = False
        out.append(Line(line.number, _linked(text)))
    return out


def _properties_end(lines: list[Line]) -> int | None:
    """The index of the line that closes the properties block, when the note opens with one."""
    start = next((k for k, x in enumerate(lines) if x.text.strip()), None)
    if start is None or not FENCE.match(lines[start].text):
        return None
    for k in range(start + 1, min(len(lines), start + 40)):
        if FENCE.match(lines[k].text):
            return k
        if lines[k].text.strip() and not re.match(r"^[\w-]+\s*:|^\s+-\s|^\s*$", lines[k].text):
            return None  # not a block of properties: a rule, then prose
    return None


def _linked(text: str) -> str:
    return WIKILINK.sub(_link_text, text)


def _link_text(m: re.Match[str]) -> str:
    target, alias = m["target"].strip(), (m["alias"] or "").strip()
    dated = DATED.search(target)
    if alias and dated and dated["date"] not in alias:
        return f"{dated['date']} {MIDDLE_DOT.sub(' ', alias)}"  # 「昨天·乔」: the day and the writer, as words
    return alias or target
