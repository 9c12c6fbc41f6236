"""Issue 23 in a browser on a phone: the game at a glance fits one screen, printing gives a cheat
sheet without the navigation, theme buttons or forms, and axe-core finds nothing on the rules index,
the search results, the table words and a rules page opened from a match, light and dark."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorekeeper.games import GAMES

from .conftest import PHONE

pytestmark = pytest.mark.browser

SCREEN = PHONE["viewport"]["height"]


@pytest.fixture(scope="module")
def court_match(table_api):
    return table_api.start(
        "court_piece", ["Ann", "Bo", "Cy", "Di"], all13_courts=53, court_hand_streak_policy="count_as_win"
    )


def test_the_game_at_a_glance_fits_one_phone_screen(page, court_match):
    for key in GAMES:
        page.goto(f"/rules/{key}")
        glance = page.locator("#glance")
        expect(glance).to_be_visible()
        box = glance.bounding_box()
        assert box["y"] + box["height"] <= SCREEN, f"{key}: the glance ends at {box['y'] + box['height']:.0f} px"
    page.goto(f"/rules/court_piece?match={court_match.id}")  # with the way back to the match above it
    box = page.locator("#glance").bounding_box()
    assert box["y"] + box["height"] <= SCREEN
    expect(page.get_by_role("link", name=f"Back to match #{court_match.id}")).to_be_visible()


def test_printing_a_page_gives_the_cheat_sheet_without_navigation(page, court_match):
    page.goto(f"/rules/court_piece?match={court_match.id}")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_visible()
    page.emulate_media(media="print")
    expect(nav).to_be_hidden()
    expect(page.get_by_role("button", name="Dark")).to_be_hidden()  # the theme buttons
    expect(page.locator("footer")).to_be_hidden()
    expect(page.get_by_role("navigation", name="Contents")).to_be_hidden()
    expect(page.get_by_role("link", name=f"Back to match #{court_match.id}")).to_be_hidden()
    expect(page.locator("#glance")).to_be_visible()
    expect(page.locator("#all-thirteen")).to_be_visible()  # the scoring
    expect(page.locator("#at-this-table")).to_be_visible()  # and the table's own rules
    page.goto("/rules/search?q=court")
    expect(page.locator("form.rules-search")).to_be_hidden()
    page.emulate_media(media="screen")
    expect(page.locator("form.rules-search")).to_be_visible()


def test_each_rules_page_prints_on_one_sheet(page):
    """The cheat sheet of every game fits one A4 sheet (Chromium's PDF, through the print stylesheet)."""
    longer = {}
    for key in GAMES:
        page.goto(f"/rules/{key}")
        sheets = len(re.findall(rb"/Type\s*/Page(?!s)", page.pdf(format="A4")))
        if sheets != 1:
            longer[key] = sheets
    assert not longer, longer


def test_the_search_form_finds_a_word_without_javascript(browser, live_server):
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    try:
        page = context.new_page()
        page.goto("/rules/")
        page.get_by_label("Search the rules").fill("Caida")
        page.get_by_role("button", name="Search").click()
        expect(page).to_have_url(f"{live_server}/rules/search?q=Caida")
        page.get_by_role("link", name="Cuarenta: caída").first.click()
        expect(page).to_have_url(f"{live_server}/rules/cuarenta#caida")
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rules_pages_have_no_accessibility_violations(browser, live_server, court_match, scheme):
    own = urlsplit(live_server).netloc
    context = browser.new_context(base_url=live_server, color_scheme=scheme, bypass_csp=True, **PHONE)
    context.route(lambda url: urlsplit(url).netloc not in ("", own), lambda route: route.abort())
    options = {"resultTypes": ["violations"]}
    if scheme == "dark":
        options["runOnly"] = ["color-contrast", "link-in-text-block"]
    found = []
    try:
        page = context.new_page()
        for url in (
            "/rules/",
            "/rules/search?q=court",
            "/rules/search?q=zzyzx",
            "/rules/words",
            f"/rules/court_piece?match={court_match.id}&hand=2",
            "/rules/poke",
        ):
            page.goto(url)
            for violation in Axe().run(page, options=options).response["violations"]:
                found.append(
                    f"{url} ({scheme}) {violation['id']}: {violation['help']} "
                    f"{[node['target'] for node in violation['nodes'][:3]]}"
                )
    finally:
        context.close()
    assert not found, "\n".join(found)
