"""The data a host keeps (issue 13): backups taken while serving, restores, a JSON export that
imports back exactly (across SQLite and PostgreSQL), hands as CSV, files only their owner can
read, and SQLite syncing every commit to disk."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import stat
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask_migrate import upgrade

from scorekeeper import create_app, secret_key
from scorekeeper.extensions import db
from scorekeeper.history import exports
from scorekeeper.records import data
from tests.conftest import Actions, make_app

FOUR = ["Ann", "Bo", "Cy", "Di"]


def populate(client_or_phone) -> dict[str, int]:
    """A small history: every flagship game, finished and in play, edited and deleted hands,
    names beyond ASCII. The match ids by game."""
    phone = client_or_phone if isinstance(client_or_phone, Actions) else Actions(client_or_phone)
    ids = {
        "envite": phone.start("envite", ["Émile", "Zoë", "Ñoño", "Łucja"]),
        "court_piece": phone.start("court_piece", FOUR, courts_to_win=2),
        "poke": phone.start("poke", ["Ann", "Bo"]),
        "schnapsen": phone.start("schnapsen", ["Cy", "Di"], target=1),
    }
    phone.hand(ids["envite"], {"winner": 0, "stake": 4})
    phone.hand(ids["envite"], {"winner": 1, "stake": 7, "declined": True})
    for tricks in ([8, 5], [12, 1], [6, 7]):
        phone.hand(ids["court_piece"], {"outcome": "tricks", "tricks": tricks})
    phone.edit(ids["court_piece"], 1, {"outcome": "tricks", "tricks": [9, 4]})
    phone.delete(ids["court_piece"], 3)
    phone.hand(
        ids["poke"],
        {"tricks": [5, 0], "draws": [1, 0], "cards": [["AS", "KS", "QS", "JS", "TS"], ["2H", "3H", "4H", "5H", "7D"]]},
    )
    phone.hand(ids["schnapsen"], {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    return ids


def exported(app) -> dict:
    with app.app_context():
        return data.export_data()


def api_view(app, match_ids) -> list[dict]:
    client = app.test_client()
    return [client.get(f"/api/v1/matches/{match_id}").json for match_id in match_ids]


@contextmanager
def umask(mask: int):
    """Files are to be 0600 by how they are made, not thanks to a strict umask."""
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def sqlite_app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'other.sqlite'}")
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def migrated_app(tmp_path):
    """A SQLite app whose schema was made by the migrations, as `make serve` makes it."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'served.sqlite'}",
            "SECRET_KEY": "t",
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


# -- JSON export and import -------------------------------------------------------------------------


def test_an_export_imported_into_an_empty_database_exports_the_same(app, sqlite_app):
    """From each database into an empty SQLite one: the same export, the same matches."""
    ids = populate(app.test_client())
    before = exported(app)
    with sqlite_app.app_context():
        counts = data.import_data(json.loads(json.dumps(before)))
    assert counts["match"] == 4 and counts["hand"] == 6 and counts["player"] == 8
    assert exported(sqlite_app) == before
    assert api_view(sqlite_app, ids.values()) == api_view(app, ids.values())


def test_an_export_from_sqlite_imports_into_each_database_and_play_goes_on(app, sqlite_app):
    ids = populate(sqlite_app.test_client())
    before = exported(sqlite_app)
    with app.app_context():
        data.import_data(before)
    assert exported(app) == before
    phone = Actions(app.test_client())
    new_id = phone.start("poke", ["Ann", "Zoë"])  # ids carry on past the imported ones
    assert new_id == max(ids.values()) + 1
    assert api_view(app, ids.values()) == api_view(sqlite_app, ids.values())


def test_export_times_carry_their_offset(app):
    populate(app.test_client())
    created = exported(app)["tables"]["match"][0]["created"]
    assert created.endswith("+00:00")


def test_import_refuses_a_database_that_holds_data_and_changes_nothing(app, sqlite_app):
    populate(app.test_client())
    populate(sqlite_app.test_client())
    before = exported(sqlite_app)
    with sqlite_app.app_context(), pytest.raises(data.DataError, match="empty"):
        data.import_data(exported(app))
    assert exported(sqlite_app) == before


@pytest.mark.parametrize(
    "given, message",
    [
        ([], "not a Scorekeeper export"),
        ({"format": "other"}, "not a Scorekeeper export"),
        ({"format": data.FORMAT, "version": 99, "tables": {}}, "format version 99"),
        (
            {"format": data.FORMAT, "version": data.VERSION, "tables": {"secrets": []}},
            "tables this version does not know",
        ),
        (
            {"format": data.FORMAT, "version": data.VERSION, "tables": {"player": [{"id": 1, "shoe_size": 9}]}},
            "columns this version does not know",
        ),
    ],
)
def test_import_refuses_what_is_not_an_export_of_this_version(sqlite_app, given, message):
    with sqlite_app.app_context(), pytest.raises(data.DataError, match=message):
        data.import_data(given)
    assert all(rows == [] for rows in exported(sqlite_app)["tables"].values())


