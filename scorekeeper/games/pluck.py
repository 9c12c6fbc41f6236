"""Pluck: three players, seventeen tricks, a quota each; tricks over the quota score (RULES.md 2.15,
seed S4:105-132, api/tally.md `pluck`).

The quotas follow the deal (S4:117-119): the dealer must take 7 tricks, the player on the dealer's
left 6, the player on the dealer's right 4; they add up to the 17 tricks. A player scores one point
per trick over the quota and nothing at or under it (S4:126). The deal passes left after every hand
(S4:127), so the app knows each seat's quota and the record is the tricks alone (tally.md ruling 4).

Each seat's `tricks - quota` in the last hand says how many plucks it makes (positive) or suffers
(negative) before the next hand (S4:129); with three players that fixes who plucks whom. Plucks
swap cards, never points: the app shows them and keeps no record of them (ruling 5).

After a hand that leaves a score at `target` (20, S4:132) or more the highest score wins, also when
two players pass it in the same hand; equal highest scores play another hand (`tie_at_end:
play_on`, the default) or share the win (`shared`) (ruling 6).

A revoke (failing to follow suit when able) found in a hand is not in the seed; Scorekeeper rules
it as standard Whist does, in points: `revoked_by` (optional, default null: nobody) names the
player who revoked, and each of the other two scores `_REVOKE_POINTS` (3) more for that hand. The
tricks are recorded as they were taken, so the plucks stay as the cards fell.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, TieAtEnd, best_wins, end_reasons, holders, leading, tie_at_end_option
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    Result,
    State,
    Table,
    Text,
    added,
    counted,
    joined,
    msg,
    names,
    side_name,
    times,
)
from .reference import DENEXA, OWN, WHIST_REVOKE, HouseRule, Reference, Source, Term, by_number
from .statistics import Statistic

_PLAYERS = 3
_TRICKS = 17  # the 51-card pack dealt out, 17 cards each (S4:112)
_DEALER_QUOTA, _LEFT_QUOTA, _RIGHT_QUOTA = 7, 6, 4  # S4:117-119
_TARGET = 20  # S4:132
_MOST_TARGET = 100
_REVOKE_POINTS = 3  # Whist's penalty for a revoke: three points to the other side


class Rule(StrEnum):
    """Section ids of templates/rules/pluck.html that the reason lines link to."""

    QUOTAS = "quotas"
    SCORING = "scoring"
    PLUCKS = "plucks"
    END = "end"
    TIES = "ties"
    REVOKE = "revoke"


@dataclass(frozen=True)
class PluckState(State):
    points: tuple[int, ...] = (0, 0, 0)
    plucks: tuple[int, ...] = (0, 0, 0)  # tricks - quota in the last hand (S4:129)


def quotas(table: Table, dealer: int) -> tuple[int, ...]:
    """Each seat's quota in a hand dealt by `dealer`: the dealer 7, the left 6, the right 4."""
    left = table.next_seat(dealer)
    by_seat = {dealer: _DEALER_QUOTA, left: _LEFT_QUOTA, table.next_seat(left): _RIGHT_QUOTA}
    return tuple(by_seat[seat] for seat in range(table.players))


