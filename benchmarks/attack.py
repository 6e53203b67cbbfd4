"""An attack corpus, as a hostile editor would write it: payloads in every free-text field, and the
withheld claim spelled every way a reader still reads it.  Counts what got through.

    python benchmarks/attack.py [--checkout DIR] [--out FILE.json]

``--checkout`` is a clone of this repository at any revision (default: this one): its package is put
first on ``PYTHONPATH`` and its ``mkdocs.yml``, ``docs/``, ``data/`` and ``overrides/`` are built, so
the same corpus measures an earlier revision and this one in the same run (issue 33's before/after).

1. **Payload classes × every free-text field.**  Each class is one strict build of the shipped
   project in which every free-text string of the shipped brief (the fields the brief's schema gives
   a person to write: titles, points, boundaries, notes …) starts with a numbered marker and the
   class's payload.  Each case is then read in the built site, the feed and the search index:

   - **executed**: the build ran it (``{{ 7*7 }}`` became 49) or a browser would (a script,
     an ``on…`` handler or a ``javascript:`` link with the payload's ``alert`` in it);
   - **inert and literal**: the payload is in some output exactly as written (the page's text,
     the feed's text, a search record);
   - **refused**: the build failed with ``file:line:col`` errors (no traceback);
   - **not shown**: a field no output shows (its marker is nowhere).

2. **Withheld-claim variants.**  For each claim the shipped brief withholds, each spelling of
   ``tests/test_withheld_spellings.py`` is written into an item's point, the brief's title, a
   citation's title and (percent-encoded) a source URL, one strict build per spelling, then
   ``digest verify``.  A case is **published** when the build and the verify both pass and the
   claim can be read in an output (this script's own reading: entities and percent-encoding
   decoded, NFKC, case and white space folded; markup between its characters removed).

Counts, not timings: the machine does not matter.  Kills are ``benchmarks/kill_soak.py``'s.
"""

from __future__ import annotations

import argparse
import gzip
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import urllib.parse
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_every_field import TEXT_KEYS, TEXT_LISTS  # type: ignore[import-not-found]  # noqa: E402  (the free-text fields, as the tests list them)
from test_withheld_spellings import variants  # type: ignore[import-not-found]  # noqa: E402

BRIEF = "data/briefs/2026-10-21-inference-E1.yml"
PAYLOADS = {
    "jinja": "{{ 7*7 }}{% if true %}JINJA{% endif %}",
    "html": '<img src=x onerror="alert(1)"><b>b</b>',
    "script breakout": "</script><script>alert(1)</script>",
    "attribute breakout": '" onmouseover="alert(1)" x=\'',
    "markdown": "**b** [x](javascript:alert(1)) `c` <https://evil.example/>",
    "url": "javascript:alert(1) https://evil.example/?q=<x>",
    "unicode": "ＡＢ\u00a0ñ\u3000é﹢",
    "invisible characters": "a\u200bb\ufeffc",
    "bidi controls": "\u202eevil\u202c",
    "references": "&lt;b&gt;&#43;&amp;&#x3C;",
    "paths": "../../../etc/passwd ~/.ssh/id_rsa",
}
LOCATED = re.compile(r"^(?P<file>[^\s:]+\.ya?ml):(?P<line>\d+):(?P<col>\d+): ", re.M)


# --------------------------------------------------------------------------- the project


def project(checkout: Path, where: Path) -> Path:
    where.mkdir(parents=True)
    for name in ("mkdocs.yml", "docs", "data", "overrides"):
        src = checkout / name
        if src.exists():
            (shutil.copytree if src.is_dir() else shutil.copy)(src, where / name)
    return where


