"""Each player's story per game, kept as matches finish and change: `RatedSeat` (what each finished
match gave each seat, and the player's story after it), `RatingBook` (each game's order of finished
matches, and where its stories are being worked out again from), `PairTally` and `PairMatch` (two
players' finished matches together: their tallies per game, and the list).

When a write finishes a match, changes a finished one (an edit, a deletion, a new set-up), takes a
finish back or deletes a finished match, `follow` (called by records.writes before the commit) puts
what the match gave each seat in its place. Where that match is the game's latest (a match finishing
always is; a hand fixed right after the end is too) its players' stories are worked out in the
write's transaction, and the write commits with every story right. A change to an earlier match marks
the game's book stale from its place and leaves the re-rating to a follow-up
(`catch_up_after_commit`): after the commit, a background worker of the same process re-rates CHUNK
seats per transaction until the game is up to date; the place is kept in `RatingBook.stale_from`, so
a worker that dies is taken over by the next change of that game or by `flask verify --store`. The
pages say when a game's stories are being brought up to date. The statements of a write go to
PostgreSQL two or three at a time (history.pipeline).

Every write that touches a game's stories first locks its `RatingBook` row (after the match, which
the write claimed before): writes and workers of one game take turns, and always in that order."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import Integer, any_, bindparam, case, delete, func, insert, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..games import GAMES, replay
from ..games.base import decode_state
from ..games.statistics import Finished
from ..models import FINISHED, Hand, Match, PairMatch, PairTally, Player, RatedSeat, RatingBook, Seat, now_utc
from . import pipeline
from .stats import PAIR_COLUMNS, SeatFigures, Story, declared, fold, lower_is_better, pair_counts, seat_figures

log = logging.getLogger(__name__)

INLINE = 13  # seats a merge re-rates in its own transaction (at least one match); the rest follow
CHUNK = 120  # seats a follow-up re-rates per transaction: a few ms of work, so requests wait little
PAUSE = 0.005  # seconds a follow-up lets requests run between two chunks
SEATS = RatedSeat.__table__
BOOKS = RatingBook.__table__
PAIRS = PairTally.__table__
TOGETHER = PairMatch.__table__
_STALE = "history: games left to follow up"


# -- what a finished match gave its seats -----------------------------------------------------------------


class _StoredHand:
    __slots__ = ("number", "record", "changes", "game_winner", "_hands")

    def __init__(self, number, record, changes, game_winner, hands):
        self.number, self.record, self.changes, self.game_winner, self._hands = (
            number,
            record,
            changes,
            game_winner,
            hands,
        )

    @property
    def state(self):
        return self._hands.state_of(self.number)


class _StoredHands(Sequence):
    """A finished match's hands as its statistics read them: each hand's record, change and game won
    read at once; the states after the hands only if a statistic asks (one query for them all)."""

    def __init__(self, connection, game: str, match_id: int, found: Sequence | None = None):
        self.connection, self.game, self.match_id = connection, game, match_id
        if found is None:
            found = connection.execute(hands_statement(game), {"match_id": match_id}).all()
        self.rows = [_StoredHand(row[0], row[1], row[2], row[3], self) for row in found]
        self.states: dict[int, Any] | None = {row[0]: row[4] for row in found} if found and len(found[0]) > 4 else None

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        return self.rows[index]

    def state_of(self, number: int):
        if self.states is None:
            _STATE_READERS.add(self.game)
            found = self.connection.execute(_STATES, {"match_id": self.match_id})
            self.states = dict(found.all())
        return decode_state(self.states[number])


_HANDS = (
    select(Hand.number, Hand.record, Hand.changes, Hand.game_winner)
    .where(Hand.match_id == bindparam("match_id"))
    .order_by(Hand.number)
)
_STATES = select(Hand.number, Hand.state).where(Hand.match_id == bindparam("match_id"))
_HANDS_AND_STATES = _HANDS.add_columns(Hand.state)
# The games whose statistics have read the state after each hand in this process: from then on their
# hands are read with their states, in the same round trip (most games' statistics read none).
_STATE_READERS: set[str] = set()


def hands_statement(game: str):
    """How a finished match of `game` is read for its statistics: its hands, with their states where
    the game's statistics read them."""
    return _HANDS_AND_STATES if game in _STATE_READERS else _HANDS


class _ReplayedHand:
    __slots__ = ("number", "record", "changes", "game_winner", "state")

    def __init__(self, number, record, result):
        self.number, self.record, self.changes, self.game_winner, self.state = (
            number,
            record,
            list(result.changes),
            result.game_winner,
            result.state,
        )


