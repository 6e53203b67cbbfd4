"""End to end: build the whole site with ``mkdocs build --strict`` and read the HTML as a reader would.

The expected facts come from the brief (``shared/briefs/2026-10-21-inference-E1.md``) and from the
data files that transcribe it (``data/``), never from the plugin's code: item ids, sections and
evidence levels are read from the brief YAML; a few facts are also asserted straight from the brief
(where each item was placed per 建议归入, Kapitsa 155 now / 105 on 2026-10-19, 11 contradictions,
arXiv 1605.08803 numbered 528 after the doc's 527 references, three E2 follow-ups).

HTML is parsed with the standard library only (``html.parser``).
"""

from __future__ import annotations

import html
import importlib.util
import os
import posixpath
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest
from helpers import Site, copy_project, mkdocs_build, replace_in, search_docs
from html_dom import Node, norm
from ruamel.yaml import YAML

PROJECT = Path(__file__).resolve().parents[1]
BRIEF_ID = "2026-10-21-inference-E1"
BRIEF_YAML = f"data/briefs/{BRIEF_ID}.yml"
BUILD_TIMEOUT = 300

# Facts read straight from the brief (not from the YAML, not from the code).
# 建议归入 of each of the 7 items: a distinctive piece of its title → the section it goes to.
PLACED_PER_BRIEF = [
    ("llm-d 1.0", "5.1"),
    ("TorchTPU", "1.1"),
    ("ModelExpress", "3.2"),
    ("长 prefill", "3.1"),
    ("Kapitsa", "1.1"),
    ("RecSys Vol.178", "5.2"),
    ("Braintrust", "5.2"),
]
# 四、本轮结论: the value rating the brief gives each item.
VALUE_PER_BRIEF = {
    "llm-d 1.0": "高价值",
    "TorchTPU": "高价值",
    "ModelExpress": "高价值",
    "长 prefill": "高价值但待回溯",
    "Kapitsa": "原地刷新",
    "RecSys Vol.178": "中等价值",
    "Braintrust": "中等价值",
}
ARXIV_ID = "1605.08803"
ARXIV_URL = "https://arxiv.org/abs/1605.08803"


def content(root: Node) -> Node:
    """The page's main content (Material puts it in <article class="md-content__inner md-typeset">)."""
    for node in root.iter():
        if node.tag == "article" and "md-content__inner" in node.classes:
            return node
    raise AssertionError("page has no main content article")


def is_callout(node: Node) -> bool:
    return node.tag == "details" and "data-digest-contradiction" in node.attrs


def inside_callout(node: Node) -> bool:
    return is_callout(node) or any(is_callout(a) for a in node.ancestors())


def by_attr(root: Node, name: str, value: str | None = None) -> list[Node]:
    return root.find_all(lambda n: name in n.attrs and (value is None or n.attrs[name] == value))


