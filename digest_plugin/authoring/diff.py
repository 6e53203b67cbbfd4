"""What a change does to the living doc, as Markdown fit for a pull-request comment.

Pure: two merged states in, text out.  The ``digest diff`` command builds the "before" state from
the data at a git ref and the "after" state from the working tree.  Brief text quoted here is
escaped for Markdown so a title cannot turn into a link, a heading or an @-mention storm.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..core.doc import ContradictionView, EntryView, FollowUpView, LivingDoc
from ..core.model import FollowUpStatus, Status
from ..core.vocabulary import Vocabulary


def md(text: str) -> str:
    """Markdown-inert text: one line, every Markdown/HTML metacharacter escaped."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_{}\[\]#|<>~@&])", r"\\\1", text)


def _entry_state(doc: LivingDoc) -> dict[str, tuple[object, ...]]:
    """What a reader sees change: section, last brief, history length, the item itself."""
    return {e.id: (e.section, e.brief.id if e.brief else None, len(e.history), e.item) for e in doc.entries.values()}


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
        for brief in after[topic].briefs:
            for q in brief.questions:
                rows.append(
                    f"- `{q.id}` ({brief.date.isoformat()}) {md(q.ask)} — 确认前按此发布：{md(q.reading)}"
                    f" — `digest review --answer {q.id}=N`"
                )
    if not rows:
        return []
    return ["", f"### 待编辑确认 ({len(rows)})", "", *rows]


def _section_order(entry: EntryView) -> tuple[list[int], str]:
    return [int(p) for p in entry.section.split(".")], entry.id


def _entry_line(e: EntryView, extra: str = "") -> str:
    via = f" (brief `{e.brief.id}`)" if e.brief else ""  # ids are slugs: safe in a code span
    return f"- §{e.section} {md(e.title)}{via}{extra}"


def _what_changed(before: EntryView, after: EntryView, words: Vocabulary) -> str:
    """「 — 标题「旧」→「新」; 证据 部分核查 → 已核查; 周增 +175 → +58」: what a reader of the entry sees
    change, as its history rows say it (a value an open contradiction withholds is not shown)."""
    changes = []
    was_title = before.item.title if before.item else before.title
    now_title = after.item.title if after.item else after.title
    if was_title != now_title:
        changes.append(f"「{md(was_title)}」→「{md(now_title)}」")
    if before.evidence is not None and after.evidence is not None and before.evidence.level != after.evidence.level:
        was_level = words.label("evidence_levels", before.evidence.level)
        now_level = words.label("evidence_levels", after.evidence.level)
        changes.append(f"{md(was_level)} → {md(now_level)}")
    old_figures = {f.key: f for f in before.figures}
    for figure in after.figures:
        old = old_figures.get(figure.key)
        if old is None or str(old.current.value) == str(figure.current.value):
            continue
        hidden = figure.withheld_by is not None or old.withheld_by is not None
        shown = "〔暂扣〕" if hidden else f"{md(str(old.current.value))} → {md(str(figure.current.value))}"
        changes.append(f"{md(figure.label)} {shown}")
    if before.section != after.section:
        changes.append(f"§{before.section} → §{after.section}")
    return " — " + "; ".join(changes) if changes else " — 新的更新（内容未变）"


def _contradiction_line(words: Vocabulary, c: ContradictionView, extra: str = "") -> str:
    name = f"{c.brief.date.isoformat()} 矛盾 {c.contradiction.number}"
    return f"- {name} {md(c.contradiction.title)} ({md(words.label('dispositions', c.disposition))}){extra}"


def _settled_by(c: ContradictionView) -> str:
    event = c.history[-1] if c.history else None
    return f" — {md(event.update.text)} (brief `{event.brief.id}`)" if event else ""


def _topic_diff(old: LivingDoc | None, new: LivingDoc | None) -> list[str]:
    lines: list[str] = []
    for label, rows in _topic_changes(old, new):
        lines += [f"**{label}**", *rows, ""]
    return lines


