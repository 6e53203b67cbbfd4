"""The MkDocs adapter: config, events, generated pages, serve watch.  Kept thin on purpose.

Each handler hands off to the pure core (:mod:`pipeline` loads and merges, :mod:`pages` says
which pages exist, :mod:`extension` renders inside Markdown).  Nothing here decides what the
living doc says, so the core can move to another host when MkDocs goes.
"""

from __future__ import annotations

import datetime as dt
import html
import importlib.util
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from pydantic import ValidationError

from ..core import files, labels
from ..core.asof import AS_OF_VARIABLE, as_of_docs
from ..core.findings import Finding
from ..core.load import Cache
from ..core.model import Rules
from ..core.pipeline import analyse
from ..core.workers import Worker, give_back_memory
from ..site import searchindex
from ..site.layout import layouts
from ..site.leaks import Leak, LeakCheck, Reading
from ..site.pages import (
    CSS_PATH,
    JS_PATH,
    SEARCH_JS_PATH,
    at_body_start,
    generated_pages,
    listed_pages,
    past_data,
    with_as_of_banner,
    write_into,
)
from ..site.templating import Templates, override_folders
from . import watching
from .extension import DigestExtension
from .prerender import Prerender
from .preview import Preview, site_key
from .siteswap import SiteSwap
from .state import Build, Session

log = logging.getLogger("mkdocs.plugins.digest")

EXTENSION_NAMES = {"digest_plugin.extension", "digest_plugin.extension:DigestExtension"}


class DigestConfig(Config):
    enabled = c.Type(bool, default=True)
    data_dir = c.Type(str, default="data")
    """The data folder (outlines/ and briefs/), relative to mkdocs.yml."""
    cache_dir = c.Type(str, default=".cache/digest")
    """Where parsed briefs are kept between builds, relative to mkdocs.yml; "" turns it off."""
    quiet = c.Type(bool, default=True)
    """Keep mkdocs-macros' INFO lines and jieba's dictionary messages out of the build log."""
    rules = c.Type(dict, default={})
    """Editorial rules (see ``digest_plugin.core.model.Rules``); omitted keys keep the team's defaults."""
    search = c.Choice(("material", "pagefind"), default="material")
    """The site's search: ``pagefind`` indexes the built site after the build (a reader fetches a few
    hundred KB a query; remove Material's ``search`` plugin), ``material`` leaves search to
    Material's own plugin (one index every reader downloads whole: for small sites)."""
    as_of = c.Optional(c.Type(str))
    """A night, YYYY-MM-DD: build the doc as it stood after that night's briefs (:mod:`core.asof`), with
    today's withholdings kept.  ``digest build --as-of`` and ``digest serve --as-of`` set it through the
    ``DIGEST_AS_OF`` environment variable, which wins over this option."""
    past_views = c.Type(bool, default=True)
    """Publish the doc as it stood on every night (``/<topic>/as-of/``, issue 32): a build does, a
    ``serve`` preview does not (it would render every night again after each edit)."""
    custom_templates = c.Optional(c.Type(str))
    """A folder, relative to mkdocs.yml, whose files replace the shipped templates of the same name
    (``digest_plugin/templates/``: entry.html, badge.html, callout.html, citation.html …)."""


