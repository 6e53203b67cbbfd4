"""Editorial rules: what the team checks by hand, found from the data alone."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import BRIEF, ROOT, line_of, replace_in

from digest_plugin.model import Disposition, Rules
from digest_plugin.pipeline import analyse


def check(data: Path, rules: Rules | None = None) -> list[str]:
    result = analyse(data, rules=rules, relative_to=data.parent, today=dt.date(2026, 12, 2))
    return [f"{f.line}:{f.severity}: {f.message}" for f in result.findings]


def test_the_shipped_brief_is_clean():
    assert check(ROOT / "data") == []


def test_kapitsa_gain_larger_than_total_is_found_from_the_numbers(data_copy):
    """Without contradiction 1 withholding it, '+175 > 155' must be caught by the tool itself."""
    brief = data_copy / BRIEF
    replace_in(brief, "        figure: weekly-gain\n", "")
    assert check(data_copy) == [f"{line_of(brief, 'value: 175')}:error: 周增 +175 is larger than the total Stars 155"]


def test_a_count_that_drops_needs_a_note(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "value: 155", "value: 98")
    assert check(data_copy) == [f"{line_of(brief, 'value: 98')}:warning: Stars went down from 105 to 98 without a note"]
    replace_in(brief, "value: 98\n", 'value: 98\n        note: "采集器改为只计 30 天内的星标"\n')
    assert check(data_copy) == []


def test_a_date_after_the_brief(data_copy):
    brief = data_copy / BRIEF
    replace_in(brief, "last_collected: 2026-10-21", "last_collected: 2026-10-25")
    (finding,) = check(data_copy)
    assert finding.startswith(f"{line_of(brief, 'last_collected: 2026-10-25')}:error: date 2026-10-25 is after")


def test_citation_counts_that_disagree(data_copy):
    # 4677 (S2) vs 2066 (OpenAlex) is 2.26×: fine under the default factor 3, flagged under 2
    assert check(data_copy) == []
    (finding,) = check(data_copy, Rules(citation_count_factor=2))
    assert "warning: cited-by counts of arXiv:1605.08803 differ by more than 2×" in finding


def test_weak_evidence_cannot_be_placed_as_a_conclusion(data_copy):
    brief = data_copy / BRIEF
    # item 4 (long prefill) is lead-level with vendor self-report: "不可直接当作结论"
    replace_in(
        brief,
        '      section: "3.1"\n      action: new_sub_entry\n',
        '      section: "3.1"\n      action: new_sub_entry\n      as_conclusion: true\n',
    )
    (finding,) = check(data_copy)
    assert "item 4 cannot be placed as a conclusion: its evidence is 线索级、厂商自述" in finding


def test_a_down_weighted_citation_never_supports_a_conclusion(data_copy):
    brief = data_copy / BRIEF
    # item 6 is partially verified, so as a conclusion it is allowed, but not on Real NVP's support
    replace_in(
        brief,
        '      section: "5.2"\n      action: new_sub_entry\n',
        '      section: "5.2"\n      action: new_sub_entry\n      as_conclusion: true\n',
    )
    assert check(data_copy) == []
    replace_in(brief, "  - id: recsys-vol178\n", '  - id: recsys-vol178\n    supported_by: ["1605.08803"]\n')
    (finding,) = check(data_copy)
    assert "arXiv:1605.08803 is down-weighted (real-nvp-down-weight) and cannot support a conclusion" in finding


def test_discarded_contradiction_stays_off_section_pages():
    from digest_plugin.pipeline import living_docs

    doc = living_docs(ROOT / "data")["inference"]
    contabo = next(c for c in doc.contradictions if c.id == "contabo-low-credibility")
    assert contabo.contradiction.disposition is Disposition.discarded
    assert contabo.sections == ("1.2",)  # it does touch §1.2 …
    assert all(c.id != contabo.id for s in doc.sections.values() for c in s.contradictions)  # … but is not shown there
    shown = living_docs(ROOT / "data", rules=Rules(hide_discarded=False))["inference"]
    assert contabo.id in [c.id for c in shown.sections["1.2"].contradictions]


def _build(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "site")],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def _project(tmp_path: Path) -> Path:
    for name in ("mkdocs.yml", "docs", "data"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    return tmp_path


def test_strict_build_fails_on_a_rule_warning(tmp_path):
    root = _project(tmp_path)
    replace_in(
        root / "mkdocs.yml",
        "      data_dir: data",
        "      data_dir: data\n      rules:\n        citation_count_factor: 2",
    )
    out = _build(root)
    assert out.returncode != 0
    assert "data/briefs/2026-10-21-inference-E1.yml:" in out.stderr and "differ by more than 2×" in out.stderr
    assert "Traceback" not in out.stderr


def test_strict_build_names_the_page_that_leaks_a_withheld_claim(tmp_path):
    root = _project(tmp_path)
    page = root / "docs" / "inference" / "1.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nKapitsa 周增 +175，增长很快。\n", encoding="utf-8")
    out = _build(root)
    assert out.returncode != 0
    assert "inference/1.md: withheld claim '周增 +175' appears outside contradiction 1" in out.stderr


def test_invalid_rules_in_mkdocs_yml_are_reported_plainly(tmp_path):
    root = _project(tmp_path)
    replace_in(
        root / "mkdocs.yml",
        "      data_dir: data",
        "      data_dir: data\n      rules:\n        citation_count_factr: 2",
    )
    out = _build(root)
    assert out.returncode != 0 and "citation_count_factr" in out.stderr and "Traceback" not in out.stderr
