"""The team's open vocabularies, read from ``data/vocabulary.yml``: words are data, not code.

Value ratings, source kinds, evidence gaps, evidence levels and dispositions grow every week
(低价值, GitHub issue, 未复现 …).  Each word has a code (what a brief's YAML holds), the Chinese
label readers see, and a one-line meaning for the legend and the badge tips; evidence levels are
listed from the most to the least solid, and that order is their rank.  A site's file holds all
its words; an outline may add words for its topic only (``vocabulary:`` in the outline).

A site without a vocabulary file gets the words of the first brief (the package's copy), so a
fresh site works; ``digest new`` and the importer write the site's own file when it needs one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from .model import CODE, VOCABULARIES, Brief, Outline, VocabularyFile, Word

KINDS = VOCABULARIES

FILE = "vocabulary.yml"
"""The file name in a data folder (next to ``briefs/`` and ``outlines/``)."""


class Vocabulary:
    """The words of one topic (the site's, plus its outline's additions), read-only."""

    def __init__(self, *files: VocabularyFile) -> None:
        merged: dict[str, dict[str, Word]] = {kind: {} for kind in KINDS}
        phrases: dict[str, dict[str, None]] = {}
        for f in (*files, default_file()):  # the package's wordings under the site's: an old site still reads
            for act, said in f.wordings.items():
                phrases.setdefault(act, {}).update(dict.fromkeys(said))
        for f in files:
            for kind in KINDS:
                for code, word in getattr(f, kind).items():
                    merged[kind].setdefault(code, word)
        site = [f for f in files if f.levels_from_boundary is not None]
        rows = (site[0] if site else default_file()).levels_from_boundary or []
        self._levels = tuple((row.level, _wording_pattern(tuple(row.words))) for row in rows)
        hosts: dict[str, str] = {}
        for f in (*files, default_file()):  # the site's rules first; the package's fill in
            for host, kind in (f.source_kinds_by_host or {}).items():
                hosts.setdefault(host.lower(), kind)
        self._hosts = MappingProxyType(hosts)
        self._words = MappingProxyType({k: MappingProxyType(v) for k, v in merged.items()})
        self._phrases = MappingProxyType({act: tuple(said) for act, said in phrases.items()})
        days: dict[str, str] = {}
        for f in (*files, default_file()):  # the site's names first; the package's fill in
            for name, day in f.named_days.items():
                days.setdefault(name, day)
        self._days = MappingProxyType(days)

    def _key(self) -> tuple[tuple[str, tuple[tuple[str, Word], ...]], ...]:
        return tuple((kind, tuple(words.items())) for kind, words in self._words.items())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vocabulary) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def words(self, kind: str) -> Mapping[str, Word]:
        return self._words[kind]

    def __contains__(self, pair: tuple[str, str]) -> bool:
        kind, code = pair
        return code in self._words[kind]

    def label(self, kind: str, code: str) -> str:
        """The word readers see; the code itself for a word the vocabulary lacks (``digest
        check`` refuses such a brief, so only an unchecked preview can show one)."""
        word = self._words[kind].get(code)
        return word.label if word else code

    def meaning(self, kind: str, code: str) -> str | None:
        word = self._words[kind].get(code)
        return word.meaning if word else None

    def word(self, kind: str, code: str) -> Word | None:
        """The whole word (label, meaning, and for a disposition its callout ``kind`` and ``style``)."""
        return self._words[kind].get(code)

    def rank(self, code: str) -> int:
        """An evidence level's place from the most solid (0); unknown levels come last."""
        order = list(self._words["evidence_levels"])
        return order.index(code) if code in order else len(order)

    def find(self, kind: str, text: str) -> str | None:
        """The code whose label or alias is ``text`` (spaces and case aside), or None."""
        wanted = fold(text)
        for code, word in self._words[kind].items():
            if wanted in {fold(word.label), *map(fold, word.aliases), fold(code)}:
                return code
        return None

    def phrases(self, act: str) -> tuple[str, ...]:
        """The phrases briefs use for ``act`` (``wordings:``; see :data:`.model.WORDING_ACTS`)."""
        return self._phrases.get(act, ())

    def wording(self, act: str) -> re.Pattern[str]:
        """A pattern that finds any phrase of ``act`` not negated right before it (「而非新增」, 「不原地
        更新」 say the opposite); longest phrases first, so 「不再跟进」 is found before 「跟进」."""
        return _wording_pattern(self.phrases(act))

    def named_days(self) -> Mapping[str, str]:
        """The days briefs name by a name (``named_days:``): 平安夜 → "12-24"."""
        return self._days

    def level_reading(self, *texts: str) -> tuple[str, str] | None:
        """(level, the word that set it) for the first row of ``levels_from_boundary`` with a word in ``texts``."""
        for level, words in self._levels:
            for text in texts:
                if m := words.search(text):
                    return level, m.group(0)
        return None

    def source_kind_of(self, host: str, path: str) -> str | None:
        """The source kind ``source_kinds_by_host`` gives a link: ``host`` itself or a domain it is
        under (``docs.vllm.ai`` under ``vllm.ai``); a rule with a path (``github.com/releases/``)
        also needs that piece in the link's path, and wins over the bare host."""
        host, path = host.lower(), path.lower()
        best: tuple[int, str] | None = None
        for rule, kind in self._hosts.items():
            domain, _, piece = rule.partition("/")
            if not (host == domain or host.endswith("." + domain)):
                continue
            if piece and f"/{piece.strip('/')}/" not in path + "/":
                continue
            weight = len(rule)
            if best is None or weight > best[0]:
                best = (weight, kind)
        return best[1] if best else None

    def spellings(self, kind: str) -> Iterator[tuple[str, str]]:
        """(spelling, code) for every label and alias of ``kind``."""
        for code, word in self._words[kind].items():
            yield word.label, code
            for alias in word.aliases:
                yield alias, code


