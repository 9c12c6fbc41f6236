"""The match lists the pages show, as database queries (no replay, no per-row query).

A list reads plain rows, not model objects: a page of 25 matches with their seats is two statements
and no object bookkeeping, so its cost stays that of the rows it shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import bindparam

from ..extensions import db
from ..models import FINISHED, SHARED, WON, Match, Player, Seat, now_utc

IDLE = timedelta(days=14)  # a match untouched this long has been set aside, not forgotten in play


@dataclass
class MatchSummary:
    """A match as a list shows it: what it is, who sat where, and how it ended."""

    id: int
    game: str
    status: str
    winner: int | None
    headline: str | None
    created: datetime
    player_names: list[str] = field(default_factory=list)
    seat_sides: list[int] = field(default_factory=list)
    outcomes: list[str | None] = field(default_factory=list)

    @property
    def winner_names(self) -> list[str]:
        """Who won a finished match, alone or sharing the win (empty while in play, or for a draw)."""
        if self.status != FINISHED:
            return []
        return [name for name, outcome in zip(self.player_names, self.outcomes) if outcome in (WON, SHARED)]


_COLUMNS = (Match.id, Match.game, Match.status, Match.winner, Match.headline, Match.created)
_SEATS = (
    db.select(Seat.match_id, Player.name, Seat.side, Seat.outcome)
    .join(Player, Player.id == Seat.player_id)
    .where(Seat.match_id.in_(bindparam("ids", expanding=True)))
    .order_by(Seat.match_id, Seat.position)
)


def summaries(*lists) -> None:
    """Fill in the seats of every summary in `lists` (one statement for them all)."""
    by_id = {summary.id: summary for found in lists for summary in found}
    if not by_id:
        return
    for match_id, name, side, outcome in db.session.execute(_SEATS, {"ids": list(by_id)}):
        summary = by_id[match_id]
        summary.player_names.append(name)
        summary.seat_sides.append(side)
        summary.outcomes.append(outcome)


def _rows(query) -> list[MatchSummary]:
    return [MatchSummary(*row) for row in db.session.execute(query)]


def matches(status: str, limit: int, active: bool | None = None) -> list[MatchSummary]:
    """Matches of a status newest first, and whether they moved lately; their seats are left to one
    `summaries` call over every list the page shows."""
    query = db.select(*_COLUMNS).where(Match.status == status).order_by(Match.created.desc(), Match.id.desc())
    query = query.limit(limit)
    if active is not None:  # matches in play by their last change: one index range, newest first
        recent = Match.updated >= now_utc() - IDLE
        query = query.where(recent if active else Match.updated < now_utc() - IDLE)
        query = query.order_by(None).order_by(Match.updated.desc(), Match.id.desc())
    return _rows(query)


def page(game: str | None = None, player: int | None = None, before: int | None = None,
         limit: int = 50) -> list[MatchSummary]:
    """One page of matches by id, newest first, before a given id (a keyset: no OFFSET to walk)."""
    query = db.select(*_COLUMNS).order_by(Match.id.desc())
    if before is not None:
        query = query.where(Match.id < before)
    if game:
        query = query.where(Match.game == game)
    if player:
        query = query.where(Match.seats.any(Seat.player_id == player))
    found = _rows(query.limit(limit))
    summaries(found)
    return found


def latest_for(player: int, limit: int) -> list[MatchSummary]:
    """A player's latest matches: their newest seats are their newest matches (the index gives them
    in order)."""
    query = (db.select(*_COLUMNS).join(Seat, Seat.match_id == Match.id)
             .where(Seat.player_id == player).order_by(Seat.id.desc()).limit(limit))
    found = _rows(query)
    summaries(found)
    return found
