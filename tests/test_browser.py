"""The reader's view (issue 7): the built site in a real browser, with a mouse, a keyboard, a phone and in Chinese.

The site is built once (the shipped ``mkdocs.yml``, ``docs/`` and ``data/`` plus the lifecycle fixture
briefs, so resolved, re-opened and superseded contradictions, history charts and a second citation
exist), served from a scratch folder by the standard library's ``http.server`` on 127.0.0.1, and read
with Debian's Chromium driven by Playwright for Python (no browser download: ``executable_path``).

Every test is skipped, with the reason, where ``/usr/bin/chromium`` or the ``playwright`` package is
missing (and the axe tests where ``tests/browser/node_modules/axe-core`` is), so the suite runs
anywhere; under CI (``CI`` set) a missing piece fails instead, so a missing install step in
``.ci/run`` cannot turn these checks into silent skips.

Screenshots of the home, §1 and §3 pages (desktop 1280×900 and phone 390×844), of an open badge
tip and of a history chart in dark mode, are kept in ``tests/artifacts/`` (git-ignored) for a person to
look at.

Expected facts come from the data (the briefs' YAML) or from the page's own visible text, never from
the plugin's code.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import itertools
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import in_ci
from ruamel.yaml import YAML

PROJECT = Path(__file__).resolve().parents[1]
FIXTURES = PROJECT / "tests" / "fixtures" / "lifecycle"
BROWSER_DIR = PROJECT / "tests" / "browser"
AXE_JS = BROWSER_DIR / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = PROJECT / "tests" / "artifacts"
CHROMIUM = Path(os.environ.get("DIGEST_CHROMIUM", "/usr/bin/chromium"))  # Debian's; override elsewhere
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BUILD_TIMEOUT = 300

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

HOME = "/"
S1 = "/inference/1/"
S3 = "/inference/3/"
REGISTER = "/inference/register/"
BIBLIOGRAPHY = "/inference/bibliography/"
LEGEND = "/inference/legend/"
BRIEF_ID = "2026-10-21-inference-E1"
BRIEF_PAGE = f"/inference/briefs/{BRIEF_ID}/"
CHANGES = "/inference/changes/2026-10/"
"""The month's page of what each night changed (issue 32)."""

# The closed vocabulary of evidence levels, as the team's briefs word them (README: "every badge
# carries its level as text").
LEVEL_WORDS = {
    "verified": "已核查",
    "partially_verified": "部分核查",
    "unverified": "未核实",
    "lead": "线索级",
    "discard": "丢弃级",
}

# Every request any test's page makes, across the whole module: (test name, url).
REQUESTS: list[tuple[str, str]] = []


# --------------------------------------------------------------------------------------------
# Availability: skip elsewhere, fail under CI
# --------------------------------------------------------------------------------------------


def _unavailable(reason: str):
    if in_ci():
        pytest.fail(f"{reason} — CI must run the browser tests (see .ci/run)", pytrace=False)
    pytest.skip(reason)


def _browser_missing() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium fonts-noto-cjk)"
    if importlib.util.find_spec("playwright") is None:
        return "the playwright Python package is missing (pip install playwright; no browser download is needed)"
    return None


# --------------------------------------------------------------------------------------------
# Build, serve, launch
# --------------------------------------------------------------------------------------------


def _build_site(root: Path) -> Path:
    for name in ("mkdocs.yml", "docs", "data", "overrides"):
        src = PROJECT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, root / name)
    for brief in sorted(FIXTURES.glob("*.yml")):
        shutil.copy(brief, root / "data" / "briefs" / brief.name)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "site")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return root / "site"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A navigation that aborts a pending request (the browser closing the socket) is normal.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = _browser_missing()
    if missing:
        _unavailable(missing)
    root = tmp_path_factory.mktemp("browser")
    return _build_site(root)


