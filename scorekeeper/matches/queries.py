"""The match lists the pages show, as database queries (no replay, no per-row query)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import defer, selectinload

from ..extensions import db
from ..models import Match, Seat, now_utc

IDLE = timedelta(days=14)  # a match untouched this long has been set aside, not forgotten in play


def matches(status: str | None = None, game: str | None = None, player: int | None = None, limit: int = 50,
            active: bool | None = None):
    """Matches newest first, filtered by status, game, player and whether they moved lately, with
    their seats and players loaded."""
    query = (
        db.select(Match)
        .options(defer(Match.state), selectinload(Match.seats).joinedload(Seat.player))
        .order_by(Match.created.desc(), Match.id.desc())
        .limit(limit)
    )
    if status:
        query = query.where(Match.status == status)
    if game:
        query = query.where(Match.game == game)
    if player:
        query = query.where(Match.seats.any(Seat.player_id == player))
    if active is not None:  # matches in play by their last change: one index range, newest first
        recent = Match.updated >= now_utc() - IDLE
        query = query.where(recent if active else Match.updated < now_utc() - IDLE)
        query = query.order_by(None).order_by(Match.updated.desc(), Match.id.desc())
    return db.session.scalars(query).all()


def page(game: str | None = None, player: int | None = None, before: int | None = None, limit: int = 50):
    """One page of matches by id, newest first, before a given id (a keyset: no OFFSET to walk)."""
    query = (db.select(Match).options(defer(Match.state), selectinload(Match.seats).joinedload(Seat.player))
             .order_by(Match.id.desc()))
    if before is not None:
        query = query.where(Match.id < before)
    if game:
        query = query.where(Match.game == game)
    if player:
        query = query.where(Match.seats.any(Seat.player_id == player))
    return db.session.scalars(query.limit(limit)).all()
