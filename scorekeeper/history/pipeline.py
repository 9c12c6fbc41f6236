"""Several statements of one write in one round trip on PostgreSQL (psycopg's pipeline mode).

A finishing write of a match adds six statements for the history (its hands, the game's book, the
players' stories so far; the pairs' tallies, the pairs' list, the seats' rows). On PostgreSQL a
statement is a round trip, which costs a request more than its work does (connections.py), and the
statements of each half need nothing from each other: each half is sent at once and answered at
once. Elsewhere (SQLite, in the same process) they simply run one after the other.

Each statement is compiled once by SQLAlchemy for the connection's dialect and its parameters go
through the same bind processing SQLAlchemy applies (JSON written by the app's serializer, times in
UTC), so the rows are exactly those the statements would write one by one.

A write's statements that answer nothing and that nothing in Python waits for (a changed hand's
columns, the match's log, the seats' outcomes and their tallies) are held (`hold`) and sent ahead of
the write's next round trip (`run_held`) rather than each alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from flask_sqlalchemy.session import Session
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Executable

Call = tuple[Executable, Mapping[str, Any] | Sequence[Mapping[str, Any]]]
_HELD = "pipeline: writes held for the next round trip"


def hold(session, call: Call, check: Callable[[list], None] | None = None, first: bool = False) -> None:
    """Send `call` (a write) with the session's next `run_held`, before its calls (`first`: before the
    writes held so far); `check` is given its answer's rows then, and may refuse the write."""
    session.connection()  # in the transaction it belongs to: a rollback of it drops the call
    held = session.info.setdefault(_HELD, [])
    held.insert(0 if first else len(held), (call, check))


def run_held(session, calls: Sequence[Call] = ()) -> list[list[tuple] | None]:
    """`run` the writes held so far, then `calls` (their answers), in the session's transaction."""
    held = session.info.pop(_HELD, [])
    if not held and not calls:
        return []
    answers = run(session.connection(), [*(call for call, _ in held), *calls])
    for (_, check), answer in zip(held, answers):
        if check is not None:
            check(answer)
    return answers[len(held) :]


@event.listens_for(Session, "before_commit")
def _send_held(session) -> None:
    """Whatever is still held goes before the commit: nothing held is ever lost."""
    run_held(session)


@event.listens_for(Session, "after_soft_rollback")
def _drop_held(session, previous_transaction) -> None:
    """A write rolled back sends nothing it held."""
    session.info.pop(_HELD, None)


def run(connection, calls: Sequence[Call]) -> list[list[tuple] | None]:
    """Run `calls` in order ((statement, parameters), or a list of parameters: one execution each),
    in one round trip on PostgreSQL; the rows each answered (None where it returns none)."""
    if connection.dialect.name != "postgresql":
        return [_rows(connection.execute(statement, parameters)) for statement, parameters in calls]
    try:
        return _pipelined(connection, calls)
    except connection.dialect.loaded_dbapi.Error as error:  # as SQLAlchemy would raise it: a clash is a 409
        raise DBAPIError.instance(None, None, error, connection.dialect.loaded_dbapi.Error) from error


def _pipelined(connection, calls: Sequence[Call]) -> list[list[tuple] | None]:
    raw = connection.connection.driver_connection
    cursors = []
    with raw.pipeline():
        for statement, parameters in calls:
            many = not isinstance(parameters, Mapping)
            first = parameters[0] if many else parameters
            text, processors, returns = _compiled(connection.dialect, statement, tuple(first))
            cursor = raw.cursor()
            processed = [_processed(row, processors) for row in (parameters if many else [parameters])]
            if many:
                cursor.executemany(text, processed)
            else:
                cursor.execute(text, processed[0])
            cursors.append((cursor, returns))
    answers = [cursor.fetchall() if returns else None for cursor, returns in cursors]
    for cursor, _ in cursors:
        cursor.close()
    return answers


def _rows(result) -> list[tuple] | None:
    return [tuple(row) for row in result.all()] if result.returns_rows else None


@cache
def _compiled(dialect, statement: Executable, keys: tuple[str, ...]):
    """The statement's SQL for the dialect (named parameters), its bind processors, whether it returns rows."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    processors = {name: processor for name, processor in compiled._bind_processors.items() if processor}
    names = {bind.key: name for bind, name in compiled.bind_names.items()}
    # Values the statement holds itself (`.values(stale_from=None)`): sent as SQLAlchemy would send them.
    held = {name: bind.value for bind, name in compiled.bind_names.items() if not bind.required}
    # A column's default or update made in Python (a row's `updated`), where a call leaves it out: made
    # for each row, as SQLAlchemy's execution makes it.
    made = {column.key: column.default for column in compiled.insert_prefetch}
    made.update((column.key, column.onupdate) for column in compiled.update_prefetch)
    held.update((names.get(key, key), _Made(default)) for key, default in made.items())
    returns = statement.is_select or bool(getattr(statement, "_returning", ()))
    return compiled.string, (processors, names, held), returns


class _Made:
    """A value made for each row by a column's Python default."""

    def __init__(self, default):
        self.default = default

    def __call__(self):
        return self.default.arg(None) if self.default.is_callable else self.default.arg


def _processed(row: Mapping[str, Any], compiled: tuple[dict, dict, dict]) -> dict[str, Any]:
    processors, names, held = compiled
    out = {**held, **{names.get(key, key): value for key, value in row.items()}}
    for key, value in out.items():
        if isinstance(value, _Made):
            value = value()
        processor = processors.get(key)
        out[key] = processor(value) if processor and value is not None else value
    return out
