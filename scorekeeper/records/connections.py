"""How the app's database connections are set up and checked.

SQLite (every engine): WAL, foreign keys and the fsync level, on each new connection.
PostgreSQL (the app's engine, `watch`): a pooled connection is checked as the pool hands it out,
since the server may have restarted or ended it in between, without the round trip of SQLAlchemy's
`pool_pre_ping` (its SELECT 1 cost 0.1 to 0.3 ms a request here), and a request that only reads
runs without a transaction. A round trip inside a request costs 0.2 to 0.6 ms on the development
machine (the server process has gone idle meanwhile), two to four times one in a tight loop: round
trips, not the statements' work, are what a request pays for on PostgreSQL."""

from __future__ import annotations

import os
import select
import threading
from contextlib import contextmanager

from flask import has_request_context, request
from psycopg import Error as PsycopgError
from psycopg import pq
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

# PRAGMA synchronous: FULL syncs the WAL at every commit, so an acknowledged hand survives a power
# cut (NORMAL may lose the last ones; bench/sqlite_sync.py measures the cost).
SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")


def sqlite_synchronous() -> str:
    level = os.environ.get("SCOREKEEPER_SQLITE_SYNCHRONOUS", "FULL").upper()
    return level if level in SYNCHRONOUS_LEVELS else "FULL"


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, connection_record):
    """WAL lets pages read while a hand is written; SQLite leaves foreign keys off unless asked."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
        cursor.close()


_reading = threading.local()  # per thread, and per greenlet under gevent (which patches threading)


@contextmanager
def reading_only():
    """Connections checked out inside this block only read: on PostgreSQL they run without a
    transaction, as a GET request's do (for work outside a request, such as the live poller)."""
    _reading.on = True
    try:
        yield
    finally:
        _reading.on = False


def watch(engine: Engine) -> None:
    """Check and open the app's PostgreSQL connections as its pool hands them out."""
    if engine.dialect.name == "postgresql":
        event.listen(engine, "checkout", _open_postgres)


def _open_postgres(dbapi_connection, connection_record, connection_proxy):
    """A request that only reads (GET, HEAD) runs without a transaction: at PostgreSQL's READ
    COMMITTED each statement sees its own moment anyway, and the BEGIN and ROLLBACK around it were two
    of a page's three round trips. A request that may write opens its transaction here, and takes the
    answer to that BEGIN as the proof that the connection is alive. A dead connection raises
    DisconnectionError: the pool throws it away and hands out a fresh one (SQLAlchemy's documented
    way for a checkout handler)."""
    pgconn = dbapi_connection.pgconn
    status = pgconn.transaction_status
    if status == pq.TransactionStatus.UNKNOWN or _server_spoke(pgconn):
        raise DisconnectionError("the connection to PostgreSQL was closed while it waited in the pool")
    if status != pq.TransactionStatus.IDLE:
        return
    reading = getattr(_reading, "on", False) or (has_request_context() and request.method in ("GET", "HEAD"))
    dbapi_connection.autocommit = reading  # psycopg only notes it: no round trip
    if reading:
        return
    try:
        answer = pgconn.exec_(b"BEGIN")
    except PsycopgError as error:
        raise DisconnectionError(str(error)) from error
    if answer.status != pq.ExecStatus.COMMAND_OK:
        raise DisconnectionError(answer.error_message.decode(errors="replace"))


def _server_spoke(pgconn) -> bool:
    """Whether the server sent something to a connection that asked nothing: when it ends a connection
    (a restart, an administrator) it says so and closes the socket. Costs no round trip."""
    waiting = select.poll()
    waiting.register(pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(waiting.poll(0))
