"""`digest export` and the JSON-LD on every section page, checked against the YAML data.

The expectations here are worked out from data/ (and the lifecycle fixture briefs) with a plain YAML
reader, not from the plugin's model: a statement is an outline entry or a brief item placed as a new
entry; an ``update_in_place`` item changes the outline entry it names; a later brief's
``evidence_updates`` replace an item's evidence; ``retractions`` retract; ``contradiction_updates``
resolve, supersede or reopen; an open contradiction's ``withheld`` claims never reach a reader."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import LIFECYCLE, built, copy_project, line_of, run_cli
from html_dom import parse
from pyld import jsonld

HOST = "https://example.org/"
SCHEMA = "https://schema.org/"
PROV = "http://www.w3.org/ns/prov#"
XSD = "http://www.w3.org/2001/XMLSchema#"
DIGEST = "urn:digest:vocab:"
ARXIV_ID = re.compile(r"(?:arXiv:)?(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
LDJSON = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.S)


# --------------------------------------------------------------------------- the data, read as plain YAML


def load(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def strings(value) -> list[str]:
    """Every string in a YAML value, nested."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def bare_arxiv(identifier: str) -> str:
    m = ARXIV_ID.fullmatch(str(identifier).strip())
    assert m, identifier
    return m.group(1)


class Expected:
    """What the YAML under a data folder says the living doc holds."""

    def __init__(self, data: Path):
        self.vocabulary = load(data / "vocabulary.yml")
        outlines = sorted((data / "outlines").glob("*.yml"))
        assert len(outlines) == 1, outlines  # the shipped project has one topic
        self.outline = load(outlines[0])
        self.topic = self.outline["topic"]
        self.briefs = sorted(
            (load(p) for p in (data / "briefs").glob("*.yml")), key=lambda b: (str(b["date"]), b["id"])
        )
        assert self.briefs
        self.sections = {s["number"] for s in self.outline["sections"]}

        # statements -------------------------------------------------------------------------
        self.statements: dict[str, dict] = {}
        for e in self.outline.get("entries", []):
            self.statements[e["id"]] = {
                "origin": "outline",
                "section": e["section"],
                "title": e["title"],
                "items": [],
                "changes": [],
                "evidence": None,
                "retracted": False,
                "urls": [],
            }
        self.item_target: dict[str, str] = {}
        for b in self.briefs:
            bid, day = b["id"], str(b["date"])
            for item in b.get("items", []):
                placement = item.get("placement")
                if not placement or (item.get("evidence") or {}).get("level") == "discard":
                    continue
                if placement["action"] == "update_in_place":
                    target = placement["entry"]
                    assert target in self.statements, target
                else:
                    target = item["id"]
                    assert target not in self.statements, target
                    self.statements[target] = {
                        "origin": "brief",
                        "section": placement["section"],
                        "title": placement.get("entry_title") or item["title"],
                        "items": [],
                        "changes": [],
                        "evidence": None,
                        "retracted": False,
                        "urls": [],
                    }
                st = self.statements[target]
                st["items"].append((bid, day, item))
                st["changes"].append((bid, day))
                if item.get("evidence"):
                    st["evidence"] = item["evidence"]
                for url in (item.get("sources") or {}).get("urls", []):
                    if url not in st["urls"]:
                        st["urls"].append(url)
                self.item_target[item["id"]] = target
            for update in b.get("evidence_updates", []):
                st = self.statements[self.item_target[update["item"]]]
                st["evidence"] = update["evidence"]
                st["changes"].append((bid, day))
            for retraction in b.get("retractions", []):
                st = self.statements[self.item_target[retraction["item"]]]
                st["retracted"] = True
                st["changes"].append((bid, day))

        # contradictions ---------------------------------------------------------------------
        self.contradictions: dict[str, dict] = {}
        for b in self.briefs:
            for c in b.get("contradictions", []):
                self.contradictions[c["id"]] = {"brief": b["id"], "yaml": c, "status": c.get("status", "open")}
            for u in b.get("contradiction_updates", []):
                new = {"resolved": "resolved", "superseded": "superseded", "reopened": "open"}[u["change"]]
                self.contradictions[u["contradiction"]]["status"] = new

        # bibliography -----------------------------------------------------------------------
        self.citations: dict[str, dict] = {}
        for b in self.briefs:
            for c in b.get("citations", []):
                self.citations.setdefault(bare_arxiv(c["arxiv"]), {"brief": b["id"], "yaml": c})

    # ------------------------------------------------------------------------------------------
    def touching(self, statement_id: str) -> set[tuple[str, str, str]]:
        """(id, status, disposition) of every contradiction that touches the statement."""
        out = set()
        for cid, c in self.contradictions.items():
            touches = c["yaml"].get("touches") or {}
            targets = {self.item_target.get(i) for i in touches.get("items", [])} | set(touches.get("entries", []))
            if statement_id in targets:
                out.add((cid, c["status"], c["yaml"]["disposition"]))
        return out

    def open_spellings(self) -> set[str]:
        """Every spelling of a claim a contradiction still open after all briefs withholds."""
        out = set()
        for c in self.contradictions.values():
            if c["status"] == "open":
                for w in c["yaml"].get("withheld", []):
                    out.add(w["text"])
                    out.update(w.get("patterns", []))
        return out

    def cited(self, statement_id: str) -> set[str]:
        """The bibliography's arXiv ids the statement's brief item(s) cite in their text."""
        out = set()
        for _, _, item in self.statements[statement_id]["items"]:
            text = " ".join(strings({k: v for k, v in item.items() if k != "sources"}))
            out |= {m.group(1) for m in ARXIV_ID.finditer(text)} & set(self.citations)
        return out

    def page_of(self, section: str) -> str:
        return section.split(".")[0]

    def level_label(self, level: str) -> str:
        word = self.vocabulary["evidence_levels"][level]
        return word["label"] if isinstance(word, dict) else word


