"""Hypothesis machinery shared by the game tests: one settings profile, JSON-like input, and the
bodies of the properties every game must keep (replay, edit-and-reverse, only RecordError).

Each game's test file keeps its own strategies for valid records and matches and its own invariants;
the helpers here assert the common part and hand back what they computed for the file to check more.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, replay

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""The profile of the game properties; `settings(FAST, max_examples=N)` for another count."""


def json_values(integers=None, max_text: int = 8):
    """Arbitrary JSON-like values: null, bools, numbers (NaN and infinities too), short text, lists, objects."""
    leaves = st.none() | st.booleans() | (st.integers() if integers is None else integers)
    leaves = leaves | st.floats(allow_nan=True) | st.text(max_size=max_text)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=max_text), inner, max_size=4),
        max_leaves=12,
    )


JSON = json_values()


def assert_replay_equals_one_by_one(game, table, options, records):
    """Replaying `records` gives the same results and state as playing them one by one; the replay."""
    state = game.new_state(table, options)
    results = []
    for record in records:
        result = game.play(state, record)
        results.append(result)
        state = result.state
    replayed = replay(game, table, options, records)
    assert replayed.state == state
    assert replayed.results == results
    return replayed


def assert_edit_and_reverse_restores(game, table, options, records, index, replacement):
    """Editing record `index` to `replacement` and back restores every result; the restored replay.

    The edited hand itself must fit (`replacement` is valid where it stands): only a later hand may stop
    fitting, and the hands before it are untouched. Replaying changes neither the options nor the records.
    """
    kept = copy.deepcopy((options, records))
    original = replay(game, table, options, records)
    edited = list(records)
    edited[index] = replacement
    try:
        changed = replay(game, table, options, edited)
    except ReplayError as error:
        assert error.number > index + 1  # the edited hand fits; a later one may not
    else:
        assert changed.results[:index] == original.results[:index]
    restored = replay(game, table, options, edited[:index] + [records[index]] + edited[index + 1:])
    assert restored.state == original.state
    assert restored.results == original.results
    assert (options, records) == kept
    return restored


def assert_only_record_errors(game, state, raw):
    """Playing any `raw` input either works or raises a RecordError with a message; the result or None."""
    try:
        return game.play(state, raw)
    except RecordError as error:
        assert error.message
        return None
