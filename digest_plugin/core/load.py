"""Read brief and outline YAML into models, with compiler-style error locations.

Editors fix data from error messages, so every problem becomes a :class:`Finding` that names
``file:line:col`` (1-based, as editors and GitHub annotations count) and, where one helps, a
hint.  Nothing here raises a bare exception at a user: :func:`load_data` collects all findings
of all files and raises one :class:`DataError`.

The round-trip loader of ruamel.yaml is used because it keeps the position of every key and
value (YAML 1.2: ``no`` stays a string, ``22:20`` stays a string).  What could only fail later —
a merge key whose keys have no position, a lone surrogate that cannot be written to a page, a
bidi control that makes text read otherwise than it is stored — is refused here, located.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import hmac
import io
import json
import os
import re
import secrets
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from . import fastyaml
from .findings import DataError, Finding, locate
from .memo import BriefMemo
from .model import Brief, Outline, VocabularyFile, inner_model
from .vocabulary import FILE as VOCABULARY_FILE
from .vocabulary import Vocabulary, default_file
from .workers import Worker

CONTROL = fastyaml.CONTROL
MAX_BYTES = 1_000_000
"""A real brief is ~25 KB; anything past 1 MB is a mistake (or an attack), not a brief."""


@dataclass
class Dataset:
    """Everything under a data folder, validated; briefs sorted by (date, id), whatever the disk order."""

    outlines: dict[str, Outline] = field(default_factory=dict)
    briefs: list[Brief] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    """Display path (as in error messages) per brief id / ``outline:<topic>``."""
    paths: dict[str, Path] = field(default_factory=dict)
    trees: dict[str, Any] = field(default_factory=dict)
    """Located YAML per brief id / ``outline:<topic>`` / ``vocabulary``, read on demand (see :meth:`tree`)."""
    words: VocabularyFile | None = None
    """The site's ``vocabulary.yml``; None when the site has none (the package's words apply)."""

    vocabularies: dict[str, Vocabulary] = field(default_factory=dict, repr=False)
    """Built once per topic: checks and rules ask for it brief by brief."""
    memo: BriefMemo = field(default_factory=BriefMemo, repr=False)
    """Findings of the checks that read one brief alone, kept across ``serve`` rebuilds (:mod:`memo`)."""

    def vocabulary(self, topic: str) -> Vocabulary:
        """The words a brief of ``topic`` may use: the site's, plus what its outline adds."""
        if topic not in self.vocabularies:
            outline = self.outlines.get(topic)
            extra = [outline.vocabulary] if outline and outline.vocabulary else []
            self.vocabularies[topic] = Vocabulary(self.words or default_file(), *extra)
        return self.vocabularies[topic]

    def tree(self, key: str) -> Any:
        """The round-trip tree of a file, for pointing a later finding at its line.

        Builds read with the fast loader, which keeps no positions; the slow one runs only for
        the few files that have something to report."""
        if key not in self.trees and key in self.paths:
            self.trees[key], _ = read_yaml(self.paths[key], self.sources[key])
        return self.trees.get(key)


@dataclass
class Cache:
    """Validated files kept between builds (``mkdocs serve``), keyed by content hash.

    A file whose size and mtime are unchanged is not even read again; one whose bytes are
    unchanged is not parsed again."""

    entries: dict[Path, tuple[tuple[int, int], str, Any]] = field(default_factory=dict)
    reads: int = 0
    """How many files the last load parsed or found gone (0 when nothing changed): the test of "no
    data work"."""
    memo: BriefMemo = field(default_factory=BriefMemo)
    """What the checks found in each parsed brief, reused while the brief is the same object."""


