"""What used to fail later (at render time, or silently in a rule) is refused when the data is read.

The bad briefs themselves are in ``tests/corpus/errors/`` with their exact findings; this file holds
what a corpus file cannot say: that both YAML readers agree, that the model and its JSON Schema
patterns give the same verdict, that the renderer links exactly the URLs no rule warns about, and
the decisions behind a few refusals.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
import unicodedata
from pathlib import Path

import pytest
from helpers import BRIEF, ROOT
from pydantic import TypeAdapter, ValidationError

from digest_plugin.core import fastyaml, model
from digest_plugin.core.load import Dataset, load_file, quick_parse, read_yaml
from digest_plugin.core.model import Brief, HttpUrl, MaterialPath, Outline, Rules
from digest_plugin.core.rules import ZERO_BESIDE, check_rules

SHIPPED = fastyaml.read((ROOT / "data" / BRIEF).read_text(encoding="utf-8"))


def brief_with(change) -> dict:
    data = copy.deepcopy(SHIPPED)
    change(data)
    return data


def refusal(data: dict) -> list[tuple[tuple, str, str | None]]:
    """(location, message, hint) of everything Brief refuses in ``data``."""
    with pytest.raises(ValidationError) as info:
        Brief.model_validate(data)
    return [(e["loc"], e["msg"], (e.get("ctx") or {}).get("hint")) for e in info.value.errors()]


def findings_of(tmp_path: Path, text: str, model=Brief) -> list[str]:
    path = tmp_path / "brief.yml"
    path.write_text(text, encoding="utf-8")
    _, findings, _ = load_file(path, model, "brief.yml")
    return [str(f) for f in findings]


# --------------------------------------------------------------------------- text (item 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('title: "a\\u202eb"\n', "1:8: error: bidirectional control character U+202E in text"),
        ("title: a\u2066b\n", "1:8: error: bidirectional control character U+2066 in text"),
        ('title: "a\\U0000202Ab"\n', "1:8: error: bidirectional control character U+202A in text"),
        ('title: "a\\ud800b"\n', "1:8: error: lone surrogate U+D800 in text"),
        ('title: "\\ud83d\\ude00"\n', "1:8: error: lone surrogate U+D83D in text"),  # a pair, escaped: two halves
        ('points:\n  - "x"\n  - "y\\u2069"\n', "3:5: error: bidirectional control character U+2069 in text"),
        ('"ti\\u202etle": x\n', "1:1: error: bidirectional control character U+202E in text"),  # keys too
    ],
)
def test_bidi_controls_and_lone_surrogates_are_refused_where_they_are(tmp_path, text, message):
    assert [f.split(" (")[0] for f in findings_of(tmp_path, text)] == [f"brief.yml:{message}"]
    assert quick_parse(text.encode("utf-8")) is None  # the build's fast reader steps aside to the locating one
    with pytest.raises(Exception):  # noqa: B017 (Refused, or libyaml's own error for a surrogate)
        fastyaml.read(text)


def test_every_string_with_a_forbidden_character_is_named_in_file_order_not_only_the_first(tmp_path):
    """An editor who pasted text with zero-width spaces into several fields fixes them all in one go
    (the attack corpus: 129 fields, one error)."""
    text = 'title: "a\u200bb"\npoints:\n  - "ok"\n  - "c\u202ed"\nscope: "e\u200bf"\n'
    found = [f.split(" (")[0] for f in findings_of(tmp_path, text)]
    assert found == [
        "brief.yml:1:8: error: invisible character U+200B in text",
        "brief.yml:4:5: error: bidirectional control character U+202E in text",
        "brief.yml:5:8: error: invisible character U+200B in text",
    ]


def test_an_emoji_written_whole_or_as_one_escape_is_text(tmp_path):
    text = 't: "\\U0001F600 😀"\n'
    assert fastyaml.read(text) == {"t": "😀 😀"}
    (tmp_path / "x.yml").write_text(text, encoding="utf-8")
    tree, findings = read_yaml(tmp_path / "x.yml", "x.yml")
    assert (dict(tree), findings) == ({"t": "😀 😀"}, [])


def test_the_shipped_data_holds_no_forbidden_character():
    for path in sorted((ROOT / "data").rglob("*.yml")):
        text = path.read_text(encoding="utf-8")
        assert not fastyaml.FORBIDDEN.search(text), path
        assert not re.search(r"\\u(?:20(?:2[a-eA-E]|6[6-9])|[dD][89a-fA-F])", text), path  # nor escaped


# --------------------------------------------------------------------------- YAML merge keys, scalar aliases (item 3)


def test_a_merge_key_is_refused_at_the_merge_key_even_when_a_merged_key_is_wrong(tmp_path):
    """It used to end in a KeyError: the merged keys have no position to point an error at."""
    text = (
        "schema: 1\ntopic: inference\ntitle: t\nstated_in: 2026-10-21-inference-E1\n"
        "doc: &doc {path: organized/knowledge/inference.md, version: 7}\n"
        "sections:\n  - <<: *doc\n    number: '1'\n"
    )
    assert findings_of(tmp_path, text, Outline) == [
        "brief.yml:7:5: error: merge keys (<<: *name) are not allowed in briefs (write the keys out in full)"
    ]


def test_an_alias_of_a_scalar_is_refused_like_one_of_a_list(tmp_path):
    """(ruamel.yaml places an alias of a scalar where its anchor is: the finding points at ``&t``.)"""
    assert findings_of(tmp_path, 'title: &t "x"\nscope: *t\n') == [
        "brief.yml:1:8: error: anchors and aliases (&name, *name) are not allowed in briefs (write the value out in full)"
    ]


# --------------------------------------------------------------------------- strict booleans, numbers and dates (items 4, 5)


@pytest.mark.parametrize("value", ["yes", "no", "on", "off", "true", "1", 1, 0])
def test_verified_and_as_conclusion_are_true_or_false_only(value):
    data = brief_with(lambda d: d["citations"][0].__setitem__("verified", value))
    assert refusal(data) == [(("citations", 0, "verified"), "Input should be a valid boolean", None)]
    data = brief_with(lambda d: d["items"][0]["placement"].__setitem__("as_conclusion", value))
    assert [loc for loc, *_ in refusal(data)] == [("items", 0, "placement", "as_conclusion")]


def test_verified_yes_reads_as_an_editor_would_be_told(tmp_path):
    text = (ROOT / "data" / BRIEF).read_text(encoding="utf-8").replace("verified: true", "verified: yes")
    line = text.splitlines().index("    verified: yes") + 1
    assert findings_of(tmp_path, text) == [
        f"brief.yml:{line}:15: error: citations[0].verified: 'yes' is not true or false "
        "(write true or false (YAML 1.2 reads yes/no as text))"
    ]


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("items", 0, "number"), "1"),
        (("items", 0, "number"), 1.0),
        (("items", 0, "number"), True),
        (("citations", 0, "cited_by", 0, "count"), "4677"),
        (("citations", 0, "year"), "2016"),
        (("schema",), "1"),
        (("schema",), True),
        (("living_doc", "reference_count"), "527"),
    ],
)
def test_numbers_are_numbers_not_text_or_booleans(path, value):
    def change(d):
        node = d
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    assert [loc for loc, *_ in refusal(brief_with(change))] == [path]


@pytest.mark.parametrize("value", [True, [155], {"n": 155}, float("nan"), float("inf"), None])
def test_a_figure_value_is_a_finite_number_or_a_text(value):
    data = brief_with(lambda d: d["items"][4]["figures"][0].__setitem__("value", value))
    assert [loc for loc, *_ in refusal(data)] == [("items", 4, "figures", 0, "value")]


@pytest.mark.parametrize("value", [0, 20261021, "2026-10-21T00:00:00", "2026-10-21 ", "21/10/2026"])
def test_a_date_is_written_yyyy_mm_dd(value):
    data = brief_with(lambda d: d.__setitem__("date", value))
    assert [loc for loc, *_ in refusal(data)] == [("date",)]


def test_a_date_made_in_python_is_a_date():
    """The importer validates its drafts with real dates before it writes them out as text."""
    assert Brief.model_validate(brief_with(lambda d: d.__setitem__("date", dt.date(2026, 10, 21)))).date == dt.date(
        2026, 10, 21
    )
    assert refusal(brief_with(lambda d: d.__setitem__("date", dt.datetime(2026, 10, 21, 0, 0))))


def brief_figures(*values: tuple[str, object]) -> Dataset:
    """The shipped brief with item 5's figures replaced by ``(key, value)`` pairs."""
    data = brief_with(
        lambda d: d["items"][4].__setitem__("figures", [{"key": k, "label": k.title(), "value": v} for k, v in values])
    )
    data["contradictions"] = [c for c in data["contradictions"] if c["id"] != "kapitsa-weekly-gain"]
    return Dataset(briefs=[Brief.model_validate(data)])


