"""A list for a spreadsheet, from any list's links: its results (one row per match, RESULT_COLUMNS),
its hands (one row per hand and side, COLUMNS: what `flask export-csv` writes) and, for a night, its
standings (STANDING_COLUMNS), each as CSV or as JSON (the same rows, as objects).

A club secretary opens these in a spreadsheet: games by their names, times in the club's time zone
to the minute, texts in the reader's language, and a CSV starts with a UTF-8 byte-order mark (without
one, Excel on Windows reads "Núria" as "NÃºria").

A selection (every match, a game, players, a night, one match) is read in batches of matches by id
(a keyset): each batch is a few statements (the matches, their seats, their hands as stored), so an
export of the whole history streams at a steady pace and holds one batch in memory. A match from
before states were stored (its hands' changes not kept yet) is replayed instead."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from flask import current_app
from sqlalchemy import Integer, bindparam, exists, func, select

from ..extensions import db
from ..games import GAMES, name_of
from ..games.base import decode_state, marked_sides
from ..games.texts import stored_text
from ..matches.present import SideNames, seats_by_side
from ..models import DRAWN, FINISHED, SHARED, WON, Hand, Match, Player, Seat
from ..records import jsontext, reads
from ..records.nights import day_of, zone
from ..web.i18n import declared_text, gettext
from . import queries

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
    "note",
    "record",  # last: the hand as entered, JSON text a spreadsheet reader can skip
]
RESULT_COLUMNS = ["match", "game", "started", "status", "players", "score", "winner", "result"]
STANDING_COLUMNS = ["place", "player", "points", "won", "lost", "level"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BATCH = 50  # matches read at a time: what a stalled reader keeps in memory
BYTE_ORDER_MARK = "\ufeff"
BETWEEN_SIDES = " – "  # "Ann & Cy – Bo & Di", and their scores "2 – 1 courts" in the same order
MINUTE = "%Y-%m-%d %H:%M"  # sorts as text, and a spreadsheet reads it as a date and time


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

    @property
    def a_night_alone(self) -> bool:
        """A night and no other filter: what standings are of."""
        return self.night is not None and self == Selection(night=self.night)


class Clock:
    """Moments as the club reads them: in its time zone (SCOREKEEPER_TIME_ZONE; else the server's),
    to the minute ("2026-11-27 21:05")."""

    def __init__(self, place_zone):
        self.place_zone = place_zone

    def __call__(self, moment: datetime) -> str:
        return moment.astimezone(self.place_zone).strftime(MINUTE)


def _batched(selection: Selection, read: Callable[[list[int], Clock], Iterator[list]]) -> Iterator[list]:
    """The rows `read` makes of the selection's matches, a batch of ids at a time. Each batch is read
    whole in a short transaction, and the connection goes back to the pool before its rows go out:
    a reader that stalls holds a batch in memory, never a database connection."""
    statement, after, clock = selection.statement(), 0, Clock(zone(current_app.config))
    while True:
        ids = db.session.scalars(statement, {"after": after, "limit": BATCH}).all()
        batch = list(read(ids, clock)) if ids else []
        db.session.close()
        if not ids:
            return
        yield from batch
        after = ids[-1]


def status_word(stored: str) -> str:
    """A match's status as the pages word it."""
    # Translators: a match's status in an exported file: not over yet ("in progress") or over
    return gettext("finished") if stored == FINISHED else gettext("in progress")


def _seated(ids: list[int]) -> dict[int, list[tuple[str, int, str | None]]]:
    """Each match's seats in order: (player's name, side, outcome)."""
    seats: dict[int, list] = defaultdict(list)
    for match_id, name, side, outcome in db.session.execute(
        select(Seat.match_id, Player.name, Seat.side, Seat.outcome)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.match_id.in_(ids))
        .order_by(Seat.match_id, Seat.position)
    ):
        seats[match_id].append((name, side, outcome))
    return seats


def _sides(game: str, seats: list[tuple]) -> list[tuple[int, ...]]:
    """The seats of each side of a match of `game`."""
    return list(seats_by_side(game, tuple(side for _, side, _ in seats)))


