"""A finished match as the history hands it to a game's statistics, for each game's worked match of
what its table counts (the `test_<key>_counts` of each game's test file)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.games import get_game, replay
from scorekeeper.games.statistics import Finished


@dataclass
class Hand:
    """A hand of the finished match as the history hands it to a statistic."""

    number: int
    record: dict
    changes: list[int]
    game_winner: int | None
    state: Any


def finished(key: str, players: int, records: list[dict], call: bool = False, **options) -> Finished:
    """The match of `key` after `records`, finished by its last hand or, with `call`, by the table."""
    game = get_game(key)
    table = game.table(players)
    done = replay(game, table, game.parse_options(options, table), records)
    state = done.state.evolve(called=True) if call else done.state
    result = game.result(state, called=call)
    assert result.over, result.headline
    hands = [
        Hand(number, record, list(hand.changes), hand.game_winner, hand.state)
        for number, (record, hand) in enumerate(zip(done.records, done.results), start=1)
    ]
    return Finished(state, result, table, hands)


def figures(key: str, players: int, records: list[dict], call: bool = False, **options) -> dict[str, list]:
    """Each declared statistic of the finished match, for every side in order."""
    done = finished(key, players, records, call, **options)
    return {stat.key: [stat.count(done, side) for side in range(done.sides)] for stat in get_game(key).statistics}


A, B, C, D = 0, 1, 2, 3  # the sides (or seats), as the tests name them
