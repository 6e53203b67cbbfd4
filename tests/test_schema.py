"""Editors get completion and validation from the JSON Schema their brief files point at."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from conftest import ROOT

from digest_plugin.model import Brief, Outline


def test_committed_schemas_are_current():
    for name, model in (("brief", Brief), ("outline", Outline)):
        committed = json.loads((ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert committed == model.model_json_schema(by_alias=True), (
            f"run: digest schema {name} > schema/{name}.schema.json"
        )


def test_data_files_point_at_the_schema():
    for path in [*(ROOT / "data" / "briefs").glob("*.yml"), *(ROOT / "data" / "outlines").glob("*.yml")]:
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
    assert "verified" in json.dumps(schema["$defs"]["EvidenceLevel"])
