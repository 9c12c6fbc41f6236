"""A club night on one server (issue 19): watching phones cost no database connection, and a
client that holds a request open stalls nobody. Against a real gunicorn, as `make serve` runs it."""

from __future__ import annotations

import selectors
import socket
import time

import pytest

from tests.conftest import DATABASES, database_url, make_app
from tests.proof.live_server import LiveServer

WATCHERS = 300
HALF_SENT = 20  # more than the pool's 10 connections and 5 overflow


@pytest.fixture(params=DATABASES)
def server(request, tmp_path):
    url = database_url(request.param, tmp_path)
    app = make_app(url)  # the tables
    with app.app_context():
        from scorekeeper.extensions import db

        db.engine.dispose()
    with LiveServer(url, tmp_path / "gunicorn.log") as live:
        yield live


def start_match(server: LiveServer) -> tuple[int, str]:
    status, created = server.request(
        "POST", "/api/v1/matches", {"game": "court_piece", "players": ["Ann", "Bo", "Cy", "Di"]}
    )
    assert status == 201, created
    return created["id"], created["key"]


def record_hand(server: LiveServer, match_id: int, key: str, number: int) -> None:
    status, answer = server.request(
        "POST",
        f"/api/v1/matches/{match_id}/hands",
        {"number": number, "record": {"outcome": "tricks", "tricks": [7, 6]}},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert status == 201, answer


def open_raw(server: LiveServer, head: str, body: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(head.encode() + b"\r\n" + body)
    return sock


def watch(server: LiveServer, match_id: int, version: int) -> socket.socket:
    return open_raw(server, f"GET /matches/{match_id}/events?version={version} HTTP/1.1\r\nHost: 127.0.0.1\r\n")


def read_until(sockets: list[socket.socket], marker: bytes, seconds: float) -> dict[socket.socket, float]:
    """When each socket's answer first held `marker` (monotonic seconds), within `seconds`."""
    selector = selectors.DefaultSelector()
    seen: dict[socket.socket, bytes] = {}
    arrived: dict[socket.socket, float] = {}
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    while len(arrived) < len(sockets) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.1):
            sock = key.fileobj
            chunk = sock.recv(65536)
            seen[sock] = seen.get(sock, b"") + chunk
            if marker in seen[sock] or not chunk:
                selector.unregister(sock)
                if marker in seen[sock]:
                    arrived[sock] = time.monotonic()
    selector.close()
    return arrived


def timed_page(server: LiveServer, path: str) -> tuple[int, float]:
    began = time.monotonic()
    status, _ = server.request("GET", path, timeout=30)
    return status, time.monotonic() - began


def test_hundreds_of_watching_phones_hold_no_database_connection_and_see_each_hand(server):
    match_id, key = start_match(server)
    server.request("GET", f"/matches/{match_id}")  # the pool has what a page needs
    before = server.database_connections()
    streams = [watch(server, match_id, 0) for _ in range(WATCHERS)]
    try:
        assert len(read_until(streams, b"HTTP/1.1 200", 20)) == WATCHERS  # every stream is open
        for sock in streams:
            sock.setblocking(True)
        pages = [timed_page(server, f"/matches/{match_id}") for _ in range(5)]
        assert all(status == 200 and took < 1 for status, took in pages), pages
        assert server.database_connections() <= before + 1  # the live poller's one look, if it is mid-tick
        record_hand(server, match_id, key, 1)
        acknowledged = time.monotonic()
        arrived = read_until(streams, b"event: change\ndata: 1", 10)
        delays = sorted(at - acknowledged for at in arrived.values())
        assert len(delays) == WATCHERS
        assert delays[int(0.95 * len(delays))] < 1
    finally:
        for sock in streams:
            sock.close()


def test_a_watcher_of_a_page_already_behind_is_told_at_once(server):
    match_id, key = start_match(server)
    record_hand(server, match_id, key, 1)
    stale = watch(server, match_id, 0)
    try:
        assert read_until([stale], b"event: change", 3)
    finally:
        stale.close()


def test_half_sent_writes_stall_no_page_and_change_nothing(server):
    match_id, key = start_match(server)
    head = (
        f"POST /api/v1/matches/{match_id}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Authorization: Bearer {key}\r\nContent-Length: 100\r\n"
    )
    stalled = [open_raw(server, head, b"{") for _ in range(HALF_SENT)]
    try:
        time.sleep(0.5)  # every one of them is in the server, waiting on its body
        pages = [timed_page(server, path) for path in (f"/matches/{match_id}", "/", "/matches", "/rules/") * 2]
        assert all(status == 200 and took < 1 for status, took in pages), pages
        answers = read_until(stalled, b"408", 15)  # the body's time limit ends each of them
        assert len(answers) == HALF_SENT
    finally:
        for sock in stalled:
            sock.close()
    status, match = server.request("GET", f"/api/v1/matches/{match_id}")
    assert status == 200 and match["hands"] == []
