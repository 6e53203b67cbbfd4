"""`digest import`: the team's Markdown brief → brief YAML, with every doubt marked for the editor.

The team writes each night's brief as Markdown in a fixed pattern (see
``tests/fixtures/2026-10-21-inference-E1.md``): a header, 一 the day's items (条目) with
来源 / 要点 / 证据边界 / 与活文档脉络的关系 / 建议归入, 二 contradictions, 三 arXiv ids,
四 conclusions and follow-ups.  This module turns that pattern into the YAML the build loads.

Three kinds of fields come out:

* fields the text *gives* — a path, a § number, a keyword such as 付费墙 or 原地更新 — are read
  by the named rules below and written without comment;
* fields the text only *suggests* — a contradiction that names the same product as an item, a
  year that only appears in another section's prose — are filled in, but each one carries a
  ``# digest-import: …`` comment in the YAML and an :class:`ImportNote`, so a person
  confirms it rather than trusting a guess;
* fields nothing in the text decides are left empty (or set to their safest value, such as
  evidence level ``unverified``) and marked the same way.  An empty required field makes
  ``digest check`` fail on that very line, which keeps an unreviewed gap off the site.

Nothing in the brief is dropped: text the importer cannot place goes to the item's ``notes``
inside an item, and is quoted in a warning and a comment everywhere else.

Ids are not in the text.  They are derived from the brief's date, round and the number the
brief gives (``2026-10-21-e1-item-1``, ``-c1``, ``-f1``), the same stems ``digest new`` uses.
"""

from __future__ import annotations

__all__ = ["FILE_NAME", "MARK", "SCHEMA_LINE", "ImportNote", "Imported", "import_brief", "import_full", "normalized"]

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...core.model import Brief, Outline
from ...core.vocabulary import Vocabulary, default_file
from . import lunar
from .backrefs import History
from .citations import read_citations
from .common import MARK, SCHEMA_LINE, Code, Draft, ImportNote, Line
from .conclusions import read_conclusions
from .contradictions import propose_patterns, read_contradictions
from .earlier import with_brief_entries
from .emit import emit_brief, reorder
from .header import FILE_NAME, id_stem, read_header
from .items import read_items
from .links import link_references
from .markdown import normalized, split_parts
from .numbering import check_counts, validate_brief
from .obsidian import from_obsidian
from .orgmode import from_org
from .outliner import unexported
from .pandoc import from_pandoc
from .reshape import read_reshape
from .restructured import from_rst
from .safe import settle
from .unread import mark_unread
from .updates import read_updates


def _questions(brief: dict[str, Any], stem: str, draft: Draft) -> None:
    """The questions, numbered, under ``questions:``; each marks the value its answer writes."""
    for n, question in enumerate(draft.questions, 1):
        qid = Code(f"{stem}-q{n}")
        draft.comments.setdefault(question.at, []).append(f"[{qid}] {question.ask}; until answered: {question.reading}")
        entry: dict[str, Any] = {
            "id": qid,
            "at": question.place(),
            "ask": question.ask,
            "reading": question.reading,
            "context": question.context,
            "line": question.line,
            "choices": [{"label": label, "set": dict(keys)} for label, keys in question.choices],
        }
        brief.setdefault("questions", []).append(entry)


@dataclass(frozen=True)
class Imported:
    """What an import gives: the brief's YAML, what the editor must check, and the new words the
    brief used (by vocabulary: proposed code → label) for the site's vocabulary file."""

    text: str
    notes: list[ImportNote]
    new_words: dict[str, dict[str, str]]


def import_brief(
    markdown: str,
    *,
    outline: Outline | None = None,
    known_briefs: Iterable[Brief] = (),
    vocabulary: Vocabulary | None = None,
) -> tuple[str, list[ImportNote]]:
    """:func:`import_full` without the new words (for callers that keep no vocabulary file)."""
    done = import_full(markdown, outline=outline, known_briefs=known_briefs, vocabulary=vocabulary)
    return done.text, done.notes


def import_full(
    markdown: str,
    *,
    outline: Outline | None = None,
    known_briefs: Iterable[Brief] = (),
    vocabulary: Vocabulary | None = None,
    name: str | None = None,
) -> Imported:
    """Markdown text of a brief → YAML text of the brief, plus warnings (never raises on content).

    ``outline`` lets the importer name existing entries (update in place, "after", touches) and
    check § numbers; ``known_briefs`` keeps derived ids unique across the data folder; ``name`` is the
    file's name without its suffix, where the header gives no date, topic or round."""
    known_briefs = sorted(known_briefs, key=lambda b: (b.date, b.id))
    draft = Draft(words=vocabulary or Vocabulary(default_file()), earlier=known_briefs)
    relative = {act: draft.words.phrases(act) for act in ("yesterday", "day_before", "three_back", "previous_round")}
    history = History(known_briefs, outline, relative, draft.words.named_days())
    outline = with_brief_entries(outline, known_briefs)
    written = [Line(n, line) for n, line in enumerate(normalized(markdown).split("\n"), 1)]
    lines = unexported(from_obsidian(from_org(from_rst(from_pandoc(written)))))
    parts = split_parts(lines, draft)
    brief: dict[str, Any] = {"schema": 1}
    brief.update(read_header(parts[0], draft, name))
    header_day = brief.get("date") if isinstance(brief.get("date"), dt.date) else None
    history.lunar_months = lunar.month_starts("\n".join(line.text for line in parts[0].lines), header_day)
    stem = id_stem(brief, known_briefs)
    items: list[dict[str, Any]] = []
    for part in parts[1:]:
        if part.kind == "items":
            brief["items_heading"] = part.heading
            items = read_items(part, stem, outline, draft)
        elif part.kind == "contradictions":
            today = brief.get("date") if isinstance(brief.get("date"), dt.date) else None
            brief.update(read_contradictions(part, stem, draft, today, history))
        elif part.kind == "citations":
            brief.update(read_citations(part, draft))
        elif part.kind == "conclusions":
            today = brief.get("date") if isinstance(brief.get("date"), dt.date) else None
            brief.update(read_conclusions(part, stem, brief.get("round"), draft, today, history))
    brief["items"] = items
    propose_patterns(brief, draft)
    link_references(brief, outline, draft)
    read_updates(brief, draft, history)
    read_reshape(brief, outline, history, draft)
    settle(brief, outline, history, draft)
    mark_unread(brief, history, draft)
    _questions(brief, stem, draft)
    check_counts(brief, parts, draft)
    validate_brief(brief, draft)
    text = emit_brief(reorder(brief, Brief), draft.comments)
    return Imported(text, sorted(draft.warnings, key=lambda w: w.line), draft.proposed)
