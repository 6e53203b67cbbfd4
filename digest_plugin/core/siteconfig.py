"""The site's ``mkdocs.yml`` as plain data, for the hosts that read it themselves.

The MkDocs plugin gets its options from MkDocs; the ``digest`` command and the Markdown extension
under Zensical (which runs no plugins) read the same file here, so that every host merges with the
rules the site set under the digest plugin's entry, not with the defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from .model import Rules


def settings(config: Path | None) -> dict[str, Any]:
    """mkdocs.yml as data (empty when there is none); the tags Material uses load as None."""
    if config is None or not config.is_file():
        return {}
    tree = YAML(typ="safe", pure=True)
    tree.constructor.add_constructor(None, lambda loader, node: None)  # !!python/name:… tags Material uses
    tree.constructor.add_constructor("!ENV", _env_tag)
    found: dict[str, Any] = tree.load(config.read_text(encoding="utf-8")) or {}
    return found


def _env_tag(loader: Any, node: Any) -> Any:
    """MkDocs' ``!ENV NAME`` / ``!ENV [NAME, …, default]``: the first variable set, else the default."""
    names = [loader.construct_scalar(node)] if node.id == "scalar" else loader.construct_sequence(node)
    *variables, default = names if len(names) > 1 else [*names, None]
    return next((os.environ[str(v)] for v in variables if str(v) in os.environ), default)


def digest_option(found: dict[str, Any], name: str, default: Any) -> Any:
    """An option of the digest plugin's entry in mkdocs.yml, whichever form ``plugins:`` takes (MkDocs
    reads a list, ``- digest: {…}``, or a mapping, ``digest: {…}``); a ValueError naming the fix when
    the entry's options are not a mapping."""
    plugins = found.get("plugins") or []
    entries = [plugins] if isinstance(plugins, dict) else [p for p in plugins if isinstance(p, dict)]
    for entry in entries:
        if "digest" in entry:
            options = entry["digest"] or {}
            if not isinstance(options, dict):
                raise ValueError(
                    f"the digest plugin's options must be a mapping (`- digest: {{data_dir: data}}`), not {options!r}"
                )
            return options.get(name, default)
    return default


def rules(config: Path | None) -> Rules:
    """The ``rules`` of the digest plugin in mkdocs.yml, so check and every host apply the same ones."""
    given = digest_option(settings(config), "rules", None) or {}
    if not isinstance(given, dict):
        raise ValueError(
            f"the digest plugin's `rules` must be a mapping of rule names to values "
            f"(`rules: {{archive_after_days: 7}}`), not {given!r}"
        )
    return Rules.model_validate(given)
