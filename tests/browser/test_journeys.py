"""Browser journeys: a player at a real table scores each flagship game on a phone.

Each journey drives the real pages in headless Chromium (390x844, touch) the way a player does:
taps on the big labelled buttons (the radio inputs are hidden inside their labels, so the label
text is what gets tapped), typed names, the confirmation pages. The score is read off the page,
from the scoreboard (the section labelled "Score"), never from the JSON API. Every expected figure
is worked out here, hand by hand, from the rules in RULES.md section 1 (the small models below),
so a journey checks the app against the rules and not against itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Locator, Page, expect

from .table import banner, board, group, hand_control, tap, the_form

pytestmark = pytest.mark.browser

SIDE = "AB"


# -- what a player does on the page ------------------------------------------------------------


def seat_players(page: Page, game: str, names: list[str], partnerships: bool = False) -> None:
    """From the home page to the new-match form of `game`, with the names typed seat by seat."""
    page.goto("/")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    page.get_by_role("link", name=game, exact=True).click()
    expect(page.get_by_role("heading", name=f"New {game} match")).to_be_visible()
    for seat, name in enumerate(names):
        label = f"Seat {seat + 1} side {SIDE[seat % 2]}" if partnerships else f"Seat {seat + 1}"
        page.get_by_role("combobox", name=re.compile(rf"^{label}\b")).fill(name)


def record(page: Page, number: int) -> None:
    """Press "Record hand n" (in the game's word: "Record round n") and wait for the page of the
    next hand (or the end of the match)."""
    page.get_by_role("button", name=hand_control("Record", number)).click()
    expect(page.get_by_role("button", name=hand_control("Undo", number))).to_be_visible()


def names_on_board(page: Page) -> list[list[str]]:
    """The players of each side as the scoreboard's side headings show them: "Ann & Cy"."""
    headings = board(page).get_by_role("heading", level=3).all_inner_texts()
    return [text.strip().split(" & ") for text in headings]


def plural(number: int, unit: str) -> str:
    return f"{number} {unit}" if number == 1 else f"{number} {unit}s"


# == 1. Court Piece =============================================================================


@dataclass
class CourtPiece:
    """RULES.md 1.2.4 for a partnership table, seats 0..3, side = seat % 2, play to the left.

    House rule `court_hand_streak_policy = count_as_win` (RULES CP-Q1): a first-seven or revoke
    court also counts as a hand won for the streak, so one journey can reach a seventh hand in a
    row among court hands."""

    dealer: int
    courts: list[int] = field(default_factory=lambda: [0, 0])
    streak_side: int | None = None
    streak: int = 0

    def play(self, hand: tuple) -> None:
        outcome, detail = hand
        awarded = 0
        if outcome == "tricks":  # the side with 7 or more tricks won it (S4:99)
            winner = 0 if detail[0] > detail[1] else 1
        elif outcome == "first_seven":  # one court (S4:98)
            winner, awarded = detail, 1
        else:  # revoke by side `detail`: the other side wins a court (S4:96)
            winner, awarded = 1 - detail, 1
        awarded += self._streak_win(winner)
        self.courts[winner] += awarded
        if self.dealer % 2 == winner:  # the dealer's side won: the deal passes left (S4:103)
            self.dealer = (self.dealer + 1) % 4
        elif awarded:  # the dealer's side lost a court: the dealer's partner deals (S4:103)
            self.dealer = (self.dealer + 2) % 4
        # the dealer's side lost without a court: the same player deals again

    def _streak_win(self, side: int) -> int:
        """S4:100-101: one more in a row, or a new run at 1; the seventh is a court and resets."""
        self.streak = self.streak + 1 if self.streak_side == side else 1
        self.streak_side = side
        if self.streak < 7:
            return 0
        self.streak_side, self.streak = None, 0
        return 1

    @property
    def trumps(self) -> int:
        return (self.dealer + 1) % 4  # the player after the dealer (S4:90)


def court_piece_hand(page: Page, number: int, hand: tuple, labels: list[str], save: str | None = None) -> None:
    form = the_form(page)
    outcome, detail = hand
    choice = {"tricks": "Tricks", "first_seven": "First seven", "revoke": "Revoke"}[outcome]
    tap(group(form, "How did the hand end?"), choice)
    if outcome == "tricks":
        tricks = group(form, "Tricks")
        for side, count in enumerate(detail):
            tap(group(tricks, labels[side]), str(count))
    else:  # the form asks who gets the court: for a revoke, the side that did not revoke
        court = detail if outcome == "first_seven" else 1 - detail
        tap(group(form, "Who gets the court?"), labels[court])
    if save:
        page.get_by_role("button", name=save).click()
    else:
        record(page, number)


def expect_court_piece_board(page: Page, model: CourtPiece, seats: list[str]) -> None:
    score = board(page)
    expect(score.get_by_label("courts")).to_have_text([plural(n, "court") for n in model.courts])
    side = model.streak_side
    streak = f"{seats[side]} & {seats[side + 2]}: {model.streak} of 7" if side is not None else "none"
    expect(score.get_by_text(re.compile(r"^Streak:"))).to_have_text(f"Streak: {streak}")
    deals = f"Deals: {seats[model.dealer]} · Trumps: {seats[model.trumps]}"
    expect(score.get_by_text(re.compile(r"^Deals:"))).to_have_text(deals)


def test_court_piece_match_from_the_home_page(page: Page, shot) -> None:
    players = ["Ann", "Bob", "Cy", "Di"]
    seat_players(page, "Court Piece", players, partnerships=True)
    tap(page, "Draw partners and seats at random")
    tap(group(page, "First dealer"), "Ann")  # by name: Ann deals first wherever the draw seats her
    page.get_by_text("House rules", exact=True).click()
    tap(group(page, "Court hand streak policy"), "Count as win")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Court Piece"))).to_be_visible()

    # The draw decides who sits where: side A is seats 1 and 3, side B seats 2 and 4.
    sides = names_on_board(page)
    assert sorted(sides[0] + sides[1]) == sorted(players)
    seats = [sides[0][0], sides[1][0], sides[0][1], sides[1][1]]
    labels = [" & ".join(sides[i]) for i in (0, 1)]  # sides go by their players' names
    first = seats.index("Ann")  # the first dealer was chosen by name: the draw seats her anywhere
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()

    hands = [
        ("tricks", (8, 5)),  # A wins: A 1 of 7; A dealt, so the deal passes left
        ("tricks", (6, 7)),  # B wins: B 1 of 7 (edited below to A 7-6)
        ("tricks", (9, 4)),  # A 1 of 7
        ("tricks", (7, 6)),  # A 2 of 7
        ("tricks", (11, 2)),  # A 3 of 7
        ("first_seven", 0),  # A's court, and it counts as a win: A 4 of 7
        ("revoke", 1),  # B revoked: A's court, A 5 of 7
        ("tricks", (5, 8)),  # B 1 of 7: taken back below
    ]
    model = CourtPiece(dealer=first)
    expect_court_piece_board(page, model, seats)
    seen_streaks, seen_deals = set(), set()
    for number, hand in enumerate(hands, start=1):
        court_piece_hand(page, number, hand, labels)
        model.play(hand)
        expect_court_piece_board(page, model, seats)
        seen_streaks.add((model.streak_side, model.streak))
        seen_deals.add(model.dealer)
    assert len(seen_streaks) >= 4 and len(seen_deals) >= 3  # the journey did move them about

    # Undo hand 8: the board goes back to where hand 7 left it.
    page.get_by_role("button", name="Undo hand 8").click()
    expect(page.get_by_role("status").filter(has_text="Hand 8 taken back.")).to_be_visible()
    expect(page.get_by_role("button", name="Record hand 8")).to_be_visible()
    before = CourtPiece(dealer=first)
    for hand in hands[:7]:
        before.play(hand)
    expect_court_piece_board(page, before, seats)

    # Edit hand 2: A won it 7-6 after all. Every total after it is worked out again.
    hand_two = page.get_by_role("listitem").filter(has=page.get_by_text("Hand 2", exact=True))
    hand_two.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Edit hand 2")).to_be_visible()
    court_piece_hand(page, 2, ("tricks", (7, 6)), labels, save="Save hand 2")
    expect(page.get_by_role("status").filter(has_text="Hand 2 changed")).to_be_visible()
    edited = [hands[0], ("tricks", (7, 6)), *hands[2:7]]
    after = CourtPiece(dealer=first)
    for hand in edited:
        after.play(hand)
    # Seven hands in a row for A now: a third court, the streak gone, another dealer.
    assert after.courts != before.courts
    assert (after.streak_side, after.streak) != (before.streak_side, before.streak)
    assert after.dealer != before.dealer
    assert after.courts == [3, 0] and after.streak_side is None
    expect_court_piece_board(page, after, seats)
    hand_seven = page.get_by_role("listitem").filter(has=page.get_by_text("Hand 7", exact=True))
    expect(hand_seven).to_contain_text("seventh hand in a row")

    # The table calls time: finish, confirm, and the winner is shown.
    page.get_by_role("link", name="Finish match").click()
    expect(page.get_by_role("heading", name="Finish the match?")).to_be_visible()
    page.get_by_role("button", name="Finish match").click()
    expect(banner(page)).to_have_text(f"{labels[0]} win the match 3 courts to 0")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    expect(page.get_by_role("link", name="Finish match")).to_have_count(0)
    shot("court_piece")


# == 2. Schnapsen ===============================================================================

CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # S3:178-182


def card_points(cards: list[str]) -> int:
    return sum(CARD_POINTS[card[:-1]] for card in cards)


@dataclass
class Pile:
    """What one side won in a hand, as tapped on the counter: cards and marriages that counted."""

    cards: list[str] = field(default_factory=list)
    marriages20: int = 0
    trumps40: bool = False

    @property
    def points(self) -> int:  # card points plus the credited marriages (S3:164)
        if not self.cards:
            return 0
        return card_points(self.cards) + 20 * self.marriages20 + (40 if self.trumps40 else 0)

    @property
    def tricks(self) -> int:
        return len(self.cards) // 2


def schnapsen_award(ending: str, who: int, piles: tuple[Pile, Pile]) -> tuple[int, int]:
    """RULES.md 1.4.5, stock never closed: (side that scores, victory points)."""
    if ending == "played_out":  # S3:192: the last trick's winner
        return who, 1
    other = 1 - who
    if piles[who].points >= 66:  # S3:184-188
        if not piles[other].tricks:
            return who, 3
        return who, 1 if piles[other].points >= 33 else 2
    return other, 3 if not piles[other].tricks else 2  # S3:190, a false claim


def tap_pile(counter: Locator, name: str, pile: Pile) -> None:
    side = counter.get_by_role("group", name=re.compile(rf"^{name}\b"))
    for card in pile.cards:
        tap(side, card)
    if pile.marriages20:
        tap(side, f"{pile.marriages20}×20")
    if pile.trumps40:
        tap(side, "40 in trumps")
    if pile.cards:
        expect(side.locator("output")).to_have_text(f"= {pile.points} points, {pile.tricks} tricks")


SUITS = "♠♥♦♣"
EVERY_CARD = [rank + suit for suit in SUITS for rank in CARD_POINTS]


def split(first: list[str]) -> tuple[Pile, Pile]:
    """Every card played: `first` for one side, the rest of the pack for the other."""
    return Pile(first), Pile([card for card in EVERY_CARD if card not in first])


def test_schnapsen_game_to_seven_with_the_card_counter(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Schnapsen", names)
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name="Hand 1 · Ann deals")).to_be_visible()

    hands = [
        # Ann goes out with 70; Bob has 11 in two tricks: schneider, Ann +2 (S3:187).
        ("out", 0, (Pile(["A♠", "10♠", "A♥", "10♥", "A♦", "10♦", "K♠", "Q♠"]), Pile(["K♥", "Q♥", "J♥", "J♦"]))),
        # Bob goes out with 49 + a marriage of 20; Ann has 39: Bob +1 (S3:186).
        (
            "out",
            1,
            (
                Pile(["A♥", "10♥", "J♣", "J♠", "K♦", "Q♦", "K♥", "Q♥"]),
                Pile(["A♣", "10♣", "K♣", "Q♣", "A♠", "10♠"], marriages20=1),
            ),
        ),
        # Every card played, nobody out; Ann took the last trick: Ann +1 (S3:192).
        ("played_out", 0, split(["A♠", "10♠", "K♠", "Q♠", "J♠", "A♥", "10♥", "K♥", "Q♥", "J♥"])),
        # Bob claims with 41 and a marriage, 61: a false claim; Ann, with tricks of her own, +2 (S3:190).
        ("out", 1, (Pile(["J♦", "Q♦", "A♥", "10♥"]), Pile(["A♠", "10♠", "A♣", "K♣", "Q♣", "J♣"], marriages20=1))),
        # Ann goes out with 76 and Bob took no trick: schwarz, Ann +3 (S3:188); the game is Ann's.
        ("out", 0, (Pile(["A♠", "10♠", "A♥", "10♥", "A♦", "10♦", "A♣", "J♣"]), Pile())),
    ]
    vp = [0, 0]
    for number, (ending, who, piles) in enumerate(hands, start=1):
        form = the_form(page)
        form.get_by_text(re.compile(r"^Or give the counted hand")).click()  # the quick form is the default
        tap(group(form, "Ending"), "Out" if ending == "out" else "Played out")
        tap(group(form, "Declarer" if ending == "out" else "Last trick"), names[who])
        form.get_by_text("Count the cards", exact=True).click()
        counter = form.locator("details.counter")
        for side, pile in enumerate(piles):
            tap_pile(counter, names[side], pile)
        # The counter fills in the points and tricks; nobody types them.
        for side, pile in enumerate(piles):
            if pile.cards:
                points = group(group(form, "Points"), names[side]).get_by_role("spinbutton")
                expect(points).to_have_value(str(pile.points))
                tricks = group(group(form, "Tricks"), names[side])
                expect(tricks.get_by_role("radio", name=str(pile.tricks), exact=True)).to_be_checked()
            else:  # a side that won no card counts as 0 points and no trick
                points = group(group(form, "Points"), names[side]).get_by_role("spinbutton")
                expect(points).to_have_value("0")
        page.get_by_role("button", name=f"Record hand {number}").click()
        expect(page.get_by_role("button", name=f"Undo hand {number}")).to_be_visible()
        side, points = schnapsen_award(ending, who, piles)
        vp[side] += points
        expect(board(page).get_by_label("victory points")).to_have_text([f"{v}/7" for v in vp])
        expect(page.get_by_role("listitem").filter(has=page.get_by_text(f"Hand {number}", exact=True))).to_contain_text(
            f"+{points}"
        )

    # Ann has 2 + 1 + 2 + 3 = 8: the game is over and Ann won it.
    assert vp == [8, 1]
    expect(board(page).get_by_role("heading", level=3)).to_have_text(["Ann", "Bob"])
    expect(banner(page)).to_have_text("Ann wins the game 8 to 1")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("schnapsen")


