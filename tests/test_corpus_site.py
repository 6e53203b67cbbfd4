"""The twelve later nights (tests/corpus/days/), imported as an editor would (``digest import``, in date
order: tests/corpus_days.py), built into the real site once with ``mkdocs build --strict``, and read as a
reader and a reviewer would: every change the imported briefs make must show on the merged site.

The expectations come from the imported YAML (``work/data/briefs/*.yml``, read as plain data by the
builds' own reader: ``helpers.read_data``) and the imported ``data/vocabulary.yml`` (the importer may add words there), never from the
HTML.  The cases are made at collection time from that YAML (the import runs once per process, about
four seconds), so a failure names the brief and the id: ``contradiction_update[2026-10-29-inference-E1:
stepfun-mtp:redisposed]``.

What is read on the pages, by their stable hooks: the register (``data-digest-contradiction``,
``data-status``, ``data-state``, ``data-disposition``, its story ``li[data-change]``), entries
(``id="entry-…"``, ``data-retracted``, ``data-evidence``, the history ``li[data-history]``, the figure
table ``tr[data-figure]`` with ``digest-figure__now`` and the SVG chart), the follow-up list
(``data-follow-up``, ``data-status``), the bibliography (``data-ref``, ``data-arxiv``) and the chapter pages
(``h2 id="s2-6"``, ``digest-section__origin``).  HTML is parsed with the standard library only.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import Site, copy_project, mkdocs_build, read_data, search_docs
from helpers.shared import corpus_nights
from html_dom import NO_TEXT, Node, norm, parse

TOPIC = "inference"

# What a reader sees for the product's fixed words (digest_plugin.core.model: the vocabulary of states).
STATE_LABELS = {"open": "未解决", "resolved": "已解决", "superseded": "已被取代"}
CHANGE_LABELS = {"resolved": "解决", "reopened": "重新打开", "superseded": "取代", "redisposed": "改判"}
OUTCOME_LABELS = {"confirmed": "证实", "corrected": "更正"}  # FORMAT-NOTES.md, 1
FOLLOW_UP_LABELS = {"open": "待跟进", "done": "已完成", "dropped": "已放弃", "carried_over": "顺延"}
PENDING = {"open", "carried_over"}
WHEN_STATE = {"resolved": "resolved", "reopened": "open", "superseded": "superseded"}

# --------------------------------------------------------------------------- the imported data (collection)


@functools.cache
def imported() -> Path:
    """The data folder after the twelve nights are imported (once per run, read-only)."""
    work, nights = corpus_nights()
    assert len(nights) == 12 and not any(n.errors for n in nights), [n.errors for n in nights]
    return work / "data"


@functools.cache
def briefs() -> dict[str, dict]:
    """Every brief of the imported data by id, in the order the site merges them (date, then id)."""
    found = [read_data(p) for p in (imported() / "briefs").glob("*.yml")]
    return {b["id"]: b for b in sorted(found, key=lambda b: (b["date"], b["id"]))}


@functools.cache
def vocabulary() -> dict:
    return read_data(imported() / "vocabulary.yml")


def word(kind: str, code: str) -> str:
    """The label readers see for a code of data/vocabulary.yml (short form or ``{label: …}``)."""
    value = vocabulary()[kind][code]
    return value["label"] if isinstance(value, dict) else value


def brief_name(brief_id: str) -> str:
    b = briefs()[brief_id]
    return f"{b['date']} {b['round']} 简报"


def entry_of(item_id: str) -> str:
    """The entry an item created or updated (FORMAT-NOTES.md: an entry is named by its creating item)."""
    for b in briefs().values():
        for item in b.get("items") or []:
            if item["id"] == item_id:
                p = item["placement"]
                return p["entry"] if p["action"] == "update_in_place" else item_id
    raise AssertionError(f"no item {item_id}")


def contradiction_def(contradiction_id: str) -> dict:
    for b in briefs().values():
        for c in b.get("contradictions") or []:
            if c["id"] == contradiction_id:
                return c
    raise AssertionError(f"no contradiction {contradiction_id}")


def paper(arxiv: str) -> str:
    return re.sub(r"v\d+$", "", str(arxiv))


@dataclass(frozen=True)
class Case:
    id: str
    brief: str
    data: dict = field(hash=False, compare=False)
    index: int = 0


def update_cases(key: str, name: Callable[[dict], str]) -> list[Case]:
    return [
        Case(f"{brief_id}:{name(u)}", brief_id, u, i)
        for brief_id, b in briefs().items()
        for i, u in enumerate(b.get(key) or [])
    ]


def contradiction_updates() -> list[Case]:
    return update_cases("contradiction_updates", lambda u: f"{u['contradiction']}:{u['change']}")


def last_contradiction_updates() -> list[Case]:
    """For each contradiction a later brief changed: the last update that set its state."""
    last: dict[str, Case] = {}
    for case in contradiction_updates():
        if case.data["change"] != "redisposed":
            last[case.data["contradiction"]] = case
    return list(last.values())


def last_redispositions() -> list[Case]:
    last: dict[str, Case] = {}
    for case in contradiction_updates():
        if case.data["change"] == "redisposed":
            last[case.data["contradiction"]] = case
    return list(last.values())


def corrections() -> list[Case]:
    return [
        Case(f"{c.brief}:{c.data['contradiction']}:{x.get('key') or f'claim-{i + 1}'}", c.brief, {**x, "of": c.data}, i)
        for c in contradiction_updates()
        for i, x in enumerate(c.data.get("corrections") or [])
    ]


def figure_corrections() -> list[Case]:
    return [c for c in corrections() if c.data.get("key") and not c.data.get("claim")]


def claim_corrections() -> list[Case]:
    return [c for c in corrections() if c.data.get("claim")]


def corrected_claims() -> list[Case]:
    """Each withheld claim of a contradiction whose final settling was ``outcome: corrected``."""
    out = []
    for case in last_contradiction_updates():
        u = case.data
        if u["change"] == "resolved" and u.get("outcome") == "corrected":
            for i, w in enumerate(contradiction_def(u["contradiction"]).get("withheld") or []):
                out.append(Case(f"{u['contradiction']}:withheld-{i + 1}", case.brief, {"of": u, **w}, i))
    return out


def follow_up_updates() -> list[Case]:
    return update_cases("follow_up_updates", lambda u: u["follow_up"])


def last_follow_up_updates() -> list[Case]:
    last: dict[str, Case] = {}
    for case in follow_up_updates():
        last[case.data["follow_up"]] = case
    return list(last.values())


def new_sections() -> list[Case]:
    return [
        Case(f"{brief_id}:section-{item['placement']['section']}", brief_id, item)
        for brief_id, b in briefs().items()
        for item in b.get("items") or []
        if item["placement"]["action"] == "new_section"
    ]


def retractions() -> list[Case]:
    return update_cases("retractions", lambda u: u["item"])


def refreshed_citations() -> list[Case]:
    return [
        Case(f"{brief_id}:{c['arxiv']}", brief_id, c)
        for brief_id, b in briefs().items()
        for c in b.get("citations") or []
        if c.get("refresh")
    ]


CASES: dict[str, Callable[[], list[Case]]] = {
    "contradiction_update": contradiction_updates,
    "settled": last_contradiction_updates,
    "redisposed": last_redispositions,
    "figure_correction": figure_corrections,
    "claim_correction": claim_corrections,
    "corrected_claim": corrected_claims,
    "follow_up_update": follow_up_updates,
    "follow_up_final": last_follow_up_updates,
    "new_section": new_sections,
    "retraction": retractions,
    "refreshed": refreshed_citations,
}

# Product bugs this file finds, by test name and case id: the test asserts the right behaviour.
KNOWN_BUGS: dict[tuple[str, str], str] = {}
"""(test, case id) → why it fails today: an expected failure, strict (it must fail until fixed)."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for name, make in CASES.items():
        if name in metafunc.fixturenames:
            test = metafunc.function.__name__
            params = []
            for case in make():
                reason = KNOWN_BUGS.get((test, case.id))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                params.append(pytest.param(case, id=case.id, marks=marks))
            assert params, f"the imported corpus has no {name} case"
            metafunc.parametrize(name, params)