@pytest.fixture(scope="module")
def base_url(site: Path):
    server = _QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(base_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def open_page(browser, base_url, request):
    """open_page(path, viewport=DESKTOP, dark=False, phone=False, before=None, wait="load") → a loaded page
    in a fresh context; before(page) runs before the page is requested.

    Every request of every context is recorded in REQUESTS for the no-egress test."""
    contexts = []
    test_name = request.node.name

    def _open(path: str, viewport=DESKTOP, dark: bool = False, phone: bool = False, before=None, wait="load"):
        options = {"viewport": viewport, "color_scheme": "dark" if dark else "light", "locale": "zh-CN"}
        if phone:
            options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        context = browser.new_context(**options)
        context.on("request", lambda req: REQUESTS.append((test_name, req.url)))
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        if before:
            before(page)
        page.goto(base_url + path, wait_until=wait)
        return page

    yield _open
    for context in contexts:
        context.close()


def _artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name


def _shot_around(page, element, name: str, above: int = 160, height: int = 420) -> None:
    """A band of the viewport around element (viewport coordinates), full width."""
    box = element.bounding_box()
    view = page.viewport_size
    y = max(0, int(box["y"]) - above)
    page.screenshot(
        path=str(_artifact(name)),
        clip={"x": 0, "y": y, "width": view["width"], "height": max(1, min(height, view["height"] - y))},
    )


# --------------------------------------------------------------------------------------------
# Data read from the briefs (the shipped one and the fixtures)
# --------------------------------------------------------------------------------------------


def _briefs(site: Path) -> list[dict]:
    yaml = YAML(typ="safe")
    return [
        yaml.load(path.read_text(encoding="utf-8")) for path in sorted((site.parent / "data" / "briefs").glob("*.yml"))
    ]


def _touched_pages(site: Path) -> dict[str, set[str]]:
    """contradiction id → the §-pages it touches (declared sections, and the sections of touched items),
    for every contradiction shown on the § pages (discarded ones stay on the register only)."""
    briefs = _briefs(site)
    item_section = {}
    for brief in briefs:
        for item in brief.get("items") or []:
            section = (item.get("placement") or {}).get("section")
            if section:
                item_section[item["id"]] = str(section)
    touched: dict[str, set[str]] = {}
    for brief in briefs:
        for c in brief.get("contradictions") or []:
            if c.get("disposition") == "discarded":
                continue
            touches = c.get("touches") or {}
            sections = {str(s) for s in touches.get("sections") or []}
            sections |= {item_section[i] for i in touches.get("items") or [] if i in item_section}
            pages = {f"/inference/{s.split('.')[0]}/" for s in sections}
            if pages:
                touched[c["id"]] = pages
    return touched


# --------------------------------------------------------------------------------------------
# In-page probes
# --------------------------------------------------------------------------------------------

JS_DESCRIBE = """
(el) => {
  const d = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.classList.length ? '.' + [...e.classList].slice(0, 2).join('.') : '');
  const path = [];
  for (let e = el; e && e !== document.body && path.length < 4; e = e.parentElement) path.unshift(d(e));
  return path.join(' > ');
}
"""

# Horizontal overflow of the whole document, and the elements that stick out past the viewport's
# right edge without an ancestor that scrolls or clips them (what a reader would have to pan to).
JS_OVERFLOW = """
() => {
  const width = window.innerWidth, client = document.documentElement.clientWidth;
  const describe = JS_DESCRIBE_HERE;
  const offenders = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || r.right <= client + 0.5) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX) && p.getBoundingClientRect().right <= client + 0.5) { clipped = true; break; }
    }
    if (clipped) continue;
    // report the outermost offender only
    if (offenders.some(o => o.el.contains(el))) continue;
    offenders.push({el, text: describe(el) + ' right=' + Math.round(r.right) + 'px'});
  }
  return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: width, clientWidth: client,
          offenders: offenders.slice(0, 12).map(o => o.text)};
}
""".replace("JS_DESCRIBE_HERE", JS_DESCRIBE)

# Contrast of an element's text against what is painted behind it, as WCAG 2 defines it, from the
# computed styles of the element and its ancestors: background colours (with alpha) are composited
# from the canvas up, and an ancestor's `opacity` or `filter: brightness()` is applied to everything
# it paints (its own background and its descendants' text), as the browser does. Any other filter
# function is reported as unsupported rather than guessed. `prop` names the colour to measure: `color`
# (the default) for text, `fill` or `stroke` for SVG shapes.
JS_CONTRAST = """
(el, prop) => {
  const parse = (s) => {
    let m = s.match(/^rgba?\\(([^)]+)\\)$/);
    if (m) { const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(parseFloat); return [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1]; }
    m = s.match(/^color\\(srgb ([^)]+)\\)$/);
    if (m) { const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(parseFloat); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    throw new Error('unsupported colour ' + s);
  };
  const over = (src, dst) => {
    const a = src[3] + dst[3] * (1 - src[3]);
    if (a === 0) return [0, 0, 0, 0];
    return [0, 1, 2].map(i => (src[i] * src[3] + dst[i] * dst[3] * (1 - src[3])) / a).concat([a]);
  };
  const chain = [];
  for (let e = el; e; e = e.parentElement) chain.unshift(e);
  const effects = chain.map(e => {
    const s = getComputedStyle(e);
    let brightness = 1;
    if (s.filter && s.filter !== 'none') {
      const fns = s.filter.match(/[a-z-]+\\([^)]*\\)/g) || [];
      for (const fn of fns) {
        const m = fn.match(/^brightness\\(([\\d.]+)(%?)\\)$/);
        if (!m) throw new Error('unsupported filter ' + s.filter + ' on ' + e.className);
        brightness *= parseFloat(m[1]) / (m[2] ? 100 : 1);
      }
    }
    return {bg: parse(s.backgroundColor), opacity: parseFloat(s.opacity), brightness};
  });
  // paint(i, top): what elements i.. paint at the text's spot, over a transparent backdrop
  const paint = (i, top) => {
    let acc = [0, 0, 0, 0];
    for (let k = i; k < chain.length; k++) {
      const fx = effects[k];
      if (k > i && (fx.opacity < 1 || fx.brightness !== 1)) {
        let group = paint(k, top);
        group = [0, 1, 2].map(c => Math.min(1, group[c] * fx.brightness)).concat([group[3] * fx.opacity]);
        return over(group, acc);
      }
      acc = over(fx.bg, acc);
    }
    return top ? over(top, acc) : acc;
  };
  const canvas = [1, 1, 1, 1];
  const own = effects[0];
  const whole = (top) => {
    let g = paint(0, top);
    if (own.opacity < 1 || own.brightness !== 1)
      g = [0, 1, 2].map(c => Math.min(1, g[c] * own.brightness)).concat([g[3] * own.opacity]);
    return over(g, canvas);
  };
  const style = getComputedStyle(el);
  const text = whole(parse(style[prop || 'color']));
  const back = whole(null);
  const lum = (c) => { const f = (v) => v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
                       return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const [hi, lo] = [lum(text), lum(back)].sort((a, b) => b - a);
  const hex = (c) => '#' + c.slice(0, 3).map(v => Math.round(v * 255).toString(16).padStart(2, '0')).join('');
  const size = parseFloat(style.fontSize), weight = parseInt(style.fontWeight, 10);
  return {ratio: (hi + 0.05) / (lo + 0.05), text: hex(text), background: hex(back), fontSize: size, fontWeight: weight,
          large: size >= 24 || (size >= 18.66 && weight >= 700)};
}
"""

JS_VISIBLE_ON_TOP = """
(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + Math.min(r.width / 2, 20), y = r.top + Math.min(r.height / 2, 10);
  const hit = document.elementFromPoint(x, y);
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          vw: document.documentElement.clientWidth, vh: window.innerHeight,
          onTop: !!hit && (hit === el || el.contains(hit)),
          hit: hit ? hit.tagName.toLowerCase() + '.' + [...hit.classList].join('.') : null,
          clippedText: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1};
}
"""


def _clean(text: str) -> str:
    """Text as a reader sees it: no zero-width spaces, one space between words."""
    return re.sub(r"\s+", " ", text.replace("\u200b", "")).strip()


def _accessible(page, selector: str) -> dict:
    """The accessible name and description Chromium exposes for the first element matching selector."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, f"no element matches {selector}"
        ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
        value = lambda key: (ax.get(key) or {}).get("value", "")  # noqa: E731
        return {"role": value("role"), "name": value("name"), "description": value("description")}
    finally:
        cdp.detach()


def _level_text_ok(level: str, text: str) -> tuple[bool, str]:
    word = LEVEL_WORDS[level]
    if word not in text:
        return False, f"level word {word!r} missing"
    icon = text.split(word)[0].strip()  # the ordinal scale before the word: ●●●○
    if not icon or re.search(r"[\w\u4e00-\u9fff]", icon):
        return False, "no scale of symbols before the level word"
    return True, icon


# --------------------------------------------------------------------------------------------
# Evidence badges
# --------------------------------------------------------------------------------------------


def test_badge_tip_explains_what_the_page_does_not_and_leaves_the_boundary_readable(open_page):
    page = open_page(S3)
    badge = page.locator(".digest-badge[data-evidence]:not([data-evidence=baseline])").first
    badge.evaluate("e => e.scrollIntoView({block: 'center'})")
    tip = badge.locator(".digest-badge__tip")
    assert not tip.is_visible(), "the tip shows before the reader points at the badge"

    badge.hover()
    tip.wait_for(state="visible", timeout=3000)
    boundary_id = badge.get_attribute("aria-describedby")
    assert boundary_id, "the badge names no boundary (aria-describedby)"
    boundary = page.locator(f"#{boundary_id}")
    level = badge.get_attribute("data-evidence")
    words = YAML(typ="safe").load((PROJECT / "data" / "vocabulary.yml").read_text(encoding="utf-8"))
    meaning = words["evidence_levels"][level]["meaning"]
    text = _clean(tip.inner_text())
    assert meaning in text, f"the tip does not say what {level} means: {text!r}"
    assert "评定" in text and "简报" in text, f"the tip does not say where the level was assessed: {text!r}"
    body = re.sub(r"^证据边界\s*[：:]\s*", "", _clean(boundary.inner_text()))
    assert body not in text, "the tip repeats the boundary printed under the statement"
    t, b = tip.bounding_box(), boundary.bounding_box()
    overlap = not (t["y"] + t["height"] <= b["y"] or b["y"] + b["height"] <= t["y"])
    assert not overlap, f"the tip covers the evidence boundary: tip {t}, boundary {b}"
    box = tip.evaluate(JS_VISIBLE_ON_TOP)
    assert box["onTop"], f"the tip is covered by {box['hit']}"
    assert box["left"] >= 0 and box["right"] <= box["vw"] and not box["clippedText"], f"the tip is cut off: {box}"
    _shot_around(page, badge, "badge-tip-hover-desktop.png", above=260)

    page.keyboard.press("Escape")
    page.wait_for_timeout(100)
    assert not tip.is_visible(), "Esc does not close the tip the pointer opened (WCAG 1.4.13, dismissible)"
    page.mouse.move(5, 5)
    page.wait_for_timeout(100)
    assert not tip.is_visible(), "the tip stays open after the pointer leaves"

    # A reader moving the pointer from the badge up onto the tip (to read it or follow its legend
    # link) keeps it open (WCAG 1.4.13, hoverable).
    badge_box = badge.bounding_box()
    page.mouse.move(badge_box["x"] + 8, badge_box["y"] + badge_box["height"] / 2)
    tip.wait_for(state="visible", timeout=3000)
    tip_box = tip.bounding_box()
    page.mouse.move(badge_box["x"] + 8, tip_box["y"] + tip_box["height"] - 8, steps=12)
    assert tip.is_visible(), "the tip closes while the pointer moves from the badge onto it (WCAG 1.4.13, hoverable)"
    link = tip.locator("a[href*=legend]")
    link.click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/inference/legend/#level-{level}"), page.url
    row = page.locator(f"#level-{level}")
    assert meaning in _clean(row.inner_text()), "the legend's row does not explain the level"


def test_badge_tip_shows_on_keyboard_focus(open_page):
    page = open_page(S3)
    first_badge = page.locator(".digest-badge[data-evidence]:not([data-evidence=baseline])").first
    first_tip = _clean(first_badge.locator(".digest-badge__tip").text_content())
    # Start from the page's heading: Tab from the header would pass through Material's search field,
    # whose overlay opens on focus and may still be fading out over the content (Material's, not ours).
    page.locator("article h1").first.click()
    for presses in range(1, 400):  # noqa: B007 (reported below)
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => document.activeElement.matches('.digest-badge[data-evidence]:not([data-evidence=baseline])')"
        ):
            break
    else:
        pytest.fail("Tab never reaches an evidence badge")
    focused = page.locator(".digest-badge[data-evidence]:not([data-evidence=baseline]):focus")
    tip = focused.locator(".digest-badge__tip")
    tip.wait_for(state="visible", timeout=3000)
    assert _clean(tip.text_content()) == first_tip, "Tab reached a badge, but not the first one on the page"
    style = focused.evaluate("(e) => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineWidth]; }")
    assert style[0] != "none" and float(style[1].rstrip("px")) > 0, f"no visible focus ring on the badge: {style}"
    box = tip.evaluate(JS_VISIBLE_ON_TOP)
    assert box["onTop"] and box["top"] >= 0 and box["bottom"] <= box["vh"], (
        f"the focused badge's tip is not fully in view: {box}"
    )

    # Screen readers get the boundary: the badge is described by the paragraph under the statement.
    badge_id = focused.get_attribute("aria-describedby")
    ax = _accessible(page, f'.digest-badge[aria-describedby="{badge_id}"]')
    boundary = re.sub(r"^证据边界\s*[：:]\s*", "", _clean(page.locator(f"#{badge_id}").inner_text()))
    assert boundary in _clean(ax["description"]), f"the badge's accessible description is not its boundary: {ax}"

    page.keyboard.press("Escape")
    page.wait_for_timeout(100)
    assert not tip.is_visible(), "Esc does not close the tip of the focused badge (WCAG 1.4.13, dismissible)"

    page.keyboard.press("Tab")
    page.wait_for_timeout(100)
    assert not tip.is_visible(), "the tip stays open after focus moves on"
    print(f"first badge reached after {presses} Tab presses")


@pytest.mark.parametrize("path", [S1, S3, "/inference/5/", BRIEF_PAGE])
def test_badge_meaning_is_readable_without_colour(open_page, path):
    page = open_page(path)
    badges = page.locator(".digest-badge[data-evidence]:not([data-evidence=baseline])")
    assert badges.count() > 0, f"no evidence badge on {path}"
    icons: dict[str, set[str]] = {}
    problems = []
    for level, text in badges.evaluate_all(
        "els => els.map(e => [e.dataset.evidence, e.querySelector('.digest-badge__level')?.textContent || ''])"
    ):
        assert level in LEVEL_WORDS, f"unknown evidence level {level!r}"
        ok, icon = _level_text_ok(level, text)
        if not ok:
            problems.append(f"{level}: {text!r}: {icon}")
        else:
            icons.setdefault(level, set()).add(icon)
    assert not problems, "badges whose level is not in words and an icon:\n" + "\n".join(problems)
    for level, found in icons.items():
        assert len(found) == 1, f"{level} badges use several icons: {found}"
    by_icon = {}
    for level, found in icons.items():
        by_icon.setdefault(next(iter(found)), []).append(level)
    assert all(len(levels) == 1 for levels in by_icon.values()), f"two levels share an icon: {by_icon}"


def _lab(hex_colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, to measure how far apart two hues look (ΔE)."""
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_evidence_scale_is_ordinal_and_adjacent_levels_look_different(open_page, dark):
    """The legend shows every level in rank order: the scale loses one ● per step, each level has its
    own hue (ΔE ≥ 20 from the next, CIE76), and each is readable (≥ 4.5:1) in both schemes."""
    page = open_page(LEGEND, dark=dark)
    samples = page.locator("table.digest-legend .digest-badge--sample[data-rank]")
    assert samples.count() == len(LEVEL_WORDS), "the legend does not show every evidence level"
    seen = []
    for i in range(samples.count()):
        sample = samples.nth(i)
        scale = sample.locator(".digest-badge__scale").inner_text()
        level = sample.locator(".digest-badge__level")
        contrast = level.evaluate(JS_CONTRAST)
        seen.append((sample.get_attribute("data-evidence"), scale.count("●"), contrast))
    assert [s[1] for s in seen] == sorted((s[1] for s in seen), reverse=True), f"the scale is not ordinal: {seen}"
    assert len({s[1] for s in seen}) == len(seen), f"two levels share a scale: {seen}"
    for (a, _, ca), (b, _, cb) in itertools.pairwise(seen):
        la, lb = _lab(ca["text"]), _lab(cb["text"])
        delta = sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5
        assert delta >= 20, f"{a} ({ca['text']}) and {b} ({cb['text']}) look alike: ΔE {delta:.1f}"
    weak = [(level, c["ratio"]) for level, _, c in seen if c["ratio"] < 4.5]
    assert not weak, f"levels below 4.5:1 ({'dark' if dark else 'light'}): {weak}"
    page.screenshot(path=str(_artifact(f"legend-{'dark' if dark else 'light'}.png")), full_page=True)


def test_the_provenance_link_lands_on_the_item_itself(open_page):
    """「2026-10-21 E1 简报 条目 4」 takes the reader to that item, not to the top of a long page."""
    page = open_page(S3)
    link = page.locator("a.digest-item-ref").first
    number = re.search(r"条目 (\d+)", link.inner_text())[1]
    link.click()
    page.wait_for_load_state()
    item_id = urlsplit(page.url).fragment
    assert item_id.startswith("item-"), page.url
    target = page.locator(f"#{item_id}")
    page.wait_for_timeout(200)
    top = target.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 300, f"the item is not in view after the jump (top at {top}px)"
    heading = target if target.evaluate("e => /^H[1-6]$/.test(e.tagName)") else target.locator(".digest-item__title")
    assert f"条目 {number}" in heading.inner_text()  # a real heading: search and screen readers reach it too


def test_sections_are_named_in_the_nav_and_their_heading(open_page):
    """A section's name is what its own page's introduction calls it (§4's page says it has none yet)."""
    page = open_page(S1)
    assert _clean(page.locator("article h1").first.inner_text()).rstrip("¶ ") == "§1 推理引擎格局"
    nav = [_clean(t) for t in page.locator("nav.md-nav--primary .md-nav__link").all_inner_texts()]
    for name in ("§1 推理引擎格局", "§2 KV Cache", "§3 调度", "§5 部署与成本", "§6 开放问题与趋势", "图例"):
        assert name in nav, f"{name!r} not in the navigation: {nav}"


@pytest.mark.parametrize("path", [HOME, S1, LEGEND])
def test_the_theme_speaks_chinese(open_page, path):
    page = open_page(path)
    html = page.content()
    for english in ("Permanent link", "Made with", "Material for MkDocs"):
        assert english not in html, f"{english!r} on {path}"


def test_the_register_filters_by_status_without_a_script(open_page):
    """The register's groups are links: following one lands on that contradiction's callout."""
    page = open_page(REGISTER)
    page.evaluate("() => document.querySelectorAll('script').forEach(s => s.remove())")
    page.locator("details.digest-register-index > summary").click()  # the grouped lists are folded
    group = page.locator("#status-open")
    assert group.count() == 1, "no group of open contradictions on the register"
    link = group.locator("a.digest-contradiction-link").first
    target = link.get_attribute("href").split("#")[1]
    link.click()
    page.wait_for_timeout(200)
    callout = page.locator(f"#{target}")
    assert callout.get_attribute("data-status") == "open"
    top = callout.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 300, f"the callout is not in view after following the group (top {top}px)"


def _option_count(select, value: str) -> int:
    """The count a filter option shows for itself: 「须带标注写入（3）」 → 3."""
    text = select.locator(f'option[value="{value}"]').inner_text()
    found = re.search(r"（(\d+)）$", text)
    assert found, f"the option {value!r} shows no count: {text!r}"
    return int(found.group(1))


def _visible(page, selector: str) -> list:
    return [el for el in page.locator(selector).all() if el.is_visible()]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_register_filters_by_status_disposition_and_section(open_page, phone):
    page = open_page(REGISTER, viewport=PHONE if phone else DESKTOP, phone=phone)
    form = page.locator("form.digest-filter")
    assert form.is_visible(), "the register's filter bar is not shown"
    callouts = page.locator("details.digest-contradiction")
    total = callouts.count()
    assert total > 3
    # Each disposition in turn: exactly the callouts of that disposition stay, as many as it says.
    dispositions = form.locator('select[name="disposition"]')
    values = [v for v in dispositions.locator("option").evaluate_all("os => os.map(o => o.value)") if v]
    assert len(values) >= 2
    for value in values:
        dispositions.select_option(value)
        shown = _visible(page, "details.digest-contradiction")
        expected = page.locator(f'details.digest-contradiction[data-disposition="{value}"]').count()
        assert len(shown) == expected == _option_count(dispositions, value), value
        assert all(c.get_attribute("data-disposition") == value for c in shown)
        assert form.locator("output").inner_text() == f"显示 {expected} / {total} 条"
        # A brief's heading stays only if one of its callouts does.
        for heading in page.locator("article h2[id^='brief-']").all():
            group = heading.locator("xpath=following-sibling::*[1]")
            kept = [c for c in group.locator("details.digest-contradiction").all() if c.is_visible()]
            assert heading.is_visible() == bool(kept), heading.inner_text()
    # Disposition and section together: both must hold.
    sections = form.locator('select[name="sections"]')
    section = next(v for v in sections.locator("option").evaluate_all("os => os.map(o => o.value)") if v)
    sections.select_option(section)
    for c in _visible(page, "details.digest-contradiction"):
        assert section in (c.get_attribute("data-sections") or "").split()
        assert c.get_attribute("data-disposition") == values[-1]
    form.locator("button[type=reset]").click()
    page.wait_for_timeout(100)
    assert len(_visible(page, "details.digest-contradiction")) == total
    assert form.locator("output").inner_text() == ""


def test_the_register_filters_by_status(open_page):
    page = open_page(REGISTER)
    states = page.locator('form.digest-filter select[name="state"]')
    assert states.count() == 1, "the lifecycle briefs settle some contradictions: the register can filter by status"
    for value in ("open", "resolved"):
        states.select_option(value)
        shown = _visible(page, "details.digest-contradiction")
        assert shown and all(c.get_attribute("data-state") == value for c in shown)
        assert len(shown) == _option_count(states, value)


def test_without_a_script_the_register_has_grouped_lists_and_no_dead_filter(browser, base_url):
    context = browser.new_context(java_script_enabled=False, viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(base_url + REGISTER)
        assert not page.locator("form.digest-filter").is_visible(), "a filter bar that cannot work is shown"
        page.locator("details.digest-register-index > summary").click()  # folded; opens without a script
        for group in ("#status-open", "[id^='disposition-']", "[id^='section-']"):
            assert page.locator(group).count() >= 1, f"no grouped list {group} for a reader without script"
        link = page.locator("[id^='disposition-'] a.digest-contradiction-link").first
        target = page.locator("#" + link.get_attribute("href").split("#")[1])
        code = page.locator("[id^='disposition-']").first.get_attribute("id").removeprefix("disposition-")
        assert target.get_attribute("data-disposition") == code
    finally:
        context.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_section_page_filters_its_entries_by_evidence_level(open_page, phone):
    page = open_page(S1, viewport=PHONE if phone else DESKTOP, phone=phone)
    form = page.locator("form.digest-filter")
    assert form.is_visible()
    levels = form.locator('select[name="level"]')
    values = [v for v in levels.locator("option").evaluate_all("os => os.map(o => o.value)") if v]
    assert "baseline" in values and len(values) >= 2
    total = page.locator("section.digest-entry").count()
    for value in values:
        levels.select_option(value)
        shown = _visible(page, "section.digest-entry")
        assert shown and len(shown) == _option_count(levels, value) < total
        for entry in shown:
            badge = entry.locator(".digest-badge").first
            assert badge.get_attribute("data-evidence") == value  # the badge the reader sees says the same
            if value in LEVEL_WORDS:
                assert LEVEL_WORDS[value] in badge.inner_text()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_withheld_claim_is_a_muted_mark_that_leads_to_its_callout_on_the_same_page(open_page, dark):
    page = open_page(S1, dark=dark)
    mark = page.locator("a.digest-withheld").first
    assert mark.count() == 1, "no withheld claim on §1"
    style = mark.evaluate(
        "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.color, "
        "getComputedStyle(e.closest('article')).color]; }"
    )
    assert style[0] in ("rgba(0, 0, 0, 0)", "transparent"), f"the withheld mark is highlighted: {style}"
    assert style[1] != style[2], f"the withheld mark is not muted against the text: {style}"
    href = mark.get_attribute("href")
    assert href.startswith("#contradiction-"), f"the mark leaves the page for {href}, though its callout is here"
    mark.click()
    page.wait_for_timeout(200)
    callout = page.locator(href)
    assert callout.count() == 1 and 0 <= callout.evaluate("e => e.getBoundingClientRect().top") < 300


def test_a_brief_page_opens_with_what_it_changed_on_a_phone(open_page):
    page = open_page(BRIEF_PAGE, viewport=PHONE, phone=True)
    changes = page.locator("#changes")
    top = changes.evaluate("e => e.getBoundingClientRect().top")
    assert top < PHONE["height"], f"what the brief changed starts {top:.0f}px down, below the first screen"
    job = YAML(typ="safe").load((PROJECT / "data" / "briefs" / f"{BRIEF_ID}.yml").read_text(encoding="utf-8"))["job"]
    assert not page.get_by_text(job["job_id"]).is_visible(), "the job id shows before the reader asks for it"
    page.locator("details.digest-brief__meta > summary").click()
    assert page.get_by_text(job["job_id"]).is_visible()


def test_entries_the_doc_already_had_are_badged_as_such(open_page):
    page = open_page(S1)
    baseline = page.locator("section.digest-entry--baseline .digest-badge[data-evidence=baseline]")
    assert baseline.count() > 0, "an entry the living doc already had carries no badge: it reads as solid"
    assert _clean(baseline.first.locator(".digest-badge__level").inner_text()) == "活文档既有 · 本系统未复核"
    unbadged = page.locator("section.digest-entry--baseline:not(:has(.digest-badge))")
    assert unbadged.count() == 0


# --------------------------------------------------------------------------------------------
# Contradiction callouts
# --------------------------------------------------------------------------------------------


def test_contradiction_callouts_are_on_every_page_they_touch(site, open_page):
    touched = _touched_pages(site)
    assert touched, "the briefs declare no contradiction touching a § page"
    by_page: dict[str, list[str]] = {}
    for cid, pages in touched.items():
        for path in pages:
            by_page.setdefault(path, []).append(cid)
    missing = []
    for path, ids in sorted(by_page.items()):
        page = open_page(path)
        for cid in ids:
            callout = page.locator(f'details[data-digest-contradiction="{cid}"]')
            if callout.count() != 1:
                missing.append(f"{path}: contradiction {cid} has {callout.count()} callouts")
                continue
            summary = callout.locator("summary")
            summary.scroll_into_view_if_needed()
            if not summary.is_visible():
                missing.append(f"{path}: contradiction {cid}'s callout is not visible")
    assert not missing, "\n".join(missing)


def test_contradiction_callouts_collapse_and_link_to_the_register(open_page, base_url):
    page = open_page(S3)
    callouts = page.locator("details[data-digest-contradiction]")
    assert callouts.count() >= 2
    checked = []
    for i in range(callouts.count()):
        callout = callouts.nth(i)
        cid = callout.get_attribute("data-digest-contradiction")
        body = callout.locator(":scope > p").first
        was_open = callout.evaluate("d => d.open")
        callout.locator("summary").click(position={"x": 10, "y": 10})
        assert callout.evaluate("d => d.open") is (not was_open), f"clicking {cid}'s summary does not toggle it"
        assert body.is_visible() is (not was_open)
        callout.locator("summary").click(position={"x": 10, "y": 10})
        assert callout.evaluate("d => d.open") is was_open, f"clicking {cid}'s summary twice does not restore it"
        checked.append((cid, callout.get_attribute("data-status")))
    assert {status for _, status in checked} >= {"open", "resolved"}, (
        f"§3 should show an open and a resolved callout: {checked}"
    )

    # Each callout links to its own entry on the register, and the link lands on it.
    for cid, _ in checked:
        page.goto(base_url + S3)
        callout = page.locator(f'details[data-digest-contradiction="{cid}"]')
        if not callout.evaluate("d => d.open"):
            callout.locator("summary").click(position={"x": 10, "y": 10})
        link = callout.locator(f'a[href$="register/#contradiction-{cid}"]')
        assert link.count() >= 1, f"callout {cid} has no link to its register entry"
        link.first.click()
        page.wait_for_url(re.compile(re.escape(REGISTER) + f"#contradiction-{re.escape(cid)}$"))
        target = page.locator(f"#contradiction-{cid}")
        assert target.count() == 1 and target.get_attribute("data-digest-contradiction") == cid, (
            f"the register has no entry #contradiction-{cid}"
        )
        box = target.locator("summary").evaluate(JS_VISIBLE_ON_TOP)
        assert box["onTop"] and 0 <= box["top"] < box["vh"], f"landing on the register does not show {cid}: {box}"


# --------------------------------------------------------------------------------------------
# Citations and the bibliography
# --------------------------------------------------------------------------------------------


def _bibliography_facts(page) -> dict[str, tuple[str, list[str]]]:
    """arXiv id → (title, cited-by counts) as the bibliography page shows them."""
    refs = page.locator(".digest-ref[data-arxiv]")
    assert refs.count() >= 2
    expected = {}
    for i in range(refs.count()):
        ref = refs.nth(i)
        title = _clean(ref.locator("strong").first.inner_text())
        counts = re.findall(r"被引\s*(\d+)", ref.locator(".digest-ref__meta").inner_text())
        expected[ref.get_attribute("data-arxiv")] = (title, counts)
    assert any(counts for _, counts in expected.values()), "no reference in the bibliography has citation counts"
    return expected


def test_a_citation_explains_itself_on_hover_and_focus_and_leads_to_its_reference(open_page, base_url):
    """Where a paper is cited, a card shows its title and dated counts (hover, keyboard focus, Esc
    closes it); the link goes to its bibliography entry, and the entry links to arXiv."""
    page = open_page(BIBLIOGRAPHY)
    expected = _bibliography_facts(page)
    for arxiv in expected:
        ref = page.locator(f'.digest-ref[data-arxiv="{arxiv}"]')
        assert ref.locator("a.digest-cite").first.get_attribute("href") == f"https://arxiv.org/abs/{arxiv}"
    problems = []
    for path in (HOME, REGISTER, "/inference/2/"):
        page.goto(base_url + path)
        cites = page.locator("a.digest-cite")
        assert cites.count(), f"{path} cites nothing"
        for i in range(cites.count()):
            cite = cites.nth(i)
            arxiv = cite.get_attribute("data-arxiv")
            title, counts = expected.get(arxiv, (None, []))
            if title is None:
                problems.append(f"{path}: arXiv:{arxiv} is cited but not in the bibliography")
                continue
            card = page.locator(f"[id='{cite.get_attribute('aria-describedby')}']")
            cite.scroll_into_view_if_needed()
            cite.hover()
            if not card.is_visible():
                problems.append(f"{path}: arXiv:{arxiv}: no card on hover")
                continue
            text = _clean(card.inner_text())
            if title not in text:
                problems.append(f"{path}: arXiv:{arxiv}: card {text!r} lacks the title {title!r}")
            for count in counts:
                if count not in text or "截至" not in text:
                    problems.append(f"{path}: arXiv:{arxiv}: card {text!r} lacks the dated count {count}")
            described = _accessible(page, f'a.digest-cite[data-arxiv="{arxiv}"]')["description"]
            if title not in _clean(described):
                problems.append(f"{path}: arXiv:{arxiv}: accessible description {described!r} lacks the title")
            page.mouse.move(0, 0)
            cite.focus()
            if not card.is_visible():
                problems.append(f"{path}: arXiv:{arxiv}: no card on keyboard focus")
            page.keyboard.press("Escape")
            if card.is_visible():
                problems.append(f"{path}: arXiv:{arxiv}: Esc does not close the card")
            href = cite.get_attribute("href")
            if not href.endswith("#ref-" + re.search(r"\[(\d+)\]", cite.inner_text())[1]):
                problems.append(f"{path}: arXiv:{arxiv} links to {href}, not its bibliography entry")
    assert not problems, "\n".join(problems)
    # following the link lands on the entry, which names the paper
    page.goto(base_url + REGISTER)
    page.locator("a.digest-cite").first.click()
    page.wait_for_load_state("load")
    landed = urlsplit(page.url)
    assert landed.path == BIBLIOGRAPHY and landed.fragment.startswith("ref-"), page.url
    box = page.locator(f"#{landed.fragment}").evaluate(JS_VISIBLE_ON_TOP)
    assert 0 <= box["top"] < box["vh"], box


def test_a_citation_card_opens_on_tap_and_the_second_tap_follows_the_link(open_page, base_url):
    page = open_page(REGISTER, viewport=PHONE, phone=True)
    cite = page.locator("a.digest-cite").first
    card = page.locator(f"[id='{cite.get_attribute('aria-describedby')}']")
    cite.scroll_into_view_if_needed()
    cite.tap()
    assert card.is_visible(), "the first tap shows the card"
    assert urlsplit(page.url).path == REGISTER, "the first tap does not leave the page"
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"the card leaves the screen: {box}"
    page.locator("h1").first.tap()
    assert not card.is_visible(), "a tap elsewhere closes the card"
    cite.tap()
    assert card.is_visible()
    with page.expect_navigation():
        cite.tap()
    assert urlsplit(page.url).path == BIBLIOGRAPHY, page.url


def test_bibliography_backlinks_return_to_the_citing_places(open_page, base_url):
    page = open_page(BIBLIOGRAPHY)
    backlinks = page.locator(".digest-ref a.digest-backlink").evaluate_all(
        "els => els.map(a => [a.closest('.digest-ref').dataset.arxiv, a.getAttribute('href'), a.href, a.textContent])"
    )
    assert len(backlinks) >= 3, backlinks
    problems = []
    for arxiv, raw, url, label in backlinks:
        page.goto(base_url + BIBLIOGRAPHY)
        page.locator(f'.digest-ref a.digest-backlink[href="{raw}"]').first.click()
        page.wait_for_load_state("load")
        landed = urlsplit(page.url)
        if landed.path != urlsplit(url).path:
            problems.append(f"{label}: landed on {page.url}, not {url}")
            continue
        if not landed.fragment:
            where = page.locator(f'a.digest-cite[data-arxiv="{arxiv}"]').count()
            problems.append(
                f"{label} ({raw}): no anchor, the reader lands at the top of {landed.path} "
                f"and must look for the citation ({where} on the page)"
            )
            continue
        target = page.locator(f"[id='{landed.fragment}']")
        if target.count() != 1:
            problems.append(f"{label} ({raw}): no element #{landed.fragment} on {landed.path}")
            continue
        cites_here = target.evaluate(
            "(t, id) => t.matches(`a.digest-cite[data-arxiv='${id}']`) || "
            "!!t.querySelector(`a.digest-cite[data-arxiv='${id}']`) || "
            "!!(t.closest('section, article') && "  # an entry's heading: the citation is in its entry
            "t.closest('section, article').querySelector(`a.digest-cite[data-arxiv='${id}']`)) || "
            "!!(t.closest('.digest-ref') && t.closest('.digest-ref').dataset.arxiv === id)",
            arxiv,
        )
        if not cites_here:
            problems.append(f"{label} ({raw}): #{landed.fragment} does not cite arXiv:{arxiv}")
        box = target.evaluate(JS_VISIBLE_ON_TOP)
        if not (0 <= box["top"] < box["vh"]):
            problems.append(f"{label} ({raw}): #{landed.fragment} is not scrolled into view: {box}")
    assert not problems, "back-links that do not return to the citing place:\n" + "\n".join(problems)


# --------------------------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("term", ["长 prefill", "头阻塞", "证据缓存", "Kapitsa", "ModelExpress"])
def test_search_finds_terms_from_the_data(open_page, term):
    page = open_page(HOME)
    page.wait_for_load_state("networkidle")  # the search worker has its index
    box = page.locator(".md-search__input")
    box.click()
    # Typed key by key; CJK characters arrive as text input (as from an input method), and the
    # input method's commit key ends the composition: End stands for it (Material searches on keyup).
    box.press_sequentially(term, delay=20)
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=10_000)
    items = page.locator(".md-search-result__item")
    texts = [_clean(t).lower() for t in items.all_inner_texts()]
    assert texts, f"no search result for {term!r}"
    assert any(term.lower() in t for t in texts), f"no result for {term!r} shows the term: {texts[:3]}"
    # The first result that shows the term leads to a page that has it.
    first = next(i for i, t in enumerate(texts) if term.lower() in t)
    items.nth(first).locator("a").first.click()
    page.wait_for_load_state("load")
    assert term.lower() in _clean(page.locator("article.md-content__inner").inner_text()).lower(), (
        f"the result for {term!r} opened {page.url}, which does not contain it"
    )


def test_a_search_result_for_an_entry_shows_how_solid_it_is(open_page, base_url):
    """The result for an item's entry leads to the entry itself and shows its evidence level (the
    scale and the word, as the badge draws them), not the meanings in the badge's tip."""
    brief = YAML(typ="safe").load((PROJECT / "data" / "briefs" / f"{BRIEF_ID}.yml").read_text(encoding="utf-8"))
    item = next(i for i in brief["items"] if "TorchTPU" in i["title"])
    page = open_page(HOME)
    page.wait_for_load_state("networkidle")
    box = page.locator(".md-search__input")
    box.click()
    box.press_sequentially("TorchTPU", delay=20)
    box.press("End")
    page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=10_000)
    links = page.locator(".md-search-result__item a[href*='#entry-']")
    assert links.count(), "no search result leads to an entry"
    text = _clean(links.first.inner_text())
    word = LEVEL_WORDS[item["evidence"]["level"]]
    assert word in text, f"the result does not show the level {word!r}: {text[:200]}"
    assert re.search("[●○]{2,}", text), f"the result does not show the level's scale: {text[:200]}"
    assert "含义" not in text, f"the badge's tip is in the result: {text[:200]}"
    links.first.click()
    page.wait_for_load_state("load")
    anchor = urlsplit(page.url).fragment
    assert anchor.startswith("entry-"), page.url
    top = page.locator(f"#{anchor}").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 300, f"the entry's heading is not in view ({top}px)"


