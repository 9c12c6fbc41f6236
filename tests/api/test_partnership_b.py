"""The JSON API for Tresette and Botifarra (shared/api/partnership.md), as a client script sees it.

Every write goes through `actions` (tests/conftest.py), which carries the match's key. Sides: A = 0
(seats 0 and 2), B = 1 (seats 1 and 3)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.one_database  # a game's scoring through the API, not SQL: SQLite alone (tests/conftest.py)

A, B = 0, 1
FOUR = ["Ana", "Ben", "Cat", "Dan"]
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
SUITS = "SHDC"
COUNTING = [rank + suit for suit in SUITS for rank in "A23KQJ"]


def tresette(aces=(2, 2), figures=(10, 10), last=A, melds=None) -> dict:
    record = {"aces": list(aces), "figures": list(figures), "last_trick": last}
    if melds is not None:
        record["melds"] = melds
    return record


def botifarra(a: int, trump: str = "hearts", doubling: str | None = None) -> dict:
    record = {"trump": trump, "points": [a, 72 - a]}
    if doubling is not None:
        record["doubling"] = doubling
    return record


def check_shape(match: dict, game: str) -> None:
    assert set(match) - {"headline"} == MATCH_KEYS
    assert match["game"] == game and match["players"] == FOUR
    assert [side["players"] for side in match["sides"]] == [["Ana", "Cat"], ["Ben", "Dan"]]
    assert match["state"] == {}
    assert [hand["number"] for hand in match["hands"]] == list(range(1, len(match["hands"]) + 1))


def refuse(actions, match_id: int, record, status: int = 422) -> dict:
    before = actions.match(match_id)
    answer = actions.write("POST", match_id, "/hands", {"record": record})
    assert answer.status_code == status, (record, answer.json)
    assert set(answer.json) == {"error", "fields"} and answer.json["error"]
    assert actions.match(match_id) == before  # nothing changed
    return answer.json


def scores(match: dict) -> list[int]:
    return [side["score"] for side in match["sides"]]


# -- the games describe themselves ---------------------------------------------------------------


def test_tresette_describes_its_record_forms_and_melds(client):
    game = client.get("/api/v1/games/tresette").json
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "target", "equal_at_target"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["cards"]["type"] == "cards" and fields["cards"]["ranks"] == "AKQJ765432"
    assert fields["melds"]["type"] == "group" and len(fields["melds"]["fields"]) == 10
    assert [form["fields"] for form in game["record_forms"]] == [["aces", "figures"], ["cards"]]


def test_botifarra_describes_its_fields(client):
    game = client.get("/api/v1/games/botifarra").json
    assert [fld["name"] for fld in game["options"]] == ["first_dealer", "target", "multiplier_cap"]
    fields = {fld["name"]: fld for fld in game["hand_fields"]}
    assert fields["trump"]["choices"] == ["spades", "hearts", "diamonds", "clubs", "botifarra"]
    assert fields["doubling"]["default"] == "none"
    assert fields["points"]["total"] == 72


# -- creating matches ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, options",
    [
        ("tresette", {"first_dealer": 0, "target": 31, "equal_at_target": "play_on"}),
        ("botifarra", {"first_dealer": 0, "target": 101, "multiplier_cap": None}),
    ],
)
def test_a_new_match_has_the_contract_shape_and_defaults(actions, game, options):
    match = actions.match(actions.start(game, FOUR))
    check_shape(match, game)
    assert match["options"] == options
    assert (match["status"], match["winner"], match["dealer"], match["hands"]) == ("in_progress", None, 0, [])
    assert scores(match) == [0, 0]


@pytest.mark.parametrize(
    "game, options, field",
    [
        ("tresette", {"target": 0}, "target"),
        ("tresette", {"target": 1001}, "target"),
        ("tresette", {"equal_at_target": "split"}, "equal_at_target"),
        ("tresette", {"melds": True}, "melds"),
        ("botifarra", {"multiplier_cap": 16}, "multiplier_cap"),
        ("botifarra", {"multiplier_cap": "none"}, "multiplier_cap"),
        ("botifarra", {"target": -1}, "target"),
        ("botifarra", {"first_dealer": 4}, "first_dealer"),
        ("botifarra", {"rounds": 3}, "rounds"),
    ],
)
def test_bad_options_are_refused_with_422_naming_the_option(actions, game, options, field):
    answer = actions.create({"game": game, "players": FOUR, "options": options})
    assert answer.status_code == 422 and field in answer.json["fields"]


@pytest.mark.parametrize("game", ["tresette", "botifarra"])
def test_only_four_players(actions, game):
    answer = actions.create({"game": game, "players": FOUR[:3]})
    assert answer.status_code == 422


# -- Tresette ------------------------------------------------------------------------------------


def test_tresette_hand_scores_melds_aces_figures_and_last_trick(actions):
    match_id = actions.start("tresette", FOUR, first_dealer=1)
    record = tresette(aces=(3, 1), figures=(11, 9), last=A, melds={"three_aces": A, "napoli_hearts": B})
    body = actions.hand(match_id, record)
    assert body["number"] == 1 and body["changes"] == [3 + 3 + 3 + 1, 3 + 1 + 3]
    assert body["reasons"] == [
        "A: three aces: 3",
        "B: napoli of hearts: 3",
        "A: 3 aces + 3 for 11 figures (2 lost) = 6",
        "B: 1 ace + 3 for 9 figures = 4",
        "A: last trick: 1",
        "cards and last trick: 11 in all, as every hand; melds 6 more",
    ]
    match = body["match"]
    check_shape(match, "tresette")
    assert scores(match) == [10, 7] and match["dealer"] == 2
    assert match["hands"][0]["record"] == record


def test_tresette_counts_the_cards_it_is_given(actions):
    match_id = actions.start("tresette", FOUR)
    piles = [COUNTING[:12] + ["7S", "4H"], COUNTING[12:]]  # spades and hearts to A, plus two low cards
    body = actions.hand(match_id, {"cards": piles, "last_trick": B})
    assert body["changes"] == [2 + 3, 2 + 3 + 1]  # 10 figures each: 3 threes, 1 lost
    assert "counted from the cards" in body["reasons"][0]
    assert body["match"]["hands"][0]["record"] == {"cards": piles, "last_trick": B}


@pytest.mark.parametrize(
    "record, field",
    [
        ({"figures": [10, 10], "last_trick": A}, "aces"),
        ({"aces": [2, 2], "last_trick": A}, "figures"),
        (tresette(aces=(3, 2)), "aces"),
        (tresette(figures=(10, 11)), "figures"),
        (tresette(figures=(21, -1)), "figures"),
        ({"aces": [2, 2], "figures": [10, 10]}, "last_trick"),
        ({"cards": [COUNTING, []], "aces": [4, 0], "last_trick": A}, "cards"),  # two forms mixed
        ({"cards": [COUNTING[:-1], ["9C"]], "last_trick": A}, "cards"),
        ({"cards": [COUNTING, ["AS"]], "last_trick": A}, "cards"),
        ({"cards": [COUNTING[1:], []], "last_trick": A}, "cards"),
        ({"cards": "AS", "last_trick": A}, "cards"),
        (tresette(melds={"five_kings": A}), "melds.five_kings"),
        (tresette(melds={"three_aces": 2}), "melds.three_aces"),
        (tresette(melds={"four_aces": A, "three_aces": A}), "melds.three_aces"),
        (tresette(melds={"four_threes": A, "napoli_spades": B}), "melds"),
        ({**tresette(), "trump": "S"}, "trump"),
    ],
)
def test_tresette_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("tresette", FOUR)
    assert field in refuse(actions, match_id, record)["fields"]


def test_tresette_equal_past_the_target_plays_on_then_the_higher_total_wins(actions):
    match_id = actions.start("tresette", FOUR, target=11)
    actions.hand(match_id, tresette(last=A))
    match = actions.hand(match_id, tresette(last=B))["match"]
    assert scores(match) == [11, 11] and (match["status"], match["winner"]) == ("in_progress", None)
    match = actions.hand(match_id, tresette(last=B))["match"]
    assert scores(match) == [16, 17]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", B, 3)
    refuse(actions, match_id, tresette(), 409)
    assert actions.finish(match_id, expect=409)


def test_tresette_equal_past_the_target_is_a_draw_with_the_option(actions):
    match_id = actions.start("tresette", FOUR, target=11, equal_at_target="draw")
    actions.hand(match_id, tresette(last=A))
    match = actions.hand(match_id, tresette(last=B))["match"]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", None, 2)


def test_tresette_an_edit_that_ends_the_game_sooner_is_409_and_changes_nothing(actions):
    match_id = actions.start("tresette", FOUR, target=12)
    actions.hand(match_id, tresette(last=A))
    actions.hand(match_id, tresette(last=B))
    before = actions.match(match_id)
    answer = actions.write(
        "PUT", match_id, "/hands/1", {"record": tresette(last=A, melds={"three_twos": A, "three_threes": A})}
    )
    assert answer.status_code == 409 and "2" in answer.json["error"]
    assert actions.match(match_id) == before
    # an edit that fits is replayed through the later hand
    match = actions.edit(match_id, 1, tresette(last=A, melds={"napoli_clubs": B}))
    assert scores(match) == [11, 14] and match["hands"][1]["changes"] == [5, 6]


# -- Botifarra -----------------------------------------------------------------------------------


def test_botifarra_hand_shows_the_multiplier(actions):
    match_id = actions.start("botifarra", FOUR, first_dealer=3)
    body = actions.hand(match_id, botifarra(30, "botifarra", "double"))
    assert body["changes"] == [0, 24]
    assert body["reasons"] == ["B: 42 of 72, 6 over 36", "x4 (botifarra x2, doubled x2): +24"]
    check_shape(body["match"], "botifarra")
    assert body["match"]["dealer"] == 0
    assert body["match"]["hands"][0]["record"] == botifarra(30, "botifarra", "double")


def test_botifarra_doubling_left_out_is_none_and_36_each_scores_nothing(actions):
    match_id = actions.start("botifarra", FOUR)
    assert actions.hand(match_id, botifarra(45))["changes"] == [9, 0]
    assert actions.hand(match_id, botifarra(36, "botifarra", "reredouble"))["changes"] == [0, 0]


def test_botifarra_cap_of_eight(actions):
    capped = actions.start("botifarra", FOUR, multiplier_cap=8, target=1000)
    assert actions.hand(capped, botifarra(40, "botifarra", "reredouble"))["changes"] == [32, 0]
    free = actions.start("botifarra", FOUR, target=1000)
    assert actions.hand(free, botifarra(40, "botifarra", "reredouble"))["changes"] == [64, 0]


@pytest.mark.parametrize(
    "record, field",
    [
        ({"points": [40, 32]}, "trump"),
        ({"trump": "no_trumps", "points": [40, 32]}, "trump"),
        ({**botifarra(40), "doubling": "surrender"}, "doubling"),
        ({"trump": "clubs"}, "points"),
        ({"trump": "clubs", "points": [80, -8]}, "points"),
        ({"trump": "clubs", "points": [40, 40]}, "points"),
        ({"trump": "clubs", "points": ["forty", 32]}, "points"),
        ({**botifarra(40), "dealer_team": 0}, "dealer_team"),
    ],
)
def test_botifarra_bad_records_are_422_naming_the_field(actions, record, field):
    match_id = actions.start("botifarra", FOUR)
    assert field in refuse(actions, match_id, record)["fields"]


def test_botifarra_reaching_the_target_ends_the_match(actions):
    match_id = actions.start("botifarra", FOUR, first_dealer=2)
    for _ in range(4):
        actions.hand(match_id, botifarra(61))  # 25 each: 100
    match = actions.match(match_id)
    assert scores(match) == [100, 0] and match["status"] == "in_progress"
    actions.finish(match_id, expect=409)
    match = actions.hand(match_id, botifarra(37))["match"]
    assert scores(match) == [101, 0]
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", A, 3)
    refuse(actions, match_id, botifarra(40), 409)
    actions.finish(match_id, expect=409)


def test_botifarra_edit_and_delete_after_the_end_replay_the_match(actions):
    match_id = actions.start("botifarra", FOUR, target=20)
    actions.hand(match_id, botifarra(30))  # B 6
    actions.hand(match_id, botifarra(50))  # A 14
    match = actions.hand(match_id, botifarra(42))["match"]  # A 20: wins
    assert (match["status"], match["winner"]) == ("finished", A)
    # a mistake found after the end: hand 3 was a 36-36 hand
    match = actions.edit(match_id, 3, botifarra(36))
    assert (match["status"], match["winner"], scores(match)) == ("in_progress", None, [14, 6])
    # an edit of hand 1 that would end the match there breaks hands 2 and 3
    answer = actions.write("PUT", match_id, "/hands/1", {"record": botifarra(20, "botifarra", "none")})
    assert answer.status_code == 409
    match = actions.delete(match_id, 1)
    assert [hand["number"] for hand in match["hands"]] == [1, 2] and scores(match) == [14, 0]
    assert match["dealer"] == 2


# -- the deal after the end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, hands, options",
    [
        ("tresette", [tresette(last=A)], {"target": 6, "first_dealer": 2}),  # A 6: over after one hand
        ("botifarra", [botifarra(41)], {"target": 5, "first_dealer": 2}),  # A 5: over after one hand
    ],
)
def test_a_finished_match_shows_who_would_deal_next(actions, game, hands, options):
    match_id = actions.start(game, FOUR, **options)
    for record in hands:
        match = actions.hand(match_id, record)["match"]
    assert (match["status"], match["dealer"]) == ("finished", 3)