# --------------------------------------------------------------------------- the site (one build)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Site:
    """The project with data/ replaced by the imported data, built once with ``mkdocs build --strict``."""
    root = copy_project(tmp_path_factory.mktemp("corpus-site") / "project")
    shutil.rmtree(root / "data")
    shutil.copytree(imported(), root / "data")
    strict = mkdocs_build(root)
    if strict.returncode != 0:  # test_the_strict_build_succeeds says why; the pages are still read
        lenient = mkdocs_build(root, strict=False)
        assert lenient.returncode == 0, lenient.stderr[-3000:]
    return Site(root, root / "site", strict)


def history_rows(entry: Node, brief_id: str, change: str) -> list[Node]:
    return entry.all("li", data_history=brief_id, data_change=change)


def story_rows(callout: Node, brief_id: str, change: str) -> list[Node]:
    """The rows of a contradiction's story in the register that a brief wrote, by change."""
    name = brief_name(brief_id)
    return [li for li in callout.all("li", data_change=change) if li.text().startswith(name)]


def shown_value(value: Any) -> str:
    return str(value)


# --------------------------------------------------------------------------- the build


def test_the_strict_build_succeeds_without_a_warning(site):
    assert site.build.returncode == 0, site.build.stderr[-3000:]
    assert "WARNING" not in site.build.stderr, site.build.stderr[-3000:]


