"""The charts a reader sees (site/chart.py), from figures and counts made here: an entry's figure over
time (a line of dated points) and the topic home's bars per section.  What is checked is what a reader
reads off the chart (where each point stands, how long each bar is) and what a screen reader says
(every number in words); the SVG is read with the suite's HTML parser, as a browser reads inline SVG."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from html_dom import Node, parse

from digest_plugin.core.model import Figure
from digest_plugin.site.chart import MAX_POINTS, bars, sparkline

HOSTILE = '<script>alert(1)</script> "Stars" & <b>co</b>'


def figures(*points: tuple[dt.date | None, int | float | str], label: str = "Stars") -> list[Figure]:
    """One figure's values as briefs gave them: (as of, value) each."""
    return [Figure(key="stars", label=label, value=value, as_of=day) for day, value in points]


def day(n: int) -> dt.date:
    """The n-th day after 2026-10-19 (n may be large: years of nightly values)."""
    return dt.date(2026, 10, 19) + dt.timedelta(days=n)


def chart(markup: str) -> Node:
    (svg,) = parse(markup).all("svg")
    return svg


def dots(svg: Node) -> list[tuple[float, float, str]]:
    """(x, y, tooltip) of every point, left to right."""
    found = [(float(c.attrs["cx"]), float(c.attrs["cy"]), c.one("title").text()) for c in svg.all("circle")]
    return sorted(found)


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text)


# --------------------------------------------------------------------------- a figure over time


def test_points_stand_at_their_dates_and_values_whatever_order_the_briefs_gave_them():
    """Left to right by date with the gaps between briefs kept (2, 1 and 8 days), higher for a larger
    value, the line joining the points in that order, all inside the drawing."""
    given = [(day(2), 155), (day(0), 105), (day(11), 100), (day(3), 160)]  # not in date order
    svg = chart(sparkline("Stars", figures(*given)))
    points = dots(svg)
    by_date = sorted(given)
    for (_, _, tip), (when, value) in zip(points, by_date, strict=True):
        assert when.isoformat() in tip and str(value) in numbers(tip), (tip, when, value)
    xs = [x for x, _, _ in points]
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert gaps[0] == pytest.approx(2 * gaps[1], abs=0.3) and gaps[2] == pytest.approx(8 * gaps[1], abs=0.3)
    heights = {value: y for (_, y, _), (_, value) in zip(points, by_date, strict=True)}
    assert sorted(heights, key=heights.get) == [160, 155, 105, 100]  # SVG's y grows downwards
    line = [tuple(map(float, xy.split(","))) for xy in svg.one("polyline").attrs["points"].split()]
    assert line == [(x, y) for x, y, _ in points]
    _, _, width, height = map(float, svg.attrs["viewbox"].split())
    assert all(0 <= x <= width and 0 <= y <= height for x, y in line)


def test_every_point_is_said_in_words_too():
    """The chart is never the only carrier of a number: its text alternative names the figure and
    every dated value, and each point's tooltip its own (a float as written)."""
    given = [(day(0), 105), (day(2), 155), (day(5), 157.5)]
    svg = chart(sparkline("GitHub Stars", figures(*given)))
    assert svg.attrs["role"] == "img"
    said = svg.attrs["aria-label"]
    assert said.startswith("GitHub Stars")
    for when, value in given:
        assert when.isoformat() in said and str(value) in numbers(said), (when, value, said)
    assert [numbers(tip)[-1] for _, _, tip in dots(svg)] == ["105", "155", "157.5"]


def test_a_large_value_is_said_as_the_brief_wrote_it():
    """A download count in the millions: the tooltip and the text alternative give the number the
    figure table shows, not a rounded exponent."""
    svg = chart(sparkline("下载", figures((day(0), 4_791_234), (day(7), 5_002_118))))
    assert "4791234" in svg.attrs["aria-label"] and "5002118" in svg.attrs["aria-label"]
    assert [numbers(tip)[-1] for _, _, tip in dots(svg)] == ["4791234", "5002118"]


@pytest.mark.parametrize(
    "given",
    [
        [],
        [(day(0), 105)],
        [(day(0), 105), (None, 155)],  # the second value is not dated
        [(day(0), 105), (day(2), "约 1.2 万")],  # the second value is words, not a number
    ],
    ids=["no-value", "one-value", "one-dated", "one-number"],
)
def test_a_figure_with_fewer_than_two_dated_numbers_has_no_chart(given):
    assert sparkline("Stars", figures(*given)) == ""


