"""Markup in templates a site can override (issue 15): a site replaces one template by putting a
file of the same name in its ``custom_templates`` folder; templates run sandboxed, autoescaped,
given data as data, and cannot print a withheld claim.

Facts come from the shipped brief (its Kapitsa item withholds 「+175 周增」 through 矛盾 1).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, brief_item, copy_project, later_brief, reshaping_changes

from digest_plugin.core.merge import merge
from digest_plugin.site.layout import Layout, Linker
from digest_plugin.site.render import Renderer
from digest_plugin.site.templating import TemplateProblem, Templates, override_folders
from digest_plugin.site.text import Raw

WITHHELD = "+175 周增"
"""What 矛盾 1 of the shipped brief withholds (data/briefs/2026-10-21-inference-E1.yml)."""
SHIPPED = ROOT / "digest_plugin" / "templates"


@pytest.fixture(scope="module")
def layout(shipped):
    return Layout(merge(shipped.outlines["inference"], shipped.briefs))


def section_one(layout: Layout, overrides: Path | None = None) -> str:
    templates = Templates((str(overrides),) if overrides else ())
    renderer = Renderer(layout, Linker("inference/1.md"), templates=templates)
    return "".join(b.html for b in renderer.section("1") if isinstance(b, Raw))


def override(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_every_shipped_template_is_documented_at_its_top():
    names = sorted(p.name for p in SHIPPED.glob("*.html"))
    assert {"entry.html", "badge.html", "callout.html", "citation.html", "item.html"} <= set(names)
    for name in names:
        head = (SHIPPED / name).read_text(encoding="utf-8").lstrip()
        assert head.startswith("{#") and "Given:" in head.split("#}")[0], f"{name}: say what it is given"


def test_a_site_replaces_one_template_and_keeps_the_others(layout, tmp_path):
    folder = override(
        tmp_path / "templates",
        "badge.html",
        '<span class="team-badge" data-level="{{ level }}">{{ level_word }}</span>',
    )
    html = section_one(layout, folder)
    assert 'class="team-badge" data-level="unverified">未核实</span>' in html  # the site's badge
    assert 'class="digest-badge" data-evidence=' not in html  # no shipped badge left
    assert 'class="digest-entry' in html and "digest-contradiction" in html  # the shipped entry and callout


def test_a_template_cannot_print_a_withheld_claim_however_it_prints_the_text(layout, tmp_path):
    shipped_entry = (SHIPPED / "entry.html").read_text(encoding="utf-8")
    ways = [
        "{{ item.points }}",  # a list printed whole
        "{{ item.points[0] }}",
        "{{ item.points[0]|e }}",
        "{{ item.points|join(' ') }}",
        "{{ item.points[0]|upper|lower }}",
        "{{ item.title ~ '' }}",
        "{{ item }}",  # a record printed whole
    ]
    extra = "".join(f"<p data-way='{n}'>{{% if item %}}{w}{{% endif %}}</p>" for n, w in enumerate(ways))
    folder = override(tmp_path / "templates", "entry.html", shipped_entry.replace("</section>", extra + "</section>"))
    html = section_one(layout, folder)
    printed = re.findall(r"<p data-way='\d+'>(.*?)</p>", html)
    assert printed and len(printed) % len(ways) == 0  # each entry with an item printed each way
    for n, out in enumerate(printed):
        assert WITHHELD not in out and "周增 +175" not in out, (ways[n % len(ways)], out)
    assert any("〔暂扣" in out for out in printed)  # the withheld spelling became its mark


@pytest.mark.parametrize(
    "body",
    [
        "{{ item.title|safe }}",
        "{{ item.title|tojson }}",
        "{{ ''.__class__.__mro__ }}",
        "{{ entry.__class__ }}",
        # a generator's frame is no record's field; a record's list has methods the sandbox checks
        "{% if entry.item %}{{ (entry.item.points|map('upper')).gi_frame }}{% endif %}",
        "{% if entry.item %}{{ entry.item.points.append }}{% endif %}",
        "{{ no_such_value }}",
        "{{ renderer.text(item.title) }}",  # the renderer is not a template's to call or shadow
    ],
)
def test_what_a_sandboxed_template_may_not_do_fails_with_the_template_and_line(layout, tmp_path, body):
    folder = override(tmp_path / "templates", "entry.html", "<section>\n" + body + "\n</section>")
    with pytest.raises(TemplateProblem) as caught:
        section_one(layout, folder)
    message = str(caught.value)
    assert "entry.html:2" in message, message


def test_brief_text_that_looks_like_a_template_stays_text(shipped, tmp_path):
    brief = shipped.briefs[0]
    item = brief.items[0].model_copy(update={"title": "{{ 7*7 }} {% raw %}<b>x</b>"})
    brief = brief.model_copy(update={"items": [item, *brief.items[1:]]})
    layout = Layout(merge(shipped.outlines["inference"], [brief]))
    section = layout.doc.items[item.id].entry_id
    number = layout.doc.entries[section].section.split(".")[0]
    renderer = Renderer(layout, Linker(f"inference/{number}.md"))
    html = "".join(b.html for b in renderer.section(number) if isinstance(b, Raw))
    assert "{{ 7*7 }} {% raw %}&lt;b&gt;x&lt;/b&gt;" in html and ">49<" not in html


def test_a_missing_override_folder_is_named_with_the_fix(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"custom_templates: nope: no such folder .* copy the templates"):
        override_folders(tmp_path, "nope")
    assert override_folders(tmp_path, None) == ()


def test_the_site_builds_with_an_override_from_mkdocs_yml(tmp_path):
    root = copy_project(tmp_path)
    override(root / "theme-digest", "level.html", '<span class="team-level">{{ level_word }}</span>')
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  - digest:\n", "  - digest:\n      custom_templates: theme-digest\n", 1))
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    page = (root / "site" / "inference" / "1" / "index.html").read_text(encoding="utf-8")
    assert '<span class="team-level">未核实</span>' in page
    shutil.rmtree(root / "theme-digest")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root, capture_output=True, text=True)
    assert done.returncode != 0 and "custom_templates: theme-digest: no such folder" in done.stderr


@pytest.mark.parametrize("way", ["{{ s }}", "{{ s|e }}", "{{ [s, s]|join(' ') }}", "<a title='{{ s }}'>x</a>"])
def test_a_brief_string_with_markup_and_a_withheld_claim_prints_escaped_every_way(layout, tmp_path, way):
    """A site's own template prints a brief string that holds markup *and* a withheld claim: the claim
    becomes its mark and the markup stays text, whether printed plain, with ``|e`` or ``|join``
    (issue 33, 6: ``Renderer.attr`` without its escaping let raw HTML through every one of them)."""
    folder = override(tmp_path / "templates", "probe.html", f"<p>{way}</p>")
    templates = Templates((str(folder),))
    renderer = Renderer(layout, Linker("inference/1.md"), templates=templates)
    out = templates.render("probe.html", renderer, {"s": f"<b onmouseover=\"x\">{WITHHELD}</b> 与 '引号'"})
    assert "<b" not in out and 'onmouseover="' not in out and WITHHELD not in out, out
    assert "&lt;b onmouseover=&#34;x&#34;&gt;" in out or "&lt;b onmouseover=&quot;x&quot;&gt;" in out, out
    assert "〔暂扣" in out, out


# --------------------------------------------------------------------------- overrides fed records
# Issue 31: the entry, the callout, the history and the overview are templates given the merged
# doc's records (not HTML the renderer made), so a site's override can lay them out its own way.
# Facts come from the lifecycle nights: Kapitsa (§1) refreshed in place three times, its weekly gain
# withheld by a contradiction that is settled and reopened.


@pytest.fixture(scope="module")
def lived(lifecycle):
    return Layout(merge(lifecycle.outlines["inference"], lifecycle.briefs))


def rendered(layout: Layout, page: str, blocks, folder: Path) -> str:
    renderer = Renderer(layout, Linker(page), templates=Templates((str(folder),)))
    return "".join(b.html for b in blocks(renderer) if isinstance(b, Raw))


def test_a_history_override_gets_every_change_of_the_entry_as_a_record(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "history.html",
        '<table class="team-history">{% for row in rows %}<tr data-kind="{{ row.kind }}">'
        "<td>{{ row.brief.date if row.brief else '' }}</td>"
        "<td>{{ row.change.text if row.change else row.hidden }}</td></tr>{% endfor %}</table>",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    kapitsa = lived.doc.entries["kapitsa"]
    table = re.search(r'data-digest-entry="kapitsa".*?<table class="team-history">(.*?)</table>', html, re.S)
    assert table is not None and "digest-history" not in html
    kinds = re.findall(r'<tr data-kind="([^"]+)">', table.group(1))
    assert kinds == [u.kind for u in kapitsa.history] and kinds[0] == "baseline"
    dates = re.findall(r"<td>(2026-10-\d\d)</td>", table.group(1))
    assert dates == [u.brief.date.isoformat() for u in kapitsa.history if u.brief is not None]


def test_an_overview_override_gets_the_counts_and_the_briefs(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "overview.html",
        '<div class="team-overview" data-open="{{ open|length }}" data-latest="{{ latest.id }}">'
        '{% for s in sections %}<b data-section="{{ s.number }}">{{ s.entries }}/{{ s.open }}</b>{% endfor %}'
        "{% for row in timeline %}<i>{{ row.brief.id }}</i>{% endfor %}</div>",
    )
    html = rendered(lived, "inference/index.md", lambda r: r.overview(), folder)
    doc = lived.doc
    assert "digest-overview" not in html and "digest-timeline" not in html
    assert f'data-open="{sum(c.is_open for c in doc.contradictions)}"' in html
    assert f'data-latest="{doc.briefs[-1].id}"' in html
    assert re.findall(r"<i>([^<]+)</i>", html) == sorted((b.id for b in doc.briefs), reverse=True)
    counts = dict(re.findall(r'<b data-section="(\d+)">(\d+/\d+)</b>', html))
    assert list(counts) == ["1", "2", "3", "4", "5", "6"]
    first = [doc.sections["1"], *doc.children("1")]
    assert counts["1"].split("/")[0] == str(sum(not e.retracted for s in first for e in s.entries))


def test_a_callout_override_gets_the_story_and_still_cannot_print_a_withheld_claim(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "callout.html",
        '<aside class="team-callout" data-id="{{ id }}">{{ contradiction.title|text(quote=view) }}'
        "{% for brief, change in view.history %}<s>{{ brief.id }} {{ change.change.value }}</s>{% endfor %}"
        "{% for w in contradiction.withheld %}<q>{{ w.text }}</q>{% endfor %}</aside>",
    )
    html = rendered(lived, "inference/register.md", lambda r: r.register(), folder)
    doc = lived.doc
    assert "data-digest-contradiction=" not in html  # no shipped callout left
    assert sorted(re.findall(r'<aside class="team-callout" data-id="([^"]+)"', html)) == sorted(
        c.id for c in doc.contradictions
    )
    gain = doc.contradiction("kapitsa-weekly-gain")
    assert gain is not None and gain.is_open and gain.history  # settled, then reopened
    aside = re.search(r'data-id="kapitsa-weekly-gain">(.*?)</aside>', html, re.S).group(1)
    assert re.findall(r"<s>(\S+) (\w+)</s>", aside) == [(b.id, u.change.value) for b, u in gain.history]
    quoted = re.findall(r"<q>(.*?)</q>", aside)
    assert quoted and all("175" not in q and "〔暂扣" in q for q in quoted)  # printed plainly: withheld


def test_an_entry_override_gets_the_entry_and_its_item(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "entry.html",
        '<article class="team-entry" data-id="{{ entry.id }}" data-section="{{ entry.section }}">'
        "{{ entry.title|text }}{% if entry.item %} · {{ entry.item.evidence.level|word('evidence_levels') }}"
        "{% endif %}</article>",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    doc = lived.doc
    assert '<section class="digest-entry' not in html  # no shipped entry left
    shown = re.findall(r'<article class="team-entry" data-id="([^"]+)" data-section="([^"]+)">', html)
    assert ("kapitsa", doc.entries["kapitsa"].section) in shown
    assert all(doc.entries[i].section.split(".")[0] == "1" for i, _ in shown)
    kapitsa = re.search(r'data-id="kapitsa"[^>]*>(.*?)</article>', html).group(1)
    level = doc.entries["kapitsa"].item.evidence.level
    assert kapitsa.endswith(" · " + doc.vocabulary.label("evidence_levels", level))


def test_a_figures_override_gets_each_figure_as_data_and_cannot_print_a_withheld_value(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "figures.html",
        '<dl class="team-figures">{% for f in rows %}<dt data-key="{{ f.key }}">{{ f.label }}</dt>'
        "<dd>{{ f.value }}|{{ f.older|length }}|{{ 'held' if f.withheld_by else '' }}</dd>{% endfor %}</dl>",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    kapitsa = lived.doc.entries["kapitsa"]
    block = re.search(r'data-digest-entry="kapitsa".*?<dl class="team-figures">(.*?)</dl>', html, re.S)
    assert block is not None and "digest-figures" not in html
    assert re.findall(r'data-key="([^"]+)"', block.group(1)) == [f.key for f in kapitsa.figures]
    values = dict(
        zip(
            re.findall(r'data-key="([^"]+)"', block.group(1)),
            re.findall(r"<dd>(.*?)</dd>", block.group(1)),
            strict=True,
        )
    )
    stars = next(f for f in kapitsa.figures if f.key == "stars")
    assert values["stars"] == f"{stars.current.value} {stars.current.unit}|{len(stars.earlier)}|"
    gain = next(f for f in kapitsa.figures if f.key == "weekly-gain")
    assert gain.withheld_by is not None
    held = values["weekly-gain"]  # no value is given for a withheld figure, none earlier either
    assert held == "|0|held" and str(gain.current.value) not in block.group(1)


def test_an_item_details_override_gets_the_sources_and_contradictions_as_records(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "item_details.html",
        '<ul class="team-details" data-item="{{ item.id }}">{% for s in sources %}<li data-kind="{{ s.kind }}">'
        "{{ s.host if s.kind == 'link' else '' }}</li>{% endfor %}"
        "{% for c in related %}<b>{{ c.id }}</b>{% endfor %}</ul>",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    doc = lived.doc
    assert "digest-sources" not in html and "digest-points" not in html
    kapitsa = doc.entries["kapitsa"].item
    block = re.search(rf'<ul class="team-details" data-item="{kapitsa.id}">(.*?)</ul>', html, re.S)
    assert block is not None
    kinds = re.findall(r'data-kind="(\w+)"', block.group(1))
    assert kinds.count("material") == len(kapitsa.sources.materials)
    assert kinds.count("link") + kinds.count("plain") == len(kapitsa.sources.urls)
    assert re.findall(r"<b>([^<]+)</b>", block.group(1)) == [
        c.id for c in doc.contradictions_by_item.get(kapitsa.id, [])
    ]


def test_an_item_head_override_gets_the_evidence_and_the_rendered_badge(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "item_head.html",
        '<p class="team-head" data-item="{{ item.id }}" data-level="{{ evidence.level }}">{{ badge }}'
        "{{ evidence.boundary }}</p>",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    kapitsa = lived.doc.entries["kapitsa"]
    head = re.search(rf'<p class="team-head" data-item="{kapitsa.item.id}" data-level="([^"]+)">(.*?)</p>', html, re.S)
    assert head is not None and head.group(1) == kapitsa.evidence.level
    assert 'class="digest-badge"' in head.group(2) and "digest-boundary" not in html


def test_an_override_cannot_read_the_value_of_a_withheld_figure_from_the_record(lived, tmp_path):
    """A figure's value is a number, which no withheld spelling matches: the sandbox refuses it, with
    the template's name and line, rather than let an override print 55 where the site shows 〔暂扣〕."""
    folder = override(
        tmp_path / "templates",
        "entry.html",
        "<section>{% for f in entry.figures %}<i>{{ f.key }}={{ f.current.value }}</i>{% endfor %}</section>",
    )
    with pytest.raises(TemplateProblem) as problem:
        rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    assert str(problem.value).startswith(str(folder / "entry.html") + ":1:")
    assert "figure 'weekly-gain' is withheld by contradiction 'kapitsa-weekly-gain'" in str(problem.value)