# == 3. Envite ==================================================================================


@dataclass
class Envite:
    """RULES.md 1.1.5: stones to 11 (the cap), lying down on 11, best of three games."""

    stones: list[int] = field(default_factory=lambda: [0, 0])
    games: list[int] = field(default_factory=lambda: [0, 0])
    last_game: list[int] = field(default_factory=list)  # the stones as the last game won ended

    def add(self, side: int, stones: int) -> None:
        self.stones[side] = min(11, self.stones[side] + stones)  # S0:89

    def win_game(self, side: int) -> None:
        self.games[side] += 1
        self.last_game = [12 if each == side else self.stones[each] for each in (0, 1)]  # the winner to twelve
        self.stones = [0, 0]

    @property
    def lying(self) -> list[bool]:
        return [s == 11 for s in self.stones]


def expect_envite_board(page: Page, model: Envite, over: bool = False) -> None:
    """In play the game in progress toward eleven; at the end the stones as the last game ended."""
    score = board(page)
    shown = [plural(s, "stone") for s in model.last_game] if over else [f"{s}/11" for s in model.stones]
    expect(score.get_by_label("stones")).to_have_text(shown)
    expect(score.get_by_text(re.compile(r"^Games:"))).to_have_text([f"Games: {g} of 2" for g in model.games])
    expect(score.get_by_text("Lying down", exact=True)).to_have_count(sum(model.lying))


