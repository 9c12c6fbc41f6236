"""Browser fixtures: the app served on 127.0.0.1 and headless Chromium on a phone-sized screen.

The live server is the real app (CSRF on: the browser posts the real forms) on a throwaway SQLite
file, served by werkzeug in a daemon thread. Chromium is Debian's /usr/bin/chromium, driven by
Playwright's sync API; nothing is downloaded. Each test gets a fresh context (cookies, storage)
sized like a phone, and fails if the page asks any host other than the live server."""

from __future__ import annotations

import os
import threading
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
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app on 127.0.0.1 at a free port; yields its base URL."""
    from werkzeug.serving import make_server

    from scorekeeper import create_app
    from scorekeeper.extensions import db

    folder = tmp_path_factory.mktemp("browser")
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.sqlite", "SECRET_KEY": "test"}
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    server.server_close()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


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
    context = browser.new_context(base_url=live_server, **PHONE)
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
