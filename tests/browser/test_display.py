"""Issue 21, item 6 in the browser, on a 390x844 phone: names wrap and are never cut short, also
at 200% text; a table never breaks a word (it wraps between words or scrolls inside its own box);
the new-match form shows the seats a game needs and one more as names are typed, with the first
dealer chosen by name; the chart of a finished match has its axes, readable in light and dark.

"200% text" is the browser's text-size setting (Chromium's default font size doubled through the
DevTools protocol, as a phone's larger-text setting does): every rem doubles, the page stays
390 px wide."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, TableApi
from .table import board, group
from .test_accessibility import contrast

pytestmark = pytest.mark.browser

# Long names, as a real table has them: a side of two such must never lose its second player.
LONG = ["Chathurika Perera", "Bartholomew Okonkwo-Smith", "Anneliese Vandermolen", "Maximiliano Etcheverry"]


def visit(page: Page, url: str, percent: int = 100) -> None:
    """Open `url` with the phone's text size at `percent` (Chromium's default font sizes, 16 and
    13 px at 100%, set again on each page: a new page may be drawn by another renderer)."""
    page.goto(url)
    if percent != 100:
        page.context.new_cdp_session(page).send(
            "Page.setFontSizes", {"fontSizes": {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}}
        )
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == f"{16 * percent // 100}px"


# Elements of the page that cut their own text short: an ellipsis, or hidden overflow that holds
# more than it shows. Form boxes scroll their own text, and the visually hidden texts are meant so.
CUT_SHORT = """() => [...document.querySelectorAll('main *')].filter(e => {
  if (e.closest('input, select, textarea, svg, .visually-hidden')) return false;
  const style = getComputedStyle(e);
  const clips = style.textOverflow === 'ellipsis' || ['hidden', 'clip'].includes(style.overflowX);
  return clips && e.scrollWidth > e.clientWidth + 1;
}).map(e => e.tagName.toLowerCase() + '.' + e.className + ': ' + e.textContent.trim().slice(0, 50))"""

# Whether the page scrolls sideways (it must not: a box that is wider scrolls inside itself).
SIDEWAYS = "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"

# Words of the tables' cells drawn on more than one line ("Wo/n"): each word's rectangles, one
# per line. A hyphenated word may break at its hyphen.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('main th, main td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const found of node.textContent.matchAll(/[^\\s-]+/g)) {  // a hyphen is a place to break
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(found[0] + ' in ' + cell.textContent.trim().slice(0, 30));
      }
    }
  }
  return broken;
}"""


def envite_of_long_names(table_api: TableApi, page: Page):
    match = table_api.start("envite", LONG)
    for record in ({"winner": 0, "stake": 4}, {"winner": 1, "stake": 7}, {"winner": 0}):
        table_api.hand(match, record)
    table_api.join(page, match)
    return match


@pytest.mark.parametrize("percent", [100, 200])
def test_long_names_wrap_and_nobody_is_cut_short(page: Page, table_api: TableApi, percent: int) -> None:
    match = envite_of_long_names(table_api, page)
    finished = table_api.start("toepen", LONG[:3], starting_tokens=1)
    table_api.hand(finished, {"winner": 0})
    visit(page, f"/matches/{match.id}", percent)
    sides = board(page).get_by_role("heading", level=3)
    expect(sides).to_have_text([f"{LONG[0]} & {LONG[2]}", f"{LONG[1]} & {LONG[3]}"])
    players = page.get_by_role("link", name="Players").get_attribute("href")
    urls = [
        f"/matches/{match.id}",
        f"/matches/{match.id}/hands",
        f"/matches/{match.id}/setup",
        f"/matches/{finished.id}",
        "/matches",
        players,
    ]
    page.goto(players)
    urls.append(page.get_by_role("link", name=re.compile(rf"^{LONG[0]}")).get_attribute("href"))
    found = []
    for url in urls:
        visit(page, url, percent)
        cut = page.evaluate(CUT_SHORT)
        wide = page.evaluate(SIDEWAYS)
        if cut or wide > 0:
            found.append(f"{url} at {percent}% text: cut short {cut}, {wide} px too wide")
    assert not found, "\n".join(found)


def test_a_player_page_table_keeps_its_words_whole_at_200_percent_text(page: Page, table_api: TableApi) -> None:
    schnapsen = table_api.start("schnapsen", ["Ann", "Bob"], target=1)
    table_api.hand(schnapsen, {"ending": "out", "declarer": 0, "points": [70, 20], "tricks": [4, 1]})
    tournament = table_api.start("speed_tournament", ["Ann", "Bob"])
    table_api.hand(tournament, {"winner": 1})
    page.goto("/players/")
    visit(page, page.get_by_role("link", name=re.compile(r"^Ann\b")).get_attribute("href"), 200)
    table = page.get_by_role("table")
    expect(table.get_by_role("columnheader")).to_have_text(["Game", "Won", "Shared", "Lost", "Drawn"])
    expect(table.get_by_role("cell", name="Speed Tournament")).to_be_visible()
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate(SIDEWAYS) <= 0  # the page does not scroll sideways...
    assert (
        table.evaluate("t => t.scrollWidth > t.clientWidth && getComputedStyle(t).overflowX") == "auto"
    )  # ...the table does


