"""The history's part of the bench (issue 24, used by bench.py): its pages and API calls timed at
each size beside the others, a finish that rates its match in the write, and an edit of the oldest
finished match (every later one of its game re-rated): the write itself, the follow-up that re-rates
the rest after its commit, and hand writes while that follow-up runs.

The bench's night is the 24 template matches (16 finished, 8 in play), moved to a night of their own
(1 January 2000) at every size: the night's pages are timed on a night of the same size as the club
grows around it. Head to head is timed likewise on a page of the same size at every size: the pairs
of four regulars who have finished more matches together than a page shows."""

from __future__ import annotations

import time
from collections.abc import Callable

import bench_report as report
from sqlalchemy import func, select, update

from scorekeeper.extensions import db
from scorekeeper.models import Match, RatedSeat
from scorekeeper.records.keys import issue_key
from scorekeeper.records.stories import rerating

NIGHT = 20000101
REGULARS = 4  # the club's first four players: a table that meets every week
REGULAR_MATCHES = 19  # their finished matches together: more than a page of the history's (15) at every size
COURT = {"outcome": "first_seven", "side": 0, "all_thirteen": False}


def set_night(app, template_ids: list[int]) -> None:
    with app.app_context():
        db.session.execute(update(Match).where(Match.id.in_(template_ids)).values(night=NIGHT))
        db.session.commit()
        db.session.remove()


def play_regulars(client, names: list[str]) -> None:
    """Four regulars who have finished more Court Piece matches together than a list's page shows, so
    that the head to head of any two of them is a full page at every size: its growth is then the
    database's, not the page filling up (as the bench's night is the same night at every size).
    Four matches more than a page, each won by one side or the other."""
    for number in range(REGULAR_MATCHES):
        created = client.post("/api/v1/matches", json={"game": "court_piece", "players": names})
        auth = {"Authorization": f"Bearer {created.json['key']}"}
        hand = {"record": {**COURT, "side": number % 2}}
        assert (
            client.post(f"/api/v1/matches/{created.json['id']}/hands?hands=0", json=hand, headers=auth).status_code
            == 201
        )
        assert client.post(f"/api/v1/matches/{created.json['id']}/finish?hands=0", headers=auth).status_code == 200


def pages(players: list[int], viewed: list[int]) -> list[tuple[str, list[str]]]:
    """(name, URLs taken in turn) of every history page and API call the bench times."""
    regulars = players[:REGULARS]
    pairs = [f"/head-to-head?a={a}&b={b}" for a in regulars for b in regulars if a != b]
    return [
        (
            "player's story in a game (`/players/<id>/games/court_piece`)",
            [f"/players/{player}/games/court_piece" for player in players[:40]],
        ),
        (f"head to head (`/head-to-head?a=&b=`, the {len(pairs)} pairs of the regulars' table)", pairs),
        ("game nights (`/nights`)", ["/nights"]),
        ("a night: standings and matches (`/nights/<id>`, 24 matches)", [f"/nights/{NIGHT}"]),
        ("a night on a big screen (`/nights/<id>/screen`, 8 boards)", [f"/nights/{NIGHT}/screen"]),
        ("score sheet (`/matches/<id>/sheet`)", [f"/matches/{match}/sheet" for match in viewed]),
        ("a match's hands as CSV (`/export/hands.csv?match=`)", [f"/export/hands.csv?match={m}" for m in viewed]),
        ("a night's hands as JSON (`/export/hands.json?night=`)", [f"/export/hands.json?night={NIGHT}"]),
        ("`GET /api/v1/players/<id>`", [f"/api/v1/players/{player}" for player in players[:40]]),
        ("`GET /api/v1/nights/<id>`", [f"/api/v1/nights/{NIGHT}"]),
    ]


def finish_write(client, names: list[str], rng) -> Callable:
    """A rated write: before the clock, a Court Piece match of three hands started through the API;
    timed, the table's `finish`, which rates the match in the write's transaction."""
    seated = rng.sample(names, 4)
    created = client.post("/api/v1/matches", json={"game": "court_piece", "players": seated})
    match_id, key = created.json["id"], created.json["key"]
    auth = {"Authorization": f"Bearer {key}"}
    for won in (8, 5, 9):
        answer = client.post(
            f"/api/v1/matches/{match_id}/hands?hands=0",
            json={"record": {"outcome": "tricks", "tricks": [won, 13 - won]}},
            headers=auth,
        )
        assert answer.status_code == 201, answer.json
    return lambda: client.post(f"/api/v1/matches/{match_id}/finish?hands=0", headers=auth)


def finished(answer) -> None:
    assert answer.status_code == 200 and answer.json["status"] == "finished", answer.get_data(as_text=True)[:300]


def oldest_finished(app) -> tuple[int, int]:
    """The earliest rated Court Piece match, and how many of the game's matches are rated."""
    with app.app_context():
        first = db.session.scalar(
            select(RatedSeat.match_id).where(RatedSeat.game == "court_piece").order_by(RatedSeat.place).limit(1)
        )
        rated = db.session.scalar(
            select(func.count(func.distinct(RatedSeat.match_id))).where(RatedSeat.game == "court_piece")
        )
        db.session.remove()
    return first, rated