def run(checkout: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def build(checkout: Path, root: Path) -> subprocess.CompletedProcess[str]:
    return run(checkout, root, "-m", "mkdocs", "build", "--strict")


# --------------------------------------------------------------------------- reading the outputs


class Reader(HTMLParser):
    """A page's text (what a reader sees, attributes apart) and what a browser would run."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.attrs: list[str] = []
        self.live: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            value = value or ""
            self.attrs.append(value)
            if name.startswith("on") and "alert(" in value:
                self.live.append(f"<{tag} {name}>")
            if name in {"href", "src", "action"} and value.strip().lower().startswith("javascript:"):
                self.live.append(f"<{tag} {name}=javascript:>")
        if tag == "script":
            self._script = dict(attrs).get("type") or "text/javascript"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            if "alert(" in data and "json" not in self._script:
                self.live.append("<script>alert(…)")
            return
        self.text.append(data)


def outputs(site: Path) -> tuple[str, str, list[str]]:
    """(every page's and the feed's text, every attribute and search record, live markup found)."""
    texts, others, live = [], [], []
    for path in sorted(site.rglob("*")):
        if path.suffix == ".xml" and path.is_file():
            # Atom: an element with type="html" holds HTML (a feed reader renders it), the rest is text.
            for element in ET.parse(path).iter():
                content = element.text or ""
                if element.get("type") == "html":
                    inner = Reader()
                    inner.feed(content)
                    texts.append(" ".join(inner.text))
                    others += inner.attrs
                    live += [f"{path.relative_to(site)}: {x}" for x in inner.live]
                else:
                    texts.append(content)
                others += list(element.attrib.values())
        elif path.suffix == ".html" and path.is_file():
            reader = Reader()
            reader.feed(path.read_text(encoding="utf-8", errors="replace"))
            texts.append(" ".join(reader.text))
            others += reader.attrs
            live += [f"{path.relative_to(site)}: {x}" for x in reader.live]
        elif path.suffix == ".pf_fragment":
            record = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
            others.append(record.get("content", "").replace("\u200b", ""))
            others += [str(v) for v in (record.get("meta") or {}).values()]
    return "\n".join(texts), "\n".join(others), live


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# --------------------------------------------------------------------------- 1. payloads × fields


def fields(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every free-text string of a brief (its path), as the tests' list of text fields has them."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "withheld":
                continue  # the spellings themselves: part 2 writes them
            if key in TEXT_KEYS and isinstance(value, str):
                found.append((*path, key))
            elif key in TEXT_LISTS and isinstance(value, list):
                found += [(*path, key, n) for n, v in enumerate(value) if isinstance(v, str)]
            else:
                found += fields(value, (*path, key))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found += fields(value, (*path, n))
    return found


def plant(root: Path, paths: list[tuple[Any, ...]], text_for: Any) -> None:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 10**6
    file = root / BRIEF
    tree = yaml.load(file.read_text(encoding="utf-8"))
    for path in paths:
        node = tree
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = text_for(path, node[path[-1]])
    with file.open("w", encoding="utf-8") as out:
        yaml.dump(tree, out)


def payload_cases(checkout: Path, where: Path) -> dict[str, Any]:
    brief = YAML(typ="safe").load((checkout / BRIEF).read_text(encoding="utf-8"))
    paths = fields(brief)
    table: dict[str, Any] = {"fields": len(paths), "classes": {}}
    for name, payload in PAYLOADS.items():
        root = project(checkout, where / re.sub(r"\W+", "-", name))
        marked = {path: f"Q{n}Z{payload}" for n, path in enumerate(paths)}
        plant(root, paths, lambda path, old, marked=marked: f"{marked[path]} {old}")
        done = build(checkout, root)
        row: dict[str, Any] = {
            "cases": len(paths),
            "executed": 0,
            "literal": 0,
            "refused": 0,
            "not shown": 0,
            "tracebacks": 0,
        }
        row["tracebacks"] = int("Traceback" in done.stderr)
        if done.returncode != 0:
            located = len(LOCATED.findall(done.stderr))
            row["refused"] = len(paths) if located else 0
            row["unlocated failure"] = 0 if located else len(paths)
            row["first error"] = next((line for line in done.stderr.splitlines() if "error" in line), "")[:200]
        else:
            text, other, live = outputs(root / "site")
            text, other = flat(text), flat(other)
            row["live markup"] = live[:10]
            for n, path in enumerate(paths):
                marker, written = f"Q{n}Z", flat(marked[path])
                if name == "jinja" and (f"{marker}49" in text or f"{marker}49" in other):
                    row["executed"] += 1
                elif written in text or written in other:
                    row["literal"] += 1
                elif marker in text or marker in other:
                    row.setdefault("altered", []).append(".".join(map(str, path)))
                else:
                    row["not shown"] += 1
                    row.setdefault("not shown fields", []).append(".".join(map(str, path)))
            row["executed"] += len(live)
            row["altered"] = len(row.get("altered", []))
        table["classes"][name] = row
        shutil.rmtree(root)
    return table


# --------------------------------------------------------------------------- 2. withheld-claim variants


def canonical(text: str) -> str:
    """How a reader reads a spelling: references and percent-encoding decoded, NFKC, case and white
    space folded (this script's own reading, independent of the package's)."""
    text = urllib.parse.unquote(html.unescape(html.unescape(text)))
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\s\u200b\u200c\u200d\u2060\ufeff]+", "", text)


EXEMPT = re.compile(
    r'<span class="digest-withheld-quote"[^>]*>.*?</span>|<mark data-withheld-claim="[^"]*">.*?</mark>', re.S
)
"""The claim's own quote in its callout, and its list of withheld spellings: shown on purpose."""


def readable(site: Path) -> str:
    """Everything an output shows or carries, canonical, markup between characters removed."""
    parts = []
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        if path.suffix == ".pf_fragment":
            parts.append(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :].decode("utf-8", "replace"))
        elif path.suffix in {".html", ".xml", ".json", ".svg"}:
            raw = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".xml":
                raw = html.unescape(raw)  # the feed's HTML, escaped once inside the XML
            raw = EXEMPT.sub("", raw)
            parts.append(re.sub(r"<[^>]*>", "", raw))  # text, the claim split by markup joined
            parts += re.findall(r'(?:href|src|content|title|aria-label)="([^"]*)"', raw)
    return canonical("\n".join(parts))


