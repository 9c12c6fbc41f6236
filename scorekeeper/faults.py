"""When the database itself fails, the answer says so (issue 38, item 3): a full disk is a 507 the
table can tell the host about, and the host's log says it loudly once a minute; a database that is
away or restarting is a 503 with Retry-After (the outbox sends again); only a real clash between two
writes is the 409 "another phone changed this match". Nothing acknowledged is lost in any of them:
the write's transaction was rolled back whole."""

from __future__ import annotations

import logging
import sqlite3
import time

from flask import Flask
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import DBAPIError, IntegrityError

from .errors import error_answer
from .extensions import db

log = logging.getLogger(__name__)

DISK_FULL = _l("The server's disk is full: nothing was changed. Tell the host.")
AWAY = _l("The server cannot reach its database just now: nothing was changed. Try again in a moment.")
CHANGED_ELSEWHERE = "Another phone changed this match just now; look at the score and try again."  # a real clash
NOT_TAKEN = _l("Not taken")  # the page's title, as for the other writes the server could not take
RETRY_SECONDS = 5
LOG_EVERY = 60  # seconds between two loud lines about a full disk, per process
POSTGRES_DISK_FULL = {"53100", "53200"}  # disk_full, out_of_memory
POSTGRES_AWAY_CLASSES = ("08", "57")  # connection exceptions; operator intervention (shutdown, restart)
SQLITE_AWAY = {sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_NOTADB}
_logged = {"disk": float("-inf")}


class DatabaseTrouble(Exception):
    """The server's own trouble, not the table's: answered with its status, never taken for a clash."""

    def __init__(self, status: int, message, retry: bool):
        super().__init__(str(message))
        self.status, self.message, self.retry = status, message, retry


def trouble_of(error: DBAPIError) -> DatabaseTrouble | None:
    """A full disk or a database away, read from the driver's error; None for anything else."""
    original = getattr(error, "orig", None)
    sqlite_code = getattr(original, "sqlite_errorcode", None)
    state = getattr(original, "sqlstate", None) or ""
    if sqlite_code == sqlite3.SQLITE_FULL or state in POSTGRES_DISK_FULL:
        _say_disk_full(error)
        return DatabaseTrouble(507, DISK_FULL, retry=False)
    if (
        error.connection_invalidated
        or sqlite_code in SQLITE_AWAY
        or state.startswith(POSTGRES_AWAY_CLASSES)
        or (
            original is not None
            and sqlite_code is None
            and not state
            and not isinstance(error, IntegrityError)
            and type(original).__module__.startswith("psycopg")
        )
    ):
        return DatabaseTrouble(503, AWAY, retry=True)
    return None


def clash_or_trouble(error: DBAPIError, clash: Exception) -> Exception:
    """What a write's database error is: the server's trouble, else the write's own `clash`."""
    return trouble_of(error) or clash


def _say_disk_full(error: DBAPIError) -> None:
    if time.monotonic() - _logged["disk"] >= LOG_EVERY:
        _logged["disk"] = time.monotonic()
        log.error("THE DISK IS FULL: writes are refused until there is room again (%s)", error.orig)


def answer_trouble(trouble: DatabaseTrouble):
    return error_answer(
        trouble.status, NOT_TAKEN, trouble.message, {"Retry-After": str(RETRY_SECONDS)} if trouble.retry else None
    )


def answer_database_error(error: DBAPIError):
    """A database error no write turned into a refusal: the server's trouble, or a clash (409),
    never a bare 500."""
    try:
        db.session.rollback()
    except DBAPIError:  # the connection is gone with the database: the pool makes a new one later
        pass
    trouble = trouble_of(error)
    if trouble is not None:
        return answer_trouble(trouble)
    log.warning("a database error answered as a clash", exc_info=error)
    return error_answer(409, NOT_TAKEN, CHANGED_ELSEWHERE)


def init_app(app: Flask) -> None:
    app.register_error_handler(DatabaseTrouble, answer_trouble)
    app.register_error_handler(DBAPIError, answer_database_error)
