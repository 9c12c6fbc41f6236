"""Schnapsen scoring, from worked examples of RULES.md 1.4 (seed S3:138-198), edge rules first.

Sides: A = 0, B = 1. Each expected value cites the seed line, the row of the outcome table
(RULES.md 1.4.6) or the ruling (SC-Qn, RULES.md 1.4.8) it comes from.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, get_game
from scorekeeper.games.schnapsen import CARD_POINTS, Marriage, Rule, card_points, hand_score
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, choose

GAME = get_game("schnapsen")
A, B = 0, 1
RULES_PAGE = pathlib.Path(__file__).parents[2] / "templates" / "rules" / "schnapsen.html"
PAGE_IDS = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text()))
FIELD_NAMES = [fld.name for fld in GAME.hand_fields]


def start(**options):
    table = GAME.table(2)
    return GAME.new_state(table, GAME.parse_options(options, table))


def at(vp, **options):
    """A game in progress at the given victory points: the end-of-game cases start from there."""
    return start(**options).evolve(vp=vp)


def out(declarer, points, tricks, **extra):
    return {"ending": "out", "declarer": declarer, "points": list(points), "tricks": list(tricks), **extra}


def played_out(last, points, tricks, **extra):
    return {"ending": "played_out", "last_trick": last, "points": list(points), "tricks": list(tricks), **extra}


def closed(closer, points, tricks, marriages=None):
    """The close fields: `points`/`tricks` are the non-closer's at the moment of closing."""
    at_close = {"points": points, "tricks": tricks}
    if marriages is not None:
        at_close["marriages"] = marriages
    return {"closed_by": closer, "at_close": at_close}