def _replayed_in_full(scored) -> bool:
    results = scored.replay.results
    return isinstance(results, list) and len(results) == scored.count


def figures_of(scored, connection=None, stored: Sequence | None = None) -> list[SeatFigures]:
    """What the finished match (a records.reads.Scored) gave each seat; its hands are read as stored
    (`stored`: read already) unless the match was replayed in full (verify), when the replay's own
    results are used."""
    if _replayed_in_full(scored):
        hands = [
            _ReplayedHand(number, record, result)
            for number, (record, result) in enumerate(zip(scored.replay.records, scored.replay.results), start=1)
        ]
    else:
        hands = _StoredHands(connection or db.session.connection(), scored.match.game, scored.match.id, stored)
    done = Finished(scored.state, scored.result, scored.table, hands)
    seats = [(seat.position, seat.player_id, seat.side) for seat in scored.match.seats]
    return seat_figures(scored.game, done, seats)


def figures_from_rows(rows: Iterable[Any]) -> list[SeatFigures]:
    """The inputs kept in a match's rows (mappings of their columns), by position."""
    return sorted(
        (
            SeatFigures(**{name: (dict(row[name]) if name == "figures" else row[name]) for name in SeatFigures.INPUTS})
            for row in rows
        ),
        key=lambda seat: seat.position,
    )


def figures_stored(connection, match: Any, seats: Sequence[Any]) -> list[SeatFigures]:
    """What a finished match gave each seat, from its rows alone (a migration, a rebuild): its state
    as stored, or replayed from its hands where none is stored for its version."""
    game = GAMES[match.game]
    table = game.table(len(seats), [seat.side for seat in seats])
    if match.state is not None and match.state_version == match.version:
        state = decode_state(match.state)
    else:
        records = connection.execute(select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number))
        state = replay(game, table, match.options, records.scalars().all()).state
    if match.called:
        state = state.evolve(called=True)
    result = game.result(state, called=match.called)
    if not result.over:  # marked finished, but its hands do not say so: flask verify reports it
        return []
    done = Finished(state, result, table, _StoredHands(connection, match.game, match.id))
    return seat_figures(game, done, [(seat.position, seat.player_id, seat.side) for seat in seats])


# -- a write's part: in its transaction --------------------------------------------------------------------


def follow(scored, was_over: bool) -> None:
    """After a write changed a match (before its commit): its seats' place in the history, and the
    stories from there on where that is the game's latest match (else a follow-up does it, after the
    commit). Nothing at all for a match that was and is in play."""
    if not (was_over or scored.finished):
        return
    db.session.flush()  # the hands and seats as the write left them
    connection = db.session.connection()
    if not was_over:
        _finished(connection, scored)
        return
    game = scored.match.game
    reads = [(_ROWS_OF, {"match_id": scored.match.id}), (_PLACES, {"book": game})]
    if scored.finished and not _replayed_in_full(scored):
        reads.append((hands_statement(game), {"match_id": scored.match.id}))
    old, places, *hands = pipeline.run_held(db.session, reads)  # after the write's own held statements
    new = figures_of(scored, connection, hands[0] if hands else None) if scored.finished else []
    _change(connection, game, scored.match.id, new, _as_rows(old), places[0][0] if places else None)


def _finished(connection, scored) -> None:
    """A match that was in play has just finished, the commonest change of all: its hands, the game's
    book (a new place) and its players' stories so far read in one round trip, its rows, pairs and
    list of matches together written in another (history.pipeline). A match finishing is the last of
    its game: unless the game is being worked out again, the stories are final at once."""
    match, game = scored.match, scored.match.game
    players = [seat.player_id for seat in match.seats]
    reads = [
        (_book_upsert(connection.dialect.name), {"game": game, "places": 1, "stale_from": None}),
        (_latest_statement(connection.dialect.name), {"game": game, "players": players}),
    ]
    if not _replayed_in_full(scored):
        reads.append((hands_statement(game), {"match_id": match.id}))
    book, latest, *hands = pipeline.run_held(db.session, reads)
    ((place, stale_from),) = book
    new = figures_of(scored, connection, hands[0] if hands else None)
    found = {row[0]: Story.of(dict(zip(Story.COLUMNS, row[1:]))) for row in latest}
    if stale_from is None:
        after = fold(new, {player: found.get(player, Story()) for player in players}, *_rules_of(game))
    else:  # the game is being worked out again from an earlier place: its follow-up reaches this one
        after = {seat.player_id: Story() for seat in new}
        db.session.info.setdefault(_STALE, set()).add(game)
    pipeline.run(
        connection,
        _pair_writes(connection, game, match.id, [], new)
        + [_seat_rows(connection, game, match.id, place, now_utc(), new, after)],
    )


