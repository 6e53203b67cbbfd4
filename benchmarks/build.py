"""Build-time cost of the digest plugin against plain Material building the same pages.

    python benchmarks/build.py --days 365 --out benchmarks/results/365.json [--runs 3] [--serve]

For N synthetic days (benchmarks/synth.py) it measures, in one run, medians over --runs:

* ``plugin_s``  — ``mkdocs build`` of the site with the digest plugin;
* ``floor_s``   — plain mkdocs-material building the very same rendered Markdown written out as
  static pages (same theme, plugins but digest, search, nav and page count): ratio = plugin / floor;
* ``merge_s``   — load + validate + check + merge alone, cold (no cache), in a fresh process;
  ``merge_warm_s`` the same with the parsed-file cache of an earlier run;
* ``peak_rss_mb`` — peak resident memory of the plugin build process (``ru_maxrss``, in MiB);
  ``*_tree_mb`` (with --hosts) the peak of the whole process tree (the host, its workers and
  Pagefind together), sampled from ``/proc`` every 50 ms as proportional set size (PSS: a page
  a forked worker shares is counted once, not once per process);
* with --hosts instead: the shipped build (Pagefind) against the build issue 16 measured (an
  earlier revision's package on the same data: the baseline, same run), against the same with
  Material's search, and against Zensical; peak RSS, page weights; the bytes a reader downloads for
  the home page and one search on either host (Chromium, ``search_bytes.py``); and the physical
  floor: the same pages' content written through one Jinja template (with and without a JSON index,
  and with Pagefind's index of the same text);
* with --serve (only these with --serve-only), ``serve_plugin_s`` / ``serve_floor_s`` — after
  editing one brief (or, for the floor, one page), how long until ``digest serve`` (for the floor,
  ``mkdocs serve``) serves it.

It prints a table and writes the figures as JSON.  Timings are wall-clock on whatever machine
runs it: note the machine beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import search_bytes  # noqa: E402
from synth import generate  # noqa: E402

from digest_plugin.core.pipeline import living_docs  # noqa: E402
from digest_plugin.hosts.extension import PageContext, render_directive  # noqa: E402
from digest_plugin.site.layout import Layout, Linker, layouts, page_url  # noqa: E402
from digest_plugin.site.pages import generated_pages  # noqa: E402
from digest_plugin.site.render import Renderer  # noqa: E402
from digest_plugin.site.searchindex import command as pagefind_command  # noqa: E402
from digest_plugin.site.text import Heading  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
MACRO = re.compile(r"\{\{\s*(digest_\w+|cite)\((.*?)\)\s*\}\}")
DIRECTIVE = re.compile(r"^\[\[digest(?P<args>[^\]]*)\]\]$", re.M)
CITE = re.compile(r"\[\[cite\s+([^\]\s]+)\s*\]\]")


class TreeMemory:
    """The peak memory of a process and every process under it, sampled every 50 ms in a thread:
    the sum of their proportional set sizes (``/proc/<pid>/smaps_rollup``), in MB.  ``ru_maxrss``
    sees one process at a time, and a build's peak is the host and Pagefind (or a worker) at once."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak_mb, self._done = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _tree(self, pid: int) -> list[int]:
        found = [pid]
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                    for child in f.read().split():
                        found += self._tree(int(child))
        except OSError:  # gone meanwhile
            pass
        return found

    @staticmethod
    def _pss_kb(pid: int) -> int:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
                return next((int(line.split()[1]) for line in f if line.startswith("Pss:")), 0)
        except OSError:
            return 0

    def _sample(self) -> None:
        while not self._done.wait(0.05):
            self.peak_mb = max(self.peak_mb, sum(self._pss_kb(p) for p in self._tree(self.pid)) / 1024)

    def stop(self) -> float:
        self._done.set()
        self._thread.join()
        return round(self.peak_mb, 1)


LAST_TREE_MB: dict[str, float] = {}
"""The tree's peak of the last :func:`timed_build` or :func:`timed_command` (key ``"mb"``)."""


