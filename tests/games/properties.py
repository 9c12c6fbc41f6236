"""Hypothesis machinery shared by the game tests: one settings profile, JSON-like input, how a game's
test file declares its strategies, the matches drawn from them, and the bodies of the properties
every game must keep (replay, edit-and-reverse, only RecordError).

Each game's test file declares its strategies once, as `STRATEGIES = Strategies(...)`;
test_properties.py runs the common properties over every registered game with them, and the file
keeps its own invariants, drawing its matches with `matches(GAME, STRATEGIES)`.
"""

from __future__ import annotations

import copy
import functools
import importlib
import importlib.util
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from scorekeeper.games import RecordError, ReplayError, replay
from scorekeeper.games.base import Game, HandResult, State, Table, marked_sides
from scorekeeper.games.texts import VERBATIM, Text

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


# -- what a game's test file declares ---------------------------------------------------------------


@dataclass(frozen=True)
class Strategies:
    """How a game's test file feeds the properties every game keeps (`STRATEGIES` in
    tests/games/test_<key>.py, read by test_properties.py). Everything has a default, so a new game
    starts from `Strategies()` and says more as its rules need.

    - `players`: the player counts to draw; every count the game takes, unless given.
    - `options`: a strategy per option (the others keep their defaults); a dealing game's
      `first_dealer` is drawn over the table's seats unless given here.
    - `record`: a strategy of records, or a function giving one for a state (`record(state)`); by
      default the game's own `example_hand`.
    - `refused`: a drawn record may be refused, and is then left out (as a table would not write
      it); otherwise every drawn record must be taken.
    - `most`: the most hands a drawn match has.
    - `raw`: any input at all, sent to the game by the only-RecordError property, besides records
      built from the game's declarations and any JSON.
    - `states`: states to send that input to, besides those drawn matches end in.
    - `taken(before, hand)`: asserts what holds of any hand the game takes, whatever the input.
    """

    players: SearchStrategy[int] | None = None
    options: Mapping[str, SearchStrategy] = field(default_factory=dict)
    record: SearchStrategy[dict] | Callable[[State], SearchStrategy[dict]] | None = None
    refused: bool = False
    most: int = 30
    raw: SearchStrategy = JSON
    states: SearchStrategy[State] | None = None
    taken: Callable[[State, HandResult], None] | None = None


def declared(key: str, name: str = "STRATEGIES") -> Any:
    """What tests/games/test_<key>.py declares as `name` (its STRATEGIES, its COMMONEST and COMMON hands)."""
    module = f"{__package__}.test_{key}"
    found = importlib.util.find_spec(module) and getattr(importlib.import_module(module), name, None)
    assert found is not None, f"tests/games/test_{key}.py must declare {name} (see tests/games/properties.py)"
    return found


class Match(NamedTuple):
    """A table, its options in full, and hands played from a new match: `replay(game, *match)`."""

    table: Table
    options: dict
    records: list


SEEDS = st.integers(0, 2**32 - 1)


def draw_hand(
    draw, game: Game, strategies: Strategies, state: State, rng: random.Random, examples: bool = False
) -> dict:
    """A record for `state` from the declared strategy; with `examples`, the game's own example hand
    (drawn with `rng`) one time in two, or always where the file declares no records."""
    if strategies.record is None or (examples and rng.random() < 0.5):
        return game.example_hand(state, rng)
    own = strategies.record
    return draw(own if isinstance(own, SearchStrategy) else own(state))


def takes(game: Game, state: State, record) -> bool:
    try:
        game.check(state, record)
    except RecordError:
        return False
    return True


def player_counts(game: Game) -> list[int]:
    """Every player count the game takes (Cuarenta is not played by three)."""
    counts = []
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.table(count)
        except RecordError:
            continue
        counts.append(count)
    return counts


def play_match(
    draw, game: Game, strategies: Strategies, most: int | None = None, least: int = 0, examples: bool = False
) -> tuple[Match, list[State]]:
    """A match as a table plays it, and its states (the start, then after each hand): a table,
    options, and hands drawn one by one for the state they are played in, stopping when the match is
    over (a finished match takes no more hands). Records the strategies allow to be refused are left
    out; any other refusal fails the test."""
    players = draw(st.sampled_from(player_counts(game)) if strategies.players is None else strategies.players)
    table = game.table(players)
    given = dict(strategies.options)
    if game.deals and "first_dealer" not in given:
        given["first_dealer"] = st.integers(0, players - 1)
    options = game.parse_options(draw(st.fixed_dictionaries(given)), table)
    states, records, rng = [game.new_state(table, options)], [], random.Random(draw(SEEDS))
    for _ in range(draw(st.integers(least, strategies.most if most is None else most))):
        if game.result(states[-1]).over:
            break
        record = draw_hand(draw, game, strategies, states[-1], rng, examples)
        try:
            states.append(game.play(states[-1], record).state)
        except RecordError:
            if not strategies.refused:
                raise
            continue
        records.append(record)
    return Match(table, options, records), states


