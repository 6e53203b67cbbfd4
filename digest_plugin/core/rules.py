"""Editorial rules: the checks the team does by hand today, from the numbers and evidence alone.

Two kinds, both configurable (``rules:`` of the digest plugin in mkdocs.yml):

* consistency of a brief's own numbers — a weekly gain larger than the total (Kapitsa
  "+175 > 155"), a count that drops without a note, a date after the brief's own date (or a
  first collection after the last), a citation year after it, citation counts from two sources
  that disagree by more than a factor (or a 0 beside a large count);
* what the site cannot link — a source URL on no public host (a private or loopback address,
  ``localhost``) or whose host is not ASCII (a look-alike of another name);
* evidence rules — lead-level, unverified or vendor-self-reported items may not be placed as a
  conclusion, and a down-weighted citation never supports one.

A finding the brief has already acknowledged (a contradiction that withholds the very figure)
is not reported again: the rule is there to catch what nobody noticed.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from .arxiv import key as arxiv_key
from .findings import Finding, locate
from .load import Dataset
from .model import Brief, Figure, MaterialRef, PlacementAction, Rules, Status, not_public
from .vocabulary import Vocabulary


def check_rules(dataset: Dataset, rules: Rules, today: dt.date | None = None) -> list[Finding]:
    """Findings (errors and warnings) of the editorial rules, brief by brief in date order."""
    findings: list[Finding] = []
    current: dict[tuple[str, str], Figure] = {}
    latest_counts: dict[tuple[str, str], dict[str, int]] = {}
    """(topic, paper) → the latest cited-by count of each source, as the bibliography shows them."""
    down = {arxiv_key(c.arxiv): c.down_weighted_by for b in dataset.briefs for c in b.citations if c.down_weighted_by}
    for outline in dataset.outlines.values():
        for entry in outline.entries:
            for figure in entry.figures:
                current[(entry.id, figure.key)] = figure
    withdrawn: dict[str, str] = {}
    """Papers a brief said were withdrawn, by key, and that brief (from then on no support)."""
    key = dataset.memo.key("rules", (today, rules))
    for brief in dataset.briefs:  # date order: "went down" compares with the latest earlier value
        at = _Locator(dataset, brief.id)
        withdrawn.update({arxiv_key(c.arxiv): brief.id for c in brief.citations if c.withdrawn})
        findings += _withdrawn_support(brief, withdrawn, at)
        findings += dataset.memo.findings("rules", brief, key, _own, brief, rules, at, today)
        findings += _drops(brief, current, at, set(rules.gain_totals))
        findings += _citation_counts(brief, rules, at, latest_counts)
        findings += _conclusions(brief, rules, down, at, dataset.vocabulary(brief.topic))
    return findings


def _own(brief: Brief, rules: Rules, at: _Locator, today: dt.date | None) -> list[Finding]:
    """The rules that read this brief alone (with the rules and the day): kept across ``serve`` rebuilds
    while the brief is unchanged (:mod:`memo`)."""
    return (
        _dates(brief, at, today, rules.allow_future_dates)
        + _collected(brief, at)
        + _hosts(brief, at)
        + _typed_numbers(brief, rules, at)
        + _gains(brief, rules, at)
    )


class _Locator:
    """Makes a finding located in one brief's file (the file is read for positions only if one is made)."""

    def __init__(self, dataset: Dataset, key: str) -> None:
        self.dataset, self.key, self.path = dataset, key, dataset.sources.get(key, key)

    def __call__(self, loc: tuple[Any, ...], message: str, hint: str | None = None, severity: str = "error") -> Finding:
        line, col = locate(self.dataset.tree(self.key), loc)
        return Finding(self.path, line, col, message, severity, hint)


