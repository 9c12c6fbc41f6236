"""Polignac: three to six players dodge the jacks; penalty points, lower is better (RULES.md 2.11,
seed S3:433-463, api/tally.md `polignac`).

The whole pack is dealt and every trick is played (S3:447, S3:461), so each jack always ends in
somebody's tricks. The record names who took each of the four jacks; the J♠, the Polignac, costs
2 penalty points and each other jack 1 (S3:461), so a hand always gives out 5.

The deal passes to the next seat after every hand (tally.md ruling 1). After a hand that leaves a
score at `target` (10, S3:463) or more the lowest score wins; several players on the lowest score
share the win (`tie_at_end: shared`, the default) or play another hand (`play_on`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, TieAtEnd, best_wins, end_reasons, holders, tie_at_end_option
from .base import Board, Field, HandResult, Reason, Result, State, Table, added, names, plural, side_name

_MIN_PLAYERS, _MAX_PLAYERS = 3, 6  # S3:435
_TARGET = 10  # S3:463
_MOST_TARGET = 100
_POLIGNAC_POINTS = 2  # the J♠ (S3:461)
_JACK_POINTS = 1  # each other jack (S3:461)
_SUITS = ("spades", "hearts", "diamonds", "clubs")
_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}


class Rule(StrEnum):
    """Section ids of templates/rules/polignac.html that the reason lines link to."""

    JACKS = "jacks"
    END = "end"
    TIES = "ties"


@dataclass(frozen=True)
class PolignacState(State):
    penalties: tuple[int, ...] = ()


def jack_points(suit: str) -> int:
    return _POLIGNAC_POINTS if suit == "spades" else _JACK_POINTS


def _jack_field(suit: str) -> Field:
    cost = "the Polignac: 2 penalty points" if suit == "spades" else "1 penalty point"
    return Field(suit, "side", f"The J{_SYMBOLS[suit]} is {cost}.", label=f"J{_SYMBOLS[suit]}",
                 ask=f"Who took the J{_SYMBOLS[suit]}?")


class Polignac(Race):
    key = "polignac"
    name = "Polignac"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    unit = "penalty points"
    rules = Rule
    state_class = PolignacState
    totals = "penalties"
    options = (
        Field("target", "int", "Penalty points that end the match: the lowest score then wins.",
              default=_TARGET, min=1, max=_MOST_TARGET, label="Target"),
        tie_at_end_option(TieAtEnd.SHARED, "Several on the lowest score at the end: they share the win, or play on."),
    )
    hand_fields = (
        Field("jacks", "group", "Who took each jack in a trick; every jack always has a taker.",
              fields=tuple(_jack_field(suit) for suit in _SUITS), label="Jacks"),
    )

    def start(self, table: Table, options: Mapping) -> dict:
        return {"penalties": table.zeros()}

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: PolignacState, record: Mapping) -> HandResult:
        jacks = record["jacks"]
        changes = [0] * state.table.sides
        taken: dict[int, list[str]] = {}
        for suit in _SUITS:
            changes[jacks[suit]] += jack_points(suit)
            taken.setdefault(jacks[suit], []).append(f"J{_SYMBOLS[suit]}")
        reasons = [Reason(f"{side_name(side)} took {', '.join(cards)}: +{plural(changes[side], 'point')}", Rule.JACKS)
                   for side, cards in sorted(taken.items())]
        after = state.evolve(penalties=added(state.penalties, changes))
        if self.reached(after) is not None:
            reasons += end_reasons(self.result(after), Rule.END, Rule.TIES)
        return HandResult(after, changes, reasons)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: PolignacState, called: bool = False) -> Result:
        lowest = holders(state.penalties, min)
        low = state.penalties[lowest[0]]
        if self.reached(state) is None:
            if not state.hands:
                return Result(False, None, f"Lowest score wins once someone reaches {self.target(state)}")
            return Result(False, None, f"{names(lowest)} lowest on {plural(low, 'point')}")
        return best_wins(lowest, state.options, plural(low, "point"),
                         won=f"wins with the fewest penalty points, {low}", tied=f"tie for the lowest score, {low}")

    def board(self, state: PolignacState) -> Board:
        lines = (f"The match ends at {plural(self.target(state), 'point')}: lowest wins",)
        return dataclasses.replace(super().board(state), lines=lines, turn=(("Deals", state.dealer),),
                                   lower_is_better=True)

    def public_state(self, state: PolignacState) -> dict:
        return {"winners": list(self.result(state).winners)}

    def example_hand(self, state: PolignacState, rng) -> dict:
        return {"jacks": {suit: rng.randrange(state.table.sides) for suit in _SUITS}}


from . import register  # noqa: E402  (at the bottom: the registry imports this module)

GAME = register(Polignac())
