"""What the data folder already holds: the entries earlier briefs created and the sections they opened,
so tonight's brief can name them.
"""

from __future__ import annotations

import datetime as dt
import re

from ...core.model import Brief, Entry, Outline, PlacementAction, Section
from ...core.vocabulary import fold


def with_brief_entries(outline: Outline | None, briefs: list[Brief]) -> Outline | None:
    """The outline as the living doc now stands: with the sections earlier briefs opened, the
    entries their items created (an entry is named by the id of the item that created it) and the
    sections they moved entries to, so a later brief can update them in place by name."""
    if outline is None:
        return None
    sections = list(outline.sections)
    entries = list(outline.entries)
    numbers = {s.number for s in sections}
    for brief in sorted((b for b in briefs if b.topic == outline.topic), key=lambda b: (b.date, b.id)):
        for item in brief.items:
            p = item.placement
            if p.section is None:  # kept out of the doc: no section, no entry
                continue
            if p.action is PlacementAction.new_section and p.section not in numbers:
                numbers.add(p.section)
                sections.append(Section.model_construct(number=p.section, title=p.section_title, aliases=[]))
            title = p.entry_title or _title_head(item.title)
            taken = any(e.section == p.section and fold(e.title) == fold(title) for e in entries)
            if p.action.creates_entry and not taken:  # a name already there names that entry
                entries.append(
                    Entry.model_construct(
                        id=item.id, section=p.section, title=title, text=item.title, figures=[], stated_in=brief.id
                    )
                )
        moved = {m.entry: m.to for m in brief.moves}  # 「Kapitsa 挪到 §5.4」: later briefs find it there
        entries = [e.model_copy(update={"section": moved[e.id]}) if e.id in moved else e for e in entries]
    return outline.model_copy(update={"sections": sections, "entries": entries})


def night_before(briefs: list[Brief], today: dt.date, topic: str | None = None) -> Brief | None:
    """The latest brief before tonight (of ``topic``, when given): the night whose follow-ups were handed
    to tonight."""
    before = [b for b in briefs if b.date < today and (topic is None or b.topic == topic)]
    return max(before, key=lambda b: (b.date, b.round)) if before else None


def _title_head(title: str) -> str:
    """ "llm-d 1.0 发布——CNCF Sandbox …（高价值）" → "llm-d 1.0 发布": what a later brief calls it."""
    return re.split(r"——|—|：|:|（|\(", title, maxsplit=1)[0].strip() or title
