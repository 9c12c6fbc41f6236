"""The schema is built by the Alembic migrations, they match the models exactly, a populated
database upgrades from every earlier revision keeping its rows, and two instances upgrading one
PostgreSQL at once take turns."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app
from flask_migrate import downgrade, upgrade
from sqlalchemy import MetaData

from scorekeeper import ROOT, create_app
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.records import data, verify
from scorekeeper.records.stories import audit
from tests.conftest import DATABASES, database_url
from tests.web.test_data import populate


@pytest.fixture(params=DATABASES)
def empty_app(request, tmp_path):
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(request.param, tmp_path), "SECRET_KEY": "t"}
    )
    with app.app_context():
        drop_every_table()
    yield app
    with app.app_context():
        drop_every_table()
        db.engine.dispose()


def drop_every_table() -> None:
    """Every table the database holds, the models' or not (a downgrade makes tables the models no
    longer have, such as player_tally) and Alembic's own."""
    found = db.MetaData()
    found.reflect(db.engine)
    found.drop_all(db.engine)


def test_upgrade_builds_the_schema_the_models_describe(empty_app):
    with empty_app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []


def test_an_upgraded_database_never_gives_a_deleted_matchs_number_again(empty_app):
    """Migration 0014 (SQLite's AUTOINCREMENT) on a database that held matches before it."""
    with empty_app.app_context():
        upgrade(revision="0013_player_tally_dropped")
        client = empty_app.test_client()
        made = [client.post("/api/v1/matches", json={"game": "schnapsen", "players": ["Ann", "Bo"]}) for _ in range(2)]
        newest = made[-1].json
        upgrade()
        gone = client.delete(f"/api/v1/matches/{newest['id']}", headers={"Authorization": f"Bearer {newest['key']}"})
        again = client.post("/api/v1/matches", json={"game": "schnapsen", "players": ["Ann", "Bo"]}).json
        assert gone.status_code == 204 and again["id"] == newest["id"] + 1
        assert client.get(f"/api/v1/matches/{made[0].json['id']}").status_code == 200  # kept through the rebuild
        db.session.remove()


def test_earlier_gin_rummy_matches_get_the_oklahoma_option_off_and_verify_finds_nothing(empty_app):
    """0015 on a Gin Rummy match stored before the option: its options and every stored state's copy
    of them gain `oklahoma: false` (the new option last), so `flask verify` finds nothing to change."""
    with empty_app.app_context():
        upgrade(revision="0014_match_numbers_never_reused")
        client = empty_app.test_client()
        made = client.post("/api/v1/matches", json={"game": "gin_rummy", "players": ["Ann", "Bo"]}).json
        mine = {"Authorization": f"Bearer {made['key']}"}
        for record in ({"outcome": "knock", "knocker": 0, "deadwood": [4, 30]}, {"outcome": "draw"}):
            assert (
                client.post(f"/api/v1/matches/{made['id']}/hands", json={"record": record}, headers=mine).status_code
                == 201
            )
        shown = client.get(f"/api/v1/matches/{made['id']}").json
        forget_the_oklahoma_option(made["id"])  # as a match stored before 0015 has it
        match = db.session.get(Match, made["id"])
        assert verify.differences(match) == [f"match {made['id']}: its options are not as Scorekeeper keeps them"]
        db.session.remove()
        upgrade()
        match = db.session.get(Match, made["id"])
        assert match.options["oklahoma"] is False and verify.differences(match) == []
        assert client.get(f"/api/v1/matches/{made['id']}").json == shown
        db.session.remove()


def forget_the_oklahoma_option(match_id: int) -> None:
    def without(state):
        pairs = [pair for pair in state["f"]["options"]["$d"] if pair[0] != "oklahoma"]
        return {**state, "f": {**state["f"], "options": {"$d": pairs}}}

    match = db.session.get(Match, match_id)
    match.options = {name: value for name, value in match.options.items() if name != "oklahoma"}
    match.state = without(match.state)
    for hand in verify.hands_of(match):
        hand.state = without(hand.state)
    db.session.commit()


