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
record, change, game won and state) and a side, and answers with a whole number for that side, or None where
the figure does not apply to that match. `keep` says how one player's matches of the game add up:
TOTAL (added up, and shown per match too), MOST or LEAST (the best of them), AVERAGE (per match).

The helpers below are the counts several games share (hands a side won, what it gained and gave up
over the hands, its longest run); a count that reads the states after the hands (`Finished.states`)
decodes them once for all the game's statistics.

This module imports nothing from the web, nor anything that does: the history reads it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

TOTAL, MOST, LEAST, AVERAGE = "total", "most", "least", "average"
KEEPS = (TOTAL, MOST, LEAST, AVERAGE)


class FinishedHand(Protocol):
    """One hand of a finished match, as a statistic reads it."""

    number: int
    record: Mapping[str, Any]  # the hand as the table recorded it (the engine's checked record)
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

    @cached_property
    def states(self) -> tuple:
        """The state after each hand, in play order (decoded once, however many statistics read them)."""
        return tuple(hand.state for hand in self.hands)

    def before_each(self, start: Any) -> list[tuple[Any, FinishedHand]]:
        """Each hand with the state it was played from: `start` (the match's opening state) for the first."""
        return list(zip((start, *self.states[:-1]), self.hands))


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


# -- counts several games share -------------------------------------------------------------------


def gained(done: Finished, side: int) -> int:
    """What the side's total changed by, added up over the hands where it went up."""
    return sum(hand.changes[side] for hand in done.hands if hand.changes[side] > 0)


def given_up(done: Finished, side: int) -> int:
    """What the side's total changed by, added up over the hands where it went down (as a positive number)."""
    return -sum(hand.changes[side] for hand in done.hands if hand.changes[side] < 0)


def hands_scored(done: Finished, side: int) -> int:
    """The hands in which the side's total went up (a game where only a hand's winner scores: hands won)."""
    return sum(1 for hand in done.hands if hand.changes[side] > 0)


def sole(sides: Iterable[int]) -> int | None:
    """The one side of `sides`, or None when there are none or several."""
    found = tuple(sides)
    return found[0] if len(found) == 1 else None


def sole_scorer(changes: Sequence[int]) -> int | None:
    """The one side whose total went up in a hand, or None (nobody scored, or several did)."""
    return sole(side for side, change in enumerate(changes) if change > 0)


def longest_run(winners: Iterable[int | None], side: int) -> int:
    """The most hands in a row that `side` won, from each hand's winner in play order (None: nobody)."""
    longest = run = 0
    for winner in winners:
        run = run + 1 if winner == side else 0
        longest = max(longest, run)
    return longest


def board_moves(done: Finished, start: Any, scores: Callable[[Any], Sequence[int]]) -> list[list[int]]:
    """What each hand moved the board's total by, per side: `scores` (the game's) of the state after
    it less that of the state before it (`start`, the match's opening state, before the first)."""
    totals = [scores(start), *(scores(state) for state in done.states)]
    return [[now - then for then, now in zip(before, after)] for before, after in zip(totals, totals[1:])]


def longest_run_scoring(done: Finished, side: int) -> int:
    """The most hands in a row the side won, where a hand's winner is the one side that scored in it."""
    return longest_run((sole_scorer(hand.changes) for hand in done.hands), side)