class Pluck(Race):
    key = "pluck"
    name = "Pluck"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    rules = Rule
    state_class = PluckState
    options = (
        Field(
            "target",
            "int",
            "Points that end the match: the highest score then wins.",
            default=_TARGET,
            min=1,
            max=_MOST_TARGET,
            label="Target",
        ),
        tie_at_end_option(TieAtEnd.PLAY_ON, "Equal highest scores at the end: play another hand, or share the win."),
    )
    hand_fields = (
        Field(
            "tricks",
            "per_side",
            "Tricks each player took; they add up to 17. The app knows the quotas.",
            min=0,
            max=_TRICKS,
            total=_TRICKS,
            total_in="a deal",
            label="Tricks",
            ask="How many tricks did each player take?",
        ),
        Field(
            "revoked_by",
            "side",
            "The player who revoked (failed to follow suit when able), if anyone: the other two score 3 each.",
            default=None,
            nullable=True,
            rare=True,
            ask="Who revoked?",
        ),
    )

    reference = Reference(
        line=msg("Three players, seventeen tricks, quotas of 7, 6 and 4: tricks over quota score and pluck."),
        sources=(
            Source("Pluck", DENEXA),
            WHIST_REVOKE,
            OWN,
        ),
        house_rules={
            "target": HouseRule(
                "end",
                counted=by_number(
                    "the match ends once a player has %(num)d point", "the match ends once a player has %(num)d points"
                ),
            ),
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "play_on": msg("equal highest scores at the end play another hand"),
                    "shared": msg("equal highest scores at the end share the win"),
                },
            ),
        },
        terms=(
            Term(
                "quota",
                "quotas",
                msg("The tricks a player must take: 7 for the dealer, 6 on the left, 4 on the right."),
            ),
            Term("pluck", "plucks", msg("A card exchange earned by each trick over quota in the last hand.")),
            Term("big joker", "glance", msg("Pluck's top trump, above the little joker.")),
        ),
    )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: PluckState, record: Mapping) -> HandResult:
        tricks = record["tricks"]
        quota = quotas(state.table, state.dealer)
        over = [taken - needed for taken, needed in zip(tricks, quota)]
        changes = [max(0, extra) for extra in over]
        reasons = [self._seat_reason(seat, tricks[seat], quota[seat], changes[seat]) for seat in range(_PLAYERS)]
        revoker = self.value(record, "revoked_by")
        if revoker is not None:
            changes = [change + (0 if seat == revoker else _REVOKE_POINTS) for seat, change in enumerate(changes)]
            reasons.append(_revoke_reason(revoker))
        reasons.append(Reason(_plucks_text(over), Rule.PLUCKS))
        after = state.evolve(points=added(state.points, changes), plucks=tuple(over))
        if self.reached(after) is not None:
            reasons += end_reasons(self.result(after), Rule.END, Rule.TIES)
        return HandResult(after, changes, reasons)

    @staticmethod
    def _seat_reason(seat: int, taken: int, quota: int, scored: int) -> Reason:
        if scored:
            return Reason(
                counted(
                    taken,
                    "%(side)s: %(num)s trick on a quota of %(quota)s: +%(points)s",
                    "%(side)s: %(num)s tricks on a quota of %(quota)s: +%(points)s",
                    side=side_name(seat),
                    quota=quota,
                    points=_points(scored),
                ),
                Rule.SCORING,
            )
        return Reason(
            counted(
                taken,
                "%(side)s: %(num)s trick on a quota of %(quota)s: nothing",
                "%(side)s: %(num)s tricks on a quota of %(quota)s: nothing",
                side=side_name(seat),
                quota=quota,
            ),
            Rule.SCORING,
        )

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: PluckState, called: bool = False) -> Result:
        highest = holders(state.points, max)
        high = _points(state.points[highest[0]])
        if self.reached(state) is not None:  # ruling 6: the highest score wins
            return best_wins(highest, state.options, high)
        if not state.hands:
            return Result(False, None, _first_to(self.target(state)))
        return Result(False, None, leading(highest, high))

    def board(self, state: PluckState) -> Board:
        quota = quotas(state.table, state.dealer)
        sides = tuple(
            dataclasses.replace(
                side, lines=(msg("Quota %(quota)s", quota=quota[seat]), _pluck_line(state.plucks[seat]))
            )
            for seat, side in enumerate(super().board(state).sides)
        )
        return Board(sides, lines=(_first_to(self.target(state)),), turn=(("Deals", state.dealer),))

    # The state after each hand keeps its tricks against the quota (`plucks`): at or above it, the
    # quota was made; below it, the player was short by that many.
    statistics = (
        Statistic(
            "quotas_made", "Quotas made", lambda done, side: sum(1 for state in done.states if state.plucks[side] >= 0)
        ),
        Statistic(
            "tricks_short",
            "Tricks short of the quota",
            lambda done, side: -sum(min(0, state.plucks[side]) for state in done.states),
        ),
    )

    def public_state(self, state: PluckState) -> dict:
        return {
            "quotas": list(quotas(state.table, state.dealer)),
            "plucks": list(state.plucks),
            "winners": list(self.result(state).winners),
        }

    def example_hand(self, state: PluckState, rng) -> dict:
        first = rng.randint(0, _TRICKS)
        second = rng.randint(0, _TRICKS - first)
        tricks = [first, second, _TRICKS - first - second]
        rng.shuffle(tricks)
        return {"tricks": tricks}


def _revoke_reason(revoker: int) -> Reason:
    """Whist's penalty, in points: each player who did not revoke scores 3 more."""
    text = msg(
        "%(side)s revoked: %(others)s +%(points)s each",
        side=side_name(revoker),
        others=names(seat for seat in range(_PLAYERS) if seat != revoker),
        points=_REVOKE_POINTS,
    )
    return Reason(text, Rule.REVOKE)


def _points(number: int) -> Text:
    return counted(number, "%(num)s point", "%(num)s points")


def _first_to(target: int) -> Text:
    return counted(target, "First to %(num)s point", "First to %(num)s points")


def _pluck_line(plucks: int) -> Text:
    if plucks > 0:
        # Translators: Pluck, a player's line on the scoreboard: the cards it takes from others before the next hand.
        return msg("Plucks %(plucks)s", plucks=plucks)
    if plucks < 0:
        # Translators: Pluck, a player's line on the scoreboard: the cards others take from it before the next hand.
        return msg("Plucked %(plucks)s", plucks=-plucks)
    # Translators: Pluck, a player's line on the scoreboard: no cards change hands before the next hand.
    return msg("No plucks")


def _plucks_text(over: list[int]) -> Text:
    """Who plucks whom before the next hand (S4:129): with three seats the signs fix it."""
    takers = [seat for seat in range(_PLAYERS) if over[seat] > 0]
    givers = [seat for seat in range(_PLAYERS) if over[seat] < 0]
    if not takers:
        return msg("Everybody made the quota exactly: no plucks next hand")
    if len(takers) == 1:
        taker = takers[0]
        parts = [
            msg(
                "%(taker)s plucks %(giver)s %(times)s",
                taker=side_name(taker),
                giver=side_name(giver),
                times=times(-over[giver]),
            )
            for giver in givers
        ]
    else:
        giver = givers[0]
        parts = [
            msg(
                "%(taker)s plucks %(giver)s %(times)s",
                taker=side_name(taker),
                giver=side_name(giver),
                times=times(over[taker]),
            )
            for taker in takers
        ]
    return msg("Next hand: %(plucks)s", plucks=joined(parts, ", "))


GAME = Pluck()
