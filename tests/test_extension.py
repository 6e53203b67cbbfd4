"""The Python-Markdown extension on its own, as any Markdown host runs it: a page's ``[[digest …]]``
directives become the merged doc's fragments, ``[[cite …]]`` a numbered link, and a directive an
editor got wrong becomes a visible error on the page and a warning naming the page, never a crash.

No MkDocs here: ``markdown.Markdown`` with the extension, given a page context as a host gives it."""

from __future__ import annotations

import html as htmllib
import logging
import re

import markdown
import pytest
from helpers import ROOT, replace_in

from digest_plugin.core.pipeline import living_docs
from digest_plugin.hosts.extension import DigestExtension, PageContext, directives, makeExtension
from digest_plugin.site.layout import layouts


@pytest.fixture(scope="module")
def docs():
    return layouts(living_docs(ROOT / "data"))


def convert(docs, text: str, page: str = "inference/3.md") -> tuple[str, PageContext]:
    ctx = PageContext(docs, page)
    md = markdown.Markdown(extensions=[DigestExtension(context=lambda: ctx)])
    return md.convert(text), ctx


def test_a_section_directive_becomes_the_sections_entries_with_their_badges(docs):
    html, ctx = convert(docs, "# §3\n\n[[digest section=3]]\n")
    entries = re.findall(r'data-digest-entry="([^"]+)" data-section="(3[.\d]*)"', html)
    assert entries, "no entry of §3 on the page"
    assert {section.split(".")[0] for _, section in entries} == {"3"}
    assert "digest-badge" in html
    assert ctx.rendered, "the host is told what the directives gave (the preview keeps a digest of it)"


def test_every_entry_of_the_section_is_there_once(docs):
    doc = docs["inference"].doc
    expected = {e.id for e in doc.entries.values() if e.section.split(".")[0] == "3" and not e.retracted}
    html, _ = convert(docs, "[[digest section=3]]\n")
    shown = re.findall(r'data-digest-entry="([^"]+)"', html)
    assert expected <= set(shown)
    assert len(shown) == len(set(shown))


def test_a_directive_inside_a_sentence_is_left_as_written(docs):
    html, ctx = convert(docs, "See [[digest section=3]] for the rest.\n")
    assert "[[digest section=3]]" in html
    assert "data-digest-entry" not in html
    assert not ctx.rendered


@pytest.mark.parametrize(
    ("directive", "says"),
    [
        ("[[digest section=9]]", "unknown section §9"),
        ("[[digest section=3 register]]", "unknown or ambiguous digest directive"),
        ("[[digest sections=3]]", "use one of: section, register"),
        ("[[digest brief=2099-01-01-inference-E1]]", "unknown brief '2099-01-01-inference-E1'"),
        ("[[digest register month=2027-13]]", "month=2027-13 is not a month (write it like 2027-05)"),
        ("[[digest register topic=weather]]", "unknown topic 'weather'; known topics: inference"),
    ],
)
def test_a_wrong_directive_is_an_error_on_the_page_and_a_warning_naming_it(docs, caplog, directive, says):
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.digest"):
        html, _ = convert(docs, f"{directive}\n", page="inference/register.md")
    assert 'class="digest-error"' in html
    assert says in htmllib.unescape(html)
    assert any(
        r.getMessage().startswith(f"inference/register.md: {directive}: ") and says in r.getMessage()
        for r in caplog.records
    )


def test_without_data_the_page_says_what_to_configure(caplog):
    md = markdown.Markdown(extensions=[makeExtension()])  # no host context, no Zensical rendering context
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.digest"):
        html = md.convert("[[digest register]]\n")
    assert "no living-doc data is loaded (is the digest plugin or extension configured?)" in html
    assert caplog.records


def test_a_cite_becomes_a_numbered_link_and_an_unknown_one_stays_visible(docs, caplog):
    doc = docs["inference"].doc
    key, view = next(iter(doc.citations.items()))
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.digest"):
        html, _ = convert(docs, f"As [[cite {key}]] shows, and [[cite 9999.99999]] does not.\n", page="index.md")
    assert f"[{view.number}]" in html
    assert "[[cite 9999.99999]]" in html and 'class="digest-error"' in html
    assert any("no brief cites arXiv:9999.99999" in r.getMessage() for r in caplog.records)


def test_two_cites_of_one_paper_on_a_page_get_distinct_anchors(docs):
    key = next(iter(docs["inference"].doc.citations))
    html, _ = convert(docs, f"[[cite {key}]] and again [[cite {key}]].\n", page="index.md")
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids))


def test_brief_text_is_never_parsed_as_markdown(data_copy):
    """Fragments go through the raw-HTML stash: a title with ``__init__`` and ``*x*`` stays literal."""
    replace_in(
        data_copy / "briefs" / "2026-10-21-inference-E1.yml",
        'title: "llm-d 1.0 发布',
        'title: "__init__ and *x* [y](http://h) llm-d 1.0 发布',
    )
    html, _ = convert(layouts(living_docs(data_copy)), "[[digest section=5]]\n", page="inference/5.md")
    assert "__init__ and *x* [y](http://h) llm-d 1.0" in html
    assert "<strong>init</strong>" not in html and "<em>x</em>" not in html and 'href="http://h"' not in html


def test_the_directives_of_a_page_are_listed_with_their_arguments():
    page = "# x\n\n[[digest section=3.1]]\n\ntext [[digest register]] inline\n\n  [[digest register month=2027-05]]\n"
    assert directives(page) == [{"section": "3.1"}, {"register": None, "month": "2027-05"}]
