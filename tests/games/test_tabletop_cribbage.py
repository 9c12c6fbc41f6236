"""Tabletop Cribbage, from worked examples of api/counting.md `tabletop_cribbage` (seed S2:8-16).

Players: A = 0, B = 1. The non-dealer scores the rows, the dealer the columns (S2:14); with the
first dealer A, B scores the rows of hand 1. Each expected value cites its seed line or ruling.
"""

from __future__ import annotations

import pathlib
import re
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.cribbage import NOT_LINE_SCORES, count_line
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, type_in

GAME = get_game("tabletop_cribbage")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = pathlib.Path(__file__).parents[2] / "templates" / "rules" / "tabletop_cribbage.html"
PAGE_IDS = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text())) if RULES_PAGE.exists() else set()

# A layout with known counts: rows top to bottom, columns left to right.
LAYOUT = [
    ["5H", "5D", "5S", "5C", "JH"],  # 28: four fives and a jack (fifteens 16, pairs 12)
    ["AS", "2S", "3S", "4S", "6S"],  # 11: 2+3+4+6 fifteen 2, run A-4 4, flush 5
    ["7H", "8D", "9C", "KS", "QD"],  # 5: 7+8 fifteen 2, run 7-8-9 3
    ["2H", "2D", "9H", "TD", "QC"],  # 2: a pair, no fifteen (2+2+9=13, 2+9=11)
    ["3D", "4D", "6C", "7C", "KH"],  # 0: no fifteen, pair or run
]


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def at(points, **options):
    """A game in progress at the given points."""
    return start(**options).evolve(points=tuple(points))


def lines(rows, columns=None):
    record = {"rows": list(rows)}
    if columns is not None:
        record["columns"] = list(columns)
    return record


def totals(row_total, column_total=None):
    record = {"row_total": row_total}
    if column_total is not None:
        record["column_total"] = column_total
    return record


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


# -- the count of one line (S2:16) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, fifteens, pairs, runs, flush",
    [
        (["5H", "5D", "5S", "5C", "JH"], 16, 12, 0, 0),  # the best line: 28 without nobs
        (["3H", "3D", "4S", "5C", "6H"], 4, 2, 8, 0),  # a double run of four: 8
        (["3H", "3D", "3S", "4C", "5H"], 6, 6, 9, 0),  # a triple run of three: 9; 3+3+4+5 three ways
        (["AS", "2S", "3S", "4S", "5S"], 2, 0, 5, 5),  # a five-card flush counts 5
        (["AS", "2S", "3S", "4S", "9H"], 4, 0, 4, 0),  # four of a suit is nothing (S2:16); 2+4+9, A+2+3+9
        (["QH", "KH", "AH", "2H", "3D"], 4, 0, 3, 0),  # no wrap round: Q-K-A is not a run, A-2-3 is
        (["JH", "5C", "2D", "8S", "KH"], 6, 0, 0, 0),  # no nobs (S2:16): J+5, K+5, 2+8+5
        (["TH", "JC", "QD", "KS", "9H"], 0, 0, 5, 0),  # face cards are ten toward fifteen: run of five
    ],
)
def test_count_of_a_line_S2_16(cards, fifteens, pairs, runs, flush):
    count = count_line(cards)
    assert (count.fifteens, count.pairs, count.runs, count.flush) == (fifteens, pairs, runs, flush)
    assert count.total == fifteens + pairs + runs + flush


def test_the_possible_line_scores_are_those_of_ruling_10():
    # Every multiset of five ranks, as a flush where it can be one and as a mixed hand otherwise.
    seen = set()
    for ranks in combinations_with_replacement("A23456789TJQK", 5):
        if max(ranks.count(rank) for rank in ranks) > 4:
            continue
        used: dict[str, int] = {}
        mixed = []
        for rank in ranks:
            mixed.append(rank + "SHDC"[used.get(rank, 0)])
            used[rank] = used.get(rank, 0) + 1
        if len({card[1] for card in mixed}) == 1:
            mixed[-1] = mixed[-1][0] + "H"
        seen.add(count_line(mixed).total)
        if len(set(ranks)) == 5:
            seen.add(count_line([rank + "S" for rank in ranks]).total)
    assert max(seen) == 28
    assert set(range(29)) - seen == set(NOT_LINE_SCORES) == {1, 19, 25, 26, 27}


