"""The JSON API for the tally games (shared/api/tally.md): Polignac, Pluck, Chicago.

Every write goes through the `actions` fixture (it carries the match's key). Every test runs on
SQLite, and on PostgreSQL too when TEST_POSTGRES_URL is set (see tests/conftest.py).
"""

from __future__ import annotations

import re

import pytest

API = "/api/v1"
A, B, C, D = range(4)
FOUR = ["Ana", "Ben", "Cat", "Dan"]
THREE = ["Ana", "Ben", "Cat"]
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}


def jacks(spades, hearts, diamonds, clubs) -> dict:
    return {"jacks": {"spades": spades, "hearts": hearts, "diamonds": diamonds, "clubs": clubs}}


def best(side, poker_hand) -> dict:
    return {"best_hand": side, "poker_hand": poker_hand}


def scores(match) -> list[int]:
    return [side["score"] for side in match["sides"]]


def lettered(reasons: list[str], players: list[str]) -> list[str]:
    """Reasons with each player's name as the side letter: the app may name sides either way."""
    for side, name in enumerate(players):
        reasons = [re.sub(rf"\b{re.escape(name)}\b", "ABCD"[side], reason) for reason in reasons]
    return reasons


def refused(actions, match_id, record, status, field=None):
    """A refused hand: the status, the field named, and the match as it was."""
    seen = actions.match(match_id)
    answer = actions.write("POST", match_id, "/hands", {"record": record})
    assert answer.status_code == status, (record, answer.json)
    assert answer.json["error"]
    if field is not None:
        assert field in answer.json["fields"], (record, answer.json)
    assert actions.match(match_id) == seen
    return answer.json


def check_shape(match, game, players):
    assert MATCH_KEYS <= set(match)
    assert (match["game"], match["players"]) == (game, players)
    assert [side["players"] for side in match["sides"]] == [[name] for name in players]  # no partnerships
    for hand in match["hands"]:
        assert len(hand["changes"]) == len(players) and all(hand["reasons"])


# -- the games' self-description ------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, players, options, fields",
    [
        ("polignac", {"min": 3, "max": 6}, {"first_dealer": 0, "target": 10, "tie_at_end": "shared"}, ["jacks"]),
        (
            "pluck",
            {"min": 3, "max": 3},
            {"first_dealer": 0, "target": 20, "tie_at_end": "play_on"},
            ["tricks", "revoked_by"],
        ),
        (
            "chicago",
            {"min": 2, "max": 4},
            {"first_dealer": 0, "tie_at_end": "play_on", "forfeit_rule": "ends_game"},
            ["first_showdown", "second_showdown", "final_hand", "last_trick", "forfeit"],
        ),
    ],
)
def test_each_game_describes_itself(client, key, players, options, fields):
    described = client.get(f"{API}/games/{key}").json
    assert described["players"] == players and described["partnerships"] is False
    assert {fld["name"]: fld.get("default") for fld in described["options"]} == options
    assert [fld["name"] for fld in described["hand_fields"]] == fields


@pytest.mark.parametrize(
    "key, players, options, field",
    [
        ("polignac", ["a", "b"], {}, "players"),
        ("polignac", THREE, {"target": 0}, "target"),
        ("polignac", THREE, {"tie_at_end": "sudden_death"}, "tie_at_end"),
        ("pluck", FOUR, {}, "players"),
        ("pluck", THREE, {"target": 101}, "target"),
        ("chicago", FOUR + ["Eve"], {}, "players"),  # ruling 7
        ("chicago", FOUR, {"target": 52}, "target"),  # ruling 14
        ("chicago", FOUR, {"forfeit_rule": "replay"}, "forfeit_rule"),
    ],
)
def test_bad_matches_are_refused_with_422(actions, key, players, options, field):
    answer = actions.create({"game": key, "players": players, "options": options})
    assert answer.status_code == 422 and field in answer.json["fields"], answer.json


# -- Polignac ---------------------------------------------------------------------------------------


def test_polignac_a_match_to_its_end(actions):
    match_id = actions.start("polignac", FOUR, target=6, first_dealer=1)
    match = actions.match(match_id)
    check_shape(match, "polignac", FOUR)
    assert (match["status"], match["winner"], match["dealer"], match["state"]) == (
        "in_progress",
        None,
        1,
        {"winners": []},
    )
    # tally.md's example: seat 2 +3, seat 0 +1, seat 3 +1
    answer = actions.hand(match_id, jacks(C, A, C, D))
    assert answer["number"] == 1 and answer["changes"] == [1, 0, 3, 1]
    assert lettered(answer["reasons"], FOUR) == [
        "A took J♥: +1 point",
        "C took J♠, J♦: +3 points",
        "D took J♣: +1 point",
    ]
    assert answer["match"]["dealer"] == 2
    match = actions.hand(match_id, jacks(C, B, D, D))["match"]  # C +2, B +1, D +2
    assert scores(match) == [1, 1, 5, 3] and match["status"] == "in_progress" and match["dealer"] == 3
    match = actions.hand(match_id, jacks(D, A, C, C))["match"]  # D +2, A +1, C +2: C 7, D 5
    check_shape(match, "polignac", FOUR)
    assert scores(match) == [2, 1, 7, 5]
    assert (match["status"], match["winner"], match["state"]) == ("finished", B, {"winners": [B]})
    refused(actions, match_id, jacks(A, A, A, A), 409)


