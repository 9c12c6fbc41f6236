"""Browser journeys for the race games (shared/api/races.md): one whole match of each, on a phone.

Each journey seats the players, sets the house rules, taps the big buttons the hand form draws
from the game's declarations, edits an earlier hand on the way, and reads the score off the board
(the region "Score"). The expected figures are worked out here from the rules: a session counts
games won (Myllymatti: games lost), the tournament rounds survived.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import GAMES

from .table import banner, board, edit_hand, group, hand_control, no_more_hands, save_hand, tap, the_form

pytestmark = pytest.mark.browser


# -- what a player does on the page ---------------------------------------------------------------


def seat_players(page: Page, game: str, names: list[str], min_players: int) -> None:
    """From the home page to the new-match form of `game`, with the names typed seat by seat."""
    page.goto("/")
    page.get_by_role("link", name=game, exact=True).click()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(names):  # a seat past the `min_players` shows once the one before has a name
        page.get_by_role("combobox", name=re.compile(rf"^Seat {seat + 1}\b")).fill(name)


def house_rules(page: Page) -> None:
    page.get_by_text("House rules", exact=True).click()


def start(page: Page, game: str) -> None:
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile(f"^{game}"))).to_be_visible()


def record(page: Page, number: int) -> None:
    page.get_by_role("button", name=hand_control("Record", number)).click()
    expect(page.get_by_role("button", name=hand_control("Undo", number))).to_be_visible()


def edit(page: Page, number: int) -> None:
    """Open hand `number` (a game, a round...) for editing from the list of hands."""
    edit_hand(page, number)


def save(page: Page, number: int) -> None:
    save_hand(page, number)


def deals(page: Page, key: str, number: int, name: str) -> None:
    """The form's heading: "Game 4 · Bob deals", in the game's own word for a hand."""
    heading = f"{GAMES[key].hand_word.capitalize()} {number} · {name} deals"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def scores(page: Page, unit: str) -> Locator:
    return board(page).get_by_label(unit, exact=True)


def finish(page: Page) -> None:
    page.get_by_role("link", name="Finish match").click()
    expect(page.get_by_role("heading", name="Finish the match?")).to_be_visible()
    page.get_by_role("button", name="Finish match").click()


def expect_over(page: Page, headline: str) -> None:
    expect(banner(page)).to_have_text(headline)
    no_more_hands(page)


def tally(counts: list[int], target: int | None = None, unit: str = "games") -> list[str]:
    """The board's figures: "1/2" toward a target, else "1 game" / "2 games"."""
    if target is not None:
        return [f"{count}/{target}" for count in counts]
    return [f"{count} {unit[:-1] if count == 1 else unit}" for count in counts]


# == California Speed: first to two games, draws recorded ==========================================


def test_california_speed_to_two_games_with_a_draw_and_an_edit(page: Page, shot) -> None:
    seat_players(page, "California Speed", ["Ann", "Bob"], 2)
    house_rules(page)
    page.get_by_label("Games to win").fill("2")
    tap(group(page, "Both out together"), "Draw")
    start(page, "California Speed")
    deals(page, "california_speed", 1, "Ann")

    won = [0, 0]
    for number, winner in enumerate(["Bob", "Nobody", "Ann"], start=1):
        tap(group(the_form(page), "Who played out first?"), winner)
        record(page, number)
        if winner != "Nobody":
            won[["Ann", "Bob"].index(winner)] += 1
        expect(scores(page, "games")).to_have_text(tally(won, 2))
    expect(board(page).get_by_text("Drawn games: 1")).to_be_visible()
    # the deal passes after every game, the drawn one too: Ann, Bob, Ann, then Bob
    deals(page, "california_speed", 4, "Bob")

    # Hand 1 was Ann's after all: 2 games to 0, and that ends the session at hand 3.
    edit(page, 1)
    tap(group(the_form(page), "Who played out first?"), "Ann")
    save(page, 1)
    expect(scores(page, "games")).to_have_text(tally([2, 0], 2))
    expect_over(page, "Ann wins the session, games won 2-0")
    shot("california_speed")


# == Speed Tournament: four players knocked out to a final =========================================


