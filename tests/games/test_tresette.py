"""Tresette: worked examples of api/partnership.md `tresette` (seed S4:161-181), edge rules first, then properties."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.tresette import Rule, count_cards
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import ANN_CY, BOB_DI, Commonest, choose, type_in

GAME = get_game("tresette")
TABLE = GAME.table(4)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "tresette.html"
SUITS = "SHDC"
COUNTING = [rank + suit for suit in SUITS for rank in "A23KQJ"]
LOW = [rank + suit for suit in SUITS for rank in "4567"]
ALL_MELDS = {
    "four_aces": A,
    "four_twos": A,
    "four_threes": A,
    "napoli_spades": A,
    "napoli_hearts": A,
    "napoli_diamonds": A,
    "napoli_clubs": A,
}  # 12 + 12: every meld one side can hold at once


def hand(aces=(2, 2), figures=(10, 10), last=A, melds=None) -> dict:
    record = {"aces": list(aces), "figures": list(figures), "last_trick": last}
    if melds is not None:
        record["melds"] = melds
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


# -- declarations (api/partnership.md `tresette`) ------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "tresette",
        {"min": 4, "max": 4},
        True,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "target", "equal_at_target"]
    assert (options["target"]["default"], options["target"]["min"], options["target"]["max"]) == (31, 1, 1000)
    assert options["equal_at_target"]["choices"] == ["play_on", "draw"]
    assert options["equal_at_target"]["default"] == "play_on"
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["aces", "figures", "cards", "last_trick", "melds"]
    assert (fields["aces"]["max"], fields["aces"]["total"]) == (4, 4)
    assert (fields["figures"]["max"], fields["figures"]["total"]) == (20, 20)
    assert fields["cards"]["ranks"] == "AKQJ765432" and fields["cards"]["size"] is None
    assert fields["last_trick"]["required"] and fields["last_trick"]["type"] == "side"
    melds = [sub["name"] for sub in fields["melds"]["fields"]]
    assert melds == [
        "four_aces",
        "four_twos",
        "four_threes",
        "three_aces",
        "three_twos",
        "three_threes",
        "napoli_spades",
        "napoli_hearts",
        "napoli_diamonds",
        "napoli_clubs",
    ]
    assert all(sub["type"] == "side" and sub["default"] is None for sub in fields["melds"]["fields"])
    assert described["record_forms"] == [
        {"name": "counts", "fields": ["aces", "figures"], "help": "the aces and figures each side took"},
        {"name": "cards", "fields": ["cards"], "help": "the cards each side took"},
    ]


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 0}, "target"),
        ({"target": 1001}, "target"),
        ({"equal_at_target": "replay"}, "equal_at_target"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"direction": "right"}, "direction"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


def test_a_new_game_starts_level_at_nought():
    state = start(first_dealer=3)
    assert GAME.scores(state) == [0, 0] and GAME.public_state(state) == {}
    assert state.dealer == 3 and GAME.target(state) == 31
    assert GAME.result(state) == Result(False, None, "Level at 0 (game to 31)")
    assert GAME.ends_by_call(state.options) is False


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({"figures": [10, 10], "last_trick": 0}, "aces"),
        ({"aces": [2, 2], "last_trick": 0}, "figures"),
        (hand(aces=(5, -1)), "aces"),
        (hand(aces=(3, 2)), "aces"),  # S4:166: the deck has four aces
        (hand(figures=(21, -1)), "figures"),
        (hand(figures=(10, 9)), "figures"),  # ruling 12: the counts total 20
        (hand(figures=(10, "ten")), "figures"),
        ({"aces": [2, 2], "figures": [10, 10]}, "last_trick"),
        (hand(last=2), "last_trick"),
        ({**hand(), "trump": "S"}, "trump"),
    ],
)
def test_counts_that_break_the_rules_are_refused(record, field):
    assert field in refused(start(), record).fields


def test_a_record_with_nothing_asks_for_the_counts():
    error = refused(start(), {})
    assert "aces" in error.fields


def test_cards_and_counts_together_are_refused():
    record = {"cards": [COUNTING, []], "aces": [4, 0], "last_trick": A}
    error = refused(start(), record)
    assert "one way only" in error.message and error.fields.keys() & {"aces", "cards"}


@pytest.mark.parametrize(
    "cards",
    [
        [COUNTING[:-1] + ["8H"], []],  # no 8, 9 or 10 in the 40-card deck (S4:166)
        [COUNTING[:-1] + ["TS"], []],
        [COUNTING, ["9C"]],
        [COUNTING, "nothing"],
        [COUNTING],  # one list only
        [COUNTING, [], []],
        "AS 2S",
    ],
)
def test_cards_that_are_not_two_lists_of_this_deck_are_refused(cards):
    error = refused(start(), {"cards": cards, "last_trick": A})
    assert error.fields.keys() == {"cards"}


def test_a_card_taken_twice_is_refused():
    error = refused(start(), {"cards": [COUNTING, ["AS"]], "last_trick": A})
    assert error.fields.keys() == {"cards"} and "twice" in error.message


def test_cards_that_leave_out_a_counting_card_are_refused():
    # ruling 13: every ace, 2, 3 and face card once, so the counts total 4 and 20
    piles = [[card for card in COUNTING if card not in ("JC", "AH")], LOW]
    error = refused(start(), {"cards": piles, "last_trick": B})
    assert error.fields.keys() == {"cards"} and "AH JC are missing" in error.message


@pytest.mark.parametrize(
    "melds, field",
    [
        ({"five_aces": 0}, "melds.five_aces"),
        ({"three_aces": 2}, "melds.three_aces"),
        ({"napoli_hearts": "B"}, "melds.napoli_hearts"),
        ([["three_aces", 0]], "melds"),
    ],
)
def test_melds_that_are_not_named_sides_are_refused(melds, field):
    assert field in refused(start(), hand(melds=melds)).fields


@pytest.mark.parametrize("word", ["aces", "twos", "threes"])
@pytest.mark.parametrize("sides", [(A, A), (A, B)])
def test_four_and_three_of_one_rank_are_never_both_held(word, sides):
    # ruling 10 (S4:174-175): one rank meld per rank
    error = refused(start(), hand(melds={f"four_{word}": sides[0], f"three_{word}": sides[1]}))
    assert error.fields.keys() == {f"melds.three_{word}"}


@pytest.mark.parametrize(
    "melds",
    [
        {"three_aces": A, "napoli_hearts": B, "napoli_spades": B},  # aces: 3 + 2
        {"four_twos": A, "napoli_clubs": B},  # twos: 4 + 1
        {"three_threes": A, "three_twos": B, "napoli_diamonds": B, "napoli_clubs": B},  # threes: 3 + 2
    ],
)
def test_melds_that_need_more_cards_of_a_rank_than_the_deck_has_are_refused(melds):
    error = refused(start(), hand(melds=melds))
    assert error.fields.keys() == {"melds"} and "the deck has only four" in error.message


@pytest.mark.parametrize(
    "melds",
    [
        {"three_aces": A, "napoli_hearts": A},  # "three aces and a nap" (S4:175): one side may share cards
        {"three_aces": A, "napoli_hearts": B},  # aces: 3 + 1
        {"four_aces": A, "four_twos": A, "napoli_spades": A},
        ALL_MELDS,
        {"napoli_spades": A, "napoli_hearts": A, "napoli_diamonds": B, "napoli_clubs": B},
        {"three_twos": A, "three_aces": B, "napoli_clubs": A},
    ],
)
def test_melds_that_fit_the_deck_are_taken(melds):
    GAME.play(start(), hand(melds=melds))


@pytest.mark.parametrize("melds", [None, {}, {"three_aces": None}])
def test_no_melds_may_be_left_out_empty_or_null(melds):
    done = GAME.play(start(), hand(melds=melds))
    assert sum(done.changes) == 11


# -- scoring (S4:180) ------------------------------------------------------------------------------


def test_a_hand_without_melds_gives_eleven():
    # 2 aces + 10 figures (3 threes, 1 lost) each; A took the last trick
    done = GAME.play(start(), hand(aces=(2, 2), figures=(10, 10), last=A))
    assert done.changes == [6, 5]
    assert texts(done) == [
        ("A: 2 aces + 3 for 10 figures (1 lost) = 5", "captured"),
        ("B: 2 aces + 3 for 10 figures (1 lost) = 5", "captured"),
        ("A: last trick: 1", "last-trick"),
        ("cards and last trick: 11 in all, as every hand", "eleven"),
    ]


@pytest.mark.parametrize(
    "figures, threes",
    [
        ((20, 0), (6, 0)),
        ((19, 1), (6, 0)),
        ((18, 2), (6, 0)),
        ((11, 9), (3, 3)),
        ((10, 10), (3, 3)),
        ((12, 8), (4, 2)),
        ((14, 6), (4, 2)),
        ((0, 20), (0, 6)),
    ],
)
def test_each_sides_remainder_is_lost_and_the_threes_always_make_six(figures, threes):
    # ruling 12: the two remainders add up to 2, so the figures always give 6
    done = GAME.play(start(), hand(aces=(0, 4), figures=figures, last=B))
    assert done.changes == [threes[0], 4 + threes[1] + 1]
    assert sum(done.changes) == 11


def test_melds_score_their_cards_for_the_side_that_held_them():
    # S4:180: four of a kind 4, three of a kind 3, napoli 3
    done = GAME.play(
        start(), hand(aces=(3, 1), figures=(11, 9), last=A, melds={"three_aces": A, "napoli_hearts": B, "four_twos": B})
    )
    assert done.changes == [3 + 3 + 3 + 1, 4 + 3 + 1 + 3]
    assert texts(done)[:3] == [
        ("B: four twos: 4", "melds"),
        ("A: three aces: 3", "melds"),
        ("B: napoli of hearts: 3", "melds"),
    ]
    assert texts(done)[-1] == ("cards and last trick: 11 in all, as every hand; melds 10 more", "eleven")


def test_every_meld_one_side_can_hold_is_worth_twenty_four():
    done = GAME.play(start(target=100), hand(aces=(4, 0), figures=(20, 0), last=A, melds=ALL_MELDS))
    assert done.changes == [24 + 11, 0]


def test_the_app_counts_aces_and_figures_from_the_cards():
    # ruling 13: A takes AS AH, every figure of spades and hearts (10) and some low cards that count nothing
    mine = ["AS", "AH", "2S", "3S", "KS", "QS", "JS", "2H", "3H", "KH", "QH", "JH", "7S", "4D"]
    theirs = [card for card in COUNTING if card not in mine]
    assert count_cards(mine) == (2, 10) and count_cards(theirs) == (2, 10)
    done = GAME.play(start(), {"cards": [mine, theirs], "last_trick": B})
    assert done.changes == [5, 6]
    assert texts(done)[0] == ("A: 2 aces + 3 for 10 figures (1 lost) = 5, counted from the cards", "captured")


def test_piles_written_as_text_are_refused():
    # A card is its two-character code (API.md); the page's form reads "10h" or "as" into one first.
    piles = [" ".join(COUNTING[:12]).lower(), ", ".join(COUNTING[12:])]
    with pytest.raises(RecordError):
        GAME.play(start(), {"cards": piles, "last_trick": A})


def test_one_side_may_take_every_card():
    done = GAME.play(start(), {"cards": [COUNTING + LOW, []], "last_trick": A})
    assert done.changes == [11, 0]


def test_the_deal_passes_to_the_next_seat():
    # ruling 14; the dealer's left leads (S4:177)
    state, _ = play_all(start(first_dealer=2), [hand()] * 3)
    assert state.dealer == 1 and state.hands == 3
    assert GAME.board(state).turn == (("Deals", 1), ("Leads", 2))


# -- the end (S4:181, ruling 15) -------------------------------------------------------------------


def test_the_first_side_to_thirty_one_wins_with_overshoot():
    # 6 a hand for A (2 aces + 3 + last trick): 30 after five hands, 36 after six
    state, done = play_all(start(), [hand(last=A)] * 5)
    assert GAME.scores(state) == [30, 25] and not GAME.result(state).over
    state, done = play_all(state, [hand(last=A)])
    assert GAME.scores(state) == [36, 30] and done.game_winner == A
    assert GAME.result(state) == Result(True, A, "A wins the game 36 to 30")
    assert texts(done)[-1] == ("A wins the game 36 to 30", "end")


def test_one_hand_of_melds_can_win_the_game():
    done = GAME.play(start(), hand(aces=(4, 0), figures=(20, 0), last=A, melds=ALL_MELDS))
    assert done.game_winner == A and GAME.result(done.state).winner == A


def test_both_past_the_target_the_higher_total_wins():
    state, _ = play_all(start(target=12), [hand(last=A), hand(last=B)])  # 11 each
    done = GAME.play(state, hand(aces=(1, 3), figures=(10, 10), last=B))  # A 4, B 7
    assert GAME.scores(done.state) == [15, 18]
    assert GAME.result(done.state) == Result(True, B, "B wins the game 18 to 15")


def test_equal_past_the_target_plays_on_by_default():
    state, done = play_all(start(target=11), [hand(last=A), hand(last=B)])
    assert GAME.scores(state) == [11, 11]
    assert GAME.result(state) == Result(False, None, "Level at 11, past 11: play on")
    assert texts(done)[-1] == ("both sides have 11: play another hand", "end")
    done = GAME.play(state, hand(last=B))
    assert GAME.result(done.state) == Result(True, B, "B wins the game 17 to 16")


def test_equal_past_the_target_is_a_draw_with_the_option():
    state, done = play_all(start(target=11, equal_at_target="draw"), [hand(last=A), hand(last=B)])
    assert GAME.result(state) == Result(True, None, "Draw: both sides reach 11 with 11")
    assert done.game_winner is None and texts(done)[-1] == ("Draw: both sides reach 11 with 11", "end")
    assert "match is over" in refused(state, hand()).message


def test_equal_below_the_target_is_not_a_draw():
    state, _ = play_all(start(equal_at_target="draw"), [hand(last=A), hand(last=B)])
    assert GAME.result(state) == Result(False, None, "Level at 11 (game to 31)")


def test_no_hand_after_the_end_and_the_deal_still_passes():
    state, _ = play_all(start(target=6), [hand(last=A)])
    assert GAME.result(state).winner == A and state.dealer == 1
    assert "match is over" in refused(state, hand()).message


def test_an_edit_that_ends_the_game_sooner_breaks_the_later_hand():
    options = GAME.parse_options({"target": 12}, TABLE)
    records = [hand(last=A), hand(last=A)]  # 6, 12: A wins at hand 2
    assert replay(GAME, TABLE, options, records).state.points == (12, 10)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [hand(last=A, melds={"three_aces": A, "three_twos": A}), hand()])
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

MELD_NAMES = [
    "four_aces",
    "four_twos",
    "four_threes",
    "three_aces",
    "three_twos",
    "three_threes",
    "napoli_spades",
    "napoli_hearts",
    "napoli_diamonds",
    "napoli_clubs",
]
MELDS = st.dictionaries(st.sampled_from(MELD_NAMES), st.sampled_from([A, B, None]), max_size=4)
COUNTS = st.builds(
    lambda a, f, last, melds: hand((a, 4 - a), (f, 20 - f), last, melds),
    st.integers(0, 4),
    st.integers(0, 20),
    st.sampled_from([A, B]),
    st.none() | MELDS,
)
PILES = st.builds(lambda seed, last: _piles(seed, last), st.integers(0, 10**6), st.sampled_from([A, B]))


def _piles(seed: int, last: int) -> dict:
    rng = random.Random(seed)
    cards = COUNTING + [card for card in LOW if rng.random() < 0.5]
    rng.shuffle(cards)
    cut = rng.randint(0, len(cards))
    return {"cards": [cards[:cut], cards[cut:]], "last_trick": last}


STRATEGIES = Strategies(
    options={"target": st.integers(1, 80), "equal_at_target": st.sampled_from(["play_on", "draw"])},
    record=COUNTS | PILES,
    refused=True,  # melds that break the deck
    most=12,
    raw=st.dictionaries(
        st.sampled_from(["aces", "figures", "cards", "last_trick", "melds"]),
        json_values(st.integers(-5, 25))
        | MELDS
        | st.sampled_from([0, 1, [2, 2], [10, 10], [4, 0], [COUNTING, []], "AS 2S"]),
        max_size=5,
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_every_hand_gives_eleven_plus_its_melds(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        done = GAME.play(state, record)
        melds = sum(
            4 if name.startswith("four") else 3
            for name, side in (record.get("melds") or {}).items()
            if side is not None
        )
        assert sum(done.changes) == 11 + melds
        assert GAME.scores(done.state) == [old + change for old, change in zip(GAME.scores(state), done.changes)]
        assert done.state.dealer == (state.dealer + 1) % 4
        assert {reason.rule for reason in done.reasons} <= page_ids()
        state = done.state


def test_example_hands_are_taken():
    rng, state = random.Random(7), start(target=1000)
    while not GAME.result(state).over:
        state = GAME.play(state, GAME.example_hand(state, rng)).state
    assert state.hands > 60


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann & Cy take 3 aces, 12 figures and the last trick.
COMMONEST = Commonest(
    (
        choose("Aces taken", ANN_CY, "3"),
        type_in("Figures taken (2, 3, K, Q, J)", ANN_CY, 12),
        choose("Who took the last trick?", ANN_CY),
    ),
    taps=4,
    typed=1,
)

COMMON = (
    # The other side's hand.
    Commonest(
        (
            choose("Who took the last trick?", BOB_DI),
            choose("Aces taken", BOB_DI, "3"),
            type_in("Figures taken (2, 3, K, Q, J)", BOB_DI, 13),
        ),
        taps=4,
        typed=1,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_tresette_counts():
    # 1: A 3 aces + 3 threes of figures + last trick = 7; B 1 ace + 3 threes + napoli 3 = 7: level.
    # 2: A 4 + 4 + 1 = 9, B 0 + 2 = 2: A's hand. 3: B four aces 4 + 4 aces + 6 + 1 = 15, A 0: B's hand.
    # 4: A four threes 4, three twos 3, 4 aces, 6, last 1 = 18: A reaches 34 to B's 24.
    records = [
        {"aces": [3, 1], "figures": [11, 9], "last_trick": A, "melds": {"napoli_hearts": B}},
        {"aces": [4, 0], "figures": [14, 6], "last_trick": A},
        {"aces": [0, 4], "figures": [2, 18], "last_trick": B, "melds": {"four_aces": B}},
        {"aces": [4, 0], "figures": [20, 0], "last_trick": A, "melds": {"four_threes": A, "three_twos": A}},
    ]
    assert figures("tresette", 4, records) == {"hands_won": [2, 1]}
