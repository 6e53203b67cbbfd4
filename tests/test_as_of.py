"""The doc as it stood on a past night (issue 32, first step): ``digest build/serve/export --as-of``.

The doc as of night D is the merge of the briefs up to D, except that today's withholdings hold there
too and a later release is noted.  The lifecycle fixtures hold the case that matters: 10-21 withholds
Kapitsa's 「周增 +175」, 10-22 resolves the contradiction (the claim may be written), 10-24 re-opens it
(withheld again).  So on 10-22 and 10-23 the claim was allowed then and is withheld today.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import copy_project
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


def test_as_of_on_the_zensical_host_says_it_needs_mkdocs_for_now(tmp_path):
    done = _digest("build", "--host", "zensical", "--as-of", "2026-10-22", cwd=_project(tmp_path))
    assert done.returncode == 2 and "--as-of works with the MkDocs host" in done.stderr


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
BANNER = re.compile(rb'<div class="digest-as-of" role="note" data-digest-as-of="[0-9-]+"><p>[^<]*</p></div>')


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
        if name != "404.html":  # the theme's own, no page of the doc
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
