"""The history's tables as the record layer reads and writes them: each finished match's seats and
the players' stories after it (`rated_seat`), each game's book of places (`rating_book`), two
players' tallies and matches together (`pair_tally`, `pair_match`); the statements placing,
re-rating, rebuilding and the audit share."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import Integer, bindparam, case, delete, func, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from ...extensions import db
from ...games import GAMES
from ...models import PairMatch, PairTally, Player, RatedSeat, RatingBook
from .stats import PAIR_COLUMNS, SeatFigures, Story, declared, lower_is_better, pair_counts

SEATS = RatedSeat.__table__


BOOKS = RatingBook.__table__


PAIRS = PairTally.__table__


TOGETHER = PairMatch.__table__


def as_rows(found: Sequence[tuple]) -> list[dict]:
    return [dict(zip(SEATS.c.keys(), row)) for row in found]


ROWS_OF = select(SEATS).where(SEATS.c.match_id == bindparam("match_id"))


DELETE_ROWS = delete(SEATS).where(SEATS.c.match_id == bindparam("match_id"))


BOOK_UP_TO_DATE = update(BOOKS).where(BOOKS.c.game == bindparam("book")).values(stale_from=None)


def seat_rows(
    connection, game: str, match_id: int, place: int, finished, seats: Sequence[SeatFigures], stories: dict[int, Story]
) -> tuple:
    """The write of a match's rows in the history: what it gave each seat, and each player's story after it."""
    rows = [
        {
            **seat.as_row(),
            "match_id": match_id,
            "game": game,
            "place": place,
            "finished": finished,
            **stories[seat.player_id].as_row(),
        }
        for seat in seats
    ]
    return as_one(connection.dialect.name, "rated_seat", rows)


@cache
def update_inputs():
    inputs = [name for name in SeatFigures.INPUTS if name != "position"]
    return (
        update(SEATS)
        .where(SEATS.c.match_id == bindparam("match"), SEATS.c.position == bindparam("seat"))
        .values({name: bindparam(name) for name in inputs})
    )


def book(connection, game: str, add_place: bool = False, stale_at: int | None = None) -> tuple[int, int | None]:
    """The game's book row (made if new) locked until the commit, a place given (`add_place`) or the
    stories marked stale from `stale_at` on: (the last place given, stale from), as they now stand."""
    found = connection.execute(
        _book_upsert(connection.dialect.name), {"game": game, "places": int(add_place), "stale_from": stale_at}
    )
    return tuple(found.one())


@cache
def _book_upsert(dialect_name: str):
    """INSERT ... ON CONFLICT DO UPDATE of a game's book, built once (its CASE costs more to build than to run)."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    upsert = dialect.insert(BOOKS).values(
        game=bindparam("game"), places=bindparam("places"), stale_from=bindparam("stale_from", type_=Integer)
    )
    proposed = upsert.excluded.stale_from
    return upsert.on_conflict_do_update(
        index_elements=["game"],
        set_={
            "places": BOOKS.c.places + upsert.excluded.places,
            "stale_from": case(
                (proposed.is_(None), BOOKS.c.stale_from),
                (BOOKS.c.stale_from.is_(None) | (BOOKS.c.stale_from > proposed), proposed),
                else_=BOOKS.c.stale_from,
            ),
        },
    ).returning(BOOKS.c.places, BOOKS.c.stale_from)


def pair_moves(seats: Sequence[SeatFigures] | Any, sign: int) -> list[tuple[tuple[int, int], dict[str, int]]]:
    if not seats:
        return []
    return [
        (pair, {name: sign * value for name, value in counts.items()}) for pair, counts in pair_counts(seats).items()
    ]


def pairs_of(seats: Iterable[SeatFigures | int]) -> set[tuple[int, int]]:
    """Every two players of a match, the lower id first."""
    players = sorted({seat if isinstance(seat, int) else seat.player_id for seat in seats})
    return {(one, other) for index, one in enumerate(players) for other in players[index + 1 :]}


def pair_writes(
    connection, game: str, match_id: int, before: Sequence[SeatFigures], after: Sequence[SeatFigures]
) -> list[tuple]:
    """The writes that move two players' tallies and list by a match's seats leaving (`before`) and
    arriving (`after`): (statement, parameters) each, one statement for each table."""
    moves = pair_moves(before, -1) + pair_moves(after, 1)
    summed: dict[tuple[int, int], Counter] = defaultdict(Counter)
    for pair, counts in moves:
        summed[pair].update(counts)
    tallies = [
        {"player_id": one, "other_id": other, "game": game, **{name: counts[name] for name in PAIR_COLUMNS}}
        for (one, other), counts in sorted(summed.items())
        if any(counts.values())
    ]
    was, now = pairs_of(before), pairs_of(after)
    gone = [{"one": one, "other": other, "match": match_id} for one, other in sorted(was - now)]
    new = [{"player_id": one, "other_id": other, "match_id": match_id} for one, other in sorted(now - was)]
    name = connection.dialect.name
    writes = []
    if tallies:
        writes.append(as_one(name, "pair_tally", tallies, "add"))
    if gone:
        writes.append((_TOGETHER_DELETE, gone))
    if new:
        writes.append(as_one(name, "pair_match", new, "nothing"))
    return writes


