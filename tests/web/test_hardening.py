"""Safe to host (issue 13): no stale score when writes interleave, a server slow clients cannot
stall, security headers, cookies, trusted hosts, rate limits, CSRF tokens that expire, times with
their offset, and no 5xx for anything a phone or a stranger can send to the pages."""

from __future__ import annotations

import re
import socket
import threading
import time
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from itsdangerous import TimestampSigner

from scorekeeper import create_app
from scorekeeper.extensions import SLOW_DOWN, db
from scorekeeper.games import GAMES
from scorekeeper.records import writes
from tests.conftest import DATABASES, Actions, database_url, make_app
from tests.proof.live_server import LiveServer

FOUR = ["Ann", "Bo", "Cy", "Di"]
FLAGSHIPS = ["envite", "court_piece", "poke", "schnapsen"]
TRICKS = {"outcome": "tricks", "tricks": [8, 5]}


def text(answer) -> str:
    return answer.get_data(as_text=True)


def players_for(game: str) -> list[str]:
    return [f"P{seat}" for seat in range(GAMES[game].min_players)]


def start_on_web(client, game: str, names: list[str] | None = None, **fields) -> int:
    """Start a match from the new-match form, as the phone at the table does (the page keeps the
    match's key for this phone); its id."""
    form = {f"seat-{seat}": name for seat, name in enumerate(names or players_for(game))} | fields
    answer = client.post(f"/matches/new/{game}", data=form)
    assert answer.status_code == 302, text(answer)[:500]
    return int(re.search(r"/matches/(\d+)", answer.location).group(1))


def form_names(page: str, form_class: str = "hand-form") -> list[str]:
    """The names of the inputs of the page's form of that class."""
    found = re.search(rf'<form[^>]*class="{form_class}".*?</form>', page, re.S)
    return sorted(set(re.findall(r'name="([^"]+)"', found.group(0)))) if found else []


