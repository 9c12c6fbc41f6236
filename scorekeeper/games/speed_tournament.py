"""Rutter's elimination tournament of California Speed: two to five players, a double pack, one
player out each round until a final of two (S1:23-31, api/races.md "The tournament").

- A round with three or more players in ends when only one still holds cards: that player is
  eliminated (S1:30). The record names them: `{"eliminated": side}`.
- The final (two in) is won by the first to get rid of every card (S1:31): `{"winner": side}`.
  A final where both empty their hands together is played again: nothing is recorded (ruling 9).
- Score: rounds survived. Every player still in other than the one eliminated gets 1; in the
  final the winner gets 1. So the scores end in ranking order, N - 1 for the winner down to 0
  for the first out (ruling 9).
- The deal for each round depends on how many are in (S1:26-29): cards dealt each, piles laid
  out, cards of equal rank taken out of the 104 (ruling 10).
- The deal passes to the next player still in, skipping those out (the dealer just eliminated
  included); after the final nobody deals (ruling 2).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

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
    still_in,
)
from .reference import OWN, Reference, Source, Term
from .statistics import LEAST, Statistic

_MIN_PLAYERS, _MAX_PLAYERS = 2, 5  # S1:23; setups for 5, 4, 3 and 2 at S1:26-29 (ruling 3)
_FINAL = 2  # players in the final


@dataclass(frozen=True)
class Deal:
    """One round's deal for the number of players in (S1:26-29)."""

    cards: int  # dealt to each player
    piles: int  # face-up piles each player lays out
    removed: int  # cards of equal rank taken out of the double pack (ruling 10)

    def describe(self) -> Text:
        piles = counted(self.piles, "%(num)s pile", "%(num)s piles")
        if self.removed:
            removed = counted(self.removed, "%(num)s equal card out of the pack", "%(num)s equal cards out of the pack")
            return counted(
                self.cards,
                "%(num)s card each, %(piles)s, %(removed)s",
                "%(num)s cards each, %(piles)s, %(removed)s",
                piles=piles,
                removed=removed,
            )
        return counted(self.cards, "%(num)s card each, %(piles)s", "%(num)s cards each, %(piles)s", piles=piles)


_DEALS = {5: Deal(20, 2, 4), 4: Deal(26, 2, 0), 3: Deal(32, 3, 8), 2: Deal(52, 5, 0)}


class Rule(StrEnum):
    """Section ids of templates/rules/speed_tournament.html that the reason lines link to."""

    ROUNDS = "rounds"
    ELIMINATION = "elimination"
    FINAL = "final"
    DEALS = "deals"


@dataclass(frozen=True)
class SpeedTournamentState(State):
    players_in: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()  # in the order they went out; the final's loser last
    survived: tuple[int, ...] = ()  # rounds each player survived: the score


def _in_final(state: SpeedTournamentState) -> bool:
    return len(state.players_in) == _FINAL


def _over(state: SpeedTournamentState) -> bool:
    return len(state.players_in) < _FINAL