NEGATION = r"(?<!不)(?<!未)(?<!没)(?<!非)(?<!别)"
"""What may not stand right before a phrase for it to count (「而非新增」, 「不原地更新」, 「未证实」)."""


@functools.cache
def _wording_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    if not phrases:
        return re.compile(r"(?!x)x")  # matches nothing
    ordered = sorted(phrases, key=len, reverse=True)
    return re.compile(NEGATION + "(?:" + "|".join(re.escape(p) for p in ordered) + ")")


def fold(text: str) -> str:
    """Text as compared with a word: spaces and case aside (GitHub issue = githubissue)."""
    return re.sub(r"\s+", "", text).casefold()


@functools.cache
def default_file() -> VocabularyFile:
    """The words of the first brief, as the package ships them (read once: it is frozen)."""
    from ruamel.yaml import YAML

    return VocabularyFile.model_validate(YAML(typ="safe").load(default_text()))


def default_text() -> str:
    """The package's vocabulary file, comments and all (what ``digest new`` copies into a site)."""
    return resources.files("digest_plugin").joinpath("assets", FILE).read_text(encoding="utf-8")


def schema_of(what: str, vocabulary: Vocabulary) -> dict[str, Any]:
    """The JSON Schema of ``brief``, ``outline`` or ``vocabulary`` (the file), with the words of
    ``vocabulary`` listed in every vocabulary field."""
    models: dict[str, type[BaseModel]] = {"brief": Brief, "outline": Outline, "vocabulary": VocabularyFile}
    model = models[what]
    schema: dict[str, Any] = model.model_json_schema(by_alias=True)
    return schema_with_words(schema, vocabulary) if what == "brief" else schema


def code_for(label: str, taken: set[str], kind: str) -> str:
    """A code to propose for a word nobody has coded yet: its ASCII words (``GitHub issue`` →
    ``github_issue``), else a numbered placeholder (``gap_1``) a person renames."""
    ascii_words = re.findall(r"[A-Za-z][A-Za-z0-9]*", label)
    stem = "_".join(w.lower() for w in ascii_words) if ascii_words else KINDS[kind].split()[-1]
    candidate, n = stem if ascii_words else f"{stem}_1", 1
    while candidate in taken or not CODE.fullmatch(candidate):
        n += 1
        candidate = f"{stem}_{n}"
    return candidate


def schema_with_words(schema: dict[str, Any], vocabulary: Vocabulary) -> dict[str, Any]:
    """The JSON Schema of a brief with each vocabulary field listing the site's words (``enum``,
    with the labels and meanings as descriptions), so an editor's completion offers them."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            kind = node.get("x-vocabulary")
            out = {k: walk(v) for k, v in node.items() if k != "x-vocabulary"}
            if kind in KINDS:
                words = vocabulary.words(kind)
                out.pop("pattern", None)
                out["enum"] = list(words)
                out["markdownEnumDescriptions"] = [
                    f"{w.label}" + (f": {w.meaning}" if w.meaning else "") for w in words.values()
                ]
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    result: dict[str, Any] = walk(schema)
    return result
