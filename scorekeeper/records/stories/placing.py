"""A write's part in the history: what a finished match gives its seats put in its place, in the
write's own transaction (records.writes calls it before its commit).

A match finishing takes the next place of its game's book, and its players' stories after it are
worked out at once. A change to a finished match (an edit, a deletion, a new set-up, a finish taken
back) puts its seats right where they are; where it is not the game's latest match, the book is
marked stale from its place and the later matches are left to the re-rating (rerating.py): the write
stays the size of one match. Every write that touches a game's stories first locks its book row
(after the match, which the write claimed before): writes and the re-rating of one game take turns,
and always in that order."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update

from ...extensions import db
from ...models import Match, now_utc
from .figures import figures_from_rows, figures_of
from .ledger import (
    BOOK_UP_TO_DATE,
    DELETE_ROWS,
    PAIRS,
    ROWS_OF,
    SEATS,
    TOGETHER,
    apply_pairs,
    as_rows,
    book,
    grouped_by,
    latest_stories,
    pair_moves,
    pair_writes,
    pairs_of,
    rules_of,
    seat_rows,
    stories_before,
    update_inputs,
)
from .rerating import INLINE, rerate
from .stats import SeatFigures, Story, fold


def place_match(scored, was_over: bool) -> set[str]:
    """After a write changed a match (before its commit): its seats' place in the history, and the
    stories from there on where that is the game's latest match (else the runner re-rates them after
    the commit: rerating.py). Nothing at all for a match that was and is in play. The games left to
    re-rate."""
    if not (was_over or scored.finished):
        return set()
    db.session.flush()  # the hands and seats as the write left them
    connection = db.session.connection()
    if not was_over:
        return _finished(connection, scored)
    game = scored.match.game
    old = connection.execute(ROWS_OF, {"match_id": scored.match.id}).all()
    new = figures_of(scored, connection) if scored.finished else []
    return _change(connection, game, scored.match.id, new, as_rows(old))


def _finished(connection, scored) -> set[str]:
    """A match that was in play has just finished, the commonest change of all: the game's book gives
    it the next place, its players' stories so far are read, and its rows, pairs and list of matches
    together are written. A match finishing is the last of its game: unless the game is being
    re-rated, the stories are final at once."""
    match, game = scored.match, scored.match.game
    players = [seat.player_id for seat in match.seats]
    place, stale_from = book(connection, game, add_place=True)
    latest = latest_stories(connection, game, players)
    new = figures_of(scored, connection)
    if stale_from is None:
        after = fold(new, latest, *rules_of(game))
    else:  # the game is being re-rated from an earlier place: the re-rating reaches this one
        after = {seat.player_id: Story() for seat in new}
    for statement, rows in pair_writes(connection, game, match.id, [], new):
        connection.execute(statement, rows)
    connection.execute(*seat_rows(connection, game, match.id, place, now_utc(), new, after))
    return set() if stale_from is None else {game}


def remove_match(match: Match) -> set[str]:
    """Before a finished match is deleted: its seats leave the history, the stories after it follow
    (the games left to re-rate)."""
    if not any(seat.outcome for seat in match.seats):
        return set()
    db.session.flush()
    connection = db.session.connection()
    old = connection.execute(ROWS_OF, {"match_id": match.id}).all()
    return _change(connection, match.game, match.id, [], as_rows(old))


def _change(connection, game: str, match_id: int, new: list[SeatFigures], old: list[dict]) -> set[str]:
    """Put what a match gives its seats (`new`; none: it left the history; `old`: its rows before) in its
    place. The stories from there on are worked out here where the match is the game's latest (a hand
    fixed right after the end: one match); else the book is marked and a follow-up does it after the
    commit (a change to an early match of a long history: the write stays the size of one match).
    `seen_places`: the game's places as read (unlocked) before."""
    before = figures_from_rows(old)
    if before == new:
        return set()
    writes = []
    if old:
        place, finished = old[0]["place"], old[0]["finished"]
        places, stale_from = book(connection, game, stale_at=place)
    else:
        places, stale_from = book(connection, game, add_place=True)
        place, finished = places, now_utc()
        stale_from = place if stale_from is None else stale_from
    writes += pair_writes(connection, game, match_id, before, new)
    latest = stale_from == place == places  # nothing stale before it, nothing after it
    if latest and new:
        starts = stories_before(connection, game, [seat.player_id for seat in new], place)
        after = fold(new, starts, *rules_of(game))
        if old:
            writes.append((DELETE_ROWS, {"match_id": match_id}))
        writes.append(seat_rows(connection, game, match_id, place, finished, new, after))
    elif not new:
        writes.append((DELETE_ROWS, {"match_id": match_id}))
    elif not old:  # the game is being worked out again from an earlier place: its follow-up reaches this one
        writes.append(seat_rows(connection, game, match_id, place, finished, new, {s.player_id: Story() for s in new}))
    else:
        writes.append((update_inputs(), [{**seat.as_row(), "match": match_id, "seat": seat.position} for seat in new]))
    if latest:
        writes.append((BOOK_UP_TO_DATE, {"book": game}))
    for statement, rows in writes:
        connection.execute(statement, rows)
    return set() if latest else {game}


