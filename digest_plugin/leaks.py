"""Find withheld claims in finished HTML: the build's last guard that nothing forbidden was published.

It reads the output, not the renderer's intentions: its own matcher (every withheld spelling as
it would appear in HTML text) over the page with the contradiction callouts — the one place a
withheld claim may be quoted — cut out.  The renderer withholds; this checks that it did.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .merge import ContradictionView, LivingDoc

CALLOUT = re.compile(r"<details[^>]*\bdata-digest-contradiction=.*?</details>", re.S)
"""A contradiction callout (on a section page, a brief page or the register), where the claim is quoted."""


@dataclass(frozen=True)
class Leak:
    pattern: str
    """The withheld spelling, as the brief writes it."""
    contradiction: ContradictionView


class LeakCheck:
    """Every withheld spelling of every topic, matched the way it appears in escaped HTML text."""

    def __init__(self, docs: Mapping[str, LivingDoc]):
        self._by_html: dict[str, Leak] = {}
        for doc in docs.values():
            for pattern, view in doc.withheld.items():
                self._by_html.setdefault(html.escape(pattern, quote=True), Leak(pattern, view))
        spellings = sorted(self._by_html, key=lambda p: (-len(p), p))
        self._regex = re.compile("|".join(map(re.escape, spellings))) if spellings else None

    def leaks(self, page_html: str) -> list[Leak]:
        """The withheld claims stated on a page outside its callouts, each once, in a fixed order."""
        if self._regex is None:
            return []
        found = {m.group(0) for m in self._regex.finditer(CALLOUT.sub("", page_html))}
        return [self._by_html[spelling] for spelling in sorted(found)]