def as_one(dialect_name: str, table: str, rows: list[dict], conflict: str = "") -> tuple:
    """Rows to insert, as (statement, rows): one statement, built once, run for each row (in one round
    trip on PostgreSQL, inside the write's pipeline; a statement of many VALUES was no quicker there,
    and psycopg converts such a statement anew each time)."""
    return _rows_insert(dialect_name, table, conflict), rows


@cache
def _rows_insert(dialect_name: str, name: str, conflict: str):
    table = db.metadata.tables[name]
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(table)
    if conflict == "nothing":  # already listed (a history being put right by flask verify --store)
        return statement.on_conflict_do_nothing()
    if conflict == "add":  # the pairs' tallies move by the rows' counts
        keys = [column.name for column in table.primary_key.columns]
        counted = [column.name for column in table.columns if column.name not in keys]
        return statement.on_conflict_do_update(
            index_elements=keys, set_={column: table.c[column] + statement.excluded[column] for column in counted}
        )
    return statement


_TOGETHER_DELETE = delete(TOGETHER).where(
    TOGETHER.c.player_id == bindparam("one"),
    TOGETHER.c.other_id == bindparam("other"),
    TOGETHER.c.match_id == bindparam("match"),
)


def apply_pairs(connection, game: str, moves: list) -> None:
    """Move the pairs' tallies by `moves` ((pair, counts) each)."""
    summed: dict[tuple[int, int], Counter] = defaultdict(Counter)
    for pair, counts in moves:
        summed[pair].update(counts)
    rows = [
        {"player_id": one, "other_id": other, "game": game, **{name: counts[name] for name in PAIR_COLUMNS}}
        for (one, other), counts in sorted(summed.items())
        if any(counts.values())
    ]
    if rows:
        connection.execute(*as_one(connection.dialect.name, "pair_tally", rows, "add"))


def stories_before(connection, game: str, players: Iterable[int], place: int) -> dict[int, Story]:
    """Each player's story in `game` before the match at `place` (a new player's where they have none):
    one index probe per player, in one statement."""
    players = sorted(set(players))
    found = {
        row.player_id: Story.of(row)
        for row in connection.execute(_before_statement(), {"game": game, "place": place, "players": players})
    }
    return {player: found.get(player, Story()) for player in players}


def latest_stories(connection, game: str, players: Iterable[int]) -> dict[int, Story]:
    """Each player's story in `game` as it stands (a new player's where they have none)."""
    return stories_before(connection, game, players, 2**31 - 1)


@cache
def _before_statement():
    earlier = SEATS.alias("earlier")
    last = (
        select(func.max(earlier.c.place))
        .where(
            earlier.c.player_id == Player.id, earlier.c.game == bindparam("game"), earlier.c.place < bindparam("place")
        )
        .scalar_subquery()
    )
    return (
        select(SEATS.c.player_id, *(SEATS.c[name] for name in Story.COLUMNS))
        .select_from(Player.__table__)
        .join(SEATS, (SEATS.c.player_id == Player.id) & (SEATS.c.game == bindparam("game")) & (SEATS.c.place == last))
        .where(Player.id.in_(bindparam("players", expanding=True)))
    )


def most_seats() -> int:
    """The most seats any game's match has: a chunk of more holds at least one whole match."""
    return max(game.max_players for game in GAMES.values())


def rules_of(game: str) -> tuple[tuple, bool]:
    """The game's own statistics and whether its best hand is its lowest (nothing for a game the
    engine no longer scores)."""
    known = GAMES.get(game)
    return (declared(known), lower_is_better(known)) if known else ((), False)


def grouped_by(key: str, rows: Sequence) -> Iterator[list]:
    """Consecutive rows with the same `key`, a list each."""
    return (list(group) for _, group in groupby(rows, itemgetter(key)))


def streamed(connection, game: str) -> Iterator[dict]:
    """A game's rows in the order of their places, a few thousand at a time (a keyset on the index)."""
    after = None
    while True:
        query = select(SEATS).where(SEATS.c.game == game).order_by(SEATS.c.place, SEATS.c.position).limit(5000)
        if after is not None:
            query = query.where(tuple_(SEATS.c.place, SEATS.c.position) > tuple_(*after))
        rows = connection.execute(query).mappings().all()
        if not rows:
            return
        yield from rows
        after = (rows[-1]["place"], rows[-1]["position"])
