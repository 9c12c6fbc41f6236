"""Gin Rummy, from worked examples of api/counting.md `gin_rummy` and its rulings 13-16.

The seed gives only the target and card values (S2:104-106); knock, gin, undercut and the bonuses
are standard published Gin Rummy with the api file's defaults. Players: A = 0, B = 1.
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
from .taps import Commonest, choose, type_in

GAME = get_game("gin_rummy")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = pathlib.Path(__file__).parents[2] / "templates" / "rules" / "gin_rummy.html"
PAGE_IDS = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text())) if RULES_PAGE.exists() else set()


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def at(points, boxes=(0, 0), **options):
    """A game in progress: hand points and hands won so far."""
    return start(**options).evolve(points=tuple(points), boxes=tuple(boxes))


def knock(knocker, deadwood):
    return {"outcome": "knock", "knocker": knocker, "deadwood": list(deadwood)}


def gin(knocker, deadwood):
    return {"outcome": "gin", "knocker": knocker, "deadwood": list(deadwood)}


DRAW = {"outcome": "draw"}


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


# -- declarations ------------------------------------------------------------------------------------


def test_declarations_match_the_api():
    described = GAME.describe()
    assert described["players"] == {"min": 2, "max": 2} and described["partnerships"] is False
    options = {fld["name"]: fld for fld in described["options"]}
    assert {name: fld["default"] for name, fld in options.items()} == {
        "first_dealer": 0,
        "target": 100,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "game_bonus": 100,
        "box_bonus": 25,
        "shutout": "double_game_bonus",
        "oklahoma": False,  # Oklahoma Gin, off: every earlier match scores as before
    }
    assert (options["target"]["min"], options["target"]["max"]) == (10, 1000)  # S2:104 default 100
    assert (options["game_bonus"]["min"], options["game_bonus"]["max"]) == (0, 1000)
    assert options["shutout"]["choices"] == ["double_game_bonus", "double_points", "none"]
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["outcome", "knocker", "deadwood", "spade_upcard"]
    assert (fields["spade_upcard"]["type"], fields["spade_upcard"]["default"]) == ("bool", False)
    assert fields["outcome"]["choices"] == ["knock", "gin", "draw"] and fields["outcome"]["required"]
    assert fields["knocker"]["when"] == {"field": "outcome", "values": ["knock", "gin"]}
    assert (fields["deadwood"]["min"], fields["deadwood"]["max"]) == (0, 98)  # ruling 16


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 9}, "target"),
        ({"gin_bonus": 101}, "gin_bonus"),
        ({"shutout": "triple"}, "shutout"),
        ({"big_gin_bonus": 31}, "big_gin_bonus"),  # ruling 15: big gin is not offered
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


def test_new_game():
    state = start(first_dealer=1)
    assert GAME.scores(state) == [0, 0] and state.dealer == B
    assert GAME.public_state(state) == {"points": [0, 0], "boxes": [0, 0]}
    assert GAME.target(state) == 100 and not GAME.result(state).over


# -- a hand (ruling 13) ------------------------------------------------------------------------------


def test_knock_scores_the_difference():
    hand = GAME.play(start(), knock(A, [7, 30]))
    assert hand.changes == [23, 0] and GAME.public_state(hand.state) == {"points": [23, 0], "boxes": [1, 0]}
    assert hand.reasons[0].rule == "knock"


def test_undercut_scores_difference_plus_bonus():
    hand = GAME.play(start(), knock(A, [9, 4]))
    assert hand.changes == [0, 5 + 25] and hand.state.boxes == (0, 1)
    assert hand.reasons[0].rule == "undercut"


def test_equal_deadwood_is_an_undercut_ruling_13():
    hand = GAME.play(start(undercut_bonus=10), knock(B, [6, 6]))
    assert hand.changes == [10, 0] and hand.state.boxes == (1, 0)


def test_gin_scores_the_defenders_deadwood_plus_the_bonus_and_is_never_undercut():
    hand = GAME.play(start(), gin(B, [0, 0]))
    assert hand.changes == [0, 25] and hand.reasons[0].rule == "gin"
    assert GAME.play(start(gin_bonus=20), gin(A, [0, 41])).changes == [61, 0]


def test_draw_scores_nothing_and_the_same_dealer_deals_again():
    hand = GAME.play(start(first_dealer=1), DRAW)
    assert hand.changes == [0, 0] and hand.state.boxes == (0, 0) and hand.state.dealer == B
    assert hand.reasons[0].rule == "draw"


def test_the_deal_alternates_after_a_knock_or_a_gin():
    state = GAME.play(start(), knock(A, [3, 10])).state
    assert state.dealer == B
    assert GAME.play(state, gin(A, [0, 10])).state.dealer == A


@pytest.mark.parametrize(
    "record, field, message",
    [
        (knock(A, [0, 20]), "deadwood", "gin"),  # ruling 13: 0 is a gin
        (knock(B, [20, 11]), "deadwood", "at most 10"),
        (gin(A, [2, 20]), "deadwood", "must be 0"),
        ({"outcome": "knock", "deadwood": [3, 9]}, "knocker", "Who laid down? Nothing was chosen"),
        ({"outcome": "gin", "knocker": 0}, "deadwood", "must be given"),
        ({"outcome": "draw", "knocker": 0}, "knocker", "only given"),
        ({"outcome": "draw", "deadwood": [1, 2]}, "deadwood", "only given"),
        ({"knocker": 0, "deadwood": [1, 2]}, "outcome", "How did the hand end? Nothing was chosen"),
        ({"outcome": "schneider"}, "outcome", "one of"),
        (knock(2, [1, 2]), "knocker", "side"),
        (knock(A, [1, 99]), "deadwood", "at most 98"),
        (knock(A, [1, -1]), "deadwood", "at least 0"),
        (knock(A, [1]), "deadwood", "2 numbers"),
    ],
)
def test_refusals_name_the_field(record, field, message):
    error = refused(start(), record)
    assert field in error.fields and message in error.message


def test_a_knock_with_exactly_10_is_taken():
    assert GAME.play(start(), knock(A, [10, 12])).changes == [2, 0]


# -- the end (rulings 14, 15) ------------------------------------------------------------------------


def test_reaching_the_target_ends_the_game_with_game_and_box_bonuses():
    # A at 90 with 3 hands won, B at 40 with 2: A knocks for 12 -> 102
    hand = GAME.play(at((90, 40), (3, 2)), knock(A, [2, 14]))
    assert GAME.public_state(hand.state) == {"points": [102, 40], "boxes": [4, 2]}
    assert hand.changes == [12 + 100 + 4 * 25, 2 * 25]
    assert GAME.scores(hand.state) == [302, 90]
    assert hand.game_winner == A and GAME.result(hand.state).winner == A
    assert [reason.rule for reason in hand.reasons] == ["knock", "game-end", "bonuses", "bonuses", "bonuses"]


def test_shutout_doubles_the_game_bonus_by_default():
    hand = GAME.play(at((80, 0), (4, 0)), gin(A, [0, 5]))
    assert hand.changes == [30 + 200 + 5 * 25, 0]
    assert GAME.scores(hand.state) == [110 + 200 + 125, 0]
    assert "shutout" in [reason.rule for reason in hand.reasons]


def test_shutout_double_points_doubles_the_winners_hand_points():
    hand = GAME.play(at((80, 0), (4, 0), shutout="double_points"), gin(A, [0, 5]))
    # 110 hand points count twice; game bonus 100 and 5 boxes once
    assert GAME.scores(hand.state) == [220 + 100 + 125, 0]


def test_shutout_none():
    hand = GAME.play(at((80, 0), (4, 0), shutout="none"), gin(A, [0, 5]))
    assert GAME.scores(hand.state) == [110 + 100 + 125, 0]


def test_no_shutout_when_the_loser_won_a_hand_even_with_no_points():
    # B's only hand won was an undercut, and still counts as a box
    hand = GAME.play(at((95, 30), (3, 1)), knock(A, [1, 9]))
    assert GAME.scores(hand.state) == [103 + 100 + 4 * 25, 30 + 25]


def test_all_bonuses_can_be_zero():
    options = {"game_bonus": 0, "box_bonus": 0}
    hand = GAME.play(at((95, 30), (3, 1), **options), knock(A, [3, 3]))
    # an undercut takes B to 30 + 25: no end
    assert not GAME.result(hand.state).over and GAME.scores(hand.state) == [95, 55]
    hand = GAME.play(hand.state, knock(A, [3, 10]))
    assert GAME.scores(hand.state) == [102, 55] and GAME.result(hand.state).winner == A


def test_the_winner_is_who_reached_the_target_even_if_bonuses_put_the_other_ahead_ruling_14():
    hand = GAME.play(at((95, 90), (1, 9), game_bonus=0), knock(A, [1, 6]))
    assert GAME.scores(hand.state) == [100 + 2 * 25, 90 + 9 * 25]
    assert GAME.result(hand.state).winner == A


def test_smaller_target_option():
    hand = GAME.play(start(target=10), knock(B, [20, 5]))
    assert GAME.result(hand.state).winner == B and hand.state.points == (0, 15)


def test_no_hand_after_the_end():
    hand = GAME.play(at((0, 99)), gin(B, [4, 0]))
    assert GAME.result(hand.state).winner == B
    assert "over" in refused(hand.state, DRAW).message


def test_the_deal_alternates_after_the_winning_hand_too():
    hand = GAME.play(at((0, 99)), gin(B, [4, 0]))
    assert GAME.result(hand.state).over and hand.state.dealer == B


# -- Oklahoma Gin: a spade upcard doubles the hand (standard published rules, rules page #oklahoma) ----


def spade(record):
    return {**record, "spade_upcard": True}


def oklahoma(**options):
    return start(oklahoma=True, **options)


def test_oklahoma_a_spade_upcard_doubles_a_knock():
    hand = GAME.play(oklahoma(), spade(knock(A, [7, 30])))
    assert hand.changes == [46, 0] and hand.state.points == (46, 0) and hand.state.boxes == (1, 0)
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("A knocked with 7 against 30: +23", "knock"),
        ("A: the first upcard was a spade, so the hand counts double: +46", "oklahoma"),
    ]


def test_oklahoma_a_spade_upcard_doubles_an_undercut_bonus_and_all():
    hand = GAME.play(oklahoma(), spade(knock(A, [9, 4])))
    assert hand.changes == [0, 2 * (5 + 25)] and hand.state.boxes == (0, 1)
    assert [r.rule for r in hand.reasons] == ["undercut", "oklahoma"]


def test_oklahoma_a_spade_upcard_doubles_a_gin_bonus_and_all():
    hand = GAME.play(oklahoma(gin_bonus=20), spade(gin(B, [21, 0])))
    assert hand.changes == [0, 2 * (21 + 20)] and not GAME.result(hand.state).over


def test_oklahoma_a_draw_with_a_spade_upcard_still_scores_nothing():
    hand = GAME.play(oklahoma(first_dealer=1), spade(DRAW))
    assert hand.changes == [0, 0] and hand.state.boxes == (0, 0) and hand.state.dealer == B
    assert [r.rule for r in hand.reasons] == ["draw"]


@pytest.mark.parametrize("record", [knock(A, [7, 30]), knock(A, [9, 4]), gin(B, [41, 0]), DRAW])
def test_oklahoma_any_other_upcard_scores_as_plain_gin_rummy(record):
    plain = GAME.play(start(), record)
    assert GAME.play(oklahoma(), record).changes == plain.changes
    assert GAME.play(oklahoma(), {**record, "spade_upcard": False}).changes == plain.changes


def test_oklahoma_the_doubled_hand_counts_toward_the_target_but_the_end_bonuses_are_not_doubled():
    hand = GAME.play(at((60, 0), boxes=(2, 1), oklahoma=True), spade(knock(A, [2, 22])))
    assert hand.state.points == (100, 0) and GAME.result(hand.state).winner == A
    assert hand.changes == [40 + 100 + 3 * 25, 25]  # the 40 doubled; game bonus and boxes as ever


@pytest.mark.parametrize("flag", [True, False])
def test_the_spade_upcard_is_refused_without_the_oklahoma_option(flag):
    error = refused(start(), {**knock(A, [7, 30]), "spade_upcard": flag})
    assert "spade_upcard" in error.fields
    assert error.message.startswith("Spade upcard is only given when the option")


@pytest.mark.parametrize("flag", [1, "yes", "true", [True]])
def test_the_spade_upcard_is_a_yes_or_no(flag):
    assert "spade_upcard" in refused(oklahoma(), {**knock(A, [7, 30]), "spade_upcard": flag}).fields


def test_an_edit_that_ticks_the_spade_upcard_doubles_that_hand_only():
    options = GAME.parse_options({"oklahoma": True}, TABLE)
    records = [knock(A, [5, 20]), knock(B, [30, 3])]
    assert replay(GAME, TABLE, options, records).state.points == (15, 27)
    assert replay(GAME, TABLE, options, [spade(records[0]), records[1]]).state.points == (30, 27)


# -- edits -------------------------------------------------------------------------------------------


def test_an_edit_that_ends_the_game_earlier_breaks_a_later_hand():
    options = GAME.parse_options({}, TABLE)
    records = [knock(A, [5, 60]), DRAW, knock(B, [30, 2])]
    assert replay(GAME, TABLE, options, records).state.points == (55, 28)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [gin(A, [0, 90])] + records[1:])
    assert caught.value.number == 2


def test_an_edit_changes_the_end_bonuses():
    options = GAME.parse_options({"target": 50}, TABLE)
    records = [knock(A, [6, 5]), knock(A, [1, 60])]
    first = replay(GAME, TABLE, options, records)
    assert GAME.scores(first.state) == [59 + 100 + 25, 26 + 25]  # B undercut: no shutout
    second = replay(GAME, TABLE, options, [knock(A, [5, 6])] + records[1:])
    assert GAME.scores(second.state) == [60 + 200 + 2 * 25, 0]  # A won every hand: shutout


def test_every_reason_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in GAME.rules} <= PAGE_IDS


# -- properties --------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={
        "target": st.integers(10, 150),
        "shutout": st.sampled_from(["double_game_bonus", "double_points", "none"]),
        "oklahoma": st.booleans(),
    },
    most=10,
    raw=st.fixed_dictionaries(
        {},
        optional={
            "outcome": st.sampled_from(["knock", "gin", "draw"]) | JSON,
            "knocker": st.integers(-1, 2) | JSON,
            "deadwood": st.lists(st.integers(-1, 100), max_size=3) | JSON,
            "spade_upcard": st.booleans() | JSON,
        },
    ),
    states=st.sampled_from([start(), at((99, 99), (5, 5)), at((100, 0), (1, 0))]),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_property_one_player_scores_a_hand_and_the_end_adds_bonuses(match):
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        hand = GAME.play(state, record)
        assert [old + change for old, change in zip(GAME.scores(state), hand.changes)] == GAME.scores(hand.state)
        assert sum(hand.state.boxes) == sum(state.boxes) + (record["outcome"] != "draw")
        assert hand.state.dealer == (state.dealer if record["outcome"] == "draw" else 1 - state.dealer)
        standing = GAME.result(hand.state)
        if standing.over:
            assert hand.state.points[standing.winner] >= options["target"] > hand.state.points[1 - standing.winner]
        else:
            assert GAME.scores(hand.state) == list(hand.state.points)
        assert {reason.rule for reason in hand.reasons} <= PAGE_IDS
        state = hand.state


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann knocks (who and how in one tap) with 5 deadwood against Bob's 20: Ann +15.
COMMONEST = Commonest(
    (choose("How did the hand end?", "Ann: knock"), type_in("Deadwood", "Ann", 5), type_in("Deadwood", "Bob", 20)),
    taps=4,
    most=4,
    typed=2,
    board={"points": ["15/100", "0/100"]},
)

COMMON = (
    # A gin; a drawn hand.
    Commonest((choose("How did the hand end?", "Bob: gin"), type_in("Deadwood", "Ann", 23)), taps=3, typed=1),
    Commonest((choose("How did the hand end?", "Draw"),), taps=2),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_gin_rummy_counts():
    # 1: A gin against 30: 55. 2: A knocks 5 against 20: 15. 3: a draw. 4: A gin against 40: 65, A reaches
    # 135 and wins; B won no hand: a shutout.
    records = [
        {"outcome": "gin", "knocker": A, "deadwood": [0, 30]},
        {"outcome": "knock", "knocker": A, "deadwood": [5, 20]},
        {"outcome": "draw"},
        {"outcome": "gin", "knocker": A, "deadwood": [0, 40]},
    ]
    assert figures("gin_rummy", 2, records) == {"boxes": [3, 0], "shutouts": [1, 0]}
    # B undercuts A's knock (8 against 5): 3 + 25, a box for B; A's gin against 90 then wins: no shutout.
    records = [
        {"outcome": "knock", "knocker": A, "deadwood": [8, 5]},
        {"outcome": "gin", "knocker": A, "deadwood": [0, 90]},
    ]
    assert figures("gin_rummy", 2, records) == {"boxes": [1, 1], "shutouts": [0, 0]}
