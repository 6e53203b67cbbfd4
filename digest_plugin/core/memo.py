"""Findings of the checks that read one brief alone, kept from one ``serve`` rebuild to the next.

Why: after an edit to one brief, a preview checks every brief again, and at ten years of briefs
that was 1.7 s of every rebuild, on the way from the editor's save to the served page (``serve``
runs no worker beside its server's threads, so the checks and the merge take turns).  Most of that
time goes to checks whose findings follow from the brief and from nothing else that can change
without it: its links' hosts, its own bans against its own items, its words against the vocabulary.

The load cache (:class:`~digest_plugin.core.load.Cache`) hands back the very same parsed object for a
file whose bytes did not change, so a finding list is kept with the object it came from and with
what else it read (the rules, the day, the vocabulary, the claims withheld anywhere), and reused
only while all of those are the same.  A one-off build starts empty and keeps nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVarTuple

from .findings import Finding
from .model import Brief

Ts = TypeVarTuple("Ts")


class BriefMemo:
    """``check``'s findings for one brief, kept while the brief (its parsed object) and ``key`` are the same."""

    def __init__(self) -> None:
        self._kept: dict[tuple[str, str], tuple[Brief, object, list[Finding]]] = {}
        self._keys: dict[str, object] = {}

    def key(self, name: str, value: object) -> object:
        """``value`` as the object kept last time, when they are equal: compared once a build here, then by
        identity brief by brief (comparing thousands of claims once per brief took longer than the checks)."""
        old = self._keys.get(name)
        if old is not None and (old is value or old == value):
            return old
        self._keys[name] = value
        return value

    def findings(
        self, check: str, brief: Brief, key: object, compute: Callable[[*Ts], list[Finding]], *args: *Ts
    ) -> list[Finding]:
        """What ``compute(*args)`` found last time for this very ``brief`` object and ``key``, or what it finds now."""
        kept = self._kept.get((check, brief.id))
        if kept is not None and kept[0] is brief and (kept[1] is key or kept[1] == key):
            return list(kept[2])
        found = compute(*args)
        self._kept[(check, brief.id)] = (brief, key, list(found))
        return found

    def keep_only(self, brief_ids: set[str]) -> None:
        """Forget briefs that are gone (a deleted file's findings must not outlive it)."""
        for k in [k for k in self._kept if k[1] not in brief_ids]:
            del self._kept[k]
