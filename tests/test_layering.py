"""The layers of the package, enforced: each module imports only modules of lower layers, the folders
(core → site → authoring → hosts → the command line and the public names) are imported only
downwards too, and the pure core imports nothing of MkDocs, Python-Markdown or Jinja (so it can move
to another host).

DEVELOPING.md draws the same picture in words; this test is what keeps the two true.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "digest_plugin"

LAYERS: list[set[str]] = [
    {"arxiv", "labels", "findings", "spelling"},  # 0: plain data and patterns; a claim however spelled
    {"model", "report"},  # 1: the shapes of a brief, an outline and a vocabulary file; findings as text
    # 2: reading YAML fast; a pure function in a fork; safe file writing; the team's words looked up;
    # the site's mkdocs.yml as data (for the hosts that read it themselves)
    {"fastyaml", "workers", "files", "vocabulary", "siteconfig", "memo"},
    {"load"},  # 3: files → validated models, every problem located
    # 4: references across files; editorial rules; the merged doc's frozen records (what the merge
    # returns and everything downstream reads)
    {"check", "rules", "doc"},
    {"merge"},  # 5: briefs + outline → the frozen living doc
    # 6: where things live; withheld-claim check; load→check→merge; SVG charts; the sandboxed templates;
    # the doc as of a past night; what changed between two docs; what each night changed (one fold)
    {"layout", "leaks", "pipeline", "chart", "templating", "asof", "changes", "nights"},
    {"text"},  # 7: the renderer's text path (escape, withhold, link) and its links and anchors
    {"fragments"},  # 8: one record → one fragment (entry, callout, history, reference …)
    {"render", "changelog"},  # 9: whole pages assembled from fragments; the nights' changes pages
    # 10: the Atom feed (rendered entries); the export and JSON-LD; the past views (pieces a night)
    {"feed", "export", "pastviews"},
    {"pages", "searchindex"},  # 11: which pages exist; the search index made from them
    {"importer", "edit", "scaffold", "diff"},  # 12: authoring, beside the hosts
    # 13: Python-Markdown and mkdocs-macros hosts; `digest review` (answers written through edit)
    {"extension", "macros", "review"},
    # 14: which pages a dirty serve converts again; a one-off build's pages rendered on both cores;
    # the atomic publish of a one-off build's folder; a preview that hears saves from the system
    {"preview", "prerender", "siteswap", "watching"},
    # 15: Zensical's build, run in this process with the merge handed over; what the MkDocs plugin holds
    # (a session, a build)
    {"zensical_host", "state"},
    {"plugin", "cli"},  # 16: the MkDocs adapter and the command line
]
CORE = set().union(*LAYERS[:12])
HOST_LIBRARIES = {"mkdocs", "markdown", "jinja2", "material", "mkdocs_macros", "zensical"}
OWN_JINJA = {"templating"}
"""The render layer's own template engine: a sandboxed Jinja environment of its own, not a host's
(it moves to Zensical with the renderer); no other core module may import Jinja."""


def level(module: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if module in layer)


FOLDERS = ("core", "site", "authoring", "hosts")
"""The package's folders, lowest first: a module imports modules of its own folder or a lower one."""


def imports(source: str, package: str = "digest_plugin") -> tuple[set[str], set[str]]:
    """(modules of this package, top-level third-party packages) a module's source imports.

    ``package`` is the dotted package the file sits in (``digest_plugin.site``, or
    ``digest_plugin.authoring.importer`` for a part of the importer): relative imports are resolved
    against it, and a module is named by its file (``render``), a sub-package by its folder
    (``importer``).  A sub-package's imports of its own parts are not counted."""
    ours: set[str] = set()
    others: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "digest_plugin":
                target = node.module
            else:
                if node.module:
                    others.add(node.module.split(".")[0])
                continue
            packages = {"digest_plugin", *(f"digest_plugin.{f}" for f in FOLDERS)}
            # `from . import x` / `from ..core import x`: x is a module; else the module is the target
            names = [f"{target}.{alias.name}" for alias in node.names] if target in packages else [target]
            for name in names:
                key = _module_key(name, package)
                if key:
                    ours.add(key)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "digest_plugin":
                    key = _module_key(alias.name, package)
                    if key:
                        ours.add(key)
                else:
                    others.add(alias.name.split(".")[0])
    return ours, others


def _module_key(dotted: str, package: str) -> str | None:
    """``digest_plugin.site.render.esc`` → ``render``; None for the file's own sub-package."""
    parts = dotted.split(".")[1:]
    if parts and parts[0] in FOLDERS:
        parts = parts[1:]
    if not parts:
        return None
    if package.endswith("." + parts[0]) and package.split(".")[-1] not in FOLDERS:
        return None  # a part of the same sub-package
    return parts[0]


def problems(module: str, source: str, package: str = "digest_plugin") -> list[str]:
    """What is wrong with one module's imports, in words a maintainer can act on."""
    ours, others = imports(source, package)
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


