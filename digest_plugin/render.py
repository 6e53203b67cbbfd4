"""Merged living doc → HTML fragments.  Pure functions: no MkDocs, no Markdown, no Jinja.

Brief text is data, never markup: every string from the data goes through :func:`Renderer.text`,
which escapes it, withholds claims that an open contradiction forbids stating as fact, and turns
known ``arXiv:<id>`` mentions into numbered citation links.  The result is handed to the
Markdown host as raw HTML (see :mod:`extension`), so neither Markdown nor Jinja ever reads it.

Output is a list of blocks: :class:`Heading` (so the host can put it in the page's table of
contents) and :class:`Raw` HTML.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from . import labels
from .arxiv import key as arxiv_key
from .chart import bars, sparkline
from .layout import (
    Layout,
    Linker,
    bibliography_page,
    brief_page,
    briefs_index_page,
    feed_page,
    follow_ups_page,
    register_page,
    section_page,
)
from .merge import (
    ARXIV_MENTION,
    CHANGE_KINDS,
    CitationView,
    ContradictionView,
    EntryView,
    LivingDoc,
    SectionView,
)
from .model import Brief, Disposition, Evidence, EvidenceLevel, Item, Status

LEVEL_ICON = {
    EvidenceLevel.verified: "✔",
    EvidenceLevel.partially_verified: "◐",
    EvidenceLevel.unverified: "？",
    EvidenceLevel.lead: "○",
    EvidenceLevel.discard: "✕",
}


HISTORY_ROWS = 10
"""An entry's history shows its first row and its latest ten; the rest stay on their brief pages."""
FIGURE_VALUES = 5
"""Earlier values of a figure listed beside it (the chart shows the whole series)."""


@dataclass(frozen=True)
class Heading:
    level: int
    anchor: str
    text: str


@dataclass(frozen=True)
class Raw:
    html: str


Block = Heading | Raw


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


