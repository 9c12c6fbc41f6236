"""What the API tests share: what API.md says about the four flagship games, a good first hand of
each, the calls a client script makes, and the checks of API.md's shapes.

Sides: A = 0, B = 1. Every test runs on SQLite, and on PostgreSQL too when TEST_POSTGRES_URL is set
(see tests/conftest.py). The scores themselves are the engine's, tested once in tests/games; the
API tests check that the answers carry them as API.md says.
"""

from __future__ import annotations

import json

from scorekeeper.games import get_game, replay

API = "/api/v1"
A, B = 0, 1
FOUR = ["Ana", "Ben", "Cat", "Dan"]
TWO = ["Ana", "Ben"]

MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
# Not in API.md; tolerated as an extra top-level key (API.md only fixes the listed names).
MATCH_EXTRAS = {"headline"}
HAND_KEYS = {"number", "record", "changes", "reasons"}

# What API.md says about each flagship game.
FLAGSHIP = {
    "envite": {
        "name": "Envite",
        "players": {"min": 4, "max": 12},
        "partnerships": True,
        "options": {"first_dealer": 0, "games_to_win": 2, "trawl_bonus": 2, "trawl_bonus_in_lying_hand": 2},
        "choices": {"trawl_bonus_in_lying_hand": {2, 0}},
        "hand_fields": {"winner", "stake", "declined", "trawl_failure", "forfeit"},
        "hand_choices": {"stake": [2, 4, 7, 9, "game"]},
        "state": {"games": [0, 0], "lying_down": [False, False]},
    },
    "court_piece": {
        "name": "Court Piece",
        "players": {"min": 4, "max": 4},
        "partnerships": True,
        "options": {"first_dealer": 0, "courts_to_win": None, "court_hand_streak_policy": "reset", "all13_courts": 52},
        "choices": {"court_hand_streak_policy": {"reset", "count_as_win", "ignore"}, "all13_courts": {52, 53}},
        "hand_fields": {"outcome", "tricks", "side", "all_thirteen"},
        "hand_choices": {"outcome": ["tricks", "first_seven", "revoke"]},
        "state": {"streak": {"side": None, "count": 0}, "trump_chooser": 1},
    },
    "poke": {
        "name": "Poke",
        "players": {"min": 2, "max": 2},
        "partnerships": False,
        "options": {
            "first_dealer": 0,
            "game_target": 20,
            "game_bonus": 100,
            "rubber_bonus_2_1": 500,
            "rubber_bonus_2_0": 750,
            "sweep_bonus": 250,
        },
        "choices": {},
        "hand_fields": {"tricks", "draws", "better_hand", "poker_hand", "cards"},
        "hand_choices": {
            "poker_hand": [
                "high_card",
                "one_pair",
                "two_pair",
                "three_of_a_kind",
                "straight",
                "flush",
                "full_house",
                "four_of_a_kind",
                "straight_flush",
                "royal_flush",
            ]
        },
        "state": {"above": [0, 0], "below": [0, 0], "games": [0, 0]},
    },
    "schnapsen": {
        "name": "Schnapsen",
        "players": {"min": 2, "max": 2},
        "partnerships": False,
        "options": {
            "first_dealer": 0,
            "target": 7,
            "fail_three_measured_at": "close",
            "close_tally": "points",
            "marriage_credit": "next_trick",
        },
        "choices": {
            "fail_three_measured_at": {"close", "end"},
            "close_tally": {"points", "cards_only"},
            "marriage_credit": {"next_trick", "any_trick"},
        },
        "hand_fields": {
            "winner",
            "victory_points",
            "ending",
            "declarer",
            "last_trick",
            "points",
            "tricks",
            "closed_by",
            "at_close",
        },
        "hand_choices": {"ending": ["out", "played_out"]},
        "state": {},
    },
}
PLAYERS = {"envite": FOUR, "court_piece": FOUR, "poke": TWO, "schnapsen": TWO}
# One ordinary, valid first hand per game.
GOOD_HAND = {
    "envite": {"winner": A},
    "court_piece": {"outcome": "tricks", "tricks": [7, 6]},
    "poke": {"tricks": [3, 2], "draws": [0, 0]},
    "schnapsen": {"ending": "out", "declarer": A, "points": [66, 40], "tricks": [4, 3]},
}
ENVITE_LYING_A = [{"winner": A, "stake": 9}, {"winner": A}]  # A on 9, then 11: lying down
ENVITE_FIVE = [{"winner": A}, {"winner": A, "stake": 4}, {"winner": B}, {"winner": A}, {"winner": B, "stake": 4}]
A_WINS = {"outcome": "tricks", "tricks": [8, 5]}
B_WINS = {"outcome": "tricks", "tricks": [6, 7]}


# -- calls ----------------------------------------------------------------------------------------


