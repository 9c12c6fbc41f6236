"""The cribbage count of five cards, as Tabletop Cribbage scores each row and column (S2:16).

Fifteens 2 each (A = 1, 2..9 their pips, T J Q K = 10), pairs 2 each (three of a kind makes three
pairs, 6; four makes six, 12), runs of three or more consecutive ranks 1 a card for every distinct
run (A low, K high, no wrap: a double run of three is 6), five cards of one suit 5. Four of one
suit is nothing and there is no nobs or heels: the turned-up card has no special role (S2:16).

A helper module, not a game: the registry does not import it as one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .texts import Text, joined, msg

_RANK_ORDER = "A23456789TJQK"  # A low, K high (S2:16 "a standard hand of Cribbage")
_FIFTEEN, _FIFTEEN_POINTS = 15, 2
_PAIR_POINTS = 2
_SHORTEST_RUN = 3
_FLUSH_POINTS = 5  # only five-card flushes count here (S2:16)
_LINE = 5

# The scores five cards can never make under this count (api ruling 10): 1 and 19 never occur, and
# without nobs nothing lies between 24 and 28 (5-5-5-5 with a ten-card).
NOT_LINE_SCORES = (1, 19, 25, 26, 27)
BEST_LINE = 28


@dataclass(frozen=True)
class LineCount:
    """One line of five cards counted: what each kind of combination scored."""

    fifteens: int = 0
    pairs: int = 0
    runs: int = 0
    flush: int = 0

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs + self.flush

    def describe(self) -> Text:
        """'fifteens 4, pair 2, runs 3' (nothing: 'nothing')."""
        parts = []
        if self.fifteens:
            # Translators: what fifteens scored in one line of five cards (Tabletop Cribbage)
            parts.append(msg("fifteens %(points)s", points=self.fifteens))
        if self.pairs:
            # Translators: what pairs scored in one line of five cards (Tabletop Cribbage)
            parts.append(msg("pairs %(points)s", points=self.pairs))
        if self.runs:
            # Translators: what runs scored in one line of five cards (Tabletop Cribbage)
            parts.append(msg("runs %(points)s", points=self.runs))
        if self.flush:
            # Translators: what a flush scored in one line of five cards (Tabletop Cribbage)
            parts.append(msg("flush %(points)s", points=self.flush))
        # Translators: a line of five cards that scored nothing (Tabletop Cribbage)
        return joined(parts, ", ") if parts else msg("nothing")


def rank_number(card: str) -> int:
    """The rank's place, A = 1 .. K = 13 (runs)."""
    return _RANK_ORDER.index(card[0]) + 1


def pip_value(card: str) -> int:
    """What a card adds toward fifteen: A 1, 2..9 their pips, T J Q K 10."""
    return min(rank_number(card), 10)


def count_line(cards: Sequence[str]) -> LineCount:
    """The count of five card codes ("5H", "TC"...) as one cribbage hand under S2:16."""
    if len(cards) != _LINE:
        raise ValueError(f"a line has {_LINE} cards, not {len(cards)}")
    return LineCount(_fifteens(cards), _pairs(cards), _runs(cards), _flush(cards))


def _fifteens(cards: Sequence[str]) -> int:
    values = [pip_value(card) for card in cards]
    ways = sum(1 for size in range(2, _LINE + 1) for combo in combinations(values, size) if sum(combo) == _FIFTEEN)
    return ways * _FIFTEEN_POINTS


def _pairs(cards: Sequence[str]) -> int:
    ranks = Counter(card[0] for card in cards)
    return sum(count * (count - 1) // 2 for count in ranks.values()) * _PAIR_POINTS


def _runs(cards: Sequence[str]) -> int:
    """Only the longest runs count: in 3-4-5-6 the 3-4-5 inside is not a run of its own."""
    numbers = Counter(rank_number(card) for card in cards)
    best = 0
    for start in numbers:
        if start - 1 in numbers:
            continue  # not the bottom of a stretch of consecutive ranks
        length, ways = 0, 1
        while start + length in numbers:
            ways *= numbers[start + length]
            length += 1
        if length >= _SHORTEST_RUN:
            best += length * ways
    return best


def _flush(cards: Sequence[str]) -> int:
    return _FLUSH_POINTS if len({card[1] for card in cards}) == 1 else 0


def grid_rows(grid: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(row) for row in grid]


def grid_columns(grid: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(column) for column in zip(*grid)]
