"""Calabrasella: three players, one declarer against two defenders, paid in chips
(RULES.md 2.18, seed S4:182-202, api/chips.md `calabrasella`).

After the twelve tricks the declarer's card points are counted against the defenders' together
(ace 3; each 3, 2, K, Q and J 1; the last trick 3; S4:200). The difference is paid per defender:
each defender pays the declarer, or the declarer pays each defender (S4:201); equal counts pay
nothing. A 35-0 hand, either way, pays 70 a head (S4:202; ruling 14: only 35-0 itself).
Four cards (discards and unused widow cards) are set aside in every played hand and score for
nobody (S4:196, ruling 13), so the counts add up to 23..35; option `set_aside_to: last_trick`
gives them to the last trick's winner, and the counts then add up to 35.

When all three pass nobody pays (S4:194). The deal passes to the left after every hand
(ruling 15). The balances always add up to 0; the table calls `finish`, and the highest balance
wins (shared: no winner).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import holders, leading
from .base import (
    Board,
    Field,
    Game,
    HandResult,
    Reason,
    RecordError,
    Result,
    State,
    added,
    counted,
    declared,
    msg,
    names,
    side_name,
)
from .reference import DENEXA, ITALIAN_REVOKE, OWN, HouseRule, Reference, Source, Term
from .statistics import Finished, Statistic, gained, given_up, sole, sole_scorer

_PLAYERS = 3
_ALL_POINTS = 35  # S4:200: four aces at 3, twenty cards at 1 (3s, 2s, K, Q, J), the last trick 3
_SET_ASIDE_MOST = 12  # ruling 13: four cards set aside hold at most four aces
_SWEEP_PAYMENT = 70  # S4:202


class SetAside(StrEnum):
    NOBODY = "nobody"
    LAST_TRICK = "last_trick"


class Rule(StrEnum):
    """Section ids of templates/rules/calabrasella.html that the reason lines link to."""

    PAYMENT = "payment"
    SWEEP = "sweep"
    ALL_PASS = "all-pass"


@dataclass(frozen=True)
class CalabrasellaState(State):
    chips: tuple[int, ...] = (0, 0, 0)


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _declarer_won(done: Finished, side: int) -> int:
    """Hands the side won as declarer: the only player paid in the hand (a declarer who loses pays
    both defenders, so two are paid; a tie or a pass pays nobody)."""
    return sum(1 for hand in done.hands if sole_scorer(hand.changes) == side)


def _declarer_lost(done: Finished, side: int) -> int:
    """Hands the side lost as declarer: the only player who paid in the hand."""
    payers = (sole(seat for seat, change in enumerate(hand.changes) if change < 0) for hand in done.hands)
    return sum(1 for payer in payers if payer == side)


class Calabrasella(Game):
    key = "calabrasella"
    name = "Calabrasella"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    unit = "chips"
    rules = Rule
    state_class = CalabrasellaState
    options = (
        Field.choice(
            "set_aside_to",
            "The four cards set aside (discards and unused widow) score for nobody, or for the last trick's winner.",
            SetAside,
            default=SetAside.NOBODY,
            label="Set-aside cards",
        ),
    )
    hand_fields = (
        Field(
            "declarer", "seat", "Who played alone; nobody when all three passed.", nullable=True, ask="Who declared?"
        ),
        Field(
            "declarer_points",
            "int",
            "The declarer's card points (ace 3; 3, 2, K, Q, J 1 each; last trick 3).",
            min=0,
            max=_ALL_POINTS,
            when=("declarer", tuple(range(_PLAYERS))),
            label="Declarer's points",
        ),
        Field(
            "defender_points",
            "int",
            "The two defenders' card points together.",
            min=0,
            max=_ALL_POINTS,
            when=("declarer", tuple(range(_PLAYERS))),
            label="Defenders' points",
        ),
    )

    reference = Reference(
        names=("Calabresella", "Terziglio"),
        line=msg("Italian three-hander: one player against two, paid in chips by the points difference."),
        sources=(
            Source("Calabrasella", DENEXA),
            Source(
                msg("An Italian description of Calabresella"),
                msg("the set-aside cards going to the last trick"),
                standard=True,
            ),
            ITALIAN_REVOKE,
            OWN,
        ),
        house_rules={
            "set_aside_to": HouseRule(
                "set-aside",
                says={
                    "nobody": msg("the four cards set aside count for nobody"),
                    "last_trick": msg("the four cards set aside go to whoever takes the last trick"),
                },
            ),
        },
        terms=(
            Term("widow", "set-aside", msg("In Calabrasella, the four cards the declarer may exchange with.")),
            Term("sweep", "sweep", msg("In Calabrasella, 35 points to nothing: every payment is 70.")),
        ),
    )

    def ends_by_call(self, options: Mapping) -> bool:
        return True

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: CalabrasellaState, record: dict) -> None:
        if record["declarer"] is None:
            return
        total = record["declarer_points"] + record["defender_points"]
        fields = ("declarer_points", "defender_points")
        if state.options["set_aside_to"] == SetAside.LAST_TRICK:
            if total != _ALL_POINTS:
                message = msg(
                    "With the set-aside cards going to the last trick, the counts add up to 35, not %(total)s.",
                    total=total,
                )
                raise RecordError(message, fields={name: message for name in fields})
        elif not _ALL_POINTS - _SET_ASIDE_MOST <= total <= _ALL_POINTS:
            message = msg(
                "The counts add up to %(low)s to %(high)s (the four cards set aside hold at most %(most)s), "
                "not %(total)s.",
                low=_ALL_POINTS - _SET_ASIDE_MOST,
                high=_ALL_POINTS,
                most=_SET_ASIDE_MOST,
                total=total,
            )
            raise RecordError(message, fields={name: message for name in fields})

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: CalabrasellaState, record: Mapping) -> HandResult:
        declarer = record["declarer"]
        if declarer is None:  # S4:194
            reasons = [Reason(msg("All three passed: nobody pays"), Rule.ALL_PASS)]
            return HandResult(state, [0] * _PLAYERS, reasons)
        ours, theirs = record["declarer_points"], record["defender_points"]
        each, reason = _payment(side_name(declarer), ours, theirs)
        changes = [2 * each if seat == declarer else -each for seat in range(_PLAYERS)]
        return HandResult(state.evolve(chips=added(state.chips, changes)), changes, [reason])

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: CalabrasellaState, called: bool = False) -> Result:
        leaders = holders(state.chips, max)
        best = state.chips[leaders[0]]
        if not called:
            if len(leaders) == _PLAYERS:
                return Result(False, None, msg("All level") if best == 0 else msg("All level at %(best)s", best=best))
            return Result(False, None, leading(leaders, f"{best:+d}"))
        if len(leaders) > 1:
            return Result(
                True,
                None,
                msg("No winner: %(who)s share the best balance, %(best)s", who=names(leaders), best=f"{best:+d}"),
            )
        return Result(
            True,
            leaders[0],
            msg("%(who)s wins with %(best)s %(unit)s", who=names(leaders), best=f"{best:+d}", unit=declared(self.unit)),
        )

    def scores(self, state: CalabrasellaState) -> list[int]:
        return list(state.chips)

    def board(self, state: CalabrasellaState) -> Board:
        return dataclasses.replace(super().board(state), turn=(("Deals", state.dealer),))

    statistics = (
        Statistic("chips_won", "Chips won", gained),
        Statistic("chips_lost", "Chips lost", given_up),
        Statistic("declarer_won", "Hands won as declarer", _declarer_won),
        Statistic("declarer_lost", "Hands lost as declarer", _declarer_lost),
    )

    def example_hand(self, state: CalabrasellaState, rng) -> dict:
        if rng.random() < 0.15:
            return {"declarer": None}
        if state.options["set_aside_to"] == SetAside.LAST_TRICK:
            total = _ALL_POINTS
        else:
            total = rng.randint(_ALL_POINTS - _SET_ASIDE_MOST, _ALL_POINTS)
        ours = rng.randint(0, total)
        return {"declarer": rng.randrange(_PLAYERS), "declarer_points": ours, "defender_points": total - ours}


def _payment(declarer: str, ours: int, theirs: int) -> tuple[int, Reason]:
    """What each defender pays the declarer (negative: receives from them), and why (S4:201-202)."""
    if (ours, theirs) == (_ALL_POINTS, 0):
        text = msg("%(side)s took all 35: each defender pays %(paid)s", side=declarer, paid=_SWEEP_PAYMENT)
        return _SWEEP_PAYMENT, Reason(text, Rule.SWEEP)
    if (ours, theirs) == (0, _ALL_POINTS):
        text = msg("The defenders took all 35: %(side)s pays each of them %(paid)s", side=declarer, paid=_SWEEP_PAYMENT)
        return -_SWEEP_PAYMENT, Reason(text, Rule.SWEEP)
    if ours > theirs:
        text = counted(
            ours - theirs,
            "%(side)s wins %(ours)s to %(theirs)s: each defender pays %(num)s chip",
            "%(side)s wins %(ours)s to %(theirs)s: each defender pays %(num)s chips",
            side=declarer,
            ours=ours,
            theirs=theirs,
        )
        return ours - theirs, Reason(text, Rule.PAYMENT)
    if ours < theirs:
        text = counted(
            theirs - ours,
            "%(side)s loses %(ours)s to %(theirs)s: pays each defender %(num)s chip",
            "%(side)s loses %(ours)s to %(theirs)s: pays each defender %(num)s chips",
            side=declarer,
            ours=ours,
            theirs=theirs,
        )
        return ours - theirs, Reason(text, Rule.PAYMENT)
    return 0, Reason(
        msg("%(side)s ties %(ours)s to %(theirs)s: nobody pays", side=declarer, ours=ours, theirs=theirs), Rule.PAYMENT
    )


GAME = Calabrasella()
