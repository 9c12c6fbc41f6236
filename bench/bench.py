"""Speed and size figures for the README (issue 14): run with `make bench` (or .venv/bin/python bench/bench.py).

What it does, on SQLite and, when TEST_POSTGRES_URL or BENCH_POSTGRES_URL is set, on PostgreSQL
(a fresh database on that server, dropped at the end):
- fills one database the way a busy club's would be (60 players, Court Piece matches of three hands,
  two in three finished, started over the past year; see bench_fill.py), growing it to 100, then
  10,000, then 100,000 matches, and at each size times every page type and API call, and recording a
  hand by the form and by the API, beside a bare Flask route measured in the same rounds;
- plays one match of each family of games to 500 hands (bench_play.py) and times its page cold (the
  first request of a fresh process, and the first view of it in a process that has served another
  match) and warm, its hands list, and recording a hand (form, API, API with ?hands=1);
- weighs every page type with its CSS and JS, and looks for any reference to another host.

Server time is measured around the WSGI call through Flask's test client: the app's own time
(routing, templates, database, the engine) without a network. The requests of every kind are made
in rounds, one of each kind per round, so that a moment of load on the machine hits them all alike;
before timing, the bench's own objects are frozen out of the garbage collector (`gc.freeze`).
Targets (issue 14): every page and every write p95 at most 10 times the bare route at every size,
the growth from 100 to 100,000 matches at most 1.5 times (judged on the time ÷ the bare route's at
each size: the bare route touches no database, and the machine or the process can slow it between
sizes; the growth as measured is shown beside); long lists at most 20 KB with CSS and JS,
every other page at most 30 KB, no other host. The tables are Markdown (stdout); progress goes to
stderr. Exit status 1 when a target is missed.

The app runs as served: CSRF on (the form posts carry the page's token), rate limits on but set far
above what the bench sends, SQLite with the app's own PRAGMAs (SCOREKEEPER_SQLITE_SYNCHRONOUS, FULL
by default, so every write waits for an fsync).

    .venv/bin/python bench/bench.py --quick        # a smoke run: 100 and 1,000 matches, a minute or two
    url=$(scripts/postgres.sh start); BENCH_POSTGRES_URL=$url make bench   # SQLite, then PostgreSQL
    .venv/bin/python bench/bench.py --profile 3    # and where the time goes in the 3 slowest kinds"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import bench_fill  # noqa: E402
import bench_history  # noqa: E402
import bench_report as report  # noqa: E402
from bench_play import LONG_GAMES, Play  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, func, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from scorekeeper import create_app, sqlalchemy_url  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import GAMES  # noqa: E402
from scorekeeper.models import Hand, Match  # noqa: E402
from scorekeeper.web.warm import warm_up  # noqa: E402

BARE = "bare Flask route"
SLOW_MS = 1000.0  # a request slower than this in the first round gets fewer samples...
BUDGET_MS = 30_000.0  # ...about this much time in all
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf_token"')
WIRE = {"Accept-Encoding": "gzip, deflate, br"}  # what Chromium sends: pages go out as they are, CSS and JS compressed
ASSET = re.compile(r'(?:href|src)="(/static/[^"?#]+)')
# A reference that leaves this host: an absolute or protocol-relative URL where the browser fetches
# or goes (links, scripts, styles, images, forms), or a CSS url(...) to another host.
EXTERNAL = re.compile(
    r'(?:href|src|action|srcset|formaction|poster|data)\s*=\s*"(?:[a-z][a-z0-9+.-]*:)?//'
    r'|url\(\s*["\']?(?:https?:)?//|@import\s+["\']?(?:https?:)?//',
    re.I,
)
JS_EXTERNAL = re.compile(r'["\'`](?:https?:)?//(?!www\.w3\.org/)', re.I)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- the app and its database ----------------------------------------------------------------------


def make_app(url: str):
    """The app as served, on `url`: CSRF on, rate limits on but far above what the bench sends."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "bench",
            "SCOREKEEPER_WRITE_LIMIT": "1000000 per minute",
            "SCOREKEEPER_NEW_MATCH_LIMIT": "1000000 per minute",
            # Its one phone joins the long matches by their scorer links (each key counts as a code)
            # and times the exports a hundred times.
            "SCOREKEEPER_TABLE_CODE_LIMIT": "1000000 per minute",
            "SCOREKEEPER_EXPORT_LIMIT": "1000000 per minute",
        }
    )
    app.add_url_rule("/bare", "bare", lambda: "ok")
    return app


def postgres_server() -> str | None:
    return os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL") or None


def fresh_postgres(server: str) -> tuple[str, Callable[[], None]]:
    """A new, empty database on the server, and how to drop it."""
    base = make_url(sqlalchemy_url(server))
    name = f"scorekeeper_bench_{os.getpid()}_{random.randrange(10**6)}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return base.set(database=name).render_as_string(hide_password=False), drop


