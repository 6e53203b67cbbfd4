"""Small static SVG charts of a figure over time, made at build time (no script, no CDN)."""

from __future__ import annotations

import datetime as dt
from html import escape

from ..core import labels
from ..core.model import Figure

WIDTH, HEIGHT, PAD = 240, 64, 8
MAX_POINTS = 60


def said(value: float) -> str:
    """A value as the figure table gives it: 4791234, not the 4.79123e+06 that ``{:g}`` makes of it."""
    if value.is_integer():
        return str(int(value))
    return f"{value:.10f}".rstrip("0").rstrip(".")


def sparkline(label: str, series: list[Figure]) -> str:
    """An inline SVG line of the numeric, dated values of a figure; '' when fewer than two.

    Points are placed by date, so an uneven gap between briefs shows as one.  The numbers are
    also given as text (``<title>`` and ``aria-label``), so the chart is never the only carrier."""
    points = [
        (f.as_of, float(f.value))
        for f in series
        if f.as_of is not None and isinstance(f.value, (int, float)) and not isinstance(f.value, bool)
    ]
    if len(points) < 2:
        return ""
    points.sort(key=lambda p: p[0])
    if len(points) > MAX_POINTS:  # years of daily values: every n-th one, and always the latest
        step = -(-(len(points) - 1) // (MAX_POINTS - 1))  # room for the latest after the every-n-th
        points = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
    first, last = points[0][0], points[-1][0]
    span = max((last - first).days, 1)
    low, high = min(v for _, v in points), max(v for _, v in points)
    rise = (high - low) or 1.0

    def xy(day: dt.date, value: float) -> tuple[float, float]:
        x = PAD + (WIDTH - 2 * PAD) * (day - first).days / span
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / rise
        return round(x, 1), round(y, 1)

    coords = [xy(d, v) for d, v in points]
    spoken = [labels.CHART_POINT.format(date=d.isoformat(), value=said(v)) for d, v in points]
    words = labels.COMMA.join(spoken)
    dots = "".join(
        f'<circle cx="{x}" cy="{y}" r="2.5" fill="currentColor"><title>{point}</title></circle>'
        for (x, y), point in zip(coords, spoken, strict=True)  # one coordinate per point
    )
    line = " ".join(f"{x},{y}" for x, y in coords)
    return (
        f'<svg class="digest-chart" data-search-exclude role="img" aria-label="{escape(label)}：{escape(words)}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
        f'<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{line}"/>{dots}</svg>'
    )


def bars(title: str, rows: list[tuple[str, int, int]]) -> str:
    """A horizontal bar chart of (label, entries, open contradictions) per section, as inline SVG.

    The numbers are printed beside the bars and listed in ``aria-label``: the chart never
    carries a figure alone."""
    if not rows:
        return ""
    label_w, bar_w, row_h = 96, 220, 22
    top = max(max(n, m) for _, n, m in rows) or 1
    height = row_h * len(rows) + 8
    words = labels.CLAUSE_SEP.join(labels.CHART_ROW.format(label=label, entries=n, open=m) for label, n, m in rows)
    parts = []
    for i, (label, n, m) in enumerate(rows):
        y = 4 + i * row_h
        wn, wm = round(bar_w * n / top, 1), round(bar_w * m / top, 1)
        parts.append(
            f'<text x="0" y="{y + 11}" font-size="12" fill="currentColor">{escape(label)}</text>'
            f'<rect x="{label_w}" y="{y + 2}" width="{wn}" height="8" fill="currentColor" opacity=".75"/>'
            f'<rect x="{label_w}" y="{y + 11}" width="{wm}" height="6" fill="currentColor" opacity=".35"/>'
            f'<text x="{label_w + max(wn, wm) + 6}" y="{y + 13}" font-size="11" fill="currentColor">{n} · {m}</text>'
        )
    return (
        f'<svg class="digest-chart digest-bars" data-search-exclude role="img" aria-label="{escape(title)}：{escape(words)}" '
        f'viewBox="0 0 {label_w + bar_w + 60} {height}" width="{label_w + bar_w + 60}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg">{"".join(parts)}</svg>'
    )
