"""JSON API v1 (shared/API.md): the same service as the forms, so both always agree."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from .. import service
from ..extensions import db
from ..games import GAMES
from ..models import Match
from ..errors import status_of
from ..service import Invalid, Malformed, NotFound, Scored, ServiceError
from . import bp


def match_json(scored: Scored) -> dict[str, Any]:
    """A match as API.md fixes it."""
    match, result = scored.match, scored.result
    return {
        "id": match.id,
        "game": match.game,
        "options": match.options,
        "players": scored.names,
        "status": "finished" if result.over else "in_progress",
        "sides": [{"players": players, "score": score} for players, score in zip(scored.sides, scored.scores)],
        "winner": result.winner if result.over else None,
        "dealer": scored.dealer,
        "state": scored.game.public_state(scored.state),
        "headline": result.headline if result.over else None,
        "hands": [
            {"number": n, "record": record, "changes": done.changes, "reasons": [str(r) for r in done.reasons]}
            for n, (record, done) in enumerate(zip(scored.replay.records, scored.replay.results), start=1)
        ],
    }


def summary_json(match: Match) -> dict[str, Any]:
    return {
        "id": match.id,
        "game": match.game,
        "players": match.player_names,
        "status": match.status,
        "winner": match.winner,
        "created": match.created.isoformat(),
    }


def body() -> dict:
    """The request's JSON object, or a 400 that says so."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested deeper than any record could be
        data = None
    if not isinstance(data, dict):
        raise Malformed("Send a JSON object as the request body.")
    return data


@bp.errorhandler(ServiceError)
def refused(error: ServiceError):
    db.session.rollback()
    return jsonify(error=error.message, fields=error.fields), status_of(error)


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    return jsonify(error=error.description or error.name, fields={}), error.code


@bp.get("/games")
def games():
    """Every game the app scores, with its options and hand fields."""
    return jsonify([game.describe() for game in GAMES.values()])


@bp.get("/games/<key>")
def game(key: str):
    """One game's self-description."""
    if key not in GAMES:
        raise NotFound("Scorekeeper does not score a game of that name.")
    return jsonify(GAMES[key].describe())


@bp.post("/matches")
def create():
    """Start a match."""
    data = body()
    match = service.create_match(
        data.get("game"), data.get("players"), data.get("options"), draw_partners=data.get("draw_partners") is True
    )
    return jsonify(match_json(service.score(match))), 201


@bp.get("/matches")
def matches():
    """Match summaries, newest first."""
    found = db.session.scalars(db.select(Match).order_by(Match.created.desc(), Match.id.desc()).limit(500))
    return jsonify([summary_json(match) for match in found])


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """One match with its score, state and hands."""
    return jsonify(match_json(service.load(match_id)))


@bp.post("/matches/<int:match_id>/hands")
def record(match_id: int):
    """Record the next hand."""
    data = body()
    number = data.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise Invalid("number must be a whole number: the hand you mean to create.", {"number": "not a number"})
    if "record" not in data:
        raise Invalid("Send the hand as \"record\".", {"record": "missing"})
    done = service.record_hand(match_id, data["record"], expected=number, entered_by="api")
    answer = {
        "number": done.number,
        "changes": done.hand.changes,
        "reasons": [str(r) for r in done.hand.reasons],
        "match": match_json(done.scored),
    }
    return jsonify(answer), 201


@bp.put("/matches/<int:match_id>/hands/<int:number>")
def edit(match_id: int, number: int):
    """Change a hand; the later hands are replayed."""
    data = body()
    if "record" not in data:
        raise Invalid("Send the hand as \"record\".", {"record": "missing"})
    return jsonify(match_json(service.edit_hand(match_id, number, data["record"])))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
def delete(match_id: int, number: int):
    """Delete a hand; the later ones move up and are replayed."""
    return jsonify(match_json(service.delete_hand(match_id, number)))


@bp.post("/matches/<int:match_id>/finish")
def finish(match_id: int):
    """End a match whose game has no natural end."""
    return jsonify(match_json(service.finish_match(match_id)))


