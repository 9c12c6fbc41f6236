"""Stored reads: a match as a page or an answer needs it (`Scored`), read from the state stored
with it and its hands read only as far as they are looked at. Nothing here replays a stored match,
except one from before states were stored."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from sqlalchemy import Text, bindparam, cast
from sqlalchemy.orm import defer, joinedload

from ..errors import NotFound
from ..extensions import db
from ..games import Game, HandResult, Replay, Result, Table, get_game, replay
from ..games.base import Reason, decode_state
from ..games.texts import Text as EngineText
from ..games.texts import stored_text, to_json
from ..models import Hand, Match, MatchEvent, Seat
from . import jsontext

ID_LIMIT = 2**31 - 1  # the largest id every supported database can hold


@dataclass
class Scored:
    """A match with its hands replayed (or read as stored): everything a page or the API shows
    about it. Built once per request and handed along: what it works out, it works out once."""

    match: Match
    game: Game
    table: Table
    replay: Replay

    @cached_property
    def state(self):
        """The state after the last hand; it knows whether the table called the end."""
        last = self.replay.state
        return last.evolve(called=True) if self.match.called else last

    @cached_property
    def result(self) -> Result:
        return self.game.result(self.state, called=self.match.called)

    @cached_property
    def names(self) -> list[str]:
        return self.match.player_names

    @cached_property
    def sides(self) -> list[list[str]]:
        """Each side's players' names."""
        return [[self.names[seat] for seat in self.table.seats_of(side)] for side in range(self.table.sides)]

    @property
    def scores(self) -> list[int]:
        return self.game.scores(self.state)

    @property
    def dealer(self) -> int | None:
        """Who deals the next hand, also once the match is over (API.md); None where nobody deals."""
        return self.state.dealer

    @property
    def finished(self) -> bool:
        return self.result.over

    @property
    def count(self) -> int:
        """How many hands the match has (the books every game keeps)."""
        return self.replay.state.hands

    @property
    def next_number(self) -> int:
        return self.count + 1

    @property
    def stored(self) -> bool:
        return isinstance(self.replay, StoredReplay)

    def state_before(self, number: int):
        """The state hand `number` was played from: the stored state after the hand before it."""
        return self.replay.results[number - 2].state if number > 1 else self.replay.start

    def replayed_from(self, number: int) -> tuple[Any, list[dict]]:
        """What a change to hand `number` replays: the state it was played from and the records from
        it on, read at once (the hand before it with them, not in a round trip of its own)."""
        before = max(number - 1, 1)
        records = list(self.replay.records[before - 1 :])
        return self.state_before(number), records[number - before :]

    def hands(self, first: int = 1) -> list[tuple[int, dict, list, list[str]]]:
        """Hands `first`.. as (number, record, changes, reason texts), read in one go: no replay, and
        no state decoded (a long match's answer stays cheap)."""
        if not self.stored:
            numbered = zip(self.replay.records, self.replay.results)
            return [
                (n, record, done.changes, [r.text for r in done.reasons])
                for n, (record, done) in enumerate(numbered, start=1)
                if n >= first
            ]
        fresh = self.replay.fresh  # the hand this request wrote, still in hand: not read back
        known = [(n, *hand) for n, hand in fresh.items() if n >= first]
        if fresh and first >= min(fresh):
            return known
        rows = db.session.connection().execute(_HANDS_AS_TEXT, {"match_id": self.match.id, "first": first}).all()
        # The columns' JSON texts joined into one array and read at once: a 600-hand answer makes one
        # call to the JSON reader instead of 1,800.
        read = jsontext.loads(
            "["
            + ",".join(
                f"[{n},{record},{changes or 'null'},{reasons or 'null'}]" for n, record, changes, reasons in rows
            )
            + "]"
        )
        return [(n, record, changes, [reason_text(entry) for entry in reasons]) for n, record, changes, reasons in read]

    def answers(self, first: int = 1) -> list[tuple[int, str | None]] | None:
        """Hands `first`.. as (number, the API's answer stored with the hand), in one query (None for a
        match replayed instead of read: its answers are not known to be current)."""
        if not self.stored:
            return None
        if first in self.replay.answered:
            return self.replay.answered[first]
        return db.session.connection().execute(_ANSWERS, {"match_id": self.match.id, "first": first}).all()


@dataclass
class Recorded:
    """A hand just recorded (records.writes.record_hand): the match after it, its number, its result."""

    scored: Scored
    number: int
    hand: HandResult


_HANDS_AS_TEXT = (
    db.select(
        *(
            cast(column, Text) if column is not Hand.number else column
            for column in (Hand.number, Hand.record, Hand.changes, Hand.reasons)
        )
    )
    .where(Hand.match_id == bindparam("match_id"), Hand.number >= bindparam("first"))
    .order_by(Hand.number)
)


_ANSWERS = (
    db.select(Hand.number, Hand.answer)
    .where(Hand.match_id == bindparam("match_id"), Hand.number >= bindparam("first"))
    .order_by(Hand.number)
)


# One statement for the match, its seats and their players (a round trip less on PostgreSQL). Built
# once: a write asks for its match three times (the key, the form, the write), and the session
# answers the second and third from memory in a tenth of the time when the options are not new.
_WITH_SEATS = (joinedload(Match.seats).joinedload(Seat.player),)


def get_match(match_id: int) -> Match:
    if not 0 < match_id <= ID_LIMIT:
        raise NotFound("There is no such match.")
    match = db.session.get(Match, match_id, options=_WITH_SEATS)
    if match is None:
        raise NotFound("There is no such match.")
    return match


def load(match_id: int) -> Scored:
    return score(get_match(match_id))


def score(match: Match) -> Scored:
    """The match as stored: its state after the last hand, its hands read as far as they are looked
    at. A match from before states were stored (or whose state does not belong to its version) is
    replayed from its hands instead."""
    game = get_game(match.game)
    table = game.table(len(match.seats), match.seat_sides)
    if match.state is not None and match.state_version == match.version:
        return Scored(match, game, table, StoredReplay(game, table, match))
    return Scored(match, game, table, replay(game, table, match.options, _records(match)))


def _records(match: Match) -> list[dict]:
    return list(db.session.scalars(db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)))


