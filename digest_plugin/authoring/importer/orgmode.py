"""A brief written in Emacs Org mode, rewritten line by line into the Markdown the readers read.

Org is a plain-text format of its own (https://orgmode.org/manual/): ``#+TITLE:`` keywords instead of
a title line, headlines made of stars (``** …``), fields in property drawers (``:PROPERTIES:`` …
``:END:``, one ``:KEY: value`` a line), timestamps in brackets (``[2026-12-08 Tue]``), links as
``[[url][text]]``, TODO keywords before a headline's text (``** DONE …``, others declared by a
``#+TODO:`` line).  None of it is the writer's meaning, so, before the parts are read:

* ``#+TITLE: t`` is the title line, ``#+AUTHOR: a`` the byline 「作者：a」 (with ``#+DATE:``'s date, 「作者：a ·
  2026-10-22」); other keywords stay text;
* a headline of N stars is a Markdown heading of N ``#``, its tags and priority cookie (``[#A]``) dropped;
  a TODO keyword stands after the headline's number (``⑵ KILL …``), as a status word (``wordings:
  follow_up_*``) is read;
* a property ``:KEY: value`` is the bold label ``**KEY**：value`` (read as any label is: a known one,
  or an unknown one by its characters, what it holds or its place, and marked); the drawer's
  ``:PROPERTIES:`` and ``:END:`` lines are blank;
* a timestamp is its date (and time); a link ``[[url][text]]`` is 「text（url）」;
* a table's rule row ``|---+---|`` is a Markdown rule row; ``#+BEGIN_…`` / ``#+END_…`` lines are blank.

Only a file with an Org keyword line (``#+TITLE:`` …) or a property drawer is read as Org: in
Markdown, ``* `` is a bullet.  Every line keeps its number, so findings point at the file as written.
"""

from __future__ import annotations

import re

from .common import Line, marker_after_number

KEYWORD = re.compile(r"^#\+(?P<key>[A-Za-z_]+):\s*(?P<value>.*)$")
DRAWER = re.compile(r"^\s*:(?:PROPERTIES|END|LOGBOOK):\s*$", re.I)
PROPERTY = re.compile(r"^(?P<indent>\s*):(?P<key>[^\s:]{1,24}):(?:\s+(?P<value>.*))?$")
HEADLINE = re.compile(r"^(?P<stars>\*+)\s+(?P<text>.*?)(?:\s+(?P<tags>:[\w@#%:]+:))?\s*$")
TIMESTAMP = re.compile(
    r"[\[<](?P<date>\d{4}-\d{2}-\d{2})(?:\s+[^\]>\d\s]{1,9})?(?:\s+(?P<time>\d{1,2}:\d{2})(?:-\d{1,2}:\d{2})?)?[\]>]"
)
PRIORITY = re.compile(r"(?:(?<=\s)|^)\[#[A-Z0-9]\]\s+")
"""A headline's priority cookie, ``[#A]``: the task's rank, not its text."""
LINK = re.compile(r"\[\[(?P<url>[^\[\]]+)\](?:\[(?P<text>[^\[\]]+)\])?\]")
RULE_ROW = re.compile(r"^\s*\|[-+|: ]+\|?\s*$")
BLOCK = re.compile(r"^\s*#\+(?:BEGIN|END)_\w+", re.I)
DEFAULT_KEYWORDS = ("TODO", "DONE")


def is_org(lines: list[Line]) -> bool:
    """An Org file: a ``#+KEY:`` line, or a property drawer."""
    return any(KEYWORD.match(x.text) or x.text.strip().upper() == ":PROPERTIES:" for x in lines)


def from_org(lines: list[Line]) -> list[Line]:
    """The file as Markdown (see the module), or as it is when it is no Org file."""
    if not is_org(lines):
        return lines
    keywords = _todo_keywords(lines)
    dated = _dated_byline(lines)
    out = []
    for line in lines:
        out.append(Line(line.number, dated.get(line.number, _line(line.text, keywords))))
    return out


def _dated_byline(lines: list[Line]) -> dict[int, str]:
    """``#+AUTHOR:`` and ``#+DATE:`` as one byline, 「作者：a · 2026-10-22 22:00」 (the date's line blank), as
    the team's byline carries both; {} when the file lacks either."""
    found = {m["key"].upper(): (x.number, m["value"]) for x in lines if (m := KEYWORD.match(x.text))}
    if "AUTHOR" not in found or "DATE" not in found:
        return {}
    (author_line, author), (date_line, date) = found["AUTHOR"], found["DATE"]
    return {author_line: f"作者：{author} · {_inline(date)}", date_line: ""}


def _todo_keywords(lines: list[Line]) -> tuple[str, ...]:
    """The TODO keywords the file declares (``#+TODO: TODO WAIT | DONE KILL``), or Org's default."""
    declared: list[str] = []
    for line in lines:
        m = KEYWORD.match(line.text)
        if m and m["key"].upper() in ("TODO", "SEQ_TODO", "TYP_TODO"):
            declared += [re.sub(r"\(.*\)$", "", w) for w in m["value"].split() if w != "|"]
    return tuple(declared) or DEFAULT_KEYWORDS


def _line(text: str, keywords: tuple[str, ...]) -> str:
    if m := KEYWORD.match(text):
        key = m["key"].upper()
        if key == "TITLE":
            return m["value"]
        if key == "AUTHOR":
            return f"作者：{m['value']}"
        if key.startswith(("BEGIN_", "END_")):
            return ""
        return _inline(text)
    if DRAWER.match(text) or BLOCK.match(text):
        return ""
    if m := PROPERTY.match(text):
        return f"{m['indent']}**{m['key']}**：{_inline(m['value'] or '')}".rstrip()
    if m := HEADLINE.match(text):
        headline = _with_keyword_after_number(_inline(PRIORITY.sub("", m["text"])), keywords)
        return "#" * len(m["stars"]) + " " + headline
    if RULE_ROW.match(text):
        return text.replace("+", "|")
    return _inline(text)


def _with_keyword_after_number(text: str, keywords: tuple[str, ...]) -> str:
    """``KILL ⑵ text`` → ``⑵ KILL text`` (:func:`.common.marker_after_number`), for the file's TODO keywords."""
    first, _, rest = text.partition(" ")
    return marker_after_number(first, rest) if first in keywords else text


def _inline(text: str) -> str:
    text = TIMESTAMP.sub(lambda m: m["date"] + (f" {m['time']}" if m["time"] else ""), text)
    return LINK.sub(lambda m: f"{m['text']}（{m['url']}）" if m["text"] else m["url"], text)