def callout_spans(raw: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every <details ... data-digest-contradiction=...>...</details>, nesting-aware."""
    spans, depth, start, callout_depth = [], 0, None, None
    for m in re.finditer(r"<(/?)details\b([^>]*)>", raw, re.I):
        if not m.group(1):
            depth += 1
            if start is None and re.search(r"\bdata-digest-contradiction\s*=", m.group(2)):
                start, callout_depth = m.start(), depth
        else:
            if start is not None and depth == callout_depth:
                spans.append((start, m.end()))
                start = callout_depth = None
            depth -= 1
    assert start is None, "unclosed contradiction callout"
    return spans


def outside_callouts(raw: str) -> str:
    pieces, last = [], 0
    for start, end in callout_spans(raw):
        pieces.append(raw[last:start])
        last = end
    pieces.append(raw[last:])
    return "".join(pieces)


# --------------------------------------------------------------------------------------------
# The built site
# --------------------------------------------------------------------------------------------


HOSTS = {
    # MkDocs 1.6 and its maintained fork ProperDocs run the digest plugin; Zensical runs only the
    # Markdown extension, after `digest pages` has written the generated pages into docs/.
    "mkdocs": lambda site: [[sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)]],
    "properdocs": lambda site: [
        [sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(site)]
    ],
    "zensical": lambda site: [
        [sys.executable, "-m", "digest_plugin.cli", "pages"],
        [sys.executable, "-m", "zensical", "build", "--clean"],
    ],
}


def run_build(project: Path, site: Path, host: str = "mkdocs") -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    for command in HOSTS[host](site):
        result = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        if result.returncode != 0:
            return result
    if host == "zensical":  # it writes to the config's site_dir, beside mkdocs.yml
        shutil.move(str(project / "site"), str(site))
    return result


def section_file(number: str) -> str:
    return f"inference/{number.split('.')[0]}/index.html"


BRIEF_FILE = f"inference/briefs/{BRIEF_ID}/index.html"
REGISTER_FILE = "inference/register/index.html"
BIBLIOGRAPHY_FILE = "inference/bibliography/index.html"
FOLLOW_UPS_FILE = "inference/follow-ups/index.html"


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def brief() -> dict:
    return load_yaml(PROJECT / BRIEF_YAML)


@pytest.fixture(scope="module")
def outline() -> dict:
    return load_yaml(PROJECT / "data/outlines/inference.yml")


@pytest.fixture(scope="module", params=sorted(HOSTS))
def site(request, tmp_path_factory) -> Site:
    host = request.param
    if importlib.util.find_spec(host) is None:
        pytest.skip(f"{host} is not installed (pip install -e '.[test]' installs it)")
    if host == "mkdocs":  # the same strict build other suites read: built once for the session
        project = request.getfixturevalue("shipped_project")
        return Site(project, project / "site")
    project = copy_project(tmp_path_factory.mktemp(f"site-e2e-{host}") / "project")
    site_dir = project.parent / "site"
    result = run_build(project, site_dir, host)
    assert result.returncode == 0, f"{host} build failed:\n{result.stdout}\n{result.stderr}"
    return Site(project, site_dir)


def withheld_patterns(brief: dict) -> list[str]:
    return [
        p
        for c in brief["contradictions"]
        if c["status"] == "open"
        for claim in c.get("withheld", [])
        for p in claim.get("patterns", [])
    ]


def visible_pieces(text: str, patterns: list[str]) -> list[str]:
    """The parts of a text that must still be visible once withheld claims are taken out of it."""
    if not patterns:
        return [text]
    return [p.strip() for p in re.split("|".join(map(re.escape, patterns)), text) if p.strip()]


def items_by_keyword(brief: dict) -> dict[str, dict]:
    found = {}
    for keyword, _ in PLACED_PER_BRIEF:
        matching = [i for i in brief["items"] if keyword in i["title"]]
        assert len(matching) == 1, f"the brief YAML should have one item about {keyword!r}"
        found[keyword] = matching[0]
    return found


# --------------------------------------------------------------------------------------------
# Items on their section pages
# --------------------------------------------------------------------------------------------


def test_site_has_the_six_section_pages(site):
    for n in range(1, 7):
        assert site.file(f"inference/{n}/index.html").is_file(), f"§{n} page missing"


def test_the_yaml_holds_the_seven_items_where_the_brief_places_them(brief):
    """The data the other tests read is the brief: 7 items, each in the section 建议归入 names first."""
    assert len(brief["items"]) == 7
    by_kw = items_by_keyword(brief)
    for keyword, section in PLACED_PER_BRIEF:
        assert str(by_kw[keyword]["placement"]["section"]) == section, keyword


@pytest.mark.parametrize("index", range(7))
def test_item_is_on_its_section_page_with_its_badge_and_boundary(site, brief, index):
    item = brief["items"][index]
    section = str(item["placement"]["section"])
    page = section_file(section)
    root = content(site.dom(page))
    elements = by_attr(root, "data-digest-item", item["id"])
    assert len(elements) == 1, f"{item['id']}: expected one element on {page}, found {len(elements)}"
    el = elements[0]
    assert el.attrs.get("data-section") == section
    assert el.attrs.get("data-brief") == BRIEF_ID

    badges = by_attr(el, "data-evidence")
    assert badges, f"{item['id']}: no evidence badge"
    assert badges[0].attrs["data-evidence"] == item["evidence"]["level"]

    # The boundary is readable without hovering: present as text outside the badge (its tooltip).
    boundary = norm(item["evidence"]["boundary"])
    outside_badge = el.text(skip=lambda n: "data-evidence" in n.attrs)
    assert boundary in outside_badge, f"{item['id']}: evidence boundary not visible as text"

    # The title is shown (minus any claim an open contradiction withholds).
    text = el.text()
    for piece in visible_pieces(item["title"], withheld_patterns(brief)):
        assert piece in text, f"{item['id']}: title piece {piece!r} not shown"

    # Its sources are links.
    hrefs = {a.attrs.get("href") for a in el.find_all(lambda n: n.tag == "a")}
    for url in item["sources"].get("urls", []):
        assert url in hrefs, f"{item['id']}: source {url} is not a link"

    # The brief it came from is linked.
    targets = {site.resolve(page, h)[0] for h in hrefs if h}
    assert BRIEF_FILE in targets, f"{item['id']}: no link to the brief page"


def test_each_item_appears_once_across_the_section_pages(site, brief):
    counts = {i["id"]: 0 for i in brief["items"]}
    for n in range(1, 7):
        for el in by_attr(content(site.dom(f"inference/{n}/index.html")), "data-digest-item"):
            counts[el.attrs["data-digest-item"]] = counts.get(el.attrs["data-digest-item"], 0) + 1
    assert counts == {i["id"]: 1 for i in brief["items"]}


@pytest.mark.parametrize("keyword,section", PLACED_PER_BRIEF)
def test_brief_placements_as_the_brief_states_them(site, brief, keyword, section):
    """Straight from the brief's 建议归入: e.g. llm-d 1.0 on §5, Kapitsa on §1, ModelExpress on §3."""
    root = content(site.dom(section_file(section)))
    hits = [
        el
        for el in by_attr(root, "data-digest-item")
        if el.attrs.get("data-section") == section and keyword in el.text()
    ]
    assert hits, f"no item about {keyword!r} in §{section} on {section_file(section)}"
    assert VALUE_PER_BRIEF[keyword] in hits[0].text(), f"{keyword}: value rating not shown"


def test_updated_kapitsa_entry_shows_155_now_and_105_in_its_history(site, brief):
    kapitsa = items_by_keyword(brief)["Kapitsa"]
    root = content(site.dom("inference/1/index.html"))
    entries = by_attr(root, "data-digest-item", kapitsa["id"])
    assert len(entries) == 1, "Kapitsa must be one entry updated in place, not two"
    entry = entries[0]
    assert entry.attrs.get("data-section") == "1.1"

    # Read the figures table the way a reader does: the Stars row, under 当前 (now) and 历史 (history).
    tables = [
        t
        for t in entry.find_all(lambda n: n.tag == "table")
        if any("当前" in th.text() for th in t.find_all(lambda n: n.tag == "th"))
    ]
    assert tables, "Kapitsa entry has no table of current values"
    table = tables[0]
    header = [
        c.text()
        for c in table.find_all(lambda n: n.tag == "tr")[0].children
        if isinstance(c, Node) and c.tag in ("th", "td")
    ]
    now_col = next(i for i, h in enumerate(header) if "当前" in h)
    hist_col = next(i for i, h in enumerate(header) if "历史" in h)
    stars_rows = []
    for tr in table.find_all(lambda n: n.tag == "tr")[1:]:
        cells = [c for c in tr.children if isinstance(c, Node) and c.tag in ("th", "td")]
        if cells and "Stars" in cells[0].text():
            stars_rows.append(cells)
    assert len(stars_rows) == 1, "Kapitsa entry should have one Stars row"
    cells = stars_rows[0]
    assert re.search(r"(?<!\d)155(?!\d)", cells[now_col].text()), cells[now_col].text()
    assert "105" not in cells[now_col].text()
    history = cells[hist_col].text()
    assert re.search(r"(?<!\d)105(?!\d)", history) and "2026-10-19" in history, history


def test_kapitsa_entry_never_states_the_weekly_gain(site):
    """周增 +175 exceeds the 155 total (contradiction 1): the entry may not state 175 in any form."""
    root = content(site.dom("inference/1/index.html"))
    entry = next(e for e in by_attr(root, "data-digest-item") if "Kapitsa" in e.text())
    text = entry.text(skip=is_callout)
    assert not re.search(r"(?<!\d)\+?\s*175(?!\d)", text), "the withheld weekly gain 175 is stated in the entry"


def test_plus_175_appears_nowhere_outside_contradiction_callouts(site):
    files = site.html_files()
    assert len(files) >= 10
    offenders = []
    for rel in files:
        outside = html.unescape(outside_callouts(site.raw(rel)))
        if "+175" in outside:
            offenders.append(rel)
    assert not offenders, f"'+175' outside a contradiction callout in: {offenders}"


def test_plus_175_is_inside_the_kapitsa_callout_on_the_register(site, brief):
    root = content(site.dom(REGISTER_FILE))
    callouts = by_attr(root, "data-digest-contradiction", "kapitsa-weekly-gain")
    assert len(callouts) == 1 and callouts[0].tag == "details"
    assert "+175" in callouts[0].text()


# --------------------------------------------------------------------------------------------
# Contradictions
# --------------------------------------------------------------------------------------------


def test_register_lists_all_eleven_contradictions_in_order(site, brief):
    expected = [c["id"] for c in sorted(brief["contradictions"], key=lambda c: c["number"])]
    assert len(expected) == 11  # the brief's list 二、 has 11 entries
    assert expected[0] == "kapitsa-weekly-gain" and "1605.08803" in brief["contradictions"][10]["title"]
    root = content(site.dom(REGISTER_FILE))
    callouts = by_attr(root, "data-digest-contradiction")
    assert [c.attrs["data-digest-contradiction"] for c in callouts] == expected
    for number, callout in enumerate(callouts, start=1):
        assert callout.tag == "details", "a callout is a Material admonition (<details>)"
        assert callout.attrs.get("data-status") == "open"
        title = next(c for c in brief["contradictions"] if c["number"] == number)["title"]
        # The title is readable; an arXiv id in it (#11) may become a numbered citation link, so compare
        # the pieces around the id, and the id itself.
        text = callout.text()
        ids = re.findall(r"arXiv:(\d{4}\.\d{4,5})", title)
        for piece in [*re.split(r"arXiv:\d{4}\.\d{4,5}", title), *ids]:
            assert norm(piece) in text, f"contradiction {number}: title piece {piece!r} not shown"
        assert re.search(rf"(?<!\d){number}(?!\d)", callout.text())


def touched_top_pages(contradiction: dict, brief: dict, outline: dict) -> set[str]:
    touches = contradiction.get("touches") or {}
    sections = {str(s) for s in touches.get("sections", [])}
    items = {i["id"]: str(i["placement"]["section"]) for i in brief["items"]}
    sections |= {items[i] for i in touches.get("items", [])}
    entries = {e["id"]: str(e["section"]) for e in outline["entries"]}
    sections |= {entries[e] for e in touches.get("entries", []) if e in entries}
    return {s.split(".")[0] for s in sections}


@pytest.mark.parametrize(
    "page,contradiction",
    [
        ("1", "kapitsa-weekly-gain"),
        ("3", "long-prefill-no-version"),
        ("3", "vllm-version-basis"),
        ("5", "recsys-paywall"),
    ],
)
def test_section_pages_carry_the_callouts_the_brief_implies(site, page, contradiction):
    root = content(site.dom(f"inference/{page}/index.html"))
    callouts = by_attr(root, "data-digest-contradiction", contradiction)
    assert callouts, f"§{page} page has no callout for {contradiction}"
    assert callouts[0].tag == "details"
    assert callouts[0].attrs.get("data-status") == "open"


def test_every_touched_section_page_has_the_callout(site, brief, outline):
    """Every open contradiction has a callout on each §-page it touches.  Discarded ones (丢弃级, the
    Contabo entry) are the exception: issue 3 keeps them off §1–§6 pages and in the register only."""
    missing = []
    for c in brief["contradictions"]:
        if c["status"] != "open" or c["disposition"] == "discarded":
            continue
        for top in touched_top_pages(c, brief, outline):
            root = content(site.dom(f"inference/{top}/index.html"))
            found = [
                n for n in by_attr(root, "data-digest-contradiction", c["id"]) if n.attrs.get("data-status") == "open"
            ]
            if not found:
                missing.append((c["id"], f"§{top}"))
    assert not missing, f"callouts missing: {missing}"


# --------------------------------------------------------------------------------------------
# arXiv citation and bibliography
# --------------------------------------------------------------------------------------------


def arxiv_links(root: Node) -> list[Node]:
    return root.find_all(
        lambda n: n.tag == "a" and "arxiv.org" in n.attrs.get("href", "") and ARXIV_ID in n.attrs.get("href", "")
    )


def test_arxiv_1605_08803_is_cited_as_528_linked_to_its_reference_which_links_to_arxiv(site, brief, outline):
    # 527 existing references (the brief: 引用→527) → the brief's one new arXiv id is number 528.
    assert outline["doc"]["reference_count"] == 527 and brief["living_doc"]["reference_count"] == 527
    cites = []
    for rel in site.html_files():
        dom = site.dom(rel)
        cites += [
            (rel, a)
            for a in dom.find_all(lambda n: n.tag == "a" and "digest-cite" in n.classes)
            if a.attrs.get("data-arxiv") == ARXIV_ID
        ]
    assert cites, "arXiv 1605.08803 is not cited anywhere"

    def in_reference(a: Node) -> bool:  # a reference entry (the bibliography, a brief's list of citations)
        node = a.parent
        while node is not None and "digest-ref" not in node.classes:
            node = node.parent
        return node is not None

    in_text = [(rel, a) for rel, a in cites if not in_reference(a)]
    assert in_text, "no statement cites 1605.08803"
    for rel, a in in_text:  # where it is used: the number, and a link to its bibliography entry
        assert "[528]" in a.text(), f"{rel}: {a.text()}"
        href = a.attrs["href"]
        assert href.endswith("#ref-528"), f"{rel}: {href}"
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), href.split("#")[0] or "."))
        assert target + "/index.html" == BIBLIOGRAPHY_FILE or target == posixpath.dirname(BIBLIOGRAPHY_FILE), href
    entries = [(rel, a) for rel, a in cites if in_reference(a)]
    assert BIBLIOGRAPHY_FILE in {rel for rel, _ in entries}
    for rel, a in entries:  # a reference entry links to the paper on arXiv
        assert a.attrs["href"] == ARXIV_URL, f"{rel}: {a.attrs['href']}"


