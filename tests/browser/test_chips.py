"""Browser journeys for the chip and token games: Toepen, Bura, Calabrasella (shared/api/chips.md).

One journey per game on a 390x844 phone, through the real pages: seat the players, set a house
rule or two, record hands with the big buttons, edit an earlier hand, and play on to the end. The
score is read off the scoreboard (the region "Score"); every expected figure comes from the small
models below, worked out from the rules, never from the app.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from .table import banner, board, group, tap, the_form

pytestmark = pytest.mark.browser


# -- what a player does on the page ------------------------------------------------------------------------


def seat_players(page: Page, game: str, names: list[str]) -> None:
    page.goto("/")
    page.get_by_role("link", name=game, exact=True).click()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(names):
        page.get_by_role("combobox", name=f"Seat {seat + 1}", exact=True).fill(name)


def start(page: Page, game: str) -> None:
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile(rf"^{game}"))).to_be_visible()


def record(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Record hand {number}").click()
    expect(page.get_by_role("button", name=f"Undo hand {number}")).to_be_visible()


def edit(page: Page, number: int) -> None:
    hand = page.get_by_role("listitem").filter(has=page.get_by_text(f"Hand {number}", exact=True))
    hand.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name=f"Edit hand {number}")).to_be_visible()


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("status").filter(has_text=f"Hand {number} changed")).to_be_visible()


def amounts(numbers: list[int], unit: str) -> list[str]:
    """How the board writes a balance: "1 token", "-5 chips"."""
    return [f"{n} {unit[:-1] if abs(n) == 1 else unit}" for n in numbers]


def expect_scores(page: Page, numbers: list[int], unit: str) -> None:
    expect(board(page).get_by_label(unit)).to_have_text(amounts(numbers, unit))


def expect_dealer(page: Page, name: str) -> None:
    expect(board(page).get_by_text(re.compile(r"^Deals:"))).to_have_text(f"Deals: {name}")


# == Toepen ================================================================================================


@dataclass
class Toepen:
    """api/chips.md `toepen` with elimination: losses settled at the end of the hand, capped at
    the balance; players who run out drop out; the winner deals, or the next holder to the left."""

    tokens: list[int]
    out: list[int] = field(default_factory=list)
    dealer: int = 0

    def play(self, winner: int, value: int = 1, folded: list[int] | None = None) -> None:
        players = len(self.tokens)
        folded = folded or [0] * players
        for seat in range(players):
            if seat in self.out:
                continue
            owed = folded[seat] or (0 if seat == winner else value)  # S3:116, S3:124
            self.tokens[seat] -= min(owed, self.tokens[seat])
        self.out += [seat for seat in range(players) if self.tokens[seat] == 0 and seat not in self.out]
        self.dealer = winner
        while self.tokens[self.dealer] == 0 and any(self.tokens):  # ruling 5
            self.dealer = (self.dealer + 1) % players


def toepen_hand(page: Page, names: list[str], winner: int, value: int = 1, folded: list[int] | None = None) -> None:
    form = the_form(page)
    tap(group(form, "Who won the hand?"), names[winner])
    form.get_by_role("spinbutton", name="Hand value").fill(str(value))
    if folded:  # every player's box is filled: a blank one is not read as 0 (requests-chips.md 3)
        for seat, paid in enumerate(folded):
            group(form, "Folded at").get_by_role("spinbutton", name=names[seat]).fill(str(paid))


def test_toepen_elimination_match_with_an_edit(page: Page, shot) -> None:
    names = ["Ann", "Bob", "Cy"]
    seat_players(page, "Toepen", names)
    page.get_by_text("House rules", exact=True).click()
    page.get_by_role("spinbutton", name="Starting tokens").fill("3")
    tap(page, "Players who run out drop out and the last one holding tokens wins (off: the first to run out loses).")
    start(page, "Toepen")
    expect_scores(page, [3, 3, 3], "tokens")
    expect_dealer(page, "Ann")

    # Hand 1: Bob takes the last trick of an unknocked hand: the others pay 1 each (S3:116).
    toepen_hand(page, names, 1)
    record(page, 1)
    model = Toepen([3, 3, 3])
    model.play(1)
    expect_scores(page, model.tokens, "tokens")
    expect_dealer(page, names[model.dealer])

    # Hand 2: Ann knocked to 2; Cy folded and pays 1 (S3:124); Bob stayed in and pays 2.
    toepen_hand(page, names, 0, 2, [0, 0, 1])
    record(page, 2)
    model.play(0, 2, [0, 0, 1])
    assert model.tokens == [2, 1, 1]
    expect_scores(page, model.tokens, "tokens")
    expect_dealer(page, "Ann")

    # Edit hand 1: Cy won it, not Bob. Replayed, hand 2 now costs Bob his last token: he is out.
    edit(page, 1)
    tap(group(the_form(page), "Who won the hand?"), "Cy")
    save(page, 1)
    model = Toepen([3, 3, 3])
    model.play(2)
    model.play(0, 2, [0, 0, 1])
    assert model.tokens == [2, 0, 2] and model.out == [1]
    expect_scores(page, model.tokens, "tokens")
    expect(board(page).locator(".flag")).to_have_text(["Out"])

    # Hand 3: Cy knocks to 2 and takes the last trick; Ann pays her last 2 and Cy is left alone.
    toepen_hand(page, names, 2, 2)
    page.get_by_role("button", name="Record hand 3").click()
    model.play(2, 2)
    assert model.tokens == [0, 0, 2]
    expect(banner(page)).to_have_text("Cy is the last player holding tokens and wins")
    expect_scores(page, model.tokens, "tokens")
    expect(board(page).locator(".flag")).to_have_text(["Out", "Out"])
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("chips_toepen")


# == Bura ==================================================================================================


@dataclass
class Bura:
    """api/chips.md `bura`, default options: ante 1 each; a true declaration or a bura takes the
    pot; a false one pays in what the pot holds (or all the declarer has); the taker deals, else
    the deal passes."""

    tokens: list[int]
    pot: int = 0
    dealer: int = 0

    def play(self, outcome: str, side: int | None = None, points: int = 0) -> None:
        self.tokens = [held - 1 for held in self.tokens]  # S3:248
        self.pot += 2
        if outcome == "draw" or (outcome == "declaration" and points < 31):
            if outcome == "declaration":  # S3:287
                paid = min(self.pot, self.tokens[side])
                self.tokens[side] -= paid
                self.pot += paid
            self.dealer = 1 - self.dealer
            return
        self.tokens[side] += self.pot
        self.pot = 0
        self.dealer = side


def bura_hand(page: Page, names: list[str], outcome: str, side: int | None = None, points: int | None = None) -> None:
    form = the_form(page)
    tap(group(form, "How did the hand end?"), outcome.capitalize())
    if side is not None:
        tap(group(form, "Who?"), names[side])
    if points is not None:
        form.get_by_role("spinbutton", name="Card points").fill(str(points))


def expect_bura_board(page: Page, model: Bura, names: list[str]) -> None:
    expect_scores(page, model.tokens, "tokens")
    expect(board(page).get_by_text(re.compile(r"^Pot:"))).to_have_text(f"Pot: {amounts([model.pot], 'tokens')[0]}")


def test_bura_session_until_a_player_cannot_ante(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Bura", names)
    page.get_by_text("House rules", exact=True).click()
    page.get_by_role("spinbutton", name="Starting tokens").fill("3")
    start(page, "Bura")
    model = Bura([3, 3])
    expect_bura_board(page, model, names)

    # Hand 1: Ann declares and counts 35: she takes the pot of the two antes.
    bura_hand(page, names, "declaration", 0, 35)
    record(page, 1)
    model.play("declaration", 0, 35)
    assert model.tokens == [4, 2]
    expect_bura_board(page, model, names)
    expect_dealer(page, "Ann")

    # Hand 2: the cards run out with no declaration: the pot of 2 waits (S3:289); Bob deals.
    bura_hand(page, names, "draw")
    record(page, 2)
    model.play("draw")
    expect_bura_board(page, model, names)
    expect_dealer(page, "Bob")

    # Edit hand 1: it was Bob who declared, with 40. Hand 2 is replayed on top of it.
    edit(page, 1)
    tap(group(the_form(page), "Who?"), "Bob")
    the_form(page).get_by_role("spinbutton", name="Card points").fill("40")
    save(page, 1)
    model = Bura([3, 3])
    model.play("declaration", 1, 40)
    model.play("draw")
    assert (model.tokens, model.pot) == ([1, 3], 2)
    expect_bura_board(page, model, names)
    expect_dealer(page, "Ann")

    # Hand 3: Bob leads a bura and takes the pot; Ann's ante was her last token: the session ends.
    bura_hand(page, names, "bura", 1)
    page.get_by_role("button", name="Record hand 3").click()
    model.play("bura", 1)
    assert (model.tokens, model.pot) == ([0, 6], 0)
    expect(banner(page)).to_have_text("Bob wins with 6 tokens to 0")
    expect_bura_board(page, model, names)
    expect(page.get_by_role("link", name="Finish match")).to_have_count(0)
    shot("chips_bura")


# == Calabrasella ==========================================================================================


def calabrasella_changes(declarer: int, ours: int, theirs: int) -> list[int]:
    """S4:201-202: each defender pays (or is paid) the difference; 35-0 pays 70 a head."""
    each = 70 if (ours, theirs) == (35, 0) else -70 if (ours, theirs) == (0, 35) else ours - theirs
    return [2 * each if seat == declarer else -each for seat in range(3)]


def calabrasella_hand(page: Page, names: list[str], declarer: int, ours: int, theirs: int) -> None:
    form = the_form(page)
    tap(group(form, "Who declared?"), names[declarer])
    form.get_by_role("spinbutton", name="Declarer's points").fill(str(ours))
    form.get_by_role("spinbutton", name="Defenders' points").fill(str(theirs))


def test_calabrasella_session_with_an_edit_then_finish(page: Page, shot) -> None:
    # An all-passed hand needs a "nobody" button for the declarer (requests-chips.md 1): not here yet.
    names = ["Ann", "Bob", "Cy"]
    seat_players(page, "Calabrasella", names)
    start(page, "Calabrasella")
    expect_scores(page, [0, 0, 0], "chips")

    hands = [(0, 20, 15), (1, 10, 20), (2, 35, 0)]
    balances = [0, 0, 0]
    for number, hand in enumerate(hands[:2], start=1):
        calabrasella_hand(page, names, *hand)
        record(page, number)
        balances = [b + c for b, c in zip(balances, calabrasella_changes(*hand))]
        expect_scores(page, balances, "chips")
        expect_dealer(page, names[number % 3])  # the deal passes to the left every hand (ruling 15)
    assert balances == [20, -25, 5]

    # Edit hand 1: Ann lost it 15 to 20; she pays each defender 5 instead of being paid 5.
    edit(page, 1)
    the_form(page).get_by_role("spinbutton", name="Declarer's points").fill("15")
    the_form(page).get_by_role("spinbutton", name="Defenders' points").fill("20")
    save(page, 1)
    hands[0] = (0, 15, 20)
    balances = [sum(column) for column in zip(*(calabrasella_changes(*hand) for hand in hands[:2]))]
    assert balances == [0, -15, 15]
    expect_scores(page, balances, "chips")

    # Hand 3: Cy takes all 35 points: each defender pays 70 (S4:202).
    calabrasella_hand(page, names, *hands[2])
    record(page, 3)
    balances = [b + c for b, c in zip(balances, calabrasella_changes(*hands[2]))]
    assert balances == [-70, -85, 155] and sum(balances) == 0
    expect_scores(page, balances, "chips")

    page.get_by_role("link", name="Finish match").click()
    expect(page.get_by_role("heading", name="Finish the match?")).to_be_visible()
    page.get_by_role("button", name="Finish match").click()
    expect(banner(page)).to_have_text("Cy wins with +155 chips")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("chips_calabrasella")
