"""What a change does to the living doc, as Markdown fit for a pull-request comment.

Pure: two merged states in, text out.  The ``digest diff`` command builds the "before" state from
the data at a git ref and the "after" state from the working tree.  Brief text quoted here is
escaped for Markdown so a title cannot turn into a link, a heading or an @-mention storm.
"""

from __future__ import annotations

import re

from .merge import LivingDoc
from .model import FollowUpStatus, Status


def md(text: str) -> str:
    """Markdown-inert text: one line, every Markdown/HTML metacharacter escaped."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_{}\[\]#|<>~@&])", r"\\\1", text)


def _entry_state(doc: LivingDoc) -> dict[str, tuple]:
    """What a reader sees change: section, last brief, history length, the item itself."""
    return {e.id: (e.section, e.brief.id if e.brief else None, len(e.history), e.item) for e in doc.entries.values()}


def diff_docs(before: dict[str, LivingDoc], after: dict[str, LivingDoc]) -> str:
    """Markdown describing every change from ``before`` to ``after``, topic by topic."""
    out: list[str] = ["## 活文档变更 (digest diff)", ""]
    changed = False
    for topic in sorted(set(before) | set(after)):
        lines = _topic_diff(before.get(topic), after.get(topic))
        if lines:
            changed = True
            out += [f"### {md(topic)}", "", *lines, ""]
    if not changed:
        out.append("No change to the living doc.")
    return "\n".join(out).rstrip() + "\n"


def _topic_diff(old: LivingDoc | None, new: LivingDoc | None) -> list[str]:
    if new is None:
        return ["- topic removed"]
    lines: list[str] = []
    old_entries = _entry_state(old) if old else {}
    added = [e for e in new.entries.values() if e.id not in old_entries]
    new_entries = _entry_state(new)
    updated = [e for e in new.entries.values() if e.id in old_entries and new_entries[e.id] != old_entries[e.id]]
    for label, entries in (("Entries added", added), ("Entries updated", updated)):
        if entries:
            lines.append(f"**{label}**")
            for e in sorted(entries, key=lambda e: ([int(p) for p in e.section.split(".")], e.id)):
                via = f" (brief `{e.brief.id}`)" if e.brief else ""  # ids are slugs: safe in a code span
                lines.append(f"- §{e.section} {md(e.title)}{via}")
            lines.append("")
    old_c = {c.id: c for c in old.contradictions} if old else {}
    opened = [c for c in new.contradictions if c.is_open and (c.id not in old_c or not old_c[c.id].is_open)]
    resolved = [
        c
        for c in new.contradictions
        if c.contradiction.status is Status.resolved and c.id in old_c and old_c[c.id].is_open
    ]
    for label, views in (("Contradictions opened", opened), ("Contradictions resolved", resolved)):
        if views:
            lines.append(f"**{label}**")
            lines += [
                f"- {c.brief.date.isoformat()} 矛盾 {c.contradiction.number} {md(c.contradiction.title)} "
                f"({c.contradiction.disposition.label})"
                for c in views
            ]
            lines.append("")
    old_w = set(old.withheld) if old else set()
    withheld = [(p, c) for p, c in new.withheld.items() if p not in old_w]
    if withheld:
        lines.append("**Claims withheld** (shown only in their callout and the register)")
        lines += [f"- “{md(p)}” — 矛盾 {c.contradiction.number} ({c.brief.date.isoformat()})" for p, c in withheld]
        lines.append("")
    old_refs = set(old.citations) if old else set()
    cites = [v for k, v in new.citations.items() if k not in old_refs]
    if cites:
        lines.append("**Citations added**")
        lines += [
            f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {md(v.citation.title)}"
            for v in sorted(cites, key=lambda v: v.number)
        ]
        lines.append("")
    old_f = {f.follow_up.id: f.follow_up.status for f in old.follow_ups} if old else {}
    opened_f = [
        f
        for f in new.follow_ups
        if f.follow_up.status is FollowUpStatus.open and old_f.get(f.follow_up.id) is not FollowUpStatus.open
    ]
    closed_f = [
        f
        for f in new.follow_ups
        if f.follow_up.status is not FollowUpStatus.open and old_f.get(f.follow_up.id) is FollowUpStatus.open
    ]
    for label, follow_ups in (("Follow-ups opened", opened_f), ("Follow-ups closed", closed_f)):
        if follow_ups:
            lines.append(f"**{label}**")
            lines += [
                f"- {md(f.follow_up.round)} {md(f.follow_up.text)} ({f.follow_up.status.label})" for f in follow_ups
            ]
            lines.append("")
    return lines
