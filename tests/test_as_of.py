"""The doc as it stood on a past night (issue 32, first step): ``digest build/serve/export --as-of``.

The doc as of night D is the merge of the briefs up to D, except that today's withholdings hold there
too and a later release is noted.  The lifecycle fixtures hold the case that matters: 10-21 withholds
Kapitsa's 「周增 +175」, 10-22 resolves the contradiction (the claim may be written), 10-24 re-opens it
(withheld again).  So on 10-22 and 10-23 the claim was allowed then and is withheld today.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from helpers import copy_project, later_brief, night_brief, reshaping_changes
from helpers.shared import corpus_nights
from ruamel.yaml import YAML

from digest_plugin.core.asof import as_of, as_of_docs, briefs_until
from digest_plugin.core.doc import LivingDoc
from digest_plugin.core.merge import merge
from digest_plugin.core.model import Brief
from digest_plugin.core.pipeline import living_docs
from digest_plugin.site.export import export
from digest_plugin.site.layout import layouts

ROOT = Path(__file__).resolve().parents[1]
LIFECYCLE = ROOT / "tests" / "fixtures" / "lifecycle"
CLAIM = "周增 +175"
MARK = re.compile(r"〔暂扣[^〕]*〕")
NIGHT_PERMALINK = re.compile(r"inference/(changes|as-of)/\d{4}-\d\d-\d\d/(\w+/)?index\.html")


def _data(into: Path, *, without: tuple[str, ...] = ()) -> Path:
    data = into / "data"
    shutil.copytree(ROOT / "data", data)
    for brief in LIFECYCLE.glob("*.yml"):
        if brief.stem[:10] not in without:
            shutil.copy(brief, data / "briefs" / brief.name)
    return data


@pytest.fixture(scope="module")
def today(tmp_path_factory) -> LivingDoc:
    return living_docs(_data(tmp_path_factory.mktemp("as-of")))["inference"]


def _exported(doc: LivingDoc) -> str:
    return json.dumps(export(layouts({doc.topic: doc}), True), ensure_ascii=False, sort_keys=True, indent=1)


def _nights(doc: LivingDoc) -> list[dt.date]:
    return sorted({b.date for b in doc.briefs})


def test_each_night_as_of_is_the_merge_of_its_briefs_but_for_what_is_withheld_today(today):
    """Statement by statement (the export: ids, levels, values, statuses, texts): a past view equals a
    merge of only the briefs up to its night, once every withheld claim (a mark in the view; in the
    plain merge, a spelling withheld today) is written the same way."""
    assert _nights(today) == [dt.date(2026, 10, d) for d in (21, 22, 23, 24)]
    differed = []
    for night in _nights(today):
        past = as_of(today.outline, today.briefs, night, None, today.vocabulary, today=today)
        plain = merge(today.outline, briefs_until(today.briefs, night), None, today.vocabulary)
        assert past.as_of == night and [b.id for b in past.briefs] == [b.id for b in plain.briefs]
        view, merged = _exported(past), _exported(plain)
        assert today.withheld_pattern is not None
        normal = MARK.sub("〔W〕", today.withheld_pattern.sub("〔W〕", merged))
        assert MARK.sub("〔W〕", view) == normal, night
        if view != merged:
            differed.append(night)
    # the claim allowed on 10-22 and 10-23 and withheld today is the only difference, on those nights
    assert differed == [dt.date(2026, 10, 22), dt.date(2026, 10, 23)]


def test_a_claim_allowed_that_night_and_withheld_today_is_withheld_in_the_past_view(today):
    night = dt.date(2026, 10, 22)
    plain = merge(today.outline, briefs_until(today.briefs, night), None, today.vocabulary)
    assert not any(CLAIM in p for p in plain.withheld)  # resolved on 10-22: publishable that night
    past = as_of(today.outline, today.briefs, night, None, today.vocabulary, today=today)
    assert CLAIM in past.withheld and past.withheld[CLAIM].id == "kapitsa-weekly-gain"
    assert CLAIM not in _exported(past) and CLAIM in _exported(plain)
    assert past.released_later == {}  # withheld again today: nothing to note as released


def test_a_claim_withheld_that_night_and_released_later_stays_withheld_with_the_date_of_release(tmp_path):
    """Without 10-24 (which re-opens it), 10-22's resolution releases the claim for good: the view of
    10-21 still withholds it, and says 10-22 released it."""
    today = living_docs(_data(tmp_path, without=("2026-10-24",)))["inference"]
    assert CLAIM not in today.withheld
    past = as_of(today.outline, today.briefs, dt.date(2026, 10, 21), None, today.vocabulary, today=today)
    assert CLAIM in past.withheld and past.later_withheld == {}
    assert {k: b.id for k, b in past.released_later.items()} == {"kapitsa-weekly-gain": "2026-10-22-inference-E2"}


def test_a_night_before_every_brief_is_the_outline_alone_and_a_night_after_them_is_today(today):
    before = as_of_docs({"inference": today}, dt.date(2026, 10, 1))["inference"]
    assert before.briefs == () and not before.items
    after = as_of_docs({"inference": today}, dt.date(2027, 1, 1))["inference"]
    assert _exported(after) == _exported(today) and after.later_withheld == {} and after.released_later == {}


def test_the_view_reads_the_briefs_in_any_order(today):
    night = dt.date(2026, 10, 23)
    shuffled: list[Brief] = list(reversed(today.briefs))
    a = as_of(today.outline, today.briefs, night, None, today.vocabulary, today=today)
    b = as_of(today.outline, shuffled, night, None, today.vocabulary)
    assert _exported(a) == _exported(b)


# --------------------------------------------------------------------------- the command line


def _digest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "digest_plugin.cli", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def _project(into: Path, *, without: tuple[str, ...] = ()) -> Path:
    """The shipped project with the lifecycle briefs, except those of the nights ``without`` names."""
    copy_project(into, lifecycle=True)
    for night in without:
        for brief in (into / "data" / "briefs").glob(f"{night}-*.yml"):
            brief.unlink()
    return into


def test_export_as_of_equals_the_export_of_the_briefs_up_to_that_night(tmp_path):
    """10-21 is a night with nothing withheld since: its view is exactly a data folder of its briefs."""
    full = _project(tmp_path / "full")
    cut = _project(tmp_path / "cut", without=("2026-10-22", "2026-10-23", "2026-10-24"))
    view = _digest("export", "--as-of", "2026-10-21", cwd=full)
    assert view.returncode == 0, view.stderr
    plain = _digest("export", cwd=cut)
    assert plain.returncode == 0, plain.stderr
    assert view.stdout == plain.stdout
    later = _digest("export", "--as-of", "2026-10-22", cwd=full)
    assert later.returncode == 0 and CLAIM not in later.stdout and "〔暂扣" in later.stdout


@pytest.mark.parametrize("value", ["2026-13-01", "10-22", "yesterday"])
def test_a_night_that_is_no_date_is_a_usage_error_that_says_how_to_write_it(tmp_path, value):
    done = _digest("export", "--as-of", value, cwd=_project(tmp_path))
    assert done.returncode == 2
    assert f"«{value}» is not a night" in done.stderr and "YYYY-MM-DD" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_as_of_on_the_zensical_host_says_it_needs_mkdocs_for_now(tmp_path):
    done = _digest("serve", "--host", "zensical", "--as-of", "2026-10-22", cwd=_project(tmp_path))
    assert done.returncode == 2 and "--as-of works with the MkDocs host" in done.stderr


def test_build_as_of_on_zensical_gives_the_past_view_with_its_banner_and_no_leak(tmp_path):
    """Zensical runs no plugin: `digest build --host zensical --as-of` hands the past view to the extension,
    puts the banner on every page and runs the leak check on what it wrote."""
    project = _project(tmp_path / "p")
    done = _digest("build", "--host", "zensical", "--as-of", "2026-10-22", cwd=project)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    pages = _pages(project / "site")
    assert len(pages) > 10
    for name, page in pages.items():
        if name != "404.html":
            assert len(BANNER.findall(page)) == 1, name
    assert not [n for n, p in pages.items() if CLAIM.encode() in QUOTED.sub(b"", p)]
    assert b'data-withheld-by="kapitsa-weekly-gain"' in pages["inference/1/index.html"]


def test_an_as_of_option_that_is_no_date_stops_the_build_with_the_fix(tmp_path):
    project = _project(tmp_path)
    config = project / "mkdocs.yml"
    yaml = YAML()
    settings = yaml.load(config.read_text(encoding="utf-8"))
    for plugin in settings["plugins"]:
        if isinstance(plugin, dict) and "digest" in plugin:
            plugin["digest"] = {**(plugin["digest"] or {}), "as_of": "Oct 22"}
    with config.open("w", encoding="utf-8") as out:
        yaml.dump(settings, out)
    done = _digest("build", cwd=project)
    assert done.returncode != 0
    assert "as_of «Oct 22» is not a date; write the night as YYYY-MM-DD" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def _pages(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*.html"))}


QUOTED = re.compile(
    rb'<span class="digest-withheld-quote"[^>]*>[^<]*</span>|<mark data-withheld-claim="[^"]*">[^<]*</mark>'
)
BANNER = re.compile(
    rb'<div class="digest-as-of" role="note" data-digest-as-of="[0-9-]+" data-search-exclude data-pagefind-ignore>'
    rb"<p>[^<]*</p></div>"
)


def test_build_as_of_a_night_is_the_site_of_its_briefs_with_a_banner_and_withholds_what_today_withholds(tmp_path):
    """End to end, through MkDocs: the view of 10-21 (nothing withheld since) is, page for page and byte
    for byte, the site of a data folder cut after 10-21, but for the banner every page shows; the view
    of 10-22 keeps today's claim out of every page, where a build of 10-22's briefs shows it."""
    full = _project(tmp_path / "full")
    cut = _project(tmp_path / "cut", without=("2026-10-22", "2026-10-23", "2026-10-24"))
    done = _digest("build", "--as-of", "2026-10-21", "-d", str(tmp_path / "view"), cwd=full)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _digest("build", "-d", str(tmp_path / "plain"), cwd=cut).returncode == 0
    view, plain = _pages(tmp_path / "view"), _pages(tmp_path / "plain")
    assert view.keys() == plain.keys() and len(view) > 10
    for name, page in view.items():
        # the theme's own 404, no page of the doc; a night's permalink, which sends the reader on at once
        if name != "404.html" and not NIGHT_PERMALINK.fullmatch(name):
            assert len(BANNER.findall(page)) == 1 and "2026-10-21 当晚的活文档".encode() in page, name
        assert BANNER.sub(b"", page) == plain[name], name
    assert not (full / "site").exists()  # -d: the configured site folder is left alone

    done = _digest("build", "--as-of", "2026-10-22", "-d", str(tmp_path / "view22"), cwd=full)
    assert done.returncode == 0, done.stderr[-2000:]
    cut22 = _project(tmp_path / "cut22", without=("2026-10-23", "2026-10-24"))
    assert _digest("build", "-d", str(tmp_path / "plain22"), cwd=cut22).returncode == 0
    shown = [n for n, p in _pages(tmp_path / "plain22").items() if CLAIM.encode() in QUOTED.sub(b"", p)]
    assert shown  # that night the claim was publishable, and pages showed it
    # only its own callout quotes it, as today's site does (the leak check below allows exactly that)
    assert not [n for n, p in _pages(tmp_path / "view22").items() if CLAIM.encode() in QUOTED.sub(b"", p)]
    assert b"data-withheld-later" not in b"".join(_pages(tmp_path / "view22").values())  # 10-21 opened it: linked
    verify = _digest("verify", str(tmp_path / "view22"), cwd=full)
    assert verify.returncode == 0, verify.stdout + verify.stderr


LATER_BRIEF = """schema: 1
id: "2026-10-25-inference-E1"
topic: inference
round: E1
title: "inference · E1 预消化简报（2026-10-25）〔测试夹具〕"
date: 2026-10-25
author: "测试夹具"
contradictions:
  - id: modelexpress-native-load
    number: 1
    title: "「原生支持」的版本口径未核"
    text: "上游发布说明里找不到 --load-format modelexpress；在核实前不要把「原生支持 --load-format modelexpress」写进活文档。"
    touches:
      items: [modelexpress-weight-transfer]
    disposition: with_label
    withheld:
      - text: "原生支持 --load-format modelexpress"
        patterns: ["原生支持 --load-format modelexpress"]
