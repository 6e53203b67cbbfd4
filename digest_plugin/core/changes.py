"""What changed in a topic's living doc between two merged states, as records (issue 32).

Pure: two docs in, records out; no text is formatted here.  ``digest diff`` words them as Markdown for
a pull-request comment (:mod:`..authoring.diff`); the site's changes pages render them as HTML through
the site's one text path.  Both sides are *merged* docs, so what a later brief does to an earlier one
(a contradiction resolved, a follow-up closed, an entry retracted) shows as the change it is; the two
sides may also be the small docs of one night (:mod:`.nights`), which hold only what it touched.

The kinds come in a fixed order, part of the doc at a time (sections, entries, contradictions,
withheld claims, citations, follow-ups), so a reader finds each in the same place every night.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from .doc import CitationView, ContradictionView, EntryView, FollowUpView, LivingDoc, SectionView
from .model import Brief, Erratum, FollowUpStatus, Status

V = TypeVar("V", covariant=True)

KINDS = (
    "sections_opened",
    "sections_removed",
    "sections_retitled",
    "entries_added",
    "entries_removed",
    "entries_updated",
    "entries_retracted",
    "entries_moved",
    "entries_split",
    "errata_applied",
    "evidence_changed",
    "contradictions_opened",
    "contradictions_removed",
    "contradictions_resolved",
    "contradictions_reopened",
    "contradictions_superseded",
    "contradictions_redisposed",
    "claims_withheld",
    "claims_released",
    "citations_added",
    "citations_withdrawn",
    "citations_removed",
    "citations_renumbered",
    "follow_ups_opened",
    "follow_ups_removed",
    "follow_ups_closed",
    "follow_ups_carried",
)
"""Every kind of change, in the order a reader finds them.  ``*_removed`` and ``citations_renumbered``
are data to fix (a brief deleted or changed); a fold over dated briefs never makes them."""

REMOVALS = frozenset(k for k in KINDS if k.endswith("_removed") or k == "citations_renumbered")


@dataclass(frozen=True)
class Change(Generic[V]):
    """One row: what changed (``now``, as it stands after; for a removal, as it stood before) and, where
    the row compares, how it stood before (``was``)."""

    kind: str
    now: V
    was: V | None = None
    erratum: tuple[Erratum, Brief] | None = None
    """For ``errata_applied``: the correction and the brief that made it (an entry can have several)."""

    @property
    def before(self) -> V:
        """How it stood before, for a row that compares (updated, moved, retitled, renumbered …)."""
        assert self.was is not None, f"a {self.kind} row compares with what was before"
        return self.was


@dataclass(frozen=True)
class Claim:
    """A withheld spelling and the contradiction that withholds it (``claims_*`` rows)."""

    spelling: str
    by: ContradictionView


@dataclass(frozen=True)
class TopicChanges:
    """Every change of one topic from ``old`` (None: the topic is new) to ``new``, by kind in
    :data:`KINDS` order; a kind with no rows is left out."""

    old: LivingDoc | None
    new: LivingDoc
    kinds: tuple[tuple[str, tuple[Change[object], ...]], ...]

    def __bool__(self) -> bool:
        return bool(self.kinds)


def topic_changes(old: LivingDoc | None, new: LivingDoc) -> TopicChanges:
    """What changed from ``old`` to ``new`` (one topic's two docs)."""
    found: dict[str, list[Change[object]]] = {kind: [] for kind in KINDS}
    for change in (
        *_section_changes(old, new),
        *_entry_changes(old, new),
        *_contradiction_changes(old, new),
        *_claim_changes(old, new),
        *_citation_changes(old, new),
        *_follow_up_changes(old, new),
    ):
        found[change.kind].append(change)
    return TopicChanges(old, new, tuple((kind, tuple(rows)) for kind, rows in found.items() if rows))


# --------------------------------------------------------------------------- sections


def _section_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    """Sections opened, removed and retitled: a section a brief opened disappears with that brief,
    which a reviewer must see."""
    was = old.sections if old else {}
    for v in new.sections.values():
        if v.opened_by is not None and v.number not in was:
            yield Change[SectionView]("sections_opened", v)
    for v in was.values():
        if v.number not in new.sections:
            yield Change[SectionView]("sections_removed", v)
    for v in new.sections.values():
        if v.number in was and was[v.number].section.title != v.section.title:
            yield Change[SectionView]("sections_retitled", v, was[v.number])


# --------------------------------------------------------------------------- entries


def section_order(entry: EntryView) -> tuple[list[int], str]:
    return [int(p) for p in entry.section.split(".")], entry.id


def reader_state(entry: EntryView) -> tuple[object, ...]:
    """What a reader sees change: section, last brief, history length, the item itself."""
    return entry.section, entry.brief.id if entry.brief else None, len(entry.history), entry.item


_EntryRows = Callable[[EntryView, EntryView | None], Iterator[Change[EntryView]]]


def _added(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    if was is None:
        yield Change("entries_added", e)


def _updated(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    if was is not None and reader_state(e) != reader_state(was):
        yield Change("entries_updated", e, was)


def _retracted(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    if e.retraction is not None and (was is None or not was.retracted):
        yield Change("entries_retracted", e, was)


def _moved(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    if was is not None and was.section != e.section:
        yield Change("entries_moved", e, was)


def _split(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    if e.split_into and (was is None or not was.split_into):
        yield Change("entries_split", e, was)


def _errata(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    """One row per erratum the change applies: an entry can be corrected by several briefs."""
    for x, b in e.errata:
        if was is None or (x, b) not in was.errata:
            yield Change("errata_applied", e, was, (x, b))


def _evidence_changed(e: EntryView, was: EntryView | None) -> Iterator[Change[EntryView]]:
    before = was.evidence if was is not None else None
    if before is not None and e.evidence is not None and before.level != e.evidence.level:
        yield Change("evidence_changed", e, was)


def _entry_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    """What happened to entries, in section order: every kind but removal is read off the entries the
    change leaves; a removed entry exists only before it, and is listed from there."""
    was = old.entries if old else {}
    entries = sorted(new.entries.values(), key=section_order)
    for e in sorted((e for e in was.values() if e.id not in new.entries), key=section_order):
        yield Change("entries_removed", e)
    for kind in (_added, _updated, _retracted, _moved, _split, _errata, _evidence_changed):
        for e in entries:
            yield from kind(e, was.get(e.id))


@dataclass(frozen=True)
class Difference:
    """One thing a reader of an updated entry sees change: its title, its level (codes of the
    vocabulary's ``evidence_levels``), a figure's value (``label``; ``hidden`` when an open
    contradiction withholds either value, which must then not be shown), or its section."""

    what: str  # "title" | "level" | "figure" | "section"
    old: str
    new: str
    label: str = ""
    hidden: bool = False


def differences(before: EntryView, after: EntryView) -> list[Difference]:
    """What changed in an updated entry, in the order its history rows say it (none: a new update
    that changed nothing a reader sees)."""
    found = []
    was_title = before.item.title if before.item else before.title
    now_title = after.item.title if after.item else after.title
    if was_title != now_title:
        found.append(Difference("title", was_title, now_title))
    if before.evidence is not None and after.evidence is not None and before.evidence.level != after.evidence.level:
        found.append(Difference("level", before.evidence.level, after.evidence.level))
    old_figures = {f.key: f for f in before.figures}
    for figure in after.figures:
        old = old_figures.get(figure.key)
        if old is None or str(old.current.value) == str(figure.current.value):
            continue
        hidden = figure.withheld_by is not None or old.withheld_by is not None
        found.append(Difference("figure", str(old.current.value), str(figure.current.value), figure.label, hidden))
    if before.section != after.section:
        found.append(Difference("section", before.section, after.section))
    return found


# --------------------------------------------------------------------------- contradictions and claims


def contradiction_fate(before: ContradictionView | None, c: ContradictionView) -> str | None:
    """Where a contradiction's status puts it: the kind of its row (opened, re-opened, resolved or
    superseded: new already settled counts as settled), None when its status did not change."""
    if before is not None and before.status is c.status:
        return None
    if c.is_open:
        return "contradictions_opened" if before is None else "contradictions_reopened"
    return "contradictions_resolved" if c.status is Status.resolved else "contradictions_superseded"


def _contradiction_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    """Contradictions opened, removed, settled or re-opened, and re-judged (a new disposition, which
    can come with a status change or alone)."""
    old_c = {c.id: c for c in old.contradictions} if old else {}
    for c in new.contradictions:
        fate = contradiction_fate(old_c.get(c.id), c)
        if fate is not None:
            yield Change(fate, c, old_c.get(c.id))
    now = {c.id for c in new.contradictions}
    for c in old_c.values():
        if c.id not in now:
            yield Change("contradictions_removed", c)
    for c in new.contradictions:
        if c.id in old_c and old_c[c.id].disposition != c.disposition:
            yield Change("contradictions_redisposed", c, old_c[c.id])


def _claim_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    """Claims that start or stop being withheld (a contradiction opened, settled or removed): what
    the published pages may print changes with them."""
    old_w = old.withheld if old else {}
    for p, c in new.withheld.items():
        if p not in old_w:
            yield Change("claims_withheld", Claim(p, c))
    for p, c in old_w.items():
        if p not in new.withheld:
            yield Change("claims_released", Claim(p, c))


# --------------------------------------------------------------------------- citations and follow-ups


def _citation_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    """Citations added, withdrawn, removed and renumbered.  A citation's number is for ever: a removed
    one would be given to the next paper, a renumbered one breaks every [n] already read."""
    old_refs = old.citations if old else {}
    for v in sorted((v for k, v in new.citations.items() if k not in old_refs), key=lambda v: v.number):
        yield Change[CitationView]("citations_added", v)
    for k, v in sorted(new.citations.items()):
        if v.withdrawn_in is not None and (k not in old_refs or old_refs[k].withdrawn_in is None):
            yield Change[CitationView]("citations_withdrawn", v, old_refs.get(k))
    for v in sorted((v for k, v in old_refs.items() if k not in new.citations), key=lambda v: v.number):
        yield Change[CitationView]("citations_removed", v)
    for k, v in sorted(new.citations.items()):
        if k in old_refs and old_refs[k].number != v.number:
            yield Change[CitationView]("citations_renumbered", v, old_refs[k])


def follow_up_fate(before: FollowUpView | None, f: FollowUpView) -> str | None:
    """Where a follow-up's status puts it: opened (new and pending), carried (over to a later round:
    still pending, so not closed), closed, or None (its status did not change, or it went back to open)."""
    if before is None and f.pending:
        return "follow_ups_opened"
    if before is not None and before.status is f.status:
        return None
    if f.status is FollowUpStatus.carried_over:
        return "follow_ups_carried"
    return "follow_ups_closed" if not f.pending else None


def _follow_up_changes(old: LivingDoc | None, new: LivingDoc) -> Iterator[Change[object]]:
    old_f = {f.follow_up.id: f for f in old.follow_ups} if old else {}
    for f in new.follow_ups:
        fate = follow_up_fate(old_f.get(f.follow_up.id), f)
        if fate is not None:
            yield Change(fate, f, old_f.get(f.follow_up.id))
    still = {f.follow_up.id for f in new.follow_ups}
    for f in old_f.values():
        if f.follow_up.id not in still:
            yield Change("follow_ups_removed", f)