def test_flask_export_and_import_round_trip_through_a_file(app, sqlite_app, tmp_path):
    populate(app.test_client())
    path = tmp_path / "scores.json"
    with umask(0):
        result = app.test_cli_runner().invoke(args=["export", str(path)])
    assert result.exit_code == 0, result.output
    assert mode_of(path) == 0o600
    result = sqlite_app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert "4 match" in result.output
    assert exported(sqlite_app) == json.loads(path.read_text(encoding="utf-8"))
    again = sqlite_app.test_cli_runner().invoke(args=["import", str(path)])
    assert again.exit_code == 1 and "empty" in again.output


def test_flask_export_writes_to_the_terminal_without_a_file(app):
    populate(app.test_client())
    result = app.test_cli_runner().invoke(args=["export"])
    assert json.loads(result.output) == json.loads(json.dumps(exported(app)))


# -- CSV ----------------------------------------------------------------------------------------------


def csv_rows(text: str) -> list[dict]:
    """A CSV export's rows, read after the byte-order mark it starts with (so Excel reads accents right)."""
    assert text.startswith("\ufeff"), text[:20]
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def test_hands_as_csv_one_row_per_hand_and_side_adding_up_to_the_score(app):
    ids = populate(app.test_client())
    result = app.test_cli_runner().invoke(args=["export-csv"])
    rows = csv_rows(result.output)
    assert list(rows[0]) == exports.COLUMNS
    court = [row for row in rows if row["match"] == str(ids["court_piece"])]
    assert [(row["hand"], row["side"], row["players"]) for row in court[:2]] == [
        ("1", "A", "Ann & Cy"),
        ("1", "B", "Bo & Di"),
    ]
    match = app.test_client().get(f"/api/v1/matches/{ids['court_piece']}").json
    for side, letter in enumerate("AB"):
        assert sum(int(row["change"]) for row in court if row["side"] == letter) == match["sides"][side]["score"]
    assert [json.loads(row["record"]) for row in court if row["side"] == "A"] == [
        hand["record"] for hand in match["hands"]
    ]
    envite = [row for row in rows if row["match"] == str(ids["envite"])]
    assert "Émile" in envite[0]["players"] and envite[0]["reasons"]
    assert len(rows) == 2 * 6  # six hands, two sides each


# -- SQLite backup and restore ----------------------------------------------------------------------


def count_rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as connection:
        return {
            table: connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
            for table in ("player", "match", "seat", "hand")
        }


