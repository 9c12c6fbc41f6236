"""A throwaway game that records only who won each hand: the proof that a new game is one module.

Nothing else in the app knows it: no template, no form, no route. Three wins take the match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from scorekeeper.games.base import Field, Game, HandResult, Reason, Result, State, side_name

WINS = 3


class Rule(StrEnum):
    WIN = "win"


@dataclass(frozen=True)
class CoinState(State):
    wins: tuple[int, ...] = ()


class WinnerOnly(Game):
    key = "winner_only"
    name = "Winner Only"
    min_players = 2
    max_players = 5
    partnerships = False
    deals = False
    unit = "wins"
    rules = Rule
    state_class = CoinState
    hand_fields = (Field("winner", "side", "Who won the hand.", ask="Who won?"),)

    def start(self, table, options) -> dict:
        return {"wins": table.zeros()}

    def score_hand(self, state: CoinState, record: Mapping) -> HandResult:
        side = record["winner"]
        changes = [int(s == side) for s in range(state.table.sides)]
        wins = tuple(w + c for w, c in zip(state.wins, changes))
        return HandResult(state.evolve(wins=wins), changes, [Reason(f"{side_name(side)} +1", Rule.WIN)])

    def result(self, state: CoinState, called: bool = False) -> Result:
        for side, wins in enumerate(state.wins):
            if wins >= WINS:
                return Result(True, side, f"{side_name(side)} wins with {wins}")
        return Result(False, None, "first to three")

    def scores(self, state: CoinState) -> list[int]:
        return list(state.wins)

    def target(self, state) -> int:
        return WINS

    def example_hand(self, state, rng) -> dict:
        return {"winner": rng.randrange(state.table.sides)}