def _yaml() -> YAML:
    """Round-trip YAML 1.2 with dates left as text: pydantic parses them, so '2026-02-30' becomes a
    located 'invalid date' finding instead of a crash, and every loader gives the same values."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    yaml.Constructor = _BriefConstructor
    return yaml


class _NotInBriefs(YAMLError):
    """YAML that parses but that briefs may not use, refused where it is written."""

    def __init__(self, message: str, hint: str, mark: Any) -> None:
        super().__init__(message)
        self.message, self.hint, self.mark = message, hint, mark


class _BriefConstructor(RoundTripConstructor):
    """Round-trip constructor that leaves timestamps as the text written and refuses merge keys
    (a subclass, so that other YAML instances in the process — the editing commands — keep real
    dates)."""

    def flatten_mapping(self, node: Any) -> Any:
        """Refuse ``<<: *name`` at the ``<<``.

        ruamel.yaml copies the keys of a merged mapping into the mapping that merges it: the merged
        mapping never appears twice in the tree (so the alias check does not see it) and its keys
        have no position there (so locating an error in one of them failed with a KeyError)."""
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _NotInBriefs(
                    "merge keys (<<: *name) are not allowed in briefs",
                    "write the keys out in full",
                    key_node.start_mark,
                )
        return super().flatten_mapping(node)


_BriefConstructor.add_constructor(
    "tag:yaml.org,2002:timestamp", lambda constructor, node: constructor.construct_scalar(node)
)


def read_yaml(path: Path, display: str) -> tuple[Any, list[Finding]]:
    """Parse one YAML file; return (tree, findings).  Never raises for bad content."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Finding(display, 1, 1, f"cannot read file: {exc.strerror}")]
    if len(raw) > MAX_BYTES:
        return None, [
            Finding(
                display,
                1,
                1,
                f"file is {len(raw):,} bytes; a brief must be under {MAX_BYTES:,} bytes",
                hint="split it or remove pasted material",
            )
        ]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [
            Finding(display, line, col, f"byte 0x{raw[exc.start]:02x} is not UTF-8", hint="save the file as UTF-8")
        ]
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        return None, [Finding(display, 1, 1, "file is empty", hint="a brief starts with `schema: 1`")]
    try:
        tree = _yaml().load(io.StringIO(text))
    except _NotInBriefs as exc:
        line, col = (exc.mark.line + 1, exc.mark.column + 1) if exc.mark else (1, 1)
        return None, [Finding(display, line, col, exc.message, hint=exc.hint)]
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "malformed YAML"
        hint = None
        if "\t" in problem or "\\t" in problem or "tab" in problem.lower():
            hint = "indent with spaces, not tabs"
        elif "duplicate key" in problem:
            hint = "each key may appear once in a mapping"
        elif any(p in problem for p in INDENTATION_PROBLEMS):
            hint = _indentation_hint(text, line)
        if "duplicate key" not in problem and (unclosed := _unclosed_quote(text, line)) is not None:
            (line, col), quote = unclosed
            return None, [
                Finding(
                    display, line, col, "YAML: missing closing quote", hint=f"end the text with {quote} on this line"
                )
            ]
        return None, [Finding(display, line, col, f"YAML: {' '.join(problem.split())}", hint=hint)]
    except YAMLError as exc:  # errors without a mark
        return None, [Finding(display, 1, 1, f"YAML: {' '.join(str(exc).split())}")]
    problems = _special_nodes(tree)
    if problems:
        return None, [Finding(display, line, col, message, hint=hint) for (line, col), message, hint in problems]
    return tree, []


QUOTED_VALUE = re.compile(r"""^(\s*(?:-\s+)*(?:[^\s#"'][^#"']*?:\s+)?)(["'])""")
"""A line whose value starts with a quote: ``key: "…``, ``- "…`` or ``- key: '…``."""


def _unclosed_quote(text: str, error_line: int) -> tuple[tuple[int, int], str] | None:
    """Where a quoted value opens and is not closed on its own line, at or before ``error_line``.

    YAML lets a quoted scalar run over several lines, so a forgotten closing quote swallows the
    lines after it and the parser stops somewhere later with an unrelated complaint.  Briefs never
    need a quoted value over several lines, so the line an editor must fix is the one where the
    quote opened."""
    for number, line in enumerate(text.splitlines()[:error_line], 1):
        m = QUOTED_VALUE.match(line)
        if m is None:
            continue
        quote, rest = m.group(2), line[m.end() :]
        closed = re.search(r'(?<!\\)"' if quote == '"' else r"'(?!')", rest.replace("''", ""))
        if closed is None:
            return (number, m.start(2) + 1), quote
    return None


_ALIAS = "anchors and aliases (&name, *name) are not allowed in briefs", "write the value out in full"


