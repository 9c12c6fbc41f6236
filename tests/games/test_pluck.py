"""Pluck: worked examples of api/tally.md `pluck` (seed S4:105-132), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.pluck import Rule
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, type_in

GAME = get_game("pluck")
TABLE = GAME.table(3)
A, B, C = range(3)
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "pluck.html"


def tricks(*taken: int) -> dict:
    return {"tricks": list(taken)}


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


# -- declarations --------------------------------------------------------------------------------


def test_declaration_matches_the_contract():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == ("pluck", {"min": 3, "max": 3}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "target", "tie_at_end"]
    assert (options["target"]["default"], options["target"]["min"], options["target"]["max"]) == (20, 1, 100)
    assert (options["tie_at_end"]["default"], options["tie_at_end"]["choices"]) == ("play_on", ["play_on", "shared"])
    field, revoke = described["hand_fields"]
    assert (field["name"], field["type"]) == ("tricks", "per_side")
    assert (field["min"], field["max"], field["total"]) == (0, 17, 17)
    # the revoke ruling's own field: optional, nobody by default, so every earlier record scores as before
    assert (revoke["name"], revoke["type"], revoke["default"], revoke["nullable"]) == ("revoked_by", "side", None, True)


@pytest.mark.parametrize("players", [2, 4])
def test_three_players_only(players):
    with pytest.raises(RecordError, match="3 players"):
        GAME.table(players)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "target"),
        ({"target": 101}, "target"),
        ({"tie_at_end": "draw"}, "tie_at_end"),
        ({"first_dealer": 3}, "first_dealer"),
        ({"quota": 7}, "quota"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


@pytest.mark.parametrize("first_dealer, quotas", [(0, [7, 6, 4]), (1, [4, 7, 6]), (2, [6, 4, 7])])
def test_quotas_follow_the_first_dealer(first_dealer, quotas):
    # S4:117-119: the dealer 7, the dealer's left 6, the dealer's right 4 (tally.md's table)
    state = start(first_dealer=first_dealer)
    assert GAME.public_state(state) == {"quotas": quotas, "plucks": [0, 0, 0], "winners": []}
    assert GAME.scores(state) == [0, 0, 0] and state.dealer == first_dealer


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "tricks"),
        (tricks(7, 10), "tricks"),
        (tricks(7, 6, 4, 0), "tricks"),
        (tricks(7, 6, 3), "tricks"),  # 16: a trick is missing
        (tricks(8, 6, 4), "tricks"),  # 18
        (tricks(18, -1, 0), "tricks"),
        (tricks(7, 6.5, 3.5), "tricks"),
        ({"tricks": "7 6 4"}, "tricks"),
        ({**tricks(7, 6, 4), "dealer": 0}, "dealer"),  # ruling 4: the app keeps the deal
        ({**tricks(7, 6, 4), "plucks": [0, 0, 0]}, "plucks"),
    ],
)
def test_bad_records_are_refused_naming_the_field(record, field):
    assert field in refused(start(), record).fields


@pytest.mark.parametrize("who", [3, -1, "B", 1.0, True, [1]])
def test_a_revoker_who_is_not_a_player_is_refused(who):
    assert "revoked_by" in refused(start(), {**tricks(7, 6, 4), "revoked_by": who}).fields


def test_a_total_other_than_seventeen_says_so():
    assert refused(start(), tricks(7, 6, 3)).message == "The tricks add up to 16; a deal has 17."


# -- scoring (S4:126) ------------------------------------------------------------------------------


def test_tricks_over_the_quota_score_one_each():
    # first dealer A: quotas 7, 6, 4; A took 9 (+2), B 5 (nothing), C 3 (nothing)
    hand = GAME.play(start(), tricks(9, 5, 3))
    assert hand.changes == [2, 0, 0] and GAME.scores(hand.state) == [2, 0, 0]
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("A: 9 tricks on a quota of 7: +2 points", "scoring"),
        ("B: 5 tricks on a quota of 6: nothing", "scoring"),
        ("C: 3 tricks on a quota of 4: nothing", "scoring"),
        ("Next hand: A plucks B once, A plucks C once", "plucks"),
    ]


def test_under_the_quota_is_never_negative():
    assert GAME.play(start(), tricks(0, 0, 17)).changes == [0, 0, 13]


def test_exactly_the_quotas_score_nothing_and_nobody_plucks():
    hand = GAME.play(start(), tricks(7, 6, 4))
    assert hand.changes == [0, 0, 0]
    assert GAME.public_state(hand.state)["plucks"] == [0, 0, 0]
    assert str(hand.reasons[-1]) == "Everybody made the quota exactly: no plucks next hand"


def test_the_quotas_move_with_the_deal():
    # hand 1 dealt by A (7, 6, 4); hand 2 by B (4, 7, 6): the same tricks score differently
    state, first = play_all(start(), [tricks(4, 7, 6)])
    assert first.changes == [0, 1, 2]
    assert GAME.public_state(state)["quotas"] == [4, 7, 6]
    second = GAME.play(state, tricks(4, 7, 6))
    assert second.changes == [0, 0, 0]


# -- a revoke (not in the seed: Whist's penalty, rules page #revoke) ----------------------------------


def test_a_revoke_gives_each_other_player_three_points():
    # A dealt: quotas 7, 6, 4; A +2 for 9 tricks; B revoked, so A and C score 3 more each
    hand = GAME.play(start(), {**tricks(9, 5, 3), "revoked_by": B})
    assert hand.changes == [5, 0, 3] and GAME.scores(hand.state) == [5, 0, 3]
    assert [(str(r), r.rule) for r in hand.reasons[3:]] == [
        ("B revoked: A and C +3 each", "revoke"),
        ("Next hand: A plucks B once, A plucks C once", "plucks"),
    ]


def test_a_revoke_leaves_the_tricks_and_so_the_plucks_as_they_fell():
    plain = GAME.play(start(), tricks(9, 5, 3))
    revoked = GAME.play(start(), {**tricks(9, 5, 3), "revoked_by": A})
    assert revoked.changes == [2, 3, 3]
    assert revoked.state.plucks == plain.state.plucks == (2, -1, -1)


def test_nobody_revoked_scores_as_a_record_without_the_field():
    assert GAME.play(start(), {**tricks(9, 5, 3), "revoked_by": None}).changes == [2, 0, 0]


def test_a_revoke_can_carry_the_others_to_the_target():
    state, hand = play_all(start(target=3), [{**tricks(7, 6, 4), "revoked_by": A}])
    assert GAME.scores(state) == [0, 3, 3]
    assert GAME.result(state) == Result(False, None, "B and C tie on 3 points")  # play on: the tie rule


# -- plucks (S4:129, ruling 5) ---------------------------------------------------------------------


def test_plucks_are_each_seats_tricks_minus_quota():
    state, hand = play_all(start(), [tricks(9, 5, 3)])
    assert GAME.public_state(state)["plucks"] == [2, -1, -1]
    state, hand = play_all(state, [tricks(3, 8, 6)])  # dealer B: quotas 4, 7, 6
    assert GAME.public_state(state)["plucks"] == [-1, 1, 0]
    assert str(hand.reasons[-1]) == "Next hand: B plucks A once"


def test_two_players_over_each_pluck_the_one_short():
    # quotas 7, 6, 4: A +1, B +2, C three short: A plucks C once, B plucks C twice
    hand = GAME.play(start(), tricks(8, 8, 1))
    assert GAME.public_state(hand.state)["plucks"] == [1, 2, -3]
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("Next hand: A plucks C once, B plucks C twice", "plucks")


def test_plucks_score_nothing():
    state, _ = play_all(start(), [tricks(12, 5, 0)])
    assert GAME.public_state(state)["plucks"] == [5, -1, -4]
    assert GAME.scores(state) == [5, 0, 0]


# -- the deal (S4:127) -----------------------------------------------------------------------------


def test_the_deal_passes_left_after_every_hand_the_last_included():
    state, _ = play_all(start(first_dealer=2, target=1), [tricks(4, 7, 6)])  # quotas 6, 4, 7: B +3
    assert GAME.result(state).winner == B
    assert state.dealer == 0 and GAME.public_state(state)["quotas"] == [7, 6, 4]


# -- the end (S4:132, ruling 6) ----------------------------------------------------------------------


def test_reaching_the_target_ends_the_match():
    state, hand = play_all(start(target=5), [tricks(11, 3, 3)])  # A +4
    assert not GAME.result(state).over
    state, hand = play_all(state, [tricks(0, 9, 8)])  # dealer B: quotas 4, 7, 6: B +2, C +2
    assert GAME.scores(state) == [4, 2, 2] and not GAME.result(state).over
    state, hand = play_all(state, [tricks(9, 4, 4)])  # dealer C: quotas 6, 4, 7: A +3
    assert GAME.scores(state) == [7, 2, 2]
    assert GAME.result(state) == Result(True, A, "A wins with 7 points", winners=(A,))
    assert GAME.public_state(state)["winners"] == [A]
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("A wins with 7 points", "end")


def test_the_highest_wins_when_two_pass_the_target_together():
    # tally.md (PROPOSED): both on or past the target in one hand: the higher score wins
    state, hand = play_all(start(target=2), [tricks(9, 0, 8)])  # quotas 7, 6, 4: A +2, C +4
    assert GAME.scores(state) == [2, 0, 4]
    assert GAME.result(state).winner == C and GAME.public_state(state)["winners"] == [C]


def test_equal_highest_play_on_by_default():
    state, hand = play_all(start(target=2), [tricks(9, 2, 6)])  # A +2, C +2
    assert GAME.scores(state) == [2, 0, 2]
    assert GAME.result(state) == Result(False, None, "A and C tie on 2 points")
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("A and C tie on 2 points: one more hand", "ties")
    # every player plays the next hand, and the same check follows
    state, hand = play_all(state, [tricks(4, 8, 5)])  # dealer B: quotas 4, 7, 6: B +1
    assert GAME.scores(state) == [2, 1, 2] and not GAME.result(state).over
    state, hand = play_all(state, [tricks(7, 4, 6)])  # dealer C: quotas 6, 4, 7: A +1
    assert GAME.result(state).winner == A and GAME.public_state(state)["winners"] == [A]


def test_equal_highest_share_the_win_with_shared():
    state, hand = play_all(start(target=2, tie_at_end="shared"), [tricks(9, 2, 6)])
    assert GAME.result(state) == Result(True, None, "A and C share the win on 2 points", winners=(A, C))
    assert GAME.public_state(state)["winners"] == [A, C]
    assert hand.reasons[-1].rule == "ties"


def test_no_hand_after_the_end():
    state, _ = play_all(start(target=1), [tricks(8, 5, 4)])
    assert "over" in refused(state, tricks(7, 6, 4)).message


def test_the_board_shows_quotas_and_plucks():
    state, _ = play_all(start(), [tricks(9, 5, 3)])  # next dealer B
    board = GAME.board(state)
    assert [side.lines for side in board.sides] == [
        ("Quota 4", "Plucks 2"),
        ("Quota 7", "Plucked 1"),
        ("Quota 6", "Plucked 1"),
    ]
    assert board.turn == (("Deals", 1),) and board.sides[0].target == 20 and not board.lower_is_better


# -- edits through replay ----------------------------------------------------------------------------


def test_an_edit_that_ends_the_match_earlier_breaks_a_later_hand():
    options = start(target=3).options
    records = [tricks(9, 5, 3), tricks(4, 7, 6)]
    assert GAME.scores(replay(GAME, TABLE, options, records).state) == [2, 0, 0]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [tricks(10, 4, 3), tricks(4, 7, 6)])
    assert caught.value.number == 2


def test_an_edit_moves_the_quotas_of_nothing_later():
    # quotas come from the deal, which passes whatever was scored: an edit changes only its hand
    options = start().options
    before = replay(GAME, TABLE, options, [tricks(9, 5, 3), tricks(4, 7, 6)])
    after = replay(GAME, TABLE, options, [tricks(7, 6, 4), tricks(4, 7, 6)])
    assert before.results[1].changes == after.results[1].changes == [0, 0, 0]


def test_every_reason_links_to_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text()))
    assert {rule.value for rule in Rule} <= ids


# -- properties --------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={"target": st.integers(1, 25), "tie_at_end": st.sampled_from(["shared", "play_on"])},
    most=10,
    raw=st.fixed_dictionaries(
        {"tricks": st.lists(JSON, max_size=4)}, optional={"revoked_by": st.integers(-1, 3) | st.none() | JSON}
    ),
)


@FAST
@given(matches(GAME, STRATEGIES, least=1))
def test_plucks_add_up_to_nothing(match):
    options, records = match.options, match.records
    done = replay(GAME, *match)
    public = GAME.public_state(done.state)
    assert sum(public["plucks"]) == 0 and sorted(public["quotas"]) == [4, 6, 7]
    assert done.state.dealer == (options["first_dealer"] + len(records)) % 3
    for result in done.results:
        assert all(change >= 0 for change in result.changes)


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann takes 7 tricks and Bob 6 (Cy's 4 follow).
COMMONEST = Commonest(
    (
        type_in("How many tricks did each player take?", "Ann", 7),
        type_in("How many tricks did each player take?", "Bob", 6),
    ),
    taps=3,
    typed=2,
)

COMMON = (
    Commonest(
        (
            type_in("How many tricks did each player take?", "Bob", 8),
            type_in("How many tricks did each player take?", "Cy", 5),
        ),
        taps=3,
        typed=2,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_pluck_counts():
    # Quotas: the dealer 7, the left 6, the right 4; the deal passes left (Ann, Bo, Cy, Ann).
    # 1 (Ann deals, 7/6/4): 9, 4, 4: Ann +2, Bo 2 short, Cy on quota.
    # 2 (Bo deals, Ann 4, Bo 7, Cy 6): 10, 2, 5: Ann +6, Bo 5 short, Cy 1 short.
    # 3 (Cy deals, Ann 6, Bo 4, Cy 7): 17, 0, 0: Ann +11, Bo 4 short, Cy 7 short.
    # 4 (Ann deals, 7/6/4): 17, 0, 0: Ann +10, 29: she wins. Bo 6 short, Cy 4 short.
    # Quotas made: Ann 4, Bo 0, Cy 1. Tricks short: Bo 2 + 5 + 4 + 6 = 17, Cy 1 + 7 + 4 = 12.
    records = [{"tricks": t} for t in ([9, 4, 4], [10, 2, 5], [17, 0, 0], [17, 0, 0])]
    assert figures("pluck", 3, records) == {"quotas_made": [4, 0, 1], "tricks_short": [0, 17, 12]}
