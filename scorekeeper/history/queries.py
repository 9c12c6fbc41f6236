"""What the history pages read, as database queries: a few statements a page, each an index range
or a handful of index probes, whatever the number of matches (views and templates query nothing).

A player's record and story per game is the latest of their rows in `rated_seat` (one probe per
game); a chart reads a few dozen of their rows, evenly spread, by number; two
players' tallies together are one row per game; a night is an index range of `match.night`, and the
list of nights one probe a night."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlalchemy import Integer, bindparam, func, select, text

from ..extensions import db
from ..matches.queries import MatchSummary, summaries
from ..models import DRAWN, LOST, SHARED, WON, Match, Night, PairMatch, PairTally, Player, RatedSeat, RatingBook, Seat
from ..records.stories.stats import PAIR_COLUMNS, Story

SUMMARY = (Match.id, Match.game, Match.status, Match.winner, Match.headline, Match.headline_message, Match.created)
OUTCOMES = (WON, SHARED, LOST, DRAWN)
CHART_POINTS = 30  # a chart of a long story is drawn from this many of its matches


# -- a player -------------------------------------------------------------------------------------------


@dataclass
class GameStory:
    """A player's record and story in one game, as the player page shows it."""

    game: str
    won: int
    shared: int
    lost: int
    drawn: int
    story: Story | None  # None: no finished match in the history yet
    updating: bool  # the game's stories are being worked out again after a change

    @property
    def matches(self) -> int:
        return self.won + self.shared + self.lost + self.drawn


@cache
def _latest_places():
    """Each game's book and the place of the player's latest row in it: a covering-index probe a game.
    (Asked together with the rows, SQLite's planner walked all of the player's rows instead: a
    statement per step keeps the probes.)"""
    latest = (
        select(func.max(RatedSeat.place))
        .where(RatedSeat.player_id == bindparam("player"), RatedSeat.game == RatingBook.game)
        .scalar_subquery()
    )
    return select(RatingBook.game, RatingBook.stale_from, latest.label("place"))


@cache
def _latest_rows():
    """The player's rows at those places: one index probe each (`ix_rated_seat_player_game_place`)."""
    story = [getattr(RatedSeat, name) for name in Story.COLUMNS]
    return select(RatedSeat.game, RatedSeat.place, *story).where(
        RatedSeat.player_id == bindparam("player"),
        RatedSeat.game.in_(bindparam("games", expanding=True)),
        RatedSeat.place.in_(bindparam("places", expanding=True)),
    )


def _latest_stories(player_id: int) -> list[tuple[dict, str | None]]:
    """(the player's latest row, its game's `stale_from`) in each game they have a row in."""
    books = db.session.execute(_latest_places(), {"player": player_id}).all()
    played = {(game, place): stale_from for game, stale_from, place in books if place is not None}
    if not played:
        return []
    games, places = sorted({game for game, _ in played}), sorted({place for _, place in played})
    rows = db.session.execute(_latest_rows(), {"player": player_id, "games": games, "places": places}).mappings()
    return [(row, played[row["game"], row["place"]]) for row in rows if (row["game"], row["place"]) in played]


_OUTCOMES_COUNTED = (
    select(Seat.game, Seat.outcome, func.count())
    .where(Seat.player_id == bindparam("player"), Seat.game.in_(bindparam("games", expanding=True)))
    .where(Seat.outcome.is_not(None))
    .group_by(Seat.game, Seat.outcome)
)


def stories_of(player_id: int) -> dict[str, GameStory]:
    """The player's record and story in each game they finished a match of, by game key: their latest
    row's (two statements). A game whose stories are being worked out again has its latest rows not
    yet right: its record is counted from the seats meanwhile (one statement more)."""
    latest = _latest_stories(player_id)
    updating = [row["game"] for row, stale_from in latest if stale_from is not None]
    counted = _counted_from_seats(player_id, updating) if updating else {}
    found = {}
    for row, stale_from in latest:
        game = row["game"]
        counts = counted.get(game) or {outcome: row[outcome] for outcome in OUTCOMES}
        story = Story.of(row) if row["number"] else None  # 0: not yet worked out (the game is updating)
        found[game] = GameStory(game, **counts, story=story, updating=stale_from is not None)
    return dict(sorted(found.items()))


def _counted_from_seats(player_id: int, games: list[str]) -> dict[str, dict[str, int]]:
    counted: dict[str, dict[str, int]] = {game: dict.fromkeys(OUTCOMES, 0) for game in games}
    for game, outcome, count in db.session.execute(_OUTCOMES_COUNTED, {"player": player_id, "games": games}):
        counted[game][outcome] = count
    return counted


@dataclass
class Point:
    """A player's story after one of their matches: a point of a chart."""

    number: int
    won: int
    shared: int
    lost: int
    drawn: int
    mu: float
    sigma: float
    finished: object


