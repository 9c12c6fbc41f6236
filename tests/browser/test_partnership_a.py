"""Browser journeys for Omi, Hasenpfeffer and Turnover Bridge: a whole match on a phone, through the
pages, with an edit of an earlier hand on the way (api/partnership.md; seed S4:22-48, S4:138-160).

Expected figures come from the small models below, worked out from the rules, never from the app."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Locator, Page, expect

from .table import banner, board, group, hand_control, no_more_hands, save_hand, tap, the_form
from .table import edit_hand as open_edit

pytestmark = pytest.mark.browser

SIDE = "AB"
FOUR = ["Ann", "Bob", "Cy", "Di"]
LABELS = ["Ann & Cy", "Bob & Di"]  # the sides go by their players


# -- what a player does on the page ------------------------------------------------------------


def seat_players(page: Page, game: str, names: list[str], partnerships: bool) -> None:
    page.goto("/")
    page.get_by_role("link", name=game, exact=True).click()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(names):
        label = f"Seat {seat + 1} side {SIDE[seat % 2]}" if partnerships else f"Seat {seat + 1}"
        page.get_by_role("combobox", name=label, exact=True).fill(name)


def house_rule_number(page: Page, label: str, number: int) -> None:
    page.get_by_text("House rules", exact=True).click()
    page.get_by_role("spinbutton", name=label).fill(str(number))


def start_match(page: Page, game: str) -> None:
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile(rf"^{game}"))).to_be_visible()


def record(page: Page, number: int) -> None:
    """ "Record hand n", or in the game's own word ("Record game n": Turnover Bridge)."""
    page.get_by_role("button", name=hand_control("Record", number)).click()
    expect(page.get_by_role("button", name=hand_control("Undo", number))).to_be_visible()


def edit_hand(page: Page, number: int) -> None:
    open_edit(page, number)


def save(page: Page, number: int) -> None:
    save_hand(page, number)


def unfold(scope: Locator, summary: str) -> None:
    """Open a folded part of the form ("More", "Or give ...") unless it is open already."""
    opener = scope.get_by_text(summary, exact=True)
    if not opener.evaluate("summary => summary.parentElement.open"):
        opener.click()


def plural(number: int, unit: str) -> str:
    return f"{number} {unit}" if number == 1 else f"{number} {unit}s"


# == 1. Omi =====================================================================================


@dataclass
class Omi:
    """S4:44-48 with the default accumulating 4-4 bonus: seats 0..3, side = seat % 2."""

    dealer: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    pending: int = 0

    def play(self, side_a_tricks: int) -> None:
        tricks = (side_a_tricks, 8 - side_a_tricks)
        if tricks[0] == tricks[1]:
            self.pending += 1  # S4:47: the next winner scores one extra
        else:
            winner = 0 if tricks[0] > tricks[1] else 1
            if tricks[winner] == 8:
                won = 3  # S4:45
            else:
                won = 2 if winner == self.dealer % 2 else 1  # S4:46: dealer's team 2, declarer's team 1
            self.points[winner] += won + self.pending
            self.pending = 0
        self.dealer = (self.dealer + 1) % 4  # S4:48: the deal passes to the left

    @property
    def declarer(self) -> int:
        return (self.dealer + 1) % 4  # S4:41: the dealer's left


def omi_hand(page: Page, side_a_tricks: int, editing: bool = False) -> None:
    """One tap: side A's tricks; the form gives side B the rest of the eight. An edit shows both
    stored counts, so both are tapped."""
    tricks = group(the_form(page), "Tricks taken")
    tap(group(tricks, LABELS[0]), str(side_a_tricks))
    if editing:
        tap(group(tricks, LABELS[1]), str(8 - side_a_tricks))


def expect_omi_board(page: Page, model: Omi, target: int) -> None:
    score = board(page)
    expect(score.get_by_label("points")).to_have_text([f"{n}/{target}" for n in model.points])
    expect(score.get_by_text(re.compile(r"^Deals:"))).to_have_text(
        f"Deals: {FOUR[model.dealer]} · Declares: {FOUR[model.declarer]}"
    )
    pending = score.get_by_text(re.compile(r"^4-4 bonus pending"))
    if model.pending:
        expect(pending).to_have_text(f"4-4 bonus pending: +{model.pending} to the next hand's winner")
    else:
        expect(pending).to_have_count(0)


