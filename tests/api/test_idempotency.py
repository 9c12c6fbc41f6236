"""API.md "Sending a write again": every write may carry `Idempotency-Key`; the same request sent
again gets the first answer (status and body) and nothing is done twice; the key on another request,
or a malformed one, is a 422; a key whose first request is still being carried out is a 409."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import WriteReceipt, now_utc
from scorekeeper.web.offline import LOST_SECONDS

FOUR = ["Ann", "Bo", "Cy", "Di"]
TRICKS = {"outcome": "tricks", "tricks": [8, 5]}


def with_key(actions, match_id: int | None, key: str) -> dict:
    return {**(actions.auth(match_id) if match_id else {}), "Idempotency-Key": key}


def court_piece(actions, hands: int = 2) -> int:
    match_id = actions.start("court_piece", FOUR)
    for _ in range(hands):
        actions.hand(match_id, TRICKS)
    return match_id


# Each write of API.md, as (method, path after the match, body) and what one carrying it out leaves:
# the hands' count and the status, so that doing it twice would show.
WRITES = {
    "record a hand": ("POST", "/hands", {"record": {"outcome": "tricks", "tricks": [9, 4]}}, 3, "in_progress"),
    "edit a hand": ("PUT", "/hands/1", {"record": {"outcome": "tricks", "tricks": [4, 9]}}, 2, "in_progress"),
    "delete a hand": ("DELETE", "/hands/1", None, 1, "in_progress"),
    "finish": ("POST", "/finish", None, 2, "finished"),
    "fix the set-up": ("PATCH", "", {"players": ["Ann", "Bo", "Cy", "Dee"]}, 2, "in_progress"),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_each_write_sent_again_gets_its_first_answer_and_is_done_once(client, actions, write):
    method, path, body, hands, status = WRITES[write]
    match_id = court_piece(actions)
    url = f"/api/v1/matches/{match_id}{path}"
    first = client.open(url, method=method, json=body, headers=with_key(actions, match_id, "again-" + method))
    assert first.status_code in (200, 201), first.json

    again = client.open(url, method=method, json=body, headers=with_key(actions, match_id, "again-" + method))

    assert (again.status_code, again.json) == (first.status_code, first.json)
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    match = actions.match(match_id)
    assert (len(match["hands"]), match["status"]) == (hands, status)


def test_a_delete_of_a_hand_sent_again_deletes_one_hand_not_two(client, actions):
    match_id = court_piece(actions, hands=3)
    for _ in range(2):
        answer = client.delete(f"/api/v1/matches/{match_id}/hands/1", headers=with_key(actions, match_id, "one-delete"))
        assert answer.status_code == 200
    assert len(actions.match(match_id)["hands"]) == 2


def test_reopen_and_deleting_the_match_sent_again_answer_as_the_first(client, actions):
    match_id = court_piece(actions)
    actions.finish(match_id)
    for _ in range(2):
        reopened = client.post(f"/api/v1/matches/{match_id}/reopen", headers=with_key(actions, match_id, "reopen"))
        assert reopened.status_code == 200 and reopened.json["status"] == "in_progress"
    for _ in range(2):
        removed = client.delete(f"/api/v1/matches/{match_id}", headers=with_key(actions, match_id, "remove"))
        assert removed.status_code == 204  # not a 404 for the match the first one deleted
    assert client.get(f"/api/v1/matches/{match_id}").status_code == 404


def test_a_new_match_sent_again_is_one_match_and_gives_its_key_again_which_is_not_stored(app, client, actions):
    body = {"game": "court_piece", "players": FOUR}
    proving = {"Idempotency-Key": "new-match-" + "7Kq2xW9pLm4Zr8"}  # 24 characters: 128 bits and more
    first = client.post("/api/v1/matches", json=body, headers=proving)
    again = client.post("/api/v1/matches", json=body, headers=proving)

    assert first.status_code == again.status_code == 201
    assert again.json == first.json  # the same match, with the same key shown again
    assert again.headers["Cache-Control"] == "no-store"
    assert len(client.get("/api/v1/matches").json) == 1
    answer = client.post(
        f"/api/v1/matches/{first.json['id']}/hands",
        json={"record": TRICKS},
        headers={"Authorization": f"Bearer {again.json['key']}"},
    )
    assert answer.status_code == 201  # the key given again writes
    with app.app_context():
        kept = [receipt.body for receipt in db.session.scalars(db.select(WriteReceipt))]
    assert kept and not any(first.json["key"] in body for body in kept)  # write keys are never stored in clear


def test_a_key_on_another_request_is_refused_and_nothing_changes(client, actions):
    match_id = court_piece(actions, hands=1)
    headers = with_key(actions, match_id, "used-once")
    assert client.post(f"/api/v1/matches/{match_id}/hands", json={"record": TRICKS}, headers=headers).status_code == 201

    other_body = client.post(
        f"/api/v1/matches/{match_id}/hands", json={"record": {"outcome": "first_seven", "side": 1}}, headers=headers
    )
    other_path = client.post(f"/api/v1/matches/{match_id}/finish", headers=headers)
    other_match_id = court_piece(actions, 0)
    other_match = client.post(f"/api/v1/matches/{other_match_id}/hands", json={"record": TRICKS}, headers=headers)

    for refused in (other_body, other_path):
        assert refused.status_code == 422, refused.json
        assert refused.json["fields"] == {"Idempotency-Key": "used for another request"}
    assert other_match.status_code == 403  # another match's key: refused before any receipt is read
    assert actions.match(other_match_id)["hands"] == []
    assert len(actions.match(match_id)["hands"]) == 2 and actions.match(match_id)["status"] == "in_progress"


@pytest.mark.parametrize("key", ["", "x" * 65, "has space", "ünï", "a/b"])
def test_a_malformed_key_is_refused_before_anything_changes(client, actions, key):
    match_id = court_piece(actions, hands=0)
    answer = client.post(
        f"/api/v1/matches/{match_id}/hands",
        json={"record": TRICKS},
        headers={**actions.auth(match_id), "Idempotency-Key": key},
    )
    assert answer.status_code == 422 and answer.json["fields"] == {"Idempotency-Key": "malformed"}
    assert actions.match(match_id)["hands"] == []


def test_a_refused_request_keeps_no_answer_so_the_same_key_can_carry_it_put_right(client, actions):
    match_id = court_piece(actions, hands=0)
    headers = with_key(actions, match_id, "put-right")
    url = f"/api/v1/matches/{match_id}/hands"
    wrong = client.post(url, json={"record": {"outcome": "tricks", "tricks": [8, 8]}}, headers=headers)
    assert wrong.status_code == 422
    assert (
        client.post(url, json={"record": {"outcome": "tricks", "tricks": [8, 8]}}, headers=headers).status_code == 422
    )

    right = client.post(url, json={"record": TRICKS}, headers=headers)

    assert right.status_code == 201 and len(actions.match(match_id)["hands"]) == 1


def test_a_key_whose_first_request_is_still_running_is_told_to_wait_then_that_its_answer_was_lost(app, client, actions):
    """A receipt still without its answer: the first request is being carried out (or its process died
    after the commit, when it is old)."""
    match_id = court_piece(actions, hands=0)
    url = f"/api/v1/matches/{match_id}/hands"
    body = {"record": TRICKS}
    headers = with_key(actions, match_id, "slow")
    assert client.post(url, json=body, headers=headers).status_code == 201
    with app.app_context():
        receipt = db.session.scalars(db.select(WriteReceipt)).one()
        receipt.status = 0  # as between the write's commit and its answer
        db.session.commit()

    busy = client.post(url, json=body, headers=headers)
    assert busy.status_code == 409 and busy.headers["Retry-After"] == "1" and "moment" in busy.json["error"]

    with app.app_context():
        db.session.scalars(db.select(WriteReceipt)).one().created = now_utc() - timedelta(seconds=LOST_SECONDS + 1)
        db.session.commit()
    lost = client.post(url, json=body, headers=headers)
    assert lost.status_code == 409 and "answer was lost" in lost.json["error"]
    assert len(actions.match(match_id)["hands"]) == 1


def test_the_same_hand_sent_twice_at_once_is_recorded_once(app, actions):
    match_id = court_piece(actions, hands=0)
    answers = []
    start = threading.Barrier(2)

    def phone():
        client = app.test_client()
        start.wait()
        answers.append(
            client.post(
                f"/api/v1/matches/{match_id}/hands",
                json={"record": TRICKS, "number": 1},
                headers=with_key(actions, match_id, "twice-at-once"),
            )
        )

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(actions.match(match_id)["hands"]) == 1
    assert all(answer.status_code in (201, 409) for answer in answers)
    assert any(answer.status_code == 201 for answer in answers)


# -- a receipt answers only whoever may make the request (issue 38, item 1) --------------------------


def test_a_stranger_sending_a_new_matchs_body_with_its_short_key_gets_no_write_key(client):
    """The table's script used a short Idempotency-Key; a stranger rebuilds the public body."""
    body = {"game": "court_piece", "players": FOUR}
    first = client.post("/api/v1/matches", json=body, headers={"Idempotency-Key": "1"})
    stranger = client.post("/api/v1/matches", json=body, headers={"Idempotency-Key": "1"})

    assert stranger.status_code == 201 and stranger.json["id"] == first.json["id"]  # the same match, not a second
    assert stranger.json["key"] is None and "too short" in stranger.json["key_withheld"]
    assert first.json["key"] not in stranger.get_data(as_text=True)
    deleted = client.delete(f"/api/v1/matches/{first.json['id']}", headers={"Authorization": ""})  # no key to use
    assert deleted.status_code == 401 and client.get(f"/api/v1/matches/{first.json['id']}").status_code == 200


