"""Chicago: worked examples of api/tally.md `chicago` (seed S3:293-361), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.chicago import Rule
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, choose, pick

GAME = get_game("chicago")
A, B, C, D = range(4)
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "chicago.html"

FULL_HOUSE = ["KS", "KH", "KD", "2C", "2S"]
FLUSH = ["AH", "9H", "7H", "4H", "2H"]
TWO_PAIR = ["QS", "QH", "4D", "4C", "9S"]
ROYAL = ["AS", "KS", "QS", "JS", "TS"]
STRAIGHT_CLUBS_FIRST = ["9C", "8D", "7H", "6S", "5C"]
STRAIGHT_DIAMONDS_FIRST = ["9D", "8H", "7S", "6C", "5H"]
WHEEL = ["AD", "2D", "3C", "4H", "5S"]


def best(side, poker_hand) -> dict:
    return {"best_hand": side, "poker_hand": poker_hand}


def played(last_trick, first=None, second=None, final=None) -> dict:
    record = {"last_trick": last_trick}
    for name, showdown in (("first_showdown", first), ("second_showdown", second), ("final_hand", final)):
        if showdown is not None:
            record[name] = showdown
    return record


def forfeit(side) -> dict:
    return {"forfeit": side}


def start(players=4, **options):
    table = GAME.table(players)
    return GAME.new_state(table, GAME.parse_options(options, table))


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


_FINAL_FOR = {
    0: None,
    1: "one_pair",
    2: "two_pair",
    3: "three_of_a_kind",
    4: "straight",
    5: "flush",
    6: "full_house",
    7: "four_of_a_kind",
    8: "straight_flush",
}


def to_score(state, side, points):
    """Hands that bring `side` to `points` (5 or more) more: each the last trick (5) plus a final hand (0-8)."""
    records = []
    while points:
        chunk = min(13, points)
        if 0 < points - chunk < 5:
            chunk = points - 5
        category = _FINAL_FOR[chunk - 5]
        records.append(played(side, final=best(side, category) if category else None))
        points -= chunk
    return play_all(state, records)


# -- declarations --------------------------------------------------------------------------------


def test_declaration_matches_the_contract():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "chicago",
        {"min": 2, "max": 4},
        False,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "tie_at_end", "forfeit_rule"]  # no target (ruling 14)
    assert (options["tie_at_end"]["default"], options["tie_at_end"]["choices"]) == ("play_on", ["play_on", "shared"])
    assert (options["forfeit_rule"]["default"], options["forfeit_rule"]["choices"]) == (
        "ends_game",
        ["ends_game", "player_out"],
    )
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["first_showdown", "second_showdown", "final_hand", "last_trick", "forfeit"]
    showdown = fields["first_showdown"]
    assert showdown["type"] == "group" and showdown["nullable"] and showdown["default"] is None
    subs = {sub["name"]: sub for sub in showdown["fields"]}
    assert subs["cards"]["type"] == "cards" and subs["cards"]["null_hands"] and subs["cards"]["size"] == 5
    assert subs["poker_hand"]["choices"][-1] == "royal_flush"
    assert [form["fields"] for form in described["record_forms"]] == [
        ["first_showdown", "second_showdown", "final_hand", "last_trick"],
        ["forfeit"],
    ]


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    # ruling 7: a fifth player is refused (S3:295)
    with pytest.raises(RecordError, match="2 to 4 players"):
        GAME.table(players)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 60}, "target"),
        ({"tie_at_end": "draw"}, "tie_at_end"),
        ({"forfeit_rule": "ignore"}, "forfeit_rule"),
    ],
)
def test_bad_options_are_refused(options, field):
    table = GAME.table(3)
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, table)
    assert field in caught.value.fields


def test_a_match_starts_at_nothing():
    state = start(3, first_dealer=1)
    assert GAME.scores(state) == [0, 0, 0] and state.dealer == 1
    assert GAME.public_state(state) == {"no_draw": [], "out": [], "winners": []}
    assert not GAME.result(state).over and not GAME.ends_by_call(state.options)


# -- refusals (tally.md `chicago`) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "last_trick"),
        (played(None), "last_trick"),
        ({"first_showdown": best(A, "flush")}, "last_trick"),
        (played(4), "last_trick"),
        (played(A, first=best(4, "flush")), "first_showdown.best_hand"),
        (played(A, first=best(B, "five_of_a_kind")), "first_showdown.poker_hand"),
        (played(A, second={"best_hand": B}), "second_showdown.poker_hand"),
        (played(A, final={"poker_hand": "flush"}), "final_hand.poker_hand"),
        (played(A, final={"best_hand": None, "poker_hand": "flush"}), "final_hand.poker_hand"),
        (
            played(A, first={"best_hand": B, "poker_hand": "flush", "cards": [FLUSH, None, None, None]}),
            "first_showdown.cards",
        ),
        (played(A, first={"poker_hand": "flush", "cards": [FLUSH, None, None, None]}), "first_showdown.poker_hand"),
        (played(A, first={"cards": [FLUSH, None, None]}), "first_showdown.cards"),
        (played(A, first={"cards": [FLUSH[:4], None, None, None]}), "first_showdown.cards"),
        (played(A, first={"cards": [["AH", "AH", "2C", "3C", "4C"], None, None, None]}), "first_showdown.cards"),
        (played(A, first={"cards": [FLUSH, ["AH", "KC", "QC", "JC", "9C"], None, None]}), "first_showdown.cards"),
        (played(A, first={"cards": [["1H", "KC", "QC", "JC", "9C"], None, None, None]}), "first_showdown.cards"),
        (played(A, first="flush"), "first_showdown"),
        (played(A, first=[B, "flush"]), "first_showdown"),
        (played(A, first={"best_hand": B, "poker_hand": "flush", "bonus": 1}), "first_showdown.bonus"),
        ({**played(A), "chicago": True}, "chicago"),
        ({**played(A), "forfeit": B}, "forfeit"),
        ({"forfeit": B, "first_showdown": None}, "first_showdown"),
        ({"forfeit": None}, "forfeit"),
        ({"forfeit": 4}, "forfeit"),
    ],
)
def test_bad_records_are_refused_naming_the_field(record, field):
    assert field in refused(start(), record).fields


def test_a_player_who_is_out_cannot_be_named_anywhere():
    # ruling 12: player_out; C forfeited and left
    state, _ = play_all(start(4, forfeit_rule="player_out"), [forfeit(C)])
    assert GAME.public_state(state)["out"] == [C]
    for record, field in [
        (played(C), "last_trick"),
        (played(A, first=best(C, "flush")), "first_showdown.best_hand"),
        (played(A, final={"cards": [None, None, FLUSH, None]}), "final_hand.cards"),
        (forfeit(C), "forfeit"),
    ]:
        error = refused(state, record)
        assert field in error.fields and "out of the game" in error.message


# -- scoring (S3:315-349) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "category, points",
    [
        ("royal_flush", 52),
        ("straight_flush", 8),
        ("four_of_a_kind", 7),
        ("full_house", 6),
        ("flush", 5),
        ("straight", 4),
        ("three_of_a_kind", 3),
        ("two_pair", 2),
        ("one_pair", 1),
        ("high_card", 0),
    ],
)
def test_a_best_hand_scores_its_category(category, points):
    # S3:323-331; ruling 8: high card scores nothing
    hand = GAME.play(start(3), played(A, first=best(B, category)))
    assert hand.changes == [5, points, 0]


def test_a_played_hand_adds_both_showdowns_the_final_hand_and_the_last_trick():
    hand = GAME.play(
        start(3), played(C, first=best(A, "two_pair"), second=best(B, "straight"), final=best(A, "full_house"))
    )
    assert hand.changes == [8, 4, 5]
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("First showdown: A, two pair: +2 points", "showdowns"),
        ("Second showdown: B, straight: +4 points", "showdowns"),
        ("Final hand: A, full house: +6 points", "final-hand"),
        ("Last trick: C +5", "last-trick"),
    ]


@pytest.mark.parametrize("showdown", [None, {}, {"best_hand": None}, {"cards": None}, {"cards": [None] * 3}])
def test_nobody_scoring_a_showdown(showdown):
    # ruling 8: everybody passed or the best hands were equal: nothing
    assert GAME.play(start(3), {"last_trick": B, "first_showdown": showdown}).changes == [0, 5, 0]


def test_a_showdown_left_out_says_nothing_and_an_empty_one_says_nobody_scored():
    hand = GAME.play(start(3), {"last_trick": B, "first_showdown": {"best_hand": None}, "second_showdown": None})
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("First showdown: nobody scored (all passed, or equal best hands)", "showdowns"),
        ("Last trick: B +5", "last-trick"),
    ]


def test_cards_the_single_best_hand_scores_its_category():
    # ruling 9: B passed (null), C's full house beats A's flush
    hand = GAME.play(start(3), played(A, second={"cards": [FLUSH, None, FULL_HOUSE]}))
    assert hand.changes == [5, 0, 6]
    assert str(hand.reasons[0]) == "Second showdown: C has the best hand, full house: +6 points"


def test_cards_a_lone_hand_shown_scores():
    assert GAME.play(start(3), played(A, final={"cards": [None, TWO_PAIR, None]})).changes == [5, 2, 0]


def test_cards_equal_best_hands_score_nothing_and_suits_never_break_ties():
    # S3:333; tally.md: suits never break ties
    hand = GAME.play(start(3), played(A, first={"cards": [STRAIGHT_CLUBS_FIRST, STRAIGHT_DIAMONDS_FIRST, TWO_PAIR]}))
    assert hand.changes == [5, 0, 0]
    assert str(hand.reasons[0]) == "First showdown: A and B hold equal best hands (straight): nobody scored"


def test_cards_the_wheel_is_the_lowest_straight():
    hand = GAME.play(start(2), played(A, first={"cards": [WHEEL, STRAIGHT_CLUBS_FIRST]}))
    assert hand.changes == [5, 4]


def test_cards_written_loosely_are_refused():
    # A card is its two-character code (API.md); the page's form reads "10h" or "as" into one first.
    with pytest.raises(RecordError):
        GAME.play(start(2), played(A, first={"cards": ["as ks qs js 10s", None]}))


# -- the deal (S3:353) -----------------------------------------------------------------------------


def test_the_deal_passes_to_the_next_seat():
    state, _ = play_all(start(3, first_dealer=2), [played(A)])
    assert state.dealer == 0


def test_the_deal_skips_players_who_are_out():
    state, _ = play_all(start(4, first_dealer=0, forfeit_rule="player_out"), [forfeit(B)])
    assert state.dealer == 2
    state, _ = play_all(state, [played(A), played(A)])
    assert state.dealer == 0  # 2 -> 3 -> 0, past B


# -- no draw from 46 (S3:355, ruling 13) -------------------------------------------------------------


def test_players_on_46_or_more_may_not_draw():
    state, _ = to_score(start(3), B, 46)
    assert GAME.scores(state) == [0, 46, 0]
    assert GAME.public_state(state)["no_draw"] == [B]
    board = GAME.board(state)
    assert board.sides[B].flag == "No draw" and "No drawing next hand: B" in board.lines
    state, _ = to_score(state, A, 45)
    assert GAME.public_state(state)["no_draw"] == [B]
    state, _ = to_score(state, B, 6)  # B on 52: no next hand, so the board stops saying it
    assert GAME.result(state).winner == B and GAME.public_state(state)["no_draw"] == [B]
    assert not any(side.flag for side in GAME.board(state).sides) and len(GAME.board(state).lines) == 1


# -- the end (S3:357, rulings 10 and 12) --------------------------------------------------------------


def test_reaching_52_ends_the_match_and_the_highest_wins():
    state, _ = to_score(start(3), A, 50)
    state, _ = to_score(state, B, 10)
    assert GAME.scores(state) == [50, 10, 0] and not GAME.result(state).over
    state, hand = play_all(state, [played(A)])
    assert GAME.scores(state) == [55, 10, 0]
    assert GAME.result(state) == Result(True, A, "A wins with 55 points", winners=(A,))
    assert GAME.public_state(state)["winners"] == [A]
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("A wins with 55 points", "end")


def test_the_highest_wins_even_when_another_passed_52_first():
    # S3:357: the highest at the end of the hand, whoever crossed first
    state, _ = to_score(start(3), A, 50)
    state, _ = to_score(state, B, 48)
    state, _ = play_all(state, [played(A, final=best(B, "straight_flush"))])  # A 55, B 56
    assert GAME.result(state).winner == B


def test_a_royal_flush_at_a_showdown_waits_for_the_end_of_the_hand():
    # ruling 10: B's royal flush at the first showdown is 52, but A's hand ends higher
    state, _ = to_score(start(3), A, 49)
    state, hand = play_all(state, [played(A, first=best(B, "royal_flush"), final=best(A, "one_pair"))])
    assert GAME.scores(state) == [55, 52, 0] and GAME.result(state).winner == A


def test_equal_highest_play_on_by_default_then_the_usual_check():
    state, _ = to_score(start(3), A, 50)
    state, _ = to_score(state, B, 50)
    state, hand = play_all(state, [played(C, first=best(A, "two_pair"), second=best(B, "two_pair"))])
    assert GAME.scores(state) == [52, 52, 5]
    assert GAME.result(state) == Result(False, None, "A and B tie on 52 points")
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("A and B tie on 52 points: one more hand", "ties")
    state, _ = play_all(state, [played(C, final=best(B, "one_pair"))])
    assert GAME.scores(state) == [52, 53, 10] and GAME.result(state).winner == B


def test_equal_highest_share_the_win_with_shared():
    state, _ = to_score(start(3, tie_at_end="shared"), A, 50)
    state, _ = to_score(state, B, 50)
    state, hand = play_all(state, [played(C, first=best(A, "two_pair"), second=best(B, "two_pair"))])
    assert GAME.result(state) == Result(True, None, "A and B share the win on 52 points", winners=(A, B))
    assert GAME.public_state(state)["winners"] == [A, B]
    assert hand.reasons[-1].rule == "ties"


def test_no_hand_after_the_end():
    state, _ = play_all(start(2), [played(A, first=best(A, "royal_flush"))])
    assert GAME.result(state).over
    assert "over" in refused(state, played(B)).message


# -- forfeits (S3:361, rulings 11 and 12) -----------------------------------------------------------


def test_a_forfeit_scores_nothing():
    hand = GAME.play(start(3, forfeit_rule="player_out"), forfeit(B))
    assert hand.changes == [0, 0, 0]
    assert hand.reasons[0].rule == "forfeit"


def test_ends_game_the_best_of_the_others_wins():
    state, _ = to_score(start(4), A, 20)
    state, _ = to_score(state, B, 30)
    state, hand = play_all(state, [forfeit(B)])
    assert GAME.result(state) == Result(True, A, "A wins with 20 points: B forfeited", winners=(A,))
    assert GAME.public_state(state) == {"no_draw": [], "out": [], "winners": [A]}
    assert [str(r) for r in hand.reasons] == [
        "B forfeits: a declared hand could not be shown; the hand scores nothing",
        "A wins with 20 points: B forfeited",
    ]
    assert "over" in refused(state, played(A)).message


def test_ends_game_equal_best_share_whatever_tie_at_end_says():
    state, _ = to_score(start(4, tie_at_end="play_on"), A, 10)
    state, _ = to_score(state, C, 10)
    state, _ = play_all(state, [forfeit(D)])
    assert GAME.result(state) == Result(True, None, "A and C share the win on 10 points: D forfeited", winners=(A, C))
    assert GAME.public_state(state)["winners"] == [A, C]


def test_ends_game_with_two_players_the_other_wins():
    state, _ = to_score(start(2), A, 30)
    state, _ = play_all(state, [forfeit(A)])
    assert GAME.result(state).winner == B and GAME.scores(state) == [30, 0]


def test_ends_game_with_nobody_scored_all_the_others_share():
    state, _ = play_all(start(3), [forfeit(A)])
    assert GAME.public_state(state)["winners"] == [B, C] and GAME.result(state).winner is None


def test_player_out_leaves_keeps_the_score_and_the_others_play_on():
    state, _ = to_score(start(3, forfeit_rule="player_out"), A, 40)
    state, hand = play_all(state, [forfeit(A)])
    assert GAME.scores(state) == [40, 0, 0]
    assert GAME.public_state(state) == {"no_draw": [], "out": [A], "winners": []}
    assert not GAME.result(state).over and GAME.board(state).sides[A].flag == "Out"
    assert str(hand.reasons[0]).endswith("and A leaves the game")


def test_player_out_the_last_player_in_wins():
    state, _ = to_score(start(3, forfeit_rule="player_out"), A, 40)
    state, _ = play_all(state, [forfeit(B), forfeit(C)])
    assert GAME.result(state) == Result(True, A, "A wins: the only player left in", winners=(A,), out=(B, C))
    assert GAME.public_state(state)["out"] == [B, C]


def test_player_out_cannot_win_with_the_highest_score():
    # ruling 12: A keeps 50 but is out; B wins on 52 against C although A was ahead when leaving
    state, _ = to_score(start(3, forfeit_rule="player_out"), A, 50)
    state, _ = play_all(state, [forfeit(A)])
    state, _ = to_score(state, B, 45)
    state, _ = to_score(state, C, 40)
    assert GAME.scores(state) == [50, 45, 40] and not GAME.result(state).over
    state, _ = to_score(state, B, 7)
    assert GAME.scores(state) == [50, 52, 40] and GAME.result(state).winner == B


def test_player_out_a_player_already_on_52_can_win_by_another_forfeit():
    # ruling 12: tied on 52 under play_on, then C forfeits: the usual check among those still in
    state, _ = to_score(start(4, forfeit_rule="player_out"), A, 50)
    state, _ = to_score(state, B, 50)
    state, _ = play_all(state, [played(C, first=best(A, "two_pair"), second=best(B, "two_pair"))])
    assert not GAME.result(state).over
    state, _ = play_all(state, [forfeit(B)])
    assert GAME.result(state).winner == A and GAME.result(state).out == (B,)


def test_no_draw_leaves_out_players_who_are_out():
    state, _ = to_score(start(3, forfeit_rule="player_out"), A, 47)
    assert GAME.public_state(state)["no_draw"] == [A]
    state, _ = play_all(state, [forfeit(A)])
    assert GAME.public_state(state)["no_draw"] == []


# -- edits through replay ----------------------------------------------------------------------------


def test_an_edit_that_makes_a_later_record_name_a_player_who_is_out_is_refused():
    table = GAME.table(3)
    options = GAME.parse_options({"forfeit_rule": "player_out"}, table)
    records = [played(A), played(B, first=best(B, "flush"))]
    assert GAME.scores(replay(GAME, table, options, records).state) == [5, 10, 0]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [forfeit(B), records[1]])
    assert caught.value.number == 2 and "out of the game" in caught.value.message


def test_an_edit_into_a_forfeit_that_ends_the_game_breaks_a_later_hand():
    table = GAME.table(3)
    options = GAME.parse_options({}, table)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [forfeit(A), played(B)])
    assert caught.value.number == 2


def test_deleting_a_forfeit_brings_the_player_back():
    table = GAME.table(3)
    options = GAME.parse_options({"forfeit_rule": "player_out"}, table)
    state = replay(GAME, table, options, [played(A), forfeit(C), played(A)]).state
    assert GAME.public_state(state)["out"] == [C]
    state = replay(GAME, table, options, [played(A), played(A)]).state
    assert GAME.public_state(state)["out"] == [] and state.dealer == 2


def test_every_reason_links_to_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text()))
    assert {rule.value for rule in Rule} <= ids


# -- properties --------------------------------------------------------------------------------------

SHOWDOWN = st.one_of(JSON, st.dictionaries(st.sampled_from(["best_hand", "poker_hand", "cards", "x"]), JSON))
STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={
        "tie_at_end": st.sampled_from(["shared", "play_on"]),
        "forfeit_rule": st.sampled_from(["ends_game", "player_out"]),
    },
    most=12,
    raw=st.dictionaries(
        st.sampled_from(["first_showdown", "final_hand", "last_trick", "forfeit"]),
        st.one_of(SHOWDOWN, st.integers(-1, 4)),
    ),
)


@FAST
@given(matches(GAME, STRATEGIES, least=1))
def test_nobody_out_deals_or_scores(match):
    done = replay(GAME, *match)
    out = GAME.public_state(done.state)["out"]
    assert done.state.dealer not in out or len(out) == match.table.players - 1
    for result, before in zip(done.results, [done.start] + [r.state for r in done.results]):
        assert all(result.changes[side] == 0 for side in before.out)
    standing = GAME.result(done.state)
    if standing.over:
        assert not set(standing.winners) & set(out)


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# A whole hand in the order it is played: a pair wins each showdown (one tap each, the pair being
# preset), Ann then Bob; Bob takes the last trick (+5); Ann has the best final hand. Four things
# happened, so four taps and Record: the least such a hand can take (the 4 is one short of
# it), all on one screen.
COMMONEST = Commonest(
    (
        choose("First showdown", "Best hand", "Ann"),
        choose("Second showdown", "Best hand", "Bob"),
        choose("Who took the last trick?", "Bob"),
        choose("Final hand", "Best hand", "Ann"),
    ),
    taps=5,
    most=5,
    board={"points": ["2/52", "6/52"]},
)

COMMON = (
    # A showdown won with two pair, one nobody won, the final hand to the other player.
    Commonest(
        (
            choose("First showdown", "Best hand", "Bob"),
            pick("First showdown", "Poker hand", "Two pair"),
            choose("Second showdown", "Best hand", "Nobody"),
            choose("Who took the last trick?", "Ann"),
            choose("Final hand", "Best hand", "Bob"),
        ),
        taps=7,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_chicago_counts():
    # 1: Bo's flush at the first showdown 5; Ann's straight flush at the end 8 and the last trick 5 (13).
    # 2: Cy forfeits and leaves (player_out). 3: Ann's royal flush at both showdowns (104) and a straight
    # flush at the end (8), Bo the last trick (5): Ann 125 wins, Bo 10, Cy 0.
    best = lambda side, hand: {"best_hand": side, "poker_hand": hand}  # noqa: E731
    records = [
        {"first_showdown": best(B, "flush"), "final_hand": best(A, "straight_flush"), "last_trick": A},
        {"forfeit": C},
        {
            "first_showdown": best(A, "royal_flush"),
            "second_showdown": best(A, "royal_flush"),
            "final_hand": best(A, "straight_flush"),
            "last_trick": B,
        },
    ]
    assert figures("chicago", 3, records, forfeit_rule="player_out") == {
        "final_score": [125, 10, 0],
        "royal_flushes": [2, 0, 0],
        "forfeits": [0, 0, 1],
    }
