"""`digest check`: the build's checks from the command line, like a compiler; exit 0 clean, 1 problems, 2 bad usage.

Run in this process (``cli.main``); test_corpus.py runs the installed console script itself.
"""

from __future__ import annotations

import json
import re

from helpers import BRIEF, ROOT, line_of, replace_in, run_cli


def test_cli_check_reports_like_a_compiler(data_copy, capsys, monkeypatch):
    brief = data_copy / BRIEF
    replace_in(brief, "level: lead", "level: rumour")
    code, out, err = run_cli("check", "data", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and out == ""
    line = line_of(brief, "rumour")
    source = brief.read_text(encoding="utf-8").splitlines()[line - 1]
    col = source.index("rumour") + 1
    lines = err.splitlines()
    assert lines[0].startswith(f"data/{BRIEF}:{line}:{col}: error: items[")
    assert lines[1] == f"  {source}" and lines[2] == "  " + " " * (col - 1) + "^"  # the line, a caret under it
    assert lines[3] == "  hint: add `rumour: <中文标签>` under evidence_levels: in data/vocabulary.yml"
    assert lines[-1] == "1 error, 0 warnings"
    assert "Traceback" not in err


def test_cli_check_as_json_for_bots(data_copy, capsys, monkeypatch):
    replace_in(data_copy / BRIEF, "level: lead", "level: rumour")
    code, out, _ = run_cli(
        "check", "data", "--format", "json", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch
    )
    (finding,) = json.loads(out)
    assert code == 1
    assert (finding["path"], finding["line"], finding["severity"]) == (
        f"data/{BRIEF}",
        line_of(data_copy / BRIEF, "rumour"),
        "error",
    )


def test_cli_check_clean_data_exits_zero(tmp_path, capsys, monkeypatch):
    code, out, err = run_cli("check", str(ROOT / "data"), cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    assert out == "ok: 1 topic, 1 brief\n"


def test_cli_check_applies_the_rules_of_mkdocs_yml(data_copy, capsys, monkeypatch):
    # 4677 (S2) vs 2066 (OpenAlex) citations of Real NVP differ by 2.26×: a warning only under a factor of 2
    config = data_copy.parent / "mkdocs.yml"
    config.write_text("plugins:\n  - digest:\n      rules:\n        citation_count_factor: 2\n", encoding="utf-8")
    code, _, err = run_cli("check", "data", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 1 and "differ by more than 2×" in err and err.endswith("0 errors, 1 warning\n")


def test_cli_bad_usage_and_a_broken_config_exit_2(data_copy, capsys, monkeypatch):
    code, _, err = run_cli("check", "--format", "xml", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 2 and "invalid choice: 'xml'" in err
    (data_copy.parent / "mkdocs.yml").write_text(
        "plugins:\n  - digest:\n      rules:\n        citation_count_factr: 2\n", encoding="utf-8"
    )
    code, _, err = run_cli("check", "data", cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 2 and "mkdocs.yml: error: cannot read digest rules" in err and "citation_count_factr" in err
    assert "Traceback" not in err


def _arguments_without_help(usage: str) -> list[str]:
    """The arguments ``--help`` lists with no words after them, on their line or the next."""
    start = min(i for i in (usage.find("positional arguments:"), usage.find("options:")) if i >= 0)
    lines = usage[start:].splitlines()
    bare = []
    for k, line in enumerate(lines):
        m = re.match(r"^  (-{0,2}[a-z][\w-]*)(?:, --[\w-]+)?(?: [A-Z_]+(?: \[[A-Z_ .]+\])?)?(\s*)(.*)$", line)
        if not m or m[1] == "-h":
            continue
        follows = lines[k + 1] if k + 1 < len(lines) else ""
        if not m[3].strip() and not re.match(r"^\s{8,}\S", follows):
            bare.append(m[1])
    return bare


def test_every_command_explains_itself_and_the_version_is_the_installed_one(capsys, monkeypatch, tmp_path):
    from importlib.metadata import version

    code, listing, _ = run_cli("--help", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0
    commands = dict(re.findall(r"^    ([a-z-]+)\s+(\S.*)$", listing, re.M))
    assert {"check", "import", "review", "resolve", "diff", "build"} <= set(commands)
    for name, said in commands.items():
        code, out, _ = run_cli(name, "--help", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
        assert code == 0
        opening = " ".join(out.split("\n\n")[1].split())  # the paragraph after the usage lines
        assert opening.lower().startswith(said.split()[0].lower()), (name, opening, said)
        assert _arguments_without_help(out) == [], name  # every argument says what it is (issue 34)
    code, out, _ = run_cli("--version", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert (code, out.strip()) == (0, f"digest {version('digest-plugin')}")


def test_every_command_that_reads_mkdocs_yml_takes_config_the_same_way(capsys, monkeypatch, tmp_path):
    """``--config`` is one shared option (issue 31): every command but ``schema`` lists it, with
    the same words; no command at all is bad usage (exit 2), not a traceback."""
    code, listing, _ = run_cli("--help", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    names = re.findall(r"^    ([a-z-]+)\s+\S", listing, re.M)
    said = set()
    for name in names:
        _, out, _ = run_cli(name, "--help", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
        has = re.search(r"^  --config CONFIG\s+(.*(?:\n {8,}[^\s-].*)*)", out, re.M)
        assert bool(has) == (name != "schema"), name
        if has:
            said.add(" ".join(has[1].split()))
    assert len(said) == 1, said
    code, _, err = run_cli(cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 2 and "Traceback" not in err


def test_the_data_folder_is_given_the_same_way_to_every_command(tmp_path, capsys, monkeypatch):
    """``--data`` works for check and diff too (the positional folder stays); without either, the
    folder is the digest plugin's ``data_dir`` in ``--config`` (issue 34, point 8)."""
    import shutil

    shutil.copytree(ROOT / "data", tmp_path / "notes")
    (tmp_path / "site.yml").write_text("plugins:\n  - digest:\n      data_dir: notes\n", encoding="utf-8")
    assert run_cli("check", "--data", "notes", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    assert run_cli("check", "notes", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)[0] == 0
    code, out, err = run_cli("check", "--config", "site.yml", cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    code, out, err = run_cli(
        "new", "--topic", "inference", "--date", "2026-10-23", "--config", "site.yml",
        cwd=tmp_path, capsys=capsys, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 0 and out.strip() == "notes/briefs/2026-10-23-inference-E1.yml", (out, err)


def test_digest_new_takes_the_nights_next_round(data_copy, capsys, monkeypatch):
    """A night that has an E2 gets E3, not a second E1 written before it (issue 34, point 8)."""
    (data_copy / "briefs" / "2026-10-22-inference-E2.yml").write_text("", encoding="utf-8")
    code, out, _ = run_cli(
        "new", "--topic", "inference", "--date", "2026-10-22", "--data", "data",
        cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 0 and out.strip().endswith("2026-10-22-inference-E3.yml")
    code, out, _ = run_cli(
        "new", "--topic", "inference", "--date", "2026-10-24", "--data", "data",
        cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 0 and out.strip().endswith("2026-10-24-inference-E1.yml")


def test_an_importer_failure_is_a_located_error_not_a_traceback(data_copy, capsys, monkeypatch, tmp_path):
    """A brief no one foresaw may still trip the importer (blind5's first night did, 2026-12-04): the
    editor gets one file:line error that says nothing was written and what to do, and no traceback."""
    import digest_plugin.authoring.importer as importer

    def broken(*args, **kwargs):
        raise ValueError("zip() argument 2 is longer than argument 1")

    monkeypatch.setattr(importer, "import_full", broken)  # what `digest import` calls
    brief = tmp_path / "night.md"
    brief.write_text("inference · E1 预消化简报（2026-10-22）\n", encoding="utf-8")
    before = sorted(p.name for p in (data_copy / "briefs").iterdir())
    code, out, err = run_cli(
        "import", str(brief), "--data", str(data_copy), cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 1 and out == ""
    assert err.startswith(f"{brief}:1: error: the importer failed on this brief (ValueError: zip()")
    assert "nothing was written" in err and "Traceback" not in err
    assert sorted(p.name for p in (data_copy / "briefs").iterdir()) == before


def test_an_org_brief_imports_with_its_date_topic_and_round_from_its_file_name(
    data_copy, capsys, monkeypatch, tmp_path
):
    """An Emacs Org brief has no 「inference · E1 …（date）」 title line: `digest import` takes the date, topic and
    round from the team's file name, finds that topic's outline, and writes a brief `digest check` passes."""
    brief = tmp_path / "2026-10-22-inference-E1.md"
    brief.write_text(
        "#+TITLE: 预消化简报\n#+AUTHOR: Ana\n\n* 增量（1）\n** 条目 1：vLLM 分块预填充默认开启（高价值）\n:PROPERTIES:\n"
        ":来源: https://docs.vllm.ai/en/latest/\n:要点: 分块预填充默认开启\n:证据边界: 已核查发布说明；未复现。\n"
        ":关系: §3.1 尚无此项。\n:建议归入: §1.1「Kapitsa」原地更新。\n:END:\n* 矛盾\n- 无。\n* arXiv\n- 无。\n* 结论\n- 无。\n",
        encoding="utf-8",
    )
    code, out, err = run_cli(
        "import", str(brief), "--data", str(data_copy), cwd=data_copy.parent, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0 and out.strip().endswith("2026-10-22-inference-E1.yml"), err
    assert "read from the file's name «2026-10-22-inference-E1»" in err
    written = (data_copy / "briefs" / "2026-10-22-inference-E1.yml").read_text(encoding="utf-8")
    assert 'entry: "kapitsa"' in written or "entry: kapitsa" in written  # the topic's outline was found