def refusal(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


def texts(result) -> list[str]:
    return [reason.text for reason in result.reasons]


# -- the outcome table, RULES.md 1.4.6, one case per row (and each 2/3 variant) --------------------

OUTCOME_ROWS = [
    pytest.param(
        out(A, [71, 40], [4, 3]),
        [1, 0],
        "A went out with 71, B had 40: +1",
        id="row1-open-correct-claim-opponent-33-plus-1vp-S3:186",
    ),
    pytest.param(
        out(A, [70, 28], [5, 2]),
        [2, 0],
        "A went out with 70, B had 28 (schneider): +2",
        id="row2-open-correct-claim-schneider-2vp-S3:187",
    ),
    pytest.param(
        out(A, [66, 0], [5, 0]),
        [3, 0],
        "A went out with 66, B took no trick (schwarz): +3",
        id="row3-open-correct-claim-schwarz-3vp-S3:188",
    ),
    pytest.param(
        out(B, [50, 60], [3, 3]),
        [2, 0],
        "B claimed with 60 (false claim): A +2",
        id="row4-open-false-claim-opponent-2vp-S3:190",
    ),
    pytest.param(
        out(B, [0, 65], [0, 4]),
        [3, 0],
        "B claimed with 65 (false claim), A took no trick: A +3",
        id="row4-open-false-claim-opponent-without-trick-3vp-S3:190",
    ),
    pytest.param(
        played_out(B, [90, 30], [7, 3]),
        [0, 1],
        "every card played, nobody went out; B took the last trick: +1",
        id="row5-played-out-1vp-to-last-trick-whatever-the-points-S3:192",
    ),
    pytest.param(
        out(A, [68, 50], [5, 3], **closed(A, 40, 2)),
        [1, 0],
        "A closed and went out with 68, B had 40 at the close: +1",
        id="row6-closer-out-tally-at-close-33-plus-1vp-S3:194",
    ),
    pytest.param(
        out(A, [70, 50], [5, 4], **closed(A, 20, 1)),
        [2, 0],
        "A closed and went out with 70, B had 20 at the close (schneider): +2",
        id="row6-closer-out-schneider-at-close-though-50-at-end-S3:194",
    ),
    pytest.param(
        out(A, [70, 12], [4, 1], **closed(A, 0, 0)),
        [3, 0],
        "A closed and went out with 70, B had no trick at the close (schwarz): +3",
        id="row6-closer-out-schwarz-at-close-though-a-trick-at-end-S3:194",
    ),
    pytest.param(
        played_out(B, [60, 40], [4, 4], **closed(A, 30, 2)),
        [0, 2],
        "A closed and failed (never went out): B +2",
        id="row7-closer-never-goes-out-2vp-S3:194",
    ),
    pytest.param(
        out(A, [60, 40], [4, 3], **closed(A, 30, 2)),
        [0, 2],
        "A closed and failed (claimed with 60): B +2",
        id="row7-closer-claims-falsely-is-a-failed-close-SC-Q3",
    ),
    pytest.param(
        played_out(B, [70, 40], [5, 3], **closed(A, 30, 2)),
        [0, 2],
        "A closed and failed (never went out): B +2",
        id="row7-closer-with-66-loses-last-trick-SC-Q9",
    ),
    pytest.param(
        played_out(B, [70, 20], [6, 2], **closed(A, 0, 0)),
        [0, 3],
        "A closed and failed (never went out), B had no trick at the close: B +3",
        id="row7-non-closer-without-trick-at-close-3vp-SC-Q1",
    ),
    pytest.param(
        out(A, [50, 20], [4, 1], **closed(A, 0, 0)),
        [0, 3],
        "A closed and failed (claimed with 50), B had no trick at the close: B +3",
        id="row7-closer-false-claim-3vp-measured-at-close-SC-Q3",
    ),
    pytest.param(
        out(B, [40, 70], [3, 4], **closed(A, 30, 2)),
        [0, 2],
        "A closed and failed (B went out first with 70): B +2",
        id="row8-non-closer-goes-out-first-2vp-S3:194",
    ),
    pytest.param(
        out(B, [30, 66], [2, 3], **closed(A, 0, 0)),
        [0, 3],
        "A closed and failed (B went out first with 66), B had no trick at the close: B +3",
        id="row8-non-closer-out-first-no-trick-at-close-3vp-SC-Q1",
    ),
    pytest.param(
        out(B, [50, 60], [3, 3], **closed(A, 30, 2)),
        [2, 0],
        "B claimed with 60 (false claim) after A closed: A +2",
        id="row9-non-closer-false-claim-closer-2vp-SC-Q4",
    ),
    pytest.param(
        out(B, [0, 60], [0, 4], **closed(A, 30, 2)),
        [3, 0],
        "B claimed with 60 (false claim) after A closed, A took no trick: A +3",
        id="row9-non-closer-false-claim-closer-without-trick-3vp-SC-Q4",
    ),
]


@pytest.mark.parametrize("record, changes, reason", OUTCOME_ROWS)
def test_outcome_table_row(record, changes, reason):
    result = GAME.play(start(), record)
    assert result.changes == changes
    assert GAME.scores(result.state) == changes
    assert texts(result) == [reason]
    assert result.game_winner is None


def test_the_other_side_as_closer_mirrors_the_table():
    # RULES.md 1.4.6 row 6 with the sides swapped: B closes, A is measured at the close.
    result = GAME.play(start(), out(B, [50, 70], [4, 5], **closed(B, 20, 1)))
    assert result.changes == [0, 2]
    assert texts(result) == ["B closed and went out with 70, A had 20 at the close (schneider): +2"]


# -- edges of the going-out scale ------------------------------------------------------------------


@pytest.mark.parametrize("opponent, vp", [(33, 1), (32, 2)])
def test_opponent_on_exactly_33_or_32_open_stock_SC_Q7(opponent, vp):
    # S3:186-187 and SC-Q7: 33 is still one victory point, 32 is already schneider.
    assert GAME.play(start(), out(A, [70, opponent], [5, 2])).changes == [vp, 0]


@pytest.mark.parametrize("opponent, vp", [(33, 1), (32, 2)])
def test_opponent_on_exactly_33_or_32_at_the_close_SC_Q7(opponent, vp):
    # S3:194 + SC-Q7: the same edge, measured at the close.
    assert GAME.play(start(), out(A, [70, 60], [5, 4], **closed(A, opponent, 2))).changes == [vp, 0]


def test_declarer_with_exactly_66_goes_out_and_65_is_a_false_claim():
    # S3:184 "66 or more" wins; S3:190 "65 or fewer" loses.
    assert GAME.play(start(), out(A, [66, 40], [4, 3])).changes == [1, 0]
    assert GAME.play(start(), out(A, [65, 40], [4, 3])).changes == [0, 2]


def test_schwarz_needs_no_trick_not_no_points():
    # S3:188: schwarz is about tricks. A trick with (as entered) 0 points is still a trick: schneider.
    assert GAME.play(start(), out(A, [80, 0], [5, 1])).changes == [2, 0]


def test_opponent_past_66_who_did_not_declare_still_loses_1vp_SC_Q6():
    # S3:186 parenthesis, SC-Q6: the first to declare wins; the opponent missed the chance.
    result = GAME.play(start(), out(A, [70, 75], [4, 5]))
    assert result.changes == [1, 0]


def test_false_claim_with_and_without_the_opponents_trick():
    # S3:190: 2 to the opponent, 3 when the opponent's pile is empty.
    assert GAME.play(start(), out(A, [40, 12], [3, 1])).changes == [0, 2]
    assert GAME.play(start(), out(A, [40, 0], [3, 0])).changes == [0, 3]


def test_played_out_ignores_card_points():
    # S3:192 and RULES.md 1.4.6 row 5: "1 (regardless of card points)".
    result = GAME.play(start(), played_out(A, [20, 100], [1, 9]))
    assert result.changes == [1, 0]
    assert result.reasons[0].rule == Rule.PLAYED_OUT


# -- options -------------------------------------------------------------------------------------


def test_fail_three_measured_at_close_counts_the_trickless_close_SC_Q1():
    # SC-Q1 default: B had no trick when A closed, took two after: still 3.
    record = played_out(B, [70, 20], [6, 2], **closed(A, 0, 0))
    assert GAME.play(start(), record).changes == [0, 3]


def test_fail_three_measured_at_end_looks_at_the_final_tricks():
    # RULES.md 1.4.7 item 1, option END: B has tricks at the end, so only 2.
    record = played_out(B, [70, 20], [6, 2], **closed(A, 0, 0))
    result = GAME.play(start(fail_three_measured_at="end"), record)
    assert result.changes == [0, 2]
    assert texts(result) == ["A closed and failed (never went out): B +2"]


def test_fail_three_measured_at_end_still_gives_3_when_the_non_closer_never_took_a_trick():
    # RULES.md 1.4.7 item 1 with END: no trick at the end either -> 3.
    record = played_out(A, [95, 0], [8, 0], **closed(A, 0, 0))
    result = GAME.play(start(fail_three_measured_at="end"), record)
    assert result.changes == [0, 3]
    assert texts(result) == ["A closed and failed (never went out), B had no trick: B +3"]


def test_fail_three_measured_at_end_non_closer_who_goes_out_gets_only_2():
    # RULES.md 1.4.7 item 1: "Under END a non-closer who goes out can never get 3".
    record = out(B, [30, 66], [2, 3], **closed(A, 0, 0))
    assert GAME.play(start(fail_three_measured_at="end"), record).changes == [0, 2]


def test_close_tally_points_counts_credited_marriages_SC_Q2():
    # SC-Q2 default: B had 40 at the close (20 of them a marriage): 33 or more -> 1.
    result = GAME.play(start(), out(A, [70, 50], [5, 3], **closed(A, 40, 2)))
    assert result.changes == [1, 0]


def test_close_tally_cards_only_leaves_the_marriages_out():
    # S3:194 "counting only the cards", option cards_only: 40 - 20 marriage = 20 -> schneider, 2.
    state = start(close_tally="cards_only")
    result = GAME.play(state, out(A, [70, 50], [5, 3], **closed(A, 40, 2, marriages=20)))
    assert result.changes == [2, 0]
    assert texts(result) == ["A closed and went out with 70, B had 20 in cards at the close (schneider): +2"]


def test_close_tally_cards_only_marriages_default_to_0():
    # API.md: marriages inside `at_close` only with cards_only; left out it means none.
    state = start(close_tally="cards_only")
    assert GAME.play(state, out(A, [70, 50], [5, 3], **closed(A, 40, 2))).changes == [1, 0]


def test_close_tally_does_not_touch_a_failed_close():
    # S3:194: the 2/3 for a failed close never looks at points.
    state = start(close_tally="cards_only")
    record = played_out(B, [60, 40], [4, 4], **closed(A, 30, 2, marriages=20))
    assert GAME.play(state, record).changes == [0, 2]


def test_target_option_ends_the_game_sooner():
    # S3:198 "seven or more" is the default; option target changes the number.
    result = GAME.play(start(target=3), out(A, [66, 0], [5, 0]))
    assert GAME.result(result.state).over
    assert GAME.result(result.state).winner == A
    assert result.game_winner == A


def test_target_default_is_seven():
    # S3:198: 6 points is not yet the game.
    state = at((6, 0))
    assert not GAME.result(state).over
    assert GAME.result(state).headline == "A 6, B 0 (game to 7)"
    assert GAME.public_state(state) == {"target": 7, "to_go": [1, 7]}


def test_marriage_credit_option_is_accepted_and_does_not_change_the_victory_points():
    # API.md: marriage_credit changes how the table counts `points`, not how a hand scores.
    record = out(A, [71, 40], [4, 3])
    assert GAME.play(start(marriage_credit="any_trick"), record).changes == [1, 0]


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "target"),
        ({"target": 101}, "target"),
        ({"fail_three_measured_at": "never"}, "fail_three_measured_at"),
        ({"close_tally": "marriages"}, "close_tally"),
        ({"marriage_credit": "always"}, "marriage_credit"),
        ({"first_dealer": 2}, "first_dealer"),
        ({"claim_after_marriage": True}, "claim_after_marriage"),
    ],
)
def test_bad_options_are_refused(options, field):
    # API.md: an unknown option or value is refused.
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, GAME.table(2))
    assert field in caught.value.fields


