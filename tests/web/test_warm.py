"""A served worker readies itself before its first request (scripts/gunicorn.conf.py), and that
changes nothing: no row is written, and a database without tables is left alone."""

from __future__ import annotations

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.records import data
from scorekeeper.web.warm import warm_up


def test_warming_up_reads_and_writes_nothing(app, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
    with app.app_context():
        before = data.export_data()["tables"]
    assert warm_up(app) is True
    with app.app_context():
        assert data.export_data()["tables"] == before
    assert len(actions.match(match_id)["hands"]) == 1


def test_a_database_without_tables_is_not_warmed(tmp_path):
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'empty.sqlite'}", "SECRET_KEY": "test"}
    )
    assert warm_up(app) is False
    with app.app_context():
        assert db.inspect(db.engine).get_table_names() == []
        db.engine.dispose()