# -- timing ------------------------------------------------------------------------------------------


@dataclass
class Request:
    """A kind of request: `prepare` gives the call to time (the hand to send is drawn before the
    clock starts); `check` looks at the answer after it stops."""

    name: str
    prepare: Callable[[], Callable]
    check: Callable = None
    samples: list[float] = field(default_factory=list)


def get(client, urls: list[str] | str, status: int = 200, name: str = "") -> Request:
    """GET one URL, or each of several in turn."""
    urls = [urls] if isinstance(urls, str) else urls
    turn = iter(range(10**9))

    def prepare():
        url = urls[next(turn) % len(urls)]
        return lambda: read(client.get(url))

    def check(answer):
        assert answer.status_code == status, (name, answer.status_code, answer.get_data(as_text=True)[:300])

    return Request(name, prepare, check)


def read(answer):
    """The answer with its body read (a streamed one, an export, is made while it is read)."""
    answer.get_data()
    return answer


def write(name: str, play: Play, prepare: Callable, status: int, reader) -> Request:
    """Record a hand; the first answer is checked against the app's last hand (read by `reader`)."""
    checked = []

    def check(answer):
        assert answer.status_code == status, (name, answer.status_code, answer.get_data(as_text=True)[:500])
        play.accepted()
        if not checked:
            checked.append(True)
            assert play.check_last(reader), f"{name}: the app recorded another hand than the bench sent"

    return Request(name, prepare, check)


def measure(requests: list[Request], rounds: int, warmup: int) -> dict[str, list[float]]:
    """Round after round, one request of each kind; the first `warmup` rounds are not kept."""
    limits: dict[str, int] = {}
    for number in range(warmup + rounds):
        for request in requests:
            if request.name in limits and len(request.samples) >= limits[request.name]:
                continue
            call = request.prepare()
            start = time.perf_counter()
            answer = call()
            took = (time.perf_counter() - start) * 1000
            if request.check:
                request.check(answer)
            if number >= warmup:
                request.samples.append(took)
            elif number == 0 and took > SLOW_MS:
                limits[request.name] = max(5, min(rounds, int(BUDGET_MS / took)))
                say(f"    {request.name}: {took:,.0f} ms a request: {limits[request.name]} samples only")
    return {request.name: request.samples for request in requests}


def join(app, client, play: Play) -> None:
    """The scorer link (as the share page makes it): this client may now write to the match."""
    from flask import url_for

    with app.test_request_context():
        link = url_for("matches.join", match_id=play.id, key=play.key)
    joined = client.get(link)
    assert joined.status_code == 302, (link, joined.status_code)


def csrf_token(client, url: str) -> str:
    html = client.get(url).get_data(as_text=True)
    found = CSRF.search(html)
    assert found, f"no CSRF token on {url}"
    return found.group(1) or found.group(2)


# -- cold: a fresh process ---------------------------------------------------------------------------


def cold_main(args) -> int:
    """In a fresh process: open the database, make the app and ready it as a served worker does
    (`warm_up`: its connection opened; the home page, the history and the newest match's page
    read once; the newest match is none of the long matches timed here), time the first request of `--cold`
    (after `--prime`, if given: a process warmed on another page)."""
    app = make_app(args.db)
    warm_up(app)  # as a served worker does before its first request (scripts/gunicorn.conf.py)
    client = app.test_client()
    if args.cookie:
        client.set_cookie("session", args.cookie)
    if args.prime:
        primed = client.get(args.prime)
        assert primed.status_code == 200, args.prime
    start = time.perf_counter()
    answer = client.get(args.cold)
    took = (time.perf_counter() - start) * 1000
    print(json.dumps({"ms": took, "status": answer.status_code}))
    return 0


def cold(url: str, path: str, runs: int, prime: str | None = None, cookie: str | None = None) -> list[float]:
    out = []
    for _ in range(runs):
        command = [sys.executable, str(Path(__file__).resolve()), "--cold", path, "--db", url]
        if prime:
            command += ["--prime", prime]
        if cookie:
            command += ["--cookie", cookie]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f"cold run of {path} failed:\n{done.stderr[-2000:]}")
        answer = json.loads(done.stdout.strip().splitlines()[-1])
        assert answer["status"] == 200, (path, answer)
        out.append(answer["ms"])
    return out


# -- one database ------------------------------------------------------------------------------------


@dataclass
class Run:
    name: str  # the database, in full
    short: str  # "SQLite" or "PostgreSQL", in the list of targets missed
    url: str
    args: argparse.Namespace
    lines: list[str] = field(default_factory=list)
    seconds: float = 0.0


