"""Aggravation: worked examples of api/races.md "Sessions" and `aggravation` (S3:391, S1:43),
edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.aggravation import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("aggravation")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "aggravation.html"


def won(side: int) -> dict:
    return {"winner": side}


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def play_all(state, records):
    hand = None
    for record in records:
        hand = GAME.play(state, record)
        state = hand.state
    return state, hand


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["players"], described["partnerships"]) == ({"min": 2, "max": 2}, False)
    assert [fld["name"] for fld in described["options"]] == ["first_dealer", "games_to_win"]
    (winner,) = described["hand_fields"]
    assert (winner["name"], winner["type"], winner["required"]) == ("winner", "side", True)
    assert "nullable" not in winner  # ruling 6: the first call wins, no drawn game


def test_two_players_only():
    # ruling 3: S3:367, S1:35, the pack split in two halves
    with pytest.raises(RecordError, match="2 players"):
        GAME.table(3)


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "winner"),
        ({"winner": None}, "winner"),
        ({"winner": 2}, "winner"),
        ({"winner": 1.5}, "winner"),
        ({"winner": 0, "draw": True}, "draw"),
    ],
)
def test_a_record_must_name_the_winner_and_nothing_else(record, field):
    assert refused(start(), record).fields.keys() == {field}


def test_the_first_to_call_aggravation_wins_the_game():
    # S3:391, S1:43
    state, hand = play_all(start(), [won(A), won(A)])
    assert hand.changes == [1, 0] and GAME.scores(state) == [2, 0]
    assert [str(r) for r in hand.reasons] == ["A wins the game: 2 games won"]
    assert {r.rule for r in hand.reasons} == {"winning"} and GAME.public_state(state) == {}


def test_the_deal_passes_to_the_next_seat_after_every_game():
    # ruling 2
    state, _ = play_all(start(first_dealer=1), [won(B)])
    assert state.dealer == 0
    state, _ = play_all(state, [won(B)])
    assert state.dealer == 1


def test_games_to_win_ends_the_session():
    state, hand = play_all(start(games_to_win=3), [won(A), won(B), won(A), won(B), won(A)])
    result = GAME.result(state)
    assert (result.over, result.winner) == (True, A) and hand.reasons[-1].rule == "session"
    assert GAME.ends_by_call(state.options) is False
    assert "over" in refused(state, won(B)).message


def test_finish_the_most_games_wins_and_equal_is_a_draw():
    # ruling 1
    state, _ = play_all(start(), [won(A), won(B), won(A)])
    assert GAME.ends_by_call(state.options) and not GAME.result(state).over
    assert GAME.result(state, called=True).winner == A
    state, _ = play_all(state, [won(B)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None) and "draw" in result.headline


def test_an_edit_that_ends_the_session_sooner_breaks_a_later_game():
    options = GAME.parse_options({"games_to_win": 1}, TABLE)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [won(A), won(B)])
    assert caught.value.number == 2


def test_every_rule_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))
    assert {rule.value for rule in Rule} <= ids


# -- properties -------------------------------------------------------------------------------------

STRATEGIES = Strategies(
    options={"games_to_win": st.one_of(st.none(), st.integers(1, 5))},
    record=st.sampled_from([A, B]).map(won),
    most=20,
    raw=st.dictionaries(st.sampled_from(["winner", "x"]), json_values()) | json_values(st.integers(-3, 3)),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_the_scores_count_the_games_won(match):
    state = replay(GAME, *match).state
    assert GAME.scores(state) == [match.records.count(won(A)), match.records.count(won(B))]


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann calls Aggravation.
COMMONEST = Commonest((choose("Who called Aggravation?", "Ann"),), taps=2)

COMMON = (Commonest((choose("Who called Aggravation?", "Bob"),), taps=2),)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_aggravation_counts():
    # First to 3: Bo, then Ann three times. In a row: Ann 3, Bo 1.
    assert figures("aggravation", 2, [{"winner": w} for w in (B, A, A, A)], games_to_win=3) == {"longest_run": [3, 1]}
