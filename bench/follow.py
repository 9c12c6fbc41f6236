"""How soon a scoring page shows a hand another phone recorded (issue 32, item 3: within 1 s, p95).

The app served as `make serve` serves it (tests/proof/live_server.py: `flask db upgrade`, then
gunicorn with scripts/gunicorn.conf.py on 127.0.0.1 and a free port), headless Chromium at 390x844
on a match this phone scores, and another phone (the JSON API) recording hand after hand, a second
apart. Each sample is the time from the other phone's answer (201) to this phone's page showing
"Undo hand n" (its event stream told it, the page reloaded). The bare route of the same server,
timed in the same run: a request that touches nothing, for the machine's pace at that moment.

    .venv/bin/python bench/follow.py            # 40 hands
    .venv/bin/python bench/follow.py --hands 100"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, RAISED_LIMITS  # noqa: E402
from tests.proof.live_server import LiveServer, migrate  # noqa: E402


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def call(base: str, method: str, path: str, body: dict | None = None, key: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {key}"} if key else {})
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(
        urllib.request.Request(base + path, data, headers, method=method), timeout=10
    ) as answer:
        return json.loads(answer.read() or b"{}")


def bare(base: str) -> float:
    """One request that touches no database: the service worker's script, a static file."""
    started = time.perf_counter()
    with urllib.request.urlopen(base + "/sw.js", timeout=10) as answer:
        answer.read()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="follow-"))
    url = f"sqlite:///{folder}/follow.sqlite"
    migrate(url)
    with LiveServer(url, folder / "gunicorn.log", **RAISED_LIMITS) as server, sync_playwright() as driver:
        base = f"http://127.0.0.1:{server.port}"
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(base_url=base, **PHONE).new_page()
        # An open session of California Speed (no target): it takes any number of games.
        match = call(base, "POST", "/api/v1/matches", {"game": "california_speed", "players": ["Ann", "Bob"]})
        page.goto(f"/matches/{match['id']}/join?key={match['key']}")
        followed, bares = [], []
        for number in range(1, args.hands + 1):
            page.wait_for_timeout(1000)  # the table plays
            bares.append(bare(base))
            call(
                base,
                "POST",
                f"/api/v1/matches/{match['id']}/hands",
                {"record": {"winner": number % 2}},
                key=match["key"],
            )
            answered = time.perf_counter()
            page.get_by_role("button", name=f"Undo game {number}").wait_for(timeout=10_000)
            followed.append(time.perf_counter() - answered)
        browser.close()
    ms = lambda seconds: f"{seconds * 1000:.0f} ms"  # noqa: E731
    print(f"{args.hands} hands recorded on another phone, one a second; SQLite, 1 gunicorn worker")
    print(
        f"scoring page shows the hand: p50 {ms(statistics.median(followed))}, p95 {ms(percentile(followed, 0.95))},"
        f" max {ms(max(followed))} (target: p95 within 1 s)"
    )
    print(f"bare route (/sw.js) in the same run: p50 {ms(statistics.median(bares))}, p95 {ms(percentile(bares, 0.95))}")
    sys.exit(0 if percentile(followed, 0.95) <= 1.0 else 1)


if __name__ == "__main__":
    main()
