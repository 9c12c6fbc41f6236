"""Refusals: the domain errors the record layer raises, and the one place each gets its HTTP status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .games import RecordError


def _text(message) -> str:
    """A lazy gettext string made text now; a str (an engine Text among them, which the page words
    in its reader's language when it shows it) kept as it is."""
    return message if isinstance(message, str) else str(message)


class ServiceError(Exception):
    """A request that cannot be taken: a sentence a player understands and per-field notes.

    A sentence marked for translation is made text when raised, in the request's language (the
    API's is English): a lazy one could not go into JSON or a flashed message. An engine Text stays
    one, for the page to word."""

    def __init__(self, message: str, fields: Mapping[str, str] | None = None):
        message = _text(message)
        super().__init__(message)
        self.message = message
        self.fields = {name: _text(note) for name, note in (fields or {}).items()}

    @classmethod
    def from_record(cls, error: RecordError) -> ServiceError:
        return cls(error.message, error.fields)


class NotFound(ServiceError):
    """No such match, hand or game."""


class Conflict(ServiceError):
    """The match is not in a state to take this: finished, changed by another phone, a later hand breaks."""


class Unauthorized(ServiceError):
    """A write to a match without its key."""


class Forbidden(ServiceError):
    """A write to a match with a key that is not its own."""


class Invalid(ServiceError):
    """The record or the set-up breaks the game's rules or types."""


class Malformed(ServiceError):
    """The request itself is not what the API takes (not a JSON object)."""


STATUS: dict[type[ServiceError], int] = {
    Malformed: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Invalid: 422,
}


def status_of(error: ServiceError) -> int:
    return next((code for kind, code in STATUS.items() if isinstance(error, kind)), 422)


def error_answer(code: int, title: str, message: str, headers: dict | None = None):
    """A refusal as the asker reads it: JSON for the API, a page for a phone. Title and message may be
    marked for translation (gettext or lazy_gettext): a page shows them in its language, and the API,
    whose requests are always in English (scorekeeper.web.i18n), answers in English."""
    from flask import jsonify, render_template, request

    if request.path.startswith("/api/"):
        return jsonify(error=str(message), fields={}), code, headers or {}
    from .web.i18n import shown  # an engine text worded in the page's language, its sides by letter

    return (
        render_template("error.html", code=code, title=str(title), message=shown(_text(message))),
        code,
        headers or {},
    )
