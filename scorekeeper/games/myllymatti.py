"""Myllymatti (Skitgubbe): three players build hands by taking tricks, then race to shed them;
the last one still holding cards loses (S4:1-21). A hand is one whole game; the session counts
games lost, lower is better (api/races.md `myllymatti`, ruling 4).

- Nobody wins a game: everyone tries not to be the last with cards (S4:5, S4:21). The game ends
  the moment only one player holds cards, so every game has exactly one loser (ruling 4).
- The record may also say who went out first (`first_out`, ruling 5): with three players that
  and the loser give the whole order. It cannot be the loser.
- `games_to_lose` (1 to 99, or null): a number ends the session as soon as a player has lost
  that many games; null leaves it open until the table calls `finish`. Either way the winner is
  the player with the fewest games lost (null when two share the fewest), and `state.loser` the
  one with the most (null when shared).
- The deal passes to the left after every game (the dealer sits out the first trick, S4:11).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, holders, sole
from ._session import games_target_option
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    Result,
    State,
    added,
    counted,
    joined,
    msg,
    names,
    only,
    side_name,
)
from .reference import DENEXA, NO_SET_GAMES, OWN, HouseRule, Reference, Source, Term, by_number
from .statistics import Statistic

_PLAYERS = 3  # S4:2 (ruling 3)


class Rule(StrEnum):
    """Section ids of templates/rules/myllymatti.html that the reason lines link to."""

    LOSING = "losing"
    FIRST_OUT = "first-out"
    SESSION = "session"


@dataclass(frozen=True)
class MyllymattiState(State):
    lost: tuple[int, ...] = ()  # games each player lost: the score
    first_out: tuple[int, ...] = ()  # games each player went out first, where the table noted it


class Myllymatti(Race):
    key = "myllymatti"
    name = "Myllymatti"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    unit = "games lost"
    hand_word, hand_words = "game", "games"  # each record is one whole game
    rules = Rule
    state_class = MyllymattiState
    totals = "lost"
    target_option = "games_to_lose"
    options = (
        games_target_option(
            "games_to_lose",
            "Games lost that end the session; leave empty to play as long as you like and then call finish.",
            "Games to lose",
        ),
    )
    hand_fields = (
        Field(
            "loser",
            "side",
            "The player left holding cards when the others had gone out.",
            ask="Who was left holding cards?",
        ),
        Field(
            "first_out",
            "side",
            "The player who went out first, if the table noted it.",
            default=None,
            nullable=True,
            label="First out",
            ask="Who went out first? (optional)",
        ),
    )

    reference = Reference(
        names=("Skitgubbe", "Koira"),
        line=msg("Finnish three-player game: win cards in tricks, then shed them; the last one holding cards loses."),
        sources=(
            Source("Myllymatti (Skitgubbe)", DENEXA),
            Source(msg("Published Skitgubbe rules"), msg("the deal moving round after every game"), standard=True),
            OWN,
        ),
        house_rules={
            "games_to_lose": HouseRule(
                "session",
                says={None: NO_SET_GAMES},
                counted=by_number(
                    "the session ends when a player has lost %(num)d game",
                    "the session ends when a player has lost %(num)d games",
                ),
            ),
        },
        terms=(
            Term(
                "bounce",
                "glance",
                msg("A tied trick in Myllymatti's first half: the cards stay and the same player leads."),
            ),
        ),
    )

    def start(self, table, options: Mapping) -> dict:
        return {"lost": table.zeros(), "first_out": table.zeros()}

    # -- checking and scoring -------------------------------------------------------------------
    def validate(self, state: State, record: dict) -> None:
        if record.get("first_out") is not None and record["first_out"] == record["loser"]:
            raise RecordError(msg("The player who went out first cannot be the one left holding cards."), "first_out")

    def score_hand(self, state: MyllymattiState, record: Mapping) -> HandResult:
        loser = record["loser"]
        changes = only(loser, 1, state.table.sides)
        lost = added(state.lost, changes)
        reasons = [
            Reason(
                counted(
                    lost[loser],
                    "%(side)s is left holding cards and loses: %(num)s game lost",
                    "%(side)s is left holding cards and loses: %(num)s games lost",
                    side=side_name(loser),
                ),
                Rule.LOSING,
            )
        ]
        first = record.get("first_out")
        first_out = state.first_out
        if first is not None:
            first_out = tuple(count + (side == first) for side, count in enumerate(first_out))
            reasons.append(Reason(msg("%(side)s went out first", side=side_name(first)), Rule.FIRST_OUT))
        target = self.target(state)
        if target is not None and lost[loser] >= target:
            reasons.append(
                Reason(
                    counted(
                        target,
                        "%(side)s reaches %(num)s game lost: the session is over",
                        "%(side)s reaches %(num)s games lost: the session is over",
                        side=side_name(loser),
                    ),
                    Rule.SESSION,
                )
            )
        return HandResult(state.evolve(lost=lost, first_out=first_out), changes, reasons)

    # -- reading ------------------------------------------------------------------------------
    def _over(self, state: MyllymattiState, called: bool) -> bool:
        return called or self.reached(state) is not None

    def result(self, state: MyllymattiState, called: bool = False) -> Result:
        tally = joined(state.lost, "-")  # games lost in seat order: 2-1-0
        fewest = holders(state.lost, min)
        winner = sole(fewest)
        if not self._over(state, called):
            if len(fewest) == len(state.lost):
                return Result(False, None, msg("Level, games lost %(tally)s", tally=tally))
            return Result(
                False,
                None,
                counted(
                    len(fewest),
                    "%(who)s has lost fewest, games lost %(tally)s",
                    "%(who)s have lost fewest, games lost %(tally)s",
                    who=names(fewest),
                    tally=tally,
                ),
            )
        loser = sole(holders(state.lost, max))
        if winner is not None:
            return Result(
                True,
                winner,
                msg("%(side)s wins the session, games lost %(tally)s", side=side_name(winner), tally=tally),
            )
        if loser is not None:
            # Two share the fewest: no winner, but the table still has its loser (ruling 4).
            return Result(
                True,
                None,
                msg("%(side)s loses the session, games lost %(tally)s", side=side_name(loser), tally=tally),
                losers=(loser,),
            )
        return Result(True, None, msg("The session is a draw, games lost %(tally)s", tally=tally))

    def board(self, state: MyllymattiState) -> Board:
        target = self.target(state)
        if target:
            end = counted(target, "The session ends at %(num)s game lost", "The session ends at %(num)s games lost")
        else:
            end = msg("Open session: call finish to end it")
        return dataclasses.replace(
            super().board(state), lines=(end,), turn=(("Deals", state.dealer),), lower_is_better=True
        )

    statistics = (
        Statistic("games_lost", "Games lost", lambda done, side: done.state.lost[side]),
        Statistic("first_out", "Games gone out first", lambda done, side: done.state.first_out[side]),
    )

    def public_state(self, state: MyllymattiState) -> dict:
        """`loser` once the session is over (by its target, or called: `state.called`): the most
        games lost, null when shared."""
        loser = sole(holders(state.lost, max)) if self._over(state, state.called) else None
        return {"first_out": list(state.first_out), "loser": loser}

    def example_hand(self, state: MyllymattiState, rng) -> dict:
        loser = rng.randrange(_PLAYERS)
        if rng.random() < 0.5:
            return {"loser": loser}
        return {"loser": loser, "first_out": rng.choice([None, *(side for side in range(_PLAYERS) if side != loser)])}


GAME = Myllymatti()
