"""What a change does to the living doc, as Markdown fit for a pull-request comment.

Pure: two merged states in, text out.  The ``digest diff`` command builds the "before" state from
the data at a git ref and the "after" state from the working tree.  Brief text quoted here is
escaped for Markdown so a title cannot turn into a link, a heading or an @-mention storm, and shows
what the published doc shows (:func:`said`): a claim an open contradiction withholds is 〔暂扣〕 in a
title, a reason or a follow-up, as on the site; the claims themselves are listed once, in their own
section, for the reviewer to weigh.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..core.changes import REMOVALS, Change, differences, topic_changes
from ..core.doc import CitationView, ContradictionView, EntryView, FollowUpView, Hit, LivingDoc, SectionView
from ..core.vocabulary import Vocabulary


def md(text: str) -> str:
    """Markdown-inert text: one line, every Markdown/HTML metacharacter escaped."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_{}\[\]#|<>~@&])", r"\\\1", text)


WITHHELD = "〔暂扣〕"
"""What the site prints for a withheld claim where it gives no link (a figure's value, a plain label)."""


def said(doc: LivingDoc | None, text: str, own: ContradictionView | None = None) -> str:
    """Brief text as ``doc`` publishes it, Markdown-inert: every spelling an open contradiction withholds
    is 〔暂扣〕, but for ``own``'s claims in ``own``'s own line (its callout quotes them, as here)."""
    pattern = doc.withheld_pattern if doc is not None else None
    if pattern is not None and pattern.search(text):
        assert doc is not None

        def mark(m: Hit) -> str:
            mine = own is not None and doc.withheld_by(m.group()).id == own.id
            return m.group() if mine else WITHHELD

        text = pattern.sub(mark, text)
    return md(text)


def diff_docs(before: Mapping[str, LivingDoc], after: Mapping[str, LivingDoc]) -> str:
    """Markdown describing every change from ``before`` to ``after``, topic by topic.

    Both sides are *merged* docs, so what a later brief does to an earlier one (a contradiction
    resolved, a follow-up closed, an entry retracted) shows as the change it is."""
    out: list[str] = ["## 活文档变更 (digest diff)", ""]
    changed = False
    for topic in sorted(set(before) | set(after)):
        lines = _topic_diff(before.get(topic), after.get(topic))
        if lines:
            changed = True
            out += [f"### {md(topic)}", "", *lines, ""]
    if not changed:
        out.append("No change to the living doc.")
    out += _questions(after)
    return "\n".join(out).rstrip() + "\n"


def diff_json(before: Mapping[str, LivingDoc], after: Mapping[str, LivingDoc]) -> dict[str, object]:
    """The same changes as :func:`diff_docs`, for scripts: per topic, each kind of change and its rows
    (the rows the Markdown lists, Markdown-inert text), and the open questions' rows."""
    topics = {}
    for topic in sorted(set(before) | set(after)):
        changes = _topic_changes(before.get(topic), after.get(topic))
        if changes:
            topics[topic] = {label: [row.removeprefix("- ") for row in rows] for label, rows in changes}
    questions = [row.removeprefix("- ") for row in _questions(after) if row.startswith("- ")]
    return {"changed": bool(topics), "topics": topics, "questions": questions}


def _questions(after: Mapping[str, LivingDoc]) -> list[str]:
    """Every open question of the importer in the data as the change leaves it: the site publishes
    each one's safe reading until an editor answers it (``digest review``)."""
    rows = []
    for topic in sorted(after):
        doc = after[topic]
        for brief in doc.briefs:
            for q in brief.questions:
                rows.append(
                    f"- `{q.id}` ({brief.date.isoformat()}) {said(doc, q.ask)} — 确认前按此发布：{said(doc, q.reading)}"
                    f" — `digest review --answer {q.id}=N`"
                )
    if not rows:
        return []
    return ["", f"### 待编辑确认 ({len(rows)})", "", *rows]


