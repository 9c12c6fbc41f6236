"""The API contract, run over every registered game (a new game is covered by registering it).

Each game is played through the API with its own example hands: the match keeps API.md's shape,
every hand answers with its changes and reasons, a refused record changes nothing, an edit and a
deletion replay, and a finished match takes no hand."""

from __future__ import annotations

import json
import random

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES, RecordError
from scorekeeper.models import Hand

KEYS = list(GAMES)
MATCH_KEYS = {"id", "game", "options", "players", "status", "sides", "winner", "dealer", "state", "hands"}
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]


def seated(game) -> list[str]:
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.table(count)
            return NAMES[:count]
        except RecordError:
            continue
    raise AssertionError(game.key)


def engine_state(game, match: dict):
    """The engine's state after the match's hands, to draw the next example hand from."""
    from scorekeeper.games import replay
    table = game.table(len(match["players"]))
    return replay(game, table, match["options"], [hand["record"] for hand in match["hands"]]).state


@pytest.mark.parametrize("key", KEYS)
def test_every_game_plays_through_the_api(key, actions):
    game, rng = GAMES[key], random.Random(7)
    assert key in {described["key"] for described in actions.client.get("/api/v1/games").json}
    match_id = actions.start(key, seated(game))
    match = actions.match(match_id)
    assert MATCH_KEYS <= set(match) and match["status"] == "in_progress" and match["hands"] == []
    assert (match["dealer"] is None) is (not game.deals)
    before = actions.match(match_id)
    refused = actions.hand(match_id, {"no_such_field": 1}, expect=422)
    assert refused["error"] and "no_such_field" in refused["fields"]
    assert actions.match(match_id) == before  # nothing changed
    for number in range(1, 9):
        match = actions.match(match_id)
        if match["status"] == "finished":
            break
        record = game.example_hand(engine_state(game, match), rng)
        answer = actions.hand(match_id, record)
        assert answer["number"] == number and len(answer["changes"]) == len(answer["match"]["sides"])
        assert answer["reasons"] and all(isinstance(reason, str) for reason in answer["reasons"])
    match = actions.match(match_id)
    if match["status"] == "finished":
        actions.hand(match_id, game.example_hand(engine_state(game, match), rng), expect=409)
    count = len(match["hands"])
    first = match["hands"][0]["record"]
    assert len(actions.edit(match_id, 1, first)["hands"]) == count  # the same record again: nothing moves
    assert actions.match(match_id)["sides"] == match["sides"]
    after = actions.delete(match_id, count)
    assert len(after["hands"]) == count - 1 and after["status"] == "in_progress"


def test_writes_need_the_match_key(client):
    """API.md "Who may write": without the key 401, with another key 403, and nothing changes."""
    created = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["A1", "B1", "C1", "D1"]}).json
    other = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["A2", "B2", "C2", "D2"]}).json
    match_id, hand = created["id"], {"record": {"outcome": "tricks", "tricks": [8, 5]}}
    assert "key" not in client.get(f"/api/v1/matches/{match_id}").json  # a GET never shows a key
    writes = [("POST", "/hands", hand), ("PUT", "/hands/1", hand), ("DELETE", "/hands/1", None),
              ("POST", "/finish", None), ("POST", "/reopen", None), ("PATCH", "", {"options": {}}), ("DELETE", "", None)]
    for method, path, body in writes:
        for headers, status in (({"Authorization": ""}, 401), ({"Authorization": f"Bearer {other['key']}"}, 403)):
            answer = client.open(f"/api/v1/matches/{match_id}{path}", method=method, json=body, headers=headers)
            assert answer.status_code == status, (method, path, answer.json)
            assert answer.json["error"] and answer.json["fields"] == {}
    assert client.get(f"/api/v1/matches/{match_id}").json["hands"] == []  # nothing changed
    keyed = {"Authorization": f"Bearer {created['key']}"}
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=hand, headers=keyed).status_code == 201


