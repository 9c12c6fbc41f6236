"""How the app's database connections are set up and checked, for every engine it opens.

SQLite: WAL, foreign keys and the fsync level, on each new connection.
PostgreSQL: a pooled connection is checked as the pool hands it out, since the server may have
restarted or dropped it in between. The check is the transaction's own BEGIN: one round trip, where
SQLAlchemy's `pool_pre_ping` sends a SELECT 1 and then the BEGIN (a tenth of a millisecond or more
on every request, measured with the bench)."""

from __future__ import annotations

import os

from psycopg import Error as PsycopgError
from psycopg import pq
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import Pool

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


@event.listens_for(Pool, "checkout")
def _begin_checks_postgres(dbapi_connection, connection_record, connection_proxy):
    """Open the transaction psycopg would open at the first statement, and take its answer as the
    proof that the connection is alive. A dead one raises DisconnectionError: the pool throws it
    away and hands out a fresh one (SQLAlchemy's documented way for a checkout handler)."""
    pgconn = getattr(dbapi_connection, "pgconn", None)
    if pgconn is None or dbapi_connection.autocommit:  # not psycopg, or no transactions to open
        return
    status = pgconn.transaction_status
    if status == pq.TransactionStatus.UNKNOWN:  # libpq already knows the connection is gone
        raise DisconnectionError("the connection to PostgreSQL was lost")
    if status != pq.TransactionStatus.IDLE:
        return
    try:
        answer = pgconn.exec_(b"BEGIN")
    except PsycopgError as error:
        raise DisconnectionError(str(error)) from error
    if answer.status != pq.ExecStatus.COMMAND_OK:
        raise DisconnectionError(answer.error_message.decode(errors="replace"))