def test_backup_while_serving_holds_the_hands_still_in_the_wal(migrated_app, tmp_path):
    populate(migrated_app.test_client())
    live = Path(migrated_app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    assert Path(f"{live}-wal").stat().st_size > 0  # the latest commits are in the WAL, not yet in the file
    target = tmp_path / "backups" / "tonight.sqlite"
    with umask(0):
        result = migrated_app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert "4 match" in result.output and "6 hand" in result.output
    assert mode_of(target) == 0o600 and not Path(f"{target}-wal").exists()
    assert count_rows(target) == {"player": 8, "match": 4, "seat": 12, "hand": 6}
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_backup_taken_during_writes_is_consistent(migrated_app, tmp_path):
    phone = Actions(migrated_app.test_client())
    match_id = phone.start("court_piece", FOUR)
    stop = threading.Event()

    def keep_scoring():
        while not stop.is_set():
            phone.hand(match_id, {"outcome": "tricks", "tricks": [7, 6]})

    writer = threading.Thread(target=keep_scoring)
    writer.start()
    try:
        backups = [tmp_path / f"b{n}.sqlite" for n in range(3)]
        for target in backups:
            with migrated_app.app_context():
                data.backup(target)
    finally:
        stop.set()
        writer.join()
    for target in backups:
        with sqlite3.connect(target) as copy:
            numbers = [n for (n,) in copy.execute("SELECT number FROM hand ORDER BY number")]
            version = copy.execute("SELECT version FROM match").fetchone()[0]
        assert numbers == list(range(1, len(numbers) + 1)) and version == len(numbers)


def test_backup_makes_a_dated_file_in_the_instance_folder_by_default(migrated_app, monkeypatch, tmp_path):
    monkeypatch.setattr(migrated_app, "instance_path", str(tmp_path / "instance"))
    result = migrated_app.test_cli_runner().invoke(args=["backup"])
    assert result.exit_code == 0, result.output
    made = list((tmp_path / "instance" / "backups").glob("scorekeeper-*.sqlite"))
    assert len(made) == 1 and str(made[0]) in result.output
    assert mode_of(made[0].parent) == 0o700


def test_backup_never_overwrites_a_file(migrated_app, tmp_path):
    target = tmp_path / "taken.sqlite"
    target.write_text("keep me")
    result = migrated_app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 1 and "exists" in result.output
    assert target.read_text() == "keep me"


def test_restore_puts_back_exactly_what_the_backup_held(migrated_app, tmp_path):
    phone = Actions(migrated_app.test_client())
    ids = populate(phone)
    target = tmp_path / "before.sqlite"
    with migrated_app.app_context():
        data.backup(target)
    at_backup = exported(migrated_app)
    phone.start("poke", ["Late", "Comer"])
    phone.delete(ids["envite"], 1)
    result = migrated_app.test_cli_runner().invoke(args=["restore", "--yes", str(target)])
    assert result.exit_code == 0, result.output
    assert exported(migrated_app) == at_backup


def test_restore_asks_first_and_refuses_what_is_not_a_scorekeeper_backup(migrated_app, tmp_path):
    populate(migrated_app.test_client())
    before = exported(migrated_app)
    runner = migrated_app.test_cli_runner()
    no = runner.invoke(args=["restore", str(tmp_path / "x.sqlite")], input="n\n")
    assert no.exit_code == 1 and "Replace everything" in no.output
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE notes (text)").connection.commit()
    for source, message in [
        (tmp_path / "missing.sqlite", "no backup"),
        (junk, "not a sound SQLite"),
        (other, "lacks Scorekeeper's tables"),
    ]:
        result = runner.invoke(args=["restore", "--yes", str(source)])
        assert result.exit_code == 1 and message in result.output, result.output
    assert exported(migrated_app) == before


def test_backup_and_restore_of_postgresql_point_to_pg_dump(app, tmp_path):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    runner = app.test_cli_runner()
    for args in (["backup", str(tmp_path / "b.sqlite")], ["restore", "--yes", str(tmp_path / "b.sqlite")]):
        result = runner.invoke(args=args)
        assert result.exit_code == 1 and "pg_dump" in result.output
    assert not (tmp_path / "b.sqlite").exists()


# -- files only their owner reads; syncing every commit ------------------------------------------------


def test_a_new_database_file_and_its_wal_are_the_owners_only(tmp_path):
    path = tmp_path / "new.sqlite"
    with umask(0):
        app = make_app(f"sqlite:///{path}")
        Actions(app.test_client()).start("poke", ["Ann", "Bo"])
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        assert mode_of(part) == 0o600, part


def test_an_older_world_readable_database_is_made_private(tmp_path):
    path = tmp_path / "old.sqlite"
    sqlite3.connect(path).close()
    path.chmod(0o644)
    create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "t"})
    assert mode_of(path) == 0o600


def test_the_secret_key_file_is_born_private_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)

    def no_chmod(*args, **kwargs):
        raise AssertionError("made private by chmod after writing: readable in between")

    monkeypatch.setattr(os, "chmod", no_chmod)
    monkeypatch.setattr(Path, "chmod", no_chmod)
    with umask(0):
        first = secret_key(str(tmp_path))
    path = tmp_path / "secret_key"
    assert mode_of(path) == 0o600 and len(first) == 64 and int(first, 16)
    assert secret_key(str(tmp_path)) == first
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left


def test_workers_starting_at_once_agree_on_one_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    keys: list[str] = []
    start = threading.Barrier(8)

    def worker():
        start.wait()
        keys.append(secret_key(str(tmp_path)))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1 and len(keys[0]) == 64


def synchronous_level(app) -> int:
    with app.app_context(), db.engine.connect() as connection:
        return connection.exec_driver_sql("PRAGMA synchronous").scalar()


def test_sqlite_syncs_every_commit_by_default_and_the_host_may_choose(tmp_path, monkeypatch):
    app = make_app(f"sqlite:///{tmp_path / 'sync.sqlite'}")
    assert synchronous_level(app) == 2  # FULL
    monkeypatch.setenv("SCOREKEEPER_SQLITE_SYNCHRONOUS", "normal")
    assert synchronous_level(make_app(f"sqlite:///{tmp_path / 'normal.sqlite'}")) == 1
    monkeypatch.setenv("SCOREKEEPER_SQLITE_SYNCHRONOUS", "; DROP TABLE match")
    assert synchronous_level(make_app(f"sqlite:///{tmp_path / 'odd.sqlite'}")) == 2
