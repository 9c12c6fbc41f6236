"""What the games that race to a target share: each side's running score, the target that ends the
match, and how the standing is said.

A game whose sides race to a target subclasses `Race` and names the `State` field holding each
side's score (`totals`, "points" by default) and the option setting the target (`target_option`,
"target" by default). `Race` then reads the scores and the target, says who reached it first, and
leaves a match whose target the table left empty to be called by `finish`. A target that is no
option (Chicago's 52) is given by overriding `target`.

The helpers below word what such games show: "A leads 5 to 3" or "Level at 4" while in play, and,
where the best score wins once the target is reached, the win, the shared win or the tie that
plays on (`tie_at_end`, one option for every game that has it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import ClassVar

from .base import Field, Game, Reason, Result, State, names, plural, side_does, side_name


class TieAtEnd(StrEnum):
    """Equal best scores once the target is reached: play another hand, or share the win."""

    PLAY_ON = "play_on"
    SHARED = "shared"


def tie_at_end_option(default: TieAtEnd, help: str) -> Field:
    """The `tie_at_end` option, its default listed first (as each game's API section lists it)."""
    others = tuple(tie.value for tie in TieAtEnd if tie is not default)
    return Field("tie_at_end", "choice", help, default=default.value, choices=(default.value, *others),
                 label="Tie at the end")


class Race(Game):
    """A game won by the first side to reach a target score (or, with no target, called by `finish`)."""

    totals: ClassVar[str] = "points"  # the State field holding each side's score
    target_option: ClassVar[str] = "target"

    def scores(self, state: State) -> list[int]:
        return list(getattr(state, self.totals))

    def target(self, state: State) -> int | None:
        return state.options.get(self.target_option)

    def ends_by_call(self, options: Mapping) -> bool:
        """A target the table may leave empty, and did: the match lasts until the table calls `finish`."""
        declared = next((fld for fld in self.options if fld.name == self.target_option), None)
        return declared is not None and declared.nullable and options.get(self.target_option) is None

    def reached(self, state: State) -> int | None:
        """The first side, in seat order, at or past the target."""
        return first_to(getattr(state, self.totals), self.target(state))

    def winner(self, state: State, called: bool = False) -> int | None:
        """The first side to reach the target or, once the table called `finish`, the one side with
        the most (None: nobody yet, or several share the most)."""
        reached = self.reached(state)
        if reached is not None or not called:
            return reached
        return sole(holders(getattr(state, self.totals), max))


def first_to(totals: Sequence[int], target: int | None) -> int | None:
    """The first side, in seat order, at or past `target` (None: nobody yet, or no target)."""
    if target is None:
        return None
    return next((side for side, total in enumerate(totals) if total >= target), None)


def holders(tally: Sequence[int], best: Callable = max, among: Sequence[int] | None = None) -> tuple[int, ...]:
    """The sides (of `among`, by default every side) whose tally is the `best` (max or min) of theirs."""
    sides = range(len(tally)) if among is None else among
    top = best(tally[side] for side in sides)
    return tuple(side for side in sides if tally[side] == top)


def sole(sides: Sequence[int]) -> int | None:
    """The one side of `sides`, or None when there are none or several (a shared best is no win)."""
    return sides[0] if len(sides) == 1 else None


def lead_or_level(totals: Sequence[int], unit: str | None = None, *, suffix: str = "",
                  nothing: str | None = None) -> str:
    """Two sides in play: "A leads 5 to 3" or "Level at 4", then `suffix` ("(game to 10)"). With a
    `unit`: "A leads 5 courts to 3", "Level at 2 courts each". `nothing`: the line while both have 0."""
    first, second = totals
    if first == second:
        if nothing and first == 0:
            return nothing
        return f"Level at {plural(first, unit)} each{suffix}" if unit else f"Level at {first}{suffix}"
    leader = 0 if first > second else 1
    top = plural(totals[leader], unit) if unit else totals[leader]
    return f"{side_does(leader, 'leads')} {top} to {totals[1 - leader]}{suffix}"


def wins(side: int, totals: Sequence[int], what: str = "", unit: str | None = None) -> str:
    """"A wins 10 to 7"; with `what` and a `unit`, "A wins the match 7 courts to 3": two sides."""
    top = plural(totals[side], unit) if unit else totals[side]
    return f"{side_does(side, 'wins')}{what} {top} to {totals[1 - side]}"


def each_side(totals: Sequence[int], target: int | None) -> str:
    """"A 3, B 5 (game to 7)": every side's score in seat order, and the target."""
    return ", ".join(f"{side_name(side)} {total}" for side, total in enumerate(totals)) + f" (game to {target})"


def leading(best: Sequence[int], score: str) -> str:
    """"A leads with 5 points", "A and C lead with 5 points": the best score so far, and who holds it."""
    return f"{names(best)} {'leads' if len(best) == 1 else 'lead'} with {score}"


def best_wins(best: tuple[int, ...], options: Mapping, score: str, *, won: str | None = None,
              tied: str | None = None, **more) -> Result:
    """The end of a match that the best score wins: one side alone "wins with <score>"; several
    share the win or play on, as `tie_at_end` says. `won` and `tied` word what follows the names
    where a game says it otherwise; `more` goes to the Result (`out`)."""
    who = names(best)
    if len(best) == 1:
        return Result(True, best[0], f"{who} {won or f'wins with {score}'}", winners=best, **more)
    if options["tie_at_end"] == TieAtEnd.SHARED:
        return Result(True, None, f"{who} share the win on {score}", winners=best, **more)
    return Result(False, None, f"{who} {tied or f'tie on {score}'}", **more)


def end_reasons(result: Result, end: str, ties: str) -> list[Reason]:
    """The last line of a hand that reached the target: the result (a shared win under the `ties`
    rule), or why equal best scores play one more hand."""
    if result.over:
        return [Reason(result.headline, ties if len(result.winners) > 1 else end)]
    return [Reason(f"{result.headline}: one more hand", ties)]