def _dates(brief: Brief, at: _Locator, today: dt.date | None, allow_future: bool = False) -> list[Finding]:
    found = []
    if today is not None and brief.date > today + dt.timedelta(days=1) and not allow_future:
        found.append(at(("date",), f"brief date {brief.date} is in the future", "use the date the round was written"))
    for loc, value in _dated(brief):
        if value > brief.date:
            found.append(
                at(
                    loc,
                    f"date {value} is after the brief's own date {brief.date}",
                    "a brief can only report what was known on its date",
                )
            )
    for i, c in enumerate(brief.citations):
        if c.year is not None and c.year > brief.date.year:
            found.append(
                at(
                    ("citations", i, "year"),
                    f"year {c.year} of arXiv:{c.arxiv} is after the brief's own date {brief.date}",
                    "write the year the paper appeared",
                )
            )
    return found


def _materials(brief: Brief) -> Iterator[tuple[tuple[str | int, ...], MaterialRef]]:
    """(location, material) of every material the brief names: its own, its items', its contradictions'."""
    for i, m in enumerate(brief.materials):
        yield ("materials", i), m
    for i, item in enumerate(brief.items):
        for j, m in enumerate(item.sources.materials):
            yield ("items", i, "sources", "materials", j), m
    for i, c in enumerate(brief.contradictions):
        for j, m in enumerate(c.materials):
            yield ("contradictions", i, "materials", j), m


def _dated(brief: Brief) -> Iterator[tuple[tuple[str | int, ...], dt.date]]:
    """(location, date) of every date the brief gives for something it reports."""
    for loc, m in _materials(brief):
        if m.first_collected:
            yield loc + ("first_collected",), m.first_collected
        if m.last_collected:
            yield loc + ("last_collected",), m.last_collected
    for i, item in enumerate(brief.items):
        for j, f in enumerate(item.figures):
            if f.as_of:
                yield ("items", i, "figures", j, "as_of"), f.as_of
    for i, c in enumerate(brief.citations):
        for j, x in enumerate(c.cited_by):
            if x.as_of:
                yield ("citations", i, "cited_by", j, "as_of"), x.as_of


def _collected(brief: Brief, at: _Locator) -> list[Finding]:
    """A material cannot have been first collected after it was last collected."""
    return [
        at(
            loc + ("first_collected",),
            f"first_collected {m.first_collected} is after last_collected {m.last_collected}",
            "swap the two dates, or fix the wrong one",
        )
        for loc, m in _materials(brief)
        if m.first_collected and m.last_collected and m.first_collected > m.last_collected
    ]


def _hosts(brief: Brief, at: _Locator) -> list[Finding]:
    """Warnings for source URLs the site shows but does not link (see ``text.outbound``).

    The model already refused what cannot be read; what is left is well-formed but names a
    machine no reader can reach (an intranet, loopback or cloud-metadata address, ``localhost``),
    or a host in non-ASCII letters, which can imitate another name (``еxample.com`` with a
    Cyrillic е).  Either may be right (an internal tool the team does read): a warning asks."""
    found = []
    for i, item in enumerate(brief.items):
        for j, url in enumerate(item.sources.urls):
            host = urlsplit(url).hostname or ""
            loc = ("items", i, "sources", "urls", j)
            if (why := not_public(host)) is not None:
                found.append(
                    at(
                        loc,
                        f"source URL host {host} is not a public address ({why})",
                        "link the public source; the site shows this URL without a link",
                        severity="warning",
                    )
                )
            elif not host.isascii():
                found.append(
                    at(
                        loc,
                        f"source URL host {host} has non-ASCII letters, which can imitate another host",
                        f"write it in punycode: {host.encode('idna').decode('ascii')}",
                        severity="warning",
                    )
                )
    return found


NUMERIC_TEXT = re.compile(r"^[+-]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?$")
"""A number written as text, once full-width digits and signs are read as ASCII (NFKC)."""