def test_envite_through_lying_down_to_a_match_win(page: Page, shot) -> None:
    seat_players(page, "Envite", ["Ann", "Bob", "Cy", "Di"], partnerships=True)
    page.get_by_role("button", name="Start").click()
    a, b = "Ann & Cy", "Bob & Di"  # the sides go by their players
    model = Envite()
    expect_envite_board(page, model)

    def hand(
        number: int,
        winner: str | None = None,
        stake: str | None = None,
        declined: bool = False,
        trawl: bool = False,
        forfeit: bool = False,
    ) -> None:
        form = the_form(page)
        if winner:
            tap(group(form, "Who won the hand?"), winner)
        if stake:
            tap(group(form, "Stake"), stake)
        if declined or trawl:  # the rare ones are folded under "More"
            tap(form, "More")
        if declined:
            tap(form, "The last raise was declined, so the hand was not played.")
        if trawl:
            tap(form, "A player of the losing side could not trump a trawl.")
        if forfeit:
            tap(form, "The side lying down gave the hand up; the other side wins it.")
        record(page, number)

    # Game 1. A wins a hand raised to 4: +4 (S0:75).
    hand(1, a, "4")
    model.add(0, 4)
    expect_envite_board(page, model)
    # B's raise to 7 is declined: B scores the stake left behind, 4 (S0:77).
    hand(2, b, "7", declined=True)
    model.add(1, 4)
    expect_envite_board(page, model)
    # B wins at 2 after A could not follow a trawl: 2 + 2 (S0:83).
    hand(3, b, trawl=True)
    model.add(1, 4)
    expect_envite_board(page, model)
    # A wins a hand raised to 9: 4 + 9 is capped at 11 (S0:89), and A lies down.
    hand(4, a, "9")
    model.add(0, 9)
    assert model.stones == [11, 8]
    expect_envite_board(page, model)
    expect(page.get_by_role("listitem").filter(has=page.get_by_text("Hand 4", exact=True))).to_contain_text(
        "over eleven ignored"
    )
    # Lying down: no bidding (S0:91), so the stake and declined fields are gone; forfeit is offered.
    form = the_form(page)
    expect(group(form, "Stake")).to_have_count(0)
    expect(group(form, "Declined")).to_have_count(0)
    expect(group(form, "Forfeit")).to_be_visible()
    # A, lying down, gives the hand up: B +1 (S0:91).
    hand(5, forfeit=True)
    model.add(1, 1)
    expect_envite_board(page, model)
    # A, lying down, wins the next hand: A wins game 1 and the stones go back to 0 (S0:91).
    hand(6, a)
    model.win_game(0)
    expect(banner(page)).to_have_text(f"{a} win game 1")
    expect_envite_board(page, model)
    expect(group(the_form(page), "Stake")).to_be_visible()  # bidding is back

    # Game 2. B wins a 7; then A wins a hand played for the whole game (S0:77): the match.
    hand(7, b, "7")
    model.add(1, 7)
    expect_envite_board(page, model)
    expect(banner(page)).to_have_count(0)
    hand(8, a, "Game")
    model.win_game(0)
    assert model.games == [2, 0]
    expect(banner(page)).to_have_text(f"{a} win the match 2 games to 0")
    assert model.last_game == [12, 7]  # not the 0-0 a next game would start from
    expect_envite_board(page, model, over=True)
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("envite")