# --------------------------------------------------------------------------------------------
# Phone width and dark mode
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_nights_permalink_and_a_briefs_link_land_on_that_nights_changes(open_page, base_url, phone):
    """At 1440 and 390 px: the permalink of 10-22 lands on its section of the month's page, its heading on
    the first screen; from 10-23's brief page, the link to its night lands on 10-23's section."""
    viewport = PHONE if phone else {"width": 1440, "height": 900}
    page = open_page("/inference/changes/2026-10-22/", viewport=viewport, phone=phone)
    page.wait_for_url(f"**{CHANGES}#night-2026-10-22")
    heading = page.locator("#night-2026-10-22")
    top = heading.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < viewport["height"] / 2, f"the night's heading is {top:.0f}px down"
    night = page.locator('[data-night="2026-10-22"]')
    assert night.locator('li[data-change="contradictions_resolved"]').count() == 2
    _shot_around(page, heading, f"changes-night-{'390' if phone else '1440'}.png", above=0, height=700)
    page.goto(base_url + "/inference/briefs/2026-10-23-inference-E1/")
    page.locator(".digest-night-link a").click()
    page.wait_for_url(f"**{CHANGES}#night-2026-10-23")
    assert page.locator("#night-2026-10-23").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


PAST = "/inference/as-of/"
"""The doc as it stood on a past night (issue 32)."""