def test_speed_tournament_of_four_down_to_the_final(page: Page, shot) -> None:
    players = ["Ann", "Bob", "Cy", "Di"]
    seat_players(page, "Speed Tournament", players, 2)
    tap(group(page, "First dealer"), "Di")  # the first dealer by name, as typed
    start(page, "Speed Tournament")
    expect(board(page).get_by_text("Next round: 4 players, 26 cards each, 2 piles")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 1 · Di deals")).to_be_visible()

    tap(group(the_form(page), "Who was left holding cards?"), "Di")  # the dealer goes out first
    record(page, 1)
    expect(scores(page, "rounds")).to_have_text(tally([1, 1, 1, 0], unit="rounds"))
    expect(board(page).get_by_text("Out", exact=True)).to_have_count(1)
    next_round = "Next round: 3 players, 32 cards each, 3 piles, 8 equal cards out of the pack"
    expect(board(page).get_by_text(next_round)).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2 · Ann deals")).to_be_visible()  # past Di, who is out

    form = the_form(page)  # only the players still in: Di, out, is not offered
    expect(group(form, "Who was left holding cards?").locator("label")).to_have_text(["Ann", "Bob", "Cy"])
    tap(group(form, "Who was left holding cards?"), "Bob")
    record(page, 2)
    expect(scores(page, "rounds")).to_have_text(tally([2, 1, 2, 0], unit="rounds"))
    expect(page.get_by_role("heading", name="Round 3 · Cy deals")).to_be_visible()  # past Bob, out now

    # Round 2 was Ann's exit, not Bob's: the scores move, the final is Bob against Cy.
    edit(page, 2)
    tap(group(the_form(page), "Who was left holding cards?"), "Ann")
    save(page, 2)
    expect(scores(page, "rounds")).to_have_text(tally([1, 2, 2, 0], unit="rounds"))
    expect(page.get_by_role("heading", name="Round 3 · Bob deals")).to_be_visible()

    # The final asks for its winner instead, between the two still in.
    expect(group(the_form(page), "Who was left holding cards?")).to_have_count(0)
    expect(group(the_form(page), "Who won the final?").locator("label")).to_have_text(["Bob", "Cy"])
    tap(group(the_form(page), "Who won the final?"), "Cy")
    record(page, 3)
    # rounds survived: Cy 3, Bob 2, Ann 1, Di 0 - the finishing order
    expect(scores(page, "rounds")).to_have_text(tally([1, 2, 3, 0], unit="rounds"))
    expect_over(page, "Cy wins the tournament")
    expect(page.get_by_role("link", name="Finish match")).to_have_count(0)
    shot("speed_tournament")


# == Aggravation: an open session called by finish =================================================


def test_aggravation_open_session_ended_by_finish(page: Page, shot) -> None:
    seat_players(page, "Aggravation", ["Ann", "Bob"], 2)
    tap(group(page, "First dealer"), "Bob")
    start(page, "Aggravation")
    expect(board(page).get_by_text("Open session: call finish to end it")).to_be_visible()

    won = [0, 0]
    for number, winner in enumerate(["Ann", "Ann", "Bob"], start=1):
        tap(group(the_form(page), "Who called Aggravation?"), winner)
        record(page, number)
        won[["Ann", "Bob"].index(winner)] += 1
        expect(scores(page, "games")).to_have_text(tally(won))
    deals(page, "aggravation", 4, "Ann")  # Bob, Ann, Bob, Ann

    edit(page, 2)  # Bob called first in game 2: Ann 1 game, Bob 2
    tap(group(the_form(page), "Who called Aggravation?"), "Bob")
    save(page, 2)
    expect(scores(page, "games")).to_have_text(tally([1, 2]))

    finish(page)
    expect_over(page, "Bob wins the session, games won 1-2")
    shot("aggravation")


# == Frustration: shares counted at the regather, first to two =====================================


def test_frustration_to_two_games_counted_at_the_regather(page: Page, shot) -> None:
    seat_players(page, "Frustration", ["Ann", "Bob"], 2)
    house_rules(page)
    page.get_by_label("Games to win").fill("2")
    tap(group(page, "Count the shares"), "At regather")
    start(page, "Frustration")
    question = "Who got down to 10 cards?"
    expect(group(the_form(page), question)).to_contain_text("when the rows were gathered")

    tap(group(the_form(page), question), "Ann")
    record(page, 1)
    tap(group(the_form(page), question), "Bob")
    record(page, 2)
    expect(scores(page, "games")).to_have_text(tally([1, 1], 2))

    edit(page, 1)  # Bob won the first game too: 2 games, and the session is his
    tap(group(the_form(page), question), "Bob")
    save(page, 1)
    expect(scores(page, "games")).to_have_text(tally([0, 2], 2))
    expect_over(page, "Bob wins the session, games won 0-2")
    shot("frustration")


# == Machiavelli: three players, the fewest cards win a stuck game =================================


def stuck(page: Page, cards_left: dict[str, int]) -> None:
    form = the_form(page)
    tap(group(form, "How did the game end?"), "Stock exhausted")
    counts = group(form, "Cards each player still holds")
    for name, count in cards_left.items():
        counts.get_by_label(name, exact=True).fill(str(count))


def test_machiavelli_session_with_stuck_games(page: Page, shot) -> None:
    players = ["Ann", "Bob", "Cy"]
    seat_players(page, "Machiavelli", players, 2)
    house_rules(page)
    page.get_by_label("Games to win").fill("2")
    tap(group(page, "Stock runs out"), "Fewest cards")
    start(page, "Machiavelli")

    stuck(page, {"Ann": 5, "Bob": 3, "Cy": 8})  # Bob holds the fewest: his game
    record(page, 1)
    expect(scores(page, "games")).to_have_text(tally([0, 1, 0], 2))
    tap(group(the_form(page), "Who went out?"), "Ann")
    record(page, 2)
    stuck(page, {"Ann": 4, "Bob": 9, "Cy": 4})  # Ann and Cy share the fewest: nobody wins
    record(page, 3)
    expect(scores(page, "games")).to_have_text(tally([1, 1, 0], 2))
    expect(board(page).get_by_text("Nobody won: 1 game")).to_be_visible()
    deals(page, "machiavelli", 4, "Ann")  # Ann, Bob, Cy, Ann

    edit(page, 3)  # Cy held 3, not 4: Cy's game
    counts = group(the_form(page), "Cards each player still holds")
    counts.get_by_label("Cy", exact=True).fill("3")
    save(page, 3)
    expect(scores(page, "games")).to_have_text(tally([1, 1, 1], 2))
    expect(board(page).get_by_text(re.compile("^Nobody won"))).to_have_count(0)

    tap(group(the_form(page), "Who went out?"), "Bob")
    record(page, 4)
    expect(scores(page, "games")).to_have_text(tally([1, 2, 1], 2))
    expect_over(page, "Bob wins the session, games won 1-2-1")
    shot("machiavelli")


# == Myllymatti: games lost, lower is better =======================================================


def test_myllymatti_to_two_games_lost(page: Page, shot) -> None:
    seat_players(page, "Myllymatti", ["Ann", "Bob", "Cy"], 3)
    house_rules(page)
    page.get_by_label("Games to lose").fill("2")
    start(page, "Myllymatti")
    expect(board(page).get_by_text("Lower is better.")).to_be_visible()

    form = the_form(page)
    tap(group(form, "Who was left holding cards?"), "Cy")
    tap(group(form, "Who went out first? (optional)"), "Ann")
    record(page, 1)
    expect(scores(page, "games lost")).to_have_text(tally([0, 0, 1], 2))
    tap(group(the_form(page), "Who was left holding cards?"), "Ann")
    record(page, 2)
    expect(scores(page, "games lost")).to_have_text(tally([1, 0, 1], 2))
    deals(page, "myllymatti", 3, "Cy")  # Ann, Bob, Cy

    # Ann was left holding cards in game 1 as well (Cy went out first): her second loss ends it.
    edit(page, 1)
    form = the_form(page)
    tap(group(form, "Who was left holding cards?"), "Ann")
    tap(group(form, "Who went out first? (optional)"), "Cy")
    save(page, 1)
    expect(scores(page, "games lost")).to_have_text(tally([2, 0, 0], 2))
    # Bob and Cy share the fewest losses: no winner, but Ann lost the session.
    expect_over(page, "Ann loses the session, games lost 2-0-0")
    shot("myllymatti")
