"""Render-stage cost of the digest plugin: every page's fragments, in-process, without MkDocs.

    python benchmarks/render.py --days 3650 --data /tmp/render-data [--runs 5] [--json out.json]

1. If ``--data`` holds no synthetic data folder yet, :func:`synth.generate` writes ``--days`` days
   into it (timed apart, as ``generate_s``); a later call, from this checkout or another, reuses it,
   so two checkouts render the very same data.  A folder of another day count is refused, not
   overwritten.
2. Load + check + merge once (``pipeline.analyse``, as the plugin's ``on_config`` does; timed apart,
   as ``load_merge_s``).
3. ``--runs`` times, render every page the site has: the hand-written pages of ``docs/`` (their
   macros expanded by the package's own ``macros`` module), then every page
   ``pages.generated_pages`` lists (register, bibliography, follow-ups, legend, briefs index, every
   yearly archive, the Atom feed, one page per brief), each page's ``[[digest …]]`` directives
   through ``extension.render_directive`` and its ``[[cite …]]`` through the extension's
   ``CiteProcessor``, with one ``PageContext`` (and so one set of anchors) per page.  Python-Markdown
   itself is not run: only what the plugin renders is timed.

The first pass is a build's: the merged doc's indexes (``cached_property``), compiled regexes and
templates are made during it (``render_first_s``).  Before every later pass the doc's
``cached_property`` values are dropped and the layouts made afresh, so each pass does the work a
build does (``render_s``: min and median of the passes after the first; with ``--runs 1``, the
first).  ``sha256`` is of every rendered page in page order (path, then its HTML; headings written
as the extension writes them); it must be equal in two checkouts for their times to compare.

Against another checkout's package (a baseline that has no copy of this script)::

    git worktree add /tmp/render-base <baseline-rev>
    python benchmarks/render.py --days 3650 --data /tmp/render-data --runs 1   # makes the data
    python benchmarks/render.py --days 3650 --data /tmp/render-data --package-root /tmp/render-base
    python benchmarks/render.py --days 3650 --data /tmp/render-data            # this checkout
    git worktree remove --force /tmp/render-base

``--package-root`` puts that folder first on ``sys.path``, so this script (and this checkout's
``synth.py`` and ``docs/``) renders with the other checkout's ``digest_plugin``; the figures name the
package folder and its git revision.  Compare ``render_s_median`` (wall) and ``render_cpu_s_median``
(this process's CPU seconds, steadier on a shared machine), and check that ``sha256`` and
``html_bytes`` agree.  For a whole-process timer (``/usr/bin/time -v``, or any tool that runs two
commands in turn, A B A B …, and takes the ratio pair by pair), ``--once`` does one load + merge +
render and prints one line; ``--runs K`` makes the K render passes outweigh the load + merge
(several seconds at 3650 days, printed as ``load_merge_s``).  Note the machine beside the figures.
"""

from __future__ import annotations

import argparse
import ast
import gc
import hashlib
import html
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MARKER = ".render-bench.json"
"""Written into a data folder once :func:`synth.generate` has finished it: days and seed."""
SEED = 20261021
SITE_URL = "http://127.0.0.1:8000/"
"""mkdocs.yml's ``site_url`` (when DIGEST_SITE_URL is unset): the feed's links are made from it."""
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
MACRO = re.compile(r"\{\{\s*(\w+)\((.*?)\)\s*\}\}")
BLOCK_SPLIT = re.compile(r"\n[ \t]*\n")


# --------------------------------------------------------------------------- data


def ensure_data(days: int, data: Path) -> float | None:
    """Generate ``days`` synthetic days into ``data`` unless it already holds them; the seconds it
    took, or None when the folder was there.  Written beside and renamed into place, so a folder
    with the marker is always complete."""
    marker = data / MARKER
    if marker.is_file():
        found = json.loads(marker.read_text(encoding="utf-8"))
        if found.get("days") != days or found.get("seed") != SEED:
            raise SystemExit(f"{data} holds {found}, not {days} days of seed {SEED}: use another --data folder")
        return None
    if data.exists() and any(data.iterdir()):
        raise SystemExit(f"{data} is not empty and was not written by this script: use another --data folder")
    sys.path.insert(0, str(HERE))
    from synth import generate  # this checkout's generator, whichever package renders

    partial = data.with_name(f".{data.name}.partial-{os.getpid()}")
    start = time.perf_counter()
    try:
        generate(days, partial, SEED)
        (partial / MARKER).write_text(json.dumps({"days": days, "seed": SEED}) + "\n", encoding="utf-8")
        if data.exists():
            data.rmdir()  # empty, checked above
        os.rename(partial, data)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return time.perf_counter() - start


