"""The JSON API for Omi, Hasenpfeffer and Turnover Bridge (shared/api/partnership.md), as a client
script sees it.

Every write goes through `actions` (tests/conftest.py), which carries the match's key. Sides: A = 0,
B = 1; at four players A is seats 0 and 2, B seats 1 and 3."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.one_database  # a game's scoring through the API, not SQL: SQLite alone (tests/conftest.py)

A, B = 0, 1
FOUR = ["Ana", "Ben", "Cat", "Dan"]
TWO = ["Ana", "Ben"]
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
VOID = {"void": True}


def omi(a: int) -> dict:
    return {"tricks": [a, 8 - a]}


def bid(declarers: int, contract: int | None, taken: int, **extra) -> dict:
    split = [0, 0]
    split[declarers], split[1 - declarers] = taken, 6 - taken
    record = {"declarers": declarers, "tricks": split, **extra}
    if contract is not None:
        record["contract"] = contract
    return record


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


# -- the games describe themselves ---------------------------------------------------------------


def test_omi_describes_its_options_and_record(client):
    game = client.get("/api/v1/games/omi").json
    assert (game["players"], game["partnerships"]) == ({"min": 4, "max": 4}, True)
    options = {fld["name"]: fld for fld in game["options"]}
    assert list(options) == ["first_dealer", "target", "tie_bonus", "tie_bonus_on_all_eight"]
    assert options["tie_bonus"]["choices"] == ["accumulate", "single"]
    assert [fld["name"] for fld in game["hand_fields"]] == ["tricks"]
    assert game["hand_fields"][0]["total"] == 8


def test_hasenpfeffer_describes_the_played_fields_under_void(client):
    game = client.get("/api/v1/games/hasenpfeffer").json
    assert [fld["name"] for fld in game["options"]] == [
        "first_dealer",
        "target",
        "defenders_cannot_win_if_contract_made",
    ]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert list(fields) == ["void", "declarers", "contract", "forced_joker_bid", "tricks"]
    assert fields["declarers"]["when"] == {"field": "void", "values": [False]}


def test_turnover_bridge_describes_its_two_record_forms(client):
    game = client.get("/api/v1/games/turnover_bridge").json
    assert (game["players"], game["partnerships"]) == ({"min": 2, "max": 2}, False)
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "games_to_win"]
    assert [form["fields"] for form in game["record_forms"]] == [["tricks"], ["winner"]]


# -- creating matches ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, options, state",
    [
        (
            "omi",
            FOUR,
            {"first_dealer": 0, "target": 10, "tie_bonus": "accumulate", "tie_bonus_on_all_eight": True},
            {"pending_bonus": 0, "declarer": 1},
        ),
        ("hasenpfeffer", FOUR, {"first_dealer": 0, "target": 10, "defenders_cannot_win_if_contract_made": False}, {}),
        ("turnover_bridge", TWO, {"first_dealer": 0, "games_to_win": None}, {"ties": 0}),
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
        ("omi", FOUR, {"target": 0}, "target"),
        ("omi", FOUR, {"target": 101}, "target"),
        ("omi", FOUR, {"tie_bonus": "double"}, "tie_bonus"),
        ("omi", FOUR, {"tie_bonus_on_all_eight": "sometimes"}, "tie_bonus_on_all_eight"),
        ("omi", FOUR, {"first_dealer": 4}, "first_dealer"),
        ("omi", FOUR, {"direction": "left"}, "direction"),
        ("hasenpfeffer", FOUR, {"target": -5}, "target"),
        ("hasenpfeffer", FOUR, {"defenders_cannot_win_if_contract_made": 3}, "defenders_cannot_win_if_contract_made"),
        ("turnover_bridge", TWO, {"games_to_win": 0}, "games_to_win"),
        ("turnover_bridge", TWO, {"first_dealer": 2}, "first_dealer"),
    ],
)
def test_bad_options_are_refused_with_422_naming_the_option(actions, game, players, options, field):
    answer = actions.create({"game": game, "players": players, "options": options})
    assert answer.status_code == 422, answer.json
    assert field in answer.json["fields"]


@pytest.mark.parametrize("game, players", [("omi", TWO), ("hasenpfeffer", FOUR[:3]), ("turnover_bridge", FOUR)])
def test_the_wrong_number_of_players_is_refused(actions, game, players):
    assert actions.create({"game": game, "players": players}).status_code == 422


# -- Omi -----------------------------------------------------------------------------------------


def test_omi_hand_scores_by_the_dealers_team_and_shows_the_declarer(actions):
    match_id = actions.start("omi", FOUR, first_dealer=1)
    answer = actions.hand(match_id, omi(6))  # seat 1 deals: A is the declarer's team
    assert (answer["number"], answer["changes"]) == (1, [1, 0])
    assert answer["reasons"] == ["A, the declarer's team, took 6 of 8 tricks: +1"]
    match = answer["match"]
    assert (match["dealer"], match["state"]) == (2, {"pending_bonus": 0, "declarer": 3})
    assert match["hands"][0]["record"] == {"tricks": [6, 2]}


def test_omi_tie_bonus_is_pending_then_shown_in_the_winners_changes(actions):
    match_id = actions.start("omi", FOUR)
    match = play(actions, match_id, omi(4), omi(4))
    assert match["state"] == {"pending_bonus": 2, "declarer": 3} and scores(match) == [0, 0]
    answer = actions.hand(match_id, omi(0))  # seat 2 (A) deals; B sweeps: 3 + 2
    assert answer["changes"] == [0, 5]
    assert answer["reasons"] == ["B took all eight tricks: +3", "B wins the pending 4-4 bonus: +2"]
    assert answer["match"]["state"]["pending_bonus"] == 0


def test_omi_single_tie_bonus_and_no_bonus_on_all_eight(actions):
    single = actions.start("omi", FOUR, tie_bonus="single")
    assert play(actions, single, omi(4), omi(4), omi(4))["state"]["pending_bonus"] == 1
    strict = actions.start("omi", FOUR, tie_bonus_on_all_eight=False)
    match = play(actions, strict, omi(4), omi(8))
    assert scores(match) == [3, 0] and match["state"]["pending_bonus"] == 0


@pytest.mark.parametrize(
    "record, field",
    [
        (omi(4) | {"tricks": [5, 2]}, "tricks"),
        ({"tricks": [9, -1]}, "tricks"),
        ({"tricks": [8]}, "tricks"),
        ({"tricks": ["five", "three"]}, "tricks"),
        ({}, "tricks"),
        ({"tricks": [5, 3], "dealer": 0}, "dealer"),
    ],
)
def test_omi_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("omi", FOUR)
    actions.hand(match_id, omi(5))
    assert field in refuse(actions, match_id, record)["fields"]


def test_omi_game_to_the_target_then_409_and_no_finish(actions):
    match_id = actions.start("omi", FOUR, target=4)
    match = play(actions, match_id, omi(6), omi(4), omi(6))  # A +2 (dealer's team), tie, +2 +1 bonus
    assert scores(match) == [5, 0]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", A, 3)
    assert match["hands"][-1]["reasons"][-1] == "A reaches 5 (game to 4) and wins"
    refuse(actions, match_id, omi(5), status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409


def test_omi_edit_replays_later_hands_and_409_when_it_breaks_one(actions):
    match_id = actions.start("omi", FOUR, target=4)
    play(actions, match_id, omi(6), omi(6))
    match = actions.edit(match_id, 1, omi(4))  # a tie: the next win collects the bonus
    assert scores(match) == [2, 0] and match["hands"][1]["changes"] == [2, 0]
    assert match["status"] == "in_progress"
    match = play(actions, match_id, omi(5))  # seat 2 (A) deals: +2, A reaches 4 and wins
    assert (scores(match), match["status"]) == ([4, 0], "finished")
    # a sweep in hand 1 (+3) and hand 2 (+1) would end the game at hand 2: hand 3 no longer fits
    answer = actions.write("PUT", match_id, "/hands/1", {"record": omi(8)})
    assert answer.status_code == 409 and "Hand 3" in answer.json["error"]
    assert actions.match(match_id) == match


def test_omi_delete_renumbers_and_replays(actions):
    match_id = actions.start("omi", FOUR)
    play(actions, match_id, omi(4), omi(2), omi(5))
    match = actions.delete(match_id, 1)
    # without the tie: seat 0 deals hand 1 (B declarer's team +1), seat 1 deals hand 2 (A declarer's +1)
    assert [hand["changes"] for hand in match["hands"]] == [[0, 1], [1, 0]]
    assert [hand["number"] for hand in match["hands"]] == [1, 2]
    assert match["dealer"] == 2


# -- Hasenpfeffer --------------------------------------------------------------------------------


def test_hasenpfeffer_contract_made_and_set_scores_below_zero(actions):
    match_id = actions.start("hasenpfeffer", FOUR)
    answer = actions.hand(match_id, bid(B, 4, 3))
    assert answer["changes"] == [3, -4]
    assert answer["reasons"] == ["B failed the contract 4 with 3 tricks: -4", "A defended and took 3: +3"]
    answer = actions.hand(match_id, {"declarers": A, "forced_joker_bid": True, "tricks": [4, 2]})
    assert answer["changes"] == [4, 2]
    match = answer["match"]
    assert scores(match) == [7, -2] and match["state"] == {} and match["dealer"] == 2
    assert match["hands"][1]["record"] == {"declarers": A, "forced_joker_bid": True, "tricks": [4, 2]}


def test_hasenpfeffer_void_hand_scores_nothing_and_passes_the_deal(actions):
    match_id = actions.start("hasenpfeffer", FOUR, first_dealer=3)
    answer = actions.hand(match_id, VOID)
    assert answer["changes"] == [0, 0] and answer["match"]["dealer"] == 0


@pytest.mark.parametrize(
    "record, field",
    [
        ({"void": True, "declarers": A}, "declarers"),
        ({"void": True, "tricks": [3, 3]}, "tricks"),
        ({"contract": 3, "tricks": [3, 3]}, "declarers"),
        ({"declarers": A, "contract": 3}, "tricks"),
        ({"declarers": A, "tricks": [3, 3]}, "contract"),
        (bid(A, 7, 3), "contract"),
        (bid(A, 0, 3), "contract"),
        (bid(A, 4, 3, forced_joker_bid=True), "contract"),
        ({"declarers": A, "contract": 3, "tricks": [4, 3]}, "tricks"),
        (bid(A, 3, 3, high_bidder=0), "high_bidder"),
    ],
)
def test_hasenpfeffer_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("hasenpfeffer", FOUR)
    assert field in refuse(actions, match_id, record)["fields"]


def test_hasenpfeffer_void_hand_with_a_bid_is_422_in_words(actions):
    """api/partnership.md: `void: true` with any other key is refused; the error says why."""
    match_id = actions.start("hasenpfeffer", FOUR)
    answer = refuse(actions, match_id, {**VOID, **bid(A, 3, 4)})
    assert answer["error"] == (
        "A void hand has no bid and no tricks: give the void hand, or the bid and the tricks, not both."
    )
    assert set(answer["fields"]) == {"void", "declarers", "contract", "tricks"}


def test_hasenpfeffer_declarers_win_when_both_reach_the_target(actions):
    match_id = actions.start("hasenpfeffer", FOUR)
    match = play(actions, match_id, bid(A, 2, 5), bid(B, 3, 5), bid(A, 3, 3), bid(B, 3, 3))
    assert scores(match) == [12, 12]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", B, 0)
    refuse(actions, match_id, VOID, status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409


def test_hasenpfeffer_defenders_cannot_win_on_a_made_contract_option(actions):
    match_id = actions.start("hasenpfeffer", FOUR, defenders_cannot_win_if_contract_made=True)
    match = play(actions, match_id, bid(A, 2, 4), bid(B, 1, 2), bid(B, 2, 3))
    assert scores(match) == [11, 7] and match["status"] == "in_progress"
    match = play(actions, match_id, VOID)
    assert match["status"] == "in_progress"
    match = play(actions, match_id, bid(A, 1, 0))  # A fails but still has 10, declaring: A wins
    assert scores(match) == [10, 13] and match["winner"] == A


def test_hasenpfeffer_edit_that_unmakes_the_win_reopens_the_match(actions):
    match_id = actions.start("hasenpfeffer", FOUR, target=6)
    match = play(actions, match_id, bid(A, 3, 3), bid(A, 3, 3))
    assert match["winner"] == A
    match = actions.edit(match_id, 2, VOID)
    assert (match["status"], match["winner"]) == ("in_progress", None)
    actions.hand(match_id, bid(A, 3, 3))
    assert actions.write("PUT", match_id, "/hands/1", {"record": bid(A, 6, 6)}).status_code == 409


# -- Turnover Bridge -----------------------------------------------------------------------------


def test_turnover_bridge_tricks_or_winner_and_ties_in_state(actions):
    match_id = actions.start("turnover_bridge", TWO)
    answer = actions.hand(match_id, {"tricks": [14, 9]})
    assert answer["changes"] == [1, 0] and answer["reasons"] == ["A won the game 14-9: +1 game"]
    answer = actions.hand(match_id, {"winner": None})
    assert answer["changes"] == [0, 0]
    match = actions.hand(match_id, {"winner": B})["match"]
    assert scores(match) == [1, 1] and match["state"] == {"ties": 1}
    assert match["dealer"] == 1  # alternates: 0, 1, 0 dealt
    assert match["hands"][1]["record"] == {"winner": None}


@pytest.mark.parametrize(
    "record, field",
    [
        ({"tricks": [14, 3], "winner": A}, "winner"),
        ({"tricks": [14, 3], "winner": None}, "tricks"),
        ({}, "tricks"),
        ({"tricks": [27, 0]}, "tricks"),
        ({"tricks": [14, 13]}, "tricks"),
        ({"tricks": [12, 10]}, "tricks"),
        ({"tricks": [16, 2]}, "tricks"),
        ({"winner": 2}, "winner"),
        ({"winner": A, "tricks_a": 14}, "tricks_a"),
    ],
)
def test_turnover_bridge_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("turnover_bridge", TWO)
    assert field in refuse(actions, match_id, record)["fields"]


def test_turnover_bridge_session_ends_by_finish_and_stays_finished_after_an_edit(actions):
    match_id = actions.start("turnover_bridge", TWO)
    play(actions, match_id, {"winner": A}, {"tricks": [14, 0]}, {"tricks": [10, 16]})
    match = actions.finish(match_id)
    assert (match["status"], match["winner"], scores(match)) == ("finished", A, [2, 1])
    refuse(actions, match_id, {"winner": A}, status=409)
    assert actions.write("POST", match_id, "/finish").status_code == 409
    # ruling 24: an edit keeps the session finished and decides the winner again
    match = actions.edit(match_id, 2, {"tricks": [13, 13]})
    assert (match["status"], match["winner"], match["state"]) == ("finished", None, {"ties": 1})
    match = actions.delete(match_id, 1)
    assert (match["status"], match["winner"], scores(match)) == ("finished", B, [0, 1])


def test_turnover_bridge_games_to_win_ends_it_and_refuses_finish(actions):
    match_id = actions.start("turnover_bridge", TWO, games_to_win=2)
    assert actions.write("POST", match_id, "/finish").status_code == 409
    match = play(actions, match_id, {"winner": B}, {"winner": None}, {"tricks": [2, 14]})
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", B, 1)
    assert match["hands"][-1]["reasons"][-1] == "B has 2 games and wins the session"
    assert actions.write("POST", match_id, "/finish").status_code == 409
    refuse(actions, match_id, {"winner": A}, status=409)


def test_turnover_bridge_stale_number_is_409(actions):
    match_id = actions.start("turnover_bridge", TWO)
    actions.hand(match_id, {"winner": A}, number=1)
    actions.hand(match_id, {"winner": A}, expect=409, number=1)
    assert len(actions.match(match_id)["hands"]) == 1


# -- the deal after the end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, players, options, records, dealer",
    [
        ("omi", FOUR, {"target": 2}, [omi(6)], 1),
        ("hasenpfeffer", FOUR, {"target": 3, "first_dealer": 3}, [VOID, bid(A, 3, 3)], 1),
        ("turnover_bridge", TWO, {"games_to_win": 1}, [{"winner": B}], 1),
    ],
)
def test_a_finished_match_names_the_seat_that_would_deal_next(actions, game, players, options, records, dealer):
    # partnership.md: "The deal passes after every hand, also after the hand that ends the match"
    match = play(actions, actions.start(game, players, **options), *records)
    assert match["status"] == "finished"
    assert match["dealer"] == dealer
