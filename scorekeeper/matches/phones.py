"""The phones at a table (issue 21): which phone may score a match, the table code that lets
another phone score it too, and the address the other phones can open.

A phone is known by a long-lived cookie that holds only a random token, never a match key; the
server keeps which matches each token may score (`records.keys.hold`, by the token's hash), so a
phone holds any number of matches and none drops out. The server issues every token itself and
signs it; a phone gets a new one each time it gains matches (issue 38), so a token planted in it
from elsewhere never learns of them. The cookie lasts 400 days (the longest
Chrome keeps one) and is set again whenever the phone scores, so a table that plays within a year
of its last game never loses its matches."""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import after_this_request, current_app, g, request, session
from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature, Signer
from werkzeug.sansio.utils import host_is_trusted

from ..errors import Forbidden, Invalid, NotFound, ServiceError
from ..models import Match
from ..records import keys
from ..web import cookies
from .blueprint import bp

PHONE_COOKIE = cookies.PHONE
PHONE_DAYS = 400
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32): 256 bits

NOT_A_CODE = _l(
    "A table code is 10 letters and digits, like K7QX-M4RP-2H (there is no 0, O, 1, I or L in one): "
    "this phone still only watches."
)
WRONG_CODE = _l(
    "That is not this match's table code: this phone still only watches. Check the code on the scoring "
    "phone's match page and type it again."
)


# -- the phone's cookie and the matches it holds ------------------------------------------------------


def _signer() -> Signer:
    return Signer(current_app.config["SECRET_KEY"], salt="phone-token")


def _token() -> str | None:
    """This phone's token: given to it in this request, or sent in its cookie and signed by this
    server. A token the server did not issue (planted in the phone from elsewhere) is no token: the
    phone gets a new one when it first scores, so nobody else knows the token its matches are under."""
    if g.get("phone_token"):
        return g.phone_token
    try:
        token = _signer().unsign(cookies.read(PHONE_COOKIE, "")).decode()
    except BadSignature:
        return None
    return token if _TOKEN.fullmatch(token) else None


def phone_hash() -> str | None:
    """The hash this phone's matches are kept under; None for a phone with no cookie yet."""
    token = _token()
    return keys.hashed(token) if token else None


def may_score(match_id: int) -> bool:
    """Whether this phone may score the match (its cookie kept another 400 days if so). Reads the
    match too, so the page's own read of it costs nothing; no such match: False (the page says 404)."""
    try:
        # Held for the request: the session keeps only objects held elsewhere, and the page reads it next.
        g.match_read, held = keys.match_for_phone(match_id, phone_hash())
    except NotFound:
        return False
    if held:
        _keep_cookie()
    return held


def authorize(match_id: int) -> Match:
    """The match, if this phone may score it; else Unauthorized (or NotFound)."""
    match = keys.authorize_phone(match_id, phone_hash())
    _keep_cookie()
    return match


def hold(*match_ids: int) -> None:
    """This phone may score these matches from now on. Each time a phone gains matches the server
    issues it a new token, its earlier matches held under it too: a token planted in the phone or
    copied from it before (signed or not) never gains the matches the phone gains after."""
    older = _token()
    token = secrets.token_urlsafe(32)
    g.phone_token = token  # the rest of this request already knows the phone by it
    if older is not None:
        keys.copy_holds(keys.hashed(older), keys.hashed(token))
    keys.hold(keys.hashed(token), match_ids)
    _keep_cookie()


def _keep_cookie() -> None:
    """Send the phone's cookie with this answer (its token as it is when the answer leaves, signed),
    good for PHONE_DAYS from now."""
    if _token() is None or g.get("phone_cookie_sent"):
        return
    g.phone_cookie_sent = True

    @after_this_request
    def send(answer):
        cookies.keep(answer, PHONE_COOKIE, _signer().sign(_token()).decode(), PHONE_DAYS, httponly=True)
        return answer


def sign_an_older_token() -> None:
    """A token this server's secret did not sign (one from before tokens were signed, or signed
    under a secret the host has since changed) that holds matches: they are held under a new token
    the server signs from now on, so the phone keeps them. The old token keeps its own holds, and
    the new one is the server's: a token planted from elsewhere gains nothing of this phone's."""
    sent = cookies.read(PHONE_COOKIE, "")
    if not sent or _token() is not None:
        return
    older = sent.rsplit(".", 1)[0]
    held = keys.held_by(keys.hashed(older)) if _TOKEN.fullmatch(older) else []
    if held:
        hold(*held)


def move_session_keys() -> None:
    """The keys an older version kept in the session cookie (the 40 latest, in clear) become this
    phone's holds on its next visit and leave the cookie: no table loses its match to the change."""
    if "keys" not in session:
        return
    kept = session.pop("keys")
    held = {
        int(match_id): key
        for match_id, key in (kept.items() if isinstance(kept, dict) else ())
        if str(match_id).isdigit() and isinstance(key, str)
    }
    opened = keys.keys_that_fit(held)
    if opened:
        hold(*opened)


