"""Every kind of page, as a reader sees it: desktop and phone, light and dark, looked at and checked by axe-core.

Nine pages stand for the site's page kinds: the home page, a short and a long § page (§1 with history
charts, §3 with many badges), the contradiction register, the bibliography, the legend, a brief's own
page, a month's changes page and a past night's §1 (its pieces loaded). Each is opened at 1440×900
(desktop) and at 390×844 (a phone: touch, mobile viewport, 2× pixels), with the browser asking for the
light and for the dark colour scheme: 36 loads, one per combination, shared by both kinds of check below.

* Screenshots of the first screen and of the whole page are kept in ``tests/artifacts/`` (git-ignored)
  as ``{page}-{1440|390}-{light|dark}[-full].png``, for a person to look at. The test checks that they
  are not blank and that dark really is dark: Material switched palette and the page background a
  reader sees changed (a dark request that still shows a light page would otherwise pass unnoticed).
* axe-core runs on each combination: no violation of impact serious or critical, colour contrast
  included, so dark mode and the phone layout are held to the same bar as the desktop light page.
  The default run checks half of them (each page, width and scheme at least once, ``AXE_SLOW``);
  ``pytest -m slow`` checks the other half.

It reuses ``test_browser.py``'s build (the shipped data plus the lifecycle fixture briefs), server and
Chromium settings, with fixtures of its own (pytest fixtures are per module), and the same rule: skipped
with the reason where Chromium, Playwright or axe-core is missing, failed instead under CI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_browser import (
    ARTIFACTS,
    AXE_JS,
    BIBLIOGRAPHY,
    BRIEF_PAGE,
    CHANGES,
    HOME,
    LEGEND,
    PROJECT,
    REGISTER,
    S1,
    S3,
    _unavailable,
    base_url,  # noqa: F401 - fixture
    browser,  # noqa: F401 - fixture
    site,  # noqa: F401 - fixture
)

PAGES = {
    "home": HOME,
    "s1": S1,
    "s3": S3,
    "register": REGISTER,
    "bibliography": BIBLIOGRAPHY,
    "legend": LEGEND,
    "brief": BRIEF_PAGE,
    "changes": CHANGES,
    "past": "/inference/as-of/#2026-10-22/1",
}
WIDTHS = {
    1440: {"viewport": {"width": 1440, "height": 900}},
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}
SCHEMES = ("light", "dark")
MATERIAL_SCHEME = {"light": "default", "dark": "slate"}  # body[data-md-color-scheme], per mkdocs.yml's palette
MIN_PNG_BYTES = 10_000

# What the reader sees behind the text: the body's computed background (Material paints it there),
# with its relative luminance (WCAG 2) so that "dark" can be checked as darker, not merely different.
JS_LOOK = """
() => {
  const bg = getComputedStyle(document.body).backgroundColor;
  const p = (bg.match(/[\\d.]+/g) || []).map(Number);
  const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return {scheme: document.body.getAttribute('data-md-color-scheme'), background: bg,
          luminance: p.length >= 3 ? 0.2126 * f(p[0]) + 0.7152 * f(p[1]) + 0.0722 * f(p[2]) : null,
          width: window.innerWidth};
}
"""


@dataclass
class Visit:
    """One page at one width in one scheme: where its screenshots went, what it looked like, what axe said."""

    name: str
    width: int
    scheme: str
    first: Path | None
    """The first screen's picture (None: not photographed, see ``visit``)."""
    full: Path | None
    look: dict
    axe: dict | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.name} ({PAGES[self.name]}) {self.width}px {self.scheme}"


