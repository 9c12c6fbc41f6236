"""Aggravation: two players each turn up cards from half the pack into a growing layout and
cover every pair they spot (S3:365-391, S1:35-43). A hand is one whole game; the session counts
games won (api/races.md "Sessions", ruling 1).

- The record names the winner: the player who, with no cards left in their deck, touched a pair
  and called "Aggravation!" first (S3:391, S1:43). The first call wins, so there is no drawn
  game (ruling 6): `winner` is never null.
- The deal passes to the next seat after every game (ruling 2).
"""

from __future__ import annotations

from enum import StrEnum

from ._session import GAMES_TO_WIN, LONGEST_RUN, Session
from .base import Field, msg
from .reference import DENEXA, FRENCH, OWN, SESSION, Reference, Source, Term

_PLAYERS = 2  # S3:367, S1:35: the pack split in two halves of 26 (ruling 3)


class Rule(StrEnum):
    """Section ids of templates/rules/aggravation.html that the reason lines link to."""

    WINNING = "winning"
    SESSION = "session"


class Aggravation(Session):
    key = "aggravation"
    name = "Aggravation"
    min_players = _PLAYERS
    max_players = _PLAYERS
    rules = Rule
    won_rule = Rule.WINNING
    end_rule = Rule.SESSION
    statistics = (LONGEST_RUN,)
    options = (GAMES_TO_WIN,)
    hand_fields = (
        Field(
            "winner",
            "side",
            'The player who, out of cards, touched a pair and called "Aggravation!" first.',
            ask="Who called Aggravation?",
        ),
    )

    reference = Reference(
        line=msg("Two-player race to cover pairs in an ever-growing layout; out of cards, call “Aggravation!”."),
        sources=(
            Source("Aggravation", DENEXA),
            Source("Règles du jeu de cartes: California Speed", FRENCH),
            OWN,
        ),
        house_rules={
            "games_to_win": SESSION,
        },
        terms=(Term("Aggravation!", "winning", msg("The call that wins: out of cards, touch a pair and shout it.")),),
    )


GAME = Aggravation()