# -- the table code ---------------------------------------------------------------------------------


def table_code(match: Match) -> str | None:
    """The code another phone types to score `match` (None: a match from before keys, which any
    phone may score). Derived from the match's key, not stored: `records.keys.table_code` says why."""
    if match.key_hash is None:
        return None
    secret = current_app.config["SECRET_KEY"]
    return keys.table_code(match.key_hash, secret if isinstance(secret, bytes) else secret.encode())


def code_refusal(match: Match, typed: str) -> ServiceError | None:
    """Why `typed` does not let this phone score `match` (None: it does)."""
    code = table_code(match)
    if code is None:
        return None
    given = keys.typed_code(typed)
    if given is None:
        return Invalid(str(NOT_A_CODE))
    if not hmac.compare_digest(given, code):
        return Forbidden(str(WRONG_CODE))
    return None


def refused_code(typed: str) -> None:
    """Remember the code this request refused, for the form to show it again (open, marked wrong)."""
    g.code_refused = typed[:40]


# A page that shows a table code is kept by no browser or proxy; the service worker keeps a copy of
# it for offline use with the code taken out (static/sw.js reads this header, and the code's mark).
OFFLINE_COPY = "Scorekeeper-Offline-Copy"


def shown_code(match: Match) -> str | None:
    """The table code, for a page to show: that page is then answered `no-store`."""
    code = table_code(match)
    if code is not None:
        g.table_code_shown = True
    return code


@bp.after_app_request
def keep_no_table_code(answer):
    if g.get("table_code_shown"):
        answer.headers["Cache-Control"] = "no-store"
        answer.headers[OFFLINE_COPY] = "without-table-code"
    return answer


@bp.app_context_processor
def table_code_context() -> dict:
    """What templates/matches/_table_code.html needs besides the match page's own values."""
    return {"table_code": shown_code, "code_refused": g.get("code_refused")}


# -- the address the other phones open --------------------------------------------------------------

ALL_INTERFACES = ("0.0.0.0", "::", "")  # what a server listening on every interface calls itself
# Addresses a UDP socket is "connected" to, only to learn which of this computer's addresses the
# route to them leaves from: a UDP connect sends nothing. A documentation address first (the default
# route), then the far end of each private range (a table's Wi-Fi with no way out).
PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")

ONLY_HERE = _l("Other phones cannot open these links: this server listens on this computer only.")
NO_NETWORK = _l(
    "Other phones cannot open these links yet: this computer is on no network. Join the table's Wi-Fi, "
    "then open this page again."
)
NOT_ANSWERED = _l(
    "Other phones cannot open these links yet: the server does not answer to %(address)s, this "
    "computer's address on the network."
)


@dataclass(frozen=True)
class Reach:
    """Where the other phones find this server: the start of every shared link, and, when they
    cannot, why not and the command that fixes it."""

    base: str
    problem: str | None = None
    fix: str | None = None

    def link(self, path: str) -> str:
        return self.base + path


def reach() -> Reach:
    """The address to share. SCOREKEEPER_PUBLIC_URL if the host set one; the address this phone
    used, unless it is this computer's own (127.0.0.1, localhost), which no other phone can open:
    then this computer's address on the network when the server listens on every interface, and
    otherwise the reason and the command that lets the phones in."""
    public = current_app.config.get("SCOREKEEPER_PUBLIC_URL", "").strip().rstrip("/")
    if public:
        return Reach(public)
    own = request.host_url.rstrip("/")
    here = urlsplit("//" + request.host)
    if not _is_loopback(here.hostname or ""):
        return Reach(own)
    fix = (
        "make serve HOST=0.0.0.0"
        if request.environ.get("SERVER_SOFTWARE", "").startswith("gunicorn")
        else "make run HOST=0.0.0.0"
    )
    if request.environ.get("SERVER_NAME", "") not in ALL_INTERFACES:
        return Reach(own, str(ONLY_HERE), fix)
    address = lan_address()
    if address is None:
        return Reach(own, str(NO_NETWORK))
    base = f"{request.scheme}://{address}" + (f":{here.port}" if here.port else "")
    trusted = current_app.config["TRUSTED_HOSTS"]  # None: Flask answers to any host
    if trusted is not None and not host_is_trusted(address, trusted):
        return Reach(base, NOT_ANSWERED % {"address": address}, fix)
    return Reach(base)


def _is_loopback(hostname: str) -> bool:
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return hostname.lower() == "localhost" or hostname.lower().endswith(".localhost")


def lan_address() -> str | None:
    """This computer's IPv4 address on its network (the one a route out leaves from), found without
    sending anything; None when it is on no network."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
                address = udp.getsockname()[0]
            except OSError:
                continue
        if address != "0.0.0.0" and not ipaddress.ip_address(address).is_loopback:
            return address
    return None