def claim_cases(checkout: Path, where: Path) -> dict[str, Any]:
    brief = YAML(typ="safe").load((checkout / BRIEF).read_text(encoding="utf-8"))
    claims = sorted(
        {
            p
            for c in brief.get("contradictions") or []
            for w in c.get("withheld") or []
            for p in w.get("patterns") or [w["text"]]
        }
    )
    rows: dict[str, Any] = {
        "in text": {"cases": 0, "published": 0, "masked": 0, "refused": 0, "published cases": []},
        "in a URL": {"cases": 0, "published": 0, "masked": 0, "refused with file:line": 0, "published cases": []},
    }
    for claim in claims:
        for name, spelling in variants(claim).items():
            for kind in rows:
                row = rows[kind]
                root = project(checkout, where / f"claim-{kind[3:]}-{row['cases']}-{len(claim)}")
                if kind == "in text":  # an item's point, the brief's title, a citation's title
                    fields = [("items", 0, "points", 0), ("title",), ("citations", 0, "title")]
                    plant(root, fields, lambda _, old, s=spelling: f"{old} {s}")
                else:
                    plant_url(root, urllib.parse.quote(spelling, safe=""))
                row["cases"] += 1
                done = build(checkout, root)
                verified = run(checkout, root, "-m", "digest_plugin.cli", "verify", "site", "--data", "data")
                published = done.returncode == 0 and verified.returncode == 0
                if published and canonical(claim) in readable(root / "site"):
                    row["published"] += 1
                    row["published cases"].append(f"{claim!r} as {name}: {spelling!r}")
                elif published:
                    row["masked"] += 1
                elif kind == "in a URL" and LOCATED.search(done.stderr):
                    row["refused with file:line"] += 1
                else:
                    row.setdefault("refused", 0)
                    row["refused"] += 1
                shutil.rmtree(root)
    return rows


def plant_url(root: Path, encoded: str) -> None:
    """The first item's first source URL made to carry the claim percent-encoded."""
    file = root / BRIEF
    text = file.read_text(encoding="utf-8")
    match = re.search(r'^(\s+urls:\n\s+- )"?([^"\n]+)"?$', text, re.M)
    if match:
        text = text[: match.start(2)] + f"https://example.org/search?q={encoded}" + text[match.end(2) :]
        file.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--only", choices=["payloads", "claims"])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"checkout": str(args.checkout)}
    with tempfile.TemporaryDirectory(prefix="attack-") as where:
        if args.only != "claims":
            figures["payloads"] = payload_cases(args.checkout.resolve(), Path(where))
        if args.only != "payloads":
            figures["claims"] = claim_cases(args.checkout.resolve(), Path(where))
    text = json.dumps(figures, ensure_ascii=False, indent=2)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
