"""POST /matches/<id>/finish: a match played for time ends when the table calls it, and can still be
corrected; a game with a natural end refuses the call."""

from __future__ import annotations

from .contract import (
    A_WINS,
    API,
    B_WINS,
    FOUR,
    GOOD_HAND,
    A,
    B,
    check_match_shape,
    get_match,
    play,
    post_hand,
    refused,
    scores,
    start,
)


def test_finish_court_piece_played_for_time_gives_the_winner_by_courts(client):
    match = start(client, "court_piece")
    play(client, match["id"], A_WINS, {"outcome": "first_seven", "side": B}, {"outcome": "revoke", "side": A})
    answer = client.post(f"{API}/matches/{match['id']}/finish")
    assert answer.status_code == 200, answer.json
    final = answer.json
    check_match_shape(final, "court_piece", FOUR)
    assert scores(final) == [0, 2]
    assert final["status"] == "finished" and final["winner"] == B and final["dealer"] is not None
    assert get_match(client, match["id"]) == final
    refused(post_hand(client, match["id"], A_WINS), 409)
    refused(client.post(f"{API}/matches/{match['id']}/finish"), 409)
    summary = next(item for item in client.get(f"{API}/matches").json if item["id"] == match["id"])
    assert summary["status"] == "finished" and summary["winner"] == B


def test_finish_court_piece_with_equal_courts_is_a_draw(client):
    for records in [[], [A_WINS, B_WINS], [{"outcome": "revoke", "side": A}, {"outcome": "first_seven", "side": A}]]:
        match = start(client, "court_piece")
        if records:
            play(client, match["id"], *records)
        answer = client.post(f"{API}/matches/{match['id']}/finish")
        assert answer.status_code == 200, answer.json
        final = answer.json
        assert final["status"] == "finished" and final["winner"] is None and final["dealer"] is not None, records


def test_a_called_match_can_still_be_corrected(client):
    match = start(client, "court_piece")
    play(client, match["id"], {"outcome": "revoke", "side": A})
    assert client.post(f"{API}/matches/{match['id']}/finish").json["winner"] == B
    after = client.put(f"{API}/matches/{match['id']}/hands/1", json={"record": {"outcome": "revoke", "side": B}}).json
    assert after["status"] == "finished" and after["winner"] == A and scores(after) == [1, 0]
    summary = next(item for item in client.get(f"{API}/matches").json if item["id"] == match["id"])
    assert summary["winner"] == A


def test_finish_is_refused_for_games_with_a_natural_end(client):
    for game, options in [("court_piece", {"courts_to_win": 3}), ("envite", {}), ("poke", {}), ("schnapsen", {})]:
        match = start(client, game, **options)
        play(client, match["id"], GOOD_HAND[game])
        seen = get_match(client, match["id"])
        refused(client.post(f"{API}/matches/{match['id']}/finish"), 409)
        assert get_match(client, match["id"]) == seen, game


def test_court_piece_with_courts_to_win_ends_by_itself(client):
    match = start(client, "court_piece", courts_to_win=2)
    body = play(client, match["id"], {"outcome": "revoke", "side": A}, {"outcome": "first_seven", "side": B})
    final = body["match"]
    assert final["status"] == "finished" and final["winner"] == B and final["dealer"] is not None
    refused(client.post(f"{API}/matches/{match['id']}/finish"), 409)
