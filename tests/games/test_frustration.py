"""Frustration: worked examples of api/races.md "Sessions" and `frustration` (S1:53, rulings 6-7),
edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.frustration import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("frustration")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "frustration.html"


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
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "games_to_win", "share_check"]
    share_check = options["share_check"]
    assert (share_check["choices"], share_check["default"]) == (["any_time", "at_regather"], "any_time")
    (winner,) = described["hand_fields"]
    assert (winner["name"], winner["type"], winner["required"]) == ("winner", "side", True)
    assert "nullable" not in winner  # ruling 6: the shares add up to 52, only one can be 10 or fewer


@pytest.mark.parametrize("share_check, words", [("any_time", "first player to show"), ("at_regather", "gathered")])
def test_the_form_says_when_the_table_counts_the_shares(share_check, words):
    # ruling 7: the option changes the form's help, never the record
    (winner,) = GAME.form_fields(start(share_check=share_check))
    assert winner.name == "winner" and words in winner.help


def test_share_check_changes_nothing_recorded():
    # ruling 7
    records = [won(A), won(B), won(B)]
    any_time, _ = play_all(start(), records)
    at_regather, _ = play_all(start(share_check="at_regather"), records)
    assert GAME.scores(any_time) == GAME.scores(at_regather) == [1, 2]


def test_an_unknown_share_check_is_refused():
    with pytest.raises(RecordError) as caught:
        GAME.parse_options({"share_check": "never"}, TABLE)
    assert caught.value.fields.keys() == {"share_check"}


def test_two_players_only():
    # ruling 3: S1:51, "les deux joueurs"
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


def test_the_first_down_to_ten_cards_wins_the_game():
    # S1:53
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
    options={
        "games_to_win": st.one_of(st.none(), st.integers(1, 5)),
        "share_check": st.sampled_from(["any_time", "at_regather"]),
    },
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
# Ann gets down to 10 cards first.
COMMONEST = Commonest((choose("Who got down to 10 cards?", "Ann"),), taps=2)

COMMON = (Commonest((choose("Who got down to 10 cards?", "Bob"),), taps=2),)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_frustration_counts():
    # Ann, Ann, Bo, Ann; the table calls the end. In a row: Ann 2, Bo 1.
    assert figures("frustration", 2, [{"winner": w} for w in (A, A, B, A)], call=True) == {"longest_run": [2, 1]}