def refused(answer, status: int | tuple[int, ...]) -> dict:
    """Assert an API.md error answer: the status, JSON {"error": sentence, "fields": {...}}."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert answer.status_code in statuses, (answer.status_code, answer.get_data(as_text=True)[:500])
    assert answer.is_json, answer.get_data(as_text=True)[:500]
    body = answer.json
    assert isinstance(body.get("error"), str) and body["error"].strip(), body
    assert isinstance(body.get("fields"), dict), body
    return body


def start(client, game: str, players=None, **options) -> dict:
    answer = client.post(f"{API}/matches", json={"game": game, "players": players or PLAYERS[game], "options": options})
    assert answer.status_code == 201, answer.json
    return answer.json


def post_hand(client, match_id: int, record, **extra):
    return client.post(f"{API}/matches/{match_id}/hands", json={"record": record, **extra})


def play(client, match_id: int, *records) -> dict:
    """Record hands in order (each must be taken); the last answer."""
    answer = None
    for record in records:
        answer = post_hand(client, match_id, record)
        assert answer.status_code == 201, (record, answer.json)
        answer = answer.json
    return answer


def get_match(client, match_id: int) -> dict:
    answer = client.get(f"{API}/matches/{match_id}")
    assert answer.status_code == 200, answer.json
    return answer.json


def scores(match: dict) -> list:
    return [side["score"] for side in match["sides"]]


def all_changes(match: dict) -> list[list]:
    return [hand["changes"] for hand in match["hands"]]


def match_count(client) -> int:
    return len(client.get(f"{API}/matches").json)


# -- checks ---------------------------------------------------------------------------------------


def check_match_shape(match: dict, game: str, players: list[str]) -> None:
    """Every key of API.md's `match`, with the types it promises."""
    assert MATCH_KEYS <= set(match) <= MATCH_KEYS | MATCH_EXTRAS, set(match) ^ MATCH_KEYS
    assert isinstance(match["id"], int) and not isinstance(match["id"], bool)
    assert match["game"] == game
    assert match["players"] == players
    assert match["status"] in ("in_progress", "finished")
    assert isinstance(match["options"], dict) and isinstance(match["state"], dict)
    if game in FLAGSHIP:
        assert set(FLAGSHIP[game]["state"]) <= set(match["state"])
    for side in match["sides"]:
        assert set(side) == {"players", "score"}
        assert isinstance(side["score"], int)
    assert sorted(name for side in match["sides"] for name in side["players"]) == sorted(players)
    if match["status"] == "finished":  # API.md: who would deal next, also after the end
        assert match["dealer"] in range(len(match["players"]))
    else:
        assert match["winner"] is None
        assert match["dealer"] is None or 0 <= match["dealer"] < len(players)
    for number, hand in enumerate(match["hands"], start=1):
        assert set(hand) == HAND_KEYS
        assert hand["number"] == number
        assert len(hand["changes"]) == len(match["sides"])
        assert all(isinstance(reason, str) and reason for reason in hand["reasons"])


def check_refusals(client, game: str, cases) -> None:
    """Each (hands before, record, field): a 422 naming the field, and the match unchanged."""
    matches: dict[str, tuple[int, dict]] = {}  # one match per distinct "before"
    for before, record, field in cases:
        if repr(before) not in matches:
            match_id = start(client, game)["id"]
            if before:
                play(client, match_id, *before)
            matches[repr(before)] = (match_id, get_match(client, match_id))
        match_id, _ = matches[repr(before)]
        body = refused(post_hand(client, match_id, record), 422)
        assert field in body["fields"], (record, body)
    for match_id, seen in matches.values():
        assert get_match(client, match_id) == seen


def engine_says(game: str, players: int, options: dict, records: list) -> dict:
    """What the engine makes of the records (one at least), in the terms of API.md's answers: the last hand's
    changes and reasons, and the match's scores, state, status, winner and dealer."""
    engine = get_game(game)
    table = engine.table(players)
    done = replay(engine, table, engine.parse_options(options, table), records)
    result, last = engine.result(done.state), done.results[-1]
    return {
        "changes": last.changes,
        "reasons": [reason.text for reason in last.reasons],
        "scores": engine.scores(done.state),
        "state": json.loads(json.dumps(engine.public_state(done.state))),
        "status": "finished" if result.over else "in_progress",
        "winner": result.winner,
        "dealer": done.state.dealer,
    }


def check_answer(answer: dict, said: dict) -> None:
    """A recorded hand's answer, and the match in it, carry what the engine says (engine_says)."""
    assert (answer["changes"], answer["reasons"]) == (said["changes"], said["reasons"])
    match = answer["match"]
    assert scores(match) == said["scores"] and match["state"] == said["state"]
    assert (match["status"], match["winner"], match["dealer"]) == (said["status"], said["winner"], said["dealer"])
