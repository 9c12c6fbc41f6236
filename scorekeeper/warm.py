"""A served worker readies itself before the first phone asks (gunicorn's post_worker_init): it
opens its database connection and, once, runs the pages every phone uses (the home page, the
history, the newest match as a visitor sees it, its API answer, the new-match form of its game
(the form widgets), the rules), so the first request
of a fresh process costs about what the next ones do. It only reads; with no tables yet (a
database not upgraded) it does nothing."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import inspect, select

from .extensions import db
from .models import Match

PAGES = ("/", "/matches", "/rules/", "/players/")
MATCH_PAGES = ("/matches/{id}", "/matches/{id}/hands", "/api/v1/matches/{id}?hands=1", "/matches/new/{game}")


def warm_up(app: Flask) -> bool:
    """Warm the worker; False (and nothing done) where the database has no tables yet."""
    with app.app_context():
        if not inspect(db.engine).has_table("match"):  # this opens the pool's first connection
            db.session.remove()
            return False
        newest = db.session.execute(select(Match.id, Match.game).order_by(Match.id.desc()).limit(1)).first()
        db.session.remove()
    client = app.test_client()  # a visitor: no key, nothing it could write
    pages = PAGES + (tuple(page.format(id=newest.id, game=newest.game) for page in MATCH_PAGES) if newest else ())
    for page in pages:
        client.get(page)
    return True