# --------------------------------------------------------------------------------------------
# Build, serve, launch: test_browser's fixtures (module-scoped, so this module gets its own site,
# server and browser), imported in the import block above
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def visit(browser, base_url):  # noqa: F811 - the fixtures imported above
    """visit(name, width, scheme, shots=False) → the Visit of that combination, made once per module.

    The page is loaded in a fresh context (no stored palette choice), left to settle (network idle,
    fonts ready), measured (JS_LOOK) and, where axe-core is installed, checked by it; then its
    context is closed.  With ``shots`` it is also photographed (first screen, whole page): only the
    screenshot test (a slow one) looks at the pictures, and a whole-page picture of a long page is
    most of a visit's time, so the default run's axe checks take none."""
    visits: dict[tuple[str, int, str], Visit] = {}

    def _open(name: str, width: int, scheme: str, shots: bool = False) -> Visit:
        key = (name, width, scheme)
        if key in visits and (visits[key].first is not None or not shots):
            return visits[key]
        context = browser.new_context(**WIDTHS[width], color_scheme=scheme, locale="zh-CN")
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(base_url + PAGES[name], wait_until="load")
            page.wait_for_load_state("networkidle")
            page.evaluate("() => document.fonts.ready.then(() => true)")
            first = full = None
            if shots:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                stem = f"{name}-{width}-{scheme}"
                first, full = ARTIFACTS / f"{stem}.png", ARTIFACTS / f"{stem}-full.png"
                page.screenshot(path=str(first), animations="disabled")
                page.screenshot(path=str(full), full_page=True, animations="disabled")
            visit = Visit(name, width, scheme, first, full, page.evaluate(JS_LOOK), errors=errors)
            if AXE_JS.exists():
                page.add_script_tag(path=str(AXE_JS))
                visit.axe = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
        finally:
            context.close()
        visits[key] = visit
        return visit

    return _open


# --------------------------------------------------------------------------------------------
# Screenshots for a person to look at
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("name", list(PAGES))
def test_screenshots_light_and_dark(visit, name, width):
    light, dark = (visit(name, width, scheme, shots=True) for scheme in SCHEMES)
    problems = []
    for visit in (light, dark):
        for shot in (visit.first, visit.full):
            size = shot.stat().st_size
            if size <= MIN_PNG_BYTES:
                problems.append(f"{visit.label}: {shot.name} is {size} bytes, a blank or broken screen")
        if visit.look["width"] != width:
            problems.append(f"{visit.label}: the window is {visit.look['width']}px wide, not {width}px")
        if visit.look["scheme"] != MATERIAL_SCHEME[visit.scheme]:
            problems.append(
                f"{visit.label}: Material shows palette {visit.look['scheme']!r}, not {MATERIAL_SCHEME[visit.scheme]!r}"
            )
        if visit.errors:
            problems.append(f"{visit.label}: script errors: {visit.errors}")
    if light.look["background"] == dark.look["background"]:
        problems.append(f"{name} {width}px: light and dark share the page background {light.look['background']}")
    elif None in (dark.look["luminance"], light.look["luminance"]) or dark.look["luminance"] >= light.look["luminance"]:
        problems.append(
            f"{name} {width}px: the dark page background {dark.look['background']} is not darker than "
            f"the light one {light.look['background']}"
        )
    if light.first.read_bytes() == dark.first.read_bytes():
        problems.append(f"{name} {width}px: the light and dark first screens are the same picture")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------------------------
# axe-core
# --------------------------------------------------------------------------------------------


AXE_SLOW = {(1440, "dark"), (390, "light")}
"""The default run checks every page on a desktop in light and on a phone in dark, so each page, each
width and each scheme is checked there; the other two pairings run with the slow checks (an axe pass is
about 1.7 s, and the 28 of them were a sixth of the default run's browser time)."""


@pytest.mark.parametrize(
    ("name", "width", "scheme"),
    [
        pytest.param(name, width, scheme, marks=[pytest.mark.slow] if (width, scheme) in AXE_SLOW else [])
        for name in PAGES
        for width in WIDTHS
        for scheme in SCHEMES
    ],
)
def test_axe_finds_no_serious_or_critical_violation(visit, name, width, scheme):
    if not AXE_JS.exists():
        _unavailable(f"{AXE_JS.relative_to(PROJECT)} is missing (cd tests/browser && npm ci)")
    seen = visit(name, width, scheme)
    assert seen.axe is not None
    bad = [v for v in seen.axe["violations"] if v["impact"] in ("serious", "critical")]
    lines = []
    for v in bad:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} nodes)")
        for node in v["nodes"][:4]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' '.join(map(str, node['target']))}: {summary[:220]}")
    assert not bad, f"axe-core {seen.axe['testEngine']['version']} on {seen.label}:\n" + "\n".join(lines)