_POINTS = (
    select(
        RatedSeat.number,
        RatedSeat.won,
        RatedSeat.shared,
        RatedSeat.lost,
        RatedSeat.drawn,
        RatedSeat.mu,
        RatedSeat.sigma,
        RatedSeat.finished,
    )
    .where(
        RatedSeat.player_id == bindparam("player"),
        RatedSeat.game == bindparam("game"),
        RatedSeat.number.in_(bindparam("numbers", expanding=True)),
    )
    .order_by(RatedSeat.number)
    .limit(bindparam("limit", type_=Integer))
)


def story_points(player_id: int, game: str, matches: int, points: int = CHART_POINTS) -> list[Point]:
    """The player's story in `game` after about `points` of their `matches`, evenly spread, the
    first and the latest included (one index probe each)."""
    if matches < 1:
        return []
    numbers = sorted(
        {1 + round(i * (matches - 1) / (points - 1)) for i in range(points)}
        if matches > points
        else range(1, matches + 1)
    )
    found = db.session.execute(_POINTS, {"player": player_id, "game": game, "numbers": numbers, "limit": len(numbers)})
    # While a game's stories are being worked out again, a number may be held twice for a moment: once each.
    return list({row.number: Point(*row) for row in found}.values())


@dataclass
class Pair:
    """Two players in one game: their matches as partners and as opponents, from the first one's side."""

    game: str
    partners: int
    partners_won: int
    partners_lost: int
    against: int
    ahead: int
    behind: int

    @property
    def level(self) -> int:
        return self.against - self.ahead - self.behind

    @property
    def partners_other(self) -> int:
        return self.partners - self.partners_won - self.partners_lost


_PAIR = (
    select(PairTally.game, *(getattr(PairTally, name) for name in PAIR_COLUMNS))
    .where(PairTally.player_id == bindparam("one"), PairTally.other_id == bindparam("other"))
    .order_by(PairTally.game)
)


def pair(one: int, other: int) -> list[Pair]:
    """Two players' finished matches together, per game, from `one`'s side (games with any only)."""
    rows = [Pair(*row) for row in db.session.execute(_PAIR, {"one": one, "other": other})]
    return [row for row in rows if row.partners or row.against]


_TOGETHER = (
    select(PairTally.other_id, Player.name, func.sum(PairTally.partners + PairTally.against).label("matches"))
    .join(Player, Player.id == PairTally.other_id)
    .where(PairTally.player_id == bindparam("player"))
    .group_by(PairTally.other_id, Player.name)
    .having(func.sum(PairTally.partners + PairTally.against) > 0)
    .order_by(text("matches DESC"), Player.name)
    .limit(bindparam("limit", type_=Integer))
)


def played_with(player_id: int, limit: int) -> list[tuple[int, str, int]]:
    """The players `player_id` finished most matches with (partners or opponents): (id, name, matches)."""
    return [tuple(row) for row in db.session.execute(_TOGETHER, {"player": player_id, "limit": limit})]


def players(ids: list[int]) -> dict[int, str]:
    """The names of the players whose ids are given (those that exist)."""
    return dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


@cache
def _together_statement(paged: bool):
    query = (
        select(*SUMMARY)
        .join(PairMatch, PairMatch.match_id == Match.id)
        .where(PairMatch.player_id == bindparam("one"), PairMatch.other_id == bindparam("other"))
        .order_by(PairMatch.match_id.desc())
        .limit(bindparam("limit", type_=Integer))
    )
    return query.where(PairMatch.match_id < bindparam("before")) if paged else query


def matches_together(one: int, other: int, before: int | None, limit: int) -> list[MatchSummary]:
    """The finished matches both players sat in, newest first (a keyset on the match id): one index
    range of their pair's, however many matches each played without the other."""
    low, high = sorted((one, other))
    found = [
        MatchSummary(*row)
        for row in db.session.execute(
            _together_statement(before is not None), {"one": low, "other": high, "before": before, "limit": limit}
        )
    ]
    summaries(found)
    return found


# -- nights -------------------------------------------------------------------------------------------


def nights_page(before: int | None, limit: int) -> list[tuple[int, int, str | None]]:
    """The nights with matches, latest first, before night `before`: (night, matches, name). One probe
    for each night (a recursive walk down the index of `match.night`), then their counts and names."""
    walk = text("""
        WITH RECURSIVE walk(night) AS (
            SELECT (SELECT max(night) FROM match WHERE night < :before)
            UNION ALL
            SELECT (SELECT max(m.night) FROM match m WHERE m.night < walk.night) FROM walk
            WHERE walk.night IS NOT NULL
        )
        SELECT night FROM walk WHERE night IS NOT NULL LIMIT :limit""")
    found = db.session.execute(walk, {"before": before or 99999999, "limit": limit}).scalars().all()
    if not found:
        return []
    counted = dict(
        db.session.execute(select(Match.night, func.count()).where(Match.night.in_(found)).group_by(Match.night)).all()
    )
    names = dict(db.session.execute(select(Night.id, Night.name).where(Night.id.in_(found))).all())
    return [(night, counted.get(night, 0), names.get(night)) for night in found]