@pytest.fixture
def no_propagation(app):
    """Let the app answer a crash with its 500, as in production, so tests can check the status."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    return app


# -- 1. a write between another write's commit and its cache filing ----------------------------


WRITES = {
    "record": ("POST", "/hands", {"record": {"outcome": "tricks", "tricks": [9, 4]}}),
    "edit": ("PUT", "/hands/1", {"record": {"outcome": "tricks", "tricks": [10, 3]}}),
    "delete": ("DELETE", "/hands/1", None),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_write_landing_between_anothers_commit_and_its_cache_filing_leaves_no_stale_score(app, monkeypatch, write):
    """Phone A's write commits; before A files its replay, phone B's whole write commits. The
    score shown afterwards must hold both, and the next hand must be taken."""
    phone_a = Actions(app.test_client())
    match_id = phone_a.start("court_piece", FOUR)
    phone_a.hand(match_id, TRICKS)
    phone_b = Actions(app.test_client())
    phone_b.keys = phone_a.keys  # both phones score this match
    real_commit = writes._commit
    b_answers: list[int] = []

    def commit_then_let_phone_b_write(receipt=None):
        real_commit(receipt)
        if not b_answers:
            b_answers.append(0)  # only the first commit (phone A's) lets B in
            other = threading.Thread(
                target=lambda: b_answers.append(
                    phone_b.write(
                        "POST", match_id, "/hands", {"record": {"outcome": "first_seven", "side": 1}}
                    ).status_code
                )
            )
            other.start()
            other.join()

    monkeypatch.setattr(writes, "_commit", commit_then_let_phone_b_write)
    method, path, body = WRITES[write]
    assert phone_a.write(method, match_id, path, body).status_code in (200, 201)
    assert b_answers == [0, 201]
    monkeypatch.undo()

    expected = {
        "record": [TRICKS, {"outcome": "tricks", "tricks": [9, 4]}, {"outcome": "first_seven", "side": 1}],
        "edit": [{"outcome": "tricks", "tricks": [10, 3]}, {"outcome": "first_seven", "side": 1}],
        "delete": [{"outcome": "first_seven", "side": 1}],
    }[write]
    shown = phone_a.match(match_id)["hands"]
    assert [
        {k: v for k, v in hand["record"].items() if k in ("outcome", "tricks", "side")} for hand in shown
    ] == expected
    phone_a.hand(match_id, TRICKS, number=len(expected) + 1)  # no 409 from a stale version
    assert len(phone_a.match(match_id)["hands"]) == len(expected) + 1


# -- 3. slow clients ------------------------------------------------------------------------------


def half_sent_requests(port: int) -> list[socket.socket]:
    """Eight phones that start a request and stall: four stop inside the headers, four inside
    the body of a hand they never finish sending."""
    stalled = []
    for number in range(8):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        if number % 2:
            connection.sendall(b"GET /matches HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slo")
        else:
            connection.sendall(
                b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b'Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"game": '
            )
        stalled.append(connection)
    return stalled


def test_eight_half_sent_requests_do_not_stop_make_serve_answering(tmp_path):
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    make_app(url)  # the tables
    with LiveServer(url, tmp_path / "gunicorn.log") as server:
        stalled = half_sent_requests(server.port)
        try:
            time.sleep(0.5)  # they are all inside the server now
            started = time.monotonic()
            status, _ = server.request("GET", "/", timeout=5)
            assert status == 200
            assert time.monotonic() - started < 2
            status, created = server.request("POST", "/api/v1/matches", {"game": "poke", "players": ["Ann", "Bo"]})
            assert status == 201 and created["players"] == ["Ann", "Bo"]
        finally:
            for connection in stalled:
                connection.close()


# -- 5. security headers, cookies, hosts ------------------------------------------------------------


def policy(answer) -> dict[str, list[str]]:
    directives = [part.split() for part in answer.headers["Content-Security-Policy"].split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


@pytest.mark.parametrize("url", ["/", "/matches", "/rules/poke", "/api/v1/games", "/nowhere"])
def test_every_answer_carries_the_security_headers(client, url):
    answer = client.get(url)
    csp = policy(answer)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no inline script, no eval
    assert csp["style-src"][0] == "'self'" and all(s.startswith("'nonce-") for s in csp["style-src"][1:])
    assert csp["frame-ancestors"] == ["'none'"] and answer.headers["X-Frame-Options"] == "DENY"
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"] and csp["form-action"] == ["'self'"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in answer.headers  # plain HTTP: no HSTS


def test_inline_style_carries_the_page_nonce_and_scripts_come_from_static(client):
    """The hand form's <style> (rules hiding fields a choice rules out, so the form works without
    JavaScript) must carry this page's nonce, or the browser drops it."""
    match_id = start_on_web(client, "court_piece", FOUR)
    answer = client.get(f"/matches/{match_id}")
    page = text(answer)
    nonce = policy(answer)["style-src"][1][len("'nonce-") : -1]
    styles = re.findall(r"<style[^>]*>", page)
    assert styles, "the Court Piece hand form hides the tricks with a <style>"
    assert all(f'nonce="{nonce}"' in tag for tag in styles), styles
    # Every script is a file of ours; the one other is data the browser never runs (the outbox's words).
    assert all(
        re.search(r'src="/static/[\w.-]+\.js"', tag) or tag == '<script type="application/json" id="outbox-words">'
        for tag in re.findall(r"<script[^>]*>", page)
    )
    assert not re.search(r"\son\w+=", page) and " style=" not in page


def test_session_cookie_is_samesite_lax_and_secure_only_behind_https(tmp_path):
    url = f"sqlite:///{tmp_path / 'cookies.sqlite'}"
    plain = make_app(url).test_client().get("/matches/new/poke")
    assert "SameSite=Lax" in plain.headers["Set-Cookie"] and "HttpOnly" in plain.headers["Set-Cookie"]
    assert "Secure" not in plain.headers["Set-Cookie"]
    https = make_app(url, SCOREKEEPER_HTTPS=True)
    assert https.config["PREFERRED_URL_SCHEME"] == "https"
    answer = https.test_client().get("/matches/new/poke", base_url="https://localhost")
    assert "Secure" in answer.headers["Set-Cookie"] and "SameSite=Lax" in answer.headers["Set-Cookie"]
    assert answer.headers["Strict-Transport-Security"].startswith("max-age=")


