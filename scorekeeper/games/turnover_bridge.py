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
    only,
    plural,
    side_name,
)

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

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: State, record: dict) -> None:
        has_tricks, has_winner = record.get("tricks") is not None, "winner" in record
        if has_tricks and has_winner:
            message = "Give the tricks or the winner, not both."
            raise RecordError(message, fields={"tricks": message, "winner": message})
        if not has_tricks and not has_winner:
            message = "Give the tricks each player took, or who won (nobody for a 13-13 tie)."
            raise RecordError(message, fields={"tricks": "must be given", "winner": "must be given"})
        if has_tricks:
            _check_tricks(record["tricks"])

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: TurnoverBridgeState, record: Mapping) -> HandResult:
        tricks = record.get("tricks")
        winner = _winner_by_tricks(tricks) if tricks is not None else record["winner"]
        how = f" {tricks[0]}-{tricks[1]}" if tricks is not None else ""
        if winner is None:
            new = state.evolve(ties=state.ties + 1)
            reason = Reason(f"tied{how}: no game to either; ties {new.ties}", Rule.TIE)
            return HandResult(new, [0] * _PLAYERS, [reason])
        changes = only(winner, 1, _PLAYERS)
        new = state.evolve(games=added(state.games, changes))
        reasons = [Reason(f"{side_name(winner)} won the game{how}: +1 game", Rule.GAME)]
        session_winner = self.reached(new)
        if session_winner is not None:
            text = f"{side_name(session_winner)} has {plural(new.games[session_winner], 'game')} and wins the session"
            reasons.append(Reason(text, Rule.END))
        return HandResult(new, changes, reasons, winner)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: TurnoverBridgeState, called: bool = False) -> Result:
        games = state.games
        winner = self.winner(state, called)  # called: more games wins
        if winner is not None:
            score = f"{plural(games[winner], 'game')} to {games[1 - winner]}"
            return Result(True, winner, f"{side_name(winner)} wins the session {score}")
        if called:
            level = "no games won yet" if not games[0] else f"{plural(games[0], 'game')} each"
            return Result(True, None, f"The session is a draw: {level}")
        return Result(False, None, lead_or_level(games, "game", nothing="No games won yet"))

    def board(self, state: TurnoverBridgeState) -> Board:
        target = self.target(state)
        lines = [f"First to {plural(target, 'game')}"] if target else ["Session: press finish to end it"]
        if state.ties:
            lines.append(f"Tied games: {state.ties}")
        turn = (("Deals", state.dealer), ("Leads", state.table.next_seat(state.dealer)))
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=turn)

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
        raise RecordError(f"Tricks add up to {total}: a game has only {_TRICKS}.", "tricks")
    if total == _TRICKS:
        return
    if most < _MAJORITY:
        message = f"Nobody has {_MAJORITY} tricks and not all {_TRICKS} were played: the game is not over."
        raise RecordError(message, "tricks")
    if most > _MAJORITY:
        message = (f"Play stops when a player reaches {_MAJORITY} tricks: {most} is only possible if all "
                   f"{_TRICKS} were played.")
        raise RecordError(message, "tricks")


def _winner_by_tricks(tricks: list[int]) -> int | None:
    """More than 13 tricks wins; 13-13 is a tie (S4:32)."""
    if tricks[0] == tricks[1]:
        return None
    return 0 if tricks[0] > tricks[1] else 1


from . import register  # noqa: E402  (the package imports this module, so register comes last)

GAME = register(TurnoverBridge())
