"""Turnover Bridge: worked examples of api/partnership.md `turnover_bridge` (seed S4:22-32), edge
rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.turnover_bridge import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose, type_in, unfold

GAME = get_game("turnover_bridge")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "turnover_bridge.html"


def tricks(a: int, b: int) -> dict:
    return {"tricks": [a, b]}


def won(side: int | None) -> dict:
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


# -- declarations -----------------------------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["name"], described["players"]) == (
        "turnover_bridge",
        "Turnover Bridge",
        {"min": 2, "max": 2},
    )
    assert described["partnerships"] is False
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "games_to_win"]
    assert options["games_to_win"]["default"] is None and options["games_to_win"]["nullable"]
    assert (options["games_to_win"]["min"], options["games_to_win"]["max"]) == (1, 100)
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["tricks", "winner"]
    assert (fields["tricks"]["type"], fields["tricks"]["min"], fields["tricks"]["max"]) == ("per_side", 0, 26)
    assert fields["winner"]["type"] == "side" and fields["winner"]["nullable"]
    assert [(form["name"], form["fields"]) for form in described["record_forms"]] == [
        ("tricks", ["tricks"]),
        ("winner", ["winner"]),
    ]


def test_two_players_each_their_own_side():
    with pytest.raises(RecordError, match="2 players"):
        GAME.table(4)
    assert TABLE.sides == 2


def test_a_session_ends_by_finish_unless_games_to_win_is_set():
    assert GAME.ends_by_call(GAME.parse_options({}, TABLE)) is True
    assert GAME.ends_by_call(GAME.parse_options({"games_to_win": 3}, TABLE)) is False


@pytest.mark.parametrize(
    "options, field",
    [
        ({"games_to_win": 0}, "games_to_win"),
        ({"games_to_win": 101}, "games_to_win"),
        ({"games_to_win": "three"}, "games_to_win"),
        ({"first_dealer": 2}, "first_dealer"),
        ({"trumps": "spades"}, "trumps"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


def test_a_new_session_has_no_games_and_no_ties():
    state = start(first_dealer=1)
    assert GAME.scores(state) == [0, 0] and GAME.public_state(state) == {"ties": 0}
    assert state.dealer == 1
    assert GAME.result(state).headline == "No games won yet"


# -- refusals (ruling 23) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, fields, message",
    [
        ({}, {"tricks", "winner"}, "Give the tricks"),
        ({"tricks": None}, {"tricks"}, "cannot be null"),  # null only for a 13-13 winner (API.md)
        ({"tricks": [14, 3], "winner": 0}, {"winner"}, "one way only"),
        ({"tricks": [14, 3], "winner": None}, {"tricks", "winner"}, "not both"),
        (tricks(27, 0), {"tricks"}, "at most 26"),
        (tricks(-1, 14), {"tricks"}, "at least 0"),
        (tricks(14, 13), {"tricks"}, "only 26"),
        (tricks(20, 10), {"tricks"}, "only 26"),
        (tricks(13, 12), {"tricks"}, "not over"),  # nobody has 14, not played out
        (tricks(0, 0), {"tricks"}, "not over"),
        (tricks(15, 3), {"tricks"}, "Play stops"),  # went past 14 without being played out
        (tricks(3, 20), {"tricks"}, "Play stops"),
        ({"tricks": [14]}, {"tricks"}, "list of 2"),
        (won(2), {"winner"}, "0 to 1"),
        (won("nobody"), {"winner"}, "whole number"),
        ({"winner": 0, "margin": 3}, {"margin"}, "not a field"),
    ],
)
def test_bad_records_are_refused(record, fields, message):
    error = refused(start(), record)
    assert set(error.fields) == fields and message in error.message


@pytest.mark.parametrize("split", [(14, 0), (12, 14), (14, 12), (13, 13), (26, 0), (20, 6), (0, 26)])
def test_a_finished_count_is_taken(split):
    GAME.play(start(), tricks(*split))


# -- scoring (S4:25, S4:32) -------------------------------------------------------------------------


def test_fourteen_tricks_win_the_game():
    state, hand = play_all(start(), [tricks(14, 9)])
    assert hand.changes == [1, 0] and [str(r) for r in hand.reasons] == ["A won the game 14-9: +1 game"]
    assert hand.reasons[0].rule == Rule.GAME and hand.game_winner == A
    assert GAME.scores(state) == [1, 0]


def test_a_played_out_game_goes_to_the_player_with_more_than_thirteen():
    assert GAME.play(start(), tricks(10, 16)).changes == [0, 1]


def test_thirteen_each_is_a_tie_counted_in_the_state():
    state, hand = play_all(start(), [tricks(13, 13), won(None)])
    assert hand.changes == [0, 0] and hand.reasons[0].rule == Rule.TIE
    assert GAME.scores(state) == [0, 0] and GAME.public_state(state) == {"ties": 2}
    assert hand.game_winner is None
    assert GAME.board(state).lines == ("Session: press finish to end it", "Tied games: 2")
    # Once the table pressed Finish, the board no longer asks for it.
    assert GAME.board(state.evolve(called=True)).lines == ("Tied games: 2",)


def test_the_winner_form_scores_the_same_as_the_tricks():
    by_tricks = GAME.play(start(), tricks(3, 14))
    by_winner = GAME.play(start(), won(B))
    assert by_tricks.changes == by_winner.changes == [0, 1]
    assert str(by_winner.reasons[0]) == "B won the game: +1 game"


def test_the_deal_alternates_and_the_non_dealer_leads():
    # ruling 22; S4:30: the non-dealer leads
    state = start()
    assert GAME.board(state).turn == (("Deals", 0), ("Leads", 1))
    dealers = []
    for record in (won(A), won(None), tricks(14, 2)):
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [1, 0, 1]


# -- the end ----------------------------------------------------------------------------------------


def test_finish_ends_the_session_and_more_games_win():
    state, _ = play_all(start(), [won(A), won(B), tricks(14, 5), won(None)])
    assert not GAME.result(state).over and GAME.result(state).headline == "A leads 2 games to 1"
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, A, "A wins the session 2 games to 1")


def test_finish_with_equal_games_is_a_draw():
    state, _ = play_all(start(), [won(A), won(B), won(None)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None) and "draw" in result.headline
    empty = GAME.result(start(), called=True)
    assert (empty.over, empty.winner) == (True, None)


def test_games_to_win_ends_the_session():
    state, hand = play_all(start(games_to_win=2), [won(B), won(None), won(A), tricks(2, 14)])
    result = GAME.result(state)
    assert (result.over, result.winner, result.headline) == (True, B, "B wins the session 2 games to 1")
    assert hand.reasons[-1].rule == Rule.END and str(hand.reasons[-1]) == "B has 2 games and wins the session"
    assert state.dealer == 0  # four games dealt 0, 1, 0, 1: seat 0 deals next
    assert "over" in refused(state, won(A)).message
    assert GAME.board(state).lines == ("First to 2 games", "Tied games: 1")


def test_an_edit_that_ends_the_session_sooner_breaks_the_later_hand():
    options = GAME.parse_options({"games_to_win": 1}, TABLE)
    records = [won(None), won(A)]
    assert GAME.result(replay(GAME, TABLE, options, records).state).winner == A
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [won(B), won(A)])
    assert caught.value.number == 2


def test_an_edit_after_finish_decides_the_winner_again():
    # ruling 24: the replay decides; the service keeps the session finished
    options = GAME.parse_options({}, TABLE)
    edited = replay(GAME, TABLE, options, [won(A), tricks(14, 3)])
    assert GAME.result(edited.state, called=True).winner == A
    edited = replay(GAME, TABLE, options, [won(A), tricks(3, 14)])
    assert GAME.result(edited.state, called=True).winner is None


# -- the rules page ---------------------------------------------------------------------------------


def page_ids() -> set[str]:
    return set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))


def test_every_reason_links_to_a_section_of_the_rules_page():
    rules = set()
    state = start(games_to_win=1)
    for record in (won(None), tricks(14, 0)):
        hand = GAME.play(state, record)
        state = hand.state
        rules |= {reason.rule for reason in hand.reasons}
    assert rules == {value.value for value in Rule}
    assert rules <= page_ids()


def test_the_rules_page_extends_the_game_layout():
    text = RULES_PAGE.read_text(encoding="utf-8")
    assert text.startswith('{% extends "rules/game.html" %}')
    assert "style=" not in text and "<script" not in text


# -- properties -------------------------------------------------------------------------------------

STOPPED = st.integers(0, 12).flatmap(lambda loser: st.sampled_from([tricks(14, loser), tricks(loser, 14)]))
PLAYED_OUT = st.integers(0, 26).map(lambda a: tricks(a, 26 - a))
STRATEGIES = Strategies(
    options={"games_to_win": st.none() | st.integers(1, 12)},
    record=st.one_of(STOPPED, PLAYED_OUT, st.sampled_from([won(A), won(B), won(None)])),
    raw=st.dictionaries(
        st.sampled_from(["tricks", "winner"]),
        json_values(st.integers(-5, 30)) | st.sampled_from([None, 0, 1, [14, 3], [13, 13], [15, 11]]),
        max_size=2,
    ),
)


def record_winner(record: dict) -> int | None:
    if "winner" in record:
        return record["winner"]
    first, second = record["tricks"]
    return None if first == second else (A if first > second else B)


@FAST
@given(matches(GAME, STRATEGIES, most=40))
def test_invariants_hold_hand_by_hand(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        hand = GAME.play(state, record)
        new = hand.state
        winner = record_winner(record)
        assert hand.changes == ([0, 0] if winner is None else [int(side == winner) for side in (A, B)])
        assert new.ties == state.ties + (winner is None)
        assert sum(new.games) + new.ties == new.hands
        assert new.dealer == 1 - state.dealer
        state = new


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Who won the game, without the tricks.
COMMONEST = Commonest((unfold("Or give who won (nobody for a 13-13 tie)"), choose("Who won the game?", "Ann")), taps=3)

COMMON = (
    # The tricks when one player reached 14.
    Commonest((type_in("Tricks taken", "Ann", 14), type_in("Tricks taken", "Bob", 9)), taps=3, typed=2),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_turnover_bridge_counts():
    # Games: A (14-5), B, tie, B, B, tie (13-13), A; the table calls the end, B 3 games to 2.
    # In a row: A 1, B 2 (games 4-5). Tied games: 2.
    records = [
        {"tricks": [14, 5]},
        {"winner": B},
        {"winner": None},
        {"winner": B},
        {"winner": B},
        {"tricks": [13, 13]},
        {"winner": A},
    ]
    assert figures("turnover_bridge", 2, records, call=True) == {"longest_run": [1, 2], "tied_games": [2, 2]}