TEXT = "is a number written as text (write it as a number, without quotes: value: {})"


@pytest.mark.parametrize(
    ("stars", "gain", "expected"),
    [
        (155, 175, ["error: Weekly-Gain +175 is larger than the total Stars 155"]),
        ("155", 175, ["error: Stars '155' " + TEXT.format(155)]),
        ("１５５", 175, ["error: Stars '１５５' " + TEXT.format(155)]),
        ("４,６７７", 175, ["error: Stars '４,６７７' " + TEXT.format(4677)]),
        (155, "+１７５", ["error: Weekly-Gain '+１７５' " + TEXT.format("+175")]),
        (
            "约 150",
            175,
            [
                "warning: Stars '约 150' is not a number, so a gain cannot be checked against its total "
                "(write the number alone (value: 150) and the basis (口径) in note:)"
            ],
        ),
        (155, 55, []),
        (155, 155, []),  # a new repository: its whole total came this week (a gain equal to it is no error)
    ],
)
def test_the_gain_rule_is_never_skipped_in_silence(stars, gain, expected):
    """Quoted or full-width numbers are refused, not read as numbers: see ``rules._typed_numbers``."""
    found = check_rules(brief_figures(("stars", stars), ("weekly-gain", gain)), Rules())
    said = [f"{f.severity}: {f.message}" + (f" ({f.hint})" if f.hint else "") for f in found]
    assert [
        s.removesuffix(" (fix the basis (口径) of the figure, or record a contradiction that withholds it)")
        for s in said
    ] == expected


