"""What the race games played as a session share (api/races.md "Sessions"): a hand is one whole
game, the record names who won it, and the score is games won.

- `games_to_win` (1 to 99, or null): a number ends the session as soon as a player has won that
  many games; null leaves it open until the table calls `finish`, and then the most games wins,
  null when two or more share the most (a draw). Ruling 1.
- A game nobody won (a drawn California Speed, a Machiavelli that ran out of stock) scores 0 for
  everyone, is counted in `nobody`, and never reaches `games_to_win`.
- The deal passes to the next seat after every game, whoever won it (ruling 2): the base's
  `next_dealer` already does that, as nobody is ever out of a session.

A game module subclasses `Session`, declares its record and says in `winner_of` who won a
recorded game and why (one Reason). Myllymatti counts losses instead and keeps its own books, but
takes its target option and its tally of leaders from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import dataclasses
from dataclasses import dataclass

from .base import Board, Field, Game, HandResult, Reason, Result, State, side_name

MOST_GAMES = 99  # the largest games_to_win a table may set (api/races.md)


def games_target_option(name: str, help: str, label: str) -> Field:
    """`games_to_win` (or Myllymatti's `games_to_lose`): 1 to 99, or null for a session called by finish."""
    return Field(name, "int", help, default=None, min=1, max=MOST_GAMES, nullable=True, label=label)


GAMES_TO_WIN = games_target_option(
    "games_to_win",
    "Games a player must win to take the session; leave empty to play as long as you like and then call finish.",
    "Games to win",
)


def games(number: int) -> str:
    return f"{number} game" if number == 1 else f"{number} games"


def sole(sides: Sequence[int]) -> int | None:
    """The one side of `sides`, or None when there are none or several (a shared most is a draw)."""
    return sides[0] if len(sides) == 1 else None


def names(sides: Sequence[int]) -> str:
    """'A', 'A and C', 'A, B and D'."""
    letters = [side_name(side) for side in sides]
    return letters[0] if len(letters) == 1 else f"{', '.join(letters[:-1])} and {letters[-1]}"


def holders(tally: Sequence[int], best) -> list[int]:
    """The sides whose tally is the `best` (max or min) of all."""
    top = best(tally)
    return [side for side, count in enumerate(tally) if count == top]


@dataclass(frozen=True)
class SessionState(State):
    """Games won by each player in this session, and games nobody won."""

    won: tuple[int, ...] = ()
    nobody: int = 0


class Session(Game):
    """A session of whole games, each won by one player or by nobody (api/races.md "Sessions")."""

    partnerships = False
    unit = "games"
    state_class = SessionState
    # The rule anchors (of the game's own rules page) of a game won and of the session's end.
    won_rule: str
    end_rule: str

    def start(self, table, options: Mapping) -> dict:
        return {"won": table.zeros()}

    def ends_by_call(self, options: Mapping) -> bool:
        return options.get("games_to_win") is None

    # -- one game ---------------------------------------------------------------------------
    def winner_of(self, state: SessionState, record: Mapping) -> tuple[int | None, Reason | None]:
        """Who won the recorded game (None: nobody), and a note saying how, if the record alone
        does not (a game nobody won always has one)."""
        raise NotImplementedError

    def score_hand(self, state: SessionState, record: Mapping) -> HandResult:
        winner, note = self.winner_of(state, record)
        reasons = [note] if note else []
        if winner is None:
            return HandResult(state.evolve(nobody=state.nobody + 1), list(state.table.zeros()), reasons)
        changes = [1 if side == winner else 0 for side in range(state.table.sides)]
        won = tuple(total + change for total, change in zip(state.won, changes))
        reasons.append(Reason(f"{side_name(winner)} wins the game: {games(won[winner])} won", self.won_rule))
        target = state.options.get("games_to_win")
        if target is not None and won[winner] >= target:
            reasons.append(Reason(f"{side_name(winner)} reaches {games(target)} and wins the session", self.end_rule))
        return HandResult(state.evolve(won=won), changes, reasons, game_winner=winner)

    # -- reading ----------------------------------------------------------------------------
    def result(self, state: SessionState, called: bool = False) -> Result:
        target = state.options.get("games_to_win")
        reached = [side for side, count in enumerate(state.won) if target is not None and count >= target]
        if reached:
            return Result(True, reached[0], f"{side_name(reached[0])} wins the session, {self._tally(state)}")
        leaders = holders(state.won, max)
        leader = sole(leaders)
        if called:
            if leader is None:
                return Result(True, None, f"The session is a draw, {self._tally(state)}")
            return Result(True, leader, f"{side_name(leader)} wins the session, {self._tally(state)}")
        if leader is None:
            if len(leaders) == len(state.won):
                return Result(False, None, f"Level, {self._tally(state)}")
            return Result(False, None, f"{names(leaders)} share the lead, {self._tally(state)}")
        return Result(False, None, f"{side_name(leader)} leads, {self._tally(state)}")

    @staticmethod
    def _tally(state: SessionState) -> str:
        """'games won 2-1-0', in seat order."""
        return "games won " + "-".join(str(count) for count in state.won)

    def scores(self, state: SessionState) -> list[int]:
        return list(state.won)

    def target(self, state: State) -> int | None:
        return state.options.get("games_to_win")

    def board(self, state: SessionState) -> Board:
        target = self.target(state)
        end = f"First to {games(target)}" if target else "Open session: call finish to end it"
        lines = (end, *self.board_lines(state))
        return dataclasses.replace(super().board(state), lines=lines, turn=(("Deals", state.dealer),))

    def board_lines(self, state: SessionState) -> tuple[str, ...]:
        """The game's own lines for the whole table (games nobody won, say)."""
        return ()