def _special_nodes(tree: Any) -> list[tuple[tuple[int, int], str, str]]:
    """The first alias or explicit tag in the tree, or else every string with a forbidden character,
    located (in file order); briefs need none.

    Refusing aliases keeps an alias bomb from expanding during validation; refusing tags keeps
    ``!!python/…`` and other typed values out of what is plain data: the first of those ends the
    reading.  A forbidden character is only text to fix, so each string that holds one is named, as
    a compiler names every error (an editor who pasted zero-width spaces in thirty places fixes them
    in one go).  A shared mapping or list is found by meeting it twice; a shared string or number by
    its anchor, which ruamel.yaml keeps on the value (it is not an object of its own to meet twice).
    Keys are read like values."""
    seen: set[int] = set()
    characters: list[tuple[tuple[int, int], str, str]] = []
    stack: list[tuple[Any, tuple[int, int]]] = [(tree, (1, 1))]
    while stack:
        node, where = stack.pop()
        if isinstance(node, TaggedScalar) or getattr(getattr(node, "tag", None), "value", None):
            return [(where, f"YAML tags ({_tag(node)}) are not allowed in briefs", "remove the tag; write plain text")]
        if isinstance(node, str) and (problem := _bad_character(node)):
            characters.append((where, *problem))
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            if getattr(getattr(node, "anchor", None), "value", None):
                return [(where, *_ALIAS)]
            continue
        if id(node) in seen:
            return [(where, *_ALIAS)]
        seen.add(id(node))
        if isinstance(node, CommentedMap):
            stack.extend((v, _pos(node.lc.value(k) if k in node.lc.data else None, where)) for k, v in node.items())
            stack.extend((k, _pos(node.lc.key(k) if k in node.lc.data else None, where)) for k in node)
        else:
            stack.extend((v, _pos(node.lc.item(i) if i in node.lc.data else None, where)) for i, v in enumerate(node))
    return sorted(characters)


INDENTATION_PROBLEMS = ("expected <block end>", "did not find expected key", "mapping values are not allowed")
"""What the YAML parser says when lines that belong together are not indented alike."""


def _indentation_hint(text: str, line: int) -> str:
    """Where the indentation goes wrong: the line the parser stopped at stands deeper than the key
    above it, so that key (a ``gaps:`` dedented out of ``evidence:``) left its mapping; the fields
    before it show the column it belongs in."""
    lines = text.splitlines()
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    indent = len(here) - len(here.lstrip(" "))
    keys = [(n, m) for n in range(line - 1, 0, -1) if (m := KEY_LINE.match(lines[n - 1]))]
    outer = next(((n, m) for n, m in keys if len(m["indent"]) < indent), None)
    if outer is None:
        return "line up the fields of one mapping in one column, and indent a key's list or mapping under it"
    n, key = outer
    sibling = next(((k, m) for k, m in keys if k < n and len(m["indent"]) == indent), None)
    if sibling is not None:
        k, m = sibling
        more = indent - len(key["indent"])
        return (
            f"`{key['key']}:` (line {n}) is at column {len(key['indent']) + 1}, but the fields around it "
            f"(`{m['key']}:`, line {k}) are at column {indent + 1}: indent `{key['key']}:` and its lines by "
            f"{more} more space{'s' if more > 1 else ''}"
        )
    return (
        f"line {line} is indented to column {indent + 1}, deeper than `{key['key']}:` above it (line {n}, column "
        f"{len(key['indent']) + 1}): the fields of one mapping line up in one column"
    )


KEY_LINE = re.compile(r"^(?P<indent> *)(?:- )?(?P<key>[A-Za-z_][\w-]*):(?:\s|$)")
"""A line that opens a key (``  gaps:``, ``- id: …``): its column is the mapping's."""


def _bad_character(text: str) -> tuple[str, str] | None:
    """(message, hint) for the first character of ``text`` no brief may hold, or None."""
    bad = fastyaml.FORBIDDEN.search(text)
    if bad is None:
        return None
    code = ord(bad.group())
    if fastyaml.SURROGATE.match(bad.group()):
        return (
            f"lone surrogate U+{code:04X} in text (half of a UTF-16 pair: no page or feed can hold it)",
            "write the character itself, or escape it whole as \\U0001F600",
        )
    if fastyaml.BIDI.match(bad.group()):
        return (
            f"bidirectional control character U+{code:04X} in text (it makes text display otherwise than it reads)",
            "remove it",
        )
    if fastyaml.INVISIBLE.match(bad.group()):
        return (
            f"invisible character U+{code:04X} in text (it can hide inside a word, and a withheld claim with it)",
            "remove it",
        )
    if code in (0x2028, 0x2029):
        return f"line separator U+{code:04X} in text", "write an ordinary line break, or nothing"
    return f"control character U+{code:04X} in text", "remove it (only line breaks and tabs are allowed)"


