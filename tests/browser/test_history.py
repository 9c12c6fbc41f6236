"""The history in a browser (issue 24): its pages clean under axe-core in light and dark, a night's
big screen that follows a hand recorded elsewhere, and a score sheet that prints without navigation."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import PHONE
from .table import SHOW_PAGE

pytestmark = pytest.mark.browser

TABLE = ["Nadia Okafor", "Omar Haddad", "Pita Tuilagi", "Quinn Doyle"]


@pytest.fixture(scope="module")
def history(table_api) -> dict:
    """Three finished Court Piece matches of one table, and one in play; the first player's id."""
    made = []
    for side in (0, 1, 0):
        match = table_api.start("court_piece", TABLE, courts_to_win=1)
        table_api.hand(match, {"outcome": "tricks", "tricks": [8, 5]})
        table_api.hand(match, {"outcome": "first_seven", "side": side, "all_thirteen": False})
        made.append(match)
    playing = table_api.start("court_piece", TABLE)
    status, found = table_api.call("GET", f"/api/v1/nights/{night_of(table_api)}?limit=1")
    assert status == 200 and found["matches"][0]["id"] == playing.id
    return {"finished": made, "playing": playing, "night": found["id"], "ids": player_ids(table_api)}


def night_of(table_api) -> int:
    """Tonight's night, as the app counts it (its redirect from /nights/tonight)."""
    import urllib.request

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        urllib.request.build_opener(Stay).open(table_api.base + "/nights/tonight")
    except urllib.error.HTTPError as moved:
        return int(moved.headers["Location"].rsplit("/", 1)[1])
    raise AssertionError("/nights/tonight did not redirect")


def player_ids(table_api) -> list[int]:
    import urllib.request

    with urllib.request.urlopen(table_api.base + "/players/?after=nadia") as answer:
        listed = answer.read().decode()
    ids = dict((name, int(player)) for player, name in re.findall(r'href="/players/(\d+)"><b>([^<]+)</b>', listed))
    return [ids[name] for name in TABLE]


def urls(history: dict) -> list[str]:
    nadia, omar = history["ids"][:2]
    night = history["night"]
    return [
        f"/players/{nadia}",
        f"/players/{nadia}/games/court_piece",
        f"/head-to-head?a={nadia}&b={omar}",
        "/nights",
        f"/nights/{night}",
        f"/nights/{night}/screen",
        f"/matches/{history['finished'][0].id}/sheet",
        f"/matches/{history['playing'].id}",
        "/matches",
    ]  # chances before the first hand; the export links


def test_the_history_pages_have_no_violations_light_and_dark(browser, live_server, history):
    own = urlsplit(live_server).netloc
    found = []
    for scheme in ("light", "dark"):
        context = browser.new_context(base_url=live_server, color_scheme=scheme, bypass_csp=True, **PHONE)
        context.route(lambda url: urlsplit(url).netloc not in (own, ""), lambda route: route.abort())
        page = context.new_page()
        page.goto("/")
        page.evaluate(Axe().axe_script)
        page.evaluate(f"() => {{ {SHOW_PAGE} }}")
        only = {} if scheme == "light" else {"runOnly": ["color-contrast", "link-in-text-block"]}
        for url in urls(history):
            assert page.evaluate("url => show({url})", url) == 200, url
            result = page.evaluate("options => axe.run(document, options)", {"resultTypes": ["violations"], **only})
            found += [
                f"({scheme}) {url} {v['id']}: {v['help']} | {v['nodes'][0]['target']}" for v in result["violations"]
            ]
        context.close()
    assert not found, "\n".join(found)


def test_the_big_screen_follows_a_hand_recorded_at_a_table(page, table_api, history):
    page.goto(f"/nights/{history['night']}/screen")
    board = page.locator("article", has=page.get_by_role("link", name=f"Court Piece #{history['playing'].id}"))
    expect(board).to_contain_text("0 hands")
    table_api.hand(history["playing"], {"outcome": "tricks", "tricks": [9, 4]})
    expect(board).to_contain_text("1 hand", timeout=10_000)  # the page reloaded by itself (watch.js)


def test_the_score_sheet_prints_the_board_and_every_hand_and_no_navigation(page, history):
    page.goto(f"/matches/{history['finished'][0].id}/sheet")
    page.emulate_media(media="print")
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    expect(page.get_by_role("link", name="Back to the match")).to_be_hidden()
    expect(page.locator(".board .side")).to_have_count(2)
    expect(page.locator("table.sheet-hands tbody tr")).to_have_count(2)


def test_a_new_match_shows_each_sides_chances_and_the_finished_one_its_sheet(page, table_api, history):
    page.goto(f"/matches/{table_api.start('court_piece', TABLE).id}")
    chances = page.get_by_role("region", name="Chances before the first hand").locator("li")
    expect(chances).to_have_count(2)
    shown = [int(re.search(r"(\d+)%", text).group(1)) for text in chances.all_inner_texts()]
    assert shown[0] > shown[1] and sum(shown) in (99, 100, 101)  # Nadia & Pita won two of three
    page.goto(f"/matches/{history['finished'][0].id}")
    expect(page.get_by_role("region", name="Chances before the first hand")).to_have_count(0)
    page.get_by_role("link", name="Score sheet to print").click()
    expect(page).to_have_url(re.compile(r"/sheet$"))