# --------------------------------------------------------------------------- helpers on the outputs


def cli(root: Path, *args: str, seed: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    return subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", "export", *args],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
    )


def anchor_exists(site: Path, url: str) -> bool:
    """Does the site-relative ``dir/#frag`` URL lead to an element with that id in the built site?"""
    path, _, frag = url.partition("#")
    assert not path.startswith("/") and "://" not in path, url
    page = site / path / "index.html"
    return page.is_file() and f'id="{frag}"' in page.read_text(encoding="utf-8")


def section_pages(site: Path, ex: Expected) -> dict[str, Path]:
    majors = sorted({ex.page_of(s) for s in ex.sections}, key=int)
    return {n: site / ex.topic / n / "index.html" for n in majors}


def ld_script(page: Path) -> str:
    tree = parse(page.read_text(encoding="utf-8"))
    scripts = tree.all("script", type="application/ld+json")
    assert len(scripts) == 1, f"{page}: {len(scripts)} JSON-LD scripts"
    (text,) = scripts[0].children
    return text


def page_entries(page: Path) -> list[str]:
    tree = parse(page.read_text(encoding="utf-8"))
    return [n.attrs["data-digest-entry"] for n in tree.all("section", class_="digest-entry", data_digest_entry=None)]


def base_of(ex: Expected, page_number: str) -> str:
    return f"{HOST}{ex.topic}/{page_number}/"


def values(node: dict, prop: str) -> list:
    return node.get(prop, [])


def ids(node: dict, prop: str) -> list[str]:
    return [v["@id"] for v in values(node, prop)]


def one_value(node: dict, prop: str) -> dict:
    found = values(node, prop)
    assert len(found) == 1, (node.get("@id"), prop, found)
    return found[0]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def projects(shipped_project: Path, lifecycle_site: Path) -> dict[str, Path]:
    return {"shipped": shipped_project, "lifecycle": lifecycle_site.parent}


@pytest.fixture(scope="module")
def exported(projects) -> dict[str, tuple[str, dict]]:
    """The JSON `digest export` prints for each project: (text, parsed)."""
    out = {}
    for name, root in projects.items():
        done = cli(root)
        assert done.returncode == 0, done.stderr
        out[name] = (done.stdout, json.loads(done.stdout))
    return out


@pytest.fixture(scope="module")
def expected(projects) -> dict[str, Expected]:
    return {name: Expected(root / "data") for name, root in projects.items()}


BOTH = pytest.mark.parametrize("which", ["shipped", "lifecycle"])


def topic_of(doc: dict, ex: Expected) -> dict:
    (topic,) = [t for t in doc["topics"] if t["topic"] == ex.topic]
    return topic


# --------------------------------------------------------------------------- the export


