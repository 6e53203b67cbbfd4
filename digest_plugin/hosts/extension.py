"""The Python-Markdown extension that fills ``[[digest …]]`` directives with rendered fragments.

Rendering lives in a Markdown extension, not in MkDocs events, so that any host that runs
Python-Markdown extensions (MkDocs today; Zensical, which runs no MkDocs plugins) can use it.

Directives (each alone in its own paragraph)::

    [[digest section=3]]          §3 with its subsections (entries, callouts, stubs)
    [[digest section=3.1]]        one subsection
    [[digest register]]  [[digest bibliography]]  [[digest follow-ups]]
    [[digest briefs]]  [[digest brief=2026-10-21-inference-E1]]  [[digest overview]]
    [[digest section=3 month=2027-05]]  [[digest register month=2027-05]]  … one archived month

Add ``topic=<topic>`` where a site has several topics and the page is not under the topic's
folder.  Inline, ``[[cite 1605.08803]]`` is a numbered citation link.

Fragments go to the page through Markdown's raw-HTML stash, so Markdown never parses brief
text (``__init__`` stays literal) and no template engine ever sees it.
"""

from __future__ import annotations

import contextlib
import html
import logging
import os
import re
import threading
import time
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.blockparser import BlockParser
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString
from ruamel.yaml import YAMLError

from ..core import siteconfig
from ..core.arxiv import key as arxiv_key
from ..core.model import Rules
from ..core.pipeline import living_docs
from ..site.changelog import changes_month
from ..site.export import Exporter, script
from ..site.layout import Layout, Linker, as_of_page, cite_anchor, layouts
from ..site.pastviews import picker, shell
from ..site.render import Renderer
from ..site.templating import TemplateProblem, Templates, override_folders
from ..site.text import SEARCH_EXCLUDE, Block, Heading, Raw, esc

log = logging.getLogger("mkdocs.plugins.digest")

DIRECTIVE = re.compile(r"^\[\[digest(?P<args>(?:\s+[a-z-]+(?:=[A-Za-z0-9._-]+)?)*)\s*\]\]$")
ARG = re.compile(r"([a-z-]+)(?:=([A-Za-z0-9._-]+))?")
CITE = r"\[\[cite\s+(?P<id>[A-Za-z0-9./-]+)\]\]"
MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
PAGES = (
    "section",
    "register",
    "bibliography",
    "follow-ups",
    "briefs",
    "brief",
    "overview",
    "legend",
    "changes",
    "as-of",
)


@dataclass
class PageContext:
    """What the host tells the extension about the page being converted."""

    layouts: Mapping[str, Layout]
    """One per topic: the merged doc and where everything of it lives."""
    page: str
    directory_urls: bool = True
    source_links: bool = False
    anchors: set[str] = field(default_factory=set)
    """Ids already given on this page, shared by every directive and citation on it."""
    templates: Templates = field(default_factory=Templates)
    """The shipped templates, or the site's overrides of some of them."""
    prepared: list[list[Block]] = field(default_factory=list)
    """Blocks already rendered for this page's directives, in page order (a preview rendered them
    to find out whether the page changed): used instead of rendering them again."""
    rendered: list[Block] = field(default_factory=list)
    """Every block the page's directives gave, in order (a preview keeps a digest of them)."""


class DirectiveError(Exception):
    pass


def render_directive(ctx: PageContext, args: dict[str, str | None]) -> list[Block]:
    """Blocks for one directive; raises DirectiveError with an editor-facing message."""
    kinds = [k for k in args if k in PAGES]
    unknown = [k for k in args if k not in PAGES and k not in ("topic", "month")]
    if unknown or len(kinds) != 1:
        raise DirectiveError(f"unknown or ambiguous digest directive {sorted(args)}; use one of: {', '.join(PAGES)}")
    layout = _topic(ctx, args.get("topic"))
    doc = layout.doc
    renderer = Renderer(
        layout, Linker(ctx.page, ctx.directory_urls, ctx.source_links), anchors=ctx.anchors, templates=ctx.templates
    )
    kind = kinds[0]
    value = args[kind]
    month = args.get("month")
    if month is not None and not MONTH.fullmatch(month):
        raise DirectiveError(f"month={month} is not a month (write it like 2027-05)")
    if kind == "section":
        if value is None or value not in doc.sections:
            raise DirectiveError(f"unknown section §{value} in topic '{doc.topic}'")
        blocks = renderer.section(value, month)
        if layout.past and month is None and "." not in value:  # see this section as it stood on a night
            blocks = [Raw(picker(renderer, value)), *blocks]
        entries = [e for group in layout.section_entries(value, month).values() for e in group]
        exporter = Exporter(layout, ctx.page, ctx.directory_urls)  # final URLs: the host leaves a script alone
        return [*blocks, Raw(script(exporter.page_graph(entries)))]
    if kind == "brief":
        if value is None or value not in doc.briefs_by_id:
            raise DirectiveError(f"unknown brief '{value}' in topic '{doc.topic}'")
        return renderer.brief(value)
    if kind == "changes":
        if month is None:
            raise DirectiveError("changes needs the month: [[digest changes month=2026-10]]")
        return changes_month(renderer, month)
    if kind == "as-of":
        return shell(renderer)
    if kind == "overview":
        return renderer.overview()
    if kind == "legend":
        return renderer.legend()
    return {
        "register": renderer.register,
        "bibliography": renderer.bibliography,
        "follow-ups": renderer.follow_ups,
        "briefs": renderer.briefs_index,
    }[kind](month)


