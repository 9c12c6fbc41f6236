"""Browser journeys for the tally games (shared/api/tally.md): Polignac, Pluck, Chicago on a phone.

Each journey plays a short match to its end through the real pages, taps the big labelled buttons,
edits an earlier hand on the way, and reads the score off the board (the region "Score"). Every
expected figure is worked out here from the rules (small models below), not read from the app.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .test_journeys import banner, board, group, record, seat_players, tap, the_form

pytestmark = pytest.mark.browser


def open_house_rules(page: Page) -> None:
    page.get_by_text("House rules", exact=True).click()


def start_match(page: Page, game: str) -> None:
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile(rf"^{game}"))).to_be_visible()


def edit_hand(page: Page, number: int) -> None:
    hand = page.get_by_role("listitem").filter(has=page.get_by_text(f"Hand {number}", exact=True))
    hand.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name=f"Edit hand {number}")).to_be_visible()


def save_hand(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status").filter(has_text=f"Hand {number} changed")).to_be_visible()


def expect_scores(page: Page, unit: str, scores: list[int], target: int) -> None:
    expect(board(page).get_by_label(unit)).to_have_text([f"{score}/{target}" for score in scores])


def expect_finished(page: Page, winner: str, headline: str) -> None:
    """The banner names the winner by name (never by a side letter), then `headline`."""
    expect(banner(page)).to_have_text(f"{winner} {headline}")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)


# == Polignac: 2 for the J♠, 1 for each other jack, lowest wins once somebody reaches the target ==

JACK_COST = {"♠": 2, "♥": 1, "♦": 1, "♣": 1}  # S3:461


def polignac_scores(hands: list[dict[str, int]], players: int) -> list[int]:
    totals = [0] * players
    for hand in hands:
        for suit, seat in hand.items():
            totals[seat] += JACK_COST[suit]
    return totals


def polignac_hand(page: Page, hand: dict[str, int], names: list[str]) -> None:
    form = the_form(page)
    for suit, seat in hand.items():
        tap(group(form, f"Who took the J{suit}?"), names[seat])


def test_polignac_match_to_a_low_target(page: Page, shot) -> None:
    names = ["Ann", "Bob", "Cy"]
    target = 6
    seat_players(page, "Polignac", names)
    open_house_rules(page)
    page.get_by_role("spinbutton", name="Target").fill(str(target))
    start_match(page, "Polignac")
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()
    expect(board(page)).to_contain_text("Lower is better.")

    hands = [
        {"♠": 0, "♥": 1, "♦": 2, "♣": 2},  # Ann 2, Bob 1, Cy 2
        {"♠": 1, "♥": 0, "♦": 0, "♣": 0},  # Ann +3, Bob +2 (edited below)
        {"♠": 2, "♥": 2, "♦": 1, "♣": 1},  # Cy +3, Bob +2: 5 each, nobody on 6 yet
    ]
    for number, hand in enumerate(hands, start=1):
        polignac_hand(page, hand, names)
        record(page, number)
        expect_scores(page, "penalty points", polignac_scores(hands[:number], 3), target)
    assert polignac_scores(hands, 3) == [5, 5, 5]
    expect(page.get_by_role("heading", name="Hand 4 · Ann deals")).to_be_visible()  # the deal passes each hand

    # Hand 2 was misread: Ann took the J♠, Bob two jacks, Cy one. Hand 3 now takes Cy to 6: the end.
    edit_hand(page, 2)
    hands[1] = {"♠": 0, "♥": 1, "♦": 1, "♣": 2}
    polignac_hand(page, hands[1], names)
    save_hand(page, 2)
    final = polignac_scores(hands, 3)
    assert final == [4, 5, 6] and max(final) >= target
    expect_scores(page, "penalty points", final, target)
    expect_finished(page, "Ann", "wins with the fewest penalty points, 4")
    shot("polignac")


# == Pluck: quotas 7 (dealer), 6 (left), 4 (right); one point a trick over the quota ==========


def pluck_play(tricks_per_hand: list[list[int]], first_dealer: int = 0) -> tuple[list[int], list[int], int]:
    """Scores, last plucks and the next dealer (S4:117-127)."""
    scores, plucks, dealer = [0, 0, 0], [0, 0, 0], first_dealer
    for tricks in tricks_per_hand:
        quota = {dealer: 7, (dealer + 1) % 3: 6, (dealer + 2) % 3: 4}
        plucks = [tricks[seat] - quota[seat] for seat in range(3)]
        scores = [score + max(0, over) for score, over in zip(scores, plucks)]
        dealer = (dealer + 1) % 3
    return scores, plucks, dealer


def pluck_hand(page: Page, tricks: list[int], names: list[str]) -> None:
    """Two numbers typed; the third player's box is left empty and gets the rest of the 17."""
    form = the_form(page)
    taken = group(form, "How many tricks did each player take?")
    for seat in (0, 1):
        taken.get_by_role("spinbutton", name=names[seat]).fill(str(tricks[seat]))
    taken.get_by_role("spinbutton", name=names[2]).fill("")


def expect_pluck_board(page: Page, hands: list[list[int]], names: list[str], target: int) -> None:
    scores, plucks, dealer = pluck_play(hands)
    expect_scores(page, "points", scores, target)
    quota = {dealer: 7, (dealer + 1) % 3: 6, (dealer + 2) % 3: 4}
    for seat in range(len(names)):
        side = board(page).locator(".side").nth(seat)
        expect(side).to_contain_text(f"Quota {quota[seat]}")
        line = (
            f"Plucks {plucks[seat]}"
            if plucks[seat] > 0
            else (f"Plucked {-plucks[seat]}" if plucks[seat] < 0 else "No plucks")
        )
        expect(side).to_contain_text(line)


