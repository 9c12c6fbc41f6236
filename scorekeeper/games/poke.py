"""Poke (Sid Sackson): two players draw to a poker hand, then play it out as five tricks.

Scoring, RULES.md 1.3 (seed S4:49-80), kept on a bridge-style sheet with a line across it:
- Drawing puts a player under a multiplier (S4:59-60, PK-Q2): the non-dealer is doubled by one
  draw and redoubled by a second; the dealer's first draw is free, a second doubles, a third
  redoubles. A player's own multiplier applies to the OPPONENT's tricks (S4:59, S4:65, PK-Q1):
  each trick scores 1, 2 or 4 below the line.
- The better poker hand scores honours above the line (S4:66-76): royal flush 1000 down to one
  pair 50; high card scores nothing (PK-Q4) and equal hands score nothing (PK-Q3). The table may
  name the better hand and its category, or enter both hands' cards and let `poker` decide.
- Taking all five tricks adds a flat `sweep_bonus` (250) above the line, never multiplied; the
  tricks still score below (S4:76, PK-Q9).
- A game is won by the player ahead once someone has `game_target` (20) below the line; equal
  scores at or past the target play on (S4:79, PK-Q6). The winner takes `game_bonus` (100) above
  the line for every game (PK-Q7) and both below-line scores go back to 0.
- Two games win the rubber, with `rubber_bonus_2_1` (500) or `rubber_bonus_2_0` (750) above the
  line (S4:80). The match then goes to the higher total ABOVE the line only (S4:80, PK-Q8), so
  the rubber winner can lose; equal totals are a draw (PK-Q11).
- The deal alternates every hand (S4:77).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from . import poker
from .base import (
    Field,
    Game,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    State,
    Text,
    counted,
    msg,
    names,
    side_name,
    times,
)
from .poker import Category
from .reference import DENEXA, OWN, HouseRule, Reference, Source, Term, by_number
from .sheet import SheetColumn
from .statistics import Statistic

_PLAYERS = 2
_TRICKS = 5  # S4:65: all five tricks are played out
_GAMES_FOR_RUBBER = 2  # S4:80
_STATUS = {
    # Translators: Poke: a player's draws double the opponent's tricks
    2: msg("doubled"),
    # Translators: Poke: a player's draws redouble the opponent's tricks
    4: msg("redoubled"),
}
# Honours for the better hand (S4:67-75); high card is not in the seed's table (PK-Q4).
_HONOURS = {
    Category.ROYAL_FLUSH: 1000,
    Category.STRAIGHT_FLUSH: 750,
    Category.FOUR_OF_A_KIND: 600,
    Category.FULL_HOUSE: 500,
    Category.FLUSH: 400,
    Category.STRAIGHT: 300,
    Category.THREE_OF_A_KIND: 200,
    Category.TWO_PAIR: 100,
    Category.ONE_PAIR: 50,
    Category.HIGH_CARD: 0,
}


class _Role(StrEnum):
    """Dealer or not decides what each draw costs."""

    DEALER = "dealer"
    NON_DEALER = "non-dealer"


# The multiplier after 0, 1, 2 (3) draws (S4:59-60); it multiplies the OPPONENT's tricks.
_MULTIPLIER = {
    _Role.NON_DEALER: (1, 2, 4),
    _Role.DEALER: (1, 1, 2, 4),
}
# How a reason line names the role (Poke).
_ROLE_TEXT = {
    # Translators: Poke: the player who dealt this hand
    _Role.DEALER: msg("dealer"),
    # Translators: Poke: the player who did not deal this hand
    _Role.NON_DEALER: msg("non-dealer"),
}
_NON_DEALER_MAX_DRAWS = len(_MULTIPLIER[_Role.NON_DEALER]) - 1  # S4:59: pat, doubled, redoubled
_DEALER_MAX_DRAWS = len(_MULTIPLIER[_Role.DEALER]) - 1  # S4:60: a free draw, then doubled, redoubled


class Rule(StrEnum):
    """Section ids of templates/rules/poke.html that the reason lines link to."""

    TRICKS = "tricks"
    HONOURS = "honours"
    SWEEP = "sweep"
    GAME = "game"
    RUBBER = "rubber"
    RESULT = "result"


@dataclass(frozen=True)
class PokeState(State):
    """The scoresheet: points above and below the line, and games won in the rubber, per player."""

    above: tuple[int, int] = (0, 0)
    below: tuple[int, int] = (0, 0)
    games: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class _Honours:
    """Who had the better poker hand and what it scores; `side` None when the hands were equal."""

    side: int | None
    points: int
    text: Text


def _bonus(name: str, default: int, help_text: str, label: str | None = None) -> Field:
    return Field(name, "int", help_text, default=default, min=0, max=10000, label=label)


def _role(state: State, side: int) -> _Role:
    return _Role.DEALER if side == state.dealer else _Role.NON_DEALER


def _multiplier(state: State, side: int, draws: int) -> int:
    """What `side`'s draws multiply the opponent's tricks by."""
    return _MULTIPLIER[_role(state, side)][draws]


def _add(pair: tuple[int, int], side: int, points: int) -> tuple[int, int]:
    out = list(pair)
    out[side] += points
    return (out[0], out[1])


def _scored_below(before: PokeState, after: PokeState, changes: list[int]) -> list[int]:
    """What a hand scored below the line: its changes less what it scored above (the totals below
    cannot tell: a game won wipes them)."""
    return [change - (now - then) for change, then, now in zip(changes, before.above, after.above)]


class Poke(Game):
    key = "poke"
    name = "Poke"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    listed = 2
    rules = Rule
    state_class = PokeState
    options = (
        Field(
            "game_target",
            "int",
            "Points below the line that win a game (ties play on).",
            default=20,
            min=1,
            max=1000,
            label="Game target",
        ),
        _bonus("game_bonus", 100, "Points above the line for winning a game."),
        _bonus(
            "rubber_bonus_2_1",
            500,
            "Rubber bonus above the line when the loser won a game.",
            "Rubber bonus (2 games to 1)",
        ),
        _bonus(
            "rubber_bonus_2_0",
            750,
            "Rubber bonus above the line when the loser won no game.",
            "Rubber bonus (2 games to 0)",
        ),
        _bonus("sweep_bonus", 250, "Points above the line for taking all five tricks (not multiplied)."),
    )
    hand_fields = (
        Field("tricks", "per_side", "Tricks each player took; they add up to 5.", min=0, max=_TRICKS, total=_TRICKS),
        Field(
            "draws",
            "per_side",
            "How many times each player drew: the non-dealer 0 to 2, the dealer 0 to 3.",
            preset=0,
            min=0,
            max=_DEALER_MAX_DRAWS,
        ),
        Field(
            "better_hand",
            "side",
            "The player with the better poker hand; leave empty when they are equal.",
            default=None,
            nullable=True,
            label="Better hand",
        ),
        Field(
            "poker_hand",
            "choice",
            "The better hand's category.",
            default=None,
            nullable=True,
            choices=poker.CATEGORY_KEYS,
            when=("better_hand", (0, 1)),
            label="Poker hand",
        ),
        Field(
            "cards",
            "cards",
            "Instead of naming the better hand: both final hands, and the app decides.",
            default=None,
            nullable=True,
            label="Cards",
        ),
    )

    asked_first = ("tricks", "better_hand", "poker_hand")  # the draws, mostly none, after the hand
    record_forms = (
        RecordForm("category", ("better_hand", "poker_hand"), "the better hand and its category"),
        RecordForm("cards", ("cards",), "both final hands as cards"),
    )

    reference = Reference(
        line=msg("Sid Sackson's two-player game: draw a poker hand, then play it out as five tricks."),
        sources=(
            Source("Poke", DENEXA),
            Source(msg("Standard poker ranking"), msg("comparing two hands of the same kind"), standard=True),
            OWN,
        ),
        house_rules={
            "game_target": HouseRule(
                "game",
                counted=by_number(
                    "a game is won at %(num)d point below the line", "a game is won at %(num)d points below the line"
                ),
            ),
            # Translators: %(points)s is a number of points
            "game_bonus": HouseRule("game", worded=msg("each game won adds %(points)s above the line")),
            # Translators: %(points)s is a number of points
            "rubber_bonus_2_1": HouseRule("rubber", worded=msg("a rubber won 2–1 adds %(points)s")),
            # Translators: %(points)s is a number of points
            "rubber_bonus_2_0": HouseRule("rubber", worded=msg("a rubber won 2–0 adds %(points)s")),
            # Translators: %(points)s is a number of points
            "sweep_bonus": HouseRule("sweep", worded=msg("all five tricks add %(points)s above the line")),
        },
        terms=(
            Term(
                "below the line", "tricks", msg("Poke's trick points: they decide games and are wiped after each one.")
            ),
            Term(
                "above the line",
                "honours",
                msg("Poke's lasting score: honours, sweeps and bonuses; it decides the match."),
            ),
            Term("honours", "honours", msg("Points above the line for the better poker hand.")),
            Term("stand pat", "the-draw", msg("Keep the five cards you were dealt: no draw.")),
            Term(
                "redouble",
                "the-draw",
                msg(
                    "In Poke, drawing a second time (the dealer: a third): the other player's tricks count four times."
                ),
            ),
            Term("rubber", "rubber", msg("Poke's match: the first player to win two games.")),
            Term("sweep", "sweep", msg("In Poke, all five tricks: 250 above the line.")),
        ),
    )

    # -- validation -------------------------------------------------------------------------
    def validate(self, state: PokeState, record: dict) -> None:
        self._check_draws(state, record)
        if self.value(record, "better_hand") is not None and self.value(record, "poker_hand") is None:
            raise RecordError(msg("Poker hand must be given: the category of the better hand."), "poker_hand")

    def _check_draws(self, state: PokeState, record: dict) -> None:
        draws = record["draws"]
        non_dealer = state.table.next_seat(state.dealer)
        if draws[non_dealer] > _NON_DEALER_MAX_DRAWS:
            message = msg(
                "Draws: %(side)s is the non-dealer this hand, and the non-dealer can draw at most twice.",
                side=side_name(non_dealer),
            )
            raise RecordError(message, "draws")

    # -- scoring ----------------------------------------------------------------------------
    def score_hand(self, state: PokeState, record: Mapping) -> HandResult:
        changes = [0, 0]
        reasons: list[Reason] = []
        below = self._score_tricks(state, record, changes, reasons)
        above = self._score_above(state, record, changes, reasons)
        new = state.evolve(above=above, below=below)
        new, winner = self._settle_game(new, changes, reasons)
        return HandResult(new, changes, reasons, game_winner=winner)

    def _score_tricks(
        self, state: PokeState, record: Mapping, changes: list[int], reasons: list[Reason]
    ) -> tuple[int, int]:
        tricks, draws = self.value(record, "tricks"), self.value(record, "draws")
        below = state.below
        for side in (0, 1):
            other = 1 - side
            multiplier = _multiplier(state, other, draws[other])
            points = tricks[side] * multiplier
            below = _add(below, side, points)
            changes[side] += points
            if tricks[side]:
                reasons.append(
                    Reason(self._tricks_text(state, side, tricks[side], draws[other], multiplier), Rule.TRICKS)
                )
        return below

    def _tricks_text(self, state: PokeState, side: int, tricks: int, their_draws: int, multiplier: int) -> Text:
        if multiplier == 1:
            return counted(
                tricks,
                "%(side)s: %(num)s trick = %(num)s below the line",
                "%(side)s: %(num)s tricks = %(num)s below the line",
                side=side_name(side),
            )
        other = 1 - side
        cause = msg(
            "%(side)s, %(role)s, drew %(times)s: %(status)s",
            side=side_name(other),
            role=_ROLE_TEXT[_role(state, other)],
            times=times(their_draws),
            status=_STATUS[multiplier],
        )
        return counted(
            tricks,
            "%(side)s: %(num)s trick x%(multiplier)s (%(cause)s) = %(points)s below the line",
            "%(side)s: %(num)s tricks x%(multiplier)s (%(cause)s) = %(points)s below the line",
            side=side_name(side),
            multiplier=multiplier,
            cause=cause,
            points=tricks * multiplier,
        )

    def _score_above(
        self, state: PokeState, record: Mapping, changes: list[int], reasons: list[Reason]
    ) -> tuple[int, int]:
        above = state.above
        honours = self._honours(record)
        if honours.side is not None:
            above = _add(above, honours.side, honours.points)
            changes[honours.side] += honours.points
        reasons.append(Reason(honours.text, Rule.HONOURS))
        tricks = self.value(record, "tricks")
        for side in (0, 1):
            if tricks[side] == _TRICKS:
                bonus = state.options["sweep_bonus"]
                above = _add(above, side, bonus)
                changes[side] += bonus
                reasons.append(Reason(msg("%(side)s: sweep +%(bonus)s", side=side_name(side), bonus=bonus), Rule.SWEEP))
        return above

    def _honours(self, record: Mapping) -> _Honours:
        cards = self.value(record, "cards")
        if cards is not None:
            return _honours_from_cards(cards)
        side = self.value(record, "better_hand")
        if side is None:
            return _Honours(None, 0, msg("equal poker hands: no honours"))
        category = Category.from_key(self.value(record, "poker_hand"))
        return _honours_for(
            side, category, msg("%(side)s: better hand, %(category)s", side=side_name(side), category=category.label)
        )

    def _settle_game(self, state: PokeState, changes: list[int], reasons: list[Reason]) -> tuple[PokeState, int | None]:
        below, target = state.below, state.options["game_target"]
        if max(below) < target:
            return state, None
        if below[0] == below[1]:
            text = msg("%(sides)s tie on %(points)s below the line: play on", sides=names((0, 1)), points=below[0])
            reasons.append(Reason(text, Rule.GAME))
            return state, None
        winner = 0 if below[0] > below[1] else 1
        state = self._win_game(state, winner, changes, reasons)
        return state, winner

    def _win_game(self, state: PokeState, winner: int, changes: list[int], reasons: list[Reason]) -> PokeState:
        bonus = state.options["game_bonus"]
        games = _add(state.games, winner, 1)
        above = _add(state.above, winner, bonus)
        changes[winner] += bonus
        text = msg("%(side)s wins game %(number)s: +%(bonus)s", side=side_name(winner), number=sum(games), bonus=bonus)
        reasons.append(Reason(text, Rule.GAME))
        if games[winner] == _GAMES_FOR_RUBBER:
            loser_games = games[1 - winner]
            bonus = state.options["rubber_bonus_2_1" if loser_games else "rubber_bonus_2_0"]
            above = _add(above, winner, bonus)
            changes[winner] += bonus
            text = msg(
                "%(side)s wins the rubber %(won)s-%(lost)s: +%(bonus)s",
                side=side_name(winner),
                won=games[winner],
                lost=loser_games,
                bonus=bonus,
            )
            reasons.append(Reason(text, Rule.RUBBER))
        state = state.evolve(above=above, below=(0, 0), games=games)
        standing = self.result(state)
        if standing.over:
            reasons.append(Reason(standing.headline, Rule.RESULT))
        return state

    # -- standing ---------------------------------------------------------------------------
    def result(self, state: PokeState, called: bool = False) -> Result:
        rubber = _rubber_winner(state)
        if rubber is None:
            return Result(False, None, _progress(state))
        above = state.above
        rubber_text = msg(
            "%(side)s won the rubber %(won)s-%(lost)s",
            side=side_name(rubber),
            won=state.games[rubber],
            lost=state.games[1 - rubber],
        )
        if above[0] == above[1]:
            return Result(
                True,
                None,
                msg("Draw: both have %(points)s above the line (%(rubber)s)", points=above[0], rubber=rubber_text),
            )
        winner = 0 if above[0] > above[1] else 1
        totals = {"side": side_name(winner), "top": above[winner], "other": above[1 - winner]}
        if winner == rubber:
            return Result(
                True,
                winner,
                msg(
                    "%(side)s wins %(top)s to %(other)s above the line and the rubber %(won)s-%(lost)s",
                    won=state.games[winner],
                    lost=state.games[1 - winner],
                    **totals,
                ),
            )
        return Result(
            True,
            winner,
            msg("%(side)s wins %(top)s to %(other)s above the line, though %(rubber)s", rubber=rubber_text, **totals),
        )

    def scores(self, state: PokeState) -> list[int]:
        return list(state.above)

    # A match is one rubber; the sheet's total is above the line (the rubber's winner can lose it).
    # A hand's changes hold its trick points below the line too: the history's average and best hand
    # count only what it scored above the line, as the board's total does.
    hands_on_board = True
    # The score sheet keeps the two kinds of point apart, in the board's order, and the games won.
    sheet = (
        # Translators: Poke's score sheet, a column: honours and bonuses, that decide the match
        SheetColumn(msg("Above the line"), lambda state: state.above),
        # Translators: Poke's score sheet, a column: the trick points, that decide the game
        SheetColumn(msg("Below the line"), lambda state: state.below, scored=_scored_below),
        # Translators: Poke's score sheet, a column: games won toward the rubber
        SheetColumn(msg("Games"), lambda state: state.games),
    )
    statistics = (
        Statistic("rubbers_won", "Rubbers won", lambda done, side: int(done.state.games[side] >= _GAMES_FOR_RUBBER)),
        Statistic("points_above", "Points above the line", lambda done, side: done.state.above[side]),
    )

    def example_hand(self, state: PokeState, rng) -> dict:
        won = rng.randrange(_TRICKS + 1)
        draws = [0, 0]
        draws[state.dealer] = rng.randrange(_DEALER_MAX_DRAWS + 1)
        draws[state.table.next_seat(state.dealer)] = rng.randrange(_NON_DEALER_MAX_DRAWS + 1)
        record = {"tricks": [won, _TRICKS - won], "draws": draws}
        if rng.random() < 0.5:
            record.update(better_hand=rng.randrange(2), poker_hand=rng.choice(poker.CATEGORY_KEYS))
        return record

    def public_state(self, state: PokeState) -> dict:
        return {
            "above": list(state.above),
            "below": list(state.below),
            "games": list(state.games),
            "game_target": state.options["game_target"],
            "game_number": sum(state.games) + (0 if _rubber_winner(state) is not None else 1),
        }


def _honours_for(side: int, category: Category, text: Text) -> _Honours:
    points = _HONOURS[category]
    if not points:
        return _Honours(side, 0, msg("%(hand)s: no honours for high card", hand=text))
    return _Honours(side, points, msg("%(hand)s: +%(points)s honours", hand=text, points=points))


def _honours_from_cards(cards: list[list[str]]) -> _Honours:
    """The better hand decided by the standard ranking (PK-Q5); equal hands score nothing (PK-Q3)."""
    values = [poker.evaluate(hand) for hand in cards]
    if values[0] == values[1]:
        return _Honours(
            None, 0, msg("equal poker hands (%(category)s each): no honours", category=values[0].category.label)
        )
    side = 0 if values[0] > values[1] else 1
    mine, theirs = values[side].category, values[1 - side].category
    if mine == theirs:
        text = msg("%(side)s: the higher %(category)s", side=side_name(side), category=mine.label)
    else:
        text = msg("%(side)s: %(mine)s beats %(theirs)s", side=side_name(side), mine=mine.label, theirs=theirs.label)
    return _honours_for(side, mine, text)


def _rubber_winner(state: PokeState) -> int | None:
    for side in (0, 1):
        if state.games[side] >= _GAMES_FOR_RUBBER:
            return side
    return None


def _progress(state: PokeState) -> Text:
    below, games = state.below, state.games
    # Translators: Poke's headline during a rubber
    return msg(
        "Game %(number)s: below the line %(side0)s %(below0)s, %(side1)s %(below1)s; games %(games0)s-%(games1)s",
        number=sum(games) + 1,
        side0=side_name(0),
        below0=below[0],
        side1=side_name(1),
        below1=below[1],
        games0=games[0],
        games1=games[1],
    )


GAME = Poke()