def test_bibliography_has_the_paper_with_its_metadata_and_working_backlinks(site):
    root = content(site.dom(BIBLIOGRAPHY_FILE))
    # oa_status: green — the source's word is kept, the explanation stands beside it (issue 29, 6)
    facts = ["528", ARXIV_ID, "4677", "2066", "W2409550820", "10.48550/arxiv.1605.08803", "green（绿色"]
    candidates = [n for n in root.iter() if n is not root and arxiv_links(n) and all(f in n.text() for f in facts)]
    assert candidates, "bibliography does not show 1605.08803 with its metadata"
    entry = min(candidates, key=lambda n: sum(1 for _ in n.iter()))
    assert "Density Estimation Using Real NVP" in entry.text()
    doi = [a for a in entry.find_all(lambda n: n.tag == "a") if "doi.org" in a.attrs.get("href", "")]
    assert [a.attrs["href"] for a in doi] == ["https://doi.org/10.48550/arxiv.1605.08803"]

    backlinks = []
    for a in entry.find_all(lambda n: n.tag == "a"):
        href = a.attrs.get("href", "")
        if href and not re.match(r"(https?:|mailto:|#)", href) and "#" in href:
            backlinks.append(href)
    assert backlinks, "no back-link to where the paper is cited"
    for href in backlinks:
        target, anchor = site.resolve(BIBLIOGRAPHY_FILE, href)
        assert target is not None, f"back-link {href} leads to no page"
        node = site.anchor(target, anchor)
        cites_it = node.find_all(lambda n: n.tag == "a" and n.attrs.get("data-arxiv") == ARXIV_ID)
        assert cites_it, f"back-link {href}: the place it lands does not cite 1605.08803"


