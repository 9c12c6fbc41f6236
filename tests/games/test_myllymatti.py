"""Myllymatti: worked examples of api/races.md `myllymatti` (S4:5, S4:11, S4:21, rulings 4-5),
edge rules first, then properties. The score is games lost: lower is better."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.myllymatti import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("myllymatti")
TABLE = GAME.table(3)
A, B, C = 0, 1, 2
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "myllymatti.html"


def lost(side: int, first_out: int | None = None) -> dict:
    return {"loser": side} if first_out is None else {"loser": side, "first_out": first_out}


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
    assert (described["players"], described["partnerships"]) == ({"min": 3, "max": 3}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "games_to_lose"]  # not games_to_win
    games_to_lose = options["games_to_lose"]
    assert (games_to_lose["default"], games_to_lose["min"], games_to_lose["max"]) == (None, 1, 99)
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["loser", "first_out"]
    loser, first_out = fields["loser"], fields["first_out"]
    assert (loser["type"], loser["required"]) == ("side", True) and "nullable" not in loser
    assert (first_out["type"], first_out["default"], first_out["nullable"]) == ("side", None, True)


@pytest.mark.parametrize("players", [2, 4])
def test_three_players_only(players):
    # ruling 3: S4:2 (Skitgubbe's 2 to 4 is not taken)
    with pytest.raises(RecordError, match="3 players"):
        GAME.table(players)


def test_games_to_win_is_not_an_option():
    with pytest.raises(RecordError) as caught:
        GAME.parse_options({"games_to_win": 3}, TABLE)
    assert caught.value.fields.keys() == {"games_to_win"}


def test_the_board_says_lower_is_better():
    board = GAME.board(start())
    assert board.lower_is_better is True and board.turn == (("Deals", 0),)


# -- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("record", [{}, {"loser": None}, {"first_out": A}, {"loser": 3}])
def test_the_loser_is_required_and_never_null(record):
    # ruling 4: every game has exactly one loser
    assert "loser" in refused(start(), record).fields


def test_the_first_out_cannot_be_the_loser():
    error = refused(start(), lost(B, first_out=B))
    assert error.fields.keys() == {"first_out"}


# -- scoring --------------------------------------------------------------------------------------


def test_the_last_holding_cards_loses_the_game():
    # S4:21
    state, hand = play_all(start(), [lost(C)])
    assert hand.changes == [0, 0, 1] and GAME.scores(state) == [0, 0, 1]
    assert [(str(r), r.rule) for r in hand.reasons] == [("C is left holding cards and loses: 1 game lost", "losing")]
    assert GAME.public_state(state) == {"first_out": [0, 0, 0], "loser": None}


def test_first_out_is_counted_where_the_table_noted_it():
    # ruling 5
    state, hand = play_all(start(), [lost(C, first_out=A), lost(B), lost(C, first_out=None), lost(A, first_out=B)])
    assert GAME.public_state(state)["first_out"] == [1, 1, 0]
    assert GAME.scores(state) == [1, 1, 2]
    assert [r.rule for r in hand.reasons] == ["losing", "first-out"]


def test_the_deal_passes_to_the_left_after_every_game():
    # S4:11, ruling 2
    state = start(first_dealer=2)
    dealers = []
    for record in (lost(A), lost(A), lost(B), lost(C)):
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [0, 1, 2, 0]


# -- the end --------------------------------------------------------------------------------------


def test_games_to_lose_ends_the_session_and_the_fewest_lost_wins():
    state, hand = play_all(start(games_to_lose=2), [lost(A), lost(B), lost(A)])
    result = GAME.result(state)
    assert (result.over, result.winner) == (True, C)
    assert GAME.public_state(state)["loser"] == A
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("A reaches 2 games lost: the session is over", "session")
    assert GAME.ends_by_call(state.options) is False
    assert "over" in refused(state, lost(B)).message


def test_games_to_lose_with_two_sharing_the_fewest_has_no_winner_but_a_loser():
    state, _ = play_all(start(games_to_lose=1), [lost(B)])
    result = GAME.result(state)
    assert (result.over, result.winner, result.losers) == (True, None, (B,))
    assert (result.outcome(A), result.outcome(B), result.outcome(C)) == ("shared", "lost", "shared")
    assert GAME.public_state(state)["loser"] == B


def test_the_session_runs_until_finish_without_games_to_lose():
    state, _ = play_all(start(), [lost(A)] * 20)
    assert GAME.ends_by_call(state.options) is True
    assert not GAME.result(state).over and GAME.public_state(state)["loser"] is None


def test_finish_the_fewest_lost_wins_the_most_lost_loses():
    state, _ = play_all(start(), [lost(A), lost(B), lost(A), lost(C), lost(A)])
    assert GAME.result(state).headline == "B and C have lost fewest, games lost 3-1-1"
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None)  # B and C share the fewest
    assert GAME.public_state(state.evolve(called=True)) == {"first_out": [0, 0, 0], "loser": A}
    state, _ = play_all(state, [lost(B)])
    assert GAME.result(state, called=True).winner == C


def test_finish_with_everyone_level_is_a_draw_with_no_loser():
    state, _ = play_all(start(), [lost(A), lost(B), lost(C)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.losers) == (True, None, ())
    assert "draw" in result.headline and GAME.public_state(state.evolve(called=True))["loser"] is None


def test_finish_with_two_sharing_the_most_names_no_loser():
    state, _ = play_all(start(), [lost(A), lost(B)])
    assert GAME.result(state, called=True).winner == C
    assert GAME.public_state(state.evolve(called=True))["loser"] is None


def test_an_edit_that_ends_the_session_sooner_breaks_a_later_game():
    options = GAME.parse_options({"games_to_lose": 2}, TABLE)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [lost(A), lost(A), lost(B)])
    assert caught.value.number == 3


def test_every_rule_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))
    assert {rule.value for rule in Rule} <= ids


# -- properties -----------------------------------------------------------------------------------

STRATEGIES = Strategies(
    options={"games_to_lose": st.one_of(st.none(), st.integers(1, 5))},
    record=st.builds(lost, st.sampled_from([A, B, C]), st.sampled_from([None, A, B, C])),
    refused=True,  # the loser named as the first out
    most=20,
    raw=st.dictionaries(st.sampled_from(["loser", "first_out"]), json_values(st.integers(-1, 3))),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_one_loser_a_game_and_the_deal_passes_on(match):
    state = replay(GAME, *match).state
    assert sum(GAME.scores(state)) == len(match.records)  # one loser a game
    assert state.dealer == (match.options["first_dealer"] + len(match.records)) % 3


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Cy is left holding cards.
COMMONEST = Commonest((choose("Who was left holding cards?", "Cy"),), taps=2)

COMMON = (
    # Who went out first, noted too.
    Commonest((choose("Who was left holding cards?", "Ann"), choose("Who went out first? (optional)", "Bob")), taps=3),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_myllymatti_counts():
    # Three losses end it: Ann loses (Bo out first), Ann (Cy first), Bo (nobody noted), Ann (Bo first).
    # Lost: Ann 3, Bo 1, Cy 0. Out first: Bo 2, Cy 1.
    records = [{"loser": A, "first_out": B}, {"loser": A, "first_out": C}, {"loser": B}, {"loser": A, "first_out": B}]
    assert figures("myllymatti", 3, records, games_to_lose=3) == {"games_lost": [3, 1, 0], "first_out": [0, 2, 1]}
