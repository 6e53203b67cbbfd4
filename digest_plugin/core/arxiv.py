"""arXiv identifiers: what one looks like, how a paper's identity is read from it, where text mentions one.

One module for the whole package, because the same id is checked in a brief (:mod:`model`),
recognised in free text (:mod:`merge`, :mod:`render`, :mod:`importer`) and accepted from a
page author (:mod:`macros`); six copies of the pattern had started to disagree on ``vN``.
"""

from __future__ import annotations

import re

NEW_STYLE = r"\d{4}\.\d{4,5}"
"""YYMM.NNNNN (5 digits after the dot since 2015, 4 before; see :func:`digits_problem`)."""
OLD_STYLE = r"[a-z-]+(?:\.[A-Z]{2})?/\d{7}"
"""archive(.SUBJ)/YYMMNNN, the ids of papers before April 2007."""
VERSION = r"v[1-9]\d*"

ID = re.compile(rf"^(?:{NEW_STYLE}|{OLD_STYLE})(?:{VERSION})?$")
"""A whole arXiv id as a brief writes it in ``arxiv:`` fields (a version suffix is allowed)."""
LOOSE_ID = re.compile(rf"(?:{NEW_STYLE}|{OLD_STYLE})(?:v\d+)?")
"""An id as a page author may write it in ``{{ cite("…") }}`` (full match; ``v0`` tolerated there)."""
MENTION = re.compile(rf"arXiv:({NEW_STYLE})(?:v\d+)?")
"""``arXiv:<new-style id>`` inside brief text; group 1 is the id without its version."""
MENTION_LOOSE = rf"arXiv\s*[:：]\s*(?P<id>{NEW_STYLE}(?:v\d+)?|{OLD_STYLE}(?:v\d+)?)"
"""The same mention as the team types it in Markdown (full-width colon, spaces), for the importer."""

_VERSION_SUFFIX = re.compile(r"v\d+$")
_NEW_STYLE_PARTS = re.compile(r"^(\d{2})(\d{2})\.(\d+)")


def key(arxiv_id: str) -> str:
    """The identity of a paper: its id without a version suffix (1605.08803v2 is 1605.08803)."""
    return _VERSION_SUFFIX.sub("", arxiv_id)


def digits_problem(arxiv_id: str) -> str | None:
    """Why a new-style id cannot exist (month out of range, wrong digit count for its year), or None."""
    m = _NEW_STYLE_PARTS.match(arxiv_id)
    if not m:
        return None
    year, month, digits = int(m.group(1)), int(m.group(2)), len(m.group(3))
    if not 1 <= month <= 12 or digits != (5 if (year, month) >= (15, 1) else 4):
        return f"{arxiv_id!r} is not a valid arXiv id (YYMM.NNNNN: 5 digits after the dot since 2015, 4 before)"
    return None
