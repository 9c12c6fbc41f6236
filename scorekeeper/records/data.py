"""The data a host keeps: SQLite backups and restores, a full JSON export and import, hands as CSV.

The JSON export holds every row of every table the models declare (players, matches, seats,
hands and whatever a later migration adds), column by column, so importing it into an empty
database of the same schema gives back exactly the same export, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import base64
import json
import os
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any

from alembic.migration import MigrationContext
from sqlalchemy import BigInteger, Column, PrimaryKeyConstraint, SmallInteger, Table, UniqueConstraint, func, select
from sqlalchemy.exc import SQLAlchemyError

from ..errors import Invalid
from ..extensions import db
from ..models import as_utc
from . import verify
from .reads import ID_LIMIT
from .stories import audit
from .writes import clean_name

FORMAT = "scorekeeper-export"
VERSION = 1


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


# -- reading an export: every refusal is one sentence, before anything is written -------------------

DEEPEST = 100  # levels of nesting a file may have; an export has about a dozen
WIDEST_INT = 2**63  # no whole number in an export is this large, nor any database's integer
TOO_DEEP = f"That file nests its values more than {DEEPEST} levels deep; an export never does."


class Unreadable(ValueError):
    """What makes a file's JSON unacceptable, found while reading it."""


def read_export(raw: bytes) -> Any:
    """The JSON of an export file, read strictly: UTF-8, one value, no key twice in an object, no
    NaN or infinite number, no lone surrogate, nothing nested deeper than DEEPEST."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        byte = raw[error.start]
        raise DataError(f"That file is not UTF-8 text (byte {byte:#04x} at offset {error.start}).") from None
    if not text.strip():
        raise DataError("That file is empty.")
    try:
        given = json.loads(text, object_pairs_hook=_object, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        raise DataError(f"That file is not JSON ({error}).") from None
    except RecursionError:
        raise DataError(TOO_DEEP) from None
    except Unreadable as error:
        raise DataError(f"That file {error}.") from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits
        raise DataError("That file holds a number too long to be one Scorekeeper wrote.") from None
    _check_values(given)
    return given


def _object(pairs: list[tuple[str, Any]]) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):  # JSON would keep the last silently: which one was meant?
        seen = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise Unreadable(f"names the key {repeated!r} twice in one object")
    return found


def _constant(name: str) -> float:
    raise Unreadable(f"holds {name}, which is not a number JSON knows")


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise Unreadable(f"holds the number {text[:20]}, too large to keep")
    return number


def _check_values(given: Any) -> None:
    """Every value of the file, walked without recursion: not too deep, no number too wide for a
    database, no text that is not Unicode (a lone surrogate)."""
    waiting = [(given, 1)]
    while waiting:
        value, depth = waiting.pop()
        if depth > DEEPEST:
            raise DataError(TOO_DEEP)
        if isinstance(value, dict):
            waiting += [(key, depth) for key in value] + [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list):
            waiting += [(item, depth + 1) for item in value]
        elif isinstance(value, str) and not _is_unicode(value):
            raise DataError(f"That file holds text that is not Unicode ({value[:20]!r}).")
        elif isinstance(value, int) and not -WIDEST_INT <= value < WIDEST_INT:
            raise DataError(f"That file holds a whole number too large to keep ({str(value)[:20]}...).")


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_export(data: Any) -> dict[str, list]:
    """The export's tables, once it is known to be one this version can take."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError("That file is not a Scorekeeper export.")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise DataError(f"That export is in format version {version}; this Scorekeeper reads {VERSION}.")
    here = schema_revision()
    if data.get("schema") and here and data["schema"] != here:
        raise DataError(
            f"That export is of schema {data['schema']} and this database is at {here}: "
            "import it into a database at the same revision (flask db upgrade or downgrade first)."
        )
    given = data.get("tables")
    if not isinstance(given, dict):
        raise DataError("That export has no tables (an object of lists of rows).")
    stray = set(given) - {table.name for table in tables()}
    if stray:
        raise DataError(f"The export has tables this version does not know: {', '.join(sorted(stray))}.")
    for name, rows in given.items():
        if not isinstance(rows, list):
            raise DataError(f"The export's table {name} is not a list of rows.")
    return given


def decoded_rows(given: dict[str, list]) -> dict[str, list[dict]]:
    """Every row of every table, each column decoded to what it holds; DataError names the first
    value, key or reference the database would refuse."""
    rows = {
        table.name: [decode_row(table, row, number) for number, row in enumerate(given.get(table.name, []), 1)]
        for table in tables()
    }
    for table in tables():
        check_unique(table, rows[table.name])
        check_references(table, rows)
    return rows


