"""Frustration: Aggravation as played in Hawaii, where the rows are gathered back into the decks
whenever a deck runs out (S1:47-53). A hand is one whole game; the session counts games won
(api/races.md "Sessions", ruling 1).

- The record names the winner: the first player whose share of the pack (deck plus the cards on
  their side) is down to 10 or fewer (S1:53). The two shares always make 52 between them, so
  only one can be that low: no drawn game (ruling 6), `winner` is never null.
- `share_check` says when the table counts the shares: `any_time` (a player may show it at any
  moment) or `at_regather` (only when the rows are gathered after a deck ran out). It changes
  nothing recorded (ruling 7); the form's help says which way the table plays.
- The deal passes to the next seat after every game (ruling 2).
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

from ._session import GAMES_TO_WIN, LONGEST_RUN, Session
from .base import Field, State, msg
from .reference import OWN, SESSION, HouseRule, Reference, Source, Term

_PLAYERS = 2  # S1:51: "les deux joueurs" (ruling 3)
_WINNING_SHARE = 10  # S1:53


class ShareCheck(StrEnum):
    ANY_TIME = "any_time"
    AT_REGATHER = "at_regather"


class Rule(StrEnum):
    """Section ids of templates/rules/frustration.html that the reason lines link to."""

    WINNING = "winning"
    SHARE_CHECK = "share-check"
    SESSION = "session"


_WINNER_HELP = {
    ShareCheck.ANY_TIME: f"The first player to show a share (deck plus own row) of {_WINNING_SHARE} cards or fewer.",
    ShareCheck.AT_REGATHER: (
        f"The player whose share (deck plus own row) was {_WINNING_SHARE} cards or fewer when the rows were gathered."
    ),
}


class Frustration(Session):
    key = "frustration"
    name = "Frustration"
    min_players = _PLAYERS
    max_players = _PLAYERS
    rules = Rule
    won_rule = Rule.WINNING
    end_rule = Rule.SESSION
    statistics = (LONGEST_RUN,)
    options = (
        GAMES_TO_WIN,
        Field.choice(
            "share_check",
            "When a share may be counted: at any moment, or only when the rows are gathered after a deck runs out.",
            ShareCheck,
            default=ShareCheck.ANY_TIME,
            label="Count the shares",
        ),
    )
    hand_fields = (
        Field(
            "winner",
            "side",
            f"The first player down to {_WINNING_SHARE} cards or fewer (deck plus own row).",
            ask=f"Who got down to {_WINNING_SHARE} cards?",
        ),
    )

    reference = Reference(
        line=msg("Hawaii's Aggravation: the rows are gathered up and laid again until a share is down to 10."),
        sources=(
            Source(
                "Règles du jeu de cartes: California Speed",
                msg(
                    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
                    "Rory Barclay, Adam Fritz and Clint Okayama; its Frustration part, after Clint Okayama"
                ),
            ),
            OWN,
        ),
        house_rules={
            "games_to_win": SESSION,
            "share_check": HouseRule(
                "share-check",
                says={
                    "any_time": msg("a share of 10 or fewer may be shown at any moment"),
                    "at_regather": msg("shares are counted only when the rows are gathered up"),
                },
            ),
        },
        terms=(Term("share", "winning", msg("In Frustration, your pile plus your row; 10 or fewer wins.")),),
    )

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """The winner's help says how this table counts the shares (ruling 7)."""
        help_line = _WINNER_HELP[ShareCheck(state.options["share_check"])]
        return tuple(dataclasses.replace(fld, help=help_line) for fld in self.hand_fields)


GAME = Frustration()