@pytest.mark.parametrize(
    ("when", "read", "says"),
    [
        ("f.withheld_by", 'f["current"].value', "figure 'weekly-gain' is withheld"),
        ("f.withheld_by", 'f|attr("earlier")|length', "figure 'weekly-gain' is withheld"),
        ("true", "f.history|length", "its history keeps values shown wrong"),
    ],
)
def test_a_withheld_or_corrected_figure_value_is_refused_however_it_is_read(lived, tmp_path, when, read, says):
    """By subscript, by the ``attr`` filter, or through the history that keeps values a correction
    showed wrong: each fails the build at the template's line."""
    folder = override(
        tmp_path / "templates",
        "entry.html",
        "<section>{% for f in entry.figures %}{% if " + when + " %}<i>{{ " + read + " }}</i>{% endif %}"
        "{% endfor %}</section>",
    )
    with pytest.raises(TemplateProblem) as problem:
        rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    assert says in str(problem.value)


@pytest.mark.parametrize(
    ("read", "says"),
    [
        ("entry.item.figures|length", "the figures it stated do not know what is withheld"),
        ('entry.item["figures"]|length', "the figures it stated do not know what is withheld"),
        ('entry.item|attr("figures")|length', "the figures it stated do not know what is withheld"),
        ("entry.item.model_dump()", "unsafe"),
        ("entry.item.dict()", "unsafe"),
    ],
)
def test_the_figures_an_item_stated_are_refused_to_templates(lived, tmp_path, read, says):
    """The item's own figures are the values as its brief stated them: 55 for Kapitsa's weekly gain,
    which the merged entry withholds.  Only the entry's figures know that; the item's are refused, and
    so is dumping the whole record at once."""
    folder = override(
        tmp_path / "templates",
        "entry.html",
        "<section>{% if entry.item and entry.id == 'kapitsa' %}<i>{{ " + read + " }}</i>{% endif %}</section>",
    )
    with pytest.raises(TemplateProblem) as problem:
        rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    assert str(problem.value).startswith(str(folder / "entry.html") + ":1:")
    assert says in str(problem.value)