def test_a_strange_host_is_refused_and_never_put_into_a_redirect(client):
    answer = client.get("/rules", headers={"Host": "evil.example"})
    assert answer.status_code == 400 and "evil" not in answer.headers.get("Location", "")
    assert client.get("/api/v1/games", headers={"Host": "evil.example:8000"}).status_code == 400
    good = client.get("/rules", headers={"Host": "127.0.0.1:8000"})
    assert good.status_code == 308 and good.headers["Location"] == "http://127.0.0.1:8000/rules/"


def test_hosts_named_in_scorekeeper_hosts_are_trusted(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "scores.example.org, 192.168.1.20")
    app = make_app(f"sqlite:///{tmp_path / 'hosts.sqlite'}")
    client = app.test_client()
    for host in ("scores.example.org", "192.168.1.20:8000", "localhost", "127.0.0.1:5000"):
        assert client.get("/rules/", headers={"Host": host}).status_code == 200, host
    assert client.get("/rules/", headers={"Host": "192.168.1.21"}).status_code == 400


def test_api_times_carry_their_offset(client, actions):
    actions.start("poke", ["Ann", "Bo"])
    created = client.get("/api/v1/matches").json[0]["created"]
    moment = datetime.fromisoformat(created)
    assert created.endswith("+00:00") and moment.utcoffset().total_seconds() == 0
    assert abs(time.time() - moment.timestamp()) < 60


# -- rate limits ----------------------------------------------------------------------------------


@pytest.fixture(params=DATABASES)
def limited(request, tmp_path):
    """An app with its rate limits on and small: two new matches and six writes a minute."""
    app = make_app(
        database_url(request.param, tmp_path),
        RATELIMIT_ENABLED=True,
        SCOREKEEPER_NEW_MATCH_LIMIT="2 per minute",
        SCOREKEEPER_WRITE_LIMIT="6 per minute",
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_new_matches_are_limited_per_client_on_the_api_and_the_form(limited):
    phone = Actions(limited.test_client())
    phone.start("poke", ["Ann", "Bo"])
    phone.start("poke", ["Cy", "Di"])
    refused = phone.create({"game": "poke", "players": ["Ed", "Flo"]})
    assert refused.status_code == 429 and refused.json == {"error": SLOW_DOWN, "fields": {}}
    assert int(refused.headers["Retry-After"]) > 0
    form = limited.test_client().post("/matches/new/poke", data={"seat-0": "Ed", "seat-1": "Flo"})
    assert form.status_code == 429 and "wait a minute" in text(form)
    other_phone = limited.test_client()
    other_phone.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    Actions(other_phone).start("poke", ["Gus", "Hal"])  # another address has its own allowance
    assert len(phone.client.get("/api/v1/matches").json) == 3


def test_writes_are_limited_per_client_and_reads_are_not(limited):
    phone = Actions(limited.test_client())
    match_id = phone.start("court_piece", FOUR)  # one write
    for _ in range(5):
        phone.hand(match_id, TRICKS)
    refused = phone.write("POST", match_id, "/hands", {"record": TRICKS})
    assert refused.status_code == 429 and refused.json["error"] == SLOW_DOWN
    assert phone.write("DELETE", match_id, "/hands/5").status_code == 429
    assert len(phone.match(match_id)["hands"]) == 5  # nothing changed
    for _ in range(20):
        assert phone.client.get(f"/matches/{match_id}").status_code == 200


def test_limits_are_off_under_testing_unless_asked_for(app):
    assert app.config["RATELIMIT_ENABLED"] is False
    served = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"})
    assert served.config["RATELIMIT_ENABLED"] is True


# -- CSRF lifetime --------------------------------------------------------------------------------


def test_a_form_posts_for_an_evening_but_not_the_next_day(monkeypatch, tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'csrf.sqlite'}", WTF_CSRF_ENABLED=True)
    assert app.config["WTF_CSRF_TIME_LIMIT"] == 12 * 3600
    client = app.test_client()
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', text(client.get("/matches/new/poke"))).group(1)
    form = {"csrf_token": token, "seat-0": "Ann", "seat-1": "Bo"}
    now = time.time()

    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(now + 11 * 3600))
    assert client.post("/matches/new/poke", data=form).status_code == 302
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: int(now + 13 * 3600))
    expired = client.post("/matches/new/poke", data=form)
    assert expired.status_code == 400 and "Form expired" in text(expired)