def row_label(table: Table, number: int, row: dict) -> str:
    """How a refusal names a row: by its id where it has one, else by its place in the file."""
    row_id = row.get("id") if "id" in table.primary_key.columns else None
    return f"{table.name} with id {row_id}" if type(row_id) is int else f"{table.name} row {number}"


def decode_row(table: Table, row: Any, number: int = 1) -> dict:
    """Row `number` of the file's `table`, every column decoded to what it holds."""
    if not isinstance(row, dict):
        raise DataError(f"{table.name} row {number} is not an object of columns.")
    unknown = set(row) - set(table.columns.keys())
    if unknown:
        raise DataError(
            f"The export has columns this version does not know: {table.name}.{', '.join(sorted(unknown))}."
        )
    label = row_label(table, number, row)
    return {column.name: checked_value(label, column, row.get(column.name)) for column in table.columns}


def checked_value(label: str, column: Column, value: Any) -> Any:
    if value is None:
        if column.nullable:
            return None
        raise DataError(f"{label}: the column {column.name} is missing.")
    try:
        decoded = decode(column, value)
    except (TypeError, ValueError, OverflowError) as error:
        raise DataError(f"{label}: the column {column.name} {error}.") from None
    # The pages reach ids up to ID_LIMIT, and the next row takes the one after the largest.
    if numbered_by_the_database(column) and not 1 <= decoded < ID_LIMIT:
        raise DataError(f"{label}: the column {column.name} must be from 1 to {ID_LIMIT - 1}.")
    return decoded


def numbered_by_the_database(column: Column) -> bool:
    """An id the database hands out (a sequence on PostgreSQL; on SQLite the largest one plus one)."""
    return column.primary_key and (
        column.autoincrement is True or (column.autoincrement == "auto" and python_type(column) is int)
    )


def decode(column: Column, value: Any) -> Any:
    """A JSON value as the column holds it; ValueError says what the column takes instead."""
    stored = getattr(column.type, "impl_instance", column.type)
    kind = python_type(column)
    if kind is datetime:
        return _of_type(value, str, "must be a date and time (ISO 8601)", _utc_time)
    if kind is bytes:
        return base64.b64decode(_of_type(value, str, "must be base64 text"), validate=True)
    if kind is bool:
        return _of_type(value, bool, "must be true or false")
    if kind is int:
        bits = 64 if isinstance(stored, BigInteger) else 16 if isinstance(stored, SmallInteger) else 32
        if type(value) is not int or not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise ValueError(f"must be a whole number of at most {bits} bits")
        return value
    if kind is str:
        return _text(value, stored.length)
    return value  # JSON: any value the file could hold


def _of_type(value: Any, kind: type, wanted: str, parse=None) -> Any:
    if type(value) is not kind:
        raise ValueError(wanted)
    try:
        return parse(value) if parse else value
    except (ValueError, OverflowError):  # OverflowError: a time in year 1 or 9999 moved to UTC
        raise ValueError(wanted) from None


def _utc_time(text: str) -> datetime:
    return as_utc(datetime.fromisoformat(text))


def _text(value: Any, length: int | None) -> str:
    if type(value) is not str or "\x00" in value:
        raise ValueError("must be text (without NUL characters)")
    if length is not None and len(value) > length:
        raise ValueError(f"must be text of at most {length} characters")
    return value


def check_unique(table: Table, rows: list[dict]) -> None:
    """Each key and unique set of columns holds one row at most (NULLs never clash, as in SQL)."""
    for names in unique_columns(table):
        seen = set()
        for row in rows:
            values = tuple(row[name] for name in names)
            if None in values:
                continue
            if values in seen:
                shown = ", ".join(f"{name} {value!r}" for name, value in zip(names, values))
                raise DataError(f"Two rows of {table.name} have the same {shown}.")
            seen.add(values)


def unique_columns(table: Table) -> list[tuple[str, ...]]:
    sets = [
        constraint.columns
        for constraint in table.constraints
        if isinstance(constraint, (PrimaryKeyConstraint, UniqueConstraint))
    ]
    sets += [index.columns for index in table.indexes if index.unique]
    return [tuple(column.name for column in columns) for columns in sets]


def check_references(table: Table, rows: dict[str, list[dict]]) -> None:
    """Every foreign key names a row the file holds (the database it goes to is empty)."""
    for key in table.foreign_key_constraints:
        names = [element.parent.name for element in key.elements]
        targets = [element.column.name for element in key.elements]
        present = {tuple(row[name] for name in targets) for row in rows[key.referred_table.name]}
        for number, row in enumerate(rows[table.name], 1):
            values = tuple(row[name] for name in names)
            if None not in values and values not in present:
                raise DataError(
                    f"{row_label(table, number, row)}: its {', '.join(names)} "
                    f"{', '.join(map(str, values))} names no {key.referred_table.name} in the file."
                )