# -- the game's end and the deal ---------------------------------------------------------------------


def test_overshoot_past_seven_is_shown_as_recorded_SC_Q10():
    # SC-Q10: 6 + 3 = 9, the game ends at 9, not capped at 7.
    result = GAME.play(at((6, 2)), out(A, [66, 0], [5, 0]))
    assert result.changes == [3, 0]
    assert GAME.scores(result.state) == [9, 2]
    assert result.game_winner == A
    assert texts(result)[-1] == "A wins the game with 9 (game to 7)"
    assert result.reasons[-1].rule == Rule.GAME_END
    assert GAME.result(result.state) == GAME.result(result.state).__class__(True, A, "A wins the game 9 to 2")


def test_reaching_exactly_the_target_wins_for_b():
    # S3:198: seven or more wins.
    result = GAME.play(at((5, 6)), played_out(B, [60, 60], [5, 5]))
    standing = GAME.result(result.state)
    assert (standing.over, standing.winner, standing.headline) == (True, B, "B wins the game 7 to 5")


def test_no_hand_after_the_game_is_won():
    # S3:198: the game is over; the base refuses further hands.
    error = refusal(at((7, 0)), out(A, [71, 40], [4, 3]))
    assert "over" in error.message


def test_dealer_alternates_every_hand_from_the_first_dealer():
    # S3:198: the non-dealer deals the next hand.
    state = start(first_dealer=1)
    assert state.dealer == 1
    dealers = []
    for _ in range(4):
        state = GAME.play(state, played_out(A, [60, 60], [5, 5])).state
        dealers.append(state.dealer)
    assert dealers == [0, 1, 0, 1]
    assert state.hands == 4


