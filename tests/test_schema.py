"""Editors get completion and validation from the JSON Schema their brief files point at."""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, read_data  # a data file as the build reads it (YAML 1.2, dates as text)

from digest_plugin.core.load import site_vocabulary
from digest_plugin.core.vocabulary import schema_of


def test_committed_schemas_are_current():
    words = site_vocabulary(ROOT / "data")
    for name in ("brief", "outline", "vocabulary"):
        committed = json.loads((ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert committed == schema_of(name, words), f"run: digest schema {name} > schema/{name}.schema.json"


def test_the_brief_schema_lists_the_sites_words_for_completion(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    path = data / "vocabulary.yml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("gaps:\n", "gaps:\n  not_reproduced: 未复现\n", 1), encoding="utf-8"
    )
    out = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "schema", "--data", str(data)],
        capture_output=True,
        text=True,
        check=True,
    )
    gap = json.loads(out.stdout)["$defs"]["Evidence"]["properties"]["gaps"]["items"]
    assert gap["enum"][0] == "not_reproduced" and "truncated" in gap["enum"]
    assert gap["markdownEnumDescriptions"][0] == "未复现"


def test_data_files_point_at_the_schema():
    data = ROOT / "data"
    for path in [*(data / "briefs").glob("*.yml"), *(data / "outlines").glob("*.yml"), data / "vocabulary.yml"]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        target = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert target, path
        assert (path.parent / target.group(1)).resolve().is_file(), path


def test_schema_command_prints_json_with_chinese_intact():
    out = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "schema"], capture_output=True, text=True, check=True
    )
    schema = json.loads(out.stdout)
    assert set(schema["properties"]["items"]["items"]["$ref"].split("/")[-1:]) == {"Item"}
    assert "partially_verified" in schema["$defs"]["Evidence"]["properties"]["level"]["enum"]
    assert "部分核查" in json.dumps(schema["$defs"]["Evidence"], ensure_ascii=False)


# --------------------------------------------------------------------------- the schema says what `digest check` says
#
# Editors (and CI, with check-jsonschema) validate against schema/*.schema.json; `digest check`
# validates against the models.  Every field-level constraint is generated from the model into the
# schema, so both must refuse the same broken fields, at the same place, and accept the shipped data.
# The `jsonschema` library (a dependency of check-jsonschema) does the schema side here.

SHIPPED_FILES = {
    "brief": sorted(
        [
            *(ROOT / "data" / "briefs").glob("*.yml"),
            *(ROOT / "tests" / "fixtures" / "lifecycle").glob("*.yml"),
            *(ROOT / "tests" / "fixtures" / "topics" / "briefs").glob("*.yml"),
        ]
    ),
    "outline": sorted(
        [
            *(ROOT / "data" / "outlines").glob("*.yml"),
            *(ROOT / "tests" / "fixtures" / "topics" / "outlines").glob("*.yml"),
        ]
    ),
}
NO_JSONSCHEMA = "jsonschema is not installed (pip install check-jsonschema; the lead adds it to the test extras)"