# -- hands ----------------------------------------------------------------------------------------------


def rows(selection: Selection) -> Iterator[list]:
    """Every hand row of the selection's matches, by match id, hand and side (values as COLUMNS; the
    record as it is stored, an object, written out as JSON text by the CSV)."""
    return _batched(selection, _hands_batch)


def _hands_batch(ids: list[int], clock: Clock) -> Iterator[list]:
    matches = db.session.execute(
        select(Match.id, Match.game, Match.created, Match.status, Match.state_version, Match.version)
        .where(Match.id.in_(ids))
        .order_by(Match.id)
    ).all()
    seated = _seated(ids)
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
            yield from _replayed(match.id, clock)
            continue
        seats = seated[match.id]
        sides = [[seats[seat][0] for seat in side] for side in _sides(match.game, seats)]
        named, head = SideNames(sides), _match_cells(match, clock)
        for hand in kept:
            reasons = "; ".join(named(entry[0]) for entry in hand.reasons or ())
            recorded = clock(hand.created)
            yield from _hand_rows(head, hand.number, recorded, sides, hand.changes, reasons, hand.record, hand.note)


def _match_cells(match, clock: Clock) -> list:
    """What every row of a match starts with: its number, its game's name, when it started, its status."""
    return [match.id, name_of(match.game), clock(match.created), status_word(match.status)]


def _hand_rows(head: list, number: int, recorded: str, sides, changes, reasons: str, record, note) -> Iterator[list]:
    """A hand's rows, one a side, in COLUMNS' order."""
    for side, change in enumerate(changes):
        yield [*head, number, recorded, LETTERS[side], " & ".join(sides[side]), change, reasons, note or "", record]


def _replayed(match_id: int, clock: Clock) -> Iterator[list]:
    """A match from before states were stored, replayed (as `flask export-csv` always did)."""
    match = db.session.get(Match, match_id)
    kept = {hand.number: hand for hand in match.hands}
    head = _match_cells(match, clock)
    with marked_sides():
        scored = reads.score(match)
        named = SideNames(scored.sides)
        for number, (record, done) in enumerate(zip(scored.replay.records, scored.replay.results), start=1):
            reasons = "; ".join(named(str(reason)) for reason in done.reasons)
            hand = kept[number]
            recorded = clock(hand.created)
            yield from _hand_rows(head, number, recorded, scored.sides, done.changes, reasons, record, hand.note)


# -- results --------------------------------------------------------------------------------------------


def result_rows(selection: Selection) -> Iterator[list]:
    """One row per match of the selection, by id (values as RESULT_COLUMNS): who sat on each side,
    each side's score as its board shows it, who won and the match's headline, as its page says them."""
    return _batched(selection, _results_batch)


def _results_batch(ids: list[int], clock: Clock) -> Iterator[list]:
    matches = db.session.execute(
        select(
            Match.id,
            Match.game,
            Match.created,
            Match.status,
            Match.called,
            Match.state,
            Match.state_version,
            Match.version,
            Match.headline,
            Match.headline_message,
        )
        .where(Match.id.in_(ids))
        .order_by(Match.id)
    ).all()
    seated = _seated(ids)
    for match in matches:
        if match.game in GAMES:
            yield _result_row(match, seated[match.id], clock)


def _result_row(match, seats: list[tuple], clock: Clock) -> list:
    sides = _sides(match.game, seats)
    named = SideNames([[seats[seat][0] for seat in side] for side in sides])
    outcomes = [seats[side[0]][2] for side in sides]  # a side's seats share its outcome
    return [
        *_match_cells(match, clock),
        BETWEEN_SIDES.join(named.labels),
        _score(match),
        _winner(named.labels, outcomes) if match.status == FINISHED else "",
        named(stored_text(match.headline, match.headline_message)) if match.headline else "",
    ]


def _score(match) -> str:
    """Each side's score as the match's board shows it, in the game's unit: "2 – 1 courts"."""
    if match.state is not None and match.state_version == match.version:
        state = decode_state(match.state)
        state = state.evolve(called=True) if match.called else state
    else:  # from before states were stored: replayed
        state = reads.load(match.id).state
    board = GAMES[match.game].board(state)
    shown = BETWEEN_SIDES.join(str(side.score) for side in board.sides)
    return f"{shown} {declared_text(board.sides[0].unit)}"


