"""Hasenpfeffer: four players in two partnerships, 25 cards with a joker, six tricks a hand; first
side to 10 points wins, and scores can go below zero (api/partnership.md `hasenpfeffer`, S4:138-160).

A hand is one of:
- void: all four passed and the joker was the widow card, so nobody held it (S4:152). Nobody
  scores and the game cannot end on it.
- played: the side that won the bidding declares (ruling 8) a contract of 1 to 6 tricks. When all
  four passed, the joker's holder had to bid 3 (`forced_joker_bid`, S4:152, ruling 7).

Scoring (S4:158-159): declarers who took at least their contract score one point per trick they
took, otherwise they lose the contract. Defenders always score one point per trick.

The end (S4:160), checked after every played hand: declarers at `target` or more win, also when
the defenders are there too; otherwise defenders at `target` or more win. With
`defenders_cannot_win_if_contract_made` they win only when the declarers failed; a side left at or
above `target` wins at the end of a later hand by the same test (ruling 9). So who won is kept in
the state: the scores alone cannot say it.

The deal passes to the next seat after every hand, a void hand included (ruling 6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ._race import Race, lead_or_level, wins
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    Result,
    State,
    Text,
    added,
    agreeing,
    counted,
    msg,
    side_name,
)
from .reference import DENEXA, GAME_POINTS, OWN, REVOKE, HouseRule, Reference, Source, Term
from .statistics import Finished, Statistic

_PLAYERS = 4
_TRICKS = 6
_FORCED_CONTRACT = 3  # S4:152: the joker's holder must bid three
_TARGET = 10  # S4:160
_MOST_TARGET = 100
_PLAYED = ("void", (False,))  # the fields of a played hand
_VOID = "void"  # the board's last hand when it was void
_BID = ("declarers", "contract", "forced_joker_bid", "tricks")  # a played hand's fields


class Rule(StrEnum):
    """Section ids of templates/rules/hasenpfeffer.html that the reason lines link to."""

    VOID = "void"
    CONTRACT = "contract"
    DEFENDERS = "defenders"
    END = "end"


@dataclass(frozen=True)
class Contract:
    """The last played hand's bid, and whether it was made: the board shows it."""

    declarers: int
    tricks: int
    made: bool
    forced: bool = False

    def describe(self) -> Text:
        side, tricks = side_name(self.declarers), self.tricks
        if self.forced:
            if self.made:
                return msg("%(side)s bid %(tricks)s (forced joker bid): made", side=side, tricks=tricks)
            return msg("%(side)s bid %(tricks)s (forced joker bid): set", side=side, tricks=tricks)
        if self.made:
            return msg("%(side)s bid %(tricks)s: made", side=side, tricks=tricks)
        return msg("%(side)s bid %(tricks)s: set", side=side, tricks=tricks)


@dataclass(frozen=True)
class HasenpfefferState(State):
    points: tuple[int, ...] = (0, 0)
    winner: int | None = None  # kept: under the defenders' option a side can be at the target unwon
    last: Contract | str | None = None  # the last hand: its contract, or _VOID


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _contracts(done: Finished) -> list[Contract]:
    """Each played hand's contract, as the state after it keeps it (a void hand has none)."""
    return [state.last for state in done.states if isinstance(state.last, Contract)]


def _made(done: Finished, side: int) -> int:
    return sum(1 for bid in _contracts(done) if bid.declarers == side and bid.made)


def _failed(done: Finished, side: int) -> int:
    return sum(1 for bid in _contracts(done) if bid.declarers == side and not bid.made)


def _defeated(done: Finished, side: int) -> int:
    """Contracts the side defended against and the declarers failed."""
    return sum(1 for bid in _contracts(done) if bid.declarers != side and not bid.made)


def _bid_with_a_void(raw: Any) -> list[str]:
    """What a record that ticks the void hand also gives of a played hand (nothing: none)."""
    if not isinstance(raw, Mapping) or raw.get("void") is not True:
        return []
    return [name for name in _BID if raw.get(name) is not None]


