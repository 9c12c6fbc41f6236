"""Browser journeys for the counting games: Cuarenta, Tabletop Cribbage, Gin Rummy (api/counting.md).

Each journey plays one whole match on a phone-sized page the way a table does: seats the players,
records every hand through the generated form, edits an earlier hand on the way, and reads the
scoreboard (the region "Score") and the end banner. Every expected figure is worked out here from
the rules (the small models below), never read back from the app.
"""

from __future__ import annotations

import re
from itertools import combinations

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import GAMES

from .table import edit_hand as open_edit
from .table import hand_control, no_more_hands, save_hand
from .test_journeys import banner, board, group, record, seat_players, tap, the_form

pytestmark = pytest.mark.browser


def expect_points(page: Page, points: list[int], target: int) -> None:
    expect(board(page).get_by_label("points")).to_have_text([f"{p}/{target}" for p in points])


def winner_line(side: int, names: list[str], rest: str) -> re.Pattern:
    """The end banner: the winning side named by its player, then `rest`."""
    return re.compile(rf"^{re.escape(names[side])} {re.escape(rest)}$")


def edit_hand(page: Page, number: int) -> Locator:
    """Open hand `number` for editing; the form of the edit page."""
    return open_edit(page, number)


def save(page: Page, number: int) -> None:
    save_hand(page, number)


# == Cuarenta ====================================================================================

RONDA, CAIDA, LIMPIA, CAIDA_LIMPIA, CAPTURE = "ronda", "caida", "limpia", "caida_limpia", "ronda_capture"


def cuarenta_round(
    points: list[int], dealer_side: int, events: list[tuple[int, str]], cards: tuple[int, int] | None
) -> int | None:
    """S2:34-53 on `points` (changed in place); the side that reached 40, if any."""
    for side, kind in events:
        before = points[side]
        if kind == LIMPIA:
            points[side] += 2 if before < 38 else 0  # S2:50
        elif kind == CAIDA_LIMPIA:
            points[side] += 4 if before < 38 else 2  # ruling 3
        else:
            points[side] += {RONDA: 4, CAIDA: 2, CAPTURE: 10}[kind]
        if points[side] >= 40:
            return side
    rich = [side for side in (0, 1) if cards[side] >= 20]
    if len(rich) == 1:  # S2:52, the seed rule: 6 plus 1 for every two cards past 20
        points[rich[0]] += 6 + (cards[rich[0]] - 20) // 2
    elif len(rich) == 2:
        points[1 - dealer_side] += 6
    elif cards[0] != cards[1]:  # S2:53
        points[0 if cards[0] > cards[1] else 1] += 2
    return next((side for side in (0, 1) if points[side] >= 40), None)


KIND_LABELS = {RONDA: "Ronda", CAIDA: "Caída", LIMPIA: "Limpia", CAIDA_LIMPIA: "Caída limpia", CAPTURE: "Ronda capture"}


def cuarenta_form(
    form: Locator, names: list[str], events: list[tuple[int, str]], cards: tuple[int, int] | None
) -> None:
    """Each event in order, one tap on its side's button of its type; the two card counts (side A's box first)."""
    for side, kind in events:
        group(group(form, "What scored"), names[side]).get_by_role("button", name=KIND_LABELS[kind], exact=True).click()
    boxes = group(form, "Cards captured").get_by_role("spinbutton")
    for side in (0, 1):
        boxes.nth(side).fill("" if cards is None else str(cards[side]))