def _typed_numbers(brief: Brief, rules: Rules, at: _Locator) -> list[Finding]:
    """Figures a rule compares as numbers (a gain and its total) must be written as numbers.

    ``"155"`` or ``１５５`` used to make the gain rule skip the figure without a word.  They are
    refused, with the number to write, rather than read as numbers: the site shows a figure as
    written, so a normalised value would be compared while another is shown; YAML 1.2 says a
    quoted 155 is text, and the project reads it so everywhere else (``verified: yes`` is not
    true); and a number in quotes or full-width is usually pasted from prose, where a person
    should look at it once.  Text that is no number at all (``约 150``) cannot be compared
    either: that is a warning, so the rule is never skipped in silence."""
    keys = set(rules.gain_totals) | set(rules.gain_totals.values())
    found = []
    for i, item in enumerate(brief.items):
        for j, figure in enumerate(item.figures):
            if figure.key not in keys or not isinstance(figure.value, str):
                continue
            loc = ("items", i, "figures", j, "value")
            plain = unicodedata.normalize("NFKC", figure.value).strip()
            if NUMERIC_TEXT.fullmatch(plain):
                found.append(
                    at(
                        loc,
                        f"{figure.label} {figure.value!r} is a number written as text",
                        f"write it as a number, without quotes: value: {plain.replace(',', '')}",
                    )
                )
            else:
                found.append(
                    at(
                        loc,
                        f"{figure.label} {figure.value!r} is not a number, so a gain cannot be checked against its total",
                        "write the number alone (value: 150) and the basis (口径) in note:",
                        severity="warning",
                    )
                )
    return found


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _withheld_figures(brief: Brief) -> set[tuple[str, str]]:
    """(item id, figure key) pairs an open contradiction of the brief already withholds."""
    return {
        (item, w.figure)
        for c in brief.contradictions
        if c.status is Status.open
        for w in c.withheld
        if w.figure
        for item in c.touches.items
    }


def _gains(brief: Brief, rules: Rules, at: _Locator) -> list[Finding]:
    found = []
    acknowledged = _withheld_figures(brief)
    for i, item in enumerate(brief.items):
        figures = {f.key: (j, f) for j, f in enumerate(item.figures)}
        for gain_key, total_key in rules.gain_totals.items():
            if gain_key in figures and total_key in figures:
                j, gain = figures[gain_key]
                total = figures[total_key][1]
                g, t = _number(gain.value), _number(total.value)
                if g is not None and t is not None and g > t and (item.id, gain_key) not in acknowledged:
                    found.append(
                        at(
                            ("items", i, "figures", j, "value"),
                            f"{gain.label} +{gain.value} is larger than the total {total.label} {total.value}",
                            "fix the basis (口径) of the figure, or record a contradiction that withholds it",
                        )
                    )
    return found


GAIN_DROP = 0.5
"""A gain over a period (周增) rises and falls week by week: only a fall below this share of the last
value (+175 → +58, a basis mixed up) asks for a note; a count (Stars) may never fall without one."""


def _drops(brief: Brief, current: dict[tuple[str, str], Figure], at: _Locator, gains: set[str]) -> list[Finding]:
    # a drop the same brief explains as a correction (旧 → 新) needs no note
    corrected = {(c.key, c.new) for u in brief.contradiction_updates for c in u.corrections if c.key}
    found = []
    for i, item in enumerate(brief.items):
        entry = item.placement.entry if item.placement.action is PlacementAction.update_in_place else item.id
        assert entry is not None, "Placement's validator: an update_in_place placement names its entry"
        for j, figure in enumerate(item.figures):
            before = current.get((entry, figure.key))
            old, new = _number(before.value) if before else None, _number(figure.value)
            if (
                before is not None
                and old is not None
                and new is not None
                and new < (old * GAIN_DROP if figure.key in gains else old)
                and not figure.note
                and (figure.key, figure.value) not in corrected
            ):
                found.append(
                    at(
                        ("items", i, "figures", j, "value"),
                        f"{figure.label} went down from {before.value} to {figure.value} without a note",
                        "add `note:` saying why (口径 change, correction…)",
                        severity="warning",
                    )
                )
            current[(entry, figure.key)] = figure
    return found