def test_pluck_match_to_a_low_target(page: Page, shot) -> None:
    names = ["Ann", "Bob", "Cy"]
    target = 4
    seat_players(page, "Pluck", names)
    open_house_rules(page)
    page.get_by_role("spinbutton", name="Target").fill(str(target))
    start_match(page, "Pluck")

    hands = [
        [9, 5, 3],  # Ann deals: quotas 7, 6, 4: Ann +2 (edited below)
        [4, 8, 5],  # Bob deals: quotas 4, 7, 6: Bob +1
        [6, 6, 5],  # Cy deals: quotas 6, 4, 7: Bob +2
    ]
    for number, tricks in enumerate(hands, start=1):
        pluck_hand(page, tricks, names)
        record(page, number)
        expect_pluck_board(page, hands[:number], names, target)
    assert pluck_play(hands)[0] == [2, 3, 0]

    # Hand 1 was 10 tricks for Ann, 4 for Bob: Ann +3 instead of +2.
    edit_hand(page, 1)
    hands[0] = [10, 4, 3]
    pluck_hand(page, hands[0], names)
    save_hand(page, 1)
    expect_pluck_board(page, hands, names, target)
    assert pluck_play(hands)[0] == [3, 3, 0]

    hands.append([8, 5, 4])  # Ann deals again: Ann +1, reaching 4
    pluck_hand(page, hands[-1], names)
    record(page, 4)
    scores = pluck_play(hands)[0]
    assert scores == [4, 3, 0]
    expect_scores(page, "points", scores, target)
    expect_finished(page, "Ann", "wins with 4 points")
    shot("pluck")


# == Chicago: showdowns score their category, the last trick 5; 52 ends it ======================

POINTS = {"Straight flush": 8, "Four of a kind": 7, "Full house": 6, "Flush": 5, "Two pair": 2}  # S3:323-331
FOUR_KINGS = ["KS", "KH", "KD", "KC", "2S"]


def chicago_hand(
    page: Page,
    names: list[str],
    showdowns: dict[str, tuple[int, str]],
    last_trick: int,
    cards: dict[str, list[list[str] | None]] | None = None,
) -> None:
    form = the_form(page)
    for title, (seat, category) in showdowns.items():
        showdown = group(form, title)
        tap(group(showdown, "Best hand"), names[seat])
        group(showdown, "Poker hand").get_by_role("combobox").select_option(label=category)
    if cards:  # each showdown's cards are under "More", in the showdown's name
        form.get_by_text("More", exact=True).click()
    for title, hands in (cards or {}).items():
        showdown = group(form.locator("details.more"), title)
        for seat, hand in enumerate(hands):
            for n, card in enumerate(hand or [], start=1):
                showdown.get_by_role("combobox", name=f"{names[seat]} card {n} rank").select_option(card[0])
                showdown.get_by_role("combobox", name=f"{names[seat]} card {n} suit").select_option(card[1])
    tap(group(form, "Who took the last trick?"), names[last_trick])


def test_chicago_match_to_52(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Chicago", names)
    start_match(page, "Chicago")
    scores = [0, 0]

    def expect_board():
        expect_scores(page, "points", scores, 52)

    # 1: Ann's straight flush at the first showdown, and the last trick: Ann +13 (edited below).
    chicago_hand(page, names, {"First showdown": (0, "Straight flush")}, last_trick=0)
    record(page, 1)
    scores = [13, 0]
    expect_board()
    # 2: the final hands shown as cards, Bob's left empty (he does not compete): Ann's four kings
    #    score 7; Bob took the last trick.
    chicago_hand(page, names, {}, last_trick=1, cards={"Final hand": [FOUR_KINGS, None]})
    record(page, 2)
    scores = [13 + POINTS["Four of a kind"], 5]
    expect_board()
    # 3: Bob's four of a kind first, his full house at the end, and the last trick.
    chicago_hand(page, names, {"First showdown": (1, "Four of a kind"), "Final hand": (1, "Full house")}, last_trick=1)
    record(page, 3)
    scores = [20, 5 + 7 + 6 + 5]
    expect_board()
    # 4: Ann's straight flushes at both showdowns and at the end, and the last trick: +29, on 49.
    chicago_hand(
        page,
        names,
        {
            "First showdown": (0, "Straight flush"),
            "Second showdown": (0, "Straight flush"),
            "Final hand": (0, "Straight flush"),
        },
        last_trick=0,
    )
    record(page, 4)
    scores = [20 + 3 * 8 + 5, 23]
    assert scores == [49, 23]
    expect_board()
    expect(board(page)).to_contain_text(re.compile(r"No drawing next hand: (A|Ann)(?![a-z])"))  # 46 or more (S3:355)

    # Hand 1's last trick was Bob's: Ann -5, Bob +5; Ann drops under 46 and may draw again.
    edit_hand(page, 1)
    tap(group(the_form(page), "Who took the last trick?"), names[1])
    save_hand(page, 1)
    scores = [44, 28]
    expect_board()
    expect(board(page)).not_to_contain_text("No drawing")

    # 5: Ann's flush at the first showdown and the last trick: 54, past 52: Ann wins.
    chicago_hand(page, names, {"First showdown": (0, "Flush")}, last_trick=0)
    record(page, 5)
    scores = [44 + POINTS["Flush"] + 5, 28]
    expect_board()
    expect_finished(page, "Ann", "wins with 54 points")
    shot("chicago")