"""


def test_a_past_view_withholds_a_claim_a_later_night_opened_a_contradiction_on_without_a_link_to_it(tmp_path):
    """10-25 finds that 10-21's 「原生支持 --load-format modelexpress」 may be wrong: the view of 10-21 wrote it
    as fact, yet must not now.  Its mark names today's contradiction (「2026-10-25 矛盾 1」), and links
    nowhere, since the brief of 10-25 is not in the view; the view of 10-21 without 10-24 says 10-22
    released the Kapitsa claim."""
    project = _project(tmp_path / "p", without=("2026-10-24",))
    (project / "data" / "briefs" / "2026-10-25-inference-E1.yml").write_text(LATER_BRIEF, encoding="utf-8")
    done = _digest("build", "--as-of", "2026-10-21", "-d", str(tmp_path / "view"), cwd=project)
    assert done.returncode == 0, done.stderr[-2000:]
    pages = _pages(tmp_path / "view")
    claim = "原生支持 --load-format modelexpress".encode()
    assert not [n for n, p in pages.items() if claim in QUOTED.sub(b"", p)]
    marks = re.findall(
        rb'<span class="digest-withheld" data-withheld-by="modelexpress-native-load"[^>]*>([^<]*)</span>',
        b"".join(pages.values()),
    )
    assert marks and all("2026-10-25 矛盾 1".encode() in m for m in marks if "暂扣，见".encode() in m)
    assert b'<a class="digest-withheld" data-withheld-by="modelexpress-native-load"' not in b"".join(pages.values())
    assert (
        "2026-10-22 的简报已解除暂扣；此处按 2026-10-21 当晚的状态，仍暂扣".encode()
        in pages["inference/register/index.html"]
    )
    assert _digest("verify", str(tmp_path / "view"), cwd=project).returncode == 0


def test_diff_between_two_nights_lists_what_the_briefs_between_them_changed(tmp_path):
    """`digest diff --from 10-21 --to 10-22`: 10-22's brief resolves Kapitsa's contradiction, updates the
    Kapitsa entry (155 → 160 Stars) and closes a follow-up; nothing 10-23 or 10-24 did is in it."""
    project = _project(tmp_path)
    done = _digest("diff", "--from", "2026-10-21", "--to", "2026-10-22", "--format", "json", cwd=project)
    assert done.returncode == 0, done.stderr
    topic = json.loads(done.stdout)["topics"]["inference"]
    text = json.dumps(topic, ensure_ascii=False)
    assert any("Kapitsa 卡片数值自相矛盾" in line for line in topic["Contradictions resolved"])
    assert any("Stars 155 → 160" in line for line in topic["Entries updated"])
    assert "2026-10-22-inference-E2" in text
    assert "2026-10-23-inference-E1" not in text and "2026-10-24-inference-E1" not in text
    assert "Stars 160 → 170" not in text  # 10-24's refresh
    markdown = _digest("diff", "--from", "2026-10-21", "--to", "2026-10-22", cwd=project)
    assert markdown.returncode == 0 and "Kapitsa 卡片数值自相矛盾" in markdown.stdout
    # to today: 10-24's re-opening is there too; one night to itself changes nothing
    since = json.loads(_digest("diff", "--from", "2026-10-23", "--format", "json", cwd=project).stdout)
    assert any("Kapitsa" in line for lines in since["topics"]["inference"].values() for line in lines)
    same = _digest("diff", "--from", "2026-10-22", "--to", "2026-10-22", "--format", "json", cwd=project)
    assert json.loads(same.stdout)["changed"] is False


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((), "give a git ref"),
        (("HEAD", "--from", "2026-10-21"), "give a git ref"),
        (("--to", "2026-10-22"), "give a git ref"),
        (("--from", "2026-10-23", "--to", "2026-10-22"), "is before --from 2026-10-23; swap them"),
    ],
)
def test_diff_asked_for_no_pair_or_a_backward_one_says_how_to_ask(tmp_path, args, says):
    done = _digest("diff", *args, cwd=_project(tmp_path))
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


def test_serve_as_of_previews_the_past_view(tmp_path):
    """`digest serve --as-of 2026-10-22`: the preview's pages carry the banner and keep today's claim out."""
    project = _project(tmp_path / "p")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (tmp_path / "serve.log").open("w", encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "digest_plugin.cli", "serve", "--as-of", "2026-10-22", "-a", f"127.0.0.1:{port}"],
        cwd=project,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        page, deadline = "", time.monotonic() + 90
        while time.monotonic() < deadline and "data-digest-as-of" not in page:
            assert server.poll() is None, (tmp_path / "serve.log").read_text(encoding="utf-8")[-3000:]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/inference/1/", timeout=5) as response:
                    page = response.read().decode("utf-8")
            except OSError:
                time.sleep(0.5)
        assert 'data-digest-as-of="2026-10-22"' in page, (tmp_path / "serve.log").read_text(encoding="utf-8")[-3000:]
        assert "Kapitsa" in page and CLAIM not in QUOTED.sub(b"", page.encode()).decode()
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()


def test_moves_splits_renames_and_errata_show_in_a_past_view_as_they_stood_that_night(shipped):
    """A night that moves an entry, splits one, renames a section and corrects the night before, then a
    quiet night: the view of the first night shows none of it, the view of the reshaping night all of
    it, each equal to a merge of the briefs up to it (the issue-17 changes in a past view)."""
    reshaping = later_brief(**reshaping_changes())
    quiet = Brief.model_validate(
        {
            **night_brief(),
            "id": "2026-10-23-inference-E1",
            "date": "2026-10-23",
            "title": "inference · E1（2026-10-23）",
        }
    )
    outline, briefs = shipped.outlines["inference"], [*shipped.briefs, reshaping, quiet]
    today = merge(outline, briefs)
    for night, expect_moved in ((dt.date(2026, 10, 21), False), (dt.date(2026, 10, 22), True)):
        past = as_of(outline, briefs, night, today=today)
        assert _exported(past) == _exported(merge(outline, briefs_until(briefs, night))), night
        assert (past.entries["inferact-funding"].section == "5.2") is expect_moved
        assert bool(past.entries["torchtpu-backends"].split_into) is expect_moved
        assert (past.sections["3.1"].section.title == "调度算法与分块调参") is expect_moved
        assert bool(past.errata_received.get("2026-10-21-inference-E1")) is expect_moved
    assert today.entries["inferact-funding"].section == "5.2"


def test_each_corpus_night_as_of_is_the_merge_of_its_briefs_but_for_what_is_withheld_today(tmp_path):
    """The twelve corpus nights (tests/corpus/days/, imported as an editor would) and the shipped one:
    the same comparison as the lifecycle's, on data nobody here wrote."""
    work, nights = corpus_nights()
    assert len(nights) == 12 and not any(n.errors for n in nights)
    today = living_docs(work / "data")["inference"]
    assert len(_nights(today)) == 13 and today.withheld_pattern is not None
    for night in _nights(today):
        past = as_of(today.outline, today.briefs, night, None, today.vocabulary, today=today)
        plain = merge(today.outline, briefs_until(today.briefs, night), None, today.vocabulary)
        normal = MARK.sub("〔W〕", today.withheld_pattern.sub("〔W〕", _exported(plain)))
        assert MARK.sub("〔W〕", _exported(past)) == normal, night
