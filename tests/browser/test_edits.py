"""Issue 21 "Edits that work the first time", on a 390x844 phone.

- A total field (Court Piece's and Omi's tricks): one tap on the other side's new count is the whole
  edit; the side not tapped follows, with scripts (at the tap) and without them (the server takes
  the side left as it was shown as the one that follows). Save, and the board has the new figures.
- An edit opens on the record form the hand was given in (a Tabletop Cribbage totals hand on its
  totals, a Schnapsen quick hand on the quick form, a counted one on the counted form), and it names
  that hand's own roles (who dealt, who played the rows), not the next hand's.

The locators name no hand word (another game says "round"): the edit page is opened by its address
and its Save button found as the form's main button.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.games.taps import ANN_CY, BOB_DI, PLAYERS

from .conftest import PHONE, Started, TableApi
from .table import board, group, the_form

pytestmark = pytest.mark.browser

FOUR = list(PLAYERS[:4])


def open_edit(page: Page, match: Started, number: int) -> Locator:
    page.goto(f"/matches/{match.id}/hands/{number}/edit")
    expect(page.get_by_role("heading", name=re.compile(rf"^Edit [a-z]+ {number}\b"))).to_be_visible()
    return the_form(page)


def save(page: Page) -> None:
    """Tap the edit form's own button (Save) and land on the match, the change made."""
    the_form(page).locator(".record-bar button.primary").click()
    expect(page.locator(".banner-error, .flash.error")).to_have_count(0)
    expect(page.get_by_role("status").filter(has_text="changed; every total after it follows")).to_be_visible()


def count(form: Locator, side: str, number: int) -> Locator:
    """The big button of `number` tricks in `side`'s row."""
    return group(group(form, re.compile(r"^Tricks")), side).get_by_role("radio", name=str(number), exact=True)


def tap_count(form: Locator, side: str, number: int) -> None:
    group(group(form, re.compile(r"^Tricks")), side).get_by_text(str(number), exact=True).click()


# == A total: one tap on the other side ============================================================


def court_piece_edit(page: Page, table_api: TableApi) -> None:
    """Hand 1 went 8-5 to Ann & Cy (Ann dealt); it was really 6-7: one tap on Bob & Di's 7."""
    match = table_api.start("court_piece", FOUR)
    table_api.hand(match, {"outcome": "tricks", "tricks": [8, 5]})
    table_api.join(page, match)
    expect(board(page).get_by_text(re.compile(r"^Streak:"))).to_have_text(f"Streak: {ANN_CY}: 1 of 7")
    form = open_edit(page, match, 1)
    expect(count(form, ANN_CY, 8)).to_be_checked()
    expect(count(form, BOB_DI, 5)).to_be_checked()
    tap_count(form, BOB_DI, 7)
    save(page)
    # Bob & Di won the hand: their streak starts; Ann's side lost without a court, so Ann deals again
    # (RULES 1.2: S4:100, S4:103) and the player after her calls trumps.
    expect(board(page).get_by_text(re.compile(r"^Streak:"))).to_have_text(f"Streak: {BOB_DI}: 1 of 7")
    expect(board(page).get_by_text(re.compile(r"^Deals:"))).to_have_text("Deals: Ann · Trumps: Bob")
    expect(board(page).get_by_label("courts")).to_have_text(["0 courts", "0 courts"])


def test_court_piece_tricks_edit_is_one_tap_on_the_other_side(page: Page, table_api: TableApi) -> None:
    court_piece_edit(page, table_api)


def test_the_other_count_follows_the_tap_before_saving(page: Page, table_api: TableApi) -> None:
    match = table_api.start("court_piece", FOUR)
    table_api.hand(match, {"outcome": "tricks", "tricks": [8, 5]})
    table_api.join(page, match)
    form = open_edit(page, match, 1)
    tap_count(form, BOB_DI, 7)
    expect(count(form, ANN_CY, 6)).to_be_checked()  # the rest of 13, shown as it is tapped
    tap_count(form, ANN_CY, 13)
    expect(count(form, BOB_DI, 0)).to_be_checked()


def test_without_scripts_the_side_not_changed_takes_the_rest(browser, live_server, table_api: TableApi) -> None:
    """A phone with scripts off: the tap changes one side only, both are posted; the server gives the
    side left as it was shown the rest of 13."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(5000)
    try:
        court_piece_edit(context.new_page(), table_api)
    finally:
        context.close()


def test_without_scripts_a_typed_count_changes_one_box_only(browser, live_server, table_api: TableApi) -> None:
    """Botifarra's points are typed: the hand was 40-32; typing 45 over Ann & Cy's 40 is the whole
    edit, Bob & Di's box taking the rest of 72 (27) though it still shows 32 when sent."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(5000)
    try:
        page = context.new_page()
        match = table_api.start("botifarra", FOUR)
        table_api.hand(match, {"trump": "hearts", "points": [40, 32]})
        table_api.join(page, match)
        boxes = group(open_edit(page, match, 1), "Points out of 72")
        boxes.get_by_role("spinbutton", name=ANN_CY).fill("45")
        expect(boxes.get_by_role("spinbutton", name=BOB_DI)).to_have_value("32")
        save(page)
        boxes = group(open_edit(page, match, 1), "Points out of 72")
        expect(boxes.get_by_role("spinbutton", name=ANN_CY)).to_have_value("45")
        expect(boxes.get_by_role("spinbutton", name=BOB_DI)).to_have_value("27")
    finally:
        context.close()


