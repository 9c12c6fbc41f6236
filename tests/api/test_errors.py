"""Input that is not a hand, or a place that is not there: always a JSON error with its status (4xx),
never a 5xx, and nothing stored. Each bug found here has a test that keeps it fixed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .contract import API, FLAGSHIP, GOOD_HAND, A, B, get_match, play, post_hand, refused, start


def test_unknown_match_is_404_everywhere(client):
    start(client, "envite")
    missing = 999_999
    refused(client.get(f"{API}/matches/{missing}"), 404)
    refused(post_hand(client, missing, {"winner": A}), 404)
    refused(client.put(f"{API}/matches/{missing}/hands/1", json={"record": {"winner": A}}), 404)
    refused(client.delete(f"{API}/matches/{missing}/hands/1"), 404)
    refused(client.post(f"{API}/matches/{missing}/finish"), 404)
    refused(client.get(f"{API}/matches/not-a-number"), 404)
    refused(client.get(f"{API}/matches/-1"), 404)
    refused(client.get(f"{API}/nothing-here"), 404)


def test_wrong_method_is_a_json_error(client):
    refused(client.delete(f"{API}/matches"), 405)
    refused(client.put(f"{API}/games"), 405)


def test_match_id_out_of_the_databases_range_is_404(no_propagation, client):
    start(client, "envite")
    for match_id in [2**31, 2**63, 10**30]:
        refused(client.get(f"{API}/matches/{match_id}"), 404)
        refused(post_hand(client, match_id, {"winner": A}), 404)
        refused(client.put(f"{API}/matches/{match_id}/hands/1", json={"record": {"winner": A}}), 404)
        refused(client.delete(f"{API}/matches/{match_id}/hands/1"), 404)
        refused(client.post(f"{API}/matches/{match_id}/finish"), 404)


def test_hand_number_out_of_range_is_404(client):
    match = start(client, "envite")
    play(client, match["id"], {"winner": A})
    for number in [2**31, 2**63, 10**30]:
        refused(client.put(f"{API}/matches/{match['id']}/hands/{number}", json={"record": {"winner": A}}), 404)
        refused(client.delete(f"{API}/matches/{match['id']}/hands/{number}"), 404)


# -- bodies that are not a hand ---------------------------------------------------------------------


JUNK_RECORDS = [
    [],
    [{"winner": 0}],
    "winner",
    "",
    0,
    1.5,
    True,
    None,
    {},
    {"": 1},
    {"winner": [0]},
    {"winner": {"side": 0}},
    {"winner": 10**40},
    {"winner": -(10**40)},
    {"winner": 1e308},
    {"winner": 0.5},
    {"winner": "zero"},
    {"winner": "1" * 5000},
    {"winner": True},
    {"tricks": "7,6"},
    {"tricks": [[7], [6]]},
    {"tricks": [{"a": 1}, 6]},
    {"tricks": [10**40, -(10**40)]},
    {"tricks": [None, None]},
    {"tricks": ["seven", "six"]},
    {"tricks": []},
    {"tricks": {"0": 7, "1": 6}},
    {"outcome": ["tricks"]},
    {"outcome": {"tricks": 1}},
    {"outcome": None},
    {"ending": 1},
    {"at_close": [1, 2]},
    {"at_close": {"points": {"x": []}, "tricks": [[]]}},
    {"at_close": "20/1"},
    {"cards": [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]},
    {"cards": [{}, {}]},
    {"cards": "AS KS"},
    {"cards": [["AS"] * 5, None]},
    {"better_hand": [0], "poker_hand": ["flush"]},
    {"draws": [10**40, 0], "tricks": [3, 2]},
    {"points": [10**40, 0], "tricks": [1, 1], "ending": "out"},
    {"forfeit": "maybe"},
    {"declined": [], "winner": 0, "stake": 4},
    {"stake": [4], "winner": 0},
    {"a": {"b": {"c": {"d": [1, [2, [3, {"e": None}]]]}}}},
]


@pytest.mark.parametrize("game", FLAGSHIP)
def test_wrong_types_anywhere_are_4xx_json_never_5xx(no_propagation, client, game):
    match = start(client, game)
    play(client, match["id"], GOOD_HAND[game])
    seen = get_match(client, match["id"])
    for record in JUNK_RECORDS:
        refused(post_hand(client, match["id"], record), (400, 422))
        refused(client.put(f"{API}/matches/{match['id']}/hands/1", json={"record": record}), (400, 422))
    assert get_match(client, match["id"]) == seen


RAW_BAD_HANDS = [
    "[]",
    "null",
    "not json",
    '{"record": }',
    '{"number": 1}',
    '{"record": {"winner": 1e400}}',
    '{"record": {"winner": NaN}}',
    '{"record": {"winner": Infinity}}',
    '{"record": {"winner": -Infinity}}',
    '{"record": {"winner": 0}, "number": NaN}',
    '{"record": {"winner": 0}, "number": 1e400}',
    '{"record": {"winner": 0, "winner": "x"}}',
    '{"record": {"winner": 0}',
    "\u0000",
]


def test_raw_bodies_that_are_not_a_valid_hand_are_4xx(no_propagation, client):
    match = start(client, "envite")
    for data in RAW_BAD_HANDS:
        answer = client.post(f"{API}/matches/{match['id']}/hands", data=data, content_type="application/json")
        refused(answer, (400, 409, 422))
    assert get_match(client, match["id"])["hands"] == []


def test_body_far_too_large_is_refused(no_propagation, client):
    match = start(client, "envite")
    answer = post_hand(client, match["id"], {"winner": A, "note": "x" * 100_000})
    refused(answer, 413)


def test_deeply_nested_json_body_is_a_400(no_propagation, client):
    # json.loads raises RecursionError (not a ValueError) at about 1000 levels: it was a 500.
    match = start(client, "envite")
    for path in ["/matches", f"/matches/{match['id']}/hands"]:
        answer = client.post(f"{API}{path}", data="[" * 2000 + "]" * 2000, content_type="application/json")
        refused(answer, 400)
    answer = client.put(
        f"{API}/matches/{match['id']}/hands/1",
        data='{"record": ' + "[" * 2000 + "]" * 2000 + "}",
        content_type="application/json",
    )
    refused(answer, (400, 404))


# -- property: random records are never a 5xx -------------------------------------------------------


WORDS = sorted(
    {
        "tricks",
        "first_seven",
        "revoke",
        "out",
        "played_out",
        "game",
        "flush",
        "royal_flush",
        "high_card",
        "AS",
        "KS",
        "TD",
        "7C",
        "10h",
        "true",
        "false",
        "1",
        "0",
        "",
    }
)


FIELD_NAMES = sorted({name for game in FLAGSHIP.values() for name in game["hand_fields"]} | {"marriages"})


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-2, max_value=14)
    | st.integers()
    | st.floats()
    | st.sampled_from(WORDS)
    | st.text(max_size=8)
)


JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=6), children, max_size=5)
    ),
    max_leaves=16,
)


RECORDS = JSON_VALUES | st.dictionaries(st.sampled_from(FIELD_NAMES), JSON_VALUES, max_size=7)


VALID_RECORDS = {
    "envite": [
        GOOD_HAND["envite"],
        {"winner": B, "stake": 7, "declined": True},
        {"winner": A, "stake": "game", "trawl_failure": True},
    ],
    "court_piece": [
        GOOD_HAND["court_piece"],
        {"outcome": "first_seven", "side": A, "all_thirteen": True},
        {"outcome": "revoke", "side": B},
    ],
    "poke": [
        GOOD_HAND["poke"],
        {"tricks": [0, 5], "draws": [3, 2], "better_hand": B, "poker_hand": "flush"},
        {"tricks": [5, 0], "draws": [1, 0], "cards": [["AS", "KS", "QS", "JS", "TS"], ["2H", "3H", "4H", "5H", "7D"]]},
    ],
    "schnapsen": [
        GOOD_HAND["schnapsen"],
        {
            "ending": "out",
            "declarer": A,
            "points": [70, 45],
            "tricks": [5, 3],
            "closed_by": A,
            "at_close": {"points": 20, "tricks": 1},
        },
        {
            "ending": "played_out",
            "last_trick": B,
            "points": [40, 50],
            "tricks": [4, 4],
            "closed_by": A,
            "at_close": {"points": 0, "tricks": 0},
        },
    ],
}


def spoilt(game: str):
    fields = sorted(FLAGSHIP[game]["hand_fields"]) + ["at_close.points"]

    def spoil(base: dict, changes: dict, dropped: set) -> dict:
        record = {key: value for key, value in base.items() if key not in dropped}
        for key, value in changes.items():
            if key == "at_close.points" and isinstance(record.get("at_close"), dict):
                record["at_close"] = {**record["at_close"], "points": value}
            else:
                record[key] = value
        return record

    return st.builds(
        spoil,
        st.sampled_from(VALID_RECORDS[game]),
        st.dictionaries(st.sampled_from(fields), JSON_VALUES, max_size=2),
        st.sets(st.sampled_from(fields), max_size=2),
    )


@pytest.mark.parametrize("game", FLAGSHIP)
@settings(
    max_examples=50,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_records_are_never_a_5xx(no_propagation, client, game, data):
    record = data.draw(RECORDS | spoilt(game), label="record")
    match_id = getattr(client, "fuzzed_match", None)
    if match_id is None:  # one match per test: a hand that is taken is deleted again below
        match_id = client.fuzzed_match = start(client, game)["id"]
    answer = post_hand(client, match_id, record)
    assert answer.status_code < 500, (record, answer.get_data(as_text=True)[:300])
    if answer.status_code != 201:
        refused(answer, (400, 422))
        return
    stored = get_match(client, match_id)  # the record as kept replays, and reads back the same
    assert stored["hands"] == answer.json["match"]["hands"]
    assert client.delete(f"{API}/matches/{match_id}/hands/1").status_code == 200