class Hasenpfeffer(Race):
    key = "hasenpfeffer"
    name = "Hasenpfeffer"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = True
    unit = "points"
    rules = Rule
    state_class = HasenpfefferState
    options = (
        Field("target", "int", "Points that win the game.", default=_TARGET, min=1, max=_MOST_TARGET),
        Field(
            "defenders_cannot_win_if_contract_made",
            "bool",
            "Defenders reaching the target win only when the declarers failed their contract.",
            default=False,
            label="Defenders cannot win on a made contract",
        ),
    )
    hand_fields = (
        Field(
            "void",
            "bool",
            "All four passed and the joker was the widow card: the hand is void and nobody scores.",
            default=False,
            label="Void hand (joker in the widow)",
            rare=True,
        ),
        Field("declarers", "side", "The side that won the bidding.", when=_PLAYED, ask="Who won the bidding?"),
        Field(
            "contract",
            "int",
            "The high bid, 1 to 6 tricks; left out for a forced joker bid (always 3).",
            default=None,
            min=1,
            max=_TRICKS,
            nullable=True,
            when=_PLAYED,
        ),
        Field(
            "forced_joker_bid",
            "bool",
            "All four passed, so the joker's holder had to bid 3.",
            default=False,
            when=_PLAYED,
            label="Forced joker bid",
            rare=True,
        ),
        Field(
            "tricks",
            "per_side",
            "Tricks each side took, adding up to 6.",
            min=0,
            max=_TRICKS,
            total=_TRICKS,
            when=_PLAYED,
            ask="Tricks taken",
        ),
    )

    reference = Reference(
        line=msg("Euchre with a joker and bids of 1 to 6 tricks, for two partnerships; first to 10."),
        sources=(
            Source("Hasenpfeffer", DENEXA),
            Source(msg("Standard Euchre practice"), REVOKE, standard=True),
            OWN,
        ),
        house_rules={
            "target": HouseRule("end", counted=GAME_POINTS),
            "defenders_cannot_win_if_contract_made": HouseRule(
                "end",
                says={
                    False: msg("defenders who reach the target win, unless the declarers reached it too"),
                    True: msg("defenders win only when the declarers failed their contract"),
                },
            ),
        },
        terms=(
            Term("widow", "bidding", msg("In Hasenpfeffer, the 25th card lying face down; the high bidder takes it.")),
            Term(
                "bower",
                "glance",
                msg(
                    "A jack promoted in trumps: the right bower (jack of trumps) and the left "
                    "bower (the other jack of that colour)."
                ),
            ),
            Term("joker", "bidding", msg("Hasenpfeffer's top trump; its holder must bid 3 when everyone passes.")),
            Term("contract", "contract", msg("The winning bid: tricks the declarers must take.")),
            Term("void hand", "void", msg("Nobody bid and the joker was the widow card: nobody scores.")),
        ),
    )

    # -- checking -----------------------------------------------------------------------------
    def check(self, state: State, raw: Any) -> dict:
        """A void hand given with a bid is refused in the table's words (api/partnership.md: `void:
        true` with any other key), not in the declarations' own, and never scored without the bid."""
        given = _bid_with_a_void(raw)
        if given and not self.result(state).over:
            message = msg(
                "A void hand has no bid and no tricks: give the void hand, or the bid and the tricks, not both."
            )
            raise RecordError(message, "void", fields=dict.fromkeys(given, message))
        return super().check(state, raw)

    def validate(self, state: State, record: dict) -> None:
        if self.value(record, "void"):
            return  # the declarations already refuse anything else in a void record
        contract = self.value(record, "contract")
        if self.value(record, "forced_joker_bid"):
            if contract not in (None, _FORCED_CONTRACT):
                message = msg(
                    "A forced joker bid is a contract of %(contract)s: leave the contract out or give 3.",
                    contract=_FORCED_CONTRACT,
                )
                raise RecordError(message, "contract")
        elif contract is None:
            raise RecordError(msg("Contract must be given: the high bid, 1 to 6 tricks."), "contract")

    def _contract(self, record: Mapping) -> int:
        if self.value(record, "forced_joker_bid"):
            return _FORCED_CONTRACT  # ruling 7
        return record["contract"]

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: HasenpfefferState, record: Mapping) -> HandResult:
        if self.value(record, "void"):
            reason = Reason(msg("void hand: the joker was the widow card; nobody scores"), Rule.VOID)
            return HandResult(state.evolve(last=_VOID), [0] * state.table.sides, [reason])
        declarers, tricks = record["declarers"], record["tricks"]
        defenders = state.table.other(declarers)
        contract = self._contract(record)
        made = tricks[declarers] >= contract
        changes = [0, 0]
        changes[declarers] = tricks[declarers] if made else -contract
        changes[defenders] = tricks[defenders]
        reasons = [
            self._declarers_reason(declarers, contract, tricks[declarers], made, record),
            Reason(
                msg(
                    "%(side)s defended and took %(taken)s: +%(taken)s",
                    side=side_name(defenders),
                    taken=tricks[defenders],
                ),
                Rule.DEFENDERS,
            ),
        ]
        points = added(state.points, changes)
        last = Contract(declarers, contract, made, bool(self.value(record, "forced_joker_bid")))
        new = state.evolve(points=points, last=last)
        winner = self._game_winner(new, declarers, made)
        if winner is not None:
            new = new.evolve(winner=winner)
            values = {"points": points[winner], "target": self.target(new)}
            if winner == declarers:
                text = agreeing(
                    winner,
                    "%(side)s has %(points)s (game to %(target)s), declaring, and wins",
                    "%(side)s have %(points)s (game to %(target)s), declaring, and win",
                    **values,
                )
            else:
                text = agreeing(
                    winner,
                    "%(side)s has %(points)s (game to %(target)s), defending, and wins",
                    "%(side)s have %(points)s (game to %(target)s), defending, and win",
                    **values,
                )
            reasons.append(Reason(text, Rule.END))
        return HandResult(new, changes, reasons, winner)

    def _declarers_reason(self, declarers: int, contract: int, taken: int, made: bool, record: Mapping) -> Reason:
        values = {"side": side_name(declarers), "contract": contract, "taken": taken}
        if self.value(record, "forced_joker_bid"):
            if made:
                text = msg("%(side)s made the forced bid of %(contract)s with %(taken)s tricks: +%(taken)s", **values)
            else:
                text = msg(
                    "%(side)s failed the forced bid of %(contract)s with %(taken)s tricks: -%(contract)s", **values
                )
        elif made:
            text = msg("%(side)s made the contract %(contract)s with %(taken)s tricks: +%(taken)s", **values)
        else:
            text = msg("%(side)s failed the contract %(contract)s with %(taken)s tricks: -%(contract)s", **values)
        return Reason(text, Rule.CONTRACT)

    def _game_winner(self, state: HasenpfefferState, declarers: int, made: bool) -> int | None:
        """S4:160 after a played hand: declarers at the target win; else defenders at it (option: only
        when the declarers failed, ruling 9)."""
        target = self.target(state)
        defenders = state.table.other(declarers)
        if state.points[declarers] >= target:
            return declarers
        if state.points[defenders] >= target:
            if not made or not state.options["defenders_cannot_win_if_contract_made"]:
                return defenders
        return None

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: HasenpfefferState, called: bool = False) -> Result:
        if state.winner is not None:
            return Result(True, state.winner, wins(state.winner, state.points))
        return Result(False, None, lead_or_level(state.points, nothing=None if state.hands else msg("No points yet")))

    def board(self, state: HasenpfefferState) -> Board:
        target = self.target(state)
        lines = [counted(target, "First to %(num)s point", "First to %(num)s points")]
        if state.last == _VOID:
            lines.append(msg("Last hand: void (joker in the widow)"))
        elif state.last is not None:
            lines.append(msg("Last hand: %(contract)s", contract=state.last.describe()))
        if state.winner is None:
            lines += [
                agreeing(
                    side,
                    "%(side)s is at %(total)s but has not won: a side cannot win defending a made contract",
                    "%(side)s are at %(total)s but have not won: a side cannot win defending a made contract",
                    total=total,
                )
                for side, total in enumerate(state.points)
                if total >= target
            ]
        turn = (("Deals", state.dealer), ("Bids first", state.table.next_seat(state.dealer)))
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=turn)

    statistics = (
        Statistic("contracts_made", "Contracts made", _made),
        Statistic("contracts_failed", "Contracts failed", _failed),
        Statistic("contracts_defeated", "Contracts defeated", _defeated),
    )

    def example_hand(self, state: HasenpfefferState, rng) -> dict:
        roll = rng.random()
        if roll < 0.1:
            return {"void": True}
        first = rng.randint(0, _TRICKS)
        record = {"declarers": rng.randint(0, 1), "tricks": [first, _TRICKS - first]}
        if roll < 0.25:
            record["forced_joker_bid"] = True
        else:
            record["contract"] = rng.randint(1, _TRICKS)
        return record


GAME = Hasenpfeffer()
