"""Speed and size figures for the README: run with `make bench` (or .venv/bin/python bench/bench.py).

Server time is measured around the WSGI call through Flask's test client, so it is the app's own
time (routing, replay, templates, database) without a network. A bare Flask route measured in the
same run shows the floor. Targets (issue 3): match page of a 500-hand match p95 <= 25 ms,
recording a hand p95 <= 30 ms, every page with its CSS and JS <= 30 KB, no other host referenced."""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

TARGETS = {"match page": 25.0, "record hand (form)": 30.0, "record hand (API)": 30.0}
PAGE_LIMIT = 30 * 1024


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def timed(call, count: int) -> list[float]:
    out = []
    for i in range(count):
        start = time.perf_counter()
        call(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


def court_piece_hand(i: int) -> dict:
    """A varied but always valid Court Piece hand."""
    if i % 37 == 5:
        return {"outcome": "first_seven", "side": i % 2, "all_thirteen": False}
    if i % 53 == 7:
        return {"outcome": "revoke", "side": (i // 2) % 2}
    won = 7 + i % 5
    return {"outcome": "tricks", "tricks": [won, 13 - won] if (i * 7) % 3 else [13 - won, won]}


def build(hands: int):
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite", "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    app.add_url_rule("/bare", "bare", lambda: "ok")
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        db.engine.dispose()
    client = app.test_client()
    match = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["Ann", "Bo", "Cy", "Di"]}).json["id"]
    for i in range(hands):
        answer = client.post(f"/api/v1/matches/{match}/hands", json={"record": court_piece_hand(i)})
        assert answer.status_code == 201, answer.json
    return app, client, match


def speed(app, client, match: int, hands: int, count: int) -> dict[str, list[float]]:
    def page(_):
        assert client.get(f"/matches/{match}").status_code == 200

    def cold_page(_):  # the first view in a fresh worker: every hand replayed
        app.extensions["scorekeeper.replays"].clear()
        page(_)

    def form(i):
        record = court_piece_hand(hands + i)
        data = {"outcome": record["outcome"], "expected": str(hands + i + 1)}
        if "tricks" in record:
            data.update({"tricks-0": str(record["tricks"][0]), "tricks-1": str(record["tricks"][1])})
        else:
            data["side"] = str(record["side"])
        answer = client.post(f"/matches/{match}/hands", data=data)
        assert answer.status_code == 302, answer.data[:300]

    def api(i):
        answer = client.post(f"/api/v1/matches/{match}/hands", json={"record": court_piece_hand(i)})
        assert answer.status_code == 201

    results = {"bare Flask route": timed(lambda _: client.get("/bare"), count)}
    results["match page"] = timed(page, count)
    results["match page, cold cache"] = timed(cold_page, count)
    results["record hand (form)"] = timed(form, count)
    results["record hand (API)"] = timed(api, count)
    return results


def sample_matches(client) -> dict[str, int]:
    """One small match of each game, a hand or two in, for the page sizes."""
    starts = {
        "envite": (["Ann", "Bo", "Cy", "Di"], [{"winner": 0, "stake": 4}]),
        "poke": (["Ann", "Bo"], [{"tricks": [3, 2], "draws": [1, 2], "better_hand": 0, "poker_hand": "flush"}]),
        "schnapsen": (
            ["Ann", "Bo"],
            [{"ending": "out", "declarer": 0, "points": [70, 30], "tricks": [4, 2], "closed_by": None}],
        ),
    }
    ids = {}
    for game, (players, records) in starts.items():
        ids[game] = client.post("/api/v1/matches", json={"game": game, "players": players}).json["id"]
        for record in records:
            client.post(f"/api/v1/matches/{ids[game]}/hands", json={"record": record})
    return ids


ASSET = re.compile(r'(?:href|src)="(/static/[^"]+)"')
EXTERNAL = re.compile(r'(?:href|src|action)="(?:https?:)?//', re.I)


def sizes(client, match: int) -> list[tuple[str, int, int, int]]:
    ids = sample_matches(client)
    urls = ["/", "/matches", "/players/", "/players/1", "/rules/", f"/matches/{match}", f"/matches/{match}/hands"]
    urls += [f"/matches/new/{g}" for g in ("envite", "court_piece", "poke", "schnapsen")]
    urls += [f"/rules/{g}" for g in ("envite", "court_piece", "poke", "schnapsen")]
    urls += [f"/matches/{i}" for i in ids.values()] + [f"/matches/{match}/hands/2/edit"]
    rows = []
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        html = answer.get_data(as_text=True)
        assets = sum(len(client.get(path).data) for path in sorted(set(ASSET.findall(html))))
        rows.append((url, len(answer.data), assets, len(EXTERNAL.findall(html))))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=500, help="hands in the long match")
    parser.add_argument("--requests", type=int, default=200, help="requests per figure")
    args = parser.parse_args()
    app, client, match = build(args.hands)
    print(f"Long match: Court Piece, {args.hands} hands; {args.requests} requests each; SQLite (WAL) in a temp folder\n")
    print(f"{'request':24} {'p50 ms':>8} {'p95 ms':>8} {'target p95':>11}")
    failed = False
    for name, samples in speed(app, client, match, args.hands, args.requests).items():
        p50, p95 = statistics.median(samples), percentile(samples, 0.95)
        target = TARGETS.get(name)
        failed |= bool(target and p95 > target)
        print(f"{name:24} {p50:8.2f} {p95:8.2f} {('<= %g' % target) if target else '':>11}")
    print(f"\n{'page':36} {'HTML B':>8} {'CSS+JS B':>9} {'total B':>8} {'other hosts':>12}")
    for url, html, assets, external in sizes(client, match):
        failed |= html + assets > PAGE_LIMIT or external > 0
        print(f"{url:36} {html:8} {assets:9} {html + assets:8} {external:12}")
    print("\nall targets met" if not failed else "\nSOME TARGET MISSED")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
