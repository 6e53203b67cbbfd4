"""What the MkDocs plugin holds, in two records instead of twenty attributes.

MkDocs keeps one plugin instance for a whole ``serve`` (``on_startup`` makes it so), and calls its
handlers build after build.  Some of what it holds must outlive a build (the parse cache, the last
good docs a broken edit falls back to, the preview's records and search index); the rest is one
build's and must not leak into the next (the page being converted, the generated pages, the
workers).  Keeping each in its own record makes that line visible: :class:`Session` is made once,
:class:`Build` afresh by every ``on_config``, so nothing of one build is read by the next by accident.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from types import CodeType

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from ..core.doc import LivingDoc
from ..core.findings import Finding
from ..core.load import Cache
from ..core.pipeline import IdleCollection, Result
from ..core.workers import Worker
from ..site import searchindex
from ..site.layout import Layout
from ..site.leaks import LeakCheck, ReadBefore, Reading
from ..site.templating import Templates
from .extension import PageContext
from .prerender import Prerender
from .preview import Plan, Preview
from .siteswap import SiteSwap


class CompiledTemplates(BytecodeCache):
    """The theme's templates compiled once per preview, not once per rebuild: MkDocs makes a new
    Jinja environment for every build, and compiling Material's templates again was ~0.4 s of each
    rebuild.  Kept in memory as code objects (nothing is written, nothing read back from disk);
    Jinja keys each by the template's name and its source's checksum, so an edited override is
    compiled afresh."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        kept = self._code.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)


@dataclass
class Session:
    """What the plugin keeps from build to build of one MkDocs command (one build for ``build``)."""

    serving: bool = False
    publish: SiteSwap | None = None
    """A one-off build: the fresh folder that replaces the published site when the build succeeds."""
    preview: Preview | None = None
    """Under a dirty ``serve`` (``digest serve``): which pages each rebuild converts again."""
    preview_index: searchindex.PreviewIndex | None = None
    """Under ``serve``: the preview's search index, made in the background."""
    cache: Cache = field(default_factory=Cache)
    """Parsed briefs by their bytes: a rebuild parses only what changed."""
    last: Result | None = None
    """The last good merge: a rebuild merges from it, and a broken edit falls back to it."""
    docs: dict[str, LivingDoc] = field(default_factory=dict)
    """The merged docs pages are rendered from (the last good ones while the data has errors)."""
    outputs: set[str] = field(default_factory=set)
    """Under a dirty ``serve``: the files the last rebuild wrote, so a page that is gone is removed."""
    banner: bool = False
    """Under ``serve``: the last rebuild's pages carry the errors' banner (the next converts them all)."""
    idle: IdleCollection = field(default_factory=IdleCollection)
    """Under ``serve``: garbage collected between rebuilds, not on the way to the served page."""
    compiled: CompiledTemplates = field(default_factory=CompiledTemplates)
    """Under ``serve``: the theme's templates, compiled once for all rebuilds."""
    read_before: ReadBefore = field(default_factory=ReadBefore)
    """Under ``serve``: what each file of the site held when it was last read for withheld claims."""


@dataclass
class Build:
    """What one build knows: made by ``on_config``, read by the page events, let go at its end."""

    directory_urls: bool = True
    """The site's ``use_directory_urls``: how every link of this build is written."""
    templates: Templates = field(default_factory=Templates)
    errors: list[Finding] = field(default_factory=list)
    """Under ``serve``: what is wrong with the data now, while the last good docs are served."""
    leaks: LeakCheck | None = None
    """The independent check of the written site against this build's withheld claims."""
    started: float = 0.0
    layouts: dict[str, Layout] = field(default_factory=dict)
    generated: set[str] = field(default_factory=set)
    """The pages the plugin added (their HTML is let go once written)."""
    stubs: dict[str, str] = field(default_factory=dict)
    """Each generated Markdown page and its directive stub."""
    page: PageContext | None = None
    """The page being converted, for the Markdown extension's directives."""
    plan: Plan | None = None
    """Under a dirty ``serve``: which generated pages this rebuild converts again."""
    prerender: Prerender | None = None
    """In a one-off build: a worker renders the generated pages from the back (:mod:`prerender`)."""
    reading: Reading | None = None
    """In a one-off build: a worker reads each page for withheld claims once it is written."""
    last_written: str | None = None
    """The page MkDocs writes after ``on_post_page``: named to the reader at the next page."""
    past: Worker[list[tuple[str, bytes]]] | None = None
    """In a one-off build: a worker renders every night's past views (:mod:`..site.pastviews`) while
    the pages are written; their data files go into the site before it is read for withheld claims."""
    as_of: dt.date | None = None
    """A past view's night (``as_of``, or ``DIGEST_AS_OF`` from ``digest build --as-of``): every page says so."""

    def context(self, page: str) -> PageContext:
        """The context the Markdown extension renders ``page`` in (this build's layouts, templates and links)."""
        return PageContext(self.layouts, page, self.directory_urls, templates=self.templates)
