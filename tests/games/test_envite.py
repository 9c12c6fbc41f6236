"""Envite scoring, from worked examples of RULES.md 1.1 (seed S0:27-95), edge rules first.

Sides: A = 0, B = 1. Expected values cite the seed line or the RULES.md ruling they come from.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import ANN_CY, BOB_DI, Commonest, choose, unfold

GAME = get_game("envite")
A, B = 0, 1
RULES_PAGE = pathlib.Path(__file__).parents[2] / "templates" / "rules" / "envite.html"
PAGE_IDS = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text()))
FIELD_NAMES = [fld.name for fld in GAME.hand_fields]
STAKES = (2, 4, 7, 9, "game")


def start(players: int = 4, **options):
    table = GAME.table(players)
    return GAME.new_state(table, GAME.parse_options(options, table))


def at(stones=(0, 0), games=(0, 0), **options):
    """A game in progress at the given stones: the edge cases start from there."""
    return start(**options).evolve(stones=stones, games=games)


def play(state, *records):
    """Play records in order; the last hand's result."""
    for record in records:
        result = GAME.play(state, record)
        state = result.state
    return result


def refusal(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


def texts(result) -> list[str]:
    return [reason.text for reason in result.reasons]


# -- the cap at eleven (S0:89, ENV-Q3) ---------------------------------------------------------


def test_cap_normal_stake_seed_example_8_plus_4_is_11():
    # S0:89 worked example: 8 stones, a hand worth 4 -> 11, the extra stone ignored.
    result = GAME.play(at((8, 0)), {"winner": A, "stake": 4})
    assert GAME.scores(result.state) == [11, 0]
    assert result.changes == [3, 0]
    assert texts(result) == ["A wins the hand at stake 4: A +3 stones (4 won; 1 over eleven ignored)"]


def test_cap_from_nine_a_hand_at_stake_4_scores_2():
    # S0:89: 9 + 4 is 11 with two stones ignored (the API's worked example, from a new match).
    result = play(start(), {"winner": A, "stake": 9}, {"winner": A, "stake": 4})
    assert GAME.scores(result.state) == [11, 0]
    assert result.changes == [2, 0]
    assert texts(result) == ["A wins the hand at stake 4: A +2 stones (4 won; 2 over eleven ignored)"]


def test_cap_stake_plus_trawl_bonus():
    # S0:83 stake 4 + 2 bonus = 6; 7 + 6 capped at 11 (S0:89).
    result = GAME.play(at((0, 7)), {"winner": B, "stake": 4, "trawl_failure": True})
    assert GAME.scores(result.state) == [0, 11]
    assert result.changes == [0, 4]
    assert "4 + 2 trawl bonus; 2 over eleven ignored" in texts(result)[0]


def test_cap_declined_value():
    # ENV-Q2: a declined raise to game scores 9; 10 + 9 capped at 11 (S0:89).
    result = GAME.play(at((10, 3)), {"winner": A, "stake": "game", "declined": True})
    assert GAME.scores(result.state) == [11, 3]
    assert result.changes == [1, 0]
    assert texts(result) == ["raise to game declined: A +1 stone (9 won; 8 over eleven ignored)"]


def test_cap_loss_of_the_lying_side():
    # S0:91 the lying side loses: the others +3; 10 + 3 capped at 11 (S0:89).
    result = GAME.play(at((10, 11)), {"winner": A})
    assert GAME.scores(result.state) == [11, 11]
    assert result.changes == [1, 0]


def test_cap_forfeit_reaches_eleven_and_stops():
    # S0:91 forfeit gives 1; from 10 that is exactly 11 (S0:89), both now lying (ENV-Q12).
    result = GAME.play(at((11, 10)), {"forfeit": True})
    assert GAME.scores(result.state) == [11, 11]
    assert result.changes == [0, 1]
    assert GAME.public_state(result.state)["lying_down"] == [True, True]


def test_a_gain_that_fits_shows_no_cap_note():
    # S0:85: the winner scores the stake, 2 by default (S0:75).
    result = GAME.play(start(), {"winner": B})
    assert result.changes == [0, 2]
    assert texts(result) == ["B wins the hand at stake 2: B +2 stones"]


def test_a_raised_stake_is_scored_in_full():
    # S0:77, S0:85: a hand played out at stake 7 gives its winner 7 stones.
    result = GAME.play(start(), {"winner": B, "stake": 7})
    assert result.changes == [0, 7] and GAME.scores(result.state) == [0, 7]
    assert texts(result) == ["B wins the hand at stake 7: B +7 stones"]


# -- lying down (S0:89-91) ---------------------------------------------------------------------


def test_reaching_eleven_is_lying_down():
    state = GAME.play(at((9, 0)), {"winner": A, "stake": 2}).state
    assert GAME.public_state(state)["lying_down"] == [True, False]  # S0:89


def test_lying_forfeit_gives_the_others_one_stone():
    # S0:91: forfeit -> opponents +1; winner may be left out (API.md).
    result = GAME.play(at((5, 11)), {"forfeit": True})
    assert GAME.scores(result.state) == [6, 11]
    assert result.changes == [1, 0]
    assert texts(result) == ["B, lying down, gives the hand up: A +1 stone"]
    assert result.game_winner is None


def test_lying_forfeit_accepts_the_winner_when_it_is_the_other_side():
    result = GAME.play(at((5, 11)), {"forfeit": True, "winner": A})
    assert result.changes == [1, 0]  # S0:91


def test_lying_side_loses_others_score_three():
    result = GAME.play(at((11, 4)), {"winner": B})
    assert GAME.scores(result.state) == [11, 7]  # S0:91: +3
    assert texts(result) == ["A, lying down, loses the hand: B +3 stones"]


def test_lying_side_wins_the_game():
    # S0:91: a lying-down side that wins the hand wins the game; stones reset (ENV-Q8).
    result = GAME.play(at((4, 11)), {"winner": B})
    assert result.game_winner == B
    assert result.changes == [0, 1]  # the stone from 11 to twelve
    assert GAME.scores(result.state) == [0, 0]
    assert GAME.public_state(result.state)["games"] == [0, 1]
    assert texts(result) == ["B, lying down, wins the hand: B +1 to twelve", "B wins game 1"]


# -- both lying down: the compulsory hand (S0:93, ENV-Q12) -------------------------------------


def test_both_lying_reached_by_forfeit_then_compulsory_hand():
    state = start()
    for record in (
        {"winner": B, "stake": 9},
        {"winner": A, "stake": 9},
        {"winner": A, "stake": 2},  # A 11: lying down (S0:89)
        {"forfeit": True},
    ):  # B 9 -> 10 (S0:91)
        state = GAME.play(state, record).state
    assert GAME.scores(state) == [11, 10]
    state = GAME.play(state, {"forfeit": True}).state  # B 11 (ENV-Q12)
    assert GAME.public_state(state)["lying_down"] == [True, True]
    assert refusal(state, {"forfeit": True}).fields == {
        "forfeit": "Forfeit is not possible: with both sides lying down the hand must be played."
    }
    result = GAME.play(state, {"winner": B})
    assert result.game_winner == B  # S0:93: the winner of the hand wins the game
    assert texts(result) == ["both sides lying down: B wins the compulsory hand: B +1 to twelve", "B wins game 1"]


def test_both_lying_reached_by_a_loss_of_the_lying_side():
    state = GAME.play(at((11, 8)), {"winner": B}).state  # 8 + 3 = 11 (S0:91)
    assert GAME.public_state(state)["lying_down"] == [True, True]
    assert [fld.name for fld in GAME.form_fields(state)] == ["winner", "trawl_failure"]
    result = GAME.play(state, {"winner": A})
    assert (result.game_winner, result.changes) == (A, [1, 0])  # S0:93


def test_compulsory_hand_refuses_bidding():
    error = refusal(at((11, 11)), {"winner": A, "stake": 2})
    assert error.message == "No bidding while a side is lying down: leave out stake."  # S0:91, API.md


# -- declined raises (S0:75, S0:77, ENV-Q1, ENV-Q2) -------------------------------------------


@pytest.mark.parametrize(("raise_to", "scored"), [(4, 2), (7, 4), (9, 7), ("game", 9)])
def test_declined_raise_scores_the_previous_stake(raise_to, scored):
    result = GAME.play(start(), {"winner": B, "stake": raise_to, "declined": True})
    assert result.changes == [0, scored]
    assert GAME.scores(result.state) == [0, scored]
    assert texts(result) == [f"raise to {raise_to} declined: B +{scored} stones"]
    assert result.reasons[0].rule == "declined-raises"


def test_declined_raise_to_game_does_not_win_the_game():
    result = GAME.play(start(), {"winner": A, "stake": "game", "declined": True})
    assert result.game_winner is None  # ENV-Q2: it scores 9, nothing more
    assert GAME.public_state(result.state)["games"] == [0, 0]


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"winner": "1", "stake": "7", "declined": "on"})


