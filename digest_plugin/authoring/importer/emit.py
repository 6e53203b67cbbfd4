"""The YAML the import writes: keys in the schema's order, each doubt as a ``# digest-import:`` comment
above its field.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from enum import Enum
from typing import Any

from pydantic import BaseModel

from ...core.model import inner_model
from .common import MARK, SCHEMA_LINE, At, Code, one_line

PLAIN_SCALAR = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def reorder(value: Any, model: type[BaseModel] | None) -> Any:
    """Keys in the model's field order, so the file reads like the curated ones."""
    if isinstance(value, list):
        return [reorder(v, model) for v in value]
    if not isinstance(value, dict) or model is None:
        return value
    ordered = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in value:
            ordered[key] = reorder(value[key], inner_model(info.annotation))
    ordered.update({k: v for k, v in value.items() if k not in ordered and not k.startswith("_")})
    return ordered


def emit_brief(brief: dict[str, Any], comments: dict[At, list[str]]) -> str:
    """YAML text: double-quoted text, plain codes and dates, a ``# digest-import:`` line above each doubt."""
    comments = {k: list(v) for k, v in comments.items()}
    body: list[str] = []
    _emit_mapping(brief, (), 0, body, comments)
    top = [f"# {MARK}: {one_line(m)}" for m in comments.pop(("#top",), [])]
    for path, messages in comments.items():  # a doubt about a field that was left out: keep it at the top
        top += [f"# {MARK}: ({'.'.join(str(p) for p in path)}) {one_line(m)}" for m in messages]
    head = [
        SCHEMA_LINE,
        f"# Imported from the team's Markdown brief by `digest import`; check every `# {MARK}:` line, then delete it.",
    ]
    return "\n".join(head + top + body) + "\n"


def _emit_mapping(
    mapping: dict[str, Any],
    path: At,
    indent: int,
    out: list[str],
    comments: dict[At, list[str]],
    first_prefix: str = "",
) -> None:
    """One key per line; the first key of a list item goes on the "- " line (its comments were
    written above that line by :func:`_emit_sequence`)."""
    pad = " " * indent
    for n, (key, value) in enumerate(mapping.items()):
        if value is None:
            continue
        here = path + (key,)
        prefix = first_prefix if n == 0 and first_prefix else pad
        out += [f"{pad}# {MARK}: {one_line(m)}" for m in comments.pop(here, [])]
        if isinstance(value, dict) and value:
            out.append(f"{prefix}{key}:")
            _emit_mapping(value, here, indent + 2, out, comments)
        elif isinstance(value, list) and value:
            out.append(f"{prefix}{key}:")
            _emit_sequence(value, here, indent + 2, out, comments)
        elif isinstance(value, (dict, list)):
            out.append(f"{prefix}{key}: {'{}' if isinstance(value, dict) else '[]'}")
        else:
            out.append(f"{prefix}{key}: {_scalar(value)}")


def _emit_sequence(values: list[Any], path: At, indent: int, out: list[str], comments: dict[At, list[str]]) -> None:
    pad = " " * indent
    for i, value in enumerate(values):
        here = path + (i,)
        for message in comments.pop(here, []):
            out.append(f"{pad}# {MARK}: {one_line(message)}")
        if isinstance(value, dict):
            first_key = next(iter(value), None)
            if first_key is not None:  # an empty mapping has no first key, and so no comments on one
                for message in comments.pop(here + (first_key,), []):
                    out.append(f"{pad}# {MARK}: {one_line(message)}")
            _emit_mapping(value, here, indent + 2, out, comments, first_prefix=f"{pad}- ")
        else:
            out.append(f"{pad}- {_scalar(value)}")


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Enum):
        value = Code(value.value)
    if isinstance(value, Code) and PLAIN_SCALAR.fullmatch(value) and value.lower() not in YAML_WORDS:
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)
