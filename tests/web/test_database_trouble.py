"""Every error says what really happened (issue 38, item 3): a full disk is a 507 the table can tell
the host about (and the host's log says so); a database that cannot be reached is a 503 with
Retry-After, never a 500; nothing acknowledged is lost."""

from __future__ import annotations

import logging
import socket

from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.conftest import Actions, make_app

FOUR = ["Ann", "Bo", "Cy", "Di"]


def test_a_full_disk_is_said_as_such_and_every_acknowledged_hand_is_kept(tmp_path, caplog):
    app = make_app(f"sqlite:///{tmp_path / 'small.sqlite'}")
    client = app.test_client()
    actions = Actions(client)
    match_id = actions.start("court_piece", FOUR)
    with app.app_context():
        pages = db.session.execute(db.text("PRAGMA page_count")).scalar()
        db.engine.dispose()

        @event.listens_for(db.engine, "connect")
        def no_room(connection, record):  # the file may not grow past what it holds now (a full disk)
            connection.execute(f"PRAGMA max_page_count = {pages + 2}")

    caplog.set_level(logging.ERROR)
    acknowledged, refused = 0, None
    for number in range(1, 400):
        answer = client.post(
            f"/matches/{match_id}/hands",
            data={"outcome": "tricks", "tricks-0": "8", "expected": str(number), "note": "x" * 200},
        )
        if answer.status_code != 302:
            refused = answer
            break
        acknowledged += 1
    assert refused is not None and refused.status_code == 507, refused and refused.status_code
    assert "disk is full" in refused.get_data(as_text=True) and "Tell the host" in refused.get_data(as_text=True)
    assert "THE DISK IS FULL" in caplog.text
    api = client.post(f"/api/v1/matches/{match_id}/hands", json={"record": {"outcome": "tricks", "tricks": [8, 5]}})
    assert api.status_code == 507 and "disk is full" in api.json["error"]
    assert len(actions.match(match_id)["hands"]) == acknowledged


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_database_that_cannot_be_reached_is_a_503_with_retry_after_never_a_500():
    url = f"postgresql+psycopg://nobody@127.0.0.1:{closed_port()}/none"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    for answer in (
        client.get("/"),
        client.get("/matches"),
        client.get("/matches/1"),
        client.post("/api/v1/matches", json={"game": "court_piece", "players": FOUR}),
    ):
        assert answer.status_code == 503, answer.get_data(as_text=True)[:300]
        assert answer.headers["Retry-After"].isdigit()
    assert "cannot reach its database" in client.get("/").get_data(as_text=True)