def _past(page, night: str, view: str):
    """Wait for the past views' page to show ``night``'s ``view``; its banner's text."""
    page.locator(f'.digest-past[data-night="{night}"][data-view="{view}"]').wait_for(timeout=10_000)
    return page.locator(".digest-past__banner").inner_text()


def _level(page, entry_id: str) -> str | None:
    return page.locator(f'.digest-past__body [data-digest-entry="{entry_id}"]').get_attribute("data-level")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_past_nights_permalink_shows_the_section_as_it_stood_and_steps_night_by_night(open_page, phone):
    """At 1440 and 390 px: 10-21's permalink of §3 shows §3 as it stood that night (vLLM's long-prefill
    freeze still a lead, checked on 10-22), says which night it is, and steps to the night after and
    back; the first night has no night before."""
    viewport = PHONE if phone else {"width": 1440, "height": 900}
    page = open_page("/inference/as-of/2026-10-21/3/", viewport=viewport, phone=phone)
    page.wait_for_url(f"**{PAST}#2026-10-21/3")
    banner = _past(page, "2026-10-21", "3")
    assert "2026-10-21" in banner and "§3" in banner
    assert _level(page, "vllm-long-prefill-freeze") == "lead"
    assert page.locator(".digest-past__banner").evaluate("e => e.getBoundingClientRect().top") < viewport["height"] / 2
    assert page.locator('[data-step="prev"]').get_attribute("aria-disabled") == "true"
    _shot_around(page, page.locator(".digest-past"), f"past-{'390' if phone else '1440'}.png", above=0, height=700)
    page.locator('[data-step="next"]').click()
    _past(page, "2026-10-22", "3")
    assert _level(page, "vllm-long-prefill-freeze") == "partially_verified"
    page.locator('[data-step="prev"]').click()
    _past(page, "2026-10-21", "3")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_pick_a_night_on_a_section_page_and_on_the_past_page(open_page, base_url):
    """§3's night picker opens §3 as of the night picked; on the past page, the picker and the views
    keep to what the reader chose: the register of 10-22 holds 10-21's contradictions, Kapitsa's
    settled that night; 10-23's adds its own."""
    page = open_page(S3)
    form = page.locator("form.digest-past-pick")
    form.locator('input[name="night"]').fill("2026-10-21")
    form.locator("button").click()
    page.wait_for_url(f"**{PAST}#2026-10-21/3")
    _past(page, "2026-10-21", "3")
    assert _level(page, "vllm-long-prefill-freeze") == "lead"
    picker = page.locator(".digest-past__pick")
    picker.locator('input[name="night"]').fill("2026-10-22")
    picker.locator("button").click()
    _past(page, "2026-10-22", "3")
    page.locator('.digest-past__view[data-view="register"]').click()
    banner = _past(page, "2026-10-22", "register")
    assert "矛盾登记" in banner
    assert page.locator(".digest-past__body h2").all_inner_texts() == ["2026-10-21 E1 简报"]
    kapitsa = page.locator('.digest-past__body [data-digest-contradiction="kapitsa-weekly-gain"]')
    assert kapitsa.get_attribute("data-state") == "resolved"  # settled on 10-22, re-opened only on 10-24
    assert page.locator('.digest-past__view[aria-current="page"]').get_attribute("data-view") == "register"
    page.locator('[data-step="next"]').click()
    _past(page, "2026-10-23", "register")
    assert page.locator(".digest-past__body h2").all_inner_texts() == ["2026-10-21 E1 简报", "2026-10-23 E1 简报"]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_compare_two_nights(open_page, phone):
    """10-24 against 10-21: on the register, 10-23's contradiction is new and Kapitsa's (re-opened) has
    changed, shown as it stood on each night; on §1, Kapitsa's card shows 10-21's and 10-24's."""
    viewport = PHONE if phone else {"width": 1440, "height": 900}
    page = open_page("/inference/as-of/2026-10-24/register/", viewport=viewport, phone=phone)
    _past(page, "2026-10-24", "register")
    compare = page.locator(".digest-past__compare")
    compare.locator('input[name="other"]').fill("2026-10-21")
    compare.locator("button").click()
    page.locator('.digest-past[data-other="2026-10-21"]').wait_for(timeout=10_000)
    assert "2026-10-21" in page.locator(".digest-past__banner").inner_text()
    groups = page.locator(".digest-past__group").all_inner_texts()
    assert groups[0].startswith("2026-10-24 新出现（1）") and any(g.startswith("有变化") for g in groups), groups
    added = page.locator(".digest-past__body > [data-digest-contradiction]")
    assert added.first.get_attribute("data-digest-contradiction") == "modelexpress-vllm-branch"
    kapitsa = page.locator('.digest-past__pair [data-digest-contradiction="kapitsa-weekly-gain"]')
    assert kapitsa.count() == 2  # as it stood each night: open on 10-21, open again on 10-24 (its story grew)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    _shot_around(page, page.locator(".digest-past__body"), f"past-compare-{'390' if phone else '1440'}.png")
    page.locator('.digest-past__view[data-view="1"]').click()
    page.locator('.digest-past[data-view="1"][data-other="2026-10-21"]').wait_for(timeout=10_000)
    pair = page.locator(".digest-past__pair").filter(has=page.locator('[data-digest-entry="kapitsa"]'))
    assert pair.locator(".digest-past__then").all_inner_texts() == ["2026-10-21 的样子：", "2026-10-24 的样子："]
    page.locator('[data-step="alone"]').click()
    page.wait_for_function("() => !document.querySelector('.digest-past').hasAttribute('data-other')")
    assert page.locator(".digest-past__pair").count() == 0