# -- 4. no 5xx for what a user can send -------------------------------------------------------------

HUGE = "9" * 4301  # one digit past Python's int() limit for text
HOSTILE = ["²", HUGE, "-" + HUGE, "1e999", "NaN", "\x00", "0\x00", "٣", "1_000", " 1 ", "-1", "99999999999999999999"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_new_match_form_takes_any_value_in_any_field_without_a_5xx(no_propagation, client, game):
    page = text(client.get(f"/matches/new/{game}"))
    names = set(re.findall(r'name="((?:first_dealer|opt-|seat-)[^"]*)"', page)) | {"first_dealer"}
    seats = {f"seat-{seat}": name for seat, name in enumerate(players_for(game))}
    crashed = [
        (name, value[:12])
        for name in sorted(names)
        for value in HOSTILE
        if client.post(f"/matches/new/{game}", data=seats | {name: value}).status_code >= 500
    ]
    assert crashed == []
    if GAMES[game].deals:
        assert client.post(f"/matches/new/{game}", data=seats | {"first_dealer": "²"}).status_code == 422


def test_hand_forms_take_any_value_in_any_field_without_a_5xx(no_propagation, client):
    crashed = []
    for game in FLAGSHIPS:
        match_id = start_on_web(client, game)
        names = form_names(text(client.get(f"/matches/{match_id}")))
        assert names, game
        crashed += [
            (game, name, value[:12])
            for name in names
            for value in HOSTILE
            if client.post(f"/matches/{match_id}/hands", data={name: value, "expected": "1"}).status_code >= 500
        ]
    assert crashed == []


@pytest.mark.parametrize("game", ["court_piece", "poke"])
def test_tricks_given_as_a_superscript_two_is_refused_not_a_crash(no_propagation, client, game):
    match_id = start_on_web(client, game)
    answer = client.post(
        f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "²", "tricks-1": "3", "expected": "1"}
    )
    assert answer.status_code == 422
    assert client.get(f"/api/v1/matches/{match_id}").json["hands"] == []


@pytest.mark.parametrize(
    "url",
    [
        "/players/9223372036854775808",
        "/players/2147483648",
        "/players/99999999999999999999999",
        "/matches/9223372036854775808",
        "/matches/2147483648/hands",
        "/matches/2147483648/hands/2147483648/edit",
        "/api/v1/matches/9223372036854775808",
        "/api/v1/matches/2147483648",
    ],
)
def test_ids_beyond_any_database_integer_are_not_found(no_propagation, client, url):
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    "query",
    [
        "player=9223372036854775808",
        "player=2147483648",
        "player=-1",
        "player=²",
        "game=²",
        "page=9223372036854775808",
        f"player={HUGE}",
    ],
)
def test_history_filters_beyond_any_integer_show_the_history(no_propagation, client, query):
    assert client.get(f"/matches?{query}").status_code in (200, 400)


def test_api_lists_with_huge_or_odd_paging_are_never_a_5xx(no_propagation, client):
    for query in (
        "before=9223372036854775808",
        "limit=9223372036854775808",
        "limit=-1",
        "before=²",
        "player=9223372036854775808",
        f"limit={HUGE}",
        "hands=9223372036854775808",
        "hands=-5",
    ):
        assert client.get(f"/api/v1/matches?{query}").status_code < 500, query


