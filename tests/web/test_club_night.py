"""The smaller holes a club night found (issue 19): where a redirect may lead, what a page that
shows a key lets a browser keep, cookies under HTTPS, a busy pool, a form whose hidden field was
changed, and what the live view costs the database."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.extensions import db
from tests.conftest import DATABASES, database_url, make_app
from tests.web.test_write_keys import hand, start_on_page

HOSTILE_NEXT = [
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\\/evil.example",
    " /evil",
    "",
]


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_a_setting_never_redirects_to_another_site(client, target):
    answer = client.post("/theme", data={"theme": "dark", "next": target})
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/"


def test_a_setting_returns_to_the_page_it_came_from(client):
    answer = client.post("/theme", data={"theme": "dark", "next": "/matches?game=omi"})
    assert answer.headers["Location"] == "/matches?game=omi"


def test_pages_that_show_a_key_are_not_kept_by_the_browser(app):
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    share = table.get(f"/matches/{match_id}/share")
    assert share.status_code == 200 and share.headers["Cache-Control"] == "no-store"
    created = table.post("/api/v1/matches", json={"game": "omi", "players": ["A", "B", "C", "D"]})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    key = created.json["key"]
    joined = partner.get(f"/matches/{created.json['id']}/join?key={key}")
    assert joined.status_code == 302 and joined.headers["Cache-Control"] == "no-store"


def test_every_page_opens_no_window_to_another_origin(client):
    for path in ("/", "/rules/", "/matches", "/api/v1/matches"):
        assert client.get(path).headers["Cross-Origin-Opener-Policy"] == "same-origin", path


def test_every_cookie_is_secure_under_https(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'https.sqlite'}", SCOREKEEPER_HTTPS=True)
    phone = app.test_client()
    cookies = []
    match_id = start_on_page(phone)
    cookies += phone.post("/theme", data={"theme": "dark", "next": "/"}).headers.getlist("Set-Cookie")
    cookies += phone.post(
        f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "7", "expected": "1"}
    ).headers.getlist("Set-Cookie")
    assert cookies and all("; Secure" in cookie for cookie in cookies), cookies


@pytest.mark.parametrize("expected", ["abc", "1.5", "-"])
def test_a_hand_form_whose_hidden_number_was_changed_says_so_and_records_nothing(app, expected):
    table = app.test_client()
    match_id = start_on_page(table)
    answer = table.post(f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "8", "expected": expected})
    assert answer.status_code == 400
    assert "nothing was changed" in answer.get_data(as_text=True)
    assert table.get(f"/api/v1/matches/{match_id}").json["hands"] == []


def test_an_edit_whose_hidden_number_was_changed_says_so_and_keeps_the_hand(app):
    table = app.test_client()
    match_id = start_on_page(table)
    hand(table, match_id, 1, won=8)
    answer = table.post(
        f"/matches/{match_id}/hands/1/edit", data={"outcome": "tricks", "tricks-0": "3", "expected": "x"}
    )
    assert answer.status_code == 400
    assert "nothing was changed" in answer.get_data(as_text=True)
    assert table.get(f"/api/v1/matches/{match_id}").json["hands"][0]["record"]["tricks"] == [8, 5]


@pytest.fixture(params=DATABASES)
def one_connection(request, tmp_path):
    """An app whose pool holds a single connection and waits a fifth of a second for it."""
    app = make_app(
        database_url(request.param, tmp_path),
        SCOREKEEPER_POOL_SIZE=1,
        SCOREKEEPER_POOL_OVERFLOW=0,
        SCOREKEEPER_POOL_TIMEOUT=0.2,
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_request_that_finds_every_connection_taken_is_told_the_server_is_busy(one_connection):
    phone = one_connection.test_client()
    match_id = start_on_page(phone)
    with one_connection.app_context(), db.engine.connect():  # another request holds the only connection
        page = phone.get(f"/matches/{match_id}")
        api = phone.get(f"/api/v1/matches/{match_id}")
    assert page.status_code == 503 and "busy" in page.get_data(as_text=True)
    assert page.headers["Retry-After"]
    assert api.status_code == 503 and "busy" in api.json["error"]
    assert phone.get(f"/matches/{match_id}").status_code == 200  # and serves again once it is free


def watch_for_a_second(phone, match_id: int) -> None:
    assert "event: change" not in phone.get(f"/matches/{match_id}/events?version=0&wait=1").get_data(as_text=True)


def test_the_live_view_reads_the_database_once_a_tick_whatever_the_number_of_watchers(app):
    match_id = start_on_page(app.test_client())
    hub = app.extensions["live"]
    looks = {}
    for watchers in (1, 40):
        phones = [
            threading.Thread(target=watch_for_a_second, args=(app.test_client(), match_id)) for _ in range(watchers)
        ]
        before = hub.looks
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        looks[watchers] = hub.looks - before
    assert 0 < looks[40] <= looks[1] + 2  # one second of ticks either way, not one look per phone


def test_watching_a_match_id_no_database_can_hold_is_not_found_and_breaks_no_other_watcher(app):
    phone = app.test_client()
    match_id = start_on_page(phone)
    assert app.test_client().get(f"/matches/{10**30}/events?version=1").status_code == 404
    hand(phone, match_id, 1)
    assert "event: change" in phone.get(f"/matches/{match_id}/events?version=0&wait=2").get_data(as_text=True)


def test_a_house_rule_on_by_default_can_be_switched_off_on_the_new_match_form(app):
    table = app.test_client()
    seats = {f"seat-{i}": name for i, name in enumerate(["Ann", "Bo", "Cy", "Di"])}
    started = table.post("/matches/new/omi", data=seats)  # the 4-4 bonus box left unticked
    match_id = int(started.headers["Location"].rsplit("/", 1)[1])
    assert table.get(f"/api/v1/matches/{match_id}").json["options"]["tie_bonus_on_all_eight"] is False


def test_a_house_rule_ticked_at_the_start_can_be_unticked_on_the_set_up_page(app):
    table = app.test_client()
    seats = {f"seat-{i}": name for i, name in enumerate(["Ann", "Bo", "Cy"])}
    started = table.post("/matches/new/toepen", data={**seats, "opt-elimination": "on"})
    match_id = int(started.headers["Location"].rsplit("/", 1)[1])
    assert table.get(f"/api/v1/matches/{match_id}").json["options"]["elimination"] is True
    assert table.post(f"/matches/{match_id}/setup", data=seats).status_code == 302  # the box unticked
    assert table.get(f"/api/v1/matches/{match_id}").json["options"]["elimination"] is False
