"""A stored state comes from a database or an import file: decoding it builds the engine's own
state classes and nothing else."""

from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import decode_state, encode_state


@pytest.mark.parametrize(
    "path",
    [
        "scorekeeper.games.base:dataclasses.inspect.os.system",  # reaches a function through imports
        "scorekeeper.games.base:importlib.import_module",
        "scorekeeper.games.base:Table.side_of",  # a method of an engine class
        "scorekeeper.games.base:nothing.here",
    ],
)
def test_a_state_naming_anything_but_an_engine_state_class_is_refused_and_runs_nothing(path, monkeypatch):
    called = []
    monkeypatch.setattr("os.system", lambda command: called.append(command))
    with pytest.raises(ValueError):
        decode_state({"$dc": path, "f": {"command": "echo owned"}})
    with pytest.raises(ValueError):
        decode_state({"$enum": path, "v": "echo owned"})
    assert called == []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_new_state_still_decodes(key):
    game = GAMES[key]
    table = game.table(game.min_players)
    state = game.new_state(table, game.parse_options({}, table))
    assert decode_state(encode_state(state)) == state