def test_polignac_the_dealer_is_never_null(actions):
    match_id = actions.start("polignac", THREE, target=5)
    match = actions.hand(match_id, jacks(A, A, A, A))["match"]
    assert match["status"] == "finished" and match["dealer"] == 1


def test_polignac_a_shared_lowest_score(actions):
    match_id = actions.start("polignac", FOUR, target=5)
    match = actions.hand(match_id, jacks(A, A, A, A))["match"]
    assert (match["status"], match["winner"], match["state"]) == ("finished", None, {"winners": [B, C, D]})


def test_polignac_play_on_after_a_shared_lowest_score(actions):
    match_id = actions.start("polignac", THREE, target=5, tie_at_end="play_on")
    match = actions.hand(match_id, jacks(A, A, A, A))["match"]
    assert (match["status"], match["state"]) == ("in_progress", {"winners": []})
    match = actions.hand(match_id, jacks(B, C, C, C))["match"]
    assert scores(match) == [5, 2, 3] and (match["winner"], match["state"]) == (B, {"winners": [B]})


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "jacks"),
        ({"jacks": [0, 1, 2, 3]}, "jacks"),
        ({"jacks": {"spades": 0, "hearts": 1, "diamonds": 2}}, "jacks.clubs"),
        ({"jacks": {"spades": None, "hearts": 1, "diamonds": 2, "clubs": 0}}, "jacks.spades"),
        ({"jacks": {"spades": "x", "hearts": 1, "diamonds": 2, "clubs": 0}}, "jacks.spades"),
        ({"jacks": {"spades": 3, "hearts": 1, "diamonds": 2, "clubs": 0}}, "jacks.spades"),
        ({"jacks": {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 0, "joker": 1}}, "jacks.joker"),
        ({**jacks(0, 1, 2, 0), "points": [2, 1, 2]}, "points"),
    ],
)
def test_polignac_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("polignac", THREE)
    actions.hand(match_id, jacks(A, B, C, A))
    refused(actions, match_id, record, 422, field)


def test_polignac_an_edit_that_ends_the_match_earlier_is_409(actions):
    match_id = actions.start("polignac", THREE, target=6)
    for record in (jacks(A, A, A, A), jacks(B, B, B, B), jacks(C, C, C, C)):
        actions.hand(match_id, record)
    seen = actions.match(match_id)
    answer = actions.write("PUT", match_id, "/hands/2", {"record": jacks(A, A, A, A)})
    assert answer.status_code == 409 and answer.json["fields"] == {"number": "hand 3"}, answer.json
    assert actions.match(match_id) == seen


def test_polignac_a_finished_match_reopens_when_its_last_hand_is_edited(actions):
    match_id = actions.start("polignac", THREE, target=5)
    assert actions.hand(match_id, jacks(A, A, A, A))["match"]["status"] == "finished"
    match = actions.edit(match_id, 1, jacks(A, B, C, A))
    assert scores(match) == [3, 1, 1] and match["status"] == "in_progress" and match["dealer"] == 1
    match = actions.delete(match_id, 1)
    assert scores(match) == [0, 0, 0] and match["hands"] == [] and match["dealer"] == 0


def test_polignac_finish_is_refused(actions):
    match_id = actions.start("polignac", THREE)
    assert actions.write("POST", match_id, "/finish").status_code == 409


# -- Pluck ------------------------------------------------------------------------------------------


def test_pluck_a_match_to_its_end(actions):
    match_id = actions.start("pluck", THREE, target=5, first_dealer=1)
    match = actions.match(match_id)
    check_shape(match, "pluck", THREE)
    assert match["dealer"] == 1
    assert match["state"] == {"quotas": [4, 7, 6], "plucks": [0, 0, 0], "winners": []}
    answer = actions.hand(match_id, {"tricks": [7, 6, 4]})  # A +3, B and C short
    assert answer["changes"] == [3, 0, 0]
    assert lettered(answer["reasons"], THREE)[0] == "A: 7 tricks on a quota of 4: +3 points"
    match = answer["match"]
    assert match["dealer"] == 2 and match["state"] == {"quotas": [6, 4, 7], "plucks": [3, -1, -2], "winners": []}
    match = actions.hand(match_id, {"tricks": [8, 4, 5]})["match"]  # quotas 6, 4, 7: A +2
    check_shape(match, "pluck", THREE)
    assert scores(match) == [5, 0, 0]
    assert (match["status"], match["winner"], match["state"]["winners"]) == ("finished", A, [A])
    assert match["state"]["plucks"] == [2, 0, -2]
    refused(actions, match_id, {"tricks": [7, 6, 4]}, 409)


