"""Game nights (issue 24): the matches started on one evening at the place gathered as a night (a
match after midnight still the evening's), named by the table if they like, with the night's
standings across its games and a big screen that follows every match of the night live."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from scorekeeper.extensions import db
from scorekeeper.history import nights, views
from scorekeeper.models import Match, Night

MADRID = ZoneInfo("Europe/Madrid")


@pytest.mark.parametrize(
    "moment, night",
    [
        ("2026-11-27T19:30:00+00:00", 20261127),  # Friday evening, 20:30 in Madrid
        ("2026-11-28T00:30:00+00:00", 20261127),  # 01:30 on Saturday: still Friday's night
        ("2026-11-28T05:30:00+00:00", 20261128),  # 06:30: a new day, a new night
        ("2026-07-10T03:30:00+00:00", 20260709),  # summer time: 05:30 in Madrid, the night before
        ("2026-07-10T04:30:00+00:00", 20260710),  # 06:30 in Madrid
    ],
)
def test_a_night_runs_from_six_in_the_evening_place_until_six_the_next_morning(moment, night):
    assert nights.night_of(datetime.fromisoformat(moment), MADRID) == night


def test_a_night_is_called_by_its_date():
    assert nights.title(20261127) == "Friday 27 November 2026"
    assert nights.day_of(20261399) is None


def start_on(app, actions, night: int, game: str, names: list[str], **options) -> int:
    """A match started on `night` (its night set as the evening it was started on would have)."""
    match_id = actions.start(game, names, **options)
    with app.app_context():
        db.session.execute(db.update(Match).where(Match.id == match_id).values(night=night))
        db.session.commit()
    return match_id


def court(side: int) -> dict:
    return {"outcome": "first_seven", "side": side, "all_thirteen": False}


def test_a_match_belongs_to_the_night_it_was_started_on_in_the_places_time_zone(app, client, actions):
    app.config["SCOREKEEPER_TIME_ZONE"] = "Pacific/Kiritimati"  # UTC+14: "tonight" is rarely UTC's date
    match_id = actions.start("schnapsen", ["Ann", "Bo"])
    tonight = nights.night_of(datetime.now(UTC), ZoneInfo("Pacific/Kiritimati"))
    with app.app_context():
        assert db.session.get(Match, match_id).night == tonight
    assert client.get("/nights/tonight").headers["Location"].endswith(f"/nights/{tonight}")
    assert f'href="/matches/{match_id}"' in client.get(f"/nights/{tonight}").get_data(as_text=True)


def test_the_nights_standings_count_every_finished_match_of_its_games_together(app, client, actions):
    friday = 20261127
    for side in (0, 0, 1):
        match_id = start_on(app, actions, friday, "court_piece", ["Ann", "Bo", "Cy", "Di"], courts_to_win=1)
        actions.hand(match_id, court(side))
    schnapsen = start_on(app, actions, friday, "schnapsen", ["Bo", "Eve"], target=1)
    actions.hand(schnapsen, {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    start_on(app, actions, friday, "schnapsen", ["Ann", "Eve"])  # in play: counts nothing yet
    other_night = start_on(app, actions, 20261120, "court_piece", ["Ann", "Bo", "Cy", "Di"], courts_to_win=1)
    actions.hand(other_night, court(1))
    page = client.get(f"/nights/{friday}").get_data(as_text=True)
    table = re.findall(r'<th scope="row">(\w+)</th><td>([\d.]+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>', page)
    # By points, then wins, then fewer matches played (Eve, Di and Bo each won once, in 1, 3 and 4 matches)
    assert table == [
        ("Ann", "2", "2", "1", "0"),
        ("Cy", "2", "2", "1", "0"),
        ("Eve", "1", "1", "0", "0"),
        ("Di", "1", "1", "2", "0"),
        ("Bo", "1", "1", "3", "0"),
    ]
    assert len(re.findall(r'href="/matches/\d+"', page)) == 5 and f'href="/matches/{other_night}"' not in page
    assert "Friday 27 November 2026" in page


def test_the_table_names_the_night_and_a_bad_name_changes_nothing(app, client, actions):
    start_on(app, actions, 20261127, "schnapsen", ["Ann", "Bo"])
    named = client.post("/nights/20261127/name", data={"name": "  Friday   at the club "})
    assert named.status_code == 302
    assert "<b>Friday at the club</b>" in client.get("/nights").get_data(as_text=True)
    refused = client.post("/nights/20261127/name", data={"name": "x" * 61})
    assert refused.status_code == 422
    assert "A night&#39;s name can be 60 printable characters at most." in refused.get_data(as_text=True)
    assert "<h1>Friday at the club" in client.get("/nights/20261127").get_data(as_text=True)
    assert client.post("/nights/20261127/name", data={"name": ""}).status_code == 302
    with app.app_context():
        assert db.session.get(Night, 20261127) is None
    assert client.post("/nights/20261399/name", data={"name": "Never"}).status_code == 404


def test_the_nights_are_a_page_at_a_time_latest_first(app, client, actions, monkeypatch):
    monkeypatch.setattr(views, "NIGHTS_PAGE", 2)
    for night in (20261106, 20261113, 20261113, 20261120):
        start_on(app, actions, night, "schnapsen", ["Ann", "Bo"])
    first = client.get("/nights").get_data(as_text=True)
    assert re.findall(r'href="/nights/(\d+)"><b>', first) == ["20261120", "20261113"]
    assert "2 matches" in first
    older = re.search(r'href="(/nights\?before=\d+)"', first).group(1)
    assert re.findall(r'href="/nights/(\d+)"><b>', client.get(older).get_data(as_text=True)) == ["20261106"]


def test_the_big_screen_shows_every_match_in_play_and_follows_them_live(app, client, actions):
    night = 20261127
    playing = start_on(app, actions, night, "court_piece", ["Ann", "Bo", "Cy", "Di"])
    actions.hand(playing, {"outcome": "tricks", "tricks": [8, 5]})
    start_on(app, actions, night, "schnapsen", ["Eve", "Fay"])
    page = client.get(f"/nights/{night}/screen").get_data(as_text=True)
    assert "Court Piece #" in page and "Schnapsen #" in page and "Ann &amp; Cy" in page
    seen = re.search(r'data-watch="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert 'src="/static/watch.js"' in page and '<meta http-equiv="refresh" content="30">' in page

    behind = client.get(seen.replace("seen=", "seen=0"), buffered=False)
    assert b"event: change" in b"".join(behind.response)  # the screen is behind already: at once
    waiting = client.get(seen, buffered=False)
    stream = iter(waiting.response)
    assert next(stream) == b": watching\n\n"
    actions.hand(playing, {"outcome": "tricks", "tricks": [6, 7]})
    assert next(stream) == b"event: change\ndata: \n\n"  # the hub saw the version move
    waiting.close()


def test_a_night_that_is_no_date_is_not_found(client):
    assert client.get("/nights/20261399").status_code == 404
    assert client.get("/nights/20261399/screen").status_code == 404