def database_counts(app) -> tuple[int, int]:
    with app.app_context():
        matches = db.session.scalar(select(func.count()).select_from(Match))
        hands = db.session.scalar(select(func.count()).select_from(Hand))
        db.session.remove()
    return matches, hands


@dataclass
class Setup:
    """What every database starts from: the club, the template matches, the long matches. Built
    through the API on the first database; the next one gets the same rows copied in bulk."""

    rows: dict[str, list[dict]]
    players: list[int]
    templates: list[int]
    long_plays: list[tuple]
    seconds: float


def build_setup(app, visitor, rng: random.Random, hands: int) -> tuple[list[int], list[int], list[tuple]]:
    players = bench_fill.club_players(app)
    templates = bench_fill.play_templates(visitor, rng)
    say(f"  {len(templates)} template matches played through the API")
    bench_history.play_regulars(visitor, bench_fill.CLUB[: bench_history.REGULARS])
    long_plays = []
    names = bench_fill.CLUB
    for number, game in enumerate(LONG_GAMES):
        seated = names[number * 4 : number * 4 + game.players]
        play = Play(visitor, game.key, seated, game.options, seed=number + 1)
        built = time.perf_counter()
        play.play(visitor, hands)
        primer = Play(visitor, game.key, seated, game.options, seed=100 + number)  # another match of the game
        primer.play(visitor, 1)
        say(f"  {game.key}: {hands} hands through the API in {time.perf_counter() - built:.1f} s")
        long_plays.append((game, play, primer))
    return players, templates, long_plays