@functools.cache
def schema_validator(name: str):
    """Checked and compiled once a run (0.4 s each): the schema files do not change while tests run."""
    jsonschema = pytest.importorskip("jsonschema", reason=NO_JSONSCHEMA)
    schema = json.loads((ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_errors(name: str, data) -> list[tuple[tuple, str]]:
    return sorted(
        ((tuple(e.absolute_path), e.message) for e in schema_validator(name).iter_errors(data)), key=lambda x: x[0]
    )


@pytest.mark.parametrize(
    ("name", "path"),
    [(name, path) for name, paths in SHIPPED_FILES.items() for path in paths],
    ids=lambda x: x if isinstance(x, str) else str(x.relative_to(ROOT)),
)
def test_the_shipped_data_is_valid_under_its_schema(name, path):
    assert schema_errors(name, read_data(path)) == []


def test_every_pattern_in_the_schemas_is_an_ecma_262_regex():
    """JSON Schema patterns are ECMA-262 regexes (what check-jsonschema and editors run), not Python's."""
    regress = pytest.importorskip("regress", reason="regress (a check-jsonschema dependency) is not installed")

    def patterns(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    yield value
                else:
                    yield from patterns(value)
        elif isinstance(node, list):
            for value in node:
                yield from patterns(value)

    for name in ("brief", "outline"):
        found = list(patterns(json.loads((ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))))
        assert len(found) >= 5, name
        for pattern in found:
            regress.Regex(pattern, "u")  # raises on what ECMA-262 (unicode mode) does not accept


def test_check_jsonschema_accepts_the_shipped_data():
    """The command editors and CI run, when it is installed (check-jsonschema on PyPI)."""
    tool = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if tool is None:
        pytest.skip("check-jsonschema is not installed (pip install check-jsonschema)")
    for name, paths in SHIPPED_FILES.items():
        out = subprocess.run(
            [tool, "--schemafile", str(ROOT / "schema" / f"{name}.schema.json"), *map(str, paths)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stdout + out.stderr


BRIEF_FILE = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"
OUTLINE_FILE = ROOT / "data" / "outlines" / "inference.yml"
DELETE = object()

VARIANTS = [
    # (what, file, path to change, new value, where the schema says it: None when both must accept)
    ("arXiv id that cannot exist", BRIEF_FILE, ("citations", 0, "arxiv"), "1605.8803", ...),
    ("arXiv id in full-width digits", BRIEF_FILE, ("citations", 0, "arxiv"), "１６０５.０８８０３", ...),
    ("javascript: URL", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "javascript:alert(1)", ...),
    ("URL with credentials", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "https://u:p@example.org/", ...),
    ("URL that cannot be parsed", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "http://[::1", ...),
    ("URL port out of range", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "https://example.org:99999/", ...),
    ("URL too long", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "https://example.org/" + "a" * 2000, ...),
    ("URL with an encoded CR/LF", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "https://example.org/a%0D%0Ab", ...),
    ("URL with an encoded host", BRIEF_FILE, ("items", 0, "sources", "urls", 0), "https://exa%6Dple.org/", ...),
    ("DOI with a space", BRIEF_FILE, ("citations", 0, "doi"), "10.48550/arXiv 1605.08803", ...),
    ("DOI written as a URL", BRIEF_FILE, ("citations", 0, "doi"), "https://doi.org/10.48550/arXiv.1605.08803", ...),
    ("DOI with a short registrant", BRIEF_FILE, ("citations", 0, "doi"), "10.12/abc", ...),
    ("section 3.x", BRIEF_FILE, ("items", 0, "placement", "section"), "3.x", ...),
    ("round E0", BRIEF_FILE, ("round",), "E0", ...),
    ("follow-up round E0", BRIEF_FILE, ("follow_ups", 0, "round"), "E0", ...),
    ("slug Foo Bar", BRIEF_FILE, ("items", 0, "id"), "Foo Bar", ...),
    ("brief id with full-width digits", BRIEF_FILE, ("id",), "２０２６-10-21-inference-E1", ...),
    ("unknown evidence level", BRIEF_FILE, ("items", 0, "evidence", "level"), "rumour", ...),
    ("empty title", BRIEF_FILE, ("items", 0, "title"), "", ...),
    ("empty relation", BRIEF_FILE, ("items", 0, "relation"), "", ...),
    ("Windows material path", BRIEF_FILE, ("materials", 0, "path"), "inbox\\jay\\brief.md", ...),
    ("drive letter", BRIEF_FILE, ("materials", 0, "path"), "C:/inbox/brief.md", ...),
    ("path climbing out", BRIEF_FILE, ("materials", 0, "path"), "../../etc/passwd", ...),
    ("verified: yes", BRIEF_FILE, ("citations", 0, "verified"), "yes", ...),
    ("number as text", BRIEF_FILE, ("items", 0, "number"), "1", ...),
    ("number 0", BRIEF_FILE, ("items", 0, "number"), 0, ...),
    ("negative count", BRIEF_FILE, ("citations", 0, "cited_by", 0, "count"), -1, ...),
    ("year before arXiv", BRIEF_FILE, ("citations", 0, "year"), 1985, ...),
    ("impossible date", BRIEF_FILE, ("date",), "2026-02-30", ...),
    ("date as a number", BRIEF_FILE, ("items", 4, "sources", "materials", 0, "last_collected"), 0, ...),
    ("figure value true", BRIEF_FILE, ("items", 4, "figures", 0, "value"), True, ...),
    ("schema 2", BRIEF_FILE, ("schema",), 2, ...),
    ("unknown field", BRIEF_FILE, ("items", 0, "relaton"), "x", ("items", 0)),
    (
        "update in place without its entry",
        BRIEF_FILE,
        ("items", 4, "placement", "entry"),
        DELETE,
        ("items", 4, "placement"),
    ),
    ("outline section 3.x", OUTLINE_FILE, ("sections", 0, "number"), "3.x", ...),
    ("outline entry id Foo Bar", OUTLINE_FILE, ("entries", 0, "id"), "Foo Bar", ...),
    ("outline stated_in", OUTLINE_FILE, ("stated_in",), "2026-10-21", ...),
    # accepted by both
    ("a versioned arXiv id", BRIEF_FILE, ("citations", 0, "arxiv"), "1605.08803v2", None),
    (
        "a URL with a port and an IPv6 host",
        BRIEF_FILE,
        ("items", 0, "sources", "urls", 0),
        "https://[2606:4700::1]:8443/a",
        None,
    ),
    ("verified: false", BRIEF_FILE, ("citations", 0, "verified"), False, None),
    ("a material path with dots in a name", BRIEF_FILE, ("materials", 0, "path"), "inbox/a..b/c.md", None),
]


@pytest.mark.parametrize(("what", "file", "path", "value", "schema_at"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_digest_check_and_the_schema_refuse_the_same_field(what, file, path, value, schema_at, data_copy):
    from ruamel.yaml import YAML

    from digest_plugin.core.findings import locate
    from digest_plugin.core.load import _yaml, read_yaml
    from digest_plugin.core.pipeline import analyse

    name = "outline" if file == OUTLINE_FILE else "brief"
    tree = _yaml().load(file.read_text(encoding="utf-8"))
    node = tree
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    target = data_copy / file.relative_to(ROOT / "data")
    with target.open("w", encoding="utf-8") as out:
        YAML(typ="rt").dump(tree, out)

    said = schema_errors(name, read_data(target))
    found = analyse(data_copy, relative_to=data_copy.parent, today=dt.date(2026, 12, 2)).findings
    if schema_at is None:
        assert (said, found) == ([], []), what
        return
    assert [at for at, _ in said] == [path if schema_at is ... else schema_at], (what, said)
    located, _ = read_yaml(target, "x")
    line, col = locate(located, path if value is not DELETE else path[:-1])
    assert [(f.severity, f.line) for f in found] == [("error", line)], (what, [str(f) for f in found])
    assert found[0].col == col or schema_at is not ..., (what, str(found[0]))
