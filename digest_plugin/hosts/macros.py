"""The mkdocs-macros pluglet: lets page authors place merged content inside their own prose.

mkdocs-macros renders pages with an unsandboxed Jinja environment, so no brief text may ever
reach it.  These macros therefore return only ``[[digest …]]`` directives built from checked
arguments (a section number, an arXiv id); the Markdown extension fills them in after Jinja has
run.  Usage in a page::

    {{ digest_section("3.1") }}     the entries, callouts and stubs of §3.1
    {{ cite("1605.08803") }}        a numbered citation link
    {{ digest_register() }}         the contradiction register
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from ..core import arxiv

SECTION = re.compile(r"[1-9][0-9]?(?:\.[1-9][0-9]?)?")
TOPIC = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

_Macro = TypeVar("_Macro", bound=Callable[..., str])


class MacroEnv(Protocol):
    """The part of mkdocs-macros' ``env`` a pluglet uses: ``env.macro`` registers a function and returns it."""

    def macro(self, function: _Macro, /) -> _Macro: ...


def _checked(pattern: re.Pattern[str], value: object, what: str) -> str:
    text = str(value)
    if not pattern.fullmatch(text):
        raise ValueError(f"digest macro: {text!r} is not a valid {what}")
    return text


def _directive(kind: str, value: str | None = None, topic: str | None = None) -> str:
    arg = kind if value is None else f"{kind}={value}"
    if topic is not None:
        arg += f" topic={_checked(TOPIC, topic, 'topic')}"
    return f"\n\n[[digest {arg}]]\n\n"


def define_env(env: MacroEnv) -> None:
    """Entry point mkdocs-macros calls for a pluglet (``modules: [digest_plugin.macros]``)."""

    @env.macro
    def digest_section(number: str | int, topic: str | None = None) -> str:
        """The entries, callouts and stubs of section ``number`` (of ``topic``'s doc)."""
        return _directive("section", _checked(SECTION, number, "section number"), topic)

    @env.macro
    def cite(arxiv_id: str) -> str:
        """A numbered citation link to an arXiv paper."""
        return f"[[cite {_checked(arxiv.LOOSE_ID, arxiv_id, 'arXiv id')}]]"

    @env.macro
    def digest_register(topic: str | None = None) -> str:
        """The contradiction register: every contradiction with its whole story."""
        return _directive("register", topic=topic)

    @env.macro
    def digest_follow_ups(topic: str | None = None) -> str:
        """The follow-ups: pending ones first, then the closed ones with how they closed."""
        return _directive("follow-ups", topic=topic)

    @env.macro
    def digest_overview(topic: str | None = None) -> str:
        """The topic at a glance: the latest brief, open contradictions and follow-ups, counts, the timeline."""
        return _directive("overview", topic=topic)
