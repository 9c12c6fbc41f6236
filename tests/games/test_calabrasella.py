"""Calabrasella: worked examples of api/chips.md `calabrasella` (RULES.md 2.18, seed S4:182-202),
edge rules first. Players A, B, C = seats 0, 1, 2; A deals first unless a test says otherwise.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, get_game, replay
from scorekeeper.games.calabrasella import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose, type_in

GAME = get_game("calabrasella")
TABLE = GAME.table(3)
A, B, C = 0, 1, 2
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "calabrasella.html"
ALL_PASSED = {"declarer": None}


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def played(declarer: int, ours: int, theirs: int) -> dict:
    return {"declarer": declarer, "declarer_points": ours, "defender_points": theirs}


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


def reasons(done) -> list[tuple[str, str]]:
    return [(str(reason), reason.rule) for reason in done.reasons]


# -- declarations (api/chips.md `calabrasella`) ---------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "calabrasella",
        {"min": 3, "max": 3},
        False,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "set_aside_to"]
    set_aside = options["set_aside_to"]
    assert (set_aside["choices"], set_aside["default"]) == (["nobody", "last_trick"], "nobody")
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["declarer", "declarer_points", "defender_points"]
    assert fields["declarer"]["type"] == "seat" and fields["declarer"]["required"] and fields["declarer"]["nullable"]
    for name in ("declarer_points", "defender_points"):
        assert (fields[name]["min"], fields[name]["max"], fields[name]["required"]) == (0, 35, True)
        assert fields[name]["when"] == {"field": "declarer", "values": [0, 1, 2]}


def test_a_session_starts_level_and_ends_only_when_called():
    state = start(first_dealer=2)
    assert GAME.scores(state) == [0, 0, 0] and GAME.public_state(state) == {} and state.dealer == C
    assert GAME.result(state).over is False and GAME.result(state).headline == "All level"
    assert GAME.ends_by_call(GAME.parse_options({}, TABLE)) is True


@pytest.mark.parametrize(
    "options, field",
    [({"set_aside_to": "declarer"}, "set_aside_to"), ({"first_dealer": 3}, "first_dealer"), ({"stake": 1}, "stake")],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


@pytest.mark.parametrize("players", [2, 4])
def test_only_three_players(players):
    with pytest.raises(RecordError, match="3 players"):
        GAME.table(players)


# -- refusals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "declarer"),  # null must be given for an all-passed hand
        ({"declarer_points": 20, "defender_points": 15}, "declarer"),
        ({"declarer": 3, "declarer_points": 20, "defender_points": 15}, "declarer"),
        ({"declarer": 0, "defender_points": 15}, "declarer_points"),
        ({"declarer": 0, "declarer_points": 20}, "defender_points"),
        ({"declarer": 0, "declarer_points": 36, "defender_points": 0}, "declarer_points"),
        ({"declarer": 0, "declarer_points": 20, "defender_points": -1}, "defender_points"),
        ({"declarer": None, "declarer_points": 20, "defender_points": 15}, "declarer_points"),
        ({"declarer": None, "defender_points": 0}, "defender_points"),
        ({"declarer": 0, "declarer_points": 20, "defender_points": 15, "widow": 4}, "widow"),
    ],
)
def test_bad_records_are_refused(record, field):
    assert field in refused(start(), record).fields


@pytest.mark.parametrize(
    "ours, theirs, taken",
    [(12, 11, True), (11, 11, False), (20, 15, True), (20, 16, False), (0, 23, True), (35, 0, True)],
)
def test_the_counts_add_up_to_23_to_35_with_four_cards_set_aside(ours, theirs, taken):
    # ruling 13: the four set-aside cards hold at most 12 points (four aces)
    if taken:
        GAME.play(start(), played(A, ours, theirs))
    else:
        assert refused(start(), played(A, ours, theirs)).fields.keys() == {"declarer_points", "defender_points"}


@pytest.mark.parametrize("ours, theirs, taken", [(20, 15, True), (35, 0, True), (20, 14, False), (12, 11, False)])
def test_with_the_last_trick_taking_them_the_counts_add_up_to_35(ours, theirs, taken):
    state = start(set_aside_to="last_trick")
    if taken:
        GAME.play(state, played(B, ours, theirs))
    else:
        assert refused(state, played(B, ours, theirs)).fields.keys() == {"declarer_points", "defender_points"}


# -- scoring (S4:201-202) -----------------------------------------------------------------------------------


def test_a_winning_declarer_is_paid_the_difference_by_each_defender():
    # S4:201: 19 to 16, each defender pays 3
    done = GAME.play(start(), played(A, 19, 16))
    assert done.changes == [6, -3, -3] and GAME.scores(done.state) == [6, -3, -3]
    assert reasons(done) == [("A wins 19 to 16: each defender pays 3 chips", Rule.PAYMENT)]


def test_a_losing_declarer_pays_each_defender_the_difference():
    # S4:201: 11 to 24 costs the declarer 26, 13 to each defender
    done = GAME.play(start(), played(B, 11, 24))
    assert done.changes == [13, -26, 13]
    assert reasons(done) == [("B loses 11 to 24: pays each defender 13 chips", Rule.PAYMENT)]


def test_equal_counts_pay_nothing():
    done = GAME.play(start(), played(C, 15, 15))
    assert done.changes == [0, 0, 0] and reasons(done) == [("C ties 15 to 15: nobody pays", Rule.PAYMENT)]


def test_a_declarer_taking_all_35_is_paid_70_by_each_defender():
    # S4:202
    done = GAME.play(start(), played(C, 35, 0))
    assert done.changes == [-70, -70, 140]
    assert reasons(done) == [("C took all 35: each defender pays 70", Rule.SWEEP)]


def test_defenders_taking_all_35_are_paid_70_each():
    done = GAME.play(start(), played(A, 0, 35))
    assert done.changes == [-140, 70, 70]
    assert reasons(done) == [("The defenders took all 35: A pays each of them 70", Rule.SWEEP)]


def test_a_clean_sweep_short_of_35_is_paid_singly():
    # ruling 14: 34-0 (a point was set aside) is not 35-0
    assert GAME.play(start(), played(A, 34, 0)).changes == [68, -34, -34]
    assert GAME.play(start(), played(A, 0, 30)).changes == [-60, 30, 30]


def test_with_the_last_trick_option_35_0_is_still_doubled():
    assert GAME.play(start(set_aside_to="last_trick"), played(B, 35, 0)).changes == [-70, 140, -70]


def test_an_all_passed_hand_pays_nothing():
    # S4:194
    done = GAME.play(start(), ALL_PASSED)
    assert done.changes == [0, 0, 0] and reasons(done) == [("All three passed: nobody pays", Rule.ALL_PASS)]


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"declarer": "1", "declarer_points": "20", "defender_points": "10"})


# -- the deal (S4:194, ruling 15) ----------------------------------------------------------------------------


def test_the_deal_passes_to_the_left_after_every_hand():
    state = start(first_dealer=1)
    dealers = []
    for record in [ALL_PASSED, played(A, 20, 15), ALL_PASSED, played(C, 0, 35)]:
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [C, A, B, C]


# -- the end: finish (api "End") ---------------------------------------------------------------------------------


def test_finish_gives_the_win_to_the_best_balance():
    state, _ = play_all(start(), [played(A, 19, 16), played(B, 20, 10)])
    assert GAME.scores(state) == [-4, 17, -13]
    assert GAME.result(state).headline == "B leads with +17"
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, B, "B wins with +17 chips")


def test_finish_with_a_shared_best_balance_has_no_winner():
    state, _ = play_all(start(), [played(A, 20, 15), played(B, 20, 15)])
    assert GAME.scores(state) == [5, 5, -10]
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None)
    assert result.headline == "No winner: A and B share the best balance, +5"


def test_finish_with_everybody_level_has_no_winner():
    state, _ = play_all(start(), [ALL_PASSED, played(A, 15, 15)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None)


def test_edits_replay_the_later_hands():
    options = GAME.parse_options({}, TABLE)
    first = replay(GAME, TABLE, options, [played(A, 19, 16), ALL_PASSED])
    edited = replay(GAME, TABLE, options, [played(A, 16, 19), ALL_PASSED])
    assert GAME.scores(first.state) == [6, -3, -3] and GAME.scores(edited.state) == [-6, 3, 3]
    assert edited.state.dealer == first.state.dealer == C


# -- the rules page ---------------------------------------------------------------------------------------------


def test_every_rule_is_a_section_of_the_rules_page():
    text = RULES_PAGE.read_text(encoding="utf-8")
    assert {rule.value for rule in Rule} <= set(re.findall(r'<section id="([^"]+)"', text))
    assert text.startswith('{% extends "rules/game.html" %}')


# -- properties ---------------------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={"set_aside_to": st.sampled_from(["nobody", "last_trick"])},
    raw=st.dictionaries(
        st.sampled_from(["declarer", "declarer_points", "defender_points"]),
        json_values(st.integers(-3, 40)) | st.sampled_from([None, 0, 1, 2, 3, 17, 18, 35, "1"]),
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_balances_always_add_up_to_zero(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        done = GAME.play(state, record)
        assert sum(done.changes) == 0 and sum(GAME.scores(done.state)) == 0
        assert done.state.dealer == (state.dealer + 1) % 3
        declarer = record["declarer"]
        if declarer is not None:  # both defenders always pay or receive the same
            defenders = [done.changes[seat] for seat in range(3) if seat != declarer]
            assert defenders[0] == defenders[1] and done.changes[declarer] == -2 * defenders[0]
        state = done.state


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann declares and takes 26 points, the defenders 9.
COMMONEST = Commonest(
    (choose("Who declared?", "Ann"), type_in("Declarer's points", 26), type_in("Defenders' points", 9)), taps=4, typed=2
)

COMMON = (
    # Another player declares and loses.
    Commonest(
        (choose("Who declared?", "Bob"), type_in("Declarer's points", 15), type_in("Defenders' points", 20)),
        taps=4,
        typed=2,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_calabrasella_counts():
    # 1: Ann declares, 20 to 12: each defender pays her 8. 2: Bo declares, 10 to 25: he pays each 15.
    # 3: all pass. 4: Cy takes all 35: each pays him 70. 5: Ann declares, 15 to 15: nobody pays.
    # Won: Ann 16 + 15 = 31, Bo 0, Cy 15 + 140 = 155. Lost: Ann 70, Bo 8 + 30 + 70 = 108, Cy 8.
    # As declarer: Ann won 1 (the tie is neither), Bo lost 1, Cy won 1.
    records = [
        {"declarer": A, "declarer_points": 20, "defender_points": 12},
        {"declarer": B, "declarer_points": 10, "defender_points": 25},
        {"declarer": None},
        {"declarer": C, "declarer_points": 35, "defender_points": 0},
        {"declarer": A, "declarer_points": 15, "defender_points": 15},
    ]
    assert figures("calabrasella", 3, records, call=True) == {
        "chips_won": [31, 0, 155],
        "chips_lost": [70, 108, 8],
        "declarer_won": [1, 0, 1],
        "declarer_lost": [0, 1, 0],
    }