class DigestPlugin(BasePlugin[DigestConfig]):
    """The MkDocs events, each handed off; what it holds is in :mod:`state` (a session, a build)."""

    def __init__(self) -> None:
        self.session = Session()
        self.build = Build()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that MkDocs keeps this one instance, and so its cache, across ``serve`` rebuilds.

        Also quiets the two chattiest neighbours, so that the build log shows what matters."""
        self.session.serving = command == "serve"
        self.session.publish = SiteSwap() if command in ("build", "gh-deploy") and not dirty else None
        if self.session.serving and dirty:
            self.session.preview = Preview()
            logging.getLogger("mkdocs.commands.build").addFilter(_dirty_warning)
        if self.config.quiet:
            _quiet_neighbours()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Load, check and merge the data before any page is written (a bad brief publishes nothing).

        Also watches the data folder in ``serve`` and hands the Markdown extension its page context."""
        if not self.config.enabled:
            return config
        self.build = Build(directory_urls=config.use_directory_urls)  # nothing of the last build is read by this one
        root = Path(config.config_file_path or ".").resolve().parent
        data_dir = (root / self.config.data_dir).resolve()
        if str(data_dir) not in config.watch:
            config.watch.append(str(data_dir))
        files.tidy_data(data_dir)  # what a killed edit left: removed by the next run of anything
        if self.session.publish is not None:
            self.session.publish.tidy(Path(config.site_dir))
        try:
            rules = Rules.model_validate(self.config.rules)
        except ValidationError as exc:
            raise PluginError(f"digest: invalid `rules` in {config.config_file_path}:\n{exc}") from None
        cache_dir = (root / self.config.cache_dir).resolve() if self.config.cache_dir else None
        self.build.as_of = _night(os.environ.get(AS_OF_VARIABLE) or self.config.as_of, config.config_file_path)
        self.session.idle.cancel()
        try:
            self.build.templates = Templates(override_folders(root, self.config.custom_templates))
        except FileNotFoundError as exc:
            raise PluginError(f"digest: {config.config_file_path}: {exc}") from None
        result = analyse(
            data_dir,
            rules=rules,
            relative_to=root,
            today=dt.date.today(),
            cache=self.session.cache,
            previous=self.session.last,
            cache_dir=cache_dir,
            collect=not self.session.serving,
        )
        for finding in result.warnings:
            log.warning(str(finding))
        self.build.started = time.time()
        if result.docs is None:
            count = len(result.errors)
            summary = f"digest: {count} error{'s' if count > 1 else ''} in the brief data"
            if self.session.serving and self.session.docs:
                # A preview keeps serving the last good site, with the errors on every page.
                self.build.errors = result.errors
                log.error(summary + " (serving the last good version):\n" + "\n".join(map(str, result.errors)))
            else:
                raise PluginError(f"{summary} (run `digest check` for details):\n" + "\n".join(map(str, result.errors)))
        else:
            docs = as_of_docs(result.docs, self.build.as_of, rules) if self.build.as_of else result.docs
            self.session.last, self.build.errors, self.session.docs = result, [], docs
        self.build.leaks = LeakCheck(self.session.docs)  # made now: on_env lets go of the docs
        _use_extension(config, DigestExtension(context=lambda: self.build.page))
        if CSS_PATH not in config.extra_css:
            config.extra_css.append(CSS_PATH)
        if self.config.search == "pagefind" and _theme_search(config):
            log.warning(
                f"digest: {config.config_file_path}: `search: pagefind` and Material's `search` plugin are both "
                "enabled; set `enabled: false` under `- search` (Pagefind makes the index), or `search: material`"
            )
        scripts = [JS_PATH, SEARCH_JS_PATH] if self.config.search == "pagefind" else [JS_PATH]
        for script in scripts:
            if script not in [str(x) for x in config.extra_javascript]:
                config.extra_javascript.append(script)
        if self.session.publish is not None:
            config.site_dir = str(self.session.publish.begin(Path(config.site_dir)))
        return config

    @event_priority(-100)
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        """Name Material's search dialog (screen readers announce an unnamed dialog as just "dialog"),
        and let go of a generated page's HTML once it is written (priority -100: after every other
        plugin).  MkDocs keeps every page's HTML to the end of the build; at 3650 briefs that is
        ~0.4 GB the search index is then serialised on top of."""
        if page.file.src_uri in self.build.generated:
            page.content = None
        if self.build.reading is not None:  # MkDocs writes a page after this event: the last one is done
            if self.build.last_written is not None:
                self.build.reading.written(self.build.last_written)
            self.build.last_written = page.file.dest_uri
        if self.build.errors:
            output = _with_error_banner(output, self.build.errors)
        if self.build.as_of is not None:
            output = with_as_of_banner(output, self.build.as_of)
        return output.replace(
            '<div class="md-search" data-md-component="search" role="dialog">',
            f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{labels.SEARCH_DIALOG}">',
            1,
        )

    def on_env(self, env: Environment, *, config: MkDocsConfig, files: Files) -> Environment:
        """In a one-off build every page has been converted by now, so the merged docs are done
        with: drop them, and the search index MkDocs builds next reuses their memory (3650 briefs:
        ~0.4 GB).  ``serve`` keeps them for the next rebuild."""
        self._stop_prerender()
        if self.session.serving:
            env.bytecode_cache = self.session.compiled
            return env
        self.session.docs, self.session.last, self.session.cache = {}, None, Cache()
        self.build.layouts, self.build.page = {}, None
        give_back_memory()  # before the reader is forked: it would share (and copy) what is freed
        if self.config.enabled and self.build.leaks is not None:
            self.build.reading, self.build.last_written = Reading(self.build.leaks, Path(config.site_dir)), None
        return env

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        """Add the generated pages (register, bibliography, follow-ups, one per brief) unless the site has its own.

        Hand-written pages are read here for the citations they make, so the bibliography links back to them."""
        if not self.config.enabled:
            return files
        for path in sorted(listed_pages(Path(config.docs_dir))):  # left by `digest pages` (a Zensical preview):
            if (stale := files.get_file_from_path(path)) is not None:  # the plugin's own, generated afresh
                files.remove(stale)
        pages = [(file.src_uri, file.content_string) for file in files.documentation_pages()]
        past = self.config.past_views and not self.session.serving  # an --as-of build has its nights' too
        self.build.layouts = layouts(self.session.docs, pages, past=past)
        self.build.generated = set()
        self.build.stubs = {}
        added: list[GeneratedFile] = []
        preview_search = self.session.serving and self.config.search == "pagefind"
        if past:  # every night's views, rendered by a worker while the pages are; written into the site after them
            self.build.past = Worker(past_data, self.build.layouts)
        for path, content in generated_pages(
            self.build.layouts, config.site_url, config.use_directory_urls, preview=preview_search, past_data=not past
        ):
            if files.get_file_from_path(path) is None:
                file = GeneratedFile.generated(config, path, content=content)
                assert isinstance(file, GeneratedFile)
                files.append(file)
                added.append(file)
                self.build.generated.add(path)
                if path.endswith(".md") and isinstance(content, str):
                    self.build.stubs[path] = content
        if self.session.preview is not None:
            self._plan_preview(config, pages, added, files)
        elif not self.session.serving:
            self.build.prerender = Prerender(
                self.build.stubs,
                self.build.context,
            )
        return files

    def _plan_preview(
        self, config: MkDocsConfig, pages: list[tuple[str, str]], added: list[GeneratedFile], all_files: Files
    ) -> None:
        """Under a dirty ``serve``: tell MkDocs which generated pages to convert again (:mod:`preview`);
        every hand-written page is converted (its macros may show data), and so is every page while
        the data has errors (each one carries the banner), and while Material's search plugin runs
        (it indexes only the pages a build converts: the preview's index would lose the others)."""
        assert self.session.preview is not None
        if self.build.errors or self.session.banner or _theme_search(config):
            self.session.preview.invalidate()
        self.session.banner = bool(self.build.errors)
        key = site_key(self.build.layouts, _config_bytes(config, self.config.custom_templates), pages)
        self.build.plan = plan = self.session.preview.plan(
            self.build.layouts,
            self.build.stubs,
            key,
            self.build.context,
        )
        for file in added:
            if file.is_documentation_page():
                file.convert = plan.convert is None or file.src_uri in plan.convert
            else:  # an asset, the feed, a night's permalink: written again only when its bytes changed
                file.convert = not _written(file)
        for page in all_files.documentation_pages():
            if page.src_uri not in self.build.generated:
                setattr(page, "is_modified", _converted)  # noqa: B010  (MkDocs compares mtimes only)
        converted = len(self.build.stubs) if plan.convert is None else len(plan.convert)
        log.info(
            f"digest: preview converts {converted} of {len(self.build.stubs)} generated pages"
            + (f" ({plan.reason})" if plan.convert is None else f" ({plan.examined} rendered to compare)")
        )
        outputs = {file.abs_dest_path for file in all_files}
        for stale in sorted(self.session.outputs - outputs):
            _remove_output(Path(stale), Path(config.site_dir))
        self.session.preview.forget(path for path in list(self.session.preview.records) if path not in self.build.stubs)
        self.session.outputs = outputs

    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page | None:
        """Tell the extension which page it is about to convert (for relative links and the topic)."""
        planned = self.build.plan.contexts.pop(page.file.src_uri, None) if self.build.plan is not None else None
        self.build.page = planned or self.build.context(page.file.src_uri)
        if self.build.prerender is not None:
            self.build.prerender.take(self.build.page)
        return page

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str | None:
        """Under a dirty ``serve``: remember what a generated page rendered, for the next rebuild."""
        path = page.file.src_uri
        if self.session.preview is not None and self.build.page is not None and path in self.build.stubs:
            self.session.preview.remember(path, self.build.stubs[path], self.build.page.rendered)
        return html

    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Read the finished site for withheld claims (pages, feeds, search index) with the
        independent checker (:mod:`leaks`); each one is a warning, so ``--strict`` fails the build.

        Last of all (priority -100, after the search index is written), a one-off build that was
        written into a fresh folder replaces the published one, unless ``--strict`` is about to
        fail it: a failed build leaves the previous site as it was."""
        site = Path(config.site_dir)
        if self.build.past is not None:  # before the site is read for withheld claims: the check reads them too
            write_into(site, self.build.past.result())
            self.build.past = None
        # A preview reads only what this rebuild wrote: the rest was read when it was written,
        # against the same withheld claims (a change to them converts every page).
        since = self.build.started - 1.0 if self.session.preview is not None else None
        if self.build.reading is not None:
            if self.build.last_written is not None:
                self.build.reading.written(self.build.last_written)
            self.build.reading.all_written()  # the worker reads its last pages while Pagefind indexes
        pagefind = self.config.enabled and self.config.search == "pagefind"
        if pagefind and self.session.serving and self.session.preview_index is not None:
            self.session.preview_index.after_rebuild(site)  # where that fits the preview's budget
        leaks, read = self.build.reading.result() if self.build.reading is not None else ([], frozenset())
        self.build.reading = None
        check = self.build.leaks if self.config.enabled else None

        def read_site(skip: Callable[[str], bool] = lambda name: False) -> list[Leak]:
            """What the worker did not read (with ``since``: only what this rebuild wrote)."""
            if check is None:
                return []
            before = self.session.read_before if self.session.serving else None
            return check.site(site, since=since, skip=lambda name: name in read or skip(name), before=before)

        if pagefind and not self.session.serving:
            give_back_memory()  # the pages' HTML is written and let go: Pagefind's memory comes on top of ours
        try:
            if self.session.serving:
                leaks += read_site(searchindex.in_preview_index)  # the preview's index is read by its own check
            elif pagefind:
                leaks += searchindex.build_beside(site, read_site)
            else:
                leaks += read_site()
        except searchindex.SearchIndexError as exc:
            raise PluginError(f"digest: {exc}") from None
        for leak in sorted(leaks):
            log.warning(str(leak))
        if self.session.publish is not None and self.session.publish.fresh is not None:
            config.site_dir = str(self.session.publish.finish(strict=bool(config.strict)))
        if self.session.serving:
            self.session.idle.schedule()
            if self.session.preview is not None:
                self.session.preview.prepare()

    def on_build_error(self, *, error: Exception) -> None:
        """A build that failed part-way: its fresh folder goes, the published site stays."""
        self._stop_workers()
        if self.session.publish is not None:
            self.session.publish.abandon()

    def _stop_workers(self) -> None:
        self._stop_prerender()
        if self.build.past is not None:
            self.build.past.close()
            self.build.past = None
        if self.build.reading is not None:
            self.build.reading.close()
            self.build.reading = None

    def _stop_prerender(self) -> None:
        if self.build.prerender is not None:
            pages = len(self.build.prerender.paths)
            log.debug(f"digest: {self.build.prerender.taken} of {pages} generated pages rendered by a second process")
            self.build.prerender.close()
            self.build.prerender = None

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Callable[..., Any]) -> Any:
        """The preview is up: Pagefind indexes it in the background (:class:`searchindex.PreviewIndex`),
        so its search box works while the editor works; the leak check reads what it wrote.  It
        hears a save from the system, not at MkDocs' next poll (:mod:`watching`)."""
        if self.session.preview is not None:
            watching.hear_saves(server, [str(path) for path in config.watch])
        if self.config.enabled and self.config.search == "pagefind" and self.session.preview_index is None:
            self.session.preview_index = searchindex.PreviewIndex(self._preview_leaks)
            self.session.preview_index.start(Path(config.site_dir))
        return server

    def _preview_leaks(self, site: Path) -> list[str]:
        check = self.build.leaks
        if check is None:
            return []
        return [
            str(leak)
            for leak in check.site(site, skip=lambda name: not name.startswith(searchindex.OUTPUT_SUBDIR + "/"))
        ]

    def on_shutdown(self) -> None:
        self.session.idle.cancel()
        if self.session.preview_index is not None:
            self.session.preview_index.stop()
        if self.session.publish is not None:
            self.session.publish.close()


