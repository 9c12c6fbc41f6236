"""GET /games: each game describes itself as API.md says (the four flagship games in full)."""

from __future__ import annotations

import pytest

from .contract import API, FLAGSHIP, refused


def check_field(field: dict) -> None:
    """API.md: each field with its name, type, allowed values or range, default and a one-line help."""
    assert isinstance(field["name"], str) and field["name"]
    assert isinstance(field["type"], str) and field["type"]
    assert isinstance(field["help"], str) and field["help"].strip() and "\n" not in field["help"]
    if field["type"] == "choice":
        assert field["choices"], field
    if field["type"] == "int":
        assert "min" in field and "max" in field, field
    for sub in field.get("fields", []):
        check_field(sub)


def test_games_lists_the_four_flagship_games(client):
    answer = client.get(f"{API}/games")
    assert answer.status_code == 200
    listed = {game["key"]: game for game in answer.json}
    assert set(FLAGSHIP) <= set(listed)
    for key in FLAGSHIP:
        assert client.get(f"{API}/games/{key}").json == listed[key]


@pytest.mark.parametrize("key", FLAGSHIP)
def test_game_describes_itself_as_api_md_says(client, key):
    answer = client.get(f"{API}/games/{key}")
    assert answer.status_code == 200
    game, want = answer.json, FLAGSHIP[key]
    # API.md "The other games": records with alternative forms say which fields go together.
    assert set(game) - {"record_forms"} == {"key", "name", "players", "partnerships", "options", "hand_fields"}
    assert ("record_forms" in game) is (key in ("poke", "schnapsen"))
    assert game["key"] == key
    assert game["name"] == want["name"]
    assert game["players"] == want["players"]
    assert game["partnerships"] is want["partnerships"]
    options = {field["name"]: field for field in game["options"]}
    assert set(options) == set(want["options"])
    for name, default in want["options"].items():
        assert options[name]["default"] == default, name
        assert type(options[name]["default"]) is type(default), name
    for name, allowed in want["choices"].items():
        assert set(options[name]["choices"]) == allowed, name
    assert options["first_dealer"]["type"] == "seat"
    hand_fields = {field["name"]: field for field in game["hand_fields"]}
    assert set(hand_fields) == want["hand_fields"]
    for name, allowed in want["hand_choices"].items():
        assert hand_fields[name]["choices"] == allowed, name
    for field in game["options"] + game["hand_fields"]:
        check_field(field)


def test_schnapsen_at_close_describes_its_figures(client):
    fields = {field["name"]: field for field in client.get(f"{API}/games/schnapsen").json["hand_fields"]}
    assert fields["at_close"]["type"] == "group"
    assert {sub["name"] for sub in fields["at_close"]["fields"]} == {"points", "tricks", "marriages"}


def test_unknown_game_is_a_404_json_error(client):
    for key in ["bridge", "Envite", "envite ", "0", "x" * 300]:
        refused(client.get(f"{API}/games/{key}"), 404)
