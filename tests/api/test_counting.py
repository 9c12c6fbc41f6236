"""The JSON API for Cuarenta, Tabletop Cribbage and Gin Rummy (shared/api/counting.md), as a client
script sees it.

Every write goes through `actions` (tests/conftest.py), which carries the match's key. Sides: A = 0,
B = 1; Cuarenta at four players has A = seats 0 and 2, B = seats 1 and 3 (S2:82)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.one_database  # a game's scoring through the API, not SQL: SQLite alone (tests/conftest.py)

A, B = 0, 1
FOUR = ["Ana", "Ben", "Cat", "Dan"]
THREE = FOUR[:3]
TWO = ["Ana", "Ben"]
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
LAYOUT = [
    ["5H", "5D", "5S", "5C", "JH"],  # row 28
    ["AS", "2S", "3S", "4S", "6S"],  # row 11
    ["7H", "8D", "9C", "KS", "QD"],  # row 5
    ["2H", "2D", "9H", "TD", "QC"],  # row 2
    ["3D", "4D", "6C", "7C", "KH"],  # row 0
]


def ev(side: int, kind: str) -> dict:
    return {"side": side, "type": kind}


def check_shape(match: dict, game: str, players: list[str]) -> None:
    assert set(match) - {"headline"} == MATCH_KEYS
    assert match["game"] == game and match["players"] == players
    assert [hand["number"] for hand in match["hands"]] == list(range(1, len(match["hands"]) + 1))
    for hand in match["hands"]:
        assert set(hand) == {"number", "record", "changes", "reasons"}
        assert len(hand["changes"]) == 2 and all(isinstance(reason, str) for reason in hand["reasons"])


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


# -- the games describe themselves -------------------------------------------------------------------


def test_the_three_games_are_listed(client):
    keys = {game["key"] for game in client.get("/api/v1/games").json}
    assert {"cuarenta", "tabletop_cribbage", "gin_rummy"} <= keys


def test_cuarenta_describes_its_events_field(client):
    game = client.get("/api/v1/games/cuarenta").json
    assert (game["players"], game["partnerships"]) == ({"min": 2, "max": 4}, True)
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "carton_rule", "ronda_by"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["events"]["type"] == "events"
    assert fields["events"]["types"] == ["ronda", "caida", "limpia", "caida_limpia", "ronda_capture", "four_of_a_kind"]
    assert fields["cards"]["type"] == "per_side" and fields["cards"]["max"] == 40


def test_tabletop_cribbage_describes_its_three_record_forms(client):
    game = client.get("/api/v1/games/tabletop_cribbage").json
    forms = {form["name"]: form["fields"] for form in game["record_forms"]}
    assert forms == {"lines": ["rows", "columns"], "totals": ["row_total", "column_total"], "cards": ["grid"]}
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["rows"]["type"] == "int_list" and fields["rows"]["exclude"] == [1, 19, 25, 26, 27]
    assert (fields["grid"]["type"], fields["grid"]["rows"], fields["grid"]["columns"]) == ("grid", 5, 5)
    options = {fld["name"]: fld for fld in game["options"]}
    assert options["target"]["choices"] == [121, 61]


def test_gin_rummy_describes_its_options(client):
    game = client.get("/api/v1/games/gin_rummy").json
    assert [fld["name"] for fld in game["options"]] == [
        "first_dealer",
        "target",
        "gin_bonus",
        "undercut_bonus",
        "game_bonus",
        "box_bonus",
        "shutout",
        "oklahoma",
    ]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["knocker"]["when"] == {"field": "outcome", "values": ["knock", "gin"]}
    assert (fields["spade_upcard"]["type"], fields["spade_upcard"]["default"]) == ("bool", False)


# -- creating matches --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, options, state",
    [
        (
            "cuarenta",
            TWO,
            {"first_dealer": 0, "carton_rule": "seed", "ronda_by": "rank"},
            {"limpia_open": [True, True]},
        ),
        (
            "cuarenta",
            FOUR,
            {"first_dealer": 0, "carton_rule": "seed", "ronda_by": "rank"},
            {"limpia_open": [True, True]},
        ),
        ("tabletop_cribbage", TWO, {"first_dealer": 0, "target": 121}, {}),
        (
            "gin_rummy",
            TWO,
            {
                "first_dealer": 0,
                "target": 100,
                "gin_bonus": 25,
                "undercut_bonus": 25,
                "game_bonus": 100,
                "box_bonus": 25,
                "shutout": "double_game_bonus",
                "oklahoma": False,
            },
            {"points": [0, 0], "boxes": [0, 0]},
        ),
    ],
)
def test_a_new_match_has_the_contract_shape_and_defaults(actions, game, players, options, state):
    match = actions.match(actions.start(game, players))
    check_shape(match, game, players)
    assert match["options"] == options and match["state"] == state
    assert (match["status"], match["winner"], match["dealer"], match["hands"]) == ("in_progress", None, 0, [])
    assert scores(match) == [0, 0]
    if len(players) == 4:
        assert [side["players"] for side in match["sides"]] == [["Ana", "Cat"], ["Ben", "Dan"]]
    else:
        assert [side["players"] for side in match["sides"]] == [["Ana"], ["Ben"]]


@pytest.mark.parametrize(
    "game, players, options, field",
    [
        ("cuarenta", TWO, {"carton_rule": "chile"}, "carton_rule"),
        ("cuarenta", TWO, {"ronda_by": "colour"}, "ronda_by"),
        ("cuarenta", FOUR, {"first_dealer": 4}, "first_dealer"),
        ("tabletop_cribbage", TWO, {"target": 100}, "target"),
        ("tabletop_cribbage", TWO, {"skunk": True}, "skunk"),
        ("gin_rummy", TWO, {"target": 5}, "target"),
        ("gin_rummy", TWO, {"gin_bonus": -1}, "gin_bonus"),
        ("gin_rummy", TWO, {"shutout": "triple"}, "shutout"),
        ("gin_rummy", TWO, {"game_bonus": 1001}, "game_bonus"),
    ],
)
def test_bad_options_are_refused_with_422_naming_the_option(actions, game, players, options, field):
    answer = actions.create({"game": game, "players": players, "options": options})
    assert answer.status_code == 422, answer.json
    assert field in answer.json["fields"]


@pytest.mark.parametrize(
    "game, players",
    [
        ("cuarenta", THREE),
        ("cuarenta", ["Ana"]),
        ("cuarenta", FOUR + ["Eve"]),
        ("tabletop_cribbage", THREE),
        ("gin_rummy", FOUR),
    ],
)
def test_the_wrong_number_of_players_is_refused(actions, game, players):
    answer = actions.create({"game": game, "players": players})
    assert answer.status_code == 422, answer.json
    if players == THREE:
        assert "players" in answer.json["fields"]


@pytest.mark.parametrize(
    "game, players, record",
    [
        ("cuarenta", TWO, {"cards": [10, 10]}),
        ("tabletop_cribbage", TWO, {"row_total": 10, "column_total": 10}),
        ("gin_rummy", TWO, {"outcome": "draw"}),
    ],
)
def test_finish_is_refused_before_and_after_the_end(actions, game, players, record):
    match_id = actions.start(game, players)
    actions.hand(match_id, record)
    actions.finish(match_id, expect=409)
    assert actions.match(match_id)["status"] == "in_progress"


@pytest.mark.parametrize(
    "game, players, records, dealer",
    [
        ("cuarenta", TWO, [{"events": [ev(A, "four_of_a_kind")]}], 1),  # the deal passes also after the end
        ("tabletop_cribbage", TWO, [{"row_total": 121}], 1),
        ("gin_rummy", TWO, [{"outcome": "draw"}, {"outcome": "gin", "knocker": B, "deadwood": [80, 0]}], 1),
    ],
)
def test_a_finished_match_names_who_would_deal_next(actions, game, players, records, dealer):
    match = play(actions, actions.start(game, players), *records)
    assert (match["status"], match["dealer"]) == ("finished", dealer)


# -- Cuarenta ----------------------------------------------------------------------------------------


def test_cuarenta_round_events_then_card_count(actions):
    match_id = actions.start("cuarenta", FOUR, first_dealer=1)
    answer = actions.hand(
        match_id, {"events": [ev(A, "ronda"), ev(B, "ronda_capture"), ev(A, "caida")], "cards": [20, 20]}
    )
    # A: ronda 4 + caida 2 + 6 for 20-20 as the non-dealer side (seat 1 dealt, side B); B: 10
    assert answer["changes"] == [12, 10] and len(answer["reasons"]) == 4
    match = answer["match"]
    assert scores(match) == [12, 10] and match["dealer"] == 2 and match["state"] == {"limpia_open": [True, True]}
    assert match["hands"][0]["record"]["events"][1] == {"side": B, "type": "ronda_capture"}


def test_cuarenta_reaching_40_wins_at_once_the_deal_still_moves(actions):
    match_id = actions.start("cuarenta", TWO)
    # 19 limpias = 38 for A (limpia_open closes), then the carton: 20 cards, 6 more: 44
    match = play(actions, match_id, {"events": [ev(A, "limpia")] * 19, "cards": [16, 16]})
    assert scores(match) == [38, 0] and match["state"] == {"limpia_open": [False, True]}
    answer = actions.hand(match_id, {"events": [ev(B, "ronda"), ev(A, "limpia"), ev(A, "caida")]})
    assert answer["changes"] == [2, 4]
    match = answer["match"]
    assert (match["status"], match["winner"], scores(match), match["dealer"]) == ("finished", A, [40, 4], 0)
    actions.hand(match_id, {"cards": [10, 10]}, expect=409)
    actions.finish(match_id, expect=409)


def test_cuarenta_four_of_a_kind_wins_leaving_the_points(actions):
    match_id = actions.start("cuarenta", TWO)
    match = actions.hand(match_id, {"events": [ev(B, "caida"), ev(B, "four_of_a_kind")]})["match"]
    assert (match["winner"], scores(match)) == (B, [0, 2])


@pytest.mark.parametrize(
    "record, field",
    [
        ({"events": [ev(A, "caida")]}, "cards"),  # played to the end: cards needed
        ({"events": [], "cards": [30, 11]}, "cards"),
        ({"events": [ev(B, "ronda_capture")], "cards": [10, 10]}, "events"),
        ({"events": [ev(A, "ronda")] * 5, "cards": [10, 10]}, "events"),
        ({"events": [{"side": A, "type": "escoba"}], "cards": [10, 10]}, "events"),
        ({"events": [{"side": A}], "cards": [10, 10]}, "events"),
        ({"events": [{"side": 2, "type": "caida"}], "cards": [10, 10]}, "events"),
        ({"events": "caida", "cards": [10, 10]}, "events"),
        ({"cards": [10, 10, 10]}, "cards"),
        ({"cards": [10, 10], "points": 3}, "points"),
    ],
)
def test_cuarenta_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("cuarenta", TWO)
    assert field in refuse(actions, match_id, record)["fields"]


def test_cuarenta_events_after_the_win_and_cards_after_a_win_are_422(actions):
    match_id = actions.start("cuarenta", TWO)
    play(actions, match_id, {"events": [ev(A, "caida")] * 18, "cards": [10, 10]})  # A 36
    body = refuse(actions, match_id, {"events": [ev(A, "ronda"), ev(B, "caida")]})
    assert "events" in body["fields"] and "entry 2" in body["fields"]["events"]
    assert "cards" in refuse(actions, match_id, {"events": [ev(A, "ronda")], "cards": [5, 5]})["fields"]


def test_cuarenta_edit_that_ends_the_game_earlier_is_409_and_nothing_changes(actions):
    match_id = actions.start("cuarenta", TWO)
    play(actions, match_id, {"cards": [10, 10]}, {"cards": [22, 10]})
    before = actions.match(match_id)
    body = actions.edit(match_id, 1, {"events": [ev(A, "four_of_a_kind")]}, expect=409)
    assert body["error"]
    assert actions.match(match_id) == before
    # an edit that keeps every later round possible is replayed
    match = actions.edit(match_id, 1, {"events": [ev(B, "ronda")], "cards": [10, 10]})
    assert scores(match) == [7, 4]
    match = actions.delete(match_id, 1)
    assert [hand["number"] for hand in match["hands"]] == [1] and scores(match) == [7, 0]
    assert match["dealer"] == 1


# -- Tabletop Cribbage -------------------------------------------------------------------------------


def test_cribbage_line_scores_rows_to_the_non_dealer(actions):
    match_id = actions.start("tabletop_cribbage", TWO, target=61)
    answer = actions.hand(match_id, {"rows": [8, 4, 0, 12, 2], "columns": [6, 6, 0, 2, 3]})
    assert answer["changes"] == [17, 26] and answer["match"]["dealer"] == 1
    # hand 2: B deals, A scores the rows from the layout (46) and reaches 63 first
    answer = actions.hand(match_id, {"grid": LAYOUT})
    assert answer["changes"] == [46, 0]
    match = answer["match"]
    assert (match["status"], match["winner"], scores(match), match["state"]) == ("finished", A, [63, 26], {})
    actions.hand(match_id, {"row_total": 2, "column_total": 2}, expect=409)


def test_cribbage_columns_may_be_left_out_only_when_the_rows_win(actions):
    match_id = actions.start("tabletop_cribbage", TWO, target=61)
    assert "column_total" in refuse(actions, match_id, {"row_total": 60})["fields"]
    match = actions.hand(match_id, {"row_total": 61})["match"]
    assert (match["winner"], scores(match)) == (B, [0, 61])


@pytest.mark.parametrize(
    "record, field",
    [
        ({"rows": [1, 0, 0, 0, 0], "columns": [0] * 5}, "rows"),
        ({"rows": [0] * 5, "columns": [0, 0, 0, 0, 27]}, "columns"),
        ({"rows": [0] * 4, "columns": [0] * 5}, "rows"),
        ({"row_total": 141, "column_total": 0}, "row_total"),
        ({"rows": [0] * 5, "columns": [0] * 5, "row_total": 0}, "row_total"),
        ({"grid": LAYOUT, "row_total": 0}, "grid"),  # two forms: the later form's field is named
        ({"grid": LAYOUT[:4]}, "grid"),
        ({"grid": [LAYOUT[0]] * 5}, "grid"),
        ({"grid": [["ZZ", "5D", "5S", "5C", "JH"]] + LAYOUT[1:]}, "grid"),
    ],
)
def test_cribbage_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("tabletop_cribbage", TWO)
    assert field in refuse(actions, match_id, record)["fields"]


def test_cribbage_empty_record_is_422(actions):
    match_id = actions.start("tabletop_cribbage", TWO)
    refuse(actions, match_id, {})


def test_cribbage_edit_breaking_a_later_hand_is_409(actions):
    match_id = actions.start("tabletop_cribbage", TWO, target=61)
    play(actions, match_id, {"row_total": 30, "column_total": 30}, {"row_total": 20, "column_total": 20})
    before = actions.match(match_id)
    assert scores(before) == [50, 50]
    actions.edit(match_id, 1, {"row_total": 70}, expect=409)
    assert actions.match(match_id) == before
    match = actions.edit(match_id, 2, {"row_total": 31})  # A's rows reach 61: B's columns left out
    assert (match["winner"], scores(match)) == (A, [61, 30])


# -- Gin Rummy ---------------------------------------------------------------------------------------


def test_gin_rummy_hands_bonuses_and_dealer(actions):
    match_id = actions.start("gin_rummy", TWO)
    answer = actions.hand(match_id, {"outcome": "draw"})
    assert answer["changes"] == [0, 0] and answer["match"]["dealer"] == 0  # the same dealer again
    answer = actions.hand(match_id, {"outcome": "knock", "knocker": A, "deadwood": [8, 8]})
    assert answer["changes"] == [0, 25] and answer["match"]["dealer"] == 1  # undercut
    answer = actions.hand(match_id, {"outcome": "gin", "knocker": A, "deadwood": [0, 40]})
    assert answer["changes"] == [65, 0]
    match = answer["match"]
    assert match["state"] == {"points": [65, 25], "boxes": [1, 1]}
    assert (match["status"], match["winner"], scores(match)) == ("in_progress", None, [65, 25])


def test_gin_rummy_end_of_game_bonuses_in_the_last_hand(actions):
    match_id = actions.start("gin_rummy", TWO, target=50)
    actions.hand(match_id, {"outcome": "knock", "knocker": A, "deadwood": [8, 8]})  # B undercut: 25
    answer = actions.hand(match_id, {"outcome": "gin", "knocker": A, "deadwood": [0, 30]})  # A 55
    # A: 55 + game 100 + 1 box 25; B: 1 box 25
    assert answer["changes"] == [55 + 100 + 25, 25]
    match = answer["match"]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", A, 0)
    assert scores(match) == [180, 50] and match["state"] == {"points": [55, 25], "boxes": [1, 1]}
    actions.hand(match_id, {"outcome": "draw"}, expect=409)
    actions.finish(match_id, expect=409)


def test_gin_rummy_shutout_doubles_the_game_bonus(actions):
    match_id = actions.start("gin_rummy", TWO, target=10)
    match = actions.hand(match_id, {"outcome": "knock", "knocker": B, "deadwood": [20, 5]})["match"]
    assert (match["winner"], scores(match)) == (B, [0, 15 + 200 + 25])


def test_gin_rummy_oklahoma_a_spade_upcard_doubles_the_hand(actions):
    match_id = actions.start("gin_rummy", TWO, oklahoma=True)
    spade = {"spade_upcard": True}
    answer = actions.hand(match_id, {"outcome": "knock", "knocker": A, "deadwood": [5, 20], **spade})
    assert answer["changes"] == [30, 0] and answer["reasons"] == [
        "A knocked with 5 against 20: +15",
        "A: the first upcard was a spade, so the hand counts double: +30",
    ]
    answer = actions.hand(match_id, {"outcome": "knock", "knocker": A, "deadwood": [8, 8], "spade_upcard": False})
    assert answer["changes"] == [0, 25]  # another upcard: the undercut as ever
    answer = actions.hand(match_id, {"outcome": "gin", "knocker": B, "deadwood": [10, 0], **spade})
    assert answer["changes"] == [0, 70] and answer["match"]["hands"][-1]["record"]["spade_upcard"] is True
    match = answer["match"]
    assert match["options"]["oklahoma"] is True and match["state"] == {"points": [30, 95], "boxes": [1, 2]}
    # an edit that unticks the spade halves that hand
    match = actions.edit(match_id, 3, {"outcome": "gin", "knocker": B, "deadwood": [10, 0]})
    assert match["state"]["points"] == [30, 60]


@pytest.mark.parametrize("flag", [True, False])
def test_gin_rummy_a_spade_upcard_without_the_oklahoma_option_is_422(actions, flag):
    match_id = actions.start("gin_rummy", TWO)
    refused = refuse(actions, match_id, {"outcome": "knock", "knocker": A, "deadwood": [5, 20], "spade_upcard": flag})
    assert "spade_upcard" in refused["fields"] and "only given when the option" in refused["error"]


def test_gin_rummy_a_spade_upcard_must_be_true_or_false(actions):
    match_id = actions.start("gin_rummy", TWO, oklahoma=True)
    refused = refuse(actions, match_id, {"outcome": "draw", "spade_upcard": "yes"})
    assert "spade_upcard" in refused["fields"]


@pytest.mark.parametrize(
    "record, field",
    [
        ({"outcome": "knock", "knocker": A, "deadwood": [0, 9]}, "deadwood"),
        ({"outcome": "knock", "knocker": A, "deadwood": [11, 9]}, "deadwood"),
        ({"outcome": "gin", "knocker": A, "deadwood": [1, 9]}, "deadwood"),
        ({"outcome": "knock", "deadwood": [1, 9]}, "knocker"),
        ({"outcome": "gin", "knocker": B}, "deadwood"),
        ({"outcome": "draw", "knocker": A}, "knocker"),
        ({"outcome": "draw", "deadwood": [3, 3]}, "deadwood"),
        ({"outcome": "knock", "knocker": A, "deadwood": [1, 99]}, "deadwood"),
        ({"outcome": "fold"}, "outcome"),
        ({}, "outcome"),
    ],
)
def test_gin_rummy_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("gin_rummy", TWO)
    assert field in refuse(actions, match_id, record)["fields"]


def test_gin_rummy_edit_changes_the_bonuses_and_a_breaking_edit_is_409(actions):
    match_id = actions.start("gin_rummy", TWO, target=50)
    play(
        actions,
        match_id,
        {"outcome": "knock", "knocker": A, "deadwood": [8, 8]},
        {"outcome": "gin", "knocker": A, "deadwood": [0, 30]},
    )
    # hand 1 now won by A: the loser won no hand, a shutout
    match = actions.edit(match_id, 1, {"outcome": "knock", "knocker": A, "deadwood": [2, 8]})
    assert (match["winner"], scores(match)) == (A, [61 + 200 + 50, 0])
    # hand 1 as a gin worth 50 ends the game before hand 2: 409, nothing changes
    before = actions.match(match_id)
    actions.edit(match_id, 1, {"outcome": "gin", "knocker": A, "deadwood": [0, 25]}, expect=409)
    assert actions.match(match_id) == before
    # deleting the last hand reopens the game
    match = actions.delete(match_id, 2)
    assert (match["status"], match["winner"], scores(match)) == ("in_progress", None, [6, 0])
