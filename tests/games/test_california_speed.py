"""California Speed: worked examples of api/races.md "Sessions" and `california_speed` (S0:23,
S1:17), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.california_speed import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("california_speed")
TABLE = GAME.table(2)
A, B = 0, 1
DRAW = {"winner": None}
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "california_speed.html"


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


# -- declarations ---------------------------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["players"], described["partnerships"]) == ({"min": 2, "max": 2}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "games_to_win", "simultaneous_out"]
    assert options["games_to_win"]["default"] is None and options["games_to_win"]["nullable"]
    assert (options["games_to_win"]["min"], options["games_to_win"]["max"]) == (1, 99)
    assert options["simultaneous_out"]["choices"] == ["replay", "draw"]
    assert options["simultaneous_out"]["default"] == "replay"
    (winner,) = described["hand_fields"]
    assert (winner["name"], winner["type"], winner["required"], winner["nullable"]) == ("winner", "side", True, True)


def test_two_players_only():
    # ruling 3: S0:3, S1:7
    for players in (1, 3):
        with pytest.raises(RecordError, match="2 players"):
            GAME.table(players)


def test_the_form_offers_nobody_only_where_draws_are_recorded():
    (replaying,) = GAME.form_fields(start())
    (drawing,) = GAME.form_fields(start(simultaneous_out="draw"))
    assert (replaying.name, replaying.nullable, drawing.nullable) == ("winner", False, True)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"games_to_win": 0}, "games_to_win"),
        ({"games_to_win": 100}, "games_to_win"),
        ({"simultaneous_out": "split"}, "simultaneous_out"),
        ({"target": 3}, "target"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


# -- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("simultaneous_out", ["replay", "draw"])
def test_a_record_without_winner_is_refused(simultaneous_out):
    error = refused(start(simultaneous_out=simultaneous_out), {})
    assert error.fields.keys() == {"winner"}


def test_a_drawn_game_is_refused_where_the_table_plays_it_again():
    # api: null is accepted only with simultaneous_out: draw
    error = refused(start(), DRAW)
    assert error.fields.keys() == {"winner"} and "played again" in error.message


@pytest.mark.parametrize("record", [{"winner": 2}, {"winner": -1}, {"winner": "B"}, {"winner": 0, "loser": 1}])
def test_bad_records_are_refused(record):
    assert refused(start(), record).fields


# -- scoring --------------------------------------------------------------------------------------


def test_the_first_out_wins_the_game():
    # S0:23, S1:17: the first to play all their cards wins; score = games won
    state, hand = play_all(start(), [won(B)])
    assert hand.changes == [0, 1] and GAME.scores(state) == [0, 1]
    assert [(str(r), r.rule) for r in hand.reasons] == [("B wins the game: 1 game won", "winning")]
    assert hand.game_winner == B and GAME.public_state(state) == {"draws": 0}


def test_a_drawn_game_scores_nothing_and_counts_a_draw():
    state, hand = play_all(start(simultaneous_out="draw"), [won(A), DRAW])
    assert hand.changes == [0, 0] and GAME.scores(state) == [1, 0]
    assert GAME.public_state(state) == {"draws": 1}
    assert hand.reasons[0].rule == "simultaneous-out" and "draw" in str(hand.reasons[0])
    assert hand.game_winner is None


def test_draws_never_reach_games_to_win():
    state, _ = play_all(start(simultaneous_out="draw", games_to_win=1), [DRAW] * 5)
    assert not GAME.result(state).over and GAME.public_state(state) == {"draws": 5}


# -- the deal -------------------------------------------------------------------------------------


def test_the_deal_passes_after_every_game_whoever_won_and_after_a_draw():
    # ruling 2: (dealer + 1) % players
    state = start(first_dealer=1, simultaneous_out="draw")
    assert state.dealer == 1
    dealers = []
    for record in (won(A), won(A), DRAW, won(B)):
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [0, 1, 0, 1]


# -- the end --------------------------------------------------------------------------------------


def test_games_to_win_ends_the_session_with_its_winner():
    state, hand = play_all(start(games_to_win=2), [won(A), won(B), won(B)])
    result = GAME.result(state)
    assert (result.over, result.winner) == (True, B)
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("B reaches 2 games and wins the session", "session")
    assert GAME.ends_by_call(state.options) is False
    assert "over" in refused(state, won(A)).message


def test_without_games_to_win_the_session_runs_until_finish():
    state, _ = play_all(start(), [won(A)] * 30)
    assert GAME.ends_by_call(state.options) is True
    assert not GAME.result(state).over and GAME.result(state).headline == "A leads, games won 30-0"


def test_finish_gives_the_session_to_the_most_games():
    # ruling 1
    state, _ = play_all(start(), [won(A), won(B), won(B)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, B, "B wins the session, games won 1-2")


@pytest.mark.parametrize("records", [[], [won(A), won(B)]])
def test_finish_with_equal_games_is_a_draw(records):
    state, _ = play_all(start(), records)
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None) and "draw" in result.headline
    assert result.outcome(A) == result.outcome(B) == "drawn"


def test_an_edit_that_ends_the_session_sooner_breaks_a_later_game():
    options = GAME.parse_options({"games_to_win": 2}, TABLE)
    records = [won(A), won(B), won(A)]
    assert GAME.result(replay(GAME, TABLE, options, records).state).winner == A
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [won(A), won(A), won(A)])
    assert caught.value.number == 3


def test_an_edit_to_a_draw_is_refused_where_draws_are_replayed():
    options = GAME.parse_options({}, TABLE)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [won(A), DRAW])
    assert caught.value.number == 2


# -- the rules page -------------------------------------------------------------------------------


def test_every_rule_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))
    assert {rule.value for rule in Rule} <= ids


# -- properties -----------------------------------------------------------------------------------

STRATEGIES = Strategies(
    options={
        "games_to_win": st.one_of(st.none(), st.integers(1, 6)),
        "simultaneous_out": st.sampled_from(["replay", "draw"]),
    },
    record=st.sampled_from([won(A), won(B), DRAW]),
    refused=True,  # a draw, where draws are replayed
    most=20,
    raw=st.dictionaries(st.sampled_from(["winner", "x"]), json_values()) | json_values(st.integers(-3, 3)),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_scores_count_the_games_won(match):
    options, records = match.options, match.records
    state, _ = play_all(GAME.new_state(match.table, options), records)
    assert GAME.scores(state) == [records.count(won(A)), records.count(won(B))]
    assert GAME.public_state(state)["draws"] == records.count(DRAW)
    assert state.dealer == (options["first_dealer"] + len(records)) % 2


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann plays out first.
COMMONEST = Commonest((choose("Who played out first?", "Ann"),), taps=2)

COMMON = (Commonest((choose("Who played out first?", "Bob"),), taps=2),)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_california_speed_counts():
    # Recording draws: Ann, a draw, Ann, Ann, Bo; called: Ann 3 to 1. In a row: Ann 2, Bo 1; one draw.
    records = [{"winner": w} for w in (A, None, A, A, B)]
    assert figures("california_speed", 2, records, call=True, simultaneous_out="draw") == {
        "longest_run": [2, 1],
        "drawn_games": [1, 1],
    }
    # A table that plays a drawn game again records none: no drawn games to count.
    assert figures("california_speed", 2, [{"winner": B}] * 2, games_to_win=2) == {
        "longest_run": [0, 2],
        "drawn_games": [None, None],
    }
