"""Flask extensions, created unbound here and bound to the app in the factory."""

from flask import current_app, request
from flask_compress import Compress
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_talisman import Talisman
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    # Named constraints keep Alembic migrations stable across SQLite and PostgreSQL.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


# A session lives for one request: what it just committed is what it wrote, so a write answers from
# the objects in hand instead of reading the match and its seats back.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
# CSS, scripts, the manifest and the icon go out compressed (about a third of their size): a page
# weighs what crosses the table's Wi-Fi. Pages and JSON do not: they carry CSRF tokens, table codes
# and keys beside what a visitor typed, which is what a compression side channel (BREACH) reads.
compress = Compress()
COMPRESSED = ["text/css", "text/javascript", "application/javascript", "application/manifest+json", "image/svg+xml"]
csrf = CSRFProtect()


# -- security headers and rate limits --------------------------------------------------------------

# Everything from this origin only. The one inline <style> (the hand form's rules that hide fields
# a choice rules out) carries the page's nonce: templates write nonce="{{ csp_nonce() }}".
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# What a page may ask of the phone: nothing the app does not use. The app keeps the screen awake,
# copies and shares a link and goes full screen when installed; every other power is denied to it
# and to anything framed in it.
PERMISSIONS_POLICY = {
    name: "()"
    for name in (
        "accelerometer",
        "ambient-light-sensor",
        "autoplay",
        "bluetooth",
        "browsing-topics",
        "camera",
        "display-capture",
        "encrypted-media",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
} | {name: "(self)" for name in ("screen-wake-lock", "clipboard-write", "web-share", "fullscreen")}
WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"]
NEW_MATCH_ENDPOINTS = {"api.create", "matches.new_match", "matches.rematch"}
SLOW_DOWN = "Too many changes from here in a short time: wait a minute, then try again."
# Where a table code (or a key) is tried, whatever the method (a scorer link is a GET): every one
# counts, and before it is judged, so no burst sent at once gets more than the limit judged; a
# phone guessing codes is stopped long before it could find one (a table types its code once).
CODE_ENDPOINTS = {"matches.claim", "matches.join"}
# An export is a long answer: a few a minute per address is all a club needs.
EXPORT_ENDPOINTS = {"history.export"}
TOO_MANY_EXPORTS = "Too many exports from here in a short time: wait a minute, then try again."
# The host's password: every try counts, before it is judged, in the shared store when there is one.
HOST_SIGN_IN = "players.sign_in"
WRONG_PASSWORDS = "Too many host passwords from here: wait, then try again."
WRONG_CODES = "Too many wrong table codes from here: wait a minute, then type the code again."


def open_no_window_to_other_origins(answer):
    """A page another site opens (or that opens another site) shares no window with it, and no other
    site may load anything of ours into its own page (Talisman sets neither header)."""
    answer.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    answer.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    return answer


def protect(app) -> None:
    """Security headers (Flask-Talisman) and rate limits (Flask-Limiter). One of each per app:
    both keep their settings on the extension object, so a shared one would mix apps' settings."""
    https = app.config["SCOREKEEPER_HTTPS"]
    Talisman(
        app,
        force_https=False,  # the HTTPS proxy redirects; the app may also serve plain HTTP on a LAN
        strict_transport_security=https,
        session_cookie_secure=https,
        session_cookie_samesite=app.config["SESSION_COOKIE_SAMESITE"],
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        content_security_policy_nonce_in=["style-src"],
        referrer_policy="same-origin",  # CSRF checks over HTTPS need the Referer; no other site sees it
        permissions_policy=PERMISSIONS_POLICY,
    )
    app.after_request(open_no_window_to_other_origins)
    limits = [
        ApplicationLimit(
            lambda: current_app.config["SCOREKEEPER_WRITE_LIMIT"],
            scope="writes",
            methods=WRITE_METHODS,
            error_message=SLOW_DOWN,
        ),
        ApplicationLimit(
            lambda: current_app.config["SCOREKEEPER_NEW_MATCH_LIMIT"],
            scope="new-matches",
            methods=["POST"],
            error_message=SLOW_DOWN,
            exempt_when=lambda: request.endpoint not in NEW_MATCH_ENDPOINTS,
        ),
        ApplicationLimit(
            lambda: current_app.config["SCOREKEEPER_TABLE_CODE_LIMIT"],
            scope="table-codes",
            error_message=WRONG_CODES,
            exempt_when=lambda: request.endpoint not in CODE_ENDPOINTS,
        ),
        ApplicationLimit(
            lambda: current_app.config["SCOREKEEPER_EXPORT_LIMIT"],
            scope="exports",
            error_message=TOO_MANY_EXPORTS,
            exempt_when=lambda: request.endpoint not in EXPORT_ENDPOINTS,
        ),
        ApplicationLimit(
            lambda: current_app.config["SCOREKEEPER_HOST_SIGN_IN_LIMIT"],
            scope="host-sign-in",
            methods=["POST"],
            error_message=WRONG_PASSWORDS,
            exempt_when=lambda: request.endpoint != HOST_SIGN_IN,
        ),
    ]
    # Shared storage (Redis: several workers or hosts count together) that goes away: each process
    # counts in its own memory until Redis answers again, so phones still get answers and the limits
    # still hold per process; swallowing the errors instead would lift every limit while it is away.
    options = {}
    if (app.config.get("RATELIMIT_STORAGE_URI") or "").startswith(("redis://", "rediss://", "redis+unix://")):
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # A write waits at most a second on Redis and retries once at once (a connection Redis
        # closed when it restarted), not redis-py's ten backed-off retries, before the fallback.
        options = {"socket_connect_timeout": 1, "socket_timeout": 1, "retry": Retry(NoBackoff(), 1)}
    Limiter(
        get_remote_address,
        app=app,
        application_limits=limits,
        storage_options=options,
        in_memory_fallback_enabled=True,
    )
