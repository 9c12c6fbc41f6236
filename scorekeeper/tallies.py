"""Each player's record per game (won, shared, lost, drawn), kept in `PlayerTally` as seats change.

Every flush that adds, removes or changes a seat's outcome or player moves the counts by the same
amount in the same transaction, whichever code made the change (a new set-up, a deleted match). A
write that sets the outcomes around the ORM (records.writes, after any hand: one statement for the
seats, sent with others) moves them with `outcomes_moved`. Rows written in bulk (an import, the
bench's fill) are counted again by `rebuild`; `differences` checks the counts against the seats."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cache

from flask_sqlalchemy.session import Session
from sqlalchemy import bindparam, event, func, inspect, select
from sqlalchemy.dialects import postgresql, sqlite

from .extensions import db
from .models import DRAWN, LOST, SHARED, WON, PlayerTally, Seat

OUTCOMES = (WON, SHARED, LOST, DRAWN)


_BEFORE = "tallies: seats before the flush"
_STORED = select(Seat.player_id, Seat.game, Seat.outcome).where(Seat.id == bindparam("id"))


def _counted(player_id: int | None, game: str, outcome: str | None):
    return (player_id, game, outcome) if outcome in OUTCOMES and player_id is not None else None


@event.listens_for(Session, "before_flush")
def _seats_before(session, context, instances) -> None:
    """What each changed or deleted seat counts for as stored, before the flush writes it."""
    before = session.info.setdefault(_BEFORE, {})
    for seat in (*session.dirty, *session.deleted):
        if isinstance(seat, Seat) and inspect(seat).persistent:
            before[id(seat)] = _as_stored(session, seat)


def _as_stored(session, seat: Seat):
    """The seat's (player, game, outcome) as stored: from what the session read, else (a value set
    without ever being read, on a seat made in this session) from the database."""
    values = []
    for name in ("player_id", "game", "outcome"):
        history = inspect(seat).attrs[name].history
        if history.deleted or history.unchanged:
            values.append((history.deleted or history.unchanged)[0])
        elif not history.added:
            values.append(getattr(seat, name))
        else:
            return _counted(*session.connection().execute(_STORED, {"id": seat.id}).one())
    return _counted(*values)


@event.listens_for(Session, "after_flush")
def _follow_seats(session, context) -> None:
    """Move the tallies by what this flush did to seats (the new seats' ids are known now)."""
    before = session.info.pop(_BEFORE, {})
    moves: Counter = Counter()
    for seat in session.new:
        if isinstance(seat, Seat):
            moves[_counted(seat.player_id, seat.game, seat.outcome)] += 1
    for seat in session.deleted:
        if isinstance(seat, Seat) and id(seat) in before:
            moves[before[id(seat)]] -= 1
    for seat in session.dirty:
        if isinstance(seat, Seat) and id(seat) in before and not inspect(seat).deleted:
            after = _counted(seat.player_id, seat.game, seat.outcome)
            if before[id(seat)] != after:
                moves[before[id(seat)]] -= 1
                moves[after] += 1
    moves.pop(None, None)
    if any(moves.values()):
        _apply(session.connection(), moves)


def _apply(connection, moves: Counter) -> None:
    found = moved(connection.dialect.name, moves)
    if found:
        connection.execute(*found)


def outcomes_moved(dialect_name: str, seats: Iterable[tuple[Seat, str | None]]):
    """The statement that moves the kept counts as `seats` go to their new outcomes (written around
    the ORM, not by a flush), or None when no count moves."""
    moves: Counter = Counter()
    for seat, outcome in seats:
        moves[_counted(seat.player_id, seat.game, seat.outcome)] -= 1
        moves[_counted(seat.player_id, seat.game, outcome)] += 1
    moves.pop(None, None)
    return moved(dialect_name, moves)


def moved(dialect_name: str, moves: Counter):
    """Moving the kept counts by `moves` as one statement (built once) with every player's row (a
    finished match's table costs one call, not one a player): (statement, rows), or None."""
    per_pair: dict[tuple, dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for (player_id, game, outcome), change in moves.items():
        per_pair[player_id, game][outcome] += change
    rows = [
        {"player_id": player_id, "game": game, **counts}
        for (player_id, game), counts in sorted(per_pair.items())
        if any(counts.values())
    ]
    return (_upsert(dialect_name), rows) if rows else None


@cache
def _upsert(dialect_name: str):
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    table = PlayerTally.__table__
    upsert = dialect.insert(table)
    return upsert.on_conflict_do_update(
        index_elements=["player_id", "game"],
        set_={outcome: table.c[outcome] + upsert.excluded[outcome] for outcome in OUTCOMES},
    )


def counted_from_seats(player_id: int | None = None, connection=None) -> dict[tuple[int, str], dict[str, int]]:
    """The record per player and game as the seats say (an aggregate over every seat)."""
    query = (
        select(Seat.player_id, Seat.game, Seat.outcome, func.count())
        .where(Seat.outcome.in_(OUTCOMES))
        .group_by(Seat.player_id, Seat.game, Seat.outcome)
    )
    if player_id is not None:
        query = query.where(Seat.player_id == player_id)
    counted: dict[tuple[int, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(OUTCOMES, 0))
    for player, game, outcome, count in (connection or db.session).execute(query):
        counted[player, game][outcome] = count
    return dict(counted)


def _records(query) -> list[tuple[PlayerTally, dict[str, int]]]:
    """Each kept row with its counts, leaving out the rows that count nothing (a finish taken back)."""
    counted = ((row, {outcome: getattr(row, outcome) for outcome in OUTCOMES}) for row in db.session.scalars(query))
    return [(row, counts) for row, counts in counted if any(counts.values())]


def kept() -> dict[tuple[int, str], dict[str, int]]:
    return {(row.player_id, row.game): counts for row, counts in _records(select(PlayerTally))}


def differences() -> list[str]:
    """Where the kept tallies differ from the seats, as sentences."""
    counted, held = counted_from_seats(), kept()
    return [
        f"player {player}, {game}: the kept record {held.get(pair)} differs from the seats' {counted.get(pair)}"
        for pair in sorted(set(counted) | set(held))
        if counted.get(pair) != held.get(pair)
        for player, game in [pair]
    ]


def rebuild(connection=None) -> None:
    """Count every tally again from the seats (after rows were written around the ORM)."""
    connection = connection or db.session
    connection.execute(PlayerTally.__table__.delete())
    counted = counted_from_seats(connection=connection)
    rows = [{"player_id": player, "game": game, **counts} for (player, game), counts in counted.items()]
    if rows:
        connection.execute(PlayerTally.__table__.insert(), rows)


def record_of(player_id: int) -> dict[str, dict[str, int]]:
    """A player's record per game, as the player page shows it (games with a finished match only)."""
    query = select(PlayerTally).where(PlayerTally.player_id == player_id).order_by(PlayerTally.game)
    return {row.game: counts for row, counts in _records(query)}
