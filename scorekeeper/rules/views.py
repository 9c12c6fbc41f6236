"""The rules reference: one page per game, an anchor per rule, for looking things up mid-game."""

from flask import abort, current_app, render_template
from jinja2 import TemplateNotFound

from ..games import GAMES
from . import bp


@bp.get("/")
def index():
    """Every game the app scores."""
    return render_template("rules/index.html", games=GAMES.values())


@bp.get("/<key>")
def show(key: str):
    """How one game scores, in our own words; a game without its page yet shows its declarations."""
    game = GAMES.get(key) or abort(404)
    try:
        template = current_app.jinja_env.get_template(f"rules/{key}.html")
    except TemplateNotFound:
        template = "rules/declared.html"
    return render_template(template, game=game)
