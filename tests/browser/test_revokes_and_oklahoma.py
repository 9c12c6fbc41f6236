"""Issue 34, items 3 and 9, in the browser on a 390x844 phone: a table asks the rules search what a
revoke costs in Omi and lands on the ruling; Pluck's revoke is tapped under More; Oklahoma Gin is
chosen on the new-match form and its spade upcard is one tap that doubles the hand."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .table import Thumb, board, group, hand_entry, the_form
from .test_journeys import record, seat_players

pytestmark = pytest.mark.browser


def test_the_rules_search_answers_what_a_revoke_costs_in_omi(page: Page) -> None:
    page.goto("/rules/")
    page.get_by_role("searchbox").fill("what happens when someone revokes in Omi?")
    page.get_by_role("searchbox").press("Enter")
    first = page.locator("main li a").first
    expect(first).to_have_text("Omi: Revokes")
    first.click()
    expect(page).to_have_url(re.compile(r"/rules/omi#revoke$"))
    ruling = page.locator("section#revoke")
    expect(ruling).to_be_in_viewport()
    expect(ruling).to_contain_text("Nothing on revokes.")  # marked: not in the source
    expect(ruling).to_contain_text("give 8 to the side that did not revoke")


def test_a_pluck_revoke_is_one_tap_under_more(page: Page, table_api) -> None:
    match = table_api.start("pluck", ["Ann", "Bob", "Cy"])
    table_api.join(page, match)
    thumb = Thumb(page)
    form = the_form(page)
    tricks = group(form, "How many tricks did each player take?")
    thumb.type(group(tricks, "Ann").get_by_role("spinbutton"), 9)
    thumb.type(group(tricks, "Bob").get_by_role("spinbutton"), 5)
    thumb.tap(form.get_by_text("More", exact=True))
    thumb.choose(group(form, "Who revoked?"), "Bob")
    thumb.record(1)
    assert thumb.taps == 5 and thumb.typed == 2
    # A dealt: quotas 7, 6, 4; Ann +2 for her tricks; Bob revoked, so Ann and Cy +3 each
    expect(board(page).get_by_label("points", exact=True)).to_have_text(["5/20", "0/20", "3/20"])
    expect(hand_entry(page, 1)).to_contain_text("Bob revoked: Ann and Cy +3 each")


def test_oklahoma_gin_chosen_on_the_new_match_form_and_a_spade_upcard_tapped(page: Page) -> None:
    seat_players(page, "Gin Rummy", ["Ann", "Bob"])
    page.get_by_text("House rules", exact=True).click()
    oklahoma = group(page, "Oklahoma: a spade upcard doubles the hand").get_by_role("checkbox")
    expect(oklahoma).not_to_be_checked()  # off unless the table plays it
    oklahoma.check()
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()

    thumb = Thumb(page)
    form = the_form(page)
    thumb.choose(group(form, "How did the hand end?"), "Ann: knock")
    deadwood = group(form, "Deadwood")
    thumb.type(group(deadwood, "Ann").get_by_role("spinbutton"), 5)
    thumb.type(group(deadwood, "Bob").get_by_role("spinbutton"), 20)
    spade = group(form, "Spade upcard").get_by_role("checkbox")
    thumb.tap(spade)
    expect(spade).to_be_checked()
    thumb.record(1)
    assert thumb.taps == 5 and thumb.typed == 2  # the spade is a tap, not typing
    expect(board(page).get_by_label("points", exact=True)).to_have_text(["30/100", "0/100"])
    expect(hand_entry(page, 1)).to_contain_text("the first upcard was a spade, so the hand counts double: +30")

    # the next hand's upcard was not a spade: no tap, the knock as ever
    record_form = the_form(page)
    Thumb(page).choose(group(record_form, "How did the hand end?"), "Bob: knock")
    group(group(record_form, "Deadwood"), "Bob").get_by_role("spinbutton").fill("4")
    group(group(record_form, "Deadwood"), "Ann").get_by_role("spinbutton").fill("10")
    expect(group(record_form, "Spade upcard").get_by_role("checkbox")).not_to_be_checked()
    record(page, 2)
    expect(board(page).get_by_label("points", exact=True)).to_have_text(["30/100", "6/100"])