def _tag(node: Any) -> str:
    tag = getattr(node, "tag", None)
    return str(getattr(tag, "value", tag) or "!")


def _pos(pair: Any, fallback: tuple[int, int]) -> tuple[int, int]:
    return (pair[0] + 1, pair[1] + 1) if pair else fallback


def _message(error: ErrorDetails, model: type[BaseModel]) -> tuple[str, str | None]:
    """An editor's wording for one pydantic error, with a hint where one helps."""
    where = _path(error["loc"])
    kind = error["type"]
    if kind == "missing":
        return f"missing required field '{error['loc'][-1]}' in {_path(error['loc'][:-1])}", None
    if kind == "extra_forbidden":
        name = str(error["loc"][-1])
        known = _known_fields(model, error["loc"][:-1])
        close = difflib.get_close_matches(name, known, n=1)
        return f"unknown field '{name}'", (
            f"did you mean '{close[0]}'?" if close else f"known fields: {', '.join(known)}" if known else None
        )
    if kind == "enum":
        expected = error.get("ctx", {}).get("expected", "")
        return f"{where}: {error['input']!r} is not allowed here", f"use one of {expected}"
    if kind == "bool_type":
        return (
            f"{where}: {error['input']!r} is not true or false",
            "write true or false (YAML 1.2 reads yes/no as text)",
        )
    if kind == "int_type":
        return f"{where}: {error['input']!r} is not a whole number", "write the number in digits, without quotes"
    msg = error["msg"].removeprefix("Value error, ")
    hint = (error.get("ctx") or {}).get("hint") if kind == "digest" else None
    return f"{where}: {msg}", hint


def _path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as an editor reads it: items[0].evidence.level."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "document"


