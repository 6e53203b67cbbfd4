"""What the search index holds (issue 30): each statement once, where it lives, and not what only
qualifies it or is history.

A reader searches for what the doc says: an entry's title, points and evidence boundary, an open
contradiction's text, a pending follow-up, a paper.  What qualifies a statement (its sources, its
relation to the doc, where the brief proposed to put it), what is history (a settled contradiction's
text, a closed follow-up, an entry's change rows) and the round's own recommendations (a brief's
conclusions) stay on the pages but out of the index: at ten years they were most of its 16 M words,
and Pagefind's memory and a first search's bytes grow with them.

Built once from the shipped data and the lifecycle briefs (a contradiction settled, one superseded
and re-opened, follow-ups done, carried over and dropped); every expectation is read from those YAML
files, not from the renderer.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from helpers import copy_project, mkdocs_build
from ruamel.yaml import YAML


def briefs(root: Path) -> list[dict]:
    yaml = YAML(typ="safe")
    return [yaml.load(p.read_text(encoding="utf-8")) for p in sorted((root / "data" / "briefs").glob("*.yml"))]


def plain(text: str) -> str:
    """Text as a reader reads it, spaces and Pagefind's zero-width word breaks taken out."""
    return re.sub(r"\s+", "", str(text).replace("\u200b", ""))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    root = copy_project(tmp_path_factory.mktemp("scope"), lifecycle=True)
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr[-3000:]
    indexed = {}
    for path in (root / "site" / "pagefind" / "fragment").glob("*.pf_fragment"):
        record = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
        indexed[record["url"]] = plain(record["content"])
    return root, indexed


def anywhere(indexed: dict[str, str], text: str) -> list[str]:
    return [url for url, content in indexed.items() if plain(text) in content]


def final_states(all_briefs: list[dict], updates: str, key: str, field: str) -> dict[str, str]:
    """The last word the briefs say about each contradiction (or follow-up): change or status."""
    said: dict[str, str] = {}
    for b in sorted(all_briefs, key=lambda b: str(b["date"])):
        for u in b.get(updates) or []:
            said[u[key]] = u[field]
    return said


def test_an_entry_is_found_by_its_title_and_boundary_not_by_what_qualifies_it(built):
    root, indexed = built
    all_briefs = briefs(root)
    later = "".join(  # what later briefs say: one that names an item may give its entry a new boundary
        p.read_text(encoding="utf-8") for p in sorted((root / "data" / "briefs").glob("*.yml"))[1:]
    )
    checked = 0
    for item in all_briefs[0]["items"]:
        section = str(item["placement"].get("section") or "")
        boundary = plain(item["evidence"]["boundary"])[:24]
        entry = str(item["placement"].get("entry") or item["id"])
        if not section or "〔" in boundary or not boundary or item["id"] in later or entry in later:
            continue
        home = f"/inference/{section.split('.')[0]}/"
        assert boundary in indexed.get(home, ""), f"{item['id']}: its boundary is not searchable on {home}"
        relation = plain(item.get("relation") or "")[:24]
        if len(relation) == 24 and relation not in boundary:
            assert not anywhere(indexed, relation), f"{item['id']}: its relation to the doc is indexed"
            checked += 1
    assert checked >= 2


def test_a_settled_contradiction_is_found_by_its_title_an_open_one_by_its_text(built):
    root, indexed = built
    all_briefs = briefs(root)
    last = final_states(all_briefs, "contradiction_updates", "contradiction", "change")
    contradictions = [c for b in all_briefs for c in b.get("contradictions") or [] if not c.get("withheld")]
    settled = [c for c in contradictions if last.get(c["id"]) in ("resolved", "superseded")]
    still_open = [c for c in contradictions if c["id"] not in last]
    assert settled and still_open
    for c in settled:
        text = plain(c["text"])[:30]
        if text not in plain(c["title"]):
            assert not anywhere(indexed, text), f"{c['id']}: a settled contradiction's text is indexed"
        assert anywhere(indexed, plain(c["title"])[:12]), f"{c['id']}: its title is not searchable"
    for c in still_open:
        assert anywhere(indexed, plain(c["text"])[:30]), f"{c['id']}: an open contradiction's text is not indexed"


def test_a_closed_follow_up_is_history_a_pending_one_is_searchable(built):
    root, indexed = built
    all_briefs = briefs(root)
    last = final_states(all_briefs, "follow_up_updates", "follow_up", "status")
    follow_ups = [f for b in all_briefs for f in b.get("follow_ups") or []]
    closed = [f for f in follow_ups if last.get(f["id"]) in ("done", "dropped")]
    pending = [f for f in follow_ups if last.get(f["id"], "open") in ("open", "carried_over")]
    assert closed and pending
    for f in closed:
        assert not anywhere(indexed, plain(f["text"])[:30]), f"{f['id']}: a closed follow-up is indexed"
    for f in pending:
        assert "/inference/follow-ups/" in anywhere(indexed, plain(f["text"])[:30]), f["id"]


def test_a_brief_page_indexes_neither_its_conclusions_nor_copies_of_its_citations(built):
    root, indexed = built
    for b in briefs(root):
        page = indexed.get(f"/inference/briefs/{b['id']}/", "")
        for conclusion in b.get("conclusions") or []:
            assert plain(conclusion)[:24] not in page, f"{b['id']}: a conclusion is indexed"
        for citation in b.get("citations") or []:
            arxiv = re.sub(r"v\d+$", "", str(citation["arxiv"]).removeprefix("arXiv:"))  # a paper, whatever version
            assert arxiv not in page, f"{b['id']}: its copy of {arxiv} is indexed"
            assert any(arxiv in c for u, c in indexed.items() if u.startswith("/inference/bibliography/")), arxiv


def test_a_brief_page_is_indexed_only_for_what_lives_nowhere_else_and_every_brief_is_findable_by_date(built):
    """A brief whose items all went to §-pages adds nothing a reader searches for but its headings
    (at ten years, 3,650 of 4,700 records): its page is left out of the index (its items are searched
    where their entries live), and the brief is still found by its date on the briefs' index.  A
    brief page that is indexed holds an item of its own."""
    root, indexed = built
    left_out = 0
    for b in briefs(root):
        url = f"/inference/briefs/{b['id']}/"
        items = [[plain(t)[:20] for t in [item["title"], *(item.get("points") or [])]] for item in b.get("items") or []]
        if url in indexed:
            assert any(t in indexed[url] for said in items for t in said), f"{b['id']}: indexed for its headings alone"
        else:
            left_out += 1
        assert any(u != url for u in anywhere(indexed, str(b["date"]))), f"{b['id']}: not findable by its date"
    assert left_out, "every brief page is indexed: the lifecycle briefs' items all live on §-pages"