# -- refusals --------------------------------------------------------------------------------------

OPEN = out(A, [71, 40], [4, 3])
CLOSED = out(A, [70, 50], [5, 4], **closed(A, 20, 1))


def without(record, name):
    return {key: value for key, value in record.items() if key != name}


REFUSALS = [
    pytest.param({}, "ending", "one of these ways", id="ending-missing"),
    pytest.param({**OPEN, "ending": "claimed"}, "ending", "Ending must be one of", id="ending-unknown"),
    pytest.param(without(OPEN, "declarer"), "declarer", "Declarer must be given", id="declarer-missing"),
    pytest.param(
        without(played_out(A, [60, 60], [5, 5]), "last_trick"),
        "last_trick",
        "Last trick must be given",
        id="last-trick-missing",
    ),
    pytest.param(
        {**played_out(A, [60, 60], [5, 5]), "declarer": A}, "declarer", "only given when", id="declarer-with-played-out"
    ),
    pytest.param({**OPEN, "last_trick": A}, "last_trick", "only given when", id="last-trick-with-out"),
    pytest.param(without(OPEN, "points"), "points", "Points must be given", id="points-missing"),
    pytest.param(without(OPEN, "tricks"), "tricks", "Tricks must be given", id="tricks-missing"),
    pytest.param({**OPEN, "points": [71]}, "points", "one per side", id="points-not-per-side"),
    pytest.param({**OPEN, "points": [221, 0]}, "points", "at most 220", id="points-over-range"),
    pytest.param({**OPEN, "tricks": [4, 11]}, "tricks", "at most 10", id="tricks-over-range"),
    pytest.param({**OPEN, "tricks": [6, 5]}, "tricks", "add up to at most 10", id="tricks-over-ten"),
    pytest.param(played_out(A, [60, 60], [5, 4]), "tricks", "add up to 10", id="played-out-open-not-ten"),
    pytest.param({**OPEN, "points": [120, 101]}, "points", "at most 220", id="points-over-220"),
    pytest.param(out(A, [71, 10], [5, 0]), "points", "Points of B must be 0", id="points-without-trick"),
    pytest.param(out(A, [0, 40], [0, 3]), "declarer", "no trick", id="declarer-without-trick"),
    pytest.param(played_out(B, [120, 0], [10, 0]), "last_trick", "no tricks", id="last-trick-without-trick"),
    pytest.param({**OPEN, "closed_by": A}, "at_close", "At close must be given", id="at-close-missing"),
    pytest.param(
        {**OPEN, "at_close": {"points": 0, "tricks": 0}},
        "at_close",
        "only given once “Who closed the stock?” is answered",
        id="at-close-without-close",
    ),
    pytest.param(
        {**OPEN, "closed_by": None, "at_close": {"points": 0, "tricks": 0}},
        "at_close",
        "only given once",
        id="at-close-with-null-closer",
    ),
    pytest.param(
        {**CLOSED, "at_close": {"tricks": 1}}, "at_close.points", "Points must be given", id="at-close-points-missing"
    ),
    pytest.param(
        {**CLOSED, "at_close": {"points": 20}}, "at_close.tricks", "Tricks must be given", id="at-close-tricks-missing"
    ),
    pytest.param({**CLOSED, "at_close": "20"}, "at_close", "must be an object", id="at-close-not-object"),
    pytest.param(
        {**CLOSED, "at_close": {"points": 20, "tricks": 1, "marriages": 0}},
        "at_close.marriages",
        "cards only",
        id="marriages-with-points-tally",
    ),
    pytest.param(
        {**CLOSED, "at_close": {"points": 60, "tricks": 1}},
        "at_close.points",
        "cannot be more",
        id="at-close-points-above-final",
    ),
    pytest.param(
        {**CLOSED, "at_close": {"points": 20, "tricks": 5}},
        "at_close.tricks",
        "cannot be more",
        id="at-close-tricks-above-final",
    ),
    pytest.param(
        out(A, [50, 70], [3, 6], **closed(A, 30, 5)),
        "at_close.tricks",
        "at most 4",
        id="at-close-after-the-stock-ran-out",
    ),
    pytest.param(
        {**CLOSED, "at_close": {"points": 20, "tricks": 0}},
        "at_close.points",
        "must be 0",
        id="at-close-points-without-trick",
    ),
    pytest.param(
        out(A, [70, 50], [5, 5], **closed(A, 20, 1)), "tricks", "at most 9", id="closed-hand-over-nine-tricks"
    ),
    pytest.param(
        played_out(A, [70, 30], [3, 3], **closed(A, 20, 2)),
        "tricks",
        "at least 7",
        id="closed-played-out-too-few-tricks",
    ),
    pytest.param(
        out(B, [20, 90], [1, 6], **closed(A, 0, 0)),
        "tricks",
        "at most 5 tricks after the close",
        id="non-closer-more-than-five-after-close",
    ),
    pytest.param({**OPEN, "closed_by": 2}, "closed_by", "must name a side", id="closer-not-a-side"),
    pytest.param({**OPEN, "declarer": "A"}, "declarer", "whole number", id="declarer-not-a-number"),
    pytest.param({**OPEN, "trumps": "hearts"}, "trumps", "not a field", id="unknown-field"),
]


