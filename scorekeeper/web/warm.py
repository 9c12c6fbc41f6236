"""A served worker readies itself before the first phone asks (gunicorn's post_worker_init): it
opens its database connection, reads once the pages every phone uses (the home page, the history,
the players, the rules, the newest match as a visitor sees it and its API answer), and draws the
table's page of a new match of every game in memory only (each game's board and hand form), so the
first request of a fresh process costs about what the next ones do. It writes nothing; with no
tables yet (a database not upgraded) it does nothing."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import inspect, select
from werkzeug.datastructures import MultiDict

from ..extensions import db
from ..games import GAMES, RecordError
from ..games.base import encode_state
from ..matches.forms import HandForm
from ..matches.present import hand_page
from ..models import IN_PROGRESS, Match, Player, Seat
from ..records.reads import score

PAGES = ("/", "/matches", "/rules/", "/players/")
MATCH_PAGES = ("/matches/{id}", "/matches/{id}/hands", "/api/v1/matches/{id}?hands=1")


def warm_up(app: Flask) -> bool:
    """Warm the worker; False (and nothing done) where the database has no tables yet."""
    with app.app_context():
        if not inspect(db.engine).has_table("match"):  # this opens the pool's first connection
            db.session.remove()
            return False
        newest = db.session.execute(select(Match.id).order_by(Match.id.desc()).limit(1)).first()
        db.session.remove()
    client = app.test_client()  # a visitor: no key, nothing it could write
    pages = PAGES + (tuple(page.format(id=newest.id) for page in MATCH_PAGES) if newest else ())
    for page in pages:
        client.get(page)
    with app.test_request_context("/"):
        for game in GAMES.values():
            _draw_new_match(game)
        db.session.remove()
    return True


def _draw_new_match(game) -> None:
    """The table's page of a match of `game` that is never stored (no session holds it)."""
    players = next(count for count in range(game.min_players, game.max_players + 1) if _seats(game, count))
    table = game.table(players)
    options = game.parse_options({}, table)
    match = Match(
        id=0,
        game=game.key,
        options=options,
        status=IN_PROGRESS,
        version=0,
        state_version=0,
        called=False,
        state=encode_state(game.new_state(table, options)),
    )
    match.seats = [
        Seat(position=seat, side=table.side_of(seat), player=Player(name=f"Player {seat + 1}"))
        for seat in range(players)
    ]
    hand_page(score(match), HandForm(), MultiDict(), {})


def _seats(game, count: int) -> bool:
    try:
        game.table(count)
        return True
    except RecordError:  # a count inside min..max the game still refuses
        return False
