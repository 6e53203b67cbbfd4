"""The build's fast YAML reader gives exactly the data the locating (ruamel) reader gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT

from digest_plugin.core import fastyaml
from digest_plugin.core.load import _yaml

FILES = sorted({*ROOT.glob("data/**/*.yml"), *ROOT.glob("tests/**/*.yml"), *ROOT.glob("tests/**/*.yaml")})


def plain(node):
    """ruamel's round-trip types as plain Python values."""
    if isinstance(node, dict):
        return {plain(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return str(node)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_both_readers_agree_or_the_fast_one_steps_aside(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        fast = fastyaml.read(text)
    except Exception:  # noqa: BLE001 - any refusal at all sends the build to the slow reader (load.quick_parse)
        return  # refused (an alias bomb, a tag, bad YAML…): the build falls back to the slow reader
    assert fast == plain(_yaml().load(text))


@pytest.mark.parametrize(
    "text, value",
    [
        ("v: yes", "yes"),
        ("v: no", "no"),
        ("v: on", "on"),
        ("v: off", "off"),
        ("v: 22:20", "22:20"),
        ("v: 010", 10),
        ("v: 0o10", 8),
        ("v: 0x1F", 31),
        ("v: 2026-10-21", "2026-10-21"),
        ("v: 1e3", 1000.0),
        ("v: ~", None),
        ("v: True", True),
        ("v: 0.23.0", "0.23.0"),
        ("v: .inf", float("inf")),
    ],
)
def test_yaml_1_1_traps_read_as_yaml_1_2(text, value):
    assert fastyaml.read(text)["v"] == value
    assert plain(_yaml().load(text))["v"] == value


@pytest.mark.parametrize(
    "text",
    [
        "v: 1_000",
        "v: 1_0.5",
        "v: 0b101",
        "v: -0x1F",
        "v: +0o7",
        "v: .5e3",
        "title: 0_0",  # ruamel's own numbers
        "%YAML 1.1\n---\nv: yes",
        "v: a\tb",
        "v:\ta",
        "v: |#c\n  x\n",
        "? .nan\n: 1\n? .nan\n: 2\n",
    ],
)
def test_where_ruamel_reads_otherwise_the_fast_reader_steps_aside(text):
    """Found by a review: these gave other data than the locating loader, or data where it fails."""
    with pytest.raises(fastyaml.Refused):
        fastyaml.read(text)


@pytest.mark.parametrize(
    "text", ["a: 1\na: 2\n", "a: &x [1]\nb: *x\n", "a: !!python/name:os.system x\n", 'a: "\\u0000"\n', "<<: {a: 1}\n"]
)
def test_the_fast_reader_refuses_what_briefs_never_contain(text):
    with pytest.raises(fastyaml.Refused):
        fastyaml.read(text)