# --------------------------------------------------------------------------- the package


@dataclass
class Package:
    """The parts of ``digest_plugin`` the build renders with (all of them exist at 0.2.0/HEAD)."""

    root: Path
    extension: ModuleType
    layout: ModuleType
    pages: ModuleType
    pipeline: ModuleType
    render: ModuleType
    macros: ModuleType
    model: ModuleType
    arxiv: ModuleType


FOLDERS = ("hosts.", "site.", "core.", "")
"""Where a module of the package may live, by revision."""


def import_package(root: Path) -> Package:
    """Import ``digest_plugin`` from ``root`` (first on ``sys.path``), and check that it did."""
    sys.path.insert(0, str(root))
    import importlib

    def find(name: str) -> ModuleType:
        # the package's modules live in folders since issue 31 (hosts/, site/, core/); flat before
        for folder in FOLDERS:
            try:
                return importlib.import_module(f"digest_plugin.{folder}{name}")
            except ModuleNotFoundError as missing:
                if not (missing.name or "").startswith("digest_plugin"):
                    raise
        raise SystemExit(f"{root}: digest_plugin has no module {name}")

    modules = {
        name: find(name) for name in ("extension", "layout", "pages", "pipeline", "render", "macros", "model", "arxiv")
    }
    origin = Path(modules["render"].__file__ or "").resolve()
    if not origin.is_relative_to(root.resolve()):
        raise SystemExit(f"digest_plugin was imported from {origin.parent}, not from {root}")
    return Package(root=root, **modules)


def git_revision(root: Path) -> str | None:
    """``root``'s commit, with ``+dirty`` when its ``digest_plugin/`` differs from it (read-only git:
    no index refresh, no lock taken, so it never gets in the way of someone else's git command)."""
    try:
        rev = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(root), "--no-optional-locks", "status", "--porcelain", "--", "digest_plugin"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return rev + ("+dirty" if changed else "")


def load(pkg: Package, data: Path) -> dict[str, Any]:
    """The merged docs, as the plugin's ``on_config`` makes them (no parsed-file cache)."""
    import datetime as dt

    result = pkg.pipeline.analyse(data, rules=pkg.model.Rules(allow_future_dates=True), today=dt.date.today())
    if result.docs is None:
        raise SystemExit("the data has errors:\n" + "\n".join(map(str, result.errors[:10])))
    docs: dict[str, Any] = result.docs
    return docs


def hand_written(docs_dir: Path) -> list[tuple[str, str]]:
    """(source path, Markdown) of every page of the site's own ``docs/``, by path."""
    return sorted((p.relative_to(docs_dir).as_posix(), p.read_text(encoding="utf-8")) for p in docs_dir.rglob("*.md"))


class MacroTable:
    """The ``env`` of mkdocs-macros as far as the package's pluglet uses it: collects the macros."""

    def __init__(self) -> None:
        self.functions: dict[str, Callable[..., str]] = {}

    def macro(self, function: Callable[..., str], /) -> Callable[..., str]:
        self.functions[function.__name__] = function
        return function


# --------------------------------------------------------------------------- one pass


@dataclass
class Pass:
    """What one render pass did: its time, its output's digest and size, and where the time went."""

    seconds: float = 0.0
    cpu_seconds: float = 0.0
    hash_seconds: float = 0.0
    sha256: str = ""
    pages: int = 0
    directives: int = 0
    cites: int = 0
    html_bytes: int = 0
    by_kind: dict[str, float] = field(default_factory=dict)


