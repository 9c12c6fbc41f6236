"""Player pages: who has played, and each player's matches with wins and losses per game."""

from __future__ import annotations

from flask import abort, render_template, request

from .. import tallies
from ..extensions import db
from ..games import GAMES
from ..matches import queries
from ..models import Player
from ..service import ID_LIMIT
from . import bp

RECENT = 25


PAGE = 50  # players a page lists; the rest a tap away (a keyset on the folded name, no OFFSET)


@bp.get("/")
def index():
    """Everybody who has sat at a table, by name, with how many matches they played: a page at a
    time, from `?after=<folded name>`."""
    after = request.args.get("after", "")[:200]
    query = db.select(Player, Player.played).order_by(Player.key).limit(PAGE + 1)
    counts = db.session.execute(query.where(Player.key > after) if after else query).all()
    more = counts[PAGE - 1][0].key if len(counts) > PAGE else None
    return render_template("players/index.html", counts=counts[:PAGE], more=more, paged=bool(after))


@bp.get("/<int:player_id>")
def show(player_id: int):
    """A player's latest matches, and their wins, shared wins, losses and draws per game."""
    player = db.session.get(Player, player_id) if 0 < player_id <= ID_LIMIT else None
    if player is None:
        abort(404)
    latest = queries.latest_for(player.id, RECENT)
    return render_template("players/show.html", player=player, matches=latest, tally=tallies.record_of(player.id),
                           games=GAMES)
