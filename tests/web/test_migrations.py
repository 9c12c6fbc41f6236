"""The schema is built by the Alembic migrations, and they match the models exactly."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.conftest import DATABASES, database_url


@pytest.fixture(params=DATABASES)
def empty_app(request, tmp_path):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url(request.param, tmp_path), "SECRET_KEY": "t"})
    with app.app_context():
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
    yield app
    with app.app_context():
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.engine.dispose()


def test_upgrade_builds_the_schema_the_models_describe(empty_app):
    with empty_app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []


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
        matches = [(1, "court_piece", "finished", "1"), (2, "schnapsen", "finished", "0"),
                   (3, "schnapsen", "finished", "NULL"), (4, "envite", "in_progress", "NULL")]
        for mid, game, status, winner in matches:
            run(f"INSERT INTO match (id, game, options, status, winner, called, version, created, updated) "
                f"VALUES ({mid}, '{game}', '{{}}', '{status}', {winner}, false, 1, {now}, {now})")
            seats = 4 if game != "schnapsen" else 2
            for position in range(seats):
                run(f"INSERT INTO seat (id, match_id, player_id, position) "
                    f"VALUES ({mid * 10 + position}, {mid}, {position + 1}, {position})")
        db.session.commit()
        upgrade()
        rows = db.session.execute(db.text("SELECT match_id, position, side, outcome FROM seat ORDER BY id")).all()
        found = {(m, p): (side, outcome) for m, p, side, outcome in rows}
        assert [found[(1, p)] for p in range(4)] == [(0, "lost"), (1, "won"), (0, "lost"), (1, "won")]
        assert [found[(2, p)] for p in range(2)] == [(0, "won"), (1, "lost")]
        assert [found[(3, p)] for p in range(2)] == [(0, "drawn"), (1, "drawn")]
        assert [found[(4, p)] for p in range(4)] == [(0, None), (1, None), (0, None), (1, None)]