def test_a_reference_override_gets_what_is_known_of_a_paper_as_rows(lived, tmp_path):
    """The bibliography's entries: each fact as a (kind, value) row, in the order the site shows them."""
    folder = override(
        tmp_path / "templates",
        "reference.html",
        '<div class="team-ref" data-arxiv="{{ key }}">{% for kind, v in meta %}'
        '<i data-kind="{{ kind }}">{{ v.value if kind == "cited_by" else "" }}</i>{% endfor %}'
        "<b>{{ back_links|length if back_links is not none else 'none' }}</b></div>",
    )
    html = rendered(lived, "inference/bibliography.md", lambda r: r.bibliography(), folder)
    assert "digest-ref__meta" not in html
    views = sorted(lived.doc.citations.values(), key=lambda v: v.number)
    shown = re.findall(r'<div class="team-ref" data-arxiv="([^"]+)">(.*?)<b>(\w+)</b></div>', html, re.S)
    assert [key for key, _, _ in shown] == [v.citation.arxiv.split("v")[0] for v in views]
    for view, (_key, rows, back) in zip(views, shown, strict=True):
        kinds = re.findall(r'data-kind="(\w+)"', rows)
        assert kinds[-1] == "verified" and kinds.count("cited_by") == len(view.latest_counts)
        counts = [int(n) for n in re.findall(r'data-kind="cited_by">(\d+)<', rows)]
        assert counts == [x.value for x in view.latest_counts]
        assert back == str(len(lived.cited_at(view.citation.arxiv.split("v")[0])))