@pytest.mark.parametrize("record, field, message", REFUSALS)
def test_refusals_name_the_field_and_the_rule(record, field, message):
    error = refusal(start(), record)
    assert field in error.fields
    assert message in error.message


@pytest.mark.parametrize(
    "at_close, message",
    [
        ({"points": 40, "tricks": 2, "marriages": 50}, "20 each"),
        ({"points": 20, "tricks": 1, "marriages": 40}, "cannot be more than the points"),
        ({"points": 20, "tricks": 1, "marriages": 120}, "at most 100"),
    ],
)
def test_refusals_of_marriages_at_the_close_with_cards_only(at_close, message):
    error = refusal(start(close_tally="cards_only"), {**CLOSED, "points": [70, 50], "at_close": at_close})
    assert "at_close.marriages" in error.fields
    assert message in error.message


@pytest.mark.parametrize("raw", [None, [], "out", 7, [OPEN]])
def test_a_record_that_is_not_an_object_is_refused(raw):
    assert "object" in refusal(start(), raw).message


# -- declarations (API.md "### `schnapsen`") ----------------------------------------------------------


def test_declarations_match_the_api():
    described = GAME.describe()
    assert (described["players"], described["partnerships"]) == ({"min": 2, "max": 2}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert {name: fld["default"] for name, fld in options.items()} == {
        "first_dealer": 0,
        "target": 7,
        "fail_three_measured_at": "close",
        "close_tally": "points",
        "marriage_credit": "next_trick",
    }
    assert options["close_tally"]["choices"] == ["points", "cards_only"]
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == [
        "winner",
        "victory_points",
        "ending",
        "declarer",
        "last_trick",
        "points",
        "tricks",
        "closed_by",
        "at_close",
    ]
    # API.md: the quick form {"winner", "victory_points"}, or the counted form; offered quick first.
    forms = {form["name"]: form["fields"] for form in described["record_forms"]}
    assert forms == {
        "quick": ["winner", "victory_points"],
        "counted": ["ending", "declarer", "last_trick", "points", "tricks", "closed_by", "at_close"],
    }
    assert fields["victory_points"]["choices"] == [1, 2, 3]
    assert fields["ending"]["choices"] == ["out", "played_out"] and fields["ending"]["required"]
    assert fields["declarer"]["when"] == {"field": "ending", "values": ["out"]}
    assert fields["last_trick"]["when"] == {"field": "ending", "values": ["played_out"]}
    assert (fields["points"]["type"], fields["points"]["max"], fields["tricks"]["max"]) == ("per_side", 220, 10)
    assert fields["closed_by"]["nullable"] and fields["closed_by"]["default"] is None
    assert [sub["name"] for sub in fields["at_close"]["fields"]] == ["points", "tricks", "marriages"]
    assert fields["at_close"]["when"] == {"field": "closed_by", "values": [0, 1]}


def test_form_shows_marriages_at_the_close_only_with_cards_only():
    # API.md: marriages inside at_close only mean something with close_tally cards_only.
    def subfields(state):
        at_close = next(fld for fld in GAME.form_fields(state) if fld.name == "at_close")
        return [sub.name for sub in at_close.fields]

    assert subfields(start()) == ["points", "tricks"]
    assert subfields(start(close_tally="cards_only")) == ["points", "tricks", "marriages"]


def test_every_reason_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in Rule} <= PAGE_IDS
    for param in OUTCOME_ROWS:
        result = GAME.play(at((6, 6)), param.values[0])
        assert {reason.rule for reason in result.reasons} <= PAGE_IDS


