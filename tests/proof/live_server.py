"""A real gunicorn serving the app the way `make serve` does (scripts/gunicorn.conf.py), on
127.0.0.1 and a free port, for the tests that need real sockets: slow clients and kill -9."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from email.message import Message
from functools import cache
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")
FLASK = Path(sys.executable).with_name("flask")
CONFIG = ROOT / "scripts" / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def migrate(database_url: str) -> None:
    """Build the database as `make serve` does before it serves: `flask db upgrade`. A new SQLite
    file is a copy of one upgraded once a process (the same migrations, run once)."""
    if database_url.startswith("sqlite:///") and not Path(database_url.removeprefix("sqlite:///")).exists():
        shutil.copyfile(_upgraded_sqlite(), database_url.removeprefix("sqlite:///"))
        return
    _upgrade(database_url)


@cache
def _upgraded_sqlite() -> Path:
    path = Path(tempfile.mkdtemp(prefix="scorekeeper-upgraded-")) / "upgraded.sqlite"
    _upgrade(f"sqlite:///{path}")
    connection = sqlite3.connect(path)  # what the upgrade left in the write-ahead log, into the file
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path


def _upgrade(database_url: str) -> None:
    subprocess.run(
        [str(FLASK), "--app", "scorekeeper", "db", "upgrade"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "live-server-test"},
        stdout=subprocess.DEVNULL,
    )


class LiveServer:
    """gunicorn in a process group of its own, so the tests can kill -9 it and its worker at once
    (and nothing else)."""

    def __init__(self, database_url: str, log: Path, config: Path = CONFIG, **environment: str):
        self.port = free_port()
        self.log, self.config = log, config
        self.environment = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "DATABASE_URL": database_url,
            "SECRET_KEY": "live-server-test",
            # A test sends far more writes a minute than a table would.
            "SCOREKEEPER_WRITE_LIMIT": "1000000 per minute",
            "SCOREKEEPER_NEW_MATCH_LIMIT": "1000000 per minute",
            **environment,
        }
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> LiveServer:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [str(GUNICORN), "-c", str(self.config)],
                cwd=ROOT,
                env=self.environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited at start:\n{self.log.read_text()[-3000:]}")
            try:
                if self.request("GET", "/rules/", timeout=2)[0] == 200:
                    return self
            except (OSError, http.client.HTTPException):  # not listening yet
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def request(self, method: str, path: str, body=None, headers=None, timeout: float = 10):
        """(status, JSON answer or None) of one request on a new connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            payload = None if body is None else json.dumps(body)
            sent = {"Content-Type": "application/json", **(headers or {})} if payload else dict(headers or {})
            connection.request(method, path, body=payload, headers=sent)
            answer = connection.getresponse()
            data = answer.read()
            is_json = answer.getheader("Content-Type", "").startswith("application/json")
            return answer.status, json.loads(data) if is_json and data else None
        finally:
            connection.close()

    def database_connections(self) -> int:
        """How many connections the server holds to its database now: PostgreSQL's own count, or,
        for SQLite, the server's open descriptors of the database file."""
        url = self.environment["DATABASE_URL"]
        if url.startswith("sqlite"):
            path = os.path.realpath(url.split("///", 1)[1])
            return sum(1 for pid in self.pids() for fd in _descriptors(pid) if fd == path)
        import psycopg

        with psycopg.connect(url.replace("+psycopg", "")) as connection:
            return connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()[0]

    def pids(self) -> list[int]:
        """gunicorn's master and its workers."""
        master = self.process.pid
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        return [master, *map(int, children)]

    def kill(self) -> None:
        """kill -9 the master and its worker, as a power cut or the OOM killer would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _descriptors(pid: int) -> list[str]:
    """What the process's open file descriptors point at."""
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found.append(os.readlink(fd))
        except OSError:  # closed meanwhile
            pass
    return found


@dataclass
class Answer:
    status: int
    headers: Message
    text: str

    @property
    def json(self):
        return json.loads(self.text)


CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


class Phone:
    """A phone's browser without scripts, against a LiveServer: it keeps the cookies the server sets
    and posts a form with the CSRF token of the page the form is on."""

    def __init__(self, server: LiveServer):
        self.server = server
        self.cookies: dict[str, str] = {}

    def send(
        self,
        method: str,
        path: str,
        form: dict | None = None,
        json_body=None,
        headers: dict | None = None,
        timeout: float = 10,
    ) -> Answer:
        sent = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body, sent["Content-Type"] = urlencode(form), "application/x-www-form-urlencoded"
        elif json_body is not None:
            body, sent["Content-Type"] = json.dumps(json_body), "application/json"
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers={**sent, **(headers or {})})
            answer = connection.getresponse()
            data = answer.read()
        finally:
            connection.close()
        self._keep(answer.headers.get_all("Set-Cookie") or [])
        return Answer(answer.status, answer.headers, data.decode("utf-8", "replace"))

    def get(self, path: str, **options) -> Answer:
        return self.send("GET", path, **options)

    def submit(self, path: str, fields: dict, page: str | None = None) -> Answer:
        """Post `fields` to `path` as the form on `page` (by default `path` itself) would."""
        token = CSRF.search(self.get(page or path).text)
        return self.send("POST", path, form={**({"csrf_token": token.group(1)} if token else {}), **fields})

    def _keep(self, lines: list[str]) -> None:
        for line in lines:
            for name, morsel in SimpleCookie(line).items():
                if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