# == 4. Poke ====================================================================================

HONOURS = {  # S4:66-75; high card scores nothing (RULES PK-Q4)
    "Royal flush": 1000,
    "Straight flush": 750,
    "Four of a kind": 600,
    "Full house": 500,
    "Flush": 400,
    "Straight": 300,
    "Three of a kind": 200,
    "Two pair": 100,
    "One pair": 50,
    "High card": 0,
}


@dataclass
class Poke:
    """RULES.md 1.3.4: the scoresheet above and below the line, two players, the deal alternating."""

    dealer: int
    above: list[int] = field(default_factory=lambda: [0, 0])
    below: list[int] = field(default_factory=lambda: [0, 0])
    games: list[int] = field(default_factory=lambda: [0, 0])

    def play(self, tricks: tuple[int, int], draws: tuple[int, int], better: int | None, category: str | None) -> None:
        dealer, non_dealer = self.dealer, 1 - self.dealer
        # S4:59-60: a player's draws double or redouble the OPPONENT's tricks (PK-Q1, PK-Q2).
        times = {non_dealer: (1, 2, 4)[draws[non_dealer]], dealer: (1, 1, 2, 4)[draws[dealer]]}
        for side in (0, 1):
            self.below[side] += tricks[side] * times[1 - side]
            if tricks[side] == 5:
                self.above[side] += 250  # S4:76, never multiplied
        if better is not None:
            self.above[better] += HONOURS[category]
        if max(self.below) >= 20 and self.below[0] != self.below[1]:  # S4:79
            winner = 0 if self.below[0] > self.below[1] else 1
            self.above[winner] += 100
            self.games[winner] += 1
            self.below = [0, 0]
            if self.games[winner] == 2:  # S4:80
                self.above[winner] += 500 if self.games[1 - winner] else 750
        self.dealer = non_dealer  # S4:77


