"""The rules reference: one page per game, an anchor per rule, for looking things up mid-game."""

from flask import abort, render_template

from ..games import GAMES
from . import bp


@bp.get("/")
def index():
    """Every game the app scores."""
    return render_template("rules/index.html", games=GAMES.values())


@bp.get("/<key>")
def show(key: str):
    """How one game scores, in our own words."""
    game = GAMES.get(key) or abort(404)
    return render_template(f"rules/{key}.html", game=game)
