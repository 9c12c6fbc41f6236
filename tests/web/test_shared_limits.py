"""Rate limits that hold across workers (issue 19, item 3), against a real gunicorn served as
`make serve` does: with WORKERS=2 and SCOREKEEPER_RATELIMIT_STORAGE=redis://..., a flood is refused
past the limit whichever worker takes each request; Redis going away leaves every phone answered,
still limited; two workers without a shared store say so loudly at start.

The Redis tests need TEST_REDIS_URL (scripts/test.sh starts one with scripts/redis.sh)."""

from __future__ import annotations

import http.client
import itertools
import json
import os
import re
import subprocess
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis

from tests.conftest import make_app
from tests.proof.live_server import ROOT, LiveServer, free_port

REDIS_URL = os.environ.get("TEST_REDIS_URL")
needs_redis = pytest.mark.skipif(
    not REDIS_URL, reason="needs a Redis: set TEST_REDIS_URL (scripts/test.sh starts one with scripts/redis.sh)"
)

NEW_MATCH = {"game": "court_piece", "players": ["Ann", "Bo", "Cy", "Di"]}
TRICKS = {"outcome": "tricks", "tricks": [8, 5]}
WARNING = "SCOREKEEPER_RATELIMIT_STORAGE=redis://"
# 0 is left to whoever else uses the test Redis (the load test); each pytest-xdist worker its own seven.
REDIS_DATABASES = itertools.count(1 + 7 * int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")))


@pytest.fixture
def redis_database():
    """A database of the test Redis for this test only, emptied: no other test's count is in it."""
    url = urlsplit(REDIS_URL)._replace(path=f"/{next(REDIS_DATABASES)}").geturl()
    with redis.Redis.from_url(url) as client:
        client.flushdb()
    yield url
    with redis.Redis.from_url(url) as client:
        client.flushdb()


@contextmanager
def served(tmp_path: Path, **environment: str):
    """(server, its log): gunicorn on a fresh SQLite database, with these settings."""
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    make_app(url)  # the tables
    log = tmp_path / "gunicorn.log"
    with LiveServer(url, log, **environment) as server:
        yield server, log


def logged(log: Path, pattern: str, count: int = 1) -> list[tuple[str, ...]]:
    """The access log's matches of `pattern` once there are `count` of them (gunicorn logs a
    request just after answering it)."""
    deadline = time.monotonic() + 10
    while True:
        found = re.findall(pattern, log.read_text(), re.M)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


@contextmanager
def one_connection_per_worker(server: LiveServer, log: Path):
    """{worker pid: a kept-alive connection that worker holds}, for two workers: new connections
    until each worker took one, told apart by the pid the access log gives each one's request."""
    held: dict[str, http.client.HTTPConnection] = {}
    opened = []
    try:
        for number in range(200):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            opened.append(connection)
            connection.request("GET", f"/which-worker-{number}")
            connection.getresponse().read()
            [pid] = logged(log, rf'"GET /which-worker-{number}" 404 .* <(\d+)>$')
            held.setdefault(pid, connection)
            if len(held) == 2:
                break
        assert len(held) == 2, "one worker took every new connection"
        yield held
    finally:
        for connection in opened:
            connection.close()


def post(connection: http.client.HTTPConnection, path: str, body: dict, headers: dict | None = None) -> int:
    connection.request(
        "POST", path, body=json.dumps(body), headers={"Content-Type": "application/json", **(headers or {})}
    )
    answer = connection.getresponse()
    answer.read()
    return answer.status


def flood(
    workers: dict[str, http.client.HTTPConnection], path: str, body: dict, times: int, headers: dict | None = None
) -> list[tuple[str, int]]:
    """`times` POSTs, the two workers in turn: [(pid of the worker that answered, status)]."""
    turns = itertools.islice(itertools.cycle(workers.items()), times)
    return [(pid, post(connection, path, body, headers)) for pid, connection in turns]


def assert_refused_past_the_limit_by_both(answers: list[tuple[str, int]], limit: int, log: Path, path: str) -> None:
    assert [status for _, status in answers] == [201] * limit + [429] * (len(answers) - limit)
    # Each worker refused, though neither had taken `limit` of them itself; the access log agrees.
    assert {pid for pid, status in answers if status == 429} == {pid for pid, _ in answers}
    pattern = rf'"POST {re.escape(path)}" (201|429) .* <(\d+)>$'
    in_log = Counter((pid, int(status)) for status, pid in logged(log, pattern, len(answers)))
    assert in_log == Counter(answers)


@needs_redis
def test_new_matches_past_the_limit_are_refused_whichever_of_two_workers_takes_them(tmp_path, redis_database):
    with served(
        tmp_path, WORKERS="2", SCOREKEEPER_RATELIMIT_STORAGE=redis_database, SCOREKEEPER_NEW_MATCH_LIMIT="5 per hour"
    ) as (server, log):
        with one_connection_per_worker(server, log) as workers:
            answers = flood(workers, "/api/v1/matches", NEW_MATCH, 12)
        assert len(server.request("GET", "/api/v1/matches")[1]) == 5
    assert_refused_past_the_limit_by_both(answers, 5, log, "/api/v1/matches")
    assert WARNING not in log.read_text()  # a shared store: nothing to warn about


@needs_redis
def test_writes_past_the_limit_are_refused_whichever_of_two_workers_takes_them(tmp_path, redis_database):
    with served(
        tmp_path, WORKERS="2", SCOREKEEPER_RATELIMIT_STORAGE=redis_database, SCOREKEEPER_WRITE_LIMIT="6 per hour"
    ) as (server, log):
        status, created = server.request("POST", "/api/v1/matches", NEW_MATCH)  # the first write
        assert status == 201
        hands = f"/api/v1/matches/{created['id']}/hands"
        with one_connection_per_worker(server, log) as workers:
            answers = flood(workers, hands, {"record": TRICKS}, 10, {"Authorization": f"Bearer {created['key']}"})
        assert len(server.request("GET", f"/api/v1/matches/{created['id']}")[1]["hands"]) == 5
    assert_refused_past_the_limit_by_both(answers, 5, log, hands)


def redis_script(command: str, port: int, directory: Path) -> str:
    environment = {**os.environ, "REDIS_TEST_PORT": str(port), "REDIS_TEST_DIR": str(directory)}
    return subprocess.run(
        [ROOT / "scripts" / "redis.sh", command],
        env=environment,
        check=True,
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout.strip()


def timed_post(server: LiveServer, path: str, body: dict, headers: dict | None = None) -> int:
    started = time.monotonic()
    status, _ = server.request("POST", path, body, headers)
    assert time.monotonic() - started < 3, "a phone waited on a Redis that is gone"
    return status


@needs_redis
def test_with_redis_gone_every_phone_is_answered_and_still_limited_until_redis_is_back(tmp_path):
    """Its own Redis, stopped and started again while gunicorn serves."""
    port, directory = free_port(), tmp_path / "redis"
    url = redis_script("start", port, directory)
    try:
        with served(tmp_path, SCOREKEEPER_RATELIMIT_STORAGE=url, SCOREKEEPER_NEW_MATCH_LIMIT="5 per hour") as (
            server,
            log,
        ):
            status, created = server.request("POST", "/api/v1/matches", NEW_MATCH)
            assert status == 201
            redis_script("stop", port, directory)

            answers = [timed_post(server, "/api/v1/matches", NEW_MATCH) for _ in range(7)]
            assert answers == [201] * 5 + [429] * 2  # counted afresh in the worker's memory meanwhile
            key = {"Authorization": f"Bearer {created['key']}"}
            assert timed_post(server, f"/api/v1/matches/{created['id']}/hands", {"record": TRICKS}, key) == 201
            assert server.request("GET", f"/api/v1/matches/{created['id']}")[0] == 200
            assert "Rate limit storage unreachable - falling back to in-memory storage" in log.read_text()

            redis_script("start", port, directory)
            with redis.Redis.from_url(url) as client:
                deadline = time.monotonic() + 60
                while not client.keys("*new-matches*"):  # counted in Redis again
                    assert time.monotonic() < deadline, "the limits never went back to Redis"
                    assert timed_post(server, "/api/v1/matches", NEW_MATCH) in (201, 429)
                    time.sleep(0.5)
    finally:
        redis_script("stop", port, directory)
    assert not re.search(r'" 5\d\d ', log.read_text())


@pytest.mark.parametrize("workers, warned", [("2", True), ("1", False)])
def test_more_than_one_worker_without_a_shared_store_says_so_loudly_and_serves(tmp_path, monkeypatch, workers, warned):
    monkeypatch.delenv("SCOREKEEPER_RATELIMIT_STORAGE", raising=False)
    with served(tmp_path, WORKERS=workers) as (server, log):
        assert server.request("GET", "/")[0] == 200
        assert server.request("POST", "/api/v1/matches", NEW_MATCH)[0] == 201
    warnings = re.findall(r"WARNING: \d+ workers.*?Serving anyway", log.read_text(), re.S)
    assert len(warnings) == (1 if warned else 0)  # once per start, not once per worker
    if warned:
        assert "2 workers" in warnings[0] and "each worker's own memory" in warnings[0] and WARNING in warnings[0]
