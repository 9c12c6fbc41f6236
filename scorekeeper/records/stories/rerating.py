"""Re-rating: a game's stories worked out again from the place where they went stale (a change to
an early finished match), every later match of the game after it, as one named job.

A write that leaves a game stale marks its book (`rating_book.stale_from`, in the write's own
transaction: placing.py) and, after its commit, wakes the process's runner (`wanted`). The runner is
one thread per process, started with the app (never inside a request): it re-rates a chunk of seats
per transaction (`rerate_chunk`) and then rests, so that the tables scoring meanwhile keep the
process: it works at most a quarter of the time (REST). Since the place is kept in the book, a
re-rating that a stopped process left half done is taken up by the next runner to look
(LOOK_SECONDS), by `flask rerate` or by `flask verify --store`."""

from __future__ import annotations

import logging
import threading
import time
from functools import cache

from flask import current_app
from sqlalchemy import Integer, bindparam, select, update

from ...extensions import db
from ...models import RatingBook
from .figures import figures_from_rows
from .ledger import BOOKS, SEATS, book, grouped_by, most_seats, rules_of, stories_before
from .stats import Story, fold

log = logging.getLogger(__name__)

INLINE = 13  # seats a merge re-rates in its own transaction (at least one match); the rest follow
CHUNK = 48  # seats re-rated per transaction: a few ms of work, so a write waiting for it waits little
REST = 3  # after each chunk the runner rests this many times as long as the chunk took
LOOK_SECONDS = 60  # how often an idle runner looks for a re-rating left undone elsewhere


def rerate(connection, game: str, budget: int, stale_from: int | None = None) -> bool:
    """Work the game's stories out again from where they are stale, for up to `budget` seats (whole
    matches), in the caller's transaction, whose write holds the book already (a merge); the book
    moves on. True when the game is up to date."""
    if stale_from is None:
        _, stale_from = book(connection, game)
        if stale_from is None:
            return True
    rows, following = _chunk(connection, game, budget, stale_from)
    _write(connection, game, _worked_out(connection, game, rows, stale_from), following)
    return following is None


def _chunk(connection, game: str, budget: int, stale_from: int) -> tuple[list, int | None]:
    """The rows of the next whole matches from `stale_from`, and the place the chunk after starts at."""
    budget = max(budget, most_seats() + 1)  # at least one whole match
    rows = connection.execute(_chunk_statement(), {"game": game, "place": stale_from, "limit": budget}).mappings().all()
    if len(rows) < budget:
        return list(rows), None
    following = rows[-1]["place"]  # the last match may be cut short: it starts the next chunk
    return [row for row in rows if row["place"] < following], following


def _worked_out(connection, game: str, rows: list, stale_from: int) -> list[dict]:
    """Each seat of `rows` whose story comes out otherwise, with its new story."""
    statistics, lowest = rules_of(game)
    stories = stories_before(connection, game, {row["player_id"] for row in rows}, stale_from)
    changed = []
    for seats in grouped_by("place", rows):
        time.sleep(0)  # a request waiting for the interpreter (a thread, a greenlet) runs between two matches
        after = fold(figures_from_rows(seats), stories, statistics, lowest)
        stories.update(after)
        for row in seats:
            story = after[row["player_id"]]
            if Story.of(row) != story:
                changed.append({"match": row["match_id"], "seat": row["position"], **story.as_row()})
    return changed


def _write(connection, game: str, changed: list[dict], following: int | None) -> None:
    if changed:
        connection.execute(_update_story(), changed)
    connection.execute(update(BOOKS).where(BOOKS.c.game == game).values(stale_from=following))


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


def rerate_chunk(game: str, budget: int = CHUNK) -> bool:
    """One chunk of `game`'s stories; True when the game is up to date. The chunk is read and worked
    out before any lock is taken; then, holding the book, it is written only if neither the book nor
    the chunk's rows moved meanwhile (else the next chunk works it out again). So a table's write waits
    for the chunk's few writes, never for its working out (on SQLite, one writer at a time)."""
    connection = db.session.connection()
    try:
        stale_from = connection.execute(_STALE_FROM, {"game": game}).scalar()
        if stale_from is None:
            return True
        rows, following = _chunk(connection, game, budget, stale_from)
        changed = _worked_out(connection, game, rows, stale_from)
        db.session.rollback()  # the reads' transaction ends: the writes are checked afresh
        connection = db.session.connection()
        _, now_stale = book(connection, game)  # the book held until the commit
        now_rows, now_following = _chunk(connection, game, budget, stale_from)
        if now_stale != stale_from or now_rows[: len(rows)] != rows:
            db.session.rollback()
            return False
        if following is None:  # a match that finished meanwhile comes after these: the next chunk's
            following = now_rows[len(rows)]["place"] if len(now_rows) > len(rows) else now_following
        _write(connection, game, changed, following)
        db.session.commit()
        return following is None
    except Exception:
        db.session.rollback()
        raise


_STALE_FROM = select(BOOKS.c.stale_from).where(BOOKS.c.game == bindparam("game"))


def rerate_all(budget: int = CHUNK) -> int:
    """Every game's stories worked out where they are stale (`flask verify --store`); how many games."""
    games = db.session.scalars(select(RatingBook.game).where(RatingBook.stale_from.is_not(None))).all()
    for game in games:
        while not rerate_chunk(game, budget):
            pass
    return len(games)


def stale_games() -> dict[str, int]:
    """The games whose stories are being worked out again, and from which place."""
    return dict(
        db.session.execute(
            select(RatingBook.game, RatingBook.stale_from).where(RatingBook.stale_from.is_not(None))
        ).all()
    )


# -- the runner: one per process -------------------------------------------------------------------------


class Runner:
    """The process's re-rating job: a daemon thread (a greenlet under gunicorn's gevent workers) that
    re-rates every stale game, woken by `wanted` and otherwise looking every LOOK_SECONDS."""

    def __init__(self, app, chunk: int = CHUNK):
        self.app, self.chunk = app, chunk
        self._woken = threading.Event()
        self._idle = threading.Event()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._woken.set()  # a first look at once: a re-rating left undone before this process started

    def start(self) -> Runner:
        self.app.extensions["rerating"] = self
        self._thread = threading.Thread(target=self._run, name="scorekeeper-rerate", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        self._idle.clear()
        self._woken.set()

    def stop(self) -> None:
        """End the thread after its current chunk, and wait for it (the bench, the tests)."""
        self._stopped = True
        self.wake()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def wait_until_idle(self, timeout: float) -> bool:
        """Whether every stale game was re-rated within `timeout` seconds (the tests, the bench)."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while not self._stopped:
            self._woken.wait(LOOK_SECONDS)
            self._woken.clear()
            if self._stopped:
                break
            with self.app.app_context():
                try:
                    self._rerate_stale_games()
                except Exception:  # the database went away: the next look takes it up again
                    log.exception("re-rating stopped; it goes on at the next look")
                finally:
                    db.session.remove()
            if not self._woken.is_set():
                self._idle.set()

    def _rerate_stale_games(self) -> None:
        for game in sorted(stale_games()):
            while not self._stopped:
                started = time.monotonic()
                done = rerate_chunk(game, self.chunk)
                time.sleep(REST * (time.monotonic() - started))  # the tables' requests run meanwhile
                if done:
                    break


def wanted(games: set[str]) -> None:
    """After a write's commit: wake the process's runner if the write left `games` to re-rate (with
    no runner, as in a `flask` command, the next runner to look or `flask rerate` takes them up)."""
    runner = current_app.extensions.get("rerating") if games else None
    if runner is not None:
        runner.wake()
