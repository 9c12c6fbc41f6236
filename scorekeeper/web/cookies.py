"""The app's own cookies (the phone's token, the language, the colours) under one naming rule:
served behind HTTPS, each is a `__Host-` cookie (Secure, the whole site, no Domain: no other host
or plain-HTTP page can set or shadow it). A cookie set before the host turned HTTPS on is still
read under its plain name, so no phone loses its matches or its language to the change; the next
answer that sets it sets the `__Host-` one."""

from __future__ import annotations

from flask import Response, current_app, request

HOST_PREFIX = "__Host-"
PHONE = "phone"  # the phone's token: which matches it may score (matches/phones.py)


def _https() -> bool:
    return bool(current_app.config["SCOREKEEPER_HTTPS"])


def name(base: str) -> str:
    """The name the cookie `base` is set under on this server."""
    return HOST_PREFIX + base if _https() else base


def read(base: str, default: str | None = None) -> str | None:
    """The cookie `base` this request carries, under the name in force or, behind HTTPS, the plain
    name it had before."""
    value = request.cookies.get(name(base))
    if value is None and _https():
        value = request.cookies.get(base)
    return default if value is None else value


def keep(answer: Response, base: str, value: str, days: int, httponly: bool = False) -> None:
    """Set the cookie `base` on `answer` for `days`, as this server names and secures it."""
    answer.set_cookie(
        name(base), value, max_age=days * 86400, path="/", httponly=httponly, samesite="Lax", secure=_https()
    )