def removed(match: Match) -> None:
    """Before a finished match is deleted: its seats leave the history, the stories after it follow."""
    if not any(seat.outcome for seat in match.seats):
        return
    db.session.flush()
    connection = db.session.connection()
    old = pipeline.run(connection, [(_ROWS_OF, {"match_id": match.id})])[0]
    _change(connection, match.game, match.id, [], _as_rows(old))


def _as_rows(found: Sequence[tuple]) -> list[dict]:
    return [dict(zip(SEATS.c.keys(), row)) for row in found]


def _change(
    connection, game: str, match_id: int, new: list[SeatFigures], old: list[dict], seen_places: int | None = None
) -> None:
    """Put what a match gives its seats (`new`; none: it left the history; `old`: its rows before) in its
    place. The stories from there on are worked out here where the match is the game's latest (a hand
    fixed right after the end: one match); else the book is marked and a follow-up does it after the
    commit (a change to an early match of a long history: the write stays the size of one match).
    `seen_places`: the game's places as read (unlocked) before."""
    before = figures_from_rows(old)
    if before == new:
        return
    writes = []
    if old:
        place, finished = old[0]["place"], old[0]["finished"]
        if seen_places is not None and place < seen_places:
            # Not the game's latest (its places only grow): its book is locked and marked by the first of the
            # writes, in their round trip, not one of its own.
            writes.append((_book_upsert(connection.dialect.name), {"game": game, "places": 0, "stale_from": place}))
            places, stale_from = seen_places, place
        else:
            places, stale_from = _book(connection, game, stale_at=place)
    else:
        places, stale_from = _book(connection, game, add_place=True)
        place, finished = places, now_utc()
        stale_from = place if stale_from is None else stale_from
    writes += _pair_writes(connection, game, match_id, before, new)
    latest = stale_from == place == places  # nothing stale before it, nothing after it
    if latest and new:
        starts = _stories_before(connection, game, [seat.player_id for seat in new], place)
        after = fold(new, starts, *_rules_of(game))
        if old:
            writes.append((_DELETE_ROWS, {"match_id": match_id}))
        writes.append(_seat_rows(connection, game, match_id, place, finished, new, after))
    elif not new:
        writes.append((_DELETE_ROWS, {"match_id": match_id}))
    elif not old:  # the game is being worked out again from an earlier place: its follow-up reaches this one
        writes.append(_seat_rows(connection, game, match_id, place, finished, new, {s.player_id: Story() for s in new}))
    else:
        writes.append((_update_inputs(), [{**seat.as_row(), "match": match_id, "seat": seat.position} for seat in new]))
    if latest:
        writes.append((_BOOK_UP_TO_DATE, {"book": game}))
    else:
        db.session.info.setdefault(_STALE, set()).add(game)
    pipeline.run(connection, writes)


_ROWS_OF = select(SEATS).where(SEATS.c.match_id == bindparam("match_id"))
_PLACES = select(BOOKS.c.places).where(BOOKS.c.game == bindparam("book"))
_DELETE_ROWS = delete(SEATS).where(SEATS.c.match_id == bindparam("match_id"))
_BOOK_UP_TO_DATE = update(BOOKS).where(BOOKS.c.game == bindparam("book")).values(stale_from=None)