def test_every_brief_has_its_page(site):
    for b in briefs():
        assert (site.dir / TOPIC / "briefs" / b / "index.html").is_file(), b


def test_digest_verify_finds_no_withheld_claim_on_the_site(site):
    from digest_plugin.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(
            [
                "verify",
                str(site.dir),
                "--data",
                str(site.project / "data"),
                "--config",
                str(site.project / "mkdocs.yml"),
            ]
        )
    assert code == 0, err.getvalue()
    assert out.getvalue().startswith("ok: no withheld claim in"), out.getvalue()


# --------------------------------------------------------------------------- contradictions


def test_each_contradiction_update_is_told_in_the_register(site, contradiction_update: Case):
    u, brief_id = contradiction_update.data, contradiction_update.brief
    callout = site.callout(u["contradiction"])
    (row,) = story_rows(callout, brief_id, u["change"])
    assert CHANGE_LABELS[u["change"]] in row.text()
    if u.get("outcome"):
        assert row.attrs.get("data-outcome") == u["outcome"]
        assert f"{CHANGE_LABELS[u['change']]} · {OUTCOME_LABELS[u['outcome']]}：" in row.text()
    if u.get("superseded_by"):
        successor = f"#contradiction-{u['superseded_by']}"
        assert any(a.attrs.get("href", "").endswith(successor) for a in row.all("a")), row.text()
        assert row.text().endswith("取代")
    # and the brief's page lists it among what the brief changed
    changes = site.page(f"{TOPIC}/briefs/{brief_id}").one("li", data_change=f"contradictions_{u['change']}")
    assert any(a.attrs.get("href", "").endswith(f"#contradiction-{u['contradiction']}") for a in changes.all("a"))


def test_a_contradiction_ends_in_the_state_its_last_update_gives(site, settled: Case):
    u, brief_id = settled.data, settled.brief
    callout = site.callout(u["contradiction"])
    state = WHEN_STATE[u["change"]]
    assert callout.attrs["data-state"] == state
    assert callout.attrs["data-status"] == ("open" if state == "open" else "resolved")
    summary = callout.one("summary").text()
    assert STATE_LABELS[state] in summary
    date = str(briefs()[brief_id]["date"])
    if state == "open":
        assert "open" in callout.attrs  # an open contradiction is shown expanded
        assert not any(f"{label}（" in summary for label in OUTCOME_LABELS.values())
    elif u.get("outcome"):
        assert summary.endswith(f"{STATE_LABELS[state]} · {OUTCOME_LABELS[u['outcome']]}（{date}）"), summary
    else:
        assert summary.endswith(f"{STATE_LABELS[state]}（{date}）"), summary