def test_pluck_the_deal_passes_after_the_last_hand(actions):
    match_id = actions.start("pluck", THREE, target=1)
    match = actions.hand(match_id, {"tricks": [8, 5, 4]})["match"]
    assert match["status"] == "finished" and match["dealer"] == 1
    assert match["state"]["quotas"] == [4, 7, 6]


def test_pluck_equal_highest_play_on_or_share(actions):
    play_on = actions.start("pluck", THREE, target=2)
    match = actions.hand(play_on, {"tricks": [9, 2, 6]})["match"]  # A +2, C +2
    assert (match["status"], match["state"]["winners"]) == ("in_progress", [])
    shared = actions.start("pluck", THREE, target=2, tie_at_end="shared")
    match = actions.hand(shared, {"tricks": [9, 2, 6]})["match"]
    assert (match["status"], match["winner"], match["state"]["winners"]) == ("finished", None, [A, C])


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "tricks"),
        ({"tricks": [7, 10]}, "tricks"),
        ({"tricks": [7, 6, 3]}, "tricks"),
        ({"tricks": [18, -1, 0]}, "tricks"),
        ({"tricks": [7, "six", 4]}, "tricks"),
        ({"tricks": [7, 6, 4], "dealer": 0}, "dealer"),  # ruling 4
    ],
)
def test_pluck_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("pluck", THREE)
    refused(actions, match_id, record, 422, field)


def test_pluck_an_edit_that_ends_the_match_earlier_is_409(actions):
    match_id = actions.start("pluck", THREE, target=3)
    actions.hand(match_id, {"tricks": [9, 5, 3]})
    actions.hand(match_id, {"tricks": [4, 7, 6]})
    seen = actions.match(match_id)
    answer = actions.write("PUT", match_id, "/hands/1", {"record": {"tricks": [10, 4, 3]}})
    assert answer.status_code == 409 and answer.json["fields"] == {"number": "hand 2"}, answer.json
    assert actions.match(match_id) == seen


def test_pluck_a_stale_number_is_409(actions):
    match_id = actions.start("pluck", THREE)
    actions.hand(match_id, {"tricks": [7, 6, 4]}, number=1)
    seen = actions.match(match_id)
    actions.hand(match_id, {"tricks": [7, 6, 4]}, number=1, expect=409)
    actions.hand(match_id, {"tricks": [7, 6, 4]}, number=3, expect=409)
    assert actions.match(match_id) == seen


def test_pluck_finish_is_refused(actions):
    match_id = actions.start("pluck", THREE)
    assert actions.write("POST", match_id, "/finish").status_code == 409


# -- Chicago ----------------------------------------------------------------------------------------

FULL_HOUSE = ["KS", "KH", "KD", "2C", "2S"]
FLUSH = ["AH", "9H", "7H", "4H", "2H"]


def test_chicago_a_played_hand(actions):
    match_id = actions.start("chicago", THREE, first_dealer=2)
    match = actions.match(match_id)
    check_shape(match, "chicago", THREE)
    assert match["dealer"] == 2 and match["state"] == {"no_draw": [], "out": [], "winners": []}
    record = {
        "first_showdown": best(A, "two_pair"),
        "second_showdown": {"cards": [FLUSH, None, FULL_HOUSE]},
        "final_hand": None,
        "last_trick": B,
    }
    answer = actions.hand(match_id, record)
    assert answer["changes"] == [2, 5, 6]
    assert lettered(answer["reasons"], THREE) == [
        "First showdown: A, two pair: +2 points",
        "Second showdown: C has the best hand, full house: +6 points",
        "Last trick: B +5",
    ]
    assert answer["match"]["dealer"] == 0 and answer["match"]["hands"][0]["record"]["final_hand"] is None


def test_chicago_to_52_with_no_draw_on_the_way(actions):
    match_id = actions.start("chicago", ["Ana", "Ben"])
    for _ in range(4):  # A +13 a hand: the last trick and a straight flush at the end
        match = actions.hand(match_id, {"final_hand": best(A, "straight_flush"), "last_trick": A})["match"]
    assert scores(match) == [52, 0]
    assert (match["status"], match["winner"], match["state"]) == (
        "finished",
        A,
        {"no_draw": [A], "out": [], "winners": [A]},
    )
    refused(actions, match_id, {"last_trick": B}, 409)