# -- trawl failures (S0:83, ENV-Q4..Q6) --------------------------------------------------------


@pytest.mark.parametrize(("stake", "bonus", "scored"), [(2, 2, 4), (7, 2, 9), (4, 0, 4), (2, 4, 6)])
def test_trawl_failure_in_a_normal_hand_adds_the_bonus(stake, bonus, scored):
    result = GAME.play(start(trawl_bonus=bonus), {"winner": A, "stake": stake, "trawl_failure": True})
    assert result.changes == [scored, 0]  # S0:83: stake + trawl_bonus
    assert result.reasons[0].rule == "trawling"


def test_trawl_failure_reason_names_the_side_that_failed():
    result = GAME.play(start(), {"winner": A, "stake": 4, "trawl_failure": True})
    assert texts(result) == ["B could not follow a trawl at stake 4: A +6 stones (4 + 2 trawl bonus)"]


@pytest.mark.parametrize(("lying_bonus", "scored"), [(2, 5), (0, 3)])
def test_trawl_failure_of_the_lying_side(lying_bonus, scored):
    # ENV-Q4: the lying side fails a trawl: others 3 + trawl_bonus_in_lying_hand.
    state = at((11, 2), trawl_bonus_in_lying_hand=lying_bonus)
    result = GAME.play(state, {"winner": B, "trawl_failure": True})
    assert result.changes == [0, scored]
    assert GAME.scores(result.state) == [11, 2 + scored]


