"""Hand-made mutants of the code issue 33 touched, each run against the tests that should see it.

    python benchmarks/mutants.py [--checkout DIR] [--only NAME] [--out FILE.json]

Each mutant is one realistic mistake (a check left out, a boundary moved, a step skipped), written as
a text replacement in one file of a clone (``--checkout``, default: a fresh clone of this one in a
temporary folder, so the work tree is never changed).  The clone's package is put first on
``PYTHONPATH`` and the named tests run; the mutant is **killed** when they fail.  The score is
killed / made, per module.  A mutant whose text is no longer in its file is reported, not skipped
silently: the list must follow the code.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Mutant(NamedTuple):
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]


MUTANTS = [
    Mutant(
        "spelling: no NFKC fold",
        "digest_plugin/core/spelling.py",
        'return _DROPPED.sub("", unicodedata.normalize("NFKC", text).casefold())',
        'return _DROPPED.sub("", text.casefold())',
        ("tests/test_withheld_spellings.py",),
    ),
    Mutant(
        "spelling: references not decoded",
        "digest_plugin/core/spelling.py",
        '    if "&" in text and _REFERENCE.search(text):\n        text = unescape(text)\n    return _DROPPED',
        "    return _DROPPED",
        ("tests/test_withheld_spellings.py",),
    ),
    Mutant(
        "leaks: percent-encoding not decoded",
        "digest_plugin/site/leaks.py",
        '        text = unquote(text, errors="ignore")',
        "        pass",
        ("tests/test_withheld_spellings.py", "tests/test_leaks.py"),
    ),
    Mutant(
        "leaks: a figure runs into a longer number",
        "digest_plugin/site/leaks.py",
        '("(?![0-9])" if s[-1].isdigit() else "")',
        '""',
        ("tests/test_withheld_spellings.py", "tests/test_leaks.py"),
    ),
    Mutant(
        "leaks: white space kept",
        "digest_plugin/site/leaks.py",
        'return "".join(text.casefold().split())',
        "return text.casefold()",
        ("tests/test_withheld_spellings.py", "tests/test_leaks.py"),
    ),
    Mutant(
        "check: a URL read without decoding",
        "digest_plugin/core/check.py",
        "said = spelling.canonical(unquote(url))",
        "said = spelling.canonical(url)",
        ("tests/test_withheld_spellings.py",),
    ),
    Mutant(
        "check: a confirmed claim still refused in links (confirmed set emptied)",
        "digest_plugin/core/check.py",
        'if u.outcome is not None and u.outcome.value == "confirmed"',
        "if False",
        ("tests/test_withheld_spellings.py", "tests/test_lifecycle.py"),
    ),
    Mutant(
        "files: tidy_data skips the data folder's folders",
        "digest_plugin/core/files.py",
        "        folders = [data_dir] + sorted(",
        "        folders = [data_dir] or sorted(",
        ("tests/test_edit_safety.py",),
    ),
    Mutant(
        "files: the scratch view in the system's temporary folder again",
        "digest_plugin/core/files.py",
        "            folder = tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=base)",
        "            folder = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)",
        ("tests/test_edit_safety.py",),
    ),
    Mutant(
        "files: a live scratch folder removed as stale (no lock test)",
        "digest_plugin/core/files.py",
        "        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n    except OSError:\n        os.close(fd)\n        return False  # its process is alive",
        "        pass\n    except OSError:\n        os.close(fd)\n        return False  # its process is alive",
        ("tests/test_edit_safety.py",),
    ),
    Mutant(
        "cli: no tidy before a command",
        "digest_plugin/cli.py",
        "    _data_folder(args)\n    _tidy(args)\n",
        "    _data_folder(args)\n",
        ("tests/test_edit_safety.py",),
    ),
    Mutant(
        "siteswap: no recovery of a site killed mid-swap",
        "digest_plugin/hosts/siteswap.py",
        "        if os.path.lexists(self.final):\n            return\n",
        "        return\n",
        ("tests/test_publish.py",),
    ),
    Mutant(
        "workers: a named result file",
        "digest_plugin/core/workers.py",
        "tempfile.TemporaryFile(",
        'tempfile.NamedTemporaryFile(delete=False, prefix="digest-worker-", ',
        ("tests/test_workers.py",),
    ),
    Mutant(
        "search.js: the escaped word shown (Pagefind's raw_content, not the text)",
        "digest_plugin/assets/search.js",
        "      text += raw[i]; i += 1; j += 1;\n    }",
        "      text += raw[i]; i += 1; j += 1;\n    }\n    text = raw;",
        ("tests/test_pagefind.py::test_a_result_shows_entity_and_markup_like_text_exactly_as_the_page_shows_it",),
    ),
    Mutant(
        "search.js: no highlight",
        "digest_plugin/assets/search.js",
        "      if (found[at]) {",
        "      if (false) {",
        ("tests/test_pagefind.py::test_a_result_shows_entity_and_markup_like_text_exactly_as_the_page_shows_it",),
    ),
    Mutant(
        "load: only the first forbidden character named",
        "digest_plugin/core/load.py",
        "            characters.append((where, *problem))",
        "            return [(where, *problem)]",
        ("tests/test_validation.py",),
    ),
    Mutant(
        "render: a placement alternative's note dropped",
        "digest_plugin/site/render.py",
        "                if a.note\n",
        "                if False\n",
        ("tests/test_every_field.py",),
    ),
    Mutant(
        "render: a contradiction's materials dropped",
        "digest_plugin/site/render.py",
        "        if c.materials:  # where",
        "        if False:  # where",
        ("tests/test_every_field.py",),
    ),
    Mutant(
        "merge: a figure keeps its first label",
        "digest_plugin/core/merge.py",
        "        state.label = figure.label  # the latest",
        "        pass  # the latest",
        ("tests/test_every_field.py",),
    ),
    Mutant(
        "preview: current evidence left out of an entry's link face",
        "digest_plugin/hosts/preview.py",
        "e.retraction, e.current_evidence, layout.entry_page(e.id)",
        "e.retraction, layout.entry_page(e.id)",
        ("tests/test_preview.py::test_after_an_edit_the_preview_serves_what_a_clean_build_makes",),
    ),
]


def run(mutant: Mutant, clone: Path) -> str:
    """'killed', 'survived', or why it could not be made."""
    path = clone / mutant.file
    text = path.read_text(encoding="utf-8")
    if text.count(mutant.old) != 1:
        return f"not made: its text is in {mutant.file} {text.count(mutant.old)} times"
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
    try:
        env = {**os.environ, "PYTHONPATH": str(clone), "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        args = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *mutant.tests]
        done = subprocess.run(args, cwd=clone, env=env, capture_output=True, text=True, timeout=1800)
        if done.returncode == 0:
            return "survived"
        # with -x under xdist a failure ends the run as "interrupted" (exit 2): a failed test still kills
        failed = re.search(r"\b\d+ (?:failed|errors?)\b", done.stdout[-2000:])
        return "killed" if failed else f"error {done.returncode}"
    finally:
        path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, help="a clone to mutate (default: a fresh clone of this one)")
    parser.add_argument("--only", help="the mutants whose name holds this")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or args.only in m.name]
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        clone = args.checkout
        if clone is None:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        for mutant in chosen:
            results[mutant.name] = run(mutant, clone.resolve())
            print(f"{results[mutant.name]:>9}  {mutant.name}", flush=True)
    killed = sum(r == "killed" for r in results.values())
    made = sum(r in ("killed", "survived") for r in results.values())
    print(f"score: {killed} / {made} killed")
    if args.out:
        args.out.write_text(json.dumps({"results": results, "killed": killed, "made": made}, indent=2) + "\n")
    return 0 if killed == made == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