@BOTH
def test_export_envelope_lists_the_topic_and_its_briefs(which, exported, expected):
    _, doc = exported[which]
    ex = expected[which]
    assert doc["format"] == "digest-export/1"
    names = [t["topic"] for t in doc["topics"]]
    assert names == sorted(names) == [ex.topic]
    topic = topic_of(doc, ex)
    assert {"topic", "title", "briefs", "statements", "contradictions", "citations"} <= set(topic)
    assert topic["title"] == ex.outline["title"]
    assert topic["briefs"] == [{"id": b["id"], "date": str(b["date"]), "round": b["round"]} for b in ex.briefs]


@BOTH
def test_every_statement_of_the_data_and_no_other(which, exported, expected, projects):
    _, doc = exported[which]
    ex = expected[which]
    site = projects[which] / "site"
    statements = {s["id"]: s for s in topic_of(doc, ex)["statements"]}
    assert len(statements) == len(topic_of(doc, ex)["statements"]), "a statement id twice"
    assert set(statements) == set(ex.statements)
    for sid, want in ex.statements.items():
        got = statements[sid]
        assert got["origin"] == want["origin"], sid
        assert got["section"] == want["section"], sid
        assert got["title"] == want["title"], sid
        assert got["retracted"] is want["retracted"], sid
        assert got["sources"] == want["urls"], sid
        assert got["url"] == f"{ex.topic}/{ex.page_of(want['section'])}/#entry-{sid}", got["url"]
        assert anchor_exists(site, got["url"]), got["url"]
        if want["origin"] == "outline" and not want["items"]:
            assert got["provenance"] is None, sid
            assert got["evidence"] is None, sid
            assert got["last_changed"] is None, sid


@BOTH
def test_every_placed_item_is_traced_to_its_brief(which, exported, expected, projects):
    """Each placed item: the statement it made (or changed) names the first brief and item that
    placed it, with the brief's date, a URL to the item on the brief's page, and every brief that
    changed it in its history."""
    _, doc = exported[which]
    ex = expected[which]
    site = projects[which] / "site"
    statements = {s["id"]: s for s in topic_of(doc, ex)["statements"]}
    placed = 0
    for b in ex.briefs:
        for item in b.get("items", []):
            if item["id"] not in ex.item_target:
                continue
            placed += 1
            sid = ex.item_target[item["id"]]
            got = statements[sid]
            first_brief, first_day, first_item = ex.statements[sid]["items"][0]
            assert got["provenance"] is not None, sid
            assert {k: got["provenance"][k] for k in ("brief", "item", "date")} == {
                "brief": first_brief,
                "item": first_item["id"],
                "date": first_day,
            }, sid
            assert got["provenance"]["url"] == f"{ex.topic}/briefs/{first_brief}/#item-{first_item['id']}"
            assert anchor_exists(site, got["provenance"]["url"]), got["provenance"]["url"]
            history = [(h["brief"], h["date"]) for h in got["history"]]
            assert (b["id"], str(b["date"])) in history, (sid, b["id"], history)
            assert set(got["history"][0]) >= {"change", "brief", "date"}
    assert placed == sum(len(b.get("items", [])) for b in ex.briefs)  # every item of the data has a placement


@BOTH
def test_statement_evidence_history_and_last_change_are_current(which, exported, expected):
    _, doc = exported[which]
    ex = expected[which]
    statements = {s["id"]: s for s in topic_of(doc, ex)["statements"]}
    for sid, want in ex.statements.items():
        got = statements[sid]
        if want["evidence"] is None:
            assert got["evidence"] is None, sid
        else:
            ev = want["evidence"]
            assert got["evidence"] == {
                "level": ev["level"],
                "level_label": ex.level_label(ev["level"]),
                "gaps": ev.get("gaps", []),
                "source_kinds": ev.get("source_kinds", []),
                "boundary": ev.get("boundary"),
            }, sid
        changes = list(dict.fromkeys(want["changes"]))
        by_brief = list(dict.fromkeys((h["brief"], h["date"]) for h in got["history"] if h["brief"] is not None))
        assert by_brief == changes, sid
        if changes:
            assert got["last_changed"] == {"brief": changes[-1][0], "date": changes[-1][1]}, sid
        assert {(c["id"], c["status"], c["disposition"]) for c in got["contradictions"]} == ex.touching(sid), sid