def test_trawl_failure_of_the_lying_side_is_capped():
    result = GAME.play(at((11, 8)), {"winner": B, "trawl_failure": True})
    assert result.changes == [0, 3]  # ENV-Q4 5 stones, capped at 11 (S0:89)
    assert "3 + 2 trawl bonus; 2 over eleven ignored" in texts(result)[0]


def test_trawl_failure_of_the_side_not_lying_lets_the_lying_side_win_the_game():
    result = GAME.play(at((11, 2)), {"winner": A, "trawl_failure": True})
    assert result.game_winner == A  # ENV-Q5
    assert texts(result)[0] == "A, lying down, wins the hand after B could not follow a trawl: A +1 to twelve"


def test_trawl_failure_in_a_game_hand_wins_the_game_without_bonus():
    result = GAME.play(at((3, 5)), {"winner": B, "stake": "game", "trawl_failure": True})
    assert result.game_winner == B  # ENV-Q6
    assert result.changes == [0, 7]  # twelve minus the 5 B had
    assert GAME.scores(result.state) == [0, 0]


def test_trawl_failure_in_the_compulsory_hand():
    result = GAME.play(at((11, 11)), {"winner": A, "trawl_failure": True})
    assert (result.game_winner, result.changes) == (A, [1, 0])  # ENV-Q6


# -- stake "game" (S0:77) ----------------------------------------------------------------------


def test_game_stake_wins_the_game_from_any_score():
    result = GAME.play(at((0, 10)), {"winner": A, "stake": "game"})
    assert result.game_winner == A
    assert result.changes == [12, 0]
    assert texts(result) == ["A wins the hand played for the game: A +12 to twelve", "A wins game 1"]
    assert result.reasons[0].rule == "game-stake"


# -- games and matches (S0:35, S0:95, RULES.md 1.1.6) -----------------------------------------

BEST_OF_THREE = [
    {"winner": A, "stake": "game"},  # game 1 to A
    {"winner": B, "stake": 9},
    {"winner": B},  # B 11, lying
    {"winner": B},  # B wins game 2
    {"winner": A, "stake": 9, "declined": True},  # A 7
    {"winner": A, "stake": 4},  # A 11, lying
    {"winner": B},  # A loses lying: B 3
    {"winner": A},  # A wins game 3 and the match
]


def test_best_of_three_end_to_end():
    state = start()
    winners = []
    for record in BEST_OF_THREE:
        result = GAME.play(state, record)
        state = result.state
        winners.append(result.game_winner)
    assert winners == [A, None, None, B, None, None, None, A]
    standing = GAME.result(state)
    assert (standing.over, standing.winner) == (True, A)
    assert standing.headline == "A wins the match 2 games to 1"
    assert texts(result)[1:] == ["A wins game 3", "A wins the match 2 games to 1"]
    assert GAME.scores(state) == [0, 0]  # API.md: 0-0 also once the match is won
    assert GAME.public_state(state) == {
        "games": [2, 1],
        "lying_down": [False, False],
        "game_number": 3,
        "mode": "normal",
    }
    assert refusal(state, {"winner": A}).message == "The match is over: no more hands can be recorded."


