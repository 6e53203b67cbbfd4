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
from collections.abc import Callable, Iterator, Mapping
from typing import NamedTuple

from ..core.doc import CitationView, ContradictionView, EntryView, FollowUpView, LivingDoc, SectionView
from ..core.model import FollowUpStatus, Status
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

        def mark(m: re.Match[str]) -> str:
            mine = own is not None and doc.withheld_by(m.group(0)).id == own.id
            return m.group(0) if mine else WITHHELD

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


def _section_order(entry: EntryView) -> tuple[list[int], str]:
    return [int(p) for p in entry.section.split(".")], entry.id


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
    was_title = before.item.title if before.item else before.title
    now_title = after.item.title if after.item else after.title
    if was_title != now_title:
        changes.append(f"「{said(docs.old, was_title)}」→「{said(docs.new, now_title)}」")
    words = docs.words
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
    """(heading, rows) of every kind of change with rows; a row is one Markdown list line.

    The kinds come in a fixed order, part of the doc at a time (sections, entries, contradictions,
    withheld claims, citations, follow-ups), so a reviewer finds each in the same place every night;
    a kind with no rows is left out."""
    if new is None:
        return [("Topic removed", ["- topic removed"])]
    changes = [
        *_section_changes(old, new),
        *_entry_changes(old, new),
        *_contradiction_changes(old, new),
        *_claim_changes(old, new),
        *_citation_changes(old, new),
        *_follow_up_changes(old, new),
    ]
    return [(label, rows) for label, rows in changes if rows]


def _by(view: SectionView) -> str:
    """「 (brief `…`)」 after a section a brief opened; nothing after one of the outline's own."""
    return f" (brief `{view.opened_by.id}`)" if view.opened_by else ""


def _section_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """Sections opened, removed and retitled: a section a brief opened disappears with that brief,
    which a reviewer must see."""
    was = old.sections if old else {}
    return [
        (
            "Sections opened",
            [
                f"- §{v.number} {said(new, v.section.title or '')}{_by(v)}"
                for v in new.sections.values()
                if v.opened_by is not None and v.number not in was
            ],
        ),
        (
            "⚠ Sections removed (the brief that opened them was deleted or changed)",
            [
                f"- §{v.number} {said(old, v.section.title or '')}{_by(v)}"
                for v in was.values()
                if v.number not in new.sections
            ],
        ),
        (
            "Sections retitled",
            [
                f"- §{v.number} {said(old, was[v.number].section.title or '')} → {said(new, v.section.title or '')}"
                f"{_by(v)}"
                for v in new.sections.values()
                if v.number in was and was[v.number].section.title != v.section.title
            ],
        ),
    ]


def _reader_state(entry: EntryView) -> tuple[object, ...]:
    """What a reader sees change: section, last brief, history length, the item itself."""
    return entry.section, entry.brief.id if entry.brief else None, len(entry.history), entry.item


_EntryChange = Callable[[EntryView, EntryView | None, _Docs], Iterator[str]]
"""One kind of change to an entry: given the entry now, as it was (None: new) and the two docs,
the text after the entry's line, once per row (none when the entry did not change that way)."""


