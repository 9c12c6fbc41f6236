"""Match history worth keeping: each player's story per game, ratings, head to head and partners,
game nights, and exports from the page."""

from flask import Blueprint

bp = Blueprint("history", __name__)

from . import views  # noqa: E402,F401