def test_lifecycle_evidence_update_replaces_the_items(exported, expected):
    """Spelled out on the lifecycle data: 2026-10-22 E2 raises vllm-long-prefill-freeze from the
    2026-10-21 item's level to its evidence update's, and Kapitsa carries the 2026-10-24 item's."""
    _, doc = exported["lifecycle"]
    ex = expected["lifecycle"]
    statements = {s["id"]: s for s in topic_of(doc, ex)["statements"]}
    first = next(b for b in ex.briefs if b["id"] == "2026-10-21-inference-E1")
    e2 = next(b for b in ex.briefs if b["id"] == "2026-10-22-inference-E2")
    original = next(i for i in first["items"] if i["id"] == "vllm-long-prefill-freeze")["evidence"]
    (update,) = [u for u in e2["evidence_updates"] if u["item"] == "vllm-long-prefill-freeze"]
    assert original["level"] != update["evidence"]["level"]  # the fixture does change it
    got = statements["vllm-long-prefill-freeze"]
    assert got["evidence"]["level"] == update["evidence"]["level"]
    assert got["evidence"]["gaps"] == update["evidence"]["gaps"]
    assert got["last_changed"] == {"brief": e2["id"], "date": str(e2["date"])}
    last = ex.briefs[-1]
    kapitsa_item = next(i for i in last["items"] if i["placement"].get("entry") == "kapitsa")
    assert statements["kapitsa"]["origin"] == "outline"
    assert statements["kapitsa"]["evidence"]["boundary"] == kapitsa_item["evidence"]["boundary"]
    assert statements["kapitsa"]["last_changed"]["brief"] == last["id"]


@BOTH
def test_contradictions_follow_the_later_briefs(which, exported, expected, projects):
    _, doc = exported[which]
    ex = expected[which]
    site = projects[which] / "site"
    got = {c["id"]: c for c in topic_of(doc, ex)["contradictions"]}
    assert set(got) == set(ex.contradictions)
    spellings = ex.open_spellings()
    for cid, want in ex.contradictions.items():
        c, y = got[cid], want["yaml"]
        assert c["status"] == want["status"], cid
        assert c["disposition"] == y["disposition"], cid
        assert c["brief"] == want["brief"], cid
        assert c["number"] == y["number"], cid
        assert c["title"] == y["title"], cid
        assert c["withheld_claims"] == len(y.get("withheld", [])), cid
        touches = y.get("touches") or {}
        assert c["items"] == touches.get("items", []), cid
        touched_sections = set(touches.get("sections", []))
        reachable = touched_sections | {ex.statements[ex.item_target[i]]["section"] for i in touches.get("items", [])}
        reachable |= {ex.statements[e]["section"] for e in touches.get("entries", [])}
        assert touched_sections <= set(c["sections"]) <= reachable, (cid, c["sections"])
        assert anchor_exists(site, c["url"]), c["url"]
        if any(s in y["text"] for s in spellings):
            assert "〔暂扣" in c["text"], cid
            assert not any(s in c["text"] for s in spellings), cid
        else:
            assert c["text"] == y["text"], cid
    if which == "lifecycle":  # the fixture briefs resolve one, supersede one and reopen one
        assert got["kapitsa-weekly-gain"]["status"] == "open"
        assert got["long-prefill-no-version"]["status"] == "resolved"
        assert got["vllm-version-basis"]["status"] == "superseded"


@BOTH
def test_citations_are_the_bibliography(which, exported, expected, projects):
    _, doc = exported[which]
    ex = expected[which]
    bibliography = (projects[which] / "site" / ex.topic / "bibliography" / "index.html").read_text(encoding="utf-8")
    numbered = {a: int(n) for n, a in re.findall(r'data-ref="(\d+)" data-arxiv="([^"]+)"', bibliography)}
    got = topic_of(doc, ex)["citations"]
    assert [c["arxiv"] for c in got] == list(ex.citations)
    first = ex.outline.get("doc", {}).get("reference_count", 0) + 1
    assert [c["number"] for c in got] == list(range(first, first + len(got)))
    for c in got:
        want = ex.citations[c["arxiv"]]
        assert not c["arxiv"].lower().startswith("arxiv:")
        assert c["title"] == want["yaml"]["title"]
        assert c["year"] == want["yaml"].get("year")
        assert c["brief"] == want["brief"]
        assert c["down_weighted_by"] == want["yaml"].get("down_weighted_by")
        assert numbered[c["arxiv"]] == c["number"], "the bibliography page numbers it otherwise"


