"""The build's fast YAML reader gives exactly the data the locating (ruamel) reader gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from digest_plugin import fastyaml
from digest_plugin.load import Cache, _yaml, load_data, quick_load
from digest_plugin.model import Brief, Outline

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
    except Exception:
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
    with pytest.raises(Exception):
        fastyaml.read(text)


def test_quick_load_validates_the_real_brief_like_the_slow_path():
    path = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"
    from digest_plugin.load import load_file

    slow, findings, _ = load_file(path, Brief)
    assert findings == []
    assert quick_load(path.read_bytes(), Brief) == slow
    assert quick_load((ROOT / "data" / "outlines" / "inference.yml").read_bytes(), Outline) is not None


def test_a_rebuild_with_no_change_reads_nothing_and_an_edit_reads_one_file(data_copy):
    cache = Cache()
    first = load_data(data_copy, cache=cache)
    assert cache.reads == 2  # the outline and the brief
    second = load_data(data_copy, cache=cache)
    assert cache.reads == 0 and second.briefs == first.briefs
    brief = data_copy / "briefs" / "2026-10-21-inference-E1.yml"
    brief.write_text(brief.read_text(encoding="utf-8").replace("value: 155", "value: 156"), encoding="utf-8")
    third = load_data(data_copy, cache=cache)
    assert cache.reads == 1
    assert third.briefs[0].items[4].figures[0].value == 156


def test_parallel_and_serial_loading_agree(tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import generate

    data = generate(12, tmp_path / "data")
    import digest_plugin.load as load

    serial = load_data(data, workers=1)
    old = load.PARALLEL_FROM
    load.PARALLEL_FROM = 2
    try:
        parallel = load_data(data, workers=2)
    finally:
        load.PARALLEL_FROM = old
    assert parallel.briefs == serial.briefs


def test_a_worker_that_fails_loses_nothing(tmp_path, monkeypatch):
    """If a forked parser dies, its files are parsed in this process instead."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from synth import generate

    import digest_plugin.load as load
    from digest_plugin import workers

    data = generate(8, tmp_path / "data")
    serial = load_data(data, workers=1)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(workers.marshal, "dump", broken)  # the forked worker inherits this
    monkeypatch.setattr(load, "PARALLEL_FROM", 2)
    monkeypatch.setattr(workers.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert load_data(data, workers=2).briefs == serial.briefs
    assert not list((tmp_path / "tmp").iterdir())
