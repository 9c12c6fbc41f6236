"""Botifarra: worked examples of api/partnership.md `botifarra` (seed S4:203-232), edge rules first, then properties."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.botifarra import Rule, multiplier
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import ANN_CY, BOB_DI, Commonest, choose, pick, type_in

GAME = get_game("botifarra")
TABLE = GAME.table(4)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "botifarra.html"
TRUMPS = ["spades", "hearts", "diamonds", "clubs", "botifarra"]
DOUBLINGS = ["none", "double", "redouble", "reredouble"]


def hand(a: int, trump: str = "hearts", doubling: str | None = None) -> dict:
    record = {"trump": trump, "points": [a, 72 - a]}
    if doubling is not None:
        record["doubling"] = doubling
    return record


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def play_all(state, records):
    done = None
    for record in records:
        done = GAME.play(state, record)
        state = done.state
    return state, done


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


def texts(done) -> list[tuple[str, str]]:
    return [(str(reason), reason.rule) for reason in done.reasons]


# -- declarations (api/partnership.md `botifarra`) -----------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "botifarra",
        {"min": 4, "max": 4},
        True,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "target", "multiplier_cap"]
    assert (options["target"]["default"], options["target"]["min"], options["target"]["max"]) == (101, 1, 1000)
    assert (options["multiplier_cap"]["default"], options["multiplier_cap"]["choices"]) == (None, [8])
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["trump", "doubling", "points"]
    assert fields["trump"]["choices"] == TRUMPS and fields["trump"]["required"]
    assert fields["doubling"]["choices"] == DOUBLINGS and fields["doubling"]["default"] == "none"
    assert (fields["points"]["min"], fields["points"]["max"], fields["points"]["total"]) == (0, 72, 72)
    assert "record_forms" not in described


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "target"),
        ({"target": 1001}, "target"),
        ({"multiplier_cap": 16}, "multiplier_cap"),
        ({"multiplier_cap": 4}, "multiplier_cap"),
        ({"multiplier_cap": "none"}, "multiplier_cap"),
        ({"multiplier_cap": True}, "multiplier_cap"),
        ({"three_games": True}, "three_games"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


@pytest.mark.parametrize("cap", [None, 8])
def test_the_cap_is_null_or_eight(cap):
    assert GAME.parse_options({"multiplier_cap": cap}, TABLE)["multiplier_cap"] == cap


def test_a_new_game_starts_level_at_nought():
    state = start(first_dealer=1)
    assert GAME.scores(state) == [0, 0] and GAME.public_state(state) == {}
    assert state.dealer == 1 and GAME.target(state) == 101
    assert GAME.result(state) == Result(False, None, "Level at 0 (game to 101)")
    assert GAME.ends_by_call(state.options) is False


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({"points": [40, 32]}, "trump"),
        ({"trump": "no_trumps", "points": [40, 32]}, "trump"),
        ({"trump": "Hearts", "points": [40, 32]}, "trump"),
        ({**hand(40), "doubling": "triple"}, "doubling"),
        ({**hand(40), "doubling": 2}, "doubling"),
        ({"trump": "clubs"}, "points"),
        ({"trump": "clubs", "points": [73, -1]}, "points"),
        ({"trump": "clubs", "points": [40, 30]}, "points"),  # ruling 18: 72 in all
        ({"trump": "clubs", "points": [40, 32, 0]}, "points"),
        ({"trump": "clubs", "points": 40}, "points"),
        ({**hand(40), "chooser": 2}, "chooser"),  # ruling 17: who chose is not recorded
    ],
)
def test_records_that_break_the_rules_are_refused(record, field):
    error = refused(start(), record)
    assert field in error.fields and error.message


def test_nothing_changes_after_a_refusal():
    state = start()
    refused(state, {"trump": "clubs", "points": [50, 50]})
    assert GAME.scores(state) == [0, 0] and state.hands == 0


# -- scoring (S4:226-232, S4:218-219) --------------------------------------------------------------


def test_the_side_over_thirty_six_scores_its_excess():
    done = GAME.play(start(), hand(45))
    assert done.changes == [9, 0]
    assert texts(done) == [("A: 45 of 72, 9 over 36: +9", "points")]


def test_the_other_side_can_score_too():
    done = GAME.play(start(), hand(20, "spades", "none"))
    assert done.changes == [0, 16]


def test_thirty_six_each_scores_nothing_whatever_the_multiplier():
    done = GAME.play(start(), hand(36, "botifarra", "reredouble"))
    assert done.changes == [0, 0]
    assert texts(done) == [("36 each: nobody scores", "points")]


@pytest.mark.parametrize(
    "trump, doubling, times",
    [
        ("clubs", "none", 1),
        ("clubs", "double", 2),
        ("diamonds", "redouble", 4),
        ("hearts", "reredouble", 8),
        ("botifarra", "none", 2),
        ("botifarra", "double", 4),
        ("botifarra", "redouble", 8),
        ("botifarra", "reredouble", 16),
    ],
)
def test_the_multiplier_is_botifarra_times_the_doubling(trump, doubling, times):
    # ruling 19: uncapped by default, so a re-redoubled botifarra is x16
    done = GAME.play(start(target=1000), hand(40, trump, doubling))
    assert done.changes == [4 * times, 0]


def test_the_reason_shows_the_multiplier():
    done = GAME.play(start(), hand(30, "botifarra", "double"))
    assert done.changes == [0, 24]
    assert texts(done) == [("B: 42 of 72, 6 over 36", "points"), ("x4 (botifarra x2, doubled x2): +24", "multiplier")]


def test_the_cap_holds_the_multiplier_at_eight():
    # S4:218: "the highest multiplier possible"
    done = GAME.play(start(multiplier_cap=8, target=1000), hand(40, "botifarra", "reredouble"))
    assert done.changes == [32, 0]
    assert texts(done)[-1] == ("x8 (botifarra x2, re-redoubled x8: x16 capped at x8): +32", "multiplier")
    assert GAME.play(start(multiplier_cap=8), hand(40, "botifarra", "redouble")).changes == [32, 0]
    assert multiplier("spades", "reredouble", 8) == (8, "re-redoubled x8")


def test_a_suit_only_names_trumps():
    # ruling 17: the suit keeps the history readable; only botifarra changes the score
    assert {tuple(GAME.play(start(), hand(50, suit)).changes) for suit in TRUMPS[:4]} == {(14, 0)}


def test_the_deal_passes_to_the_next_seat():
    # ruling 16
    state, _ = play_all(start(first_dealer=3), [hand(40)] * 2)
    assert state.dealer == 1 and state.hands == 2
    assert GAME.board(state).turn == (("Deals and names trumps", 1),)


# -- the end (S4:208) ------------------------------------------------------------------------------


def test_the_first_side_to_one_hundred_and_one_wins():
    state, _ = play_all(start(), [hand(61)] * 4)  # 25 a hand: 100
    assert GAME.scores(state) == [100, 0] and not GAME.result(state).over
    done = GAME.play(state, hand(37))
    assert GAME.scores(done.state) == [101, 0] and done.game_winner == A
    assert GAME.result(done.state) == Result(True, A, "A wins the game 101 to 0")
    assert texts(done)[-1] == ("A wins the game 101 to 0", "end")


def test_overshoot_counts():
    state, _ = play_all(start(), [hand(10, "botifarra", "reredouble")])  # 26 x 16
    assert GAME.scores(state) == [0, 416] and GAME.result(state).winner == B


def test_a_smaller_target():
    state, done = play_all(start(target=20), [hand(46), hand(46)])
    assert GAME.scores(state) == [20, 0] and done.game_winner == A


def test_no_hand_after_the_end_and_the_deal_still_passes():
    state, _ = play_all(start(target=5, first_dealer=3), [hand(41)])
    assert GAME.result(state).winner == A and state.dealer == 0
    assert "match is over" in refused(state, hand(40)).message


def test_an_edit_that_ends_the_game_sooner_breaks_the_later_hand():
    options = GAME.parse_options({}, TABLE)
    assert replay(GAME, TABLE, options, [hand(61), hand(40)]).state.points == (29, 0)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [hand(61, "botifarra", "redouble"), hand(40)])
    assert caught.value.number == 2


# -- the rules page --------------------------------------------------------------------------------


def page_ids() -> set[str]:
    return set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))


def test_every_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in Rule} <= page_ids()
    text = RULES_PAGE.read_text(encoding="utf-8")
    assert text.startswith('{% extends "rules/game.html" %}')
    assert "style=" not in text and "<script" not in text


# -- properties ------------------------------------------------------------------------------------

STRATEGIES = Strategies(
    options={"target": st.integers(1, 300), "multiplier_cap": st.sampled_from([None, 8])},
    record=st.builds(hand, st.integers(0, 72), st.sampled_from(TRUMPS), st.none() | st.sampled_from(DOUBLINGS)),
    most=20,
    raw=st.dictionaries(
        st.sampled_from(["trump", "doubling", "points"]),
        json_values(st.integers(-5, 80)) | st.sampled_from(TRUMPS + DOUBLINGS + [[36, 36], [72, 0], [40, 40], "8"]),
        max_size=3,
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_only_the_side_over_half_scores(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        done = GAME.play(state, record)
        points = record["points"]
        for side in (A, B):
            assert (done.changes[side] > 0) == (points[side] > 36)
        assert done.changes[A] == 0 or done.changes[B] == 0
        if match.options["multiplier_cap"]:
            assert max(done.changes) <= 36 * 8
        assert done.state.dealer == (state.dealer + 1) % 4
        assert {reason.rule for reason in done.reasons} <= page_ids()
        state = done.state


def test_example_hands_are_taken():
    rng, state = random.Random(3), start(target=1000)
    while not GAME.result(state).over:
        state = GAME.play(state, GAME.example_hand(state, rng)).state
    assert state.hands > 5


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Hearts are trumps and Ann & Cy take 40 of the 72 points.
COMMONEST = Commonest((choose("Trumps", "Hearts"), type_in("Points out of 72", ANN_CY, 40)), taps=3, typed=1)

COMMON = (
    # A doubled hand; a botifarra (no trumps).
    Commonest(
        (choose("Trumps", "Spades"), pick("Doubling", "Double"), type_in("Points out of 72", BOB_DI, 45)),
        taps=5,
        typed=1,
    ),
    Commonest((choose("Trumps", "Botifarra"), type_in("Points out of 72", BOB_DI, 30)), taps=3, typed=1),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_botifarra_counts():
    # 1: A 50 of 72: +14. 2: B 42 in a doubled botifarra: 6 x 4 = 24. 3: 36-36: nobody.
    # 4: A 72 in a re-redoubled botifarra: 36 x 16, A wins. Hands won: A 2, B 1.
    records = [
        {"trump": "spades", "points": [50, 22]},
        {"trump": "botifarra", "doubling": "double", "points": [30, 42]},
        {"trump": "hearts", "points": [36, 36]},
        {"trump": "botifarra", "doubling": "reredouble", "points": [72, 0]},
    ]
    assert figures("botifarra", 4, records) == {"hands_won": [2, 1]}
