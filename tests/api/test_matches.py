"""POST /matches and GET /matches: a new match in API.md's shape, its options and seats, the bodies
refused with the field they get wrong, player names, and the list newest first."""

from __future__ import annotations

import threading

import pytest

from .contract import (
    API,
    FLAGSHIP,
    FOUR,
    PLAYERS,
    TWO,
    check_match_shape,
    get_match,
    match_count,
    refused,
    scores,
    start,
)


@pytest.mark.parametrize("game", FLAGSHIP)
def test_new_match_has_the_api_md_shape(client, game):
    players = PLAYERS[game]
    match = start(client, game)
    # API.md "Who may write": the creating answer carries the match's key this once, never a GET.
    key = match.pop("key")
    assert isinstance(key, str) and len(key) * 6 >= 128
    check_match_shape(match, game, players)
    assert match["options"] == FLAGSHIP[game]["options"]
    assert match["status"] == "in_progress"
    assert match["winner"] is None
    assert match["dealer"] == 0
    assert scores(match) == [0] * len(match["sides"])
    for key, value in FLAGSHIP[game]["state"].items():
        assert match["state"][key] == value, key
    assert match["hands"] == []
    assert get_match(client, match["id"]) == match


def test_given_options_are_kept_and_the_others_filled_with_defaults(client):
    match = start(client, "envite", ["P1", "P2", "P3", "P4", "P5", "P6"], games_to_win=3, first_dealer=5)
    assert match["options"] == {**FLAGSHIP["envite"]["options"], "games_to_win": 3, "first_dealer": 5}
    assert match["dealer"] == 5
    match = start(client, "court_piece", courts_to_win=5, court_hand_streak_policy="ignore")
    assert match["options"] == {
        **FLAGSHIP["court_piece"]["options"],
        "courts_to_win": 5,
        "court_hand_streak_policy": "ignore",
    }
    match = start(client, "schnapsen", close_tally="cards_only", target=3)
    assert match["options"] == {**FLAGSHIP["schnapsen"]["options"], "close_tally": "cards_only", "target": 3}


def test_options_may_be_left_out(client):
    answer = client.post(f"{API}/matches", json={"game": "poke", "players": TWO})
    assert answer.status_code == 201
    assert answer.json["options"] == FLAGSHIP["poke"]["options"]


def test_envite_sides_alternate_seats(client):
    for count in [4, 5, 6, 7, 12]:
        players = [f"P{count}-{seat}" for seat in range(count)]
        match = start(client, "envite", players)
        assert [side["players"] for side in match["sides"]] == [players[0::2], players[1::2]], count


def test_court_piece_partners_sit_opposite(client):
    match = start(client, "court_piece")
    assert [side["players"] for side in match["sides"]] == [["Ana", "Cat"], ["Ben", "Dan"]]


def test_two_player_games_have_one_side_per_seat(client):
    for game in ["poke", "schnapsen"]:
        match = start(client, game, ["Zoe", "Yann"])
        assert [side["players"] for side in match["sides"]] == [["Zoe"], ["Yann"]], game


BAD_MATCHES = [
    ({"game": "bridge", "players": FOUR}, "game"),
    ({"players": FOUR}, "game"),
    ({"game": None, "players": FOUR}, "game"),
    ({"game": 5, "players": FOUR}, "game"),
    ({"game": ["envite"], "players": FOUR}, "game"),
    ({"game": "ENVITE", "players": FOUR}, "game"),
    ({"game": "envite", "players": FOUR[:3]}, "players"),
    ({"game": "envite", "players": [f"P{i}" for i in range(13)]}, "players"),
    ({"game": "court_piece", "players": FOUR + ["Eve"]}, "players"),
    ({"game": "court_piece", "players": TWO}, "players"),
    ({"game": "poke", "players": ["Ana"]}, "players"),
    ({"game": "schnapsen", "players": ["Ana", "Ben", "Cat"]}, "players"),
    ({"game": "poke", "players": []}, "players"),
    ({"game": "poke", "players": ["Ana", "Ana"]}, "players"),
    ({"game": "poke", "players": ["Ana", "ANA "]}, "players"),
    ({"game": "envite", "players": ["Ana", "Ben", "Cat", "ben"]}, "players"),
    ({"game": "poke", "players": ["Ana", ""]}, "players"),
    ({"game": "poke", "players": ["   ", "Ben"]}, "players"),
    ({"game": "poke", "players": ["Ana", "x" * 41]}, "players"),
    ({"game": "poke", "players": ["Ana", 7]}, "players"),
    ({"game": "poke", "players": ["Ana", None]}, "players"),
    ({"game": "poke", "players": [["Ana"], "Ben"]}, "players"),
    ({"game": "poke", "players": ["Ana", {"name": "Ben"}]}, "players"),
    ({"game": "poke", "players": "Ana,Ben"}, "players"),
    ({"game": "poke", "players": {"0": "Ana", "1": "Ben"}}, "players"),
    ({"game": "poke"}, "players"),
    ({"game": "poke", "players": 2}, "players"),
    ({"game": "poke", "players": TWO, "options": {"colour": "red"}}, "colour"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": 0}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": "two"}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": 2.5}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": True}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": [2]}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"games_to_win": 10**40}}, "games_to_win"),
    ({"game": "envite", "players": FOUR, "options": {"trawl_bonus_in_lying_hand": 1}}, "trawl_bonus_in_lying_hand"),
    ({"game": "envite", "players": FOUR, "options": {"first_dealer": 4}}, "first_dealer"),
    ({"game": "envite", "players": FOUR, "options": {"first_dealer": -1}}, "first_dealer"),
    (
        {"game": "court_piece", "players": FOUR, "options": {"court_hand_streak_policy": "RESET"}},
        "court_hand_streak_policy",
    ),
    ({"game": "court_piece", "players": FOUR, "options": {"all13_courts": 54}}, "all13_courts"),
    ({"game": "court_piece", "players": FOUR, "options": {"courts_to_win": 0}}, "courts_to_win"),
    (
        {"game": "schnapsen", "players": TWO, "options": {"fail_three_measured_at": "sometimes"}},
        "fail_three_measured_at",
    ),
    ({"game": "schnapsen", "players": TWO, "options": {"marriage_credit": None}}, "marriage_credit"),
    ({"game": "poke", "players": TWO, "options": {"first_dealer": 2}}, "first_dealer"),
    ({"game": "poke", "players": TWO, "options": []}, "options"),
    ({"game": "poke", "players": TWO, "options": "first_dealer=1"}, "options"),
    ({"game": "poke", "players": TWO, "options": 1}, "options"),
    ({"game": "poke", "players": TWO, "options": [["first_dealer", 1]]}, "options"),
]


