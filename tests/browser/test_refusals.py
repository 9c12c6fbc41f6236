"""The phone tells the truth (issue 32): a hand the server refuses is said at once, on the form, with
the table's values kept; a double tap records one hand and leaves nothing waiting; a scoring page
follows the other phones; whatever waits is listed with why and a way out; in the table's language.
The server is the app as `make serve` runs it, rate limits on with their headers (conftest)."""

from __future__ import annotations

import re
import time

import pytest
from babel.support import Translations
from playwright.sync_api import Page, expect

from scorekeeper.web.i18n import DOMAIN, TRANSLATIONS

from .conftest import PHONE, Started, TableApi
from .table import group, hand_control, the_form

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cy", "Di"]
THREE = ["Ann", "Bob", "Cy"]
FOLLOWS_WITHIN = 2000  # ms: the issue asks 1 s at p95 on a real table; a loaded CI machine gets twice that
BACK_ONLINE = 20_000  # ms: the outbox retries on `online` and on a timer that backs off from 2 s


def scoring_phone(page: Page, table_api: TableApi, game: str, players: list[str]) -> Started:
    match = table_api.start(game, players)
    table_api.join(page, match)
    return match


def stored(table_api: TableApi, match: Started) -> list[dict]:
    status, answer = table_api.call("GET", f"/api/v1/matches/{match.id}")
    assert status == 200, answer
    return [hand["record"] for hand in answer["hands"]]


def nothing_waits(page: Page) -> None:
    expect(page.locator("#outbox:not([hidden])")).to_have_count(0)
    expect(page.locator("section.board.not-counted")).to_have_count(0)


def record_button(page: Page, number: int):
    """ "Record hand 2", "Record game 2": in the game's own word."""
    return page.get_by_role("button", name=hand_control("Record", number))


# -- a refused hand is said at once -----------------------------------------------------------------


def botifarra_points_without_trumps(page: Page) -> None:
    group(group(the_form(page), "Points out of 72"), "Ann & Cy").get_by_role("spinbutton").fill("45")


def botifarra_fixed(page: Page) -> None:
    group(the_form(page), "Trumps").get_by_text("Hearts", exact=True).click()


def pluck_twenty_tricks(page: Page) -> None:
    taken = group(the_form(page), "How many tricks did each player take?")
    taken.get_by_role("spinbutton", name="Ann").fill("10")
    taken.get_by_role("spinbutton", name="Bob").fill("10")


def pluck_fixed(page: Page) -> None:
    group(the_form(page), "How many tricks did each player take?").get_by_role("spinbutton", name="Bob").fill("4")


def myllymatti_same_player_twice(page: Page) -> None:
    form = the_form(page)
    group(form, "Who was left holding cards?").get_by_text("Ann", exact=True).click()
    group(form, "Who went out first? (optional)").get_by_text("Ann", exact=True).click()


def myllymatti_fixed(page: Page) -> None:
    group(the_form(page), "Who went out first? (optional)").get_by_text("Bob", exact=True).click()


REFUSED = {
    "botifarra": (FOUR, botifarra_points_without_trumps, "Trumps", botifarra_fixed),
    "pluck": (THREE, pluck_twenty_tricks, "add up to 20", pluck_fixed),
    "myllymatti": (THREE, myllymatti_same_player_twice, "cannot be the one left holding cards", myllymatti_fixed),
}


@pytest.mark.parametrize("game", list(REFUSED))
def test_a_refused_hand_is_said_at_once_with_the_values_kept_and_the_phone_goes_on(
    page: Page, table_api: TableApi, game: str
) -> None:
    players, wrong, said, put_right = REFUSED[game]
    match = scoring_phone(page, table_api, game, players)
    wrong(page)
    record_button(page, 1).tap()

    expect(page.get_by_role("alert")).to_contain_text(said, timeout=1000)  # the server's own words, at once
    expect(record_button(page, 1)).to_be_visible()  # the same hand, not the next
    nothing_waits(page)
    assert stored(table_api, match) == []

    put_right(page)  # what the table entered is still there: only the mistake is mended
    record_button(page, 1).tap()
    expect(page.get_by_role("button", name=hand_control("Undo", 1))).to_be_visible()
    nothing_waits(page)
    assert len(stored(table_api, match)) == 1


def test_the_refused_values_are_kept_on_the_form(page: Page, table_api: TableApi) -> None:
    scoring_phone(page, table_api, "pluck", THREE)
    pluck_twenty_tricks(page)
    record_button(page, 1).tap()
    expect(page.get_by_role("alert")).to_contain_text("add up to 20")
    taken = group(the_form(page), "How many tricks did each player take?")
    expect(taken.get_by_role("spinbutton", name="Ann")).to_have_value("10")
    expect(taken.get_by_role("spinbutton", name="Bob")).to_have_value("10")


# -- a double tap -------------------------------------------------------------------------------------


