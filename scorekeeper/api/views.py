"""JSON API v1 (shared/API.md): the same service as the forms, so both always agree."""

from __future__ import annotations

from typing import Any

from functools import wraps

import orjson
from flask import g, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from .. import service
from ..extensions import db
from ..games import GAMES
from ..matches import queries
from ..models import Match
from ..errors import status_of
from ..service import Invalid, Malformed, NotFound, Scored, ServiceError
from . import bp


JOINED_FROM = 20  # hands in an answer from which their stored JSON is joined instead of built


def match_json(scored: Scored) -> dict[str, Any]:
    """A match as API.md fixes it; `?hands=N` keeps only the last N hands (a phone's light answer)."""
    match, result = scored.match, scored.result
    shown = hands_wanted()
    first = max(1 if shown is None else scored.count - shown + 1, 1)
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
        "headline": service.lettered(result.headline) if result.over else None,
        "hands": hands_json(scored, first),
    }


def hands_json(scored: Scored, first: int) -> list | orjson.Fragment:
    """Hands `first`.. : many are joined from their stored answers (JSON written with each hand),
    a few (or a match from before answers were stored) are built here."""
    if first > scored.count:
        return []
    if scored.count - first >= JOINED_FROM:
        joined = scored.hands_text(first)
        if joined is not None:
            return orjson.Fragment(joined)
    return [{"number": n, "record": record, "changes": changes, "reasons": [service.lettered(text) for text in reasons]}
            for n, record, changes, reasons in scored.hands(first)]


def hands_wanted() -> int | None:
    """`?hands=N`: how many of the latest hands to send (None: all of them)."""
    text = request.args.get("hands")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise Invalid("hands must be a whole number of hands, 0 or more.", {"hands": "not a whole number"})
    return int(text)


def bearer_key() -> str | None:
    """The key sent as `Authorization: Bearer <key>`, if any."""
    sent = request.headers.get("Authorization", "")
    kind, _, key = sent.partition(" ")
    return key.strip() if kind.lower() == "bearer" and key.strip() else None


def writes(view):
    """A write to a match: refused (401 without its key, 403 with another, 422 for a bad `?hands`)
    before anything changes."""
    @wraps(view)
    def checked(match_id: int, **kwargs):
        hands_wanted()
        # Held for the request: the session keeps only objects held elsewhere, and the view reads it next.
        g.writing = service.authorize(match_id, bearer_key())
        return view(match_id, **kwargs)
    return checked


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
    fields = {name: service.lettered(text) for name, text in error.fields.items()}
    return jsonify(error=service.lettered(error.message), fields=fields), status_of(error)


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
    answer = match_json(service.score(match))
    answer["key"] = match.issued_key  # this once: the phone that started the match keeps it
    return jsonify(answer), 201, {"Cache-Control": "no-store"}


@bp.get("/matches")
def matches():
    """Match summaries, newest first, a page at a time (`?limit=`, `?before=<id>`, `?game=`, `?player=`);
    a `Link: <...>; rel="next"` header names the next page."""
    limit = _whole_arg("limit", 50, 1, 200)
    before = _whole_arg("before", None, 1, service.ID_LIMIT)
    player = _whole_arg("player", None, 1, service.ID_LIMIT)
    game = request.args.get("game") or None
    found = queries.page(game=game, player=player, before=before, limit=limit + 1)
    answer = jsonify([summary_json(match) for match in found[:limit]])
    if len(found) > limit:
        args = {**request.args.to_dict(), "before": found[limit - 1].id, "limit": limit}
        answer.headers["Link"] = f'<{url_for("api.matches", **args)}>; rel="next"'
    return answer


def _whole_arg(name: str, default: int | None, low: int, high: int) -> int | None:
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 12) or not low <= int(text) <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}.", {name: "out of range"})
    return int(text)


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """One match with its score, state and hands."""
    return jsonify(match_json(service.load(match_id)))


@bp.post("/matches/<int:match_id>/hands")
@writes
def record(match_id: int):
    """Record the next hand."""
    data = body()
    number = data.get("number")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise Invalid("number must be a whole number: the hand you mean to create.", {"number": "not a number"})
    if "record" not in data:
        raise Invalid("Send the hand as \"record\".", {"record": "missing"})
    done = service.record_hand(match_id, data["record"], expected=number, entered_by="api",
                               answer_from=1 if hands_wanted() is None else None)
    answer = {
        "number": done.number,
        "changes": done.hand.changes,
        "reasons": [service.lettered(r.text) for r in done.hand.reasons],
        "match": match_json(done.scored),
    }
    return jsonify(answer), 201


@bp.put("/matches/<int:match_id>/hands/<int:number>")
@writes
def edit(match_id: int, number: int):
    """Change a hand; the later hands are replayed."""
    data = body()
    if "record" not in data:
        raise Invalid("Send the hand as \"record\".", {"record": "missing"})
    return jsonify(match_json(service.edit_hand(match_id, number, data["record"])))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
@writes
def delete(match_id: int, number: int):
    """Delete a hand; the later ones move up and are replayed."""
    return jsonify(match_json(service.delete_hand(match_id, number)))


@bp.post("/matches/<int:match_id>/finish")
@writes
def finish(match_id: int):
    """End a match whose game has no natural end."""
    return jsonify(match_json(service.finish_match(match_id)))


@bp.post("/matches/<int:match_id>/reopen")
@writes
def reopen(match_id: int):
    """Take back a `finish`: play goes on (409 on a match not finished by `finish`)."""
    return jsonify(match_json(service.reopen_match(match_id)))


@bp.patch("/matches/<int:match_id>")
@writes
def setup(match_id: int):
    """Fix the set-up: `players` (names in seating order) and `options` (the ones to change)."""
    data = body()
    unknown = set(data) - {"players", "options"}
    if unknown:
        raise Invalid("Only players and options can be changed.", {name: "not a set-up field" for name in unknown})
    return jsonify(match_json(service.edit_setup(match_id, data.get("players"), data.get("options"))))


@bp.delete("/matches/<int:match_id>")
@writes
def remove(match_id: int):
    """Delete the match and all its hands."""
    service.delete_match(match_id)
    return "", 204
