"""What the tests share: the project's paths, scratch copies of the shipped project and its builds,
a built site read back (``Site``, in ``site.py``), briefs made in code, the ``digest`` command run
in-process, and the search index read back.

Tests import these (``from helpers import copy_project``); the fixtures built from them are in
``conftest.py``.  One copy of each: a test that needs another kind of project adds a parameter here.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .site import Site as Site  # a built site read as a reader reads it

if TYPE_CHECKING:  # imported where used, so a module being edited breaks only the tests that need it
    from digest_plugin.core.model import Brief, Outline

ROOT = Path(__file__).resolve().parents[2]
BRIEF = "briefs/2026-10-21-inference-E1.yml"
FIXTURES = ROOT / "tests" / "fixtures"
LIFECYCLE = FIXTURES / "lifecycle"
"""Three fixture briefs after the real one (2026-10-22 E2, 2026-10-23 E1, 2026-10-24 E1)."""


def in_ci() -> bool:
    """Under CI a missing tool fails the tests that need it instead of skipping them.

    ``CI`` set to anything but an empty value, ``0``, ``false`` or ``no`` (any case) means CI: ``CI=false``
    is how a developer says "not CI", and must not turn skips into failures."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def read_data(path: Path):
    """A data file's plain data (dates as text), by the reader builds use (libyaml): ruamel's safe loader has no
    C binding in this project, and tests that read every imported brief while collecting paid for it twice a run."""
    from digest_plugin.core import fastyaml

    return fastyaml.read(path.read_text(encoding="utf-8"))


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line containing needle."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


# --------------------------------------------------------------------------- data sets (read-only)


def night_brief(**body) -> dict:
    """A hand-written brief of the night after the shipped one (2026-10-22, E1), as YAML data."""
    return {
        "schema": 1,
        "id": "2026-10-22-inference-E1",
        "topic": "inference",
        "round": "E1",
        "title": "inference · E1 预消化简报（2026-10-22）",
        "date": "2026-10-22",
        **body,
    }


def brief_item(item_id: str, number: int, title: str, placement: dict, **more) -> dict:
    """One item of a hand-written brief, as YAML data: every required field filled from ``title`` (no
    value rating unless given)."""
    return {
        "id": item_id,
        "number": number,
        "title": title,
        "sources": {"urls": [f"https://example.org/{number}"]},
        "points": [f"{title}：要点。"],
        "evidence": {"level": "verified", "boundary": f"{title}：只读了一手页面。"},
        "relation": f"{title}：与活文档的关系。",
        "placement": placement,
        **more,
    }


def later_brief(**changes) -> Brief:
    """A minimal brief of the day after the shipped one, written as an editor would, with the given changes."""
    from digest_plugin.core.model import Brief

    data = night_brief(
        citations=[
            {"arxiv": "1605.08803v2", "title": "Density Estimation Using Real NVP"},
            {"arxiv": "2309.06180", "title": "Efficient Memory Management for LLM Serving with PagedAttention"},
        ]
    )
    data.update(changes)
    return Brief.model_validate(data)


def shipped_outline() -> Outline:
    """The shipped inference outline as data: what the import names existing entries by."""
    from ruamel.yaml import YAML

    from digest_plugin.core.model import Outline

    path = ROOT / "data" / "outlines" / "inference.yml"
    return Outline.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8")))


def shipped_brief() -> Brief:
    """The shipped 10-21 brief as data: what the import of a second night knows of the night before."""
    from ruamel.yaml import YAML

    from digest_plugin.core.model import Brief

    path = ROOT / "data" / "briefs" / "2026-10-21-inference-E1.yml"
    return Brief.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8")))


SECOND_NIGHT = """inference · E1 预消化简报（2026-10-22）

作者：{author} · E1 日间预消化轮（inference）· 2026-10-22 22:00

一、今日增量（1 条）

条目 1：Kapitsa 周四卡（中等价值）

来源：https://github.com/nace-ai/kapitsa
要点：Stars 188
证据边界：自动采集；未复现。
与活文档脉络的关系：§1.1 Kapitsa 换数。
建议归入：§1.1 Kapitsa 原地更新。

二、值得警惕的矛盾与待核实说法

{two}

三、可引用的 arXiv 号

无。

四、本轮结论与建议动作

{four}
"""
"""A second night in the team's Markdown, one item on top of the shipped brief: ``{author}``, part 二
(``{two}``) and part 四 (``{four}``) are the test's."""


def follow_up_statuses(brief: dict) -> dict[str, str]:
    """An imported brief's follow-up updates as {earlier follow-up id: tonight's status}."""
    return {u["follow_up"]: u["status"] for u in brief.get("follow_up_updates") or []}


def reshaping_changes() -> dict:
    """What a night that reshapes the doc writes (issue 17), as YAML data for :func:`later_brief`: two new
    §1.1 items that split 「TPU 后端」, Inferact moved to §5.2, §3.1 renamed, an erratum of 10-21's llm-d item."""
    return {
        "items": [
            brief_item(
                "night-1", 1, "vLLM TPU 后端", {"section": "1.1", "action": "new_sub_entry", "text": "§1.1 新增。"}
            ),
            brief_item(
                "night-2", 2, "SGLang-TorchTPU", {"section": "1.1", "action": "new_sub_entry", "text": "§1.1 新增。"}
            ),
        ],
        "moves": [{"entry": "inferact-funding", "to": "5.2", "text": "融资与定价挪到成本一节。"}],
        "section_renames": [{"section": "3.1", "title": "调度算法与分块调参", "text": "§3.1 改名，编号不动。"}],
        "splits": [{"entry": "torchtpu-backends", "into": ["night-1", "night-2"], "text": "「TPU 后端」拆为两条。"}],
        "errata": [
            {
                "brief": "2026-10-21-inference-E1",
                "item": "llm-d-1-0",
                "old": "500+ 贡献者",
                "new": "550+ 贡献者",
                "text": "复核发布页时数错了。",
            }
        ],
    }


