"""The contract every registered game keeps, checked over all of them: a new game gets these tests
by being registered, with nothing added here.

- its declarations are well formed and the API's description of them is plain JSON;
- every rule a reason can name is an anchor of its rules page;
- replaying hands equals applying them one by one, and an edit and its reverse restore the state
  (hands drawn with the game's own `example_hand`);
- any record built from its declarations, and any JSON at all, is taken or refused with a
  RecordError carrying a message: never another exception.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.games import GAMES, RecordError, replay
from scorekeeper.games.fields import TYPES, When
from tests.games.properties import FAST, JSON, assert_edit_and_reverse_restores, assert_only_record_errors, \
    assert_replay_equals_one_by_one

KEYS = list(GAMES)
MOST_HANDS = 40


def players_for(game, rng: random.Random) -> int:
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.table(count)
            return count if rng.random() < 0.7 else game.table(game.max_players).players
        except RecordError:
            continue
    raise AssertionError(f"{game.key}: no player count between min and max is taken")


def start(game, seed: int):
    rng = random.Random(seed)
    table = game.table(players_for(game, rng))
    options = game.parse_options({}, table)
    return rng, table, options


def example_records(game, seed: int, most: int = MOST_HANDS) -> tuple:
    """Up to `most` example hands from a new match, stopping at the end of the match."""
    rng, table, options = start(game, seed)
    state = game.new_state(table, options)
    records = []
    while len(records) < most and not game.result(state).over:
        record = game.example_hand(state, rng)
        state = game.play(state, record).state
        records.append(record)
    return table, options, records


@pytest.fixture(scope="module")
def rules_pages(tmp_path_factory):
    """Every game's rules page as served, by game key."""
    folder = tmp_path_factory.mktemp("rules")
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/r.sqlite", "SECRET_KEY": "t"})
    client = app.test_client()
    return {key: client.get(f"/rules/{key}") for key in KEYS}


@pytest.mark.parametrize("key", KEYS)
def test_declarations_are_well_formed(key):
    game = GAMES[key]
    described = game.describe()
    assert json.loads(json.dumps(described)) == described
    assert described["players"]["min"] <= described["players"]["max"]
    for fields in (game.all_options, game.hand_fields):
        names = [fld.name for fld in fields]
        assert len(names) == len(set(names)), f"{key}: a field is declared twice"
        for fld in fields:
            assert fld.type in TYPES and fld.help, f"{key}.{fld.name}"
            if isinstance(fld.when, When):
                pool = [o.name for o in game.all_options] if fld.when.option else names
                assert fld.when.name in pool, f"{key}.{fld.name}: when names an unknown {fld.when.name}"
    table = game.table(game.min_players if game.min_players > 1 else 2)
    defaults = game.parse_options({}, table)  # every default is a value the option takes
    assert set(defaults) == {fld.name for fld in game.all_options}
    assert ("first_dealer" in defaults) is game.deals
    hand_names = {fld.name for fld in game.hand_fields}
    for form in game.record_forms:
        assert set(form.fields) <= hand_names, f"{key}: form {form.name} names an unknown field"


@pytest.mark.parametrize("key", KEYS)
def test_every_rule_is_an_anchor_of_the_rules_page(key, rules_pages):
    page = rules_pages[key]
    assert page.status_code == 200
    anchors = set(re.findall(r'id="([^"]+)"', page.get_data(as_text=True)))
    rules = {rule.value if hasattr(rule, "value") else rule for rule in GAMES[key].rules}
    assert rules, f"{key} declares no rules"
    assert rules <= anchors, f"{key}: rules without an anchor: {rules - anchors}"
    for seed in range(3):
        table, options, records = example_records(GAMES[key], seed)
        played = replay(GAMES[key], table, options, records)
        named = {reason.rule for result in played.results for reason in result.reasons}
        assert named <= rules, f"{key}: reasons name rules the game does not declare: {named - rules}"


@pytest.mark.parametrize("key", KEYS)
@FAST
@given(seed=st.integers(0, 10**6))
def test_replay_equals_one_by_one(key, seed):
    game = GAMES[key]
    table, options, records = example_records(game, seed)
    done = assert_replay_equals_one_by_one(game, table, options, records)
    assert len(game.scores(done.state)) == table.sides
    for result in done.results:
        assert len(result.changes) == table.sides and len(result.reasons) >= 1


@pytest.mark.parametrize("key", KEYS)
@FAST
@given(seed=st.integers(0, 10**6), data=st.data())
def test_an_edit_and_its_reverse_restore_the_state(key, seed, data):
    game = GAMES[key]
    table, options, records = example_records(game, seed, most=12)
    if not records:
        return
    index = data.draw(st.integers(0, len(records) - 1))
    before = replay(game, table, options, records[:index]).state
    replacement = game.example_hand(before, random.Random(seed + 1))
    assert_edit_and_reverse_restores(game, table, options, records, index, replacement)


def record_strategy(game, table):
    """Records drawn from the declarations: right names, values of roughly the right shape."""
    def value_for(fld):
        small = st.integers(-1, max(table.sides, 4) + 1)
        numbers = st.integers((fld.min or 0) - 1, (fld.max if fld.max is not None else 20) + 1)
        shapes = {
            "side": small | st.none(), "seat": small, "int": numbers, "bool": st.booleans(),
            "choice": st.sampled_from(list(fld.choices) or [None]) | st.text(max_size=3),
            "per_side": st.lists(numbers, min_size=table.sides, max_size=table.sides),
            "side_list": st.lists(small, max_size=4), "int_list": st.lists(numbers, max_size=6),
            "events": st.lists(st.fixed_dictionaries({"side": small, "type": st.sampled_from(list(fld.choices) or ["x"])}),
                               max_size=4),
            "cards": st.lists(st.lists(st.sampled_from(["AS", "KH", "TD", "7C", "2S", "QH", "X"]), max_size=5) | st.none(),
                              min_size=table.sides, max_size=table.sides),
            "grid": st.lists(st.lists(st.sampled_from(["AS", "KH", "5D"]), max_size=5), max_size=5),
        }
        if fld.type == "group":
            return st.fixed_dictionaries({}, optional={sub.name: value_for(sub) for sub in fld.fields})
        return shapes[fld.type]
    return st.fixed_dictionaries({}, optional={fld.name: value_for(fld) for fld in game.hand_fields})


@pytest.mark.parametrize("key", KEYS)
@FAST
@given(data=st.data())
def test_any_record_is_taken_or_refused_with_a_message(key, data):
    game = GAMES[key]
    rng, table, options = start(game, data.draw(st.integers(0, 1000)))
    state = game.new_state(table, options)
    for _ in range(data.draw(st.integers(0, 3))):
        if game.result(state).over:
            break
        state = game.play(state, game.example_hand(state, rng)).state
    raw = data.draw(record_strategy(game, table) | JSON)
    assert_only_record_errors(game, state, raw)


@pytest.mark.parametrize("key", KEYS)
@FAST
@given(seed=st.integers(0, 10**6))
def test_a_stored_state_reads_back_exactly(key, seed):
    """Every state a game reaches survives the JSON it is stored as (issue 14: no replay on read)."""
    import json as plain
    from scorekeeper.games.base import decode_state, encode_state
    game = GAMES[key]
    table, options, records = example_records(game, seed, most=15)
    done = replay(game, table, options, records)
    for state in [done.start] + [result.state for result in done.results]:
        stored = plain.loads(plain.dumps(encode_state(state)))
        assert decode_state(stored) == state
