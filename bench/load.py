"""A club night played against the real server (issue 19, item 7): run with `make load`.

It serves the app as `make serve` does (gunicorn with scripts/gunicorn.conf.py, gevent workers, on
127.0.0.1 and a free port, after `flask db upgrade` on a fresh database), through bench/load_app.py:
the app plus a /bare route that touches no database, timed by the same server in the same run.
Then, from one process of greenlets (gevent, the standard library's http.client and sockets):

1. A club night (--seconds, 180): --tables tables (50), each with a scoring phone that starts a
   race game (or Court Piece) through the API and records a hand every 20 s, and --watchers phones
   (3) following it live: the watch page, its event stream until the change event, the page again
   (as watch.js reloads it), the stream again; --visitors visitors (50) reading the history, the
   players and the rules, 1 to 3 s apart.
2. --idle-streams watch streams (1,000) open at once on a few matches nobody writes to, for
   --idle-seconds (30), while a phone reads a match page and a rules page.
3. --half-sent writes (50), each its headers and one byte of a 100-byte body, held --hold seconds
   (60), while a phone reads pages.
4. --slow-readers exports (100) of the whole history, grown first to --export-matches matches
   (15,000, cloned as bench.py clones them), half as CSV and half as JSON: each reads 4 KB and then
   stops reading for --export-seconds (60) while a club night of --tables tables plays on (issue 38).
5. An edit of the oldest finished Court Piece match of that history (its court given to the other
   side), while a club night of --tables tables plays on until the server's re-rating runner has
   worked out every later match of the game again (issue 33).

Two configurations (--only one of them): SQLite with 1 worker; PostgreSQL (scripts/postgres.sh, a
database of its own, dropped after) with 2 workers and the rate limits in Redis (scripts/redis.sh,
an instance of its own). All the load comes from one address, 127.0.0.1, so the per-address rate
limits are raised for the run (the report says so).

Targets (issue 19): 0 errors; every page and write p95 at most 10× the bare route's; a hand
reaches its watchers within 1 s (p95); the idle streams hold no database connection beyond the
idle pool and leave the pages' p95 within 10× the bare route's; the half-sent writes leave every
page answering within 1 s; with the slow export readers held, every page and write p95 within 10×
the bare route's and no 503 (nor any other error); while an early edit is re-rated, every page
and write p95 within 10× the bare route's, and the re-rating done within 10 minutes. The report is Markdown, on stdout and in bench/out/load-<config>.txt
(the server's log beside it, load-<config>-server.log); progress goes to stderr. Exit status 1 when
a target is missed or a configuration could not run. Every request has a deadline (10 s; a watch
stream 15 s of silence, 40 s in all), and every phone stops by itself at the end of its phase.

    make load                                              # both configurations, about 10 minutes
    .venv/bin/python bench/load.py --only sqlite --seconds 30 --idle-streams 200 --hold 15"""

from gevent import monkey

monkey.patch_all()  # before anything imports socket, ssl, threading or subprocess

import argparse  # noqa: E402
import html  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import runpy  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from collections.abc import Callable  # noqa: E402
from contextlib import ExitStack  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402
import psycopg  # noqa: E402
from gevent.event import Event  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

import bench_fill  # noqa: E402
import bench_report as report  # noqa: E402

from tests.proof.live_server import CONFIG, GUNICORN, LiveServer, free_port  # noqa: E402

FLASK = Path(sys.executable).with_name("flask")
APP = "bench.load_app:app"
OUT = HERE / "out"
LOAD_DATABASE = "scorekeeper_load"  # ours on the shared PostgreSQL: created, then dropped

TIMEOUT = 10.0  # seconds a request may take, from connecting to its last byte
STREAM_SILENCE = 15.0  # the longest quiet on a watch stream (a heartbeat comes every 10 s at most)
STREAM_LIMIT = 40.0  # a stream ends within 25 s; one still open after this is an error
HAND_EVERY = 20.0  # seconds between two hands at a table
ARRIVALS = 15.0  # the tables start their matches over the first seconds of the night
THINK = (1.0, 3.0)  # a visitor's pause between two pages
BARE_EVERY = 0.25  # the bare route's pace during the club night
PROBE_EVERY = 0.1  # the reading phone's pace in phases 2 and 3
OPEN_RATE = 200  # idle streams opened a second
IDLE_MATCHES = 5
QUIET_SECONDS = 3  # the idle pool: the connections open, unchanged this many seconds running...
SETTLE_LIMIT = 60  # ...waited for at most this long, while the server finishes the night's requests
GRACE = 5.0  # a hand acknowledged this close to the end of the night may reach its watchers after it
PAGE_MAX_MS = 1000.0
DELIVERY_MS = 1000.0
RAISED = {
    "SCOREKEEPER_WRITE_LIMIT": "1000000 per minute",
    "SCOREKEEPER_NEW_MATCH_LIMIT": "1000000 per minute",
    "SCOREKEEPER_EXPORT_LIMIT": "1000000 per minute",
}
EXPORT_READ = 4096  # bytes a slow export reader reads before it stops reading
EXPORT_OPEN_RATE = 20  # slow readers opened a second

BARE = "bare route"
MATCH_PAGE = "match page"
NEW_MATCH = "new match (API)"
HAND = "hand write (API)"
HISTORY = "history"
HISTORY_GAME = "history of a game"
PLAYERS = "players list"
PLAYER = "player page"
RULES_INDEX = "rules index"
RULES = "rules page"
WATCH_OPEN = "watch open (to its headers)"
WATCH_RECONNECT = "watch reconnect (to its headers)"
NOT_JUDGED = {BARE, WATCH_OPEN, WATCH_RECONNECT}  # a stream is neither a page nor a write
ORDER = [
    BARE,
    MATCH_PAGE,
    NEW_MATCH,
    HAND,
    HISTORY,
    HISTORY_GAME,
    PLAYERS,
    PLAYER,
    RULES_INDEX,
    RULES,
    WATCH_OPEN,
    WATCH_RECONNECT,
]
FIRST = (
    "Ana",
    "Ben",
    "Carla",
    "Dev",
    "Eva",
    "Femi",
    "Gus",
    "Hana",
    "Ivo",
    "Jade",
    "Karl",
    "Lena",
    "Marco",
    "Nia",
    "Omar",
)
LAST = (
    "Lopez",
    "Okafor",
    "Diaz",
    "Patel",
    "Novak",
    "Adeyemi",
    "Berg",
    "Sato",
    "Petrov",
    "Wong",
    "Jensen",
    "Fischer",
    "Rossi",
    "Brown",
    "Haddad",
)


def club_member(seat: int) -> str:
    """The player in the club's seat number `seat` that night: 225 different names before any comes again."""
    return f"{FIRST[seat % len(FIRST)]} {LAST[seat // len(FIRST) % len(LAST)]}"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def now() -> float:
    return time.monotonic()


def left(until: float) -> float:
    return max(0.0, until - now())


# -- requests ----------------------------------------------------------------------------------------


