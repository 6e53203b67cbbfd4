"""The renderer's markup as templates a site can override, the way Material's ``custom_dir`` and
mkdocstrings' ``custom_templates`` let a theme replace a partial.

Why templates, and why these rules:

* A site restyles an entry, a badge or a callout by copying one file from
  ``digest_plugin/templates/`` into its own folder (``custom_templates:`` in the plugin's or the
  extension's config) and editing it; nothing else changes.
* Templates are code from the work tree, and a pull request can change them, so they run in
  Jinja's *immutable sandbox*: no attribute that starts with ``_``, no Python internals, no
  mutation of the data.  They are given data as data (the merged doc's records and fragments
  already rendered); no string of a brief is ever compiled as a template.
* A record is named by a filter that writes its link as every page writes it: ``|brief_link``,
  ``|section_link``, ``|item_link``, ``|contradiction_link``, ``|cite``, ``|material``; a code by
  its vocabulary word, ``|word(kind)``, or a level by its tag, ``|level_tag``.  So a template is
  given records and codes, not links already made.
* Autoescaping is on, and every value a template prints without a filter goes through
  ``finalize``: plain strings are escaped *and withheld* by the renderer's one text path, so an
  override that prints ``{{ item.title }}`` cannot publish a withheld claim.  ``|text`` gives the
  same text as HTML with links (withheld marks, arXiv citations); fragments the renderer built are
  ``Markup`` and pass through as they are.
* ``undefined`` is strict: a template that names a value the renderer does not give fails the build
  with the template's name and line, instead of printing nothing.

This module is the render layer's own engine: it imports Jinja, which the pure core below it does
not, and nothing of a host (MkDocs, Python-Markdown), so it moves to Zensical with the renderer.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol

from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    FileSystemLoader,
    PackageLoader,
    StrictUndefined,
    Template,
    TemplateError,
    TemplateSyntaxError,
    pass_context,
)
from jinja2.runtime import Context, LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup, escape
from pydantic import BaseModel

from ..core import doc, model

TEMPLATES_PACKAGE = ("digest_plugin", "templates")
"""Where the shipped templates live (package data)."""


class TextPath(Protocol):
    """What templates need of the renderer: its one path from brief text to output, and the links a
    record is named by (a brief, a section, an item, a contradiction), each written the same way on
    every page."""

    def text(self, value: str, *, links: bool = True, quote: Any = None) -> str: ...
    def attr(self, value: str) -> str: ...
    def withholds(self, value: str) -> bool: ...
    def word(self, kind: str, code: str) -> str: ...
    def brief_link(self, brief: Any) -> str: ...
    def section_link(self, number: str) -> str: ...
    def item_link(self, item_id: str) -> str: ...
    def entry_link(self, entry_id: str) -> str: ...
    def contradiction_link(self, view: Any) -> str: ...
    def cite(self, view: Any, *, number: bool = True, card: bool = True) -> str: ...
    def material(self, path: str, anchor: str | None = None) -> str: ...
    def cited_by(self, count: Any) -> str: ...
    def level_tag(self, level: str) -> str: ...
    def located(self, html: str, brief: Any) -> str: ...
    def withheld(self, view: Any) -> str: ...
    def item_ref(self, brief: Any, item: Any) -> str: ...


TEXT_PATH = "digest:text-path"
"""Where a template's context holds the renderer: not a name a template can write, so an override
can neither call the renderer nor shadow it with ``{% set %}`` before an ``include``."""


def _renderer(context: Context) -> TextPath:
    renderer: TextPath = context.parent[TEXT_PATH]
    return renderer


@pass_context
def _finalize(context: Context, value: Any) -> Any:
    """Every printed value: anything but a number or a fragment the renderer built goes through the
    renderer's text path (escaped, withheld) — a list or a record printed whole too.

    A string in which nothing is withheld is left to autoescaping (markupsafe's C escape), the
    common case.  Exact types are tested first: this runs for every value every template prints
    (some 270,000 at 365 days)."""
    kind = type(value)
    if kind is Markup or kind is int or kind is float:
        return value
    if kind is not str:
        if isinstance(value, Markup) or (isinstance(value, int | float) and not isinstance(value, bool)):
            return value
        value = str(value)
    renderer: TextPath = context.parent[TEXT_PATH]
    if not renderer.withholds(value):
        return value
    return Markup(renderer.attr(value))


@pass_context
def _text(context: Context, value: Any, links: bool = True, quote: Any = None, here: Any = None) -> Markup:
    """``{{ x|text }}``: brief text as HTML with its links (withheld marks, arXiv citations);
    ``|text(links=false)`` for text inside a link of the template's own; ``|text(quote=view)`` in
    the callout of the contradiction ``view``, where its own withheld claims are quoted;
    ``|text(here=brief)`` for text of ``brief`` that points at its own layout (「见下方矛盾清单」,
    made a link that holds on every page)."""
    if isinstance(value, Markup):
        return value
    renderer = _renderer(context)
    html = renderer.text(str(value), links=links, quote=quote)
    return Markup(renderer.located(html, here) if here is not None else html)


@pass_context
def _escaped(context: Context, value: Any) -> Markup:
    """``|e`` and ``|escape``: escaped *and* withheld, like every other printed string."""
    return value if isinstance(value, Markup) else Markup(_renderer(context).attr(str(value)))


@pass_context
def _join(context: Context, values: Any, separator: str = "") -> Markup:
    """``|join``: Jinja's own escapes the plain items but does not withhold them."""
    return Markup(_escaped(context, separator)).join(_escaped(context, v) for v in values)


@pass_context
def _word(context: Context, code: Any, kind: str) -> Markup:
    """``{{ code|word("evidence_levels") }}``: a word of the topic's vocabulary, its label escaped."""
    return Markup(_renderer(context).word(kind, str(code)))


@pass_context
def _brief_link(context: Context, brief: Any) -> Markup:
    """``{{ brief|brief_link }}``: 「2026-10-21 E1 简报」 linked to the brief's page."""
    return Markup(_renderer(context).brief_link(brief))


@pass_context
def _section_link(context: Context, number: Any) -> Markup:
    """``{{ "3.1"|section_link }}``: 「§3.1」 linked to the section."""
    return Markup(_renderer(context).section_link(str(number)))


@pass_context
def _item_link(context: Context, item_id: Any) -> Markup:
    """``{{ item_id|item_link }}``: the item's title (withheld like all brief text) linked to its entry."""
    return Markup(_renderer(context).item_link(str(item_id)))


@pass_context
def _entry_link(context: Context, entry_id: Any) -> Markup:
    """``{{ entry_id|entry_link }}``: 「§3.1 title」 (the title withheld like all brief text) linked to the entry."""
    return Markup(_renderer(context).entry_link(str(entry_id)))


@pass_context
def _contradiction_link(context: Context, view: Any) -> Markup:
    """``{{ view|contradiction_link }}``: 「矛盾 3」 linked to its callout in the register."""
    return Markup(_renderer(context).contradiction_link(view))


@pass_context
def _cite(context: Context, view: Any, number: bool = True, card: bool = True) -> Markup:
    """``{{ citation|cite }}``: the paper's numbered link, with its card (``citation.html``);
    ``|cite(number=false, card=false)`` the bare link to arXiv (a bibliography entry's own)."""
    return Markup(_renderer(context).cite(view, number=number, card=card))


@pass_context
def _cited_by(context: Context, count: Any) -> Markup:
    """``{{ count|cited_by }}``: 「被引 4677（S2，截至 2026-10-21）」, as the citation card writes it."""
    return Markup(_renderer(context).cited_by(count))


@pass_context
def _material(context: Context, material: Any) -> Markup:
    """``{{ material|material }}``: a path of the round's materials as code, and the place in it
    (or a path alone: a paper's card)."""
    if isinstance(material, str):
        return Markup(_renderer(context).material(material))
    return Markup(_renderer(context).material(material.path, material.anchor))


@pass_context
def _item_ref(context: Context, brief: Any, item: Any) -> Markup:
    """``{{ brief|item_ref(item) }}``: 「2026-10-21 E1 简报 条目 4」 linked to the item on the brief's page."""
    return Markup(_renderer(context).item_ref(brief, item))


@pass_context
def _withheld(context: Context, view: Any) -> Markup:
    """``{{ view|withheld }}``: the mark that stands where the contradiction ``view`` withholds a value."""
    return Markup(_renderer(context).withheld(view))


@pass_context
def _level_tag(context: Context, level: Any) -> Markup:
    """``{{ code|level_tag }}``: an evidence level where a statement is named (``level_tag.html``)."""
    return Markup(_renderer(context).level_tag(str(level)))


def _escape(value: Any) -> Markup:
    """markupsafe's ``escape``, less a copy: a fragment already ``Markup`` is returned as it is
    (``escape`` wraps it in a new ``Markup`` each time, some 100,000 times a build at 365 days)."""
    return value if type(value) is Markup else escape(value)


class _Template(Template):
    """Jinja's template, its printed values escaped by :func:`_escape` (the same escaping)."""

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Template:
        namespace["escape"] = _escape  # the compiled code's `escape(finalize(value))`
        return super()._from_namespace(environment, namespace, globals)


def _record_types() -> frozenset[type]:
    """The merged doc's records and the brief's models (every class of ``core.doc`` and
    ``core.model``: frozen dataclasses, pydantic models, enums), the renderer's word sheets, and
    Jinja's own ``loop`` (``loop.first``, ``loop.index0``: properties over the loop's counters)."""
    found = {v for m in (doc, model) for v in vars(m).values() if isinstance(v, type) and v.__module__ == m.__name__}
    return frozenset({*found, SimpleNamespace, LoopContext})


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, with a fast path for reading a record's data fields.

    Templates are given records (``entry.item.evidence.level``, ``u.change.label``): a callout reads
    some forty fields, and the sandbox's checks of each (is it internal, could it mutate a known
    container) cost more than the rest of the template.  On one of this package's own records
    (:data:`RECORD_TYPES`, no frames, code or generators among them), a field whose name has no
    leading ``_`` and whose value cannot be called is only data: reading it runs nothing the plain
    ``getattr`` before the checks did not already run, and a container so read is checked again when
    a template reaches for one of its methods.  A row given as a dict is read by its key when the key
    is no name of a dict's own.  Everything else takes the sandbox's own path."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        kind = type(obj)
        if attribute[:1] != "_":
            if kind is dict:
                if attribute in obj and not hasattr(dict, attribute):
                    return obj[attribute]
            elif kind in RECORD_TYPES:
                if (refused := self._refused(obj, attribute)) is not None:
                    return refused
                value = getattr(obj, attribute, _MISSING)
                if value is not _MISSING and not callable(value):
                    return value
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``f["current"]`` reads an attribute too (Jinja falls back to ``getattr``): refused alike."""
        if isinstance(argument, str) and (refused := self._refused(obj, argument)) is not None:
            return refused
        return super().getitem(obj, argument)

    def _refused(self, obj: Any, name: str) -> Any:
        """What a template may not read of a record, by attribute or subscript alike: an undefined that
        fails the build at the template's line, or None when ``name`` may be read."""
        if type(obj) is doc.FigureState:
            return self._withheld_value(obj, name)
        if name == "figures" and type(obj) in STATED_FIGURES:
            return self._stated_figures(obj)
        return None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """A pydantic record's own methods (``model_dump``, ``dict``, ``json`` …) are not for
        templates: they would hand over every field at once, the figures refused below among them."""
        if isinstance(obj, BaseModel) and (attr.startswith("model_") or attr in PYDANTIC_METHODS):
            return False
        return bool(super().is_safe_attribute(obj, attr, value))

    def _stated_figures(self, obj: Any) -> Any:
        """The figures a brief's item (or the outline) stated, as written: they do not know what an open
        contradiction withholds or a correction showed wrong, so no template reads them."""
        return self.undefined(
            f"{type(obj).__name__.lower()} {getattr(obj, 'id', '')!r}: the figures it stated do not know what is "
            "withheld or corrected; read the entry's figures (entry.figures), which do",
            obj=obj,
            name="figures",
        )

    def _withheld_value(self, obj: Any, attribute: str) -> Any:
        """An undefined that fails the build at the template's line, for a figure's value no template
        may print: any value of a figure an open contradiction withholds, and the figure's whole
        ``history``, which keeps the values a correction showed wrong (``earlier`` leaves them out)."""
        if attribute == "history":
            return self.undefined(
                f"figure {obj.key!r}: its history keeps values shown wrong; read its earlier values (.earlier)",
                obj=obj,
                name=attribute,
            )
        if obj.withheld_by is not None and attribute in WITHHELD_FIGURE:
            return self.undefined(
                f"the value of figure {obj.key!r} is withheld by contradiction {obj.withheld_by.id!r}: "
                "print the figure's label and mark it withheld (|withheld), not its value",
                obj=obj,
                name=attribute,
            )
        return None


