"""`digest review`: the editor answers the importer's questions without opening the YAML.

An import that cannot decide a reading writes the safe one into the brief and a ``questions:``
entry beside it (see :class:`.model.Question`): where the answer goes (``at``), what is asked, the
brief's own words and the ranked candidates, each with the keys it writes.  This module lists the
open questions (for the editor, and for the pull-request comment) and writes an answer: the chosen
candidate's keys into the value at ``at``, the question out of ``questions:``, and the
``# digest-import:`` lines that marked that value out of the file — round-trip, so every other
comment, the key order and the quoting stay, validated against the whole data folder and written
atomically (:func:`.edit.edit_brief`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from ..core.model import CODE, SLUG, Brief, Question, place_path
from .edit import Checks, EditError, edit_brief, q
from .importer.common import MARK

KEEP = "keep"
"""The answer that keeps the safe reading the import wrote (the question goes, the data stays)."""


@dataclass(frozen=True)
class OpenQuestion:
    """A question still open in a brief file."""

    path: Path
    brief: Brief
    question: Question


def open_questions(briefs: list[tuple[Path, Brief]]) -> list[OpenQuestion]:
    """Every open question, in (date, brief, question) order."""
    found = [OpenQuestion(path, b, qu) for path, b in briefs for qu in b.questions]
    return sorted(found, key=lambda o: (o.brief.date, o.brief.id, o.brief.questions.index(o.question)))


def as_text(found: list[OpenQuestion], root: Path) -> str:
    """The questions as the editor reads them in a terminal, and the command that answers each."""
    if not found:
        return "no open questions\n"
    out = []
    for o in found:
        where = o.path.relative_to(root) if o.path.is_relative_to(root) else o.path
        qu = o.question
        out.append(f"{where}: {qu.id} 待编辑确认: {qu.ask}")
        if qu.context:
            out.append(f"  the brief{f' (line {qu.line})' if qu.line else ''}: «{' '.join(qu.context.split())}»")
        out.append(f"  until answered: {qu.reading}")
        for rank, choice in enumerate(qu.choices, 1):
            out.append(f"  {rank}. {choice.label}")
        out.append(f"  answer: digest review --answer {qu.id}=N  (or ={KEEP} to keep what the data says)")
        out.append("")
    return "\n".join(out)


def as_json(found: list[OpenQuestion], root: Path) -> str:
    """The questions as data, for the pull-request comment and for scripts."""
    rows: list[dict[str, Any]] = []
    for o in found:
        row = o.question.model_dump(mode="json", exclude_none=True)
        where = o.path.relative_to(root) if o.path.is_relative_to(root) else o.path
        rows.append({"file": str(where), "brief": o.brief.id, **row})
    return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"


def answer(
    path: Path, question_id: str, choice: str, *, data_dir: Path | None = None, checks: Checks | None = None
) -> str:
    """Write the answer ``choice`` (a candidate's rank, from 1, or ``keep``) to ``question_id`` in the
    brief at ``path``.  Returns the new text; raises :class:`.edit.EditError` writing nothing when
    the question or the choice does not exist or the answered brief would not validate."""
    marked: list[list[str | int]] = []

    def change(tree: CommentedMap) -> None:
        questions = tree.get("questions") or []
        index = next((i for i, x in enumerate(questions) if x.get("id") == question_id), None)
        if index is None:
            raise EditError(f"{path}: no open question {question_id!r}")
        asked = questions[index]
        choices = asked.get("choices") or []
        if choice != KEEP:
            if not choice.isdigit() or not 1 <= int(choice) <= len(choices):
                raise EditError(
                    f"{question_id}: answer with a number from 1 to {len(choices)}, or {KEEP} (got {choice!r})"
                )
            target = _at(tree, place_path(asked["at"]), question_id)
            for key, value in (choices[int(choice) - 1].get("set") or {}).items():
                if value is None:
                    target.pop(key, None)
                else:
                    # ids and codes unquoted, like the rest of a brief's; text double-quoted
                    plain = isinstance(value, str) and (SLUG.fullmatch(value) or CODE.fullmatch(value))
                    target[key] = q(value) if isinstance(value, str) and not plain else value
        marked.append(place_path(asked["at"]))
        del questions[index]
        if not questions:
            del tree["questions"]

    return edit_brief(
        path, change, data_dir=data_dir, checks=checks, finish=lambda text: _unmark(text, marked[0], question_id)
    )


def _at(tree: CommentedMap, path: list[str | int], question_id: str) -> CommentedMap:
    node: Any = tree
    for step in path:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            raise EditError(f"{question_id}: the brief has no {step!r} where the question points") from None
    if not isinstance(node, CommentedMap):
        raise EditError(f"{question_id}: the question points at a value, not at a mapping the answer can write")
    return node


def _unmark(text: str, path: list[str | int], question_id: str) -> str:
    """``text`` without the ``# digest-import:`` lines inside the value at ``path`` (they marked the
    reading the editor has now decided), nor the one naming the question anywhere else."""
    lines = text.split("\n")
    first, last = _span(text, path)
    kept = [
        line
        for n, line in enumerate(lines)
        if not (line.lstrip().startswith(f"# {MARK}:") and (first <= n <= last or f"[{question_id}]" in line))
    ]
    return "\n".join(kept)


def _span(text: str, path: list[str | int]) -> tuple[int, int]:
    """First and last line (0-based) of the value at ``path`` in ``text``; the comment lines that
    precede the next value belong to that value, not to this one."""
    tree = YAML().load(text)
    lines = text.split("\n")
    start, end = 0, len(lines) - 1
    node: Any = tree
    for depth, step in enumerate(path):
        parent, node = node, node[step]
        line = parent.lc.key(step)[0] if isinstance(step, str) else parent.lc.item(step)[0]
        if depth == len(path) - 1:
            start = line
        keys = list(parent.keys()) if isinstance(parent, CommentedMap) else list(range(len(parent)))
        at = keys.index(step)
        if at + 1 < len(keys):
            after = keys[at + 1]
            nxt = parent.lc.key(after)[0] if isinstance(parent, CommentedMap) else parent.lc.item(after)[0]
            end = min(end, nxt - 1)
    while end > start and lines[end].lstrip().startswith("#"):
        end -= 1
    while start > 0 and lines[start - 1].lstrip().startswith(f"# {MARK}:"):
        start -= 1  # the import writes a value's marks on the lines above its key
    return start, end


def parse_answer(text: str) -> tuple[str, str]:
    """``ID=CHOICE`` → (id, choice)."""
    question_id, sep, choice = text.partition("=")
    if not sep or not question_id or not choice:
        raise EditError(f"--answer {text!r}: write it as ID=N or ID={KEEP}")
    return question_id.strip(), choice.strip()


__all__ = [
    "KEEP",
    "OpenQuestion",
    "answer",
    "as_json",
    "as_text",
    "open_questions",
    "parse_answer",
]