HEADINGS = {
    "sections_opened": "Sections opened",
    "sections_removed": "⚠ Sections removed (the brief that opened them was deleted or changed)",
    "sections_retitled": "Sections retitled",
    "entries_added": "Entries added",
    "entries_removed": "⚠ Entries removed (a brief that placed them was deleted or changed)",
    "entries_updated": "Entries updated",
    "entries_retracted": "Entries retracted",
    "entries_moved": "Entries moved",
    "entries_split": "Entries split",
    "errata_applied": "Errata applied (勘误)",
    "evidence_changed": "Evidence changed",
    "contradictions_opened": "Contradictions opened",
    "contradictions_removed": "⚠ Contradictions removed",
    "contradictions_resolved": "Contradictions resolved",
    "contradictions_reopened": "Contradictions re-opened",
    "contradictions_superseded": "Contradictions superseded",
    "contradictions_redisposed": "Contradictions re-judged",
    "claims_withheld": "Claims withheld (shown only in their callout and the register)",
    "claims_released": "Claims released (no longer withheld: their contradiction is no longer open)",
    "citations_added": "Citations added",
    "citations_withdrawn": "Papers withdrawn by their authors (已撤稿; numbers kept)",
    "citations_removed": "⚠ Citations removed (their numbers would be given again)",
    "citations_renumbered": "⚠ Citations renumbered (numbers must never change: fix the data)",
    "follow_ups_opened": "Follow-ups opened",
    "follow_ups_removed": "⚠ Follow-ups removed",
    "follow_ups_closed": "Follow-ups closed",
    "follow_ups_carried": "Follow-ups carried over",
}
"""The heading of each kind of change (:data:`.changes.KINDS`) in the comment: a reviewer's words."""


def _entry_line(doc: LivingDoc | None, e: EntryView, extra: str = "") -> str:
    via = f" (brief `{e.brief.id}`)" if e.brief else ""  # ids are slugs: safe in a code span
    return f"- §{e.section} {said(doc, e.title)}{via}{extra}"


class _Docs(NamedTuple):
    """The two sides of a change: the doc before it (None: the topic is new) and after it."""

    old: LivingDoc | None
    new: LivingDoc

    @property
    def words(self) -> Vocabulary:
        return self.new.vocabulary


def _what_changed(before: EntryView, after: EntryView, docs: _Docs) -> str:
    """「 — 标题「旧」→「新」; 证据 部分核查 → 已核查; 周增 +175 → +58」: what a reader of the entry sees
    change, as its history rows say it (a value an open contradiction withholds is not shown)."""
    changes = []
    for d in differences(before, after):
        if d.what == "title":
            changes.append(f"「{said(docs.old, d.old)}」→「{said(docs.new, d.new)}」")
        elif d.what == "level":
            was_level, now_level = (docs.words.label("evidence_levels", x) for x in (d.old, d.new))
            changes.append(f"{md(was_level)} → {md(now_level)}")
        elif d.what == "figure":
            changes.append(f"{md(d.label)} {'〔暂扣〕' if d.hidden else f'{md(d.old)} → {md(d.new)}'}")
        else:
            changes.append(f"§{d.old} → §{d.new}")
    return " — " + "; ".join(changes) if changes else " — 新的更新（内容未变）"


def _contradiction_line(doc: LivingDoc, c: ContradictionView, extra: str = "") -> str:
    """A contradiction's line: its own claims quoted in its title, as its callout quotes them."""
    name = f"{c.brief.date.isoformat()} 矛盾 {c.contradiction.number}"
    disposition = md(doc.vocabulary.label("dispositions", c.disposition))
    return f"- {name} {said(doc, c.contradiction.title, own=c)} ({disposition}){extra}"


def _settled_by(doc: LivingDoc, c: ContradictionView) -> str:
    event = c.history[-1] if c.history else None
    return f" — {said(doc, event.update.text, own=c)} (brief `{event.brief.id}`)" if event else ""


def _topic_diff(old: LivingDoc | None, new: LivingDoc | None) -> list[str]:
    lines: list[str] = []
    for label, rows in _topic_changes(old, new):
        lines += [f"**{label}**", *rows, ""]
    return lines