# -- declarations ------------------------------------------------------------------------------------


def test_declarations_match_the_api():
    described = GAME.describe()
    assert described["players"] == {"min": 2, "max": 2} and described["partnerships"] is False
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "target"]
    assert options["target"]["choices"] == [121, 61] and options["target"]["default"] == 121
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["rows", "columns", "row_total", "column_total", "grid"]
    assert fields["rows"]["type"] == "int_list" and fields["rows"]["length"] == 5
    assert (fields["rows"]["min"], fields["rows"]["max"], fields["rows"]["exclude"]) == (0, 28, [1, 19, 25, 26, 27])
    assert fields["row_total"]["type"] == "int" and fields["row_total"]["max"] == 140
    assert fields["grid"]["type"] == "grid" and (fields["grid"]["rows"], fields["grid"]["columns"]) == (5, 5)
    forms = {form["name"]: form["fields"] for form in described["record_forms"]}
    assert forms == {"lines": ["rows", "columns"], "totals": ["row_total", "column_total"], "cards": ["grid"]}


def test_new_game_is_level_at_nought_with_the_first_dealer():
    state = start(first_dealer=1)
    assert GAME.scores(state) == [0, 0] and state.dealer == B and GAME.public_state(state) == {}
    assert GAME.target(state) == 121 and not GAME.result(state).over


@pytest.mark.parametrize("options, field", [({"target": 100}, "target"), ({"skunk": True}, "skunk")])
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


# -- the three record forms --------------------------------------------------------------------------


def test_line_scores_rows_to_the_non_dealer_columns_to_the_dealer_S2_14():
    hand = GAME.play(start(), lines([8, 4, 0, 12, 2], [6, 6, 0, 2, 3]))
    # A deals: B (non-dealer) scores 26 for the rows, A 17 for the columns
    assert hand.changes == [17, 26]
    assert GAME.scores(hand.state) == [17, 26]
    assert [reason.rule for reason in hand.reasons] == ["rows", "columns"]
    assert str(hand.reasons[0]) == "B's rows 8 + 4 + 0 + 12 + 2 = +26"


def test_totals_form():
    hand = GAME.play(start(first_dealer=B), totals(30, 41))
    # B deals: A scores the rows
    assert hand.changes == [30, 41]


def test_grid_form_the_app_counts_rows_and_columns():
    grid = LAYOUT
    rows = [count_line(row).total for row in grid]
    columns = [count_line(list(column)).total for column in zip(*grid)]
    assert rows == [28, 11, 5, 2, 0]
    hand = GAME.play(start(), {"grid": grid})
    assert hand.changes == [sum(columns), sum(rows)]
    assert "row 1 5H 5D 5S 5C JH: 28" in str(hand.reasons[0])


@pytest.mark.parametrize("card", ["10h", "th", " TH"])
def test_a_layout_card_not_written_as_its_code_is_refused(card):
    # A card is its two-character code (API.md); the page's form reads "10h" or "as" into one first.
    grid = [[card, "5D", "5S", "5C", "JH"]] + [row for row in LAYOUT[1:]]
    with pytest.raises(RecordError):
        GAME.play(start(), {"grid": grid})


@pytest.mark.parametrize(
    "record, field",
    [
        ({"rows": [0, 0, 0, 0, 0], "row_total": 0, "columns": [0] * 5}, "row_total"),
        ({"grid": LAYOUT, "rows": [0] * 5, "columns": [0] * 5}, "grid"),
        ({"row_total": 3, "column_total": 4, "grid": LAYOUT}, "grid"),
        ({"rows": [0] * 5, "column_total": 3}, "column_total"),
    ],
)
def test_fields_of_two_forms_together_are_refused(record, field):
    error = refused(start(), record)
    assert field in error.fields and "one way only" in error.message


