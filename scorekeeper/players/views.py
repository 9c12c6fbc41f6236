"""Player pages: who has played, and each player's matches with wins and losses per game."""

from __future__ import annotations

from collections import Counter

from flask import render_template

from ..extensions import db
from ..games import GAMES
from ..models import FINISHED, Match, Player, Seat, side_of
from . import bp


@bp.get("/")
def index():
    """Everybody who has sat at a table, with how many matches they played."""
    counts = db.session.execute(
        db.select(Player, db.func.count(Seat.id)).outerjoin(Seat).group_by(Player.id).order_by(Player.name)
    ).all()
    return render_template("players/index.html", counts=counts)


@bp.get("/<int:player_id>")
def show(player_id: int):
    """A player's matches, and their wins, losses and draws per game."""
    player = db.get_or_404(Player, player_id)
    seats = db.session.scalars(
        db.select(Seat).join(Match).where(Seat.player_id == player.id).order_by(Match.created.desc())
    ).all()
    return render_template("players/show.html", player=player, seats=seats, tally=tally(seats), games=GAMES)


def outcome(seat: Seat) -> str | None:
    """'won', 'lost' or 'drawn' for a finished match, from the seat's side; None while in play."""
    match = seat.match
    if match.status != FINISHED:
        return None
    if match.winner is None:
        return "drawn"
    return "won" if side_of(match.game, seat.position) == match.winner else "lost"


def tally(seats: list[Seat]) -> dict[str, Counter]:
    per_game: dict[str, Counter] = {}
    for seat in seats:
        result = outcome(seat)
        if result:
            per_game.setdefault(seat.match.game, Counter())[result] += 1
    return per_game