def test_the_final_board_shows_the_stones_as_the_match_ended():
    # issue 21: not the 0-0 a next game would start from; the score stays as API.md has it (0-0)
    state = play(start(), *BEST_OF_THREE).state
    board = GAME.board(state)
    assert [side.score for side in board.sides] == [12, 3]  # A won from lying down; B had 3
    assert [side.lines for side in board.sides] == [("Games: 2 of 2",), ("Games: 1 of 2",)]
    assert [(side.target, side.flag) for side in board.sides] == [(None, None)] * 2 and board.turn == ()
    assert GAME.scores(state) == [0, 0]


def test_the_board_in_play_shows_the_game_in_progress():
    state = play(start(), *BEST_OF_THREE[:4]).state  # B won game 2: game 3 starts at 0-0
    board = GAME.board(state)
    assert [(side.score, side.target) for side in board.sides] == [(0, 11), (0, 11)]
    assert board.turn == (("Deals", state.dealer),)


def test_match_in_progress_headline():
    state = play(start(), *BEST_OF_THREE[:3]).state
    standing = GAME.result(state)
    assert (standing.over, standing.winner) == (False, None)
    assert standing.headline == "Game 2: A 0, B 11 stones; games 1-0"
    assert GAME.public_state(state)["game_number"] == 2


def test_games_to_win_one_is_a_single_game():
    result = GAME.play(start(games_to_win=1), {"winner": B, "stake": "game"})
    standing = GAME.result(result.state)
    assert (standing.over, standing.winner, standing.headline) == (True, B, "B wins the match 1 game to 0")


def test_games_to_win_three():
    state = start(games_to_win=3)
    for _ in range(2):
        state = GAME.play(state, {"winner": A, "stake": "game"}).state
    assert GAME.result(state).over is False
    state = GAME.play(state, {"winner": B, "stake": "game"}).state
    state = GAME.play(state, {"winner": A, "stake": "game"}).state
    assert GAME.result(state).headline == "A wins the match 3 games to 1"


# -- dealer (S0:85, ENV-Q8) --------------------------------------------------------------------


def test_dealer_moves_to_the_next_seat_every_hand_and_across_games():
    state = start(players=5, first_dealer=3)
    assert state.dealer == 3
    dealers = []
    for record in ({"winner": A}, {"winner": B, "stake": "game"}, {"winner": A}, {"winner": B}):
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [4, 0, 1, 2]
    assert state.hands == 4


def test_odd_table_sides_alternate_seats():
    table = GAME.table(5)  # S0:49: a captain plays a dummy; scoring unchanged
    assert [table.side_of(seat) for seat in range(5)] == [A, B, A, B, A]


@pytest.mark.parametrize("players", [3, 13])
def test_player_count_is_four_to_twelve(players):
    with pytest.raises(RecordError, match="4 to 12 players"):  # S0:29
        GAME.table(players)


# -- refusals (API.md `envite`) ----------------------------------------------------------------


@pytest.mark.parametrize("record", [{"winner": A, "stake": 2}, {"winner": A, "stake": 4}])
def test_stake_refused_while_lying_even_at_two(record):
    error = refusal(at((11, 0)), record)
    assert set(error.fields) == {"stake"}


def test_declined_refused_while_lying_even_when_false():
    error = refusal(at((0, 11)), {"winner": A, "declined": False})
    assert error.message == "No bidding while a side is lying down: leave out declined."


def test_stake_and_declined_both_named_while_lying():
    error = refusal(at((0, 11)), {"winner": A, "stake": 4, "declined": True})
    assert set(error.fields) == {"stake", "declined"}


@pytest.mark.parametrize("state", [at((10, 9)), start()])
@pytest.mark.parametrize("record", [{"forfeit": True, "winner": A}, {"forfeit": True}])
def test_forfeit_refused_when_nobody_is_lying(state, record):
    error = refusal(state, record)
    assert error.fields == {"forfeit": "Forfeit is only possible while exactly one side is lying down (on 11 stones)."}