def test_a_follow_up_override_gets_its_items_and_its_story_as_records(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "follow_up.html",
        '<li class="team-fu" data-id="{{ id }}">{% for i in items %}<i>{{ i }}</i>{% endfor %}'
        "{% for brief, u in view.history %}<s>{{ brief.date.isoformat() }} {{ u.status.value }}</s>{% endfor %}</li>",
    )
    html = rendered(lived, "inference/follow-ups.md", lambda r: r.follow_ups(), folder)
    assert "digest-follow-up__meta" not in html
    rows = dict(re.findall(r'<li class="team-fu" data-id="([^"]+)">(.*?)</li>', html, re.S))
    assert rows and set(rows) == {f.follow_up.id for f in lived.doc.follow_ups}
    for f in lived.doc.follow_ups:
        assert re.findall(r"<i>([^<]+)</i>", rows[f.follow_up.id]) == [
            i for i in f.follow_up.items if i in lived.doc.items
        ]
        story = re.findall(r"<s>(\S+) (\w+)</s>", rows[f.follow_up.id])
        assert story == [(b.date.isoformat(), u.status.value) for b, u in f.history]
    assert any(f.history for f in lived.doc.follow_ups)  # the lifecycle nights close or carry some over


# Issue 31, the rest of the fragments: a brief's changes, errata and questions, an entry's notices
# (moved here, split, corrected) and dispute tags, where a moved entry went, and the archive links
# are templates given records too.  One night after the shipped brief makes each of them happen.

