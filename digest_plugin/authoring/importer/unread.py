"""What tonight's brief points at and the importer read nothing about: marked for the editor.

The readers of this package know the team's words (``wordings:``) and the shapes briefs have had.
A new writer brings new ones: 「勾销：11.18 第三条」, 「周一矛盾 1 改数：「under 5%」→「+6–7%」」,
a status list of the night before in a layout never seen.  When nothing was read there, the data
says nothing happened — and a silent "nothing happened" is the one wrong reading the editor cannot
see.  So after every reader has run, this pass looks at what the brief *points at* and asks about
every pointer that led to no decision:

* an earlier contradiction still open that the brief names, with no update tonight and no word that
  says it stays as it was (``kept``);
* an earlier follow-up still open that the brief names with no update tonight, and every follow-up
  the night before handed to tonight that tonight neither updates nor restates;
* an earlier item, or the entry it made, named in part 二 or 四 or in a paragraph an item could not
  place, in a clause that says something changes (an arrow, 「应为」, a 「勾销：」-style head, or a
  known wording of a retraction, an erratum, a move …) with no retraction, erratum, move, split or
  placement of tonight about it.

The safe reading stays what was written (nothing changes, nothing is published that was not); the
mark names the earlier object as a reader names it (「11-16 矛盾 1」) and its id, and quotes the clause.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

from ...core.model import Brief
from ...core.vocabulary import fold
from .backrefs import History, Reference, find_references
from .common import SECTION_REF, Draft, corrected_to, one_line, shared_run
from .earlier import night_before

CHANGE = re.compile(
    r"→|->|⇒|应为|应是|改为|改成|换成|^\s*[^\s，,。；;：:「」]{1,8}(?:[，,][^\s，,。；;：:「」]{1,6})?\s*[：:]"
)
"""A clause that says something changes, whatever its verb: an arrow, 「应为」, or a short head
before a colon (「勾销：」, 「挪条目：」, 「补正：」, 「摘流，不补：」)."""
ACTS = ("retracted", "erratum", "moved", "renamed", "superseded", "replaced_by_this", "corrected", "withdrawn")
"""The acts whose wordings also say an earlier item changes."""
CLAUSE = re.compile(r"[^。；;\n]+")
HANDED_DAYS = 3
"""How many days back the lists handed on to tonight reach (beside the night before, however long ago)."""


def mark_unread(brief: dict[str, Any], history: History, draft: Draft) -> None:
    """Mark every pointer to an earlier object that led to no decision (see the module's doc)."""
    today = brief.get("date")
    if not isinstance(today, dt.date) or not draft.earlier:
        return
    names = _names(draft.earlier)
    closed = _closed(draft.earlier)
    decided, acted = _decided(brief, history)
    kept = draft.words.wording("kept")
    # a clause that says what an earlier brief wrote was wrong (「应为」, 「实为」): an erratum of that brief, not an
    # update of the entry its item made, even when tonight also updates that entry
    corrects = re.compile("|".join(re.escape(w) for w in corrected_to(draft.words)))
    acts = [draft.words.wording(act) for act in ACTS]
    asked: set[str] = set()
    for part, line, text in _texts(brief, draft):
        loose: list[Reference] = []
        for ref in find_references(text, today, history, part=part, round=brief.get("round"), loose=loose):
            if not ref.id or ref.id in asked or ref.id in closed:
                continue
            clause = _clause(text, ref)
            if ref.kind in ("contradiction", "follow_up"):
                if ref.id in decided or kept.search(clause):
                    continue
            elif ref.kind in ("item", "entry"):
                said = (
                    any(w.search(clause) for w in acts) or corrects.search(clause) or _elsewhere(clause, ref, history)
                )
                if part == "items" or not (said or CHANGE.search(clause)) or ref.id in acted:
                    continue
                if not said and (ref.id in decided or history.entry_of(ref.id) in decided):
                    continue  # tonight updates the entry it made: the clause says how
            else:
                continue
            asked.add(ref.id)
            draft.warn(line, f"{names.get(ref.id, ref.id)} ({ref.id}) {_what(ref)}: «{one_line(clause)[:80]}»")
        for ref in loose:
            open_ = [c for c in ref.candidates if c not in closed]
            if not open_ or any(c in decided or c in asked for c in ref.candidates):
                continue  # closed before tonight, or tonight already reads (or asks about) one it may mean
            asked.update(open_)
            which = "; ".join(f"{names.get(c, c)} ({c})" for c in open_)
            draft.warn(
                line,
                f"«{ref.text}» names no list: {which}? Nothing was read for it; say which, and what became of it: "
                f"«{one_line(_clause(text, ref))[:80]}»",
            )
    handed = _handed_over(brief, draft, names, closed, decided | asked, today)
    _described(brief, draft, names, closed, decided | asked | handed, today)


def _elsewhere(clause: str, ref: Reference, history: History) -> bool:
    """Whether a clause that names an earlier entry names a section it does not stand in (nor one above or
    below it): 「调去 §3.3：§3.1「…（学术）」…」 says the entry goes there, in whatever verb."""
    if ref.id is None:
        return False
    entry = history.entry_of(ref.id) if ref.kind == "item" else ref.id
    home = history.section_of(entry) if entry else None
    if home is None:
        return False
    return any(
        not (n == home or n.startswith(home + ".") or home.startswith(n + "."))
        for n in (m["section"] for m in SECTION_REF.finditer(clause))
    )


def _what(ref: Reference) -> str:
    if ref.kind == "contradiction":
        return "is named here, but no change of it was read; if tonight settles, corrects or re-opens it, say how"
    if ref.kind == "follow_up":
        return "is named here, but no status of it was read; done, carried over or dropped?"
    return "is named in a clause that changes something, but nothing was read for it (retracted, corrected, moved?)"


def _handed_over(
    brief: dict[str, Any], draft: Draft, names: dict[str, str], closed: set[str], seen: set[str], today: dt.date
) -> set[str]:
    """The follow-ups the last nights handed on: each needs a word from tonight.  Not only the night before's:
    a writer who takes over after a colleague's night off answers the list of the night before that (「周一
    乔那张单子」 on a Wednesday), and a list no later night spoke of is still waiting for its answer.  Returns
    the follow-ups asked about."""
    last = night_before(draft.earlier, today, brief.get("topic"))
    if last is None or (not brief.get("conclusions") and not brief.get("follow_ups")):
        return set()
    since = min(last.date, today - dt.timedelta(days=HANDED_DAYS))
    handing = sorted(
        (b for b in draft.earlier if since <= b.date < today and b.topic == last.topic),
        key=lambda b: (b.date, b.round),
        reverse=True,
    )
    handed: dict[str, str] = {}
    for night in handing:  # latest first: a list restated later is asked about in its latest words
        for f in night.follow_ups:
            handed.setdefault(f.id, f.text)
        for u in night.follow_up_updates:
            if u.number is not None:  # restated in that night's list
                handed.setdefault(u.follow_up, u.note or "")
    asked: set[str] = set()
    for fid, text in handed.items():
        if fid in closed or fid in seen:
            continue
        asked.add(fid)
        draft.warn(
            1,
            f"{names.get(fid, fid)} ({fid}) «{one_line(text)[:40]}» was handed "
            "to tonight, but no status of it was read; done, carried over, dropped, or still open?",
        )
    return asked


DESCRIBED_DAYS = 14
"""How far back an open follow-up may be named by its own words (beyond the lists handed to tonight)."""
DESCRIBED_RUN = 10
"""How many characters in a row a line of tonight shares with an open follow-up's text to describe it."""


def _described(
    brief: dict[str, Any], draft: Draft, names: dict[str, str], closed: set[str], seen: set[str], today: dt.date
) -> None:
    """An open follow-up of the last two weeks that tonight describes in its own words (a run of its text,
    「用 NIXL 1.2.3 把 12 月 28 日那组冷启动重跑」) with no number the importer could resolve and no status read:
    the writer said something about it, so the editor is asked what, never left with "nothing happened"."""
    since = today - dt.timedelta(days=DESCRIBED_DAYS)
    texts = [(line, fold(text)) for _, line, text in _texts(brief, draft)]
    for night in draft.earlier:
        if not since <= night.date < today:
            continue
        for f in night.follow_ups:
            if f.id in closed or f.id in seen:
                continue
            wanted = fold(f.text)
            hit = next((line for line, text in texts if shared_run(wanted, text) >= DESCRIBED_RUN), None)
            if hit is None:
                continue
            seen.add(f.id)
            draft.warn(
                hit,
                f"{names.get(f.id, f.id)} ({f.id}) «{one_line(f.text)[:40]}» is described here in its own words, "
                "but no status of it was read; done, carried over, dropped, or still open?",
            )


def _names(earlier: list[Brief]) -> dict[str, str]:
    """How a reader names each earlier contradiction, follow-up and item: 「11-16 矛盾 1」."""
    out: dict[str, str] = {}
    for b in earlier:
        day = b.date.isoformat()[5:]
        out.update({c.id: f"{day} 矛盾 {c.number}" for c in b.contradictions})
        out.update({f.id: f"{day} 跟进 {f.number}" for f in b.follow_ups})
        out.update({i.id: f"{day} 条目 {i.number}" for i in b.items})
    return out


def _closed(earlier: list[Brief]) -> set[str]:
    """Contradictions settled and follow-ups done or dropped before tonight: naming them again is recap."""
    out: set[str] = set()
    for b in earlier:
        out |= {u.contradiction for u in b.contradiction_updates if u.change.value in ("resolved", "superseded")}
        out |= {u.follow_up for u in b.follow_up_updates if u.status.value in ("done", "dropped")}
    return out


def _decided(brief: dict[str, Any], history: History) -> tuple[set[str], set[str]]:
    """Every earlier object tonight's data already says something about, and of those the items and
    entries an act names (retracted, corrected, moved, split, told again): an update of an entry does
    not answer a clause that says what an earlier brief wrote was wrong (「补正：…应为…」)."""
    acted: set[str] = set()
    for key, field in (("retractions", "item"), ("errata", "item"), ("moves", "entry"), ("splits", "entry")):
        acted |= {str(x.get(field)) for x in brief.get(key) or []}
    out = set(acted)
    for key, field in (
        ("contradiction_updates", "contradiction"),
        ("follow_up_updates", "follow_up"),
        ("evidence_updates", "entry"),
    ):
        out |= {str(x.get(field)) for x in brief.get(key) or []}
    for item in brief.get("items") or []:
        placement = item.get("placement") or {}
        if duplicate := placement.get("duplicate_of"):
            acted.add(str(duplicate))
        out |= {str(e) for e in [placement.get("entry"), duplicate, *(placement.get("entries") or [])] if e}
    return out | {e for e in (history.entry_of(i) for i in list(out)) if e}, acted


def _texts(brief: dict[str, Any], draft: Draft) -> Iterator[tuple[str, int, str]]:
    """(part, Markdown line, text) of every piece that may point back; a paragraph an item could not
    place is read like part 四 (「勾销：…」 under an item)."""
    for i, item in enumerate(brief.get("items") or []):
        line = draft.origins.get(("items", i), 1)
        if relation := item.get("relation"):
            yield "items", line, relation
        # an item's points and evidence boundary may say what became of an earlier contradiction or follow-up
        # (「证据边界：官方文档已证实 10-21 矛盾 2 的口径」)
        for said in [*(item.get("points") or []), (item.get("evidence") or {}).get("boundary")]:
            if isinstance(said, str) and said:
                yield "items", line, said
        for note in item.get("notes") or []:
            yield "conclusions", line, note
    for i, c in enumerate(brief.get("contradictions") or []):
        yield (
            "contradictions",
            draft.origins.get(("contradictions", i), 1),
            f"{c.get('title', '')}：{c.get('text', '')}",
        )
    if note := brief.get("contradictions_note"):
        yield "contradictions", 1, note
    for i, text in enumerate(brief.get("conclusions") or []):
        yield "conclusions", draft.origins.get(("conclusions", i), 1), text


def _clause(text: str, ref: Reference) -> str:
    """The clause the reference sits in (up to 。；), with what comes right after it."""
    for m in CLAUSE.finditer(text):
        if m.start() <= ref.start < m.end():
            return m.group()
    return text[ref.start : ref.end + 60]