def test_an_empty_record_is_refused():
    error = refused(start(), {})
    assert "one of these ways" in error.message and {"rows", "row_total", "grid"} <= set(error.fields)


@pytest.mark.parametrize(
    "record, field",
    [
        (lines([1, 0, 0, 0, 0], [0] * 5), "rows"),  # ruling 10: no line scores 1
        (lines([0] * 5, [19, 0, 0, 0, 0]), "columns"),
        (lines([0] * 5, [0, 0, 0, 0, 26]), "columns"),
        (lines([29, 0, 0, 0, 0], [0] * 5), "rows"),
        (lines([0, 0, 0, 0], [0] * 5), "rows"),
        (lines([0] * 5, [0, 0, 0, 0, 0, 0]), "columns"),
        (lines([0, 0, 0, 0, "x"], [0] * 5), "rows"),
        (totals(141, 0), "row_total"),
        (totals(0, -1), "column_total"),
        ({"grid": LAYOUT[:4]}, "grid"),
        ({"grid": [LAYOUT[0]] * 5}, "grid"),  # a card twice
        ({"grid": [["5H", "5D", "5S", "5C", "1H"]] + LAYOUT[1:]}, "grid"),  # not a card
        ({"grid": [row[:4] for row in LAYOUT]}, "grid"),
        ({"rows": [0] * 5, "columns": [0] * 5, "crib": 4}, "crib"),
    ],
)
def test_values_out_of_range_or_shape_are_refused(record, field):
    assert field in refused(start(), record).fields


def test_columns_may_be_left_out_only_when_the_rows_win_ruling_11():
    error = refused(at((50, 100)), lines([4, 4, 4, 4, 4]))
    assert error.fields.keys() == {"columns"} and "short of 121" in error.message
    assert "column_total" in refused(start(), totals(40)).fields
    assert "columns" in refused(start(), {"rows": [0] * 5, "columns": None}).fields
    hand = GAME.play(at((50, 100)), lines([6, 4, 4, 4, 4]))  # B: 100 + 22 = 122
    assert hand.changes == [0, 22] and GAME.result(hand.state).winner == B


# -- the end (rulings 11 and 12) ---------------------------------------------------------------------


def test_rows_reaching_the_target_win_and_the_columns_do_not_count_ruling_11():
    # A deals, B has 110: the rows bring B to 121 exactly; A's columns (which would take A past) are ignored.
    hand = GAME.play(at((115, 110)), lines([4, 4, 3, 0, 0], [10, 10, 0, 0, 0]))
    assert hand.changes == [0, 11]
    assert GAME.scores(hand.state) == [115, 121]
    assert hand.game_winner == B and GAME.result(hand.state).winner == B
    assert [reason.rule for reason in hand.reasons] == ["rows", "columns", "end"]
    assert "not counted" in str(hand.reasons[1])


def test_columns_win_when_the_rows_fall_short():
    hand = GAME.play(at((115, 100)), lines([4, 4, 3, 0, 0], [2, 2, 2, 0, 0]))
    assert hand.changes == [6, 11] and GAME.result(hand.state).winner == A
    assert GAME.scores(hand.state) == [121, 111]


def test_overshoot_is_kept_not_capped():
    hand = GAME.play(at((0, 110)), lines([28, 24, 0, 0, 0]))
    assert GAME.scores(hand.state) == [0, 162] and GAME.result(hand.state).headline == "B wins 162 to 0"


def test_target_61_option():
    state = at((40, 50), target=61)
    assert GAME.target(state) == 61
    hand = GAME.play(state, lines([2, 2, 2, 2, 3]))
    assert GAME.result(hand.state).winner == B


def test_no_hand_after_the_end():
    hand = GAME.play(at((0, 120)), totals(2))
    error = refused(hand.state, totals(2, 2))
    assert "over" in error.message