# -- the hand form's counter (RULES.md 1.4.2, SC-Q5) ---------------------------------------------------


def test_card_values_S3_178_182():
    assert CARD_POINTS == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def test_card_points_sum_a_pile():
    # S3:178-182: A 11 + 10 10 + K 4 = 25; "10h" and lower case are the same card as TH.
    assert card_points(["AS", "TH", "KC"]) == 25
    assert card_points(["as", "10h", "kc"]) == 25
    assert card_points("AS, TH KC") == 25
    assert card_points([]) == 0


def test_card_points_whole_pack_is_120():
    # RULES.md 1.4.2: 120 card points in the pack.
    assert card_points([rank + suit for rank in "ATKQJ" for suit in "SHDC"]) == 120


@pytest.mark.parametrize(
    "cards, message",
    [
        (["9S"], "not in the Schnapsen pack"),
        (["XX"], "not in the Schnapsen pack"),
        ([11], "not in the Schnapsen pack"),
        (["AS", "as"], "appears twice"),
        (7, "list of card codes"),
        ({"AS": 1}, "list of card codes"),
    ],
)
def test_card_points_refuse_what_is_not_in_the_20_card_pack(cards, message):
    with pytest.raises(RecordError) as caught:
        card_points(cards)
    assert message in caught.value.message
    assert "cards" in caught.value.fields