def test_numbers_in_text_stay_text_where_no_rule_compares_them():
    """A version "0.10" must stay text (as a number it would read 0.1): only the figures a rule
    compares as numbers (``gain_totals``) must be numbers."""
    assert check_rules(brief_figures(("version", "0.10"), ("language", "C++"), ("stars", 155)), Rules()) == []


# --------------------------------------------------------------------------- URLs (item 1) and their schema pattern (item 7)

PUBLIC = [
    "https://example.org/post?a=1#x",
    "http://example.org",
    "https://example.org:8443/a",
    "https://example.org:/a",
    "https://[2606:4700::1]:8443/a",
    "https://medium.com/@someone/post",
    "https://xn--xample-2of.org/",
    "https://еxample.org/p",  # accepted, with a warning (below)
    "https://example.org/" + "a" * (model.MAX_URL - 20),
]
REFUSED = [
    "http://[::1",
    "http://[::zz]/",
    "http://[1.2.3.4]/",
    "https://example.org:99999/",
    "https://example.org:+80/",
    "https://a.com:8080:90/",
    "https://jay:hunter2@example.org/",
    "https://@example.org/",
    "https://example.org\\@evil.com/",
    "https://evil.com\\.example.org/",
    "https://example.org／evil.com",
    "https://example.org：8080/",
    "http:///x",
    "http://",
    "https://exa mple.org/",
    "https://example.org/" + "a" * model.MAX_URL,
    "javascript:alert(1)",
    "HTTPS://example.org/",
]


def model_accepts(adapter: TypeAdapter, value: str) -> bool:
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


def schema_accepts(pattern: re.Pattern[str], value: str, max_length: int | None = None) -> bool:
    return bool(pattern.search(value)) and (max_length is None or len(value) <= max_length)


@pytest.mark.parametrize("url", PUBLIC + REFUSED, ids=lambda u: u[:40])
def test_the_model_and_the_schema_pattern_agree_on_urls(url):
    accepted = model_accepts(TypeAdapter(HttpUrl), url)
    assert accepted == (url in PUBLIC)
    assert schema_accepts(model.HTTP_URL, url, model.MAX_URL) == accepted
    regress = pytest.importorskip("regress", reason="regress (ECMA-262 regexes, a check-jsonschema dependency)")
    assert (bool(regress.Regex(model.HTTP_URL.pattern, "u").find(url)) and len(url) <= model.MAX_URL) == accepted


def test_the_lookalikes_of_url_separators_are_all_listed():
    lookalikes = "".join(
        c
        for c in map(chr, range(0x80, 0x110000))
        if not 0xD800 <= ord(c) <= 0xDFFF and any(x in unicodedata.normalize("NFKC", c) for x in "/?#@:")
    )
    assert model.NETLOC_LOOKALIKES.encode().decode("unicode_escape") == lookalikes


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/x",
        "http://127.0.0.1:8000/admin",
        "http://10.0.0.7/",
        "http://192.168.1.20/",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/",
        "http://[::1]/",
        "http://[fe80::1]/",
        "http://localhost:3000/",
        "http://api.localhost/",
        "https://[2606:4700::1]/",
        "https://еxample.org/p",
    ],
)
def test_a_source_url_is_linked_on_the_site_exactly_when_no_rule_warns_that_it_is_not_public(url):
    from digest_plugin.site.text import outbound

    data = brief_with(lambda d: d["items"][0]["sources"].__setitem__("urls", [url]))
    warnings = [f.message for f in check_rules(Dataset(briefs=[Brief.model_validate(data)]), Rules())]
    not_public = [w for w in warnings if "is not a public address" in w]
    assert (outbound(url) is None) == bool(not_public), warnings
    assert any("non-ASCII" in w for w in warnings) == (not url.isascii())


