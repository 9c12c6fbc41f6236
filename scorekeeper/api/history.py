"""JSON API v1, the history: a player's story per game (`GET /api/v1/players/<id>`: record,
ratings, streaks, hands and the game's own statistics) and a game night (`GET /api/v1/nights/<id>`,
the id the night's date as a number: its standings and a page of its matches)."""

from __future__ import annotations

from flask import jsonify, url_for

from ..errors import NotFound
from ..extensions import db
from ..games import GAMES
from ..history import nights
from ..history import queries as history
from ..models import Player
from ..records.reads import ID_LIMIT
from ..records.stories.stats import declared
from .answers import summary_json
from .blueprint import bp
from .views import whole_arg


@bp.get("/players/<int:player_id>")
def player(player_id: int):
    """A player's story in each game they finished a match of."""
    found = db.session.get(Player, player_id) if 0 < player_id <= ID_LIMIT else None
    if found is None:
        raise NotFound("There is no such player.")
    stories = history.stories_of(found.id)
    return jsonify(
        {
            "id": found.id,
            "name": found.name,
            "played": found.played,
            "games": [game_json(told) for told in stories.values()],
        }
    )


def game_json(told: history.GameStory) -> dict:
    story = told.story
    shown = {
        "game": told.game,
        "matches": told.matches,
        "won": told.won,
        "shared": told.shared,
        "lost": told.lost,
        "drawn": told.drawn,
    }
    if story is None:
        return shown | {"rating": None, "statistics": {}}
    return shown | {
        "games_won": story.all_games_won,
        "games_lost": story.all_games_lost,
        "hands": story.all_hands,
        "average_hand": round(story.average_hand, 3) if story.average_hand is not None else None,
        "best_hand": story.all_best,
        "streak": story.streak,
        "best_streak": story.best_streak,
        "rating": {"mu": story.mu, "sigma": story.sigma, "matches": story.number, "updating": told.updating},
        "statistics": {
            stat.key: {
                "label": stat.label,
                "keep": stat.keep,
                "value": story.kept[stat.key][0],
                "matches": story.kept[stat.key][1],
            }
            for stat in (declared(GAMES[told.game]) if told.game in GAMES else ())
            if stat.key in story.kept
        },
    }


@bp.get("/nights/<int:night>")
def night(night: int):
    """A night: its name, its standings and its matches, newest first, a page at a time
    (`?limit=`, `?before=<id>`; a `Link: <...>; rel="next"` header names the next page)."""
    day = nights.day_of(night)
    if day is None:
        raise NotFound("There is no such night: a night's id is its date, as 20261127.")
    limit = whole_arg("limit", 50, 1, 200)
    before = whole_arg("before", None, 1, ID_LIMIT)
    found = history.night_matches(night, before, limit + 1)
    answer = jsonify(
        {
            "id": night,
            "date": day.isoformat(),
            "name": history.night_name(night),
            "standings": [
                {
                    "player_id": s.player_id,
                    "player": s.name,
                    "played": s.played,
                    "won": s.won,
                    "shared": s.shared,
                    "lost": s.lost,
                    "drawn": s.drawn,
                    "points": s.points,
                }
                for s in history.night_standings(night)
            ],
            "matches": [summary_json(match) for match in found[:limit]],
        }
    )
    if len(found) > limit:
        answer.headers["Link"] = (
            f'<{url_for("api.night", night=night, before=found[limit - 1].id, limit=limit)}>; rel="next"'
        )
    return answer
