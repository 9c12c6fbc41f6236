"""The JSON API for the race games (shared/api/races.md): California Speed, its elimination
tournament, Aggravation, Frustration, Machiavelli and Myllymatti, checked as a client script would.

Every write goes through `actions` (it carries the match's key). Seats and sides: side i = seat i.
"""

from __future__ import annotations

import pytest

API = "/api/v1"
A, B, C, D, E = range(5)
TWO = ["Ana", "Ben"]
THREE = ["Ana", "Ben", "Cat"]
FOUR = ["Ana", "Ben", "Cat", "Dan"]
FIVE = ["Ana", "Ben", "Cat", "Dan", "Eve"]

# What races.md says each game declares and shows at the start.
GAMES = {
    "california_speed": (
        TWO,
        {"first_dealer": 0, "games_to_win": None, "simultaneous_out": "replay"},
        ["winner"],
        {"draws": 0},
    ),
    "aggravation": (TWO, {"first_dealer": 0, "games_to_win": None}, ["winner"], {}),
    "frustration": (TWO, {"first_dealer": 0, "games_to_win": None, "share_check": "any_time"}, ["winner"], {}),
    "machiavelli": (
        FIVE,
        {"first_dealer": 0, "games_to_win": None, "stock_exhausted": "no_winner"},
        ["ending", "winner", "cards_left"],
        {"no_winner": 0},
    ),
    "myllymatti": (
        THREE,
        {"first_dealer": 0, "games_to_lose": None},
        ["loser", "first_out"],
        {"first_out": [0, 0, 0], "loser": None},
    ),
    "speed_tournament": (
        FOUR,
        {"first_dealer": 0},
        ["eliminated", "winner"],
        {
            "players_in": [0, 1, 2, 3],
            "eliminated": [],
            "ranking": None,
            "next_deal": {"cards": 26, "piles": 2, "removed": 0},
        },
    ),
}
PLAYER_COUNTS = {
    "california_speed": (2, 2),
    "aggravation": (2, 2),
    "frustration": (2, 2),
    "machiavelli": (2, 5),
    "myllymatti": (3, 3),
    "speed_tournament": (2, 5),
}


def won(side: int) -> dict:
    return {"winner": side}


def unchanged(actions, match_id: int, before: dict) -> None:
    """A refusal changed nothing recorded."""
    assert actions.match(match_id) == before


def refused(actions, match_id: int, record: dict, status: int = 422) -> dict:
    before = actions.match(match_id)
    answer = actions.hand(match_id, record, expect=status)
    unchanged(actions, match_id, before)
    return answer


# -- every race game ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_game_describes_itself(client, game):
    described = client.get(f"{API}/games/{game}").json
    low, high = PLAYER_COUNTS[game]
    assert (described["players"], described["partnerships"]) == ({"min": low, "max": high}, False)
    _, options, fields, _ = GAMES[game]
    assert {fld["name"]: fld.get("default") for fld in described["options"]} == options
    assert [fld["name"] for fld in described["hand_fields"]] == fields
    assert all(fld["help"] for fld in described["options"] + described["hand_fields"])


@pytest.mark.parametrize("game", GAMES)
def test_new_match_has_one_side_per_player_and_the_state_of_races_md(actions, game):
    players, options, _, state = GAMES[game]
    match = actions.match(actions.start(game, players))
    assert match["options"] == options
    assert match["sides"] == [{"players": [name], "score": 0} for name in players]
    assert (match["status"], match["winner"], match["dealer"], match["hands"]) == ("in_progress", None, 0, [])
    assert match["state"] == state


@pytest.mark.parametrize("game", GAMES)
def test_a_player_count_outside_the_game_is_refused(actions, game):
    # ruling 3
    low, high = PLAYER_COUNTS[game]
    for count in (low - 1, high + 1):
        answer = actions.create({"game": game, "players": [f"P{n}" for n in range(count)]})
        assert answer.status_code == 422 and "players" in answer.json["fields"]


@pytest.mark.parametrize(
    "game, option",
    [("california_speed", "games_to_win"), ("machiavelli", "games_to_win"), ("myllymatti", "games_to_lose")],
)
@pytest.mark.parametrize("bad", [0, 100, "three", 2.5])
def test_a_target_outside_1_to_99_is_refused(actions, game, option, bad):
    answer = actions.create({"game": game, "players": GAMES[game][0], "options": {option: bad}})
    assert answer.status_code == 422 and option in answer.json["fields"]


