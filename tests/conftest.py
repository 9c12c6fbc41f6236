"""Fixtures shared by the web, API and browser tests.

Every app test runs on SQLite, and on PostgreSQL as well when TEST_POSTGRES_URL is set
(`make test` starts a throwaway server and sets it), but for the modules marked `one_database`.
`make test` runs the tests in two processes (pytest-xdist, `-n 2`): each gets a PostgreSQL database
of its own on that server, its schema built once and its tables emptied for each test (`make_app`)."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from flask.testing import FlaskClient

from scorekeeper import create_app, sqlalchemy_url
from scorekeeper.extensions import db


def own_database_per_worker() -> None:
    """Under pytest-xdist, TEST_POSTGRES_URL names this worker's own database (`<name>_gw1`),
    made if it is not there yet: two workers never drop each other's tables."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("TEST_POSTGRES_URL")
    if not worker or not url or url.endswith(f"_{worker}"):
        return
    address = urlsplit(url)
    name = f"{address.path.lstrip('/')}_{worker}"
    with psycopg.connect(address._replace(path="/postgres").geturl(), autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            admin.execute(f'CREATE DATABASE "{name}"')
    os.environ["TEST_POSTGRES_URL"] = address._replace(path=f"/{name}").geturl()


own_database_per_worker()

DATABASES = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


class TablePhone(FlaskClient):
    """A test client that is a phone at the table: it holds the key of every match started through
    this app's API (kept per app, so every client of the app holds them) and sends it with each API
    write to that match, as API.md "Who may write" asks. A request that sets its own Authorization
    header (to test refusals) is sent as it is."""

    MATCH = re.compile(r"^/api/v1/matches/(\d+)")

    def open(self, *args, **kwargs):
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        method = kwargs.get("method", "GET").upper()
        headers = dict(kwargs.pop("headers", None) or {})
        found = self.MATCH.match(path)
        keys = self.application.extensions.setdefault("test_keys", {})
        if found and method != "GET" and "Authorization" not in headers and int(found.group(1)) in keys:
            headers["Authorization"] = f"Bearer {keys[int(found.group(1))]}"
        answer = super().open(*args, headers=headers, **kwargs)
        if path == "/api/v1/matches" and method == "POST" and answer.status_code == 201:
            keys[answer.json["id"]] = answer.json["key"]
        return answer


def make_app(url: str, **config):
    """The app on `url`, its tables empty: a new SQLite file starts as a copy of the schema built once
    a process (`schema_file`); PostgreSQL has its schema built once a process and its tables emptied
    for each app after (`empty_postgres_tables`); any other database has its tables made again."""
    file = sqlite_file(url)
    copied = file is not None and not file.exists()
    if copied:
        shutil.copyfile(schema_file(), file)
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, **config}
    )
    app.test_client_class = TablePhone
    if not copied:
        with app.app_context():
            if db.engine.dialect.name == "postgresql":
                empty_postgres_tables()
            else:
                db.drop_all()
                db.create_all()
    return app


# The schema this process built on each PostgreSQL database, as its catalog then read (`catalog`).
BUILT: dict[str, list[tuple]] = {}


def empty_postgres_tables() -> None:
    """The models' tables, empty: emptied in one TRUNCATE (ids from 1 again) where the schema is the
    one this process built, else dropped and made again (the first app of a process, or after a test
    that changed the schema: the migrations' tests drop every table, an import's test drops them)."""
    url = str(db.engine.url)
    with db.engine.begin() as connection:
        intact = BUILT.get(url) == catalog(connection)
        if intact:
            tables = ", ".join(
                connection.dialect.identifier_preparer.format_table(t) for t in db.metadata.sorted_tables
            )
            connection.execute(db.text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    if not intact:  # the whole schema anew: a table some other version of the app left goes too
        with db.engine.begin() as connection:
            connection.execute(db.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
        db.create_all()
        with db.engine.connect() as connection:
            BUILT[url] = catalog(connection)


def catalog(connection) -> list[tuple]:
    """Every table and index of the schema with its columns and their types: what a test that
    dropped, added or altered a table changes."""
    return connection.execute(
        db.text(
            "SELECT c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull "
            "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'i') "
            "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 3"
        )
    ).all()


def sqlite_file(url: str) -> Path | None:
    return (
        Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") and url != "sqlite:///:memory:" else None
    )


@cache
def schema_file() -> Path:
    """Every table of the models, made once a process in a file of its own, for `make_app` to copy."""
    path = Path(tempfile.mkdtemp(prefix="scorekeeper-schema-")) / "schema.sqlite"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "test"})
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    return path


