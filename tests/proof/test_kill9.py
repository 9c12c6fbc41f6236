"""Proof: kill -9 of the server during writes loses no acknowledged hand.

gunicorn serves SQLite the way `make serve` does; phones keep recording hands over real HTTP; at
a random moment the server and its worker are killed with SIGKILL, mid-write, and started again
on the same file. Every hand whose 201 reached a phone must be in the database afterwards, at
its number, with its record; the file must pass SQLite's integrity check and the matches must
show as before."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
import time

import pytest

from tests.conftest import make_app
from tests.proof.live_server import LiveServer

pytestmark = pytest.mark.proof

CRASHES = 10
PHONES = 4


class Phone:
    """A phone scoring its own match over HTTP until the server goes away."""

    def __init__(self, server: LiveServer, match_id: int, key: str | None, seed: int):
        self.server = server
        self.match_id = match_id
        self.key = key
        self.rng = random.Random(seed)
        self.acknowledged: dict[int, list[int]] = {}  # hand number -> tricks
        self.unanswered = 0  # writes under way when the server died
        self.refused: list = []  # any answer but 201 (none expected: each phone has its own match)

    def score_until_down(self) -> None:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        while True:
            won = self.rng.randint(7, 12)
            record = {"outcome": "tricks", "tricks": [won, 13 - won]}
            try:
                status, answer = self.server.request(
                    "POST", f"/api/v1/matches/{self.match_id}/hands?hands=1", {"record": record}, headers, timeout=10
                )
            except (OSError, http.client.HTTPException):  # refused, reset, or an answer cut off
                self.unanswered += 1
                return
            if status != 201:
                self.refused.append((status, answer))
                return
            self.acknowledged[answer["number"]] = record["tricks"]


def stored_tricks(path) -> dict[tuple[int, int], list[int]]:
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = connection.execute("SELECT match_id, number, record FROM hand").fetchall()
    return {(match_id, number): json.loads(record)["tricks"] for match_id, number, record in rows}


def test_kill_9_during_writes_loses_no_acknowledged_hand(tmp_path, figures):
    path = tmp_path / "served.sqlite"
    url = f"sqlite:///{path}"
    make_app(url)  # the tables
    log = tmp_path / "gunicorn.log"
    rng = random.Random(9)
    server = LiveServer(url, log).start()
    matches = []
    for _ in range(PHONES):
        status, created = server.request(
            "POST", "/api/v1/matches", {"game": "court_piece", "players": ["Ann", "Bo", "Cy", "Di"]}
        )
        assert status == 201
        matches.append((created["id"], created.get("key")))
    acknowledged: dict[tuple[int, int], list[int]] = {}
    unanswered = 0
    refused = []
    try:
        for crash in range(CRASHES):
            phones = [
                Phone(server, match_id, key, seed=crash * PHONES + n) for n, (match_id, key) in enumerate(matches)
            ]
            threads = [threading.Thread(target=phone.score_until_down) for phone in phones]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.4, 1.2))
            server.kill()
            for thread in threads:
                thread.join()
            for phone in phones:
                acknowledged.update({(phone.match_id, number): tricks for number, tricks in phone.acknowledged.items()})
                unanswered += phone.unanswered
                refused += phone.refused
            server = LiveServer(url, log).start()  # on the same file
        stored = stored_tricks(path)
        for match_id, _ in matches:
            status, shown = server.request("GET", f"/api/v1/matches/{match_id}")
            assert status == 200 and len(shown["hands"]) == sum(1 for m, _ in stored if m == match_id)
    finally:
        server.stop()
    lost = [key for key, tricks in acknowledged.items() if stored.get(key) != tricks]
    in_flight_kept = len(stored) - len(acknowledged)
    figures(
        f"kill -9: {CRASHES} crashes during writes on SQLite (synchronous=FULL), {len(acknowledged)} hands "
        f"acknowledged, {len(lost)} lost; {unanswered} writes cut off unanswered, "
        f"{in_flight_kept} of them committed all the same"
    )
    assert refused == []
    assert len(acknowledged) > CRASHES * PHONES  # the phones really were writing
    assert lost == []
    assert 0 <= in_flight_kept <= unanswered