def run_database(
    run: Run, verdicts: report.Verdicts, profile_out: list[str], setup: Setup | None, keep_setup: bool
) -> Setup | None:
    args, began = run.args, time.perf_counter()
    rng = random.Random(14)
    say(f"== {run.name}")
    app = make_app(run.url)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
        db.engine.dispose()
    visitor, scorer = app.test_client(), app.test_client()  # a phone that only looks; the table's phone
    reader = app.test_client()  # a phone that reads in Urdu: every reason rendered in it when read, right to left
    reader.set_cookie("lang", "ur")
    # -- the club, its template matches, and the long matches -----------------------------------------
    started = time.perf_counter()
    if setup is None:
        players, templates, long_plays = build_setup(app, visitor, rng, args.hands)
        how = "built through the API"
        if keep_setup:
            setup = Setup(
                bench_fill.snapshot(app),
                players,
                templates,
                [(game, play.fork(), primer.fork()) for game, play, primer in long_plays],
                0.0,
            )
    else:
        bench_fill.copy_rows(setup.rows, app)
        players, templates = setup.players, setup.templates
        long_plays = [(game, play.fork(), primer.fork()) for game, play, primer in setup.long_plays]
        how = "copied in bulk from the first database's set-up (the rows the app wrote there through the API)"
    for _, play, primer in long_plays:
        join(app, scorer, play)
        join(app, scorer, primer)
    names = bench_fill.CLUB
    special = {m.id for _, play, primer in long_plays for m in (play, primer)}
    cloner = bench_fill.Cloner(app, templates, players)
    bench_history.set_night(app, templates)  # the bench's night: the templates, the same at every size
    setup_seconds = time.perf_counter() - started
    say(f"  set-up {how}: {setup_seconds:.0f} s")

    # -- each size --------------------------------------------------------------------------------
    figures: dict[str, dict[int, list[float]]] = {}
    rerating: dict[int, dict] = {}
    counts: dict[int, str] = {}
    fills: list[str] = []
    last_requests: list[Request] = []

    def beside_bare(name: str, prepare: Callable, check: Callable) -> tuple[list[float], list[float]]:
        """A kind of request timed in rounds with the bare route: its samples, and the bare route's."""
        timed, bare = Request(name, prepare, check), get(visitor, "/bare", name=BARE)
        measure([bare, timed], args.requests, args.warmup)
        return timed.samples, bare.samples

    for size in args.sizes:
        filling = time.perf_counter()
        added = cloner.grow_to(size - 1, rng)
        fill_seconds = time.perf_counter() - filling
        probe = Play(visitor, "court_piece", rng.sample(names, 4), seed=size)
        probe.play(visitor, 3)
        join(app, scorer, probe)
        matches, hands = database_counts(app)
        settle()
        counts[size] = f"{matches:,} matches, {hands:,} hands"
        fills.append(f"{size_name(size)}: {added:,} matches cloned in {fill_seconds:.1f} s")
        say(f"  {size:,} matches ({added:,} added in {fill_seconds:.1f} s): timing")
        with app.app_context():
            viewed = list(
                db.session.scalars(
                    select(Match.id).where(Match.id.not_in(special | {probe.id})).order_by(func.random()).limit(40)
                )
            )
            db.session.remove()
        viewed_urls = [f"/matches/{i}" for i in viewed]
        player_urls = [f"/players/{i}" for i in players[:40]]
        csrf = csrf_token(scorer, f"/matches/{probe.id}")
        # Measured within this size's round: the lambdas bind this size's probe and token.
        form = write(
            "record a hand (form)", probe, lambda probe=probe, csrf=csrf: probe.form_post(scorer, csrf), 302, visitor
        )
        api = write("record a hand (API)", probe, lambda probe=probe: probe.api_post(visitor), 201, visitor)
        requests = [
            get(visitor, "/bare", name=BARE),
            get(visitor, "/", name="`/`"),
            get(visitor, "/matches", name="`/matches`"),
            get(visitor, "/matches?game=court_piece", name="`/matches?game=court_piece`"),
            get(visitor, "/players/", name="`/players/`"),
            get(visitor, player_urls, name="`/players/<id>` (one of 40 players in turn)"),
            get(scorer, f"/matches/{probe.id}", name="match page, the table's phone (`/matches/<id>`)"),
            get(visitor, viewed_urls, name="match page, a visitor (one of 40 matches in turn)"),
            get(visitor, [u + "/hands" for u in viewed_urls], name="hands list (`/matches/<id>/hands`)"),
            get(visitor, "/rules/court_piece", name="rules page (`/rules/court_piece`)"),
            get(visitor, "/api/v1/matches", name="`GET /api/v1/matches`"),
            get(visitor, ["/api/v1" + u for u in viewed_urls], name="`GET /api/v1/matches/<id>`"),
            form,
            api,
        ]
        requests += [get(visitor, urls, name=name) for name, urls in bench_history.pages(players, viewed)]
        requests.append(
            Request(
                "finish a match (API), rated in the write",
                lambda rng=rng: bench_history.finish_write(visitor, names, rng),
                bench_history.finished,
            )
        )
        for name, samples in measure(requests, args.requests, args.warmup).items():
            figures.setdefault(name, {})[size] = samples
        last_requests = requests
        say(f"  {size:,} matches: an edit of the oldest finished match, and its follow-up")
        rerating[size] = bench_history.early_edit(app, visitor, api, beside_bare)

    # -- the 500-hand matches (at the largest size) ------------------------------------------------
    settle()
    say(f"  {args.hands}-hand matches: cold runs ({args.cold_runs} fresh processes each)")
    cookie = scorer.get_cookie("session").value
    long_figures: dict[str, dict[str, list[float]]] = {}
    bare_cold = cold(run.url, "/bare", args.cold_runs)
    for game, play, primer in long_plays:
        page = f"/matches/{play.id}"
        long_figures.setdefault("page, cold process (first request of a fresh process)", {})[game.key] = cold(
            run.url, page, args.cold_runs, cookie=cookie
        )
        long_figures.setdefault("page, cold match (first view, in a process that served another match)", {})[
            game.key
        ] = cold(run.url, page, args.cold_runs, prime=f"/matches/{primer.id}", cookie=cookie)
    say(f"  {args.hands}-hand matches: warm")
    reads, writes = [get(visitor, "/bare", name=BARE)], [get(visitor, "/bare", name=BARE)]
    long_names = {}
    for game, play, _primer in long_plays:
        page = f"/matches/{play.id}"
        long_names[game.key] = {
            "page, warm": get(scorer, page, name=f"{game.key} page"),
            "hands list (first page)": get(visitor, page + "/hands", name=f"{game.key} hands"),
            "page in Urdu (reasons rendered when read)": get(reader, page, name=f"{game.key} page ur"),
            "hands list in Urdu": get(reader, page + "/hands", name=f"{game.key} hands ur"),
            "`GET /api/v1/matches/<id>` (every hand)": get(visitor, "/api/v1" + page, name=f"{game.key} api"),
            "`GET /api/v1/matches/<id>?hands=1`": get(visitor, f"/api/v1{page}?hands=1", name=f"{game.key} api1"),
        }
        reads += list(long_names[game.key].values())
        csrf = csrf_token(scorer, page)
        kinds = {
            "record a hand (form)": (lambda p=play, c=csrf: p.form_post(scorer, c), 302),
            "record a hand (API, answer with every hand)": (lambda p=play: p.api_post(visitor), 201),
            "record a hand (API, `?hands=1`)": (lambda p=play: p.api_post(visitor, "?hands=1"), 201),
        }
        for label, (prepare, status) in kinds.items():
            request = write(f"{game.key} {label}", play, prepare, status, visitor)
            long_names[game.key][label] = request
            writes.append(request)
    measure(reads, args.requests, args.warmup)
    measure(writes, args.requests, args.warmup)
    bare_warm = reads[0].samples + writes[0].samples
    for key, kinds in long_names.items():
        for label, request in kinds.items():
            long_figures.setdefault(label, {})[key] = request.samples

    # -- page weights ------------------------------------------------------------------------------
    say("  page weights")
    weights = weigh_pages(visitor, scorer, long_plays, probe, players, viewed[0])

    # -- the tables --------------------------------------------------------------------------------
    run.seconds = time.perf_counter() - began
    lines = run.lines
    lines += [f"### {run.short}: pages and API calls as the club grows", ""]
    lines.append(
        f"p50 / p95 in ms of {args.requests} requests of each kind (after {args.warmup} warm-up rounds), "
        f"made in rounds, one of each kind per round; the bare route is measured in the same rounds. "
        f"Writes record Court Piece hands on a match started through the API at that size. "
        f"Growth is judged on p95 ÷ the bare route's p95 at each size (the bare route, which touches "
        f"no database, moved by the growth shown in its row)."
    )
    lines.append("")
    lines += report.size_table(run.short, args.sizes, figures, counts, verdicts, BARE)
    copy = ", COPY on PostgreSQL" if run.short == "PostgreSQL" else ""
    lines += [
        "",
        f"Filled in bulk (clones of {len(templates)} template matches, Core insert{copy}; the players' "
        "stories worked out again after each fill): "
        + "; ".join(fills)
        + f". The set-up (the club, the templates and {len(LONG_GAMES)} long matches) "
        f"was {how} in {setup_seconds:.0f} s.",
        "",
    ]
    lines += bench_history.rerating_table(run.short, rerating, verdicts)
    lines += long_tables(run.short, args.hands, long_figures, long_plays, bare_warm, bare_cold, verdicts)
    lines += ["", f"### {run.short}: page weights (at {size_name(args.sizes[-1])} matches)", ""]
    lines += weight_table(weights, verdicts, run.short)
    lines += ["", f"{run.name} run: {run.seconds:.0f} s.", ""]

    if args.profile:
        profile_out += profile(run.short, app, last_requests, figures, args.sizes[-1], args.profile)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    gc.unfreeze()
    return setup


