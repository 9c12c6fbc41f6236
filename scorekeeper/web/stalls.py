"""Nothing a client holds open can stall the rest.

A request's body is read whole, within a time limit, before anything looks at the database: a
phone (or a script) that sends half a request holds a greenlet until the limit, never one of the
few pooled connections. A request that still finds the pool taken gets a 503 within the pool's
timeout instead of waiting on the crowd."""

from __future__ import annotations

from contextlib import contextmanager

from flask import Flask, request
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import RequestTimeout

from ..errors import error_answer

BODY_SECONDS = 10  # a hand's form is under 2 KB: ten seconds is ample on the shakiest Wi-Fi
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BUSY = "The server is busy with other tables: try again in a moment."
RETRY_SECONDS = 2


def guard(app: Flask) -> None:
    """Read bodies first and answer an exhausted pool with a 503. Registered before every other
    hook (CSRF, the rate limits, the key checks), so none of them waits on a client's network."""
    app.before_request_funcs.setdefault(None, []).insert(0, read_body_first)
    app.register_error_handler(PoolTimeout, busy)
    app.register_error_handler(RequestTimeout, too_slow)


def read_body_first() -> None:
    """The body, read into the request's cache (the form and JSON parsers read it from there)."""
    if request.method in BODY_METHODS:
        with deadline(BODY_SECONDS):
            request.get_data(cache=True)


@contextmanager
def deadline(seconds: float):
    """Under gunicorn's gevent workers, a body that has not arrived in `seconds` ends the request
    with a 408. (Flask's development server, threads, has no such limit: it serves one table.)"""
    from gevent import Timeout, monkey

    if not monkey.is_module_patched("socket"):
        yield
        return
    try:
        with Timeout(seconds):
            yield
    except Timeout:
        raise RequestTimeout("The request's body did not arrive in time: nothing was changed. Try again.") from None


def busy(error):
    return error_answer(503, "Busy", BUSY, {"Retry-After": str(RETRY_SECONDS)})


def too_slow(error):
    return error_answer(408, "Too slow", error.description, {"Connection": "close"})