class Failed(Exception):
    """A request that got no answer to time; `kind` is how it failed, as the report counts it."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def failure_kind(error: BaseException) -> str:
    if isinstance(error, (TimeoutError, gevent.Timeout)):
        return "timeout"
    if isinstance(error, http.client.HTTPException) and not isinstance(error, ConnectionError):
        return f"bad answer ({type(error).__name__})"
    return f"connection error ({type(error).__name__})"


@dataclass
class Answer:
    status: int
    body: bytes
    ms: float


def exchange(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None) -> Answer:
    """One request on a new connection, as a phone makes it, within TIMEOUT from connect to last byte."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        with gevent.Timeout(TIMEOUT):
            connection.request(method, path, body=body, headers=headers or {})
            answer = connection.getresponse()
            data = answer.read()
    except (OSError, http.client.HTTPException, gevent.Timeout) as error:
        raise Failed(failure_kind(error)) from None
    finally:
        connection.close()
    return Answer(answer.status, data, (time.perf_counter() - start) * 1000)


@dataclass
class Recorder:
    """What one phase measured: the times of the requests that answered, by kind; the failures."""

    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)

    def fail(self, kind: str, how: str) -> None:
        self.errors[(kind, how)] += 1

    def request(self, port: int, kind: str, method: str, path: str, body=None, headers=None) -> Answer | None:
        """Timed as `kind`; an answer outside 2xx/3xx, or none, is an error and gives None."""
        try:
            answer = exchange(port, method, path, body, headers)
        except Failed as failed:
            self.fail(kind, failed.kind)
            return None
        if answer.status >= 400:
            self.fail(kind, f"HTTP {answer.status}")
            return None
        self.samples[kind].append(answer.ms)
        return answer

    def get(self, port: int, kind: str, path: str) -> Answer | None:
        return self.request(port, kind, "GET", path)

    def spawn(self, phone: Callable, *args, delay: float = 0.0) -> gevent.Greenlet:
        """A phone in a greenlet of its own; a bug in this script is counted as an error, not lost."""

        def run():
            try:
                phone(*args)
            except Exception as error:
                self.fail("load script", f"{type(error).__name__}: {error}")

        return gevent.spawn_later(delay, run)


def finish(greenlets: list[gevent.Greenlet], until: float) -> None:
    """Every phone stops by itself at `until`; wait for the last requests, then end any straggler."""
    gevent.joinall(greenlets, timeout=left(until) + STREAM_SILENCE + TIMEOUT)
    gevent.killall([g for g in greenlets if not g.dead], timeout=5)


# -- the server --------------------------------------------------------------------------------------


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