def notes(match: Match, numbers: Sequence[int]) -> dict[int, str]:
    """The table's notes on hands `numbers` of the match, by hand number (hands without one left out)."""
    if not numbers:
        return {}
    found = db.session.execute(
        db.select(Hand.number, Hand.note).where(
            Hand.match_id == match.id, Hand.number.in_(list(numbers)), Hand.note.is_not(None)
        )
    )
    return {number: note for number, note in found}


def latest_events(match: Match, count: int) -> list[MatchEvent]:
    """The match's latest `count` logged changes, newest first."""
    return db.session.scalars(
        db.select(MatchEvent).where(MatchEvent.match_id == match.id).order_by(MatchEvent.id.desc()).limit(count)
    ).all()


class StoredHands(Sequence):
    """A match's hands as stored, read only as far as a page looks: the latest few for a page, all
    of them for the API. Nothing is replayed; a hand's state is decoded only when asked for."""

    def __init__(self, match: Match, count: int):
        self.match, self.count = match, count
        self.loaded: dict[int, Hand] = {}
        self.stateless: set[int] = set()  # loaded without their state

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        if index + 1 not in self.loaded:
            self.load(range(index + 1, index + 2))
        return self.loaded[index + 1]

    def load(self, numbers: Sequence[int], states: bool = True) -> None:
        """Fetch the rows of hands `numbers` (one query), unless already here; without `states` the
        state after each hand is left in the database until asked for (a list of hands shows none)."""
        wanted = [n for n in numbers if n not in self.loaded or (states and n in self.stateless)]
        if not wanted:
            return
        low, high = min(wanted), max(wanted)
        spread = high - low >= 2 * len(wanted)  # a few hands over a long match (a chart's), not a run
        rows = db.session.scalars(
            _hands_query(spread, states), {"match_id": self.match.id, "low": low, "high": high, "numbers": wanted}
        ).all()
        (self.stateless.difference_update if states else self.stateless.update)(wanted)
        self.loaded.update((row.number, row) for row in rows)


@cache
def _hands_query(spread: bool, states: bool):
    """A match's hands by number: a run as one index range, or a spread as a list; without `states`
    the states and answers stay in the database. Built once for each kind."""
    which = (
        Hand.number.in_(bindparam("numbers", expanding=True))
        if spread
        else Hand.number.between(bindparam("low"), bindparam("high"))
    )
    query = db.select(Hand).where(Hand.match_id == bindparam("match_id"), which)
    return query if states else query.options(defer(Hand.state), defer(Hand.answer))


def stored_reason(reason: Reason) -> list:
    """A reason as a hand keeps it: [English with marked sides, rule], and its message and values
    where the engine gave one (shown in the reader's language)."""
    kept = [str(reason.text), str(reason.rule)]
    return [*kept, to_json(reason.text)] if isinstance(reason.text, EngineText) else kept


def reason_text(entry: Sequence) -> str:
    """A stored reason's text: its message where it has one, else its English."""
    return stored_text(entry[0], entry[2]) if len(entry) > 2 else entry[0]


class StoredResult:
    """A hand's result as stored: its changes and reasons, and its state decoded on demand."""

    def __init__(self, row: Hand):
        self.row = row
        self.changes = row.changes
        self.reasons = [Reason(reason_text(entry), entry[1]) for entry in row.reasons]
        self.game_winner = row.game_winner

    @cached_property
    def state(self):
        return decode_state(self.row.state)


class StoredReplay:
    """What a replay gives, read from the stored states instead (issue 14: no replay on read)."""

    def __init__(self, game: Game, table: Table, match: Match, state=None, fresh: dict | None = None):
        self.game, self.table, self.match = game, table, match
        self.state = decode_state(match.state) if state is None else state
        self.fresh = fresh or {}  # number -> (record, changes, reason texts) of a hand just written
        self.answered: dict[int, list] = {}  # first hand -> the answers from it, read with the write
        self.hands = StoredHands(match, self.state.hands)

    @cached_property
    def start(self):
        return self.game.new_state(self.table, self.match.options)

    @property
    def results(self) -> _Mapped:
        return _Mapped(self.hands, StoredResult)

    @property
    def records(self) -> _Mapped:
        return _Mapped(self.hands, lambda row: row.record)


class _Mapped(Sequence):
    """A read-only view of a sequence through a function (results or records of stored hands)."""

    def __init__(self, rows: Sequence, convert):
        self.rows, self.convert = rows, convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            if isinstance(self.rows, StoredHands):
                self.rows.load(range(*[n + 1 for n in index.indices(len(self.rows))][:2]))
            return [self.convert(row) for row in self.rows[index]]
        return self.convert(self.rows[index])

    def __iter__(self):
        if isinstance(self.rows, StoredHands):
            self.rows.load(range(1, len(self.rows) + 1))
        return (self[i] for i in range(len(self)))
