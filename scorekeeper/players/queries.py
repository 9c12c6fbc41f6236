"""The players the pages list, as database queries (the views query nothing themselves)."""

from __future__ import annotations

from ..extensions import db
from ..models import Player
from ..records.reads import ID_LIMIT


def players_page(after: str, limit: int) -> list:
    """(player, matches played) rows by folded name, from after `after`: a keyset page, no OFFSET."""
    query = db.select(Player, Player.played).order_by(Player.key).limit(limit)
    return db.session.execute(query.where(Player.key > after) if after else query).all()


def player(player_id: int) -> Player | None:
    """The player, or None (also for an id no database integer can hold)."""
    return db.session.get(Player, player_id) if 0 < player_id <= ID_LIMIT else None


def everybody() -> list[tuple[str, int]]:
    """Every player by name with the matches they played, for the host's lists."""
    return db.session.execute(db.select(Player.name, Player.played).order_by(Player.key)).all()