def test_a_comparison_says_what_changed_and_links_each_night_between(open_page):
    """§3, 10-21 against 10-24: above vLLM's long-prefill freeze, what changed in words — its level, from
    线索级 to 部分核查 (the vocabulary's labels) — and under the comparison, the three nights between,
    each linked to what it changed on the changes page."""
    levels = YAML(typ="safe").load((PROJECT / "data" / "vocabulary.yml").read_text(encoding="utf-8"))["evidence_levels"]
    page = open_page("/inference/as-of/2026-10-21/3/")
    _past(page, "2026-10-21", "3")
    compare = page.locator(".digest-past__compare")
    compare.locator('input[name="other"]').fill("2026-10-24")
    compare.locator("button").click()
    page.locator('.digest-past[data-other="2026-10-24"]').wait_for(timeout=10_000)
    pair = page.locator(".digest-past__pair").filter(has=page.locator('[data-digest-entry="vllm-long-prefill-freeze"]'))
    said = pair.locator(".digest-past__what").inner_text()
    assert f"证据等级：{levels['lead']['label']} → {levels['partially_verified']['label']}" in said, said
    _shot_around(page, pair, "past-compare-what-1440.png")
    nights = page.locator(".digest-past__nights a")
    assert nights.all_inner_texts() == ["2026-10-22", "2026-10-23", "2026-10-24"]
    nights.nth(1).click()
    page.wait_for_url("**/inference/changes/2026-10/#night-2026-10-23")
    assert page.locator("#night-2026-10-23").count() == 1