def test_a_rejudged_contradiction_shows_its_new_disposition(site, redisposed: Case):
    u = redisposed.data
    callout = site.callout(u["contradiction"])
    assert callout.attrs["data-disposition"] == u["disposition"]
    assert f" · {word('dispositions', u['disposition'])} · " in callout.one("summary").text()


def test_a_corrected_claim_is_not_called_publishable(site, corrected_claim: Case):
    """A claim shown wrong never becomes writable: the register must not say it now may be written."""
    callout = site.callout(corrected_claim.data["of"]["contradiction"])
    (claims,) = callout.all("p", class_="digest-withheld-claims")
    assert corrected_claim.data["text"] in claims.text()
    assert "可以写入" not in claims.text(), claims.text()


# --------------------------------------------------------------------------- corrections


def correction_entry(x: dict) -> str | None:
    """The entry a correction changes: the one it names, its item's, else what the contradiction touches."""
    if x.get("entry"):
        return x["entry"]
    if x.get("item"):
        return entry_of(x["item"])
    touches = contradiction_def(x["of"]["contradiction"]).get("touches") or {}
    found = [*(touches.get("entries") or []), *(entry_of(i) for i in touches.get("items") or [])]
    return found[0] if found else None


def later_statements(entry_id: str, key: str, after: str) -> list[tuple[str, Any]]:
    """(brief, value) of every brief after ``after`` that states the figure of the entry again."""
    out = []
    ids = list(briefs())
    for brief_id in ids[ids.index(after) + 1 :]:
        for item in briefs()[brief_id].get("items") or []:
            if entry_of(item["id"]) == entry_id:
                out += [(brief_id, f["value"]) for f in item.get("figures") or [] if f["key"] == key]
    return out


def figure_row(site: Site, entry_id: str, key: str) -> Node:
    return site.entry(entry_id).one("tr", data_figure=key)


def values_in(cell: Node) -> str:
    """A figure cell's value without its unit (the first word)."""
    return cell.text().split(" ")[0]


def test_a_figure_correction_is_in_the_entrys_history_with_old_and_new(site, figure_correction: Case):
    x, brief_id = figure_correction.data, figure_correction.brief
    entry_id = correction_entry(x)
    assert entry_id, "a figure correction names an entry, an item, or a contradiction that touches one"
    (row,) = history_rows(site.entry(entry_id), brief_id, "corrected")
    text = row.text()
    assert "更正：" in text
    unit = f" {x['unit']}" if x.get("unit") else ""
    assert f"{x['old']}{unit} → {x['new']}{unit}" in text, text


def test_a_corrected_figures_old_value_is_no_current_value_nor_a_chart_point(site, figure_correction: Case):
    x = figure_correction.data
    row = figure_row(site, correction_entry(x), x["key"])
    old = shown_value(x["old"])
    assert values_in(row.one("td", class_="digest-figure__now")) != old
    assert old not in [values_in(span) for span in row.all("span", class_="digest-figure__old")]
    points = [t.text().rpartition("：")[2] for svg in row.all("svg") for t in svg.all("title")]
    assert old not in points, points
    for svg in row.all("svg"):
        assert f"：{old}，" not in svg.attrs.get("aria-label", "") + "，"


def test_a_corrected_figure_shows_the_right_value_now(site, figure_correction: Case):
    """After a correction, the new value is current unless a later brief states the figure again
    (in an item, or in a later correction of the same figure)."""
    x, brief_id = figure_correction.data, figure_correction.brief
    entry_id = correction_entry(x)
    ids = list(briefs())
    later = later_statements(entry_id, x["key"], brief_id) + [
        (c.brief, c.data["new"])
        for c in figure_corrections()
        if ids.index(c.brief) > ids.index(brief_id)
        and c.data["key"] == x["key"]
        and correction_entry(c.data) == entry_id
    ]
    later.sort(key=lambda pair: ids.index(pair[0]))
    want = shown_value(later[-1][1] if later else x["new"])
    assert values_in(figure_row(site, entry_id, x["key"]).one("td", class_="digest-figure__now")) == want


