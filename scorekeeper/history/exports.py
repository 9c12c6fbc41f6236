"""Hands for a spreadsheet, from any list: one row per hand and side, in the columns `flask
export-csv` writes (exports.COLUMNS), as CSV or as JSON.

A selection (every match, a game, players, a night, one match) is read in batches of matches by id
(a keyset): each batch is three statements (the matches, their seats, their hands as stored), so an
export of the whole history streams at a steady pace and holds one batch in memory. A match from
before states were stored (its hands' changes not kept yet) is replayed instead."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from sqlalchemy import Integer, bindparam, exists, func, select

from ..extensions import db
from ..games import GAMES
from ..games.base import marked_sides
from ..matches.present import SideNames
from ..models import Hand, Match, Player, Seat
from ..records import jsontext
from ..records.reads import score

COLUMNS = [
    "match",
    "game",
    "started",
    "status",
    "hand",
    "recorded",
    "side",
    "players",
    "change",
    "reasons",
    "record",
    "note",
]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BATCH = 50  # matches read at a time: what a stalled reader keeps in memory


@dataclass(frozen=True)
class Selection:
    """Which matches: all of them, or those of a game, with every one of `players`, of a night, or one."""

    game: str | None = None
    players: tuple[int, ...] = ()
    night: int | None = None
    match: int | None = None
    label: str = field(default="hands", compare=False)

    def statement(self):
        query = select(Match.id).order_by(Match.id).limit(bindparam("limit", type_=Integer))
        query = query.where(Match.id > bindparam("after"))
        if self.game:
            query = query.where(Match.game == self.game)
        if self.night is not None:
            query = query.where(Match.night == self.night)
        if self.match is not None:
            query = query.where(Match.id == self.match)
        for player in self.players:
            query = query.where(exists().where(Seat.match_id == Match.id, Seat.player_id == player))
        return query


def rows(selection: Selection) -> Iterator[list]:
    """Every row of the selection's matches, by match id, hand and side (values as COLUMNS; the record
    as it is stored, an object, written out as JSON text by the CSV). Each batch is read whole in a
    short transaction, and the connection goes back to the pool before its rows go out: a reader
    that stalls holds a batch in memory, never a database connection."""
    statement, after = selection.statement(), 0
    while True:
        ids = db.session.scalars(statement, {"after": after, "limit": BATCH}).all()
        batch = list(_batch(ids)) if ids else []
        db.session.close()
        if not ids:
            return
        yield from batch
        after = ids[-1]


def _batch(ids: list[int]) -> Iterator[list]:
    matches = db.session.execute(
        select(Match.id, Match.game, Match.created, Match.status, Match.state_version, Match.version)
        .where(Match.id.in_(ids))
        .order_by(Match.id)
    ).all()
    names: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for match_id, name, side in db.session.execute(
        select(Seat.match_id, Player.name, Seat.side)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.match_id.in_(ids))
        .order_by(Seat.match_id, Seat.position)
    ):
        names[match_id].append((name, side))
    hands: dict[int, list] = defaultdict(list)
    for hand in db.session.execute(
        select(Hand.match_id, Hand.number, Hand.created, Hand.record, Hand.changes, Hand.reasons, Hand.note)
        .where(Hand.match_id.in_(ids))
        .order_by(Hand.match_id, Hand.number)
    ):
        hands[hand.match_id].append(hand)
    for match in matches:
        if match.game not in GAMES:
            continue
        kept = hands[match.id]
        if match.state_version != match.version or any(hand.changes is None for hand in kept):
            yield from _replayed(match.id)
            continue
        seated = names[match.id]
        table = GAMES[match.game].table(len(seated), [side for _, side in seated])
        sides = [[seated[seat][0] for seat in table.seats_of(side)] for side in range(table.sides)]
        named = SideNames(sides)
        for hand in kept:
            reasons = "; ".join(named(entry[0]) for entry in hand.reasons or ())
            yield from _hand_rows(
                match, hand.number, hand.created, sides, hand.changes, reasons, hand.record, hand.note
            )


def _hand_rows(match, number: int, recorded, sides, changes, reasons: str, record, note: str | None) -> Iterator[list]:
    """A hand's rows, one a side, in COLUMNS' order."""
    for side, change in enumerate(changes):
        yield [
            match.id,
            match.game,
            match.created.isoformat(),
            match.status,
            number,
            recorded.isoformat(),
            LETTERS[side],
            " & ".join(sides[side]),
            change,
            reasons,
            record,
            note or "",
        ]


def _replayed(match_id: int) -> Iterator[list]:
    """A match from before states were stored, replayed (as `flask export-csv` always did)."""
    match = db.session.get(Match, match_id)
    kept = {hand.number: hand for hand in match.hands}
    with marked_sides():
        scored = score(match)
        named = SideNames(scored.sides)
        for number, (record, done) in enumerate(zip(scored.replay.records, scored.replay.results), start=1):
            reasons = "; ".join(named(str(reason)) for reason in done.reasons)
            hand = kept[number]
            yield from _hand_rows(match, number, hand.created, scored.sides, done.changes, reasons, record, hand.note)


# What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection"): such a text cell is
# prefixed with a quote, so it stays the text it was. Numbers are written as numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defused(cell):
    """A cell as a spreadsheet must show it: text that would start a formula, quoted."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def csv_text(selection: Selection) -> Iterator[str]:
    """The selection as CSV, a few rows of text at a time; no text cell a spreadsheet would run."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    for number, row in enumerate(rows(selection), start=1):
        writer.writerow([defused(cell) for cell in (*row[:10], json.dumps(row[10], ensure_ascii=False), *row[11:])])
        if number % 200 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def json_text(selection: Selection) -> Iterator[str]:
    """The selection as a JSON array of rows, each an object of COLUMNS (the record as an object)."""
    yield "["
    first = True
    for row in rows(selection):
        yield ("\n" if first else ",\n") + jsontext.dumps(dict(zip(COLUMNS, row)))
        first = False
    yield "\n]\n"


def write_hands_csv(out) -> int:
    """Every match's hands as CSV to `out` (`flask export-csv`), the same rows as every list's CSV
    link; how many hands."""
    for text in csv_text(Selection()):
        out.write(text)
    return db.session.scalar(select(func.count()).select_from(Hand))
