"""Bura: two players, a pot of tokens, and a race to declare 31 card points
(RULES.md 2.9, seed S3:232-289, api/chips.md `bura`).

A hand, scored in this order (api "Scoring"):
- both players ante 1 from their balance into the pot (S3:248, ruling 8);
- with `false_declaration: play_on`, each false declaration made during the hand pays into the pot
  as much as the pot holds, or all the declarer holds if that is less (S3:287, ruling 9);
- then a declaration of 31 or more card points (A 11, 10 10, K 4, Q 3, J 2; S3:280-285), or the
  winning bura trick (S3:272), takes the whole pot; a declaration below 31 (`ends_hand`, the
  default) pays in as a false declaration does and the pot waits for the next hand; a draw leaves
  the pot where it is (S3:289).
The record gives the declarer's counted points; the app decides whether the declaration was true
(ruling 12).

Who took the pot deals next; when nobody did, the deal passes (ruling 11; `next_dealer: alternate`
passes it every hand). A player left without a token cannot ante and the session ends (ruling 10);
otherwise the table calls `finish`. More tokens wins; the pot left on the table counts for nobody.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import lead_or_level
from .base import (
    Board,
    Field,
    Game,
    HandResult,
    Reason,
    RecordError,
    Result,
    State,
    Text,
    counted,
    msg,
    names,
    on_option,
    side_name,
)
from .reference import DENEXA, OWN, STARTING_TOKENS, HouseRule, Reference, Source, Term
from .statistics import Statistic, gained, given_up, hands_scored

_PLAYERS = 2
_DEFAULT_TOKENS = 20  # ruling 7: the seed only says "an equal number"
_MOST_TOKENS = 1000
_ANTE = 1  # S3:248
_TARGET = 31  # S3:287
_ALL_CARD_POINTS = 120  # four suits of A 11, 10 10, K 4, Q 3, J 2
_MOST_FALSE_DECLARATIONS = 18


class Outcome(StrEnum):
    DECLARATION = "declaration"
    BURA = "bura"
    DRAW = "draw"


class FalseDeclaration(StrEnum):
    ENDS_HAND = "ends_hand"
    PLAY_ON = "play_on"


class NextDealer(StrEnum):
    WINNER = "winner"
    ALTERNATE = "alternate"


class Rule(StrEnum):
    """Section ids of templates/rules/bura.html that the reason lines link to."""

    ANTE = "ante"
    DECLARING = "declaring"
    FALSE_DECLARATION = "false-declaration"
    BURA = "bura"
    DRAW = "draw"
    END = "end"


@dataclass(frozen=True)
class BuraState(State):
    tokens: tuple[int, int] = (0, 0)
    pot: int = 0  # carried into the next hand, before its antes


class Bura(Game):
    key = "bura"
    name = "Bura"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = False
    unit = "tokens"
    rules = Rule
    state_class = BuraState
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
        Field.choice(
            "false_declaration",
            "A false declaration ends the hand (the doubled pot carries over), or the declarer pays and play goes on.",
            FalseDeclaration,
            default=FalseDeclaration.ENDS_HAND,
            label="False declaration",
        ),
        Field.choice(
            "next_dealer",
            "Who deals next: whoever took the pot, or each player in turn.",
            NextDealer,
            default=NextDealer.WINNER,
            label="Next dealer",
        ),
    )
    hand_fields = (
        Field.choice(
            "outcome",
            "How the hand ended: a declaration of 31 was counted, a bura trick decided it, or a draw.",
            Outcome,
            ask="How did the hand end?",
        ),
        Field(
            "side",
            "side",
            "The declarer, or the winner of the bura trick.",
            when=("outcome", (Outcome.DECLARATION.value, Outcome.BURA.value)),
            ask="Who?",
        ),
        Field(
            "points",
            "int",
            "The declarer's card points as counted (A 11, 10 10, K 4, Q 3, J 2).",
            min=0,
            max=_ALL_CARD_POINTS,
            when=("outcome", (Outcome.DECLARATION.value,)),
            label="Card points",
        ),
        Field(
            "false_declarations",
            "side_list",
            "False declarations made earlier in the hand, in order.",
            default=None,
            max=_MOST_FALSE_DECLARATIONS,
            when=on_option("false_declaration", "play_on"),
            label="False declarations",
        ),
    )

    reference = Reference(
        names=("Thirty-One", "Бура"),
        line=msg("Russian two-player game for a pot: claim 31 card points, or lead three trumps."),
        sources=(
            Source("Bura", DENEXA),
            OWN,
        ),
        house_rules={
            "starting_tokens": HouseRule("tokens", counted=STARTING_TOKENS),
            "false_declaration": HouseRule(
                "false-declaration",
                says={
                    "ends_hand": msg("a wrong claim ends the hand; the doubled pot waits for the next one"),
                    "play_on": msg("a wrong claim doubles the pot and the hand goes on"),
                },
            ),
            "next_dealer": HouseRule(
                "dealer",
                says={
                    "winner": msg("whoever took the pot deals the next hand"),
                    "alternate": msg("the deal changes hands after every hand"),
                },
            ),
        },
        terms=(
            Term("bura", "bura", msg("Three trumps in one hand: led, its trick wins the hand and the pot.")),
            Term(
                "molodka",
                "bura",
                msg("Three cards of one plain suit, which may be led out of turn; it scores nothing itself."),
            ),
            Term(
                "claim",
                "declaring",
                msg("In Bura, saying your tricks hold 31 card points: right, you take the pot; wrong, you double it."),
            ),
            Term("ante", "ante", msg("The token each player puts in the pot before every hand.")),
        ),
    )

    def start(self, table, options: Mapping) -> dict:
        return {"tokens": (options["starting_tokens"],) * _PLAYERS}

    def ends_by_call(self, options: Mapping) -> bool:
        return True

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: BuraState, record: dict) -> None:
        playing_on = state.options["false_declaration"] == FalseDeclaration.PLAY_ON
        if playing_on and record["outcome"] == Outcome.DECLARATION and record["points"] < _TARGET:
            raise RecordError(
                msg(
                    "When play goes on after a false declaration, a declaration below %(target)s does not end the "
                    "hand: put it in the false declarations.",
                    target=_TARGET,
                ),
                "points",
            )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: BuraState, record: Mapping) -> HandResult:
        tokens = [held - _ANTE for held in state.tokens]  # S3:248: a player at 0 ended the session
        pot = state.pot + _ANTE * _PLAYERS
        reasons = [Reason(msg("Both ante %(ante)s: the pot holds %(pot)s", ante=_ANTE, pot=pot), Rule.ANTE)]
        for side in self.value(record, "false_declarations") or ():
            paid, pot = _pay_in(tokens, pot, side)
            text = msg(
                "%(side)s declared falsely: pays %(paid)s into the pot, which now holds %(pot)s",
                side=side_name(side),
                paid=paid,
                pot=pot,
            )
            reasons.append(Reason(text, Rule.FALSE_DECLARATION))
        pot, reasons = self._ending(record, tokens, pot, reasons)
        after = state.evolve(tokens=tuple(tokens), pot=pot)
        changes = [new - old for new, old in zip(after.tokens, state.tokens)]
        if self.result(after).over:
            reasons.append(Reason(self._broke_text(after), Rule.END))
        return HandResult(after, changes, reasons)

    @staticmethod
    def _ending(record: Mapping, tokens: list[int], pot: int, reasons: list[Reason]) -> tuple[int, list[Reason]]:
        """How the hand ended moves the pot: taken, paid into, or left (S3:272, S3:287, S3:289)."""
        outcome = Outcome(record["outcome"])
        if outcome is Outcome.DRAW:
            return pot, reasons + [
                Reason(msg("A draw: the pot of %(pot)s stays for the next hand", pot=pot), Rule.DRAW)
            ]
        side = record["side"]
        name = side_name(side)
        if outcome is Outcome.DECLARATION and record["points"] < _TARGET:
            paid, pot = _pay_in(tokens, pot, side)
            text = msg(
                "%(side)s declared with only %(points)s points: pays %(paid)s into the pot, which now holds %(pot)s",
                side=name,
                points=record["points"],
                paid=paid,
                pot=pot,
            )
            return pot, reasons + [Reason(text, Rule.FALSE_DECLARATION)]
        tokens[side] += pot
        if outcome is Outcome.BURA:
            text = msg("%(side)s won the bura trick: takes the pot of %(pot)s", side=name, pot=pot)
            return 0, reasons + [Reason(text, Rule.BURA)]
        text = msg(
            "%(side)s declared %(points)s points: takes the pot of %(pot)s", side=name, points=record["points"], pot=pot
        )
        return 0, reasons + [Reason(text, Rule.DECLARING)]

    def next_dealer(self, before: BuraState, after: BuraState, record: Mapping) -> int:
        """Ruling 11: whoever took the pot; when nobody did (or with `alternate`), the other player."""
        taker = _pot_taker(record)
        if before.options["next_dealer"] == NextDealer.WINNER and taker is not None:
            return taker
        return before.table.other(before.dealer)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: BuraState, called: bool = False) -> Result:
        first, second = state.tokens
        broke = 0 in state.tokens  # ruling 10: a player who cannot ante ends the session
        if not (broke or called):
            if first == second:
                return Result(
                    False, None, counted(first, "Level at %(num)s token each", "Level at %(num)s tokens each")
                )
            return Result(False, None, lead_or_level(state.tokens))
        if first == second:
            return Result(True, None, counted(first, "A draw: %(num)s token each", "A draw: %(num)s tokens each"))
        winner = 0 if first > second else 1
        headline = counted(
            state.tokens[winner],
            "%(side)s wins with %(num)s token to %(other)s",
            "%(side)s wins with %(num)s tokens to %(other)s",
            side=side_name(winner),
            other=state.tokens[1 - winner],
        )
        return Result(True, winner, headline)

    def _broke_text(self, state: BuraState) -> Text:
        broke = [side for side in range(_PLAYERS) if state.tokens[side] == 0]
        # Translators: Bura, the last line of a hand: the player(s) left without a token, then the result.
        return counted(
            len(broke),
            "%(who)s cannot ante: %(headline)s",
            "%(who)s cannot ante: %(headline)s",
            who=names(broke),
            headline=self.result(state).headline,
        )

    def scores(self, state: BuraState) -> list[int]:
        return list(state.tokens)

    def board(self, state: BuraState) -> Board:
        lines = (counted(state.pot, "Pot: %(num)s token", "Pot: %(num)s tokens"),)
        return dataclasses.replace(super().board(state), lines=lines, turn=(("Deals", state.dealer),))

    # A hand's change is the balance's: the ante and any false declaration paid in, the pot taken. The
    # pot's taker always comes out ahead (it holds both antes and whatever the taker paid in), and
    # everybody else behind, so the hands a side gained in are the pots it took.
    statistics = (
        Statistic("tokens_won", "Tokens won", gained),
        Statistic("tokens_lost", "Tokens lost", given_up),
        Statistic("pots_taken", "Pots taken", hands_scored),
    )

    def public_state(self, state: BuraState) -> dict:
        return {"pot": state.pot}

    def example_hand(self, state: BuraState, rng) -> dict:
        outcome = rng.choice([Outcome.DECLARATION, Outcome.DECLARATION, Outcome.BURA, Outcome.DRAW])
        record: dict = {"outcome": outcome.value}
        if outcome is not Outcome.DRAW:
            record["side"] = rng.randrange(_PLAYERS)
        playing_on = state.options["false_declaration"] == FalseDeclaration.PLAY_ON
        if outcome is Outcome.DECLARATION:
            low = _TARGET if playing_on or rng.random() < 0.7 else 0
            record["points"] = rng.randint(low, _ALL_CARD_POINTS if low else _TARGET - 1)
        if playing_on and rng.random() < 0.3:
            record["false_declarations"] = [rng.randrange(_PLAYERS) for _ in range(rng.randint(1, 2))]
        return record


def _pay_in(tokens: list[int], pot: int, side: int) -> tuple[int, int]:
    """A false declarer pays as much as the pot holds, or all they hold (S3:287, ruling 9): what they
    paid, and what the pot now holds."""
    paid = min(pot, tokens[side])
    tokens[side] -= paid
    return paid, pot + paid


def _pot_taker(record: Mapping) -> int | None:
    """Who took the pot: the bura trick's winner or a true declarer; nobody after a draw or a false one."""
    outcome = Outcome(record["outcome"])
    if outcome is Outcome.BURA or (outcome is Outcome.DECLARATION and record["points"] >= _TARGET):
        return record["side"]
    return None


GAME = Bura()
