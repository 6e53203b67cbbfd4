"""An item's fields as a new writer wraps and labels them: nothing joined into what it is not, nothing left
unread that has a rating's shape.  A second night on top of the shipped 10-21 brief, changed one line at a time."""

from __future__ import annotations

from helpers import SECOND_NIGHT, shipped_brief
from ruamel.yaml import YAML

from digest_plugin.authoring.importer import import_full

FIRST = shipped_brief()


def test_a_url_followed_by_a_wrapped_line_stays_the_address_it_was():
    """「来源：https://…/kapitsa」 and, on the next line, 「来源类型：论坛转帖」 (a label the importer does not know):
    the lines were joined with no space between, and the address became 「…/kapitsa来源类型：论坛转帖」."""
    night = SECOND_NIGHT.format(author="新人", two="无。", four="- 无。").replace(
        "来源：https://github.com/nace-ai/kapitsa", "来源：https://github.com/nace-ai/kapitsa\n来源类型：论坛转帖"
    )
    brief = YAML(typ="safe").load(import_full(night, known_briefs=[FIRST]).text)
    item = brief["items"][0]
    assert item["sources"]["urls"] == ["https://github.com/nace-ai/kapitsa"]
    assert "来源类型：论坛转帖" in str(item)  # kept, not lost


def test_a_value_rating_on_a_labelled_line_in_no_word_of_the_vocabulary_is_proposed():
    """「价值：偏低价值」 on a line of its own: the shape of a rating after a label; the item is rated by it, and
    the word is proposed for the vocabulary file instead of the item going unrated."""
    night = SECOND_NIGHT.format(author="新人", two="无。", four="- 无。").replace(
        "条目 1：Kapitsa 周四卡（中等价值）", "条目 1：Kapitsa 周四卡\n\n价值：偏低价值"
    )
    done = import_full(night, known_briefs=[FIRST])
    item = YAML(typ="safe").load(done.text)["items"][0]
    assert item["title"] == "Kapitsa 周四卡"
    assert len(item["value"]) == 1 and item["value"][0] not in ("medium", "high", "low")
    assert [n.message for n in done.notes if "«偏低价值» (value_ratings)" in n.message]
