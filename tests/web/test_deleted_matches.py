"""A deleted match leaves nothing behind that a table could take for something else: its number is
never given to another match, and a player who sat only at it is gone from the players list."""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import Player


def names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(db.select(Player.name)))


def test_a_deleted_matchs_number_is_never_given_to_another(app, actions):
    first = actions.start("schnapsen", ["Ann", "Bo"])
    newest = actions.start("schnapsen", ["Ann", "Bo"])
    assert actions.write("DELETE", newest).status_code == 204
    again = actions.start("calabrasella", ["Ann", "Bo", "Cy"])
    assert again == newest + 1 and first < newest
    assert actions.client.get(f"/api/v1/matches/{newest}").status_code == 404  # a kept link shows no other table


def test_a_player_who_sat_only_at_a_deleted_match_goes_with_it(app, actions, client):
    kept = actions.start("schnapsen", ["Ann", "Bo"])
    ghost = actions.start("schnapsen", ["Ann", "T1"])
    assert actions.write("DELETE", ghost).status_code == 204
    assert names(app) == ["Ann", "Bo"]
    assert "T1" not in client.get("/players/").text
    assert actions.match(kept)["players"] == ["Ann", "Bo"]


def test_a_player_set_up_out_of_their_only_match_goes_too(app, actions):
    match_id = actions.start("schnapsen", ["Ann", "A"])
    assert actions.write("PATCH", match_id, json={"players": ["Ann", "Bo"]}).status_code == 200
    assert names(app) == ["Ann", "Bo"]
    again = actions.start("schnapsen", ["A", "Bo"])  # the name is free to sit again, as a new player
    assert actions.match(again)["players"] == ["A", "Bo"] and names(app) == ["A", "Ann", "Bo"]


def test_a_player_whose_only_match_was_finished_then_taken_back_and_deleted_goes_too(app, actions):
    """A finish taken back leaves the pairs' tally of their matches together at zero: it goes with them."""
    match_id = actions.start("schnapsen", ["Ann", "Bo"], target=1)
    actions.hand(match_id, {"ending": "out", "declarer": 0, "points": [70, 20], "tricks": [4, 1]})
    assert actions.write("DELETE", match_id).status_code == 204
    assert names(app) == []