@pytest.mark.parametrize(
    "game, option",
    [("myllymatti", "games_to_win"), ("speed_tournament", "games_to_win"), ("aggravation", "simultaneous_out")],
)
def test_options_of_other_games_are_refused(actions, game, option):
    answer = actions.create({"game": game, "players": GAMES[game][0], "options": {option: 3}})
    assert answer.status_code == 422 and option in answer.json["fields"]


# -- sessions -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["california_speed", "aggravation", "frustration"])
def test_a_session_counts_games_won_and_passes_the_deal(actions, game):
    match_id = actions.start(game, TWO, first_dealer=1)
    answer = actions.hand(match_id, won(B))
    assert (answer["number"], answer["changes"]) == (1, [0, 1])
    assert answer["reasons"] == ["B wins the game: 1 game won"]
    match = actions.hand(match_id, won(B))["match"]
    assert [side["score"] for side in match["sides"]] == [0, 2]
    assert match["dealer"] == 1  # 1 -> 0 -> 1, whoever won (ruling 2)
    assert match["status"] == "in_progress"


@pytest.mark.parametrize("game", ["california_speed", "aggravation", "frustration", "machiavelli"])
def test_games_to_win_ends_the_session_and_refuses_finish(actions, game):
    match_id = actions.start(game, TWO, games_to_win=2)
    actions.finish(match_id, expect=409)
    for side in (A, B, A):
        match = actions.hand(match_id, won(side))["match"]
    assert (match["status"], match["winner"]) == ("finished", A)
    assert [side["score"] for side in match["sides"]] == [2, 1]
    refused(actions, match_id, won(B), status=409)
    actions.finish(match_id, expect=409)


def test_finish_ends_an_open_session_with_the_most_games(actions):
    match_id = actions.start("aggravation", TWO)
    for side in (A, B, B):
        actions.hand(match_id, won(side))
    match = actions.finish(match_id)
    assert (match["status"], match["winner"]) == ("finished", B)
    actions.finish(match_id, expect=409)
    refused(actions, match_id, won(A), status=409)


def test_finish_with_equal_games_is_a_draw_and_an_edit_decides_again(actions):
    match_id = actions.start("frustration", TWO)
    actions.hand(match_id, won(A))
    actions.hand(match_id, won(B))
    match = actions.finish(match_id)
    assert (match["status"], match["winner"]) == ("finished", None)
    match = actions.edit(match_id, 2, won(A))  # a mistake found after the end
    assert (match["status"], match["winner"]) == ("finished", A)


def test_an_edit_that_ends_the_session_sooner_is_a_409_naming_the_hand(actions):
    match_id = actions.start("aggravation", TWO, games_to_win=2)
    for side in (A, B, A):
        actions.hand(match_id, won(side))
    before = actions.match(match_id)
    answer = actions.edit(match_id, 2, won(A), expect=409)
    assert "3" in answer["error"]
    unchanged(actions, match_id, before)
    match = actions.delete(match_id, 1)
    assert [side["score"] for side in match["sides"]] == [1, 1] and match["status"] == "in_progress"


def test_a_stale_hand_number_is_a_409(actions):
    match_id = actions.start("california_speed", TWO)
    actions.hand(match_id, won(A))
    before = actions.match(match_id)
    actions.hand(match_id, won(A), expect=409, number=1)
    unchanged(actions, match_id, before)
    assert actions.hand(match_id, won(A), number=2)["number"] == 2


@pytest.mark.parametrize("game", ["california_speed", "aggravation", "frustration"])
@pytest.mark.parametrize(
    "record, field",
    [({}, "winner"), ({"winner": 2}, "winner"), ({"winner": "Ana"}, "winner"), ({"winner": 0, "points": 3}, "points")],
)
def test_bad_session_records_are_422_naming_the_field(actions, game, record, field):
    match_id = actions.start(game, TWO)
    actions.hand(match_id, won(A))
    answer = refused(actions, match_id, record)
    assert field in answer["fields"] and answer["error"]


# -- California Speed -----------------------------------------------------------------------------


def test_california_speed_null_winner_is_refused_unless_draws_are_recorded(actions):
    replaying = actions.start("california_speed", TWO)
    assert "winner" in refused(actions, replaying, {"winner": None})["fields"]
    drawing = actions.start("california_speed", TWO, simultaneous_out="draw", games_to_win=1)
    answer = actions.hand(drawing, {"winner": None})
    assert answer["changes"] == [0, 0] and "draw" in answer["reasons"][0]
    match = answer["match"]
    assert match["state"] == {"draws": 1} and match["status"] == "in_progress"  # a draw never reaches games_to_win
    assert match["dealer"] == 1
    assert "winner" in refused(actions, drawing, {})["fields"]


