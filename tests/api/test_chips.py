"""The JSON API for Toepen, Bura and Calabrasella (shared/api/chips.md), as a client script sees it.

Every write goes through `actions` (tests/conftest.py), which carries the match's key. None of the
three is a partnership game: side i = seat i."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.one_database  # a game's scoring through the API, not SQL: SQLite alone (tests/conftest.py)

A, B, C, D = 0, 1, 2, 3
THREE = ["Ana", "Ben", "Cat"]
FOUR = ["Ana", "Ben", "Cat", "Dan"]
TWO = ["Ana", "Ben"]
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
DRAW = {"outcome": "draw"}
ALL_PASSED = {"declarer": None}


def declare(side: int, points: int, **extra) -> dict:
    return {"outcome": "declaration", "side": side, "points": points, **extra}


def played(declarer: int, ours: int, theirs: int) -> dict:
    return {"declarer": declarer, "declarer_points": ours, "defender_points": theirs}


def check_shape(match: dict, game: str, players: list[str]) -> None:
    assert set(match) - {"headline"} == MATCH_KEYS
    assert match["game"] == game and match["players"] == players
    assert [side["players"] for side in match["sides"]] == [[name] for name in players]
    assert [hand["number"] for hand in match["hands"]] == list(range(1, len(match["hands"]) + 1))
    for hand in match["hands"]:
        assert set(hand) == {"number", "record", "changes", "reasons"}
        assert len(hand["changes"]) == len(players) and all(isinstance(reason, str) for reason in hand["reasons"])


def refuse(actions, match_id: int, record, status: int = 422) -> dict:
    """A refused hand: the status, an error sentence, and nothing changed."""
    before = actions.match(match_id)
    answer = actions.write("POST", match_id, "/hands", {"record": record})
    assert answer.status_code == status, (record, answer.json)
    assert set(answer.json) == {"error", "fields"} and answer.json["error"]
    assert actions.match(match_id) == before
    return answer.json


def play(actions, match_id: int, *records) -> dict:
    answer = None
    for record in records:
        answer = actions.hand(match_id, record)
    return answer["match"]


def scores(match: dict) -> list[int]:
    return [side["score"] for side in match["sides"]]


# -- the games describe themselves ---------------------------------------------------------------------


def test_toepen_describes_its_options_and_record(client):
    game = client.get("/api/v1/games/toepen").json
    assert (game["players"], game["partnerships"]) == ({"min": 3, "max": 8}, False)
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "starting_tokens", "elimination", "allow_debt"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert list(fields) == ["winner", "value", "folded_at", "challenges_lost"]
    assert fields["winner"]["type"] == "seat" and fields["value"]["default"] == 1
    assert fields["folded_at"]["type"] == fields["challenges_lost"]["type"] == "per_side"


def test_bura_describes_the_false_declarations_as_a_side_list(client):
    game = client.get("/api/v1/games/bura").json
    assert (game["players"], game["partnerships"]) == ({"min": 2, "max": 2}, False)
    options = {fld["name"]: fld for fld in game["options"]}
    assert list(options) == ["first_dealer", "starting_tokens", "false_declaration", "next_dealer"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert list(fields) == ["outcome", "side", "points", "false_declarations"]
    listed = fields["false_declarations"]
    assert (listed["type"], listed["max_length"]) == ("side_list", 18)
    assert listed["when"] == {"option": "false_declaration", "values": ["play_on"]}


def test_calabrasella_describes_a_declarer_that_can_be_nobody(client):
    game = client.get("/api/v1/games/calabrasella").json
    assert (game["players"], game["partnerships"]) == ({"min": 3, "max": 3}, False)
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "set_aside_to"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["declarer"]["nullable"] is True and fields["declarer"]["required"] is True
    assert fields["declarer_points"]["when"] == {"field": "declarer", "values": [0, 1, 2]}


# -- new matches -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, options, score, state",
    [
        ("toepen", FOUR, {}, [10, 10, 10, 10], {"out": []}),
        ("toepen", THREE, {"starting_tokens": 4, "elimination": True}, [4, 4, 4], {"out": []}),
        ("bura", TWO, {}, [20, 20], {"pot": 0}),
        ("bura", TWO, {"starting_tokens": 7}, [7, 7], {"pot": 0}),
        ("calabrasella", THREE, {}, [0, 0, 0], {}),
    ],
)
def test_a_new_match_has_the_contract_shape_and_balances(actions, game, players, options, score, state):
    match = actions.match(actions.start(game, players, first_dealer=1, **options))
    check_shape(match, game, players)
    assert (match["status"], match["winner"], match["dealer"], match["state"]) == ("in_progress", None, 1, state)
    assert scores(match) == score and match["hands"] == []
    assert match["options"]["first_dealer"] == 1


@pytest.mark.parametrize(
    "game, players, options, field",
    [
        ("toepen", FOUR, {"starting_tokens": 0}, "starting_tokens"),
        ("toepen", FOUR, {"elimination": "sometimes"}, "elimination"),
        ("toepen", FOUR, {"first_dealer": 4}, "first_dealer"),
        ("bura", TWO, {"starting_tokens": 1001}, "starting_tokens"),
        ("bura", TWO, {"false_declaration": "Play_On"}, "false_declaration"),
        ("bura", TWO, {"next_dealer": "loser"}, "next_dealer"),
        ("calabrasella", THREE, {"set_aside_to": "widow"}, "set_aside_to"),
        ("calabrasella", THREE, {"buy_in": 50}, "buy_in"),
    ],
)
def test_bad_options_are_refused_with_422_naming_the_option(actions, game, players, options, field):
    answer = actions.create({"game": game, "players": players, "options": options})
    assert answer.status_code == 422 and field in answer.json["fields"]


@pytest.mark.parametrize(
    "game, players", [("toepen", TWO), ("toepen", [f"P{i}" for i in range(9)]), ("bura", THREE), ("calabrasella", FOUR)]
)
def test_the_wrong_number_of_players_is_refused(actions, game, players):
    assert actions.create({"game": game, "players": players, "options": {}}).status_code == 422


# -- Toepen ----------------------------------------------------------------------------------------------------


def test_toepen_hand_charges_losers_and_folders_and_the_winner_deals(actions):
    match_id = actions.start("toepen", FOUR)
    record = {"winner": C, "value": 3, "folded_at": [0, 2, 0, 1], "challenges_lost": [1, 0, 0, 0]}
    answer = actions.hand(match_id, record)
    assert answer["number"] == 1 and answer["changes"] == [-4, -2, 0, -1]
    # reasons name the side by its player's name, or by its letter where the table is not named
    assert {"Cat won the hand: pays nothing", "C won the hand: pays nothing"} & set(answer["reasons"])
    match = answer["match"]
    assert scores(match) == [6, 8, 10, 9] and match["dealer"] == C and match["state"] == {"out": []}
    check_shape(match, "toepen", FOUR)


@pytest.mark.parametrize(
    "record, field",
    [
        ({"value": 2}, "winner"),
        ({"winner": 4}, "winner"),
        ({"winner": 0, "value": 0}, "value"),
        ({"winner": 0, "value": 2, "folded_at": [0, 2, 0, 0]}, "folded_at"),  # a fold is below the value
        ({"winner": 1, "value": 2, "folded_at": [0, 1, 0, 0]}, "folded_at"),  # the winner did not fold
        ({"winner": 0, "value": 2, "folded_at": [0, 1, 0]}, "folded_at"),  # one number per player
        ({"winner": 0, "challenges_lost": [2, 2, 1, 0]}, "challenges_lost"),  # 8 - 4 at most
        ({"winner": 0, "challenges_lost": [6, 0, 0, 0]}, "challenges_lost"),
        ({"winner": 0, "value": 11}, "value"),  # nobody holds 11 tokens to knock to
        ({"winner": 0, "value": 10, "challenges_lost": [1, 1, 1, 1]}, "value"),  # 9 each after challenges
        ({"winner": 0, "knocks": 1}, "knocks"),
    ],
)
def test_toepen_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("toepen", FOUR)
    assert field in refuse(actions, match_id, record)["fields"]


def test_toepen_first_to_run_out_loses_with_no_winner(actions):
    match_id = actions.start("toepen", THREE, starting_tokens=2)
    match = play(actions, match_id, {"winner": B}, {"winner": B, "value": 2, "folded_at": [1, 0, 0]})
    assert scores(match) == [0, 2, 0]
    assert (match["status"], match["winner"], match["state"]) == ("finished", None, {"out": [A, C]})
    assert match["dealer"] == B  # the hand's winner, also once the match is over (API.md)
    refuse(actions, match_id, {"winner": B}, status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409


def test_toepen_a_balance_stops_at_zero_unless_debt_is_allowed(actions):
    record = {"winner": A, "challenges_lost": [0, 1, 0]}
    capped = actions.hand(actions.start("toepen", THREE, starting_tokens=1), record)
    assert capped["changes"] == [0, -1, -1] and scores(capped["match"]) == [1, 0, 0]
    debt = actions.hand(actions.start("toepen", THREE, starting_tokens=1, allow_debt=True), record)
    assert debt["changes"] == [0, -2, -1] and scores(debt["match"]) == [1, -1, 0]
    assert debt["match"]["state"] == {"out": [B, C]}


def test_toepen_elimination_skips_players_who_are_out_and_names_the_last_holder(actions):
    match_id = actions.start("toepen", FOUR, starting_tokens=2, elimination=True)
    match = play(actions, match_id, {"winner": A, "value": 2, "folded_at": [0, 0, 1, 1]})
    assert scores(match) == [2, 0, 1, 1] and match["state"] == {"out": [B]} and match["status"] == "in_progress"
    assert "winner" in refuse(actions, match_id, {"winner": B})["fields"]
    assert "challenges_lost" in refuse(actions, match_id, {"winner": A, "challenges_lost": [0, 1, 0, 0]})["fields"]
    # D wins but loses a challenge: C and D run out in the same hand, in seat order, and the deal
    # goes past them to A, the next player holding tokens (ruling 5)
    match = play(actions, match_id, {"winner": D, "challenges_lost": [0, 0, 0, 1]})
    assert scores(match) == [1, 0, 0, 0] and match["state"] == {"out": [B, C, D]}
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", A, A)


def test_toepen_a_winner_who_runs_out_passes_the_deal_to_the_next_holder(actions):
    # ruling 5: A wins but a lost challenge takes their last token; B is out too, so C deals
    match_id = actions.start("toepen", ["Ana", "Ben", "Cat", "Dan", "Eve"], starting_tokens=3, elimination=True)
    play(actions, match_id, {"winner": C, "value": 2, "folded_at": [0, 0, 0, 1, 1]})
    match = play(actions, match_id, {"winner": A, "challenges_lost": [1, 0, 0, 0, 0]})
    assert scores(match) == [0, 0, 2, 1, 1] and match["state"] == {"out": [A, B]}
    assert (match["status"], match["dealer"]) == ("in_progress", C)
    assert "winner" in refuse(actions, match_id, {"winner": A})["fields"]


def test_toepen_edit_that_breaks_a_later_hand_is_409_and_changes_nothing(actions):
    match_id = actions.start("toepen", FOUR, starting_tokens=2, elimination=True)
    play(actions, match_id, {"winner": A}, {"winner": B})
    before = actions.match(match_id)
    breaking = {"winner": A, "value": 2, "folded_at": [0, 0, 1, 1]}  # B is out before hand 2
    answer = actions.write("PUT", match_id, "/hands/1", {"record": breaking})
    assert answer.status_code == 409 and "2" in answer.json["error"]
    assert actions.match(match_id) == before
    # an edit that still fits replays the later hand
    match = actions.edit(match_id, 1, {"winner": C})
    assert scores(match) == [0, 1, 1, 0] and match["state"] == {"out": [A, D]}
    assert match["hands"][1]["changes"] == [-1, 0, -1, -1]


def test_toepen_delete_replays_and_can_reopen_a_finished_match(actions):
    match_id = actions.start("toepen", THREE, starting_tokens=2)
    match = play(actions, match_id, {"winner": A}, {"winner": A})
    assert match["status"] == "finished" and match["state"] == {"out": [B, C]}
    match = actions.delete(match_id, 1)
    assert (match["status"], scores(match), match["state"]) == ("in_progress", [2, 1, 1], {"out": []})
    assert [hand["number"] for hand in match["hands"]] == [1]


def test_toepen_stale_number_is_409(actions):
    match_id = actions.start("toepen", THREE)
    actions.hand(match_id, {"winner": A})
    answer = actions.write("POST", match_id, "/hands", {"record": {"winner": A}, "number": 1})
    assert answer.status_code == 409 and len(actions.match(match_id)["hands"]) == 1


# -- Bura ------------------------------------------------------------------------------------------------------


def test_bura_pot_carries_over_and_the_taker_deals(actions):
    match_id = actions.start("bura", TWO)
    answer = actions.hand(match_id, DRAW)
    assert answer["changes"] == [-1, -1] and answer["match"]["state"] == {"pot": 2} and answer["match"]["dealer"] == B
    answer = actions.hand(match_id, declare(A, 25))  # false: A pays in the 4 the pot holds
    assert answer["changes"] == [-5, -1] and answer["match"]["state"] == {"pot": 8} and answer["match"]["dealer"] == A
    answer = actions.hand(match_id, {"outcome": "bura", "side": B})
    assert answer["changes"] == [-1, 9] and answer["match"]["state"] == {"pot": 0}
    match = answer["match"]
    assert scores(match) == [13, 27] and match["dealer"] == B and match["status"] == "in_progress"
    check_shape(match, "bura", TWO)


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "outcome"),
        ({"outcome": "declaration", "points": 40}, "side"),
        ({"outcome": "declaration", "side": 0}, "points"),
        ({"outcome": "declaration", "side": 0, "points": 121}, "points"),
        ({"outcome": "draw", "side": 1}, "side"),
        ({"outcome": "bura", "side": 1, "points": 31}, "points"),
        ({"outcome": "draw", "false_declarations": [0]}, "false_declarations"),  # only with play_on
        ({"outcome": "declaration", "side": 2, "points": 40}, "side"),
    ],
)
def test_bura_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("bura", TWO)
    assert field in refuse(actions, match_id, record)["fields"]


@pytest.mark.parametrize(
    "record, field",
    [
        (declare(0, 30), "points"),  # with play_on a short declaration goes in the list
        ({"outcome": "draw", "false_declarations": 1}, "false_declarations"),
        ({"outcome": "draw", "false_declarations": [0, 2]}, "false_declarations"),
        ({"outcome": "draw", "false_declarations": [0.5]}, "false_declarations"),
        ({"outcome": "draw", "false_declarations": [1] * 19}, "false_declarations"),
    ],
)
def test_bura_play_on_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("bura", TWO, false_declaration="play_on")
    assert field in refuse(actions, match_id, record)["fields"]


def test_bura_play_on_false_declarations_pay_in_order(actions):
    match_id = actions.start("bura", TWO, false_declaration="play_on", next_dealer="alternate")
    answer = actions.hand(match_id, declare(B, 31, false_declarations=[A, B]))
    assert answer["changes"] == [-3, 3] and answer["match"]["state"] == {"pot": 0}
    assert answer["match"]["dealer"] == B  # alternate: the deal passes whoever took the pot
    answer = actions.hand(match_id, {"outcome": "draw", "false_declarations": []})
    assert answer["changes"] == [-1, -1] and answer["match"]["dealer"] == A


def test_bura_player_who_cannot_ante_ends_the_session_and_finish_is_409(actions):
    match_id = actions.start("bura", TWO, starting_tokens=2)
    match = play(actions, match_id, declare(A, 40), declare(A, 31))
    assert scores(match) == [4, 0] and (match["status"], match["winner"]) == ("finished", A)
    refuse(actions, match_id, DRAW, status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409


def test_bura_both_broke_is_a_draw_and_the_pot_counts_for_nobody(actions):
    match = play(actions, actions.start("bura", TWO, starting_tokens=1), DRAW)
    assert (match["status"], match["winner"], scores(match), match["state"]) == ("finished", None, [0, 0], {"pot": 2})


def test_bura_finish_gives_the_win_to_more_tokens_and_stays_finished_after_edits(actions):
    match_id = actions.start("bura", TWO)
    play(actions, match_id, declare(B, 40), DRAW)
    match = actions.finish(match_id)
    assert (match["status"], match["winner"], scores(match), match["state"]) == ("finished", B, [18, 20], {"pot": 2})
    refuse(actions, match_id, DRAW, status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409
    match = actions.edit(match_id, 1, declare(A, 40))  # the winner is decided again
    assert (match["status"], match["winner"], scores(match)) == ("finished", A, [20, 18])
    match = actions.edit(match_id, 2, declare(B, 40))
    assert (match["status"], match["winner"], scores(match)) == ("finished", None, [20, 20])


def test_bura_edit_that_ends_the_session_before_a_later_hand_is_409(actions):
    match_id = actions.start("bura", TWO, starting_tokens=2)
    play(actions, match_id, declare(A, 40), DRAW)
    before = actions.match(match_id)
    answer = actions.write("PUT", match_id, "/hands/1", {"record": declare(A, 10)})
    assert answer.status_code == 409 and "2" in answer.json["error"]
    assert actions.match(match_id) == before


# -- Calabrasella ----------------------------------------------------------------------------------------------


def test_calabrasella_payments_balance_to_zero_and_the_deal_moves_left(actions):
    match_id = actions.start("calabrasella", THREE)
    answer = actions.hand(match_id, played(A, 19, 16))
    assert answer["changes"] == [6, -3, -3] and answer["match"]["dealer"] == B
    answer = actions.hand(match_id, ALL_PASSED)
    assert answer["changes"] == [0, 0, 0] and answer["match"]["dealer"] == C
    answer = actions.hand(match_id, played(C, 0, 35))
    assert answer["changes"] == [70, 70, -140]
    match = answer["match"]
    assert scores(match) == [76, 67, -143] and sum(scores(match)) == 0
    assert (match["status"], match["winner"], match["state"], match["dealer"]) == ("in_progress", None, {}, A)
    check_shape(match, "calabrasella", THREE)


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "declarer"),
        ({"declarer": 3, "declarer_points": 20, "defender_points": 15}, "declarer"),
        ({"declarer": 0, "defender_points": 15}, "declarer_points"),
        ({"declarer": 0, "declarer_points": 20}, "defender_points"),
        ({"declarer": None, "declarer_points": 20, "defender_points": 15}, "declarer_points"),
        (played(0, 36, 0), "declarer_points"),
        (played(0, 11, 11), "declarer_points"),  # 22: four set-aside cards hold at most 12
        (played(0, 20, 16), "defender_points"),  # 36: more than there is
    ],
)
def test_calabrasella_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("calabrasella", THREE)
    assert field in refuse(actions, match_id, record)["fields"]


def test_calabrasella_last_trick_option_needs_counts_of_35(actions):
    match_id = actions.start("calabrasella", THREE, set_aside_to="last_trick")
    assert "declarer_points" in refuse(actions, match_id, played(B, 20, 14))["fields"]
    assert actions.hand(match_id, played(B, 35, 0))["changes"] == [-70, 140, -70]


def test_calabrasella_finish_names_the_best_balance_or_nobody(actions):
    match_id = actions.start("calabrasella", THREE)
    play(actions, match_id, played(A, 20, 15), played(B, 20, 15))
    match = actions.finish(match_id)
    assert (match["status"], match["winner"], scores(match)) == ("finished", None, [5, 5, -10])
    refuse(actions, match_id, ALL_PASSED, status=409)
    match = actions.edit(match_id, 2, played(B, 19, 16))
    assert (match["status"], match["winner"], scores(match)) == ("finished", A, [7, 1, -8])


def test_calabrasella_delete_renumbers_and_replays(actions):
    match_id = actions.start("calabrasella", THREE)
    play(actions, match_id, played(A, 20, 15), ALL_PASSED, played(C, 10, 20))
    match = actions.delete(match_id, 2)
    assert [hand["number"] for hand in match["hands"]] == [1, 2]
    assert scores(match) == [20, 5, -25] and match["dealer"] == C
