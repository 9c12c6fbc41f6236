"""The printed score sheet's lines (games/sheet.py, issue 34 item 4): what each hand scored and each
side's running total, in each kind of point the game keeps, read from the states after the hands.

Over every game (its test file's strategies): each column adds up line by line, and the last line is
the board; where the sheet keeps the board's score alone, a hand's line is what its reasons gave.
Then the games whose sheet keeps more: Poke above and below the line, Envite's stones that start
again after a game, Bura's tokens handed out before the first hand."""

from __future__ import annotations

import random
from contextlib import suppress

import pytest
from hypothesis import given, settings

from scorekeeper.games import GAMES, get_game
from scorekeeper.games.sheet import SheetColumn, labels, lines, totals

from .properties import FAST, declared, played

KEYS = list(GAMES)
for _key in KEYS:  # each game's test file imported now, not inside a Hypothesis test
    with suppress(AssertionError):
        declared(_key)


def sheet_of(game, start, records) -> tuple[list, list]:
    """The sheet of a match played from `start`, and each hand's changes."""
    state, hands = start, []
    for record in records:
        done = game.play(state, record)
        hands.append((done.state, done.changes))
        state = done.state
    return list(lines(game, start, hands)), [changes for _, changes in hands]


def figures(line) -> list[list[tuple[int | None, int]]]:
    return [[(figure.scored, figure.total) for figure in side] for side in line.sides]


@pytest.mark.parametrize("key", KEYS)
def test_every_games_sheet_adds_up_to_its_board(key):
    game = get_game(key)

    @settings(FAST, max_examples=40)
    @given(played(game, declared(key), examples=True))
    def check(match_and_states):
        (table, options, records), states = match_and_states
        sheet, changes = sheet_of(game, states[0], records)
        carried = [[0] * len(game.sheet) for _ in range(table.sides)]
        for line in sheet:
            for side, shown in enumerate(line.sides):
                for column, figure in enumerate(shown):
                    assert figure.scored is None or carried[side][column] + figure.scored == figure.total
                    carried[side][column] = figure.total
        final = totals(game, states[-1])
        if not sheet:  # no hand yet, and nothing handed out before one
            assert not records and not any(any(column) for column in final)
            return
        assert [[figure.total for figure in side] for side in sheet[-1].sides] == [list(each) for each in zip(*final)]
        if sheet[-1].number:  # no line carries totals over: the last hand's is the board
            assert sheet[-1].number == len(records)
        if game.sheet == (SheetColumn(),):  # the board's score alone: a hand scored what its reasons say
            hand_lines = [line for line in sheet if line.number]
            assert [[side[0].scored for side in line.sides] for line in hand_lines] == changes

    check()


POKE = [
    {"tricks": [5, 0], "draws": [0, 0], "better_hand": 0, "poker_hand": "one_pair"},
    {"tricks": [4, 1], "draws": [0, 2], "better_hand": 1, "poker_hand": "two_pair"},
    {"tricks": [4, 1], "draws": [0, 0], "better_hand": 0, "poker_hand": "one_pair"},
    {"tricks": [3, 2], "draws": [0, 0]},
    {"tricks": [5, 0], "draws": [0, 2], "better_hand": 0, "poker_hand": "one_pair"},
]


def test_poke_keeps_above_and_below_the_line_apart_and_starts_below_again_after_a_game():
    """RULES.md 1.3 (S4:65-80): tricks score below the line, honours, the sweep and the bonuses above;
    a game won wipes both players' points below the line; the match goes to the total above."""
    game = get_game("poke")
    table = game.table(2)
    sheet, changes = sheet_of(game, game.new_state(table, game.parse_options({}, table)), POKE)
    assert [str(label) for label in labels(game)] == ["Above the line", "Below the line", "Games"]
    assert [(line.number, line.game, figures(line)) for line in sheet] == [
        (1, None, [[(300, 300), (5, 5), (0, 0)], [(0, 0), (0, 0), (0, 0)]]),  # a pair 50, the sweep 250 (S4:76)
        (2, None, [[(0, 300), (8, 13), (0, 0)], [(100, 100), (1, 1), (0, 0)]]),  # Bo drew twice: Ann's 4 x2 (S4:59)
        (3, None, [[(50, 350), (4, 17), (0, 0)], [(0, 100), (1, 2), (0, 0)]]),
        (4, None, [[(100, 450), (3, 20), (1, 1)], [(0, 100), (2, 4), (0, 0)]]),  # 20 below: game 1, +100 (S4:79)
        (None, 1, [[(None, 450), (None, 0), (None, 1)], [(None, 100), (None, 0), (None, 0)]]),  # wiped below
        (5, None, [[(1150, 1600), (20, 20), (1, 2)], [(0, 100), (0, 0), (0, 0)]]),  # x4: game 2, rubber 2-0 +750
        (None, 2, [[(None, 1600), (None, 0), (None, 2)], [(None, 100), (None, 0), (None, 0)]]),
    ]
    assert sum(change[0] for change in changes) == 1640  # what Ann's hands changed, below the line with it


def test_envite_draws_the_line_under_a_game_won_and_its_stones_start_again():
    """A game won at twelve stones starts the next at 0-0 (S0:89); the sheet shows the twelve, then
    the stones and games the next hand starts from."""
    game = get_game("envite")
    table = game.table(4)
    start = game.new_state(table, game.parse_options({}, table))
    records = [
        {"winner": 0, "stake": 7},
        {"winner": 1, "stake": 2},
        {"winner": 0, "stake": "game"},  # A +5, to twelve: game 1
        {"winner": 1, "stake": 4},
    ]
    sheet, _ = sheet_of(game, start, records)
    assert [str(label) for label in labels(game)] == ["Stones", "Games"]
    assert [(line.number, figures(line)) for line in sheet] == [
        (1, [[(7, 7), (0, 0)], [(0, 0), (0, 0)]]),
        (2, [[(0, 7), (0, 0)], [(2, 2), (0, 0)]]),
        (3, [[(5, 12), (1, 1)], [(0, 2), (0, 0)]]),
        (None, [[(None, 0), (None, 1)], [(None, 0), (None, 0)]]),
        (4, [[(0, 0), (0, 1)], [(4, 4), (0, 0)]]),
    ]


def test_bura_starts_the_sheet_with_the_tokens_handed_out():
    """Each player starts with tokens (Bura's `starting_tokens`, 20 by default): the sheet's first line says so,
    and a hand's line moves them."""
    game = get_game("bura")
    table = game.table(2)
    start = game.new_state(table, game.parse_options({}, table))
    sheet, changes = sheet_of(game, start, [game.example_hand(start, random.Random(3))])
    assert [str(label) for label in labels(game)] == ["Tokens"]
    assert (sheet[0].number, figures(sheet[0])) == (0, [[(None, 20)], [(None, 20)]])
    assert figures(sheet[1]) == [[(change, 20 + change)] for change in changes[0]]