def settle() -> None:
    """Before timing: what the bench itself holds (its samples, the set-up it keeps for the next
    database, the test clients) is moved out of the garbage collector's way, so that a full
    collection during a timed request costs what it would in a server, not more."""
    gc.collect()
    gc.freeze()


def size_name(size: int) -> str:
    return report.size_name(size)


def long_tables(
    db_name: str,
    built: int,
    figures: dict[str, dict[str, list[float]]],
    plays,
    bare_warm: list[float],
    bare_cold: list[float],
    verdicts: report.Verdicts,
) -> list[str]:
    keys = [game.key for game, _, _ in plays]
    hands = plays[0][1].count if plays else 0
    lines = [f"### {db_name}: long matches, one game of each family", ""]
    lines.append(
        f"p50 / p95 in ms. Each match was played to {built} hands through the API with the game's own example "
        f"hands (drawn again where one would end the match: see the second table); the reads are timed at {built} "
        f"hands, then the writes take it on, one hand each (to {hands} hands by the end). "
        "Cold: the first request of a fresh process (`bench.py --cold`), after the start-up a served worker "
        "makes (scorekeeper/warm.py: its database connection opened; the home page, the history and the newest "
        "match's page, which is none of these, read once), "
        f"{len(bare_cold)} processes each; a cold process is held to 10× the bare route's first request in a fresh "
        "process, everything else to 10× the warm bare route."
    )
    lines.append("")
    head = ["request"] + [f"{game.key} ({game.family})" for game, _, _ in plays]
    head += ["worst p95 ÷ bare", "≤ 10× bare"]
    rows = [
        [BARE + ", warm", *[report.pair(bare_warm)] * len(keys), "", ""],
        [BARE + ", first request of a fresh process", *[report.pair(bare_cold)] * len(keys), "", ""],
    ]
    for label, by_game in figures.items():
        floor = report.p95(bare_cold) if "cold process" in label else report.p95(bare_warm)
        worst_key = max(keys, key=lambda k: report.p95(by_game[k]))
        worst = report.p95(by_game[worst_key]) / floor
        slow = [k for k in keys if report.p95(by_game[k]) > report.FACTOR * floor]
        verdict = verdicts.check(not slow, f"{db_name}: long match {label} p95 over 10× bare for {', '.join(slow)}")
        rows.append([label] + [report.pair(by_game[k]) for k in keys] + [report.ratio(worst), verdict])
    lines += report.table(head, rows)
    lines += [
        "",
        f"| game | family | players | options | how it lasts {built} hands | hands redrawn "
        "| hands that score nothing |",
        "| --- | --- | ---: | --- | --- | ---: | ---: |",
    ]
    for game, play, _ in plays:
        options = ", ".join(f"{k} {json.dumps(v)}" for k, v in game.options.items()) or "defaults"
        how = game.how.replace("500 hands", f"{built} hands")
        lines.append(
            f"| {game.key} | {game.family} | {game.players} | {options} | {how} | {play.redrawn} | {play.neutral} |"
        )
    return lines