class Site:
    """Renders every page of the site with one package, the way the plugin and its extension do."""

    def __init__(self, pkg: Package, docs: Mapping[str, Any], pages: list[tuple[str, str]], site_url: str):
        self.pkg = pkg
        self.docs = docs
        self.hand_written = pages
        self.site_url = site_url
        self.dump: Path | None = None
        """Where to write every rendered page (``--dump``), to diff two checkouts page by page."""
        table = MacroTable()
        pkg.macros.define_env(table)
        self.macros = table.functions
        import markdown

        self._page_context: Any = None
        self.markdown = markdown.Markdown()
        extension = pkg.extension.DigestExtension(context=lambda: self._page_context)
        self.cite_processor = pkg.extension.CiteProcessor(pkg.extension.CITE, self.markdown, extension)

    def expand_macros(self, markdown: str) -> str:
        """What mkdocs-macros makes of a hand-written page: each macro call replaced by its text."""

        def call(m: re.Match[str]) -> str:
            args = ast.literal_eval(f"({m.group(2)},)") if m.group(2).strip() else ()
            return self.macros[m.group(1)](*args)

        return MACRO.sub(call, markdown)

    def render(self) -> Pass:
        """One pass over every page.  Timed: layouts, page list, feed and every fragment; not timed:
        hashing the output (its cost is the same in every checkout and would only dilute a ratio)."""
        pkg, out = self.pkg, Pass()
        digest = hashlib.sha256()
        wall, cpu = time.perf_counter, time.process_time
        start, start_cpu = wall(), cpu()
        layouts = pkg.layout.layouts(self.docs, self.hand_written)
        mine = {path for path, _ in self.hand_written}
        t = wall()
        generated = [
            (path, content)
            for path, content in pkg.pages.generated_pages(layouts, self.site_url, True)
            if path not in mine and path.endswith((".md", ".xml"))  # not the CSS and JS files
        ]
        out.by_kind["page list + feed"] = wall() - t
        pages = [(path, self.expand_macros(text)) for path, text in self.hand_written] + generated
        hashing, hashing_cpu = 0.0, 0.0
        for path, text in pages:
            # the feed was rendered above, by generated_pages; a Markdown page is rendered now
            parts = self.page(layouts, path, text, out) if path.endswith(".md") else [text]
            t, c = wall(), cpu()
            digest.update(f"\0{path}\0".encode())
            for part in parts:
                data = part.encode()
                digest.update(data)
                out.html_bytes += len(data)
            out.pages += 1
            if self.dump is not None:
                target = self.dump / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("".join(parts), encoding="utf-8")
            hashing, hashing_cpu = hashing + wall() - t, hashing_cpu + cpu() - c
        out.seconds = wall() - start - hashing
        out.cpu_seconds = cpu() - start_cpu - hashing_cpu
        out.hash_seconds = hashing
        out.sha256 = digest.hexdigest()
        return out

    def page(self, layouts: Mapping[str, Any], path: str, markdown: str, out: Pass) -> list[str]:
        """The HTML of one page's directives and citations, in page order."""
        return list(self._page(layouts, path, markdown, out))

    def _page(self, layouts: Mapping[str, Any], path: str, markdown: str, out: Pass) -> Iterable[str]:
        ext, clock = self.pkg.extension, time.perf_counter
        ctx = ext.PageContext(layouts, path, True)
        body = FRONT_MATTER.sub("", markdown, count=1)
        for block in BLOCK_SPLIT.split(body):
            directive = ext.DIRECTIVE.match(block.strip())
            if directive is None:
                for cite in self.cite_processor.compiled_re.finditer(block):
                    t = clock()
                    cited = self.cite(ctx, cite, block)
                    out.by_kind["cite"] = out.by_kind.get("cite", 0.0) + clock() - t
                    out.cites += 1
                    yield cited
                continue
            args = {m.group(1): m.group(2) for m in ext.ARG.finditer(directive.group("args"))}
            kind = next(k for k in args if k in ext.PAGES)
            t = clock()
            blocks = ext.render_directive(ctx, args)
            parts = [self.block(b) for b in blocks]
            out.by_kind[kind] = out.by_kind.get(kind, 0.0) + clock() - t
            out.directives += 1
            yield from parts

    def block(self, block: Any) -> str:
        """A block as the extension puts it on the page (a heading escaped as it escapes it)."""
        if isinstance(block, self.pkg.render.Heading):
            return f'<h{block.level} id="{block.anchor}">{html.escape(block.text, quote=False)}</h{block.level}>'
        text: str = block.html
        return text

    def cite(self, ctx: Any, match: re.Match[str], block: str) -> str:
        """One ``[[cite …]]`` through the extension's own ``CiteProcessor`` (whichever checkout's it
        is), its HTML taken from the Markdown stash it stores it in; an unknown paper stops the run."""
        self._page_context = ctx
        stash = self.markdown.htmlStash
        stash.reset()
        self.cite_processor.handleMatch(match, block)
        text = str(stash.rawHtmlBlocks[0])  # a str: CiteProcessor stores HTML text
        if "digest-error" in text:
            raise SystemExit(f"{ctx.page}: {match.group(0)}: no brief cites this paper")
        return text


