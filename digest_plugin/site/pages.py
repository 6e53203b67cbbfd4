"""Which pages the living doc generates, and the Markdown stub of each.

A stub holds only fixed words and a ``[[digest …]]`` directive: no brief text, so mkdocs-macros
(whose Jinja is not sandboxed) has nothing of the data to evaluate, and ``render_macros: false``
tells it not to try.  The same stubs can be written to disk for hosts that cannot generate
pages (Zensical).
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Iterable, Iterator, Mapping
from importlib.resources import files as package_files
from pathlib import Path

from ..core import labels
from ..core.doc import LivingDoc
from .changelog import months as night_months
from .changelog import night_redirect
from .feed import atom
from .layout import (
    ARCHIVE_PAGES,
    Layout,
    as_of_file,
    as_of_page,
    bibliography_page,
    brief_page,
    briefs_index_page,
    changes_page,
    feed_page,
    follow_ups_page,
    legend_page,
    night_file,
    register_page,
    section_page,
)
from .pastviews import past_files, past_redirect, views

CSS_PATH = "assets/digest/digest.css"
JS_PATH = "assets/digest/digest.js"
"""Closes a badge's tip on Esc (WCAG 1.4.13) and runs the filter bars; the site works without it."""
SEARCH_JS_PATH = "assets/digest/search.js"
"""The search box over Pagefind's index (with ``search: pagefind``), its words written above it."""


def stub(title: str, directive: str) -> str:
    return f"---\nrender_macros: false\n---\n\n# {title}\n\n{directive}\n"


ARCHIVE_NAMES = {
    "register": labels.PAGE_REGISTER,
    "follow-ups": labels.PAGE_FOLLOW_UPS,
    "bibliography": labels.PAGE_BIBLIOGRAPHY,
    "briefs": labels.PAGE_BRIEFS,
}


def archive_pages(layout: Layout) -> Iterator[tuple[str, str]]:
    """One page per archived month of each section, the register, follow-ups, bibliography and briefs."""
    topic = layout.topic
    for kind, months in layout.archive_months.items():
        for month in months:
            if kind.isdigit():  # no section title here: stubs carry no text from the data
                title = labels.PAGE_SECTION_ARCHIVE.format(section=kind, month=month)
                yield section_page(topic, kind, month), stub(title, f"[[digest section={kind} month={month}]]")
            else:
                title = labels.PAGE_ARCHIVE.format(name=ARCHIVE_NAMES[kind], month=month)
                yield ARCHIVE_PAGES[kind](topic, month), stub(title, f"[[digest {kind} month={month}]]")


MANIFEST = ".digest-pages"
"""Lists what `digest pages` wrote into the docs folder, so the next run can remove what is stale."""


def listed_pages(docs_dir: Path) -> set[str]:
    """What `digest pages` wrote into ``docs_dir`` last (the manifest): generated, not hand-written,
    even when still on disk after a Zensical preview."""
    manifest = Path(docs_dir) / MANIFEST
    return set(manifest.read_text(encoding="utf-8").split()) if manifest.is_file() else set()


def write_pages(
    docs_dir: Path,
    docs: Mapping[str, LivingDoc],
    site_url: str | None = None,
    directory_urls: bool = True,
    *,
    past: bool = False,
    past_data: bool = True,
) -> list[str]:
    """Write every generated page into ``docs_dir`` (for hosts that cannot generate pages); the past
    views' data too unless ``past_data`` is False (a build that makes it in a worker beside the host).

    Never overwrites a file it did not write itself: a hand-written page of the same path wins,
    as it does under the MkDocs plugin."""
    docs_dir = Path(docs_dir)
    manifest = docs_dir / MANIFEST
    before = listed_pages(docs_dir)
    written = []
    layouts = {topic: Layout(doc, past=past) for topic, doc in docs.items()}
    for path, content in generated_pages(layouts, site_url, directory_urls, past_data=past_data):
        target = docs_dir / path
        if target.exists() and path not in before:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)  # unchanged files keep their time: a host
        written.append(path)  # watching docs/ (``zensical serve``) sees only what changed
    for stale in sorted(before - set(written)):
        (docs_dir / stale).unlink(missing_ok=True)
    manifest.write_text("\n".join(written) + "\n", encoding="utf-8")
    return written


def search_script(*, preview: bool = False) -> str:
    """``search.js``: the search box's words as JSON data (escaped for a script), then the code; a
    preview's box says its index is made in the background and may miss the latest edits."""
    words = labels.SEARCH_UI | labels.SEARCH_UI_PREVIEW if preview else labels.SEARCH_UI
    data = json.dumps(words, ensure_ascii=True, sort_keys=True).replace("</", "<\\/")
    code = package_files("digest_plugin").joinpath("assets/search.js").read_text(encoding="utf-8")
    return f"window.DIGEST_SEARCH = {data};\n{code}"