# -- page weights ------------------------------------------------------------------------------------


LONG_LISTS = ("history", "hands list", "player page", "head to head", "nights", "night")
# The games whose hand form picks cards, and Cuarenta's list of events: until issue 34 each card or
# entry repeated the whole list, and their pages were the heaviest (up to 72 KB). Weighed at hand 2
# with the most players the game takes, on the table's phone.
PICKING_GAMES = ("chicago", "cuarenta", "poke", "schnapsen", "tabletop_cribbage", "tresette")


def picking_pages(visitor, scorer) -> list[tuple]:
    """A match of each picking game, one hand in, that `scorer` scores: its page's row for weigh_pages."""
    rows = []
    for number, key in enumerate(PICKING_GAMES):
        most = GAMES[key].max_players
        play = Play(visitor, key, bench_fill.CLUB[number * 5 : number * 5 + most], seed=number + 1)
        play.play(visitor, 1)
        joined = scorer.get(f"/matches/{play.id}/join?key={play.key}")  # the scorer link
        assert joined.status_code == 302, (key, joined.status_code)
        rows.append((f"match page, {key}, hand 2, {most} players (table's phone)", None, scorer, f"/matches/{play.id}"))
    return rows


def weigh_pages(visitor, scorer, long_plays, probe: Play, players: list[int], viewed: int):
    """(page, kind, client, url) for every page type; kind names the long lists."""
    busiest = players[0]
    pages = [
        ("home", None, visitor, "/"),
        ("history", "history", visitor, "/matches"),
        ("history, one game", "history", visitor, "/matches?game=court_piece"),
        ("history, one player", "history", visitor, f"/matches?player={busiest}"),
        ("players", None, visitor, "/players/"),
        ("player page", "player page", visitor, f"/players/{busiest}"),
        ("rules index", None, visitor, "/rules/"),
        ("new match", None, visitor, "/matches/new/court_piece"),
        ("match page, Court Piece, 3 hands (visitor)", None, visitor, f"/matches/{viewed}"),
        ("match page, table's phone", None, scorer, f"/matches/{probe.id}"),
        ("hand edit page", None, scorer, f"/matches/{probe.id}/hands/1/edit"),
        ("share page (QR codes)", None, scorer, f"/matches/{probe.id}/share"),
        ("watch page", None, visitor, f"/matches/{probe.id}/watch"),
        ("player's story in a game", None, visitor, f"/players/{busiest}/games/court_piece"),
        ("head to head", "head to head", visitor, f"/head-to-head?a={busiest}&b={players[1]}"),
        ("game nights", "nights", visitor, "/nights"),
        ("a night (24 matches)", "night", visitor, f"/nights/{bench_history.NIGHT}"),
        ("a night on a big screen", None, visitor, f"/nights/{bench_history.NIGHT}/screen"),
        ("score sheet, Court Piece, 3 hands", None, visitor, f"/matches/{viewed}/sheet"),
    ]
    for game, play, _ in long_plays:
        pages += [
            (f"rules, {game.key}", None, visitor, f"/rules/{game.key}"),
            (f"new match, {game.key}", None, visitor, f"/matches/new/{game.key}"),
            (f"match page, {game.key}, {play.count} hands (table's phone)", None, scorer, f"/matches/{play.id}"),
            (f"hands list, {game.key}, {play.count} hands", "hands list", visitor, f"/matches/{play.id}/hands"),
        ]
    pages += picking_pages(visitor, scorer)
    rows = []
    for label, kind, client, url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
        html = answer.get_data(as_text=True)
        assets, external = 0, len(EXTERNAL.findall(html))
        for path in sorted(set(ASSET.findall(html))):
            assets += len(client.get(path, headers=WIRE).data)  # as a phone receives it (CSS and JS compressed)
            body = client.get(path).get_data(as_text=True)
            external += len(EXTERNAL.findall(body)) + (len(JS_EXTERNAL.findall(body)) if path.endswith(".js") else 0)
        rows.append((label, url, kind, len(answer.data), assets, external))
    return rows