def test_chicago_a_royal_flush_waits_for_the_end_of_the_hand(actions):
    # ruling 10: B's royal flush (52) at the first showdown; the hand still ends with the check
    match_id = actions.start("chicago", ["Ana", "Ben"])
    match = actions.hand(match_id, {"first_showdown": best(B, "royal_flush"), "last_trick": A})["match"]
    assert scores(match) == [5, 52] and match["winner"] == B


def test_chicago_forfeit_ends_the_game_by_default(actions):
    match_id = actions.start("chicago", FOUR)
    actions.hand(match_id, {"last_trick": C})
    answer = actions.hand(match_id, {"forfeit": C})
    assert answer["changes"] == [0, 0, 0, 0]
    match = answer["match"]
    # ruling 12: A, B and D are level on 0: they share the win
    assert (match["status"], match["winner"], match["state"]["winners"]) == ("finished", None, [A, B, D])


def test_chicago_player_out_leaves_and_the_deal_skips_them(actions):
    match_id = actions.start("chicago", THREE, forfeit_rule="player_out")
    match = actions.hand(match_id, {"forfeit": B})["match"]
    assert (match["status"], match["dealer"], match["state"]["out"]) == ("in_progress", 2, [B])
    refused(actions, match_id, {"last_trick": B}, 422, "last_trick")
    refused(actions, match_id, {"first_showdown": best(B, "flush"), "last_trick": A}, 422, "first_showdown.best_hand")
    refused(actions, match_id, {"final_hand": {"cards": [None, FLUSH, None]}, "last_trick": A}, 422, "final_hand.cards")
    refused(actions, match_id, {"forfeit": B}, 422, "forfeit")
    match = actions.hand(match_id, {"last_trick": C})["match"]
    assert match["dealer"] == 0
    match = actions.hand(match_id, {"forfeit": A})["match"]
    assert (match["status"], match["winner"], match["state"]["winners"]) == ("finished", C, [C])
    assert match["state"]["out"] == [A, B]


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "last_trick"),
        ({"first_showdown": best(A, "flush")}, "last_trick"),
        ({"last_trick": 3}, "last_trick"),
        ({"last_trick": A, "first_showdown": best(B, "flush!")}, "first_showdown.poker_hand"),
        ({"last_trick": A, "first_showdown": {"best_hand": B}}, "first_showdown.poker_hand"),
        ({"last_trick": A, "second_showdown": {"poker_hand": "flush"}}, "second_showdown.poker_hand"),
        ({"last_trick": A, "final_hand": {**best(A, "flush"), "cards": [FLUSH, None, None]}}, "final_hand.cards"),
        ({"last_trick": A, "final_hand": {"cards": [FLUSH, None]}}, "final_hand.cards"),
        ({"last_trick": A, "final_hand": {"cards": [FLUSH, FLUSH, None]}}, "final_hand.cards"),
        ({"last_trick": A, "final_hand": {"cards": [FLUSH[:4], None, None]}}, "final_hand.cards"),
        ({"last_trick": A, "final_hand": "flush"}, "final_hand"),
        ({"last_trick": A, "final_hand": {"best_hand": A, "poker_hand": "flush", "x": 1}}, "final_hand.x"),
        ({"last_trick": A, "chicago": True}, "chicago"),
        ({"forfeit": A, "last_trick": B}, "forfeit"),
        ({"forfeit": A, "first_showdown": None}, "first_showdown"),
        ({"forfeit": 3}, "forfeit"),
    ],
)
def test_chicago_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("chicago", THREE)
    actions.hand(match_id, {"last_trick": A})
    refused(actions, match_id, record, 422, field)


def test_chicago_an_edit_into_a_forfeit_before_later_hands_is_409(actions):
    match_id = actions.start("chicago", THREE)
    actions.hand(match_id, {"last_trick": A})
    actions.hand(match_id, {"last_trick": B})
    seen = actions.match(match_id)
    answer = actions.write("PUT", match_id, "/hands/1", {"record": {"forfeit": C}})
    assert answer.status_code == 409 and answer.json["fields"] == {"number": "hand 2"}, answer.json
    assert actions.match(match_id) == seen


def test_chicago_deleting_a_forfeit_brings_the_player_back(actions):
    match_id = actions.start("chicago", THREE, forfeit_rule="player_out")
    actions.hand(match_id, {"forfeit": B})
    actions.hand(match_id, {"last_trick": A})
    match = actions.delete(match_id, 1)
    assert match["state"]["out"] == [] and match["dealer"] == 1 and scores(match) == [5, 0, 0]
    match = actions.hand(match_id, {"last_trick": B})["match"]
    assert scores(match) == [5, 5, 0]


def test_chicago_finish_is_refused(actions):
    match_id = actions.start("chicago", THREE)
    assert actions.write("POST", match_id, "/finish").status_code == 409