def check_players(players: list[dict]) -> None:
    """Names as the app keeps them, each with its case-folded key (how a new match finds a player)."""
    for player in players:
        try:
            clean = clean_name(player["name"])
        except Invalid as error:
            raise DataError(f"player {player['id']}: {error.message}") from None
        if clean != player["name"]:
            raise DataError(f"player {player['id']}: the name {player['name']!r} has spaces the app takes out.")
        if player["key"] != player["name"].casefold():
            raise DataError(f"player {player['id']}: its key is not its name case-folded.")


def check_write_keys(matches: list[dict]) -> None:
    """A match's write key is kept as its SHA-256 in hex: a check compares a key's with it, and
    hmac.compare_digest refuses (raises on) text that is not ASCII."""
    for match in matches:
        if match["key_hash"] is not None and not re.fullmatch("[0-9a-f]{64}", match["key_hash"]):
            raise DataError(f"match {match['id']}: its key_hash is not a SHA-256 in hex.")


def check_matches(rows: dict[str, list[dict]]) -> None:
    """Every match replays from its hands to what the file stores for it (as `flask verify` checks)."""
    seats, hands = _by_match(rows["seat"], "position"), _by_match(rows["hand"], "number")
    for match in rows["match"]:
        found = verify.stored_differences(
            SimpleNamespace(**match), seats.get(match["id"], []), hands.get(match["id"], [])
        )
        if found:
            raise DataError(f"{found[0]}.")


def _by_match(rows: list[dict], order: str) -> dict[int, list[SimpleNamespace]]:
    grouped: dict[int, list[SimpleNamespace]] = defaultdict(list)
    for row in sorted(rows, key=lambda row: row[order]):
        grouped[row["match_id"]].append(SimpleNamespace(**row))
    return grouped


def check_stories(rows: dict[str, list[dict]]) -> None:
    """The players' stories in the file follow from its finished matches, in each game's order (the
    ratings, streaks and totals as a fresh computation makes them), and so do its pairs' tallies."""
    found = audit.file_differences(rows)
    if found:
        raise DataError(f"{found[0]}.")


def is_empty() -> bool:
    return all(db.session.scalar(select(func.count()).select_from(table)) == 0 for table in tables())


def import_data(data: Any) -> dict[str, int]:
    """Load an export into an empty database, in one transaction, once every row of it is known to
    be one the app could have written; how many rows per table. A refusal writes nothing."""
    try:
        given = check_export(data)
        if not is_empty():
            raise DataError("The database already holds data: import only into an empty one.")
        rows = decoded_rows(given)
        check_players(rows["player"])
        check_write_keys(rows["match"])
        check_matches(rows)
        check_stories(rows)
        return write_rows(rows)
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        raise DataError(f"The database refused the import, and nothing was written ({reason}).") from None


def write_rows(rows: dict[str, list[dict]]) -> dict[str, int]:
    try:
        for table in tables():
            if rows[table.name]:
                db.session.execute(table.insert(), rows[table.name])
        move_sequences_past_imported_ids()
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return {table.name: len(rows[table.name]) for table in tables()}


def move_sequences_past_imported_ids() -> None:
    """PostgreSQL hands out ids from sequences that an import with ids does not move: move each past
    the largest id, so the next match gets a new one. (SQLite takes the largest id plus one.)"""
    if db.engine.dialect.name != "postgresql":
        return
    quote = db.engine.dialect.identifier_preparer.quote
    for table in tables():
        for column in table.primary_key.columns:
            if numbered_by_the_database(column):
                db.session.execute(
                    db.text(
                        f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                        f"COALESCE((SELECT MAX({quote(column.name)}) FROM {quote(table.name)}), 0) + 1, false)"
                    ),
                    {"table": quote(table.name), "column": column.name},
                )


def write_json(data: dict, out: IO[str]) -> None:
    json.dump(data, out, ensure_ascii=False, indent=1)
    out.write("\n")


# -- SQLite backup and restore ------------------------------------------------------------------


def sqlite_path() -> Path:
    """The SQLite file this app keeps its data in; PostgreSQL has pg_dump for this."""
    if db.engine.dialect.name != "sqlite" or not db.engine.url.database:
        raise DataError(
            "This database is not a SQLite file. For PostgreSQL use pg_dump and pg_restore "
            '(pg_dump --format=custom --file=scorekeeper.dump "$DATABASE_URL").'
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
