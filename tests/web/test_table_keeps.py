"""The table keeps its match (issue 21, items 1 and 2): a phone's right to score lives in a
long-lived cookie that holds no key, kept on the server for any number of matches; a table code
lets another phone score; the Share page gives an address other phones can open; the home page
opens on the matches in play."""

from __future__ import annotations

import hashlib
import html
import re
import socket
import threading
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.matches import phones
from scorekeeper.models import PhoneHold
from tests.conftest import DATABASES, Actions, database_url, make_app

from .test_write_keys import FOUR, hand, start_on_page

TABLE_WIFI = "192.168.1.20"


def text(answer) -> str:
    """The page as a reader sees its words (entities read back)."""
    return html.unescape(answer.get_data(as_text=True))


def scored_here(page: str) -> str:
    """The home page's list of the matches this phone scores."""
    return page.split("Scored on this phone")[1].split("<h2")[0]


def phone_cookie(answer) -> str:
    """The Set-Cookie line of the phone's cookie in `answer` (a __Host- one behind HTTPS)."""
    lines = [line for line in answer.headers.getlist("Set-Cookie") if line.startswith(("phone=", "__Host-phone="))]
    assert len(lines) == 1, answer.headers.getlist("Set-Cookie")
    return lines[0]


def session_of(app, client) -> dict:
    cookie = client.get_cookie("session")
    return app.session_interface.get_signing_serializer(app).loads(cookie.value) if cookie else {}


def code_on(page: str) -> str:
    return re.search(r"Table code <strong>([2-9A-Z-]+)</strong>", page).group(1)


def holds(app, phone=None) -> list[int]:
    """The matches phones may score, as the server keeps them (only `phone`'s, if given)."""
    query = db.select(PhoneHold.match_id).order_by(PhoneHold.match_id)
    if phone is not None:
        cookie = phone.get_cookie("phone")
        if cookie is None:
            return []
        token = cookie.value.rsplit(".", 1)[0]  # the token, and the server's signature of it
        query = query.where(PhoneHold.phone_hash == hashlib.sha256(token.encode()).hexdigest())
    with app.app_context():
        return list(db.session.scalars(query))


def hand_count(client, match_id: int) -> int:
    return len(client.get(f"/api/v1/matches/{match_id}").json["hands"])


# -- the phone's cookie -------------------------------------------------------------------------------


def test_the_phone_cookie_holds_no_key_and_lasts_400_days(app):
    phone, script = app.test_client(), Actions(app.test_client())
    match_id = script.start("court_piece", FOUR)
    key = script.keys[match_id]
    joined = phone.get(f"/matches/{match_id}/join?key={key}")
    assert joined.status_code == 302
    cookie = phone_cookie(joined)
    assert "Max-Age=34560000" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain HTTP on the table's Wi-Fi
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    assert abs(expires - (datetime.now(UTC) + timedelta(days=400))) < timedelta(minutes=5)
    token = phone.get_cookie("phone").value
    assert key not in token and len(token) >= 43
    assert all(key not in line for line in joined.headers.getlist("Set-Cookie"))
    assert "keys" not in session_of(app, phone)  # nor in the session cookie, signed or not
    assert hand(phone, match_id, 1).status_code == 302


def test_the_phone_cookie_is_secure_behind_https(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'https.sqlite'}", SCOREKEEPER_HTTPS=True)
    answer = app.test_client().post(
        "/matches/new/poke", data={"seat-0": "Ann", "seat-1": "Bo"}, base_url="https://localhost"
    )
    assert answer.status_code == 302 and "; Secure" in phone_cookie(answer)


def test_a_phone_that_scores_gets_its_cookie_again_and_a_watcher_gets_none(app):
    table, watcher = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    assert "Max-Age=34560000" in phone_cookie(table.get(f"/matches/{match_id}"))  # 400 days from today
    assert "phone=" not in " ".join(watcher.get(f"/matches/{match_id}").headers.getlist("Set-Cookie"))


def test_45_matches_started_on_one_phone_can_all_still_be_scored(app):
    table = app.test_client()
    started = [start_on_page(table) for _ in range(45)]
    for match_id in started:
        assert "Record hand 1" in text(table.get(f"/matches/{match_id}")), match_id
    assert hand(table, started[0], 1).status_code == 302  # the oldest, 44 matches later
    assert hand(table, started[-1], 1).status_code == 302
    assert hand_count(table, started[0]) == hand_count(table, started[-1]) == 1
    assert len(table.get_cookie("phone").value) < 100  # one token, whatever the number of matches


