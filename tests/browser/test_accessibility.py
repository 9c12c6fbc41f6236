"""Accessibility (issue 7, item 6): axe-core on every page type of every game, light and dark,
with no violation at all; errors announced once; a focus ring that shows at 3:1 or better.

axe-core comes bundled with axe-playwright-python (nothing is downloaded). To keep it quick:
- one phone per colour scheme (a browser context emulating prefers-color-scheme light or dark);
  both open the same page and run axe at the same time (two renderer processes, two cores);
- each phone loads axe-core once: every page is fetched and written into the one long-lived
  window (table.SHOW_PAGE: the same DOM, stylesheets and scripts as a navigation, axe kept);
- the matches come from the JSON API (conftest `every_game`), not from taps.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from scorekeeper.games import GAMES

from .conftest import PHONE
from .table import SHOW_PAGE

pytestmark = pytest.mark.browser

# Every axe-core rule in light; in dark only the rules that colours can change (the themes differ
# by their CSS colour variables alone: the DOM, names, roles and layout are the same).
AXE_OPTIONS = {
    "light": {"resultTypes": ["violations"]},
    "dark": {"resultTypes": ["violations"], "runOnly": ["color-contrast", "link-in-text-block"]},
}
SHARED_PAGES = ("/", "/matches", "/players/", "/rules/")

# Installed once in each phone's window, beside table.SHOW_PAGE: `checkAll` shows each page in
# turn ({url}, or {post: true} for the answer to the hand form shown), runs axe-core on it, and
# lists what it found as readable lines; the last page stays shown.
HELPERS = (
    SHOW_PAGE
    + """
window.checkAll = async (pages) => {
  const found = [];
  for (const page of pages) {
    const status = await show(page);
    const wanted = page.post ? 422 : 200;
    if (status !== wanted) { found.push((page.url || 'the hand posted') + ' answered ' + status); continue; }
    const result = await axe.run(document, window.axeOptions);
    for (const v of result.violations) {
      found.push((page.url || 'the hand posted') + ' ' + v.id + ': ' + v.help + ' | ' + v.nodes.slice(0, 4)
        .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' || '));
    }
  }
  return found;
};
"""
)


@pytest.fixture(scope="module")
def phones(browser, live_server):
    """One phone per colour scheme with axe-core loaded, allowed to talk to the live server only."""
    own = urlsplit(live_server).netloc
    strangers: list[str] = []

    def foreign(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme not in ("data", "blob", "about") and parts.netloc != own

    def refuse(route) -> None:
        strangers.append(route.request.url)
        route.abort()

    opened = {}
    for scheme, options in AXE_OPTIONS.items():
        context = browser.new_context(base_url=live_server, color_scheme=scheme, bypass_csp=True, **PHONE)
        context.set_default_timeout(5000)
        context.route(foreign, refuse)
        page = context.new_page()
        page.goto("/")
        page.evaluate(Axe().axe_script)
        page.evaluate(f"() => {{ {HELPERS} }}")
        page.evaluate("options => { window.axeOptions = options; }", options)
        opened[scheme] = page
    yield opened
    for page in opened.values():
        page.context.close()
    assert not strangers, f"pages asked hosts other than the live server: {strangers}"


def check(phones: dict[str, Page], pages: list[dict]) -> list[str]:
    """Both phones check the same pages at the same time (table.SHOW_PAGE items); what axe-core
    found on them, as readable lines."""
    for page in phones.values():
        page.evaluate("pages => { window.pending = checkAll(pages); }", pages)
    return [f"({scheme}) {line}" for scheme, page in phones.items() for line in page.evaluate("() => window.pending")]


def test_shared_pages_have_no_violations(phones, every_game) -> None:
    light = phones["light"]
    light.evaluate("url => show({url})", "/players/")
    ann = light.get_by_role("link", name=re.compile(r"^Ann\b")).get_attribute("href")  # Ann played every game
    # and the other pages of a match, the same for every game: share it, delete it, finish it.
    court_piece = every_game["court_piece"]
    for page in phones.values():
        court_piece.join(page, court_piece.played)
    urls = [*SHARED_PAGES, ann] + [
        f"/matches/{court_piece.played.id}/{action}" for action in ("share", "remove", "finish")
    ]
    found = check(phones, [{"url": url} for url in urls])
    assert not found, "\n".join(found)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_page_of_the_game_has_no_violations(phones, every_game, key) -> None:
    matches = every_game[key]
    for page in phones.values():
        matches.join(page)
    pages = [{"url": url} for what, url in matches.pages().items() if what != "match page, fresh"]
    # Last the fresh match's page, and the hand refused when Record is tapped with nothing chosen.
    pages += [{"url": matches.pages()["match page, fresh"]}, {"post": True}]
    found = check(phones, pages)
    for page in phones.values():  # the form says what is missing, announced once
        expect(page.get_by_role("alert")).to_have_count(1)
        expect(page.locator("form.hand-form .has-error").first).to_be_visible()
    assert not found, "\n".join(found)


def test_links_name_their_hand(phones, every_game) -> None:
    """Each hand's Edit and Delete say which hand they are for, to a screen reader as to the eye."""
    court_piece = every_game["court_piece"]
    light = phones["light"]
    court_piece.join(light, court_piece.finished)
    light.evaluate("url => show({url})", f"/matches/{court_piece.finished.id}/hands")
    hands = court_piece.finished_hands
    for action in ("Edit", "Delete"):
        expect(light.get_by_role("link", name=re.compile(rf"^{action}\b"))).to_have_count(hands)
        for number in range(1, hands + 1):
            expect(light.get_by_role("link", name=f"{action} hand {number}", exact=True)).to_have_count(1)


