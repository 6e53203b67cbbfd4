"""The MkDocs adapter's own pieces (the events are exercised by the builds of test_site_e2e,
test_preview and test_serve)."""

from __future__ import annotations

import pytest
from jinja2 import DictLoader, Environment

from digest_plugin.hosts.state import CompiledTemplates


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


def test_each_build_starts_afresh_while_a_preview_keeps_the_last_good_docs(tmp_path):
    """Under ``serve`` one plugin instance runs build after build: a build's own state (the pages it
    generated, its errors) is never read by the next, while the session keeps the last good docs that
    a preview goes on serving when an edit breaks a brief."""
    from helpers import copy_project
    from mkdocs.config import load_config

    from digest_plugin.hosts.plugin import DigestPlugin

    root = copy_project(tmp_path / "p")
    config = load_config(str(root / "mkdocs.yml"))
    plugin = config.plugins["digest"]
    assert isinstance(plugin, DigestPlugin)
    plugin.on_startup(command="serve", dirty=True)
    plugin.on_config(config)
    first, docs = plugin.build, plugin.session.docs
    assert docs and first.errors == [] and first.leaks is not None
    first.generated.add("inference/register.md")

    brief = sorted((root / "data" / "briefs").rglob("*.yml"))[0]
    brief.write_text(brief.read_text(encoding="utf-8") + "\nitems: [\n", encoding="utf-8")  # an edit breaks it
    plugin.on_config(config)
    assert plugin.build is not first and plugin.build.generated == set()
    assert plugin.build.errors and brief.name in str(plugin.build.errors[0])
    assert plugin.session.docs is docs  # the preview serves the last good version
    plugin.on_shutdown()
