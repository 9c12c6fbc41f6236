"""Game nights: the matches started on one evening, grouped by the date the evening began.

Scorekeeper serves one place (the club's, or the home's), so a night is an evening there: from six in
the morning until six the next morning, in the place's time zone, so that a match started at half
past one still belongs to the evening before. The night is fixed on the match when it starts
(`Match.night`, the date as a number: 20261127), so a night's matches are one index range and the
list of nights one index probe each; the table may give a night a name (`Night`). Which night a
moment belongs to is the record layer's (records/nights.py); how a night is shown is here."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as time_of_day
from typing import Any

from babel.dates import format_time
from flask_babel import get_locale

from ..games import GAMES
from ..games.base import decode_state
from ..matches.present import SideNames, own_board
from ..records.nights import TURN, day_of, night_of, number_of, zone  # noqa: F401  (the pages' names for them)
from ..web.i18n import date_in

NAME_LIMIT = 60


def title(number: int) -> str:
    """A night as a page names it by its date: "Friday 27 November 2026" ("viernes, 27 de noviembre
    de 2026" in Spanish)."""
    day = day_of(number)
    return shown_date(day, "EEEE d MMMM y", "full") if day else str(number)


def span(number: int) -> tuple[str, str, str]:
    """When a night starts and ends, as its page says it: the turn's time (06:00 in the page's
    language), the evening's date and the next morning's."""
    day = day_of(number) or date.today()
    locale = get_locale()
    english = locale is None or locale.language == "en"  # 06:00, as Scorekeeper's English writes times
    turn = format_time(time_of_day(TURN.seconds // 3600), "HH:mm" if english else "short", locale=str(locale or "en"))
    return turn, shown_date(day, "EEEE d MMMM", "long"), shown_date(day + timedelta(days=1), "EEEE d MMMM", "long")


def shown_date(day: date | datetime, english: str, length: str) -> str:
    """A date (a datetime's own, as stored) as the page's language writes it: English as Scorekeeper
    always has, by the CLDR pattern `english`; another language in its own CLDR form of that `length`
    ("full", "long", "medium", "short"), its order and its words. Outside a request: English."""
    locale = get_locale()
    day = day.date() if isinstance(day, datetime) else day
    if locale is None or locale.language == "en":
        return date_in(day, english, "en")
    return date_in(day, length, str(locale))


def tonight(now: datetime, place_zone=None) -> int:
    return night_of(now, place_zone)


def stream(hub, versions: dict[int, int], changed: bool, seconds: float, heartbeat: float) -> Iterator[str]:
    """Server-Sent Events for a big screen: one `change` event as soon as any of the night's matches
    moves past the version the screen shows (or at once, `changed`: the screen is behind already), a
    comment every `heartbeat` seconds meanwhile, and the end after `seconds` (the browser asks again,
    and a match that joined the night meanwhile is seen then). The screen holds no database
    connection while it waits: the process's live hub (scorekeeper.web.live) watches the versions."""
    if changed:
        yield "event: change\ndata: \n\n"
        return
    moved = threading.Event()
    watchers = []
    for match_id, version in versions.items():
        watcher = hub.watch(match_id, version)
        watcher.moved = moved  # any of them wakes the screen (the hub sets it again each tick)
        watchers.append(watcher)
    deadline = time.monotonic() + seconds
    try:
        yield ": watching\n\n"
        while (left := deadline - time.monotonic()) > 0:
            if moved.wait(min(heartbeat, left)):
                yield "event: change\ndata: \n\n"
                return
            yield ": still here\n\n"
    finally:
        for watcher in watchers:
            hub.forget(watcher)


@dataclass
class Board:
    """A match in play on a big screen, with what the match page's scoreboard (games/board.html, or
    the game's own) reads: `board`, `side_names`, `public_state`, and as `s` the match itself (its
    game, players, dealer; never finished: the screen's boards are of matches in play)."""

    id: int
    game: Any
    hands: int
    names: list[str]
    dealer: int | None
    board: Any  # the engine's Board
    side_names: SideNames
    own_board: str | None  # the game's own scoreboard template (Poke's sheet), else None
    public_state: dict | None
    finished: bool = False


def board_of(match) -> Board | None:
    """A big screen's board of a match in play (history.queries.InPlay); None for one whose state is
    not stored for its version (from before states were stored: its own page replays it)."""
    game = GAMES.get(match.game)
    if game is None or match.state is None:
        return None
    state = decode_state(match.state)
    table = game.table(len(match.names), match.sides)
    sides = [[match.names[seat] for seat in table.seats_of(side)] for side in range(table.sides)]
    own = own_board(game)
    return Board(
        match.id,
        game,
        state.hands,
        match.names,
        state.dealer,
        game.board(state),
        SideNames(sides),
        own,
        game.public_state(state) if own else None,
    )
