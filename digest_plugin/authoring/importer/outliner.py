"""A brief exported from an outliner (Logseq, Roam …), rewritten into the Markdown the readers read.

Some writers keep their notes in an outliner and export the brief as it is: every paragraph is a
bullet, an item is a top-level bullet whose fields are **property lines** indented under it
(``成色:: 高价值``), earlier nights are **page links** (``[[12-04]]``), and a list of points is the
children of a child bullet (``- 说了啥`` and its bullets).  Nothing of this is the writer's meaning;
it is how the tool stores a page.  So, before the parts are read:

* a page link is its page's name (``[[12-04]] No.1`` is ``12-04 No.1``, read as any date);
* a property line is a bold label and its text (``**成色**：高价值``), read as any label is
  (an unknown one by its characters, what it holds or its place, and marked);
* a task's marker (``DONE ⑶ …``, ``LATER L1 …``) stands after the entry's number, as a status word;
* a bullet with bullets under it heads them, as a line ending in a colon does (``- 翻旧账`` is
  ``- 翻旧账：``);

and, in part 一 (:func:`outlined_items`), a top-level bullet with at least two property lines under it
is an item: it becomes an item heading numbered by its tag (``#增1`` is item 1) or its place, and its
children are lifted one level.  A child bullet with no text of its own but bullets under it
(``- 说了啥``) is a label whose text is those bullets.

Only a brief with at least :data:`LEAST` property lines is read as an export (a colon pair in a
normal brief is text).  Every rewritten line keeps its number, so findings point at the brief as
written; nothing is dropped.
"""

from __future__ import annotations

import re

from .common import Line, marker_after_number

PROPERTY = re.compile(r"^(?P<indent>\s*)(?:[-*]\s+)?(?P<key>[^\s:：\[\]*#`|]{1,12})::(?:\s+(?P<value>.*))?$")
"""``key:: value``, Logseq's (and Roam's) property line, alone on its line or as a bullet."""
PAGE_LINK = re.compile(r"\[\[(?P<page>[^\[\]\n]+)\]\]")
"""``[[page]]``: a link to another page of the outliner (a night, a person, a term)."""
LEAST = 3
"""How many property lines make a brief an outliner's export."""
TASK = re.compile(
    r"^(?P<lead>\s*[-*]\s+)(?P<marker>TODO|DOING|LATER|NOW|DONE|CANCELED|CANCELLED|WAITING|WAIT|IN-PROGRESS)\s+(?P<rest>.*)$"
)
"""A bullet led by a Logseq task marker (``DONE ⑶ …``): the marker goes after the entry's number
(:func:`.common.marker_after_number`)."""
PARENT = re.compile(r"^(?P<lead>\s*[-*]\s+)(?P<text>[^：:]*?[^\s：:])\s*$")
"""A bullet with no colon in it: when bullets follow it, deeper, it heads them."""

TOP_BULLET = re.compile(r"^[-*]\s+(?:[#＃](?P<tag>[^\s\d#＃]{0,6}?)(?P<number>\d{1,2})(?!\d)\s+)?(?P<title>\S.*)$")
"""A top-level bullet, with a tag that numbers it (``#增1 …``, ``#3 …``) or none."""
LABEL_LINE = re.compile(r"^\s+\*\*[^*]+\*\*：")
CHILD_BULLET = re.compile(r"^(?P<indent>\s+)[-*]\s+(?P<text>\S.*)$")


def unexported(lines: list[Line]) -> list[Line]:
    """The brief with its page links and property lines rewritten (see the module), or as it is when
    it is no outliner's export."""
    if sum(1 for x in lines if PROPERTY.match(x.text)) < LEAST:
        return lines
    out = []
    for i, line in enumerate(lines):
        text = PAGE_LINK.sub(r"\g<page>", line.text)
        if m := PROPERTY.match(text):
            text = f"{m['indent']}**{m['key']}**：{m['value'] or ''}".rstrip()
        elif m := TASK.match(text):
            text = m["lead"] + marker_after_number(m["marker"], m["rest"])
        elif (m := PARENT.match(text)) and _has_children(lines, i):
            text = f"{m['lead']}{m['text']}："  # a bullet that heads the bullets under it, as a colon heads a list
        out.append(Line(line.number, text))
    return out


def _has_children(lines: list[Line], i: int) -> bool:
    """The next line with text is a bullet indented deeper than line ``i``."""
    indent = len(lines[i].text) - len(lines[i].text.lstrip())
    nxt = next((x.text for x in lines[i + 1 :] if x.text.strip()), "")
    return bool(CHILD_BULLET.match(nxt)) and len(nxt) - len(nxt.lstrip()) > indent


def outlined_items(lines: list[Line]) -> list[Line]:
    """Part 一's top-level bullets that carry at least two property lines (now bold labels) as items:
    「- #增1 title」 → 「#增1 title」 (「- title」 → 「条目 N：title」, N its place), and the lines under it lifted one
    level; other lines as they are."""
    starts = [i for i, x in enumerate(lines) if TOP_BULLET.match(x.text) and _labelled_children(lines, i) >= 2]
    if not starts:
        return lines
    out = list(lines[: starts[0]])
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        m = TOP_BULLET.match(lines[start].text)
        assert m is not None  # (chosen by it)
        tagged = f"#{m['tag']}{m['number']} {m['title']}" if m["tag"] and m["number"] else None  # 「#增1 …」 kept
        out.append(Line(lines[start].number, tagged or f"条目 {m['number'] or k + 1}：{m['title']}"))
        out.extend(_lifted(lines[start + 1 : end]))
    return out


def _labelled_children(lines: list[Line], start: int) -> int:
    count = 0
    for line in lines[start + 1 :]:
        if line.text.strip() and not line.text[:1].isspace():
            break
        count += bool(LABEL_LINE.match(line.text))
    return count


def _lifted(body: list[Line]) -> list[Line]:
    """An item's children one level up: the first child's indent removed from each line; a child bullet
    with no colon and deeper bullets under it becomes the bold label of those bullets, and any other
    child bullet a paragraph of its own (it is a block beside the fields, not a point)."""
    indents = [len(x.text) - len(x.text.lstrip()) for x in body if x.text.strip()]
    step = min(indents, default=0)
    out = []
    for i, line in enumerate(body):
        text = line.text[step:] if line.text[:step].isspace() else line.text.lstrip()
        m = CHILD_BULLET.match(line.text)
        deeper = next((x for x in body[i + 1 :] if x.text.strip()), None)
        if (
            m is not None
            and len(m["indent"]) == step
            and "：" not in m["text"].rstrip("：")
            and ":" not in m["text"]
            and deeper is not None
            and CHILD_BULLET.match(deeper.text)
            and len(deeper.text) - len(deeper.text.lstrip()) > step
        ):
            text = f"**{m['text'].strip().rstrip('：')}**："
        elif m is not None and len(m["indent"]) == step:
            out.append(Line(line.number, ""))  # a block of its own beside the fields (「- 剔除：…」): a paragraph
            text = m["text"]
        out.append(Line(line.number, text))
    return out
