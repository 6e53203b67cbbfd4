"""The ``digest`` command.

``digest check [DATA_DIR]`` validates every brief, the outlines and the references between them,
and applies the editorial rules, exactly as ``mkdocs build`` does.  Exit codes: 0 clean,
1 anything wrong (error or warning), 2 bad usage.  ``digest diff BASE_REF`` prints, as Markdown
for a pull-request comment, what the change does to the living doc.  ``digest schema`` prints
the brief's JSON Schema.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from pydantic import ValidationError
from ruamel.yaml import YAML

from .model import Brief, Outline, Rules
from .diff import diff_docs
from .pipeline import analyse
from .report import format_json, format_text


def _rules(config: Path | None) -> Rules:
    """The ``rules`` of the digest plugin in mkdocs.yml, so check and build apply the same ones."""
    if config is None or not config.is_file():
        return Rules()
    tree = YAML(typ="safe", pure=True)
    tree.constructor.add_constructor(None, lambda loader, node: None)  # !!python/name:… tags Material uses
    settings = tree.load(config.read_text(encoding="utf-8")) or {}
    for plugin in settings.get("plugins") or []:
        if isinstance(plugin, dict) and "digest" in plugin:
            return Rules.model_validate((plugin["digest"] or {}).get("rules") or {})
    return Rules()


def _data_at(ref: str, data_dir: Path, into: Path) -> Path | None:
    """Extract ``data_dir`` as it was at git ``ref`` into ``into``; None if it did not exist there."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=data_dir, capture_output=True, text=True)
    if top.returncode != 0:
        raise SystemExit(f"digest diff: {data_dir} is not inside a git repository")
    rel = data_dir.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
    archive = subprocess.run(["git", "archive", "--format=tar", ref, rel], cwd=top.stdout.strip(), capture_output=True)
    if archive.returncode != 0:
        if b"not a valid object name" in archive.stderr or b"not a tree object" in archive.stderr:
            raise SystemExit(f"digest diff: unknown git ref '{ref}'")
        return None  # the data folder did not exist at that ref: everything is new
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / rel


def _diff(args: argparse.Namespace) -> int:
    rules = _rules(args.config)
    after = analyse(args.data_dir, rules=rules, relative_to=Path.cwd())
    if after.docs is None:
        print(format_text(after.findings, Path.cwd()), file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = _data_at(args.base_ref, args.data_dir, Path(tmp))
        before = analyse(base_dir, rules=rules).docs if base_dir and base_dir.is_dir() else None
    print(diff_docs(before or {}, after.docs), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="digest", description="Tools for the team's brief data.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate the data like a compiler (exit 0 clean, 1 problems)")
    check.add_argument("data_dir", nargs="?", default="data", type=Path)
    check.add_argument("--format", choices=["text", "json"], default="text")
    check.add_argument("--config", type=Path, default=Path("mkdocs.yml"),
                       help="mkdocs.yml whose digest `rules` apply (default: ./mkdocs.yml if present)")
    diff = sub.add_parser("diff", help="what the change since BASE_REF does to the living doc, as Markdown")
    diff.add_argument("base_ref")
    diff.add_argument("data_dir", nargs="?", default="data", type=Path)
    diff.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    schema = sub.add_parser("schema", help="print the JSON Schema of a brief (or of an outline)")
    schema.add_argument("what", nargs="?", choices=["brief", "outline"], default="brief")
    args = parser.parse_args(argv)

    if args.command == "schema":
        model = Brief if args.what == "brief" else Outline
        print(json.dumps(model.model_json_schema(by_alias=True), ensure_ascii=False, indent=2))
        return 0

    if args.command == "diff":
        return _diff(args)
    try:
        rules = _rules(args.config)
    except (ValidationError, Exception) as exc:  # a broken mkdocs.yml is the user's to fix, not a traceback
        print(f"{args.config}: error: cannot read digest rules: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    result = analyse(args.data_dir, rules=rules, relative_to=Path.cwd(), today=dt.date.today())
    if args.format == "json":
        print(format_json(result.findings))
    elif result.findings:
        print(format_text(result.findings, Path.cwd()), file=sys.stderr)
    else:
        docs = result.docs or {}
        briefs = sum(len(d.briefs) for d in docs.values())
        print(f"ok: {len(docs)} topic{'s' if len(docs) != 1 else ''}, {briefs} brief{'s' if briefs != 1 else ''}")
    return 1 if result.findings else 0


if __name__ == "__main__":
    sys.exit(main())