@BOTH
def test_no_withheld_claim_in_export_or_jsonld(which, exported, expected, projects):
    text, doc = exported[which]
    ex = expected[which]
    spellings = ex.open_spellings()
    assert spellings, "the data withholds a claim (kapitsa-weekly-gain stays open)"
    # the claim is in the contradiction's own YAML text: leaving it there would leak it
    assert any(s in c["yaml"]["text"] for c in ex.contradictions.values() for s in spellings)
    readable = json.dumps(doc, ensure_ascii=False)  # \u escapes must not hide it from this check
    for s in spellings:
        assert s not in text and s not in readable, s
    for page in section_pages(projects[which] / "site", ex).values():
        script = ld_script(page)
        readable = json.dumps(json.loads(script), ensure_ascii=False)
        for s in spellings:
            assert s not in script and s not in readable, (page, s)


# --------------------------------------------------------------------------- JSON-LD on the section pages


@BOTH
def test_jsonld_page_lists_exactly_the_statements_it_shows(which, exported, expected, projects):
    _, doc = exported[which]
    ex = expected[which]
    statements = {s["id"]: s for s in topic_of(doc, ex)["statements"]}
    pages = section_pages(projects[which] / "site", ex)
    seen = []
    for number, page in pages.items():
        raw = json.loads(ld_script(page))
        for prefix, iri in {"schema": SCHEMA, "prov": PROV, "xsd": XSD, "digest": DIGEST}.items():
            assert raw["@context"][prefix] == iri, (page, prefix)  # inline: nothing to fetch
        assert "@graph" in raw
        base = base_of(ex, number)
        nodes = {n["@id"]: n for n in jsonld.expand(raw, {"base": base})}
        webpage = nodes[base]
        assert webpage["@type"] == [SCHEMA + "WebPage"]
        shown = page_entries(page)
        parts = ids(webpage, SCHEMA + "hasPart")
        assert sorted(parts) == sorted(f"{base}#entry-{e}" for e in shown), page
        for sid in shown:
            node = nodes[f"{base}#entry-{sid}"]
            assert set(node["@type"]) == {SCHEMA + "Claim", PROV + "Entity"}, sid
            assert one_value(node, SCHEMA + "name")["@value"] == ex.statements[sid]["title"], sid
            assert HOST + statements[sid]["url"] == node["@id"], sid  # the export's URL is this node
        claims = {i for i, n in nodes.items() if SCHEMA + "Claim" in n.get("@type", [])}
        assert claims == set(parts), page
        seen += shown
    assert sorted(seen) == sorted(ex.statements), "every statement on exactly one section page"


@BOTH
def test_jsonld_provenance_matches_the_briefs(which, expected, projects):
    ex = expected[which]
    site = projects[which] / "site"
    checked = 0
    for number, page in section_pages(site, ex).items():
        base = base_of(ex, number)
        raw = json.loads(ld_script(page))
        nodes = {n["@id"]: n for n in jsonld.expand(raw, {"base": base})}
        latest = None
        for sid in page_entries(page):
            want = ex.statements[sid]
            node = nodes[f"{base}#entry-{sid}"]
            if not want["items"]:  # an outline entry no brief touched: nothing derived
                assert PROV + "wasDerivedFrom" not in node and PROV + "generatedAtTime" not in node, sid
                continue
            checked += 1
            derived = ids(node, PROV + "wasDerivedFrom")
            assert sorted(derived) == sorted(
                f"{HOST}{ex.topic}/briefs/{bid}/#item-{item['id']}" for bid, _, item in want["items"]
            ), sid
            for iri in derived:
                assert anchor_exists(site, iri.removeprefix(HOST)), iri
            generated = one_value(node, PROV + "generatedAtTime")
            assert generated == {"@type": XSD + "dateTime", "@value": f"{want['items'][0][1]}T00:00:00Z"}, sid
            modified = one_value(node, SCHEMA + "dateModified")
            assert modified == {"@type": XSD + "date", "@value": want["changes"][-1][1]}, sid
            latest = max(latest or "", modified["@value"])
            assert sorted(ids(node, SCHEMA + "isBasedOn")) == sorted(want["urls"]), sid
            assert sorted(ids(node, SCHEMA + "citation")) == sorted(
                f"https://arxiv.org/abs/{a}" for a in ex.cited(sid)
            ), sid
            assert one_value(node, DIGEST + "evidenceLevel")["@value"] == want["evidence"]["level"], sid
            gaps = [v["@value"] for v in values(node, DIGEST + "evidenceGaps")]
            assert sorted(gaps) == sorted(want["evidence"].get("gaps", [])), sid
        if latest:
            page_modified = one_value(nodes[base], SCHEMA + "dateModified")
            assert page_modified["@type"] == XSD + "date"
            assert page_modified["@value"] >= latest, page
    assert checked == sum(1 for s in ex.statements.values() if s["items"])