def directives(stub: str) -> list[dict[str, str | None]]:
    """The ``[[digest …]]`` directives of a page's Markdown, each as its arguments."""
    found = []
    for line in stub.splitlines():
        match = DIRECTIVE.match(line.strip())
        if match:
            found.append({m.group(1): m.group(2) for m in ARG.finditer(match.group("args"))})
    return found


def _topic(ctx: PageContext, topic: str | None) -> Layout:
    known = ctx.layouts
    if topic is None:
        first = ctx.page.split("/")[0]
        topic = first if first in known else (next(iter(known)) if len(known) == 1 else None)
    if topic is None or topic not in known:
        raise DirectiveError(f"unknown topic '{topic}'; known topics: {', '.join(sorted(known)) or 'none'}")
    return known[topic]


class DirectiveProcessor(BlockProcessor):
    def __init__(self, parser: BlockParser, extension: DigestExtension):
        super().__init__(parser)
        self.extension = extension

    def test(self, parent: etree.Element, block: str) -> bool:
        return bool(DIRECTIVE.match(block.strip()))

    def run(self, parent: etree.Element, blocks: list[str]) -> None:
        block = blocks.pop(0).strip()
        directive = DIRECTIVE.match(block)
        assert directive is not None, "test() accepted only directive blocks"
        args = {m.group(1): m.group(2) for m in ARG.finditer(directive.group("args"))}
        ctx = self.extension.context()
        try:
            if ctx is None:
                raise DirectiveError("no living-doc data is loaded (is the digest plugin or extension configured?)")
            rendered = ctx.prepared.pop(0) if ctx.prepared else render_directive(ctx, args)
        except (DirectiveError, TemplateProblem) as exc:
            where = ctx.page if ctx else "?"
            log.warning(f"{where}: {block}: {exc}")
            rendered = [Raw(f'<p class="digest-error">digest: {esc(exc)}</p>')]
        if ctx is not None:
            ctx.rendered.extend(rendered)
        headings = [part for part in rendered if isinstance(part, Heading)]
        if headings and not any(h.searched for h in headings):  # the page holds nothing to search for:
            for title in parent.iter("h1"):  # its title goes too, and Pagefind leaves the page out
                title.set(SEARCH_EXCLUDE, "")
        for part in rendered:
            if isinstance(part, Heading):
                el = etree.SubElement(parent, f"h{part.level}", {"id": part.anchor})
                if not part.searched:
                    el.set(SEARCH_EXCLUDE, "")
                # Escaped here, so that text which looks like an entity (`&lt;`) stays as written:
                # Python-Markdown's serializer leaves entities alone and would show `<`.
                el.text = AtomicString(html.escape(part.text, quote=False))
            else:
                el = etree.SubElement(parent, "p")
                el.text = self.parser.md.htmlStash.store(part.html)


