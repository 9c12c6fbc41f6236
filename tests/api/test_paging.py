"""Paging: `?hands=N` keeps the `match` shape with only the latest N hands, an answer is the match as
a later read shows it, the match list is paged newest first with a next link, and a long match's
answer joined from stored hands is the one built from them."""

from __future__ import annotations

import json

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Hand


def test_answers_can_carry_only_the_last_hands(actions):
    """`?hands=N` keeps the `match` shape with only the latest N hands."""
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    for won in (7, 8, 9):
        actions.hand(match_id, {"outcome": "tricks", "tricks": [won, 13 - won]})
    light = actions.client.get(f"/api/v1/matches/{match_id}?hands=1").json
    assert [hand["number"] for hand in light["hands"]] == [3] and light["sides"][0]["score"] == 0
    answer = actions.client.post(
        f"/api/v1/matches/{match_id}/hands?hands=0", json={"record": {"outcome": "revoke", "side": 1}}
    )
    assert answer.status_code == 201 and answer.json["match"]["hands"] == [] and answer.json["number"] == 4
    before_writes = actions.match(match_id)
    assert actions.client.get(f"/api/v1/matches/{match_id}?hands=x").status_code == 422
    refused = actions.client.post(
        f"/api/v1/matches/{match_id}/hands?hands=x", json={"record": {"outcome": "revoke", "side": 0}}
    )
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
    nxt = actions.client.get(link[1 : link.index(">")])
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
