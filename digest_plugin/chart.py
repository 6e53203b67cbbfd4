"""Small static SVG charts of a figure over time, made at build time (no script, no CDN)."""

from __future__ import annotations

import datetime as dt
from html import escape

from .model import Figure

WIDTH, HEIGHT, PAD = 240, 64, 8


def sparkline(label: str, series: list[Figure]) -> str:
    """An inline SVG line of the numeric, dated values of a figure; '' when fewer than two.

    Points are placed by date, so an uneven gap between briefs shows as one.  The numbers are
    also given as text (``<title>`` and ``aria-label``), so the chart is never the only carrier."""
    points = [(f.as_of, float(f.value)) for f in series
              if f.as_of is not None and isinstance(f.value, (int, float)) and not isinstance(f.value, bool)]
    if len(points) < 2:
        return ""
    points.sort(key=lambda p: p[0])
    first, last = points[0][0], points[-1][0]
    span = max((last - first).days, 1)
    low, high = min(v for _, v in points), max(v for _, v in points)
    rise = (high - low) or 1.0

    def xy(day: dt.date, value: float) -> tuple[float, float]:
        x = PAD + (WIDTH - 2 * PAD) * (day - first).days / span
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / rise
        return round(x, 1), round(y, 1)

    coords = [xy(d, v) for d, v in points]
    words = "，".join(f"{d.isoformat()}：{v:g}" for d, v in points)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="2.5" fill="currentColor"><title>{d.isoformat()}：{v:g}</title></circle>'
                   for (x, y), (d, v) in zip(coords, points))
    line = " ".join(f"{x},{y}" for x, y in coords)
    return (f'<svg class="digest-chart" role="img" aria-label="{escape(label)}：{escape(words)}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
            f'<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{line}"/>{dots}</svg>')
