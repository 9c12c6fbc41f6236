"""The data a host keeps: SQLite backups and restores, a full JSON export and import, hands as CSV.

The JSON export holds every row of every table the models declare (players, matches, seats,
hands and whatever a later migration adds), column by column, so importing it into an empty
database of the same schema gives back exactly the same export, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import base64
import csv
import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from alembic.migration import MigrationContext
from sqlalchemy import Column, Table, func, select

from . import service
from .extensions import db
from .games import base
from .models import Match

FORMAT = "scorekeeper-export"
VERSION = 1
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class DataError(Exception):
    """A backup, restore or import that cannot be done, said in one sentence."""


# -- JSON export and import ---------------------------------------------------------------------


def tables() -> list[Table]:
    """The app's tables, each after the tables it refers to."""
    return list(db.metadata.sorted_tables)


def schema_revision() -> str | None:
    """The Alembic revision the database is at (None for a schema made without migrations)."""
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def export_data() -> dict[str, Any]:
    """Every row of every table, in primary-key order, as JSON-ready values."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": schema_revision(),
        "tables": {table.name: [encode_row(table, row) for row in rows_of(table)] for table in tables()},
    }


def rows_of(table: Table) -> Iterator[dict]:
    query = select(table).order_by(*table.primary_key.columns)
    return (dict(row._mapping) for row in db.session.execute(query))


def python_type(column: Column) -> type:
    """What Python type the column holds, seen through TypeDecorators such as UtcDateTime."""
    stored = getattr(column.type, "impl_instance", column.type)
    try:
        return stored.python_type
    except NotImplementedError:
        return object


def encode_row(table: Table, row: dict) -> dict:
    return {column.name: encode(column, row[column.name]) for column in table.columns}


def encode(column: Column, value: Any) -> Any:
    if value is None:
        return None
    kind = python_type(column)
    if kind is datetime:
        return value.isoformat()  # with its offset: the model's times are UTC on every database
    if kind is bytes:
        return base64.b64encode(value).decode("ascii")
    return value


def decode(column: Column, value: Any) -> Any:
    if value is None:
        return None
    kind = python_type(column)
    if kind is datetime:
        return datetime.fromisoformat(value)
    if kind is bytes:
        return base64.b64decode(value)
    return value


def decode_row(table: Table, row: dict) -> dict:
    unknown = set(row) - set(table.columns.keys())
    if unknown:
        raise DataError(f"The export has columns this version does not know: {table.name}.{', '.join(sorted(unknown))}.")
    return {name: decode(table.columns[name], value) for name, value in row.items()}


def check_export(data: Any) -> dict[str, list[dict]]:
    """The export's tables, once it is known to be one this version can take."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError("That file is not a Scorekeeper export.")
    if data.get("version") != VERSION:
        raise DataError(f"That export is in format version {data.get('version')}; this Scorekeeper reads {VERSION}.")
    here = schema_revision()
    if data.get("schema") and here and data["schema"] != here:
        raise DataError(
            f"That export is of schema {data['schema']} and this database is at {here}: "
            "import it into a database at the same revision (flask db upgrade or downgrade first)."
        )
    known = {table.name for table in tables()}
    stray = set(data.get("tables", {})) - known
    if stray:
        raise DataError(f"The export has tables this version does not know: {', '.join(sorted(stray))}.")
    return data["tables"]


def is_empty() -> bool:
    return all(db.session.scalar(select(func.count()).select_from(table)) == 0 for table in tables())


def import_data(data: Any) -> dict[str, int]:
    """Load an export into an empty database, in one transaction; how many rows per table."""
    given = check_export(data)
    if not is_empty():
        raise DataError("The database already holds data: import only into an empty one.")
    counts = {}
    try:
        for table in tables():
            rows = [decode_row(table, row) for row in given.get(table.name, [])]
            if rows:
                db.session.execute(table.insert(), rows)
            counts[table.name] = len(rows)
        move_sequences_past_imported_ids()
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return counts