def test_a_claim_correction_is_in_the_register_with_old_and_new(site, claim_correction: Case):
    x, brief_id = claim_correction.data, claim_correction.brief
    callout = site.callout(x["of"]["contradiction"])
    (row,) = story_rows(callout, brief_id, "resolved")
    assert f"· {OUTCOME_LABELS['corrected']}：" in row.text()
    spans = row.all("span", class_="digest-correction")
    assert len(spans) == len(x["of"]["corrections"])
    span = spans[claim_correction.index]
    assert span.text().startswith(f"{x['old']} → {x['new']}"), span.text()


def test_a_claim_correction_names_no_figure(site, claim_correction: Case):
    """The ``data-figure`` hook of a correction names the corrected figure; a claim has none."""
    x, brief_id = claim_correction.data, claim_correction.brief
    (row,) = story_rows(site.callout(x["of"]["contradiction"]), brief_id, "resolved")
    span = row.all("span", class_="digest-correction")[claim_correction.index]
    assert span.attrs.get("data-figure") in (None, x.get("key")), span.attrs


def visible_strings(node: Node, quote_of: str) -> Iterator[str]:
    """Every text and attribute value a reader (or a screen reader) gets from ``node``, except inside
    the quotes of the contradiction ``quote_of`` (its own callout quotes the claim)."""
    if node.attrs.get("data-withheld-quote") == quote_of:
        return
    for name, value in node.attrs.items():
        if name not in ("data-withheld-quote", "data-digest-contradiction", "data-withheld-by", "id", "href"):
            yield value
    if node.tag in NO_TEXT:
        return
    pending = []
    for child in node.children:
        if isinstance(child, str):
            pending.append(child)
        else:
            if pending:
                yield "".join(pending)
                pending = []
            yield from visible_strings(child, quote_of)
    if pending:
        yield "".join(pending)


def test_a_corrected_claim_appears_only_quoted_in_its_callout(site, corrected_claim: Case):
    c = corrected_claim.data
    spellings = {norm(c["text"]), *(norm(p) for p in c.get("patterns") or [])}
    cid = c["of"]["contradiction"]
    found = []
    for path in sorted(site.dir.rglob("*.html")):
        root = parse(path.read_text(encoding="utf-8"))
        text = norm(" ".join(visible_strings(root, cid)))
        found += [(path.relative_to(site.dir).as_posix(), s) for s in spellings if s in text]
    for doc in search_docs(site.dir):
        text = norm(re.sub(r"<[^>]+>", " ", f"{doc.get('title', '')} {doc.get('text', '')}"))
        found += [(f"search index {doc['location']}", s) for s in spellings if s in text]
    assert found == []


# --------------------------------------------------------------------------- retractions, evidence, sections


def test_a_retracted_item_is_shown_retracted_with_the_reason(site, retraction: Case):
    r, brief_id = retraction.data, retraction.brief
    entry = site.entry(entry_of(r["item"]))
    assert entry.attrs.get("data-retracted") == "true" and "digest-entry--retracted" in entry.classes
    assert entry.one(None, class_="digest-entry__title").all("del"), "the title is struck through"
    note = entry.one("p", class_="digest-retraction").text()
    assert note.startswith(f"已撤回（{brief_name(brief_id)}）：{norm(r['reason'])}"), note
    if r.get("superseded_by"):
        successor = entry_of(r["superseded_by"])
        links = entry.one("p", class_="digest-retraction").all("a")
        assert any(a.attrs.get("href", "").endswith(f"#entry-{successor}") for a in links), note
    (row,) = history_rows(entry, brief_id, "retracted")
    assert norm(r["reason"]) in row.text()
    changes = site.page(f"{TOPIC}/briefs/{brief_id}").one("li", data_change="entries_retracted")
    assert any(a.attrs.get("href", "").endswith(f"#entry-{entry_of(r['item'])}") for a in changes.all("a"))