# -- the focus ring -------------------------------------------------------------------------------

# What the focused element shows: its ring (a hidden radio's ring is drawn on its label's face),
# and the colour behind the ring (the nearest ancestor with a background of its own).
FOCUS_RING = r"""() => {
  const focused = document.activeElement;
  const ring = focused.matches('.pick input') ? focused.nextElementSibling : focused;
  const style = getComputedStyle(ring);
  let around = ring.parentElement, behind = null;
  while (around && !behind) {
    const colour = getComputedStyle(around).backgroundColor;
    if (!/^rgba\(.*, 0\)$/.test(colour) && colour !== 'transparent') behind = colour;
    around = around.parentElement;
  }
  return {what: focused.outerHTML.slice(0, 100), style: style.outlineStyle, width: parseFloat(style.outlineWidth),
          colour: style.outlineColor, behind: behind || 'rgb(255, 255, 255)'};
}"""


def luminance(colour: str) -> float:
    red, green, blue = (float(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3])
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_shows_at_3_to_1(browser, live_server, every_game, scheme) -> None:
    """Tab through the pages a player uses most: every stop shows a ring of 2 px or more whose colour
    stands out 3:1 from what is behind it (WCAG 1.4.11, 2.4.7)."""
    court_piece = every_game["court_piece"]
    context = browser.new_context(base_url=live_server, color_scheme=scheme, **PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    court_piece.join(page)
    faint = []
    try:
        for url in ("/", f"/matches/{court_piece.played.id}", f"/matches/{court_piece.played.id}/setup"):
            page.goto(url)
            seen = set()
            for _ in range(80):
                page.keyboard.press("Tab")
                ring = page.evaluate(FOCUS_RING)
                if ring["what"] in seen:
                    break
                seen.add(ring["what"])
                if ring["what"].startswith("<body"):
                    continue
                ratio = contrast(ring["colour"], ring["behind"])
                if ring["style"] == "none" or ring["width"] < 2 or ratio < 3:
                    faint.append(
                        f"{url} ({scheme}) {ring['what']}: {ring['style']} {ring['width']}px "
                        f"{ring['colour']} on {ring['behind']}: {ratio:.1f}:1"
                    )
            assert len(seen) >= 8, f"{url}: only {len(seen)} stops for the keyboard"
    finally:
        context.close()
    assert not faint, "\n".join(faint)