# --------------------------------------------------------------------------------------------
# Brief page, follow-ups, cross-reference stub, links, untitled sections
# --------------------------------------------------------------------------------------------


def test_brief_page_links_to_every_section_page_it_placed_items_in(site, brief):
    placed = {str(i["placement"]["section"]).split(".")[0] for i in brief["items"]}
    assert placed == {"1", "3", "5"}  # the brief: 仅在既有 §1.1 / §3.1 / §3.2 / §5.1 / §5.2 内挂载条目
    root = content(site.dom(BRIEF_FILE))
    targets = {
        site.resolve(BRIEF_FILE, a.attrs["href"])[0]
        for a in root.find_all(lambda n: n.tag == "a" and n.attrs.get("href"))
    }
    for top in placed:
        assert f"inference/{top}/index.html" in targets, f"brief page does not link to §{top}"


def test_brief_page_shows_all_seven_items(site, brief):
    root = content(site.dom(BRIEF_FILE))
    patterns = withheld_patterns(brief)
    for item in brief["items"]:
        els = by_attr(root, "data-digest-item", item["id"])
        assert els, f"brief page lacks {item['id']}"
        el = els[0]
        assert el.attrs.get("data-brief") == BRIEF_ID
        assert el.attrs.get("data-section") == str(item["placement"]["section"])
        assert by_attr(el, "data-evidence", item["evidence"]["level"])
        for piece in visible_pieces(item["title"], patterns):
            assert piece in el.text()
        # The brief page links each item to where it was placed.
        page = section_file(str(item["placement"]["section"]))
        targets = {
            site.resolve(BRIEF_FILE, a.attrs["href"])[0]
            for a in el.find_all(lambda n: n.tag == "a" and n.attrs.get("href"))
        }
        assert page in targets, f"{item['id']}: no link to {page}"
    assert len({e.attrs["data-digest-item"] for e in by_attr(root, "data-digest-item")}) == 7