@st.composite
def matches(
    draw, game: Game, strategies: Strategies, most: int | None = None, least: int = 0, examples: bool = False
) -> Match:
    """Matches drawn with `play_match` (`most` hands at most, `least` at least unless it ends first;
    `examples`: the game's example hands mixed in)."""
    return play_match(draw, game, strategies, most, least, examples)[0]


@st.composite
def played(
    draw, game: Game, strategies: Strategies, most: int | None = None, least: int = 0, examples: bool = False
) -> tuple[Match, list[State]]:
    """Matches as `matches` draws them, with their states."""
    return play_match(draw, game, strategies, most, least, examples)


@st.composite
def reached(draw, game: Game, strategies: Strategies, most: int, examples: bool = False) -> State:
    """The states drawn matches of up to `most` hands end in."""
    return play_match(draw, game, strategies, most, 0, examples)[1][-1]


@functools.cache
def declared_records(game: Game, table: Table) -> SearchStrategy[dict]:
    """Records drawn from the declarations: right names, values of roughly the right shape (built
    once a game and table: building the strategy costs more than drawing from it)."""

    def value_for(fld):
        small = st.integers(-1, max(table.sides, 4) + 1)
        numbers = st.integers((fld.min or 0) - 1, (fld.max if fld.max is not None else 20) + 1)
        shapes = {
            "side": small | st.none(),
            "seat": small,
            "int": numbers,
            "bool": st.booleans(),
            "choice": st.sampled_from(list(fld.choices) or [None]) | st.text(max_size=3),
            "per_side": st.lists(numbers, min_size=table.sides, max_size=table.sides),
            "side_list": st.lists(small, max_size=4),
            "int_list": st.lists(numbers, max_size=6),
            "events": st.lists(
                st.fixed_dictionaries({"side": small, "type": st.sampled_from(list(fld.choices) or ["x"])}), max_size=4
            ),
            "cards": st.lists(
                st.lists(st.sampled_from(["AS", "KH", "TD", "7C", "2S", "QH", "X"]), max_size=5) | st.none(),
                min_size=table.sides,
                max_size=table.sides,
            ),
            "grid": st.lists(st.lists(st.sampled_from(["AS", "KH", "5D"]), max_size=5), max_size=5),
        }
        if fld.type == "group":
            return st.fixed_dictionaries({}, optional={sub.name: value_for(sub) for sub in fld.fields})
        return shapes[fld.type]

    return st.fixed_dictionaries({}, optional={fld.name: value_for(fld) for fld in game.hand_fields})


def example_records(game: Game, seed: int, most: int = 40) -> Match:
    """Up to `most` example hands from a new match at the default options, stopping at its end; the
    fewest players seven times in ten, else the most."""
    rng = random.Random(seed)
    counts = player_counts(game)
    table = game.table(counts[0] if rng.random() < 0.7 else counts[-1])
    options = game.parse_options({}, table)
    state, records = game.new_state(table, options), []
    while len(records) < most and not game.result(state).over:
        record = game.example_hand(state, rng)
        state = game.play(state, record).state
        records.append(record)
    return Match(table, options, records)


# -- the bodies of the common properties -------------------------------------------------------------


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
    restored = replay(game, table, options, edited[:index] + [records[index]] + edited[index + 1 :])
    assert restored.state == original.state
    assert restored.results == original.results
    assert (options, records) == kept
    return restored


def assert_only_record_errors(game, state, raw):
    """Playing any `raw` input either works or raises a RecordError with a message the pages can
    translate (and so does each field's); the result or None."""
    try:
        return game.play(state, raw)
    except RecordError as error:
        assert error.message
        for message in (error.message, *error.fields.values()):
            assert_translatable(message, f"{game.key} refusing {raw!r}")
        return None


# A plain piece of text inside an engine text: a side's mark, a number, a card ("AS", "J♠", "10")...
# never a word, which the pages could not translate.
_WORD = re.compile(r"[a-z]{2,}")


def assert_translatable(text, where: str = "") -> None:
    """An engine text the pages show is a Text (games/texts.py) all the way down: every piece of
    English in it is a message the catalogs hold, its values numbers, side marks, cards or Texts."""
    assert isinstance(text, Text), f"{where}: {text!r} is not a Text: the pages cannot translate it"
    if text.kind == VERBATIM:  # what was typed or sent, quoted as it was
        return
    for name, value in text.values.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Text):
                assert_translatable(item, where)
            elif isinstance(item, str):
                assert not _WORD.search(item), (
                    f"{where}: {text!r} holds {name}={item!r}, English the pages cannot translate"
                )


def assert_texts_translatable(game, state, hand=None) -> None:
    """Everything a page shows of `state` (and of `hand`, which led to it) can be translated: the
    hand's reasons, the headline, the board's lines and flags (side marks on, as in the app)."""
    with marked_sides():
        where = f"{game.key} after hand {state.hands}"
        for reason in hand.reasons if hand else ():
            assert_translatable(reason.text, where)
        assert_translatable(game.result(state).headline, where)
        board = game.board(state)
        for line in (
            *board.lines,
            *(line for side in board.sides for line in side.lines),
            *(side.flag for side in board.sides if side.flag),
        ):
            assert_translatable(line, where)
