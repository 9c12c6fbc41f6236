"""PUT and DELETE /matches/<id>/hands/<n>: an edit or a deletion replays every later hand, and one that
would make a later hand impossible is a 409 naming it, with nothing changed."""

from __future__ import annotations

from .contract import (
    A_WINS,
    API,
    B_WINS,
    ENVITE_FIVE,
    ENVITE_LYING_A,
    FOUR,
    GOOD_HAND,
    A,
    B,
    all_changes,
    check_match_shape,
    get_match,
    play,
    post_hand,
    refused,
    scores,
    start,
)

# -- PUT hands/<n> ----------------------------------------------------------------------------------


def test_edit_hand_2_of_5_replays_every_later_hand(client):
    match = start(client, "envite")
    before = play(client, match["id"], *ENVITE_FIVE)["match"]
    assert scores(before) == [8, 6]
    answer = client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": {"winner": B, "stake": 4}})
    assert answer.status_code == 200, answer.json
    after = answer.json
    check_match_shape(after, "envite", FOUR)
    assert [hand["record"] for hand in after["hands"]] == [ENVITE_FIVE[0], {"winner": B, "stake": 4}, *ENVITE_FIVE[2:]]
    assert all_changes(after) == [[2, 0], [0, 4], [0, 2], [2, 0], [0, 4]]
    assert scores(after) == [4, 10]
    assert after["dealer"] == before["dealer"]
    assert get_match(client, match["id"]) == after


def test_edit_changes_what_later_hands_score(client):
    # A wins seven in a row: a court at hand 7. Hand 2 won by B instead: no court at hand 7.
    match = start(client, "court_piece")
    before = play(client, match["id"], *[A_WINS] * 7)["match"]
    assert all_changes(before)[-1] == [1, 0]
    after = client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": B_WINS}).json
    assert all_changes(after) == [[0, 0]] * 7
    assert scores(after) == [0, 0]
    assert after["state"]["streak"] == {"side": A, "count": 5}


