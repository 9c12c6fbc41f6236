"""A pooled PostgreSQL connection that died while it waited (the server restarted, an admin ended
it) is replaced before a request uses it: the table's next tap still lands."""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from sqlalchemy import text

from scorekeeper.extensions import db


def pooled_backend(app) -> int:
    """The server process behind the connection the pool holds (the requests before used only one)."""
    with app.app_context():
        return db.session.execute(text("SELECT pg_backend_pid()")).scalar_one()


def end_backend(pid: int) -> None:
    """End the server process, as a restart would, and wait until it is gone."""
    with psycopg.connect(os.environ["TEST_POSTGRES_URL"], autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
                return
            time.sleep(0.02)
    raise AssertionError(f"server process {pid} still runs")


@pytest.fixture
def postgres_app(app):
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("a SQLite connection is a file: nothing can end it from outside")
    return app


def test_a_dead_pooled_connection_is_replaced_before_a_write(postgres_app, client):
    started = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["Ana", "Bo", "Cy", "Di"]})
    match_id = started.json["id"]
    was = pooled_backend(postgres_app)
    end_backend(was)

    answer = client.post(f"/api/v1/matches/{match_id}/hands", json={"record": {"outcome": "tricks", "tricks": [7, 6]}})

    assert answer.status_code == 201, answer.json
    assert client.get(f"/api/v1/matches/{match_id}").json["hands"][0]["number"] == 1
    assert pooled_backend(postgres_app) != was


def test_a_dead_pooled_connection_is_replaced_before_a_page(postgres_app, client):
    assert client.get("/matches").status_code == 200
    end_backend(pooled_backend(postgres_app))

    assert client.get("/matches").status_code == 200