def merge_players(leaving: int, staying: int) -> set[str]:
    """`leaving`'s finished matches are `staying`'s now (in the merge's transaction, the seats moved
    already): their rows move, the pairs of both are counted again, and each game's stories are
    worked out again from the first match that moved."""
    db.session.flush()
    connection = db.session.connection()
    firsts = dict(
        connection.execute(
            select(SEATS.c.game, func.min(SEATS.c.place)).where(SEATS.c.player_id == leaving).group_by(SEATS.c.game)
        ).all()
    )
    books = {game: book(connection, game, stale_at=firsts[game]) for game in sorted(firsts)}
    connection.execute(update(SEATS).where(SEATS.c.player_id == leaving).values(player_id=staying))
    # The pairs of both in those games are counted again below; their pairs in other games stay.
    games = sorted(firsts)
    involved = (PAIRS.c.player_id.in_([leaving, staying])) | (PAIRS.c.other_id.in_([leaving, staying]))
    connection.execute(delete(PAIRS).where(involved, PAIRS.c.game.in_(games)))
    together = TOGETHER.c.player_id.in_([leaving, staying]) | TOGETHER.c.other_id.in_([leaving, staying])
    of_games = select(SEATS.c.match_id).where(SEATS.c.game.in_(games))
    connection.execute(delete(TOGETHER).where(together, TOGETHER.c.match_id.in_(of_games)))
    stale = set()
    for game in sorted(firsts):
        matches = select(SEATS.c.match_id).where(SEATS.c.player_id == staying, SEATS.c.game == game)
        rows = (
            connection.execute(
                select(SEATS).where(SEATS.c.match_id.in_(matches)).order_by(SEATS.c.match_id, SEATS.c.position)
            )
            .mappings()
            .all()
        )
        moves = [
            (pair, counts)
            for seats in grouped_by("match_id", rows)
            for pair, counts in pair_moves(figures_from_rows(seats), 1)
            if staying in pair
        ]  # the other pairs of those matches stay as they are
        apply_pairs(connection, game, moves)
        kept = [
            {"player_id": one, "other_id": other, "match_id": seats[0]["match_id"]}
            for seats in grouped_by("match_id", rows)
            for one, other in sorted(pairs_of([row["player_id"] for row in seats]))
            if staying in (one, other)
        ]
        if kept:
            connection.execute(insert(TOGETHER), kept)
        if not rerate(connection, game, INLINE, books[game][1]):
            stale.add(game)
    return stale


def place_again(scored) -> bool:
    """Put a match's seats in the history as its replay says (flask verify --store), in the current
    transaction; True if anything changed."""
    db.session.flush()
    connection = db.session.connection()
    new = figures_of(scored, connection) if scored.finished else []
    old = as_rows(connection.execute(ROWS_OF, {"match_id": scored.match.id}).all())
    if figures_from_rows(old) == new:
        return False
    _change(connection, scored.match.game, scored.match.id, new, old)
    return True