RESHAPE = reshaping_changes()
ITEMS = [
    *RESHAPE.pop("items"),
    brief_item(
        "night-3",
        3,
        "KV 缓存压缩",
        {"section": "2.6", "action": "new_section", "section_title": "KV 缓存压缩", "text": "新建 §2.6。"},
    ),
]
RESHAPED = later_brief(
    items=ITEMS,
    **RESHAPE,
    questions=[
        {
            "id": "night-1-placement",
            "at": "items[0].placement",
            "ask": "条目 1 是新增子条目，还是更新「TPU 后端」？",
            "reading": "新增子条目",
            "context": "§1.1 新增。",
            "choices": [
                {"label": "新增子条目", "set": {}},
                {"label": "更新 TPU 后端", "set": {"entry": "torchtpu-backends"}},
            ],
        }
    ],
)


@pytest.fixture(scope="module")
def reshaped(shipped):
    return Layout(merge(shipped.outlines["inference"], [*shipped.briefs, RESHAPED]))


def test_a_questions_override_gets_each_question_and_its_choices(reshaped, tmp_path):
    folder = override(
        tmp_path / "templates",
        "questions.html",
        '{% for q in questions %}<div class="team-q" data-id="{{ q.id }}" data-at="{{ q.at }}">'
        "{% for c in q.choices %}<i>{{ c.label }}</i>{% endfor %}</div>{% endfor %}",
    )
    html = rendered(reshaped, "inference/briefs/2026-10-22-inference-E1.md", lambda r: r.brief(RESHAPED.id), folder)
    assert "digest-questions" not in html
    assert re.findall(r'<div class="team-q" data-id="([^"]+)" data-at="([^"]+)">', html) == [
        ("night-1-placement", "items[0].placement")
    ]
    assert re.findall(r"<i>([^<]+)</i>", html) == ["新增子条目", "更新 TPU 后端"]