def test_downgrade_removes_every_table(empty_app):
    with empty_app.app_context():
        upgrade()
        downgrade(revision="base")
        tables = set(db.inspect(db.engine).get_table_names()) - {"alembic_version"}
        assert tables == set()


def test_seat_sides_and_outcomes_are_filled_for_existing_matches(empty_app):
    """0002 on a populated database: partnership seats alternate sides, others sit alone, and a
    finished match's seats get their outcome (won, lost, drawn); a match in play gets none."""
    with empty_app.app_context():
        upgrade(revision="0001_initial")
        run = lambda sql: db.session.execute(db.text(sql))  # noqa: E731
        now = "'2026-01-01 00:00:00+00:00'"
        for pid, name in enumerate(["Ann", "Bo", "Cy", "Di"], start=1):
            run(f"INSERT INTO player (id, name, key, created) VALUES ({pid}, '{name}', '{name.lower()}', {now})")
        matches = [
            (1, "court_piece", "finished", "1"),
            (2, "schnapsen", "finished", "0"),
            (3, "schnapsen", "finished", "NULL"),
            (4, "envite", "in_progress", "NULL"),
        ]
        for mid, game, status, winner in matches:
            run(
                f"INSERT INTO match (id, game, options, status, winner, called, version, created, updated) "
                f"VALUES ({mid}, '{game}', '{{}}', '{status}', {winner}, false, 1, {now}, {now})"
            )
            seats = 4 if game != "schnapsen" else 2
            for position in range(seats):
                run(
                    f"INSERT INTO seat (id, match_id, player_id, position) "
                    f"VALUES ({mid * 10 + position}, {mid}, {position + 1}, {position})"
                )
        db.session.commit()
        upgrade()
        rows = db.session.execute(db.text("SELECT match_id, position, side, outcome FROM seat ORDER BY id")).all()
        found = {(m, p): (side, outcome) for m, p, side, outcome in rows}
        assert [found[(1, p)] for p in range(4)] == [(0, "lost"), (1, "won"), (0, "lost"), (1, "won")]
        assert [found[(2, p)] for p in range(2)] == [(0, "won"), (1, "lost")]
        assert [found[(3, p)] for p in range(2)] == [(0, "drawn"), (1, "drawn")]
        assert [found[(4, p)] for p in range(4)] == [(0, None), (1, None), (0, None), (1, None)]


# -- every earlier revision, populated, upgrades to the head keeping every row ---------------------

# Columns a later revision adds and cannot fill from the rows before it, and why.
NOT_RESTORED = {
    "match.key_hash": "0003: a match started before write keys has none (any phone may write to it)",
    **{
        column: "0004: stored states stay empty until the match's next change; it is replayed meanwhile"
        for column in (
            "match.state",
            "match.state_version",
            "hand.state",
            "hand.changes",
            "hand.reasons",
            "hand.game_winner",
        )
    },
    "hand.answer": "0007: a hand's stored answer is written at the match's next change; built on reading meanwhile",
    "match.headline_message": "0011: a headline kept before keeps its English until the match's next change",
}


def revisions_oldest_first() -> list[str]:
    config = current_app.extensions["migrate"].migrate.get_config()
    return [script.revision for script in reversed(list(ScriptDirectory.from_config(config).walk_revisions()))]


def history_at_head(app) -> tuple[dict, dict]:
    """A populated database at the head revision: its export, and each match as the API shows it."""
    ids = populate(app.test_client())
    views = {match_id: app.test_client().get(f"/api/v1/matches/{match_id}").json for match_id in ids.values()}
    export = data.export_data()
    db.session.remove()  # PostgreSQL: an open read would hold off the downgrade's DROP TABLE
    return export, views


def load_into_schema_at_hand(export: dict) -> dict[str, set[str]]:
    """Insert the export's rows into the tables as the current (older) revision has them, leaving
    out the columns it does not have yet; which columns each table had."""
    existing = MetaData()
    existing.reflect(bind=db.engine)
    had = {}
    with db.engine.begin() as connection:
        for table in data.tables():
            if table.name not in existing.tables:
                continue
            older = existing.tables[table.name]
            had[table.name] = set(older.columns.keys())
            rows = [
                {name: value for name, value in data.decode_row(table, row).items() if name in had[table.name]}
                for row in export["tables"][table.name]
            ]
            if rows:
                connection.execute(older.insert(), rows)
    return had


