"""Polignac: worked examples of api/tally.md `polignac` (seed S3:433-463), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.polignac import Rule
from tests.games.counted import figures

from .properties import FAST, JSON, Strategies, matches
from .taps import Commonest, choose

GAME = get_game("polignac")
TABLE = GAME.table(4)
A, B, C, D = range(4)
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "polignac.html"


def jacks(spades: int, hearts: int, diamonds: int, clubs: int) -> dict:
    return {"jacks": {"spades": spades, "hearts": hearts, "diamonds": diamonds, "clubs": clubs}}


def all_to(side: int) -> dict:
    """One player took every jack: +5."""
    return jacks(side, side, side, side)


def start(table=TABLE, **options):
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


# -- declarations --------------------------------------------------------------------------------


def test_declaration_matches_the_contract():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "polignac",
        {"min": 3, "max": 6},
        False,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "target", "tie_at_end"]
    assert (options["target"]["default"], options["target"]["min"], options["target"]["max"]) == (10, 1, 100)
    assert (options["tie_at_end"]["default"], options["tie_at_end"]["choices"]) == ("shared", ["shared", "play_on"])
    [field] = described["hand_fields"]
    assert (field["name"], field["type"], field["required"]) == ("jacks", "group", True)
    assert [(sub["name"], sub["type"], sub["required"]) for sub in field["fields"]] == [
        ("spades", "side", True),
        ("hearts", "side", True),
        ("diamonds", "side", True),
        ("clubs", "side", True),
    ]


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players):
    with pytest.raises(RecordError, match="3 to 6 players"):
        GAME.table(players)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "target"),
        ({"target": 101}, "target"),
        ({"tie_at_end": "replay"}, "tie_at_end"),
        ({"rounds": 3}, "rounds"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


def test_a_match_starts_at_nothing_for_everybody():
    state = start(first_dealer=2)
    assert GAME.scores(state) == [0, 0, 0, 0] and state.dealer == 2
    assert GAME.public_state(state) == {"winners": []}
    assert GAME.result(state).over is False
    assert GAME.ends_by_call(state.options) is False


# -- refusals (tally.md `polignac`) ---------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "jacks"),
        ({"jacks": [0, 1, 2, 3]}, "jacks"),
        ({"jacks": 3}, "jacks"),
        ({"jacks": {"spades": 0, "hearts": 1, "diamonds": 2}}, "jacks.clubs"),
        ({"jacks": {"spades": None, "hearts": 1, "diamonds": 2, "clubs": 3}}, "jacks.spades"),
        ({"jacks": {"spades": 0, "hearts": 1.5, "diamonds": 2, "clubs": 3}}, "jacks.hearts"),
        ({"jacks": {"spades": 0, "hearts": 1, "diamonds": 4, "clubs": 3}}, "jacks.diamonds"),
        ({"jacks": {"spades": -1, "hearts": 1, "diamonds": 2, "clubs": 3}}, "jacks.spades"),
        ({"jacks": {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3, "joker": 0}}, "jacks.joker"),
        ({**jacks(0, 1, 2, 3), "points": [2, 1, 1, 1]}, "points"),
    ],
)
def test_bad_records_are_refused_naming_the_field(record, field):
    assert field in refused(start(), record).fields


def test_a_jack_taken_by_a_seat_past_the_table_is_refused_at_three_players():
    assert "jacks.clubs" in refused(start(GAME.table(3)), jacks(0, 1, 2, 3)).fields


# -- scoring (S3:461) -------------------------------------------------------------------------------


def test_the_contract_example():
    # tally.md: seat 2 took the J♠ and the J♦ (+3), seat 0 the J♥ (+1), seat 3 the J♣ (+1)
    hand = GAME.play(start(), jacks(C, A, C, D))
    assert hand.changes == [1, 0, 3, 1] and GAME.scores(hand.state) == [1, 0, 3, 1]
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("A took J♥: +1 point", "jacks"),
        ("C took J♠, J♦: +3 points", "jacks"),
        ("D took J♣: +1 point", "jacks"),
    ]


@pytest.mark.parametrize("record", [jacks(0, 1, 2, 3), all_to(B), jacks(3, 3, 0, 0), jacks(1, 0, 0, 0)])
def test_every_hand_gives_out_exactly_five(record):
    # S3:443-447, ruling 2: the whole pack is dealt, so every jack has a taker
    assert sum(GAME.play(start(), record).changes) == 5


def test_the_polignac_costs_two_and_the_other_jacks_one():
    assert GAME.play(start(), jacks(B, A, A, A)).changes == [3, 2, 0, 0]


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"jacks": {"spades": "1", "hearts": "0", "diamonds": "0", "clubs": "0"}})


# -- the deal (ruling 1) -----------------------------------------------------------------------------


def test_the_deal_passes_to_the_next_seat_after_every_hand():
    state, _ = play_all(start(first_dealer=2), [all_to(A)])
    assert state.dealer == 3
    state, _ = play_all(state, [all_to(A)])
    assert state.dealer == 0


def test_the_deal_passes_after_the_last_hand_too():
    state, _ = play_all(start(first_dealer=1), [all_to(A), all_to(A)])  # A reaches 10
    assert GAME.result(state).over and state.dealer == 3


# -- the end (S3:463) --------------------------------------------------------------------------------


def test_reaching_the_target_ends_the_match_and_the_lowest_wins():
    state, hand = play_all(start(), [all_to(A), jacks(B, C, C, D)])
    assert GAME.scores(state) == [5, 2, 2, 1] and not GAME.result(state).over
    state, hand = play_all(state, [all_to(A)])  # A on 10: the target
    assert GAME.scores(state) == [10, 2, 2, 1]
    assert GAME.result(state) == Result(True, D, "D wins with the fewest penalty points, 1", winners=(D,))
    assert GAME.public_state(state) == {"winners": [D]}
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("D wins with the fewest penalty points, 1", "end")


def test_overshoot_counts_as_it_is():
    # tally.md: a score past the target stays as it is; the lowest still wins
    state, _ = play_all(start(GAME.table(3), target=3), [jacks(A, A, A, B)])
    assert GAME.scores(state) == [4, 1, 0]
    assert GAME.result(state).winner == C and GAME.public_state(state) == {"winners": [C]}


def test_the_match_goes_on_under_the_target():
    state, _ = play_all(start(), [all_to(A), jacks(A, B, B, A)])
    assert GAME.scores(state) == [8, 2, 0, 0] and not GAME.result(state).over


def test_a_shared_lowest_score_shares_the_win_by_default():
    # tally.md: tie_at_end shared (default): winner null, state.winners lists them
    state, hand = play_all(start(), [all_to(A), all_to(A)])
    assert GAME.scores(state) == [10, 0, 0, 0]
    assert GAME.result(state) == Result(True, None, "B, C and D share the win on 0 points", winners=(B, C, D))
    assert GAME.public_state(state) == {"winners": [B, C, D]}
    assert hand.reasons[-1].rule == "ties"


def test_play_on_plays_another_hand_until_one_is_lowest():
    options = {"tie_at_end": "play_on"}
    state, hand = play_all(start(**options), [all_to(A), all_to(A)])
    assert GAME.result(state).over is False and GAME.public_state(state) == {"winners": []}
    last = hand.reasons[-1]
    assert (str(last), last.rule) == ("B, C and D tie for the lowest score, 0: one more hand", "ties")
    state, _ = play_all(state, [jacks(B, B, C, A)])  # B +2, C +1, A +1: D alone on 0
    assert GAME.scores(state) == [11, 3, 1, 0]
    assert GAME.result(state).winner == D and GAME.public_state(state) == {"winners": [D]}


def test_play_on_goes_on_while_still_tied():
    state, _ = play_all(start(tie_at_end="play_on"), [all_to(A), all_to(A), jacks(B, B, A, A)])
    assert GAME.scores(state) == [12, 3, 0, 0] and not GAME.result(state).over


def test_no_hand_after_the_end():
    state, _ = play_all(start(), [all_to(A), all_to(A)])
    assert "over" in refused(state, all_to(B)).message


def test_the_board_says_lower_is_better():
    board = GAME.board(play_all(start(), [all_to(B)])[0])
    assert board.lower_is_better is True
    assert [(side.score, side.target) for side in board.sides] == [(0, 10), (5, 10), (0, 10), (0, 10)]
    assert board.turn == (("Deals", 1),)


# -- edits through replay ----------------------------------------------------------------------------


def test_an_edit_that_ends_the_match_earlier_breaks_a_later_hand():
    # API.md: an edit that would end the match before a later hand is refused, naming that hand
    records = [all_to(A), jacks(A, B, B, A), all_to(C)]
    assert GAME.scores(replay(GAME, TABLE, start().options, records).state) == [8, 2, 5, 0]
    edited = [all_to(A), all_to(A), all_to(C)]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, start().options, edited)
    assert caught.value.number == 3 and "over" in caught.value.message


def test_deleting_a_hand_can_reopen_a_finished_match():
    records = [all_to(A), all_to(A)]
    assert GAME.result(replay(GAME, TABLE, start().options, records).state).over
    assert not GAME.result(replay(GAME, TABLE, start().options, records[1:]).state).over


def test_every_reason_links_to_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text()))
    assert {rule.value for rule in Rule} <= ids


# -- properties --------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={"target": st.integers(1, 30), "tie_at_end": st.sampled_from(["shared", "play_on"])},
    most=12,
    raw=st.fixed_dictionaries(
        {"jacks": st.dictionaries(st.sampled_from(["spades", "hearts", "diamonds", "clubs", "x"]), JSON)}
    ),
)


@FAST
@given(matches(GAME, STRATEGIES, least=1))
def test_every_hand_gives_out_five(match):
    done = replay(GAME, *match)
    assert sum(GAME.scores(done.state)) == 5 * len(match.records)
    assert done.state.dealer == (match.options["first_dealer"] + len(match.records)) % match.table.players


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Who took each jack: Ann two of them, Bob and Cy one each.
COMMONEST = Commonest(
    (
        choose("Jacks", "Who took the J♠?", "Ann"),
        choose("Jacks", "Who took the J♥?", "Bob"),
        choose("Jacks", "Who took the J♦?", "Cy"),
        choose("Jacks", "Who took the J♣?", "Ann"),
    ),
    taps=5,
)

COMMON = (
    Commonest(
        (
            choose("Jacks", "Who took the J♠?", "Bob"),
            choose("Jacks", "Who took the J♥?", "Bob"),
            choose("Jacks", "Who took the J♦?", "Cy"),
            choose("Jacks", "Who took the J♣?", "Cy"),
        ),
        taps=5,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_polignac_counts():
    # 1: Ann takes all four jacks (5). 2: Bo J♠ and J♣ (3), Cy J♥ J♦ (2). 3: Cy J♠ (2), Bo the rest (3).
    # 4: Bo all four: 11, the match ends; Cy lowest on 4.
    # Without a jack: Ann in hands 2, 3, 4; Bo in 1; Cy in 1 and 4. All four jacks: Ann once, Bo once.
    jacks = lambda s, h, d, c: {"jacks": {"spades": s, "hearts": h, "diamonds": d, "clubs": c}}  # noqa: E731
    records = [jacks(A, A, A, A), jacks(B, C, C, B), jacks(C, B, B, B), jacks(B, B, B, B)]
    assert figures("polignac", 3, records) == {"clean_hands": [3, 1, 2], "all_jacks": [1, 1, 0]}
