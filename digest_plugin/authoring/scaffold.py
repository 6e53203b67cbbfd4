"""`digest new`: an empty brief with the schema line, every section, and free ids to start from."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from ..core import files
from ..core.findings import DataError
from ..core.load import load_data, site_vocabulary
from ..core.vocabulary import Vocabulary, default_file

TEMPLATE = """\
# yaml-language-server: $schema=../../schema/brief.schema.json
# Brief {id}. Fill in the lists below; `digest check` says what is missing or wrong.
schema: 1
id: "{id}"
topic: {topic}
round: {round}
title: "{topic} · {round} 预消化简报（{date}）"
date: {date}
author: ""
materials: []
scope: ""

# 一、今日该主题最重要的增量 — one entry per 条目; ids must be unique across all briefs.
# Next free id: {item_id}
#  - id: {item_id}
#    number: 1
#    title: ""
#    value: [{value}]                 # {values}
#    sources: {{materials: [{{path: "", anchor: ""}}], urls: [""]}}
#    points: [""]
#    evidence: {{level: {level}, source_kinds: [], gaps: [], boundary: ""}}   # levels: {levels}
# (the words of value, level, source_kinds, gaps and disposition are those of data/vocabulary.yml)
#    relation: ""
#    placement: {{section: "3.1", action: new_sub_entry, text: ""}}
items: []

# 二、值得警惕的矛盾与待核实说法. Next free id: {contradiction_id}
contradictions: []

# 三、可引用的 arXiv 号 (numbers are given at build time, after the doc's existing references)
citations: []

# 四、本轮结论与建议动作
conclusions: []
# Next free follow-up id: {follow_up_id}
follow_ups: []

# What this brief does to earlier ones (see README, "The doc over time")
contradiction_updates: []
follow_up_updates: []
evidence_updates: []
retractions: []
"""


def _free(prefix: str, taken: set[str]) -> str:
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def brief_path(data_dir: Path, topic: str, date: dt.date, round_: str = "E1") -> Path:
    """Where ``digest new`` writes the brief of a day: ``briefs/<date>-<topic>-<round>.yml``."""
    return Path(data_dir) / "briefs" / f"{date.isoformat()}-{topic}-{round_}.yml"


def next_round(data_dir: Path, topic: str, date: dt.date) -> str:
    """The round a new brief of that night gets: E1 on a night with none, else the one after the
    night's last (an E2 deep read already in: E3), so ``digest new`` never writes an earlier round
    after a later one."""
    rounds = [
        int(m[1])
        for p in (Path(data_dir) / "briefs").glob(f"{date.isoformat()}-{topic}-E*.yml")
        if (m := re.fullmatch(rf"{re.escape(date.isoformat())}-{re.escape(topic)}-E(\d+)", p.stem))
    ]
    return f"E{max(rounds) + 1}" if rounds else "E1"


def new_brief(data_dir: Path, topic: str, date: dt.date, round_: str = "E1") -> Path:
    """Write ``briefs/<date>-<topic>-<round>.yml`` and return its path; never overwrite a brief.

    The file appears whole or not at all (see :func:`.files.create`): ``FileExistsError`` if the
    brief exists, :class:`.files.FileError` (an ``OSError``) if it cannot be written."""
    path = brief_path(data_dir, topic, date, round_)
    brief_id = path.stem
    if path.exists():
        files.tidy(path.parent)
        raise FileExistsError(f"{path} already exists")
    try:
        briefs = load_data(Path(data_dir)).briefs
    except DataError:
        briefs = []  # a broken brief elsewhere must not stop an editor starting today's
    taken = (
        {i.id for b in briefs for i in b.items}
        | {c.id for b in briefs for c in b.contradictions}
        | {f.id for b in briefs for f in b.follow_ups}
    )
    try:
        words = site_vocabulary(Path(data_dir))
    except DataError:
        words = Vocabulary(default_file())
    values, levels = list(words.words("value_ratings")), list(words.words("evidence_levels"))
    stem = f"{date.isoformat()}-{round_.lower()}"
    text = TEMPLATE.format(
        value=values[0] if values else "",
        values=" | ".join(values),  # codes: lower-case ASCII and _, nothing that could break the YAML
        level="lead" if "lead" in levels else (levels[-1] if levels else ""),
        levels=" | ".join(levels),
        id=brief_id,
        topic=topic,
        round=round_,
        date=date.isoformat(),
        item_id=_free(f"{stem}-item", taken),
        contradiction_id=_free(f"{stem}-c", taken),
        follow_up_id=_free(f"{stem}-f", taken),
    )
    files.create(path, text)
    return path