_Change = tuple[str, list[str]]
"""(heading, rows): one kind of change and its rows, each row one Markdown list line."""


def _topic_changes(old: LivingDoc | None, new: LivingDoc | None) -> list[_Change]:
    """(heading, rows) of every kind of change with rows (:func:`.changes.topic_changes`); a row is
    one Markdown list line."""
    if new is None:
        return [("Topic removed", ["- topic removed"])]
    docs = _Docs(old, new)
    return [(HEADINGS[kind], [_row(row, docs) for row in rows]) for kind, rows in topic_changes(old, new).kinds]


def _by(view: SectionView) -> str:
    """「 (brief `…`)」 after a section a brief opened; nothing after one of the outline's own."""
    return f" (brief `{view.opened_by.id}`)" if view.opened_by else ""


def _row(change: Change[Any], docs: _Docs) -> str:
    """One Markdown list line of a change, its text quoted as the side it comes from publishes it."""
    kind, now = change.kind, change.now
    old, new = docs.old, docs.new
    if kind.startswith("sections_"):
        if kind == "sections_retitled":
            return f"- §{now.number} {said(old, change.before.section.title or '')} → {said(new, now.section.title or '')}{_by(now)}"
        return f"- §{now.number} {said(old if kind in REMOVALS else new, now.section.title or '')}{_by(now)}"
    if kind.startswith("entries_") or kind in ("errata_applied", "evidence_changed"):
        return _entry_line(old if kind in REMOVALS else new, now, _entry_extra(change, docs))
    if kind.startswith("contradictions_"):
        if kind == "contradictions_removed":
            assert old is not None, "only a doc before the change can lose a contradiction"
            return _contradiction_line(old, now)
        if kind == "contradictions_opened":
            return _contradiction_line(new, now)
        return _contradiction_line(new, now, _settled_by(new, now))
    if kind.startswith("claims_"):
        return f"- “{md(now.spelling)}” — 矛盾 {now.by.contradiction.number} ({now.by.brief.date.isoformat()})"
    if kind == "citations_renumbered":
        return f"- arXiv:{md(now.citation.arxiv)}: [{change.before.number}] → [{now.number}]"
    if kind.startswith("citations_"):
        line = _citation_line(old if kind in REMOVALS else new, now)
        return f"{line} (brief `{now.withdrawn_in.id}`)" if kind == "citations_withdrawn" else line
    return _follow_up_line(old if kind in REMOVALS else new, now)


def _entry_extra(change: Change[Any], docs: _Docs) -> str:
    """The text after an entry's line: what changed in it, by the kind of change."""
    kind, e = change.kind, change.now
    if kind == "entries_updated":
        return _what_changed(change.before, e, docs)
    if kind == "entries_retracted":
        return f" — {said(docs.new, e.retraction.reason)}"
    if kind == "entries_moved":
        return f" — from §{change.before.section}"
    if kind == "entries_split":
        return " → " + ", ".join(f"`{p}`" for p in e.split_into)
    if kind == "errata_applied":
        assert change.erratum is not None
        x, b = change.erratum
        return f" — “{said(docs.new, x.old)}” → “{said(docs.new, x.new)}” (brief `{b.id}`)"
    if kind == "evidence_changed":
        was_level, now_level = (docs.words.label("evidence_levels", x.evidence.level) for x in (change.before, e))
        return f": {md(was_level)} → {md(now_level)}"
    return ""


def _citation_line(doc: LivingDoc | None, v: CitationView) -> str:
    """「- [528] arXiv:1605.08803 title」: the number first, as the doc cites it."""
    return f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {said(doc, v.citation.title)}"


def _follow_up_line(doc: LivingDoc | None, f: FollowUpView) -> str:
    """「- E2 text (status: the last update's note)」: the note says why it closed or moved on."""
    note = f.history[-1].update.note if f.history else None
    text = f"- {md(f.follow_up.round)} {said(doc, f.follow_up.text)} ({f.status.label}"
    return text + (f": {said(doc, note)})" if note else ")")