def test_forfeit_false_is_harmless_when_nobody_is_lying():
    assert GAME.play(start(), {"winner": A, "forfeit": False}).changes == [2, 0]


@pytest.mark.parametrize("record", [{"winner": A, "stake": 2, "declined": True}, {"winner": A, "declined": True}])
def test_declined_at_stake_two_refused(record):
    error = refusal(start(), record)
    assert error.fields == {
        "declined": "Declined needs the raise that was turned down (4, 7, 9 or game): at 2 nobody raised."
    }


def test_declined_with_trawl_failure_refused():
    error = refusal(start(), {"winner": A, "stake": 4, "declined": True, "trawl_failure": True})
    assert error.fields == {"trawl_failure": "A declined raise ends the hand unplayed, so there was no trawl failure."}


def test_forfeit_with_trawl_failure_refused():
    error = refusal(at((11, 0)), {"forfeit": True, "trawl_failure": True})
    assert error.fields == {"trawl_failure": "A forfeited hand is not played, so there was no trawl failure."}


def test_forfeit_with_the_lying_side_as_winner_refused():
    error = refusal(at((11, 0)), {"forfeit": True, "winner": A})
    assert error.fields == {"winner": "With a forfeit the winner is B, the side not lying down."}


@pytest.mark.parametrize("state", [start(), at((11, 0)), at((11, 11))])
def test_winner_required_unless_forfeit(state):
    error = refusal(state, {"trawl_failure": True})
    assert set(error.fields) == {"winner"}


def test_a_stake_alone_names_no_winner():
    assert set(refusal(start(), {"stake": 4}).fields) == {"winner"}


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"winner": 2}, "winner"),
        ({"winner": None}, "winner"),
        ({"winner": A, "stake": 5}, "stake"),
        ({"winner": A, "stake": "GAME"}, "stake"),
        ({"winner": A, "declined": "maybe"}, "declined"),
        ({"winner": A, "tricks": [2, 1]}, "tricks"),
    ],
)
def test_malformed_records_name_the_field(record, field):
    assert field in refusal(start(), record).fields


def test_non_object_record_refused():
    assert refusal(start(), [A]).message == "A record must be an object of named fields."


@pytest.mark.parametrize(
    "options",
    [
        {"games_to_win": 0},
        {"games_to_win": 6},
        {"trawl_bonus": 5},
        {"trawl_bonus_in_lying_hand": 1},
        {"first_dealer": 4},
        {"cap": 12},
    ],
)
def test_options_out_of_range_refused(options):
    with pytest.raises(RecordError):
        GAME.parse_options(options, GAME.table(4))


def test_replay_names_the_hand_an_edit_made_impossible():
    records = [{"winner": A, "stake": 9}, {"winner": A}, {"forfeit": True}]
    assert GAME.scores(replay(GAME, GAME.table(4), start().options, records).state) == [11, 1]
    records[0] = {"winner": B, "stake": 9}  # A no longer reaches 11, so nobody can forfeit
    with pytest.raises(ReplayError) as caught:
        replay(GAME, GAME.table(4), start().options, records)
    assert caught.value.number == 3
    assert "forfeit" in caught.value.fields


# -- declarations (API.md `envite`) ------------------------------------------------------------


def test_hand_fields_match_the_api():
    described = {fld["name"]: fld for fld in GAME.describe()["hand_fields"]}
    assert list(described) == ["winner", "stake", "declined", "trawl_failure", "forfeit"]
    # Not strictly required: a forfeit names no winner (the side not lying down takes the hand).
    assert (described["winner"]["type"], described["winner"]["default"]) == ("side", None)
    assert (described["stake"]["choices"], described["stake"]["default"]) == ([2, 4, 7, 9, "game"], 2)
    for name in ("declined", "trawl_failure", "forfeit"):
        assert (described[name]["type"], described[name]["default"]) == ("bool", False)


def test_options_and_defaults():
    assert start().options == {"first_dealer": 0, "games_to_win": 2, "trawl_bonus": 2, "trawl_bonus_in_lying_hand": 2}


@pytest.mark.parametrize(
    ("state", "names"),
    [
        (start(), ["winner", "stake", "declined", "trawl_failure"]),
        (at((0, 11)), ["winner", "trawl_failure", "forfeit"]),
        (at((11, 11)), ["winner", "trawl_failure"]),
    ],
)
def test_form_fields_follow_who_is_lying(state, names):
    assert [fld.name for fld in GAME.form_fields(state)] == names