def test_follow_ups_page_lists_the_three_open_follow_ups(site, brief):
    follow_ups = brief["follow_ups"]
    assert len(follow_ups) == 3 and all(f["status"] == "open" for f in follow_ups)  # 需 E2 跟进的三件事
    assert any("回溯 vLLM 长 prefill 冻结的原始 issue" in f["text"] for f in follow_ups)
    root = content(site.dom(FOLLOW_UPS_FILE))
    text = root.text()
    for f in follow_ups:
        assert text.count(norm(f["text"])) == 1, f"follow-up not listed once: {f['text']}"
    listed = [
        li for li in root.find_all(lambda n: n.tag == "li") if any(norm(f["text"]) in li.text() for f in follow_ups)
    ]
    # Count list entries a reader sees (innermost <li> holding a follow-up), not their wrappers.
    innermost = [li for li in listed if not any(o is not li and li in list(o.ancestors()) for o in listed)]
    assert len(innermost) == 3, [li.text() for li in innermost]


def test_cross_referenced_torchtpu_leaves_a_linked_stub_on_the_section_5_page(site, brief):
    tpu = items_by_keyword(brief)["TorchTPU"]
    assert {str(r["section"]) for r in tpu["placement"]["cross_refs"]} == {"5.1"}
    page5 = "inference/5/index.html"
    root = content(site.dom(page5))
    assert not by_attr(root, "data-digest-item", tpu["id"]), "§5 shows the whole TorchTPU item, not a stub"

    home = by_attr(content(site.dom("inference/1/index.html")), "data-digest-item", tpu["id"])
    assert home, "TorchTPU is not on the §1 page"
    home_el = home[0]

    good = []
    for a in root.find_all(lambda n: n.tag == "a" and n.attrs.get("href")):
        target, anchor = site.resolve(page5, a.attrs["href"])
        if target != "inference/1/index.html" or not anchor:
            continue
        found = site.dom(target).find_all(lambda n, anchor=anchor: n.attrs.get("id") == anchor)
        if not found:
            continue
        node = found[0]
        lands_in_entry = node is home_el or home_el in list(node.ancestors())
        wraps_only_entry = node in list(home_el.ancestors()) and by_attr(node, "data-digest-item") == [home_el]
        if lands_in_entry or wraps_only_entry:
            good.append(a)
    assert good, "no link on §5 resolves to the TorchTPU entry on §1"

    # The stub sits in §5.1: after the §5.1 heading and before the §5.2 heading.
    headings = root.find_all(lambda n: n.tag in ("h2", "h3", "h4"))
    order = list(root.iter())
    h51 = next(h for h in headings if h.text().startswith("§5.1"))
    h52 = next(h for h in headings if h.text().startswith("§5.2"))
    assert any(order.index(h51) < order.index(a) < order.index(h52) for a in good), "stub is not under §5.1"


