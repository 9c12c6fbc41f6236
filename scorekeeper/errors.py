"""How refusals become answers: the one place a domain error gets its HTTP status."""

from __future__ import annotations

from .service import Conflict, Forbidden, Invalid, Malformed, NotFound, ServiceError, Unauthorized

STATUS: dict[type[ServiceError], int] = {
    Malformed: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Invalid: 422,
}


def status_of(error: ServiceError) -> int:
    return next((code for kind, code in STATUS.items() if isinstance(error, kind)), 422)