# -- Machiavelli ----------------------------------------------------------------------------------


def test_machiavelli_a_stuck_game_has_no_winner_by_default(actions):
    match_id = actions.start("machiavelli", THREE, first_dealer=2)
    answer = actions.hand(match_id, {"ending": "stock_exhausted"})
    assert answer["changes"] == [0, 0, 0] and "nobody wins" in answer["reasons"][0]
    match = actions.hand(match_id, {"ending": "out", "winner": C})["match"]
    assert match["state"] == {"no_winner": 1} and match["dealer"] == 1
    assert [side["score"] for side in match["sides"]] == [0, 0, 1]


def test_machiavelli_the_fewest_cards_win_where_the_table_says_so(actions):
    match_id = actions.start("machiavelli", THREE, stock_exhausted="fewest_cards")
    answer = actions.hand(match_id, {"ending": "stock_exhausted", "cards_left": [6, 2, 9]})
    assert answer["changes"] == [0, 1, 0]
    answer = actions.hand(match_id, {"ending": "stock_exhausted", "cards_left": [3, 8, 3]})
    assert answer["changes"] == [0, 0, 0] and answer["match"]["state"] == {"no_winner": 1}


@pytest.mark.parametrize(
    "options, record, field",
    [
        ({}, {"ending": "stock_exhausted", "winner": A}, "winner"),
        (
            {"stock_exhausted": "fewest_cards"},
            {"ending": "stock_exhausted", "winner": A, "cards_left": [1, 2, 3]},
            "winner",
        ),
        ({"stock_exhausted": "fewest_cards"}, {"ending": "out", "winner": A, "cards_left": [1, 2, 3]}, "cards_left"),
        ({}, {"ending": "stock_exhausted", "cards_left": [1, 2, 3]}, "cards_left"),
        ({}, {"ending": "out"}, "winner"),
        ({"stock_exhausted": "fewest_cards"}, {"ending": "stock_exhausted"}, "cards_left"),
        ({"stock_exhausted": "fewest_cards"}, {"ending": "stock_exhausted", "cards_left": [0, 2, 3]}, "cards_left"),
        ({"stock_exhausted": "fewest_cards"}, {"ending": "stock_exhausted", "cards_left": [100, 2, 3]}, "cards_left"),
        ({"stock_exhausted": "fewest_cards"}, {"ending": "stock_exhausted", "cards_left": [1, 2]}, "cards_left"),
        ({}, {"ending": "drawn"}, "ending"),
    ],
)
def test_machiavelli_refusals_are_422_naming_the_field(actions, options, record, field):
    match_id = actions.start("machiavelli", THREE, **options)
    assert refused(actions, match_id, record)["fields"].keys() == {field}


# -- Myllymatti -----------------------------------------------------------------------------------


def test_myllymatti_counts_games_lost_and_ends_at_games_to_lose(actions):
    match_id = actions.start("myllymatti", THREE, games_to_lose=2, first_dealer=2)
    actions.finish(match_id, expect=409)
    answer = actions.hand(match_id, {"loser": A, "first_out": B})
    assert answer["changes"] == [1, 0, 0] and answer["match"]["dealer"] == 0
    actions.hand(match_id, {"loser": C})
    match = actions.hand(match_id, {"loser": A, "first_out": C})["match"]
    assert [side["score"] for side in match["sides"]] == [2, 0, 1]
    assert match["state"] == {"first_out": [0, 1, 1], "loser": A}
    assert (match["status"], match["winner"]) == ("finished", B)
    refused(actions, match_id, {"loser": B}, status=409)


def test_myllymatti_two_sharing_the_fewest_lost_have_no_winner(actions):
    match_id = actions.start("myllymatti", THREE, games_to_lose=1)
    match = actions.hand(match_id, {"loser": B})["match"]
    assert (match["status"], match["winner"], match["state"]["loser"]) == ("finished", None, B)


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "loser"),
        ({"loser": None}, "loser"),
        ({"loser": 3}, "loser"),
        ({"loser": A, "first_out": A}, "first_out"),
        ({"loser": A, "first_out": 5}, "first_out"),
    ],
)
def test_myllymatti_refusals_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("myllymatti", THREE)
    assert field in refused(actions, match_id, record)["fields"]


def test_myllymatti_finish_gives_the_session_to_the_fewest_lost(actions):
    match_id = actions.start("myllymatti", THREE)
    for loser in (A, B, A):
        actions.hand(match_id, {"loser": loser})
    match = actions.finish(match_id)
    assert (match["status"], match["winner"]) == ("finished", C)