# --------------------------------------------------------------------------- arXiv ids (item 7)


def test_the_arxiv_schema_pattern_is_exactly_what_the_model_accepts():
    adapter = TypeAdapter(model.ArxivId)
    ids = [f"{yymm:04d}.{n}" for yymm in range(0, 10000, 7) for n in ("0880", "08803", "088031")]
    ids += [
        "1605.08803v2",
        "1605.08803v0",
        "hep-th/9901001",
        "math.GT/0309136v1",
        "hep-th/990100",
        "１６０５.０８８０３",
    ]
    ids += ["1412.6980", "1501.00001", "1501.0001", "0704.0001", "1613.00001"]
    for value in ids:
        assert model_accepts(adapter, value) == bool(model.ARXIV.search(value)), value


# --------------------------------------------------------------------------- material paths (item 6)


@pytest.mark.parametrize(
    ("path", "accepted"),
    [
        ("inbox/jay/brief.md", True),
        ("a/..b", True),
        ("./a.md", True),
        ("inbox\\jay\\brief.md", False),
        ("C:/Users/jay/brief.md", False),
        ("c:brief.md", False),
        ("\\\\server\\share\\brief.md", False),
        ("", False),
        ("/etc/passwd", False),
        ("a/../../b", False),
    ],
)
def test_material_paths_model_and_schema_agree(path, accepted):
    assert model_accepts(TypeAdapter(MaterialPath), path) == accepted
    assert schema_accepts(model.MATERIAL_PATH, path) == accepted


# --------------------------------------------------------------------------- consistency (item 6): what stays quiet


def test_a_zero_cited_by_count_beside_a_small_one_is_lag_not_a_warning():
    def counts(s2: int, openalex: int) -> list[str]:
        data = brief_with(
            lambda d: d["citations"][0].__setitem__(
                "cited_by", [{"source": "S2", "count": s2}, {"source": "OpenAlex", "count": openalex}]
            )
        )
        return [f.message for f in check_rules(Dataset(briefs=[Brief.model_validate(data)]), Rules())]

    assert counts(ZERO_BESIDE - 1, 0) == []
    assert counts(0, 0) == []
    assert counts(0, ZERO_BESIDE) == [f"arXiv:1605.08803 is cited 0 times in S2 but {ZERO_BESIDE} times in OpenAlex"]


def test_a_citation_of_the_brief_year_and_a_material_collected_on_one_day_are_fine():
    def change(d):
        d["citations"][0]["year"] = 2026
        d["items"][4]["sources"]["materials"][0].update(first_collected="2026-10-21", last_collected="2026-10-21")

    assert check_rules(Dataset(briefs=[Brief.model_validate(brief_with(change))]), Rules()) == []


def test_a_brief_cannot_close_another_topics_follow_up(data_copy):
    """Lifecycle ids are per topic (issue 33, 6: pooled across topics, a serving brief closing an
    inference follow-up passed `digest check` and the merge then failed with a KeyError)."""
    from test_corpus import run_check

    outline = (data_copy / "outlines" / "inference.yml").read_text(encoding="utf-8")
    (data_copy / "outlines" / "serving.yml").write_text(
        outline.replace("topic: inference", "topic: serving").replace(
            'stated_in: "2026-10-21-inference-E1"', 'stated_in: "2026-10-22-serving-E1"'
        ),
        encoding="utf-8",
    )
    (data_copy / "briefs" / "2026-10-22-serving-E1.yml").write_text(
        """schema: 1
id: "2026-10-22-serving-E1"
topic: serving
round: E1
title: "serving · E1 预消化简报（2026-10-22）"
date: 2026-10-22
items: []
follow_up_updates:
  - follow_up: vllm-long-prefill-issue
    status: done
""",
        encoding="utf-8",
    )
    assert run_check(data_copy) == [
        "data/briefs/2026-10-22-serving-E1.yml:9:16: error: follow-up 'vllm-long-prefill-issue' was never opened by "
        "this or an earlier brief (a follow-up must be opened (follow_ups:) before it is closed)"
    ]