class SpeedTournament(Game):
    key = "speed_tournament"
    name = "Speed Tournament"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    unit = "rounds"
    hand_word, hand_words = "round", "rounds"  # a hand is one round (api/races.md)
    rules = Rule
    state_class = SpeedTournamentState
    hand_fields = (
        Field(
            "eliminated",
            "side",
            "While three or more are in: the player left holding cards when all the others had emptied their hands.",
            default=None,
            ask="Who was left holding cards?",
        ),
        Field(
            "winner",
            "side",
            "In the final (two players in): the one who got rid of all their cards first.",
            default=None,
            ask="Who won the final?",
        ),
    )

    reference = Reference(
        names=("California Speed tournament",),
        line=msg("David Rutter's knockout California Speed for two to five, with two packs."),
        sources=(
            Source(
                "Règles du jeu de cartes: California Speed",
                msg(
                    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
                    "Rory Barclay, Adam Fritz and Clint Okayama; its tournament part"
                ),
            ),
            OWN,
        ),
        terms=(Term("final", "final", msg("The last round of the tournament, two players left.")),),
    )

    def start(self, table, options: Mapping) -> dict:
        return {"players_in": tuple(range(table.players)), "survived": table.zeros()}

    def form_fields(self, state: SpeedTournamentState) -> tuple[Field, ...]:
        """The one field this round takes, offering only the players still in: who went out, or
        in the final who won."""
        wanted = "winner" if _in_final(state) else "eliminated"
        return still_in([fld for fld in self.hand_fields if fld.name == wanted], self.seats_out(state))

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: SpeedTournamentState, record: dict) -> None:
        wanted, unwanted = ("winner", "eliminated") if _in_final(state) else ("eliminated", "winner")
        if unwanted in record:
            if unwanted == "eliminated":
                refusal = msg("This round is the final: name who won it, not who was left holding cards.")
            else:
                refusal = msg("The final has not come yet: name who was left holding cards, not who won.")
            raise RecordError(refusal, unwanted)
        if wanted not in record:
            refusal = (
                msg("Name who won the final.") if wanted == "winner" else msg("Name who was eliminated in this round.")
            )
            raise RecordError(refusal, wanted)
        if record[wanted] not in state.players_in:
            raise RecordError(msg("%(side)s is already out of the tournament.", side=side_name(record[wanted])), wanted)

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: SpeedTournamentState, record: Mapping) -> HandResult:
        if _in_final(state):
            winner = record["winner"]
            loser = next(seat for seat in state.players_in if seat != winner)
            survivors, out = (winner,), loser
            reasons = [
                Reason(
                    msg(
                        "%(winner)s wins the final and the tournament; %(loser)s comes second",
                        winner=side_name(winner),
                        loser=side_name(loser),
                    ),
                    Rule.FINAL,
                )
            ]
        else:
            out = record["eliminated"]
            survivors = tuple(seat for seat in state.players_in if seat != out)
            reasons = [
                Reason(msg("%(side)s is eliminated", side=side_name(out)), Rule.ELIMINATION),
                Reason(
                    counted(
                        len(survivors),
                        "%(who)s survives the round: +1 each",
                        "%(who)s survive the round: +1 each",
                        who=names(survivors),
                    ),
                    Rule.ROUNDS,
                ),
            ]
        changes = [1 if seat in survivors else 0 for seat in range(state.table.sides)]
        after = state.evolve(
            players_in=survivors,
            eliminated=(*state.eliminated, out),
            survived=added(state.survived, changes),
        )
        return HandResult(after, changes, reasons, game_winner=survivors[0] if _over(after) else None)

    def seats_out(self, state: SpeedTournamentState) -> tuple[int, ...]:
        return state.eliminated

    def next_dealer(self, before: State, after: SpeedTournamentState, record: Mapping) -> int | None:
        """The next player still in deals (ruling 2); after the final there is no deal."""
        if _over(after):
            return None
        return super().next_dealer(before, after, record)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: SpeedTournamentState, called: bool = False) -> Result:
        if _over(state):
            winner = state.players_in[0]
            ranking = (winner, *reversed(state.eliminated))
            return Result(
                True,
                winner,
                msg("%(side)s wins the tournament", side=side_name(winner)),
                ranking=ranking,
                out=state.eliminated,
            )
        if _in_final(state):
            first, second = state.players_in
            headline = msg("The final: %(first)s against %(second)s", first=side_name(first), second=side_name(second))
        else:
            headline = counted(
                len(state.players_in),
                "Round %(round)s: %(num)s player in",
                "Round %(round)s: %(num)s players in",
                round=len(state.eliminated) + 1,
            )
        return Result(False, None, headline, out=state.eliminated)

    def scores(self, state: SpeedTournamentState) -> list[int]:
        return list(state.survived)

    def board(self, state: SpeedTournamentState) -> Board:
        # Translators: Speed Tournament, the flag on a player eliminated from the tournament.
        out = msg("Out")
        sides = tuple(
            SideBoard(score, self.unit, flag=None if seat in state.players_in else out)
            for seat, score in enumerate(state.survived)
        )
        deal = _next_deal(state)
        lines = (
            ()
            if deal is None
            else (
                counted(
                    len(state.players_in),
                    "Next round: %(num)s player, %(deal)s",
                    "Next round: %(num)s players, %(deal)s",
                    deal=deal.describe(),
                ),
            )
        )
        turn = () if state.dealer is None else (("Deals", state.dealer),)
        return dataclasses.replace(super().board(state), sides=sides, lines=lines, turn=turn)

    # The tournament ranks everybody: the final's winner first, then back through the eliminations.
    statistics = (
        Statistic("rounds_survived", "Rounds survived", lambda done, side: done.state.survived[side]),
        Statistic("finals_reached", "Finals reached", lambda done, side: int(side in done.result.ranking[:_FINAL])),
        Statistic("best_place", "Best place", lambda done, side: done.result.ranking.index(side) + 1, keep=LEAST),
    )

    def public_state(self, state: SpeedTournamentState) -> dict:
        deal = _next_deal(state)
        result = self.result(state)
        return {
            "players_in": list(state.players_in),
            "eliminated": list(state.eliminated),
            "next_deal": None if deal is None else dataclasses.asdict(deal),
            "ranking": list(result.ranking) if result.over else None,
        }

    def example_hand(self, state: SpeedTournamentState, rng) -> dict:
        return {"winner" if _in_final(state) else "eliminated": rng.choice(state.players_in)}


def _next_deal(state: SpeedTournamentState) -> Deal | None:
    return None if _over(state) else _DEALS[len(state.players_in)]


GAME = SpeedTournament()
