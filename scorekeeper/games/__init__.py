"""The scoring engine: one module per game, all of the same shape (see base.py), and a registry.

A game's module ends with `GAME = TheGame()`; every module in this package is imported here and
each `GAME` registered, so adding a game is adding its module (a module without one is a helper). Nothing here imports Flask, SQLAlchemy or WTForms:
the rules can be tested and used on their own.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Game, HandResult, Reason, RecordError, Replay, ReplayError, Result, State, Table, replay

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry, keeping the flagship games first, then by name."""
    GAMES[game.key] = game
    ordered = sorted(GAMES.values(), key=lambda known: (known.listed, known.name))
    GAMES.clear()
    GAMES.update((known.key, known) for known in ordered)
    return game


def get_game(key: str) -> Game:
    """The game with this key; KeyError for a key the app does not score."""
    return GAMES[key]


def name_of(key: str) -> str:
    """The game's name ("Court Piece"); a key the app no longer scores (a stored match's), as it is."""
    game = GAMES.get(key)
    return game.name if game else key


def _import_games() -> None:
    for found in pkgutil.iter_modules(__path__):
        if not found.name.startswith("_"):
            module = importlib.import_module(f"{__name__}.{found.name}")
            if hasattr(module, "GAME"):
                register(module.GAME)


_import_games()

__all__ = [
    "GAMES",
    "Game",
    "HandResult",
    "Reason",
    "RecordError",
    "Replay",
    "ReplayError",
    "Result",
    "State",
    "Table",
    "get_game",
    "register",
    "replay",
]
