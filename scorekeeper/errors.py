"""How refusals become answers: the one place a domain error gets its HTTP status."""

from __future__ import annotations

from .service import Conflict, Forbidden, Invalid, Malformed, NotFound, ServiceError, Unauthorized

STATUS: dict[type[ServiceError], int] = {
    Malformed: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Invalid: 422,
}


def status_of(error: ServiceError) -> int:
    return next((code for kind, code in STATUS.items() if isinstance(error, kind)), 422)


def error_answer(code: int, title: str, message: str, headers: dict | None = None):
    """A refusal as the asker reads it: JSON for the API, a page for a phone."""
    from flask import jsonify, render_template, request

    if request.path.startswith("/api/"):
        return jsonify(error=message, fields={}), code, headers or {}
    return render_template("error.html", code=code, title=title, message=message), code, headers or {}
