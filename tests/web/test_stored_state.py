"""No replay on read (issue 14): the state after every hand is stored with it, and the match's state
after its last hand, in the same transaction as the change. Whatever the table does (record, edit,
delete, undo, finish and reopen, fix the set-up), what is stored equals replaying the hands, and
`flask verify` finds nothing to report; each player's kept record per game equals counting the seats."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.games import GAMES, replay
from scorekeeper.history.queries import stories_of
from scorekeeper.models import Match, Player
from scorekeeper.records import reads, writes
from scorekeeper.records.stories import audit, rerating
from scorekeeper.records.verify import differences, verify_all
from tests.conftest import DATABASES, database_url, make_app

# One game of each shape: partnership, penalty, counting, chips, a race, and one that ends by finish.
KEYS = [
    "court_piece",
    "envite",
    "schnapsen",
    "omi",
    "polignac",
    "gin_rummy",
    "toepen",
    "machiavelli",
    "speed_tournament",
    "turnover_bridge",
]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
OPERATIONS = st.lists(
    st.sampled_from(["hand", "hand", "hand", "edit", "delete", "undo", "setup", "finish"]), min_size=1, max_size=14
)


@pytest.fixture(scope="module", params=DATABASES)
def shared_app(request, tmp_path_factory):
    app = make_app(database_url(request.param, tmp_path_factory.mktemp("stored")))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def players(game) -> list[str]:
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.table(count)
            return NAMES[:count]
        except Exception:
            continue
    raise AssertionError(game.key)


def state_at(game, match: dict, hands: int):
    table = game.table(len(match["players"]))
    return replay(game, table, match["options"], [h["record"] for h in match["hands"][:hands]]).state


def act(client, game, match_id: int, operation: str, rng: random.Random) -> None:
    """One thing a table does; a refusal (409/422) is a fine outcome and must change nothing."""
    match = client.get(f"/api/v1/matches/{match_id}").json
    count = len(match["hands"])
    path = f"/api/v1/matches/{match_id}"
    if operation == "hand" and match["status"] != "finished":
        client.post(f"{path}/hands", json={"record": game.example_hand(state_at(game, match, count), rng)})
    elif operation == "edit" and count:
        number = rng.randrange(1, count + 1)
        client.put(f"{path}/hands/{number}", json={"record": game.example_hand(state_at(game, match, number - 1), rng)})
    elif operation in ("delete", "undo") and count:
        client.delete(f"{path}/hands/{rng.randrange(1, count + 1) if operation == 'delete' else count}")
    elif operation == "setup":
        names = match["players"][1:] + match["players"][:1]  # everyone moves one seat
        client.patch(path, json={"players": names})
    elif operation == "finish":
        client.post(f"{path}/{'reopen' if match['status'] == 'finished' else 'finish'}")


def history_differences() -> list[str]:
    """Where the players' records and stories differ from the seats (once every game is re-rated)."""
    rerating.rerate_all()
    return audit.differences()


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS, seed=st.integers(0, 10**6))
def test_what_is_stored_equals_the_replay_after_any_changes(shared_app, key, operations, seed):
    game, rng = GAMES[key], random.Random(seed)
    client = shared_app.test_client()
    match_id = client.post("/api/v1/matches", json={"game": key, "players": players(game)}).json["id"]
    for operation in operations:
        act(client, game, match_id, operation, rng)
        with shared_app.app_context():
            match = db.session.get(Match, match_id)
            assert differences(match) == [], operation
            assert history_differences() == [], operation  # every player's record and story per game follows
    if seed % 3 == 0:  # and the records forget a deleted match
        assert client.delete(f"/api/v1/matches/{match_id}").status_code == 204
        with shared_app.app_context():
            assert history_differences() == []


def test_flask_verify_reports_a_stored_state_that_drifted(app, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    for won in (8, 9, 10):
        actions.hand(match_id, {"outcome": "tricks", "tricks": [won, 13 - won]})
    runner = app.test_cli_runner()
    clean = runner.invoke(args=["verify"])
    assert clean.exit_code == 0 and "0 differences" in clean.output
    with app.app_context():  # someone edits a stored hand behind the app's back
        db.session.execute(db.text("UPDATE hand SET changes = '[5, 5]' WHERE number = 2"))
        db.session.commit()
    found = runner.invoke(args=["verify"])
    assert found.exit_code == 1 and "hand 2" in found.output
    healed = runner.invoke(args=["verify", "--store"])
    assert "stored anew" in healed.output and runner.invoke(args=["verify"]).exit_code == 0
    with app.app_context():
        assert verify_all() == (1, [])


def test_flask_verify_counts_a_players_record_again_when_it_drifted(app, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"], target=1)
    actions.hand(match_id, {"ending": "out", "declarer": 0, "points": [70, 20], "tricks": [4, 1]})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify"]).exit_code == 0
    with app.app_context():
        db.session.execute(db.text("UPDATE rated_seat SET won = won + 5"))
        db.session.commit()
    found = runner.invoke(args=["verify"])
    assert found.exit_code == 1 and "story after match" in found.output
    runner.invoke(args=["verify", "--store"])
    assert runner.invoke(args=["verify"]).exit_code == 0
    with app.app_context():
        ann = db.session.scalar(db.select(Player.id).where(Player.name == "Ann"))
    page = actions.client.get(f"/players/{ann}").get_data(as_text=True)
    assert "<td>Schnapsen</td><td>1</td><td>0</td><td>0</td><td>0</td>" in page


def test_a_match_finished_in_the_session_that_started_it_counts_in_the_records(app):
    """A seat whose outcome is set before it was ever read (one session from start to finish, as a
    script or an import would run) still moves the players' records."""
    with app.app_context():
        match = writes.create_match("schnapsen", ["Ann", "Bo"], {"target": 1})
        writes.record_hand(reads.load(match.id), {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
        assert history_differences() == []
        ann, bo = (db.session.scalar(db.select(Player.id).where(Player.name == name)) for name in ("Ann", "Bo"))
        assert [stories_of(player)["schnapsen"].won for player in (ann, bo)] == [0, 1]
