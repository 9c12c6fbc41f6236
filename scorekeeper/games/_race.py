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

from .base import Field, Game, Reason, Result, State, Text, agreeing, counted, joined, msg, names, side_name


class TieAtEnd(StrEnum):
    """Equal best scores once the target is reached: play another hand, or share the win."""

    PLAY_ON = "play_on"
    SHARED = "shared"


def tie_at_end_option(default: TieAtEnd, help: str) -> Field:
    """The `tie_at_end` option, its default listed first (as each game's API section lists it)."""
    others = tuple(tie.value for tie in TieAtEnd if tie is not default)
    return Field(
        "tie_at_end", "choice", help, default=default.value, choices=(default.value, *others), label="Tie at the end"
    )


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


Units = Callable[[int], Text]  # a count with its word: `lambda n: counted(n, "%(num)s court", "%(num)s courts")`


def lead_or_level(
    totals: Sequence[int], unit: Units | None = None, *, game_to: int | None = None, nothing: Text | None = None
) -> Text:
    """Two sides in play: "A leads 5 to 3" or "Level at 4", then "(game to 10)" with `game_to`. With a
    `unit`: "A leads 5 courts to 3", "Level at 2 courts each". `nothing`: the line while both have 0."""
    first, second = totals
    if first == second and nothing and first == 0:
        return nothing
    if first == second:
        standing = msg("Level at %(score)s each", score=unit(first)) if unit else msg("Level at %(score)s", score=first)
    else:
        leader = 0 if first > second else 1
        standing = agreeing(
            leader,
            "%(side)s leads %(top)s to %(other)s",
            "%(side)s lead %(top)s to %(other)s",
            top=unit(totals[leader]) if unit else totals[leader],
            other=totals[1 - leader],
        )
    return msg("%(standing)s (game to %(target)s)", standing=standing, target=game_to) if game_to else standing


def wins(side: int, totals: Sequence[int], of: str = "", unit: Units | None = None) -> Text:
    """ "A wins 10 to 7"; `of` "game" or "match" and a `unit`: "A wins the match 7 courts to 3": two sides."""
    values = {"top": unit(totals[side]) if unit else totals[side], "other": totals[1 - side]}
    if of == "match":
        return agreeing(
            side,
            "%(side)s wins the match %(top)s to %(other)s",
            "%(side)s win the match %(top)s to %(other)s",
            **values,
        )
    if of == "game":
        return agreeing(
            side, "%(side)s wins the game %(top)s to %(other)s", "%(side)s win the game %(top)s to %(other)s", **values
        )
    return agreeing(side, "%(side)s wins %(top)s to %(other)s", "%(side)s win %(top)s to %(other)s", **values)


def each_side(totals: Sequence[int], target: int | None) -> Text:
    """ "A 3, B 5 (game to 7)": every side's score in seat order, and the target."""
    scores = joined(
        (msg("%(side)s %(score)s", side=side_name(side), score=total) for side, total in enumerate(totals)), ", "
    )
    return msg("%(scores)s (game to %(target)s)", scores=scores, target=target)


def leading(best: Sequence[int], score: Text | str) -> Text:
    """ "A leads with 5 points", "A and C lead with 5 points": the best score so far, and who holds it."""
    return counted(
        len(best), "%(who)s leads with %(score)s", "%(who)s lead with %(score)s", who=names(best), score=score
    )


def best_wins(
    best: tuple[int, ...],
    options: Mapping,
    score: Text,
    *,
    won: Callable[[Text], Text] | None = None,
    tied: Callable[[Text], Text] | None = None,
    **more,
) -> Result:
    """The end of a match that the best score wins: one side alone "wins with <score>"; several
    share the win or play on, as `tie_at_end` says. `won` and `tied` word it (given who) where a
    game says it otherwise; `more` goes to the Result (`out`)."""
    who = names(best)
    if len(best) == 1:
        headline = won(who) if won else msg("%(who)s wins with %(score)s", who=who, score=score)
        return Result(True, best[0], headline, winners=best, **more)
    if options["tie_at_end"] == TieAtEnd.SHARED:
        return Result(True, None, msg("%(who)s share the win on %(score)s", who=who, score=score), winners=best, **more)
    return Result(False, None, tied(who) if tied else msg("%(who)s tie on %(score)s", who=who, score=score), **more)


def end_reasons(result: Result, end: str, ties: str) -> list[Reason]:
    """The last line of a hand that reached the target: the result (a shared win under the `ties`
    rule), or why equal best scores play one more hand."""
    if result.over:
        return [Reason(result.headline, ties if len(result.winners) > 1 else end)]
    return [Reason(msg("%(headline)s: one more hand", headline=result.headline), ties)]