def test_a_phone_whose_session_was_cleared_still_scores_and_one_whose_phone_cookie_went_only_watches(app):
    table = app.test_client()
    match_id = start_on_page(table)
    table.delete_cookie("session")
    assert hand(table, match_id, 1).status_code == 302
    token = table.get_cookie("phone").value
    table.delete_cookie("phone")
    refused = hand(table, match_id, 2)
    assert refused.status_code == 403 and "table code" in text(refused)
    table.set_cookie("phone", token)  # the browser restored it: the match is still this phone's
    assert hand(table, match_id, 2).status_code == 302
    assert hand_count(table, match_id) == 2


def test_keys_an_older_version_kept_in_the_session_become_holds_on_the_next_visit(app):
    script = Actions(app.test_client())
    kept = script.start("court_piece", FOUR)
    other = script.start("court_piece", ["Ed", "Flo", "Gus", "Hal"])
    gone = script.start("poke", ["Ann", "Bo"])
    script.write("DELETE", gone)
    phone = app.test_client()
    with phone.session_transaction() as old_session:
        old_session["keys"] = {str(kept): script.keys[kept], str(other): "not-its-key", str(gone): script.keys[gone]}
    home = phone.get("/")
    assert "phone=" in " ".join(home.headers.getlist("Set-Cookie"))
    mine = scored_here(text(home))
    assert f"/matches/{kept}" in mine and f"/matches/{other}" not in mine
    assert "keys" not in session_of(app, phone)  # the keys left the cookie
    assert holds(app, phone) == [kept]
    assert hand(phone, kept, 1).status_code == 302
    assert hand(phone, other, 1).status_code == 403 and hand_count(phone, other) == 0


def test_a_scoring_phone_whose_first_visit_is_a_write_is_not_refused_by_the_move(app):
    script = Actions(app.test_client())
    match_id = script.start("court_piece", FOUR)
    phone = app.test_client()
    with phone.session_transaction() as old_session:
        old_session["keys"] = {str(match_id): script.keys[match_id]}
    assert hand(phone, match_id, 1).status_code == 302
    assert hand_count(phone, match_id) == 1


# -- the table code -------------------------------------------------------------------------------------


def test_the_table_code_lets_another_phone_score_the_match(app):
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    code = code_on(text(table.get(f"/matches/{match_id}")))
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{2}", code)
    watching = text(partner.get(f"/matches/{match_id}"))
    assert "Score from this phone" in watching and "Record hand" not in watching and code not in watching
    typed = code.replace("-", "").lower()  # as a thumb types it
    claimed = partner.post(f"/matches/{match_id}/claim", data={"code": f" {typed[:5]} {typed[5:]} "})
    assert claimed.status_code == 303 and claimed.headers["Location"] == f"/matches/{match_id}"
    page = text(partner.get(f"/matches/{match_id}"))
    assert "This phone can now score the match." in page and "Record hand 1" in page
    assert hand(partner, match_id, 1).status_code == 302 and hand_count(partner, match_id) == 1
    assert f"/matches/{match_id}" in scored_here(text(partner.get("/")))


def test_the_share_page_shows_the_same_code_and_its_link_carries_it(app):
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    code = code_on(text(table.get(f"/matches/{match_id}")))
    share = text(table.get(f"/matches/{match_id}/share"))
    assert f'<p class="table-code"><strong>{code}</strong></p>' in share
    assert re.search(rf'value="http://localhost/matches/{match_id}/join\?code={code}"', share)
    assert partner.get(f"/matches/{match_id}/join?code={code.lower()}").status_code == 302
    assert hand(partner, match_id, 1).status_code == 302


def test_each_match_has_its_own_code_and_codes_follow_the_secret(app, tmp_path):
    table = app.test_client()
    first, second = start_on_page(table), start_on_page(table)
    codes = [code_on(text(table.get(f"/matches/{match_id}"))) for match_id in (first, second)]
    assert codes[0] != codes[1]
    partner = app.test_client()
    refused = partner.post(f"/matches/{first}/claim", data={"code": codes[1]})
    assert refused.status_code == 403 and hand(partner, first, 1).status_code == 403
    app.config["SECRET_KEY"] = "another secret"
    assert code_on(text(table.get(f"/matches/{first}"))) not in codes  # a new secret, new codes
    assert hand(table, first, 1).status_code == 302  # the phones holding it keep it