_MISSING = object()
WITHHELD_FIGURE = frozenset({"current", "history", "earlier", "series"})
"""What a template may not read of a figure an open contradiction withholds: any of its values (its
key, label and ``withheld_by`` stay readable).  A value is a number, which no withheld spelling
matches, so the text path alone could not stop an override from printing it; read by attribute or
by subscript (``f["current"]``) alike."""
RECORD_TYPES = _record_types()
STATED_FIGURES = frozenset({model.Item, model.Entry})
"""Records whose ``figures`` are values as a brief stated them, before the merge decided which are
withheld: refused to templates (see :meth:`_Sandbox._stated_figures`)."""
PYDANTIC_METHODS = frozenset({"dict", "json", "copy", "construct", "schema", "schema_json", "parse_obj", "validate"})


UNSAFE_FILTERS = ("safe", "forceescape", "tojson", "urlize", "xmlattr")
"""Filters that turn a plain string into markup without the text path: not available to templates."""


@functools.lru_cache(maxsize=16)
def environment(overrides: tuple[str, ...] = ()) -> _Sandbox:
    """One sandboxed environment per set of override folders (kept for the process: Jinja caches
    compiled templates in it, and checks a file's time stamp, so ``mkdocs serve`` sees edits)."""
    loaders: list[BaseLoader] = [FileSystemLoader(list(overrides))] if overrides else []
    loaders.append(PackageLoader(*TEMPLATES_PACKAGE))
    env = _Sandbox(
        loader=ChoiceLoader(loaders),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=True,
    )
    env.template_class = _Template
    for name in UNSAFE_FILTERS:
        del env.filters[name]
    env.filters.update(
        text=_text,
        e=_escaped,
        escape=_escaped,
        join=_join,
        word=_word,
        brief_link=_brief_link,
        section_link=_section_link,
        item_link=_item_link,
        entry_link=_entry_link,
        contradiction_link=_contradiction_link,
        cite=_cite,
        material=_material,
        cited_by=_cited_by,
        level_tag=_level_tag,
        withheld=_withheld,
        item_ref=_item_ref,
    )
    return env


