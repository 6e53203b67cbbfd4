"""The blind corpus's scorer (tests/corpus_blind.py) reads the importer's marks where they sit: a mark is
on the value written right below it, so a decision is counted as asked only when the editor is asked about
that decision, not about the field after it."""

from __future__ import annotations

from corpus_blind import MARK, Marks

ITEM = f"""\
items:
  - id: "n-item-1"
    number: 1
    {MARK} 条目 1: 建议归入 does not say how; action set to mount_lead
    placement:
      section: "5.4"
      action: mount_lead
    {MARK} 条目 1: 来源 part with no material path, kept in notes
    notes:
      - "（31:20 起）"
"""


def test_a_mark_above_the_next_field_is_not_on_the_placement():
    marks = Marks(ITEM.replace(f"    {MARK} 条目 1: 建议归入 does not say how; action set to mount_lead\n", ""))
    assert not marks.on("items", 0, "placement")
    assert marks.on("items", 0, "notes")


def test_a_mark_above_the_placement_is_on_it():
    marks = Marks(ITEM)
    assert marks.on("items", 0, "placement")
