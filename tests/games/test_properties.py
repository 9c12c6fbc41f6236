"""The properties every game keeps, run over every registered game (a new game is covered by being
registered, with nothing added here), each fed by the strategies its test file declares
(`STRATEGIES` in tests/games/test_<key>.py; properties.py says how):

- replaying hands equals playing them one by one, and keeps each record as it was given;
- an edit and its reverse restore every result (an edited hand fits where it stands; only a later
  hand may stop fitting);
- any input at all (the file's own, records built from the declarations, any JSON) is taken or
  refused with a RecordError carrying a message, never another exception.

The hands of each match come from the game's strategies with its own `example_hand` mixed in, so
both are held to the same properties, in any order.
"""

from __future__ import annotations

import random
from contextlib import suppress

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.games import GAMES

from .properties import (
    FAST,
    JSON,
    SEEDS,
    assert_edit_and_reverse_restores,
    assert_only_record_errors,
    assert_replay_equals_one_by_one,
    assert_texts_translatable,
    declared,
    declared_records,
    draw_hand,
    matches,
    played,
    reached,
    takes,
)

KEYS = list(GAMES)
for _key in KEYS:  # import each game's test file now: imported inside a Hypothesis test, its own would nest
    with suppress(AssertionError):
        declared(_key)
STATES_WITHIN = 8  # hands played before the only-RecordError property sends its input


def check_hand(game, strategies, before, hand) -> None:
    """What holds of any hand a game takes: a change per side, a reason, the hand counted, and the
    game's own `taken` invariant."""
    assert len(hand.changes) == before.table.sides and len(hand.reasons) >= 1
    assert hand.state.hands == before.hands + 1
    if strategies.taken is not None:
        strategies.taken(before, hand)
    assert_texts_translatable(game, hand.state, hand)


@pytest.mark.parametrize("key", KEYS)
@settings(FAST, max_examples=300)
@given(data=st.data())
def test_replay_equals_one_by_one(key, data):
    game, strategies = GAMES[key], declared(key)
    match = data.draw(matches(game, strategies, examples=True), label="match")
    done = assert_replay_equals_one_by_one(game, *match)
    assert len(game.scores(done.state)) == match.table.sides
    for before, hand in zip([done.start] + [result.state for result in done.results], done.results):
        check_hand(game, strategies, before, hand)
    assert done.records == match.records  # kept as they were given


@pytest.mark.parametrize("key", KEYS)
@settings(FAST, max_examples=300)
@given(data=st.data())
def test_an_edit_and_its_reverse_restore_the_state(key, data):
    game, strategies = GAMES[key], declared(key)
    (table, options, records), states = data.draw(played(game, strategies, least=1, examples=True), label="match")
    assume(records)
    index = data.draw(st.integers(0, len(records) - 1), label="index")
    before = states[index]
    replacement = draw_hand(data.draw, game, strategies, before, random.Random(data.draw(SEEDS)), examples=True)
    if strategies.refused:  # the edited hand itself must fit
        assume(takes(game, before, replacement))
    assert_edit_and_reverse_restores(game, table, options, records, index, replacement)


@pytest.mark.parametrize("key", KEYS)
@settings(FAST, max_examples=300)
@given(data=st.data())
def test_any_input_is_taken_or_refused_with_a_record_error(key, data):
    game, strategies = GAMES[key], declared(key)
    states = reached(game, strategies, STATES_WITHIN, examples=True)
    state = data.draw(states if strategies.states is None else states | strategies.states, label="state")
    raw = data.draw(strategies.raw | declared_records(game, state.table) | JSON, label="input")
    hand = assert_only_record_errors(game, state, raw)
    if hand is not None:
        check_hand(game, strategies, state, hand)
