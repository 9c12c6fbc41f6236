"""Botifarra: four players in two partnerships, 48-card deck, first side to 101 (api/partnership.md, S4:203-232).

What the table records after the twelve tricks: the trump suit or botifarra (no trumps), the last
doubling made, and each side's points: card points (9 = 5, A = 4, K = 3, Q = 2, J = 1) plus one per
trick, 72 in all (S4:226-232, ruling 18).

Scoring (S4:232): the side with more than 36 scores (its points - 36) x the multiplier; at 36 each
nobody scores. The multiplier is 2 for botifarra (S4:219) times 1, 2, 4 or 8 for no doubling, a
double, a redouble or a re-redouble (S4:218); `multiplier_cap: 8` holds it at the seed's "highest
multiplier possible" (ruling 19), else a doubled-up botifarra is worth 16.

The match is one game: the first side to `target` (101, S4:208) wins, overshoot counting; only one
side scores in a hand, so there is no tie. The deal passes to the next seat (ruling 16); the dealer
names trumps or passes that choice to the partner (S4:217), which the record does not ask (ruling 17).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, lead_or_level, wins
from .base import Board, Field, HandResult, Reason, Result, State, Text, added, declared, joined, msg, side_name
from .reference import GAME_POINTS, OWN, REVOKE, HouseRule, Reference, Source
from .statistics import Statistic, hands_scored

_PLAYERS = 4
_TARGET = 101  # S4:208
_POINTS_IN_HAND = 72  # S4:232
_HALF = _POINTS_IN_HAND // 2  # S4:232: the side over 36 scores the excess
_BOTIFARRA = "botifarra"
_TRUMPS = ("spades", "hearts", "diamonds", "clubs", _BOTIFARRA)
_BOTIFARRA_FACTOR = 2  # S4:219: no trumps doubles the hand
_CAP = 8  # S4:218: "the highest multiplier possible"


class Doubling(StrEnum):
    """The last doubling made (S4:218): by the dealer's opponents, back by the dealer's side, and again."""

    NONE = "none"
    DOUBLE = "double"
    REDOUBLE = "redouble"
    REREDOUBLE = "reredouble"


_DOUBLING_FACTOR = {Doubling.NONE: 1, Doubling.DOUBLE: 2, Doubling.REDOUBLE: 4, Doubling.REREDOUBLE: 8}
_DOUBLING_WORD = {
    # Translators: Botifarra, in the multiplier of a hand's reason ("doubled x2")
    Doubling.DOUBLE: msg("doubled"),
    # Translators: Botifarra, in the multiplier of a hand's reason ("redoubled x4")
    Doubling.REDOUBLE: msg("redoubled"),
    # Translators: Botifarra, in the multiplier of a hand's reason ("re-redoubled x8")
    Doubling.REREDOUBLE: msg("re-redoubled"),
}


class Rule(StrEnum):
    """Section ids of templates/rules/botifarra.html that the reason lines link to."""

    POINTS = "points"
    MULTIPLIER = "multiplier"
    END = "end"


@dataclass(frozen=True)
class BotifarraState(State):
    points: tuple[int, int] = (0, 0)


def multiplier(trump: str, doubling: str, cap: int | None) -> tuple[int, Text]:
    """What the hand's excess over 36 is multiplied by, and how it came about ("botifarra x2, doubled x2")."""
    factors: list[tuple[int, Text]] = []
    if trump == _BOTIFARRA:
        factors.append((_BOTIFARRA_FACTOR, declared("Botifarra", lower=True)))  # the trump choice's label
    if doubling != Doubling.NONE:
        factors.append((_DOUBLING_FACTOR[Doubling(doubling)], _DOUBLING_WORD[Doubling(doubling)]))
    times = 1
    for factor, _ in factors:
        times *= factor
    how = joined((msg("%(what)s x%(factor)s", what=word, factor=factor) for factor, word in factors), ", ")
    if cap is not None and times > cap:
        how = msg("%(how)s: x%(times)s capped at x%(cap)s", how=how, times=times, cap=cap)
        times = cap
    return times, how


