"""Bad and hostile input: a located error, or text rendered inert and literal; never a traceback."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import built, copy_project, run_cli

from digest_plugin.core.pipeline import analyse

CORPUS = Path(__file__).parent / "corpus"
TODAY = dt.date(2026, 12, 2)
ERROR_CASES = sorted((CORPUS / "errors").glob("*.yml"))


def run_check(data: Path) -> list[str]:
    result = analyse(data, relative_to=data.parent, today=TODAY)
    return [
        f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.message}" + (f" ({f.hint})" if f.hint else "")
        for f in result.findings
    ]


def test_the_corpus_is_large_enough():
    assert len(ERROR_CASES) >= 40
    assert len(list((CORPUS / "inert").glob("*.yml"))) >= 10


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda p: p.stem)
def test_bad_input_gives_its_exact_error(case: Path, data_copy: Path):
    text = case.read_text(encoding="utf-8")
    expected = re.findall(r"^# expect: (.+)$", text, re.M)
    assert expected, f"{case.name} states no expected error"
    name = (re.search(r"^# as: (\S+)$", text, re.M) or [None, "2026-10-22-inference-E1.yml"])[1]
    shutil.copy(case, data_copy / "briefs" / name)
    assert run_check(data_copy) == [f"data/briefs/{name}:{e}" for e in expected]


@pytest.mark.parametrize(
    "name, content, expected",
    [
        ("non-utf8", b'schema: 1\ntitle: "caf\xe9"\n', "2:12: error: byte 0xe9 is not UTF-8 (save the file as UTF-8)"),
        (
            "gbk",
            'schema: 1\ntitle: "简报"\n'.encode("gbk"),
            "2:9: error: byte 0xbc is not UTF-8 (save the file as UTF-8)",
        ),
        (
            "ten-megabytes",
            b"schema: 1\n" + b"# padding\n" * 1_000_000,
            "1:1: error: file is 10,000,010 bytes; a brief must be under 1,000,000 bytes (split it or remove pasted material)",
        ),
        ("zero-bytes", b"", "1:1: error: file is empty (a brief starts with `schema: 1`)"),
    ],
)
def test_bad_bytes(name, content, expected, data_copy: Path):
    (data_copy / "briefs" / "2026-10-22-inference-E1.yml").write_bytes(content)
    assert run_check(data_copy) == [f"data/briefs/2026-10-22-inference-E1.yml:{expected}"]


def test_a_byte_order_mark_is_accepted(data_copy: Path):
    base = (CORPUS / "inert" / "script-in-title.yml").read_bytes()
    (data_copy / "briefs" / "2026-10-02-inference-E1.yml").write_bytes(b"\xef\xbb\xbf" + base)
    assert run_check(data_copy) == []


@pytest.mark.slow
def test_cli_never_shows_a_traceback(data_copy: Path, capsys, monkeypatch):
    for case in ERROR_CASES:
        shutil.copy(case, data_copy / "briefs" / "2026-10-22-inference-E1.yml")
        code, out, err = run_cli(
            "check", "data", "--config", "none", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch
        )
        assert code == 1, case.name
        assert "Traceback" not in err + out, case.name
        assert "data/briefs/2026-10-22-inference-E1.yml:" in err, case.name


SMOKE = ["alias-bomb", "unknown-section", "gain-larger-than-total"]
"""A YAML error, a reference error and a rule (its message in Chinese), through the real console script."""


def test_the_digest_command_reports_bad_input_and_passes_good_input(data_copy: Path):
    digest = shutil.which("digest", path=str(Path(sys.executable).parent))
    assert digest, "the `digest` console script is not installed (pip install -e . installs it)"

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [digest, "check", "data", "--config", "none"],
            cwd=data_copy.parent,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
        )

    clean = run()
    assert (clean.returncode, clean.stderr) == (0, ""), clean.stderr
    assert clean.stdout == "ok: 1 topic, 1 brief\n"
    for name in SMOKE:
        case = CORPUS / "errors" / f"{name}.yml"
        shutil.copy(case, data_copy / "briefs" / "2026-10-22-inference-E1.yml")
        out = run()
        assert out.returncode == 1, name
        assert "Traceback" not in out.stderr + out.stdout, name
        for expected in re.findall(r"^# expect: (.+)$", case.read_text(encoding="utf-8"), re.M):
            position, _, message = expected.partition(" error: ")
            located = f"data/briefs/2026-10-22-inference-E1.yml:{position} error: {message.split(' (')[0]}"
            assert located in out.stderr, name


# --------------------------------------------------------------------------- inert text


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    """The real site plus every inert case, built once with --strict."""
    root = copy_project(tmp_path_factory.mktemp("hostile"))
    cases = {}
    for case in sorted((CORPUS / "inert").glob("*.yml")):
        brief_id = re.search(r'^id: "([^"]+)"', case.read_text(encoding="utf-8"), re.M).group(1)
        shutil.copy(case, root / "data" / "briefs" / f"{brief_id}.yml")
        payload = re.search(r"^# payload: (.+)$", case.read_text(encoding="utf-8"), re.M).group(1)
        cases[case.stem] = (brief_id, json.loads(payload))
    built(root)
    return root, cases


def pages(site: Path):
    for page in site.rglob("*.html"):
        yield page, page.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in (CORPUS / "inert").glob("*.yml")))
def test_hostile_text_is_shown_literally_on_its_brief_page(hostile_site, case):
    root, cases = hostile_site
    brief_id, payload = cases[case]
    page = (root / "site" / "inference" / "briefs" / brief_id / "index.html").read_text(encoding="utf-8")
    assert html.escape(payload) in page


def test_nothing_hostile_runs_anywhere(hostile_site):
    root, _ = hostile_site
    build_dir = str(root)
    for path, text in pages(root / "site"):
        assert "<script>alert" not in text, path
        assert "<iframe" not in text and "<img src=x" not in text and "<style>body" not in text, path
        assert 'href="javascript:' not in text, path
        assert "<strong>init</strong>" not in text and "<strong>globals</strong>" not in text, path
        assert build_dir not in text, path  # the Jinja payload would print the build folder


def test_hostile_text_stays_literal_on_section_pages(hostile_site):
    root, cases = hostile_site
    section = (root / "site" / "inference" / "3" / "index.html").read_text(encoding="utf-8")
    _, payload = cases["jinja-expression-in-title"]
    assert html.escape(payload) in section
    _, payload = cases["dunder-in-contradiction"]
    assert html.escape(payload) in section
