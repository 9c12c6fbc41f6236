"""Trust, round two (issue 38), attacked as a stranger on the club's Wi-Fi would: each defect against
the app served as `make serve` serves it (gunicorn with scripts/gunicorn.conf.py, the migrations
applied, CSRF and every rate limit on; only the write and new-match limits raised, as LiveServer
does, and the export limit where a hundred readers come from one address).

PostgreSQL stopped and started needs the PostgreSQL of scripts/test.sh (TEST_POSTGRES_URL): it
starts a server of its own beside it with scripts/postgres.sh."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.proof.live_server import ROOT, LiveServer, Phone, free_port, migrate

FOUR = ["Ann", "Bo", "Cy", "Di"]
NEW_MATCH = {"game": "court_piece", "players": FOUR}
TRICKS = {"outcome": "tricks", "tricks": [8, 5]}
HOST_PASSWORD = "a long club password"
SMALL_DISK = Path(__file__).with_name("small_disk_gunicorn.py")


@contextmanager
def served(tmp_path: Path, database_url: str | None = None, **environment: str):
    url = database_url or f"sqlite:///{tmp_path / 'served.sqlite'}"
    migrate(url)
    with LiveServer(url, tmp_path / "gunicorn.log", SCOREKEEPER_ADMIN_PASSWORD=HOST_PASSWORD, **environment) as server:
        yield server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the tests that leave each other's limits alone (each test its own phones)."""
    with served(tmp_path_factory.mktemp("shared")) as running:
        yield running


def started_on_page(phone: Phone, names: list[str] = FOUR) -> int:
    answer = phone.submit("/matches/new/court_piece", {f"seat-{n}": name for n, name in enumerate(names)})
    assert answer.status == 302, answer.text[:500]
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def hand_on_page(phone: Phone, match_id: int, number: int, note: str = "") -> int:
    fields = {"outcome": "tricks", "tricks-0": "8", "expected": str(number), "note": note}
    return phone.submit(f"/matches/{match_id}/hands", fields, page=f"/matches/{match_id}").status


def table_code(page: str) -> str:
    return re.search(r"Table code <strong>([2-9A-Z-]+)</strong>", page).group(1)


# -- 1. a receipt answers only whoever may make the request -------------------------------------------


def test_a_stranger_replaying_a_new_match_with_its_short_key_gets_the_match_but_not_its_key(server):
    table, stranger = Phone(server), Phone(server)
    made = table.send("POST", "/api/v1/matches", json_body=NEW_MATCH, headers={"Idempotency-Key": "1"})
    replay = stranger.send("POST", "/api/v1/matches", json_body=NEW_MATCH, headers={"Idempotency-Key": "1"})
    assert made.status == 201 and made.json["key"]
    assert replay.status == 201 and replay.json["id"] == made.json["id"]
    assert replay.json["key"] is None and "too short" in replay.json["key_withheld"]
    assert made.json["key"] not in replay.text
    match = f"/api/v1/matches/{made.json['id']}"
    assert stranger.send("DELETE", match).status == 401 and stranger.get(match).status == 200

    long_key = {"Idempotency-Key": "k" * 22}  # 128 bits and more: only the client that made it knows it
    second = table.send("POST", "/api/v1/matches", json_body=NEW_MATCH, headers=long_key)
    again = table.send("POST", "/api/v1/matches", json_body=NEW_MATCH, headers=long_key)
    assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json["key"] == second.json["key"] is not None


def test_a_hand_replayed_without_its_matchs_key_or_with_another_matchs_is_refused(server):
    table = Phone(server)
    first, other = (table.send("POST", "/api/v1/matches", json_body=NEW_MATCH).json for _ in range(2))
    hands, body = f"/api/v1/matches/{first['id']}/hands", {"record": TRICKS}
    sent = table.send(
        "POST",
        hands,
        json_body=body,
        headers={"Idempotency-Key": "the-tables-hand", "Authorization": f"Bearer {first['key']}"},
    )
    assert sent.status == 201
    for authorization, refused in (("", 401), (f"Bearer {other['key']}", 403)):
        replay = Phone(server).send(
            "POST",
            hands,
            json_body=body,
            headers={"Idempotency-Key": "the-tables-hand", "Authorization": authorization},
        )
        assert replay.status == refused and "Idempotent-Replayed" not in replay.headers, replay.text
    assert len(table.get(f"/api/v1/matches/{first['id']}").json["hands"]) == 1


