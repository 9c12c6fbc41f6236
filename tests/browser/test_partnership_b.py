"""Browser journeys for Tresette and Botifarra: a table of four scores a whole game on a phone.

As in test_journeys.py: taps on the big labelled buttons, the score read off the board (the region
"Score"), every expected figure worked out here from the rules (shared/api/partnership.md), and an
earlier hand edited on the way. Targets are made small with the house-rule options to keep the
journeys short. Sides: A = seats 1 and 3, B = seats 2 and 4.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .table import banner, group, tap, the_form

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
LABELS = ["Ann & Cy", "Bob & Di"]  # the sides go by their players
SIGNS = dict(zip("SHDC", "♠♥♦♣"))


def open_new_match(page: Page, game: str) -> None:
    """From the home page to the new-match form, the four names typed seat by seat."""
    page.goto("/")
    page.get_by_role("link", name=game, exact=True).click()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(PLAYERS):
        page.get_by_role("combobox", name=f"Seat {seat + 1} side {'AB'[seat % 2]}", exact=True).fill(name)


def set_target(page: Page, target: int) -> None:
    page.get_by_text("House rules", exact=True).click()
    page.get_by_role("spinbutton", name="Target").fill(str(target))
    page.get_by_role("button", name="Start").click()


def type_numbers(form: Locator, field: str, number: int, total: int, both: bool) -> None:
    """A number for side A; the other side gets the rest of the total. On the edit page both boxes
    hold the stored hand, so the player changes both."""
    group(group(form, field), LABELS[0]).get_by_role("spinbutton").fill(str(number))
    if both:
        group(group(form, field), LABELS[1]).get_by_role("spinbutton").fill(str(total - number))


def submit(page: Page, button: str) -> None:
    page.get_by_role("button", name=button).click()


def expect_scores(page: Page, points: list[int], target: int) -> None:
    expect(page.get_by_role("region", name="Score").get_by_label("points")).to_have_text(
        [f"{p}/{target}" for p in points]
    )


def hand_item(page: Page, number: int) -> Locator:
    return page.get_by_role("listitem").filter(has=page.get_by_text(f"Hand {number}", exact=True))


def edit(page: Page, number: int) -> None:
    hand_item(page, number).get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name=f"Edit hand {number}")).to_be_visible()


# == Tresette ===================================================================================


def tresette_points(aces: int, figures: int, last: bool, melds: int = 0) -> int:
    """S4:180: melds + an ace each + one per full three of figures (remainder lost) + the last trick."""
    return melds + aces + figures // 3 + (1 if last else 0)


def tresette_counts(
    page: Page, aces_a: int, figures_a: int, last: int, melds: dict[str, int] | None = None, both: bool = False
) -> None:
    form = the_form(page)
    aces = group(form, "Aces taken")
    tap(group(aces, LABELS[0]), str(aces_a))  # B gets the rest of the four
    if both:
        tap(group(aces, LABELS[1]), str(4 - aces_a))
    type_numbers(form, "Figures taken (2, 3, K, Q, J)", figures_a, 20, both)
    tap(group(form, "Who took the last trick?"), LABELS[last])
    for meld, side in (melds or {}).items():
        tap_meld(form, meld, side)


def tap_meld(form, meld: str, side: int) -> None:
    """The melds are under "More" (most hands have none): opened once."""
    more = form.get_by_text("More", exact=True)
    if not more.evaluate("summary => summary.parentElement.open"):
        more.click()
    tap(group(group(form, "Melds"), meld), LABELS[side])


def test_tresette_game_with_melds_an_edit_and_the_cards_counted(page: Page, shot) -> None:
    target = 20
    open_new_match(page, "Tresette")
    set_target(page, target)
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()
    expect(page.get_by_text("Every hand: 11 from cards and last trick, plus melds")).to_be_visible()

    # Hand 1: A took 3 aces and 11 figures and the last trick, and Ann held three aces.
    tresette_counts(page, 3, 11, last=0, melds={"Three aces": 0})
    submit(page, "Record hand 1")
    first = [tresette_points(3, 11, True, melds=3), tresette_points(1, 9, False)]
    assert first == [10, 4]
    expect_scores(page, first, target)
    expect(hand_item(page, 1)).to_contain_text("Ann & Cy: three aces: 3")
    expect(hand_item(page, 1)).to_contain_text("cards and last trick: 11 in all, as every hand; melds 3 more")

    # Hand 2, as first entered: A 1 ace and 8 figures, B the rest and the last trick.
    tresette_counts(page, 1, 8, last=1)
    submit(page, "Record hand 2")
    second = [tresette_points(1, 8, False), tresette_points(3, 12, True)]
    expect_scores(page, [first[0] + second[0], first[1] + second[1]], target)  # 13, 12
    expect(page.get_by_role("heading", name="Hand 3 · Cy deals")).to_be_visible()

    # Edit hand 2: A had 2 aces, 10 figures and the last trick.
    edit(page, 2)
    tresette_counts(page, 2, 10, last=0, both=True)
    submit(page, "Save hand 2")
    expect(page.get_by_role("status").filter(has_text="Hand 2 changed")).to_be_visible()
    second = [tresette_points(2, 10, True), tresette_points(2, 10, False)]
    after_two = [first[0] + second[0], first[1] + second[1]]
    assert after_two == [16, 9]
    expect_scores(page, after_two, target)

    # Hand 3, entered as cards: A took the aces and figures of spades and hearts, B those of
    # diamonds and clubs plus two low cards, the last trick, and Di's napoli of clubs.
    form = the_form(page)
    form.get_by_text("Or give the cards each side took", exact=True).click()
    form.get_by_text("Tap the cards", exact=True).click()
    piles = [
        [rank + suit for suit in "SH" for rank in "A23KQJ"],
        [rank + suit for suit in "DC" for rank in "A23KQJ"] + ["7D", "4C"],
    ]
    for side, pile in enumerate(piles):
        hand = form.locator("div.hand").filter(has_text=LABELS[side])
        for card in pile:
            tap(hand, card[0] + SIGNS[card[1]])
    tap(group(form, "Who took the last trick?"), LABELS[1])
    tap_meld(form, "Napoli of clubs", 1)
    submit(page, "Record hand 3")
    third = [tresette_points(2, 10, False), tresette_points(2, 10, True, melds=3)]
    final = [after_two[0] + third[0], after_two[1] + third[1]]
    assert final == [21, 18]  # A reaches 20 first
    expect_scores(page, final, target)
    expect(banner(page)).to_have_text("Ann & Cy win the game 21 to 18")
    expect(hand_item(page, 3)).to_contain_text("counted from the cards")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("tresette")


# == Botifarra ==================================================================================


def botifarra_score(points_a: int, trump: str, doubling: str) -> list[int]:
    """S4:232 with S4:218-219: the side over 36 scores its excess times the multiplier."""
    times = (2 if trump == "Botifarra" else 1) * {"No double": 1, "Double": 2, "Redouble": 4, "Re-redouble": 8}[
        doubling
    ]
    points = [points_a, 72 - points_a]
    return [(p - 36) * times if p > 36 else 0 for p in points]


def botifarra_hand(page: Page, trump: str, doubling: str, points_a: int, both: bool = False) -> None:
    form = the_form(page)
    tap(group(form, "Trumps"), trump)
    if doubling != "No double" or both:
        form.get_by_role("combobox", name="Doubling").select_option(label=doubling)  # a drop-down: mostly none
    type_numbers(form, "Points out of 72", points_a, 72, both)


def test_botifarra_game_with_doubling_and_an_edit(page: Page, shot) -> None:
    target = 40
    open_new_match(page, "Botifarra")
    set_target(page, target)
    expect(page.get_by_text("Deals and names trumps: Ann")).to_be_visible()

    hands = [
        ("Hearts", "No double", 45),  # A 9
        ("Botifarra", "Double", 30),  # B 42: 6 x 4 = 24 (edited below to 36-36)
        ("Clubs", "Redouble", 41),  # A 5 x 4 = 20
    ]
    totals = [0, 0]
    for number, (trump, doubling, points_a) in enumerate(hands, start=1):
        botifarra_hand(page, trump, doubling, points_a)
        submit(page, f"Record hand {number}")
        totals = [t + c for t, c in zip(totals, botifarra_score(points_a, trump, doubling))]
        expect_scores(page, totals, target)
    assert totals == [29, 24]
    expect(hand_item(page, 2)).to_contain_text("x4 (botifarra x2, doubled x2): +24")
    expect(page.get_by_text("Deals and names trumps: Di")).to_be_visible()

    # Edit hand 2: it was 36 each, so nobody scored.
    edit(page, 2)
    botifarra_hand(page, "Botifarra", "Double", 36, both=True)
    submit(page, "Save hand 2")
    expect(page.get_by_role("status").filter(has_text="Hand 2 changed")).to_be_visible()
    totals = [9 + 0 + 20, 0]
    expect_scores(page, totals, target)
    expect(hand_item(page, 2)).to_contain_text("36 each: nobody scores")

    # Hand 4: a botifarra for A with 39: 3 x 2 = 6, 35 in all. Hand 5: re-redoubled hearts, 38: 2 x 8 = 16.
    botifarra_hand(page, "Botifarra", "No double", 39)
    submit(page, "Record hand 4")
    totals = [totals[0] + botifarra_score(39, "Botifarra", "No double")[0], 0]
    assert totals == [35, 0]
    expect_scores(page, totals, target)
    botifarra_hand(page, "Hearts", "Re-redouble", 38)
    submit(page, "Record hand 5")
    totals = [totals[0] + botifarra_score(38, "Hearts", "Re-redouble")[0], 0]
    assert totals == [51, 0]  # overshoot counts
    expect_scores(page, totals, target)
    expect(banner(page)).to_have_text("Ann & Cy win the game 51 to 0")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("botifarra")