class Server(LiveServer):
    """The tests' real gunicorn (scripts/gunicorn.conf.py, a free port on 127.0.0.1, a process group of
    its own, the rate limits raised) serving bench/load_app.py with `workers` workers, after
    `flask db upgrade` as `make serve` does."""

    def __init__(self, database_url: str, workers: int, log: Path, environment: dict[str, str]):
        super().__init__(database_url, log, WORKERS=str(workers), SECRET_KEY="load", **RAISED, **environment)
        self.workers = workers

    def start(self, timeout: float = 90) -> None:
        with self.log.open("wb") as log:
            upgrade = subprocess.run(
                [str(FLASK), "--app", "scorekeeper", "db", "upgrade"],
                cwd=ROOT,
                env=self.environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=120,
            )
            if upgrade.returncode:
                raise RuntimeError(f"flask db upgrade failed: {self.log_tail()}")
            self.process = subprocess.Popen(
                [str(GUNICORN), "-c", str(CONFIG), APP],
                cwd=ROOT,
                env=self.environment,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = now() + timeout
        while now() < deadline and self.process.poll() is None:
            if len(self.worker_pids()) == self.workers and self._answers():
                gevent.sleep(2)  # the other workers finish warming up (scripts/gunicorn.conf.py)
                return
            gevent.sleep(0.2)
        raise RuntimeError(f"gunicorn did not start in {timeout:.0f} s: {self.log_tail()}")

    def log_tail(self) -> str:
        lines = self.log.read_text(errors="replace").strip().splitlines()
        return f"{' / '.join(lines[-3:])} (in {self.log})"

    def _answers(self) -> bool:
        try:
            return exchange(self.port, "GET", "/bare").status == 200
        except Failed:
            return False

    def worker_pids(self) -> list[int]:
        if not self.process or self.process.poll() is not None:
            return []
        master = self.process.pid
        try:
            return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
        except OSError:
            return []


# -- database connections in use ---------------------------------------------------------------------


class SqliteFiles:
    """SQLite connections open: the workers' file descriptors on the database file (/proc/PID/fd)."""

    busy_known = False

    def __init__(self, server: Server, path: Path):
        self.server, self.path = server, str(path.resolve())

    def count(self) -> tuple[int, int | None]:
        found = 0
        for pid in self.server.worker_pids():
            try:
                descriptors = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                continue  # the worker just ended
            for descriptor in descriptors:
                try:
                    found += os.readlink(f"/proc/{pid}/fd/{descriptor}") == self.path
                except OSError:
                    pass  # closed meanwhile
        return found, None


class PostgresSessions:
    """PostgreSQL connections to our database (pg_stat_activity): open, and busy (not idle: running
    a statement, or inside a transaction)."""

    busy_known = True

    def __init__(self, admin, database: str):
        self.admin, self.database = admin, database

    def count(self) -> tuple[int, int | None]:
        return self.admin.execute(
            "SELECT count(*), count(*) FILTER (WHERE state IS DISTINCT FROM 'idle') FROM pg_stat_activity "
            "WHERE datname = %s AND backend_type = 'client backend'",
            (self.database,),
        ).fetchone()


def sample_connections(counter, until: float, into: list, streams: "Gauge | None" = None) -> None:
    """Every second until `until`: (connections open, busy or None, watch streams open or None)."""
    while now() < until:
        into.append((*counter.count(), streams.open if streams else None))
        gevent.sleep(min(1.0, left(until)))


def connection_figures(samples: list[tuple], counter) -> str:
    if not samples:
        return "no sample"
    opened = [s[0] for s in samples]
    text = f"open max {max(opened)}, median {statistics.median(opened):g}"
    if counter.busy_known:
        busy = [s[1] for s in samples]
        text += f"; busy (not idle) max {max(busy)}, median {statistics.median(busy):g}"
    return text + f" ({len(samples)} samples)"


# -- the phones --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A game whose hand record is easy to build right (shared/api/races.md, API.md's Court Piece)
    and that never ends by itself, so a table records hands all night."""

    key: str
    players: int
    record: Callable[[random.Random, int], dict]


def winner(rng: random.Random, players: int) -> dict:
    return {"winner": rng.randrange(players)}


GAMES = (
    Game("aggravation", 2, winner),
    Game("frustration", 2, winner),
    Game("california_speed", 2, winner),
    Game("machiavelli", 4, winner),  # `ending` defaults to "out"
    Game("myllymatti", 3, lambda rng, players: {"loser": rng.randrange(players)}),
    Game("court_piece", 4, lambda rng, players: {"outcome": "tricks", "tricks": [t := rng.randint(3, 10), 13 - t]}),
)


@dataclass
class Table:
    game: Game
    players: list[str]
    match_id: int | None = None
    key: str | None = None
    started: Event = field(default_factory=Event)  # set once the match exists (or could not be started)
    acks: dict[int, float] = field(default_factory=dict)  # hand number (the match's version) → its answer


def start_match(port: int, rec: Recorder, table: Table) -> bool:
    body = json.dumps({"game": table.game.key, "players": table.players}).encode()
    answer = rec.request(port, NEW_MATCH, "POST", "/api/v1/matches", body, {"Content-Type": "application/json"})
    if answer is not None:
        created = json.loads(answer.body)
        table.match_id, table.key = created["id"], created["key"]
    table.started.set()
    return answer is not None


def play_table(port: int, rec: Recorder, table: Table, until: float, rng: random.Random) -> None:
    """The scoring phone: starts the match in the first seconds, then a hand every HAND_EVERY s."""
    gevent.sleep(min(rng.uniform(0, ARRIVALS), left(until)))
    if not start_match(port, rec, table):
        return
    due = now() + rng.uniform(5, HAND_EVERY)  # the watchers have their pages open by then
    while due < until:
        gevent.sleep(left(due))
        body = json.dumps({"record": table.game.record(rng, table.game.players)}).encode()
        answer = rec.request(
            port,
            HAND,
            "POST",
            f"/api/v1/matches/{table.match_id}/hands?hands=1",
            body,
            {"Content-Type": "application/json", "Authorization": f"Bearer {table.key}"},
        )
        if answer is not None:
            table.acks[json.loads(answer.body)["number"]] = now()
        due += HAND_EVERY


WATCH_LINK = re.compile(rb'data-watch="([^"]+)"')


def watch_link(port: int, rec: Recorder, match_id: int) -> str | None:
    """The watch page, as a phone opens the watch link or reloads it; its event stream's URL."""
    page = rec.get(port, MATCH_PAGE, f"/matches/{match_id}/watch")
    if page is None:
        return None
    found = WATCH_LINK.search(page.body)
    if not found:
        rec.fail(MATCH_PAGE, "no live link on the watch page")
        return None
    return html.unescape(found.group(1).decode())


class Gauge:
    """How many watch streams are open now, and the most at once."""

    def __init__(self):
        self.open = self.most = 0

    def enter(self) -> None:
        self.open += 1
        self.most = max(self.most, self.open)

    def leave(self) -> None:
        self.open -= 1


@dataclass
class Stream:
    outcome: str  # "change", "ended" (by the server, the browser reconnects), "over" (the phase ended)
    version: int | None = None


def follow(port: int, rec: Recorder, kind: str, path: str, until: float, gauge: Gauge | None = None) -> Stream | None:
    """Open a watch stream, time it to its headers as `kind`, and read it to its change event, its
    end, or `until`. None when it failed (counted)."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=STREAM_SILENCE)
    try:
        with gevent.Timeout(TIMEOUT):  # to its headers
            connection.request("GET", path, headers={"Accept": "text/event-stream"})
            answer = connection.getresponse()
        if answer.status != 200:
            rec.fail(kind, f"HTTP {answer.status}")
            return None
        rec.samples[kind].append((time.perf_counter() - start) * 1000)
        return read_events(answer, rec, kind, until, gauge)
    except (OSError, http.client.HTTPException, gevent.Timeout) as error:
        rec.fail(kind, failure_kind(error))
        return None
    finally:
        connection.close()


def read_events(
    answer: http.client.HTTPResponse, rec: Recorder, kind: str, until: float, gauge: Gauge | None
) -> Stream | None:
    phase_ends_first = left(until) < STREAM_LIMIT
    if gauge:
        gauge.enter()
    try:
        with gevent.Timeout(min(STREAM_LIMIT, left(until)), False):
            return next_change(answer)
        if phase_ends_first:
            return Stream("over")
        rec.fail(kind, f"stream still open after {STREAM_LIMIT:.0f} s")
        return None
    finally:
        if gauge:
            gauge.leave()


def next_change(answer: http.client.HTTPResponse) -> Stream:
    """Server-Sent Events: read to the first `change` event, or to the end of the stream."""
    event = data = None
    while line := answer.readline(4096):
        line = line.rstrip(b"\r\n")
        if line.startswith(b"event:"):
            event = line[6:].strip()
        elif line.startswith(b"data:"):
            data = line[5:].strip()
        elif not line and event == b"change":
            return Stream("change", int(data) if data and data.isdigit() else None)
        elif not line:
            event = data = None
    return Stream("ended")


def watch_table(port: int, rec: Recorder, table: Table, until: float, seen: list) -> None:
    """A watching phone: the watch page, its stream to the change event, the page again (watch.js
    reloads it), and so on; a stream the server ends is opened again, as EventSource does."""
    if not table.started.wait(timeout=left(until)) or table.match_id is None:
        return
    link, kind = watch_link(port, rec, table.match_id), WATCH_OPEN
    while now() < until:
        began = now()
        stream = follow(port, rec, kind, link, until) if link else None
        if stream is not None and stream.outcome == "change":
            seen.append((table, stream.version, now()))
            link, kind = watch_link(port, rec, table.match_id), WATCH_OPEN
            continue
        kind = WATCH_RECONNECT
        if stream is None or now() - began < 1:
            gevent.sleep(min(1.0, left(until)))  # a failing server is not hammered
        if link is None:
            link, kind = watch_link(port, rec, table.match_id), WATCH_OPEN


PLAYER_LINK = re.compile(rb'href="/players/(\d+)"')
RULES_LINK = re.compile(rb'href="/rules/([a-z_]+)"')


def browse(port: int, rec: Recorder, until: float, rng: random.Random) -> None:
    """A visitor: the history (all, or one game's), the players and a player, the rules and a game's,
    1 to 3 s apart; a player or a game is picked from the list page read before."""
    players: list[bytes] = []
    games: list[bytes] = []
    gevent.sleep(min(rng.uniform(0, THINK[1]), left(until)))  # visitors come in one by one, not all at once
    while now() < until:
        step = rng.choice((HISTORY, HISTORY, HISTORY_GAME, PLAYERS, PLAYER, PLAYER, RULES_INDEX, RULES, RULES))
        if step == PLAYER and players:
            rec.get(port, PLAYER, f"/players/{rng.choice(players).decode()}")
        elif step == RULES and games:
            rec.get(port, RULES, f"/rules/{rng.choice(games).decode()}")
        elif step in (PLAYER, PLAYERS):
            page = rec.get(port, PLAYERS, "/players/")
            players = PLAYER_LINK.findall(page.body) if page else players
        elif step in (RULES, RULES_INDEX):
            page = rec.get(port, RULES_INDEX, "/rules/")
            games = RULES_LINK.findall(page.body) if page else games
        elif step == HISTORY_GAME:
            rec.get(port, HISTORY_GAME, f"/matches?game={rng.choice(GAMES).key}")
        else:
            rec.get(port, HISTORY, "/matches")
        gevent.sleep(min(rng.uniform(*THINK), left(until)))


def probe(port: int, rec: Recorder, until: float, pages: list[tuple[str, str]], every: float) -> None:
    """One phone reading `pages` (kind, path) in turn, `every` seconds apart, until `until`."""
    turn = 0
    while now() < until:
        kind, path = pages[turn % len(pages)]
        rec.get(port, kind, path)
        turn += 1
        gevent.sleep(min(every, left(until)))


def hold_stream(port: int, rec: Recorder, link: str, until: float, gauge: Gauge) -> None:
    """An idle watching phone: keeps its stream open until `until`, reconnecting when it ends."""
    kind = WATCH_OPEN
    while now() < until:
        began = now()
        stream = follow(port, rec, kind, link, until, gauge)
        if stream is not None and stream.outcome == "change":
            rec.fail(kind, "a change event though nobody wrote")
        kind = WATCH_RECONNECT
        if stream is None or now() - began < 1:
            gevent.sleep(min(1.0, left(until)))


@dataclass
class HalfSent:
    answer: str | None = None  # the status line the server sent, if any
    answered: float | None = None  # seconds after the headers were sent
    closed: float | None = None  # when the server closed the connection
    failure: str | None = None  # could not connect or send


def hold_half_sent(port: int, table: Table, until: float, into: list[HalfSent]) -> None:
    """A write that sends its headers and one byte of its 100-byte body, then waits until `until`,
    noting what the server answers and when it closes."""
    held = HalfSent()
    into.append(held)
    head = (
        f"POST /api/v1/matches/{table.match_id}/hands HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nAuthorization: Bearer {table.key}\r\nContent-Length: 100\r\n\r\n{{"
    )
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    except OSError as error:
        held.failure = failure_kind(error)
        return
    with sock:
        try:
            sock.sendall(head.encode())
        except OSError as error:
            held.failure = failure_kind(error)
            return
        listen(sock, until, held)


def listen(sock: socket.socket, until: float, held: HalfSent) -> None:
    """Whatever the server sends until `until`, and when it closes the connection."""
    sent, received = now(), b""
    try:
        while now() < until:
            sock.settimeout(max(0.01, left(until)))
            data = sock.recv(4096)
            if not data:
                held.closed = now() - sent
                break
            if not received:
                held.answered = now() - sent
            received = (received + data)[:4096]
    except TimeoutError:
        pass  # held to the end
    except OSError as error:
        held.closed, held.failure = now() - sent, failure_kind(error)
    held.answer = received.split(b"\r\n", 1)[0].decode(errors="replace") or None


# -- the report's parts --------------------------------------------------------------------------


def request_table(
    rec: Recorder, kinds: list[str], verdicts: report.Verdicts | None = None, where: str = ""
) -> list[str]:
    """p50 / p95 and count of each kind of request, beside the bare route's p95 in the same phase;
    with `verdicts`, each page and write held to 10× the bare route."""
    bare = rec.samples.get(BARE)
    head = ["request", "count", "p50 / p95 ms", "p95 ÷ bare p95"]
    head += [f"≤ {report.FACTOR:g}× bare"] if verdicts else []
    rows = []
    for kind in kinds:
        samples = rec.samples.get(kind, [])
        failed = sum(count for (name, _), count in rec.errors.items() if name == kind)
        row = [kind, f"{len(samples):,}" + (f" (+{failed:,} failed)" if failed else "")]
        times = report.p95(samples) / report.p95(bare) if samples and bare else None
        row += [report.pair(samples), report.ratio(times) if times is not None else "–"]
        if verdicts and kind not in NOT_JUDGED:
            row.append(
                verdicts.check(
                    times is not None and times <= report.FACTOR,
                    f"{where}: {kind} p95 {report.ratio(times)} the bare route's"
                    if times
                    else f"{where}: {kind}: no answer to time, or no bare route to time it by",
                )
            )
        elif verdicts:
            row.append("")
        rows.append(row)
    return report.table(head, rows)


def kinds_seen(rec: Recorder) -> list[str]:
    return [kind for kind in ORDER if kind in rec.samples or any(name == kind for name, _ in rec.errors)]


def error_lines(rec: Recorder, verdicts: report.Verdicts | None = None, where: str = "") -> list[str]:
    """Errors by request and kind; with `verdicts`, held to none."""
    total = sum(rec.errors.values())
    verdict = f" ({verdicts.check(total == 0, f'{where}: {total:,} errors')})" if verdicts else ""
    if not total:
        return [f"Errors: none{verdict}."]
    rows = [[kind, how, f"{count:,}"] for (kind, how), count in sorted(rec.errors.items(), key=lambda e: -e[1])]
    return [f"Errors: {total:,}{verdict}:", ""] + report.table(["request", "error", "count"], rows, right_from=2)


def delivery_lines(
    tables: list[Table], seen: list, until: float, watchers: int, verdicts: report.Verdicts, where: str
) -> list[str]:
    """From each hand's acknowledgement (its answer arriving) to each watcher's change event. A hand
    answered at least GRACE s before the end that a watcher never heard of counts as never."""
    delays, notes = hand_delays(seen)
    due = [(table, number) for table in tables for number, at in table.acks.items() if at <= until - GRACE]
    delivered = Counter((id(table), version) for table, version, _ in seen)
    missed = sum(max(0, watchers - delivered[(id(table), number)]) for table, number in due)
    judged = delays + [float("inf")] * missed
    if not judged:
        verdict = verdicts.check(False, f"{where}: no hand reached a watcher")
        return [f"Hand → watchers: no hand answered ({verdict})."]
    worst = report.p95(judged)
    verdict = verdicts.check(worst <= DELIVERY_MS, f"{where}: a hand reaches its watchers in {shown(worst)} ms (p95)")
    head = [
        "hand → watcher",
        "events",
        "p50 ms",
        "p95 ms",
        "max ms",
        f"missed (of {len(due) * watchers:,} due)",
        f"p95 ≤ {DELIVERY_MS:,.0f} ms",
    ]
    row = [
        "write's answer → change event",
        f"{len(delays):,}",
        shown(report.p50(judged)),
        shown(worst),
        shown(max(judged)),
        f"{missed:,}",
        verdict,
    ]
    return report.table(head, [row]) + ([""] + notes if notes else [])


def hand_delays(seen: list) -> tuple[list[float], list[str]]:
    """The ms from each hand's answer to each change event that names its version (hand n: version n)."""
    delays, early, unmatched = [], 0, 0
    for table, version, at in seen:
        answered = table.acks.get(version)
        if answered is None:
            unmatched += 1  # the write's answer was lost (an error), or the version is no hand's
            continue
        early += at < answered
        delays.append(max(0.0, at - answered) * 1000)
    notes = [f"{early:,} change events came before the write's answer reached its phone (0 ms)."] * bool(early)
    notes += [f"{unmatched:,} change events matched no answered hand (not counted)."] * bool(unmatched)
    return delays, notes


def shown(value: float) -> str:
    return "never" if value == float("inf") else report.ms(value)


# -- the phases --------------------------------------------------------------------------------------


@dataclass
class Run:
    """One configuration's server, how it counts database connections, and its report."""

    name: str
    server: Server
    counter: object
    args: argparse.Namespace
    verdicts: report.Verdicts = field(default_factory=report.Verdicts)
    lines: list[str] = field(default_factory=list)
    where: str = ""  # the configuration and the phase, as a missed target names them

    def show(self, lines: list[str]) -> None:
        """Print a finished part of the report at once (a later failure loses nothing printed)."""
        self.lines += lines
        print("\n".join(lines), flush=True)


def club_night(run: Run) -> None:
    args, port = run.args, run.server.port
    say(
        f"  club night: {args.tables} tables, {args.tables * args.watchers} watchers, {args.visitors} visitors, "
        f"{args.seconds:g} s"
    )
    rec, seen, connections, tables = Recorder(), [], [], seat_the_club(args.tables)
    until = now() + args.seconds
    phones = [rec.spawn(play_table, port, rec, table, until, random.Random(n)) for n, table in enumerate(tables)]
    phones += [rec.spawn(watch_table, port, rec, table, until, seen) for table in tables for _ in range(args.watchers)]
    phones += [rec.spawn(browse, port, rec, until, random.Random(1000 + n)) for n in range(args.visitors)]
    phones.append(rec.spawn(probe, port, rec, until, [(BARE, "/bare")], BARE_EVERY))
    phones.append(rec.spawn(sample_connections, run.counter, until, connections))
    finish(phones, until)
    run.show(
        [
            f"### 1. The club night: {args.tables} tables (a hand every {HAND_EVERY:g} s, {args.watchers} phones "
            f"watching each), {args.visitors} visitors, {args.seconds:g} s",
            "",
            f"{sum(t.match_id is not None for t in tables)} matches started and "
            f"{sum(len(t.acks) for t in tables):,} hands recorded through the API; games: "
            f"{', '.join(sorted({t.game.key for t in tables}))}. p50 / p95 in ms, over the whole night.",
            "",
        ]
        + request_table(rec, kinds_seen(rec), run.verdicts, run.where)
        + [""]
        + delivery_lines(tables, seen, until, args.watchers, run.verdicts, run.where)
        + [""]
        + error_lines(rec, run.verdicts, run.where)
        + [""]
        + [f"Database connections in use, sampled every second: {connection_figures(connections, run.counter)}.", ""]
    )


def seat_the_club(count: int) -> list[Table]:
    """The night's tables, the games in turn; everybody plays at one table, as at a club."""
    tables, seats = [], 0
    for number in range(count):
        game = GAMES[number % len(GAMES)]
        tables.append(Table(game, [club_member(seats + seat) for seat in range(game.players)]))
        seats += game.players
    return tables


def new_tables(run: Run, count: int) -> list[Table]:
    """Matches for phases 2 and 3, started through the API (not timed)."""
    rec, tables = Recorder(), [Table(GAMES[0], [club_member(0), club_member(1)]) for _ in range(count)]
    for table in tables:
        start_match(run.server.port, rec, table)
    started = [table for table in tables if table.match_id is not None]
    if not started:
        raise RuntimeError(f"could not start a match: {dict(rec.errors)}")
    return started


def idle_streams(run: Run) -> None:
    args, port, streams = run.args, run.server.port, run.args.idle_streams
    say(f"  {streams:,} idle watch streams, {args.idle_seconds:g} s")
    pool, steady = idle_pool(run.counter)  # before anything of this phase
    tables, setup = new_tables(run, IDLE_MATCHES), Recorder()
    links = [link for table in tables if (link := watch_link(port, setup, table.match_id))]
    if not links:
        raise RuntimeError(f"no watch link: {dict(setup.errors)}")
    rec, gauge, connections = Recorder(), Gauge(), []
    begin = now() + streams / OPEN_RATE + 2  # the window measured: every stream open by then
    until = begin + args.idle_seconds
    holders = [
        rec.spawn(hold_stream, port, rec, links[n % len(links)], until, gauge, delay=n / OPEN_RATE)
        for n in range(streams)
    ]
    gevent.sleep(left(begin))
    pages = [(MATCH_PAGE, f"/matches/{tables[0].match_id}"), (RULES, f"/rules/{GAMES[0].key}"), (BARE, "/bare")]
    readers = [
        rec.spawn(probe, port, rec, until, pages, PROBE_EVERY),
        rec.spawn(sample_connections, run.counter, until, connections, gauge),
    ]
    finish(readers + holders, until)
    run.show(
        [
            f"### 2. {streams:,} idle watch streams on {len(links)} matches nobody writes to, "
            f"{args.idle_seconds:g} s measured (after {streams / OPEN_RATE:.1f} s opening them, "
            f"{OPEN_RATE} a second)",
            "",
            streams_line(gauge, connections, streams),
        ]
        + worker_limit_note(run, streams)
        + [""]
        + idle_pool_lines(run, pool, steady, connections)
        + request_table(rec, [BARE, MATCH_PAGE, RULES, WATCH_OPEN, WATCH_RECONNECT], run.verdicts, run.where)
        + [""]
        + error_lines(rec, run.verdicts, run.where)
        + [""]
    )


def streams_line(gauge: Gauge, connections: list[tuple], streams: int) -> str:
    open_now = [sample[2] for sample in connections]
    return (
        f"Streams open at once: most {gauge.most:,} of {streams:,}; while measured median "
        f"{statistics.median(open_now) if open_now else 0:g}, least {min(open_now, default=0):,}."
    )


def idle_pool_lines(run: Run, pool: int, steady: str, connections: list[tuple]) -> list[str]:
    most = max((sample[0] for sample in connections), default=0)
    verdict = run.verdicts.check(
        bool(connections) and most <= pool,
        f"{run.where}: {most} database connections open beside an idle pool of {pool}",
    )
    return [
        f"Database connections: the idle pool (open before the phase, {steady}): {pool}; with the streams "
        f"open: {connection_figures(connections, run.counter)}. No connection beyond the idle pool: {verdict}.",
        "",
    ]


def idle_pool(counter) -> tuple[int, str]:
    """The connections the server keeps open when nothing happens: the count once unchanged for
    QUIET_SECONDS running (the night's last requests done), and how it was found."""
    counts, deadline = [], now() + SETTLE_LIMIT
    while now() < deadline:
        counts.append(counter.count()[0])
        if len(counts) >= QUIET_SECONDS and len(set(counts[-QUIET_SECONDS:])) == 1:
            return counts[-1], f"unchanged for {QUIET_SECONDS} s"
        gevent.sleep(1)
    return min(counts[-QUIET_SECONDS:]), f"never steady in {SETTLE_LIMIT} s: the least of its last {QUIET_SECONDS} s"


def worker_limit_note(run: Run, streams: int) -> list[str]:
    """gunicorn's gevent worker takes at most worker_connections at once; the next one waits."""
    limit = runpy.run_path(str(CONFIG)).get("worker_connections", 1000) * run.server.workers
    if streams < limit:
        return []
    return [
        f"Note: {streams:,} streams fill the {limit:,} connections the server takes at once "
        f"(worker_connections × workers, scripts/gunicorn.conf.py): the reading phone's requests wait "
        f"for a free one."
    ]


def half_sent(run: Run) -> None:
    args, port = run.args, run.server.port
    say(f"  {args.half_sent} half-sent writes, held {args.hold:g} s")
    table = new_tables(run, 1)[0]
    rec, held, connections = Recorder(), [], []
    until = now() + args.hold
    holders = [rec.spawn(hold_half_sent, port, table, until, held) for _ in range(args.half_sent)]
    gevent.sleep(1)  # every write has sent its headers
    pages = [
        (MATCH_PAGE, f"/matches/{table.match_id}"),
        (RULES, f"/rules/{GAMES[0].key}"),
        (HISTORY, "/matches"),
        (BARE, "/bare"),
    ]
    readers = [
        rec.spawn(probe, port, rec, until, pages, 2 * PROBE_EVERY),
        rec.spawn(sample_connections, run.counter, until, connections),
    ]
    finish(holders + readers, until)
    run.show(
        [
            f"### 3. {args.half_sent} half-sent writes held {args.hold:g} s (their headers, then 1 byte of a "
            f"100-byte body)",
            "",
            "What the server did with them:",
            "",
        ]
        + half_sent_table(held)
        + [""]
        + [pages_within(run, rec), ""]
        + request_table(rec, [BARE, MATCH_PAGE, RULES, HISTORY])
        + [""]
        + error_lines(rec)
        + [""]
        + [f"Database connections in use meanwhile: {connection_figures(connections, run.counter)}.", ""]
    )


def pages_within(run: Run, rec: Recorder) -> str:
    """Every page answered, each within PAGE_MAX_MS."""
    timed = [ms for kind in (MATCH_PAGE, RULES, HISTORY) for ms in rec.samples.get(kind, [])]
    failed = sum(rec.errors.values())
    slowest = max(timed, default=float("inf"))
    verdict = run.verdicts.check(
        slowest <= PAGE_MAX_MS and not failed,
        f"{run.where}: the slowest page took {shown(slowest)} ms, {failed} failed",
    )
    return (
        f"Pages meanwhile (one phone, every {2 * PROBE_EVERY:g} s): slowest {shown(slowest)} ms, {failed} failed; "
        f"every page within {PAGE_MAX_MS:,.0f} ms: {verdict}."
    )


def half_sent_table(held: list[HalfSent]) -> list[str]:
    """The half-sent writes grouped by what happened to them, with when (first and last)."""
    groups: dict[str, list[float]] = defaultdict(list)
    for write in held:
        if write.failure and write.answer is None:
            groups[f"{write.failure}"].append(write.closed or 0.0)
        elif write.answer:
            how = f"answered `{write.answer}`" + (", then closed" if write.closed is not None else "")
            groups[how].append(write.answered)
        elif write.closed is not None:
            groups["closed without an answer"].append(write.closed)
        else:
            groups["no answer, still open at the end"].append(None)
    rows = []
    for how, times in sorted(groups.items()):
        known = [t for t in times if t is not None]
        when = f"{min(known):.1f}–{max(known):.1f} s" if known else "–"
        rows.append([how, f"{len(times)}", when])
    return report.table(["what happened", "writes", "when (after the headers)"], rows, right_from=1)


# -- 4. slow export readers ----------------------------------------------------------------------


@dataclass
class SlowReader:
    path: str
    status: str | None = None  # the status line the server sent
    read: int = 0  # bytes read before the reader stopped reading
    closed: bool = False  # the server closed the connection while the reader held it
    failure: str | None = None


def slow_exports(run: Run) -> None:
    args, port = run.args, run.server.port
    grown = grow_history(run, args.export_matches)
    say(f"  {args.slow_readers} slow export readers held {args.export_seconds:g} s beside a club night")
    rec, readers, seen, connections = Recorder(), [], [], []
    begin = now() + args.slow_readers / EXPORT_OPEN_RATE + 1  # the window measured: every reader stalled by then
    until = begin + args.export_seconds
    paths = ("/export/hands.csv", "/export/hands.json")
    holders = [
        rec.spawn(hold_export, port, paths[n % 2], until, readers, delay=n / EXPORT_OPEN_RATE)
        for n in range(args.slow_readers)
    ]
    gevent.sleep(left(begin))
    tables = seat_the_club(args.tables)
    phones = [rec.spawn(play_table, port, rec, table, until, random.Random(n)) for n, table in enumerate(tables)]
    phones += [rec.spawn(watch_table, port, rec, table, until, seen) for table in tables]
    phones += [rec.spawn(browse, port, rec, until, random.Random(2000 + n)) for n in range(args.visitors)]
    phones += [
        rec.spawn(probe, port, rec, until, [(BARE, "/bare")], BARE_EVERY),
        rec.spawn(sample_connections, run.counter, until, connections),
    ]
    finish(holders + phones, until)
    refused = sum(count for (_, how), count in rec.errors.items() if how == "HTTP 503")
    run.show(
        [
            f"### 4. {args.slow_readers} slow export readers held {args.export_seconds:g} s while a club night "
            f"plays ({args.tables} tables, one watcher each, {args.visitors} visitors)",
            "",
            f"The history: {grown}. Each reader asks for the whole history (half `/export/hands.csv`, half "
            f"`.json`), reads {EXPORT_READ:,} bytes with a {EXPORT_READ:,}-byte receive buffer, then reads "
            f"nothing more until the end; opened {EXPORT_OPEN_RATE} a second before the night is measured.",
            "",
        ]
        + slow_reader_table(readers)
        + [""]
        + request_table(rec, kinds_seen(rec), run.verdicts, run.where)
        + [""]
        + [f"503 answers: {refused:,} ({run.verdicts.check(refused == 0, f'{run.where}: {refused} × 503')})."]
        + error_lines(rec, run.verdicts, run.where)
        + [""]
        + [f"Database connections in use meanwhile: {connection_figures(connections, run.counter)}.", ""]
    )


def grow_history(run: Run, total: int) -> str:
    """The database grown to `total` matches before the phase (not timed), as a year of a busy club's
    history (bench_fill.grow_database: template matches played through the API, then cloned)."""
    began = now()
    matches, added = bench_fill.grow_database(run.server.environment["DATABASE_URL"], total)
    return f"{matches:,} matches ({added:,} cloned in {now() - began:.0f} s before the phase)"


def hold_export(port: int, path: str, until: float, into: list[SlowReader]) -> None:
    """An export that reads EXPORT_READ bytes through a small receive buffer, then stops reading
    (a phone that went to sleep mid-download) until `until`."""
    held = SlowReader(path)
    into.append(held)
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, EXPORT_READ)  # before connecting: the window
        sock.settimeout(TIMEOUT)
        sock.connect(("127.0.0.1", port))
    except OSError as error:
        held.failure = failure_kind(error)
        return
    with sock:
        try:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            received = b""
            while len(received) < EXPORT_READ:
                data = sock.recv(EXPORT_READ - len(received))
                if not data:
                    held.closed = True
                    break
                received += data
            held.status, held.read = received.split(b"\r\n", 1)[0].decode(errors="replace"), len(received)
        except OSError as error:
            held.failure = failure_kind(error)
            return
        gevent.sleep(left(until))
        try:
            sock.setblocking(False)
            held.closed = held.closed or sock.recv(1) == b""
        except BlockingIOError:
            pass  # still open, the rest of the export waiting
        except OSError:
            held.closed = True


def slow_reader_table(readers: list[SlowReader]) -> list[str]:
    groups = Counter(
        (
            reader.path,
            reader.failure or reader.status or "no answer",
            "closed by the server" if reader.closed else "held open to the end",
        )
        for reader in readers
    )
    rows = [[path, what, how, f"{count}"] for (path, what, how), count in sorted(groups.items())]
    return report.table(["export", "answer", "at the end", "readers"], rows, right_from=3)


# -- 5. re-rating ----------------------------------------------------------------------------------

RERATE_LIMIT = 600.0  # the longest the phase waits for the re-rating to end
REFLIP = "edit of the oldest finished match (API)"


@dataclass
class EarlyMatch:
    """The oldest finished Court Piece match of the grown history, with a key of the phase's own (a
    clone holds its template's hash) and the hand that gave one side its court."""

    match_id: int
    key: str
    rated: int  # the game's rated matches: every later one is re-rated after the edit

    @classmethod
    def taken(cls, app) -> "EarlyMatch":
        from bench_history import oldest_finished
        from sqlalchemy import update

        from scorekeeper.extensions import db
        from scorekeeper.models import Match
        from scorekeeper.records.keys import issue_key

        match_id, rated = oldest_finished(app)
        key, key_hash = issue_key()
        with app.app_context():
            db.session.execute(update(Match).where(Match.id == match_id).values(key_hash=key_hash))
            db.session.commit()
            db.session.remove()
        return cls(match_id, key, rated)

    def give_the_court_away(self, port: int, rec: Recorder) -> bool:
        """The table puts its court hand right: the court goes to the other side, so who won the
        match changes, and with it every later match's ratings."""
        answer = rec.get(port, REFLIP, f"/api/v1/matches/{self.match_id}")
        if answer is None:
            return False
        hands = json.loads(answer.body)["hands"]
        court = next(hand for hand in hands if hand["record"].get("outcome") == "first_seven")
        record = {"outcome": "first_seven", "side": 1 - court["record"]["side"], "all_thirteen": False}
        return (
            rec.request(
                port,
                REFLIP,
                "PUT",
                f"/api/v1/matches/{self.match_id}/hands/{court['number']}?hands=0",
                json.dumps({"record": record}).encode(),
                {"Content-Type": "application/json", "Authorization": f"Bearer {self.key}"},
            )
            is not None
        )


def rerating(run: Run) -> None:
    """A host's rare correction, an edit of the oldest finished match, while a club night plays: the
    server's re-rating runner works every later match of the game out again in the background, and
    the tables' hand writes keep their 10 times the bare route until it is done."""
    args, port = run.args, run.server.port
    grown = grow_history(run, args.export_matches)
    app = in_process_app(run)
    early = EarlyMatch.taken(app)
    say(f"  an edit of the oldest finished match: {early.rated:,} matches re-rated beside a club night")
    setup, rec, seen = Recorder(), Recorder(), []
    if not early.give_the_court_away(port, setup):
        raise RuntimeError(f"the edit was refused: {dict(setup.errors)}")
    began = now()
    until = began + RERATE_LIMIT
    tables = seat_the_club(args.tables)
    phones = [rec.spawn(play_table, port, rec, table, until, random.Random(n)) for n, table in enumerate(tables)]
    phones += [rec.spawn(watch_table, port, rec, table, until, seen) for table in tables]
    phones += [rec.spawn(browse, port, rec, until, random.Random(3000 + n)) for n in range(args.visitors)]
    phones.append(rec.spawn(probe, port, rec, until, [(BARE, "/bare")], BARE_EVERY))
    took = rerated_within(app, until)
    gevent.killall(phones)
    done = run.verdicts.check(
        took is not None,
        f"{run.where}: the re-rating of {early.rated:,} matches did not end within {RERATE_LIMIT:.0f} s",
    )
    run.show(
        [
            f"### 5. An edit of the oldest finished match while a club night plays ({args.tables} tables, one "
            f"watcher each, {args.visitors} visitors)",
            "",
            f"The history: {grown}. The edit gives the oldest finished Court Piece match's court to the other "
            f"side, so who won it changes: the server's re-rating runner (one per worker) works the stories of "
            f"all {early.rated:,} rated Court Piece matches out again after the edit's commit, a chunk at a "
            f"time, while the club night below plays on; it is measured from the edit's answer until no game "
            f"is left stale (polled every second), and the requests below are those made meanwhile.",
            "",
            f"Re-rating: {f'{took:.1f} s' if took is not None else f'not done in {RERATE_LIMIT:.0f} s'} ({done}). "
            f"The edit itself: {report.pair(setup.samples.get(REFLIP, []))} ms (the match read, then the PUT).",
            "",
        ]
        + request_table(rec, kinds_seen(rec), run.verdicts, run.where)
        + [""]
        + error_lines(rec, run.verdicts, run.where)
        + [""]
    )


def in_process_app(run: Run):
    """An app of this process on the server's database, to find the match and watch the re-rating
    (no runner of its own: it only reads, and writes the phase's key)."""
    from scorekeeper import create_app, sqlalchemy_url

    url = run.server.environment["DATABASE_URL"]
    return create_app({"SQLALCHEMY_DATABASE_URI": sqlalchemy_url(url), "SECRET_KEY": "load", "TESTING": True})


def rerated_within(app, until: float) -> float | None:
    """Seconds from now until no game is stale, polled every second; None if not by `until`."""
    from scorekeeper.extensions import db
    from scorekeeper.records.stories.rerating import stale_games

    began = now()
    while now() < until:
        with app.app_context():
            stale = stale_games()
            db.session.remove()
        if not stale:
            return now() - began
        gevent.sleep(1)
    return None


# -- the configurations ------------------------------------------------------------------------------


def sqlite_run(stack: ExitStack, args) -> Run:
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    stack.callback(lambda: subprocess.run(["rm", "-rf", str(folder)], check=False))
    path = folder / "load.sqlite"
    server = Server(f"sqlite:///{path}", 1, OUT / "load-sqlite-server.log", {})
    name = f"SQLite {sqlite3.sqlite_version}, 1 worker"
    run = Run(name, server, SqliteFiles(server, path), args)
    run.show(
        header(
            run,
            f"SQLite {sqlite3.sqlite_version} (WAL), a fresh file in {folder}",
            "in memory, per process (one worker)",
        )
    )
    return run


def postgres_run(stack: ExitStack, args) -> Run:
    url = start_postgres(stack)
    admin = psycopg.connect(urlsplit(url)._replace(path="/postgres").geturl(), autocommit=True)
    stack.callback(admin.close)
    admin.execute(f'DROP DATABASE IF EXISTS "{LOAD_DATABASE}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{LOAD_DATABASE}"')
    stack.callback(lambda: admin.execute(f'DROP DATABASE IF EXISTS "{LOAD_DATABASE}" WITH (FORCE)'))
    version = admin.execute("SHOW server_version").fetchone()[0].split()[0]
    redis, storage = start_redis(stack)
    environment = {"SCOREKEEPER_RATELIMIT_STORAGE": redis} if redis else {}
    server = Server(
        urlsplit(url)._replace(path=f"/{LOAD_DATABASE}").geturl(), 2, OUT / "load-postgresql-server.log", environment
    )
    run = Run(f"PostgreSQL {version}, 2 workers", server, PostgresSessions(admin, LOAD_DATABASE), args)
    address = urlsplit(url)
    run.show(
        header(
            run,
            f"PostgreSQL {version} ({address.hostname}:{address.port}, database {LOAD_DATABASE}, "
            f"created for the run and dropped after)",
            storage,
        )
    )
    return run


def start_postgres(stack: ExitStack) -> str:
    """scripts/postgres.sh's server (the tests' one); stopped after only if it was not running before."""
    running = listening(int(os.environ.get("PG_TEST_PORT", "54329")))
    started = subprocess.run(
        [str(ROOT / "scripts" / "postgres.sh"), "start"], capture_output=True, text=True, timeout=120, check=True
    )
    if not running:
        stack.callback(lambda: subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "stop"], timeout=60, check=False))
    return started.stdout.strip().splitlines()[-1]


