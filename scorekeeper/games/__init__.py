"""The scoring engine: one module per game, all of the same shape (see base.py), and a registry.

Nothing here imports Flask, SQLAlchemy or WTForms: the rules can be tested and used on their own.
"""

from __future__ import annotations

from .base import Game, HandResult, Reason, RecordError, Replay, ReplayError, Result, State, Table, replay

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry (each game module calls this at its bottom)."""
    GAMES[game.key] = game
    return game


def get_game(key: str) -> Game:
    """The game with this key; KeyError for a key the app does not score."""
    return GAMES[key]


# Imported for their registration; the order is the order the app lists them in.
from . import envite, court_piece, poke, schnapsen  # noqa: E402,F401

__all__ = [
    "GAMES", "Game", "HandResult", "Reason", "RecordError", "Replay", "ReplayError", "Result",
    "State", "Table", "get_game", "register", "replay",
]