def test_a_populated_database_at_every_earlier_revision_upgrades_keeping_its_data(empty_app):
    with empty_app.app_context():
        upgrade()
        original, views = history_at_head(empty_app)
        earlier = revisions_oldest_first()[:-1]
        assert earlier, "there is an earlier revision to upgrade from"
        for revision in earlier:
            downgrade(revision="base")
            upgrade(revision=revision)
            had = load_into_schema_at_hand(original)
            upgrade()
            db.session.remove()
            after = data.export_data()
            db.session.remove()
            for table, columns in had.items():
                for column in db.metadata.tables[table].columns.keys():
                    if column in columns or f"{table}.{column}" not in NOT_RESTORED:
                        was = [row[column] for row in original["tables"][table]]
                        now = [row[column] for row in after["tables"][table]]
                        assert now == was, f"{table}.{column} after upgrading from {revision}"
            assert shown_by_a_new_process(empty_app, views) == views, revision
            assert audit.differences() == [], revision  # 0010 works the stories out from the matches
            db.session.remove()


def shown_by_a_new_process(app, views: dict) -> dict:
    """Each match as a freshly started app shows it (nothing remembered in memory)."""
    fresh = create_app(app.config)
    try:
        client = fresh.test_client()
        return {match_id: client.get(f"/api/v1/matches/{match_id}").json for match_id in views}
    finally:
        with fresh.app_context():
            db.engine.dispose()


# -- two instances upgrading one PostgreSQL at once ---------------------------------------------------

UPGRADE_LOCK = int(
    re.search(r"UPGRADE_LOCK = (0x[0-9A-Fa-f_]+)", (ROOT / "migrations" / "env.py").read_text()).group(1), 0
)


@pytest.fixture
def fresh_postgres():
    """An empty PostgreSQL database of its own on the test server (dropped afterwards)."""
    if not os.environ.get("TEST_POSTGRES_URL"):
        pytest.skip("needs TEST_POSTGRES_URL")
    server = os.environ["TEST_POSTGRES_URL"]
    name = f"scorekeeper_upgrade_{os.getpid()}"
    admin = psycopg.connect(server, autocommit=True)
    admin.execute(f"DROP DATABASE IF EXISTS {name}")
    admin.execute(f"CREATE DATABASE {name}")
    yield server.rsplit("/", 1)[0] + "/" + name
    admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    admin.close()


def flask_db_upgrade(url: str) -> subprocess.Popen:
    environment = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "t"}
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("flask")), "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def tables_in(url: str) -> set[str]:
    with psycopg.connect(url) as connection:
        return {name for (name,) in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


def test_an_upgrade_waits_while_another_instance_holds_the_upgrade_lock(fresh_postgres):
    with psycopg.connect(fresh_postgres, autocommit=True) as other_instance:
        other_instance.execute("SELECT pg_advisory_lock(%s)", (UPGRADE_LOCK,))
        waiting = flask_db_upgrade(fresh_postgres)
        time.sleep(3)
        assert waiting.poll() is None and tables_in(fresh_postgres) == set()
        other_instance.execute("SELECT pg_advisory_unlock(%s)", (UPGRADE_LOCK,))
        output, _ = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, output
    assert {"match", "hand", "player", "seat", "alembic_version"} <= tables_in(fresh_postgres)


def test_two_instances_upgrading_an_empty_postgresql_at_once_both_succeed(fresh_postgres):
    upgrades = [flask_db_upgrade(fresh_postgres) for _ in range(2)]
    outputs = [process.communicate(timeout=120)[0] for process in upgrades]
    assert [process.returncode for process in upgrades] == [0, 0], outputs
    with psycopg.connect(fresh_postgres) as connection:
        assert len(connection.execute("SELECT version_num FROM alembic_version").fetchall()) == 1
