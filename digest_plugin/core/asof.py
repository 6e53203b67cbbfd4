"""The doc as it stood on a past night (issue 32): the merge of the briefs up to that night.

The merge is a deterministic fold over dated briefs, so the doc as of night D is the merge of the
briefs dated D or earlier, and nothing else: the same pages, badges and statuses a build of only
those briefs gives.  Two things of today hold in the past too, because a reader may act on a past
view:

* a claim withheld today is withheld in every past view, even on a night that still allowed it (it
  may have been found wrong since): ``later_withheld``;
* a claim withheld on night D stays withheld in the view of D, even when a later brief released it,
  and its callout says on which date it was released: ``released_later``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable

from .doc import LivingDoc
from .merge import merge
from .model import Brief, ContradictionChange, Outcome, Outline, Rules
from .vocabulary import Vocabulary

AS_OF_VARIABLE = "DIGEST_AS_OF"
"""How ``digest build --as-of`` / ``digest serve --as-of`` hand the night to the MkDocs they run (the
plugin reads it; it wins over the plugin's ``as_of`` option)."""


def briefs_until(briefs: Iterable[Brief], night: dt.date) -> list[Brief]:
    """The briefs a past view of ``night`` is merged from: every round of that night, and all before."""
    return [b for b in briefs if b.date <= night]


def as_of(
    outline: Outline,
    briefs: Iterable[Brief],
    night: dt.date,
    rules: Rules | None = None,
    vocabulary: Vocabulary | None = None,
    *,
    today: LivingDoc | None = None,
) -> LivingDoc:
    """The living doc of ``outline``'s topic as it stood after ``night``'s briefs, with today's
    withholdings kept and later releases noted (see the module's doc).  ``today`` is the doc merged
    from every brief, when the caller has it already."""
    briefs = list(briefs)
    past = merge(outline, briefs_until(briefs, night), rules, vocabulary)
    today = today or merge(outline, briefs, rules, vocabulary)
    own = past.withheld
    later = {
        spelling: past.contradiction(view.id) or view
        for spelling, view in today.withheld.items()
        if spelling not in own
    }
    released: dict[str, Brief] = {}
    for view in past.contradictions:
        spellings = [p for claim in view.contradiction.withheld for p in claim.patterns]
        if not view.is_open or not spellings or any(p in today.withheld for p in spellings):
            continue  # nothing withheld that night, or still withheld today
        now = today.contradiction(view.id)
        settled = now.settled if now is not None else None
        if settled is not None and _releases(settled.update.change, settled.update.outcome):
            released[view.id] = settled.brief
    return dataclasses.replace(past, as_of=night, later_withheld=later, released_later=released)


def _releases(change: ContradictionChange, outcome: Outcome | None) -> bool:
    """A settlement that makes the withheld claim publishable: resolved, and not as corrected."""
    return change is ContradictionChange.resolved and outcome is not Outcome.corrected


def as_of_docs(docs: dict[str, LivingDoc], night: dt.date, rules: Rules | None = None) -> dict[str, LivingDoc]:
    """Every topic's doc as of ``night``, from today's merged docs (which hold the outline, the briefs
    and the words each was merged from).  A topic none of whose briefs is that old stands as its outline."""
    return {
        topic: as_of(doc.outline, doc.briefs, night, rules, doc.vocabulary, today=doc) for topic, doc in docs.items()
    }
