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

from .base import Board, Field, Game, HandResult, Reason, Result, State, Table, side_name

_MIN_PLAYERS, _MAX_PLAYERS = 3, 6  # S3:435
_TARGET = 10  # S3:463
_MOST_TARGET = 100
_POLIGNAC_POINTS = 2  # the J♠ (S3:461)
_JACK_POINTS = 1  # each other jack (S3:461)
_SUITS = ("spades", "hearts", "diamonds", "clubs")
_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}


class TieAtEnd(StrEnum):
    SHARED = "shared"
    PLAY_ON = "play_on"


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


def _points(number: int) -> str:
    return f"{number} point" if number == 1 else f"{number} points"


class Polignac(Game):
    key = "polignac"
    name = "Polignac"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    unit = "penalty points"
    rules = Rule
    state_class = PolignacState
    options = (
        Field("target", "int", "Penalty points that end the match: the lowest score then wins.",
              default=_TARGET, min=1, max=_MOST_TARGET, label="Target"),
        Field("tie_at_end", "choice", "Several on the lowest score at the end: they share the win, or play on.",
              default=TieAtEnd.SHARED.value, choices=tuple(tie.value for tie in TieAtEnd), label="Tie at the end"),
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
        reasons = [Reason(f"{side_name(side)} took {', '.join(cards)}: +{_points(changes[side])}", Rule.JACKS)
                   for side, cards in sorted(taken.items())]
        after = state.evolve(penalties=tuple(total + change for total, change in zip(state.penalties, changes)))
        reasons += self._end_reasons(after)
        return HandResult(after, changes, reasons)

    def _end_reasons(self, state: PolignacState) -> list[Reason]:
        if not self._target_reached(state):
            return []
        standing = self.result(state)
        if standing.over:
            return [Reason(standing.headline, Rule.TIES if len(standing.winners) > 1 else Rule.END)]
        return [Reason(f"{standing.headline}: one more hand", Rule.TIES)]

    # -- reading ------------------------------------------------------------------------------
    def _target_reached(self, state: PolignacState) -> bool:
        return max(state.penalties) >= state.options["target"]

    def _lowest(self, state: PolignacState) -> tuple[int, ...]:
        low = min(state.penalties)
        return tuple(side for side, total in enumerate(state.penalties) if total == low)

    def result(self, state: PolignacState, called: bool = False) -> Result:
        lowest = self._lowest(state)
        low = state.penalties[lowest[0]]
        names = " and ".join(side_name(side) for side in lowest)
        if not self._target_reached(state):
            return Result(False, None, self._progress(state))
        if len(lowest) == 1:
            return Result(True, lowest[0], f"{names} wins with the fewest penalty points, {low}",
                          winners=lowest)
        if state.options["tie_at_end"] == TieAtEnd.SHARED:
            return Result(True, None, f"{names} share the win on {_points(low)}", winners=lowest)
        return Result(False, None, f"{names} tie for the lowest score, {low}")

    def _progress(self, state: PolignacState) -> str:
        if not state.hands:
            return f"Lowest score wins once someone reaches {state.options['target']}"
        leaders = " and ".join(side_name(side) for side in self._lowest(state))
        return f"{leaders} lowest on {_points(min(state.penalties))}"

    def scores(self, state: PolignacState) -> list[int]:
        return list(state.penalties)

    def target(self, state: State) -> int | None:
        return state.options["target"]

    def board(self, state: PolignacState) -> Board:
        lines = (f"The match ends at {_points(state.options['target'])}: lowest wins",)
        return dataclasses.replace(super().board(state), lines=lines, turn=(("Deals", state.dealer),),
                                   lower_is_better=True)

    def public_state(self, state: PolignacState) -> dict:
        return {"winners": list(self.result(state).winners)}

    def example_hand(self, state: PolignacState, rng) -> dict:
        return {"jacks": {suit: rng.randrange(state.table.sides) for suit in _SUITS}}


from . import register  # noqa: E402  (at the bottom: the registry imports this module)

GAME = register(Polignac())
