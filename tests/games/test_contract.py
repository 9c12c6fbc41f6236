"""The contract every registered game keeps, checked over all of them: a new game gets these tests
by being registered, with nothing added here.

- its declarations are well formed and the API's description of them is plain JSON;
- every rule a reason can name is an anchor of its rules page;
- every state it reaches survives the JSON it is stored as;
- its test file declares its strategies (STRATEGIES, for test_properties.py), its commonest hand
  (COMMONEST) and the other hands its table records often (COMMON), tapped by
  tests/browser/test_at_the_table.py, so that no other test file names them.

The properties of play (replay, edit and reverse, only RecordError) are in test_properties.py, over
every game too, fed by each game's own strategies.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.games import GAMES, replay
from scorekeeper.games.fields import TYPES, When

from .properties import FAST, Strategies, declared, example_records
from .taps import Commonest

KEYS = list(GAMES)


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


@pytest.mark.parametrize("key", KEYS)
def test_its_test_file_declares_its_strategies_and_common_hands(key):
    assert isinstance(declared(key, "STRATEGIES"), Strategies)
    common = declared(key, "COMMON")
    assert isinstance(common, tuple) and common, "at least one other common hand (a raise, a revoke, a gin...)"
    for hand in (declared(key, "COMMONEST"), *common):
        assert isinstance(hand, Commonest) and hand.steps
        assert len(hand.steps) < hand.taps <= (hand.most or hand.taps)
        assert sum(step.kind == "open" for step in hand.steps) <= 1  # one fold opened at most
