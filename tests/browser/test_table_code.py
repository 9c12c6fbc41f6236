"""The table keeps its match (issue 21, items 1 and 2), on a 390x844 phone: a second phone claims a
match by its table code and records a hand; a phone whose cookies were cleared scores again with the
code; the home page opens on this phone's match in play, above the game buttons, on the first screen."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.games.properties import declared
from tests.games.taps import PLAYERS

from .conftest import PHONE, TableApi
from .table import Thumb, the_form
from .test_at_the_table import take

pytestmark = pytest.mark.browser

FOUR = list(PLAYERS[:4])


@pytest.fixture
def other_phone(browser, live_server):
    """A second phone at the table: its own cookies, the same screen, only the live server to talk to."""
    context = browser.new_context(base_url=live_server, **PHONE)
    context.set_default_timeout(5000)
    own = urlsplit(live_server).netloc
    context.route(
        lambda url: urlsplit(url).netloc != own and urlsplit(url).scheme not in ("data", "about"),
        lambda route: route.abort(),
    )
    yield context.new_page()
    context.close()


def table_code(page: Page) -> str:
    return page.locator("p.table-code strong").inner_text()


def type_the_code(page: Page, code: str) -> None:
    """What a watching phone does: open "Score from this phone", type the code, tap the button."""
    page.get_by_text("Score from this phone", exact=True).click()
    page.get_by_label("The table code, from the scoring phone's match page").fill(code)
    page.get_by_role("button", name="Score this match").click()


def record_envite_hand(page: Page, number: int) -> None:
    thumb = Thumb(page)
    for step in declared("envite", "COMMONEST").steps:
        take(thumb, the_form(page), step)
    thumb.record(number)


def test_a_second_phone_claims_the_match_by_its_table_code_and_records_a_hand(
    page: Page, other_phone: Page, table_api: TableApi
) -> None:
    match = table_api.start("envite", FOUR)
    table_api.join(page, match)
    code = table_code(page)
    other_phone.goto(f"/matches/{match.id}")
    expect(other_phone.get_by_text("Watching: the score follows the table.")).to_be_visible()
    expect(other_phone.get_by_role("button", name="Record hand 1")).to_have_count(0)
    type_the_code(other_phone, code.lower().replace("-", " "))  # as a thumb types it
    expect(other_phone.get_by_text("This phone can now score the match.")).to_be_visible()
    record_envite_hand(other_phone, 1)
    # The first phone's page follows the match by itself: it shows the hand, and still scores.
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()


def test_a_wrong_code_says_so_on_the_page_and_the_phone_still_watches(other_phone: Page, table_api: TableApi) -> None:
    match = table_api.start("envite", FOUR)
    other_phone.goto(f"/matches/{match.id}")
    type_the_code(other_phone, "2222-2222-22")
    expect(other_phone.get_by_role("alert")).to_contain_text("not this match's table code")
    expect(other_phone.get_by_label("The table code, from the scoring phone's match page")).to_have_value(
        "2222-2222-22"
    )
    expect(other_phone.get_by_role("button", name="Record hand 1")).to_have_count(0)


def test_a_phone_whose_cookies_were_cleared_scores_again_with_the_table_code(page: Page) -> None:
    page.goto("/")
    page.get_by_role("link", name="Envite", exact=True).click()
    for seat, name in enumerate(FOUR):
        page.get_by_role("combobox", name=f"Seat {seat + 1} side {'AB'[seat % 2]}", exact=True).fill(name)
    page.get_by_role("button", name="Start", exact=True).click()
    record_envite_hand(page, 1)
    code = table_code(page)  # written down, or read off another phone at the table
    page.context.clear_cookies()
    page.reload()
    expect(page.get_by_text("Watching: the score follows the table.")).to_be_visible()
    expect(page.get_by_role("button", name="Record hand 2")).to_have_count(0)
    type_the_code(page, code)
    record_envite_hand(page, 2)


def test_the_home_page_opens_on_this_phones_match_above_the_game_buttons(page: Page, table_api: TableApi) -> None:
    for _ in range(3):
        table_api.start("poke", ["Ed", "Flo"])  # other tables' matches in play
    match = table_api.start("envite", FOUR)
    table_api.join(page, match)
    page.goto("/")
    mine = page.get_by_role("link", name=f"Envite #{match.id}: {', '.join(FOUR)}")
    expect(mine).to_be_in_viewport(ratio=1)
    first_game = page.get_by_role("link", name="Envite", exact=True)
    assert mine.bounding_box()["y"] < first_game.bounding_box()["y"]
    for name in ("Envite", "Myllymatti", "Speed Tournament"):  # every game a tap away, the first to the last
        expect(page.get_by_role("link", name=name, exact=True)).to_have_count(1)


def test_the_share_page_copies_its_links(page: Page, table_api: TableApi) -> None:
    match = table_api.start("envite", FOUR)
    table_api.join(page, match)
    code = table_code(page)
    page.goto(f"/matches/{match.id}/share")
    expect(page.locator("p.table-code strong")).to_have_text(code)  # the same code as the match page's
    page.get_by_role("button", name="Copy the scorer link").click()
    expect(page.get_by_role("status")).to_have_text("Scorer link copied.")


def test_a_watching_phone_typing_the_code_is_not_reloaded_when_the_score_moves(
    other_phone: Page, table_api: TableApi
) -> None:
    """A half-typed code survives a hand recorded meanwhile: the banner says the score moved instead."""
    match = table_api.start("envite", FOUR)
    other_phone.goto(f"/matches/{match.id}")
    other_phone.get_by_text("Score from this phone", exact=True).click()
    box = other_phone.get_by_label("The table code, from the scoring phone's match page")
    box.fill("K7QX-M4")
    table_api.hand(match, {"winner": 1})
    expect(other_phone.get_by_text("The score has moved:")).to_be_visible()
    expect(box).to_have_value("K7QX-M4")
