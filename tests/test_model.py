"""The models of a brief and an outline: what they accept, what they refuse, the words readers see."""

from __future__ import annotations

import copy

import pytest
from helpers import BRIEF, FIXTURES, ROOT
from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML

from digest_plugin.core import model
from digest_plugin.core.model import Brief, Item, Outline, PlacementAction, Rules
from digest_plugin.core.vocabulary import Vocabulary, default_file

BRIEF_MD = (FIXTURES / "2026-10-21-inference-E1.md").read_text(encoding="utf-8")
SHIPPED = YAML(typ="safe").load((ROOT / "data" / BRIEF).read_text(encoding="utf-8"))
OUTLINE = YAML(typ="safe").load((ROOT / "data" / "outlines" / "inference.yml").read_text(encoding="utf-8"))


def brief_with(change) -> dict:
    """The shipped brief as plain data, after ``change(data)``."""
    data = copy.deepcopy(SHIPPED)
    change(data)
    return data


def refused(data: dict) -> list[tuple]:
    """The locations of what Brief refuses in ``data``."""
    with pytest.raises(ValidationError) as info:
        Brief.model_validate(data)
    return [e["loc"] for e in info.value.errors()]


def test_the_shipped_brief_and_outline_validate():
    brief = Brief.model_validate(SHIPPED)
    assert brief.id == SHIPPED["id"] and len(brief.items) == len(SHIPPED["items"])
    assert Outline.model_validate(OUTLINE).topic == OUTLINE["topic"]


# --------------------------------------------------------------------------- vocabulary


def vocabularies() -> list[type[model.Vocabulary]]:
    return [
        cls
        for cls in vars(model).values()
        if isinstance(cls, type) and issubclass(cls, model.Vocabulary) and cls is not model.Vocabulary
    ]


@pytest.mark.parametrize("vocabulary", vocabularies(), ids=lambda cls: cls.__name__)
def test_every_code_has_a_label(vocabulary):
    assert all(member.label.strip() for member in vocabulary)


def test_labels_are_the_words_of_the_brief():
    # 条目 4: "属线索级证据"; 条目 1: "属已部分核查的高价值线索"; 矛盾 6: "归入丢弃级"; 矛盾 9: "属待登录核查线索";
    # 条目 5: "应做原地更新而非新增条目"; 条目 4 证据边界: "LFM 数据属厂商自述"
    words = Vocabulary(default_file())
    for label in (
        words.label("evidence_levels", "lead"),
        words.label("evidence_levels", "partially_verified"),
        words.label("dispositions", "discarded"),
        words.label("dispositions", "pending_login"),
        PlacementAction.update_in_place.label,
        words.label("source_kinds", "vendor_self_report"),
    ):
        assert label in BRIEF_MD, label


def test_a_word_is_a_code_in_yaml_and_a_label_is_not_a_code():
    Brief.model_validate(brief_with(lambda d: d["items"][0]["evidence"].__setitem__("level", "a_new_level")))
    assert refused(brief_with(lambda d: d["items"][0]["evidence"].__setitem__("level", "部分核查"))) == [
        ("items", 0, "evidence", "level")
    ]


# --------------------------------------------------------------------------- checked strings


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,x",
        "../register/",
        "//example.org/x",
        'https://example.org/" onmouseover="x',
    ],
)
def test_only_http_urls_are_accepted(url):
    assert refused(brief_with(lambda d: d["items"][0]["sources"]["urls"].__setitem__(0, url))) == [
        ("items", 0, "sources", "urls", 0)
    ]


@pytest.mark.parametrize("path", ["/etc/passwd", "../../etc/passwd", "inbox/../../x.md", "inbox/a\x00.md"])
def test_material_paths_stay_inside_the_store(path):
    data = brief_with(lambda d: d["items"][0]["sources"]["materials"][0].__setitem__("path", path))
    assert refused(data) == [("items", 0, "sources", "materials", 0, "path")]


@pytest.mark.parametrize("bad", ["Kapitsa", "llm d", "-llm-d", "llm--d", ""])
def test_ids_are_lowercase_slugs(bad):
    assert refused(brief_with(lambda d: d["items"][0].__setitem__("id", bad))) == [("items", 0, "id")]


@pytest.mark.parametrize("bad", ["0.1", "3.0", "§3.1", "3.1.2", "3."])
def test_section_numbers(bad):
    data = brief_with(lambda d: d["items"][0]["placement"].__setitem__("section", bad))
    assert refused(data) == [("items", 0, "placement", "section")]


def test_an_arxiv_id_that_cannot_exist_is_refused():
    data = brief_with(lambda d: d["citations"][0].__setitem__("arxiv", "1605.8803"))
    assert refused(data) == [("citations", 0, "arxiv")]
    Brief.model_validate(brief_with(lambda d: d["citations"][0].__setitem__("arxiv", "1605.08803v2")))


def test_empty_text_is_refused_and_an_unknown_key_is_an_error():
    assert refused(brief_with(lambda d: d["items"][0].__setitem__("title", ""))) == [("items", 0, "title")]
    assert refused(brief_with(lambda d: d["items"][0].__setitem__("relaton", "x"))) == [("items", 0, "relaton")]


def test_only_schema_1_is_understood():
    assert refused(brief_with(lambda d: d.__setitem__("schema", 2))) == [("schema",)]


# --------------------------------------------------------------------------- rules across fields


def test_an_update_in_place_names_its_entry():
    # item 5 (Kapitsa) is the shipped update in place
    data = brief_with(lambda d: d["items"][4]["placement"].pop("entry"))
    assert refused(data) == [("items", 4, "placement")]


def test_a_superseded_contradiction_names_its_successor():
    update = {"contradiction": "kapitsa-weekly-gain", "change": "superseded", "text": "x"}
    assert refused(brief_with(lambda d: d.__setitem__("contradiction_updates", [update]))) == [
        ("contradiction_updates", 0)
    ]
    update["superseded_by"] = "lfm2-5-basis"
    Brief.model_validate(brief_with(lambda d: d.__setitem__("contradiction_updates", [update])))


def test_a_follow_up_update_closes_it():
    update = {"follow_up": "vllm-long-prefill-issue", "status": "open"}
    assert refused(brief_with(lambda d: d.__setitem__("follow_up_updates", [update]))) == [("follow_up_updates", 0)]


def test_models_are_frozen():
    brief = Brief.model_validate(SHIPPED)
    with pytest.raises(ValidationError):
        brief.items[0].title = "changed"  # type: ignore[misc]


def test_inner_model_looks_through_lists_and_optionals():
    assert model.inner_model(list[Item]) is Item
    assert model.inner_model(Item | None) is Item
    assert model.inner_model(str | None) is None
    assert issubclass(model.inner_model(Brief.model_fields["living_doc"].annotation), BaseModel)


def test_rules_defaults_are_the_team_practice_and_bounds_hold():
    rules = Rules()
    assert rules.citation_count_factor == 3.0 and rules.archive_after_days == 21 and rules.hide_discarded
    assert "lead" in rules.no_conclusion_levels
    with pytest.raises(ValidationError):
        Rules(citation_count_factor=1)
    with pytest.raises(ValidationError):
        Rules(archive_after_days=0)
    with pytest.raises(ValidationError):
        Rules.model_validate({"citation_count_factr": 2})