def test_edit_that_makes_a_later_forfeit_impossible_is_409_naming_that_hand(client):
    # Hand 3 is a forfeit by A lying down; with hand 2 won by B instead, A never lies down.
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_LYING_A, {"forfeit": True}, {"winner": B})
    seen = get_match(client, match["id"])
    body = refused(client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": {"winner": B}}), 409)
    assert body["fields"] == {"number": "hand 3"}, body
    assert "3" in body["error"], body
    assert get_match(client, match["id"]) == seen


def test_edit_that_ends_the_match_before_later_hands_is_409(client):
    match = start(client, "envite", games_to_win=1)
    play(client, match["id"], {"winner": A}, {"winner": B}, {"winner": A})
    seen = get_match(client, match["id"])
    answer = client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": {"winner": B, "stake": "game"}})
    body = refused(answer, 409)
    assert body["fields"] == {"number": "hand 3"}, body
    assert get_match(client, match["id"]) == seen


def test_invalid_edit_of_the_hand_itself_is_422(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_FIVE)
    seen = get_match(client, match["id"])
    for record, field in [
        ({"winner": A, "stake": 2, "declined": True}, "declined"),
        ({"winner": 3}, "winner"),
        ({"stake": 4}, "winner"),
        ({"winner": A, "colour": "red"}, "colour"),
    ]:
        body = refused(client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": record}), 422)
        assert field in body["fields"], (record, body)
    assert get_match(client, match["id"]) == seen


def test_edit_of_a_lying_down_hand_that_bids_is_422(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_LYING_A, {"forfeit": True})
    body = refused(client.put(f"{API}/matches/{match['id']}/hands/3", json={"record": {"winner": B, "stake": 4}}), 422)
    assert "stake" in body["fields"], body


def test_edit_without_a_record_object_is_refused(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_FIVE)
    seen = get_match(client, match["id"])
    for body in [{}, {"number": 2}, [], {"record": None}, {"record": []}, {"record": "winner=0"}]:
        refused(client.put(f"{API}/matches/{match['id']}/hands/2", json=body), (400, 422))
    refused(client.put(f"{API}/matches/{match['id']}/hands/2", data="x", content_type="text/plain"), (400, 415, 422))
    assert get_match(client, match["id"]) == seen


def test_edit_of_an_unknown_hand_is_404(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_FIVE)
    seen = get_match(client, match["id"])
    for number in [0, 6, 99, -1, "x"]:
        refused(client.put(f"{API}/matches/{match['id']}/hands/{number}", json={"record": {"winner": A}}), 404)
    assert get_match(client, match["id"]) == seen


def test_a_finished_match_can_be_edited_and_the_replay_decides(client):
    match = start(client, "envite", games_to_win=1)
    final = play(client, match["id"], {"winner": A}, {"winner": B, "stake": "game"})["match"]
    assert final["status"] == "finished" and final["winner"] == B
    after = client.put(f"{API}/matches/{match['id']}/hands/2", json={"record": {"winner": B, "stake": 9}}).json
    assert after["status"] == "in_progress" and after["winner"] is None and after["dealer"] == 2
    assert scores(after) == [2, 9]
    assert play(client, match["id"], {"winner": A})["number"] == 3


# -- DELETE hands/<n> -------------------------------------------------------------------------------


def test_delete_renumbers_the_later_hands_and_replays_them(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_FIVE)
    answer = client.delete(f"{API}/matches/{match['id']}/hands/2")
    assert answer.status_code == 200, answer.json
    after = answer.json
    check_match_shape(after, "envite", FOUR)
    assert [hand["number"] for hand in after["hands"]] == [1, 2, 3, 4]
    assert [hand["record"] for hand in after["hands"]] == [ENVITE_FIVE[0], *ENVITE_FIVE[2:]]
    assert scores(after) == [4, 6]
    assert after["dealer"] == 0  # four hands dealt from seat 0
    assert get_match(client, match["id"]) == after
    assert post_hand(client, match["id"], {"winner": A}, number=5).status_code == 201


def test_delete_the_first_and_the_last_hand(client):
    match = start(client, "court_piece")
    play(client, match["id"], A_WINS, B_WINS, {"outcome": "first_seven", "side": A})
    after = client.delete(f"{API}/matches/{match['id']}/hands/3").json
    assert [hand["record"] for hand in after["hands"]] == [A_WINS, B_WINS] and scores(after) == [0, 0]
    after = client.delete(f"{API}/matches/{match['id']}/hands/1").json
    assert [hand["record"] for hand in after["hands"]] == [B_WINS]
    assert after["state"]["streak"] == {"side": B, "count": 1}
    after = client.delete(f"{API}/matches/{match['id']}/hands/1").json
    assert after["hands"] == [] and after["state"]["streak"] == {"side": None, "count": 0}


def test_delete_that_makes_a_later_hand_impossible_is_409_and_nothing_changes(client):
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_LYING_A, {"forfeit": True})
    seen = get_match(client, match["id"])
    body = refused(client.delete(f"{API}/matches/{match['id']}/hands/1"), 409)
    assert "number" in body["fields"], body
    assert get_match(client, match["id"]) == seen


def test_delete_refusal_names_the_impossible_hand_by_its_current_number(client):
    # Nothing changes, so the impossible hand is still hand 3 (it once came out as "hand 2",
    # its place in the shortened list that was refused).
    match = start(client, "envite")
    play(client, match["id"], *ENVITE_LYING_A, {"forfeit": True})
    body = refused(client.delete(f"{API}/matches/{match['id']}/hands/1"), 409)
    assert body["fields"] == {"number": "hand 3"}, body
    assert body["error"].startswith("Hand 3 "), body


def test_deleting_the_last_hand_of_a_finished_match_reopens_it(client):
    match = start(client, "schnapsen", target=3)
    final = play(client, match["id"], {"ending": "out", "declarer": B, "points": [0, 70], "tricks": [0, 5]})["match"]
    assert final["status"] == "finished" and final["winner"] == B and final["dealer"] is not None
    after = client.delete(f"{API}/matches/{match['id']}/hands/1").json
    assert after["status"] == "in_progress" and after["winner"] is None and after["dealer"] == 0
    assert scores(after) == [0, 0]
    summary = next(item for item in client.get(f"{API}/matches").json if item["id"] == match["id"])
    assert summary["status"] == "in_progress"
    assert post_hand(client, match["id"], GOOD_HAND["schnapsen"]).status_code == 201


def test_delete_of_an_unknown_hand_is_404(client):
    match = start(client, "poke")
    play(client, match["id"], GOOD_HAND["poke"], GOOD_HAND["poke"])
    seen = get_match(client, match["id"])
    for number in [0, 3, 50, -1, "x"]:
        refused(client.delete(f"{API}/matches/{match['id']}/hands/{number}"), 404)
    assert get_match(client, match["id"]) == seen