def expect_poke_sheet(page: Page, model: Poke) -> None:
    rows = board(page).get_by_role("row")
    expect(rows.nth(1).get_by_role("cell")).to_have_text([str(n) for n in model.above])
    expect(rows.nth(2).get_by_role("cell")).to_have_text([str(n) for n in model.below])
    expect(rows.nth(3).get_by_role("cell")).to_have_text([plural(g, "game") for g in model.games])


def enter_cards(page: Page, names: list[str], hands: list[list[str]]) -> bool:
    """Open "Or give both final hands as cards", then "Enter the cards instead", and pick each card's
    rank and suit; False if it cannot be done."""
    form = the_form(page)
    form.get_by_text("Or give both final hands as cards", exact=True).click()
    form.get_by_text("Enter the cards instead", exact=True).click()
    for name, cards in zip(names, hands):
        hand = form.locator(".hand").filter(has=page.get_by_text(name, exact=True))
        ranks = hand.get_by_role("combobox", name="rank")
        suits = hand.get_by_role("combobox", name="suit")
        expect(ranks).to_have_count(5)
        if ranks.first.locator("option").count() <= 1:
            return False  # nothing to choose from
        for n, card in enumerate(cards):
            ranks.nth(n).select_option(label=card[:-1])
            suits.nth(n).select_option(label=card[-1])
    return True


