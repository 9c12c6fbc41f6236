"""The fast JSON path (orjson) says what the standard library would, and falls back where it can't."""

from __future__ import annotations

import json
import math

from scorekeeper.records import jsontext


def test_a_column_comes_back_as_it_went_in():
    record = {"tricks": [7, 6], "outcome": "tricks", "names": ["Émile", "Zoë"], "nested": {"a": [None, True, 1.5]}}
    assert jsontext.loads(jsontext.dumps(record)) == record


def test_what_orjson_cannot_write_or_read_goes_through_the_standard_library():
    huge = {"n": 10**30, 3: "a key that is not text"}
    assert json.loads(jsontext.dumps(huge)) == {"n": 10**30, "3": "a key that is not text"}
    assert math.isnan(jsontext.loads("NaN"))


def test_api_answers_are_utf8_json_in_the_order_api_md_lists(actions, client):
    match_id = actions.start("schnapsen", ["Émile", "Zoë"])
    answer = client.get(f"/api/v1/matches/{match_id}")
    assert answer.mimetype == "application/json"
    assert "Émile" in answer.get_data(as_text=True)  # not \u00c9mile
    assert list(answer.json)[:4] == ["id", "game", "options", "players"]
    assert answer.json["players"] == ["Émile", "Zoë"]


def test_a_number_past_what_json_keeps_is_refused_naming_the_field(actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    answer = actions.write("POST", match_id, "/hands", {"record": {"outcome": "tricks", "tricks": [10**30, 0]}})
    assert answer.status_code == 422 and "tricks" in answer.json["fields"]
    assert actions.match(match_id)["hands"] == []