class Templates:
    """The templates one page is rendered with; each is looked up once per page."""

    def __init__(self, overrides: tuple[str, ...] = ()) -> None:
        self.overrides = overrides
        self._env = environment(overrides)
        self._loaded: dict[str, Template] = {}
        self._globals = dict(self._env.globals)

    def render(self, name: str, renderer: TextPath, data: Mapping[str, Any]) -> str:
        """``Template.render``, less its cost per call: Jinja builds each call's context from the
        template's globals, a ``ChainMap`` it walks twice (5 of 8 µs for a two-value template, and
        a brief's page renders hundreds of fragments).  Here the globals are copied into a plain
        dict once; the context, the render and the error handling are Jinja's own."""
        env = self._env
        try:
            template = self._loaded.get(name)
            if template is None:
                template = self._loaded[name] = env.get_template(name)
            context = env.context_class(env, {**self._globals, **data, TEXT_PATH: renderer}, name, template.blocks)
            try:
                return env.concat(template.root_render_func(context))
            except Exception:
                env.handle_exception()  # raises it again, its traceback in template lines
                raise
        except TemplateError as exc:
            raise TemplateProblem(_where(exc, name) + f": {exc.message or type(exc).__name__}") from None


class TemplateProblem(Exception):
    """A template (the site's override, most likely) that cannot be rendered: ``file:line: why``."""


def _where(exc: TemplateError, name: str) -> str:
    """``path:line`` of the template line that failed (Jinja puts template lines in the traceback)."""
    if isinstance(exc, TemplateSyntaxError):
        return f"{exc.filename or name}:{exc.lineno}"
    tb = exc.__traceback__
    found = name
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(".html"):
            found = f"{filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found


def override_folders(root: Path, configured: str | None) -> tuple[str, ...]:
    """The site's override folder (``custom_templates``, relative to the config file) if it has one.

    A configured folder that does not exist is an error the editor must see, not a silent fallback
    to the shipped look."""
    if not configured:
        return ()
    folder = (root / configured).resolve()
    if not folder.is_dir():
        raise FileNotFoundError(
            f"custom_templates: {configured}: no such folder (relative to {root}); "
            "create it and copy the templates to change from digest_plugin/templates/, or remove the option"
        )
    return (str(folder),)