class CiteProcessor(InlineProcessor):
    def __init__(self, pattern: str, md: Markdown, extension: DigestExtension):
        super().__init__(pattern, md)
        self.extension = extension

    # Python-Markdown's stubs give InlineProcessor the signature of the older Pattern class.
    def handleMatch(self, m: re.Match[str], data: str) -> tuple[str, int, int]:  # type: ignore[override]
        ctx = self.extension.context()
        key = arxiv_key(m.group("id"))
        for layout in ctx.layouts.values() if ctx else ():
            if ctx is not None and key in layout.doc.citations:
                linker = Linker(ctx.page, ctx.directory_urls, ctx.source_links)
                renderer = Renderer(layout, linker, anchors=ctx.anchors, templates=ctx.templates)
                try:
                    html = renderer.cite(layout.doc.citations[key], anchor=renderer.anchor_id(cite_anchor(key)))
                except TemplateProblem as exc:
                    log.warning(f"{ctx.page}: [[cite {m.group('id')}]]: {exc}")
                    html = f'<span class="digest-error">digest: {esc(exc)}</span>'
                return self.md.htmlStash.store(html), m.start(0), m.end(0)
        log.warning(f"{ctx.page if ctx else '?'}: [[cite {m.group('id')}]]: no brief cites arXiv:{key}")
        return (
            self.md.htmlStash.store(f'<span class="digest-error">[[cite {esc(m.group("id"))}]]</span>'),
            m.start(0),
            m.end(0),
        )


class DigestExtension(Extension):
    """The directives, in any Python-Markdown host.

    A host that knows which page is being converted and holds the merged docs (the MkDocs plugin)
    passes ``context``: a function that returns the current :class:`PageContext`.  Without one
    (Zensical, which runs no plugins and builds the extension from ``mkdocs.yml`` itself), it reads
    the page from Zensical's rendering context and loads the data folder on its own."""

    def __init__(self, context: Callable[[], PageContext | None] | None = None, **kwargs: Any):
        self.config = {
            "data_dir": ["data", "the data folder (outlines/ and briefs/), relative to the working directory"],
            "custom_templates": ["", "a folder of templates that replace the shipped ones of the same name"],
        }
        super().__init__(**kwargs)
        self._explicit = context
        self._md: Markdown | None = None

    def context(self) -> PageContext | None:
        if self._explicit is not None:
            return self._explicit()
        preprocessors = getattr(self._md, "preprocessors", {})
        # a Python-Markdown Registry: `in` and [] but no get()
        rendering = preprocessors["rendering_context"] if "rendering_context" in preprocessors else None  # noqa: SIM401
        if rendering is None:
            return None
        cached: PageContext | None = getattr(self._md, "_digest_context", None)
        if cached is None or cached.page != rendering.page.path:  # one context per page conversion
            config = getattr(rendering, "config", {}) or {}
            page = rendering.page.path
            data_dir = Path(self.getConfig("data_dir"))
            held = HOSTLESS.handed.get(data_dir.resolve()) if HOSTLESS.handed else None
            if held is not None:
                docs = held.layouts
            else:  # merged here, with the rules the site set under the digest plugin
                root = Path(config.get("root_dir") or Path.cwd())
                rules = HOSTLESS.site_rules(root / "mkdocs.yml")
                docs = HOSTLESS.folders.layouts(data_dir, page, rules)
                docs_dir = root / str(config.get("docs_dir") or "docs")
                for topic, layout in docs.items():  # past views, where `digest pages` wrote their page
                    layout.past = (docs_dir / as_of_page(topic)).is_file()
            cached = host_context(
                docs,
                page,
                bool(config.get("use_directory_urls", True)),
                self.getConfig("custom_templates") or None,
            )
            if held is not None:
                held.take(cached)
            self._md._digest_context = cached  # type: ignore[union-attr]
        return cached

    def extendMarkdown(self, md: Markdown) -> None:
        self._md = md
        md.parser.blockprocessors.register(DirectiveProcessor(md.parser, self), "digest", 105)
        md.inlinePatterns.register(CiteProcessor(CITE, md, self), "digest-cite", 185)


def host_context(
    layouts: Mapping[str, Layout],
    page: str,
    directory_urls: bool,
    custom_templates: str | None,
    root: Path | None = None,
) -> PageContext:
    """The context of one page under a host without a plugin (Zensical): links to the brief files
    on, templates overridden from ``custom_templates`` under ``root`` (the working directory)."""
    folders = override_folders(root or Path.cwd(), custom_templates)
    return PageContext(layouts, page, directory_urls, source_links=True, templates=Templates(folders))


@dataclass
class Handover:
    """The merged docs a command already holds, for the extension in the same process.

    ``digest build --host zensical`` has merged the data (to write the generated pages) before it
    runs Zensical in its own process; without this the extension would load and merge the whole
    data folder a second time (6 s at ten years), with the default rules instead of the site's.
    ``take`` gives a page's context what a second process rendered ahead (:mod:`prerender`); it is
    called under a lock, in case the host converts pages on several threads."""

    layouts: Mapping[str, Layout]
    taker: Callable[[PageContext], None] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, ctx: PageContext) -> None:
        if self.taker is not None:
            with self.lock:
                self.taker(ctx)


