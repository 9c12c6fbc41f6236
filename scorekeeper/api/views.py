"""JSON API v1 (shared/API.md): the same record layer as the forms, so both always agree."""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from ..errors import Invalid, Malformed, NotFound, ServiceError, status_of
from ..games import GAMES
from ..games.fields import not_sent
from ..matches import queries
from ..records import keys, reads, writes
from ..records.reads import ID_LIMIT, Scored
from ..web import offline
from .answers import match_json, recorded_json, refusal_json, summary_json
from .blueprint import bp


def answer(scored: Scored) -> dict:
    """The match as the request asked to see it (`?hands=N`: only the last N hands)."""
    return match_json(scored, hands_wanted())


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


KEYED: set[str] = set()  # the endpoints that write to a match


def key_required(view):
    """A write to a match: refused (401 without its key, 403 with another, 422 for a bad `?hands`)
    before anything changes (`authorize_the_writer`)."""
    KEYED.add(f"{bp.name}.{view.__name__}")
    return view


@bp.before_request
def authorize_the_writer():
    """First of everything a write to a match goes through, the answer kept for its Idempotency-Key
    included (offline.answer_again runs after this): a request without the match's key is refused
    whatever was sent before with the same Idempotency-Key."""
    if request.endpoint not in KEYED:
        return
    hands_wanted()
    try:
        # Held for the request: the session keeps only objects held elsewhere, and the view reads it next.
        g.writing = keys.authorize(request.view_args["match_id"], bearer_key())
    except NotFound:
        pass  # gone: its deletion sent again is answered from its receipt (bound to its key), else a 404


def body() -> dict:
    """The request's JSON object, or a 400 that says so."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested deeper than any record could be
        data = None
    if not isinstance(data, dict):
        raise Malformed("Send a JSON object as the request body.")
    return data


WHOLE, BOOL, OBJECT, LIST = "a whole number", "true or false", "an object", "a list"
JSON_TYPES = {
    WHOLE: lambda value: type(value) is int,
    BOOL: lambda value: isinstance(value, bool),
    OBJECT: lambda value: isinstance(value, dict),
    LIST: lambda value: isinstance(value, list),
}


def given(data: dict, name: str, kind: str, purpose: str = "") -> Any:
    """The body's `name` if it is of the JSON type `kind` (None when left out); null or another type is
    a 422 naming it: no field of a request body is nullable (a record's fields are the game's)."""
    if name not in data:
        return None
    value = data[name]
    if not JSON_TYPES[kind](value):
        message = f"{name} must be {kind}{not_sent(value) or ', not null'}{purpose}."
        raise Invalid(message, {name: message})
    return value


@bp.errorhandler(ServiceError)
def refused(error: ServiceError):
    return jsonify(refusal_json(error)), status_of(error)


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
    options, draw_partners = given(data, "options", OBJECT), given(data, "draw_partners", BOOL)
    match = writes.create_match(
        data.get("game"), data.get("players"), options, draw_partners=draw_partners is True, receipt=offline.receipt()
    )
    started = answer(reads.score(match))
    started["key"] = match.issued_key  # this once: the phone that started the match keeps it
    offline.seal_in_receipt(match.issued_key)  # a receipt of this answer (Idempotency-Key) keeps it sealed
    return jsonify(started), 201, {"Cache-Control": "no-store"}


@bp.get("/matches")
def matches():
    """Match summaries, newest first, a page at a time (`?limit=`, `?before=<id>`, `?game=`, `?player=`)."""
    # A `Link: <...>; rel="next"` header names the next page.
    limit = whole_arg("limit", 50, 1, 200)
    before = whole_arg("before", None, 1, ID_LIMIT)
    player = whole_arg("player", None, 1, ID_LIMIT)
    game = request.args.get("game") or None
    found = queries.page(game=game, player=player, before=before, limit=limit + 1)
    listed = jsonify([summary_json(match) for match in found[:limit]])
    if len(found) > limit:
        args = {**request.args.to_dict(), "before": found[limit - 1].id, "limit": limit}
        listed.headers["Link"] = f'<{url_for("api.matches", **args)}>; rel="next"'
    return listed


def whole_arg(name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query argument within [low, high]; anything else is a 422 naming it."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 12) or not low <= int(text) <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}.", {name: "out of range"})
    return int(text)


@bp.get("/matches/<int:match_id>")
def show(match_id: int):
    """One match with its score, state and hands."""
    return jsonify(answer(reads.load(match_id)))


@bp.post("/matches/<int:match_id>/hands")
@key_required
def record(match_id: int):
    """Record the next hand."""
    data = body()
    number = given(data, "number", WHOLE, ": the hand you mean to create")  # any but the next: 409
    # The Idempotency-Key, if any, is also the hand's token: the same request arriving twice at once is one hand.
    done = writes.record_hand(
        reads.load(match_id),
        sent_record(data),
        expected=number,
        entered_by="api",
        token=request.headers.get("Idempotency-Key"),
        answer_from=1 if hands_wanted() is None else None,
        receipt=offline.receipt(),
    )
    return jsonify(recorded_json(done, answer(done.scored))), 201


@bp.put("/matches/<int:match_id>/hands/<int:number>")
@key_required
def edit(match_id: int, number: int):
    """Change a hand; the later hands are replayed."""
    edited = writes.edit_hand(reads.load(match_id), number, sent_record(body()), receipt=offline.receipt())
    return jsonify(answer(edited))


def sent_record(data: dict) -> dict:
    """The body's `record`: a JSON object (its fields are the game's to check)."""
    if "record" not in data:
        raise Invalid('Send the hand as "record".', {"record": "missing"})
    return given(data, "record", OBJECT)


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
@key_required
def delete(match_id: int, number: int):
    """Delete a hand; the later ones move up and are replayed."""
    return jsonify(answer(writes.delete_hand(reads.load(match_id), number, receipt=offline.receipt())))


@bp.post("/matches/<int:match_id>/finish")
@key_required
def finish(match_id: int):
    """End a match whose game has no natural end."""
    return jsonify(answer(writes.finish_match(reads.load(match_id), receipt=offline.receipt())))


@bp.post("/matches/<int:match_id>/reopen")
@key_required
def reopen(match_id: int):
    """Take back a `finish`: play goes on (409 on a match not finished by `finish`)."""
    return jsonify(answer(writes.reopen_match(reads.load(match_id), receipt=offline.receipt())))


@bp.patch("/matches/<int:match_id>")
@key_required
def setup(match_id: int):
    """Fix the set-up: `players` (names in seating order) and `options` (the ones to change)."""
    data = body()
    unknown = set(data) - {"players", "options"}
    if unknown:
        raise Invalid("Only players and options can be changed.", {name: "not a set-up field" for name in unknown})
    names, options = given(data, "players", LIST), given(data, "options", OBJECT)
    return jsonify(answer(writes.edit_setup(reads.load(match_id), names, options, receipt=offline.receipt())))


@bp.delete("/matches/<int:match_id>")
@key_required
def remove(match_id: int):
    """Delete the match and all its hands."""
    writes.delete_match(reads.get_match(match_id), receipt=offline.receipt())
    return "", 204