def touch_record(page: Page) -> None:
    """A finger on the Record button of the page shown now, where it is (no waiting for it)."""
    button = page.locator("form.hand-form .record-bar button.primary")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("apart", [80, 350])
def test_a_touch_double_tap_records_one_hand_and_leaves_nothing_waiting(
    page: Page, table_api: TableApi, apart: int
) -> None:
    match = scoring_phone(page, table_api, "court_piece", FOUR)
    court_piece_hand(page, 8)
    touch_record(page)
    page.wait_for_timeout(apart)
    touch_record(page)  # the page's Record button: still the first page's, or already the next hand's

    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()
    page.wait_for_timeout(2500)  # past the outbox's first retry: nothing is sent again
    nothing_waits(page)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[8, 5]]

    court_piece_hand(page, 9)
    record_button(page, 2).tap()  # and the phone goes on scoring
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[8, 5], [9, 4]]


# -- two scoring phones -------------------------------------------------------------------------------


@pytest.fixture
def second_phone(browser, live_server) -> Page:
    context = browser.new_context(base_url=live_server, **PHONE)
    context.set_default_timeout(5000)
    yield context.new_page()
    context.close()


def court_piece_hand(page: Page, won: int) -> None:
    """Ann & Cy's tricks, tapped (found by the form's field, so in any language)."""
    the_form(page).locator("label", has=page.locator(f"input[name='tricks-0'][value='{won}']")).click()


def test_a_scoring_page_follows_the_hands_another_phone_records(
    page: Page, second_phone: Page, table_api: TableApi
) -> None:
    match = scoring_phone(page, table_api, "court_piece", FOUR)
    table_api.join(second_phone, match)
    court_piece_hand(second_phone, 8)
    record_button(second_phone, 1).tap()
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible(timeout=FOLLOWS_WITHIN)
    expect(record_button(page, 2)).to_be_visible()  # the form moved on to the right hand

    second_phone.get_by_role("button", name="Undo hand 1").tap()  # an undo on the other phone follows too
    expect(record_button(page, 1)).to_be_visible(timeout=FOLLOWS_WITHIN)


def test_a_hand_for_a_number_another_phone_took_gets_the_choice_and_record_mine_records_it_next(
    page: Page, second_phone: Page, table_api: TableApi
) -> None:
    match = scoring_phone(page, table_api, "court_piece", FOUR)
    table_api.join(second_phone, match)
    court_piece_hand(page, 9)  # this phone's table is entering hand 1...
    court_piece_hand(second_phone, 8)
    record_button(second_phone, 1).tap()  # ...when the other phone records it

    moved = page.get_by_role("status").filter(has_text="The score has moved on another phone")
    expect(moved).to_be_visible(timeout=FOLLOWS_WITHIN)  # not reloaded under the table's fingers
    record_button(page, 1).tap()
    expect(page.get_by_role("alert")).to_contain_text("Hand 1 was already recorded from another phone")
    mine = page.get_by_role("button", name="Record mine as hand 2")
    expect(page.get_by_role("link", name="Drop mine")).to_be_visible()
    mine.tap()
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()
    nothing_waits(page)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[8, 5], [9, 4]]


def test_drop_mine_drops_the_hand_another_phone_already_recorded(
    page: Page, second_phone: Page, table_api: TableApi
) -> None:
    match = scoring_phone(page, table_api, "court_piece", FOUR)
    table_api.join(second_phone, match)
    court_piece_hand(page, 9)
    court_piece_hand(second_phone, 8)
    record_button(second_phone, 1).tap()
    record_button(page, 1).tap()
    expect(page.get_by_role("alert")).to_contain_text("Hand 1 was already recorded from another phone")
    page.get_by_role("link", name="Drop mine").tap()
    expect(record_button(page, 2)).to_be_visible()
    nothing_waits(page)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[8, 5]]


# -- refused after waiting offline ------------------------------------------------------------------


def test_a_hand_refused_after_it_waited_offline_is_shown_with_fix_it_and_drop(page: Page, table_api: TableApi) -> None:
    match = scoring_phone(page, table_api, "pluck", THREE)
    page.context.set_offline(True)
    pluck_twenty_tricks(page)
    record_button(page, 1).tap()
    expect(page.get_by_role("status").filter(has_text="1 hand waiting to be sent")).to_be_visible()
    expect(page.locator("#outbox li")).to_contain_text("No connection")

    page.context.set_offline(False)
    refused = page.get_by_role("alert")
    expect(refused).to_contain_text("add up to 20", timeout=BACK_ONLINE)
    expect(refused.get_by_role("button", name="Drop")).to_be_visible()
    refused.get_by_role("button", name="Fix it").tap()
    taken = group(the_form(page), "How many tricks did each player take?")
    expect(taken.get_by_role("spinbutton", name="Bob")).to_have_value("10")  # the hand as it was sent
    pluck_fixed(page)
    record_button(page, 1).tap()
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible(timeout=BACK_ONLINE)
    nothing_waits(page)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[10, 4, 3]]