def test_a_section_a_brief_opens_has_its_heading_and_provenance(site, new_section: Case):
    p, brief_id = new_section.data["placement"], new_section.brief
    number, title = p["section"], p["section_title"]
    chapter = site.page(f"{TOPIC}/{number.split('.')[0]}")
    anchor = "s" + number.replace(".", "-")
    heading = chapter.one("h2", id=anchor).text(skip=lambda n: "headerlink" in n.classes)  # not the ¶
    assert heading == f"§{number} {title}"
    body = chapter.one("div", data_section=number)
    origin = body.one("p", class_="digest-section__origin")
    assert origin.text() == f"由 {brief_name(brief_id)}新建"
    assert origin.attrs["data-opened-by"] == brief_id
    assert any(a.attrs.get("href", "").endswith(f"/briefs/{brief_id}/") for a in origin.all("a"))
    first = body.all("section", data_digest_entry=None)[0]
    assert first.attrs["data-digest-entry"] == new_section.data["id"]  # the opening item is its first entry


# --------------------------------------------------------------------------- follow-ups


def follow_up_row(site: Site, follow_up_id: str) -> Node:
    return site.page(f"{TOPIC}/follow-ups").one("li", data_follow_up=follow_up_id)


def test_each_follow_up_update_is_in_the_follow_ups_story(site, follow_up_update: Case):
    u, brief_id = follow_up_update.data, follow_up_update.brief
    meta = follow_up_row(site, u["follow_up"]).one("span", class_="digest-follow-up__meta").text()
    assert f"{brief_name(brief_id)} {FOLLOW_UP_LABELS[u['status']]}" in meta, meta


def test_a_follow_up_shows_its_final_status(site, follow_up_final: Case):
    u = follow_up_final.data
    row = follow_up_row(site, u["follow_up"])
    assert row.attrs["data-status"] == u["status"]
    meta = row.one("span", class_="digest-follow-up__meta").text()
    assert meta.startswith(f"（{FOLLOW_UP_LABELS[u['status']]} · "), meta
    listed = next(n for n in _ancestors(row) if n.tag == "ol")
    assert listed.attrs.get("data-list") == ("pending" if u["status"] in PENDING else "closed")


def _ancestors(node: Node) -> Iterator[Node]:
    while node.parent is not None:
        node = node.parent
        yield node


# --------------------------------------------------------------------------- the bibliography


def counts_of(key: str) -> dict[str, tuple[int, str]]:
    """The latest cited-by count of each source for a paper, with its date (the brief's when none)."""
    latest: dict[str, tuple[int, str]] = {}
    for b in briefs().values():
        for c in b.get("citations") or []:
            if paper(c["arxiv"]) == key:
                for x in c.get("cited_by") or []:
                    latest[x["source"]] = (x["count"], str(x.get("as_of") or b["date"]))
    return latest


def first_citing(key: str) -> str:
    return next(
        brief_id for brief_id, b in briefs().items() if any(paper(c["arxiv"]) == key for c in b.get("citations") or [])
    )


def test_a_refreshed_citation_keeps_its_number_and_shows_the_latest_counts(site, refreshed: Case):
    key = paper(refreshed.data["arxiv"])
    (ref,) = site.page(f"{TOPIC}/bibliography").all("div", data_arxiv=key, data_ref=None)
    number = ref.attrs["data-ref"]
    # the number the paper got from the brief that first cited it, also on the refreshing brief's page
    first = site.page(f"{TOPIC}/briefs/{first_citing(key)}").all("div", data_arxiv=key, data_ref=None)
    again = site.page(f"{TOPIC}/briefs/{refreshed.brief}").all("div", data_arxiv=key, data_ref=None)
    assert [d.attrs["data-ref"] for d in first] == [number]
    assert [d.attrs["data-ref"] for d in again] == [number]
    meta = ref.one("p", class_="digest-ref__meta").text()
    want = counts_of(key)
    assert want, f"no counts for {key} in the imported briefs"
    for source, (count, as_of) in want.items():
        assert f"被引 {count}（{source}，截至 {as_of}）" in meta, meta
