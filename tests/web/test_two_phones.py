"""Two phones at one table, really at once: every hand is recorded once, nothing is lost."""

from __future__ import annotations

import threading

from tests.conftest import Actions


def test_simultaneous_submissions_of_the_next_hand_record_exactly_one(app):
    setup = Actions(app.test_client())
    match_id = setup.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    statuses: list[int] = []
    start = threading.Barrier(4)

    def phone(won: int):
        client = app.test_client()
        start.wait()
        answer = client.post(
            f"/api/v1/matches/{match_id}/hands",
            json={"record": {"outcome": "tricks", "tricks": [won, 13 - won]}, "number": 1},
        )
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=phone, args=(won,)) for won in (7, 8, 9, 10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409, 409, 409]
    assert len(setup.match(match_id)["hands"]) == 1


def test_many_phones_adding_hands_lose_none(app):
    setup = Actions(app.test_client())
    match_id = setup.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    recorded: list[int] = []

    def phone():
        client = app.test_client()
        for _ in range(5):
            answer = client.post(
                f"/api/v1/matches/{match_id}/hands", json={"record": {"outcome": "tricks", "tricks": [8, 5]}}
            )
            if answer.status_code == 201:
                recorded.append(answer.json["number"])
            else:
                assert answer.status_code == 409, answer.json

    threads = [threading.Thread(target=phone) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    hands = setup.match(match_id)["hands"]
    assert sorted(recorded) == [hand["number"] for hand in hands] == list(range(1, len(hands) + 1))


def test_a_hand_number_already_taken_behind_the_apps_back_is_refused_and_nothing_changes(app):
    """Another program wrote hand 2 straight into the database without moving the match on: the
    app's write of hand 2 is refused (409), and the match stays as it was."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Hand, Match

    setup = Actions(app.test_client())
    match_id = setup.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    setup.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})

    def stored():
        with app.app_context():
            match = db.session.get(Match, match_id)
            rows = db.session.scalars(db.select(Hand.record).where(Hand.match_id == match_id).order_by(Hand.number))
            return match.version, match.state, list(rows)

    with app.app_context():
        db.session.add(Hand(match_id=match_id, number=2, record={"outcome": "tricks", "tricks": [7, 6]}))
        db.session.commit()
    before = stored()

    answer = setup.write("POST", match_id, "/hands", {"record": {"outcome": "tricks", "tricks": [9, 4]}})

    assert answer.status_code == 409, answer.json
    assert answer.json["error"].startswith("Another phone changed this match")
    assert stored() == before
