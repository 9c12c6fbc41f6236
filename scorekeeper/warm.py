"""A served worker readies itself before the first phone asks (gunicorn's post_worker_init): it
opens its database connection and runs, once, the statements and templates every page uses, so
the first request of a fresh process costs about what the next ones do. Nothing is written, and
no match is looked at: the ids asked for do not exist."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import inspect

from .extensions import db

NOWHERE = 2**31 - 1  # an id no row has
PAGES = ("/", "/matches", f"/matches/{NOWHERE}", f"/api/v1/matches/{NOWHERE}", "/rules/")


def warm_up(app: Flask) -> bool:
    """Warm the worker; False (and nothing done) where the database has no tables yet."""
    with app.app_context():
        if not inspect(db.engine).has_table("match"):  # this opens the pool's first connection
            db.session.remove()
            return False
        db.session.remove()
    client = app.test_client()
    for page in PAGES:
        client.get(page)
    return True