def test_every_rule_id_is_a_section_of_the_rules_page():
    from scorekeeper.games.envite import Rule

    assert {rule.value for rule in Rule} <= PAGE_IDS


# -- properties --------------------------------------------------------------------------------


@st.composite
def valid_records(draw, mode: str) -> dict:
    """A record the rules accept in a hand of this mode (nobody, one side or both lying down), of any
    kind that hand allows."""
    winner = draw(st.sampled_from([A, B]))
    if mode == "one lying down" and draw(st.booleans()):
        return {"forfeit": True}
    if mode != "normal":
        return {"winner": winner, "trawl_failure": draw(st.booleans())}
    stake = draw(st.sampled_from(STAKES))
    if stake != 2 and draw(st.booleans()):
        return {"winner": winner, "stake": stake, "declined": True}
    return {"winner": winner, "stake": stake, "trawl_failure": draw(st.booleans())}


VALID_RECORDS = {mode: valid_records(mode) for mode in ("normal", "one lying down", "both lying down")}


def stones_within_eleven(before, hand) -> None:
    assert all(0 <= stones <= 11 for stones in GAME.scores(hand.state))  # S0:89


STRATEGIES = Strategies(
    options={
        "games_to_win": st.integers(1, 5),
        "trawl_bonus": st.integers(0, 4),
        "trawl_bonus_in_lying_hand": st.sampled_from([2, 0]),
    },
    record=lambda state: VALID_RECORDS[GAME.public_state(state)["mode"]],
    most=40,
    raw=st.dictionaries(st.sampled_from(FIELD_NAMES), JSON | st.sampled_from(STAKES), max_size=5),
    states=st.sampled_from([start(), at((11, 0)), at((0, 11)), at((11, 11)), at((10, 11)), at(games=(2, 0))]),
    taken=stones_within_eleven,
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_property_stones_stay_within_eleven_except_by_winning_the_game(match):
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        result = GAME.play(state, record)
        new = result.state
        assert all(0 <= stones <= 11 for stones in GAME.scores(new))  # S0:89
        assert {reason.rule for reason in result.reasons} <= PAGE_IDS
        assert sorted(result.changes)[0] == 0 and max(result.changes) > 0  # one side scores each hand
        if result.game_winner is None:
            assert [old + change for old, change in zip(state.stones, result.changes)] == GAME.scores(new)
        else:  # only a game-winning hand passes 11: it reaches exactly twelve
            assert state.stones[result.game_winner] + result.changes[result.game_winner] == 12
            assert GAME.scores(new) == [0, 0] and sum(new.games) == sum(state.games) + 1
        assert new.dealer == table.next_seat(state.dealer) and new.hands == state.hands + 1
        state = new


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# A side wins a hand played at the opening stake of 2 (preset): Ann & Cy 2 stones (S0:85).
COMMONEST = Commonest((choose("Who won the hand?", ANN_CY),), taps=2, most=2, board={"stones": ["2/11", "0/11"]})

COMMON = (
    # A raise to 4, played; a raise declined.
    Commonest((choose("Who won the hand?", BOB_DI), choose("Stake", "4")), taps=3),
    Commonest(
        (
            choose("Who won the hand?", ANN_CY),
            choose("Stake", "4"),
            unfold("More"),
            choose("Declined", "The last raise was declined, so the hand was not played."),
        ),
        taps=5,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_envite_counts():
    # Hand 1: A wins at 2 (2-0). Hand 2: A declines B's raise to 4: B +2 (2-2). Hand 3: A wins the hand
    # played for the game: +10 to twelve, chico 1 to A. Hand 4: B wins at 9 (0-9). Hand 5: B wins at 2:
    # 11, lying down. Hand 6: B, lying down, wins: +1 to twelve, chico to B (1-1). Hand 7: A wins the
    # hand played for the game: +12, the match 2 chicos to 1.
    # Stones won: A 2 + 10 + 12 = 24; B 2 + 9 + 2 + 1 = 14.
    records = [
        {"winner": A},
        {"winner": B, "stake": 4, "declined": True},
        {"winner": A, "stake": "game"},
        {"winner": B, "stake": 9},
        {"winner": B},
        {"winner": B},
        {"winner": A, "stake": "game"},
    ]
    assert figures("envite", 4, records) == {"stones_won": [24, 14], "chicos_won": [2, 1]}
