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


def board_on_its_page(page: str) -> str:
    """The scoreboard of a match page (its "Score" section, below its hidden heading)."""
    return re.search(r'id="score-heading"[^>]*>[^<]*</h2>\n(.*?)\n?</section>', page, re.S).group(1)


def board_on_the_screen(screen: str, match_id: int) -> str:
    """The scoreboard of a match's tile on a big screen (below its tile's heading)."""
    return re.search(rf'<h3 id="board-{match_id}">.*?</h3>\n(.*?)\n?</article>', screen, re.S).group(1)


def test_the_big_screen_shows_each_board_in_full_as_its_match_page_does_and_no_table_code(app, client, actions):
    night = 20261127
    court_piece = start_on(app, actions, night, "court_piece", ["Ann", "Bo", "Cy", "Di"])
    for _ in range(3):  # Ann & Cy win three hands in a row: their streak runs
        actions.hand(court_piece, {"outcome": "tricks", "tricks": [8, 5]})
    poke = start_on(app, actions, night, "poke", ["Eve", "Fay"])  # Poke's own board: its sheet
    actions.hand(poke, {"tricks": [1, 4], "draws": [0, 1], "better_hand": 1, "poker_hand": "four_of_a_kind"})
    screen = client.get(f"/nights/{night}/screen").get_data(as_text=True)
    for match_id in (court_piece, poke):
        page = client.get(f"/matches/{match_id}").get_data(as_text=True)
        assert board_on_the_screen(screen, match_id) == board_on_its_page(page)
    assert "Streak: Ann &amp; Cy: 3 of 7" in board_on_the_screen(screen, court_piece)
    assert "Trumps: <b>" in board_on_the_screen(screen, court_piece)
    assert '<table class="sheet">' in board_on_the_screen(screen, poke)
    # The scoring phone's page shows the table code; the big screen, public, never shows it or the key.
    code = re.search(r'class="table-code"[^>]*>.*?<strong>([^<]+)</strong>', page, re.S).group(1)
    assert code in page and code not in screen and code.replace("-", "") not in screen
    assert not any(key in screen for key in actions.keys.values())


def test_the_big_screen_holds_twelve_boards_each_in_its_place_and_the_finished_where_there_is_room(
    app, client, actions
):
    night = 20261127
    finished = start_on(app, actions, night, "schnapsen", ["Ann", "Bo"], target=1)
    actions.hand(finished, {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    playing = [start_on(app, actions, night, "schnapsen", ["Cy", "Di"], target=3) for _ in range(13)]
    actions.hand(playing[0], {"ending": "out", "declarer": 0, "points": [66, 40], "tricks": [3, 2]})
    screen = client.get(f"/nights/{night}/screen").get_data(as_text=True)
    # The twelve latest to move, in the order they started (a board keeps its place as hands come
    # in); the one longest without a hand is left to the night's page.
    assert [int(n) for n in re.findall(r'<h3 id="board-(\d+)">', screen)] == [playing[0], *playing[2:]]
    assert 'class="tv tiles-12"' in screen
    assert "Latest finished" not in screen and "And 2 more matches" in screen
    for match_id in playing[2:]:
        actions.hand(match_id, {"ending": "out", "declarer": 0, "points": [80, 0], "tricks": [5, 0]})
    few = client.get(f"/nights/{night}/screen").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'<h3 id="board-(\d+)">', few)] == playing[:2]
    assert len(re.findall(r'<li><a href="/matches/\d+">', few)) == 6  # two boards leave room for six finished
    assert "Latest finished" in few and "And 6 more matches" in few
