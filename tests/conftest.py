"""Fixtures shared by the web, API and browser tests.

Every app test runs on SQLite, and on PostgreSQL as well when TEST_POSTGRES_URL is set
(`make test` starts a throwaway server and sets it)."""

from __future__ import annotations

import os

import pytest

from scorekeeper import create_app, sqlalchemy_url
from scorekeeper.extensions import db

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


def make_app(url: str, **config):
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, **config}
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    return app


def database_url(kind: str, tmp_path) -> str:
    if kind == "postgresql":
        return sqlalchemy_url(os.environ["TEST_POSTGRES_URL"])
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


@pytest.fixture(params=DATABASES)
def app(request, tmp_path):
    app = make_app(database_url(request.param, tmp_path))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Actions:
    """Short ways to set up matches through the JSON API, as a script would."""

    def __init__(self, client):
        self.client = client

    def start(self, game: str, players: list[str], **options) -> int:
        answer = self.client.post("/api/v1/matches", json={"game": game, "players": players, "options": options})
        assert answer.status_code == 201, answer.json
        return answer.json["id"]

    def hand(self, match_id: int, record: dict, expect: int = 201) -> dict:
        answer = self.client.post(f"/api/v1/matches/{match_id}/hands", json={"record": record})
        assert answer.status_code == expect, answer.json
        return answer.json

    def match(self, match_id: int) -> dict:
        return self.client.get(f"/api/v1/matches/{match_id}").json


@pytest.fixture
def actions(client):
    return Actions(client)
