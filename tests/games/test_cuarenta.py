"""Cuarenta, from worked examples of api/counting.md `cuarenta` (seed S2:18-82) and its rulings 1-9.

Sides: A = 0, B = 1 (seats 0 and 2 against 1 and 3 with four players, S2:82). The first dealer is
seat 0 (side A) unless a test says otherwise, so the non-dealer side of round 1 is B.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.cuarenta import carton_points
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, choose, type_in

GAME = get_game("cuarenta")
A, B = 0, 1
TWO, FOUR = GAME.table(2), GAME.table(4)
RULES_PAGE = pathlib.Path(__file__).parents[2] / "templates" / "rules" / "cuarenta.html"
PAGE_IDS = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text())) if RULES_PAGE.exists() else set()


def start(table=TWO, **options):
    return GAME.new_state(table, GAME.parse_options(options, table))


def at(points, table=TWO, **options):
    """A game in progress at the given points."""
    return start(table, **options).evolve(points=tuple(points))


def ev(side, kind):
    return {"side": side, "type": kind}


def round_(events=(), cards=None):
    record = {"events": list(events)}
    if cards is not None:
        record["cards"] = list(cards)
    return record


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


# -- players, sides, declarations --------------------------------------------------------------------


def test_two_or_four_players_three_refused_ruling_8():
    assert TWO.sides == 2 and FOUR.seats_of(A) == [0, 2] and FOUR.seats_of(B) == [1, 3]  # S2:82
    for players in (1, 3, 5):
        with pytest.raises(RecordError) as caught:
            GAME.table(players)
        assert "players" in caught.value.fields


def test_declarations_match_the_api():
    described = GAME.describe()
    assert described["players"] == {"min": 2, "max": 4} and described["partnerships"] is True
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "carton_rule", "ronda_by"]
    assert options["carton_rule"]["choices"] == ["seed", "ecuador"] and options["carton_rule"]["default"] == "seed"
    assert options["ronda_by"]["choices"] == ["rank", "suit"] and options["ronda_by"]["default"] == "rank"
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["events", "cards"]
    assert fields["events"]["type"] == "events" and fields["events"]["default"] == []
    assert fields["events"]["types"] == ["ronda", "caida", "limpia", "caida_limpia", "ronda_capture", "four_of_a_kind"]
    assert fields["cards"]["type"] == "per_side" and (fields["cards"]["min"], fields["cards"]["max"]) == (0, 40)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"carton_rule": "peru"}, "carton_rule"),
        ({"ronda_by": "colour"}, "ronda_by"),
        ({"target": 30}, "target"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TWO)
    assert field in caught.value.fields


def test_new_game():
    state = start(FOUR, first_dealer=3)
    assert GAME.scores(state) == [0, 0] and state.dealer == 3
    assert GAME.public_state(state) == {"limpia_open": [True, True]}
    assert GAME.target(state) == 40 and not GAME.result(state).over


# -- the events (S2:38-50) ---------------------------------------------------------------------------


def test_each_event_scores_its_points():
    record = round_([ev(A, "ronda"), ev(B, "caida"), ev(A, "limpia"), ev(B, "caida_limpia")], [10, 10])
    hand = GAME.play(start(), record)
    # A: ronda 4 + limpia 2 = 6; B: caida 2 + caida_limpia 4 = 6; cards 10-10: nothing (S2:53)
    assert hand.changes == [6, 6]
    assert [reason.rule for reason in hand.reasons] == ["ronda", "caida", "limpia", "caida-limpia", "carton"]


def test_ronda_capture_scores_ten_after_an_opposing_ronda_S2_46():
    hand = GAME.play(start(), round_([ev(A, "ronda"), ev(B, "ronda_capture")], [12, 12]))
    assert hand.changes == [4, 10]


@pytest.mark.parametrize(
    "events",
    [
        [ev(B, "ronda_capture")],  # no ronda at all
        [ev(B, "ronda"), ev(B, "ronda_capture")],  # its own ronda
        [ev(B, "ronda_capture"), ev(A, "ronda")],  # the ronda comes after
        [ev(A, "ronda"), ev(B, "ronda_capture"), ev(B, "ronda_capture")],  # at most one capture per ronda
    ],
)
def test_ronda_capture_needs_an_uncaptured_opposing_ronda_before_it_ruling_4(events):
    error = refused(start(), round_(events, [10, 10]))
    assert error.fields.keys() == {"events"} and "ronda capture" in error.message


def test_two_rondas_can_be_captured_twice():
    events = [ev(A, "ronda"), ev(A, "ronda"), ev(B, "ronda_capture"), ev(B, "ronda_capture")]
    assert GAME.play(start(), round_(events, [10, 10])).changes == [8, 20]


def test_limpia_at_38_scores_nothing_but_is_taken_ruling_2():
    hand = GAME.play(at((38, 0)), round_([ev(A, "limpia")], [10, 10]))
    assert hand.changes == [0, 0]
    assert "nothing" in str(hand.reasons[0]) and hand.reasons[0].rule == "limpia"


def test_limpia_at_37_still_scores_S2_50():
    state = at((37, 0))
    assert GAME.public_state(state) == {"limpia_open": [True, True]}
    hand = GAME.play(state, round_([ev(A, "limpia")], [10, 10]))
    assert hand.changes == [2, 0] and GAME.scores(hand.state) == [39, 0]
    assert not GAME.result(hand.state).over


def test_limpia_open_closes_at_38():
    assert GAME.public_state(at((38, 37)))["limpia_open"] == [False, True]


def test_limpia_judged_on_the_points_just_before_it_ruling_1():
    # A at 34: a caida to 36, another to 38, then the limpia is worth 0.
    hand = GAME.play(at((34, 0)), round_([ev(A, "caida"), ev(A, "caida"), ev(A, "limpia")], [8, 8]))
    assert hand.changes == [4 + 0, 0] and GAME.scores(hand.state) == [38, 0]


@pytest.mark.parametrize("before, scored", [(35, 4), (36, 4), (37, 4), (38, 2), (39, 2)])
def test_caida_limpia_judged_on_the_points_before_it_ruling_3(before, scored):
    wins = before + scored >= 40
    hand = GAME.play(at((before, 0)), round_([ev(A, "caida_limpia")], None if wins else [10, 10]))
    assert hand.changes == [scored, 0]
    assert GAME.result(hand.state).winner == (A if wins else None)


# -- winning during the round (S2:34, S2:36) ---------------------------------------------------------


def test_reaching_40_during_the_round_wins_at_once_and_no_cards_are_counted():
    hand = GAME.play(at((36, 30)), round_([ev(B, "caida"), ev(A, "ronda")]))
    assert hand.changes == [4, 2] and GAME.scores(hand.state) == [40, 32]
    assert hand.game_winner == A and GAME.result(hand.state).winner == A
    assert hand.reasons[-1].rule == "end" and "reaches 40" in str(hand.reasons[-1])


def test_caida_limpia_from_36_reaches_40_and_wins_ruling_3():
    hand = GAME.play(at((36, 0)), round_([ev(A, "caida_limpia")]))
    assert GAME.scores(hand.state) == [40, 0] and GAME.result(hand.state).winner == A


def test_the_score_passes_40_and_is_not_capped_ruling_6():
    hand = GAME.play(at((30, 36), FOUR), round_([ev(A, "ronda"), ev(B, "ronda_capture")]))
    assert GAME.scores(hand.state) == [34, 46] and GAME.result(hand.state).winner == B


def test_no_event_after_the_winning_one():
    error = refused(at((38, 0)), round_([ev(A, "caida"), ev(B, "caida")]))
    assert error.fields.keys() == {"events"} and "entry 2" in error.message


def test_cards_refused_when_the_game_was_won_during_the_round():
    error = refused(at((38, 0)), round_([ev(A, "caida")], [20, 20]))
    assert error.fields.keys() == {"cards"}


def test_four_of_a_kind_wins_at_once_and_leaves_the_points_ruling_5():
    hand = GAME.play(at((10, 39)), round_([ev(A, "four_of_a_kind")]))
    assert hand.changes == [0, 0] and GAME.scores(hand.state) == [10, 39]
    assert GAME.result(hand.state).winner == A
    assert [reason.rule for reason in hand.reasons] == ["four-of-a-kind", "end"]
    assert "four of a kind" in str(hand.reasons[-1])


def test_four_of_a_kind_after_other_events_keeps_their_points():
    hand = GAME.play(start(), round_([ev(B, "ronda"), ev(B, "four_of_a_kind")]))
    assert hand.changes == [0, 4] and GAME.result(hand.state).winner == B
    assert "events" in refused(start(), round_([ev(B, "four_of_a_kind"), ev(A, "caida")])).fields


def test_no_round_after_the_end():
    hand = GAME.play(start(), round_([ev(A, "four_of_a_kind")]))
    assert "over" in refused(hand.state, round_([], [10, 10])).message


# -- limits (ruling 8) -------------------------------------------------------------------------------


def test_at_most_four_rondas_a_side():
    assert GAME.play(start(), round_([ev(A, "ronda")] * 4, [10, 10])).changes == [16, 0]
    error = refused(start(), round_([ev(A, "ronda")] * 5, [10, 10]))
    assert error.fields.keys() == {"events"} and "rondas" in error.message


def test_at_most_twenty_scoring_plays_a_side():
    plays = [ev(A, "limpia")] * 19  # 38 points after 19 limpias; the next is worth 0
    assert GAME.play(start(), round_(plays + [ev(A, "limpia")], [20, 10])).changes == [38 + 6, 0]
    error = refused(start(), round_([ev(B, "limpia")] * 21, [0, 0]))
    assert error.fields.keys() == {"events"} and "20" in error.message


def test_the_longest_possible_record_is_taken_and_one_more_entry_is_refused():
    # 4 rondas and 20 plays a side, then a four of a kind: 49 entries, the most the limits allow
    longest = [ev(side, "ronda") for side in (A, B) for _ in range(4)] + [
        ev(side, "limpia") for side in (A, B) for _ in range(20)
    ]
    state = at((0, 0))
    assert GAME.describe()["hand_fields"][0]["max_length"] == 49
    # each side: 16 for the rondas, then limpias up to 38 and nothing after (S2:50)
    assert GAME.play(state, round_(longest + [ev(A, "four_of_a_kind")])).changes == [38, 38]
    assert "events" in refused(state, round_(longest + [ev(A, "four_of_a_kind")] * 2)).fields


def test_limpia_line_on_the_board_while_the_game_goes_on():
    assert "No limpia for A (38 or more)" in GAME.board(at((38, 0))).lines
    assert not any("limpia" in line for line in GAME.board(at((40, 0)).evolve(winner=A)).lines)


def test_cards_required_after_a_full_round_and_at_most_40():
    assert refused(start(), round_([ev(A, "caida")])).fields.keys() == {"cards"}
    assert "40" in refused(start(), round_([], [21, 20])).message


@pytest.mark.parametrize(
    "record, field",
    [
        ({"events": "ronda", "cards": [10, 10]}, "events"),
        ({"events": [{"side": 0}], "cards": [10, 10]}, "events"),
        ({"events": [{"side": 0, "type": "ronda", "x": 1}], "cards": [10, 10]}, "events"),
        ({"events": [{"side": 2, "type": "ronda"}], "cards": [10, 10]}, "events"),
        ({"events": [{"side": 0, "type": "escoba"}], "cards": [10, 10]}, "events"),
        ({"events": [], "cards": [41, 0]}, "cards"),
        ({"events": [], "cards": [10]}, "cards"),
        ({"events": [], "cards": [10, 10], "limpias": 2}, "limpias"),
    ],
)
def test_malformed_records_are_refused_naming_the_field(record, field):
    assert field in refused(start(), record).fields


def test_events_may_be_left_out():
    assert GAME.play(start(), {"cards": [24, 10]}).changes == [8, 0]


# -- the card count (S2:52-53, ruling 7) ------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, seed, ecuador",
    [
        (19, 0, 0),
        (20, 6, 6),
        (21, 6, 8),
        (22, 7, 8),
        (23, 7, 10),
        (24, 8, 10),
        (30, 11, 16),
        (39, 15, 26),
        (40, 16, 26),
    ],
)
def test_carton_figures_under_both_rules(cards, seed, ecuador):
    assert carton_points(cards, "seed") == seed and carton_points(cards, "ecuador") == ecuador


def test_one_side_with_20_or_more_scores_the_carton():
    assert GAME.play(start(), round_([], [15, 25])).changes == [0, 8]
    assert GAME.play(start(carton_rule="ecuador"), round_([], [15, 25])).changes == [0, 12]


def test_both_at_20_the_non_dealer_side_scores_6():
    assert GAME.play(start(), round_([], [20, 20])).changes == [0, 6]  # seat 0 (A) dealt
    assert GAME.play(start(first_dealer=1), round_([], [20, 20])).changes == [6, 0]
    # four players: seat 2 is on side A, so B does not deal
    assert GAME.play(start(FOUR, first_dealer=2, carton_rule="ecuador"), round_([], [20, 20])).changes == [0, 6]


def test_neither_at_20_more_cards_scores_2_equal_nothing():
    assert GAME.play(start(), round_([], [19, 17])).changes == [2, 0]
    assert GAME.play(start(carton_rule="ecuador"), round_([], [12, 18])).changes == [0, 2]
    assert GAME.play(start(), round_([], [18, 18])).changes == [0, 0]
    assert GAME.play(start(), round_([], [0, 0])).changes == [0, 0]


def test_the_card_count_can_win_the_game():
    hand = GAME.play(at((35, 38)), round_([ev(B, "limpia")], [22, 18]))
    assert hand.changes == [7, 0] and GAME.scores(hand.state) == [42, 38]
    assert GAME.result(hand.state).winner == A and hand.reasons[-1].rule == "end"


def test_ronda_by_suit_changes_no_figure_ruling_9():
    record = round_([ev(A, "ronda"), ev(B, "ronda_capture")], [22, 14])
    assert GAME.play(start(ronda_by="suit"), record).changes == GAME.play(start(), record).changes == [11, 10]
    assert "Ronda: three of a suit" in GAME.board(start(ronda_by="suit")).lines


# -- the deal (S2:31, ruling 6) ----------------------------------------------------------------------


def test_the_deal_passes_to_the_next_seat_every_round_also_after_the_end():
    state = start(FOUR, first_dealer=2)
    dealers = []
    for _ in range(3):
        state = GAME.play(state, round_([], [10, 10])).state
        dealers.append(state.dealer)
    assert dealers == [3, 0, 1]
    assert GAME.play(state, round_([ev(A, "four_of_a_kind")])).state.dealer == 2
    assert GAME.play(start(), round_([], [10, 10])).state.dealer == 1  # two players alternate


def test_a_match_with_several_rounds():
    state = start()
    state = GAME.play(state, round_([ev(A, "ronda"), ev(B, "caida")], [24, 16])).state  # A 4 + 8, B 2
    state = GAME.play(state, round_([ev(B, "caida"), ev(B, "limpia")], [20, 20])).state  # B 2 + 2
    # round 2 was dealt by B, so A (the non-dealer side) takes the 6 for 20-20
    assert GAME.scores(state) == [18, 6]


# -- edits -------------------------------------------------------------------------------------------


def test_an_edit_that_moves_a_side_past_38_changes_a_later_limpia_ruling_2():
    options = GAME.parse_options({}, TWO)
    records = [round_([], [30, 10]), round_([ev(A, "limpia")], [10, 10])]
    assert replay(GAME, TWO, options, records).state.points == (13, 0)
    edited = [round_([ev(A, "ronda")] * 4 + [ev(A, "caida")] * 11, [0, 30])] + records[1:]  # A 38, B 11
    assert replay(GAME, TWO, options, edited).state.points == (38, 11)


def test_an_edit_that_wins_the_game_earlier_breaks_a_later_round():
    options = GAME.parse_options({}, TWO)
    records = [round_([], [10, 10]), round_([], [10, 10])]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TWO, options, [round_([ev(B, "four_of_a_kind")])] + records[1:])
    assert caught.value.number == 2


def test_an_edit_can_make_later_events_follow_a_win():
    options = GAME.parse_options({}, TWO)
    later = round_([ev(A, "caida"), ev(A, "caida"), ev(B, "caida")], [10, 10])
    records = [round_([ev(A, "ronda")] * 3 + [ev(A, "caida")] * 10, [0, 30]), later]  # A 32, then 36
    assert replay(GAME, TWO, options, records).state.points == (36, 13)
    edited = [round_([ev(A, "ronda")] * 4 + [ev(A, "caida")] * 10, [0, 30]), later]  # A 36: 40 at the 2nd caida
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TWO, options, edited)
    assert caught.value.number == 2 and "events" in caught.value.fields


def test_every_reason_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in GAME.rules} <= PAGE_IDS


# -- properties --------------------------------------------------------------------------------------

EVENT = st.fixed_dictionaries(
    {
        "side": st.integers(-1, 2) | JSON,
        "type": st.sampled_from(["ronda", "caida", "limpia", "caida_limpia", "ronda_capture", "four_of_a_kind", "x"])
        | JSON,
    }
)
STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={"carton_rule": st.sampled_from(["seed", "ecuador"])},
    most=10,
    raw=st.fixed_dictionaries(
        {},
        optional={
            "events": st.lists(EVENT, max_size=6) | JSON,
            "cards": st.lists(st.integers(-1, 41), max_size=3) | JSON,
        },
    ),
    states=st.sampled_from([start(), at((36, 37)), at((40, 0)).evolve(winner=A)]),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_property_a_game_ends_at_40_or_by_four_of_a_kind(match):
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        hand = GAME.play(state, record)
        assert [old + change for old, change in zip(GAME.scores(state), hand.changes)] == GAME.scores(hand.state)
        assert hand.state.dealer == (state.dealer + 1) % table.players
        standing = GAME.result(hand.state)
        assert standing.over == (hand.game_winner is not None)
        if standing.over:
            by_four = any(event["type"] == "four_of_a_kind" for event in record["events"])
            assert by_four or GAME.scores(hand.state)[standing.winner] >= 40
            assert GAME.scores(hand.state)[1 - standing.winner] < 40
        assert {reason.rule for reason in hand.reasons} <= PAGE_IDS
        state = hand.state


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# One caída for Ann (a tap adds it), and the cards each side captured: 2, and 7 for 22 cards (S2:52).
COMMONEST = Commonest(
    (choose("What scored", "Ann", "Caída"), type_in("Cards captured", "Ann", 22), type_in("Cards captured", "Bob", 18)),
    taps=4,
    most=4,
    typed=2,
    board={"points": ["9/40", "0/40"]},
)

COMMON = (
    # A ronda and a limpia, one for each side.
    Commonest(
        (
            type_in("Cards captured", "Ann", 18),
            type_in("Cards captured", "Bob", 22),
            choose("What scored", "Ann", "Ronda"),
            choose("What scored", "Bob", "Limpia"),
        ),
        taps=5,
        typed=2,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_cuarenta_counts():
    # 1: A's ronda 4, B's caida 2; A 24 cards: carton 6 + 2 = 8 (A 12, B 2).
    # 2: A dealt four of a kind: A wins at once, on 12, in 2 rounds.
    records = [
        {"events": [{"side": A, "type": "ronda"}, {"side": B, "type": "caida"}], "cards": [24, 16]},
        {"events": [{"side": A, "type": "four_of_a_kind"}]},
    ]
    assert figures("cuarenta", 2, records) == {"fewest_rounds": [2, None], "four_of_a_kind": [1, 0]}
    # A game to 40 on cartons: A's 40 cards score 6 + 10 = 16 a round; the third round takes A to 48.
    assert figures("cuarenta", 2, [{"cards": [40, 0]}] * 3) == {"fewest_rounds": [3, None], "four_of_a_kind": [0, 0]}
