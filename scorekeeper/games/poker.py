"""Five-card poker hands: which category a hand is and which of two hands is better.

Pure functions shared by the games that score poker hands (Poke, later Chicago). Cards are codes
such as "AS", "TD", "7C" (rank A K Q J T 9..2, suit S H D C; `base.parse_card` makes them
canonical). The ranking is the standard one (RULES.md PK-Q5): category first, then the ranks that
break ties inside it, kickers included. The ace plays high, or low in the straight A-2-3-4-5 (the
"wheel", the lowest straight: five high). A five-high straight flush is a straight flush; only
the ace-high one is a royal flush.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import NamedTuple

from .base import Text, msg, parse_card

HAND_SIZE = 5
_RANK_VALUES = {rank: value for value, rank in enumerate("23456789TJQKA", start=2)}
_ACE = _RANK_VALUES["A"]
_WHEEL = (_ACE, 5, 4, 3, 2)  # A-2-3-4-5: the ace counts low and the five is the top card
_WHEEL_HIGH = 5


class Category(IntEnum):
    """The poker hand categories, weakest first; `name.lower()` is the API's name for each."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def key(self) -> str:
        """The API's name: "three_of_a_kind"."""
        return self.name.lower()

    @property
    def label(self) -> Text:
        """How a sentence names it: "three of a kind"."""
        return _LABELS[self]

    @classmethod
    def from_key(cls, key: str) -> Category:
        return cls[key.upper()]


CATEGORY_KEYS = tuple(category.key for category in Category)

_LABELS = {
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.HIGH_CARD: msg("high card"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.ONE_PAIR: msg("one pair"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.TWO_PAIR: msg("two pair"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.THREE_OF_A_KIND: msg("three of a kind"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.STRAIGHT: msg("straight"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.FLUSH: msg("flush"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.FULL_HOUSE: msg("full house"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.FOUR_OF_A_KIND: msg("four of a kind"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.STRAIGHT_FLUSH: msg("straight flush"),
    # Translators: a poker hand's category, inside a sentence (Poke, Chicago)
    Category.ROYAL_FLUSH: msg("royal flush"),
}


class HandValue(NamedTuple):
    """A hand's strength: compare two values with < and > (category first, then `ranks` in order).

    `ranks` are the tie-breaking rank values (2..14, ace 14), most important first: the pair
    before its kickers, the trips before the pair of a full house, a straight's top card."""

    category: Category
    ranks: tuple[int, ...]


def _cards(cards: Iterable[str]) -> list[str]:
    """The five cards in canonical form, or ValueError when they are not five different cards."""
    codes = [parse_card(card) for card in cards]
    if len(codes) != HAND_SIZE or None in codes:
        raise ValueError(f"a poker hand is {HAND_SIZE} cards such as AS, TD or 7C")
    if len(set(codes)) != HAND_SIZE:
        raise ValueError("a poker hand cannot hold the same card twice")
    return codes


def _grouped_ranks(values: list[int]) -> tuple[list[int], tuple[int, ...]]:
    """The sizes of the rank groups, largest first, and the ranks in that order (rank breaks ties)."""
    groups = sorted(Counter(values).items(), key=lambda item: (item[1], item[0]), reverse=True)
    return [size for _, size in groups], tuple(rank for rank, _ in groups)


def _straight_high(values: list[int]) -> int | None:
    """The straight's top card (5 for the wheel), or None when the five ranks do not run."""
    ordered = tuple(sorted(values, reverse=True))
    if ordered == _WHEEL:
        return _WHEEL_HIGH
    if len(set(ordered)) == HAND_SIZE and ordered[0] - ordered[-1] == HAND_SIZE - 1:
        return ordered[0]
    return None


_BY_GROUPS = {
    (4, 1): Category.FOUR_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (2, 2, 1): Category.TWO_PAIR,
    (2, 1, 1, 1): Category.ONE_PAIR,
}


def evaluate(cards: Iterable[str]) -> HandValue:
    """The value of five cards; ValueError when they are not five different cards."""
    codes = _cards(cards)
    values = [_RANK_VALUES[code[0]] for code in codes]
    flush = len({code[1] for code in codes}) == 1
    high = _straight_high(values)
    if high is not None:
        if not flush:
            return HandValue(Category.STRAIGHT, (high,))
        category = Category.ROYAL_FLUSH if high == _ACE else Category.STRAIGHT_FLUSH
        return HandValue(category, (high,))
    if flush:
        return HandValue(Category.FLUSH, tuple(sorted(values, reverse=True)))
    sizes, ranks = _grouped_ranks(values)
    return HandValue(_BY_GROUPS.get(tuple(sizes), Category.HIGH_CARD), ranks)


def category(cards: Iterable[str]) -> Category:
    return evaluate(cards).category