@pytest.mark.parametrize(
    "typed, status, says",
    [
        ("", 422, "A table code is 10 letters and digits"),
        ("K7QX-M4RP", 422, "A table code is 10 letters and digits"),
        ("K7QX-M4RP-2O", 422, "there is no 0, O, 1, I or L"),
        ("<script>alert(1)</script>", 422, "A table code is 10 letters and digits"),
        ("x" * 5000, 422, "A table code is 10 letters and digits"),
    ],
)
def test_what_cannot_be_a_code_is_refused_with_a_message_and_nothing_changes(app, typed, status, says):
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    answer = partner.post(f"/matches/{match_id}/claim", data={"code": typed})
    page = text(answer)
    assert answer.status_code == status and says in page
    assert "<script>alert" not in answer.get_data(as_text=True)  # shown back as text, never as markup
    assert '<details class="claim" open>' in page and 'aria-invalid="true"' in page  # the form, open again
    assert holds(app) == [match_id] and holds(app, partner) == []  # the table's phone only
    assert hand(partner, match_id, 1).status_code == 403 and hand_count(partner, match_id) == 0


def test_a_wrong_code_is_refused_with_a_message_and_nothing_changes(app):
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    code = code_on(text(table.get(f"/matches/{match_id}")))
    wrong = code[:-1] + ("2" if code[-1] != "2" else "3")
    answer = partner.post(f"/matches/{match_id}/claim", data={"code": wrong})
    page = text(answer)
    assert answer.status_code == 403 and "not this match's table code" in page and "Record hand" not in page
    assert f'value="{wrong}"' in page  # kept, to fix a letter
    link = partner.get(f"/matches/{match_id}/join?code={wrong}")
    assert link.status_code == 403 and "not this match's table code" in text(link)
    assert partner.get_cookie("phone") is None and holds(app) == [match_id]
    assert hand(partner, match_id, 1).status_code == 403 and hand_count(partner, match_id) == 0


def test_a_claim_of_no_such_match_is_a_404(app):
    answer = app.test_client().post("/matches/999/claim", data={"code": "K7QX-M4RP-2H"})
    assert answer.status_code == 404