def test_a_briefs_page_leads_to_the_doc_as_it_stood_that_night(open_page):
    page = open_page("/inference/briefs/2026-10-23-inference-E1/")
    page.locator("a.digest-past-link").click()
    page.wait_for_url(f"**{PAST}#2026-10-23")
    assert "2026-10-23" in _past(page, "2026-10-23", "1")


def test_a_nights_change_leads_to_the_entry_it_names(open_page, base_url):
    """Following an updated entry's link from a night lands on the entry on its section page, as it is today."""
    page = open_page(CHANGES)
    row = page.locator('[data-night="2026-10-22"] li[data-change="evidence_changed"]')
    row.locator("a").first.click()
    page.wait_for_url("**/inference/3/#entry-vllm-long-prefill-freeze")
    assert page.locator("#entry-vllm-long-prefill-freeze").is_visible()


@pytest.mark.parametrize("path", [HOME, S3, BRIEF_PAGE, CHANGES, "/inference/as-of/2026-10-22/1/"])
def test_no_horizontal_overflow_on_a_phone(open_page, path):
    page = open_page(path, viewport=PHONE, phone=True)
    page.wait_for_load_state("networkidle")
    m = page.evaluate(JS_OVERFLOW)
    assert m["innerWidth"] == PHONE["width"], m
    assert m["scrollWidth"] <= m["innerWidth"], (
        f"{path} is {m['scrollWidth']}px wide in a {m['innerWidth']}px window; sticking out:\n"
        + "\n".join(m["offenders"])
    )