def test_a_refused_hand_that_waited_can_be_dropped_and_the_next_goes_in_its_place(
    page: Page, table_api: TableApi
) -> None:
    match = scoring_phone(page, table_api, "pluck", THREE)
    page.context.set_offline(True)
    pluck_twenty_tricks(page)
    record_button(page, 1).tap()
    expect(page.get_by_role("status").filter(has_text="1 hand waiting to be sent")).to_be_visible()
    taken = group(the_form(page), "How many tricks did each player take?")
    taken.get_by_role("spinbutton", name="Ann").fill("7")
    taken.get_by_role("spinbutton", name="Bob").fill("6")
    record_button(page, 2).tap()
    expect(page.get_by_role("status").filter(has_text="2 hands waiting to be sent")).to_be_visible()

    page.context.set_offline(False)
    refused = page.get_by_role("alert")
    expect(refused).to_contain_text("add up to 20", timeout=BACK_ONLINE)
    expect(page.locator("#outbox li").nth(1)).to_contain_text("Waits for the one above.")
    refused.get_by_role("button", name="Drop").tap()
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible(timeout=BACK_ONLINE)
    nothing_waits(page)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[7, 6, 4]]


def test_an_edit_waiting_for_the_connection_is_listed_and_can_be_dropped(page: Page, table_api: TableApi) -> None:
    match = scoring_phone(page, table_api, "court_piece", FOUR)
    table_api.hand(match, {"outcome": "tricks", "tricks": [8, 5]})
    page.goto(f"/matches/{match.id}/hands/1/edit")
    page.context.set_offline(True)
    court_piece_hand(page, 10)
    page.get_by_role("button", name="Save hand 1").tap()
    item = page.locator("#outbox li")
    expect(item).to_contain_text("Edit of hand 1")
    expect(item).to_contain_text("No connection")
    item.get_by_role("button", name="Drop").tap()
    nothing_waits(page)
    page.context.set_offline(False)
    page.wait_for_timeout(2500)
    assert [hand["tricks"] for hand in stored(table_api, match)] == [[8, 5]]


# -- in the table's language ------------------------------------------------------------------------


def catalog_text(code: str, one: str, many: str, count: int, **values: str) -> str:
    words = Translations.load(str(TRANSLATIONS), [code], DOMAIN)
    named = {name: words.gettext(value) for name, value in values.items()}
    return words.ngettext(one, many, count) % {"num": count, **named}


@pytest.mark.parametrize("code", ["es", "ur"])
def test_what_waits_is_said_in_the_phones_language(browser, live_server, table_api: TableApi, code: str) -> None:
    context = browser.new_context(base_url=live_server, locale=code, **PHONE)
    try:
        page = context.new_page()
        match = scoring_phone(page, table_api, "court_piece", FOUR)
        page.context.set_offline(True)
        court_piece_hand(page, 8)
        page.locator("form.hand-form button[type=submit]").tap()
        waiting = page.locator("#outbox [role=status]")
        expected = catalog_text(
            code,
            "%(num)s %(word)s waiting to be sent: the score does not count it yet.",
            "%(num)s %(words)s waiting to be sent: the score does not count them yet.",
            1,
            word="hand",
            words="hands",
        )
        expect(waiting).to_have_text(expected)
        assert "waiting" not in expected
        expect(page.locator("#outbox li button").first).not_to_have_text("Send again")
        page.context.set_offline(False)
        expect(waiting).to_be_hidden(timeout=BACK_ONLINE)
        assert len(stored(table_api, match)) == 1
    finally:
        context.close()


def test_the_share_buttons_are_worded_whole_in_the_phones_language(browser, live_server, table_api: TableApi) -> None:
    context = browser.new_context(base_url=live_server, locale="es", **PHONE)
    try:
        page = context.new_page()
        match = scoring_phone(page, table_api, "court_piece", FOUR)
        page.goto(f"/matches/{match.id}/share")
        words = Translations.load(str(TRANSLATIONS), ["es"], DOMAIN)
        expect(page.get_by_role("button", name=words.gettext("Copy the scorer link"), exact=True)).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("^Copy "))).to_have_count(0)
    finally:
        context.close()


def test_nothing_is_sent_again_after_a_refusal(page: Page, table_api: TableApi) -> None:
    """A refusal is final: the phone does not keep sending the refused hand in the background."""
    match = scoring_phone(page, table_api, "pluck", THREE)
    sent = []
    page.on("request", lambda request: request.method == "POST" and sent.append(time.monotonic()))
    pluck_twenty_tricks(page)
    record_button(page, 1).tap()
    expect(page.get_by_role("alert")).to_contain_text("add up to 20")
    shown = len(sent)
    page.wait_for_timeout(5000)  # two of the outbox's retry periods
    assert len(sent) == shown
    assert stored(table_api, match) == []
