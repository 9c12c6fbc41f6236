"""Browser fixtures: the app served on 127.0.0.1 and headless Chromium on a phone-sized screen.

The live server is the app as `make serve` serves it: the migrations applied to a throwaway SQLite
file, then gunicorn with scripts/gunicorn.conf.py (gevent), the production settings (CSRF on, the
rate limits on with their headers, counted in the limiter's default storage). Only the limits'
numbers are raised, as an operator may: the suite starts matches far faster than a table does.
Chromium is Debian's /usr/bin/chromium, driven by Playwright's sync API; nothing is downloaded.
Each test gets a fresh context (cookies, storage) sized like a phone, and fails if the page asks
any host other than the live server."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A phone-sized context. Its service worker is blocked unless a test is about it (the mark
# `service_worker`): closing a context while its worker is still installing can hang Chromium.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "service_workers": "block"}
SHOTS = Path("/tmp/shots")


def pytest_collection_modifyitems(config, items):
    """Skip the browser journeys, with the reason, when the machine has no Chromium."""
    if os.access(CHROMIUM, os.X_OK):
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed (scripts/system-deps.sh installs it)")
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(skip)


# What a suite of many tables from one address needs; every other setting is the production default.
RAISED_LIMITS = {
    "SCOREKEEPER_WRITE_LIMIT": "100000 per minute",
    "SCOREKEEPER_NEW_MATCH_LIMIT": "100000 per minute",
    "SCOREKEEPER_TABLE_CODE_LIMIT": "1000 per minute",
    "SCOREKEEPER_EXPORT_LIMIT": "1000 per minute",
    "SCOREKEEPER_HOST_SIGN_IN_LIMIT": "1000 per minute",
}


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """The app served as `make serve` serves it, on a fresh SQLite file in `folder`, on 127.0.0.1 at
    a free port: its base URL."""
    from tests.proof.live_server import LiveServer, migrate

    url = f"sqlite:///{folder}/app.sqlite"
    migrate(url)
    with LiveServer(url, folder / "gunicorn.log", **RAISED_LIMITS) as server:
        yield f"http://127.0.0.1:{server.port}"


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app as served, shared by the browser tests; yields its base URL."""
    with served(tmp_path_factory.mktemp("browser")) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is not installed (scripts/system-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


STRANGERS = pytest.StashKey[list]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail the test (not just its teardown) when its page asked a host other than the live server."""
    outcome = yield
    strangers = item.stash.get(STRANGERS, [])
    if strangers:
        pytest.fail(f"the page asked hosts other than the live server: {strangers}", pytrace=False)
    return outcome


@pytest.fixture
def page(request, browser, live_server):
    """A fresh phone-sized page that may only talk to the live server."""
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"
    context = browser.new_context(base_url=live_server, **{**PHONE, "service_workers": workers})
    context.set_default_timeout(5000)
    own = urlsplit(live_server).netloc
    strangers = request.node.stash.setdefault(STRANGERS, [])

    def foreign(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme not in ("data", "blob", "about") and parts.netloc != own

    def watch(req):
        if foreign(req.url):
            strangers.append(req.url)

    # Nothing leaves the machine: a foreign request is recorded (to fail the test) and aborted.
    context.route(foreign, lambda route: route.abort())
    page = context.new_page()
    page.on("request", watch)
    yield page
    context.close()


@pytest.fixture
def shot(page):
    """Save the page as /tmp/shots/<name>.png (full page; not committed)."""

    def take(name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@dataclass(frozen=True)
class Started:
    """A match started through the API: its id and the key that lets a phone score it."""

    id: int
    key: str


class TableApi:
    """The live server's JSON API, as a script at the table uses it: a match is started, its hands
    sent as records, each write carrying the match's key (API.md "Who may write"). Fast set-up for
    the page tests: the pages under test are then opened in the browser."""

    def __init__(self, base: str):
        self.base = base
        self.keys: dict[int, str] = {}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """One request; (status, JSON answer). The key of the match in the path is sent along."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        parts = path.split("/")
        if method != "GET" and len(parts) > 4 and parts[4].isdigit() and int(parts[4]) in self.keys:
            headers["Authorization"] = f"Bearer {self.keys[int(parts[4])]}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")

    def start(self, game: str, players: list[str], **options) -> Started:
        status, answer = self.call("POST", "/api/v1/matches", {"game": game, "players": players, "options": options})
        assert status == 201, answer
        self.keys[answer["id"]] = answer["key"]
        return Started(answer["id"], answer["key"])

    def hand(self, match: Started, record: dict) -> dict:
        status, answer = self.call("POST", f"/api/v1/matches/{match.id}/hands", {"record": record})
        assert status == 201, answer
        return answer

    def finish(self, match: Started) -> dict:
        status, answer = self.call("POST", f"/api/v1/matches/{match.id}/finish")
        assert status == 200, answer
        return answer

    @staticmethod
    def join(page, match: Started) -> None:
        """Make the browser one of the phones that score the match (its scorer link)."""
        page.goto(f"/matches/{match.id}/join?key={match.key}")


@pytest.fixture(scope="session")
def table_api(live_server) -> TableApi:
    """The live server's JSON API (urllib: no browser needed to set up a match)."""
    return TableApi(live_server)


@pytest.fixture(scope="session")
def every_game(table_api) -> dict:
    """For every game, by key: a match just started, one a few hands in and one finished
    (table.GameMatches), made once through the API for the page tests that visit every game."""
    from scorekeeper.games import GAMES

    from .table import make_matches

    return {key: make_matches(table_api, key) for key in GAMES}