def test_marriage_values_S3_164():
    assert (Marriage().points, Marriage(royal=True).points) == (20, 40)


def test_hand_score_next_trick_counts_a_marriage_only_after_a_later_trick_S3_164():
    melds = [Marriage(royal=True, trick_after=True), Marriage(trick_after=False)]
    assert hand_score(30, melds, "next_trick") == 70  # the 20 was never followed by a trick


def test_hand_score_any_trick_counts_every_marriage_once_the_melder_has_a_trick_SC_Q5():
    melds = [Marriage(royal=True, trick_after=True), Marriage(trick_after=False)]
    assert hand_score(30, melds, "any_trick") == 90


def test_hand_score_without_a_trick_is_0_under_both_credits():
    # S3:164: no trick at all, so no marriage ever counts (and no cards were won).
    assert hand_score(0, [Marriage(trick_after=False)], "next_trick") == 0
    assert hand_score(0, [Marriage(trick_after=False)], "any_trick") == 0


@pytest.mark.parametrize(
    "args, field",
    [
        ((30, [Marriage()] * 5, "next_trick"), "marriages"),
        ((30, [Marriage(royal=True), Marriage(royal=True)], "next_trick"), "marriages"),
        ((0, [Marriage(trick_after=True)], "next_trick"), "marriages"),
        ((30, ["K+Q"], "next_trick"), "marriages"),
        ((30, [], "sometimes"), "marriage_credit"),
        ((121, [], "next_trick"), "points"),
        ((-1, [], "next_trick"), "points"),
        ((True, [], "next_trick"), "points"),
    ],
)
def test_hand_score_refuses_impossible_input(args, field):
    with pytest.raises(RecordError) as caught:
        hand_score(*args)
    assert field in caught.value.fields


# -- properties ----------------------------------------------------------------------------------------