def timed_build(site: Path, out: str, code: Path | None = None) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of one `mkdocs build` in a fresh process (with ``code``, the
    package found there first: an earlier revision's); the tree's peak goes to ``LAST_TREE_MB``."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", out],
        cwd=site,
        env=ENV | {"PYTHONPATH": str(code)} if code is not None else ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    tree = TreeMemory(proc.pid)
    _, status, usage = os.wait4(proc.pid, 0)
    LAST_TREE_MB["mb"] = tree.stop()
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        assert proc.stderr is not None, "stderr is a pipe"
        raise SystemExit(f"build failed in {site}:\n{proc.stderr.read().decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


ANALYSE = """
import sys, time
from pathlib import Path
from digest_plugin.core.model import Rules
from digest_plugin.core.pipeline import analyse
cache = Path(sys.argv[2]) if len(sys.argv) > 2 else None
start = time.perf_counter()
result = analyse(Path(sys.argv[1]), rules=Rules(allow_future_dates=True), cache_dir=cache)
print(time.perf_counter() - start)
assert result.docs is not None, result.errors[:3]
"""


def timed_analyse(data: Path, cache: Path | None = None) -> float:
    """Seconds of load + validate + check + merge in a fresh process, as a build's ``on_config``
    runs it (cold unless ``cache`` holds an earlier run's parsed files)."""
    out = subprocess.run(
        [sys.executable, "-c", ANALYSE, str(data), *([str(cache)] if cache else [])],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"analyse failed:\n{out.stderr[-2000:]}")
    return float(out.stdout)


def plugin_site(data: Path, work: Path, name: str = "plugin", cache: str = "") -> Path:
    """A copy of the repository's site on ``data``, in ``work/name``, with the digest plugin."""
    site = work / name
    shutil.copytree(ROOT / "docs", site / "docs")
    shutil.copytree(ROOT / "overrides", site / "overrides")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # synthetic days run past today; the cache is off so every build is a cold one
    config = config.replace(
        "      data_dir: data",
        f"      data_dir: data\n      cache_dir: '{cache}'\n      rules: {{allow_future_dates: true}}",
        1,
    )
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(data, site / "data")
    return site


BASELINE_REV = "7678437^"
"""The build issue 16 measured ("today's": 160 s at 3,650 days): Material's search, before Pagefind,
the lighter pages and the work on two cores.  ``--baseline REV`` names another."""


def baseline_site(rev: str, data: Path, work: Path) -> tuple[Path, Path]:
    """(site, code) of an earlier revision: its package, docs, overrides and mkdocs.yml as they
    were (``git archive``), on the same data, with the same two config lines as the plugin site."""
    code = work / "baseline-code"
    code.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(code)], input=archive, check=True)
    _entry_point_shim(code)
    site = work / "baseline"
    shutil.copytree(code / "docs", site / "docs")
    shutil.copytree(code / "overrides", site / "overrides")
    config = re.sub(
        r"^      data_dir: data.*$",
        "      data_dir: data\n      cache_dir: ''\n      rules: {allow_future_dates: true}",
        (code / "mkdocs.yml").read_text(encoding="utf-8"),
        count=1,
        flags=re.M,
    )
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(data, site / "data")
    return site, code


def _entry_point_shim(code: Path) -> None:
    """Make this checkout's plugin entry point (``digest_plugin.hosts.plugin:DigestPlugin``) load an
    earlier revision's plugin, which lived at ``digest_plugin/plugin.py``.  Without it, the editable
    install's import hook fills the missing ``digest_plugin.hosts`` from this checkout, and the
    baseline build runs this checkout's plugin over the old package (it fails, or measures a mix)."""
    package = code / "digest_plugin"
    if (package / "hosts" / "plugin.py").is_file() or not (package / "plugin.py").is_file():
        return
    (package / "hosts").mkdir(exist_ok=True)
    (package / "hosts" / "__init__.py").write_text("", encoding="utf-8")
    (package / "hosts" / "plugin.py").write_text("from ..plugin import DigestPlugin  # noqa: F401\n", encoding="utf-8")


