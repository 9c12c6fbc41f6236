"""California Speed: two players race to play every card of their half of the pack onto the
tableau (S0:3-23, S1:7-17). A hand is one whole game; the session counts games won
(api/races.md "Sessions", ruling 1).

- The record names the winner: the first to play their last card (S0:23, S1:17).
- Both out at the same moment: by default (`simultaneous_out: replay`) the game is played again
  and nothing is recorded; with `draw` it is recorded as drawn (winner null): nobody scores, the
  `draws` count grows, and a draw never reaches `games_to_win`.
- Rutter's pair-on-a-pile variation (S1:21) changes play only, not the record (ruling 11).
- The deal passes to the next seat after every game (ruling 2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum

from ._session import GAMES_TO_WIN, LONGEST_RUN, Session, SessionState
from .base import Field, Reason, RecordError, State, msg
from .reference import DENEXA, FRENCH, OWN, SESSION, HouseRule, Reference, Source
from .statistics import Finished, Statistic

_PLAYERS = 2  # S0:3, S1:7 (ruling 3)


class SimultaneousOut(StrEnum):
    REPLAY = "replay"
    DRAW = "draw"


class Rule(StrEnum):
    """Section ids of templates/rules/california_speed.html that the reason lines link to."""

    WINNING = "winning"
    SIMULTANEOUS_OUT = "simultaneous-out"
    SESSION = "session"


def _drawn_games(done: Finished, side: int) -> int | None:
    """Games both went out of together, at a table that records them as drawn (elsewhere they are
    played again and never recorded: None)."""
    return done.state.nobody if done.state.options["simultaneous_out"] == SimultaneousOut.DRAW else None


class CaliforniaSpeed(Session):
    key = "california_speed"
    name = "California Speed"
    min_players = _PLAYERS
    max_players = _PLAYERS
    rules = Rule
    won_rule = Rule.WINNING
    end_rule = Rule.SESSION
    options = (
        GAMES_TO_WIN,
        Field.choice(
            "simultaneous_out",
            "Both players out at the same moment: play the game again (nothing recorded), or record a draw.",
            SimultaneousOut,
            default=SimultaneousOut.REPLAY,
            label="Both out together",
        ),
    )
    hand_fields = (
        Field(
            "winner",
            "side",
            "The player who played their last card to the tableau first; nobody: both went out together, "
            "where the table records draws.",
            nullable=True,
            ask="Who played out first?",
        ),
    )

    reference = Reference(
        names=("Chinese Speed", "Chinese Spit", "Double Flip"),
        line=msg("Two players, no turns: cover matching cards in an eight-card box, first out wins."),
        sources=(
            Source("California Speed", DENEXA),
            Source("Règles du jeu de cartes: California Speed", FRENCH),
            OWN,
        ),
        house_rules={
            "games_to_win": SESSION,
            "simultaneous_out": HouseRule(
                "simultaneous-out",
                says={
                    "replay": msg("when both go out together the game is played again"),
                    "draw": msg("when both go out together the game is recorded as a draw"),
                },
            ),
        },
    )

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """ "Nobody" is offered only where a drawn game is recorded; elsewhere it is played again."""
        if state.options["simultaneous_out"] == SimultaneousOut.DRAW:
            return self.hand_fields
        return tuple(
            dataclasses.replace(fld, nullable=False, help="The player who played their last card to the tableau first.")
            for fld in self.hand_fields
        )

    def validate(self, state: State, record: dict) -> None:
        if record["winner"] is None and state.options["simultaneous_out"] != SimultaneousOut.DRAW:
            raise RecordError(
                msg("Name the winner: at this table a game where both went out together is played again."), "winner"
            )

    def winner_of(self, state: SessionState, record: Mapping) -> tuple[int | None, Reason | None]:
        if record["winner"] is None:
            return None, Reason(msg("Both out together: a drawn game, nobody scores"), Rule.SIMULTANEOUS_OUT)
        return super().winner_of(state, record)

    def board_lines(self, state: SessionState) -> tuple[str, ...]:
        if state.options["simultaneous_out"] != SimultaneousOut.DRAW:
            return ()
        # Translators: California Speed, a line under the scores: how many games were drawn.
        return (msg("Drawn games: %(count)s", count=state.nobody),)

    statistics = (
        LONGEST_RUN,
        Statistic("drawn_games", "Drawn games", _drawn_games),
    )

    def public_state(self, state: SessionState) -> dict:
        return {"draws": state.nobody}

    def example_hand(self, state: SessionState, rng) -> dict:
        drawing = state.options["simultaneous_out"] == SimultaneousOut.DRAW
        if drawing and rng.random() < 0.2:
            return {"winner": None}
        return super().example_hand(state, rng)


GAME = CaliforniaSpeed()