@st.composite
def valid_records(draw, cards_only=False):
    """A record the rules accept, of any ending, closed or not (RULES.md 1.4.4 with the sanity checks)."""
    ending = draw(st.sampled_from(["out", "played_out"]))
    closer = draw(st.sampled_from([None, A, B]))
    extra = {}
    if closer is None:
        first = draw(st.integers(0, 10))
        tricks = [first, 10 - first if ending == "played_out" else draw(st.integers(0, 10 - first))]
    else:
        other = 1 - closer
        before = draw(st.integers(0, 4))  # tricks played before the close
        before_other = draw(st.integers(0, before))
        after = 5 if ending == "played_out" else draw(st.integers(0, 5))
        after_other = draw(st.integers(0, after))
        tricks = [0, 0]
        tricks[other] = before_other + after_other
        tricks[closer] = before - before_other + after - after_other
    points = [draw(st.integers(0, 110)) if count else 0 for count in tricks]
    if closer is not None:
        at_points = draw(st.integers(0, points[1 - closer])) if before_other else 0
        at_close = {"points": at_points, "tricks": before_other}
        if cards_only:
            at_close["marriages"] = 20 * draw(st.integers(0, min(5, at_points // 20)))
        extra = {"closed_by": closer, "at_close": at_close}
    with_tricks = [side for side in (A, B) if tricks[side]]
    if not with_tricks:
        return None  # nobody can have declared or taken the last trick: no such hand
    side = draw(st.sampled_from(with_tricks))
    make = out if ending == "out" else played_out
    return make(side, points, tricks, **extra)


def one_side_scores_one_to_three(before, result) -> None:
    assert sorted(result.changes)[0] == 0 and 1 <= max(result.changes) <= 3  # RULES.md 1.4.5


VALID_RECORDS = {tally: valid_records(tally == "cards_only").filter(bool) for tally in ("points", "cards_only")}
FIELD_VALUES = (
    JSON
    | st.sampled_from(["out", "played_out", 0, 1, 66, 10])
    | st.lists(st.integers(-2, 230), min_size=2, max_size=2)
    | st.dictionaries(st.sampled_from(["points", "tricks", "marriages"]), st.integers(-1, 230) | JSON)
)
STRATEGIES = Strategies(
    options={
        "target": st.integers(1, 10),
        "fail_three_measured_at": st.sampled_from(["close", "end"]),
        "close_tally": st.sampled_from(["points", "cards_only"]),
        "marriage_credit": st.sampled_from(["next_trick", "any_trick"]),
    },
    record=lambda state: VALID_RECORDS[state.options["close_tally"]],
    most=12,
    raw=st.dictionaries(st.sampled_from(FIELD_NAMES), FIELD_VALUES, max_size=7),
    states=st.sampled_from(
        [start(), start(close_tally="cards_only", fail_three_measured_at="end"), at((6, 6)), at((7, 0))]
    ),
    taken=one_side_scores_one_to_three,
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_property_exactly_one_side_scores_each_hand_and_the_deal_alternates(match):
    # RULES.md 1.4.5: exactly one player scores per hand, 1 to 3 VP; S3:198 the deal alternates.
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        result = GAME.play(state, record)
        new = result.state
        assert sorted(result.changes)[0] == 0 and 1 <= max(result.changes) <= 3
        assert [old + change for old, change in zip(GAME.scores(state), result.changes)] == GAME.scores(new)
        assert new.dealer == 1 - state.dealer and new.hands == state.hands + 1
        assert {reason.rule for reason in result.reasons} <= PAGE_IDS
        standing = GAME.result(new)
        assert result.game_winner == standing.winner
        if standing.over:  # S3:198: the winner has reached the target, the other has not
            assert GAME.scores(new)[standing.winner] >= options["target"] > GAME.scores(new)[1 - standing.winner]
        state = new


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# The quick form: Ann won a hand worth 1 victory point, the worth the form presets.
COMMONEST = Commonest((choose("Who won the hand?", "Ann"),), taps=2, most=3, board={"victory points": ["1/7", "0/7"]})

COMMON = (
    # A win worth two (schneider).
    Commonest((choose("Who won the hand?", "Bob"), choose("Worth", "2")), taps=3),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_schnapsen_counts():
    # Hand 1: A, two (quick). Hand 2: B, one. Hand 3: A goes out with 70 against B's 20 (schneider): 2.
    # Hand 4: A, three: A reaches 7 and wins the game; B takes the Bummerl.
    records = [
        {"winner": A, "victory_points": 2},
        {"winner": B, "victory_points": 1},
        {"ending": "out", "declarer": A, "points": [70, 20], "tricks": [4, 2]},
        {"winner": A, "victory_points": 3},
    ]
    assert figures("schnapsen", 2, records) == {"victory_points": [7, 1], "bummerl_lost": [0, 1], "hands_won": [3, 1]}