def test_an_errata_override_gets_each_erratum_on_both_briefs(reshaped, tmp_path):
    folder = override(
        tmp_path / "templates",
        "errata.html",
        '{% for r in made %}<p class="team-made" data-item="{{ r.item }}" data-of="{{ r.earlier.id }}">'
        "{{ r.erratum.old }}→{{ r.erratum.new }}</p>{% endfor %}"
        '{% for r in received %}<p class="team-got" data-by="{{ r.brief.id }}">{{ r.erratum.new }}</p>{% endfor %}',
    )
    later = rendered(reshaped, "inference/briefs/x.md", lambda r: r.brief(RESHAPED.id), folder)
    earlier = rendered(reshaped, "inference/briefs/y.md", lambda r: r.brief("2026-10-21-inference-E1"), folder)
    assert "digest-erratum" not in later + earlier
    made = '<p class="team-made" data-item="llm-d-1-0" data-of="2026-10-21-inference-E1">500+ 贡献者→550+ 贡献者</p>'
    assert made in later and "team-got" not in later
    assert '<p class="team-got" data-by="2026-10-22-inference-E1">550+ 贡献者</p>' in earlier
    assert "team-made" not in earlier


def test_a_notices_override_gets_where_an_entry_came_from_and_what_became_of_it(reshaped, layout, tmp_path):
    folder = override(
        tmp_path / "templates",
        "notices.html",
        '<p class="team-notice" data-entry="{{ entry.id }}">'
        "{% for s, b in moved_from %}<i>from {{ s }} by {{ b.id }}</i>{% endfor %}"
        "{% for e in split_into %}<i>into {{ e }}</i>{% endfor %}"
        "{% if split_from %}<i>from {{ split_from }}</i>{% endif %}"
        "{% for e, b in errata %}<i>erratum {{ e.new }}</i>{% endfor %}</p>",
    )
    pages = {n: rendered(reshaped, f"inference/{n}.md", lambda r, n=n: r.section(n), folder) for n in "123456"}
    notices = {
        entry: re.findall(r"<i>([^<]+)</i>", body)
        for entry, body in re.findall(r'<p class="team-notice" data-entry="([^"]+)">(.*?)</p>', "".join(pages.values()))
    }
    assert "digest-entry__reshaped" not in "".join(pages.values())
    assert notices == {
        "torchtpu-backends": ["into night-1", "into night-2"],
        "night-1": ["from torchtpu-backends"],
        "night-2": ["from torchtpu-backends"],
        "llm-d-1-0": ["erratum 550+ 贡献者"],
        "inferact-funding": [f"from {layout.doc.entries['inferact-funding'].section} by 2026-10-22-inference-E1"],
    }