def _seat_rows(
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
    return _as_one(connection.dialect.name, "rated_seat", rows)


@cache
def _update_inputs():
    inputs = [name for name in SeatFigures.INPUTS if name != "position"]
    return (
        update(SEATS)
        .where(SEATS.c.match_id == bindparam("match"), SEATS.c.position == bindparam("seat"))
        .values({name: bindparam(name) for name in inputs})
    )


def _book(connection, game: str, add_place: bool = False, stale_at: int | None = None) -> tuple[int, int | None]:
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


def _pair_moves(seats: Sequence[SeatFigures] | Any, sign: int) -> list[tuple[tuple[int, int], dict[str, int]]]:
    if not seats:
        return []
    return [
        (pair, {name: sign * value for name, value in counts.items()}) for pair, counts in pair_counts(seats).items()
    ]


def pairs_of(seats: Iterable[SeatFigures | int]) -> set[tuple[int, int]]:
    """Every two players of a match, the lower id first."""
    players = sorted({seat if isinstance(seat, int) else seat.player_id for seat in seats})
    return {(one, other) for index, one in enumerate(players) for other in players[index + 1 :]}


def _pair_writes(
    connection, game: str, match_id: int, before: Sequence[SeatFigures], after: Sequence[SeatFigures]
) -> list[tuple]:
    """The writes that move two players' tallies and list by a match's seats leaving (`before`) and
    arriving (`after`): (statement, parameters) each, one statement for each table."""
    moves = _pair_moves(before, -1) + _pair_moves(after, 1)
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
        writes.append(_as_one(name, "pair_tally", tallies, "add"))
    if gone:
        writes.append((_TOGETHER_DELETE, gone))
    if new:
        writes.append(_as_one(name, "pair_match", new, "nothing"))
    return writes


def _as_one(dialect_name: str, table: str, rows: list[dict], conflict: str = "") -> tuple:
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


def _apply_pairs(connection, game: str, moves: list) -> None:
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
        connection.execute(*_as_one(connection.dialect.name, "pair_tally", rows, "add"))


# -- working the stories out again from a place on --------------------------------------------------------


def _stories_before(connection, game: str, players: Iterable[int], place: int) -> dict[int, Story]:
    """Each player's story in `game` before the match at `place` (a new player's where they have none):
    one index probe per player, in one statement."""
    players = sorted(set(players))
    found = {
        row.player_id: Story.of(row)
        for row in connection.execute(_before_statement(), {"game": game, "place": place, "players": players})
    }
    return {player: found.get(player, Story()) for player in players}


@cache
def _latest_statement(dialect_name: str):
    """Each given player's latest row in a game (player_id, then the story's columns): on PostgreSQL
    the players as one array (a statement the pipeline can send as it is)."""
    later = SEATS.alias("later")
    last = (
        select(func.max(later.c.place))
        .where(later.c.player_id == Player.id, later.c.game == bindparam("game"))
        .scalar_subquery()
    )
    chosen = (
        Player.id == any_(bindparam("players", type_=postgresql.ARRAY(Integer)))
        if dialect_name == "postgresql"
        else Player.id.in_(bindparam("players", expanding=True))
    )
    return (
        select(SEATS.c.player_id, *(SEATS.c[name] for name in Story.COLUMNS))
        .select_from(Player.__table__)
        .join(SEATS, (SEATS.c.player_id == Player.id) & (SEATS.c.game == bindparam("game")) & (SEATS.c.place == last))
        .where(chosen)
    )


def latest_stories(connection, game: str, players: Iterable[int]) -> dict[int, Story]:
    """Each player's story in `game` as it stands (a new player's where they have none)."""
    return _stories_before(connection, game, players, 2**31 - 1)


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


def _advance(connection, game: str, budget: int, stale_from: int | None = None) -> bool:
    """Work the game's stories out again from where they are stale, for up to `budget` seats (whole
    matches); the book moves on. True when the game is up to date. The book is locked already."""
    if stale_from is None:
        _, stale_from = _book(connection, game)
        if stale_from is None:
            return True
    budget = max(budget, _most_seats() + 1)  # at least one whole match
    rows = connection.execute(_chunk_statement(), {"game": game, "place": stale_from, "limit": budget}).mappings().all()
    following = None
    if len(rows) == budget:  # the last match may be cut short: it starts the next chunk
        following = rows[-1]["place"]
        rows = [row for row in rows if row["place"] < following]
    statistics, lowest = _rules_of(game)
    stories = _stories_before(connection, game, {row["player_id"] for row in rows}, stale_from)
    changed = []
    for seats in _grouped_by("place", rows):
        after = fold(figures_from_rows(seats), stories, statistics, lowest)
        stories.update(after)
        for row in seats:
            story = after[row["player_id"]]
            if Story.of(row) != story:
                changed.append({"match": row["match_id"], "seat": row["position"], **story.as_row()})
    if changed:
        connection.execute(_update_story(), changed)
    connection.execute(update(BOOKS).where(BOOKS.c.game == game).values(stale_from=following))
    if following is not None:
        db.session.info.setdefault(_STALE, set()).add(game)
    return following is None


def _most_seats() -> int:
    """The most seats any game's match has: a chunk of more holds at least one whole match."""
    return max(game.max_players for game in GAMES.values())


def _rules_of(game: str) -> tuple[tuple, bool]:
    """The game's own statistics and whether its best hand is its lowest (nothing for a game the
    engine no longer scores)."""
    known = GAMES.get(game)
    return (declared(known), lower_is_better(known)) if known else ((), False)


def _grouped_by(key: str, rows: Sequence) -> Iterator[list]:
    """Consecutive rows with the same `key`, a list each."""
    return (list(group) for _, group in groupby(rows, itemgetter(key)))


@cache
def _chunk_statement():
    return (
        select(SEATS)
        .where(SEATS.c.game == bindparam("game"), SEATS.c.place >= bindparam("place"))
        .order_by(SEATS.c.place, SEATS.c.position)
        .limit(bindparam("limit", type_=Integer))
    )


@cache
def _update_story():
    return (
        update(SEATS)
        .where(SEATS.c.match_id == bindparam("match"), SEATS.c.position == bindparam("seat"))
        .values({name: bindparam(name) for name in Story.COLUMNS})
    )


# -- the follow-up: after the commit, in the background ----------------------------------------------------

_running: set[str] = set()
_running_lock = threading.Lock()
_idle = threading.Condition(_running_lock)


def catch_up_after_commit() -> None:
    """Start a follow-up for each game a write (just committed) left to be worked out again (unless
    SCOREKEEPER_RERATE_FOLLOW_UP is off: then the next write of the game, or flask verify --store,
    takes it on)."""
    games = db.session.info.pop(_STALE, set())
    if not games:
        return
    from flask import current_app

    app = current_app._get_current_object()
    if not app.config.get("SCOREKEEPER_RERATE_FOLLOW_UP", True):
        return
    for game in sorted(games):
        start_follow_up(app, game)


def start_follow_up(app, game: str) -> None:
    """Re-rate `game` in the background, a chunk per transaction (one follow-up per game and process:
    a running one takes a new place on in its next chunk)."""
    with _running_lock:
        if game in _running:
            return
        _running.add(game)
    threading.Thread(target=_catch_up, args=(app, game), name=f"scorekeeper-rerate-{game}", daemon=True).start()


def following() -> bool:
    """Whether a follow-up of this process is running."""
    with _running_lock:
        return bool(_running)


def _catch_up(app, game: str) -> None:
    """Re-rate `game` a chunk per transaction until it is up to date."""
    try:
        with app.app_context():
            try:
                while not advance_committed(game, app.config.get("SCOREKEEPER_RERATE_CHUNK", CHUNK)):
                    time.sleep(PAUSE)  # under gevent, the requests waiting run now
            except Exception:  # the database went away: the next write of the game, or flask verify, goes on
                log.exception("history: could not bring the stories of %s up to date", game)
            finally:
                db.session.remove()
    finally:
        with _running_lock:
            _running.discard(game)
            _idle.notify_all()


def advance_committed(game: str, budget: int = CHUNK) -> bool:
    """One chunk of `game`'s stories in its own transaction; True when the game is up to date."""
    try:
        done = _advance(db.session.connection(), game, budget)
        db.session.info.pop(_STALE, None)
        db.session.commit()
        return done
    except Exception:
        db.session.rollback()
        raise


def wait_for_follow_ups(timeout: float = 30.0) -> bool:
    """Wait until this process has no follow-up running (the tests, the bench); False on timeout."""
    deadline = time.monotonic() + timeout
    with _idle:
        while _running:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _idle.wait(left)
    return True


def bring_up_to_date(budget: int = CHUNK) -> int:
    """Every game's stories worked out where they are stale (`flask verify --store`); how many games."""
    games = db.session.scalars(select(RatingBook.game).where(RatingBook.stale_from.is_not(None))).all()
    for game in games:
        while not advance_committed(game, budget):
            pass
    return len(games)


def stale_games() -> dict[str, int]:
    """The games whose stories are being worked out again, and from which place."""
    return dict(
        db.session.execute(
            select(RatingBook.game, RatingBook.stale_from).where(RatingBook.stale_from.is_not(None))
        ).all()
    )


# -- players merged -------------------------------------------------------------------------------------


def players_merged(leaving: int, staying: int) -> None:
    """`leaving`'s finished matches are `staying`'s now (in the merge's transaction, the seats moved
    already): their rows move, the pairs of both are counted again, and each game's stories are
    worked out again from the first match that moved."""
    db.session.flush()
    connection = db.session.connection()
    firsts = dict(
        connection.execute(
            select(SEATS.c.game, func.min(SEATS.c.place)).where(SEATS.c.player_id == leaving).group_by(SEATS.c.game)
        ).all()
    )
    books = {game: _book(connection, game, stale_at=firsts[game]) for game in sorted(firsts)}
    connection.execute(update(SEATS).where(SEATS.c.player_id == leaving).values(player_id=staying))
    involved = (PAIRS.c.player_id.in_([leaving, staying])) | (PAIRS.c.other_id.in_([leaving, staying]))
    connection.execute(delete(PAIRS).where(involved))
    together = TOGETHER.c.player_id.in_([leaving, staying]) | TOGETHER.c.other_id.in_([leaving, staying])
    connection.execute(delete(TOGETHER).where(together))
    for game in sorted(firsts):
        matches = select(SEATS.c.match_id).where(SEATS.c.player_id == staying, SEATS.c.game == game)
        rows = (
            connection.execute(
                select(SEATS).where(SEATS.c.match_id.in_(matches)).order_by(SEATS.c.match_id, SEATS.c.position)
            )
            .mappings()
            .all()
        )
        moves = [
            (pair, counts)
            for seats in _grouped_by("match_id", rows)
            for pair, counts in _pair_moves(figures_from_rows(seats), 1)
            if staying in pair
        ]  # the other pairs of those matches stay as they are
        _apply_pairs(connection, game, moves)
        kept = [
            {"player_id": one, "other_id": other, "match_id": seats[0]["match_id"]}
            for seats in _grouped_by("match_id", rows)
            for one, other in sorted(pairs_of([row["player_id"] for row in seats]))
            if staying in (one, other)
        ]
        if kept:
            connection.execute(insert(TOGETHER), kept)
        _advance(connection, game, INLINE, books[game][1])


# -- built again from the matches (a migration, the bench's bulk fill) --------------------------------------


_MATCH_COLUMNS = ("id", "game", "options", "state", "state_version", "version", "called", "updated")


def rebuild(connection=None) -> None:
    """Every finished match's seats put in the history again, in the order the matches finished (their
    last change), and every story, pair and book worked out from them (a migration: the matches
    finished before the history was kept). Reads rows only, through `connection`."""
    connection = connection or db.session.connection()
    for table in (SEATS, PAIRS, TOGETHER, BOOKS):
        connection.execute(table.delete())
    matches = Match.__table__
    seats = Seat.__table__
    finished = (
        connection.execute(
            select(matches.c.id).where(matches.c.status == FINISHED).order_by(matches.c.updated, matches.c.id)
        )
        .scalars()
        .all()
    )
    places: Counter = Counter()
    for start in range(0, len(finished), 500):
        ids = finished[start : start + 500]
        rows_of = {
            row.id: row
            for row in connection.execute(
                select(*(matches.c[name] for name in _MATCH_COLUMNS)).where(matches.c.id.in_(ids))
            )
        }
        seated = defaultdict(list)
        for seat in connection.execute(
            select(seats.c.match_id, seats.c.position, seats.c.player_id, seats.c.side)
            .where(seats.c.match_id.in_(ids))
            .order_by(seats.c.position)
        ):
            seated[seat.match_id].append(seat)
        rows = []
        for match_id in ids:
            match = rows_of[match_id]
            if match.game not in GAMES:
                continue
            try:
                figures = figures_stored(connection, match, seated[match_id])
            except Exception:  # a match the engine cannot read back: flask verify reports it, left out here
                log.warning("history: match %s left out of the stories (it does not replay)", match_id)
                continue
            if not figures:
                continue
            places[match.game] += 1
            for seat in figures:
                rows.append(
                    {
                        **seat.as_row(),
                        "match_id": match_id,
                        "game": match.game,
                        "place": places[match.game],
                        "finished": match.updated,
                        **Story().as_row(),
                    }
                )
        if rows:
            connection.execute(insert(SEATS), rows)
    refold(connection, renumber=False)


def refold(connection=None, renumber: bool = True) -> None:
    """Work out every story, pair and book from the seats' rows as they are; with `renumber`, give
    each game's matches their places again in the order they finished (rows copied in bulk)."""
    connection = connection or db.session.connection()
    for table in (PAIRS, TOGETHER, BOOKS):
        connection.execute(table.delete())
    games = connection.execute(select(SEATS.c.game).distinct()).scalars().all()
    for game in games:
        if renumber:
            _renumber(connection, game)
        stories: dict[int, Story] = defaultdict(Story)
        pairs: dict[tuple[int, int], Counter] = defaultdict(Counter)
        statistics, lowest = _rules_of(game)
        place, last = 0, (None, None)
        changed, together = [], []
        for seats in _grouped_by("match_id", _streamed(connection, game)):
            place += 1
            figures = figures_from_rows(seats)
            stories.update(fold(figures, stories, statistics, lowest))
            for pair, counts in pair_counts(figures).items():
                pairs[pair].update(counts)
            changed += [
                {
                    "match": row["match_id"],
                    "seat": row["position"],
                    "new_place": place,
                    **stories[row["player_id"]].as_row(),
                }
                for row in seats
                if row["place"] != place or Story.of(row) != stories[row["player_id"]]
            ]
            together += [
                {"player_id": one, "other_id": other, "match_id": seats[0]["match_id"]}
                for one, other in sorted(pairs_of(figures))
            ]
            if len(changed) >= 5000 or len(together) >= 5000:
                _refold_write(connection, changed, together)
                changed, together = [], []
            last = (game, place)
        _refold_write(connection, changed, together)
        connection.execute(insert(BOOKS).values(game=game, places=last[1] or 0, stale_from=None))
        rows = [
            {"player_id": one, "other_id": other, "game": game, **{name: counts[name] for name in PAIR_COLUMNS}}
            for (one, other), counts in sorted(pairs.items())
        ]
        for start in range(0, len(rows), 5000):
            connection.execute(insert(PAIRS), rows[start : start + 5000])


def _refold_write(connection, changed: list[dict], together: list[dict]) -> None:
    if changed:
        connection.execute(_refold_update(), changed)
    if together:
        connection.execute(insert(TOGETHER), together)


def _renumber(connection, game: str) -> None:
    """Give a game's matches their places in the order they finished (the rows of copied matches
    hold their originals' places): each match's place from one ordered read of the game's matches."""
    order = (
        connection.execute(
            select(SEATS.c.match_id, func.min(SEATS.c.finished).label("finished"))
            .where(SEATS.c.game == game)
            .group_by(SEATS.c.match_id)
            .order_by("finished", SEATS.c.match_id)
        )
        .scalars()
        .all()
    )
    moves = [{"match": match_id, "new_place": place} for place, match_id in enumerate(order, start=1)]
    for start in range(0, len(moves), 5000):
        connection.execute(_place_update(), moves[start : start + 5000])


@cache
def _place_update():
    return update(SEATS).where(SEATS.c.match_id == bindparam("match")).values(place=bindparam("new_place"))


def _streamed(connection, game: str) -> Iterator[dict]:
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


@cache
def _refold_update():
    return (
        update(SEATS)
        .where(SEATS.c.match_id == bindparam("match"), SEATS.c.position == bindparam("seat"))
        .values(place=bindparam("new_place"), **{name: bindparam(name) for name in Story.COLUMNS})
    )


# -- flask verify: the kept stories against a fresh computation -------------------------------------------

SHOWN = 5  # differences told per game; the rest are counted


def put_right(scored) -> bool:
    """Put a match's seats in the history as its replay says (flask verify --store), in the current
    transaction; True if anything changed."""
    db.session.flush()
    connection = db.session.connection()
    new = figures_of(scored, connection) if scored.finished else []
    old = _as_rows(pipeline.run(connection, [(_ROWS_OF, {"match_id": scored.match.id})])[0])
    if figures_from_rows(old) == new:
        return False
    _change(connection, scored.match.game, scored.match.id, new, old)
    return True


def match_differences(scored) -> list[str]:
    """Where a match's rows in the history differ from what its replay gives each seat."""
    connection = db.session.connection()
    rows = connection.execute(select(SEATS).where(SEATS.c.match_id == scored.match.id)).mappings().all()
    new = figures_of(scored, connection) if scored.finished else []
    if figures_from_rows(rows) == new:
        return []
    if not rows:
        return [f"match {scored.match.id}: finished, but not in its players' stories"]
    if not new:
        return [f"match {scored.match.id}: in its players' stories, but it is not finished"]
    return [f"match {scored.match.id}: what it gave its seats in the players' stories differs from the replay"]


def differences(connection=None) -> list[str]:
    """Where the kept stories, pairs and books differ from a fresh computation from the seats' rows
    (each game's matches folded in their order from the start), as sentences."""
    connection = connection or db.session.connection()
    books = {game: (places, stale) for game, places, stale in connection.execute(select(BOOKS))}
    pairs = [row._mapping for row in connection.execute(select(PAIRS))]
    together = dict(
        ((one, other), count)
        for one, other, count in connection.execute(
            select(TOGETHER.c.player_id, TOGETHER.c.other_id, func.count()).group_by(
                TOGETHER.c.player_id, TOGETHER.c.other_id
            )
        )
    )
    games = connection.execute(select(SEATS.c.game).distinct()).scalars().all()
    return _checked({game: _streamed(connection, game) for game in games}, books, pairs, together)


def file_differences(rows: dict[str, list[dict]]) -> list[str]:
    """The same checks on an export's rows (flask import), and that each finished match of the file is
    in the stories as its seats say (players, sides, outcomes) and no other match is."""
    by_game: dict[str, list[dict]] = defaultdict(list)
    for row in sorted(rows["rated_seat"], key=lambda row: (row["place"], row["match_id"], row["position"])):
        by_game[row["game"]].append(row)
    books = {row["game"]: (row["places"], row["stale_from"]) for row in rows["rating_book"]}
    together = Counter((row["player_id"], row["other_id"]) for row in rows["pair_match"])
    found = _seats_differences(rows)
    return found + _checked(by_game, books, rows["pair_tally"], together, stopping=True)


def _seats_differences(rows: dict[str, list[dict]]) -> list[str]:
    finished = {match["id"] for match in rows["match"] if match["status"] == FINISHED}
    seats = {
        (seat["match_id"], seat["position"]): (seat["player_id"], seat["side"], seat["outcome"])
        for seat in rows["seat"]
        if seat["match_id"] in finished
    }
    rated = {
        (row["match_id"], row["position"]): (row["player_id"], row["side"], row["outcome"])
        for row in rows["rated_seat"]
    }
    for key in sorted(set(seats) | set(rated)):
        if seats.get(key) != rated.get(key):
            return [f"match {key[0]}: its seats and its place in the players' stories disagree"]
    return []


def _checked(
    games: dict[str, Iterable],
    books: dict,
    kept_pairs: Iterable,
    together: dict[tuple[int, int], int],
    stopping: bool = False,
) -> list[str]:
    """Fold each game's rows (in place order) from the start and compare; then the pairs (their tallies
    per game, and how many matches together are listed for them) and the books. `stopping`: the first
    difference is enough (an import refuses at once)."""
    found = []
    pairs: dict[tuple[int, int, str], Counter] = defaultdict(Counter)
    for game in sorted(set(games) | set(books)):
        statistics, lowest = _rules_of(game)
        places, stale = books.get(game, (None, None))
        stories: dict[int, Story] = defaultdict(Story)
        wrong, last = [], 0
        for seats in _grouped_by("match_id", games.get(game, ())):
            figures = figures_from_rows(seats)
            after = fold(figures, stories, statistics, lowest)
            stories.update(after)
            for (one, other), counts in pair_counts(figures).items():
                pairs[one, other, game].update(counts)
            last = seats[0]["place"]
            if stale is not None and last >= stale:
                continue  # still being worked out: a follow-up (or flask verify --store) goes on from here
            wrong += [
                f"{game}: player {row['player_id']}'s story after match {row['match_id']} differs from a "
                "fresh computation"
                for row in seats
                if not same_story(Story.of(row), after[row["player_id"]])
            ]
        found += wrong[:SHOWN]
        if len(wrong) > SHOWN:
            found.append(f"{game}: {len(wrong) - SHOWN} more stories differ from a fresh computation")
        if places is None or places < last:
            found.append(f"{game}: its book of places is behind its finished matches")
        if stale is not None and not stopping:
            found.append(f"{game}: its stories are still being worked out again (from place {stale})")
        if found and stopping:
            return found[:1]
    held = {
        (row["player_id"], row["other_id"], row["game"]): {name: row[name] for name in PAIR_COLUMNS}
        for row in kept_pairs
    }
    for key in sorted(set(held) | set(pairs)):
        counted = {name: pairs[key][name] for name in PAIR_COLUMNS} if key in pairs else None
        kept = held.get(key)
        if kept != counted and not (counted is None and not any(kept.values())):
            found.append(
                f"players {key[0]} and {key[1]}, {key[2]}: the kept tally of their matches together "
                "differs from their seats"
            )
            if stopping:
                return found[:1]
    listed: Counter = Counter()
    for (one, other, _), counts in pairs.items():
        if one < other:
            listed[one, other] += counts["partners"] + counts["against"]
    for key in sorted(set(listed) | set(together)):
        if listed.get(key, 0) != together.get(key, 0):
            found.append(
                f"players {key[0]} and {key[1]}: the list of their finished matches together differs from their seats"
            )
            if stopping:
                return found[:1]
    return found


def same_story(kept: Story, fresh: Story) -> bool:
    """Equal, the ratings to within a billionth (a float read back from the database)."""
    close = abs(kept.mu - fresh.mu) <= 1e-9 * max(1.0, abs(fresh.mu)) and abs(kept.sigma - fresh.sigma) <= 1e-9
    return close and kept.as_row() | {"mu": 0, "sigma": 0} == fresh.as_row() | {"mu": 0, "sigma": 0}


def repair() -> None:
    """Every story, pair and book worked out again from the seats' rows (flask verify --store)."""
    refold(db.session.connection(), renumber=False)
    db.session.commit()