def start_redis(stack: ExitStack) -> tuple[str | None, str]:
    """A Redis of our own (scripts/redis.sh on a free port and a folder of ours), stopped after:
    its URL and how the report names the rate limits' storage. Without scripts/redis.sh, none."""
    script = ROOT / "scripts" / "redis.sh"
    if not script.exists():
        return None, "in memory, per process: **no Redis** (scripts/redis.sh is not there), each worker counts alone"
    folder = tempfile.mkdtemp(prefix="scorekeeper-load-redis-")
    environment = {**os.environ, "REDIS_TEST_PORT": str(free_port()), "REDIS_TEST_DIR": folder}
    stack.callback(lambda: subprocess.run(["rm", "-rf", folder], check=False))
    started = subprocess.run(
        [str(script), "start"], capture_output=True, text=True, timeout=60, check=True, env=environment
    )
    stack.callback(lambda: subprocess.run([str(script), "stop"], env=environment, timeout=30, check=False))
    url = started.stdout.strip().splitlines()[-1]
    return url, f"Redis at {url} (scripts/redis.sh, ours for the run), shared by the workers"


def header(run: Run, database: str, storage: str) -> list[str]:
    load = os.getloadavg()[0]
    limits = ", ".join(f"`{name}`" for name in RAISED)
    return [
        f"## Club night on {run.name} (`make load`)",
        "",
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load:.1f} at the start. "
        f"gunicorn with scripts/gunicorn.conf.py (gevent, {run.server.workers} worker"
        f"{'s' if run.server.workers > 1 else ''}) serving bench/load_app.py on 127.0.0.1:{run.server.port}; "
        f"the client is one process of greenlets on the same machine; every request on a new connection.",
        "",
        f'Database: {database}. Rate limits: {limits} raised to "{RAISED["SCOREKEEPER_WRITE_LIMIT"]}" '
        f"for the run (every phone here is 127.0.0.1, one client address); counted {storage}.",
        "",
    ]


