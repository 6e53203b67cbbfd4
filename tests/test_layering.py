"""The layers of the package, enforced: each module imports only modules of lower layers, and the
pure core imports nothing of MkDocs, Python-Markdown or Jinja (so it can move to another host).

DEVELOPING.md draws the same picture in words; this test is what keeps the two true.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "digest_plugin"

LAYERS: list[set[str]] = [
    {"arxiv", "labels", "findings", "spelling"},  # 0: plain data and patterns; a claim however spelled
    {"model"},  # 1: the shapes of a brief, an outline and a vocabulary file
    # 2: reading YAML fast; a pure function in a fork; safe file writing; the team's words looked up;
    # the site's mkdocs.yml as data (for the hosts that read it themselves)
    {"fastyaml", "workers", "files", "vocabulary", "siteconfig"},
    {"load"},  # 3: files → validated models, every problem located
    # 4: references across files; editorial rules; the merged doc's frozen records (what the merge
    # returns and everything downstream reads)
    {"check", "rules", "doc"},
    {"merge"},  # 5: briefs + outline → the frozen living doc
    # 6: where things live; withheld-claim check; load→check→merge; SVG charts; the sandboxed templates
    {"layout", "leaks", "pipeline", "chart", "templating"},
    {"render"},  # 7: merged doc → HTML
    {"feed", "export"},  # 8: the Atom feed (rendered entries); the export and JSON-LD
    {"pages", "searchindex"},  # 9: which pages exist; the search index made from them
    {"importer", "edit", "scaffold", "diff", "report"},  # 10: authoring, beside the hosts
    # 11: Python-Markdown and mkdocs-macros hosts; `digest review` (answers written through edit)
    {"extension", "macros", "review"},
    # 12: which pages a dirty serve converts again; a one-off build's pages rendered on both cores;
    # the atomic publish of a one-off build's folder
    {"preview", "prerender", "siteswap"},
    {"zensical_host"},  # 13: Zensical's build, run in this process with the merge handed over
    {"plugin", "cli"},  # 14: the MkDocs adapter and the command line
]
CORE = set().union(*LAYERS[:10])
HOST_LIBRARIES = {"mkdocs", "markdown", "jinja2", "material", "mkdocs_macros", "zensical"}
OWN_JINJA = {"templating"}
"""The render layer's own template engine: a sandboxed Jinja environment of its own, not a host's
(it moves to Zensical with the renderer); no other core module may import Jinja."""


def level(module: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if module in layer)


def imports(source: str, depth: int = 0) -> tuple[set[str], set[str]]:
    """(modules of this package, top-level third-party packages) a module's source imports.

    ``depth`` 1 is a file of a sub-package (``importer/items.py``): its ``from .x`` imports are
    its own package's parts, and ``from ..x`` reaches the package's modules."""
    ours: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level and node.level <= depth:
                continue  # a part of the same sub-package
            if node.level:  # relative: `from . import x` or `from .x import y`
                if node.module:
                    ours.add(node.module.split(".")[0])
                else:
                    ours.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("digest_plugin"):
                parts = node.module.split(".")
                ours.update([parts[1]] if len(parts) > 1 else [a.name for a in node.names])
            elif node.module:
                others.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "digest_plugin" and len(parts) > 1:
                    ours.add(parts[1])
                else:
                    others.add(parts[0])
    return ours, others


def problems(module: str, source: str, depth: int = 0) -> list[str]:
    """What is wrong with one module's imports, in words a maintainer can act on."""
    ours, others = imports(source, depth)
    found = []
    for target in sorted(ours):
        if target not in {m for layer in LAYERS for m in layer}:
            found.append(f"{module} imports {target}, which no layer lists (add it to LAYERS and DEVELOPING.md)")
        elif level(target) >= level(module):
            found.append(
                f"{module} (layer {level(module)}) imports {target} (layer {level(target)}): only lower layers"
            )
    if module in CORE:
        allowed = {"jinja2"} if module in OWN_JINJA else set()
        found += [f"{module} is core but imports {lib}" for lib in sorted((others & HOST_LIBRARIES) - allowed)]
    return found


MODULES = sorted(
    [p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"]
    + [p.parent.name for p in PACKAGE.glob("*/__init__.py")]
)


def sources(module: str) -> list[tuple[str, int]]:
    """(source, depth) of each file of a module: one file, or every file of a sub-package."""
    if (PACKAGE / module).is_dir():
        return [(p.read_text(encoding="utf-8"), 1) for p in sorted((PACKAGE / module).glob("*.py"))]
    return [((PACKAGE / f"{module}.py").read_text(encoding="utf-8"), 0)]


def test_every_module_has_a_layer():
    unlisted = [m for m in MODULES if not any(m in layer for layer in LAYERS)]
    assert unlisted == [], f"add these modules to a layer (here and in DEVELOPING.md): {unlisted}"


@pytest.mark.parametrize("module", MODULES)
def test_imports_go_down_the_layers_and_the_core_stays_host_free(module):
    assert [p for source, depth in sources(module) for p in problems(module, source, depth)] == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("merge", "from mkdocs.plugins import BasePlugin\n", "merge is core but imports mkdocs"),
        ("render", "import markdown\n", "render is core but imports markdown"),
        ("render", "from jinja2 import Environment\n", "render is core but imports jinja2"),
        ("merge", "from .render import Renderer\n", "merge (layer 5) imports render (layer 7): only lower layers"),
        ("model", "from digest_plugin.load import load_data\n", "model (layer 1) imports load (layer 3)"),
        ("layout", "from . import layout\n", "layout (layer 6) imports layout (layer 6)"),
        ("check", "from .rules import check_rules\n", "check (layer 4) imports rules (layer 4)"),
    ],
)
def test_the_checker_catches_a_wrong_import(module, source, expected):
    assert any(p.startswith(expected) for p in problems(module, source)), problems(module, source)


def test_a_sub_package_is_held_to_its_layer_and_may_import_its_own_parts():
    assert "importer" in MODULES
    assert problems("importer", "from .items import _read_items\nfrom ..model import Brief\n", depth=1) == []
    (found,) = problems("importer", "from ..plugin import DigestPlugin\n", depth=1)
    assert found.startswith("importer (layer 10) imports plugin (layer 14)")


def test_hosts_may_import_their_host():
    assert problems("plugin", "from mkdocs.plugins import BasePlugin\nfrom .render import esc\n") == []
