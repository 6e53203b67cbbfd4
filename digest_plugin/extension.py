"""The Python-Markdown extension that fills ``[[digest …]]`` directives with rendered fragments.

Rendering lives in a Markdown extension, not in MkDocs events, so that any host that runs
Python-Markdown extensions (MkDocs today; Zensical, which runs no MkDocs plugins) can use it.

Directives (each alone in its own paragraph)::

    [[digest section=3]]          §3 with its subsections (entries, callouts, stubs)
    [[digest section=3.1]]        one subsection
    [[digest register]]  [[digest bibliography]]  [[digest follow-ups]]
    [[digest briefs]]  [[digest brief=2026-10-21-inference-E1]]  [[digest overview]]
    [[digest section=3 year=2027]]  [[digest register year=2027]]  … one archived year

Add ``topic=<topic>`` where a site has several topics and the page is not under the topic's
folder.  Inline, ``[[cite 1605.08803]]`` is a numbered citation link.

Fragments go to the page through Markdown's raw-HTML stash, so Markdown never parses brief
text (``__init__`` stays literal) and no template engine ever sees it.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown import Markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString

from .arxiv import key as arxiv_key
from .merge import LivingDoc
from .render import Block, Heading, Linker, Raw, Renderer, esc

log = logging.getLogger("mkdocs.plugins.digest")

DIRECTIVE = re.compile(r"^\[\[digest(?P<args>(?:\s+[a-z-]+(?:=[A-Za-z0-9._-]+)?)*)\s*\]\]$")
ARG = re.compile(r"([a-z-]+)(?:=([A-Za-z0-9._-]+))?")
CITE = r"\[\[cite\s+(?P<id>[A-Za-z0-9./-]+)\]\]"
PAGES = ("section", "register", "bibliography", "follow-ups", "briefs", "brief", "overview")


@dataclass
class PageContext:
    """What the host tells the extension about the page being converted."""

    docs: dict[str, LivingDoc]
    page: str
    directory_urls: bool = True
    source_links: bool = False
    anchors: set[str] = field(default_factory=set)
    """Ids already given on this page, shared by every directive and citation on it."""


class DirectiveError(Exception):
    pass


def render_directive(ctx: PageContext, args: dict[str, str | None]) -> list[Block]:
    """Blocks for one directive; raises DirectiveError with an editor-facing message."""
    kinds = [k for k in args if k in PAGES]
    unknown = [k for k in args if k not in PAGES and k not in ("topic", "year")]
    if unknown or len(kinds) != 1:
        raise DirectiveError(f"unknown or ambiguous digest directive {sorted(args)}; use one of: {', '.join(PAGES)}")
    doc = _topic(ctx, args.get("topic"))
    renderer = Renderer(doc, Linker(ctx.page, ctx.directory_urls, ctx.source_links), anchors=ctx.anchors)
    kind = kinds[0]
    value = args[kind]
    year = args.get("year")
    if year is not None and not (year.isdigit() and len(year) == 4):
        raise DirectiveError(f"year={year} is not a year")
    year = int(year) if year else None
    if kind == "section":
        if value not in doc.sections:
            raise DirectiveError(f"unknown section §{value} in topic '{doc.topic}'")
        return renderer.section(value, year)
    if kind == "brief":
        if value not in doc.briefs_by_id:
            raise DirectiveError(f"unknown brief '{value}' in topic '{doc.topic}'")
        return renderer.brief(value)
    if kind == "overview":
        return renderer.overview()
    return {
        "register": renderer.register,
        "bibliography": renderer.bibliography,
        "follow-ups": renderer.follow_ups,
        "briefs": renderer.briefs_index,
    }[kind](year)


def _topic(ctx: PageContext, topic: str | None) -> LivingDoc:
    if topic is None:
        first = ctx.page.split("/")[0]
        topic = first if first in ctx.docs else (next(iter(ctx.docs)) if len(ctx.docs) == 1 else None)
    if topic not in ctx.docs:
        raise DirectiveError(f"unknown topic '{topic}'; known topics: {', '.join(sorted(ctx.docs)) or 'none'}")
    return ctx.docs[topic]


class DirectiveProcessor(BlockProcessor):
    def __init__(self, parser, extension: DigestExtension):
        super().__init__(parser)
        self.extension = extension

    def test(self, parent, block) -> bool:
        return bool(DIRECTIVE.match(block.strip()))

    def run(self, parent, blocks) -> None:
        block = blocks.pop(0).strip()
        args = {m.group(1): m.group(2) for m in ARG.finditer(DIRECTIVE.match(block).group("args"))}
        ctx = self.extension.context()
        try:
            if ctx is None:
                raise DirectiveError("no living-doc data is loaded (is the digest plugin or extension configured?)")
            rendered = render_directive(ctx, args)
        except DirectiveError as exc:
            where = ctx.page if ctx else "?"
            log.warning(f"{where}: {block}: {exc}")
            rendered = [Raw(f'<p class="digest-error">digest: {esc(exc)}</p>')]
        for part in rendered:
            if isinstance(part, Heading):
                el = etree.SubElement(parent, f"h{part.level}", {"id": part.anchor})
                el.text = AtomicString(part.text)
            else:
                el = etree.SubElement(parent, "p")
                el.text = self.parser.md.htmlStash.store(part.html)


class CiteProcessor(InlineProcessor):
    def __init__(self, pattern: str, md: Markdown, extension: DigestExtension):
        super().__init__(pattern, md)
        self.extension = extension

    def handleMatch(self, m, data):
        ctx = self.extension.context()
        key = arxiv_key(m.group("id"))
        for doc in ctx.docs.values() if ctx else ():
            if key in doc.citations:
                renderer = Renderer(doc, Linker(ctx.page, ctx.directory_urls, ctx.source_links), anchors=ctx.anchors)
                html = renderer.cite(doc.citations[key], anchor=renderer.anchor(f"cite-{key}"))  # back-link target
                return self.md.htmlStash.store(html), m.start(0), m.end(0)
        log.warning(f"{ctx.page if ctx else '?'}: [[cite {m.group('id')}]]: no brief cites arXiv:{key}")
        return (
            self.md.htmlStash.store(f'<span class="digest-error">[[cite {esc(m.group("id"))}]]</span>'),
            m.start(0),
            m.end(0),
        )


HOST: Callable[[], PageContext | None] | None = None
"""Set by a host adapter (the MkDocs plugin) that knows the page being converted and has the docs."""

_LOADED: dict[str, tuple[float, dict[str, LivingDoc]]] = {}


class DigestExtension(Extension):
    """The directives, in any Python-Markdown host.

    Under MkDocs the plugin tells it the page and hands it the merged docs (``HOST``).  Under
    Zensical, which runs no plugins, it reads the page from Zensical's rendering context and
    loads the data folder itself (once per build, again only when a file changed)."""

    def __init__(self, context: Callable[[], PageContext | None] | None = None, **kwargs):
        self.config = {
            "data_dir": ["data", "the data folder (outlines/ and briefs/), relative to the working directory"]
        }
        super().__init__(**kwargs)
        self._explicit = context
        self._md: Markdown | None = None

    def context(self) -> PageContext | None:
        if self._explicit is not None:
            return self._explicit()
        if HOST is not None:
            return HOST()
        rendering = getattr(self._md, "preprocessors", {})
        rendering = rendering["rendering_context"] if "rendering_context" in rendering else None
        if rendering is None:
            return None
        cached = getattr(self._md, "_digest_context", None)
        if cached is None or cached.page != rendering.page.path:  # one context per page conversion
            config = getattr(rendering, "config", {}) or {}
            cached = PageContext(
                _docs(self.getConfig("data_dir")),
                rendering.page.path,
                bool(config.get("use_directory_urls", True)),
                source_links=True,
            )
            self._md._digest_context = cached
        return cached

    def extendMarkdown(self, md: Markdown) -> None:
        self._md = md
        md.parser.blockprocessors.register(DirectiveProcessor(md.parser, self), "digest", 105)
        md.inlinePatterns.register(CiteProcessor(CITE, md, self), "digest-cite", 185)


def _docs(data_dir: str) -> dict[str, LivingDoc]:
    """The merged docs of a data folder, loaded once and again only when a file in it changed."""
    from pathlib import Path

    from .pipeline import living_docs

    folder = Path(data_dir).resolve()
    stamp = max((p.stat().st_mtime for p in folder.rglob("*.yml")), default=0.0)
    cached = _LOADED.get(str(folder))
    if cached is None or cached[0] != stamp:
        _LOADED[str(folder)] = (stamp, living_docs(folder))
    return _LOADED[str(folder)][1]


def makeExtension(**kwargs) -> DigestExtension:
    return DigestExtension(**kwargs)