def weight_table(rows, verdicts: report.Verdicts, db_name: str) -> list[str]:
    out = []
    for label, url, kind, html, assets, external in rows:
        limit = report.LIST_LIMIT if kind else report.PAGE_LIMIT
        total = html + assets
        ok = verdicts.check(
            total <= limit and external == 0,
            f"{db_name}: {label} `{url}` weighs {total:,} B (limit {limit:,}), {external} other hosts",
        )
        out.append([f"{label} `{url}`", f"{html:,}", f"{assets:,}", f"{total:,}", f"{limit:,}", str(external), ok])
    return report.table(["page", "HTML B", "CSS+JS B", "total B", "limit B", "other hosts", "target"], out)


# -- where the time goes -----------------------------------------------------------------------------


def profile(db_name: str, app, requests: list[Request], figures, size: int, count: int) -> list[str]:
    """The `count` slowest kinds of request, 10 of each under cProfile, with every SQL statement
    timed: how many statements a request makes, the slowest ones, and the app's functions."""
    import cProfile
    import pstats

    from sqlalchemy import event

    with app.app_context():
        engine = db.engine
    statements: list[tuple[float, str]] = []

    def before(conn, cursor, statement, parameters, context, executemany):
        conn.info.setdefault("bench_started", []).append(time.perf_counter())

    def after(conn, cursor, statement, parameters, context, executemany):
        statements.append((time.perf_counter() - conn.info["bench_started"].pop(), statement))

    slowest = sorted((r for r in requests if r.name != BARE), key=lambda r: -report.p95(figures[r.name][size]))
    lines = [
        f"### {db_name}: where the time goes (10 requests of each of the slowest kinds, at "
        f"{size_name(size)} matches; times under cProfile, so inflated)",
        "",
    ]
    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)
    try:
        for request in slowest[:count]:
            statements.clear()
            profiler = cProfile.Profile()
            took = 0.0
            for _ in range(10):
                call = request.prepare()
                start = time.perf_counter()
                profiler.enable()
                answer = call()
                profiler.disable()
                took += time.perf_counter() - start
                if request.check:
                    request.check(answer)
            lines += [
                f"{request.name}: p95 {report.ms(report.p95(figures[request.name][size]))} ms; "
                f"under the profiler {took * 100:.1f} ms a request",
                "",
                "```text",
            ]
            lines += profile_summary(pstats.Stats(profiler), statements)
            lines += ["```", ""]
    finally:
        event.remove(engine, "before_cursor_execute", before)
        event.remove(engine, "after_cursor_execute", after)
    return lines


def profile_summary(stats, statements: list[tuple[float, str]], runs: int = 10) -> list[str]:
    out = []
    sql_ms = sum(seconds for seconds, _ in statements) * 1000 / runs
    out.append(f"SQL: {len(statements) / runs:.0f} statements a request, {sql_ms:.1f} ms a request")
    by_text: dict[str, list[float]] = {}
    for seconds, statement in statements:
        by_text.setdefault(" ".join(statement.split()), []).append(seconds)
    for statement, times in sorted(by_text.items(), key=lambda item: -sum(item[1]))[:4]:
        shown = re.sub(r"^SELECT (?:(?!\bFROM\b).)* FROM ", "SELECT ... FROM ", statement)  # the columns left out
        shown = shown if len(shown) <= 260 else shown[:200] + " ... " + shown[-55:]
        out.append(f"  {sum(times) * 1000 / runs:7.1f} ms  x{len(times) / runs:<5g} {shown}")
    entries = stats.stats  # (file, line, name) -> (primitive calls, calls, own time, cumulative time, callers)
    root = str(ROOT) + os.sep
    mine = (root + "scorekeeper" + os.sep, root + "templates" + os.sep)
    ours = [(cum, key) for key, (_, _, _, cum, _) in entries.items() if key[0].startswith(mine)]
    out.append("The app's functions and templates, by cumulative time (ms a request):")
    for cum, (path, line, name) in sorted(ours, reverse=True)[:10]:
        out.append(f"  {cum * 1000 / runs:7.1f}  {path[len(root) :]}:{line} {name}")
    out.append("Own time, all code (ms a request):")
    for key, (_, calls, own, _, _) in sorted(entries.items(), key=lambda item: -item[1][2])[:6]:
        path, line, name = key
        where = name if path == "~" else f"{path.replace(root, '').split('site-packages/')[-1]}:{line} {name}"
        out.append(f"  {own * 1000 / runs:7.1f}  x{calls / runs:<6g} {where}")
    return out


