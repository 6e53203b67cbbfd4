"""The ``digest`` command.  ``digest check [DATA_DIR]`` validates the data like a compiler.

Exit codes: 0 clean, 1 problems found, 2 bad usage (argparse's own convention).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .load import DataError
from .pipeline import living_docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="digest", description="Tools for the team's brief data.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate every brief and outline and the references between them")
    check.add_argument("data_dir", nargs="?", default="data", type=Path)
    args = parser.parse_args(argv)

    if args.command == "check":
        try:
            docs = living_docs(args.data_dir, relative_to=Path.cwd())
        except DataError as exc:
            print(exc, file=sys.stderr)
            n = len(exc.findings)
            print(f"{n} problem{'s' if n > 1 else ''} found", file=sys.stderr)
            return 1
        briefs = sum(len(d.briefs) for d in docs.values())
        print(f"ok: {len(docs)} topic{'s' if len(docs) != 1 else ''}, {briefs} brief{'s' if briefs != 1 else ''}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
