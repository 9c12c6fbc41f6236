"""Toepen: three to eight players, each with a stack of tokens; only the last trick counts
(RULES.md 2.7, seed S3:82-134, api/chips.md `toepen`).

A hand is one record, settled at its end (ruling 1):
- every player in the hand pays 1 token per discard challenge they lost (S3:108);
- a player who folded pays the hand's value before the knock they folded to (S3:124);
- every other player except the winner of the last trick pays the hand's final value (S3:116);
- the winner pays nothing else, also a knocker to whom everybody folded (S3:126).
Tokens paid leave the game (S3:116). A balance stops at 0 unless `allow_debt` (ruling 6).

A player whose balance reaches 0 (or below, with `allow_debt`) has run out. Without
`elimination` the first to run out loses and the match ends with no winner (S3:132, ruling 4);
with it, they drop out and the last player holding tokens wins (S3:134). The winner of a hand
deals the next (S3:118), or, if they ran out in it, the next player to their left who still
holds tokens (ruling 5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import holders
from .base import (
    Board,
    Field,
    Game,
    HandResult,
    Reason,
    RecordError,
    Result,
    SideBoard,
    State,
    Text,
    added,
    counted,
    msg,
    names,
    side_name,
)
from .reference import DENEXA, OWN, STARTING_TOKENS, HouseRule, Reference, Source, Term
from .statistics import AVERAGE, Statistic, given_up

_MIN_PLAYERS, _MAX_PLAYERS = 3, 8
_DEFAULT_TOKENS = 10  # S3:96
_MOST_TOKENS = 100
_MOST_VALUE = 100
_MOST_CHALLENGES_EACH = 5
_DISCARD_LIMIT = 8  # ruling 2: a 32-card pack, four cards each, four drawn per discard: 8 - players


class Rule(StrEnum):
    """Section ids of templates/rules/toepen.html that the reason lines link to."""

    LAST_TRICK = "last-trick"
    FOLDING = "folding"
    CHALLENGES = "challenges"
    BROKE = "broke"
    OUT = "out"


@dataclass(frozen=True)
class ToepenState(State):
    tokens: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # seats that ran out, in the order they did (seat order within a hand)
    last_out: tuple[int, ...] = ()  # the seats that ran out in the last hand


class Toepen(Game):
    key = "toepen"
    name = "Toepen"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    unit = "tokens"
    rules = Rule
    state_class = ToepenState
    options = (
        Field(
            "starting_tokens",
            "int",
            "Tokens each player starts with.",
            default=_DEFAULT_TOKENS,
            min=1,
            max=_MOST_TOKENS,
            label="Starting tokens",
        ),
        Field(
            "elimination",
            "bool",
            "Players who run out drop out and the last one holding tokens wins (off: the first to run out loses).",
            default=False,
        ),
        Field(
            "allow_debt",
            "bool",
            "A player who owes more than they hold goes below 0 (off: they pay what they hold).",
            default=False,
            label="Allow debt",
        ),
    )
    hand_fields = (
        Field(
            "winner",
            "seat",
            "Who won the last trick, or the knocker everybody else folded to.",
            ask="Who won the hand?",
        ),
        Field(
            "value",
            "int",
            "What the hand was worth at its end: 1 plus the number of knocks.",
            default=1,
            min=1,
            max=_MOST_VALUE,
            label="Hand value",
        ),
        Field(
            "folded_at",
            "per_side",
            "For each player who folded, the value before the knock they folded to (what they pay); 0 for the others.",
            default=None,
            min=0,
            max=_MOST_VALUE - 1,
            label="Folded at",
        ),
        Field(
            "challenges_lost",
            "per_side",
            "Discard challenges each player lost in this hand (1 token each).",
            default=None,
            min=0,
            max=_MOST_CHALLENGES_EACH,
            label="Challenges lost",
        ),
    )

    reference = Reference(
        names=("Tuppen", "Siwweschrööm", "Eifelpoker"),
        line=msg("Dutch knocking game for three to eight: only the last trick counts; lost tokens leave the game."),
        sources=(
            Source("Toepen", DENEXA),
            OWN,
        ),
        house_rules={
            "starting_tokens": HouseRule("tokens", counted=STARTING_TOKENS),
            "elimination": HouseRule(
                "out",
                says={
                    False: msg("the first player to run out of tokens loses"),
                    True: msg("players who run out leave; the last one holding tokens wins"),
                },
            ),
            "allow_debt": HouseRule(
                "broke",
                says={
                    False: msg("a player who owes more than they hold pays what they have"),
                    True: msg("a player who owes more than they hold goes below 0"),
                },
            ),
        },
        terms=(
            Term("toep", "folding", msg("A knock in Toepen: the hand is worth one token more.")),
            Term("knock", "folding", msg("In Toepen, raising the hand by one token; the others may fold.")),
            Term("fold", "folding", msg("Giving up a Toepen hand after a knock: pay the value before the knock.")),
            Term(
                "vuile was",
                "challenges",
                msg("A hand of only aces and court cards, swapped for four new cards; it may be challenged."),
            ),
        ),
    )

    def start(self, table, options: Mapping) -> dict:
        return {"tokens": (options["starting_tokens"],) * table.players}

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: ToepenState, record: dict) -> None:
        folded, lost = self._folded(state, record), self._challenges(state, record)
        winner, value = record["winner"], self.value(record, "value")
        self._check_players_out(state, winner, folded, lost)
        if folded[winner]:
            raise RecordError(
                msg("%(side)s won the hand, so did not fold: their fold must be 0.", side=side_name(winner)),
                "folded_at",
            )
        for seat, paid in enumerate(folded):
            if paid >= value:
                raise RecordError(
                    msg(
                        "%(side)s folded to a knock, so paid less than the final value %(value)s.",
                        side=side_name(seat),
                        value=value,
                    ),
                    "folded_at",
                )
        allowed = _DISCARD_LIMIT - len(self.seats_in(state))
        if sum(lost) > allowed:
            raise RecordError(
                msg(
                    "At most %(allowed)s discard challenges can be lost in a hand with these players "
                    "(one per discard, and the stock allows %(allowed)s discards).",
                    allowed=allowed,
                ),
                "challenges_lost",
            )
        self._check_knock_limit(state, value, folded, lost)

    def _check_players_out(self, state: ToepenState, winner: int, folded: list[int], lost: list[int]) -> None:
        """With elimination, a player who is out takes no part in the hand (api: refused)."""
        for seat in self.seats_out(state):
            name = side_name(seat)
            if winner == seat:
                raise RecordError(msg("%(side)s is out of the match and cannot win a hand.", side=name), "winner")
            if folded[seat]:
                raise RecordError(msg("%(side)s is out of the match and did not fold.", side=name), "folded_at")
            if lost[seat]:
                raise RecordError(
                    msg("%(side)s is out of the match and lost no challenge.", side=name), "challenges_lost"
                )

    def _check_knock_limit(self, state: ToepenState, value: int, folded: list[int], lost: list[int]) -> None:
        """S3:128, ruling 3: the last knocker stayed in and could cover the value they knocked to."""
        if value < 2:
            return
        stayed = [seat for seat in self.seats_in(state) if not folded[seat]]
        if not any(state.tokens[seat] - lost[seat] >= value for seat in stayed):
            raise RecordError(
                counted(
                    value,
                    "Nobody who stayed in held %(num)s token, so nobody could knock the hand up to %(num)s.",
                    "Nobody who stayed in held %(num)s tokens, so nobody could knock the hand up to %(num)s.",
                ),
                "value",
            )

    def _folded(self, state: State, record: Mapping) -> list[int]:
        return self.value(record, "folded_at") or [0] * state.table.players

    def _challenges(self, state: State, record: Mapping) -> list[int]:
        return self.value(record, "challenges_lost") or [0] * state.table.players

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: ToepenState, record: Mapping) -> HandResult:
        folded, lost = self._folded(state, record), self._challenges(state, record)
        winner, value = record["winner"], self.value(record, "value")
        debt = state.options["allow_debt"]
        changes, reasons = [], []
        for seat in range(state.table.players):
            owed, why = self._owed(state, seat, winner, value, folded[seat], lost[seat])
            paid = owed if debt else min(owed, state.tokens[seat])
            reasons += why
            if paid < owed:
                reasons.append(
                    Reason(
                        counted(
                            state.tokens[seat],
                            "%(side)s had only %(num)s token: pays %(paid)s of %(owed)s",
                            "%(side)s had only %(num)s tokens: pays %(paid)s of %(owed)s",
                            side=side_name(seat),
                            paid=paid,
                            owed=owed,
                        ),
                        Rule.BROKE,
                    )
                )
            changes.append(-paid)
        tokens = added(state.tokens, changes)
        newly_out = tuple(seat for seat in range(state.table.players) if tokens[seat] <= 0 and seat not in state.out)
        after = state.evolve(tokens=tokens, out=state.out + newly_out, last_out=newly_out)
        reasons += self._end_reasons(after, newly_out)
        return HandResult(after, changes, reasons)

    def _owed(
        self, state: ToepenState, seat: int, winner: int, value: int, folded: int, lost: int
    ) -> tuple[int, list[Reason]]:
        """What one player owes for the hand, and why."""
        if seat in self.seats_out(state):
            return 0, []
        name = side_name(seat)
        reasons = []
        if lost:
            reasons.append(
                Reason(
                    counted(
                        lost,
                        "%(side)s lost %(num)s discard challenge: -%(num)s",
                        "%(side)s lost %(num)s discard challenges: -%(num)s",
                        side=name,
                    ),
                    Rule.CHALLENGES,
                )
            )
        if folded:
            reasons.append(
                Reason(msg("%(side)s folded at %(value)s: -%(value)s", side=name, value=folded), Rule.FOLDING)
            )
            return lost + folded, reasons
        if seat == winner:
            reasons.append(Reason(msg("%(side)s won the hand: pays nothing", side=name), Rule.LAST_TRICK))
            return lost, reasons
        reasons.append(
            Reason(
                msg("%(side)s stayed in and lost the hand worth %(value)s: -%(value)s", side=name, value=value),
                Rule.LAST_TRICK,
            )
        )
        return lost + value, reasons

    def _end_reasons(self, after: ToepenState, newly_out: tuple[int, ...]) -> list[Reason]:
        reasons = [Reason(msg("%(side)s has run out of tokens", side=side_name(seat)), Rule.OUT) for seat in newly_out]
        result = self.result(after)
        if newly_out and result.over:
            reasons.append(Reason(result.headline, Rule.OUT))
        return reasons

    def next_dealer(self, before: ToepenState, after: ToepenState, record: Mapping) -> int:
        """S3:118: the winner deals; one who just ran out passes it to the left (ruling 5)."""
        winner = record["winner"]
        if after.tokens[winner] > 0:
            return winner
        broke = [seat for seat in range(after.table.players) if after.tokens[seat] <= 0]
        return after.table.next_seat(winner, skip=broke)

    # -- reading ------------------------------------------------------------------------------
    def seats_out(self, state: ToepenState) -> tuple[int, ...]:
        return state.out if state.options["elimination"] else ()

    def seats_in(self, state: ToepenState) -> list[int]:
        gone = self.seats_out(state)
        return [seat for seat in range(state.table.players) if seat not in gone]

    def result(self, state: ToepenState, called: bool = False) -> Result:
        out = state.out
        if not state.options["elimination"]:
            if out:  # S3:132, ruling 4: a loser, no winner
                headline = counted(
                    len(out),
                    "%(who)s runs out of tokens and loses",
                    "%(who)s run out of tokens and lose",
                    who=names(out),
                )
                return Result(True, None, headline, losers=out, out=out)
            return Result(False, None, self._standing(state))
        holding = self.seats_in(state)
        if len(holding) == 1:  # S3:134
            winner = holding[0]
            return Result(
                True,
                winner,
                msg("%(side)s is the last player holding tokens and wins", side=side_name(winner)),
                out=out,
            )
        if not holding:  # ruling 4: the last players ran out together; the earlier ones lost
            last = state.last_out
            return Result(
                True,
                None,
                msg("%(who)s ran out together: nobody is left holding tokens", who=names(last)),
                losers=tuple(seat for seat in out if seat not in last),
                out=out,
            )
        return Result(False, None, self._standing(state), out=out)

    def _standing(self, state: ToepenState) -> Text:
        lowest = holders(state.tokens, min, among=self.seats_in(state))
        return msg("Fewest tokens: %(who)s with %(tokens)s", who=names(lowest), tokens=state.tokens[lowest[0]])

    def scores(self, state: ToepenState) -> list[int]:
        return list(state.tokens)

    def board(self, state: ToepenState) -> Board:
        # Translators: Toepen, a flag on a player's corner of the scoreboard: they ran out of tokens.
        out = msg("Out")
        sides = tuple(
            SideBoard(held, self.unit, flag=out if seat in state.out else None)
            for seat, held in enumerate(state.tokens)
        )
        return dataclasses.replace(super().board(state), sides=sides, turn=(("Deals", state.dealer),))

    # Tokens only ever leave a player's stack (nobody receives them): a hand's change is what it cost.
    statistics = (
        Statistic("tokens_lost", "Tokens lost", given_up),
        Statistic("tokens_left", "Tokens left at the end", lambda done, side: done.state.tokens[side], keep=AVERAGE),
    )

    def public_state(self, state: ToepenState) -> dict:
        return {"out": list(state.out)}

    def example_hand(self, state: ToepenState, rng) -> dict:
        seats = self.seats_in(state)
        lost = [0] * state.table.players
        for _ in range(rng.randint(0, max(0, _DISCARD_LIMIT - len(seats))) if rng.random() < 0.3 else 0):
            seat = rng.choice(seats)
            lost[seat] = min(lost[seat] + 1, _MOST_CHALLENGES_EACH)
        winner = rng.choice(seats)
        cover = max(state.tokens[seat] - lost[seat] for seat in seats)
        value = rng.randint(1, max(1, min(cover, 4)))
        knocker = next(seat for seat in seats if value < 2 or state.tokens[seat] - lost[seat] >= value)
        folded = [0] * state.table.players
        for seat in seats:
            if seat not in (winner, knocker) and value > 1 and rng.random() < 0.3:
                folded[seat] = rng.randint(1, value - 1)
        record = {"winner": winner, "value": value}
        if any(folded):
            record["folded_at"] = folded
        if any(lost):
            record["challenges_lost"] = lost
        return record


GAME = Toepen()