def test_deal_alternates_and_roles_follow_it():
    state = start()
    first = GAME.play(state, lines([2] * 5, [4] * 5))
    second = GAME.play(first.state, lines([2] * 5, [4] * 5))
    # hand 1: A deals, B rows; hand 2: B deals, A rows
    assert (first.state.dealer, second.state.dealer) == (B, A)
    assert first.changes == [20, 10] and second.changes == [10, 20]
    assert dict(GAME.board(first.state).turn) == {"Deals": B, "Rows": A}


def test_an_edit_that_ends_the_game_early_breaks_a_later_hand():
    records = [lines([20, 20, 20, 20, 20], [0] * 5), lines([2] * 5, [2] * 5)]
    assert replay(GAME, TABLE, GAME.parse_options({}, TABLE), records).state.points == (10, 110)
    edited = [lines([28, 24, 24, 24, 24])] + records[1:]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, GAME.parse_options({}, TABLE), edited)
    assert caught.value.number == 2


def test_an_edit_can_make_a_missing_column_required():
    options = GAME.parse_options({"target": 61}, TABLE)
    records = [lines([10, 10, 10, 10, 10], [0] * 5), totals(2, 2), totals(10)]  # B 50, 52, then rows to 62
    done = replay(GAME, TABLE, options, records)
    assert done.state.points == (2, 62) and GAME.result(done.state).winner == B
    # hand 3's non-dealer is B (dealers A, B, A). Lower hand 1: B's rows no longer reach 61 in hand 3.
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [lines([2] * 5, [0] * 5)] + records[1:])
    assert caught.value.number == 3 and "column_total" in caught.value.fields


def test_every_reason_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in GAME.rules} <= PAGE_IDS


# -- properties --------------------------------------------------------------------------------------

FIELD_VALUES = JSON | st.lists(st.integers(-2, 30), min_size=4, max_size=6) | st.integers(-5, 150) | st.just(LAYOUT)
STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={"target": st.sampled_from([121, 61])},
    most=8,
    raw=st.dictionaries(
        st.sampled_from(["rows", "columns", "row_total", "column_total", "grid"]), FIELD_VALUES, max_size=4
    ),
    states=st.sampled_from([start(), at((100, 119)), at((121, 0))]),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_property_non_dealer_first_dealer_second_and_the_deal_alternates(match):
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        hand = GAME.play(state, record)
        rows_player = 1 - state.dealer
        assert hand.state.dealer == rows_player
        assert [old + change for old, change in zip(GAME.scores(state), hand.changes)] == GAME.scores(hand.state)
        if GAME.scores(hand.state)[rows_player] >= options["target"]:
            assert hand.changes[state.dealer] == 0 and hand.game_winner == rows_player
        assert {reason.rule for reason in hand.reasons} <= PAGE_IDS
        state = hand.state


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# The two totals, which the form asks first: 20 for Bob's rows (Ann deals, so Bob plays the rows),
# 14 for Ann's columns.
COMMONEST = Commonest(
    (type_in("Bob's row total", 20), type_in("Ann's column total", 14)),
    taps=3,
    most=4,
    typed=2,
    board={"points": ["14/121", "20/121"]},
    second=(type_in("Ann's row total", 20), type_in("Bob's column total", 14)),
)

COMMON = (
    # Columns ahead of rows (at hand 2 the deal has moved, and Ann plays the rows).
    Commonest(
        (type_in("Bob's row total", 12), type_in("Ann's column total", 26)),
        taps=3,
        typed=2,
        second=(type_in("Ann's row total", 12), type_in("Bob's column total", 26)),
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_tabletop_cribbage_counts():
    # Game to 61. 1 (Ann deals): Bo's rows 20, Ann's columns 10. 2 (Bo deals): Ann's rows 30, Bo's
    # columns 12 (Ann 40, Bo 32). 3 (Ann deals): Bo's rows 29 take him to 61 at once, 21 ahead.
    records = [{"row_total": 20, "column_total": 10}, {"row_total": 30, "column_total": 12}, {"row_total": 29}]
    assert figures("tabletop_cribbage", 2, records, target=61) == {
        "row_points": [30, 49],
        "column_points": [10, 12],
        "winning_margin": [None, 21],
    }
