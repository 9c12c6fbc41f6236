"""Pluck: three players, seventeen tricks, a quota each; tricks over the quota score (RULES.md 2.15,
seed S4:105-132, api/tally.md `pluck`).

The quotas follow the deal (S4:117-119): the dealer must take 7 tricks, the player on the dealer's
left 6, the player on the dealer's right 4; they add up to the 17 tricks. A player scores one point
per trick over the quota and nothing at or under it (S4:126). The deal passes left after every hand
(S4:127), so the app knows each seat's quota and the record is the tricks alone (tally.md ruling 4).

Each seat's `tricks - quota` in the last hand says how many plucks it makes (positive) or suffers
(negative) before the next hand (S4:129); with three players that fixes who plucks whom. Plucks
swap cards, never points: the app shows them and keeps no record of them (ruling 5).

After a hand that leaves a score at `target` (20, S4:132) or more the highest score wins, also when
two players pass it in the same hand; equal highest scores play another hand (`tie_at_end:
play_on`, the default) or share the win (`shared`) (ruling 6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, TieAtEnd, best_wins, end_reasons, holders, leading, tie_at_end_option
from .base import Board, Field, HandResult, Reason, Result, State, Table, added, plural, side_name, times

_PLAYERS = 3
_TRICKS = 17  # the 51-card pack dealt out, 17 cards each (S4:112)
_DEALER_QUOTA, _LEFT_QUOTA, _RIGHT_QUOTA = 7, 6, 4  # S4:117-119
_TARGET = 20  # S4:132
_MOST_TARGET = 100


class Rule(StrEnum):
    """Section ids of templates/rules/pluck.html that the reason lines link to."""

    QUOTAS = "quotas"
    SCORING = "scoring"
    PLUCKS = "plucks"
    END = "end"
    TIES = "ties"


@dataclass(frozen=True)
class PluckState(State):
    points: tuple[int, ...] = (0, 0, 0)
    plucks: tuple[int, ...] = (0, 0, 0)  # tricks - quota in the last hand (S4:129)


def quotas(table: Table, dealer: int) -> tuple[int, ...]:
    """Each seat's quota in a hand dealt by `dealer`: the dealer 7, the left 6, the right 4."""
    left = table.next_seat(dealer)
    by_seat = {dealer: _DEALER_QUOTA, left: _LEFT_QUOTA, table.next_seat(left): _RIGHT_QUOTA}
    return tuple(by_seat[seat] for seat in range(table.players))


class Pluck(Race):
    key = "pluck"
    name = "Pluck"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    rules = Rule
    state_class = PluckState
    options = (
        Field("target", "int", "Points that end the match: the highest score then wins.",
              default=_TARGET, min=1, max=_MOST_TARGET, label="Target"),
        tie_at_end_option(TieAtEnd.PLAY_ON, "Equal highest scores at the end: play another hand, or share the win."),
    )
    hand_fields = (
        Field("tricks", "per_side", "Tricks each player took; they add up to 17. The app knows the quotas.",
              min=0, max=_TRICKS, total=_TRICKS, total_in="a deal", label="Tricks",
              ask="How many tricks did each player take?"),
    )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: PluckState, record: Mapping) -> HandResult:
        tricks = record["tricks"]
        quota = quotas(state.table, state.dealer)
        over = [taken - needed for taken, needed in zip(tricks, quota)]
        changes = [max(0, extra) for extra in over]
        reasons = [self._seat_reason(seat, tricks[seat], quota[seat], changes[seat]) for seat in range(_PLAYERS)]
        reasons.append(Reason(_plucks_text(over), Rule.PLUCKS))
        after = state.evolve(points=added(state.points, changes), plucks=tuple(over))
        if self.reached(after) is not None:
            reasons += end_reasons(self.result(after), Rule.END, Rule.TIES)
        return HandResult(after, changes, reasons)

    @staticmethod
    def _seat_reason(seat: int, taken: int, quota: int, scored: int) -> Reason:
        took = f"{side_name(seat)}: {plural(taken, 'trick')} on a quota of {quota}"
        if scored:
            return Reason(f"{took}: +{plural(scored, 'point')}", Rule.SCORING)
        return Reason(f"{took}: nothing", Rule.SCORING)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: PluckState, called: bool = False) -> Result:
        highest = holders(state.points, max)
        high = plural(state.points[highest[0]], "point")
        if self.reached(state) is not None:  # ruling 6: the highest score wins
            return best_wins(highest, state.options, high)
        if not state.hands:
            return Result(False, None, f"First to {plural(self.target(state), 'point')}")
        return Result(False, None, leading(highest, high))

    def board(self, state: PluckState) -> Board:
        quota = quotas(state.table, state.dealer)
        sides = tuple(dataclasses.replace(side, lines=(f"Quota {quota[seat]}", _pluck_line(state.plucks[seat])))
                      for seat, side in enumerate(super().board(state).sides))
        return Board(sides, lines=(f"First to {plural(self.target(state), 'point')}",),
                     turn=(("Deals", state.dealer),))

    def public_state(self, state: PluckState) -> dict:
        return {
            "quotas": list(quotas(state.table, state.dealer)),
            "plucks": list(state.plucks),
            "winners": list(self.result(state).winners),
        }

    def example_hand(self, state: PluckState, rng) -> dict:
        first = rng.randint(0, _TRICKS)
        second = rng.randint(0, _TRICKS - first)
        tricks = [first, second, _TRICKS - first - second]
        rng.shuffle(tricks)
        return {"tricks": tricks}


def _pluck_line(plucks: int) -> str:
    if plucks > 0:
        return f"Plucks {plucks}"
    if plucks < 0:
        return f"Plucked {-plucks}"
    return "No plucks"


def _plucks_text(over: list[int]) -> str:
    """Who plucks whom before the next hand (S4:129): with three seats the signs fix it."""
    takers = [seat for seat in range(_PLAYERS) if over[seat] > 0]
    givers = [seat for seat in range(_PLAYERS) if over[seat] < 0]
    if not takers:
        return "Everybody made the quota exactly: no plucks next hand"
    if len(takers) == 1:
        taker = takers[0]
        parts = [f"{side_name(taker)} plucks {side_name(giver)} {times(-over[giver])}" for giver in givers]
    else:
        giver = givers[0]
        parts = [f"{side_name(taker)} plucks {side_name(giver)} {times(over[taker])}" for taker in takers]
    return "Next hand: " + ", ".join(parts)


from . import register  # noqa: E402  (at the bottom: the registry imports this module)

GAME = register(Pluck())