def test_cuarenta_game_to_40(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Cuarenta", names, partnerships=True)
    page.get_by_role("button", name="Start").click()
    expect(
        page.get_by_role("heading", name=f"{GAMES['cuarenta'].hand_word.capitalize()} 1 · Ann deals")
    ).to_be_visible()
    rounds = [
        ([(0, RONDA), (1, CAIDA)], (24, 14)),  # A 4 + 8 for 24 cards; B 2
        ([(1, RONDA), (0, CAPTURE), (0, LIMPIA)], (20, 20)),  # Bob deals: A +10 +2 +6 (non-dealer); B +4
    ]
    points = [0, 0]
    for number, (events, cards) in enumerate(rounds, start=1):
        cuarenta_form(the_form(page), names, events, cards)
        record(page, number)
        cuarenta_round(points, (number - 1) % 2, events, cards)
        expect_points(page, points, 40)
    assert points == [30, 6]

    # Edit round 1: Ann's side had 30 cards, not 24 (6 + 5 instead of 6 + 2).
    form = edit_hand(page, 1)
    expect(form.get_by_label("What scored 2 type")).to_have_value(CAIDA)  # the events as entered, kept
    cuarenta_form(form, names, [], (30, 10))
    save(page, 1)
    points = [0, 0]
    cuarenta_round(points, 0, rounds[0][0], (30, 10))
    cuarenta_round(points, 1, *rounds[1])
    assert points == [33, 6]
    expect_points(page, points, 40)

    # Round 3, Ann deals: the game is won during it, so the cards are not counted.
    last = [(0, CAIDA), (0, CAIDA_LIMPIA), (1, CAIDA), (0, CAIDA)]  # A 35, 39, B 8, A 41
    cuarenta_form(the_form(page), names, last, None)
    page.get_by_role("button", name=hand_control("Record", 3)).click()
    assert cuarenta_round(points, 0, last, None) == 0
    expect(banner(page)).to_have_text(winner_line(0, names, f"wins {points[0]} to {points[1]}"))
    expect_points(page, [41, 8], 40)
    no_more_hands(page)
    shot("counting_cuarenta")


# == Tabletop Cribbage ===========================================================================

LAYOUT = [
    ["5H", "5D", "5S", "5C", "JH"],
    ["AS", "2S", "3S", "4S", "6S"],
    ["7H", "8D", "9C", "KS", "QD"],
    ["2H", "2D", "9H", "TD", "QC"],
    ["3D", "4D", "6C", "7C", "KH"],
]
RUN_ORDER = "A23456789TJQK"


def crib_line(cards: list[str]) -> int:
    """S2:16, counted here from scratch: fifteens, pairs, runs (longest only), five-card flush."""
    pips = [min(RUN_ORDER.index(card[0]) + 1, 10) for card in cards]
    fifteens = sum(2 for size in range(2, 6) for combo in combinations(pips, size) if sum(combo) == 15)
    ranks = [RUN_ORDER.index(card[0]) for card in cards]
    pairs = sum(2 for a, b in combinations(ranks, 2) if a == b)
    runs = 0
    for size in (5, 4, 3):
        runs = sum(
            size for combo in combinations(ranks, size) if sorted(combo) == list(range(min(combo), min(combo) + size))
        )
        if runs:
            break
    flush = 5 if len({card[1] for card in cards}) == 1 else 0
    return fifteens + pairs + runs + flush


def test_tabletop_cribbage_game_to_61(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Tabletop Cribbage", names)
    page.get_by_text("House rules", exact=True).click()
    tap(group(page, "Target"), "61")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()

    # Hand 1, Ann deals: Bob plays the rows. Recorded as the two totals, which the form asks first.
    form = the_form(page)
    form.get_by_label("Bob's row total").fill("20")
    form.get_by_label("Ann's column total").fill("14")
    record(page, 1)
    expect_points(page, [14, 20], 61)

    # Hand 2, Bob deals: Ann's rows, Bob's columns, line by line.
    form = the_form(page)
    form.get_by_text("Or give the ten line scores", exact=True).click()
    for n, score in enumerate([8, 4, 0, 2, 6], start=1):
        form.get_by_label(f"Ann's rows {n}", exact=True).select_option(str(score))
    for n in range(1, 6):
        form.get_by_label(f"Bob's columns {n}", exact=True).select_option("2")
    record(page, 2)
    expect_points(page, [34, 30], 61)

    # Edit hand 1: Bob's rows were 24, not 20.
    form = edit_hand(page, 1)
    expect(form.get_by_label("Bob's row total")).to_be_visible()  # a hand given by its totals opens with them shown
    form.get_by_label("Bob's row total").fill("24")
    save(page, 1)
    expect_points(page, [34, 34], 61)

    # Hand 3, Ann deals: the layout is entered and the app counts; Bob's rows win before the columns.
    rows = [crib_line(row) for row in LAYOUT]
    assert rows == [28, 11, 5, 2, 0]
    form = the_form(page)
    form.get_by_text("Or give the cards of the layout", exact=True).click()  # the layout shows at once
    for r, row in enumerate(LAYOUT, start=1):
        for c, card in enumerate(row, start=1):
            form.get_by_label(f"Row {r} card {c} rank").select_option(card[0])
            form.get_by_label(f"Row {r} card {c} suit").select_option(card[1])
    page.get_by_role("button", name="Record hand 3").click()
    bob = 34 + sum(rows)
    expect(banner(page)).to_have_text(winner_line(1, names, f"wins {bob} to 34"))
    expect_points(page, [34, bob], 61)
    hand_three = page.get_by_role("listitem").filter(has=page.get_by_text("Hand 3", exact=True))
    expect(hand_three).to_contain_text("not counted")
    shot("counting_tabletop_cribbage")


# == Gin Rummy ===================================================================================


def gin_form(
    form: Locator,
    outcome: str,
    knocker: str | None = None,
    deadwood: tuple[int, int] | None = None,
    names: list[str] = (),
) -> None:
    if knocker is None:
        tap(group(form, "How did the hand end?"), outcome)
        return
    tap(group(form, "How did the hand end?"), f"{knocker}: {outcome.lower()}")  # who and how, one tap
    for side, count in enumerate(deadwood):
        group(group(form, "Deadwood"), names[side]).get_by_role("spinbutton").fill(str(count))


def test_gin_rummy_game_to_50_with_bonuses(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Gin Rummy", names)
    page.get_by_text("House rules", exact=True).click()
    page.get_by_label("Target", exact=True).fill("50")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()

    gin_form(the_form(page), "Draw")
    record(page, 1)
    expect(page.get_by_role("heading", name="Hand 2 · Ann deals")).to_be_visible()  # a draw: same dealer

    gin_form(the_form(page), "Knock", "Ann", (3, 20), names)  # Ann +17
    record(page, 2)
    gin_form(the_form(page), "Gin", "Bob", (12, 0), names)  # Bob 12 + 25 = +37
    record(page, 3)
    expect_points(page, [17, 37], 50)

    # Edit hand 2: Bob had only 10 deadwood after laying off: Ann +7.
    form = edit_hand(page, 2)
    gin_form(form, "Knock", "Ann", (3, 10), names)
    save(page, 2)
    expect_points(page, [7, 37], 50)

    # Hand 4, Ann deals again (the deal alternated twice): Ann goes gin against 20: 7 + 45 = 52.
    expect(page.get_by_role("heading", name="Hand 4 · Ann deals")).to_be_visible()
    gin_form(the_form(page), "Gin", "Ann", (0, 20), names)
    page.get_by_role("button", name="Record hand 4").click()
    ann = 52 + 100 + 2 * 25  # game bonus, two hands won
    bob = 37 + 25  # one hand won: no shutout
    expect(banner(page)).to_have_text(winner_line(0, names, f"wins the game, {ann} to {bob} with bonuses"))
    expect(board(page).get_by_label("points")).to_have_text([f"{ann}/50", f"{bob}/50"])
    shot("counting_gin_rummy")