def test_badge_tips_fit_on_a_phone(open_page):
    """Tapping a badge (it takes focus) opens its tip; the tip stays inside the 390 px screen."""
    page = open_page(S3, viewport=PHONE, phone=True)
    badges = page.locator(".digest-badge[data-evidence]")
    problems = []
    for i in range(badges.count()):
        badge = badges.nth(i)
        badge.scroll_into_view_if_needed()
        badge.tap()
        tip = badge.locator(".digest-badge__tip")
        if not tip.is_visible():
            problems.append(f"badge {i}: tapping it does not open its tip")
            continue
        box = tip.evaluate(JS_VISIBLE_ON_TOP)
        m = page.evaluate(JS_OVERFLOW)
        if box["left"] < 0 or box["right"] > box["vw"] or m["scrollWidth"] > m["innerWidth"]:
            problems.append(
                f"badge {i}: the open tip spans {box['left']:.0f}–{box['right']:.0f}px "
                f"of a {box['vw']}px screen (page {m['scrollWidth']}px wide)"
            )
        if i == 0:
            page.screenshot(path=str(_artifact("badge-tip-phone.png")))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_badge_text_is_legible(open_page, dark):
    """Contrast (WCAG 2, AA) of every piece of badge text against what is painted behind it: the level
    word with its icon, the source kind, the gap labels, and the open tip's boundary text. Badge text
    is small (0.8em), so the bar is 4.5:1; 3:1 would apply only to large text (≥ 24px, or ≥ 18.66px bold)."""
    problems = []
    seen = set()
    for path in (S1, S3):
        page = open_page(path, dark=dark)
        scheme = page.locator("body").get_attribute("data-md-color-scheme")
        assert scheme == ("slate" if dark else "default"), f"Material did not switch palette: {scheme!r}"
        badges = page.locator(".digest-badge[data-evidence]")
        for i in range(badges.count()):
            badge = badges.nth(i)
            level = badge.get_attribute("data-evidence")
            badge.focus()
            for part in (".digest-badge__level", ".digest-badge__kind", ".digest-gap", ".digest-badge__tip"):
                for j in range(badge.locator(part).count()):
                    el = badge.locator(part).nth(j)
                    c = el.evaluate(JS_CONTRAST)
                    need = 3.0 if c["large"] else 4.5
                    key = (level, part, c["text"], c["background"])
                    if key in seen:
                        continue
                    seen.add(key)
                    if c["ratio"] < need:
                        problems.append(
                            f"{path} {level} {part}: {c['text']} on {c['background']} = {c['ratio']:.2f}:1 "
                            f"(< {need}, {c['fontSize']:.1f}px/{c['fontWeight']})"
                        )
        if dark and path == S3:
            badges.first.evaluate("e => e.scrollIntoView({block: 'center'})")
            badges.first.focus()
            _shot_around(page, badges.first, "badge-tip-dark-desktop.png")
    assert seen, "no badge text measured"
    assert not problems, "badge text below the WCAG AA contrast bar:\n" + "\n".join(problems)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_history_charts_are_visible(open_page, dark):
    """The entry history charts (static SVG made at build time) stand out from the page: line and point
    markers at 3:1 or more against the background (WCAG 2 AA 1.4.11, non-text contrast)."""
    page = open_page(S1, dark=dark)
    charts = page.locator("svg.digest-chart")
    assert charts.count() >= 1, "no history chart on §1 (Kapitsa's Stars have four dated numbers)"
    problems = []
    for i in range(charts.count()):
        chart = charts.nth(i)
        label = chart.get_attribute("aria-label")
        assert chart.get_attribute("role") == "img" and label, "a chart without role=img and a text alternative"
        for selector, prop in (("polyline", "stroke"), ("circle", "fill")):
            for j in range(chart.locator(selector).count()):
                c = chart.locator(selector).nth(j).evaluate(JS_CONTRAST, prop)
                if c["ratio"] < 3:
                    problems.append(f"{label}: {selector} {prop} {c['text']} on {c['background']} = {c['ratio']:.2f}:1")
        if dark and i == 0:
            chart.evaluate("e => e.scrollIntoView({block: 'center'})")
            _shot_around(page, chart, "chart-dark-desktop.png", above=120, height=260)
    problems = sorted(set(problems))
    assert not problems, "chart marks that do not stand out:\n" + "\n".join(problems)