def _added(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry the doc did not have: its line alone says it."""
    if was is None:
        yield ""


def _updated(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry a reader sees change (see :func:`_reader_state`), and what changed in it."""
    if was is not None and _reader_state(e) != _reader_state(was):
        yield _what_changed(was, e, docs)


def _retracted(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry retracted by this change (a retracted one stays in the doc, marked): with the reason."""
    if e.retraction is not None and (was is None or not was.retracted):
        yield f" — {said(docs.new, e.retraction.reason)}"


def _moved(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry now in another section (it keeps its id): the line gives the new §, the row the old."""
    if was is not None and was.section != e.section:
        yield f" — from §{was.section}"


def _split(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry split by this change: the ids of its parts, which carry on what it said."""
    if e.split_into and (was is None or not was.split_into):
        yield " → " + ", ".join(f"`{p}`" for p in e.split_into)


def _errata(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """One row per erratum the change applies: an entry can be corrected by several briefs."""
    for x, b in e.errata:
        if was is None or (x, b) not in was.errata:
            yield f" — “{said(docs.new, x.old)}” → “{said(docs.new, x.new)}” (brief `{b.id}`)"


def _evidence_changed(e: EntryView, was: EntryView | None, docs: _Docs) -> Iterator[str]:
    """An entry whose evidence level moved, in the vocabulary's words (a reader weighs the entry by it)."""
    before = was.evidence if was is not None else None
    if before is not None and e.evidence is not None and before.level != e.evidence.level:
        was_level, now_level = (docs.words.label("evidence_levels", x) for x in (before.level, e.evidence.level))
        yield f": {md(was_level)} → {md(now_level)}"


def _entry_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """What happened to entries, in section order: every kind but removal is read off the entries the
    change leaves; a removed entry exists only before it, and is listed from there."""
    was = old.entries if old else {}
    entries = sorted(new.entries.values(), key=_section_order)
    gone = sorted((e for e in was.values() if e.id not in new.entries), key=_section_order)

    docs = _Docs(old, new)

    def rows(kind: _EntryChange) -> list[str]:
        return [_entry_line(new, e, text) for e in entries for text in kind(e, was.get(e.id), docs)]

    return [
        ("Entries added", rows(_added)),
        ("⚠ Entries removed (a brief that placed them was deleted or changed)", [_entry_line(old, e) for e in gone]),
        ("Entries updated", rows(_updated)),
        ("Entries retracted", rows(_retracted)),
        ("Entries moved", rows(_moved)),
        ("Entries split", rows(_split)),
        ("Errata applied (勘误)", rows(_errata)),
        ("Evidence changed", rows(_evidence_changed)),
    ]


def _contradiction_fate(before: ContradictionView | None, c: ContradictionView) -> str | None:
    """Where a contradiction's status puts it: "opened" (new and open), "re-opened", "resolved" or
    "superseded" (new already settled counts as settled), None when its status did not change."""
    if before is not None and before.status is c.status:
        return None
    if c.is_open:
        return "opened" if before is None else "re-opened"
    return "resolved" if c.status is Status.resolved else "superseded"


def _contradiction_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """Contradictions opened, removed, settled or re-opened, and re-judged (a new disposition, which
    can come with a status change or alone); each row but an opened or removed one ends with the
    latest event of its history: what a brief said, and which brief."""
    old_c = {c.id: c for c in old.contradictions} if old else {}
    fates: dict[str, list[ContradictionView]] = {"opened": [], "re-opened": [], "resolved": [], "superseded": []}
    for c in new.contradictions:
        fate = _contradiction_fate(old_c.get(c.id), c)
        if fate is not None:
            fates[fate].append(c)
    redisposed = [c for c in new.contradictions if c.id in old_c and old_c[c.id].disposition != c.disposition]
    now = {c.id for c in new.contradictions}
    removed = [c for c in old_c.values() if c.id not in now]

    def settled(views: list[ContradictionView]) -> list[str]:
        return [_contradiction_line(new, c, _settled_by(new, c)) for c in views]

    return [
        ("Contradictions opened", [_contradiction_line(new, c) for c in fates["opened"]]),
        ("⚠ Contradictions removed", [_contradiction_line(old, c) for c in removed] if old else []),
        ("Contradictions resolved", settled(fates["resolved"])),
        ("Contradictions re-opened", settled(fates["re-opened"])),
        ("Contradictions superseded", settled(fates["superseded"])),
        ("Contradictions re-judged", settled(redisposed)),
    ]


def _claim_line(pattern: str, c: ContradictionView) -> str:
    """A withheld spelling and the contradiction that withholds it."""
    return f"- “{md(pattern)}” — 矛盾 {c.contradiction.number} ({c.brief.date.isoformat()})"


def _claim_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """Claims that start or stop being withheld (a contradiction opened, settled or removed): what
    the published pages may print changes with them."""
    old_w = old.withheld if old else {}
    return [
        (
            "Claims withheld (shown only in their callout and the register)",
            [_claim_line(p, c) for p, c in new.withheld.items() if p not in old_w],
        ),
        (
            "Claims released (no longer withheld: their contradiction is no longer open)",
            [_claim_line(p, c) for p, c in old_w.items() if p not in new.withheld],
        ),
    ]


def _citation_line(doc: LivingDoc | None, v: CitationView) -> str:
    """「- [528] arXiv:1605.08803 title」: the number first, as the doc cites it."""
    return f"- [{v.number}] arXiv:{md(v.citation.arxiv)} {said(doc, v.citation.title)}"


def _citation_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """Citations added, withdrawn, removed and renumbered.  A citation's number is for ever: a removed
    one would be given to the next paper, a renumbered one breaks every [n] already read, so both
    are flagged as data to fix."""
    old_refs = old.citations if old else {}
    added = sorted((v for k, v in new.citations.items() if k not in old_refs), key=lambda v: v.number)
    dropped = sorted((v for k, v in old_refs.items() if k not in new.citations), key=lambda v: v.number)
    return [
        ("Citations added", [_citation_line(new, v) for v in added]),
        (
            "Papers withdrawn by their authors (已撤稿; numbers kept)",
            [
                f"{_citation_line(new, v)} (brief `{v.withdrawn_in.id}`)"
                for k, v in sorted(new.citations.items())
                if v.withdrawn_in is not None and (k not in old_refs or old_refs[k].withdrawn_in is None)
            ],
        ),
        ("⚠ Citations removed (their numbers would be given again)", [_citation_line(old, v) for v in dropped]),
        (
            "⚠ Citations renumbered (numbers must never change: fix the data)",
            [
                f"- arXiv:{md(v.citation.arxiv)}: [{old_refs[k].number}] → [{v.number}]"
                for k, v in sorted(new.citations.items())
                if k in old_refs and old_refs[k].number != v.number
            ],
        ),
    ]


def _follow_up_fate(before: FollowUpView | None, f: FollowUpView) -> str | None:
    """Where a follow-up's status puts it: "opened" (new and pending), "carried" (over to a later
    round: still pending, so not closed), "closed", or None (its status did not change, or it went
    back to open)."""
    if before is None and f.pending:
        return "opened"
    if before is not None and before.status is f.status:
        return None
    if f.status is FollowUpStatus.carried_over:
        return "carried"
    return "closed" if not f.pending else None


def _follow_up_line(doc: LivingDoc | None, f: FollowUpView) -> str:
    """「- E2 text (status: the last update's note)」: the note says why it closed or moved on."""
    note = f.history[-1].update.note if f.history else None
    text = f"- {md(f.follow_up.round)} {said(doc, f.follow_up.text)} ({f.status.label}"
    return text + (f": {said(doc, note)})" if note else ")")


def _follow_up_changes(old: LivingDoc | None, new: LivingDoc) -> list[_Change]:
    """Follow-ups opened, removed, closed and carried over."""
    old_f = {f.follow_up.id: f for f in old.follow_ups} if old else {}
    fates: dict[str, list[FollowUpView]] = {"opened": [], "closed": [], "carried": []}
    for f in new.follow_ups:
        fate = _follow_up_fate(old_f.get(f.follow_up.id), f)
        if fate is not None:
            fates[fate].append(f)
    still = {f.follow_up.id for f in new.follow_ups}
    return [
        ("Follow-ups opened", [_follow_up_line(new, f) for f in fates["opened"]]),
        ("⚠ Follow-ups removed", [_follow_up_line(old, f) for f in old_f.values() if f.follow_up.id not in still]),
        ("Follow-ups closed", [_follow_up_line(new, f) for f in fates["closed"]]),
        ("Follow-ups carried over", [_follow_up_line(new, f) for f in fates["carried"]]),
    ]