@pytest.mark.parametrize("authorization", [None, "another match's"])
def test_a_hand_sent_again_without_its_matchs_key_is_refused_not_replayed(client, actions, authorization):
    match_id = court_piece(actions, hands=0)
    headers = with_key(actions, match_id, "the-tables-hand")
    assert client.post(f"/api/v1/matches/{match_id}/hands", json={"record": TRICKS}, headers=headers).status_code == 201
    stranger = {"Idempotency-Key": "the-tables-hand", "Authorization": ""}
    if authorization:
        stranger["Authorization"] = actions.auth(court_piece(actions, hands=0))["Authorization"]
    replayed = client.post(f"/api/v1/matches/{match_id}/hands", json={"record": TRICKS}, headers=stranger)
    assert replayed.status_code == (403 if authorization else 401), replayed.json
    assert "Idempotent-Replayed" not in replayed.headers
    assert len(actions.match(match_id)["hands"]) == 1


def test_a_receipt_older_than_its_promise_answers_nothing(app, client, actions):
    match_id = court_piece(actions, hands=0)
    headers, first = with_key(actions, match_id, "kept-48-hours"), {"record": TRICKS, "number": 1}
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=first, headers=headers).status_code == 201
    with app.app_context():  # 48 hours and a minute later, before any prune ran
        db.session.execute(db.update(WriteReceipt).values(created=now_utc() - timedelta(hours=48, minutes=1)))
        db.session.commit()
    again = client.post(f"/api/v1/matches/{match_id}/hands", json=first, headers=headers)
    assert again.status_code == 409, (
        again.json and "Idempotent-Replayed" not in again.headers
    )  # a stale number, not a replay
    fresh = client.post(f"/api/v1/matches/{match_id}/hands", json={"record": TRICKS, "number": 2}, headers=headers)
    assert fresh.status_code == 201, fresh.json  # the token is free again: its old receipt made way
