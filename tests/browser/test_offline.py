"""Offline at the table (issue 22): hands entered without a connection wait on the phone and are sent
once each, in order; a hand another phone recorded meanwhile is put to the table; rules pages seen
once open offline. The context is set offline and online again (Playwright's set_offline), or a
request is let through to the server and its answer cut (route.fetch, then route.abort)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from .conftest import PHONE, Started, TableApi
from .table import group, the_form

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

FOUR = ["Ann", "Bob", "Cy", "Di"]
A = "Ann & Cy"
BACK_ONLINE = 20_000  # ms: the outbox retries on `online` and on a timer that backs off from 2 s


def scoring_phone(page: Page, table_api: TableApi) -> Started:
    """A Court Piece match this phone scores, its page looked after by the service worker."""
    match = table_api.start("court_piece", FOUR)
    table_api.join(page, match)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return match


def record(page: Page, won: int, number: int) -> None:
    """Ann & Cy take `won` tricks; tap Record hand `number`."""
    group(group(the_form(page), "Tricks"), A).get_by_text(str(won), exact=True).click()
    page.get_by_role("button", name=f"Record hand {number}").click()


def waiting(page: Page):
    return page.get_by_role("status").filter(has_text="waiting to be sent")


def assert_no_violations(page: Page) -> None:
    """axe-core finds nothing on the page as it is now, in light and in dark."""
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [f"({scheme}) {v['id']}: {v['help']}" for v in Axe().run(page).response["violations"]]
    page.emulate_media(color_scheme=None)
    assert not found, found


def stored(table_api: TableApi, match: Started) -> list[list[int]]:
    """The tricks of each hand the server has, in order."""
    status, answer = table_api.call("GET", f"/api/v1/matches/{match.id}")
    assert status == 200, answer
    return [hand["record"]["tricks"] for hand in answer["hands"]]


def test_three_hands_recorded_offline_wait_through_a_reload_and_are_stored_once_in_order(
    page: Page, table_api: TableApi
) -> None:
    match = scoring_phone(page, table_api)
    page.context.set_offline(True)
    for number, won in enumerate((8, 9, 10), start=1):
        record(page, won, number)
        expect(waiting(page)).to_have_text(re.compile(rf"^{number} hands? waiting to be sent"))
    expect(waiting(page)).to_have_text("3 hands waiting to be sent: the score does not count them yet.")
    expect(page.get_by_role("heading", name="Hand 4")).to_be_visible()
    expect(page.get_by_role("region", name="Score")).to_have_class(re.compile(r"\bnot-counted\b"))

    page.reload()  # still offline: the page the service worker kept, the hands the phone kept
    expect(waiting(page)).to_have_text("3 hands waiting to be sent: the score does not count them yet.")
    expect(page.get_by_role("button", name="Record hand 4")).to_be_visible()
    assert stored(table_api, match) == []

    page.context.set_offline(False)
    expect(waiting(page)).to_have_count(0, timeout=BACK_ONLINE)
    expect(page.get_by_role("button", name="Undo hand 3")).to_be_visible()
    assert stored(table_api, match) == [[8, 5], [9, 4], [10, 3]]


def test_a_hand_received_but_not_answered_is_stored_once(page: Page, table_api: TableApi) -> None:
    match = scoring_phone(page, table_api)
    received = []

    def lose_the_answer(route) -> None:
        route.fetch()  # the server gets the hand and records it...
        received.append(route.request.url)
        route.abort()  # ...and the phone never hears back

    page.route(re.compile(rf"/matches/{match.id}/hands$"), lose_the_answer)
    record(page, 8, 1)
    expect(waiting(page)).to_have_text("1 hand waiting to be sent: the score does not count it yet.")
    assert received and stored(table_api, match) == [[8, 5]]
    page.unroute(re.compile(rf"/matches/{match.id}/hands$"))

    record(page, 9, 2)  # the next hand goes behind the first, which is sent again with its token
    expect(waiting(page)).to_have_count(0, timeout=BACK_ONLINE)
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()
    assert stored(table_api, match) == [[8, 5], [9, 4]]


def test_a_hand_another_phone_recorded_meanwhile_is_put_to_the_table(
    page: Page, table_api: TableApi, browser, live_server
) -> None:
    match = scoring_phone(page, table_api)
    other = browser.new_context(base_url=live_server, **PHONE).new_page()
    table_api.join(other, match)

    page.context.set_offline(True)
    record(page, 8, 1)
    record(other, 4, 1)  # the other phone, online, records hand 1 first
    expect(other.get_by_role("button", name="Undo hand 1")).to_be_visible()
    page.context.set_offline(False)
    choice = page.get_by_role("alert")
    expect(choice).to_contain_text("Hand 1 was already recorded from another phone", timeout=BACK_ONLINE)
    expect(choice.locator("strong")).to_have_text("Hand 1")  # what waits: this phone's hand 1
    assert stored(table_api, match) == [[4, 9]]
    assert_no_violations(page)
    choice.get_by_role("button", name="Record mine as hand 2").click()
    expect(waiting(page)).to_have_count(0)
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()
    assert stored(table_api, match) == [[4, 9], [8, 5]]

    page.context.set_offline(True)
    record(page, 10, 3)
    other.reload()
    record(other, 7, 3)
    expect(other.get_by_role("button", name="Undo hand 3")).to_be_visible()
    page.context.set_offline(False)
    page.get_by_role("alert").get_by_role("button", name="Drop mine").click(timeout=BACK_ONLINE)
    expect(page.get_by_role("button", name="Record hand 4")).to_be_visible()
    expect(waiting(page)).to_have_count(0)
    assert stored(table_api, match) == [[4, 9], [8, 5], [7, 6]]
    other.context.close()


def test_an_undo_and_a_finish_made_offline_wait_behind_the_hands_and_are_sent_in_order(
    page: Page, table_api: TableApi
) -> None:
    match = table_api.start("court_piece", FOUR)
    table_api.hand(match, {"outcome": "tricks", "tricks": [8, 5]})
    table_api.join(page, match)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.get_by_role("link", name="Finish match").click()  # the phone has seen the finish page
    page.go_back()
    page.context.set_offline(True)
    record(page, 9, 2)
    record(page, 10, 3)
    page.get_by_role("button", name="Undo hand 3").click()
    expect(waiting(page)).to_have_text("3 changes waiting to be sent: the score does not count them yet.")
    expect(page.get_by_role("button", name="Record hand 3")).to_be_visible()
    page.goto(f"/matches/{match.id}/finish")  # the copy the phone kept
    page.get_by_role("button", name="Finish match").click()
    expect(waiting(page)).to_have_text("4 changes waiting to be sent: the score does not count them yet.")
    page.context.set_offline(False)
    expect(page.get_by_role("button", name="Rematch: same table")).to_be_visible(timeout=BACK_ONLINE)
    status, answer = table_api.call("GET", f"/api/v1/matches/{match.id}")
    assert answer["status"] == "finished" and [hand["record"]["tricks"] for hand in answer["hands"]] == [[8, 5], [9, 4]]


def test_a_rules_page_seen_once_opens_offline(page: Page, table_api: TableApi) -> None:
    scoring_phone(page, table_api)
    page.goto("/rules/court_piece")
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Court Piece"))
    with pytest.raises(PlaywrightError):
        page.goto("/rules/omi")  # never seen on this phone: nothing to show


def test_a_kept_page_behind_the_server_is_replaced_once_the_server_answers(page: Page, table_api: TableApi) -> None:
    """The page names the version it shows: back online, the phone asks whether the match moved on."""
    match = scoring_phone(page, table_api)
    page.context.set_offline(True)
    page.reload()  # the copy the phone kept
    table_api.hand(match, {"outcome": "tricks", "tricks": [4, 9]})  # another phone, meanwhile
    expect(page.get_by_role("button", name="Record hand 1")).to_be_visible()
    page.context.set_offline(False)
    expect(page.get_by_role("button", name="Record hand 2")).to_be_visible(timeout=BACK_ONLINE)


def test_without_a_service_worker_a_hand_entered_offline_still_waits_and_is_sent(
    browser, live_server, table_api: TableApi
) -> None:
    context = browser.new_context(base_url=live_server, **PHONE)  # PHONE blocks the service worker
    page = context.new_page()
    match = table_api.start("court_piece", FOUR)
    table_api.join(page, match)
    context.set_offline(True)
    record(page, 8, 1)
    expect(waiting(page)).to_have_text("1 hand waiting to be sent: the score does not count it yet.")
    context.set_offline(False)
    expect(waiting(page)).to_have_count(0, timeout=BACK_ONLINE)
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()
    assert stored(table_api, match) == [[8, 5]]
    context.close()


def test_the_outbox_is_loaded_on_a_list_page_only_while_a_change_waits_which_it_then_sends(
    browser, live_server, table_api: TableApi
) -> None:
    """A list page loads the outbox's small loader alone (the long lists' 20 KB budget); a hand kept
    offline on the match page is sent all the same when the phone next opens a list page."""
    context = browser.new_context(base_url=live_server, **PHONE)  # no service worker: every script asked here
    page = context.new_page()
    asked = []
    page.on("request", lambda request: asked.append(urlsplit(request.url).path))
    match = table_api.start("court_piece", FOUR)
    table_api.join(page, match)
    page.wait_for_load_state("networkidle")
    assert "/static/outbox.js" in asked  # the match page's forms go through it

    asked.clear()
    page.goto("/players/")
    page.locator("ul.matches a").first.click()
    expect(page).to_have_url(re.compile(r"/players/\d+$"))
    page.goto(f"/matches/{match.id}/hands")
    page.wait_for_load_state("networkidle")
    assert "/static/outbox-loader.js" in asked and "/static/outbox.js" not in asked

    page.goto(f"/matches/{match.id}")
    context.set_offline(True)
    record(page, 8, 1)
    expect(waiting(page)).to_have_text("1 hand waiting to be sent: the score does not count it yet.")
    page.close()  # the match page never sees the connection come back
    context.set_offline(False)
    page = context.new_page()
    with page.expect_request(re.compile(r"/matches/\d+/hands$"), timeout=BACK_ONLINE):
        page.goto("/players/")  # the loader finds the hand waiting: the outbox sends it from here
    page.wait_for_load_state("networkidle")
    assert stored(table_api, match) == [[8, 5]]
    context.close()


def test_without_javascript_the_hand_form_posts_as_ever(browser, live_server, table_api: TableApi) -> None:
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    page = context.new_page()
    match = table_api.start("court_piece", FOUR)
    table_api.join(page, match)
    record(page, 8, 1)
    expect(page.get_by_role("button", name="Undo hand 1")).to_be_visible()
    page.get_by_role("button", name="Undo hand 1").click()
    expect(page.get_by_role("button", name="Record hand 1")).to_be_visible()
    assert stored(table_api, match) == []
    context.close()


def test_the_page_kept_for_offline_use_holds_no_table_code(page: Page, table_api: TableApi) -> None:
    """A page that shows the table code is kept by no browser cache (no-store); the service worker
    keeps its own copy for offline use with the code taken out (issue 38, item 6)."""
    match = scoring_phone(page, table_api)
    answer = page.reload()
    assert answer.headers["cache-control"] == "no-store"
    expect(page.locator("p.table-code")).to_be_visible()  # online: the phone that scores shows it
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Record hand 1")).to_be_visible()  # the kept page, offline
    expect(page.locator("p.table-code")).to_have_count(0)
    kept = page.evaluate("""url => caches.match(url).then(copy => copy.text())""", f"/matches/{match.id}")
    assert "table-code" not in kept and "Record hand 1" in kept
