"""Several living docs in one site: each topic with its own outline, numbering, register and
follow-ups under its own URL prefix, and one shared search."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, search_docs

TOPICS = Path(__file__).parent / "fixtures" / "topics"


def two_topics(root: Path) -> Path:
    for name in ("mkdocs.yml", "docs", "data", "overrides"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    shutil.copy(TOPICS / "outlines" / "training.yml", root / "data" / "outlines")
    shutil.copy(TOPICS / "briefs" / "2026-10-21-training-E1.yml", root / "data" / "briefs")
    shutil.copytree(TOPICS / "docs" / "training", root / "docs" / "training")
    config = root / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "      - 简报: inference/briefs/index.md\n",
            (
                "      - 简报: inference/briefs/index.md\n"
                "  - training 活文档:\n      - training/index.md\n      - §1: training/1.md\n      - §2: training/2.md\n"
                "      - 矛盾与待核实登记: training/register.md\n      - 参考文献: training/bibliography.md\n"
                "      - 待跟进事项: training/follow-ups.md\n      - 简报: training/briefs/index.md\n"
            ),
        ),
        encoding="utf-8",
    )
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = two_topics(tmp_path_factory.mktemp("topics"))
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "site")],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return root / "site"


def page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_each_topic_under_its_own_prefix(site):
    assert 'data-digest-item="zero-bubble-pipeline"' in page(site, "training/1")
    assert 'data-digest-item="zero-bubble-pipeline"' not in page(site, "inference/1")
    assert 'data-digest-item="llm-d-1-0"' in page(site, "inference/5")
    assert (site / "training" / "feed.xml").is_file() and (site / "inference" / "feed.xml").is_file()


def test_each_topic_numbers_its_own_citations(site):
    training = page(site, "training/bibliography")
    assert 'data-ref="13"' in training and 'data-arxiv="2401.10241"' in training  # after its own 12 references
    assert 'data-ref="528"' in page(site, "inference/bibliography") and "2401.10241" not in page(
        site, "inference/bibliography"
    )


def test_each_topic_has_its_own_register_and_follow_ups(site):
    assert re.findall(r'data-digest-contradiction="([^"]+)"', page(site, "training/register")) == ["zero-bubble-claims"]
    assert "zero-bubble-claims" not in page(site, "inference/register")
    assert 'data-follow-up="zero-bubble-batch"' in page(site, "training/follow-ups")
    assert "zero-bubble-batch" not in page(site, "inference/follow-ups")
    assert "气泡率为零" not in re.sub(
        r"<details[^>]*data-digest-contradiction=.*?</details>", "", page(site, "training/1"), flags=re.S
    )


def test_one_search_index_covers_both_topics(site):
    locations = {d["location"].split("/")[0] for d in search_docs(site)}
    assert {"inference", "training"} <= locations
