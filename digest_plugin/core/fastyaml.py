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

import operator
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# PyYAML ships no types; types-PyYAML has them but is not a project dependency.  Without it its
# names are Any to mypy (import-untyped; subclassing Any is misc); with it, its stubs are wrong in
# two places below.  Each ignore names what either case reports, plus unused-ignore for the other.
import yaml  # type: ignore[import-untyped, unused-ignore]
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode  # type: ignore[import-untyped, unused-ignore]

try:
    from yaml._yaml import CParser as _Parser  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # PyYAML without libyaml: still correct, just slower
    from yaml.composer import Composer  # type: ignore[import-untyped, unused-ignore]
    from yaml.parser import Parser  # type: ignore[import-untyped, unused-ignore]
    from yaml.reader import Reader  # type: ignore[import-untyped, unused-ignore]
    from yaml.scanner import Scanner  # type: ignore[import-untyped, unused-ignore]

    class _Parser(Reader, Scanner, Parser, Composer):  # type: ignore[no-redef, misc, unused-ignore]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)
            Composer.__init__(self)


class Refused(Exception):
    """The fast path will not read this file; the caller falls back to the locating loader."""


class _Resolver(yaml.resolver.BaseResolver):  # type: ignore[misc, unused-ignore]
    """YAML 1.2 core schema (what ruamel.yaml implements), minus timestamps."""


_Resolver.yaml_implicit_resolvers = {}
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Resolver.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789")
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)


_STR, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map"
_MAYBE_NOT_TEXT = frozenset("-+0123456789.~nNtTfF")
"""The first characters a YAML 1.2 core null, bool, int or float can start with."""


class _FastLoader(_Parser, _Resolver):  # type: ignore[misc, unused-ignore]
    """libyaml's parser with our (YAML 1.2) resolver; :func:`_value` builds the data."""

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        _Resolver.__init__(self)

    # libyaml's composer calls these two for every node, for path resolvers, which YAML 1.2 and
    # briefs never use: C built-ins that do nothing save millions of Python calls per build.
    # (the stubs type both as returning None: the composer ignores what they return)
    descend_resolver = operator.is_  # type: ignore[assignment, unused-ignore]
    ascend_resolver = tuple  # type: ignore[assignment, unused-ignore]

    def resolve(
        self,
        kind: type[Node],
        value: str | None,
        implicit: tuple[bool, bool] | bool,
        _known: dict[str, str] = {},  # noqa: B006 (a memo on purpose)
    ) -> str:
        """Most scalars in a brief are Chinese text or keys seen before: no regexes for those.

        A scalar comes with its text and (plain, quoted) implicit flags; a mapping or sequence with
        ``None`` and one flag."""
        if kind is not ScalarNode:
            return _MAP if kind is MappingNode else "tag:yaml.org,2002:seq"
        if TYPE_CHECKING:  # for mypy only: run, this assert would cost time on every node of every file
            assert value is not None and isinstance(implicit, tuple), "a scalar comes with its text and two flags"
        if not implicit[0] or (value and value[0] not in _MAYBE_NOT_TEXT):
            return _STR
        tag = _known.get(value)
        if tag is None:
            if RUAMEL_DIFFERS.fullmatch(value):
                raise Refused("a number ruamel.yaml reads differently")
            tag = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call, unused-ignore]
            if len(_known) < 10_000:
                _known[value] = tag
        return tag


def _float(text: str) -> float:
    low = text.lower()
    if low.lstrip("+-") == ".inf":
        return float("-inf") if low.startswith("-") else float("inf")
    return float("nan") if low == ".nan" else float(text)


def _int(text: str) -> int:
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


_SCALARS: dict[str, Callable[[str], bool | int | float | None]] = {
    "tag:yaml.org,2002:null": lambda text: None,
    "tag:yaml.org,2002:bool": lambda text: text.lower() == "true",
    "tag:yaml.org,2002:int": _int,
    "tag:yaml.org,2002:float": _float,
}


