"""The five-card poker evaluator: categories, tie-breaks inside a category, the wheel (RULES.md PK-Q5)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.poker import CATEGORY_KEYS, Category, HandValue, category, evaluate

DECK = [rank + suit for rank in "AKQJT98765432" for suit in "SHDC"]


def hand(text: str) -> list[str]:
    return text.split()


# One hand of every category, weakest first (standard ranking, PK-Q5).
EXAMPLES = {
    Category.HIGH_CARD: "AS QD 9C 6H 3S",
    Category.ONE_PAIR: "9S 9D KC 7H 2S",
    Category.TWO_PAIR: "JS JD 4C 4H AS",
    Category.THREE_OF_A_KIND: "7S 7D 7C KH 2S",
    Category.STRAIGHT: "9S 8D 7C 6H 5S",
    Category.FLUSH: "KH TH 8H 4H 2H",
    Category.FULL_HOUSE: "3S 3D 3C QH QS",
    Category.FOUR_OF_A_KIND: "8S 8D 8C 8H 2S",
    Category.STRAIGHT_FLUSH: "9C 8C 7C 6C 5C",
    Category.ROYAL_FLUSH: "AD KD QD JD TD",
}


@pytest.mark.parametrize("expected", list(Category))
def test_every_category_is_recognised(expected):
    assert category(hand(EXAMPLES[expected])) is expected


def test_category_keys_are_the_api_names_weakest_first():
    # API.md "### `poke`": poker_hand's ten names.
    assert CATEGORY_KEYS == (
        "high_card",
        "one_pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "royal_flush",
    )
    assert Category.from_key("full_house") is Category.FULL_HOUSE
    assert Category.FULL_HOUSE.label == "full house"


@pytest.mark.parametrize("weaker, stronger", list(itertools.pairwise(Category)))
def test_each_category_beats_the_one_below(weaker, stronger):
    assert evaluate(hand(EXAMPLES[stronger])) > evaluate(hand(EXAMPLES[weaker]))


def test_wheel_is_the_lowest_straight_five_high():
    wheel = hand("AS 2D 3C 4H 5S")
    assert evaluate(wheel) == HandValue(Category.STRAIGHT, (5,))
    assert evaluate(hand("6S 2D 3C 4H 5S")) > evaluate(wheel)
    # ...but still a straight, so it beats any three of a kind.
    assert evaluate(wheel) > evaluate(hand("AH AD AC KH QS"))


def test_ace_high_straight_is_the_highest_straight():
    broadway = hand("AS KD QC JH TS")
    assert evaluate(broadway) == HandValue(Category.STRAIGHT, (14,))
    assert evaluate(broadway) > evaluate(hand("KS QD JC TH 9S"))


def test_ace_does_not_wrap_around():
    # Q-K-A-2-3 is no straight: just ace high.
    assert category(hand("QS KD AC 2H 3S")) is Category.HIGH_CARD


def test_five_high_straight_flush_is_a_straight_flush_not_royal():
    steel_wheel = hand("AH 2H 3H 4H 5H")
    assert evaluate(steel_wheel) == HandValue(Category.STRAIGHT_FLUSH, (5,))
    assert evaluate(hand("6H 2H 3H 4H 5H")) > evaluate(steel_wheel)


def test_king_high_straight_flush_is_below_royal():
    assert category(hand("KS QS JS TS 9S")) is Category.STRAIGHT_FLUSH
    assert evaluate(hand("AS KS QS JS TS")) > evaluate(hand("KH QH JH TH 9H"))


def test_two_royal_flushes_are_equal():
    assert evaluate(hand("AS KS QS JS TS")) == evaluate(hand("AH KH QH JH TH"))


@pytest.mark.parametrize(
    "better, worse, why",
    [
        ("9S 9D KC 7H 2S", "8S 8D AC KH QS", "higher pair wins whatever the kickers"),
        ("9S 9D KC 7H 3S", "9H 9C KD 7S 2D", "same pair: third kicker decides"),
        ("9S 9D AC 2H 3S", "9H 9C KD QS JD", "same pair: first kicker decides"),
        ("JS JD 4C 4H 2S", "TS TD 9C 9H AS", "two pair: the high pair first"),
        ("JS JD 5C 5H 2S", "JH JC 4D 4S AD", "two pair: then the low pair"),
        ("JS JD 4C 4H 3S", "JH JC 4D 4S 2D", "two pair: then the kicker"),
        ("7S 7D 7C 3H 2S", "6S 6D 6C AH KS", "trips: the set's rank first"),
        ("3S 3D 3C 2H 2S", "2D 2C 2H AS AD", "full house: trips before the pair"),
        ("KS KD KC KH 2S", "QS QD QC QH AS", "four of a kind: the set's rank, not the kicker"),
        ("KH TH 8H 4H 3H", "KS TS 8S 4S 2S", "flush: all five ranks in order, the last decides"),
        ("AH 3H 4H 5H 7H", "KS QS JS TS 8S", "flush: the top card first"),
        ("AS QD 9C 6H 4S", "AD QC 9H 6S 3D", "high card: the fifth card decides"),
        ("AS QD 9C 6H 3S", "AD JC TH 8S 7D", "high card: the second card decides"),
        ("TS 9D 8C 7H 6S", "9H 8S 7D 6C 5H", "straight: the top card"),
    ],
)
def test_ties_inside_a_category_go_by_kickers(better, worse, why):
    assert evaluate(hand(better)) > evaluate(hand(worse)), why


def test_tie_break_ranks_are_exposed_most_important_first():
    assert evaluate(hand("JS JD 4C 4H AS")).ranks == (11, 4, 14)
    assert evaluate(hand("3S 3D 3C QH QS")).ranks == (3, 12)
    assert evaluate(hand("9S 9D KC 7H 2S")).ranks == (9, 13, 7, 2)
    # Two hands with the same four of a kind cannot meet in one deck, but the kicker still ranks.
    assert evaluate(hand("8S 8D 8C 8H 3S")) > evaluate(hand("8S 8D 8C 8H 2S"))


def test_same_ranks_in_other_suits_are_equal():
    assert evaluate(hand("AS QD 9C 6H 3S")) == evaluate(hand("AD QS 9H 6C 3D"))
    assert evaluate(hand("9S 8D 7C 6H 5S")) == evaluate(hand("9D 8S 7H 6C 5D"))


def test_cards_are_read_in_any_case_and_order():
    assert evaluate(["ts", "js", "qs", "ks", "as"]).category is Category.ROYAL_FLUSH
    assert evaluate(["10h", "9h", "8h", "7h", "6h"]).category is Category.STRAIGHT_FLUSH


@pytest.mark.parametrize(
    "cards",
    [
        ["AS", "KS", "QS", "JS"],
        ["AS", "KS", "QS", "JS", "TS", "9S"],
        ["AS", "AS", "QS", "JS", "TS"],
        ["AS", "KS", "QS", "JS", "1S"],
        ["AS", "KS", "QS", "JS", None],
    ],
)
def test_anything_but_five_different_cards_is_refused(cards):
    with pytest.raises(ValueError):
        evaluate(cards)


five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_order_of_the_cards_does_not_matter(data):
    cards = data.draw(five_cards)
    assert evaluate(data.draw(st.permutations(cards))) == evaluate(cards)


@settings(max_examples=200, deadline=None)
@given(five_cards)
def test_category_agrees_with_a_plain_count(cards):
    counts = sorted((sum(card[0] == rank for card in cards) for rank in {card[0] for card in cards}), reverse=True)
    found = category(cards)
    by_counts = {
        (4, 1): Category.FOUR_OF_A_KIND,
        (3, 2): Category.FULL_HOUSE,
        (3, 1, 1): Category.THREE_OF_A_KIND,
        (2, 2, 1): Category.TWO_PAIR,
        (2, 1, 1, 1): Category.ONE_PAIR,
    }
    if tuple(counts) in by_counts:
        assert found is by_counts[tuple(counts)]
    else:
        assert found in {
            Category.HIGH_CARD,
            Category.STRAIGHT,
            Category.FLUSH,
            Category.STRAIGHT_FLUSH,
            Category.ROYAL_FLUSH,
        }
        flush = len({card[1] for card in cards}) == 1
        assert (found in {Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH}) == flush