# -- 2. a hundred slow export readers ----------------------------------------------------------------


def grow_history(url: str, matches: int) -> None:
    """A club's history of `matches` matches, cloned in bulk as the bench does (bench/bench_fill.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import bench_fill
    finally:
        sys.path.remove(str(ROOT / "bench"))
    bench_fill.grow_database(url, matches, templates=6)


def stalled_reader(port: int, path: str) -> socket.socket:
    """An export that reads its first 4 KB through a 4 KB window, then stops reading (a phone asleep
    mid-download): the socket, still open."""
    reader = socket.socket()
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reader.settimeout(10)
    reader.connect(("127.0.0.1", port))
    reader.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    first = reader.recv(4096)
    assert first.startswith(b"HTTP/1.1 200"), first[:100]
    return reader


def test_a_hundred_stalled_export_readers_leave_every_page_and_write_answering(tmp_path):
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    migrate(url)
    grow_history(url, 4000)  # an export of about 6 MB: more than the kernel buffers for a reader
    with served(tmp_path, url, SCOREKEEPER_EXPORT_LIMIT="1000 per minute") as server:
        table = Phone(server)
        match = table.send("POST", "/api/v1/matches", json_body=NEW_MATCH).json
        readers = [stalled_reader(server.port, f"/export/hands.{'csv' if n % 2 else 'json'}") for n in range(100)]
        try:
            time.sleep(1)  # every reader's export has filled what the kernel buffers for it, and waits
            assert server.database_connections() <= 2  # the idle pool's: no reader holds one
            timings = []
            for _ in range(10):
                began = time.perf_counter()
                for path in ("/", "/matches", f"/matches/{match['id']}", "/players/"):
                    assert table.get(path).status == 200, path
                written = table.send(
                    "POST",
                    f"/api/v1/matches/{match['id']}/hands",
                    json_body={"record": TRICKS},
                    headers={"Authorization": f"Bearer {match['key']}"},
                )
                assert written.status == 201, written.text
                timings.append(time.perf_counter() - began)
            assert max(timings) < 2, timings  # four pages and a write; a 503 comes after 3 s
        finally:
            for reader in readers:
                reader.close()
        assert not re.search(r'" 503 ', server.log.read_text())


# -- 3. every error says what really happened -----------------------------------------------------------


def test_a_full_disk_is_a_507_the_host_hears_of_and_nothing_acknowledged_is_lost(tmp_path):
    """The database file may not grow past a few pages more than it holds at start (SQLite's
    max_page_count, set by small_disk_gunicorn.py around scripts/gunicorn.conf.py)."""
    with served(tmp_path, config=SMALL_DISK) as server:
        table = Phone(server)
        match_id = started_on_page(table)
        acknowledged, answer = 0, None
        while acknowledged < 400:
            answer = table.submit(
                f"/matches/{match_id}/hands",
                {"outcome": "tricks", "tricks-0": "8", "note": "x" * 200, "expected": str(acknowledged + 1)},
                page=f"/matches/{match_id}",
            )
            if answer.status != 302:
                break
            acknowledged += 1
        assert answer.status == 507 and acknowledged > 0
        assert "disk is full" in answer.text and "Tell the host" in answer.text
        hands = table.get(f"/api/v1/matches/{match_id}").json["hands"]
        assert len(hands) == acknowledged
        log = server.log.read_text()
        assert log.count("THE DISK IS FULL") == 1  # loudly, once a minute, not once a request
        assert not re.search(r'" 409 ', log)


def postgres_script(command: str, directory: str, port: int) -> str:
    environment = {**os.environ, "PG_TEST_DIR": directory, "PG_TEST_PORT": str(port)}
    done = subprocess.run(
        [str(ROOT / "scripts" / "postgres.sh"), command],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.skipif(not os.environ.get("TEST_POSTGRES_URL"), reason="needs PostgreSQL: scripts/test.sh starts one")
def test_postgresql_stopped_is_a_503_with_retry_after_and_started_again_is_served_by_the_same_worker(tmp_path):
    directory, port = tempfile.mkdtemp(prefix="scorekeeper-pg-restart-"), free_port()
    os.rmdir(directory)  # scripts/postgres.sh makes it, for the postgres user
    try:
        url = postgres_script("start", directory, port)
        with served(tmp_path, url.replace("postgresql://", "postgresql+psycopg://")) as server:
            table, worker = Phone(server), server.pids()[1:]
            match = table.send("POST", "/api/v1/matches", json_body=NEW_MATCH).json
            key = {"Authorization": f"Bearer {match['key']}"}
            hands = f"/api/v1/matches/{match['id']}/hands"
            acknowledged = sum(
                table.send("POST", hands, json_body={"record": TRICKS}, headers=key).status == 201 for _ in range(3)
            )
            answers, stop = [], threading.Event()

            def phone_at_the_table():
                while not stop.is_set():
                    for method, path, body in (
                        ("GET", f"/matches/{match['id']}", None),
                        ("GET", "/", None),
                        ("POST", hands, {"record": TRICKS}),
                    ):
                        answers.append(Phone(server).send(method, path, json_body=body, headers=key))
                    time.sleep(0.05)

            playing = threading.Thread(target=phone_at_the_table)
            playing.start()
            time.sleep(0.5)
            postgres_script("stop", directory, port)
            time.sleep(2)
            postgres_script("start", directory, port)
            time.sleep(2)
            stop.set()
            playing.join()

            statuses = [answer.status for answer in answers]
            assert 500 not in statuses and set(statuses) <= {200, 201, 503}, statuses
            assert 503 in statuses
            assert all(answer.headers["Retry-After"] for answer in answers if answer.status == 503)
            assert statuses[-3:] == [200, 200, 201]  # served again, by the worker that served before
            assert server.pids()[1:] == worker
            acknowledged += sum(answer.status == 201 for answer in answers)
            assert len(table.get(f"/api/v1/matches/{match['id']}").json["hands"]) == acknowledged
    finally:
        postgres_script("stop", directory, port)
        shutil.rmtree(directory, ignore_errors=True)


# -- 4. safe CSV ---------------------------------------------------------------------------------------


FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"]


def test_no_exported_cell_starts_a_formula_and_numbers_stay_numbers(server):
    table = Phone(server)
    match_id = started_on_page(table, FORMULAS)
    assert hand_on_page(table, match_id, 1, note="@SUM(1+1)*cmd|' /C calc'!A0") == 302
    export = table.get(f"/export/hands.csv?match={match_id}")
    assert export.headers.get_all("Content-Type") == ["text/csv; charset=utf-8"]
    rows = list(csv.DictReader(io.StringIO(export.text)))
    cells = [cell for row in rows for cell in row.values()]
    assert len(rows) == 2 and [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")] == []
    assert [cell for cell in cells if cell.startswith("-") and not cell.lstrip("-").isdigit()] == []
    assert rows[0]["players"] == "'" + " & ".join([FORMULAS[0], FORMULAS[2]])
    assert rows[0]["note"] == "'@SUM(1+1)*cmd|' /C calc'!A0"
    assert all(row["change"].lstrip("-").isdigit() for row in rows)  # numbers as they were


# -- 5. the host's door ----------------------------------------------------------------------------------


def test_the_host_password_allows_ten_wrong_guesses_a_minute_and_then_not_even_the_right_one(tmp_path):
    with served(tmp_path) as server:
        guesser = Phone(server)
        statuses = [
            guesser.submit("/players/host/sign-in", {"password": f"guess {n}"}, page="/players/host").status
            for n in range(12)
        ]
        assert statuses == [403] * 10 + [429] * 2
        right = guesser.submit("/players/host/sign-in", {"password": HOST_PASSWORD}, page="/players/host")
        assert right.status == 429 and "Too many host passwords from here" in right.text


def test_a_host_cookie_copied_before_sign_out_is_signed_out_with_it(server):
    host = Phone(server)
    assert host.submit("/players/host/sign-in", {"password": HOST_PASSWORD}, page="/players/host").status == 302
    copy = Phone(server)
    copy.cookies = dict(host.cookies)
    assert "Rename a player" in copy.get("/players/host").text
    assert host.submit("/players/host/sign-out", {}, page="/players/host").status == 302
    page = copy.get("/players/host").text
    assert "Rename a player" not in page and 'name="password"' in page


# -- 6. the phone's right to score ---------------------------------------------------------------------


def test_a_phone_token_planted_before_a_match_is_never_adopted(server):
    planted = "p" * 43
    phone = Phone(server)
    phone.cookies["phone"] = planted
    match_id = started_on_page(phone)
    assert phone.cookies["phone"].rsplit(".", 1)[0] != planted  # the server issued its own
    planter = Phone(server)
    planter.cookies["phone"] = planted
    assert hand_on_page(planter, match_id, 1) == 403
    assert hand_on_page(phone, match_id, 1) == 302


def wrong_code(number: int) -> str:
    """A well-formed table code, as a guesser would send it (the test checks it is not the table's)."""
    digits = "23456789"
    return f"{digits[number // 8 % 8]}{digits[number % 8]}{digits[number // 64]}2-2222-22"


def test_a_burst_of_table_codes_gets_no_more_than_the_limit_judged(server):
    # the limit as served: ten wrong codes a minute from an address
    table = Phone(server)
    match_id = started_on_page(table)
    code = table_code(table.get(f"/matches/{match_id}").text)
    assert code not in {wrong_code(number) for number in range(100)}
    guessers = [Phone(server) for _ in range(100)]
    tokens = [
        re.search(r'name="csrf_token"[^>]*value="([^"]+)"', guesser.get(f"/matches/{match_id}").text).group(1)
        for guesser in guessers
    ]
    together, statuses = threading.Barrier(len(guessers)), []

    def guess(guesser: Phone, token: str, number: int) -> None:
        together.wait()
        statuses.append(
            guesser.send(
                "POST", f"/matches/{match_id}/claim", form={"csrf_token": token, "code": wrong_code(number)}
            ).status
        )

    threads = [
        threading.Thread(target=guess, args=(guesser, token, number))
        for number, (guesser, token) in enumerate(zip(guessers, tokens))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(statuses) == 100 and 1 <= statuses.count(403) <= 10, statuses  # judged: at most the limit
    assert statuses.count(403) + statuses.count(429) == 100, statuses
    late = guessers[0].submit(f"/matches/{match_id}/claim", {"code": code}, page=f"/matches/{match_id}")
    assert late.status == 429  # even the right code, from an address that guessed too often


# -- 7. headers --------------------------------------------------------------------------------------------


def test_pages_deny_what_the_app_does_not_use_and_a_table_code_is_never_kept(server):
    table, watcher = Phone(server), Phone(server)
    match_id = started_on_page(table)
    scoring, watching = table.get(f"/matches/{match_id}"), watcher.get(f"/matches/{match_id}")
    for answer in (scoring, watching, table.get("/rules/"), table.get("/static/app.css")):
        policy = answer.headers["Permissions-Policy"]
        assert all(f"{feature}=()" in policy for feature in ("camera", "microphone", "geolocation"))
        assert answer.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert table_code(scoring.text) and scoring.headers["Cache-Control"] == "no-store"
    assert scoring.headers["Scorekeeper-Offline-Copy"] == "without-table-code"
    assert "no-store" not in (watching.headers["Cache-Control"] or "") and "Table code" not in watching.text


def test_behind_https_every_cookie_is_a_host_cookie(tmp_path):
    with served(tmp_path, SCOREKEEPER_HTTPS="1") as server:
        phone = Phone(server)
        match = phone.send("POST", "/api/v1/matches", json_body=NEW_MATCH).json
        joined = phone.get(f"/matches/{match['id']}/join?key={match['key']}")
        made = joined.headers.get_all("Set-Cookie") or []
        assert {line.split("=", 1)[0] for line in made} >= {"__Host-phone"}, made
        assert all(line.startswith("__Host-") and "Secure" in line and "Domain" not in line for line in made), made