def test_poke_through_a_rubber(page: Page, shot) -> None:
    names = ["Ann", "Bob"]
    seat_players(page, "Poke", names)
    page.get_by_role("button", name="Start").click()
    model = Poke(dealer=0)
    expect_poke_sheet(page, model)

    # (tricks, draws, better hand, its category, or both final hands as cards)
    hands = [
        # Ann deals and draws twice (doubled): Bob's 2 tricks x2; Bob drew once (doubled): Ann's 3 x2.
        ((3, 2), (2, 1), 1, "Flush", None),
        # Bob deals and draws 3 times (redoubled), Ann twice (redoubled): 4 x4 = 16 and 1 x4; Ann 22: game 1.
        ((4, 1), (2, 3), 0, "Two pair", None),
        # Ann sweeps, nobody draws: 5 below, 250 above; her straight beats Bob's pair of kings.
        ((5, 0), (0, 0), None, None, [["5♥", "6♦", "7♣", "8♠", "9♥"], ["K♠", "K♦", "2♣", "3♦", "4♠"]]),
        # Bob deals; both draw twice: Ann (non-dealer) redoubles Bob's 2 tricks, Bob doubles Ann's 3.
        ((3, 2), (2, 2), None, None, None),
        # Ann deals, stands pat; Bob drew once (doubled): Ann 2 x2, Bob 3. Ann's high card scores nothing.
        ((2, 3), (0, 1), 0, "High card", None),
        # Bob deals, draws twice (doubled): Ann 3 x2 = 6 takes her to 21; Ann drew once: Bob 2 x2.
        # Bob's three of a kind +200; Ann wins game 2 and the rubber 2-0: +100 +750.
        ((3, 2), (1, 2), 1, "Three of a kind", None),
    ]
    for number, (tricks, draws, better, category, cards) in enumerate(hands, start=1):
        expect(page.get_by_role("heading", name=f"Hand {number} · {names[model.dealer]} deals")).to_be_visible()
        form = the_form(page)
        for side in (0, 1):
            tap(group(group(form, "Tricks"), names[side]), str(tricks[side]))
            tap(group(group(form, "Draws"), names[side]), str(draws[side]))
        by_cards = cards is not None
        if by_cards:
            assert enter_cards(page, names, cards), "the card pickers offer ranks and suits"
            better, category = 0, "Straight"  # Ann's straight beats Bob's pair (PK-Q5)
        else:
            tap(group(form, "Better hand"), names[better] if better is not None else "Nobody")
            if better is not None:
                tap(group(form, "Poker hand"), category)
        record(page, number)
        model.play(tricks, draws, better, category)
        expect_poke_sheet(page, model)
        if by_cards:
            expect(page.get_by_role("listitem").filter(has=page.get_by_text("Hand 3", exact=True))).to_contain_text(
                "straight beats one pair"
            )

    assert model.games == [2, 0] and model.above == [100 + 100 + 250 + 300 + 100 + 750, 400 + 200]
    expect(board(page).get_by_role("columnheader")).to_have_text(["Ann", "Bob"])
    expect(banner(page)).to_have_text("Ann wins 1600 to 600 above the line and the rubber 2-0")
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)
    shot("poke")
