"""Commands for the one who hosts Scorekeeper: backups, restores, exports and imports.

flask --app scorekeeper backup [FILE]      SQLite online backup (PostgreSQL: pg_dump)
flask --app scorekeeper restore FILE       put a backup back (stop serving first)
flask --app scorekeeper export [FILE]      every player and match as JSON
flask --app scorekeeper import FILE        that JSON into an empty database
flask --app scorekeeper export-csv [FILE]  every hand, for a spreadsheet
flask --app scorekeeper players rename OLD NEW | merge FROM INTO
                                           a player renamed, or two who are one person, everywhere
flask --app scorekeeper rerate             the re-rating a stopped server left undone, now
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from .history import exports
from .players.cli import players_group
from .records import data
from .records.data import DataError
from .records.stories import rerating


def fail_plainly(action):
    """Run `action`, turning a DataError into a one-line message and exit status 1."""
    try:
        return action()
    except DataError as error:
        raise click.ClickException(str(error)) from None


def summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {table}" for table, count in counts.items())


def default_backup_path() -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path(current_app.instance_path, "backups", f"scorekeeper-{stamp}.sqlite")


@click.command("backup")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path), required=False)
@with_appcontext
def backup_command(target: Path | None):
    """Copy the SQLite database, safely while serving, into TARGET (default instance/backups/)."""
    target = target or default_backup_path()
    counts = fail_plainly(lambda: data.backup(target))
    click.echo(f"Backed up {summary(counts)} to {target}")


@click.command("restore")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the data.")
@with_appcontext
def restore_command(source: Path, yes: bool):
    """Replace every player and match with those of the backup SOURCE. Stop serving first: a
    running server keeps replays of the matches it knew."""
    if not yes:
        click.confirm(f"Replace everything in the database with {source}?", abort=True)
    counts = fail_plainly(lambda: data.restore(source))
    if data.schema_revision():
        upgrade()  # a backup made by an older version is brought to this one's schema
    click.echo(f"Restored {summary(counts)} from {source}. Start the server again.")


def write_out(target: Path | None, write) -> None:
    """Call `write` with the terminal, or with TARGET created new and owner-only (exports hold
    everything the database holds)."""
    if target is None:
        write(sys.stdout)
        return
    fail_plainly(lambda: data.create_private(target))
    with target.open("w", encoding="utf-8", newline="") as out:
        write(out)


@click.command("export")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path), required=False)
@with_appcontext
def export_command(target: Path | None):
    """Write every player and match, with every hand, as JSON to TARGET (default: the terminal)."""
    write_out(target, lambda out: data.write_json(data.export_data(), out))


@click.command("import")
@click.argument("source", type=click.File("rb"))
@with_appcontext
def import_command(source):
    """Load an export (from `flask export`) into an empty database of the same schema. The whole
    file is checked first (every row, and every match replayed from its hands): a file with anything
    wrong is refused in one line and nothing is written."""
    counts = fail_plainly(lambda: data.import_data(data.read_export(source.read())))
    click.echo(f"Imported {summary(counts)}", err=True)


@click.command("export-csv")
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path), required=False)
@with_appcontext
def export_csv_command(target: Path | None):
    """Write every hand as CSV to TARGET (default: the terminal), one row per hand and side."""
    write_out(target, exports.write_hands_csv)


@click.command("rerate")
@with_appcontext
def rerate_command():
    """Re-rate every game whose stories a change left stale, here and now (a serving process's
    runner does it by itself; this is for a server that stopped before it was done)."""
    games = rerating.rerate_all()
    click.echo(f"Re-rated {games} game(s).", err=True)


commands = [
    backup_command,
    restore_command,
    export_command,
    import_command,
    export_csv_command,
    rerate_command,
    players_group,
]