PHASES = (
    ("club night", club_night),
    ("idle streams", idle_streams),
    ("half-sent writes", half_sent),
    ("slow export readers", slow_exports),
    ("re-rating", rerating),
)


def run_config(kind: str, args) -> tuple[Run | None, list[str]]:
    """One configuration from start to end: (its run, what failed). A phase that fails leaves the
    next to run; what was started is stopped and the database removed, whatever happens."""
    say(f"== {kind}")
    run = None
    with ExitStack() as stack:
        try:
            run = (sqlite_run if kind == "sqlite" else postgres_run)(stack, args)
            stack.callback(run.server.stop)
            run.server.start()
        except Exception as error:  # the other configuration still runs
            return run, [failed(run, "start", error)]
        chosen = [(name, phase) for name, phase in PHASES if not args.phase or name in args.phase]
        return run, [why for name, phase in chosen if (why := run_phase(run, name, phase))]


def run_phase(run: Run, name: str, phase: Callable[[Run], None]) -> str | None:
    run.where = f"{run.name}, {name}"
    try:
        phase(run)
    except Exception as error:  # the next phase still runs
        return failed(run, name, error)
    return None


def failed(run: Run | None, what: str, error: Exception) -> str:
    traceback.print_exc()
    why = f"{what}: {type(error).__name__}: {error}"
    if run:
        run.show([f"**FAILED** ({why}); see stderr and {run.server.log}.", ""])
    return why