def test_a_moved_override_is_where_the_old_link_lands(reshaped, layout, tmp_path):
    folder = override(
        tmp_path / "templates",
        "moved.html",
        '<p class="team-moved" id="{{ anchor }}" data-to="{{ to }}" data-href="{{ href }}">{{ entry.title }}</p>',
    )
    left = layout.doc.entries["inferact-funding"].section.split(".")[0]  # the section it was moved out of
    html = rendered(reshaped, f"inference/{left}.md", lambda r: r.section(left), folder)
    entry = reshaped.doc.entries["inferact-funding"]
    assert "digest-moved" not in html
    moved = re.findall(r'<p class="team-moved" id="([^"]+)" data-to="([^"]+)" data-href="([^"]+)">(.*?)</p>', html)
    assert [(i, to, title) for i, to, _, title in moved] == [("entry-inferact-funding", "5.2", entry.title)]
    assert moved[0][2].endswith("#entry-inferact-funding")


def test_a_dispute_tags_override_gets_each_open_contradiction_of_an_entry(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "dispute_tags.html",
        '{% for d in disputes %}<s class="team-dispute" data-id="{{ d.view.id }}" data-href="{{ d.href }}">'
        "{{ d.view.disposition }}</s>{% endfor %}",
    )
    html = rendered(lived, "inference/1.md", lambda r: r.section("1"), folder)
    assert "digest-dispute" not in html
    kapitsa = re.search(r'data-digest-entry="kapitsa".*?</h\d>', html, re.S).group(0)
    gain = lived.doc.contradiction("kapitsa-weekly-gain")
    tags = re.findall(r'<s class="team-dispute" data-id="([^"]+)" data-href="([^"]+)">(\w+)</s>', kapitsa)
    assert ("kapitsa-weekly-gain", gain.disposition) in [(i, d) for i, _, d in tags]
    assert all(h.endswith("#contradiction-" + i) for i, h, _ in tags)


def test_a_changes_override_gets_each_kind_of_change_and_its_targets(reshaped, tmp_path):
    folder = override(
        tmp_path / "templates",
        "changes.html",
        '{% for row in rows %}<p class="team-change" data-kind="{{ row.kind }}" data-links="{{ row.links }}">'
        "{% for t in row.targets %}<i>{{ t if row.links == 'entry' else '' }}</i>{% endfor %}</p>{% endfor %}",
    )
    html = rendered(reshaped, "inference/briefs/x.md", lambda r: r.brief(RESHAPED.id), folder)
    assert "digest-changes" not in html
    rows = {
        kind: (links, re.findall(r"<i>([^<]*)</i>", body))
        for kind, links, body in re.findall(r'data-kind="(\w+)" data-links="(\w+)">(.*?)</p>', html)
    }
    counts = reshaped.doc.changes[RESHAPED.id].counts()
    assert {k for k, n in counts.items() if n} == set(rows)
    assert rows["entries_added"] == ("entry", [i.id for i in RESHAPED.items])  # each opens an entry


