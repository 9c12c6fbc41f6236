"""What the race games played as a session share (api/races.md "Sessions"): a hand is one whole
game, the record names who won it, and the score is games won.

- `games_to_win` (1 to 99, or null): a number ends the session as soon as a player has won that
  many games; null leaves it open until the table calls `finish`, and then the most games wins,
  null when two or more share the most (a draw). Ruling 1.
- A game nobody won (a drawn California Speed, a Machiavelli that ran out of stock) scores 0 for
  everyone, is counted in `nobody`, and never reaches `games_to_win`.
- The deal passes to the next seat after every game, whoever won it (ruling 2): the base's
  `next_dealer` already does that, as nobody is ever out of a session.

A game module subclasses `Session` (a `Race` to `games_to_win`), declares its record and, where
the record's `winner` does not say it all, says in `winner_of` who won a recorded game and why (one
Reason). Myllymatti counts losses instead and keeps its own books, but takes its target option
from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from ._race import Race, holders, sole
from .base import Board, Field, HandResult, Reason, Result, State, Text, added, counted, msg, names, only, side_name
from .statistics import MOST, Statistic, longest_run_scoring

MOST_GAMES = 99  # the largest games_to_win a table may set (api/races.md)


def games_target_option(name: str, help: str, label: str) -> Field:
    """`games_to_win` (or Myllymatti's `games_to_lose`): 1 to 99, or null for a session called by finish."""
    return Field(name, "int", help, default=None, min=1, max=MOST_GAMES, nullable=True, label=label)


# What a session's table looks for beside games won (the history counts those): a game's winner
# scores 1 and a game nobody won breaks the run. Each session game declares it in its `statistics`.
LONGEST_RUN = Statistic("longest_run", "Longest run of games won", longest_run_scoring, keep=MOST)

GAMES_TO_WIN = games_target_option(
    "games_to_win",
    "Games a player must win to take the session; leave empty to play as long as you like and then call finish.",
    "Games to win",
)


@dataclass(frozen=True)
class SessionState(State):
    """Games won by each player in this session, and games nobody won."""

    won: tuple[int, ...] = ()
    nobody: int = 0


class Session(Race):
    """A session of whole games, each won by one player or by nobody (api/races.md "Sessions")."""

    partnerships = False
    unit = "games"
    hand_word, hand_words = "game", "games"  # api/races.md "Sessions": each record is one whole game
    state_class = SessionState
    totals = "won"
    target_option = "games_to_win"
    # The rule anchors (of the game's own rules page) of a game won and of the session's end.
    won_rule: str
    end_rule: str

    def start(self, table, options: Mapping) -> dict:
        return {"won": table.zeros()}

    # -- one game ---------------------------------------------------------------------------
    def winner_of(self, state: SessionState, record: Mapping) -> tuple[int | None, Reason | None]:
        """Who won the recorded game (None: nobody), and a note saying how, if the record alone
        does not (a game nobody won always has one). By default the record's `winner` says it all."""
        return record["winner"], None

    def score_hand(self, state: SessionState, record: Mapping) -> HandResult:
        winner, note = self.winner_of(state, record)
        reasons = [note] if note else []
        if winner is None:
            return HandResult(state.evolve(nobody=state.nobody + 1), list(state.table.zeros()), reasons)
        changes = only(winner, 1, state.table.sides)
        won = added(state.won, changes)
        reasons.append(
            Reason(
                counted(
                    won[winner],
                    "%(side)s wins the game: %(num)s game won",
                    "%(side)s wins the game: %(num)s games won",
                    side=side_name(winner),
                ),
                self.won_rule,
            )
        )
        target = self.target(state)
        if target is not None and won[winner] >= target:
            reasons.append(
                Reason(
                    counted(
                        target,
                        "%(side)s reaches %(num)s game and wins the session",
                        "%(side)s reaches %(num)s games and wins the session",
                        side=side_name(winner),
                    ),
                    self.end_rule,
                )
            )
        return HandResult(state.evolve(won=won), changes, reasons, game_winner=winner)

    # -- reading ----------------------------------------------------------------------------
    def result(self, state: SessionState, called: bool = False) -> Result:
        reached = self.reached(state)
        tally = self._tally(state)
        if reached is not None:
            return Result(
                True, reached, msg("%(side)s wins the session, %(tally)s", side=side_name(reached), tally=tally)
            )
        leaders = holders(state.won, max)
        leader = sole(leaders)
        if called:
            if leader is None:
                return Result(True, None, msg("The session is a draw, %(tally)s", tally=tally))
            return Result(
                True, leader, msg("%(side)s wins the session, %(tally)s", side=side_name(leader), tally=tally)
            )
        if leader is None:
            if len(leaders) == len(state.won):
                return Result(False, None, msg("Level, %(tally)s", tally=tally))
            return Result(False, None, msg("%(who)s share the lead, %(tally)s", who=names(leaders), tally=tally))
        return Result(False, None, msg("%(side)s leads, %(tally)s", side=side_name(leader), tally=tally))

    @staticmethod
    def _tally(state: SessionState) -> Text:
        """'games won 2-1-0', in seat order."""
        return msg("games won %(counts)s", counts="-".join(str(count) for count in state.won))

    def board(self, state: SessionState) -> Board:
        target = self.target(state)
        end = (
            counted(target, "First to %(num)s game", "First to %(num)s games")
            if target
            else msg("Open session: call finish to end it")
        )
        lines = (end, *self.board_lines(state))
        return dataclasses.replace(super().board(state), lines=lines, turn=(("Deals", state.dealer),))

    def board_lines(self, state: SessionState) -> tuple[str, ...]:
        """The game's own lines for the whole table (games nobody won, say)."""
        return ()

    def example_hand(self, state: SessionState, rng) -> dict:
        return {"winner": rng.randrange(state.table.players)}