class Botifarra(Race):
    key = "botifarra"
    name = "Botifarra"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = True
    unit = "points"
    rules = Rule
    state_class = BotifarraState
    options = (
        Field("target", "int", "Points that win the game.", default=_TARGET, min=1, max=1000),
        Field(
            "multiplier_cap",
            "choice",
            "Hold a hand's multiplier at 8 (a re-redoubled botifarra would be 16); leave empty for no cap.",
            default=None,
            nullable=True,
            choices=(_CAP,),
            label="Multiplier cap",
        ),
    )
    hand_fields = (
        Field(
            "trump",
            "choice",
            "The trump suit named for the hand, or botifarra: no trumps, worth double.",
            choices=_TRUMPS,
            ask="Trumps",
        ),
        Field.choice(
            "doubling",
            "The last doubling made: no double, double (x2), redouble (x4) or re-redouble (x8).",
            Doubling,
            default=Doubling.NONE,
            choice_labels={Doubling.NONE: "No double", Doubling.REREDOUBLE: "Re-redouble"},
            menu=True,
        ),
        Field(
            "points",
            "per_side",
            "Each side's card points plus one per trick; they add up to 72.",
            min=0,
            max=_POINTS_IN_HAND,
            total=_POINTS_IN_HAND,
            ask="Points out of 72",
        ),
    )

    reference = Reference(
        names=("Butifarra",),
        line=msg("Catalan partnership trick game: 9s are top, no-trumps doubles, first side to 101."),
        sources=(
            Source(
                "Botifarra", msg("a how-to-play article by Denexa Games (its text breaks off in the part on doubling)")
            ),
            Source(msg("Standard practice at Catalan tables"), REVOKE, standard=True),
            OWN,
        ),
        house_rules={
            "target": HouseRule("end", counted=GAME_POINTS),
            "multiplier_cap": HouseRule(
                "multiplier",
                says={None: msg("no cap: a re-redoubled botifarra counts ×16"), 8: msg("no hand counts more than ×8")},
            ),
        },
    )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: BotifarraState, record: Mapping) -> HandResult:
        points = record["points"]
        trump, doubling = record["trump"], self.value(record, "doubling")
        changes = [0, 0]
        if points[0] == points[1]:
            reasons = [Reason(msg("%(half)s each: nobody scores", half=_HALF), Rule.POINTS)]
        else:
            reasons = self._score(points, trump, doubling, state.options["multiplier_cap"], changes)
        new = state.evolve(points=added(state.points, changes))
        standing = self.result(new)
        if standing.over:
            reasons.append(Reason(standing.headline, Rule.END))
        return HandResult(new, changes, reasons, standing.winner)

    @staticmethod
    def _score(points: list[int], trump: str, doubling: str, cap: int | None, changes: list[int]) -> list[Reason]:
        """S4:232: the side over 36 scores its excess, times the multiplier (S4:218-219)."""
        side = 0 if points[0] > points[1] else 1
        excess = points[side] - _HALF
        times, how = multiplier(trump, doubling, cap)
        changes[side] = excess * times
        values = {
            "side": side_name(side),
            "points": points[side],
            "all": _POINTS_IN_HAND,
            "excess": excess,
            "half": _HALF,
        }
        if times == 1:
            return [
                Reason(
                    msg("%(side)s: %(points)s of %(all)s, %(excess)s over %(half)s: +%(excess)s", **values), Rule.POINTS
                )
            ]
        return [
            Reason(msg("%(side)s: %(points)s of %(all)s, %(excess)s over %(half)s", **values), Rule.POINTS),
            Reason(msg("x%(times)s (%(how)s): +%(score)s", times=times, how=how, score=changes[side]), Rule.MULTIPLIER),
        ]

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: BotifarraState, called: bool = False) -> Result:
        winner = self.reached(state)  # only one side scores a hand: no tie past the target
        if winner is not None:
            return Result(True, winner, wins(winner, state.points, "game"))
        return Result(False, None, lead_or_level(state.points, game_to=self.target(state)))

    def board(self, state: BotifarraState) -> Board:
        cap = state.options["multiplier_cap"]
        lines = (msg("First to %(target)s", target=self.target(state)),)
        if cap:
            lines += (msg("Multiplier capped at x%(cap)s", cap=cap),)
        # S4:217: the dealer names trumps (or passes the choice to the partner)
        turn = (("Deals and names trumps", state.dealer),)
        return dataclasses.replace(super().board(state), lines=lines, turn=turn)

    # Only the side over 36 scores a hand (36-36 scores nobody): the hands a side scored in are its wins.
    statistics = (Statistic("hands_won", "Hands won", hands_scored),)

    def example_hand(self, state: BotifarraState, rng) -> dict:
        first = rng.choice((_HALF, rng.randint(0, _POINTS_IN_HAND), rng.randint(20, 52)))
        record = {"trump": rng.choice(_TRUMPS), "points": [first, _POINTS_IN_HAND - first]}
        if rng.random() < 0.5:
            record["doubling"] = rng.choice(tuple(d.value for d in Doubling))
        return record


GAME = Botifarra()