def test_omi_tricks_edit_is_one_tap_on_the_other_side(page: Page, table_api: TableApi) -> None:
    """Hand 1 (Ann deals: Ann & Cy are the dealer's team) was entered 5-3, worth 2 to the dealer's
    team; it was 3-5: the declarer's team won it, worth 1 (S4:46)."""
    match = table_api.start("omi", FOUR)
    table_api.hand(match, {"tricks": [5, 3]})
    table_api.join(page, match)
    expect(board(page).get_by_label("points")).to_have_text(["2/10", "0/10"])
    form = open_edit(page, match, 1)
    tap_count(form, BOB_DI, 5)
    save(page)
    expect(board(page).get_by_label("points")).to_have_text(["0/10", "1/10"])


# == The form and the roles of the hand edited =====================================================


def test_a_tabletop_cribbage_totals_hand_opens_its_edit_on_the_totals(page: Page, table_api: TableApi) -> None:
    """Hand 1: Ann dealt, so Bob played the rows (20) and Ann the columns (14). The edit names those
    roles, not hand 2's (Bob deals, Ann's rows), and shows the totals, the line scores folded."""
    match = table_api.start("tabletop_cribbage", ["Ann", "Bob"])
    table_api.hand(match, {"row_total": 20, "column_total": 14})
    table_api.join(page, match)
    expect(board(page).locator(".turn")).to_have_text("Deals: Bob · Rows: Ann")  # the next hand's
    form = open_edit(page, match, 1)
    expect(page.get_by_role("heading", name=re.compile(r"^Edit [a-z]+ 1 · Ann deals$"))).to_be_visible()
    expect(board(page).locator(".turn")).to_have_text("Deals: Ann · Rows: Bob")  # the edited hand's
    rows = group(form, "Bob's row total").get_by_role("spinbutton")
    expect(rows).to_have_value("20")
    expect(group(form, "Ann's column total").get_by_role("spinbutton")).to_have_value("14")
    expect(form.get_by_role("combobox", name="Bob's rows 1")).to_be_hidden()  # the lines stay folded
    rows.fill("24")
    save(page)
    expect(board(page).get_by_label("points")).to_have_text(["14/121", "24/121"])


def test_a_tabletop_cribbage_lines_hand_opens_on_its_lines(page: Page, table_api: TableApi) -> None:
    match = table_api.start("tabletop_cribbage", ["Ann", "Bob"])
    table_api.hand(match, {"rows": [8, 4, 0, 2, 6], "columns": [2, 2, 2, 2, 2]})
    table_api.join(page, match)
    form = open_edit(page, match, 1)
    expect(form.get_by_role("combobox", name="Bob's rows 1")).to_have_value("8")
    expect(form.get_by_role("combobox", name="Ann's columns 5")).to_have_value("2")
    expect(group(form, "Bob's row total")).to_be_hidden()  # the totals are the folded way now
    form.get_by_role("combobox", name="Bob's rows 1").select_option("12")
    save(page)
    expect(board(page).get_by_label("points")).to_have_text(["10/121", "24/121"])


def test_schnapsen_hands_edit_on_the_form_they_were_given_in(page: Page, table_api: TableApi) -> None:
    """A quick hand (Ann, worth 2) edits on the quick form; a counted hand (Ann went out with 71
    against 40 and a trick: 1, RULES 1.4.6) on the counted form, where saving it as it is changes
    nothing (the quick form's preset worth, folded away, is not part of it)."""
    match = table_api.start("schnapsen", ["Ann", "Bob"])
    table_api.hand(match, {"winner": 0, "victory_points": 2})
    table_api.hand(match, {"ending": "out", "declarer": 0, "points": [71, 40], "tricks": [4, 3]})
    table_api.join(page, match)
    expect(board(page).get_by_label("victory points")).to_have_text(["3/7", "0/7"])

    form = open_edit(page, match, 1)
    expect(group(form, "Who won the hand?").get_by_role("radio", name="Ann", exact=True)).to_be_checked()
    expect(group(form, "Worth").get_by_role("radio", name="2", exact=True)).to_be_checked()
    expect(group(form, "Ending")).to_be_hidden()  # the counted form is folded
    group(form, "Worth").get_by_text("3", exact=True).click()
    save(page)
    expect(board(page).get_by_label("victory points")).to_have_text(["4/7", "0/7"])

    form = open_edit(page, match, 2)
    expect(group(form, "Ending").get_by_role("radio", name="Out", exact=True)).to_be_checked()
    expect(group(form, "Who won the hand?")).to_be_hidden()  # the quick form is folded
    save(page)
    expect(board(page).get_by_label("victory points")).to_have_text(["4/7", "0/7"])