def night_name(night: int) -> str | None:
    return db.session.scalar(select(Night.name).where(Night.id == night))


@cache
def _night_statement(paged: bool):
    query = (
        select(*SUMMARY)
        .where(Match.night == bindparam("night"))
        .order_by(Match.id.desc())
        .limit(bindparam("limit", type_=Integer))
    )
    return query.where(Match.id < bindparam("before")) if paged else query


def night_matches(night: int, before: int | None, limit: int) -> list[MatchSummary]:
    """A night's matches, newest first, a page at a time (a keyset on the id)."""
    found = [
        MatchSummary(*row)
        for row in db.session.execute(
            _night_statement(before is not None), {"night": night, "before": before, "limit": limit}
        )
    ]
    summaries(found)
    return found


@dataclass
class Standing:
    """A player's night: matches by outcome, and points (a win 1, a shared win or a draw ½)."""

    player_id: int
    name: str
    played: int = 0
    won: int = 0
    shared: int = 0
    lost: int = 0
    drawn: int = 0
    games: set = None

    @property
    def points(self) -> float:
        return self.won + (self.shared + self.drawn) / 2


_NIGHT_SEATS = (
    select(Seat.player_id, Player.name, Seat.game, Seat.outcome, func.count())
    .join(Match, Match.id == Seat.match_id)
    .join(Player, Player.id == Seat.player_id)
    .where(Match.night == bindparam("night"))
    .group_by(Seat.player_id, Player.name, Seat.game, Seat.outcome)
)


def night_standings(night: int) -> list[Standing]:
    """Every player of the night by points, then fewer matches played, then name: the finished
    matches of all its games counted together (one statement over the night's seats)."""
    table: dict[int, Standing] = {}
    for player_id, name, game, outcome, count in db.session.execute(_NIGHT_SEATS, {"night": night}):
        standing = table.setdefault(player_id, Standing(player_id, name, games=set()))
        standing.games.add(game)
        if outcome:
            standing.played += count
            setattr(standing, outcome, getattr(standing, outcome) + count)
    return sorted(table.values(), key=lambda s: (-s.points, -s.won, s.played, s.name.casefold()))


_LIVE = (
    select(Match.id, Match.version, Match.status, Match.updated)
    .where(Match.night == bindparam("night"))
    .order_by(Match.id)
)


@dataclass
class NightMatch:
    id: int
    version: int
    status: str
    updated: object


def night_rows(night: int) -> list[NightMatch]:
    """Each of the night's matches: its id, version, status and last change (one index range)."""
    return [NightMatch(*row) for row in db.session.execute(_LIVE, {"night": night})]


def night_versions(night: int) -> dict[int, int]:
    """Each of the night's matches by id with its version: what a big screen shows, to follow."""
    return {row.id: row.version for row in night_rows(night)}


_STATES = select(Match.id, Match.game, Match.version, Match.state, Match.state_version).where(
    Match.id.in_(bindparam("ids", expanding=True))
)
_SEATED = (
    select(Seat.match_id, Player.name, Seat.side)
    .join(Player, Player.id == Seat.player_id)
    .where(Seat.match_id.in_(bindparam("ids", expanding=True)))
    .order_by(Seat.match_id, Seat.position)
)


@dataclass
class InPlay:
    """A match in play as a big screen shows it: its stored state (None: not stored for its version)
    and its players by seat with their sides."""

    id: int
    game: str
    state: dict | None
    names: list[str]
    sides: list[int]


def in_play(ids: list[int]) -> list[InPlay]:
    """Matches in play by id, in that order, with their states and players (two statements)."""
    if not ids:
        return []
    rows = {row.id: row for row in db.session.execute(_STATES, {"ids": ids})}
    found = {
        match_id: InPlay(
            match_id,
            rows[match_id].game,
            rows[match_id].state if rows[match_id].state_version == rows[match_id].version else None,
            [],
            [],
        )
        for match_id in ids
        if match_id in rows
    }
    for match_id, name, side in db.session.execute(_SEATED, {"ids": list(found)}):
        found[match_id].names.append(name)
        found[match_id].sides.append(side)
    return list(found.values())


def summaries_of(ids: list[int]) -> list[MatchSummary]:
    """Matches by id, newest first, as a list shows them (two statements)."""
    if not ids:
        return []
    found = [MatchSummary(*row) for row in db.session.execute(_SUMMARIES, {"ids": ids})]
    summaries(found)
    return found


_SUMMARIES = select(*SUMMARY).where(Match.id.in_(bindparam("ids", expanding=True))).order_by(Match.id.desc())