def digest_elements(root: Node) -> list[Node]:
    def is_digest(n: Node) -> bool:
        return any(k.startswith("data-digest") for k in n.attrs) or any(c.startswith("digest") for c in n.classes)

    return [n for n in root.iter() if is_digest(n) and not any(is_digest(a) for a in n.ancestors())]


def digest_links(site: Site) -> list[tuple[str, str]]:
    links = []
    for rel in site.html_files():
        seen = set()
        for el in digest_elements(site.dom(rel)):
            for a in el.find_all(lambda n: n.tag == "a" and "href" in n.attrs):
                if id(a) not in seen:
                    seen.add(id(a))
                    links.append((rel, a.attrs["href"]))
    return links


def internal_links(site: Site) -> list[tuple[str, str]]:
    return [(rel, h) for rel, h in digest_links(site) if not re.match(r"(https?:|mailto:|#)", h)]


def test_every_internal_link_in_digest_content_resolves_to_a_page(site):
    internal = internal_links(site)
    assert len(internal) > 20
    broken = [(rel, href) for rel, href in internal if site.resolve(rel, href)[0] is None]
    assert not broken, "\n".join(map(str, broken))


def test_every_internal_link_in_digest_content_lands_on_its_anchor(site):
    """A link with a #fragment must land on an element with that id, not just on the page."""
    broken = []
    for rel, href in internal_links(site):
        target, anchor = site.resolve(rel, href)
        if target is not None and anchor and not site.has_anchor(target, anchor):
            broken.append((rel, href))
    assert not broken, "links to anchors that do not exist:\n" + "\n".join(map(str, broken))


