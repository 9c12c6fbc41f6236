"""POST /matches/<id>/hands: the answer (number, changes, reasons and the match), the record kept in
canonical form, the expected number (409 for any other), and a finished match taking no hand."""

from __future__ import annotations

import threading

import pytest

from .contract import (
    A_WINS,
    FLAGSHIP,
    GOOD_HAND,
    PLAYERS,
    A,
    B,
    check_match_shape,
    get_match,
    play,
    post_hand,
    refused,
    start,
)


@pytest.mark.parametrize("game", FLAGSHIP)
def test_recorded_hand_answer_has_number_changes_reasons_and_match(client, game):
    match = start(client, game)
    answer = post_hand(client, match["id"], GOOD_HAND[game])
    assert answer.status_code == 201, answer.json
    body = answer.json
    assert set(body) == {"number", "changes", "reasons", "match"}
    assert body["number"] == 1
    assert len(body["changes"]) == len(match["sides"])
    assert body["reasons"] and all(isinstance(reason, str) and reason for reason in body["reasons"])
    check_match_shape(body["match"], game, PLAYERS[game])
    assert body["match"]["hands"][-1] == {
        "number": 1,
        "record": GOOD_HAND[game],
        "changes": body["changes"],
        "reasons": body["reasons"],
    }
    assert get_match(client, match["id"]) == body["match"]
    again = post_hand(client, match["id"], GOOD_HAND[game], number=2).json
    assert again["number"] == 2 and [hand["number"] for hand in again["match"]["hands"]] == [1, 2]


def test_record_is_kept_in_canonical_form(client):
    match = start(client, "envite")
    body = play(client, match["id"], {"winner": 1, "stake": 4, "declined": False})
    assert body["match"]["hands"][0]["record"] == {"winner": 1, "stake": 4, "declined": False}
    assert body["changes"] == [0, 4]


def test_numbers_written_as_text_are_refused_and_nothing_is_recorded(client):
    # JSON types as the contract says: the forms read text, the API does not (issue 20).
    match = start(client, "poke")
    answer = post_hand(
        client, match["id"], {"tricks": ["3", "2"], "draws": [0, 1], "better_hand": 0, "poker_hand": "flush"}
    )
    assert answer.status_code == 422 and "tricks" in answer.json["fields"]
    assert get_match(client, match["id"])["hands"] == []


# -- the expected number ----------------------------------------------------------------------------


def test_stale_or_wrong_number_is_409_and_nothing_is_recorded(client):
    match = start(client, "envite")
    play(client, match["id"], {"winner": A}, {"winner": B})  # the next hand is 3
    seen = get_match(client, match["id"])
    for number in [1, 2, 4, 0, -1, 10**40]:
        body = refused(post_hand(client, match["id"], {"winner": A}, number=number), (409, 422) if number < 1 else 409)
        assert "number" in body["fields"], (number, body)
    assert get_match(client, match["id"]) == seen


def test_the_expected_number_is_taken(client):
    match = start(client, "envite")
    answer = post_hand(client, match["id"], {"winner": A}, number=1)
    assert answer.status_code == 201 and answer.json["number"] == 1


def test_same_next_number_sent_twice_one_201_one_409(client):
    match = start(client, "schnapsen")
    first = post_hand(client, match["id"], GOOD_HAND["schnapsen"], number=1)
    second = post_hand(client, match["id"], GOOD_HAND["schnapsen"], number=1)
    assert first.status_code == 201
    refused(second, 409)
    assert len(get_match(client, match["id"])["hands"]) == 1


def test_same_next_number_sent_at_once_from_several_phones(app, client):
    match = start(client, "court_piece")
    for number in (1, 2, 3):
        barrier = threading.Barrier(4)
        statuses: list[int] = []

        def phone(barrier=barrier, statuses=statuses, number=number):  # this round's, bound now
            other = app.test_client()
            barrier.wait()
            statuses.append(post_hand(other, match["id"], A_WINS, number=number).status_code)

        threads = [threading.Thread(target=phone) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201, 409, 409, 409], statuses
    assert len(get_match(client, match["id"])["hands"]) == 3


def test_number_of_the_wrong_type_is_refused(client):
    match = start(client, "envite")
    for number in ["1", 1.0, 1.5, True, [1], {"n": 1}]:
        body = refused(post_hand(client, match["id"], {"winner": A}, number=number), (409, 422))
        assert "number" in body["fields"], (number, body)
    assert get_match(client, match["id"])["hands"] == []


def test_number_null_is_refused_leave_it_out_for_no_check(client):
    match = start(client, "envite")
    assert post_hand(client, match["id"], {"winner": A}, number=None).status_code == 422  # not nullable
    assert post_hand(client, match["id"], {"winner": A}).status_code == 201


# -- a finished match -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", FLAGSHIP)
def test_finished_match_takes_no_new_hand(client, game):
    finishing = {
        "envite": ({"games_to_win": 1}, {"winner": A, "stake": "game"}),
        "court_piece": ({"courts_to_win": 1}, {"outcome": "revoke", "side": B}),
        "poke": ({"game_target": 1}, {"tricks": [3, 2], "draws": [0, 0]}),
        "schnapsen": ({"target": 1}, GOOD_HAND["schnapsen"]),
    }
    options, record = finishing[game]
    match = start(client, game, **options)
    if game == "poke":
        play(client, match["id"], record)
    body = play(client, match["id"], record)
    assert body["match"]["status"] == "finished" and body["match"]["winner"] == A
    seen = get_match(client, match["id"])
    refused(post_hand(client, match["id"], record), 409)
    refused(post_hand(client, match["id"], record, number=len(seen["hands"]) + 1), 409)
    assert get_match(client, match["id"]) == seen