ZERO_BESIDE = 20
"""A cited-by count of 0 beside this many or more from another source is a lookup that failed (an
index that did not match the paper), not lag: a new paper can have a few citations in one index
and none yet in the other, twenty cannot."""


def _citation_counts(
    brief: Brief, rules: Rules, at: _Locator, latest: dict[tuple[str, str], dict[str, int]]
) -> list[Finding]:
    """A 0 beside a large count; and counts that diverge, judged on the latest count of each source
    (a brief that refreshes only S2 is compared with the OpenAlex count an earlier brief gave)."""
    found = []
    for i, c in enumerate(brief.citations):
        counts_now = latest.setdefault((brief.topic, arxiv_key(c.arxiv)), {})
        counts_now.update({x.source.value: x.count for x in c.cited_by})
        top = max(c.cited_by, key=lambda x: x.count, default=None)
        for j, x in enumerate(c.cited_by):
            if top is not None and x.count == 0 and top.count >= ZERO_BESIDE:
                found.append(
                    at(
                        ("citations", i, "cited_by", j, "count"),
                        f"arXiv:{c.arxiv} is cited 0 times in {x.source.value} but {top.count} times in {top.source.value}",
                        f"a 0 means {x.source.value} did not find the paper: check it there, or leave that count out",
                        severity="warning",
                    )
                )
        counts = [n for n in counts_now.values() if n > 0]
        if c.cited_by and len(counts) >= 2 and max(counts) > rules.citation_count_factor * min(counts):
            found.append(
                at(
                    ("citations", i, "cited_by"),
                    f"cited-by counts of arXiv:{c.arxiv} differ by more than {rules.citation_count_factor:g}× "
                    f"({', '.join(f'{n} {source}' for source, n in counts_now.items())})",
                    "check both sources, or raise `citation_count_factor`",
                    severity="warning",
                )
            )
    return found


def _withdrawn_support(brief: Brief, withdrawn: dict[str, str], at: _Locator) -> list[Finding]:
    """A conclusion that rests on a paper its authors withdrew (said so in this or an earlier brief)."""
    return [
        at(
            ("items", i, "supported_by", j),
            f"arXiv:{paper} was withdrawn by its authors (brief {withdrawn[arxiv_key(paper)]}) and cannot support "
            "a conclusion",
            "find other support, or place the item as a lead",
            severity="warning",
        )
        for i, item in enumerate(brief.items)
        if item.placement.as_conclusion
        for j, paper in enumerate(item.supported_by)
        if arxiv_key(paper) in withdrawn
    ]


def _conclusions(
    brief: Brief, rules: Rules, down: dict[str, str], at: _Locator, vocabulary: Vocabulary
) -> list[Finding]:
    found = []
    for i, item in enumerate(brief.items):
        if not item.placement.as_conclusion:
            continue
        ev = item.evidence
        weak = [vocabulary.label("evidence_levels", ev.level)] if ev.level in rules.no_conclusion_levels else []
        weak += [vocabulary.label("source_kinds", k) for k in ev.source_kinds if k in rules.no_conclusion_sources]
        if weak:
            found.append(
                at(
                    ("items", i, "placement", "as_conclusion"),
                    f"item {item.number} cannot be placed as a conclusion: its evidence is {'、'.join(weak)}",
                    "place it as a lead (remove `as_conclusion`) until the evidence is raised",
                )
            )
        for j, paper in enumerate(item.supported_by):
            if arxiv_key(paper) in down:
                found.append(
                    at(
                        ("items", i, "supported_by", j),
                        f"arXiv:{paper} is down-weighted ({down[arxiv_key(paper)]}) and cannot support a conclusion",
                        "cite it as a historical anchor only, or find other support",
                    )
                )
    return found
