"""What a match's printed score sheet keeps for each side, hand by hand: what the hand scored and the
running total after it, in each kind of point the game keeps apart.

By default the sheet keeps one figure, the board's score ("Courts", "Points", "Tokens"...). A game
whose board keeps more than one kind of point, or a count that starts again, declares its own columns:

    class Poke(Game):
        sheet = (
            SheetColumn(msg("Above the line"), lambda state: state.above),
            SheetColumn(msg("Below the line"), lambda state: state.below, scored=_scored_below),
            SheetColumn(msg("Games"), lambda state: state.games),
        )

`totals(state)` gives each side's figure as the board shows it in a state (default: the board's
score); `scored(before, after, changes)` what a hand scored in it, where that is not what the totals
moved by: a count that starts again once a game is won (Poke's below the line, Envite's stones). Such
a hand's line shows the total it reached, and the line after it the totals the next hand starts from.
So the sheet's last line is always the board.

Every total is read from the state stored after a hand (the states are the record's), never added up
anew from the changes. This module imports only the text helpers (base.py imports it): it reads the
game it is given."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .texts import declared


@dataclass(frozen=True)
class SheetColumn:
    """One kind of point the sheet keeps per side (see the module's doc)."""

    label: str | None = None  # None: the game's unit ("Courts")
    totals: Callable[[Any], Sequence[int]] | None = None  # None: the board's score
    scored: Callable[[Any, Any, Sequence[int]], Sequence[int]] | None = None  # None: what the totals moved by


@dataclass(frozen=True)
class Figure:
    """One side's figure in one column on one line: what the hand scored (None on a line that only
    carries totals) and the total after it."""

    scored: int | None
    total: int


@dataclass(frozen=True)
class SheetLine:
    """A line of the sheet. `number`: the hand's; 0 for the totals before the first hand, None for the
    totals a count starts again from after a hand (its `game`: how many such lines so far, the games
    of the match won). `sides[side][column]`: a Figure."""

    number: int | None
    sides: tuple[tuple[Figure, ...], ...]
    game: int | None = None


def labels(game) -> list[str]:
    """Each column's heading: its label, or the game's unit with a capital."""
    return [column.label or declared(game.unit, capital=True) for column in game.sheet]


def totals(game, state) -> list[list[int]]:
    """Each column's totals per side in `state`."""
    board = [side.score for side in game.board(state).sides] if any(not c.totals for c in game.sheet) else None
    return [list(column.totals(state)) if column.totals else board for column in game.sheet]


def lines(game, start, hands: Iterable[tuple[Any, Sequence[int]]]) -> Iterator[SheetLine]:
    """The sheet from the state a match started in and each hand's (state after it, changes): the
    totals at the start where any is not 0 (chips or tokens handed out), then a line per hand, and
    after a hand where a count started again the totals the next one starts from."""
    before, then = start, totals(game, start)
    if any(any(column) for column in then):
        yield _line(0, then)
    restarts = 0
    for number, (after, changes) in enumerate(hands, start=1):
        now = totals(game, after)
        scored = [
            list(column.scored(before, after, changes)) if column.scored else [b - a for a, b in zip(old, new)]
            for column, old, new in zip(game.sheet, then, now)
        ]
        reached = [[a + gain for a, gain in zip(old, gains)] for old, gains in zip(then, scored)]
        yield _line(number, reached, scored)
        if reached != now:
            restarts += 1
            yield _line(None, now, game=restarts)
        before, then = after, now


def _line(
    number: int | None, figures: list[list[int]], scored: list[list[int]] | None = None, game: int | None = None
) -> SheetLine:
    """A line from each column's totals (and what the hand scored in it) per side, turned to per side."""
    sides = range(len(figures[0]))
    return SheetLine(
        number,
        tuple(
            tuple(
                Figure(None if scored is None else scored[column][side], figures[column][side])
                for column in range(len(figures))
            )
            for side in sides
        ),
        game,
    )