def test_jsonld_as_rdf_carries_the_lifecycle_provenance(expected, projects):
    """The same facts, as the N-Quads an RDF consumer reads: typed literals and absolute IRIs."""
    ex = expected["lifecycle"]
    site = projects["lifecycle"] / "site"
    quads: set[str] = set()
    for number, page in section_pages(site, ex).items():
        out = jsonld.to_rdf(json.loads(ld_script(page)), {"format": "application/n-quads", "base": base_of(ex, number)})
        quads |= {line.strip() for line in out.splitlines() if line.strip()}
    wanted = []
    for sid, want in ex.statements.items():
        if not want["items"]:
            continue
        subject = f"<{base_of(ex, ex.page_of(want['section']))}#entry-{sid}>"
        wanted.append(f'{subject} <{PROV}generatedAtTime> "{want["items"][0][1]}T00:00:00Z"^^<{XSD}dateTime> .')
        wanted.append(f'{subject} <{SCHEMA}dateModified> "{want["changes"][-1][1]}"^^<{XSD}date> .')
        for bid, _, item in want["items"]:
            wanted.append(f"{subject} <{PROV}wasDerivedFrom> <{HOST}{ex.topic}/briefs/{bid}/#item-{item['id']}> .")
        for url in want["urls"]:
            wanted.append(f"{subject} <{SCHEMA}isBasedOn> <{url}> .")
        wanted.append(f'{subject} <{DIGEST}evidenceLevel> "{want["evidence"]["level"]}" .')
    # kapitsa: three briefs changed it, and it is derived from all three of their items
    assert sum(f"#entry-kapitsa> <{PROV}wasDerivedFrom>" in w for w in wanted) == 3
    missing = [w for w in wanted if w not in quads]
    assert not missing, "\n".join(missing)
    # a retracted statement is still a claim on its page
    retracted = [sid for sid, s in ex.statements.items() if s["retracted"]]
    assert retracted
    for sid in retracted:
        subject = f"<{base_of(ex, ex.page_of(ex.statements[sid]['section']))}#entry-{sid}>"
        assert f"{subject} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{SCHEMA}Claim> ." in quads


def test_jsonld_escapes_markup_and_withholds_in_titles(tmp_path):
    """Titles that carry markup and a withheld claim: the script stays one element, the JSON round-
    trips the markup exactly, and neither it nor the export holds the withheld claim."""
    root = copy_project(tmp_path / "project")
    outline = root / "data" / "outlines" / "inference.yml"
    ex0 = Expected(root / "data")
    spelling = sorted(ex0.open_spellings())[0]
    markup = "Inferact <b>&amp;</script><script>alert(1)</script> 获大额融资"
    text = outline.read_text(encoding="utf-8")
    text = text.replace('    title: "Kapitsa"\n', f'    title: "Kapitsa {spelling}"\n', 1)
    text = text.replace(
        '    title: "Inferact 获大额融资"\n', f"    title: {json.dumps(markup, ensure_ascii=False)}\n", 1
    )
    outline.write_text(text, encoding="utf-8")
    ex = Expected(root / "data")
    assert ex.statements["inferact-funding"]["title"] == markup
    assert spelling in ex.statements["kapitsa"]["title"]
    site = built(root)
    page = site / "inference" / "1" / "index.html"
    script = ld_script(page)
    assert not set("<>&") & set(script), "markup written raw inside the script element"
    assert "\\u003c" in script  # written as JSON escapes instead
    base = base_of(ex, "1")
    nodes = {n["@id"]: n for n in jsonld.expand(json.loads(script), {"base": base})}
    assert one_value(nodes[f"{base}#entry-inferact-funding"], SCHEMA + "name")["@value"] == markup
    kapitsa = one_value(nodes[f"{base}#entry-kapitsa"], SCHEMA + "name")["@value"]
    assert kapitsa.startswith("Kapitsa") and "〔暂扣" in kapitsa
    readable = json.dumps(json.loads(script), ensure_ascii=False)
    export = cli(root)
    assert export.returncode == 0, export.stderr
    statements = {s["id"]: s for s in json.loads(export.stdout)["topics"][0]["statements"]}
    assert statements["inferact-funding"]["title"] == markup
    for s in ex.open_spellings():
        assert s not in readable and s not in script, s
        assert s not in export.stdout and s not in json.dumps(json.loads(export.stdout), ensure_ascii=False), s