@contextlib.contextmanager
def handed_over(data_dir: Path, handover: Handover) -> Iterator[None]:
    """While the block runs, the extension reads ``data_dir``'s merged docs from ``handover``."""
    folder = data_dir.resolve()
    HOSTLESS.handed[folder] = handover
    try:
        yield
    finally:
        del HOSTLESS.handed[folder]


class DataFolders:
    """Merged docs per data folder for hosts without a plugin, loaded again only when a file changed.

    One per process: Zensical may build a new Markdown instance (and so a new extension) for any
    page; without this each of them would load and merge the whole data folder again.  For every
    page it reads the times of the folders it knows (a brief added, deleted or saved by renaming
    changes its folder's; a new sub-folder changes its parent's, and then the folders are listed
    again).  Every file's size and time (a brief saved in place) it reads at most every ``RECHECK``
    seconds, and whenever a page comes round again: that is a new build (Zensical re-renders after
    a data edit), which must not be rendered from data older than the edit.  Reading every file's
    for every page was 13 million ``stat`` calls a build at ten years, and listing the folders for
    every page (3,650 names in ``briefs/``) another 6 s."""

    RECHECK = 0.5

    def __init__(self) -> None:
        self._loaded: dict[Path, tuple[float, tuple[Any, ...], tuple[Any, ...], Rules, dict[str, Layout]]] = {}
        self._pages: dict[Path, set[str]] = {}
        """The pages rendered in this build (since a page last came round again), per folder."""

    def layouts(self, data_dir: Path, page: str = "", rules: Rules | None = None) -> dict[str, Layout]:
        rules = rules or Rules()
        folder = data_dir.resolve()
        cached = self._loaded.get(folder)
        now = time.monotonic()
        pages = self._pages.setdefault(folder, set())
        again = page in pages  # a page seen since the last new build: this is the next one
        if (
            cached is not None
            and not again
            and cached[3] == rules
            and now - cached[0] < self.RECHECK
            and _times(d for d, _ in cached[1]) == cached[1]
        ):
            pages.add(page)
            return cached[4]
        folders = _times(sorted(d for d, _, _ in os.walk(folder)))
        stamp = tuple((str(p), st.st_size, st.st_mtime_ns) for p in sorted(folder.rglob("*.yml")) for st in [p.stat()])
        if cached is not None and cached[2] == stamp and cached[3] == rules:
            found = cached[4]
        else:
            found = layouts(living_docs(folder, rules=rules))
        self._loaded[folder] = (now, folders, stamp, rules, found)
        if again:
            pages.clear()
        pages.add(page)
        return found


def _times(folders: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """Each folder with its modification time (-1 for one that is gone: a change like any other)."""
    found = []
    for d in folders:
        try:
            found.append((d, os.stat(d).st_mtime_ns))
        except OSError:
            found.append((d, -1))
    return tuple(found)


class Hostless:
    """All the extension keeps between pages under a host without a plugin (Zensical), in one place.

    Such a host may build a new Markdown instance, and so a new extension, for any page: what must
    last from page to page (the merged docs, the site's rules) cannot live on the extension, and no
    plugin instance exists to hold it (the MkDocs plugin passes each page its context and uses none
    of this).  So it lives here, one per process, and :meth:`reset` forgets it (for tests, or a
    host that wants a clean start)."""

    handed: dict[Path, Handover]
    """By resolved data folder: a page of a site whose extension reads another folder loads its own."""
    folders: DataFolders
    rules: dict[str, tuple[tuple[int, int], Rules]]
    """The rules read from each site's mkdocs.yml, with the size and time they were read at."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.handed, self.folders, self.rules = {}, DataFolders(), {}

    def site_rules(self, config: Path) -> Rules:
        """The digest plugin's ``rules`` in ``config``, read again only when the file changed (reading
        YAML for every page would cost more than the page)."""
        try:
            st = config.stat()
        except OSError:
            return Rules()
        seen = self.rules.get(str(config))
        if seen is None or seen[0] != (st.st_size, st.st_mtime_ns):
            try:
                rules = siteconfig.rules(config)
            except (ValueError, YAMLError) as exc:  # `digest check` names the line; the pages still build
                log.warning(f"{config}: the digest plugin's rules are not valid, the defaults apply: {exc}")
                rules = Rules()
            seen = self.rules[str(config)] = ((st.st_size, st.st_mtime_ns), rules)
        return seen[1]


HOSTLESS = Hostless()


def makeExtension(**kwargs: Any) -> DigestExtension:
    return DigestExtension(**kwargs)
