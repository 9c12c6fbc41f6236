"""The history built again from the matches alone (a migration, an import, the bench's bulk fill,
`flask verify --store`): every finished match's seats in the order the matches finished, then every
story, pair and book worked out from them."""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from functools import cache

from sqlalchemy import bindparam, func, insert, select, update

from ...extensions import db
from ...games import GAMES
from ...models import FINISHED, Match, Seat
from .figures import figures_from_rows, figures_stored
from .ledger import BOOKS, PAIRS, SEATS, TOGETHER, grouped_by, pairs_of, rules_of, streamed
from .stats import PAIR_COLUMNS, Story, fold, pair_counts

log = logging.getLogger(__name__)


_MATCH_COLUMNS = ("id", "game", "options", "state", "state_version", "version", "called", "updated")


def rebuild(connection=None) -> None:
    """Every finished match's seats put in the history again, in the order the matches finished (their
    last change), and every story, pair and book worked out from them (a migration: the matches
    finished before the history was kept). Reads rows only, through `connection`."""
    connection = connection or db.session.connection()
    for table in (SEATS, PAIRS, TOGETHER, BOOKS):
        connection.execute(table.delete())
    matches = Match.__table__
    seats = Seat.__table__
    finished = (
        connection.execute(
            select(matches.c.id).where(matches.c.status == FINISHED).order_by(matches.c.updated, matches.c.id)
        )
        .scalars()
        .all()
    )
    places: Counter = Counter()
    for start in range(0, len(finished), 500):
        ids = finished[start : start + 500]
        rows_of = {
            row.id: row
            for row in connection.execute(
                select(*(matches.c[name] for name in _MATCH_COLUMNS)).where(matches.c.id.in_(ids))
            )
        }
        seated = defaultdict(list)
        for seat in connection.execute(
            select(seats.c.match_id, seats.c.position, seats.c.player_id, seats.c.side)
            .where(seats.c.match_id.in_(ids))
            .order_by(seats.c.position)
        ):
            seated[seat.match_id].append(seat)
        rows = []
        for match_id in ids:
            match = rows_of[match_id]
            if match.game not in GAMES:
                continue
            try:
                figures = figures_stored(connection, match, seated[match_id])
            except Exception:  # a match the engine cannot read back: flask verify reports it, left out here
                log.warning("history: match %s left out of the stories (it does not replay)", match_id)
                continue
            if not figures:
                continue
            places[match.game] += 1
            for seat in figures:
                rows.append(
                    {
                        **seat.as_row(),
                        "match_id": match_id,
                        "game": match.game,
                        "place": places[match.game],
                        "finished": match.updated,
                        **Story().as_row(),
                    }
                )
        if rows:
            connection.execute(insert(SEATS), rows)
    rebuild_stories(connection, renumber=False)


def rebuild_stories(connection=None, renumber: bool = True) -> None:
    """Work out every story, pair and book from the seats' rows as they are; with `renumber`, give
    each game's matches their places again in the order they finished (rows copied in bulk)."""
    connection = connection or db.session.connection()
    for table in (PAIRS, TOGETHER, BOOKS):
        connection.execute(table.delete())
    games = connection.execute(select(SEATS.c.game).distinct()).scalars().all()
    for game in games:
        if renumber:
            _renumber(connection, game)
        stories: dict[int, Story] = defaultdict(Story)
        pairs: dict[tuple[int, int], Counter] = defaultdict(Counter)
        statistics, lowest = rules_of(game)
        place, last = 0, (None, None)
        changed, together = [], []
        for seats in grouped_by("match_id", streamed(connection, game)):
            place += 1
            figures = figures_from_rows(seats)
            stories.update(fold(figures, stories, statistics, lowest))
            for pair, counts in pair_counts(figures).items():
                pairs[pair].update(counts)
            changed += [
                {
                    "match": row["match_id"],
                    "seat": row["position"],
                    "new_place": place,
                    **stories[row["player_id"]].as_row(),
                }
                for row in seats
                if row["place"] != place or Story.of(row) != stories[row["player_id"]]
            ]
            together += [
                {"player_id": one, "other_id": other, "match_id": seats[0]["match_id"]}
                for one, other in sorted(pairs_of(figures))
            ]
            if len(changed) >= 5000 or len(together) >= 5000:
                _refold_write(connection, changed, together)
                changed, together = [], []
            last = (game, place)
        _refold_write(connection, changed, together)
        connection.execute(insert(BOOKS).values(game=game, places=last[1] or 0, stale_from=None))
        rows = [
            {"player_id": one, "other_id": other, "game": game, **{name: counts[name] for name in PAIR_COLUMNS}}
            for (one, other), counts in sorted(pairs.items())
        ]
        for start in range(0, len(rows), 5000):
            connection.execute(insert(PAIRS), rows[start : start + 5000])


def _refold_write(connection, changed: list[dict], together: list[dict]) -> None:
    if changed:
        connection.execute(_refold_update(), changed)
    if together:
        connection.execute(insert(TOGETHER), together)


def _renumber(connection, game: str) -> None:
    """Give a game's matches their places in the order they finished (the rows of copied matches
    hold their originals' places): each match's place from one ordered read of the game's matches."""
    order = (
        connection.execute(
            select(SEATS.c.match_id, func.min(SEATS.c.finished).label("finished"))
            .where(SEATS.c.game == game)
            .group_by(SEATS.c.match_id)
            .order_by("finished", SEATS.c.match_id)
        )
        .scalars()
        .all()
    )
    moves = [{"match": match_id, "new_place": place} for place, match_id in enumerate(order, start=1)]
    for start in range(0, len(moves), 5000):
        connection.execute(_place_update(), moves[start : start + 5000])


@cache
def _place_update():
    return update(SEATS).where(SEATS.c.match_id == bindparam("match")).values(place=bindparam("new_place"))


@cache
def _refold_update():
    return (
        update(SEATS)
        .where(SEATS.c.match_id == bindparam("match"), SEATS.c.position == bindparam("seat"))
        .values(place=bindparam("new_place"), **{name: bindparam(name) for name in Story.COLUMNS})
    )


def rebuild_stories_now() -> None:
    """Every story, pair and book worked out again from the seats' rows (flask verify --store)."""
    rebuild_stories(db.session.connection(), renumber=False)
    db.session.commit()