def test_the_rules_tables_keep_their_words_whole_at_200_percent_text(page: Page) -> None:
    for key in ("envite", "poke", "schnapsen", "speed_tournament", "chicago"):
        visit(page, f"/rules/{key}", 200)
        assert page.evaluate(BROKEN_WORDS) == [], key
        assert page.evaluate(SIDEWAYS) <= 0, key


# -- the new-match form -----------------------------------------------------------------------------


def seat_box(page: Page, number: int):
    return page.get_by_role("combobox", name=re.compile(rf"^Seat {number}\b"))


def test_the_seats_show_one_more_as_names_are_typed_and_the_dealer_follows_them(page: Page) -> None:
    page.goto("/matches/new/speed_tournament")
    expect(seat_box(page, 1)).to_be_visible()
    expect(seat_box(page, 2)).to_be_visible()
    expect(seat_box(page, 3)).to_be_hidden()  # the tournament needs two; a third shows once they have names
    dealers = group(page, "First dealer").locator("label")
    expect(dealers.filter(visible=True)).to_have_text(["Random"])  # nobody named yet
    for number, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        seat_box(page, number).fill(name)
        expect(seat_box(page, number + 1)).to_be_visible()
    expect(seat_box(page, 4)).to_have_accessible_name("Seat 4 (if a fourth player joins)")
    expect(seat_box(page, 5)).to_be_hidden()
    expect(dealers.filter(visible=True)).to_have_text(["Ann", "Bob", "Cy", "Random"])
    seat_box(page, 3).fill("Cyrus")
    expect(dealers.filter(visible=True)).to_have_text(["Ann", "Bob", "Cyrus", "Random"])
    group(page, "First dealer").get_by_text("Cyrus", exact=True).click()
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Round 1 · Cyrus deals")).to_be_visible()
    expect(board(page).get_by_role("heading", level=3)).to_have_text(["Ann", "Bob", "Cyrus"])


def test_without_a_script_the_dealer_is_named_by_place_in_the_order(browser, live_server) -> None:
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    try:
        page.goto("/matches/new/machiavelli")
        for number, name in enumerate(["Ann", "Bob"], start=1):
            seat_box(page, number).fill(name)
        expect(seat_box(page, 3)).to_be_visible()  # the form, not a script, shows the next seat
        expect(group(page, "First dealer").locator("label").filter(visible=True)).to_have_text(
            ["First player", "Second player", "Random"]
        )
        group(page, "First dealer").get_by_text("Second player", exact=True).click()
        page.get_by_role("button", name="Start").click()
        expect(page.get_by_role("heading", name=re.compile(r"^\w+ 1 · Bob deals$"))).to_be_visible()
    finally:
        context.close()


# -- the chart ----------------------------------------------------------------------------------------

CHART_COLOURS = """() => {
  const svg = document.querySelector('figure.chart svg');
  const fill = selector => getComputedStyle(svg.querySelector(selector)).fill;
  return {background: getComputedStyle(svg).backgroundColor, mark: fill('text.mark'), title: fill('text.title'),
          axis: getComputedStyle(svg.querySelector('path.axis')).stroke};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chart_has_axes_of_rounds_and_score_readable_light_and_dark(
    browser, live_server, table_api: TableApi, scheme: str
) -> None:
    match = table_api.start("speed_tournament", ["Ann", "Bob", "Cy", "Di"])
    for record in ({"eliminated": 1}, {"eliminated": 3}, {"winner": 2}):
        table_api.hand(match, record)
    context = browser.new_context(base_url=live_server, color_scheme=scheme, **PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    try:
        page.goto(f"/matches/{match.id}")
        chart = page.get_by_role("img", name="The score of each side over 3 rounds, from 0 to 3 rounds")
        expect(chart).to_be_visible()
        expect(chart.locator("text.mark")).to_have_text(["0", "3", "1", "2", "3"])
        expect(chart.locator("text.title")).to_have_text(["Round", "Rounds"])
        width = chart.evaluate("svg => svg.getBoundingClientRect().width")
        assert 300 <= width <= 390  # the page's width on the phone: its 11-unit figures about 12 px high
        colours = page.evaluate(CHART_COLOURS)
        for part in ("mark", "title"):
            assert contrast(colours[part], colours["background"]) >= 4.5, (part, colours)
        assert contrast(colours["axis"], colours["background"]) >= 3, colours
    finally:
        context.close()
