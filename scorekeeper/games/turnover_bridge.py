"""Turnover Bridge: two players, 26 tricks a game, the first to fourteen tricks wins the game
(api/partnership.md `turnover_bridge`, seed S4:22-32).

A match is a session of games (ruling 21): the score is games won, and games tied 13-13 are counted
in `ties`. Each hand is one game, recorded one of two ways:
- tricks: each player's tricks when play stopped. Play stops once a player has 14 ("play normally
  ceases at that point", S4:32), or all 26 were played out (ruling 23). More than 13 wins; 13-13 ties.
- winner: just who won, or null for a 13-13 tie.

The deal alternates (ruling 22); the non-dealer leads (S4:30). The session ends by `finish`: more
games wins, equal is a draw; with `games_to_win` it ends when a player has won that many.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, lead_or_level
from ._session import LONGEST_RUN
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    State,
    added,
    counted,
    msg,
    only,
    side_name,
)
from .reference import DENEXA, NO_SET_GAMES, OWN, SESSION_GAMES, WHIST_REVOKE, HouseRule, Reference, Source
from .statistics import Statistic

_PLAYERS = 2
_TRICKS = 26
_HALF = _TRICKS // 2  # 13-13 is a tie
_MAJORITY = _HALF + 1  # S4:32: fourteen tricks win, and play normally stops there
_MOST_GAMES = 100


class Rule(StrEnum):
    """Section ids of templates/rules/turnover_bridge.html that the reason lines link to."""

    GAME = "game"
    TIE = "tie"
    END = "end"


@dataclass(frozen=True)
class TurnoverBridgeState(State):
    games: tuple[int, ...] = (0, 0)
    ties: int = 0


class TurnoverBridge(Race):
    key = "turnover_bridge"
    name = "Turnover Bridge"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    unit = "games"
    hand_word, hand_words = "game", "games"  # api/partnership.md ruling 21: each hand is one game
    rules = Rule
    state_class = TurnoverBridgeState
    totals = "games"
    target_option = "games_to_win"
    options = (
        Field(
            "games_to_win",
            "int",
            "Games that win the session; leave empty to play as long as you like and then call finish.",
            default=None,
            min=1,
            max=_MOST_GAMES,
            nullable=True,
        ),
    )
    hand_fields = (
        Field(
            "tricks",
            "per_side",
            "Each player's tricks when play stopped: one reached 14, or all 26 were played.",
            default=None,
            min=0,
            max=_TRICKS,
            ask="Tricks taken",
        ),
        Field(
            "winner",
            "side",
            "Who won the game; Nobody for a 13-13 tie.",
            default=None,
            nullable=True,
            ask="Who won the game?",
        ),
    )
    record_forms = (
        RecordForm("tricks", ("tricks",), "the tricks each player took"),
        RecordForm("winner", ("winner",), "who won (nobody for a 13-13 tie)"),
    )

    reference = Reference(
        line=msg("Whist for two with most of each hand face up on the table; 14 tricks of 26 win."),
        sources=(
            Source("Turnover Bridge", DENEXA),
            WHIST_REVOKE,
            OWN,
        ),
        house_rules={
            "games_to_win": HouseRule("end", says={None: NO_SET_GAMES}, counted=SESSION_GAMES),
        },
    )

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: State, record: dict) -> None:
        has_tricks, has_winner = record.get("tricks") is not None, "winner" in record
        if has_tricks and has_winner:
            message = msg("Give the tricks or the winner, not both.")
            raise RecordError(message, fields={"tricks": message, "winner": message})
        if not has_tricks and not has_winner:
            message = msg("Give the tricks each player took, or who won (nobody for a 13-13 tie).")
            raise RecordError(message, fields={"tricks": msg("must be given"), "winner": msg("must be given")})
        if has_tricks:
            _check_tricks(record["tricks"])

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: TurnoverBridgeState, record: Mapping) -> HandResult:
        tricks = record.get("tricks")
        winner = _winner_by_tricks(tricks) if tricks is not None else record["winner"]
        if winner is None:
            new = state.evolve(ties=state.ties + 1)
            if tricks is not None:
                text = msg(
                    "tied %(first)s-%(second)s: no game to either; ties %(ties)s",
                    first=tricks[0],
                    second=tricks[1],
                    ties=new.ties,
                )
            else:
                text = msg("tied: no game to either; ties %(ties)s", ties=new.ties)
            return HandResult(new, [0] * _PLAYERS, [Reason(text, Rule.TIE)])
        changes = only(winner, 1, _PLAYERS)
        new = state.evolve(games=added(state.games, changes))
        if tricks is not None:
            won = msg(
                "%(side)s won the game %(first)s-%(second)s: +1 game",
                side=side_name(winner),
                first=tricks[0],
                second=tricks[1],
            )
        else:
            won = msg("%(side)s won the game: +1 game", side=side_name(winner))
        reasons = [Reason(won, Rule.GAME)]
        session_winner = self.reached(new)
        if session_winner is not None:
            text = counted(
                new.games[session_winner],
                "%(side)s has %(num)s game and wins the session",
                "%(side)s has %(num)s games and wins the session",
                side=side_name(session_winner),
            )
            reasons.append(Reason(text, Rule.END))
        return HandResult(new, changes, reasons, winner)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: TurnoverBridgeState, called: bool = False) -> Result:
        games = state.games
        winner = self.winner(state, called)  # called: more games wins
        if winner is not None:
            headline = counted(
                games[winner],
                "%(side)s wins the session %(num)s game to %(other)s",
                "%(side)s wins the session %(num)s games to %(other)s",
                side=side_name(winner),
                other=games[1 - winner],
            )
            return Result(True, winner, headline)
        if called:
            if not games[0]:
                return Result(True, None, msg("The session is a draw: no games won yet"))
            return Result(
                True,
                None,
                counted(
                    games[0], "The session is a draw: %(num)s game each", "The session is a draw: %(num)s games each"
                ),
            )
        return Result(
            False,
            None,
            lead_or_level(
                games, lambda n: counted(n, "%(num)s game", "%(num)s games"), nothing=msg("No games won yet")
            ),
        )

    def board(self, state: TurnoverBridgeState) -> Board:
        target = self.target(state)
        if target:
            lines = [counted(target, "First to %(num)s game", "First to %(num)s games")]
        elif state.called:  # finished: nothing is left to press
            lines = []
        else:
            lines = [msg("Session: press finish to end it")]
        if state.ties:
            lines.append(msg("Tied games: %(ties)s", ties=state.ties))
        turn = (("Deals", state.dealer), ("Leads", state.table.next_seat(state.dealer)))
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=turn)

    # A hand is one game: its winner scores 1, a 13-13 tie nobody (and breaks every run).
    statistics = (
        LONGEST_RUN,
        Statistic("tied_games", "Games tied 13-13", lambda done, side: done.state.ties),
    )

    def public_state(self, state: TurnoverBridgeState) -> dict:
        return {"ties": state.ties}

    def example_hand(self, state: TurnoverBridgeState, rng) -> dict:
        roll = rng.random()
        if roll < 0.4:
            return {"winner": rng.choice((0, 1, None))}
        if roll < 0.7:
            loser = rng.randint(0, _MAJORITY - 2)  # play stopped at 14
            return {"tricks": [_MAJORITY, loser] if rng.random() < 0.5 else [loser, _MAJORITY]}
        first = rng.randint(0, _TRICKS)  # played out
        return {"tricks": [first, _TRICKS - first]}


def _check_tricks(tricks: list[int]) -> None:
    """Ruling 23: a count describes a finished game, stopped at 14 or played out to 26."""
    total, most = sum(tricks), max(tricks)
    if total > _TRICKS:
        raise RecordError(
            msg("Tricks add up to %(total)s: a game has only %(tricks)s.", total=total, tricks=_TRICKS), "tricks"
        )
    if total == _TRICKS:
        return
    if most < _MAJORITY:
        message = msg(
            "Nobody has %(majority)s tricks and not all %(tricks)s were played: the game is not over.",
            majority=_MAJORITY,
            tricks=_TRICKS,
        )
        raise RecordError(message, "tricks")
    if most > _MAJORITY:
        message = msg(
            "Play stops when a player reaches %(majority)s tricks: %(most)s is only possible if all "
            "%(tricks)s were played.",
            majority=_MAJORITY,
            most=most,
            tricks=_TRICKS,
        )
        raise RecordError(message, "tricks")


def _winner_by_tricks(tricks: list[int]) -> int | None:
    """More than 13 tricks wins; 13-13 is a tie (S4:32)."""
    if tricks[0] == tricks[1]:
        return None
    return 0 if tricks[0] > tricks[1] else 1


GAME = TurnoverBridge()