def test_omi_game_to_four_with_a_tie_bonus_and_an_edit(page: Page, shot) -> None:
    target = 4
    seat_players(page, "Omi", FOUR, partnerships=True)
    house_rule_number(page, "Target", target)
    start_match(page, "Omi")

    hands = [6, 4, 2]  # A wins dealing (+2); a 4-4 tie; B wins declaring (+1) and the bonus (+1)
    model = Omi()
    expect_omi_board(page, model, target)
    for number, side_a in enumerate(hands, start=1):
        omi_hand(page, side_a)
        record(page, number)
        model.play(side_a)
        expect_omi_board(page, model, target)
        if number == 2:
            shot("omi_pending_bonus")
    assert model.points == [2, 2]

    # Hand 1 was really 3-5: B, the declarer's team, took it (+1) and A has nothing.
    edit_hand(page, 1)
    omi_hand(page, 3, editing=True)
    save(page, 1)
    model = Omi()
    for side_a in [3, *hands[1:]]:
        model.play(side_a)
    assert model.points == [0, 3]
    expect_omi_board(page, model, target)

    # Di deals hand 4 and B takes seven: +2 for the dealer's team, 5 in all, past the target.
    omi_hand(page, 1)
    page.get_by_role("button", name="Record hand 4").click()
    model.play(1)
    assert model.points == [0, 5]
    expect(banner(page)).to_have_text("Bob & Di win 5 to 0")  # a side of two players: "win"
    expect(board(page).get_by_label("points")).to_have_text([f"{n}/{target}" for n in model.points])
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("omi")


# == 2. Hasenpfeffer ============================================================================


@dataclass
class Hasenpfeffer:
    """S4:158-160: declarers make it (+ tricks) or lose the contract; defenders + their tricks."""

    points: list[int] = field(default_factory=lambda: [0, 0])
    dealer: int = 0
    winner: int | None = None

    def play(self, hand: tuple) -> None:
        self.dealer = (self.dealer + 1) % 4  # the deal passes after every hand, a void one too
        if hand == "void":
            return
        declarers, contract, taken = hand
        contract = 3 if contract == "forced" else contract  # S4:152: the joker's holder bids three
        defenders = 1 - declarers
        self.points[declarers] += taken if taken >= contract else -contract
        self.points[defenders] += 6 - taken
        if self.points[declarers] >= 10:
            self.winner = declarers
        elif self.points[defenders] >= 10:
            self.winner = defenders


VOID_HAND = "All four passed and the joker was the widow card: the hand is void and nobody scores."


def hasenpfeffer_hand(page: Page, hand: tuple | str, editing: bool = False) -> None:
    """A void hand and a forced joker bid (both rare: all four passed) are under "More"."""
    form = the_form(page)
    if hand == "void":
        unfold(form, "More")
        tap(form, VOID_HAND)
        return
    declarers, contract, taken = hand
    tap(group(form, "Who won the bidding?"), LABELS[declarers])
    if contract == "forced":
        unfold(form, "More")
        tap(form, "All four passed, so the joker's holder had to bid 3.")
    else:
        tap(group(form, "Contract"), str(contract))
    tricks = group(form, "Tricks taken")
    tap(group(tricks, LABELS[declarers]), str(taken))
    if editing:  # the stored counts are both shown: tap the other side's too
        tap(group(tricks, LABELS[1 - declarers]), str(6 - taken))


def test_hasenpfeffer_game_with_a_set_contract_a_void_hand_and_an_edit(page: Page, shot) -> None:
    seat_players(page, "Hasenpfeffer", FOUR, partnerships=True)
    start_match(page, "Hasenpfeffer")

    hands = [(1, 4, 3), "void", (0, "forced", 5)]
    model = Hasenpfeffer()
    for number, hand in enumerate(hands, start=1):
        hasenpfeffer_hand(page, hand)
        record(page, number)
        model.play(hand)
        expect(board(page).get_by_label("points")).to_have_text([f"{n}/10" for n in model.points])
    # B set at 4 (-4, A defends with 3); a void hand; A's forced 3 made with 5 (+5, B +1)
    assert model.points == [8, -3]
    expect(board(page).get_by_text("Last hand: Ann & Cy bid 3 (forced joker bid): made")).to_be_visible()
    expect(board(page).get_by_text(re.compile(r"^Deals:"))).to_have_text(
        f"Deals: {FOUR[model.dealer]} · Bids first: {FOUR[(model.dealer + 1) % 4]}"
    )
    shot("hasenpfeffer_below_zero")

    edit_hand(page, 1)  # B made it after all with 4 tricks: +4; A defended with 2
    hasenpfeffer_hand(page, (1, 4, 4), editing=True)
    save(page, 1)
    model = Hasenpfeffer()
    for hand in [(1, 4, 4), *hands[1:]]:
        model.play(hand)
    assert model.points == [7, 5]
    expect(board(page).get_by_label("points")).to_have_text([f"{n}/10" for n in model.points])

    # A bids 2 and takes 3: +3 reaches 10 while B defends to 8; the declarers win
    hasenpfeffer_hand(page, (0, 2, 3))
    page.get_by_role("button", name="Record hand 4").click()
    model.play((0, 2, 3))
    assert model.points == [10, 8] and model.winner == 0
    expect(banner(page)).to_have_text("Ann & Cy win 10 to 8")
    shot("hasenpfeffer")