@pytest.fixture(params=DATABASES)
def limited(request, tmp_path):
    """Rate limits on: three wrong codes a minute per address, writes as generous as a table needs."""
    app = make_app(
        database_url(request.param, tmp_path),
        RATELIMIT_ENABLED=True,
        SCOREKEEPER_TABLE_CODE_LIMIT="3 per minute",
        SCOREKEEPER_WRITE_LIMIT="100 per minute",
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_flood_of_wrong_codes_is_refused_and_nothing_changes(limited):
    table, guesser = limited.test_client(), limited.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    match_id = start_on_page(table)
    code = code_on(text(table.get(f"/matches/{match_id}")))
    guesses = [f"2222-2222-2{letter}" for letter in "23456789"]
    answers = [guesser.post(f"/matches/{match_id}/claim", data={"code": guess}) for guess in guesses if guess != code]
    assert [answer.status_code for answer in answers[:3]] == [403, 403, 403]
    assert {answer.status_code for answer in answers[3:]} == {429}
    assert "Too many wrong table codes from here" in text(answers[-1])
    assert guesser.get(f"/matches/{match_id}/join?code=2222-2222-22").status_code == 429  # the link too
    assert guesser.post(f"/matches/{match_id}/claim", data={"code": code}).status_code == 429  # even the right one
    assert holds(limited) == [match_id] and hand(guesser, match_id, 1).status_code == 403
    partner = limited.test_client()  # another address: its own count
    partner.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert partner.post(f"/matches/{match_id}/claim", data={"code": code}).status_code == 303
    assert hand(partner, match_id, 1).status_code == 302


def test_a_burst_of_codes_sent_at_once_gets_no_more_than_the_limit_judged(limited):
    """Each code is counted before it is judged: twenty guesses released together, three judged."""
    table = limited.test_client()
    match_id = start_on_page(table)
    start = threading.Barrier(20)
    statuses: list[int] = []

    def guess(number: int) -> None:
        guesser = limited.test_client()
        guesser.environ_base["REMOTE_ADDR"] = "192.0.2.9"
        start.wait()
        statuses.append(
            guesser.post(f"/matches/{match_id}/claim", data={"code": f"2222-2222-{number:02d}"}).status_code
        )

    threads = [threading.Thread(target=guess, args=(number,)) for number in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses).count(429) == 17 and len(statuses) == 20, statuses


# -- the address on the Share page ---------------------------------------------------------------------


def share_page(client, match_id: int, **environ) -> str:
    answer = client.get(f"/matches/{match_id}/share", base_url="http://127.0.0.1:5000", environ_overrides=environ)
    assert answer.status_code == 200
    return text(answer)


def started_on_this_computer(app) -> tuple:
    table = app.test_client()
    return table, start_on_page(table, base_url="http://127.0.0.1:5000")


def test_served_on_every_interface_the_share_page_gives_the_lan_address(app, monkeypatch):
    monkeypatch.setattr(phones, "lan_address", lambda: TABLE_WIFI)
    app.config["TRUSTED_HOSTS"].append(TABLE_WIFI)  # as `make run HOST=0.0.0.0` trusts it
    table, match_id = started_on_this_computer(app)
    page = share_page(table, match_id, SERVER_NAME="0.0.0.0")
    assert f'value="http://{TABLE_WIFI}:5000/matches/{match_id}/watch"' in page
    assert re.search(rf'value="http://{TABLE_WIFI}:5000/matches/{match_id}/join\?code=[2-9A-Z-]+"', page)
    assert page.count("<svg") == 2 and "cannot open" not in page and "127.0.0.1" not in page


def test_served_on_every_interface_under_a_host_name_it_does_not_answer_to_the_page_says_so(app, monkeypatch):
    monkeypatch.setattr(phones, "lan_address", lambda: TABLE_WIFI)
    table, match_id = started_on_this_computer(app)
    page = share_page(table, match_id, SERVER_NAME="0.0.0.0")
    assert f"the server does not answer to {TABLE_WIFI}" in page and "make run HOST=0.0.0.0" in page
    assert "<svg" not in page  # no QR code that cannot work
    assert f"http://{TABLE_WIFI}:5000/matches/{match_id}/watch" in page


def test_served_on_127_0_0_1_only_the_share_page_says_other_phones_cannot_reach_it_and_how_to_fix_it(app):
    table, match_id = started_on_this_computer(app)
    page = share_page(table, match_id, SERVER_NAME="127.0.0.1", SERVER_SOFTWARE="Werkzeug/3.1")
    assert "Other phones cannot open these links: this server listens on this computer only." in page
    assert "<code>make run HOST=0.0.0.0</code>" in page and "<svg" not in page
    served = share_page(table, match_id, SERVER_NAME="127.0.0.1", SERVER_SOFTWARE="gunicorn/27.0.1")
    assert "<code>make serve HOST=0.0.0.0</code>" in served


def test_on_no_network_the_share_page_says_so(app, monkeypatch):
    monkeypatch.setattr(phones, "lan_address", lambda: None)
    table, match_id = started_on_this_computer(app)
    page = share_page(table, match_id, SERVER_NAME="0.0.0.0")
    assert "this computer is on no network" in page and "<svg" not in page


def test_scorekeeper_public_url_sets_the_shared_address_and_is_answered(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_PUBLIC_URL", "https://scores.example.org/")
    app = make_app(f"sqlite:///{tmp_path / 'public.sqlite'}")
    table, match_id = started_on_this_computer(app)
    page = share_page(table, match_id, SERVER_NAME="127.0.0.1")
    assert f'value="https://scores.example.org/matches/{match_id}/watch"' in page
    assert page.count("<svg") == 2 and "cannot open" not in page
    assert app.test_client().get("/rules/", base_url="https://scores.example.org").status_code == 200


def test_the_lan_address_is_one_of_this_computers_own_and_not_loopback():
    address = phones.lan_address()
    if address is None:
        pytest.skip("this machine is on no network")
    assert not address.startswith("127.")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as own:
        own.bind((address, 0))  # only an address of this computer can be bound


# -- the home page -----------------------------------------------------------------------------------


@contextmanager
def statements(app):
    """The SQL statements run inside the block."""
    ran: list[str] = []

    def note(conn, cursor, statement, parameters, context, executemany):
        ran.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_the_home_page_opens_on_this_phones_matches_then_the_others_then_every_game(app):
    mine_phone, other_phone = app.test_client(), app.test_client()
    mine = start_on_page(mine_phone)
    others = start_on_page(other_phone)
    with statements(app) as ran:
        page = text(mine_phone.get("/"))
    assert len(ran) <= 2, ran  # the lists, then their seats
    scored_here = page.index("Scored on this phone")
    elsewhere = page.index("At the other tables")
    new_match = page.index("New match")
    assert scored_here < page.index(f'href="/matches/{mine}"') < elsewhere < page.index(f'href="/matches/{others}"')
    assert page.index(f'href="/matches/{others}"') < new_match
    starts = re.findall(r'href="/matches/new/(\w+)"', page[new_match:])
    assert starts == list(GAMES)  # every game one tap away
    fresh = text(app.test_client().get("/"))
    assert "Scored on this phone" not in fresh and fresh.index("At the tables") < fresh.index("New match")


def test_the_hold_is_read_with_the_match_not_in_a_round_trip_of_its_own(app):
    table = app.test_client()
    match_id = start_on_page(table)
    for request in (lambda: table.get(f"/matches/{match_id}"), lambda: hand(table, match_id, 1)):
        with statements(app) as ran:
            assert request().status_code in (200, 302)
        holds_read = [statement for statement in ran if "phone_hold" in statement]
        assert len(holds_read) == 1 and 'FROM "match"' in holds_read[0].replace("FROM match", 'FROM "match"'), ran
        assert sum('FROM "match"' in statement.replace("FROM match", 'FROM "match"') for statement in ran) == 1, ran
    assert hand_count(table, match_id) == 1


def test_a_phone_at_a_new_server_opens_on_new_match(client):
    page = text(client.get("/"))
    assert '<h1 id="new-match">New match</h1>' in page and "in play" not in page.lower()


def match_updates(ran: list[str]) -> int:
    return sum(re.match(r'UPDATE "?match"? ', statement) is not None for statement in ran)


def test_a_finish_and_an_edit_write_the_match_row_once_and_read_its_hands_once(app, client, actions):
    match_id = actions.start("court_piece", FOUR)
    actions.hand(match_id, {"outcome": "first_seven", "side": 0})
    actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
    with statements(app) as ran:
        finished = actions.finish(match_id)
    assert match_updates(ran) == 1, ran  # the claim carries the result of the table's call
    with statements(app) as ran:
        edited = actions.edit(match_id, 1, {"outcome": "first_seven", "side": 1})
    assert match_updates(ran) == 1, ran  # the claim carries the replayed state and result
    rows_read = [statement for statement in ran if statement.startswith("SELECT hand.id")]
    assert len(rows_read) == 1, ran  # the hands' rows read once for the write (the answer reads its own columns)
    assert (finished["winner"], edited["winner"]) == (0, 1) and edited[
        "status"
    ] == "finished"  # who won follows the edit
    with statements(app) as ran:
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert not any(
        "hand.note" in statement and "hand.state" not in statement and "hand.record" not in statement
        for statement in ran
    ), ran  # each hand's note comes with its row
    assert "Bo &amp; Di" in page


# -- a token the server did not issue (issue 38, item 6) --------------------------------------------


def test_a_phone_token_planted_from_elsewhere_is_never_adopted(app):
    """Someone puts a well-formed token of their own into a phone before it starts a match: the
    server issues the phone its own, so the planter can score none of the phone's matches."""
    planted = "p" * 43
    phone = app.test_client()
    phone.set_cookie("phone", planted)
    match_id = start_on_page(phone)
    assert phone.get_cookie("phone").value.rsplit(".", 1)[0] != planted
    planter = app.test_client()
    planter.set_cookie("phone", planted)
    assert hand(planter, match_id, 1).status_code == 403 and hand(phone, match_id, 1).status_code == 302


def test_a_token_from_before_tokens_were_signed_keeps_its_matches_under_a_signed_one(app):
    phone = app.test_client()
    match_id = start_on_page(phone)
    bare = phone.get_cookie("phone").value.rsplit(".", 1)[0]
    with app.app_context():  # as an older version issued it: the token itself, unsigned
        assert [hold.match_id for hold in db.session.scalars(db.select(PhoneHold))] == [match_id]
    phone.set_cookie("phone", bare)
    assert phone.get(f"/matches/{match_id}").status_code == 200
    assert "." in phone.get_cookie("phone").value and phone.get_cookie("phone").value.split(".")[0] != bare
    assert hand(phone, match_id, 1).status_code == 302


def test_a_token_this_server_signed_for_another_phone_and_planted_gains_none_of_the_phones_matches(app):
    planter = app.test_client()
    start_on_page(planter)  # the planter's own phone: a token the server signed, holding a match
    planted = planter.get_cookie("phone").value
    phone = app.test_client()
    phone.set_cookie("phone", planted)
    match_id = start_on_page(phone)
    assert phone.get_cookie("phone").value != planted  # a new token, issued as the phone gained the match
    assert hand(planter, match_id, 1).status_code == 403 and hand(phone, match_id, 1).status_code == 302


def test_a_page_showing_the_table_code_is_kept_by_no_cache_and_a_watchers_page_shows_none(app):
    table, watcher = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    scoring = table.get(f"/matches/{match_id}")
    assert code_on(text(scoring)) and scoring.headers["Cache-Control"] == "no-store"
    assert scoring.headers["Scorekeeper-Offline-Copy"] == "without-table-code"
    watching = watcher.get(f"/matches/{match_id}")
    assert "no-store" not in watching.headers.get("Cache-Control", "") and 'class="table-code"' not in text(watching)
