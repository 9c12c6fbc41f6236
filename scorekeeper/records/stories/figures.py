"""What a finished match gives each of its seats (`SeatFigures`: the side's rank and outcome, its
hands, the game's own statistics), read from the match's stored hands, or from its replay where the
match was replayed in full (flask verify)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import bindparam, select

from ...extensions import db
from ...games import GAMES, replay
from ...games.base import decode_state
from ...games.statistics import Finished
from ...models import Hand
from .stats import SeatFigures, seat_figures


class _StoredHand:
    __slots__ = ("number", "record", "changes", "game_winner", "_hands")

    def __init__(self, number, record, changes, game_winner, hands):
        self.number, self.record, self.changes, self.game_winner, self._hands = (
            number,
            record,
            changes,
            game_winner,
            hands,
        )

    @property
    def state(self):
        return self._hands.state_of(self.number)


class _StoredHands(Sequence):
    """A finished match's hands as its statistics read them: each hand's record, change and game won
    read at once; the states after the hands only if a statistic asks (one query for them all)."""

    def __init__(self, connection, game: str, match_id: int, found: Sequence | None = None):
        self.connection, self.game, self.match_id = connection, game, match_id
        if found is None:
            found = connection.execute(_HANDS, {"match_id": match_id}).all()
        self.rows = [_StoredHand(row[0], row[1], row[2], row[3], self) for row in found]
        self.states: dict[int, Any] | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        return self.rows[index]

    def state_of(self, number: int):
        if self.states is None:
            found = self.connection.execute(_STATES, {"match_id": self.match_id})
            self.states = dict(found.all())
        return decode_state(self.states[number])


_HANDS = (
    select(Hand.number, Hand.record, Hand.changes, Hand.game_winner)
    .where(Hand.match_id == bindparam("match_id"))
    .order_by(Hand.number)
)


# The states after the hands, only where a game's statistics ask for them (most read none).
_STATES = select(Hand.number, Hand.state).where(Hand.match_id == bindparam("match_id"))


class _ReplayedHand:
    __slots__ = ("number", "record", "changes", "game_winner", "state")

    def __init__(self, number, record, result):
        self.number, self.record, self.changes, self.game_winner, self.state = (
            number,
            record,
            list(result.changes),
            result.game_winner,
            result.state,
        )


def replayed_in_full(scored) -> bool:
    results = scored.replay.results
    return isinstance(results, list) and len(results) == scored.count


def figures_of(scored, connection=None, stored: Sequence | None = None) -> list[SeatFigures]:
    """What the finished match (a records.reads.Scored) gave each seat; its hands are read as stored
    (`stored`: read already) unless the match was replayed in full (verify), when the replay's own
    results are used."""
    if replayed_in_full(scored):
        hands = [
            _ReplayedHand(number, record, result)
            for number, (record, result) in enumerate(zip(scored.replay.records, scored.replay.results), start=1)
        ]
    else:
        hands = _StoredHands(connection or db.session.connection(), scored.match.game, scored.match.id, stored)
    done = Finished(scored.state, scored.result, scored.table, hands)
    seats = [(seat.position, seat.player_id, seat.side) for seat in scored.match.seats]
    return seat_figures(scored.game, done, seats)


def figures_from_rows(rows: Iterable[Any]) -> list[SeatFigures]:
    """The inputs kept in a match's rows (mappings of their columns), by position."""
    return sorted(
        (
            SeatFigures(**{name: (dict(row[name]) if name == "figures" else row[name]) for name in SeatFigures.INPUTS})
            for row in rows
        ),
        key=lambda seat: seat.position,
    )


def figures_stored(connection, match: Any, seats: Sequence[Any]) -> list[SeatFigures]:
    """What a finished match gave each seat, from its rows alone (a migration, a rebuild): its state
    as stored, or replayed from its hands where none is stored for its version."""
    game = GAMES[match.game]
    table = game.table(len(seats), [seat.side for seat in seats])
    if match.state is not None and match.state_version == match.version:
        state = decode_state(match.state)
    else:
        records = connection.execute(select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number))
        state = replay(game, table, match.options, records.scalars().all()).state
    if match.called:
        state = state.evolve(called=True)
    result = game.result(state, called=match.called)
    if not result.over:  # marked finished, but its hands do not say so: flask verify reports it
        return []
    done = Finished(state, result, table, _StoredHands(connection, match.game, match.id))
    return seat_figures(game, done, [(seat.position, seat.player_id, seat.side) for seat in seats])
