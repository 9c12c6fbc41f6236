"""The API contract, run over every registered game (a new game is covered by registering it).

Each game is played through the API with its own example hands: the match keeps API.md's shape,
every hand answers with the engine's changes and reasons and the match as the engine has it (scores,
state, status, winner, dealer), a refused record changes nothing, an edit and a deletion replay, and
a finished match takes no hand. The figures themselves are tested once, in tests/games.

Who may write and paging are in test_keys.py and test_paging.py."""

from __future__ import annotations

import random

import pytest

from scorekeeper.games import GAMES, RecordError

from .contract import check_answer, engine_says

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
        records = [hand["record"] for hand in answer["match"]["hands"]]
        check_answer(answer, engine_says(key, len(match["players"]), match["options"], records))
    match = actions.match(match_id)
    if match["status"] == "finished":
        actions.hand(match_id, game.example_hand(engine_state(game, match), rng), expect=409)
    count = len(match["hands"])
    first = match["hands"][0]["record"]
    assert len(actions.edit(match_id, 1, first)["hands"]) == count  # the same record again: nothing moves
    assert actions.match(match_id)["sides"] == match["sides"]
    after = actions.delete(match_id, count)
    assert len(after["hands"]) == count - 1 and after["status"] == "in_progress"