def move_sequences_past_imported_ids() -> None:
    """PostgreSQL hands out ids from sequences that an import with ids does not move: move each past
    the largest id, so the next match gets a new one. (SQLite takes the largest id plus one.)"""
    if db.engine.dialect.name != "postgresql":
        return
    quote = db.engine.dialect.identifier_preparer.quote
    for table in tables():
        for column in table.primary_key.columns:
            if column.autoincrement is True or (column.autoincrement == "auto" and python_type(column) is int):
                db.session.execute(db.text(
                    f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                    f"COALESCE((SELECT MAX({quote(column.name)}) FROM {quote(table.name)}), 0) + 1, false)"
                ), {"table": quote(table.name), "column": column.name})


def write_json(data: dict, out: IO[str]) -> None:
    json.dump(data, out, ensure_ascii=False, indent=1)
    out.write("\n")


# -- hands as CSV -------------------------------------------------------------------------------

CSV_COLUMNS = ["match", "game", "started", "status", "hand", "recorded", "side", "players", "change", "reasons", "record"]


def write_hands_csv(out: IO[str]) -> int:
    """One row per hand and side (a spreadsheet sums `change` per side); how many hands."""
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    count = 0
    base.mark_sides(True)  # reasons name the players, as the pages do
    try:
        for match in db.session.scalars(select(Match).order_by(Match.id)):
            for row in match_rows(match):
                writer.writerow(row)
            count += len(match.hands)
    finally:
        base.mark_sides(False)
    return count


def match_rows(match: Match) -> Iterator[list]:
    recorded = {hand.number: hand.created for hand in match.hands}
    scored = service.score(match)
    for number, (record, done) in enumerate(zip(scored.replay.records, scored.replay.results), start=1):
        reasons = "; ".join(service.named(match, str(reason)) for reason in done.reasons)
        for side, change in enumerate(done.changes):
            yield [
                match.id, match.game, match.created.isoformat(), match.status, number,
                recorded[number].isoformat(), LETTERS[side], " & ".join(scored.sides[side]), change,
                reasons, json.dumps(record, ensure_ascii=False),
            ]


# -- SQLite backup and restore ------------------------------------------------------------------


def sqlite_path() -> Path:
    """The SQLite file this app keeps its data in; PostgreSQL has pg_dump for this."""
    if db.engine.dialect.name != "sqlite" or not db.engine.url.database:
        raise DataError(
            "This database is not a SQLite file. For PostgreSQL use pg_dump and pg_restore "
            "(pg_dump --format=custom --file=scorekeeper.dump \"$DATABASE_URL\")."
        )
    return Path(db.engine.url.database)


def create_private(path: Path) -> None:
    """A new, empty file that only its owner can read (made so, not chmod-ed after)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise DataError(f"{path} exists already; choose a new file name.") from None


def backup(target: Path) -> dict[str, int]:
    """Copy the live database into `target` with SQLite's online backup: a consistent copy,
    hands still in the WAL included, while the app goes on serving. Rows per table copied."""
    source_path = sqlite_path()
    create_private(target)
    db.session.remove()
    source = sqlite3.connect(source_path)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        return check_sqlite(copy)
    finally:
        copy.close()
        source.close()


def check_sqlite(connection: sqlite3.Connection) -> dict[str, int]:
    """Rows per table of a Scorekeeper SQLite database, once SQLite finds it sound."""
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:
        raise DataError(f"That is not a sound SQLite database ({error}).") from None
    if verdict != "ok":
        raise DataError(f"SQLite finds that database damaged: {verdict}")
    wanted = [table.name for table in tables()]
    missing = [name for name in wanted if name not in names]
    if missing:
        raise DataError(f"That database lacks Scorekeeper's tables ({', '.join(missing)}).")
    return {name: connection.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in wanted}


def restore(source: Path) -> dict[str, int]:
    """Replace the live database's contents with the backup at `source` (SQLite's backup API the
    other way round, so the file is never half written). Rows per table restored."""
    target_path = sqlite_path()
    if not source.is_file():
        raise DataError(f"There is no backup at {source}.")
    backup_copy = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        counts = check_sqlite(backup_copy)
        db.session.remove()
        db.engine.dispose()  # no pooled connection keeps reading the old pages
        live = sqlite3.connect(target_path)
        try:
            backup_copy.backup(live)
        finally:
            live.close()
    finally:
        backup_copy.close()
    return counts