# --------------------------------------------------------------------------- site builds


def copy_project(root: Path, *, lifecycle: bool = False) -> Path:
    """mkdocs.yml, docs/ and data/ under ``root`` (with the lifecycle fixture briefs if asked)."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("mkdocs.yml", "docs", "data", "overrides"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    if lifecycle:
        for brief in LIFECYCLE.glob("*.yml"):
            shutil.copy(brief, root / "data" / "briefs" / brief.name)
    return root


def mkdocs_build(root: Path, out: str = "site", *, strict: bool = True) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of the project at ``root`` into ``root/out`` (without ``--strict``
    when a test means to read a site whose data warns)."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else []), "-d", str(root / out)],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )


def built(root: Path, out: str = "site") -> Path:
    """The site a strict build of ``root`` writes (the build must succeed)."""
    done = mkdocs_build(root, out)
    assert done.returncode == 0, done.stderr[-3000:]
    return root / out


PINNED_BUILD = """
import os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", *sys.argv[1:]]
cli()
"""
"""``mkdocs`` on one core (what ``taskset -c 0`` gives): the build's workers do not fork."""


def built_on_one_core_and_on_two(root: Path, out: Path) -> tuple[Path, Path, str]:
    """(site built on one core, site built on every core, the one-core build's log), both strict
    and verbose, into ``out/one`` and ``out/two``."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    logs = {}
    for name, command in (("one", [sys.executable, "-c", PINNED_BUILD]), ("two", [sys.executable, "-m", "mkdocs"])):
        done = subprocess.run(
            [*command, "build", "--strict", "-v", "-d", str(out / name)],
            cwd=root,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        logs[name] = done.stderr
    return out / "one", out / "two", logs["one"]


def run_cli(*args: str, cwd: Path, capsys, monkeypatch) -> tuple[int, str, str]:
    """``digest ARGS`` run in this process from ``cwd``: (exit code, stdout, stderr).

    The exit code is the one the console script would give (``sys.exit(main())``, argparse's
    ``SystemExit`` included); an exception escaping ``main`` fails the test with its traceback."""
    from digest_plugin.cli import main

    monkeypatch.chdir(cwd)
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse (2) or a message for the user, which Python prints (1)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            code = 1
        else:
            code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- the search index, whichever search built it

PAGEFIND_MARK = b"pagefind_dcd"


def search_index_files(site: Path) -> list[Path]:
    """The files of the site's search index: Material's ``search_index.json`` or Pagefind's records."""
    material = site / "search" / "search_index.json"
    if material.is_file():
        return [material]
    return sorted((site / "pagefind" / "fragment").glob("*.pf_fragment"))


def _pagefind_record(path: Path) -> dict:
    raw = gzip.decompress(path.read_bytes())
    assert raw.startswith(PAGEFIND_MARK), path
    return json.loads(raw[len(PAGEFIND_MARK) :])


def search_docs(site: Path) -> list[dict[str, str]]:
    """What a reader's search can find, as ``location`` / ``title`` / ``text`` records: Material's
    index entries, or Pagefind's page records and their headings (its zero-width word breaks taken
    out), whichever the build wrote.  Fails when the site has neither."""
    files = search_index_files(site)
    assert files, f"no search index in {site}"
    if files[0].suffix == ".json":
        return [
            {"location": d["location"], "title": d.get("title", ""), "text": d.get("text", "")}
            for d in json.loads(files[0].read_text(encoding="utf-8"))["docs"]
        ]
    docs = []
    for path in files:
        record = _pagefind_record(path)
        url = record["url"].lstrip("/")
        docs.append(
            {
                "location": url,
                "title": strip_breaks(record["meta"].get("title", "")),
                "text": strip_breaks(record["content"]),
            }
        )
        for anchor in record.get("anchors") or []:
            if str(anchor.get("element", "")).startswith("h") and anchor.get("id"):
                docs.append(
                    {"location": f"{url}#{anchor['id']}", "title": strip_breaks(anchor.get("text", "")), "text": ""}
                )
    return docs


def strip_breaks(text: str) -> str:
    return text.replace("\u200b", "")


def plant_in_search_index(site: Path, text: str) -> str:
    """Slip ``text`` into the site's search index by hand; the name of the file it went into."""
    files = search_index_files(site)
    if files[0].suffix == ".json":
        data = json.loads(files[0].read_text(encoding="utf-8"))
        data["docs"][1]["text"] += f"<p>{text}</p>"
        files[0].write_text(json.dumps(data), encoding="utf-8")
        return files[0].name
    record = _pagefind_record(files[0])
    record["content"] += f" {text}"
    files[0].write_bytes(gzip.compress(PAGEFIND_MARK + json.dumps(record, ensure_ascii=False).encode("utf-8")))
    return files[0].name