def _value(node: Node, seen: set[int], escapes: bool) -> Any:
    """Plain data of a composed node, in one pass (PyYAML's constructor costs as much as parsing).

    Refuses what the locating loader reports or treats differently: aliases, tags, duplicate and
    merge (``<<``) keys, keys that are not plain values, and (when the text has ``\\`` escapes)
    the characters of :data:`FORBIDDEN` (written as they are, :data:`STEP_ASIDE` finds them)."""
    cls = node.__class__
    if cls is ScalarNode:
        text = node.value
        if node.tag == _STR:
            if escapes and FORBIDDEN.search(text):
                raise Refused("control, bidirectional control or lone surrogate character")
            return text
        convert = _SCALARS.get(node.tag)
        if convert is None:
            raise Refused("tag")
        return convert(text)
    if id(node) in seen:
        raise Refused("alias")
    seen.add(id(node))
    if cls is SequenceNode:
        if node.tag != "tag:yaml.org,2002:seq":
            raise Refused("tag")
        return [_value(item, seen, escapes) for item in node.value]
    if node.tag != _MAP:
        raise Refused("tag")
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if key_node.__class__ is not ScalarNode or key_node.value == "<<":
            raise Refused("complex or merge key")  # ruamel merges `<<`; leave such a file to it
        key = _value(key_node, seen, escapes)
        if isinstance(key, float) or key in out:  # (ruamel calls two .nan keys duplicates)
            raise Refused("duplicate or float key")
        if value_node.__class__ is ScalarNode and value_node.tag == _STR and not escapes:
            out[key] = value_node.value  # the common case, without a call
        else:
            out[key] = _value(value_node, seen, escapes)
    return out


CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029]")
"""Characters no brief text may hold (line breaks and tabs excepted).  U+2028 and U+2029, the Unicode
line and paragraph separators, are among them: libyaml reads them as line breaks and ruamel does not,
and a heading shows one as a space."""
BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
"""Bidirectional embeddings, overrides and isolates: they make text display in another order than
it is stored ("Trojan Source"), so a figure "+571" can read as "+175" on the page."""
INVISIBLE = re.compile(r"[\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\ufff9-\ufffb]")
"""Format characters that show nothing (soft hyphen, zero-width space and non-joiner, word joiner,
marks, a byte-order mark inside text): one hidden inside a word makes a withheld claim pass the
match unseen while the reader sees it whole.  U+200D (zero-width joiner) stays: emoji need it."""
SURROGATE = re.compile(r"[\ud800-\udfff]")
"""Lone UTF-16 halves (only a ``\\uD800``-style escape makes one): no UTF-8 file, page or feed can
hold them, so writing the site would crash on the first one."""
FORBIDDEN = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\ufff9-\ufffb]"
)
""":data:`CONTROL`, :data:`BIDI`, :data:`INVISIBLE` and :data:`SURROGATE` in one pass."""
ANCHOR_OR_TAG = re.compile(r"(?:^|[\s\[{,:-])(?:&[^\s]|!)")
STEP_ASIDE = re.compile(
    r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f\u2028\u2029\u202a-\u202e\u2066-\u2069\u00ad\u061c\u180e\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\ufff9-\ufffb]|^%|[|>][-+0-9]*#",
    re.M,
)
"""Control characters and tabs, ``%YAML`` directives and ``|#`` block headers: ruamel.yaml reads
these differently from libyaml (or refuses them), so such files go to the locating loader, which
says what it makes of them; bidirectional controls, which briefs may not hold, go there too, to be
located.  One pass over the text; a match inside a string (or a comment) only costs speed."""
RUAMEL_DIFFERS = re.compile(r"[-+]?[0-9][0-9_]*_[0-9_.eE+-]*|[-+]?0b[01_]+|[-+]0[xo][0-9a-fA-F_]+|[-+]?\.[0-9]+[eE].*")
"""Plain scalars ruamel.yaml reads as other numbers (or as text) than YAML 1.2's core schema does:
digit separators (``1_000``), binary (``0b101``), signed hex/octal (``-0x1F``), ``.5e3``."""


def read(text: str) -> Any:
    """The data of a YAML text, or raise Refused (or a YAML error) for the caller to fall back."""
    if (("&" in text or "!" in text) and ANCHOR_OR_TAG.search(text)) or STEP_ASIDE.search(text):
        raise Refused("anchor, tag, control or bidi character, tab, directive or block-scalar comment")
    loader = _FastLoader(text)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    return None if node is None else _value(node, set(), "\\" in text)