def test_undated_values_and_values_in_words_are_left_out_of_the_line():
    given = [(day(0), 105), (None, 999), (day(2), 155), (day(3), "约 1.2 万"), (day(6), 170)]
    svg = chart(sparkline("Stars", figures(*given)))
    tips = [tip for _, _, tip in dots(svg)]
    assert [numbers(t)[-1] for t in tips] == ["105", "155", "170"]
    assert "999" not in svg.attrs["aria-label"] and "万" not in svg.attrs["aria-label"]
    assert day(3).isoformat() not in svg.attrs["aria-label"]


@pytest.mark.parametrize(
    "nights",
    [
        MAX_POINTS,
        MAX_POINTS + 1,
        121,
        122,
        120,
        3650,
    ],
)
def test_years_of_nightly_values_are_thinned_to_a_readable_line_that_keeps_the_first_and_the_latest(nights):
    """A value every night for months or years: at most MAX_POINTS points, evenly picked, from the
    first night to tonight's value."""
    svg = chart(sparkline("Stars", figures(*((day(n), 100 + n) for n in range(nights)))))
    points = dots(svg)
    assert len(points) <= MAX_POINTS
    assert len(points) >= min(nights, MAX_POINTS // 2)  # thinned, not emptied
    shown = [int(numbers(tip)[-1]) - 100 for _, _, tip in points]  # the night each point is
    assert shown[0] == 0 and shown[-1] == nights - 1
    steps = {b - a for a, b in itertools.pairwise(shown[:-1])}
    assert len(steps) <= 1, steps  # evenly picked (the latest may follow closer)
    assert shown == sorted(shown)


def test_a_label_with_markup_is_text_in_the_chart():
    svg_markup = sparkline(HOSTILE, figures((day(0), 105), (day(2), 155), label=HOSTILE))
    assert "<script" not in svg_markup and "<b>" not in svg_markup
    svg = chart(svg_markup)
    assert svg.all("script") == [] and svg.all("b") == []
    assert svg.attrs["aria-label"].startswith(HOSTILE)  # the reader hears the label as written


# --------------------------------------------------------------------------- the topic home's bars


def bar_rows(svg: Node) -> list[tuple[str, float, float, str]]:
    """(section label, entries bar's width, open contradictions bar's width, the numbers beside them)
    per row, top to bottom: a row is a label, its two bars and the text beside them."""
    texts, rects = svg.all("text"), svg.all("rect")
    assert len(texts) == len(rects) and len(rects) % 2 == 0  # two of each per row
    labels, beside = texts[0::2], texts[1::2]
    return [
        (label.text(), float(rects[2 * i].attrs["width"]), float(rects[2 * i + 1].attrs["width"]), side.text())
        for i, (label, side) in enumerate(zip(labels, beside, strict=True))
    ]


def test_each_sections_bars_are_as_long_as_its_counts_with_the_numbers_beside_them():
    counts = [("§1", 12, 3), ("§2", 6, 0), ("§3", 0, 1)]
    svg = chart(bars("各章节", counts))
    rows = bar_rows(svg)
    assert [r[0] for r in rows] == ["§1", "§2", "§3"]
    for (_, entries, still_open), (_, _, _, beside) in zip(counts, rows, strict=True):
        assert numbers(beside) == [str(entries), str(still_open)]
    longest = rows[0][1]
    assert longest > 0
    for (_, entries, still_open), (_, wide, narrow, _) in zip(counts, rows, strict=True):
        assert wide == pytest.approx(longest * entries / 12, abs=0.2)  # one scale for both kinds of bar
        assert narrow == pytest.approx(longest * still_open / 12, abs=0.2)
    said = svg.attrs["aria-label"]
    assert said.startswith("各章节") and svg.attrs["role"] == "img"
    for label, entries, still_open in counts:
        row = re.search(rf"{label}\D*(\d+)\D*(\d+)", said)
        assert row and row.groups() == (str(entries), str(still_open)), said


def test_no_sections_draw_no_bars_and_empty_sections_draw_empty_bars():
    assert bars("各章节", []) == ""
    rows = bar_rows(chart(bars("各章节", [("§1", 0, 0), ("§2", 0, 0)])))
    assert [(wide, narrow, numbers(beside)) for _, wide, narrow, beside in rows] == [(0, 0, ["0", "0"])] * 2


def test_a_title_or_label_with_markup_is_text_in_the_bars():
    markup = bars(HOSTILE, [(HOSTILE, 2, 1)])
    assert "<script" not in markup and "<b>" not in markup
    svg = chart(markup)
    assert svg.all("script") == [] and svg.all("b") == []
    assert svg.attrs["aria-label"].startswith(HOSTILE)
    assert bar_rows(svg)[0][0] == HOSTILE