# --------------------------------------------------------------------------- the command


def test_output_file_is_written_atomically(tmp_path, capsys, monkeypatch):
    root = copy_project(tmp_path / "project")
    ex = Expected(root / "data")
    plain = cli(root)
    assert plain.returncode == 0, plain.stderr
    out_dir = root / "out"
    out_dir.mkdir()
    (out_dir / "export.json").write_text("stale", encoding="utf-8")
    before = set(os.listdir(out_dir))
    code, out, err = run_cli("export", "-o", "out/export.json", cwd=root, capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0, err
    assert out.strip().splitlines() == [f"out/export.json: {len(ex.statements)} statements in 1 topic(s)"]
    assert (out_dir / "export.json").read_text(encoding="utf-8") == plain.stdout
    assert set(os.listdir(out_dir)) == before, "a temporary file was left beside the output"
    json.loads((out_dir / "export.json").read_text(encoding="utf-8"))


BREAKS = [
    pytest.param("      level: lead\n", "      level: bogus_level\n", "bogus_level", id="evidence-level"),
    pytest.param(
        '      section: "3.2"\n      action: new_sub_entry\n      entry_title: "ModelExpress',
        '      section: "9.9"\n      action: new_sub_entry\n      entry_title: "ModelExpress',
        '"9.9"',
        id="unknown-section",
    ),
]


@pytest.mark.parametrize(("old", "new", "token"), BREAKS)
def test_bad_data_fails_like_a_compiler_and_writes_nothing(old, new, token, tmp_path, shipped_project):
    """A broken copy of data/, given with --data: exit 1, ``file:line:col: error:``, no output."""
    broken = tmp_path / "broken-data"
    shutil.copytree(shipped_project / "data", broken)
    brief = broken / "briefs" / "2026-10-21-inference-E1.yml"
    text = brief.read_text(encoding="utf-8")
    assert old in text
    brief.write_text(text.replace(old, new, 1), encoding="utf-8")
    line = line_of(brief, token)
    col = brief.read_text(encoding="utf-8").splitlines()[line - 1].index(token) + 1
    root = copy_project(tmp_path / "project")  # its own data/ is fine: --data must be the one read
    target = root / "export.json"
    target.write_text("previous export", encoding="utf-8")
    done = cli(root, "--data", str(broken), "-o", "export.json")
    assert done.returncode == 1, (done.stdout, done.stderr)
    findings = re.findall(r"^(.+?):(\d+):(\d+): error: ", done.stderr, re.M)
    assert findings, done.stderr
    assert any(
        f.endswith("briefs/2026-10-21-inference-E1.yml") and int(n) == line and int(c) == col for f, n, c in findings
    ), (done.stderr, line, col)
    assert target.read_text(encoding="utf-8") == "previous export"
    assert sorted(p.name for p in root.iterdir()) == sorted(["mkdocs.yml", "docs", "data", "overrides", "export.json"])
    # and on standard output: nothing either
    done = cli(root, "--data", str(broken))
    assert done.returncode == 1 and done.stdout == "", done.stdout[:200]


def test_export_is_deterministic(projects):
    root = projects["lifecycle"]
    first = cli(root, seed="1")
    second = cli(root, seed="2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert first.stdout.encode("utf-8") == second.stdout.encode("utf-8")
    assert len(json.loads(first.stdout)["topics"][0]["briefs"]) == 1 + len(list(LIFECYCLE.glob("*.yml")))