def test_myllymatti_finish_names_the_sessions_loser(actions):
    match_id = actions.start("myllymatti", THREE)
    for loser in (A, B, A):
        actions.hand(match_id, {"loser": loser})
    assert actions.finish(match_id)["state"]["loser"] == A


# -- the tournament -------------------------------------------------------------------------------


def test_a_five_player_tournament_through_the_api(actions):
    match_id = actions.start("speed_tournament", FIVE, first_dealer=1)
    actions.finish(match_id, expect=409)
    answer = actions.hand(match_id, {"eliminated": C})
    assert answer["changes"] == [1, 1, 0, 1, 1]
    match = answer["match"]
    assert match["dealer"] == D and match["state"]["players_in"] == [A, B, D, E]
    assert match["state"]["next_deal"] == {"cards": 26, "piles": 2, "removed": 0}
    match = actions.hand(match_id, {"eliminated": E})["match"]
    assert match["dealer"] == A and match["state"]["next_deal"] == {"cards": 32, "piles": 3, "removed": 8}
    match = actions.hand(match_id, {"eliminated": A})["match"]
    assert match["dealer"] == B and match["state"]["next_deal"] == {"cards": 52, "piles": 5, "removed": 0}
    answer = actions.hand(match_id, {"winner": D})
    assert answer["changes"] == [0, 0, 0, 1, 0]
    match = answer["match"]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", D, None)
    assert [side["score"] for side in match["sides"]] == [2, 3, 0, 4, 1]
    assert match["state"] == {
        "players_in": [D],
        "eliminated": [C, E, A, B],
        "next_deal": None,
        "ranking": [D, B, A, E, C],
    }
    refused(actions, match_id, {"winner": D}, status=409)
    actions.finish(match_id, expect=409)


@pytest.mark.parametrize(
    "before, record, field",
    [
        ([], {"winner": A}, "winner"),  # a winner before the final
        ([{"eliminated": C}], {"eliminated": A}, "eliminated"),  # eliminated in the final
        ([], {"eliminated": A, "winner": B}, "winner"),  # both fields
        ([], {"eliminated": None}, "eliminated"),  # null
        ([], {}, "eliminated"),  # missing
        ([{"eliminated": C}], {}, "winner"),  # missing in the final
        ([{"eliminated": C}], {"winner": C}, "winner"),  # a player already out
    ],
)
def test_tournament_refusals_are_422_naming_the_field(actions, before, record, field):
    match_id = actions.start("speed_tournament", THREE)
    for earlier in before:
        actions.hand(match_id, earlier)
    assert field in refused(actions, match_id, record)["fields"]


def test_tournament_a_player_already_out_cannot_be_eliminated_again(actions):
    match_id = actions.start("speed_tournament", FOUR)
    actions.hand(match_id, {"eliminated": B})
    answer = refused(actions, match_id, {"eliminated": B})
    assert "eliminated" in answer["fields"] and "out" in answer["error"]


def test_tournament_edits_that_break_a_later_round_are_409(actions):
    match_id = actions.start("speed_tournament", FOUR)
    for record in ({"eliminated": A}, {"eliminated": B}, {"winner": C}):
        actions.hand(match_id, record)
    before = actions.match(match_id)
    assert "2" in actions.edit(match_id, 1, {"eliminated": B}, expect=409)["error"]  # round 2 names B again
    assert "3" in actions.delete(match_id, 1, expect=409)["error"]  # the final would be a round of three
    unchanged(actions, match_id, before)
    answer = actions.edit(match_id, 1, {"winner": A}, expect=422)  # a winner in a round of four
    assert "winner" in answer["fields"]
    unchanged(actions, match_id, before)
    match = actions.edit(match_id, 3, {"winner": D})
    assert match["winner"] == D and match["state"]["ranking"] == [D, C, B, A]


def test_tournament_of_two_is_the_final_alone(actions):
    match_id = actions.start("speed_tournament", TWO, first_dealer=1)
    match = actions.match(match_id)
    assert match["state"]["next_deal"] == {"cards": 52, "piles": 5, "removed": 0}
    match = actions.hand(match_id, {"winner": B})["match"]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", B, None)
    assert match["state"]["ranking"] == [B, A] and [side["score"] for side in match["sides"]] == [0, 1]


# -- the rules pages ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_is_served(client, game):
    answer = client.get(f"/rules/{game}")
    assert answer.status_code == 200 and b"<section" in answer.data
