"""What a game declares about its own statistics, beside its board (the history counts the rest).

A game module lists the figures its table counts, one `Statistic` each, and nothing else in the
app names them:

    from .statistics import Finished, Statistic

    class CourtPiece(Race):
        statistics = (
            Statistic("courts", "Courts won", lambda done, side: done.state.courts[side]),
            Statistic("longest_run", "Longest run of hands", longest_run, keep=MOST),
        )

Each `count` is given a finished match (`Finished`: its final state, its result and every hand's
change, game won and state) and a side, and answers with a whole number for that side, or None where
the figure does not apply to that match. `keep` says how one player's matches of the game add up:
TOTAL (added up, and shown per match too), MOST or LEAST (the best of them), AVERAGE (per match).

This module imports nothing from the web, nor anything that does: the history reads it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

TOTAL, MOST, LEAST, AVERAGE = "total", "most", "least", "average"
KEEPS = (TOTAL, MOST, LEAST, AVERAGE)


class FinishedHand(Protocol):
    """One hand of a finished match, as a statistic reads it."""

    number: int
    changes: Sequence[int]  # what the hand scored for each side
    game_winner: int | None  # the side that won a game of the match with this hand, if any

    @property
    def state(self) -> Any:  # the state after the hand (decoded when first asked for)
        ...


@dataclass(frozen=True)
class Finished:
    """A finished match as its game's statistics read it."""

    state: Any  # the engine's final state
    result: Any  # the engine's Result
    table: Any  # the engine's Table
    hands: Sequence[FinishedHand]

    @cached_property
    def sides(self) -> int:
        return self.table.sides


@dataclass(frozen=True)
class Statistic:
    """One figure a game counts for each side of a finished match."""

    key: str  # stored under this name: never renamed once matches are counted with it
    label: str  # as the player page shows it: "Courts won"
    count: Callable[[Finished, int], int | None]
    keep: str = TOTAL

    def __post_init__(self):
        if self.keep not in KEEPS:
            raise ValueError(f"{self.key}: keep must be one of {', '.join(KEEPS)}, not {self.keep!r}")