def early_edit(app, client, writer, beside_bare: Callable) -> dict:
    """Edits of the oldest finished match that change who won it (each re-rates every later match of
    the game), timed in rounds beside the bare route (`beside_bare(name, prepare, check)`: the edit's
    samples and the bare route's) with their follow-up held back; then one follow-up let run to the
    end, timed, with hand writes (`writer`, the bench's Request) timed meanwhile and before."""
    match_id, rated = oldest_finished(app)
    key, key_hash = issue_key()  # the bench's own key for that match (a clone holds its template's hash)
    with app.app_context():
        db.session.execute(update(Match).where(Match.id == match_id).values(key_hash=key_hash))
        db.session.commit()
        db.session.remove()
    auth = {"Authorization": f"Bearer {key}"}
    hands = client.get(f"/api/v1/matches/{match_id}").json["hands"]
    court_hand = next(hand["number"] for hand in hands if hand["record"].get("outcome") == "first_seven")
    side = [hands[court_hand - 1]["record"]["side"]]

    def prepare():  # the court goes to the other side: who won the match changes with every edit
        side[0] = 1 - side[0]
        body = {"record": {"outcome": "first_seven", "side": side[0], "all_thirteen": False}}
        return lambda: client.put(f"/api/v1/matches/{match_id}/hands/{court_hand}?hands=0", json=body, headers=auth)

    def check(answer):
        assert answer.status_code == 200 and answer.json["winner"] == side[0], answer.get_data(as_text=True)[:300]

    # The bench's app has no runner: the edits leave the game stale, and the re-rating is timed after.
    edits, bare = beside_bare("an edit of the oldest finished match", prepare, check)
    quiet = [_timed(writer) for _ in range(20)]
    began = time.perf_counter()
    runner = rerating.Runner(app).start()  # as a serving process runs it: a thread beside the requests
    during = []
    while not runner.wait_until_idle(0):
        during.append(_timed(writer))
    caught_up = time.perf_counter() - began
    runner.stop()
    with app.app_context():
        left = rerating.stale_games()
        db.session.remove()
    assert not left, f"the re-rating did not finish: {left}"
    return {"edit": edits, "bare": bare, "rated": rated, "catch_up": caught_up, "quiet": quiet, "during": during}


# The edit of an early finished match is a host's rare correction, not a table's tap: at most 20 times
# the bare route (issue 33); the hand writes while its re-rating runs keep the tables' 10 times.
EARLY_EDIT_FACTOR = 20


def _timed(request) -> float:
    call = request.prepare()
    start = time.perf_counter()
    answer = call()
    took = (time.perf_counter() - start) * 1000
    request.check(answer)
    return took


def rerating_table(db_name: str, figures: dict[int, dict], verdicts: report.Verdicts) -> list[str]:
    lines = [
        f"### {db_name}: an edit of the oldest finished match (every later one of its game re-rated)",
        "",
        "The edit changes who won the oldest Court Piece match: the write puts what the match gives its seats "
        "right and marks the game's stories stale from it, and the process's re-rating runner re-rates it and "
        f"every later match after the commit ({rerating.CHUNK} seats a transaction, then a rest {rerating.REST}× "
        "as long; a thread of the bench's process, as in a served worker: it shares the interpreter with the "
        "timed requests). The edits are timed in rounds with the bare route, before the runner starts; hand "
        "writes to another match are timed before and while it runs, and judged against the bare route.",
        "",
    ]
    head = [
        "size",
        "matches re-rated",
        "edit p50 / p95 ms",
        "bare p50 / p95 ms",
        "÷ bare p95",
        f"≤ {EARLY_EDIT_FACTOR:g}× bare",
        "re-rating s",
        "hand write before: p50 / p95",
        "hand write during the re-rating: p50 / p95 (n)",
        f"≤ {report.FACTOR:g}× bare",
    ]
    rows, ratios = [], {}
    for size, found in figures.items():
        ratios[size] = report.p95(found["edit"]) / report.p95(found["bare"])
        during = found["during"]
        ok = verdicts.check(
            ratios[size] <= EARLY_EDIT_FACTOR,
            f"{db_name}: an edit of the oldest finished match at "
            f"{report.size_name(size)} matches, p95 {report.ratio(ratios[size])} the bare route",
        )
        rows.append(
            [
                report.size_name(size),
                f"{found['rated']:,}",
                report.pair(found["edit"]),
                report.pair(found["bare"]),
                report.ratio(ratios[size]),
                ok,
                f"{found['catch_up']:.1f}",
                report.pair(found["quiet"]),
                f"{report.pair(during)} ({len(during)})" if during else "– (over before one)",
                verdicts.check(
                    not during or report.p95(during) <= report.FACTOR * report.p95(found["bare"]),
                    f"{db_name}: hand writes while {found['rated']:,} matches are re-rated, p95 "
                    f"{report.ratio(report.p95(during) / report.p95(found['bare'])) if during else '–'} the bare route",
                ),
            ]
        )
    lines += report.table(head, rows) + [""]
    first, last = min(ratios), max(ratios)
    growth = ratios[last] / ratios[first]
    ok = verdicts.check(
        growth <= report.GROWTH,
        f"{db_name}: an edit of the oldest finished match grows "
        f"{report.ratio(growth)} (÷ the bare route's) from {report.size_name(first)} to "
        f"{report.size_name(last)} matches",
    )
    return lines + [
        f"Its growth from {report.size_name(first)} to {report.size_name(last)} matches, ÷ the bare "
        f"route's: {report.ratio(growth)} (≤ {report.GROWTH:g}×: {ok}).",
        "",
    ]