def test_answers_can_carry_only_the_last_hands(actions):
    """`?hands=N` keeps the `match` shape with only the latest N hands."""
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    for won in (7, 8, 9):
        actions.hand(match_id, {"outcome": "tricks", "tricks": [won, 13 - won]})
    light = actions.client.get(f"/api/v1/matches/{match_id}?hands=1").json
    assert [hand["number"] for hand in light["hands"]] == [3] and light["sides"][0]["score"] == 0
    answer = actions.client.post(f"/api/v1/matches/{match_id}/hands?hands=0", json={"record": {"outcome": "revoke", "side": 1}})
    assert answer.status_code == 201 and answer.json["match"]["hands"] == [] and answer.json["number"] == 4
    before_writes = actions.match(match_id)
    assert actions.client.get(f"/api/v1/matches/{match_id}?hands=x").status_code == 422
    refused = actions.client.post(f"/api/v1/matches/{match_id}/hands?hands=x", json={"record": {"outcome": "revoke",
                                                                                               "side": 0}})
    assert refused.status_code == 422 and len(actions.match(match_id)["hands"]) == 4  # refused before recording
    for method, path in (("PUT", "/hands/1"), ("DELETE", "/hands/4"), ("POST", "/finish")):
        body = {"record": {"outcome": "revoke", "side": 0}} if method == "PUT" else None
        assert actions.write(method, match_id, f"{path}?hands=-1", body).status_code == 422
    assert actions.match(match_id) == before_writes


@pytest.mark.parametrize("shown", ["", "?hands=1", "?hands=2", "?hands=50"])
def test_a_recorded_hands_answer_is_the_match_as_a_later_read_shows_it(actions, shown):
    match_id = actions.start("pluck", ["Ann", "Bo", "Cy"], target=100)
    for tricks in ([8, 5, 4], [6, 6, 5]) * 12:  # past 20 hands an answer joins the hands' stored JSON
        answer = actions.client.post(f"/api/v1/matches/{match_id}/hands{shown}", json={"record": {"tricks": tricks}})
        assert answer.status_code == 201
        assert answer.json["match"] == actions.client.get(f"/api/v1/matches/{match_id}{shown}").json


def test_the_match_list_is_paged_newest_first_with_a_next_link(actions):
    ids = [actions.start("schnapsen", ["Ann", "Bo"]) for _ in range(5)]
    first = actions.client.get("/api/v1/matches?limit=2")
    assert [m["id"] for m in first.json] == ids[:-3:-1]
    link = first.headers["Link"]
    assert 'rel="next"' in link and f"before={ids[-2]}" in link
    nxt = actions.client.get(link[1:link.index(">")])
    assert [m["id"] for m in nxt.json] == [ids[2], ids[1]]
    assert all(m["created"].endswith("+00:00") for m in nxt.json)


def test_a_long_matchs_answer_joined_from_stored_hands_is_the_one_built_from_them(app, actions):
    """From 20 hands on, an answer joins each hand's stored JSON; it says exactly what building the
    hands anew says (a match from before answers were stored), also after hands were renumbered."""
    match_id = actions.start("pluck", ["Ann", "Émile", "Cy"], target=100)
    for number in range(30):
        actions.hand(match_id, {"tricks": [[8, 5, 4], [6, 6, 5], [4, 6, 7]][number % 3]})
    actions.delete(match_id, 3)
    actions.edit(match_id, 10, {"tricks": [9, 4, 4]})
    joined = [actions.client.get(f"/api/v1/matches/{match_id}{shown}").get_data() for shown in ("", "?hands=25")]
    with app.app_context():
        db.session.execute(db.update(Hand).values(answer=None))  # as a match from before 0007
        db.session.commit()
    built = [actions.client.get(f"/api/v1/matches/{match_id}{shown}").get_data() for shown in ("", "?hands=25")]
    assert joined == built and len(json.loads(joined[0])["hands"]) == 29
    assert [hand["number"] for hand in json.loads(joined[1])["hands"]] == list(range(5, 30))
