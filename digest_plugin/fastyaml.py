"""A fast YAML 1.2 reader for the build: PyYAML's C parser with YAML 1.2 core-schema rules.

ruamel.yaml's round-trip loader keeps every position, which error messages need, but reads only
~30 briefs a second; PyYAML's libyaml parser reads ten times as many.  Builds read with this
module and fall back to the round-trip loader (:mod:`load`) whenever anything is off, so error
messages are always located.  To give exactly the data ruamel gives, it follows YAML 1.2's core
schema instead of PyYAML's YAML 1.1 (``yes``/``no``/``on`` and ``22:20`` stay strings, ``010`` is
ten), keeps dates as text (pydantic parses them), and refuses what briefs never contain:
duplicate keys, anchors and aliases, explicit tags.  A test proves both loaders agree on every
file in the repository.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # PyYAML without libyaml: still correct, just slower
    from yaml.composer import Composer
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef]
        def __init__(self, stream):
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)


class Refused(Exception):
    """The fast path will not read this file; the caller falls back to the locating loader."""


class _Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2 core schema (what ruamel.yaml implements), minus timestamps."""


_Resolver.yaml_implicit_resolvers = {}
_Resolver.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                list("tTfF"))
_Resolver.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
_Resolver.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
                                list("-+0123456789"))
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


class _Constructor(yaml.constructor.SafeConstructor):
    def construct_object(self, node, deep=False):
        if node in self.constructed_objects or node in self.recursive_objects:
            raise Refused("alias")
        return super().construct_object(node, deep)

    def construct_yaml_int(self, node):
        value = self.construct_scalar(node)
        if value.startswith("0o"):
            return int(value[2:], 8)
        if value.startswith("0x"):
            return int(value[2:], 16)
        return int(value, 10)

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge" or key_node.value == "<<":
                raise Refused("merge key")  # ruamel merges `<<`; leave such a file to it
            key = key_node.value
            if key in seen:
                raise Refused("duplicate key")
            seen.add(key)
        return super().construct_mapping(node, deep)

    def construct_undefined(self, node):
        raise Refused("tag")


_Constructor.add_constructor("tag:yaml.org,2002:int", _Constructor.construct_yaml_int)
_Constructor.add_constructor("tag:yaml.org,2002:timestamp", yaml.constructor.SafeConstructor.construct_yaml_str)
_Constructor.add_constructor(None, _Constructor.construct_undefined)


class _FastLoader(_Parser, _Constructor, _Resolver):
    """libyaml's parser, our constructor and our (YAML 1.2) resolver — nothing of YAML 1.1's."""

    def __init__(self, stream):
        _Parser.__init__(self, stream)
        _Constructor.__init__(self)
        _Resolver.__init__(self)


CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
EXPLICIT_TAG = re.compile(r"(?:^|[\s\[{,:-])!")


def read(text: str) -> Any:
    """The data of a YAML text, or raise Refused (or a YAML error) for the caller to fall back."""
    if "&" in text and re.search(r"(?:^|[\s\[{,:-])&[^\s]", text) or "!" in text and EXPLICIT_TAG.search(text):
        raise Refused("anchor or tag")  # may be inside a string: the slow path decides
    data = yaml.load(text, Loader=_FastLoader)
    _check_strings(data)
    return data


def _check_strings(node: Any) -> None:
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if CONTROL.search(value):
                raise Refused("control character")
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
