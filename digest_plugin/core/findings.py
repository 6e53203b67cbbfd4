"""Located problems: the one currency every layer uses to tell an editor what is wrong.

At the bottom of the house so that the checks, the rules, the editing commands and the reports
can say "this file, this line, this column" without importing the loader.  A finding is plain
data (``file:line:col: severity: message (hint)``, 1-based as editors and GitHub annotations
count); :func:`locate` turns a path inside a parsed YAML tree into that line and column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq


@dataclass(frozen=True, order=True)
class Finding:
    """One problem in the data, located like a compiler error."""

    path: str
    line: int
    col: int
    message: str
    severity: str = "error"
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.severity}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


class DataError(Exception):
    """Raised with every finding at once, so one run shows the editor everything to fix."""

    def __init__(self, findings: list[Finding]):
        self.findings = sorted(findings)
        super().__init__("\n".join(str(f) for f in self.findings))


def locate(tree: Any, loc: tuple[Any, ...]) -> tuple[int, int]:
    """1-based (line, col) of the node a pydantic error ``loc`` points at, or of its nearest parent.

    ``tree`` is a ruamel round-trip tree (which keeps every position); anything else locates to 1:1."""
    node, line, col = tree, 1, 1
    if isinstance(tree, (CommentedMap, CommentedSeq)):
        line, col = tree.lc.line + 1, tree.lc.col + 1
    for key in loc:
        if isinstance(node, CommentedMap) and key in node:
            pos = node.lc.value(key) if not isinstance(node[key], (CommentedMap, CommentedSeq)) else node.lc.key(key)
            line, col = pos[0] + 1, pos[1] + 1
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            pos = node.lc.item(key)
            line, col = pos[0] + 1, pos[1] + 1
            node = node[key]
        else:
            break
    return line, col
