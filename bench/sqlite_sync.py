"""What SQLite's synchronous=FULL costs over NORMAL when recording hands.

FULL syncs the WAL to disk at every commit, so a hand the phone was told is recorded survives a
power cut; NORMAL syncs only at checkpoints and may lose the last hands (SQLite's documentation).
This records the same hands through the API under each setting, on a file in a temporary folder
on the disk the app would use (pass a folder to measure another disk), and prints the figures.

    .venv/bin/python bench/sqlite_sync.py [FOLDER]
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app
from scorekeeper.extensions import db

HANDS = 300
LEVELS = ("NORMAL", "FULL")  # PRAGMA synchronous values 1 and 2


class Table:
    """One match on its own SQLite file, under one synchronous level."""

    def __init__(self, folder: str, level: str):
        os.environ["SCOREKEEPER_SQLITE_SYNCHRONOUS"] = level  # read by each new connection
        path = Path(folder, f"{level.lower()}.sqlite")
        self.app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "bench", "TESTING": True})
        with self.app.app_context():
            db.create_all()
            with db.engine.connect() as connection:  # open the pool's connection now, at this level
                assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == LEVELS.index(level) + 1
        self.client = self.app.test_client()
        created = self.client.post(
            "/api/v1/matches", json={"game": "court_piece", "players": ["Ann", "Bo", "Cy", "Di"]}
        ).json
        self.url = f"/api/v1/matches/{created['id']}/hands?hands=1"
        self.headers = {"Authorization": f"Bearer {created['key']}"} if created.get("key") else {}
        self.timings: list[float] = []

    def record(self, number: int) -> None:
        won = 7 + number % 6
        started = time.perf_counter()
        answer = self.client.post(
            self.url, headers=self.headers, json={"record": {"outcome": "tricks", "tricks": [won, 13 - won]}}
        )
        self.timings.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 201, answer.json

    def close(self) -> None:
        with self.app.app_context():
            db.engine.dispose()


def bare_commits(folder: str, level: str) -> list[float]:
    """Milliseconds per one-row commit with sqlite3 alone: the sync itself, without the app."""
    connection = sqlite3.connect(Path(folder, f"bare-{level.lower()}.sqlite"), isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={level}")
    connection.execute("CREATE TABLE hand (id INTEGER PRIMARY KEY, record TEXT)")
    timings = []
    for _ in range(HANDS):
        started = time.perf_counter()
        connection.execute("BEGIN")
        connection.execute('INSERT INTO hand (record) VALUES (\'{"outcome": "tricks"}\')')
        connection.execute("COMMIT")
        timings.append((time.perf_counter() - started) * 1000)
    connection.close()
    return timings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory(dir=base) as folder:
        tables = {level: Table(folder, level) for level in LEVELS}
        for number in range(HANDS):  # taking turns, so both see the same load on the machine
            for table in tables.values():
                table.record(number)
        for table in tables.values():
            table.close()
        bare = {level: bare_commits(folder, level) for level in LEVELS}
    results = {level: table.timings for level, table in tables.items()}
    print(f"{HANDS} writes each, SQLite (WAL) in {base or tempfile.gettempdir()}\n")
    print(f"{'':<30} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8} {'per s':>8}")
    for label, runs in (("record a hand (API)", results), ("bare one-row commit", bare)):
        for level, timings in runs.items():
            mean = statistics.fmean(timings)
            print(
                f"{label + ', ' + level:<30} {statistics.median(timings):8.2f} {percentile(timings, 0.95):8.2f} "
                f"{mean:8.2f} {1000 / mean:8.0f}"
            )
    extra = statistics.median(results["FULL"]) - statistics.median(results["NORMAL"])
    print(f"\nFULL costs {extra:.2f} ms more per recorded hand at the median: one fsync of the WAL per commit.")


if __name__ == "__main__":
    main()