def test_every_same_page_anchor_in_digest_content_exists(site):
    broken = [
        (rel, h)
        for rel, h in digest_links(site)
        if h.startswith("#") and len(h) > 1 and not site.has_anchor(rel, unquote(h[1:]))
    ]
    assert not broken, broken


def heading_title(node: Node) -> str:
    return node.text().replace("¶", "").strip()


def test_section_4_has_no_invented_title(site, outline):
    assert not any(s.get("title") for s in outline["sections"] if str(s["number"]) == "4")
    root = content(site.dom("inference/4/index.html"))
    h1 = root.find_all(lambda n: n.tag == "h1")
    assert h1 and heading_title(h1[0]) == "§4"
    title = site.dom("inference/4/index.html").find_all(lambda n: n.tag == "title")[0].text()
    assert title.split(" - ")[0].strip() == "§4", title
    # Control: a titled section does show its title (so the check above can tell the difference).
    h1_2 = content(site.dom("inference/2/index.html")).find_all(lambda n: n.tag == "h1")[0]
    assert heading_title(h1_2) == "§2 KV Cache"


def test_untitled_subsections_get_no_invented_title(site, outline):
    untitled = [str(s["number"]) for s in outline["sections"] if "." in str(s["number"]) and not s.get("title")]
    assert "1.2" in untitled and "5.3" in untitled
    for number in untitled:
        root = content(site.dom(section_file(number)))
        heads = [
            h
            for h in root.find_all(lambda n: re.fullmatch(r"h[1-6]", n.tag))
            if re.match(rf"§{re.escape(number)}(?!\d)", heading_title(h))
        ]
        assert heads, f"no heading for §{number}"
        rest = heading_title(heads[0])[len("§" + number) :]
        rest = re.sub(r"[\s（）()\[\]【】·:：—-]|未命名", "", rest)
        assert rest == "", f"§{number} got a title the brief never gave: {heading_title(heads[0])!r}"


# --------------------------------------------------------------------------------------------
# Security smoke and a broken brief
# --------------------------------------------------------------------------------------------

PAYLOAD = "<script>alert(1)</script> {{ cycler.__init__.__globals__.os.getcwd() }} __init__"


def test_brief_text_is_shown_literally_never_executed(tmp_path):
    project = copy_project(tmp_path / "project")
    path = project / BRIEF_YAML
    source = path.read_text(encoding="utf-8")
    data = load_yaml(path)
    item = next(i for i in data["items"] if "llm-d 1.0" in i["title"])
    point = item["points"][0]
    old_line = f'      - "{point}"\n'
    assert source.count(old_line) == 1
    path.write_text(source.replace(old_line, f"      - '{PAYLOAD}'\n"), encoding="utf-8")
    assert load_yaml(path)["items"][0]["points"][0] == PAYLOAD

    site_dir = tmp_path / "site"
    result = run_build(project, site_dir)
    assert result.returncode == 0, f"build failed:\n{result.stdout}\n{result.stderr}"
    site = Site(project, site_dir)
    section = str(item["placement"]["section"])
    for page in (section_file(section), BRIEF_FILE):
        raw = site.raw(page)
        el = by_attr(content(site.dom(page)), "data-digest-item", item["id"])[0]
        shown = [n for n in el.iter() if n.text() == PAYLOAD]
        assert shown, f"{page}: the point is not shown literally"
        assert "&lt;script" in raw
        assert "<script>alert" not in raw
        assert "{{ cycler" in html.unescape(raw)
        assert "<strong>init</strong>" not in raw
    for rel in site.html_files():
        raw = site.raw(rel)
        assert "<script>alert" not in raw, rel
        assert str(project) not in raw and str(project.resolve()) not in raw, f"{rel}: build folder leaked"