def _topic_changes(old: LivingDoc | None, new: LivingDoc | None) -> list[tuple[str, list[str]]]:
    """(heading, rows) of every kind of change with rows; a row is one Markdown list line."""
    if new is None:
        return [("Topic removed", ["- topic removed"])]
    sections: list[tuple[str, list[str]]] = []
    was_sections = old.sections if old else {}
    sections.append(
        (
            "Sections opened",
            [
                f"- §{v.number} {md(v.section.title or '')} (brief `{v.opened_by.id}`)"
                for v in new.sections.values()
                if v.opened_by is not None and v.number not in was_sections
            ],
        )
    )
    sections.append(
        (
            "⚠ Sections removed (the brief that opened them was deleted or changed)",
            [
                f"- §{v.number} {md(v.section.title or '')}" + (f" (brief `{v.opened_by.id}`)" if v.opened_by else "")
                for v in was_sections.values()
                if v.number not in new.sections
            ],
        )
    )
    sections.append(
        (
            "Sections retitled",
            [
                f"- §{v.number} {md(was_sections[v.number].section.title or '')} → {md(v.section.title or '')}"
                + (f" (brief `{v.opened_by.id}`)" if v.opened_by else "")
                for v in new.sections.values()
                if v.number in was_sections and was_sections[v.number].section.title != v.section.title
            ],
        )
    )
    old_entries = _entry_state(old) if old else {}
    new_entries = _entry_state(new)
    was = old.entries if old else {}
    entries = sorted(new.entries.values(), key=_section_order)
    sections.append(("Entries added", [_entry_line(e) for e in entries if e.id not in was]))
    gone = sorted((e for e in was.values() if e.id not in new.entries), key=_section_order)
    sections.append(
        ("⚠ Entries removed (a brief that placed them was deleted or changed)", [_entry_line(e) for e in gone])
    )
    sections.append(
        (
            "Entries updated",
            [
                _entry_line(e, _what_changed(was[e.id], e, new.vocabulary))
                for e in entries
                if e.id in was and new_entries[e.id] != old_entries[e.id]
            ],
        )
    )
    sections.append(
        (
            "Entries retracted",
            [
                _entry_line(e, f" — {md(e.retraction.reason)}")
                for e in entries
                if e.retraction is not None and (e.id not in was or not was[e.id].retracted)
            ],
        )
    )
    sections.append(
        (
            "Entries moved",
            [
                _entry_line(e, f" — from §{was[e.id].section}")
                for e in entries
                if e.id in was and was[e.id].section != e.section
            ],
        )
    )
    sections.append(
        (
            "Entries split",
            [
                _entry_line(e, " → " + ", ".join(f"`{p}`" for p in e.split_into))
                for e in entries
                if e.split_into and (e.id not in was or not was[e.id].split_into)
            ],
        )
    )
    sections.append(
        (
            "Errata applied (勘误)",
            [
                _entry_line(e, f" — “{md(x.old)}” → “{md(x.new)}” (brief `{b.id}`)")
                for e in entries
                for x, b in e.errata
                if e.id not in was or (x, b) not in was[e.id].errata
            ],
        )
    )
    levels = []
    for e in entries:
        before = was[e.id].evidence if e.id in was else None
        if before is not None and e.evidence is not None and before.level != e.evidence.level:
            was_level, now_level = (
                new.vocabulary.label("evidence_levels", x) for x in (before.level, e.evidence.level)
            )
            levels.append(_entry_line(e, f": {md(was_level)} → {md(now_level)}"))
    sections.append(("Evidence changed", levels))

    old_c = {c.id: c for c in old.contradictions} if old else {}
    opened: list[ContradictionView] = []
    resolved: list[ContradictionView] = []
    reopened: list[ContradictionView] = []
    superseded: list[ContradictionView] = []
    redisposed: list[ContradictionView] = []
    for c in new.contradictions:
        before_c = old_c.get(c.id)
        if before_c is not None and before_c.disposition != c.disposition:
            redisposed.append(c)
        if before_c is None:
            (opened if c.is_open else resolved if c.status is Status.resolved else superseded).append(c)
        elif before_c.status is not c.status:
            if c.is_open:
                reopened.append(c)
            elif c.status is Status.resolved:
                resolved.append(c)
            else:
                superseded.append(c)
    sections.append(("Contradictions opened", [_contradiction_line(new.vocabulary, c) for c in opened]))
    now = {c.id for c in new.contradictions}
    removed_c = [c for c in old_c.values() if c.id not in now]
    sections.append(("⚠ Contradictions removed", [_contradiction_line(new.vocabulary, c) for c in removed_c]))
    sections.append(
        ("Contradictions resolved", [_contradiction_line(new.vocabulary, c, _settled_by(c)) for c in resolved])
    )
    sections.append(
        ("Contradictions re-opened", [_contradiction_line(new.vocabulary, c, _settled_by(c)) for c in reopened])
    )
    sections.append(
        ("Contradictions superseded", [_contradiction_line(new.vocabulary, c, _settled_by(c)) for c in superseded])
    )
    sections.append(
        ("Contradictions re-judged", [_contradiction_line(new.vocabulary, c, _settled_by(c)) for c in redisposed])
    )

    old_w = old.withheld if old else {}
    sections.append(
        (
            "Claims withheld (shown only in their callout and the register)",
            [
                f"- “{md(p)}” — 矛盾 {c.contradiction.number} ({c.brief.date.isoformat()})"
                for p, c in new.withheld.items()
                if p not in old_w
            ],
        )
    )
    sections.append(
        (
            "Claims released (no longer withheld: their contradiction is no longer open)",
            [
                f"- “{md(p)}” — 矛盾 {c.contradiction.number} ({c.brief.date.isoformat()})"
                for p, c in old_w.items()
                if p not in new.withheld
            ],
        )
    )

    old_refs = old.citations if old else {}
    added = sorted((v for k, v in new.citations.items() if k not in old_refs), key=lambda v: v.number)
    sections.append(
        ("Citations added", [f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {md(v.citation.title)}" for v in added])
    )
    sections.append(
        (
            "Papers withdrawn by their authors (已撤稿; numbers kept)",
            [
                f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {md(v.citation.title)} (brief `{v.withdrawn_in.id}`)"
                for k, v in sorted(new.citations.items())
                if v.withdrawn_in is not None and (k not in old_refs or old_refs[k].withdrawn_in is None)
            ],
        )
    )
    dropped = sorted((v for k, v in old_refs.items() if k not in new.citations), key=lambda v: v.number)
    sections.append(
        (
            "⚠ Citations removed (their numbers would be given again)",
            [f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {md(v.citation.title)}" for v in dropped],
        )
    )
    sections.append(
        (
            "⚠ Citations renumbered (numbers must never change: fix the data)",
            [
                f"- arXiv:{md(v.citation.arxiv)}: [{old_refs[k].number}] → [{v.number}]"
                for k, v in sorted(new.citations.items())
                if k in old_refs and old_refs[k].number != v.number
            ],
        )
    )

    old_f = {f.follow_up.id: f for f in old.follow_ups} if old else {}
    opened_f, closed_f, carried_f = [], [], []
    for f in new.follow_ups:
        before_f = old_f.get(f.follow_up.id)
        if before_f is None and f.pending:
            opened_f.append(f)
        elif before_f is not None and before_f.status is f.status:
            continue
        elif f.status is FollowUpStatus.carried_over:
            carried_f.append(f)
        elif not f.pending:
            closed_f.append(f)

    def follow_up_line(f: FollowUpView) -> str:
        note = f.history[-1].update.note if f.history else None
        return f"- {md(f.follow_up.round)} {md(f.follow_up.text)} ({f.status.label}" + (
            f": {md(note)})" if note else ")"
        )

    sections.append(("Follow-ups opened", [follow_up_line(f) for f in opened_f]))
    still = {f.follow_up.id for f in new.follow_ups}
    sections.append(
        ("⚠ Follow-ups removed", [follow_up_line(f) for f in old_f.values() if f.follow_up.id not in still])
    )
    sections.append(("Follow-ups closed", [follow_up_line(f) for f in closed_f]))
    sections.append(("Follow-ups carried over", [follow_up_line(f) for f in carried_f]))

    return [(label, rows) for label, rows in sections if rows]
