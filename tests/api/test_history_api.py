"""The history in the API (issue 24): `GET /api/v1/players/<id>` (a player's story per game: the
record, the rating, streaks, hands and the game's own statistics) and `GET /api/v1/nights/<id>` (a
night's standings and its matches, a page at a time)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Match, Player

COURT = {"outcome": "first_seven", "side": 0, "all_thirteen": False}


def player_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(db.select(Player.id).where(Player.name == name))


def test_a_players_story_per_game(app, actions):
    for _ in range(2):
        match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"], courts_to_win=1)
        actions.hand(match_id, {"outcome": "tricks", "tricks": [9, 4]})
        actions.hand(match_id, COURT)
    actions.start("schnapsen", ["Ann", "Eve"])  # in play: no story yet
    answer = actions.client.get(f"/api/v1/players/{player_id(app, 'Ann')}")
    assert answer.status_code == 200
    ann = answer.json
    assert (ann["name"], ann["played"], [game["game"] for game in ann["games"]]) == ("Ann", 3, ["court_piece"])
    court = ann["games"][0]
    assert {
        key: court[key]
        for key in (
            "matches",
            "won",
            "shared",
            "lost",
            "drawn",
            "games_won",
            "games_lost",
            "hands",
            "average_hand",
            "best_hand",
            "streak",
            "best_streak",
        )
    } == {
        "matches": 2,
        "won": 2,
        "shared": 0,
        "lost": 0,
        "drawn": 0,
        "games_won": 2,
        "games_lost": 0,
        "hands": 4,
        "average_hand": 0.5,
        "best_hand": 1,
        "streak": 2,
        "best_streak": 2,
    }
    rating = court["rating"]
    assert rating["mu"] > 25 and 0 < rating["sigma"] < 25 / 3 and rating["matches"] == 2 and rating["updating"] is False
    bo = actions.client.get(f"/api/v1/players/{player_id(app, 'Bo')}").json["games"][0]["rating"]
    assert bo["mu"] == pytest.approx(50 - rating["mu"]) and bo["sigma"] == pytest.approx(rating["sigma"])
    # Court Piece's own figures (declared in its module): a court a match, both hands of each in a row
    assert court["statistics"] == {
        "courts": {"keep": "total", "label": "Courts won", "matches": 2, "value": 2},
        "longest_run": {"keep": "most", "label": "Longest run of hands won", "matches": 2, "value": 2},
        "all_thirteen": {"keep": "total", "label": "Hands with all thirteen tricks", "matches": 2, "value": 0},
    }


@pytest.mark.parametrize(
    "path", ["/api/v1/players/999", "/api/v1/players/99999999999", "/api/v1/nights/20261399", "/api/v1/nights/7"]
)
def test_no_such_player_or_night_is_a_404_in_json(client, path):
    answer = client.get(path)
    assert answer.status_code == 404 and answer.json["error"] and answer.json["fields"] == {}


def test_a_nights_standings_and_its_matches_a_page_at_a_time(app, actions):
    made = []
    for side in (0, 1, 0):
        match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"], courts_to_win=1)
        actions.hand(match_id, {**COURT, "side": side})
        made.append(match_id)
    with app.app_context():
        db.session.execute(db.update(Match).values(night=20261127))
        db.session.commit()
    assert actions.client.post("/nights/20261127/name", data={"name": "Friday at the club"}).status_code == 302
    first = actions.client.get("/api/v1/nights/20261127?limit=2")
    assert first.status_code == 200
    night = first.json
    assert (night["id"], night["date"], night["name"]) == (20261127, "2026-11-27", "Friday at the club")
    assert [(row["player"], row["won"], row["lost"], row["points"]) for row in night["standings"]] == [
        ("Ann", 2, 1, 2.0),
        ("Cy", 2, 1, 2.0),
        ("Bo", 1, 2, 1.0),
        ("Di", 1, 2, 1.0),
    ]
    assert [match["id"] for match in night["matches"]] == made[::-1][:2]
    following = first.headers["Link"].split(";")[0].strip("<>")
    rest = actions.client.get(following).json
    assert [match["id"] for match in rest["matches"]] == made[:1] and "Link" not in actions.client.get(
        following
    ).headers
    assert actions.client.get("/api/v1/nights/20261127?limit=0").status_code == 422
    empty = actions.client.get("/api/v1/nights/20200101").json
    assert empty["matches"] == [] and empty["standings"] == [] and empty["name"] is None