def _winner(labels: list[str], outcomes: list[str | None]) -> str:
    """Who won a finished match: the winning side, the sides that share the win, or a draw."""
    won = [label for label, outcome in zip(labels, outcomes) if outcome == WON]
    shared = [label for label, outcome in zip(labels, outcomes) if outcome == SHARED]
    if won or len(shared) == 1:
        return ", ".join(won or shared)
    if shared:
        # Translators: in an exported file, who won a match: the sides that shared the win ("Ann, Bo (shared)")
        return gettext("%(sides)s (shared)", sides=", ".join(shared))
    return gettext("Drawn") if DRAWN in outcomes else ""


# -- a night's standings -----------------------------------------------------------------------------------


def standing_rows(selection: Selection) -> Iterator[list]:
    """A night's standings as its page shows them (values as STANDING_COLUMNS): one statement over the
    night's seats, read whole before the first row goes out."""
    standings = queries.night_standings(selection.night)
    db.session.close()
    for place, standing in enumerate(standings, start=1):
        points = standing.points
        whole = int(points) if points == int(points) else points  # as the page writes it: 2, 1.5
        yield [place, standing.name, whole, standing.won, standing.lost, standing.shared + standing.drawn]


# -- the files ---------------------------------------------------------------------------------------------

FILES: dict[str, tuple[list[str], Callable[[Selection], Iterator[list]]]] = {
    "results": (RESULT_COLUMNS, result_rows),
    "hands": (COLUMNS, rows),
    "standings": (STANDING_COLUMNS, standing_rows),
}


def offered(what: str, selection: Selection) -> bool:
    """Whether a list has such a file: results and hands for any, standings for a night alone."""
    return what in FILES and (what != "standings" or selection.a_night_alone)


def filename(what: str, selection: Selection, kind: str) -> str:
    """What the file is called once saved: "scorekeeper-results-night-2026-11-27.csv"."""
    night = day_of(selection.night).isoformat() if selection.night is not None else None
    named = [
        f"{key}-{value}"
        for key, value in (("match", selection.match), ("night", night), ("game", selection.game))
        if value
    ]
    return "-".join(["scorekeeper", what, *named, *(f"player-{p}" for p in selection.players)]) + f".{kind}"


# What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection"): such a text cell is
# prefixed with a quote, so it stays the text it was. Numbers are written as numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defused(cell):
    """A cell as a spreadsheet must show it: text that would start a formula, quoted; an object
    (a hand's record) as JSON text."""
    if isinstance(cell, dict | list):
        return json.dumps(cell, ensure_ascii=False)
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def csv_text(what: str, selection: Selection) -> Iterator[str]:
    """The file as CSV, a few rows of text at a time, after the byte-order mark; no text cell a
    spreadsheet would run."""
    columns, read = FILES[what]
    buffer = io.StringIO()
    buffer.write(BYTE_ORDER_MARK)
    writer = csv.writer(buffer)
    writer.writerow(columns)
    for number, row in enumerate(read(selection), start=1):
        writer.writerow([defused(cell) for cell in row])
        if number % 200 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def json_text(what: str, selection: Selection) -> Iterator[str]:
    """The file as a JSON array of rows, each an object of its columns (a hand's record as an object)."""
    columns, read = FILES[what]
    yield "["
    first = True
    for row in read(selection):
        yield ("\n" if first else ",\n") + jsontext.dumps(dict(zip(columns, row)))
        first = False
    yield "\n]\n"


FORMATS = {"csv": ("text/csv", csv_text), "json": ("application/json", json_text)}


def write_hands_csv(out) -> int:
    """Every match's hands as CSV to `out` (`flask export-csv`), the same rows as every list's CSV
    link; how many hands."""
    for text in csv_text("hands", Selection()):
        out.write(text)
    return db.session.scalar(select(func.count()).select_from(Hand))