def test_bad_match_is_refused_with_422_naming_the_field(client):
    for body, field in BAD_MATCHES:
        answer = refused(client.post(f"{API}/matches", json=body), 422)
        assert field in answer["fields"], (body, answer)
    assert match_count(client) == 0


def test_match_body_that_is_not_a_json_object_is_refused(client):
    for data in [
        "[]",
        "null",
        '"envite"',
        "5",
        "true",
        "not json",
        "",
        "{",
        '{"game": "poke",}',
        '[{"game": "poke", "players": ["Ana", "Ben"]}]',
    ]:
        refused(client.post(f"{API}/matches", data=data, content_type="application/json"), (400, 422))
    assert match_count(client) == 0


def test_match_body_sent_as_a_form_is_refused(client):
    refused(client.post(f"{API}/matches", data={"game": "poke", "players": "Ana"}), (400, 415, 422))


# -- GET /matches -----------------------------------------------------------------------------------


def test_matches_are_listed_newest_first(client):
    assert client.get(f"{API}/matches").json == []
    ids = [start(client, game)["id"] for game in ("envite", "poke", "schnapsen", "court_piece")]
    listed = client.get(f"{API}/matches")
    assert listed.status_code == 200
    assert [item["id"] for item in listed.json] == ids[::-1]
    first = listed.json[-1]
    assert first["game"] == "envite" and first["players"] == FOUR and first["status"] == "in_progress"


def test_unknown_match_is_a_404_json_error(client):
    body = refused(client.get(f"{API}/matches/12345"), 404)
    assert body["fields"] == {}


# -- player names the databases cannot store, or must keep ------------------------------------------


def test_player_names_that_cannot_be_stored_are_refused(no_propagation, client):
    # A lone UTF-16 surrogate (JSON "\ud800") once crashed the player look-up on both databases,
    # and U+0000 crashed PostgreSQL (its text cannot hold it): 500s. They are not names: 422.
    for data in [
        '{"game": "poke", "players": ["Ana\\ud800", "Ben"]}',
        '{"game": "poke", "players": ["Ana\\u0000", "Ben"]}',
        '{"game": "poke", "players": ["Ana\\u0007", "Ben"]}',
    ]:
        answer = client.post(f"{API}/matches", data=data, content_type="application/json")
        body = refused(answer, 422)
        assert "players" in body["fields"], (data, body)
    assert match_count(client) == 0


def test_player_names_keep_letters_from_any_script(client):
    match = start(client, "poke", ["Zoë", "Jürgen Ñúñez"])
    assert match["players"] == ["Zoë", "Jürgen Ñúñez"]
    match = start(client, "schnapsen", ["  Zoë ", "李"])
    assert match["players"] == ["Zoë", "李"]


def test_matches_started_at_once_with_the_same_new_players_are_never_a_5xx(no_propagation, app, client):
    statuses: list[int] = []
    for round_ in range(3):
        barrier = threading.Barrier(4)

        def phone(barrier=barrier, round_=round_):  # this round's, bound now
            other = app.test_client()
            barrier.wait()
            answer = other.post(f"{API}/matches", json={"game": "poke", "players": [f"New{round_}", f"Also{round_}"]})
            statuses.append(answer.status_code)

        threads = [threading.Thread(target=phone) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert all(status in (201, 409) for status in statuses), statuses
    assert 201 in statuses