class GeneratedFile(File):
    """A page (or asset) the plugin generates.  Under a dirty ``serve`` MkDocs converts again only
    the files whose ``is_modified`` says so; the preview's plan sets ``convert``."""

    convert: bool = True

    def is_modified(self) -> bool:
        return self.convert


def _theme_search(config: MkDocsConfig) -> bool:
    """Whether Material's (or MkDocs') own search plugin is enabled."""
    theirs = [config.plugins[name] for name in ("material/search", "search") if name in config.plugins]
    return any(getattr(p.config, "enabled", True) for p in theirs)


def _converted() -> bool:
    """``is_modified`` of a hand-written page under a dirty ``serve``: always converted, since its
    macros and directives may show data that changed while its Markdown did not."""
    return True


class _DirtyWarning(logging.Filter):
    """Drop MkDocs' warning that a dirty build may leave navigation and links inaccurate: under
    the digest preview the plugin converts every page whose content changed (and every page when
    the config, a hand-written page or anything site-wide changed)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


_dirty_warning = _DirtyWarning()


def _config_bytes(config: MkDocsConfig, custom_templates: str | None) -> bytes:
    """The config file and every theme override and custom template, as one byte string: a change
    to any of them converts every page of a preview."""
    root = Path(config.config_file_path or ".").resolve().parent
    paths = [Path(config.config_file_path)] if config.config_file_path else []
    for folder in (config.theme.custom_dir, custom_templates):
        if folder:
            paths += sorted(p for p in (root / folder).rglob("*") if p.is_file())
    # Resolved: MkDocs gives the config file's path as typed the first time, absolute afterwards.
    return b"".join(str(p.resolve()).encode() + b"\0" + p.read_bytes() + b"\0" for p in paths)


def _remove_output(path: Path, site_dir: Path) -> None:
    """Remove a page a preview wrote earlier and no longer has, and the folders it leaves empty."""
    path.unlink(missing_ok=True)
    folder = path.parent
    while folder != site_dir and folder.is_relative_to(site_dir) and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _quiet_neighbours() -> None:
    """mkdocs-macros logs seven INFO lines per build, jieba four lines on stderr when Material's
    search loads its dictionary: neither says anything an editor acts on."""
    logging.getLogger("mkdocs.plugins.mkdocs_macros").setLevel(logging.WARNING)
    if importlib.util.find_spec("jieba") is not None:
        import jieba  # its logger is set to DEBUG when it is imported, so import it first

        jieba.setLogLevel(logging.WARNING)


def _written(file: GeneratedFile) -> bool:
    """Whether the output file already holds exactly the generated content (a dirty ``serve`` keeps the
    site folder between rebuilds, and MkDocs would write a generated file every time)."""
    out = Path(file.abs_dest_path)
    data = file.content_bytes
    try:
        return out.stat().st_size == len(data) and out.read_bytes() == data
    except OSError:
        return False


def _night(value: str | None, config_file: str | None) -> dt.date | None:
    """The ``as_of`` night, or None; a value that is no date stops the build with the fix."""
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise PluginError(
            f"digest: {config_file}: as_of «{value}» is not a date; write the night as YYYY-MM-DD (e.g. 2026-10-22)"
        ) from None


def _with_error_banner(page: str, errors: list[Finding]) -> str:
    """The page with the data's errors at its top (``serve`` only: a build refuses bad data)."""
    items = "".join(f"<li><code>{html.escape(str(finding))}</code></li>" for finding in errors)
    banner = (
        f'<div class="digest-serve-errors" role="alert" data-digest-errors="{len(errors)}">'
        f"<p><strong>{labels.SERVE_ERRORS}</strong></p><ul>{items}</ul></div>"
    )
    return at_body_start(page, banner)


def _use_extension(config: MkDocsConfig, extension: DigestExtension) -> None:
    """Put this build's extension where ``mkdocs.yml`` lists it for Zensical (or add it at the end)."""
    extensions: list[Any] = config.markdown_extensions  # names, or Extension instances (MkDocs takes both)
    listed = [isinstance(ext, str) and ext in EXTENSION_NAMES for ext in extensions]
    for ext, is_ours in zip(extensions, listed, strict=True):
        if is_ours:
            config.mdx_configs.pop(ext, None)
    if any(listed):
        at = listed.index(True)
        others = [ext for ext, is_ours in zip(extensions, listed, strict=True) if not is_ours]
        extensions[:] = [*others[:at], extension, *others[at:]]
    else:
        extensions.append(extension)