def _known_fields(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The field names allowed at ``loc`` (for 'did you mean' hints)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        info = getattr(current, "model_fields", {}).get(part) or next(
            (f for f in getattr(current, "model_fields", {}).values() if f.alias == part), None
        )
        if info is None:
            return []
        current = inner_model(info.annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", {})
    return sorted(f.alias or n for n, f in fields.items())


def validate(tree: Any, model: type[BaseModel], display: str) -> tuple[Any, list[Finding]]:
    """Validate a parsed tree as ``model``; return (instance or None, findings)."""
    if not isinstance(tree, CommentedMap):
        found = "a list" if isinstance(tree, list) else f"a single value ({type(tree).__name__})"
        return None, [
            Finding(
                display,
                1,
                1,
                f"expected a mapping of fields at the top, found {found}",
                hint="a brief starts with `schema: 1`",
            )
        ]
    try:
        return model.model_validate(tree), []
    except ValidationError as exc:
        findings = []
        errors = exc.errors()
        extras = {(e["loc"][:-1], str(e["loc"][-1])) for e in errors if e["type"] == "extra_forbidden"}
        misplaced = {
            (parent, name): under
            for parent, name in extras
            if (under := _belongs_under(model, parent, name, _known_fields(model, parent))) is not None
        }
        moved_out = {(*parent, under, name) for (parent, name), under in misplaced.items()}
        misspelt = [(parent, name) for parent, name in extras if (parent, name) not in misplaced]
        for error in errors:
            loc = tuple(error["loc"])
            if error["type"] == "missing" and (
                loc in moved_out
                or any(
                    parent == loc[:-1] and difflib.get_close_matches(str(loc[-1]), [name], n=1)
                    for parent, name in misspelt
                )
            ):
                continue  # the key's own finding already says "did you mean …" or "move it under …"
            line, col = locate(tree, error["loc"])
            message, hint = _message(error, model)
            if error["type"] == "extra_forbidden":
                parent, name = tuple(error["loc"][:-1]), str(error["loc"][-1])
                line, col = _key_at(tree, error["loc"]) or (line, col)
                if (under := misplaced.get((parent, name))) is not None:
                    where = _path((*parent, under))
                    message = f"'{name}' is a field of {where}, not of {_path(parent) if parent else 'the brief'}"
                    hint = f"indent it under `{under}:`, in line with the other fields of {where}"
            findings.append(Finding(display, line, col, message, hint=hint))
        return None, findings


def _belongs_under(model: type[BaseModel], parent: tuple[Any, ...], name: str, here: list[str]) -> str | None:
    """The field of ``parent`` whose own fields include ``name``: a key dedented out of its mapping
    (``boundary:`` written level with ``evidence:``) is misplaced, not misspelt."""
    for field_name in here:
        if name in _known_fields(model, (*parent, field_name)):
            return field_name
    return None


def _key_at(tree: Any, loc: tuple[Any, ...]) -> tuple[int, int] | None:
    """1-based (line, col) of the key ``loc`` ends with: an unknown field is shown at its name."""
    node = tree
    for key in loc[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    if isinstance(node, CommentedMap) and loc and loc[-1] in node.lc.data:
        line, col = node.lc.key(loc[-1])
        return line + 1, col + 1
    return None


def load_file(path: Path, model: type[BaseModel], display: str | None = None) -> tuple[Any, list[Finding], Any]:
    """(instance or None, findings, located tree) — the slow path that can point at lines."""
    display = display or str(path)
    tree, findings = read_yaml(path, display)
    if findings:
        return None, findings, None
    instance, findings = validate(tree, model, display)
    return instance, findings, tree


def load_one(path: Path, model: type[BaseModel], display: str | None = None) -> tuple[Any, list[Finding], Any]:
    """:func:`load_file`'s answer, by the fast reader when the file is good (the located tree is then None):
    the locating reader is some 20 times slower, and an import reads every earlier brief of the folder."""
    try:
        instance = quick_load(path.read_bytes(), model)
    except OSError:
        instance = None  # the slow path says what is wrong
    return (instance, [], None) if instance is not None else load_file(path, model, display)


def quick_load(raw: bytes, model: type[BaseModel]) -> Any:
    """The fast path: libyaml + pydantic, or None when anything is off (then the slow path reports it)."""
    data = quick_parse(raw)
    return _validated(data, model)


def quick_parse(raw: bytes) -> dict[str, Any] | None:
    """Plain data of a file through the fast reader, or None to send it to the locating reader."""
    if len(raw) > MAX_BYTES:
        return None
    try:
        text = raw.decode("utf-8-sig")
        data = fastyaml.read(text)
    except Exception:  # noqa: BLE001 (any problem at all: the locating loader will say what it is)
        return None
    return data if isinstance(data, dict) else None


def _validated(data: dict[str, Any] | None, model: type[BaseModel]) -> Any:
    if data is None:
        return None
    try:
        return model.model_validate(data)
    except ValidationError:
        return None


def _parse_many(raws: list[bytes], workers: int) -> Iterator[dict[str, Any] | None]:
    """Parse many files, in order, on several cores when there are enough to pay for the workers.

    The files are cut into one contiguous share per core: forked workers parse the later shares
    while this process parses the first one and its caller validates each file as it comes."""
    if workers <= 1 or len(raws) < PARALLEL_FROM:
        yield from map(quick_parse, raws)
        return
    size = -(-len(raws) // workers)
    shares = [raws[i : i + size] for i in range(0, len(raws), size)]
    forked = [Worker(_parse_share, share) for share in shares[1:]]
    try:
        yield from map(quick_parse, shares[0])
        for worker in forked:
            yield from worker.result()
    finally:
        for worker in forked:  # the caller stopped early: leave no worker or file behind
            worker.close()


def _parse_share(raws: list[bytes]) -> list[dict[str, Any] | None]:
    return [quick_parse(raw) for raw in raws]


PARALLEL_FROM = 200
"""Below this many changed files one process is faster than starting workers."""


class DiskCache:
    """Parsed files on disk, keyed by the SHA-256 of their bytes and the package's version.

    Like Material's own plugins the folder sits in the project (``.cache/``), where a pull request
    can add files, so nothing read from it is trusted: an entry is JSON (data, never code), signed
    with a key kept outside the work tree (``$XDG_CACHE_HOME/digest-plugin/cache-key``, made on
    first use), and read back only if the signature is this machine's.  A pickle, a script, a
    symlink or an entry written anywhere else is ignored: the file is parsed as if never cached."""

    FORMAT = "5"
    """Bumped whenever the fast reader refuses more: an entry parsed before would skip the refusal."""
    MAX_ENTRY = 20 * MAX_BYTES

    def __init__(self, folder: Path | None, key: bytes | None = None) -> None:
        self.folder = Path(folder).resolve() if folder else None
        self.key = key if key is not None or self.folder is None else _cache_key()
        if self.key is None:
            self.folder = None  # no key to be had: no disk cache (only slower)

    def _path(self, digest: str) -> Path:
        assert self.folder is not None, "get() and put() return early when there is no cache folder"
        return self.folder / digest[:2] / f"{digest}.{_VERSION}.v{self.FORMAT}.json"

    def _signature(self, digest: str, payload: bytes) -> bytes:
        assert self.key is not None, "a cache with a folder has a key"
        return hmac.new(self.key, digest.encode() + b"\n" + payload, hashlib.sha256).hexdigest().encode()

    def get(self, digest: str) -> dict[str, Any] | None:
        """The data :meth:`put` stored for these bytes, or None (not stored, not ours, unreadable)."""
        if self.folder is None:
            return None
        path = self._path(digest)
        try:
            if path.is_symlink() or not path.is_file() or path.resolve().parent.parent != self.folder:
                return None
            if path.stat().st_size > self.MAX_ENTRY:
                return None
            signature, _, payload = path.read_bytes().partition(b"\n")
            if not hmac.compare_digest(signature, self._signature(digest, payload)):
                return None
            data = json.loads(payload)
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, digest: str, data: dict[str, Any]) -> None:
        """Store the parsed data of a file under the digest of its bytes (best effort)."""
        if self.folder is None:
            return
        try:
            payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            if json.loads(payload) != data:
                return  # not plain JSON data (a number key, NaN): this file is parsed every time
        except (TypeError, ValueError):
            return
        path = self._path(digest)
        tmp: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".digest-", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(self._signature(digest, payload) + b"\n" + payload)
            os.replace(tmp, path)
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)  # a cache that cannot be written is only slower


def _cache_key() -> bytes | None:
    """This machine's key for signing cache entries, outside any work tree (made on first use)."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = home / "digest-plugin" / "cache-key"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            stat = path.lstat()
            if path.is_symlink() or stat.st_uid != os.getuid() or stat.st_mode & 0o077:
                return None  # not a key this user made for itself (a file checked out, or shared): no cache
            key = path.read_bytes()
            return key if len(key) >= 32 else None
        with os.fdopen(fd, "wb") as out:
            key = secrets.token_bytes(32)
            out.write(key)
        return key
    except OSError:
        return None


def _package_version() -> str:
    try:
        return metadata.version("digest-plugin")
    except metadata.PackageNotFoundError:
        return "0"


_VERSION = _package_version()


def site_vocabulary(data_dir: Path) -> Vocabulary:
    """The words of a data folder (its ``vocabulary.yml``, else the package's) with every topic's
    additions: what the schema lists and the editing commands accept.  Raises :class:`DataError`
    when a file is broken."""
    data_dir = Path(data_dir)
    files: list[VocabularyFile] = []
    findings: list[Finding] = []
    path = data_dir / VOCABULARY_FILE
    if path.is_file():
        words, found, _ = load_one(path, VocabularyFile)
        findings += found
        files.append(words if words is not None else default_file())
    else:
        files.append(default_file())
    for outline_path in sorted((data_dir / "outlines").glob("*.yml")):
        outline, found, _ = load_one(outline_path, Outline)
        findings += found
        if outline is not None and outline.vocabulary is not None:
            files.append(outline.vocabulary)
    if findings:
        raise DataError(findings)
    return Vocabulary(*files)


_Model = type[Outline] | type[Brief] | type[VocabularyFile]
_Loaded = tuple[Any, list[Finding], Any]
"""What reading one file gave: (instance or None, findings, located tree or None)."""
_Todo = tuple[Path, _Model, bytes, tuple[int, int], str]
"""A file to parse: (path, model, bytes, (size, mtime), SHA-256 of the bytes)."""


def load_data(
    data_dir: Path,
    *,
    relative_to: Path | None = None,
    cache: Cache | None = None,
    workers: int | None = None,
    cache_dir: Path | None = None,
) -> Dataset:
    """Load every outline (``outlines/*.yml``) and brief (``briefs/*.yml``) under ``data_dir``.

    With a ``cache``, only files that changed since the last call are read; with a ``cache_dir``,
    files parsed by an earlier build are not parsed again.  Raises
    :class:`DataError` with every finding of every file."""
    data_dir = Path(data_dir)
    base = relative_to or data_dir.parent
    cache = cache if cache is not None else Cache()
    workers = workers if workers is not None else min(2, os.cpu_count() or 1)

    def show(p: Path) -> str:
        try:
            return str(p.relative_to(base))
        except ValueError:
            return str(p)

    if not data_dir.is_dir():
        raise DataError(
            [
                Finding(
                    str(data_dir),
                    1,
                    1,
                    "data folder not found",
                    hint="set `data_dir` of the digest plugin in mkdocs.yml",
                )
            ]
        )
    files = _data_files(data_dir)
    results = _read_files(files, cache, DiskCache(cache_dir), workers, show)
    dataset, findings = _assemble(files, results, cache.memo, show)
    if not dataset.outlines and not findings:
        findings.append(Finding(show(data_dir / "outlines"), 1, 1, "no outline found", hint="add outlines/<topic>.yml"))
    if findings:
        raise DataError(findings)
    dataset.briefs.sort(key=lambda b: (b.date, b.id))
    return dataset


def _data_files(data_dir: Path) -> list[tuple[Path, _Model]]:
    """Every file of a data folder with the model it holds, in the order they are added to the data
    set: the vocabulary (when the site has its own), the outlines, the briefs, each by name.  A
    finding about an id used twice names the file that came first in this order."""
    files: list[tuple[Path, _Model]]
    files = [(data_dir / VOCABULARY_FILE, VocabularyFile)] if (data_dir / VOCABULARY_FILE).is_file() else []
    files += [(p, Outline) for p in sorted((data_dir / "outlines").glob("*.yml"))]
    files += [(p, Brief) for p in sorted((data_dir / "briefs").glob("*.yml"))]
    return files


def _read_files(
    files: list[tuple[Path, _Model]], cache: Cache, disk: DiskCache, workers: int, show: Callable[[Path], str]
) -> dict[Path, _Loaded]:
    """What each file holds, read only when the cache cannot say.  ``cache.reads`` counts the files
    parsed and the files gone since the last call: zero means no data work, and a deleted brief is a
    change too (the merge must run again)."""
    results, todo = _cached_or_todo(files, cache)
    cache.reads = len(todo)
    results.update(_parse_changed(todo, cache, disk, workers, show))
    gone = set(cache.entries) - {p for p, _ in files}
    for path in gone:
        del cache.entries[path]
    cache.reads += len(gone)  # a deleted brief is a change too: the merge must run again
    return results


def _cached_or_todo(files: list[tuple[Path, _Model]], cache: Cache) -> tuple[dict[Path, _Loaded], list[_Todo]]:
    """The files the cache still holds, and the rest, with their bytes.

    A file whose size and mtime are unchanged is not even read; one read again whose bytes are
    unchanged (a checkout, an editor saving without change) is not parsed again."""
    results: dict[Path, _Loaded] = {}
    todo: list[_Todo] = []
    for path, model in files:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns)
        known = cache.entries.get(path)
        if known and known[0] == stamp:
            results[path] = (known[2], [], None)
            continue
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if known and known[1] == digest:
            cache.entries[path] = (stamp, digest, known[2])
            results[path] = (known[2], [], None)
            continue
        todo.append((path, model, raw, stamp, digest))
    return results, todo


def _parse_changed(
    todo: list[_Todo], cache: Cache, disk: DiskCache, workers: int, show: Callable[[Path], str]
) -> dict[Path, _Loaded]:
    """Parse and validate the files to do: from the disk cache when it holds their bytes, else by the
    fast reader (on several cores when there are many), else by the slow one that locates what is
    wrong.  Only a file that loaded clean is kept in the cache: one with findings is read again."""
    results: dict[Path, _Loaded] = {}
    stored = [disk.get(digest) for *_, digest in todo]
    # (stored has one entry per file to do, so both zips pair equal lengths)
    parsed = _parse_many([raw for (_, _, raw, _, _), data in zip(todo, stored, strict=True) if data is None], workers)
    for (path, model, _raw, stamp, digest), data in zip(todo, stored, strict=True):
        if data is None:
            data = next(parsed)
            if data is not None:
                disk.put(digest, data)
        instance = _validated(data, model)
        result = (instance, [], None) if instance is not None else load_file(path, model, show(path))
        results[path] = result
        if result[0] is not None and not result[1]:
            cache.entries[path] = (stamp, digest, result[0])
        else:
            cache.entries.pop(path, None)
    return results


def _assemble(
    files: list[tuple[Path, _Model]], results: dict[Path, _Loaded], memo: BriefMemo, show: Callable[[Path], str]
) -> tuple[Dataset, list[Finding]]:
    """The data set of the files that loaded, in the order of ``files``, and every finding, file by
    file: its own, then how it fits with the others (an id used twice, a name that disagrees), so
    one run reports them all."""
    dataset, findings = Dataset(memo=memo), []
    for path, model in files:
        instance, found, tree = results[path]
        findings += found
        if instance is not None:
            findings += _add_file(dataset, path, model, instance, tree, show)
    return dataset, findings


def _add_file(
    dataset: Dataset, path: Path, model: _Model, instance: Any, tree: Any, show: Callable[[Path], str]
) -> list[Finding]:
    """Put one loaded file in the data set under its key (``vocabulary``, ``outline:<topic>``, the
    brief's id); what is wrong with where it sits.  A second file with a key already taken is left
    out: the first one stays, and the finding names both."""
    if model is VocabularyFile:
        dataset.words, dataset.sources["vocabulary"], dataset.paths["vocabulary"] = instance, show(path), path
        if tree is not None:
            dataset.trees["vocabulary"] = tree
        return []
    key = f"outline:{instance.topic}" if model is Outline else instance.id
    if key in dataset.paths:
        return [
            Finding(
                show(path),
                1,
                1,
                f"{key.replace('outline:', 'outline topic ')!r} is used by {dataset.sources[key]} too",
                hint="each id belongs to one file",
            )
        ]
    dataset.sources[key], dataset.paths[key] = show(path), path
    if tree is not None:
        dataset.trees[key] = tree
    if model is Outline:
        found = _outline_misnamed(path, instance, show)
        dataset.outlines[instance.topic] = instance
        return found
    found = _brief_misnamed(dataset, key, path, instance, show)
    dataset.briefs.append(instance)
    return found


def _outline_misnamed(path: Path, outline: Outline, show: Callable[[Path], str]) -> list[Finding]:
    """An outline's file is named by its topic (``outlines/<topic>.yml``): an editor looking for a
    topic's outline looks there."""
    if outline.topic == path.stem:
        return []
    return [
        Finding(
            show(path),
            1,
            1,
            f"outline topic '{outline.topic}' does not match file name",
            hint=f"name the file outlines/{outline.topic}.yml",
        )
    ]


def _brief_misnamed(dataset: Dataset, key: str, path: Path, brief: Brief, show: Callable[[Path], str]) -> list[Finding]:
    """A brief's id is ``<date>-<topic>-<round>`` and its file is named by it: pages, links and later
    briefs name it by id, so an id that disagrees with its own fields (pointed at, in the file) or
    with the file's name is refused, the first before the second."""
    expected = f"{brief.date.isoformat()}-{brief.topic}-{brief.round}"
    if brief.id != expected:
        line, col = locate(dataset.tree(key), ("id",))
        return [
            Finding(
                show(path),
                line,
                col,
                f"brief id '{brief.id}' disagrees with its date, topic and round ('{expected}')",
                hint="the id is <date>-<topic>-<round>; fix whichever is wrong",
            )
        ]
    if brief.id != path.stem:
        return [
            Finding(
                show(path),
                1,
                1,
                f"brief id '{brief.id}' does not match file name '{path.name}'",
                hint=f"name the file {brief.id}.yml or change the id",
            )
        ]
    return []