@dataclass
class Renderer:
    """Renders one page's fragments of one topic's living doc."""

    layout: Layout
    linker: Linker
    anchors: set[str] = field(default_factory=set)

    @property
    def doc(self) -> LivingDoc:
        return self.layout.doc

    # ------------------------------------------------------------------ text

    def text(self, value: str, *, withhold: bool = True, links: bool = True) -> str:
        """Escape data text; withhold forbidden claims; link known arXiv ids.

        ``links=False`` for text that sits inside a link itself (links do not nest)."""
        pattern = self.doc.withheld_pattern if withhold else None
        if pattern is None:
            out = esc(value)
        else:  # withheld spellings are found in the plain text, then every piece is escaped
            parts, last = [], 0
            for m in pattern.finditer(value):
                parts += [esc(value[last : m.start()]), self.withheld(self.doc.withheld[m.group(0)], link=links)]
                last = m.end()
            out = "".join([*parts, esc(value[last:])])
        return ARXIV_MENTION.sub(self._arxiv_link, out) if links else out

    def contradiction_name(self, view: ContradictionView) -> str:
        """'矛盾 3', or '2026-10-21 矛盾 3' once several briefs each number their own from 1."""
        n = f"矛盾 {view.contradiction.number}"
        return n if len(self.doc.briefs) == 1 else f"{view.brief.date.isoformat()} {n}"

    def withheld(self, view: ContradictionView, *, link: bool = True) -> str:
        name = self.contradiction_name(view)
        label = f"〔暂扣，见{name}〕" if name.startswith("矛盾") else f"〔暂扣，见 {name}〕"
        if not link:
            return f'<span class="digest-withheld" data-withheld-by="{esc(view.id)}">{label}</span>'
        href = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        return f'<a class="digest-withheld" data-withheld-by="{esc(view.id)}" href="{esc(href)}">{label}</a>'

    def _arxiv_link(self, m: re.Match[str]) -> str:
        view = self.doc.citations.get(arxiv_key(m.group(1)))
        return self.cite(view, m.group(0)) if view else m.group(0)

    def cite(self, view: CitationView, label: str | None = None, *, number: bool = True, anchor: str = "") -> str:
        c = view.citation
        counts = " / ".join(f"{x.count}（{x.source.label}）" for x in c.cited_by)
        tip = c.title + (f" · 被引 {counts}" if counts else "")
        label = label or f"arXiv:{c.arxiv}"
        return (
            f'<a class="digest-cite"{anchor} href="https://arxiv.org/abs/{esc(c.arxiv)}" data-arxiv="{esc(arxiv_key(c.arxiv))}" '
            f'title="{esc(tip)}">{esc(label)}'
            + (f' <span class="digest-cite__n">[{view.number}]</span>' if number else "")
            + "</a>"
        )

    def anchor(self, name: str) -> str:
        """An id attribute the first time a name is used on the page (callouts may repeat per section)."""
        if name in self.anchors:
            return ""
        self.anchors.add(name)
        return f' id="{esc(name)}"'

    # ------------------------------------------------------------------ small parts

    def brief_link(self, brief: Brief) -> str:
        href = self.linker.url(brief_page(brief))
        return f'<a class="digest-brief-link" href="{esc(href)}">{brief.date.isoformat()} {esc(brief.round)} 简报</a>'

    def section_link(self, number: str) -> str:
        anchor = "s" + number.replace(".", "-") if "." in number else None  # a top section is its page
        href = self.linker.url(section_page(self.doc.topic, number), anchor)
        return f'<a href="{esc(href)}">§{esc(number)}</a>'

    def item_link(self, item_id: str) -> str:
        brief, item, entry_id = self.doc.items[item_id]
        page = self.layout.entry_page(entry_id) if entry_id in self.doc.entries else brief_page(brief)
        href = self.linker.url(page, f"entry-{entry_id}" if entry_id in self.doc.entries else f"item-{item_id}")
        return f'<a href="{esc(href)}">{self.text(item.title, links=False)}</a>'

    def contradiction_link(self, view: ContradictionView) -> str:
        href = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        return f'<a class="digest-contradiction-link" href="{esc(href)}">{self.contradiction_name(view)}</a>'

    def badge(self, ev: Evidence, key: str) -> str:
        tip_id = f"boundary-{key}"
        gaps = "".join(f'<span class="digest-gap" data-gap="{g.value}">{esc(g.label)}</span>' for g in ev.gaps)
        kinds = "、".join(k.label for k in ev.source_kinds)
        return (
            f'<span class="digest-badge" data-evidence="{ev.level.value}" tabindex="0" aria-describedby="{esc(tip_id)}">'
            f'<span class="digest-badge__level">{LEVEL_ICON[ev.level]} {esc(ev.level.label)}</span>'
            + (f'<span class="digest-badge__kind">{esc(kinds)}</span>' if kinds else "")
            + gaps
            + f'<span class="digest-badge__tip" role="tooltip">{self.text(ev.boundary)}</span></span>'
        )

    def sources(self, item: Item) -> str:
        parts = []
        for m in item.sources.materials:
            extra = []
            if m.first_collected:
                extra.append(f"首次采集 {m.first_collected}")
            if m.last_collected:
                extra.append(f"上次采集 {m.last_collected}")
            note = f"（{'，'.join(extra)}）" if extra else ""
            anchor = f" {self.text(m.anchor)}" if m.anchor else ""
            parts.append(f'<span class="digest-material"><code>{esc(m.path)}</code>{anchor}{note}</span>')
        for url in item.sources.urls:
            host = urlsplit(url).hostname or url
            parts.append(
                f'<a class="digest-source" href="{esc(url)}" rel="noopener nofollow" title="{esc(url)}">{esc(host)}</a>'
            )
        return " · ".join(parts)

    # ------------------------------------------------------------------ items and entries

    def item_body(self, item: Item, brief: Brief, key: str) -> str:
        """Everything a brief says about one item, with its evidence boundary beside it."""
        return self.item_head(item, brief, key) + self.item_details(item)

    def item_head(self, item: Item, brief: Brief, key: str, evidence: Evidence | None = None) -> str:
        """The badge, value rating, brief date and the evidence boundary: what qualifies the statement.

        ``evidence`` is the entry's current evidence when a later brief changed it."""
        p = item.placement
        ev = evidence or item.evidence
        return "".join(
            [
                f'<p class="digest-item__meta">{self.badge(ev, key)} '
                f'<span class="digest-value">{esc(" · ".join(v.label for v in item.value))}</span> · '
                f"{self.brief_link(brief)} 条目 {item.number} · {esc(p.action.label)}</p>",
                f'<p class="digest-boundary" id="boundary-{esc(key)}"><strong>证据边界</strong>：{self.text(ev.boundary)}</p>',
            ]
        )

    def item_details(self, item: Item) -> str:
        """Related contradictions, key points, sources, relation, placement, guards and notes."""
        p = item.placement
        related = self.doc.contradictions_by_item.get(item.id, [])
        out = []
        if related:
            out.append(
                '<p class="digest-item__contradictions">⚠ 相关矛盾：'
                + "、".join(self.contradiction_link(c) for c in related)
                + "</p>"
            )
        if item.points_note:
            out.append(f'<p class="digest-points-note">要点（{self.text(item.points_note)}）：</p>')
        out.append('<ul class="digest-points">' + "".join(f"<li>{self.text(x)}</li>" for x in item.points) + "</ul>")
        out.append(f'<p class="digest-sources"><strong>来源</strong>：{self.sources(item)}</p>')
        out.append(f'<p class="digest-relation"><strong>与活文档脉络的关系</strong>：{self.text(item.relation)}</p>')
        placement = f"<strong>建议归入</strong>：{self.text(p.text)}"
        if p.alternatives:
            placement += "（备选：" + "、".join(self.section_link(a.section) for a in p.alternatives) + "）"
        if p.cross_refs:
            placement += "（交叉引用：" + "、".join(self.section_link(r.section) for r in p.cross_refs) + "）"
        out.append(f'<p class="digest-placement">{placement}</p>')
        if item.guards:
            out.append(
                '<ul class="digest-guards">'
                + "".join(f"<li>{'' if g.startswith('⚠') else '⚠ '}{self.text(g)}</li>" for g in item.guards)
                + "</ul>"
            )
        for note in item.notes:
            out.append(f'<p class="digest-note">{self.text(note)}</p>')
        return "".join(out)

    def figures(self, entry: EntryView) -> str:
        if not entry.figures:
            return ""
        rows = []
        for f in entry.figures:
            if f.withheld_by is not None:
                value = self.withheld(self.doc.contradiction(f.withheld_by.id))
            else:
                value = esc(f.current.value) + (f" {esc(f.current.unit)}" if f.current.unit else "")
            as_of = f"截至 {f.current.as_of}" if f.current.as_of else ""
            older = f.history[-FIGURE_VALUES:]
            skipped = f"更早 {len(f.history) - len(older)} 个数值略；" if len(f.history) > len(older) else ""
            before = (
                ""
                if f.withheld_by is not None
                else skipped
                + "；".join(
                    f'<span class="digest-figure__old">{esc(old.value)}{" " + esc(old.unit) if old.unit else ""}'
                    f"{'（' + str(old.as_of) + '）' if old.as_of else ''}</span>"
                    for old, _ in older
                )
            )
            chart = sparkline(f.label, f.series()) if f.withheld_by is None else ""
            rows.append(
                f'<tr data-figure="{esc(f.key)}"><th>{esc(f.label)}</th><td class="digest-figure__now">{value}</td>'
                f"<td>{as_of}</td><td>{('此前：' + before) if before else ''}{chart}</td></tr>"
            )
        return (
            '<table class="digest-figures"><thead><tr><th>数值</th><th>当前</th><th>日期</th><th>历史</th></tr></thead>'
            "<tbody>" + "".join(rows) + "</tbody></table>"
        )

    def history(self, entry: EntryView) -> str:
        """How the entry got here, oldest first: the baseline, each update, evidence change and retraction."""
        if len(entry.history) < 2:
            return ""
        rows, level = [], None
        shown = entry.history
        if len(shown) > HISTORY_ROWS + 1:  # an entry updated every day: the first and the latest rows
            hidden = len(shown) - HISTORY_ROWS - 1
            level = next((u.evidence.level for u in reversed(shown[:-HISTORY_ROWS]) if u.evidence is not None), None)
            rows.append(None)
            shown = [shown[0], *shown[-HISTORY_ROWS:]]
        for u in shown:
            if u.kind == "baseline":
                doc = self.doc.outline.doc
                rows.append(
                    f'<li data-history="baseline">活文档 {esc(doc.version or "")}（据 {self.brief_ref(entry)}）：'
                    f"{self.text(u.text)}</li>"
                )
                continue
            what = {"placed": "归入", "updated": "原地更新", "evidence": "证据变更", "retracted": "撤回"}[u.kind]
            text = self.text(u.text) if u.text else ""
            if u.kind == "evidence" and u.evidence is not None:
                change = f"{esc(level.label)} → {esc(u.evidence.level.label)}" if level else esc(u.evidence.level.label)
                text = f"{change}：{self.text(u.evidence.boundary)}" + (f"（{text}）" if text else "")
            if u.evidence is not None:
                level = u.evidence.level
            rows.append(
                f'<li data-history="{esc(u.brief.id)}" data-change="{u.kind}">{self.brief_link(u.brief)} · {what}：{text}</li>'
            )
        if None in rows:  # the gap goes after the first row
            rows.remove(None)
            gap = (
                f'<li class="digest-history__gap" data-hidden="{hidden}">…… 其间 {hidden} 次变动，'
                f"见当时的简报页（{self.brief_link(entry.history[1].brief)} 起）</li>"
            )
            rows.insert(1, gap)
        return '<div class="digest-history"><p><strong>历史</strong></p><ol>' + "".join(rows) + "</ol></div>"

    def brief_ref(self, entry: EntryView) -> str:
        stated = entry.baseline.stated_in if entry.baseline else ""
        brief = self.doc.briefs_by_id.get(stated)
        return self.brief_link(brief) if brief else esc(stated)

    def entry(self, entry: EntryView) -> str:
        attrs = f'data-digest-entry="{esc(entry.id)}" data-section="{esc(entry.section)}"'
        classes = ["digest-entry"]
        if entry.item is not None:
            last = next(u.brief for u in reversed(entry.history) if u.brief is not None)
            attrs += f' data-digest-item="{esc(entry.item.id)}" data-brief="{esc(last.id)}"'
        else:
            classes.append("digest-entry--baseline")
        if entry.retracted:
            classes.append("digest-entry--retracted")
            attrs += ' data-retracted="true"'
        if entry.parent:
            classes.append("digest-entry--child")
        if entry.footnote:
            classes.append("digest-entry--footnote")
        title = f"<strong>{self.text(entry.title)}</strong>"
        out = [
            f'<section class="{" ".join(classes)}"{self.anchor("entry-" + entry.id)} {attrs}>',
            f'<p class="digest-entry__title">{f"<del>{title}</del>" if entry.retracted else title}'
            + ('<span class="digest-entry__kind">（小注）</span>' if entry.footnote else "")
            + "</p>",
        ]
        if entry.retracted:
            r = entry.retraction
            successor = f"，由 {self.item_link(r.superseded_by)} 取代" if r.superseded_by in self.doc.items else ""
            out.append(
                f'<p class="digest-retraction">已撤回（{self.brief_link(entry.retracted_in)}）：{self.text(r.reason)}{successor}</p>'
            )
        if entry.item is not None and entry.title != entry.item.title:
            out.append(f'<p class="digest-item__title">{self.text(entry.item.title)}</p>')
        if entry.item is None:
            out.append(
                f'<p class="digest-entry__text">{self.text(entry.baseline.text)}</p>'
                f'<p class="digest-entry__origin">活文档 {esc(self.doc.outline.doc.version or "")} 既有条目，据 {self.brief_ref(entry)}</p>'
            )
        if entry.item is not None:
            body = [
                self.item_head(entry.item, entry.brief, entry.id, entry.evidence),
                self.figures(entry),
                self.item_details(entry.item),
            ]
            out += [f'<div class="digest-retracted-body">{"".join(body)}</div>'] if entry.retracted else body
        else:
            out.append(self.figures(entry))
        out.append(self.history(entry))
        entry_contradictions = self.doc.contradictions_by_entry.get(entry.id, [])
        if entry_contradictions and entry.item is None:
            out.append(
                '<p class="digest-item__contradictions">⚠ 相关矛盾：'
                + "、".join(self.contradiction_link(c) for c in entry_contradictions)
                + "</p>"
            )
        out.append("</section>")
        return "".join(out)

    def stub(self, stub) -> str:
        href = self.linker.url(self.layout.entry_page(stub.item.id), f"entry-{stub.item.id}")
        return (
            f'<p class="digest-stub" data-digest-stub="{esc(stub.item.id)}" data-section="{esc(stub.section)}">'
            f'↔ 交叉引用：<a href="{esc(href)}">{self.text(stub.item.title, links=False)}</a>（§{esc(stub.home)}，{self.brief_link(stub.brief)}）</p>'
        )

    # ------------------------------------------------------------------ contradictions

    def callout(self, view: ContradictionView, *, compact: bool = False) -> str:
        """A Material admonition (collapsible ``details``) holding a contradiction, unmasked.

        Open ones are expanded.  Settled ones (resolved or superseded) are collapsed; with
        ``compact`` (section pages) they shrink to a "resolved on …" note, while the register
        keeps the whole story."""
        c = view.contradiction
        settled = view.settled
        if view.is_open:
            kind = "danger" if c.disposition in (Disposition.blocked, Disposition.discarded) else "warning"
        else:
            kind = "success" if view.status is Status.resolved else "note"
        attrs = (
            f'{self.anchor("contradiction-" + view.id)} data-digest-contradiction="{esc(view.id)}" '
            f'data-status="{"open" if view.is_open else "resolved"}" data-state="{view.status.value}" '
            f'data-disposition="{c.disposition.value}"'
        )
        register = self.linker.url(self.layout.contradiction_page(view), f"contradiction-{view.id}")
        register_link = f' · <a href="{esc(register)}">登记页</a>' if register[0] != "#" else ""
        when = ""
        if settled:
            brief, update = settled
            when = f"（{brief.date.isoformat()}）"
        summary = (
            f"<summary>{self.contradiction_name(view)} · {self.text(c.title, withhold=False, links=False)}"
            f'<span class="digest-disposition"> · {esc(c.disposition.label)} · {esc(view.status.label)}{when}</span></summary>'
        )
        if compact and settled:
            brief, update = settled
            return (
                f'<details class="{kind} digest-contradiction"{attrs}>{summary}'
                f"<p>{self.text(update.text, withhold=False)}（{self.brief_link(brief)}）{register_link}</p></details>"
            )
        touched = []
        if view.sections:
            touched.append("涉及：" + "、".join(self.section_link(s) for s in view.sections))
        if c.touches.items:
            touched.append("条目：" + "、".join(self.item_link(i) for i in c.touches.items if i in self.doc.items))
        cited = sorted({arxiv_key(a) for a in c.touches.citations} | set(ARXIV_MENTION.findall(f"{c.title} {c.text}")))
        cited_views = [self.doc.citations[k] for k in cited if k in self.doc.citations]
        if cited_views:  # the summary holds no link (it is itself a control): the citations go here
            touched.append("引用：" + "、".join(self.cite(v) for v in cited_views))
        withheld = ""
        if c.withheld:
            note = "（修正前不得作为事实写入）" if view.is_open else "（矛盾已不再未解决，可以写入）"
            withheld = (
                f'<p class="digest-withheld-claims"><strong>暂扣说法</strong>{note}：'
                + "、".join(
                    f'<mark data-withheld-claim="{esc(c.id)}">{self.text(w.text, withhold=False)}</mark>'
                    for w in c.withheld
                )
                + "</p>"
            )
        label = (
            f'<p class="digest-required-label"><strong>必须带标注</strong>：{self.text(c.required_label, withhold=False)}</p>'
            if c.required_label
            else ""
        )
        story = ""
        if view.history:
            rows = []
            for brief, update in view.history:
                successor = self.doc.contradiction(update.superseded_by) if update.superseded_by else None
                then = f"，由 {self.contradiction_link(successor)} 取代" if successor else ""
                rows.append(
                    f'<li data-change="{update.change.value}">{self.brief_link(brief)} · {esc(update.change.label)}：'
                    f"{self.text(update.text, withhold=False)}{then}</li>"
                )
            story = '<ol class="digest-contradiction__history">' + "".join(rows) + "</ol>"
        return (
            f'<details class="{kind} digest-contradiction"{" open" if view.is_open else ""}{attrs}>{summary}'
            f"<p>{self.text(c.text, withhold=False)}</p>{withheld}{label}{story}"
            f'<p class="digest-contradiction__meta">{" · ".join(touched + ["来源：" + self.brief_link(view.brief)])}'
            f"{register_link}</p></details>"
        )

    # ------------------------------------------------------------------ pages

    def section(self, number: str, year: int | None = None) -> list[Block]:
        """A top-level section (§N with its subsections) or one subsection: the current entries,
        or with ``year`` the entries whose last change fell in that archived year."""
        blocks: list[Block] = []
        top = self.doc.sections[number]
        if "." in number:
            return self._section_body(top, year)
        if year is None:
            blocks += self._archive_links(number)
        blocks += self._section_body(top, year)
        for child in self.doc.children(number):
            body = self._section_body(child, year)
            if body or year is None:
                blocks.append(Heading(2, "s" + child.number.replace(".", "-"), section_title(child)))
                blocks += body
        return blocks

    def _archive_links(self, number: str) -> list[Block]:
        years = self.layout.archive_years.get(number, [])
        if not years:
            return []
        counts = Counter(
            self.layout.entry_year(e) for e in self.doc.entries.values() if e.section.split(".")[0] == number
        )
        links = "、".join(
            f'<a href="{esc(self.linker.url(section_page(self.doc.topic, number, y)))}">{y}（{counts[y]} 条）</a>'
            for y in reversed(years)
        )
        return [
            Raw(
                f'<p class="digest-archive-links" data-archive="{esc(number)}">本页列出近 {self.doc.archive_after_days} 天内有变动的条目；'
                f"更早的按最后变动年份归档：{links}</p>"
            )
        ]

    def _section_body(self, view: SectionView, year: int | None = None) -> list[Block]:
        parts = []
        if year is None:  # callouts live on the current page: open ones in full, recently settled ones folded
            parts += [self.callout(c) for c in view.contradictions if c.is_open]
            parts += [
                self.callout(c, compact=True)
                for c in view.contradictions
                if not c.is_open and self.layout.contradiction_year(c) is None
            ]
        here = [e for e in view.entries if self.layout.entry_year(e) == year]
        parts += [self.entry(e) for e in here if not e.footnote]
        parts += [self.entry(e) for e in here if e.footnote]
        if year is None:
            parts += [self.stub(s) for s in view.stubs]
        if not parts and year is None and not self.doc.children(view.number):
            parts.append('<p class="digest-empty">本节暂无来自简报的条目。</p>')
        if not parts:
            return []
        return [Raw(f'<div class="digest-section" data-section="{esc(view.number)}">' + "".join(parts) + "</div>")]

    def _year_links(self, kind: str, page, noun: str) -> str:
        years = self.layout.archive_years.get(kind, [])
        if not years:
            return ""
        links = "、".join(f'<a href="{esc(self.linker.url(page(self.doc.topic, y)))}">{y}</a>' for y in reversed(years))
        return (
            f'<p class="digest-archive-links" data-archive="{kind}">本页列出当前与近 {self.doc.archive_after_days} 天内的{noun}；'
            f"更早的按年份归档：{links}</p>"
        )

    def register(self, year: int | None = None) -> list[Block]:
        """Every contradiction with its whole story; settled ones older than the window by year."""
        blocks: list[Block] = []
        if year is None:
            open_n = sum(c.is_open for c in self.doc.contradictions)
            blocks.append(
                Raw(
                    f'<p class="digest-summary">共 {len(self.doc.contradictions)} 条矛盾与待核实说法，其中 {open_n} 条未解决。</p>'
                    + self._year_links("register", register_page, "矛盾")
                )
            )
        for brief in self.doc.briefs:
            views = [
                c
                for c in self.doc.contradictions_by_brief.get(brief.id, [])
                if self.layout.contradiction_year(c) == year
            ]
            if views:
                blocks.append(Heading(2, f"brief-{brief.id}", f"{brief.date.isoformat()} {brief.round} 简报"))
                blocks.append(Raw("".join(self.callout(c) for c in views)))
        return blocks

    def bibliography(self, year: int | None = None) -> list[Block]:
        doc = self.doc
        rows = []
        if year is None:
            rows.append(
                f'<p class="digest-summary">活文档既有引用 {doc.outline.doc.reference_count or 0} 条（{esc(doc.outline.doc.version or "")}），'
                f"简报新增 {len(doc.citations)} 条，编号自 {(doc.outline.doc.reference_count or 0) + 1} 起。</p>"
                + self._year_links("bibliography", bibliography_page, "新增引用")
            )
        for view in sorted(doc.citations.values(), key=lambda v: v.number):
            if self.layout.citation_year(view) == year:
                rows.append(self.reference(view))
        return [Raw("".join(rows))]

    def reference(self, view: CitationView, *, back_links: bool = True) -> str:
        c = view.citation
        meta = []
        if c.year:
            meta.append(f"{c.year}")
        for x in c.cited_by:
            meta.append(f"被引 {x.count}（{esc(x.source.label)}{'，截至 ' + str(x.as_of) if x.as_of else ''}）")
        if c.openalex_id:
            meta.append(f"OpenAlex {esc(c.openalex_id)}")
        if c.doi:
            meta.append(f'DOI <a href="https://doi.org/{esc(c.doi)}" rel="noopener nofollow">{esc(c.doi)}</a>')
        if c.oa_status:
            meta.append(f"开放获取 {esc(c.oa_status)}")
        if c.card:
            meta.append(
                f"卡片 <code>{esc(c.card)}</code>" + (f"（卡片主题 {esc(c.card_topic)}）" if c.card_topic else "")
            )
        meta.append("已核实" if c.verified else "未核实")
        note = f'<p class="digest-ref__note">用途：{self.text(c.use_note)}</p>' if c.use_note else ""
        if c.down_weighted_by:
            dw = self.doc.contradiction(c.down_weighted_by)
            if dw:
                note += f'<p class="digest-ref__down" data-down-weighted="true">⚠ 降权：不作为结论依据，见 {self.contradiction_link(dw)}</p>'
        back = ""
        if back_links:
            back = (
                '<p class="digest-ref__back">引用处：'
                + "、".join(
                    f'<a class="digest-backlink" href="{esc(self.linker.url(p.page, p.anchor or None))}">↩ {esc(p.label)}</a>'
                    for p in self.layout.cited_at(arxiv_key(c.arxiv))
                )
                + "</p>"
            )
        return (
            f'<div class="digest-ref"{self.anchor(f"ref-{view.number}")} data-ref="{view.number}" data-arxiv="{esc(arxiv_key(c.arxiv))}">'
            f'<p><span class="digest-ref__n">[{view.number}]</span> {self.cite(view, number=False)} <strong>{esc(c.title)}</strong></p>'
            f'<p class="digest-ref__meta">{" · ".join(meta)} · 来自 {self.brief_link(view.brief)}</p>{note}{back}</div>'
        )

    def follow_ups(self, year: int | None = None) -> list[Block]:
        """Pending follow-ups (open or carried over) first, then the closed ones with how they closed."""
        closed = [f for f in self.doc.follow_ups if not f.pending and self.layout.follow_up_year(f) == year]
        if year is not None:
            return [
                Raw(
                    '<ol class="digest-follow-ups" data-list="closed">'
                    + "".join(self.follow_up(f) for f in closed)
                    + "</ol>"
                )
            ]
        pending = self.doc.open_follow_ups()
        total_closed = sum(1 for f in self.doc.follow_ups if not f.pending)
        blocks: list[Block] = [
            Raw(
                f'<p class="digest-summary">待跟进 {len(pending)} 项，已关闭 {total_closed} 项。</p>'
                + self._year_links("follow-ups", follow_ups_page, "已关闭事项")
            )
        ]
        blocks.append(
            Raw(
                '<ol class="digest-follow-ups" data-list="pending">'
                + "".join(self.follow_up(f) for f in pending)
                + "</ol>"
                if pending
                else '<p class="digest-empty">目前没有待跟进事项。</p>'
            )
        )
        if closed:
            blocks.append(Heading(2, "closed", "已关闭"))
            blocks.append(
                Raw(
                    '<ol class="digest-follow-ups" data-list="closed">'
                    + "".join(self.follow_up(f) for f in closed)
                    + "</ol>"
                )
            )
        return blocks

    def follow_up(self, view) -> str:
        fu = view.follow_up
        items = "、".join(self.item_link(i) for i in fu.items if i in self.doc.items)
        story = "".join(
            f"；{self.brief_link(b)} {esc(u.status.label)}" + (f"：{self.text(u.note)}" if u.note else "")
            for b, u in view.history
        )
        return (
            f'<li class="digest-follow-up"{self.anchor("follow-up-" + fu.id)} data-follow-up="{esc(fu.id)}" data-status="{view.status.value}">'
            f'<span class="digest-follow-up__round">{esc(fu.round)}</span> {self.text(fu.text)}'
            f'<span class="digest-follow-up__meta">（{esc(view.status.label)} · 出自 {self.brief_link(view.brief)}'
            + (f" · 条目：{items}" if items else "")
            + f"{story}）</span></li>"
        )

    def changes(self, brief: Brief) -> str:
        """Exactly what one brief did to the living doc, each with a link to where it happened."""
        ch = self.doc.changes[brief.id]
        rows = []
        for name in CHANGE_KINDS:
            label, ids = labels.CHANGE_KINDS[name], ch.of(name)
            if not ids:
                continue
            if name.startswith("entries") or name == "evidence_changed":
                links = [self.entry_link(i) for i in ids]
            elif name.startswith("contradictions"):
                links = [self.contradiction_link(self.doc.contradiction(i)) for i in ids]
            elif name == "citations_added":
                by_number = {v.number: v for v in self.doc.citations_by_brief.get(brief.id, [])}
                links = [
                    f'<a href="{esc(self.linker.url(self.layout.citation_page(by_number[n]), f"ref-{n}"))}">[{n}]</a>'
                    for n in ids
                ]
            else:
                links = [
                    f'<a href="{esc(self.linker.url(self.layout.follow_up_page(self.doc.follow_up(i)), f"follow-up-{i}"))}">{esc(i)}</a>'
                    for i in ids
                ]
            rows.append(f'<li data-change="{name}" data-count="{len(ids)}">{label} {len(ids)}：{"、".join(links)}</li>')
        return (
            '<ul class="digest-changes">' + "".join(rows) + "</ul>"
            if rows
            else '<p class="digest-empty">这份简报没有改动活文档。</p>'
        )

    def entry_link(self, entry_id: str) -> str:
        entry = self.doc.entries[entry_id]
        href = self.linker.url(self.layout.entry_page(entry.id), f"entry-{entry.id}")
        return f'<a href="{esc(href)}">§{esc(entry.section)} {self.text(entry.title, links=False)}</a>'

    def brief(self, brief_id: str) -> list[Block]:
        """The day as published: header, items (with where they went), contradictions, citations, conclusions."""
        brief = self.doc.briefs_by_id[brief_id]
        blocks: list[Block] = [Raw(self._brief_header(brief))]
        blocks.append(Heading(2, "changes", "这份简报对活文档的改动"))
        blocks.append(Raw(self.changes(brief)))
        blocks.append(Heading(2, "items", f"一、{brief.items_heading or '条目'}"))
        parts = []
        for item in sorted(brief.items, key=lambda i: i.number):
            _, _, entry_id = self.doc.items[item.id]
            if entry_id in self.doc.entries:
                placed = self.linker.url(self.layout.entry_page(entry_id), f"entry-{entry_id}")
            else:  # a discard-level item: kept here, not on the section page
                placed = self.linker.url(brief_page(brief), f"item-{item.id}")
            parts.append(
                f'<article class="digest-item"{self.anchor("item-" + item.id)} data-digest-item="{esc(item.id)}" '
                f'data-section="{esc(item.placement.section)}" data-brief="{esc(brief.id)}">'
                f'<p class="digest-item__title"><strong>条目 {item.number}：{self.text(item.title)}</strong></p>'
                f'<p class="digest-item__placed">已归入 <a href="{esc(placed)}">§{esc(item.placement.section)}</a></p>'
                f"{self.item_body(item, brief, 'brief-' + item.id)}</article>"
            )
        blocks.append(Raw("".join(parts)))
        blocks.append(Heading(2, "contradictions", "二、值得警惕的矛盾与待核实说法"))
        blocks.append(
            Raw(
                "".join(self.callout(c) for c in self.doc.contradictions_by_brief.get(brief.id, []))
                or '<p class="digest-empty">无。</p>'
            )
        )
        blocks.append(Heading(2, "citations", "三、可引用的 arXiv 号"))
        cites = self.doc.citations_by_brief.get(brief.id, [])
        parts = [f"<p>{self.text(brief.citations_note)}：</p>"] if brief.citations_note else []
        parts += [self.reference(v, back_links=False) for v in cites]
        if brief.citations_not_registered:
            parts.append(f'<p class="digest-not-registered">{self.text(brief.citations_not_registered)}</p>')
        blocks.append(Raw("".join(parts) or '<p class="digest-empty">无。</p>'))
        blocks.append(Heading(2, "conclusions", "四、本轮结论与建议动作"))
        parts = [
            '<ul class="digest-conclusions">' + "".join(f"<li>{self.text(c)}</li>" for c in brief.conclusions) + "</ul>"
        ]
        if brief.follow_ups:
            parts.append(
                f'<p><strong>{self.text(brief.follow_ups_heading or "跟进事项")}</strong></p><ol class="digest-follow-ups">'
                + "".join(
                    f'<li data-follow-up="{esc(f.id)}" data-status="{f.status.value}">{esc(f.round)} · {self.text(f.text)}（{esc(f.status.label)}）</li>'
                    for f in sorted(brief.follow_ups, key=lambda f: f.number)
                )
                + "</ol>"
            )
        blocks.append(Raw("".join(parts)))
        return blocks

    def _brief_header(self, brief: Brief) -> str:
        rows = [
            ("主题", esc(brief.topic)),
            ("轮次", esc(brief.round) + (f"（{self.text(brief.round_label)}）" if brief.round_label else "")),
            ("日期", brief.date.isoformat() + (f" {esc(brief.written_at)}" if brief.written_at else "")),
        ]
        if brief.author:
            rows.append(("作者", self.text(brief.author)))
        job = brief.job
        if job.checklist or job.job_id or job.item:
            rows.append(
                (
                    "处理依据",
                    " · ".join(
                        self.text(x)
                        for x in (
                            job.checklist,
                            f"job {job.job_id}" if job.job_id else None,
                            f"item {job.item}" if job.item else None,
                        )
                        if x
                    ),
                )
            )
        if brief.materials or brief.materials_note:
            mats = "".join(
                f"<li><code>{esc(m.path)}</code>{(' ' + self.text(m.anchor)) if m.anchor else ''}</li>"
                for m in brief.materials
            )
            rows.append(
                (
                    "材料",
                    (self.text(brief.materials_note) if brief.materials_note else "")
                    + (f"<ul>{mats}</ul>" if mats else ""),
                )
            )
        for label, ref in (("活文档参照", brief.living_doc), ("队列参照", brief.queue)):
            if ref:
                extra = f"（{esc(ref.version)}" if ref.version else "（"
                extra += f"，引用→{ref.reference_count}）" if ref.reference_count is not None else "）"
                rows.append((label, f"<code>{esc(ref.path)}</code>{extra if extra != '（）' else ''}"))
        if brief.scope:
            rows.append(("边界", self.text(brief.scope)))
        body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
        return (
            f'<div class="digest-brief" data-brief="{esc(brief.id)}"><p class="digest-brief__title"><strong>{self.text(brief.title)}</strong></p>'
            f'<table class="digest-brief__header">{body}</table>'
            f'<p class="digest-brief__counts">条目 {len(brief.items)} · 矛盾与待核实 {len(brief.contradictions)} · '
            f"arXiv 引用 {len(brief.citations)} · 跟进 {len(brief.follow_ups)}</p></div>"
        )

    def timeline(self, briefs: list[Brief]) -> str:
        """Newest first: each brief with the counts of what it changed."""
        rows = []
        for b in sorted(briefs, key=lambda b: (b.date, b.id), reverse=True):
            counts = self.doc.changes[b.id].counts()
            shown = " · ".join(f"{labels.CHANGE_KINDS[name]} {counts[name]}" for name in CHANGE_KINDS if counts[name])
            rows.append(
                f'<li data-brief="{esc(b.id)}">{self.brief_link(b)} · {self.text(b.title)}'
                f'<span class="digest-timeline__counts">{(" · " + shown) if shown else ""}</span></li>'
            )
        return (
            '<ol class="digest-timeline" reversed>' + "".join(rows) + "</ol>"
            if rows
            else '<p class="digest-empty">还没有简报。</p>'
        )

    def briefs_index(self, year: int | None = None) -> list[Block]:
        briefs = [b for b in self.doc.briefs if self.layout.brief_year(b) == year]
        head = self._year_links("briefs", briefs_index_page, "简报") if year is None else ""
        return [Raw(head + self.timeline(briefs)), Raw(self._feed_link())]

    def _feed_link(self) -> str:
        return f'<p><a class="digest-feed" href="{esc(self.linker.url(feed_page(self.doc.topic)))}" type="application/atom+xml">订阅（Atom）</a></p>'

    def overview(self) -> list[Block]:
        """The topic at a glance: today's brief, open contradictions and follow-ups, counts, the timeline."""
        doc = self.doc
        latest = doc.briefs[-1] if doc.briefs else None
        open_c = [c for c in doc.contradictions if c.is_open]
        parts = [f'<div class="digest-overview" data-topic="{esc(doc.topic)}"><ul>']
        if latest:
            parts.append(f"<li>最新简报：{self.brief_link(latest)}（{self._counts_text(latest)}）</li>")
        parts.append(
            f'<li>未解决的矛盾与待核实说法：<a href="{esc(self.linker.url(register_page(doc.topic)))}">{len(open_c)} 条</a></li>'
        )
        parts.append(
            f'<li>待跟进：<a href="{esc(self.linker.url(follow_ups_page(doc.topic)))}">{len(doc.open_follow_ups())} 项</a></li>'
        )
        parts.append(
            f'<li>参考文献：<a href="{esc(self.linker.url(bibliography_page(doc.topic)))}">共 {doc.reference_count} 条</a>'
            f"（简报新增 {len(doc.citations)} 条）</li>"
        )
        parts.append(
            f'<li>全部简报：<a href="{esc(self.linker.url(briefs_index_page(doc.topic)))}">{len(doc.briefs)} 份</a></li></ul>'
        )
        parts.append(
            '<table class="digest-counts"><thead><tr><th>章节</th><th>条目</th><th>未解决矛盾</th></tr></thead><tbody>'
        )
        counts = []
        for top in doc.top_sections():
            group = [top, *doc.children(top.number)]
            n_entries = sum(1 for s in group for e in s.entries if not e.retracted)
            n_open = len({c.id for s in group for c in s.contradictions if c.is_open})
            counts.append((f"§{top.number}", n_entries, n_open))
            parts.append(
                f'<tr data-section="{esc(top.number)}"><td>{self.section_link(top.number)} {esc(top.section.title or "")}</td>'
                f"<td>{n_entries}</td><td>{n_open}</td></tr>"
            )
        parts.append("</tbody></table>")
        parts.append(bars("各章节条目数与未解决矛盾数", counts))
        if open_c:
            parts.append(
                '<p><strong>未解决的矛盾</strong></p><ul class="digest-open-contradictions">'
                + "".join(
                    f"<li>{self.contradiction_link(c)} · {self.text(c.contradiction.title, withhold=False)}（{esc(c.contradiction.disposition.label)}）</li>"
                    for c in open_c
                )
                + "</ul>"
            )
        parts.append(
            "<p><strong>简报时间线</strong></p>" + self.timeline(doc.briefs[-30:]) + self._feed_link() + "</div>"
        )
        return [Raw("".join(parts))]

    def _counts_text(self, brief: Brief) -> str:
        counts = self.doc.changes[brief.id].counts()
        return (
            " · ".join(f"{labels.CHANGE_KINDS[name]} {counts[name]}" for name in CHANGE_KINDS if counts[name])
            or "无改动"
        )


def section_title(view: SectionView) -> str:
    """'§3.1 调度算法与 JIL 攻击', or '§4（未命名）' where no brief has given the section a title."""
    s = view.section
    return f"§{s.number} {s.title}" if s.title else f"§{s.number}（未命名）"
