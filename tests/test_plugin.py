"""The MkDocs adapter's own pieces (the events are exercised by the builds of test_site_e2e,
test_preview and test_serve)."""

from __future__ import annotations

import pytest
from jinja2 import DictLoader, Environment

from digest_plugin.hosts.plugin import CompiledTemplates


def test_a_preview_compiles_a_theme_template_once_and_an_edited_one_again():
    """MkDocs makes a new Jinja environment for every rebuild; the preview's cache spares the
    compiling, never the edit: an override changed on disk renders as changed."""
    cache = CompiledTemplates()
    first = Environment(loader=DictLoader({"main.html": "<p>{{ 1 + 1 }} one</p>"}), bytecode_cache=cache)
    assert first.get_template("main.html").render() == "<p>2 one</p>"

    again = Environment(loader=DictLoader({"main.html": "<p>{{ 1 + 1 }} one</p>"}), bytecode_cache=cache)

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    again.compile = no_compiling  # type: ignore[method-assign]
    assert again.get_template("main.html").render() == "<p>2 one</p>"

    edited = Environment(loader=DictLoader({"main.html": "<p>{{ 2 + 2 }} two</p>"}), bytecode_cache=cache)
    assert edited.get_template("main.html").render() == "<p>4 two</p>"
    with pytest.raises(AssertionError, match="compiled again"):  # and a new source is compiled
        stale = Environment(loader=DictLoader({"main.html": "three"}), bytecode_cache=cache)
        stale.compile = no_compiling  # type: ignore[method-assign]
        stale.get_template("main.html")