def test_broken_brief_fails_the_build_with_a_located_message(tmp_path):
    project = copy_project(tmp_path / "project")
    path = project / BRIEF_YAML
    lines = path.read_text(encoding="utf-8").split("\n")
    data = load_yaml(path)
    target = next(i for i in data["items"] if "ModelExpress" in i["title"])
    # The `section:` line of that item's placement.
    start = next(n for n, line in enumerate(lines) if line.strip() == f"- id: {target['id']}")
    place = next(n for n in range(start, len(lines)) if lines[n].strip() == "placement:")
    line_no = next(n for n in range(place, len(lines)) if lines[n].strip().startswith("section:"))
    old = lines[line_no]
    lines[line_no] = old.replace(f'"{target["placement"]["section"]}"', '"3.3"')
    assert lines[line_no] != old
    path.write_text("\n".join(lines), encoding="utf-8")
    key_col = len(old) - len(old.lstrip()) + 1
    value_col = lines[line_no].index('"3.3"') + 1

    site_dir = tmp_path / "site"
    result = run_build(project, site_dir)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "Traceback" not in output, output
    assert "§3.3" in output, output
    m = re.search(rf"{re.escape(BRIEF_YAML)}:(\d+):(\d+):", output)
    assert m, output
    assert int(m.group(1)) == line_no + 1, output
    assert int(m.group(2)) in (key_col, value_col), output
    assert not site_dir.exists() or not any(site_dir.iterdir()), "a broken brief still published a site"


# --------------------------------------------------------------------------------------------
# Strict builds that must fail, naming what is wrong
# --------------------------------------------------------------------------------------------


def test_strict_build_fails_on_a_rule_warning(tmp_path):
    project = copy_project(tmp_path / "project")
    replace_in(
        project / "mkdocs.yml",
        "      data_dir: data",
        "      data_dir: data\n      rules:\n        citation_count_factor: 2",
    )
    out = mkdocs_build(project)
    assert out.returncode != 0
    assert f"{BRIEF_YAML}:" in out.stderr and "differ by more than 2×" in out.stderr
    assert "Traceback" not in out.stderr


def test_strict_build_names_the_page_that_leaks_a_withheld_claim(tmp_path):
    project = copy_project(tmp_path / "project")
    page = project / "docs" / "inference" / "1.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nKapitsa 周增 +175，增长很快。\n", encoding="utf-8")
    out = mkdocs_build(project)
    assert out.returncode != 0
    # the page (by its source or its built file) and the claim, as contradiction 1 spells it
    assert re.search(r"inference/1(\.md|/index\.html): withheld claim '周增 \+175'", out.stderr), out.stderr[-2000:]


def test_invalid_rules_in_mkdocs_yml_are_reported_plainly(tmp_path):
    project = copy_project(tmp_path / "project")
    replace_in(
        project / "mkdocs.yml",
        "      data_dir: data",
        "      data_dir: data\n      rules:\n        citation_count_factr: 2",
    )
    out = mkdocs_build(project)
    assert out.returncode != 0 and "citation_count_factr" in out.stderr and "Traceback" not in out.stderr


def test_every_host_publishes_no_withheld_claim(site, tmp_path):
    """`digest verify` reads each host's finished site (Zensical's too, which runs no plugin and
    so no build-time check): no withheld claim in any page, attribute, feed or search index."""
    out = subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "verify", str(site.dir), "--data", str(site.project / "data")],
        cwd=site.project,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ok: no withheld claim" in out.stdout


def test_search_leaves_out_charts_count_tables_and_brief_metadata(shipped_project):
    """A search for Kapitsa finds statements, not the brief's job id or a chart's numbers."""

    text = " ".join(d["text"] + d["title"] for d in search_docs(shipped_project / "site"))
    job = load_yaml(PROJECT / BRIEF_YAML)["job"]["job_id"]
    assert job not in text, "the brief's job id is indexed"
    assert "Kapitsa" in text  # (the statements still are)
    site_html = (shipped_project / "site" / "index.html").read_text(encoding="utf-8")
    assert 'class="digest-counts" data-search-exclude' in site_html


def test_the_nights_changes_page_and_its_permalink_on_each_host(site, brief):
    """Issue 32 on either host: the shipped night has its section on October's changes page, with a row
    for each item it placed, and its permalink sends the reader there."""
    night = site.page("inference/changes/2026-10").one("div", data_night="2026-10-21")
    added = night.all("li", data_change="entries_added")
    assert added and len(added) <= len(brief["items"])
    assert len(night.all("li", data_change="contradictions_opened")) == len(brief["contradictions"])
    rel = "inference/changes/2026-10-21/index.html"
    refresh = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', site.raw(rel))
    assert refresh and site.resolve(rel, refresh.group(1)) == (
        "inference/changes/2026-10/index.html",
        "night-2026-10-21",
    )