def material_search_site(plugin: Path, work: Path) -> Path:
    """The plugin site with Material's own search instead of Pagefind (the build of 0.2.0, the
    baseline the issue measured): same data, pages and theme."""
    site = work / "material-search"
    shutil.copytree(plugin, site, ignore=shutil.ignore_patterns("site", ".cache"))
    config = (site / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("  - search:\n      enabled: false\n", "  - search:\n      lang: zh\n", 1)
    config = config.replace("      search: pagefind\n", "      search: material\n", 1)
    assert "search: material" in config and "lang: zh" in config, "mkdocs.yml's search lines moved"
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    return site


def timed_command(site: Path, command: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB of the process or any child it waited for) of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=site, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    tree = TreeMemory(proc.pid)
    assert proc.stderr is not None, "stderr is a pipe"
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    LAST_TREE_MB["mb"] = tree.stop()
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command} failed in {site}:\n{err.decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def page_weights(site: Path) -> dict[str, Any]:
    """The home page, the heaviest page the nav opens, and the heaviest page of all, in KB."""
    nav = re.findall(r"^\s+- (?:[^:\n]+: )?(\S+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    sizes = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}

    navs = {md: sizes.get(page_url(md) + "index.html", 0) for md in nav}
    heaviest_nav = max(navs, key=lambda k: navs[k])
    heaviest = max(sizes, key=lambda k: sizes[k])
    return {
        "home_kb": sizes.get("index.html", 0) // 1024,
        "heaviest_nav_page": heaviest_nav,
        "heaviest_nav_kb": navs[heaviest_nav] // 1024,
        "heaviest_page": heaviest,
        "heaviest_kb": sizes[heaviest] // 1024,
    }


def host_figures(args: argparse.Namespace, work: Path, plugin: Path) -> dict[str, Any]:
    """The shipped build (Pagefind) against Material's search (the baseline, same run) and against
    Zensical (``digest build --host zensical``), each with its peak memory and page weights; what a
    reader downloads (home page, one search) on each; and the physical floor."""
    runs = max(args.runs, 1)
    pagefind, before, trees, before_trees = [], [], [], []
    site, code = baseline_site(args.baseline, plugin / "data", work) if args.baseline else (None, None)
    for _ in range(runs):  # alternating pairs: the machine's drift reaches both alike
        pagefind.append(timed_build(plugin, "site"))
        trees.append(LAST_TREE_MB["mb"])
        if site is not None:
            before.append(timed_build(site, "site", code))
            before_trees.append(LAST_TREE_MB["mb"])
    figures: dict[str, Any] = {"pagefind_s": round(statistics.median(s for s, _ in pagefind), 3)}
    figures["pagefind_peak_rss_mb"] = round(max(r for _, r in pagefind), 1)
    figures["pagefind_tree_mb"] = max(trees)
    figures |= page_weights(plugin / "site")
    figures |= physical_floor(plugin / "site", work / "floor-site")
    if before:
        figures["baseline_rev"] = args.baseline
        figures["baseline_s"] = round(statistics.median(s for s, _ in before), 3)
        figures["baseline_peak_rss_mb"] = round(max(r for _, r in before), 1)
        figures["baseline_tree_mb"] = max(before_trees)
        figures["pagefind_vs_baseline"] = round(figures["pagefind_s"] / figures["baseline_s"], 3)
        figures["pagefind_vs_baseline_pairs"] = [round(a[0] / b[0], 3) for a, b in zip(pagefind, before, strict=True)]
    if not args.no_material_search:
        material = material_search_site(plugin, work)
        baseline = [timed_build(material, "site") for _ in range(runs)]
        figures["material_search_s"] = round(statistics.median(s for s, _ in baseline), 3)
        figures["material_search_peak_rss_mb"] = round(max(r for _, r in baseline), 1)
        figures["pagefind_vs_material"] = round(figures["pagefind_s"] / figures["material_search_s"], 3)
    zensical = work / "zensical"
    shutil.copytree(plugin, zensical, ignore=shutil.ignore_patterns("site", ".cache"))
    command = [sys.executable, "-m", "digest_plugin.cli", "build", "--host", "zensical"]
    zen, zen_trees = [], []
    for _ in range(runs):
        zen.append(timed_command(zensical, command))
        zen_trees.append(LAST_TREE_MB["mb"])
    figures["zensical_s"] = round(statistics.median(s for s, _ in zen), 3)
    figures["zensical_peak_rss_mb"] = round(max(r for _, r in zen), 1)
    figures["zensical_tree_mb"] = max(zen_trees)
    figures["zensical_vs_mkdocs"] = round(figures["zensical_s"] / figures["pagefind_s"], 3)
    if "baseline_s" in figures:
        figures["zensical_vs_baseline"] = round(figures["zensical_s"] / figures["baseline_s"], 3)
    if not args.no_search_bytes:
        figures |= reader_bytes(plugin / "site", "mkdocs")
        figures |= reader_bytes(zensical / "site", "zensical")
    return figures


def reader_bytes(site: Path, host: str) -> dict[str, Any]:
    """The home page and one search (search_bytes.QUERIES, the real brief's words), in Chromium
    (``search_bytes.py``): the fewest and the most bytes a first search of a visit fetched."""
    try:
        measured = search_bytes.measure(site, search_bytes.QUERIES)
    except Exception as exc:  # noqa: BLE001  (no Chromium, or a host whose search box differs: say so)
        return {f"{host}_search_bytes": f"not measured: {type(exc).__name__}: {str(exc)[:200]}"}
    return {
        f"{host}_home_page_bytes": measured["home_page_bytes"],
        f"{host}_search_bytes_min": measured["search_bytes_min"],
        f"{host}_search_bytes_max": measured["search_bytes_max"],
    } | {f"{host}_{k}": v for k, v in measured.items() if k.startswith("search_bytes[")}


FLOOR_PAGE = """<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>{{ title }}</title>
<link rel="stylesheet" href="/assets/digest/digest.css"></head><body><main><article class="md-content__inner">
{{ content }}</article></main></body></html>
"""
ARTICLE = re.compile(r'<article class="md-content__inner[^>]*>(.*)</article>', re.S)
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def physical_floor(built: Path, out: Path) -> dict[str, Any]:
    """The physical floor of any static build: the same pages' content (taken from the built site,
    so no merging or rendering is counted) written out through one Jinja template, then the same
    with a plain JSON search index of their text (what the issue measured, 1.3 s and 4.4 s at ten
    years).  Median of three."""
    from jinja2 import Environment
    from markupsafe import Markup

    pages = []
    for path in sorted(built.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        article, title = ARTICLE.search(text), TITLE.search(text)
        content = Markup(article.group(1) if article else "")  # the benchmark's own output, already HTML
        pages.append((path.relative_to(built).as_posix(), title.group(1) if title else "", content))
    template = Environment(autoescape=True).from_string(FLOOR_PAGE)

    def write(with_index: bool) -> float:
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        index = []
        for rel, title, content in pages:
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(template.render(title=title, content=content), encoding="utf-8")
            if with_index:
                index.append({"location": rel, "title": title, "text": " ".join(TAG.sub(" ", content).split())})
        if with_index:
            (out / "search_index.json").write_text(json.dumps({"docs": index}, ensure_ascii=False), encoding="utf-8")
        return time.perf_counter() - start

    plain = statistics.median(write(False) for _ in range(3))
    indexed = statistics.median(write(True) for _ in range(3))
    written = write(False)  # then Pagefind on the same text, as the shipped build runs it
    seconds, _ = timed_command(out, pagefind_command(out))
    shutil.rmtree(out, ignore_errors=True)
    return {
        "physical_floor_s": round(plain, 3),
        "physical_floor_with_index_s": round(indexed, 3),
        "physical_floor_with_pagefind_s": round(written + seconds, 3),
        "physical_floor_with_pagefind_tree_mb": LAST_TREE_MB["mb"],
    }


TAG = re.compile(r"<[^>]*>")


def floor_site(plugin: Path, work: Path) -> Path:
    """The plugin site's pages with every directive already rendered, built without the plugin."""
    site = work / "floor"
    docs = living_docs(plugin / "data")
    shutil.copytree(plugin / "docs", site / "docs")
    shutil.copytree(plugin / "overrides", site / "overrides")
    for path, content in generated_pages(layouts(docs)):
        target = site / "docs" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
    pages = [
        (p.relative_to(site / "docs").as_posix(), p.read_text(encoding="utf-8")) for p in (site / "docs").rglob("*.md")
    ]
    laid_out = layouts(docs, pages)
    for page in sorted((site / "docs").rglob("*.md")):
        src = page.relative_to(site / "docs").as_posix()
        page.write_text(render_static(page.read_text(encoding="utf-8"), src, laid_out), encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"  - digest:\n(?:      .*\n)+", "", config)  # no plugin …
    config = re.sub(r"  - digest_plugin.extension:\n(?:      .*\n)+", "", config)  # … and no renderer
    config = re.sub(r"\nwatch:\n(?:  - .*\n)+", "\n", config)  # … and no data folder to watch
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    return site


def render_static(markdown: str, src: str, docs: dict[str, Layout]) -> str:
    """Replace macros and directives by what the plugin would put there (headings as Markdown)."""
    markdown = MACRO.sub(lambda m: _macro_directive(m.group(1), m.group(2)), markdown)
    ctx = PageContext(docs, src)

    def directive(m: re.Match[str]) -> str:
        args: dict[str, str | None] = {}
        for arg in m.group("args").split():  # key=value, or a bare key
            key, eq, value = arg.partition("=")
            args[key] = value if eq else None
        parts = []
        for block in render_directive(ctx, args):
            parts.append(
                f"\n{'#' * block.level} {block.text} {{ #{block.anchor} }}\n"
                if isinstance(block, Heading)
                else f"\n{block.html}\n"
            )
        return "".join(parts)

    markdown = DIRECTIVE.sub(directive, markdown)
    layout = next(iter(docs.values()))
    return CITE.sub(lambda m: Renderer(layout, Linker(src)).cite(layout.doc.citations[m.group(1)]), markdown)


def _macro_directive(name: str, args: str) -> str:
    values = re.findall(r'"([^"]*)"', args)
    if name == "cite":
        return f"[[cite {values[0]}]]"
    kind = {
        "digest_section": "section",
        "digest_register": "register",
        "digest_follow_ups": "follow-ups",
        "digest_overview": "overview",
    }[name]
    arg = f"{kind}={values[0]}" if kind == "section" else kind
    return f"\n\n[[digest {arg}]]\n\n"


def free_port() -> int:
    """A TCP port on localhost that is free now (for ``mkdocs serve``)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


PLUGIN_SERVE = ("-m", "digest_plugin.cli", "serve")
"""The README's preview: ``digest serve`` (a dirty ``mkdocs serve`` whose plugin picks the pages)."""
PLAIN_SERVE = ("-m", "mkdocs", "serve")


def serve_loop(site: Path, edit_file: Path, old: str, page: str, runs: int, command: tuple[str, ...]) -> float:
    """Median seconds from saving an edit to the served page showing it.

    The server's log is kept in ``serve.log`` beside the site, and its end is printed if the served
    page never shows an edit: a rebuild that raised is then named, not lost (issue 30)."""
    port = free_port()
    log = site / "serve.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, *command, "-a", f"127.0.0.1:{port}"],
            cwd=site,
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    url = f"http://127.0.0.1:{port}/{page}"
    try:
        _wait_for(url, lambda body: True, timeout=1800)
        times = []
        text = edit_file.read_text(encoding="utf-8")
        for n in range(runs):
            marker = f"BENCHMARK-EDIT-{n}-{time.time_ns()}"
            start = time.perf_counter()
            edit_file.write_text(text.replace(old, old + marker, 1), encoding="utf-8")
            _wait_for(url, _containing(marker), timeout=1800)
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    except SystemExit as stuck:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"{stuck}\nthe server's log ({log}) ends:\n{tail}") from None
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _containing(marker: str) -> Callable[[str], bool]:
    """Whether a page body holds ``marker`` (bound now, not to the loop variable)."""
    return lambda body: marker in body


def _wait_for(url: str, ok: Callable[[str], bool], timeout: float) -> None:
    """Poll ``url`` until ``ok`` says yes to its body; exit after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if ok(response.read().decode("utf-8", "replace")):
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {url}")


def build_figures(args: argparse.Namespace, data: Path, work: Path, plugin: Path, floor: Path) -> dict[str, Any]:
    """Load+merge (cold and warm), plugin builds (cold and warm cache) and floor builds."""
    merge = [timed_analyse(plugin / "data") for _ in range(max(args.runs, 5))]
    timed_analyse(plugin / "data", work / "analyse-cache")  # fills the cache
    merge_warm = [timed_analyse(plugin / "data", work / "analyse-cache") for _ in range(max(args.runs, 5))]
    plugin_runs = [timed_build(plugin, "site") for _ in range(args.runs)]
    warm = plugin_site(data, work, name="plugin-warm", cache=".cache/digest")
    timed_build(warm, "site")  # fills the cache
    warm_runs = [timed_build(warm, "site") for _ in range(args.runs)]
    floor_runs = [timed_build(floor, "site") for _ in range(args.runs)]
    pages = sum(1 for _ in (plugin / "site").rglob("index.html"))
    floor_pages = sum(1 for _ in (floor / "site").rglob("index.html"))
    weight = {
        p: (plugin / "site" / p / "index.html").stat().st_size // 1024
        for p in ("inference/1", "inference/3", "inference/5", "inference/register")
    }
    figures: dict[str, Any] = {
        "plugin_s": round(statistics.median(s for s, _ in plugin_runs), 3),
        "floor_s": round(statistics.median(s for s, _ in floor_runs), 3),
        "merge_s": round(statistics.median(merge), 3),
        "merge_runs_s": [round(m, 2) for m in merge],
        "merge_warm_s": round(statistics.median(merge_warm), 3),
        "peak_rss_mb": round(max(r for _, r in plugin_runs), 1),
        "floor_peak_rss_mb": round(max(r for _, r in floor_runs), 1),
    }
    figures["ratio"] = round(figures["plugin_s"] / figures["floor_s"], 3)
    figures["plugin_warm_s"] = round(statistics.median(s for s, _ in warm_runs), 3)
    figures["ratio_warm"] = round(figures["plugin_warm_s"] / figures["floor_s"], 3)
    figures |= {"pages": pages, "floor_pages": floor_pages, "page_kb": weight}
    return figures


def main() -> None:
    """Generate the data, build both sites, print the table and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help="also measure the preview loop")
    parser.add_argument("--serve-only", action="store_true", help="measure only the preview loop (large N)")
    parser.add_argument(
        "--hosts",
        action="store_true",
        help="only the hosts: the shipped build (Pagefind), the same with Material's search, Zensical",
    )
    parser.add_argument("--no-material-search", action="store_true", help="with --hosts: skip the baseline")
    parser.add_argument("--no-search-bytes", action="store_true", help="with --hosts: skip Chromium's figures")
    parser.add_argument(
        "--baseline",
        default=BASELINE_REV,
        help="with --hosts: the revision whose build is the baseline (default: the one issue 16 measured; '' for none)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="digest-bench-") as tmp:
        work = Path(tmp)
        data = generate(args.days, work / "data")
        size = sum(p.stat().st_size for p in (data / "briefs").glob("*.yml"))
        plugin = plugin_site(data, work)
        floor = floor_site(plugin, work) if not args.hosts else plugin

        figures = {"days": args.days}
        if args.hosts:
            figures |= host_figures(args, work, plugin)
        elif not args.serve_only:
            figures |= build_figures(args, data, work, plugin, floor)
        figures |= {
            "brief_bytes_mean": size // max(args.days, 1),
            "runs": args.runs,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        }
        if args.serve or args.serve_only:
            brief = sorted((plugin / "data" / "briefs").glob("*.yml"))[-1]
            figures["serve_plugin_s"] = round(
                serve_loop(plugin, brief, 'title: "inference', "inference/briefs/", args.runs, PLUGIN_SERVE), 3
            )
            md = floor / "docs" / "inference" / "briefs" / "index.md"
            figures["serve_floor_s"] = round(
                serve_loop(floor, md, "# 简报", "inference/briefs/", args.runs, PLAIN_SERVE), 3
            )

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
