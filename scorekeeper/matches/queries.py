"""The lists the pages show, as database queries (no replay, no per-row query).

A list of matches reads plain rows, not model objects: a page of 25 matches with their seats is two
statements and no object bookkeeping, so its cost stays that of the rows it shows. The players a
form offers are read as they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import Integer, bindparam, literal_column, union_all

from ..extensions import db
from ..games.texts import stored_text
from ..models import FINISHED, IN_PROGRESS, SHARED, WON, Match, PhoneHold, Player, Seat, now_utc

IDLE = timedelta(days=14)  # a match untouched this long has been set aside, not forgotten in play
FILTER_PLAYERS = 30  # the history's player filter offers the most regular players (any other: from their page)


@dataclass
class MatchSummary:
    """A match as a list shows it: what it is, who sat where, and how it ended."""

    id: int
    game: str
    status: str
    winner: int | None
    headline: str | None
    headline_message: dict | None
    created: datetime
    player_names: list[str] = field(default_factory=list)
    seat_sides: list[int] = field(default_factory=list)
    outcomes: list[str | None] = field(default_factory=list)

    @property
    def shown_headline(self) -> str | None:
        """The headline, its message kept where it was stored with one (shown in the reader's language)."""
        return stored_text(self.headline, self.headline_message)

    @property
    def winner_names(self) -> list[str]:
        """Who won a finished match, alone or sharing the win (empty while in play, or for a draw)."""
        if self.status != FINISHED:
            return []
        return [name for name, outcome in zip(self.player_names, self.outcomes) if outcome in (WON, SHARED)]


_COLUMNS = (Match.id, Match.game, Match.status, Match.winner, Match.headline, Match.headline_message, Match.created)
_SEATS = (
    db.select(Seat.match_id, Player.name, Seat.side, Seat.outcome)
    .join(Player, Player.id == Seat.player_id)
    .where(Seat.match_id.in_(bindparam("ids", expanding=True)))
    .order_by(Seat.match_id, Seat.position)
)


def summaries(*lists) -> None:
    """Fill in the seats of every summary in `lists` (one statement for them all)."""
    by_id = {summary.id: summary for found in lists for summary in found}
    if not by_id:
        return
    for match_id, name, side, outcome in db.session.execute(_SEATS, {"ids": list(by_id)}):
        summary = by_id[match_id]
        summary.player_names.append(name)
        summary.seat_sides.append(side)
        summary.outcomes.append(outcome)


def _rows(query, params: dict) -> list[MatchSummary]:
    return [MatchSummary(*row) for row in db.session.execute(query, params)]


def _newest(number: int, at, *where, limit: str = "limit", held: bool = False):
    """One of the home page's lists, marked with its `number`, by `at` newest first (with `held`,
    only the matches the phone holds: its holds joined by their key, not a walk of every match)."""
    query = db.select(*_COLUMNS, literal_column(str(number)).label("list"), at.label("at"))
    if held:
        query = query.join(PhoneHold, PhoneHold.match_id == Match.id).where(PhoneHold.phone_hash == bindparam("phone"))
    return query.where(*where).order_by(at.desc(), Match.id.desc()).limit(bindparam(limit, type_=Integer)).subquery()


_MOVED = (Match.status == IN_PROGRESS, Match.updated >= bindparam("idle_since"))
_NOT_HELD = (
    ~db.select(PhoneHold.match_id)
    .where(PhoneHold.phone_hash == bindparam("phone"), PhoneHold.match_id == Match.id)
    .exists()
)
# Built once: a statement this size costs more to build than to run.
_HOME_LISTS = union_all(
    *(
        db.select(listed)
        for listed in (
            _newest(0, Match.updated, *_MOVED, held=True),
            _newest(1, Match.updated, *_MOVED, _NOT_HELD, limit="others"),
            _newest(2, Match.updated, Match.status == IN_PROGRESS, Match.updated < bindparam("idle_since")),
            _newest(3, Match.created, Match.status == FINISHED),
        )
    )
).subquery()
_HOME = db.select(_HOME_LISTS).order_by(_HOME_LISTS.c.list, _HOME_LISTS.c.at.desc(), _HOME_LISTS.c.id.desc())


def home_lists(limit: int, others: int, phone_hash: str | None) -> tuple[list[MatchSummary], ...]:
    """The home page's lists, newest first: the matches in play this phone scores, the other
    matches in play (at most `others`), those set aside (in play, untouched for IDLE) and the
    latest finished. Each is one index range; the four are one statement, and their seats one more
    (on PostgreSQL a statement is a round trip, which costs a request more than its rows do)."""
    found: tuple[list, ...] = ([], [], [], [])
    params = {"limit": limit, "others": others, "idle_since": now_utc() - IDLE, "phone": phone_hash or ""}
    for *columns, number, _ in db.session.execute(_HOME, params):
        found[number].append(MatchSummary(*columns))
    summaries(*found)
    return found


def page(
    game: str | None = None, player: int | None = None, before: int | None = None, limit: int = 50
) -> list[MatchSummary]:
    """One page of matches by id, newest first, before a given id (a keyset: no OFFSET to walk)."""
    query = _page_query(bool(game), bool(player), before is not None)
    found = _rows(query, {"game": game, "player": player, "before": before, "limit": limit})
    summaries(found)
    return found


@cache
def _page_query(by_game: bool, by_player: bool, paged: bool):
    """The statement of `page` for the filters it is given, built once for each such set."""
    query = db.select(*_COLUMNS).order_by(Match.id.desc()).limit(bindparam("limit", type_=Integer))
    if paged:
        query = query.where(Match.id < bindparam("before"))
    if by_game:
        query = query.where(Match.game == bindparam("game"))
    if by_player:
        query = query.where(Match.seats.any(Seat.player_id == bindparam("player")))
    return query


# A player's latest matches: their newest seats are their newest matches (the index gives them in order).
_LATEST_FOR = (
    db.select(*_COLUMNS)
    .join(Seat, Seat.match_id == Match.id)
    .where(Seat.player_id == bindparam("player"))
    .order_by(Seat.id.desc())
    .limit(bindparam("limit", type_=Integer))
)


def latest_for(player: int, limit: int) -> list[MatchSummary]:
    """A player's latest matches, newest first."""
    found = _rows(_LATEST_FOR, {"player": player, "limit": limit})
    summaries(found)
    return found


def version_of(match_id: int) -> int | None:
    """The match's version (None: no such match), for a watching phone that did not say which it
    shows. The session is closed after: its connection goes back to the pool before the phone's
    long wait."""
    version = db.session.scalar(db.select(Match.version).where(Match.id == match_id))
    db.session.close()
    return version


def filter_players(chosen: int | None) -> list[Player]:
    """The players the history's filter offers, by name: the most regular ones, and the one chosen."""
    regulars = db.select(Player.id).order_by(Player.played.desc(), Player.id).limit(FILTER_PLAYERS)
    offered = Player.id.in_(regulars.scalar_subquery()) | (Player.id == chosen if chosen else False)
    return db.session.scalars(db.select(Player).where(offered).order_by(Player.name)).all()


def known_players() -> list[Player]:
    """Every player by name, for a new match's seats to pick from."""
    return db.session.scalars(db.select(Player).order_by(Player.name)).all()
