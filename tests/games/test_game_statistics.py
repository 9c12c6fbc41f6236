"""Each game's own statistics (issue 24): every game declares what its table counts, beside its board,
and each figure is what the table would count by hand. Every game's test file plays a short real match
through the engine (`test_<key>_counts`, on tests/games/counted.py); its comments work each figure out
from the hands as a player would, and the test holds the game's count to it."""

from __future__ import annotations

import importlib
import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.statistics import KEEPS, Statistic, longest_run

A, B = 0, 1


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_declares_its_own_statistics(key):
    declared = GAMES[key].statistics
    assert declared, f"{key} declares no statistic"
    keys = [stat.key for stat in declared]
    assert len(set(keys)) == len(keys), f"{key}: a key is declared twice"
    labels = [stat.label for stat in declared]
    assert len(set(labels)) == len(labels), f"{key}: two statistics show the same label"
    for stat in declared:
        assert isinstance(stat, Statistic) and re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", stat.key), stat.key
        assert stat.label[:1].isupper() and len(stat.label) <= 40 and stat.keep in KEEPS


@pytest.mark.parametrize(
    "key", [key for key, game in GAMES.items() if type(game).__module__.startswith("scorekeeper.")]
)
def test_every_game_works_a_match_of_its_statistics_in_its_own_tests(key):
    assert hasattr(importlib.import_module(f"tests.games.test_{key}"), f"test_{key}_counts")


def test_a_statistic_refuses_a_keep_it_does_not_know():
    with pytest.raises(ValueError, match="keep must be one of total, most, least, average"):
        Statistic("courts", "Courts won", lambda done, side: 0, keep="sum")


def test_the_longest_run_counts_hands_in_a_row_and_nobody_breaks_it():
    assert longest_run([A, A, B, A, A, A, None, A], A) == 3
    assert longest_run([A, A, B, A, A, A, None, A], B) == 1
    assert longest_run([], A) == 0