def generated_pages(
    layouts: Mapping[str, Layout],
    site_url: str | None = None,
    directory_urls: bool = True,
    *,
    preview: bool = False,
    past_data: bool = True,
) -> Iterator[tuple[str, str | bytes]]:
    """(source path, content) of every generated file, in a fixed order (``preview``: a ``serve``
    preview's, whose search box says what its index may miss).  A page's content is its Markdown; a
    past view's data is bytes (gzip'd JSON), left out with ``past_data=False`` (a host that makes it
    beside the pages: :func:`past_data`)."""
    yield CSS_PATH, package_files("digest_plugin").joinpath("assets/digest.css").read_text(encoding="utf-8")
    yield JS_PATH, package_files("digest_plugin").joinpath("assets/digest.js").read_text(encoding="utf-8")
    yield SEARCH_JS_PATH, search_script(preview=preview)
    for topic, layout in layouts.items():
        yield register_page(topic), stub(labels.PAGE_REGISTER, "[[digest register]]")
        yield bibliography_page(topic), stub(labels.PAGE_BIBLIOGRAPHY, "[[digest bibliography]]")
        yield follow_ups_page(topic), stub(labels.PAGE_FOLLOW_UPS, "[[digest follow-ups]]")
        yield legend_page(topic), stub(labels.PAGE_LEGEND, "[[digest legend]]")
        yield briefs_index_page(topic), stub(labels.PAGE_BRIEFS, "[[digest briefs]]")
        yield from archive_pages(layout)
        yield feed_page(topic), atom(layout, site_url, directory_urls)
        for month in night_months(layout):
            title = labels.PAGE_CHANGES.format(month=month)
            yield changes_page(topic, month), stub(title, f"[[digest changes month={month}]]")
        for night in sorted({b.date for b in layout.doc.briefs}):
            yield night_file(topic, night, directory_urls), night_redirect(topic, night, directory_urls)
        if layout.past:
            yield from _past_pages(layout, directory_urls, past_data)
        for brief in layout.doc.briefs:
            # Only validated fields (date, slug, round) reach the heading: they cannot carry markup.
            title = labels.PAGE_BRIEF.format(date=brief.date.isoformat(), topic=brief.topic, round=brief.round)
            yield brief_page(brief), stub(title, f"[[digest brief={brief.id}]]")


def past_data(layouts: Mapping[str, Layout]) -> list[tuple[str, bytes]]:
    """Every topic's past views' data files (site path, bytes): what a worker makes beside the pages."""
    return [made for layout in layouts.values() if layout.past for made in past_files(layout)]


def write_into(site: Path, made: Iterable[tuple[str, bytes]]) -> None:
    """Files a worker made beside the host (:func:`past_data`), written into the built site."""
    for path, data in made:
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)


def _past_pages(layout: Layout, directory_urls: bool, data: bool = True) -> Iterator[tuple[str, str | bytes]]:
    """The past views' page, a permalink file per night and per view, and (``data``) their data."""
    topic = layout.topic
    yield as_of_page(topic), stub(labels.PAGE_PAST, "[[digest as-of]]")
    shown = views(layout)
    for night in sorted({b.date for b in layout.doc.briefs}):
        yield as_of_file(topic, night, None, directory_urls), past_redirect(topic, night, None, directory_urls)
        for view in shown:
            yield as_of_file(topic, night, view, directory_urls), past_redirect(topic, night, view, directory_urls)
    if data:
        yield from past_files(layout)


def with_as_of_banner(page: str, night: dt.date) -> str:
    """A finished page with the banner of a past view at the top of its body (``as_of``): on every host,
    so a reader never takes the doc of a past night for today's."""
    banner = (
        f'<div class="digest-as-of" role="note" data-digest-as-of="{night.isoformat()}" data-search-exclude '
        f"data-pagefind-ignore>"
        f"<p>{html.escape(labels.AS_OF_BANNER.format(night=night.isoformat()))}</p></div>"
    )
    return at_body_start(page, banner)


def at_body_start(page: str, fragment: str) -> str:
    """``page`` with ``fragment`` right after its ``<body …>`` tag (at the very start when it has none): where a
    banner goes that every page of a build carries (a past view's night, a preview's data errors)."""
    body = page.find("<body")
    end = page.find(">", body) + 1 if body >= 0 else 0
    return page[:end] + fragment + page[end:]