def targets(run: Run, failures: list[str], seconds: float) -> list[str]:
    checked, missed = run.verdicts.checked, run.verdicts.missed
    lines = ["### Targets", ""]
    lines += [f"- {report.MISSED}: {what}" for what in missed] if missed else [f"- all {checked} met"]
    summary = (
        f"**Summary ({run.name}):** {checked - len(missed)} of {checked} targets met"
        f"{f'; {len(missed)} NOT met' if missed else ''}; run {seconds / 60:.1f} min"
    )
    return lines + ["", summary + (f"; FAILED: {'; '.join(failures)}." if failures else "."), ""]


def end_cleanly_on_sigterm() -> None:
    """A `kill` ends the run through its clean-up (the server stopped, the database dropped), as Ctrl-C does."""
    main_greenlet = gevent.getcurrent()
    gevent.signal_handler(signal.SIGTERM, lambda: gevent.kill(main_greenlet, KeyboardInterrupt))


def raise_open_files() -> int:
    """1,000 streams and more: as many descriptors as allowed, for this script and the server it starts."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="one configuration (default both)")
    parser.add_argument(
        "--phase",
        action="append",
        choices=[name for name, _ in PHASES],
        help="run this phase (repeat for more; default all)",
    )
    parser.add_argument("--seconds", type=float, default=180, help="length of the club night (default 180)")
    parser.add_argument("--tables", type=int, default=50, help="tables, each with a scoring phone (default 50)")
    parser.add_argument("--watchers", type=int, default=3, help="phones watching each table (default 3)")
    parser.add_argument("--visitors", type=int, default=50, help="visitors reading history and rules (default 50)")
    parser.add_argument("--idle-streams", type=int, default=1000, help="idle watch streams open at once (default 1000)")
    parser.add_argument("--idle-seconds", type=float, default=30, help="how long they are measured (default 30)")
    parser.add_argument("--half-sent", type=int, default=50, help="half-sent writes (default 50)")
    parser.add_argument("--hold", type=float, default=60, help="how long they are held, in seconds (default 60)")
    parser.add_argument("--slow-readers", type=int, default=100, help="slow export readers (default 100)")
    parser.add_argument(
        "--export-matches", type=int, default=15000, help="matches in the history they export (default 15000)"
    )
    parser.add_argument("--export-seconds", type=float, default=60, help="how long they are held (default 60)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    files = raise_open_files()
    if files < args.idle_streams + 200:
        say(f"warning: {files} open files allowed; {args.idle_streams:,} streams need more")
    report.EXPECTED[0] = 1  # the counts have a column of their own
    OUT.mkdir(exist_ok=True)
    end_cleanly_on_sigterm()
    missed = False
    for kind in [args.only] if args.only else ["sqlite", "postgresql"]:
        began = now()
        run, failures = run_config(kind, args)
        missed = missed or bool(failures) or run is None or bool(run.verdicts.missed)
        if run is None:
            print(f"## {kind}: FAILED before it started: {'; '.join(failures)}\n", flush=True)
            continue
        run.show(targets(run, failures, now() - began))
        (OUT / f"load-{kind}.txt").write_text("\n".join(run.lines) + "\n")
        say(f"  report written to {OUT / f'load-{kind}.txt'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
