"""Polignac: three to six players dodge the jacks; penalty points, lower is better (RULES.md 2.11,
seed S3:433-463, api/tally.md `polignac`).

The whole pack is dealt and every trick is played (S3:447, S3:461), so each jack always ends in
somebody's tricks. The record names who took each of the four jacks; the J♠, the Polignac, costs
2 penalty points and each other jack 1 (S3:461), so a hand always gives out 5.

The deal passes to the next seat after every hand (tally.md ruling 1). After a hand that leaves a
score at `target` (10, S3:463) or more the lowest score wins; several players on the lowest score
share the win (`tie_at_end: shared`, the default) or play another hand (`play_on`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, TieAtEnd, best_wins, end_reasons, holders, tie_at_end_option
from .base import Board, Field, HandResult, Reason, Result, State, Table, added, counted, joined, msg, names, side_name
from .reference import DENEXA, OWN, HouseRule, Reference, Source, Term, by_number
from .statistics import Statistic

_MIN_PLAYERS, _MAX_PLAYERS = 3, 6  # S3:435
_TARGET = 10  # S3:463
_MOST_TARGET = 100
_POLIGNAC_POINTS = 2  # the J♠ (S3:461)
_JACK_POINTS = 1  # each other jack (S3:461)
_SUITS = ("spades", "hearts", "diamonds", "clubs")
_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
_ALL_JACKS = _POLIGNAC_POINTS + 3 * _JACK_POINTS  # every hand gives out exactly these 5 points


class Rule(StrEnum):
    """Section ids of templates/rules/polignac.html that the reason lines link to."""

    JACKS = "jacks"
    END = "end"
    TIES = "ties"


@dataclass(frozen=True)
class PolignacState(State):
    penalties: tuple[int, ...] = ()


def jack_points(suit: str) -> int:
    return _POLIGNAC_POINTS if suit == "spades" else _JACK_POINTS


def _jack_field(suit: str) -> Field:
    cost = "the Polignac: 2 penalty points" if suit == "spades" else "1 penalty point"
    return Field(
        suit,
        "side",
        f"The J{_SYMBOLS[suit]} is {cost}.",
        label=f"J{_SYMBOLS[suit]}",
        ask=f"Who took the J{_SYMBOLS[suit]}?",
    )


class Polignac(Race):
    key = "polignac"
    name = "Polignac"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    unit = "penalty points"
    rules = Rule
    state_class = PolignacState
    totals = "penalties"
    options = (
        Field(
            "target",
            "int",
            "Penalty points that end the match: the lowest score then wins.",
            default=_TARGET,
            min=1,
            max=_MOST_TARGET,
            label="Target",
        ),
        tie_at_end_option(TieAtEnd.SHARED, "Several on the lowest score at the end: they share the win, or play on."),
    )
    hand_fields = (
        Field(
            "jacks",
            "group",
            "Who took each jack in a trick; every jack always has a taker.",
            fields=tuple(_jack_field(suit) for suit in _SUITS),
            label="Jacks",
        ),
    )

    reference = Reference(
        names=("Quatre Valets", "Four Jacks"),
        line=msg("French trick game for three to six: avoid the jacks, above all the J♠; fewest points win."),
        sources=(
            Source("Polignac", DENEXA),
            OWN,
        ),
        house_rules={
            "target": HouseRule(
                "end",
                counted=by_number(
                    "the match ends once someone has %(num)d penalty point",
                    "the match ends once someone has %(num)d penalty points",
                ),
            ),
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "shared": msg("equal lowest scores at the end share the win"),
                    "play_on": msg("equal lowest scores at the end play another hand"),
                },
            ),
        },
        terms=(Term("Polignac", "jacks", msg("The J♠: 2 penalty points to whoever takes it.")),),
    )

    def start(self, table: Table, options: Mapping) -> dict:
        return {"penalties": table.zeros()}

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: PolignacState, record: Mapping) -> HandResult:
        jacks = record["jacks"]
        changes = [0] * state.table.sides
        taken: dict[int, list[str]] = {}
        for suit in _SUITS:
            changes[jacks[suit]] += jack_points(suit)
            taken.setdefault(jacks[suit], []).append(f"J{_SYMBOLS[suit]}")
        reasons = [
            Reason(
                counted(
                    changes[side],
                    "%(side)s took %(cards)s: +%(num)s point",
                    "%(side)s took %(cards)s: +%(num)s points",
                    side=side_name(side),
                    cards=joined(cards, ", "),
                ),
                Rule.JACKS,
            )
            for side, cards in sorted(taken.items())
        ]
        after = state.evolve(penalties=added(state.penalties, changes))
        if self.reached(after) is not None:
            reasons += end_reasons(self.result(after), Rule.END, Rule.TIES)
        return HandResult(after, changes, reasons)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: PolignacState, called: bool = False) -> Result:
        lowest = holders(state.penalties, min)
        low = state.penalties[lowest[0]]
        if self.reached(state) is None:
            if not state.hands:
                return Result(
                    False, None, msg("Lowest score wins once someone reaches %(target)s", target=self.target(state))
                )
            return Result(
                False,
                None,
                counted(low, "%(who)s lowest on %(num)s point", "%(who)s lowest on %(num)s points", who=names(lowest)),
            )
        return best_wins(
            lowest,
            state.options,
            counted(low, "%(num)s point", "%(num)s points"),
            won=lambda who: msg("%(who)s wins with the fewest penalty points, %(low)s", who=who, low=low),
            tied=lambda who: msg("%(who)s tie for the lowest score, %(low)s", who=who, low=low),
        )

    def board(self, state: PolignacState) -> Board:
        lines = (
            counted(
                self.target(state),
                "The match ends at %(num)s point: lowest wins",
                "The match ends at %(num)s points: lowest wins",
            ),
        )
        return dataclasses.replace(
            super().board(state), lines=lines, turn=(("Deals", state.dealer),), lower_is_better=True
        )

    # Every hand gives out the four jacks' 5 points: 0 is a hand without a jack, 5 a hand with all four.
    statistics = (
        Statistic(
            "clean_hands",
            "Hands without a jack",
            lambda done, side: sum(1 for hand in done.hands if hand.changes[side] == 0),
        ),
        Statistic(
            "all_jacks",
            "Hands with all four jacks",
            lambda done, side: sum(1 for hand in done.hands if hand.changes[side] == _ALL_JACKS),
        ),
    )

    def public_state(self, state: PolignacState) -> dict:
        return {"winners": list(self.result(state).winners)}

    def example_hand(self, state: PolignacState, rng) -> dict:
        return {"jacks": {suit: rng.randrange(state.table.sides) for suit in _SUITS}}


GAME = Polignac()