def test_an_archive_links_override_gets_the_months_by_year(lived, tmp_path):
    from dataclasses import replace as replaced

    folder = override(
        tmp_path / "templates",
        "archive_links.html",
        '<nav class="team-archive" data-kind="{{ kind }}" data-key="{{ key }}">{% for year, months in years %}'
        '{% for m in months %}<a href="{{ m.href }}">{{ year }}-{{ m.month }}:{{ m.count }}</a>{% endfor %}'
        "{% endfor %}</nav>",
    )
    archived = Layout(replaced(lived.doc, archive_after_days=1))  # the newest lifecycle night is 10-24
    html = rendered(archived, "inference/5.md", lambda r: r.section("5"), folder)
    assert "digest-archive-links" not in html
    nav = re.findall(r'<nav class="team-archive" data-kind="(\w+)" data-key="([^"]+)">(.*?)</nav>', html)
    assert [(k, key) for k, key, _ in nav][:1] == [("section", "5")]
    links = re.findall(r'<a href="([^"]+)">(\d+)-(\d+):(\d+)</a>', nav[0][2])
    assert links and links[0][0].endswith("2026-10/") and links[0][1:3] == ("2026", "10") and int(links[0][3]) >= 1


def test_a_section_notes_override_gets_who_opened_the_section_and_its_former_titles(reshaped, layout, tmp_path):
    folder = override(
        tmp_path / "templates",
        "section_notes.html",
        '<p class="team-notes" data-section="{{ view.number }}" '
        'data-opened="{{ view.opened_by.id if view.opened_by else "-" }}">'
        "{% for title, b in view.former_titles %}<i>{{ title }} @ {{ b.id }}</i>{% endfor %}</p>",
    )
    pages = "".join(rendered(reshaped, f"inference/{n}.md", lambda r, n=n: r.section(n), folder) for n in "23")
    assert "digest-section__origin" not in pages and "digest-section__renamed" not in pages
    notes = re.findall(r'<p class="team-notes" data-section="([^"]+)" data-opened="([^"]*)">(.*?)</p>', pages)
    old = layout.doc.sections["3.1"].section.title
    assert notes == [("2.6", RESHAPED.id, ""), ("3.1", "-", f"<i>{old} @ {RESHAPED.id}</i>")]


def test_a_section_status_override_gets_the_last_brief_and_the_pending_follow_ups(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "section_status.html",
        '<p class="team-status" data-count="{{ count }}" data-last="{{ last.id }}">'
        "{% for f in pending %}<i>{{ f.follow_up.id }}</i>{% endfor %}|{{ rounds|join(',') }}</p>",
    )
    html = rendered(lived, "inference/3.md", lambda r: r.section("3"), folder)  # a follow-up is open on §3.2
    assert "digest-section-status" not in html
    count, last, body = re.search(
        r'<p class="team-status" data-count="(\d+)" data-last="([^"]+)">(.*?)</p>', html
    ).groups()
    shown = set(re.findall(r'data-digest-entry="([^"]+)"', html))
    entries = [lived.doc.entries[e] for e in shown]
    assert int(count) == len(entries)
    assert last == max((e.last_brief for e in entries if e.last_brief), key=lambda b: (b.date, b.id)).id
    pending = {
        f.follow_up.id for e in entries if e.item for f in lived.doc.follow_ups_by_item.get(e.item.id, []) if f.pending
    }
    ids, rounds = re.findall(r"<i>([^<]+)</i>", body), body.rsplit("|", 1)[1]
    assert (
        pending
        and set(ids) == pending
        and rounds.split(",") == sorted({lived.doc.follow_up(i).follow_up.round for i in ids})
    )


def test_a_conclusions_override_gets_the_conclusions_and_the_follow_ups_as_records(lived, tmp_path):
    folder = override(
        tmp_path / "templates",
        "conclusions.html",
        '<div class="team-end" data-heading="{{ heading }}">{% for c in conclusions %}<p>{{ c }}</p>{% endfor %}'
        "{% for f in follow_ups %}<i>{{ f.number }}:{{ f.status.value }}</i>{% endfor %}</div>",
    )
    brief = next(b for b in lived.doc.briefs if b.follow_ups and b.conclusions)
    html = rendered(lived, "inference/briefs/x.md", lambda r: r.brief(brief.id), folder)
    assert "digest-conclusions" not in html and "digest-follow-ups" not in html
    end = re.search(r'<div class="team-end" data-heading="([^"]*)">(.*?)</div>', html, re.S)
    assert len(re.findall(r"<p>", end.group(2))) == len(brief.conclusions)
    assert re.findall(r"<i>(\d+):(\w+)</i>", end.group(2)) == [
        (str(f.number), f.status.value) for f in sorted(brief.follow_ups, key=lambda f: f.number)
    ]
