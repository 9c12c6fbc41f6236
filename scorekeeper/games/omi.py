"""Omi: four players in two partnerships, 32 cards, eight tricks a hand; first side to 10 points wins
(api/partnership.md `omi`, seed S4:33-48).

The record is only the tricks each side took (ruling 1): which side is the dealer's team and which
the declarer's team comes from the match's dealer. The seat after the dealer names trumps (S4:41).

Scoring (S4:44-47): the side with five or more tricks wins the hand. All eight score 3; five to
seven score 2 for the dealer's team, 1 for the declarer's team. A 4-4 hand scores nothing and leaves
a bonus for the winner of the next hand not tied: +1, or one more per tie in a row with
`tie_bonus: accumulate` (the default); `single` keeps it at 1. With `tie_bonus_on_all_eight: false`
an eight-trick hand scores 3 and no more, and the pending bonus lapses (ruling 3).

The deal passes to the next seat after every hand, a 4-4 hand included (ruling 2). The first side to
reach `target` (overshoot counts) wins; only one side scores in a hand, so there is no tie (ruling 4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, lead_or_level, wins
from .base import Board, Field, HandResult, Reason, Result, State, added, agreeing, counted, msg, only, side_name
from .reference import DENEXA, GAME_POINTS, OWN, HouseRule, Reference, Source
from .statistics import Finished, Statistic, hands_scored

_PLAYERS = 4
_TRICKS = 8
_TRICKS_TO_WIN = 5  # S4:46: five or more tricks win the hand
_ALL_EIGHT_POINTS = 3  # S4:45
_DEALER_TEAM_POINTS = 2  # S4:46
_DECLARER_TEAM_POINTS = 1  # S4:46
_TIE_BONUS_STEP = 1  # S4:47: "one extra point"
_TARGET = 10  # S4:48
_MOST_TARGET = 100


class TieBonus(StrEnum):
    ACCUMULATE = "accumulate"
    SINGLE = "single"


class Rule(StrEnum):
    """Section ids of templates/rules/omi.html that the reason lines link to."""

    TRICKS = "tricks"
    ALL_EIGHT = "all-eight"
    TIE = "four-four"
    END = "end"


@dataclass(frozen=True)
class OmiState(State):
    points: tuple[int, ...] = (0, 0)
    pending_bonus: int = 0  # what the next winner not tied 4-4 adds to its hand points


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _kapothi(done: Finished, side: int) -> int | None:
    """Hands the side won with all eight tricks (kapothi), told from what each won hand scored against
    what it would have scored with five to seven, given the dealer and the pending 4-4 bonus before
    it. Under `tie_bonus_on_all_eight: false` the two can be equal (2 + a bonus of 1, or 1 + 2, against
    a flat 3): then the match cannot tell, and the figure is left out (None)."""
    bonus_on_all_eight = done.state.options["tie_bonus_on_all_eight"]
    count = 0
    for before, hand in done.before_each(GAME.new_state(done.table, done.state.options)):
        scored = hand.changes[side]
        if scored <= 0:
            continue
        dealers = done.table.side_of(before.dealer) == side
        five_to_seven = (_DEALER_TEAM_POINTS if dealers else _DECLARER_TEAM_POINTS) + before.pending_bonus
        all_eight = _ALL_EIGHT_POINTS + (before.pending_bonus if bonus_on_all_eight else 0)
        if scored == all_eight == five_to_seven:
            return None
        count += scored == all_eight
    return count


class Omi(Race):
    key = "omi"
    name = "Omi"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = True
    unit = "points"
    rules = Rule
    state_class = OmiState
    options = (
        Field("target", "int", "Points that win the game.", default=_TARGET, min=1, max=_MOST_TARGET),
        Field.choice(
            "tie_bonus",
            "A 4-4 hand: each tie in a row adds 1 to the bonus (accumulate), or the bonus stays at 1 (single).",
            TieBonus,
            default=TieBonus.ACCUMULATE,
        ),
        Field(
            "tie_bonus_on_all_eight",
            "bool",
            "A hand won with all eight tricks also collects a pending 4-4 bonus; off: it scores 3, the bonus lapses.",
            default=True,
            label="4-4 bonus on all eight",
        ),
    )
    hand_fields = (
        Field(
            "tricks",
            "per_side",
            "Tricks each side took, adding up to 8.",
            min=0,
            max=_TRICKS,
            total=_TRICKS,
            ask="Tricks taken",
        ),
    )

    reference = Reference(
        names=("Oombi",),
        line=msg("Sri Lankan partnership game with 32 cards: trumps named on four cards, first side to 10."),
        sources=(
            Source("Omi", DENEXA),
            OWN,
        ),
        house_rules={
            "target": HouseRule("end", counted=GAME_POINTS),
            "tie_bonus": HouseRule(
                "four-four",
                says={
                    "accumulate": msg("each 4-4 hand in a row adds 1 to the waiting bonus"),
                    "single": msg("the waiting 4-4 bonus stays at 1, however many ties in a row"),
                },
            ),
            "tie_bonus_on_all_eight": HouseRule(
                "all-eight",
                says={
                    True: msg("all eight tricks also collect a waiting 4-4 bonus"),
                    False: msg("all eight tricks score 3 and no more; a waiting bonus lapses"),
                },
            ),
        },
    )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: OmiState, record: Mapping) -> HandResult:
        tricks = record["tricks"]
        if tricks[0] == tricks[1]:
            return self._tie(state)
        winner = 0 if tricks[0] >= _TRICKS_TO_WIN else 1
        points, pending, reasons = self._win(state, winner, tricks[winner])
        changes = only(winner, points, state.table.sides)
        new = state.evolve(points=added(state.points, changes), pending_bonus=pending)
        game_winner = self.reached(new)
        if game_winner is not None:
            text = agreeing(
                game_winner,
                "%(side)s reaches %(points)s (game to %(target)s) and wins",
                "%(side)s reach %(points)s (game to %(target)s) and win",
                points=new.points[game_winner],
                target=self.target(new),
            )
            reasons.append(Reason(text, Rule.END))
        return HandResult(new, changes, reasons, game_winner)

    def _win(self, state: OmiState, winner: int, taken: int) -> tuple[int, int, list[Reason]]:
        """The hand's points for the winner, the bonus left pending, and why (S4:45-47)."""
        name, bonus = side_name(winner), state.pending_bonus
        if taken == _TRICKS:
            reasons = [
                Reason(
                    msg("%(side)s took all eight tricks: +%(points)s", side=name, points=_ALL_EIGHT_POINTS),
                    Rule.ALL_EIGHT,
                )
            ]
            if bonus and not state.options["tie_bonus_on_all_eight"]:
                # ruling 3: the extra belonged to this hand; without it, it lapses
                lapse = msg("the pending 4-4 bonus of %(bonus)s lapses: all eight score 3 only", bonus=bonus)
                reasons.append(Reason(lapse, Rule.ALL_EIGHT))
                return _ALL_EIGHT_POINTS, 0, reasons
            points = _ALL_EIGHT_POINTS
        else:
            dealer_team = state.table.side_of(state.dealer)
            if winner == dealer_team:
                points = _DEALER_TEAM_POINTS
                text = msg(
                    "%(side)s, the dealer's team, took %(taken)s of 8 tricks: +%(points)s",
                    side=name,
                    taken=taken,
                    points=points,
                )
            else:
                points = _DECLARER_TEAM_POINTS
                text = msg(
                    "%(side)s, the declarer's team, took %(taken)s of 8 tricks: +%(points)s",
                    side=name,
                    taken=taken,
                    points=points,
                )
            reasons = [Reason(text, Rule.TRICKS)]
        if bonus:
            reasons.append(
                Reason(msg("%(side)s wins the pending 4-4 bonus: +%(bonus)s", side=name, bonus=bonus), Rule.TIE)
            )
        return points + bonus, 0, reasons

    def _tie(self, state: OmiState) -> HandResult:
        """S4:47: nobody scores; the next winner gets the bonus, grown as `tie_bonus` says."""
        if state.options["tie_bonus"] == TieBonus.SINGLE:
            pending = _TIE_BONUS_STEP
        else:
            pending = state.pending_bonus + _TIE_BONUS_STEP
        text = msg("4-4: nobody scores; the pending bonus is now %(bonus)s", bonus=pending)
        new = state.evolve(pending_bonus=pending)
        return HandResult(new, [0] * state.table.sides, [Reason(text, Rule.TIE)])

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: OmiState, called: bool = False) -> Result:
        winner = self.reached(state)
        if winner is not None:
            return Result(True, winner, wins(winner, state.points))
        return Result(False, None, lead_or_level(state.points, nothing=msg("No points yet")))

    def board(self, state: OmiState) -> Board:
        lines = [counted(self.target(state), "First to %(num)s point", "First to %(num)s points")]
        if state.pending_bonus:
            lines.append(msg("4-4 bonus pending: +%(bonus)s to the next hand's winner", bonus=state.pending_bonus))
        turn = (("Deals", state.dealer), ("Declares", self.declarer(state)))
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=turn)

    # Only a hand's winner scores (a 4-4 hand scores nobody), so the hands a side scored in are its wins.
    statistics = (
        Statistic("hands_won", "Hands won", hands_scored),
        Statistic("kapothi", "Kapothi (all eight tricks)", _kapothi),
    )

    def public_state(self, state: OmiState) -> dict:
        return {"pending_bonus": state.pending_bonus, "declarer": self.declarer(state)}

    @staticmethod
    def declarer(state: State) -> int:
        """The dealer's left names trumps (S4:41); derived from the dealer, never stored."""
        return state.table.next_seat(state.dealer)

    def example_hand(self, state: OmiState, rng) -> dict:
        first = rng.randint(0, _TRICKS)
        return {"tricks": [first, _TRICKS - first]}


GAME = Omi()
