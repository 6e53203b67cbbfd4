"""Zensical's build, run in the ``digest`` process (``digest build --host zensical``).

Why in this process: Zensical runs no plugins, so the Markdown extension it builds from
``mkdocs.yml`` used to load and merge the whole data folder again (6 s at ten years of briefs, with
the default rules rather than the site's), and every generated page was rendered on the one thread
Zensical calls Python on.  Here the command has already merged the data to write the generated
pages; it hands that merge to the extension (:func:`~digest_plugin.extension.handed_over`) and
forks a second process that renders the generated pages from the last one down while Zensical
converts from the first (:mod:`prerender`), as the MkDocs plugin does.  The pages are the same
bytes as ``digest pages && zensical build`` makes: the prerender's rule is that a page either side
renders comes out identical, and a page it could not render is rendered by the extension.

Zensical's Rust core calls ``zensical.markdown.render`` for each page; its ``build`` is what
``zensical build`` runs (in the config's folder, as that command does).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..core.doc import LivingDoc
from ..site.layout import layouts
from .extension import Handover, handed_over, host_context
from .prerender import Prerender

EXTENSION = "digest_plugin.extension"


class ZensicalError(Exception):
    """Zensical is missing or its build failed: the message says which, for ``file: error: …``."""


def extension_options(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The options of the extension's entry under ``markdown_extensions`` (what Zensical gives it)."""
    for entry in settings.get("markdown_extensions") or []:
        if isinstance(entry, dict) and EXTENSION in entry:
            return dict(entry[EXTENSION] or {})
    return {}


def build(
    config: Path,
    settings: Mapping[str, Any],
    data_dir: Path,
    docs: Mapping[str, LivingDoc],
    written: Iterable[str],
    *,
    past: bool = False,
) -> int:
    """Run ``zensical build --clean`` on ``config`` here, the extension reading ``docs`` (merged
    from ``data_dir``) for the generated pages ``written`` into the docs folder; return how many
    of them the second process rendered.  Raise ZensicalError when Zensical is missing or fails."""
    try:
        import zensical
    except ImportError as exc:
        raise ZensicalError("Zensical is not installed: pip install -e '.[zensical]'") from exc
    root = config.resolve().parent
    options = extension_options(settings)
    with contextlib.chdir(root):  # the extension's data_dir and templates are relative to it
        ours = Path(options.get("data_dir", "data")).resolve() == data_dir.resolve()
    held = layouts(docs, past=past)
    prerender: Prerender | None = None
    if ours:  # a site whose extension reads another folder renders that one itself
        docs_dir = root / settings.get("docs_dir", "docs")
        # Zensical converts pages in the order of their paths: the prerender meets it from the back.
        stubs = {
            path: (docs_dir / path).read_text(encoding="utf-8") for path in sorted(written) if path.endswith(".md")
        }
        directory_urls = bool(settings.get("use_directory_urls", True))
        templates = options.get("custom_templates") or None
        prerender = Prerender(stubs, lambda page: host_context(held, page, directory_urls, templates, root))
    try:
        with contextlib.chdir(root), handed_over(data_dir, Handover(held, prerender.take if prerender else None)):
            zensical.build(str(config.resolve()), {"clean": True, "strict": False})
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # its problems are exceptions; a panic in its Rust core is a BaseException
        raise ZensicalError(f"zensical build failed: {exc}") from exc
    finally:
        if prerender is not None:
            prerender.close()
    return prerender.taken if prerender is not None else 0