# -- main --------------------------------------------------------------------------------------------


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 100 and 1,000 matches, 60-hand long matches, 5 requests each"
    )
    parser.add_argument("--sizes", help="database sizes, comma-separated (default 100,10000,100000)")
    parser.add_argument(
        "--requests",
        type=int,
        help="requests of each kind kept (default 100; the p95 of 30 is the second slowest of them)",
    )
    parser.add_argument("--warmup", type=int, help="warm-up rounds not kept (default 3)")
    parser.add_argument("--hands", type=int, help="hands in each long match (default 500)")
    parser.add_argument("--cold-runs", type=int, help="fresh processes per cold figure (default 5)")
    parser.add_argument(
        "--database",
        choices=("auto", "sqlite", "postgresql", "both"),
        default="auto",
        help="auto: SQLite, and PostgreSQL too when TEST_POSTGRES_URL or BENCH_POSTGRES_URL is set",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile the N slowest request kinds at the largest size (cProfile)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the SQLite file (its folder is printed)")
    parser.add_argument("--cold", help=argparse.SUPPRESS)  # in a fresh process: time the first GET of this path
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--prime", help=argparse.SUPPRESS)
    parser.add_argument("--cookie", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = args.quick
    if args.sizes:
        args.sizes = [int(s.replace("_", "")) for s in args.sizes.split(",")]
    else:
        args.sizes = [100, 1000] if quick else [100, 10_000, 100_000]
    args.requests = args.requests or (5 if quick else 100)
    args.warmup = args.warmup if args.warmup is not None else (1 if quick else 3)
    args.hands = args.hands or (60 if quick else 500)
    args.cold_runs = args.cold_runs or (1 if quick else 5)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.cold:
        return cold_main(args)
    report.EXPECTED[0] = args.requests
    began = time.perf_counter()
    server = postgres_server()
    wanted = {
        "auto": ["sqlite"] + (["postgresql"] if server else []),
        "sqlite": ["sqlite"],
        "postgresql": ["postgresql"],
        "both": ["sqlite", "postgresql"],
    }[args.database]
    if "postgresql" in wanted and not server:
        raise SystemExit("PostgreSQL: set BENCH_POSTGRES_URL or TEST_POSTGRES_URL (url=$(scripts/postgres.sh start))")
    load = os.getloadavg()
    show(
        [
            "## Speed and size (`make bench`)",
            "",
            f"{'Quick smoke run (`--quick`): not figures for the README. ' if args.quick else ''}"
            f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load average {load[0]:.1f} at the start, "
            f"Python {platform.python_version()}, measured in-process through Flask's test client.",
            "",
        ]
    )
    verdicts, profiles, runs, setup, failed = report.Verdicts(), [], [], None, []
    for number, kind in enumerate(wanted):
        folder, drop, name = None, None, kind
        try:
            if kind == "sqlite":
                folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
                url = f"sqlite:///{folder}/bench.sqlite"
                import sqlite3

                sync = os.environ.get("SCOREKEEPER_SQLITE_SYNCHRONOUS", "FULL").upper()
                name = f"SQLite {sqlite3.sqlite_version} (WAL, synchronous={sync}, a file in {tempfile.gettempdir()})"
            else:
                url, drop = fresh_postgres(server)
                engine = create_engine(url)
                with engine.connect() as conn:
                    version = conn.execute(text("SHOW server_version")).scalar()
                engine.dispose()
                host = make_url(url)
                name = f"PostgreSQL {version.split()[0]} ({host.host}:{host.port}, a fresh database)"
            run = Run(name, name.split()[0], url, args)
            setup = run_database(run, verdicts, profiles, setup, keep_setup=number + 1 < len(wanted))
            runs.append(run)
            show([f"Database: {name}.", ""] + run.lines)
        except Exception as error:  # one database failing (a server stopped under it) keeps the others' figures
            import traceback

            traceback.print_exc()
            failed.append(f"{name}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
            show([f"Database: {name}: the run FAILED ({failed[-1]}); see stderr.", ""])
        finally:
            if drop:
                try:
                    drop()
                except Exception as error:
                    say(f"could not drop the bench database: {error}")
            if folder and not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
            elif folder:
                say(f"SQLite database kept in {folder}")
    total = time.perf_counter() - began
    out = list(profiles)
    if verdicts.missed:
        out += ["Targets not met:", ""] + [f"- {missed}" for missed in verdicts.missed] + [""]
    out.append(
        f"**Summary:** {verdicts.checked - len(verdicts.missed)} of {verdicts.checked} targets met"
        f"{'; ' + str(len(verdicts.missed)) + ' NOT met' if verdicts.missed else ', all of them'} "
        f"({', '.join(r.name.split(' (')[0] for r in runs) or 'no database'}; "
        f"sizes {', '.join(size_name(s) for s in args.sizes)}; run {total / 60:.1f} min)"
        + (f"; FAILED: {'; '.join(failed)}." if failed else ".")
    )
    show(out)
    return 1 if verdicts.missed or failed else 0


def show(lines: list[str]) -> None:
    """Print a finished part of the report at once (a later failure loses nothing printed)."""
    print("\n".join(lines), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
