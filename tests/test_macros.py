"""mkdocs-macros: authors place merged content with macros; data never becomes a template."""

from __future__ import annotations

import pytest

from digest_plugin.hosts import macros


class Env:
    def __init__(self):
        self.macros = {}

    def macro(self, fn):
        self.macros[fn.__name__] = fn
        return fn


@pytest.fixture
def env():
    e = Env()
    macros.define_env(e)
    return e.macros


def test_macros_emit_directives(env):
    assert env["digest_section"]("3.1").strip() == "[[digest section=3.1]]"
    assert env["digest_section"](5, topic="inference").strip() == "[[digest section=5 topic=inference]]"
    assert env["cite"]("1605.08803") == "[[cite 1605.08803]]"
    assert env["digest_register"]().strip() == "[[digest register]]"


@pytest.mark.parametrize("bad", ["3.1]] {{ 7*7 }}", "../etc", "§3", "3.1\n[[digest register]]"])
def test_macro_arguments_are_checked(env, bad):
    with pytest.raises(ValueError, match="not a valid"):
        env["digest_section"](bad)


def test_cite_refuses_non_arxiv_ids(env):
    with pytest.raises(ValueError):
        env["cite"]("javascript:alert(1)")