def forget_caches(objects: Iterable[object]) -> None:
    """Drop every ``cached_property`` value of these objects, so the next pass builds them again."""
    for obj in objects:
        names = {n for cls in type(obj).__mro__ for n, v in vars(cls).items() if isinstance(v, cached_property)}
        for name in names:
            vars(obj).pop(name, None)


# --------------------------------------------------------------------------- main


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, required=True, help="synthetic days (the real brief is day 1)")
    parser.add_argument("--data", type=Path, required=True, help="data folder: generated once, then reused")
    parser.add_argument("--runs", type=int, default=5, help="render passes after one load + merge (default 5)")
    parser.add_argument("--once", action="store_true", help="one load + merge + render, one line out (--runs 1)")
    parser.add_argument("--package-root", type=Path, default=ROOT, help="checkout whose digest_plugin renders")
    parser.add_argument(
        "--docs", type=Path, default=ROOT / "docs", help="hand-written pages (default: this checkout's)"
    )
    parser.add_argument("--site-url", default=SITE_URL)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--dump", type=Path, help="also write every rendered page under this folder (to diff two checkouts)"
    )
    args = parser.parse_args()
    if args.once:
        args.runs = 1
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    data = args.data.resolve()
    generate_s = ensure_data(args.days, data)
    start = time.perf_counter()
    pkg = import_package(args.package_root.resolve())
    import_s = time.perf_counter() - start

    start = time.perf_counter()
    docs = load(pkg, data)
    load_merge_s = time.perf_counter() - start
    rss_loaded = peak_rss_mb()

    site = Site(pkg, docs, hand_written(args.docs.resolve()), args.site_url)
    site.dump = args.dump
    passes: list[Pass] = []
    for n in range(args.runs):
        if n:
            forget_caches(docs.values())
            gc.collect()
        passes.append(site.render())
    digests = {p.sha256 for p in passes}
    if len(digests) != 1:
        raise SystemExit(f"passes rendered different output: {sorted(digests)}")

    first, later = passes[0], passes[1:] or passes[:1]
    times = [p.seconds for p in later]
    figures: dict[str, Any] = {
        "days": args.days,
        "package": str(Path(pkg.render.__file__ or "").resolve().parent),
        "package_rev": git_revision(pkg.root),
        "generate_s": None if generate_s is None else round(generate_s, 3),
        "import_s": round(import_s, 3),
        "load_merge_s": round(load_merge_s, 3),
        "render_first_s": round(first.seconds, 3),
        "render_s_min": round(min(times), 3),
        "render_s_median": round(statistics.median(times), 3),
        "render_runs_s": [round(p.seconds, 3) for p in passes],
        "render_cpu_s_median": round(statistics.median(p.cpu_seconds for p in later), 3),
        "render_runs_cpu_s": [round(p.cpu_seconds, 3) for p in passes],
        "hash_s": round(first.hash_seconds, 3),
        "pages": first.pages,
        "directives": first.directives,
        "cites": first.cites,
        "html_bytes": first.html_bytes,
        "sha256": first.sha256,
        "by_kind_s": {
            kind: round(statistics.median(p.by_kind.get(kind, 0.0) for p in later), 3)
            for kind in sorted(first.by_kind, key=lambda k: -first.by_kind[k])
        },
        "peak_rss_mb_loaded": round(rss_loaded, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "runs": args.runs,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if args.once:
        print(
            f"render_s {first.seconds:.3f} render_cpu_s {first.cpu_seconds:.3f} load_merge_s {load_merge_s:.3f} "
            f"pages {first.pages} html_bytes {first.html_bytes} sha256 {first.sha256} package {figures['package_rev']}"
        )
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
