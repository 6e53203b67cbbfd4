"""Findings as text for people (like a compiler: the line, a caret, a hint) or as JSON for bots."""

from __future__ import annotations

import json
from pathlib import Path

from .findings import Finding


def _source_line(base: Path, finding: Finding) -> str | None:
    try:
        lines = (base / finding.path).read_bytes().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if 1 <= finding.line <= len(lines) and len(lines[finding.line - 1]) <= 500:
        return lines[finding.line - 1]
    return None


def format_text(findings: list[Finding], base: Path) -> str:
    """``path:line:col: severity: message``, the offending line, a caret under the column, the hint."""
    out = []
    for f in findings:
        out.append(f"{f.path}:{f.line}:{f.col}: {f.severity}: {f.message}")
        line = _source_line(base, f)
        if line is not None:
            shown = line.replace("\t", " ")
            out.append(f"  {shown}")
            # East Asian wide characters take two columns in a terminal.
            pad = sum(2 if ord(ch) > 0x2E80 else 1 for ch in shown[: max(f.col - 1, 0)])
            out.append("  " + " " * pad + "^")
        if f.hint:
            out.append(f"  hint: {f.hint}")
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    out.append(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}")
    return "\n".join(out)


def format_json(findings: list[Finding]) -> str:
    """The findings as a JSON array of objects, one per finding, for bots."""
    return json.dumps(
        [
            {"path": f.path, "line": f.line, "col": f.col, "severity": f.severity, "message": f.message, "hint": f.hint}
            for f in findings
        ],
        ensure_ascii=False,
        indent=2,
    )