PUBLIC_NAMES = {"extension", "macros"}
"""Top-level names a site's mkdocs.yml writes (``markdown_extensions``, the macros pluglet): each
only re-exports its host module, so configurations outlive the package's folders."""


def _files() -> dict[str, list[Path]]:
    """Module name → its files: a module's file, or every file of a sub-package (the importer)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        if path.name == "__init__.py" and len(rel) <= 2:
            continue  # the package's and the folders' own descriptions
        if len(rel) == 1 and path.stem in PUBLIC_NAMES:
            continue
        name = rel[1] if len(rel) > 2 else path.stem  # core/x.py → x; authoring/importer/y.py → importer
        found.setdefault(name, []).append(path)
    return found


FILES = _files()
MODULES = sorted(FILES)


def folder(module: str) -> str:
    """The folder a module lives in (``core`` …), or ``""`` at the top (the command line)."""
    rel = FILES[module][0].relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else ""


def sources(module: str) -> list[tuple[str, str]]:
    """(source, dotted package) of each file of a module."""
    return [
        (p.read_text(encoding="utf-8"), ".".join(("digest_plugin", *p.relative_to(PACKAGE).parent.parts)))
        for p in FILES[module]
    ]


def test_every_module_has_a_layer():
    unlisted = [m for m in MODULES if not any(m in layer for layer in LAYERS)]
    assert unlisted == [], f"add these modules to a layer (here and in DEVELOPING.md): {unlisted}"


@pytest.mark.parametrize("module", MODULES)
def test_imports_go_down_the_layers_and_the_core_stays_host_free(module):
    assert [p for source, package in sources(module) for p in problems(module, source, package)] == []


def rank(module: str) -> int:
    return FOLDERS.index(folder(module)) if folder(module) else len(FOLDERS)


@pytest.mark.parametrize("module", MODULES)
def test_the_folders_are_layers_too(module):
    """A module imports only its own folder and lower ones: the folders show the architecture."""
    ours = {m for source, package in sources(module) for m in imports(source, package)[0]}
    upward = sorted(m for m in ours if m in FILES and rank(m) > rank(module))
    assert upward == [], f"{module} ({folder(module) or 'top'}) imports upwards: {upward}"


def test_the_core_and_site_folders_hold_exactly_the_host_free_core():
    assert {m for m in MODULES if folder(m) in ("core", "site")} == CORE


@pytest.mark.parametrize("name", sorted(PUBLIC_NAMES))
def test_a_public_name_only_re_exports_its_host(name):
    """``digest_plugin.extension`` and ``digest_plugin.macros`` are what mkdocs.yml writes."""
    source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    ours, others = imports(source)
    assert ours == {name} and others == set()
    assert f"from .hosts.{name} import" in source


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("merge", "from mkdocs.plugins import BasePlugin\n", "merge is core but imports mkdocs"),
        ("render", "import markdown\n", "render is core but imports markdown"),
        ("render", "from jinja2 import Environment\n", "render is core but imports jinja2"),
        ("merge", "from .render import Renderer\n", "merge (layer 5) imports render (layer 9): only lower layers"),
        ("model", "from digest_plugin.core.load import load_data\n", "model (layer 1) imports load (layer 3)"),
        ("layout", "from . import layout\n", "layout (layer 6) imports layout (layer 6)"),
        ("check", "from .rules import check_rules\n", "check (layer 4) imports rules (layer 4)"),
    ],
)
def test_the_checker_catches_a_wrong_import(module, source, expected):
    assert any(p.startswith(expected) for p in problems(module, source)), problems(module, source)


def test_a_sub_package_is_held_to_its_layer_and_may_import_its_own_parts():
    assert "importer" in MODULES
    inside = "digest_plugin.authoring.importer"
    assert problems("importer", "from .items import read_items\nfrom ...core.model import Brief\n", inside) == []
    (found,) = problems("importer", "from ...hosts.plugin import DigestPlugin\n", inside)
    assert found.startswith("importer (layer 12) imports plugin (layer 16)")


def test_hosts_may_import_their_host():
    assert (
        problems(
            "plugin", "from mkdocs.plugins import BasePlugin\nfrom ..site.render import esc\n", "digest_plugin.hosts"
        )
        == []
    )


def private_imports(source: str) -> list[str]:
    """The ``_names`` a module's source imports from another module: what a module keeps to itself
    is not another's to use (a name shared across modules is public, and named so)."""
    return [
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module != "__future__"
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_names():
    found = {
        path.relative_to(PACKAGE).as_posix(): names
        for path in sorted(PACKAGE.rglob("*.py"))
        if (names := private_imports(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_private_import_check_sees_one():
    assert private_imports("from .common import BULLET, _Draft\nfrom __future__ import annotations\n") == ["_Draft"]