@pytest.mark.parametrize("token", ["t" * 65, "t" * 5000, "abc\x00def", "\x00", "é" * 64])
def test_any_hand_form_token_is_taken_or_refused_never_a_crash(no_propagation, client, token):
    match_id = start_on_web(client, "court_piece", FOUR)
    form = {"outcome": "tricks", "tricks-0": "8", "tricks-1": "5", "expected": "1", "token": token}
    answer = client.post(f"/matches/{match_id}/hands", data=form)
    assert answer.status_code < 500
    again = client.post(f"/matches/{match_id}/hands", data=form)  # the double tap of the same form
    assert again.status_code < 500
    assert len(client.get(f"/api/v1/matches/{match_id}").json["hands"]) <= 1


@pytest.mark.parametrize(
    "record",
    [
        {"tricks": [3, 2], "draws": [0, 0], "cards": None},
        {"tricks": [3, 2], "draws": [0, 0], "better_hand": 0, "poker_hand": "flush", "cards": None},
        {"tricks": [3, 2], "draws": [0, 0], "cards": [None, None]},
    ],
)
def test_a_poke_hand_with_null_cards_is_refused_or_shows_its_edit_page(no_propagation, client, actions, record):
    match_id = actions.start("poke", ["Ann", "Bo"])
    answer = actions.write("POST", match_id, "/hands", {"record": record})
    assert answer.status_code in (201, 422), answer.json
    if answer.status_code == 201:
        assert client.get(f"/matches/{match_id}/hands/1/edit").status_code == 200
        assert client.get(f"/matches/{match_id}").status_code == 200


# -- a fuzz of the HTML forms -------------------------------------------------------------------------

FORM_VALUES = st.one_of(
    st.sampled_from(["0", "1", "2", "3", "5", "7", "13", "66", "true", "on", "", "tricks", "out", "game"]),
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.text(max_size=12),
)
ACTIONS = ["hand", "hand", "hand", "edit", "delete", "undo", "finish", "new"]


def fuzzed_match(client, game: str) -> tuple[int, list[str], list[str]]:
    """One match per game and test run, started on the web; its hand form's field names and the
    values its buttons offer (so random forms also reach the game's own rules)."""
    known = client.application.extensions.setdefault("fuzzed_matches", {})
    if game not in known:
        match_id = start_on_web(client, game)
        page = text(client.get(f"/matches/{match_id}"))
        offered = sorted(set(re.findall(r'value="([^"]{1,20})"', page))) or ["0"]
        known[game] = match_id, form_names(page), offered
    return known[game]


def fuzzed_post(client, game: str, action: str, form: dict):
    match_id, _, _ = fuzzed_match(client, game)
    if action == "new":
        return client.post(f"/matches/new/{game}", data=form)
    path = {
        "hand": f"/matches/{match_id}/hands",
        "edit": f"/matches/{match_id}/hands/1/edit",
        "delete": f"/matches/{match_id}/hands/1/delete",
        "undo": f"/matches/{match_id}/undo",
        "finish": f"/matches/{match_id}/finish",
    }[action]
    return client.post(path, data=form)


@pytest.mark.parametrize("game", FLAGSHIPS)
@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_form_posts_are_never_a_5xx(no_propagation, client, game, data):
    match_id, hand_fields, offered = fuzzed_match(client, game)
    action = data.draw(st.sampled_from(ACTIONS), label="action")
    names = hand_fields + ["expected", "token", "first_dealer", "seat-0", "seat-1", "seat-2", "seat-3", "draw_partners"]
    values = FORM_VALUES | st.sampled_from(offered)
    form = data.draw(st.dictionaries(st.sampled_from(names) | st.text(max_size=6), values, max_size=8), label="form")
    answer = fuzzed_post(client, game, action, form)
    assert answer.status_code < 500, (action, form, text(answer)[:300])
    assert client.get(f"/matches/{match_id}").status_code == 200