def database_url(kind: str, tmp_path) -> str:
    if kind == "postgresql":
        return sqlalchemy_url(os.environ["TEST_POSTGRES_URL"])
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


def pytest_collection_modifyitems(config, items):
    """A module marked `one_database` tests what a page, a form or a game's scoring says, not how the
    database keeps it: its tests run on SQLite alone (the rest of the suite runs SQL on both)."""
    kept, dropped = [], []
    for item in items:
        on_postgres = getattr(item, "callspec", None) and item.callspec.params.get("app") == "postgresql"
        (dropped if on_postgres and item.get_closest_marker("one_database") else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


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
    """The one way tests write through the JSON API, as a script would: every write carries the
    match's key (API.md "Who may write"), kept here from the answer that created the match."""

    def __init__(self, client):
        self.client = client
        self.keys: dict[int, str] = {}

    def auth(self, match_id: int) -> dict:
        key = self.keys.get(match_id)
        return {"Authorization": f"Bearer {key}"} if key else {}

    def create(self, body: dict):
        """POST /api/v1/matches with any body; the raw answer (its key is kept when it is a 201)."""
        answer = self.client.post("/api/v1/matches", json=body)
        if answer.status_code == 201:
            match_id, key = answer.json["id"], answer.json["key"]
            self.keys[match_id] = key
            # The same client is also the phone at the table: its pages may score the match.
            self.client.get(f"/matches/{match_id}/join?key={key}")
        return answer

    def start(self, game: str, players: list[str], **options) -> int:
        answer = self.create({"game": game, "players": players, "options": options})
        assert answer.status_code == 201, answer.json
        return answer.json["id"]

    def write(self, method: str, match_id: int, path: str = "", json=None):
        """Any write to a match (hands, finish, reopen...), with its key; the raw answer."""
        url = f"/api/v1/matches/{match_id}{path}"
        return self.client.open(url, method=method, json=json, headers=self.auth(match_id))

    def hand(self, match_id: int, record: dict, expect: int = 201, number: int | None = None) -> dict:
        body = {"record": record} if number is None else {"record": record, "number": number}
        answer = self.write("POST", match_id, "/hands", body)
        assert answer.status_code == expect, answer.json
        return answer.json

    def edit(self, match_id: int, number: int, record: dict, expect: int = 200) -> dict:
        answer = self.write("PUT", match_id, f"/hands/{number}", {"record": record})
        assert answer.status_code == expect, answer.json
        return answer.json

    def delete(self, match_id: int, number: int, expect: int = 200) -> dict:
        answer = self.write("DELETE", match_id, f"/hands/{number}")
        assert answer.status_code == expect, answer.json
        return answer.json

    def finish(self, match_id: int, expect: int = 200) -> dict:
        answer = self.write("POST", match_id, "/finish")
        assert answer.status_code == expect, answer.json
        return answer.json

    def reopen(self, match_id: int, expect: int = 200) -> dict:
        answer = self.write("POST", match_id, "/reopen")
        assert answer.status_code == expect, answer.json
        return answer.json

    def match(self, match_id: int) -> dict:
        return self.client.get(f"/api/v1/matches/{match_id}").json


@pytest.fixture
def actions(client):
    return Actions(client)


# -- the proofs' figures, printed after the run (tests/proof) --------------------------------------------

FIGURES: list[str] = []


@pytest.fixture
def figures():
    """Append a line to the proof figures shown after the run."""
    return FIGURES.append


def pytest_sessionfinish(session):
    """Under pytest-xdist, a worker hands its figures to the main process (xdist's workeroutput)."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["proof_figures"] = FIGURES


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    FIGURES.extend(getattr(node, "workeroutput", {}).get("proof_figures", []))


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.section("proof figures")
        for line in FIGURES:
            terminalreporter.write_line(line)
