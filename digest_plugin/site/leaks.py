"""Find withheld claims in a finished site: the last guard that nothing forbidden was published.

It reads the output, not the renderer's intentions, and shares no code with the renderer's text
path: it takes the withheld spellings from the merged data and looks for them, after decoding, in
every text node and attribute of every HTML page, in the Atom feeds (including the HTML inside
their entries), in the search index, and in inline SVG.  A claim may appear in one place only:
quoted (``data-withheld-quote="<id>"``) inside the callout of the contradiction that withholds
it (``data-digest-contradiction="<id>"``).  It runs after ``mkdocs build`` (the plugin) and on
any host's output as ``digest verify SITE_DIR`` (Zensical included).
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import gzip
import hashlib
import itertools
import json
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping
from dataclasses import astuple, dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from ..core.doc import LivingDoc
from ..core.workers import Worker

TAG = re.compile(r"<[^>]*>")
ASTRAL = re.compile(r"[\U00010000-\U0010ffff]")
UNREADABLE = "(a search record the checker cannot read)"
PAGEFIND_MARK = b"pagefind_dcd"
"""What a Pagefind record starts with, once unzipped."""
SEARCH_INDEXES = frozenset({"search_index.json", "search.json"})
"""Material's (lunr) and Zensical's search index files."""
SPLIT_BYTES = 8 * 2**20
"""A site this large is read on two cores (a fork costs more than reading a small one)."""
OWN_ATTRIBUTES = frozenset({"data-withheld-quote", "data-digest-contradiction", "data-withheld-by"})
"""Attributes whose values are ids the checker itself relies on, never text."""


def _norm(text: str) -> str:
    """Text in its canonical form, as a reader perceives it (issue 33): character references and
    percent-encoding decoded (「&#43;175」 shown literally, 「%2B175」 in a link), compatibility forms
    folded (NFKC: full-width, small forms, ligatures), case folded, invisible format characters
    dropped (a zero-width space inside a word, the separators jieba writes into the search index),
    and every white space removed (Chinese needs none between words, so 「周增+175」 and 「周增 +175」
    are one claim).

    Written apart from the renderer's matcher (:mod:`.spelling`) on purpose: the checker must not
    share the code whose mistakes it is there to catch.  Speed matters (every page is read twice):
    each step runs only when the text has what it undoes."""
    if "&" in text and REFERENCE.search(text):
        text = unescape(text)
    if "%" in text and PERCENT.search(text):
        text = unquote(text, errors="ignore")
    if not text.isascii():
        if _unusual().search(text):
            # the zero-width space Pagefind writes between the words it cut (and jieba, in Material's
            # index) is nearly all there is to drop: gone first with a plain replace, 20x a regex
            text = text.replace("\u200b", "")
            basic, astral = _format_characters()
            text = basic.sub("", text)
            if ASTRAL.search(text):
                text = astral.sub("", text)
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
    return "".join(text.casefold().split())


REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
QUOTE_GAP = "\ue000"
"""What stands for a claim's allowed quote, and for the edge of a block, in the text read around it:
a character no canonical form drops, so the words before and after never join into a claim (the
canonical form drops white space, and two paragraphs are not one sentence)."""
BLOCKS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "option",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "td",
        "th",
        "title",
        "tr",
        "ul",
    ]
)
"""Elements a reader sees as apart from what is around them (an inline <strong> or <a> is not)."""


@functools.cache
def _unusual() -> re.Pattern[str]:
    """Format characters and anything beyond the BMP: what :func:`_norm` must drop (rare, so one
    pass usually settles it; full-width forms are NFKC's, found by ``is_normalized``)."""
    basic, _ = _format_characters()
    return re.compile(f"{basic.pattern}|{ASTRAL.pattern}")


@functools.cache
def _format_characters() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The characters of Unicode category Cf (format: invisible), as two classes: those of the
    Basic Multilingual Plane (a bitmap, fast) and the few beyond it."""
    found = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    basic = "".join(re.escape(ch) for ch in found if ord(ch) <= 0xFFFF)
    astral = "".join(re.escape(ch) for ch in found if ord(ch) > 0xFFFF)
    return re.compile(f"[{basic}]"), re.compile(f"[{astral}]")


@dataclass(frozen=True, order=True)
class Leak:
    """A withheld spelling found where a reader (or a search result, or a feed reader) sees it."""

    file: str
    pattern: str
    contradiction: str
    """The id of the open contradiction that withholds it."""
    where: str
    """Which part of the file: ``text``, ``attribute title``, ``feed``, ``search index``."""

    @property
    def message(self) -> str:
        return (
            f"withheld claim '{self.pattern}' (contradiction {self.contradiction}) appears in {self.where}; "
            "it must not be stated as fact while that contradiction is open"
        )

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


class _Page(HTMLParser):
    """Text and attribute values of an HTML document, minus each claim's own quote in its callout."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.attributes: list[tuple[str, str]] = []

    def _allowed(self) -> bool:
        """Inside a quote of claim X that sits inside the callout of contradiction X."""
        quoted = [a.get("data-withheld-quote") for _, a in self.stack if a.get("data-withheld-quote")]
        if not quoted:
            return False
        callouts = {a.get("data-digest-contradiction") for t, a in self.stack if t == "details"}
        return quoted[-1] in callouts

    def _attributes(self, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes += [(name, value) for name, value in attrs if value and name not in OWN_ATTRIBUTES]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(attrs)
        if tag in BLOCKS:
            self.text.append(QUOTE_GAP)
        if tag not in self.VOID:
            self.stack.append((tag, dict(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._attributes(attrs)
        if tag in BLOCKS:
            self.text.append(QUOTE_GAP)

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCKS:
            self.text.append(QUOTE_GAP)
        for i in range(len(self.stack) - 1, -1, -1):  # tolerate unclosed inner elements
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        # an allowed quote still separates the text around it
        self.text.append(QUOTE_GAP if self._allowed() else data)


class LeakCheck:
    """Every withheld spelling of every topic, and where it may not appear."""

    def __init__(self, docs: Mapping[str, LivingDoc]):
        self.spellings: dict[str, str] = {}
        """The contradiction that withholds each spelling, by its canonical form."""
        self.written: dict[str, str] = {}
        """Each canonical form as the brief wrote it (what a finding quotes)."""
        for doc in docs.values():
            for pattern, view in doc.withheld.items():
                if form := _norm(pattern):
                    self.spellings.setdefault(form, view.id)
                    self.written.setdefault(form, pattern)
        self._figures = {
            s: re.compile(
                ("(?<![0-9])" if s[0].isdigit() else "") + re.escape(s) + ("(?![0-9])" if s[-1].isdigit() else "")
            )
            for s in self.spellings
            if s[0].isdigit() or s[-1].isdigit()
        }
        """Spellings that start or end with a digit: found only as a whole number (+175, not +1750)."""

    def _in(self, spelling: str, haystack: str) -> bool:
        if spelling not in haystack:
            return False
        figure = self._figures.get(spelling)
        return figure is None or figure.search(haystack) is not None

    def _find(self, file: str, where: str, text: str) -> Iterator[Leak]:
        haystack = _norm(text)
        for spelling, contradiction in self.spellings.items():
            if self._in(spelling, haystack):
                yield Leak(file, self.written[spelling], contradiction, where)

    def _may_hold(self, page: str) -> bool:
        """Whether any spelling could be in the page at all, in two cheap passes — the text with
        tags dropped, as a reader reads it; the source with tags kept, for attribute values — so
        that the full parse runs only for the few pages that mention a withheld claim (in its
        callout, mostly)."""
        for haystack in (_norm(unescape(TAG.sub("", page))), _norm(unescape(page))):
            if any(self._in(spelling, haystack) for spelling in self.spellings):
                return True
        return False

    def html(self, file: str, page: str) -> list[Leak]:
        """Leaks in one HTML document (a page, or the HTML of a feed entry)."""
        if not self.spellings or not self._may_hold(page):
            return []
        parser = _Page()
        parser.feed(page)
        parser.close()
        found = set(self._find(file, "text", "".join(parser.text)))
        for name, value in parser.attributes:
            found.update(self._find(file, f"attribute {name}", value))
        return sorted(found)

    def feed(self, file: str, xml: str) -> list[Leak]:
        """Leaks in an Atom feed: every element's text and attributes, and the HTML of its entries."""
        found: set[Leak] = set()
        try:
            root = ET.fromstring(xml)
        except ET.ParseError:  # not well-formed (a hand-written file): read it as text, never give up
            return self.html(file, xml)
        for element in root.iter():
            if element.get("type") == "html" and element.text:
                found.update(self.html(file, element.text))
                continue
            found.update(self._find(file, "feed", element.text or ""))
            for value in element.attrib.values():
                found.update(self._find(file, "feed", value))
        return sorted(found)

    def search_index(self, file: str, raw: str) -> list[Leak]:
        """Leaks in a search index: the title and text of every entry (Material's ``docs``,
        Zensical's ``items``)."""
        found: set[Leak] = set()
        index = json.loads(raw)
        entries = (index.get("docs") or index.get("items") or []) if isinstance(index, dict) else []
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            for key in ("title", "text"):
                value = entry.get(key)
                if isinstance(value, str):
                    found.update(self._find(file, "search index", unescape(TAG.sub(" ", value))))
        return sorted(found)

    def pagefind_fragment(self, file: str, raw: bytes) -> list[Leak]:
        """Leaks in one of Pagefind's page records (``pagefind/fragment/*.pf_fragment``: gzip, a
        ``pagefind_dcd`` mark, then JSON): the text a result shows, its title and its headings."""
        try:
            data = gzip.decompress(raw)
        except (OSError, EOFError):
            return [Leak(file, UNREADABLE, "", "search index")]  # not read is not passed
        if data.startswith(PAGEFIND_MARK):
            data = data[len(PAGEFIND_MARK) :]
        try:
            record = json.loads(data.decode("utf-8", errors="replace"))
        except ValueError:
            return [Leak(file, UNREADABLE, "", "search index")]
        texts = [record.get("content"), *(record.get("meta") or {}).values()]
        texts += [a.get("text") for a in record.get("anchors") or [] if isinstance(a, dict)]
        # One pass over all of them: NUL, which no spelling holds and no normalising removes,
        # keeps a spelling from matching across two texts (a page has hundreds of anchors).
        return sorted(set(self._find(file, "search index", "\x00".join(t for t in texts if isinstance(t, str)))))

    def past_view(self, file: str, raw: bytes) -> list[Leak]:
        """Leaks in a chunk of the past views (``as-of/data/*.pvd``: gzip'd JSON): every piece of
        HTML it holds, read as a page, and every other string in it."""
        try:
            data = json.loads(gzip.decompress(raw).decode("utf-8"))
        except (OSError, EOFError, ValueError):
            return [Leak(file, UNREADABLE, "", "past view")]  # not read is not passed
        found: set[Leak] = set()
        pieces = data.pop("pieces", {}) if isinstance(data, dict) else {}
        for piece in pieces.values() if isinstance(pieces, dict) else [pieces]:
            found.update(self.html(file, piece if isinstance(piece, str) else json.dumps(piece, ensure_ascii=False)))
        found.update(self._find(file, "past view", json.dumps(data, ensure_ascii=False)))
        return sorted(found)

    def site(
        self,
        site_dir: Path,
        since: float | None = None,
        skip: Callable[[str], bool] | None = None,
        before: ReadBefore | None = None,
    ) -> list[Leak]:
        """Every leak in a built site: pages, feeds, search index (with ``since``, only in the files
        written since then: a preview's rebuild reads what it wrote; ``skip``: whether a file, by
        its name in the site, was read some other way — while the build wrote it, by
        :class:`Reading` — or is read later — Pagefind's records, once Pagefind is done).

        A large site is read on both cores: a forked worker reads the second half (by bytes) of
        the files while this process reads the first (:mod:`workers`: if the worker fails, this
        process reads its half too).

        ``before``: what earlier reads of this site found (a preview's rebuilds): a file whose bytes
        are those it had then, read against the same spellings, is not read again."""
        if not self.spellings:
            return []
        if before is not None:
            before.against(self.spellings, self.written)
        files: list[tuple[str, int]] = []
        for name, entry in _files(str(site_dir)):
            if not _checked(name) or (skip is not None and skip(name)):
                continue
            try:
                stat = entry.stat(follow_symlinks=False)
            except FileNotFoundError:
                continue  # gone since it was listed (see _read)
            if since is None or stat.st_mtime >= since:
                files.append((name, stat.st_size))
        upto = list(itertools.accumulate(size for _, size in files))  # bytes up to each file
        total = upto[-1] if upto else 0
        split = bisect.bisect_left(upto, total / 2) + 1 if total >= SPLIT_BYTES else len(files)
        names = [name for name, _ in files]
        worker = Worker(self._read, site_dir, names[split:]) if split < len(names) else None
        leaks = [Leak(*found) for found in self._read(site_dir, names[:split], before)]
        if worker is not None:
            leaks += [Leak(*found) for found in worker.result()]
        return leaks

    def _read(
        self, site_dir: Path, names: list[str], before: ReadBefore | None = None
    ) -> list[tuple[str, str, str, str]]:
        """The leaks in some of the site's files, as plain data (they may come from a worker)."""
        found: list[tuple[str, str, str, str]] = []
        for name in names:
            path = site_dir / name
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                # Gone since it was listed (a preview's search index replaced while a rebuild reads):
                # a file that is not there publishes nothing, and what replaced it is read in turn.
                continue
            if before is None:
                found += [astuple(leak) for leak in self.content(path, name, raw)]
                continue
            digest = hashlib.blake2b(raw, digest_size=16).digest()
            known = before.found.get(name)
            if known is None or known[0] != digest:
                known = before.found[name] = (digest, [astuple(leak) for leak in self.content(path, name, raw)])
            found += known[1]
        return found

    def file(self, path: Path, name: str) -> list[Leak]:
        """The leaks in one file of a site, read as what it is (page, feed, search index)."""
        return self.content(path, name, path.read_bytes())

    def content(self, path: Path, name: str, raw: bytes) -> list[Leak]:
        """The leaks in the bytes of the site's file ``name`` (at ``path``), read as what it is."""
        if path.suffix == ".html":
            return self.html(name, _text(raw))
        if path.suffix == ".xml":
            return self.feed(name, _text(raw))
        if path.name in SEARCH_INDEXES:
            return self.search_index(name, _text(raw))
        if path.suffix == ".pvd":
            return self.past_view(name, raw)
        return self.pagefind_fragment(name, raw)


def _text(raw: bytes) -> str:
    """A file's bytes as text, as ``Path.read_text(encoding="utf-8", errors="replace")`` reads them
    (universal newlines)."""
    return raw.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


@dataclass
class ReadBefore:
    """What a preview's earlier rebuilds found in each file of the site, by the file's bytes.

    Why: a rebuild writes again pages whose bytes did not change (every hand-written page is converted
    after each edit); reading them for withheld claims again was a tenth of a 365-day preview's
    rebuild.  The same bytes read against the same spellings give the same findings, so the check
    stays whole: a file whose bytes changed, or any file once the spellings change, is read afresh."""

    spellings: tuple[dict[str, str], dict[str, str]] = ({}, {})
    """What the findings were made against: :class:`LeakCheck`'s spellings and how each was written."""
    found: dict[str, tuple[bytes, list[tuple[str, str, str, str]]]] = field(default_factory=dict)

    def against(self, spellings: dict[str, str], written: dict[str, str]) -> None:
        """Forget every finding made against other spellings."""
        if (spellings, written) != self.spellings:
            self.spellings, self.found = (dict(spellings), dict(written)), {}


class Reading:
    """Pages read for withheld claims while the build goes on writing the rest (a one-off build).

    Why: Material renders every page's template in one process, and the second core idles; reading
    each page there once it is written takes the leak check off the end of the build.  The build
    names a page once its file is complete (:meth:`written`); a forked worker reads each file from
    disk, so what it reads is the output itself.  :meth:`result` gives the leaks found and the
    files read, and the build's final sweep (:meth:`LeakCheck.site` with ``skip``) reads every other
    file: a page the worker did not read (it failed, it was never started, or there is one core) is
    read there.  Not read is never passed."""

    def __init__(self, check: LeakCheck, site_dir: Path) -> None:
        self.worker: Worker[tuple[list[tuple[str, str, str, str]], list[str]]] | None = None
        self._fd: int | None = None
        self._pending = b""
        if not check.spellings:
            return  # nothing withheld: nothing to look for
        read, write = os.pipe()
        worker = Worker(_read_named, check, site_dir, read, write, os.getpid())
        os.close(read)
        if worker.pid is None:  # no second process to be had: the sweep reads everything
            os.close(write)
            worker.close()
            return
        os.set_blocking(write, False)  # the build never waits for the reader
        self.worker, self._fd = worker, write

    def written(self, name: str) -> None:
        """The file ``name`` (relative to the site) is complete: the worker may read it."""
        if self._fd is None:
            return
        self._pending += name.encode("utf-8") + b"\n"
        try:
            self._pending = self._pending[os.write(self._fd, self._pending) :]
        except BlockingIOError:
            pass  # the pipe is full: sent with the next name, or at the end
        except OSError:  # the worker is gone: the sweep reads its pages
            self._close()

    def all_written(self) -> None:
        """Every file is written: send the names still waiting, and end the list (the worker
        finishes the files it has while the build does something else, Pagefind's index)."""
        if self._fd is None:
            return
        try:
            os.set_blocking(self._fd, True)
            while self._pending:
                self._pending = self._pending[os.write(self._fd, self._pending) :]
        except OSError:
            pass  # the worker is gone: its result says what it read (nothing, if it failed)
        self._close()

    def result(self) -> tuple[list[Leak], frozenset[str]]:
        """The leaks the worker found, and the files it read (none if it read none)."""
        self.all_written()
        if self.worker is None:
            return [], frozenset()
        found, names = self.worker.result()
        self.worker = None
        return [Leak(*leak) for leak in found], frozenset(names)

    def _close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """Stop a worker whose result is not wanted (a build that failed part-way)."""
        self._close()
        if self.worker is not None:
            self.worker.close()
            self.worker = None


def _read_named(
    check: LeakCheck, site_dir: Path, read: int, write: int, build: int
) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """The worker of :class:`Reading`: read each file named on the pipe until the build closes it.
    Run in the build's own process instead (the fork failed), it reads nothing: the pipe is the
    worker's, and the sweep reads every file."""
    if os.getpid() == build:
        return [], []
    os.close(write)  # else the pipe never ends: this process would hold its writing end open
    found: list[tuple[str, str, str, str]] = []
    names: dict[str, None] = {}  # in the order read, each once
    rest = b""
    while chunk := os.read(read, 1 << 16):
        *lines, rest = (rest + chunk).split(b"\n")
        for line in lines:
            name = line.decode("utf-8")
            if name in names or not (site_dir / name).is_file():
                continue  # read already; or not written after all (an empty page)
            found += [astuple(leak) for leak in check.file(site_dir / name, name)]
            names[name] = None
    return found, list(names)


def _files(folder: str, prefix: str = "") -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Every file under ``folder`` by its name there, in path order, symbolic links left out.

    Why not ``Path.rglob``: listing a 4,700-page site with it (and a stat per path) was a third of
    a preview's rebuild; ``os.scandir`` reads each folder once."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except FileNotFoundError:  # a folder replaced while it is listed (see LeakCheck._read)
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _files(entry.path, f"{prefix}{entry.name}/")
        elif entry.is_file(follow_symlinks=False):
            yield f"{prefix}{entry.name}", entry


def _checked(name: str) -> bool:
    """Whether the checker reads a file, by its name in the site: pages, feeds (not the sitemap),
    search indexes."""
    base = name.rpartition("/")[2]
    if base.endswith(".xml"):
        return base != "sitemap.xml"
    return base.endswith((".html", ".pf_fragment", ".pvd")) or base in SEARCH_INDEXES


def find_leaks(site_dir: Path, docs: Mapping[str, LivingDoc]) -> list[Leak]:
    """Every withheld claim visible in the site at ``site_dir`` (empty when none)."""
    return LeakCheck(docs).site(Path(site_dir))