def test_hasenpfeffer_void_hand_over_a_bid_is_refused_in_words(page: Page) -> None:
    """A bid tapped, then the void hand ticked: the form says a void hand has no bid and records
    nothing (it used to drop the bid without a word); the bid no longer shows, so the next tap on
    Record records the void hand (api/partnership.md: `void: true` with any other key is refused)."""
    seat_players(page, "Hasenpfeffer", FOUR, partnerships=True)
    start_match(page, "Hasenpfeffer")
    hasenpfeffer_hand(page, (0, 3, 4))
    hasenpfeffer_hand(page, "void")
    page.get_by_role("button", name="Record hand 1").click()
    expect(page.get_by_role("alert")).to_have_text(
        "A void hand has no bid and no tricks: give the void hand, or the bid and the tricks, not both."
    )
    form = the_form(page)
    expect(form.get_by_role("checkbox", name=VOID_HAND)).to_be_checked()
    expect(group(form, "Who won the bidding?")).to_be_hidden()
    expect(board(page).get_by_label("points")).to_have_text(["0/10", "0/10"])
    record(page, 1)
    expect(board(page).get_by_text("Last hand: void (joker in the widow)")).to_be_visible()
    expect(board(page).get_by_label("points")).to_have_text(["0/10", "0/10"])


# == 3. Turnover Bridge =========================================================================


def expect_turnover_board(page: Page, games: list[int], ties: int, dealer: int | None) -> None:
    score = board(page)
    expect(score.get_by_label("games")).to_have_text([plural(n, "game") for n in games])
    tied = score.get_by_text(re.compile(r"^Tied games"))
    if ties:
        expect(tied).to_have_text(f"Tied games: {ties}")
    else:
        expect(tied).to_have_count(0)
    if dealer is not None:
        expect(score.get_by_text(re.compile(r"^Deals:"))).to_have_text(
            f"Deals: {TWO[dealer]} · Leads: {TWO[1 - dealer]}"
        )


TWO = ["Ann", "Bob"]
WINNER_FORM = "Or give who won (nobody for a 13-13 tie)"


def test_turnover_bridge_session_by_tricks_and_by_winner_ended_by_finish(page: Page, shot) -> None:
    seat_players(page, "Turnover Bridge", TWO, partnerships=False)
    start_match(page, "Turnover Bridge")
    expect_turnover_board(page, [0, 0], 0, dealer=0)

    form = the_form(page)
    # Game 1: Ann reaches 14 tricks with Bob on 9 (S4:32): a game to Ann.
    group(form, "Tricks taken").get_by_role("spinbutton", name="Ann").fill("14")
    group(form, "Tricks taken").get_by_role("spinbutton", name="Bob").fill("9")
    record(page, 1)
    expect_turnover_board(page, [1, 0], 0, dealer=1)
    # Game 2: played out 13-13, entered as "Nobody" won: a tie.
    unfold(the_form(page), WINNER_FORM)
    tap(group(the_form(page), "Who won the game?"), "Nobody")
    record(page, 2)
    expect_turnover_board(page, [1, 0], 1, dealer=0)
    # Game 3: Bob won, entered as the winner only.
    unfold(the_form(page), WINNER_FORM)
    tap(group(the_form(page), "Who won the game?"), "Bob")
    record(page, 3)
    expect_turnover_board(page, [1, 1], 1, dealer=1)

    # Game 2 was really won by Ann 14-12: the tie is gone.
    edit_hand(page, 2)
    expect(group(the_form(page), "Who won the game?")).to_be_visible()  # a game given by its winner opens on that form
    tap(group(the_form(page), "Who won the game?"), "Ann")
    save(page, 2)
    expect_turnover_board(page, [2, 1], 0, dealer=1)

    page.get_by_role("link", name="Finish match").click()
    page.get_by_role("button", name="Finish match").click()
    expect(banner(page)).to_have_text("Ann wins the session 2 games to 1")
    no_more_hands(page)
    shot("turnover_bridge")