# axe-core on every kind of page and the screenshots for a person to look at: test_browser_pages.py


# --------------------------------------------------------------------------------------------
# No request leaves localhost (keep this test last: it also checks every earlier test's requests)
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_no_request_leaves_localhost_and_every_resource_loads(site, open_page, base_url):
    failures = []
    errors = []
    pages = ["/" + str(p.relative_to(site).parent).replace(os.sep, "/") + "/" for p in sorted(site.rglob("index.html"))]
    pages = ["/" if p == "/./" else p for p in pages]
    assert HOME in pages and S3 in pages and BRIEF_PAGE in pages

    def listen(page, path):
        page.on("requestfailed", lambda r: failures.append(f"{path}: {r.url}: {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and failures.append(f"{path}: {r.url}: HTTP {r.status}"))
        page.on("pageerror", lambda e: errors.append(f"{path}: {e}"))

    for path in pages:  # "load": every resource of the page; later requests are still heard (contexts stay open)
        open_page(path, before=functools.partial(listen, path=path), wait="load")
    # the search worker and its index, in light and dark
    for dark in (False, True):
        page = open_page(HOME, dark=dark, before=functools.partial(listen, path="search"), wait="networkidle")
        page.locator(".md-search__input").click()
        page.locator(".md-search__input").press_sequentially("Kapitsa")
        page.locator(".md-search-result__item").first.wait_for(state="visible")

    local = base_url + "/"
    outside = sorted(
        {f"{url}  (in {test})" for test, url in REQUESTS if not url.startswith((local, "data:", "about:"))}
    )
    assert len({test for test, _ in REQUESTS}) >= 1 and len(REQUESTS) > len(pages)
    assert not outside, "requests that leave localhost:\n" + "\n".join(outside)
    assert not failures, "resources that did not load:\n" + "\n".join(failures)
    assert not errors, "script errors:\n" + "\n".join(errors)
