"""A phone without a connection: the service worker's script at the site's root, and the first
answer to a write sent with a one-time token kept so that the same write sent again is not done twice.

A write carries its token as the form's `token` field (the hand form always does; the page's outbox
adds one to an edit, an undo or a finish) or, in the API, as an `Idempotency-Key` header. Its
receipt is added to the write's own transaction, so a write and its receipt are kept together or not
at all: the same token sent again on the same request gets the first answer back instead of a second
write, and on another request a 422. A refused write commits nothing and so keeps no receipt:
sending it again is the same as sending it the first time.

The receipt a write is to keep is made here before the view (`answer_again`), and the view hands it
to the write it calls (`receipt()`, records.writes): the write adds it to its own transaction."""

from __future__ import annotations

import hashlib
import json
import re
import time
from datetime import timedelta
from urllib.parse import urlencode

from flask import Flask, Response, current_app, g, jsonify, request, send_from_directory, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import delete, update
from sqlalchemy.exc import SQLAlchemyError

from ..errors import error_answer
from ..extensions import db
from ..models import WriteReceipt, now_utc
from ..records.receipts import PENDING, Receipt, find
from . import cookies

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # API.md "Sending a write again"; as matches/forms.py takes a form's
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The form writes the outbox sends: each carried out answers with the match page, so the receipt is
# written whole in the write's transaction (an API answer is only known after it: filled in then).
FORM_WRITES = frozenset({"matches.record", "matches.edit", "matches.undo", "matches.finish"})
KEPT_HOURS = 48  # API.md promises at least 24
PRUNE_SECONDS = 600  # a process prunes old receipts at most this often: one indexed DELETE
LOST_SECONDS = 30  # a receipt still pending after this long lost its answer (the process died after the commit)
SEALED = re.compile(r'"key":"sealed:([0-9a-f]{2,512})"')
# A new match's key comes back on a replay only to a token no stranger could guess: 128 bits, 22
# characters of the token's 64-letter alphabet. A shorter one gets the match without it, and why.
PROVING_LENGTH = 22
KEY_WITHHELD = (
    f"This Idempotency-Key is shorter than {PROVING_LENGTH} characters, too short to prove that this "
    "request is the one that started the match, so its key is not sent again. Send a key of "
    f"{PROVING_LENGTH} or more random characters to have it back on a repeat."
)

# The API's refusals stay English; a page's are marked (lazy: read in the request's language, which
# for an API request is English too).
REUSED = {
    "api": "This Idempotency-Key was already used for another request: nothing was changed. "
    "Send a new key with each new request.",
    "matches": _l(
        "This form was already sent for another change: nothing was changed. Reload the match and enter it again."
    ),
}
BUSY = _l("This change is still being saved: send it again in a moment.")
LOST = _l("This change was made, but its answer was lost: read the match to see it.")


def init_app(app: Flask) -> None:
    """Register the offline parts on `app` (after the blueprints: their hooks run first)."""
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    # Last of the match pages' and the API's own hooks: a phone that may not score is refused first,
    # and a commit those hooks make (a phone's holds) is not the write the receipt goes with.
    for blueprint in ("matches", "api"):
        app.before_request_funcs.setdefault(blueprint, []).append(answer_again)
    app.after_request(keep_answer)
    app.extensions["offline"] = {"pruned": float("-inf")}


def service_worker():
    """The service worker's script, served from the root so that it may look after every page."""
    answer = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0)
    answer.headers["Cache-Control"] = "no-cache"  # a new version reaches the phones at their next visit
    return answer


def seal_in_receipt(secret: str) -> None:
    """The answer being made shows `secret` (a new match's key, this once). Its receipt keeps it
    sealed with the request's token, which the server does not keep: the stored answer gives the key
    back only to the phone that sends that token again."""
    g.receipt_secret = secret


# -- answering a token seen before -----------------------------------------------------------------


def answer_again():
    """Before a write: the first answer for a token already used on this request, a refusal for one
    used on another; otherwise the receipt this write will keep, noted for its commit."""
    if request.method not in WRITE_METHODS:
        return None
    token = _sent_token()
    if token is None:
        return None
    if not TOKEN.fullmatch(token):
        return _refusal(422, "Idempotency-Key is 1 to 64 letters, digits, _ or -.", {"Idempotency-Key": "malformed"})
    token_hash, sent = _hashed(token), fingerprint()
    found = find(db.session.connection(), token_hash)
    if found is None or _expired(found):
        g.receipt = Receipt(token_hash, sent, **_known_answer(), replaces_expired=found is not None)
        g.receipt_token = token
        return None
    return _answer_from(found, sent, token)


def receipt() -> Receipt | None:
    """The receipt the request's write is to keep (None: the request carries no token): the view
    hands it to the write it calls."""
    return g.get("receipt")


def _expired(found) -> bool:
    """Past the time a receipt is promised for (KEPT_HOURS), prune or no prune: the new one this
    write keeps takes its place."""
    return now_utc() - found.created >= timedelta(hours=KEPT_HOURS)


def _answer_from(receipt, sent: str, token: str) -> Response:
    """The answer to a request whose token has a receipt: the first answer, or why there is none."""
    if receipt.request != sent:
        return _refusal(422, REUSED[request.blueprint], {"Idempotency-Key": "used for another request"})
    if receipt.status == PENDING:
        lost = now_utc() - receipt.created > timedelta(seconds=LOST_SECONDS)
        return _refusal(409, LOST if lost else BUSY, {}, {} if lost else {"Retry-After": "1"})
    return _replayed(receipt, token)


def _sent_token() -> str | None:
    """The token a write carries: the API's Idempotency-Key header, or a form's `token` field (a
    form's malformed token is no token, as the hand form takes it)."""
    if request.blueprint == "api":
        return request.headers.get("Idempotency-Key")
    if request.endpoint in FORM_WRITES:
        token = request.form.get("token")
        return token if token and TOKEN.fullmatch(token) else None
    return None


def fingerprint() -> str:
    """The request a token is bound to: its method and path, and a digest of who sends it (the API's
    Authorization, a phone's cookie), its query and its body (without a form's CSRF token, which the
    outbox renews when it expires). The same token from another writer is another request."""
    if request.blueprint == "api":
        writer, body = request.headers.get("Authorization", ""), request.get_data()
    else:
        writer = cookies.read(cookies.PHONE, "")
        body = urlencode([pair for pair in request.form.items(multi=True) if pair[0] != "csrf_token"]).encode()
    digest = hashlib.sha256(writer.encode() + b"\n" + request.query_string + b"\n" + body).hexdigest()[:32]
    return f"{request.method} {request.path[:150]} {digest}"


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _known_answer() -> dict:
    """What a form write answers once it is carried out (back to the match page); an API answer is
    filled in after the view."""
    if request.endpoint in FORM_WRITES:
        return {"status": 302, "location": url_for("matches.show", match_id=request.view_args["match_id"])}
    return {"status": PENDING}


def _replayed(receipt, token: str) -> Response:
    g.replayed = True
    body = receipt.body or ""
    if receipt.status == 201 and SEALED.search(body):
        if len(token) >= PROVING_LENGTH:
            body = SEALED.sub(lambda found: '"key":"' + _unseal(found.group(1), token) + '"', body)
        else:
            body = SEALED.sub(lambda found: '"key":null,"key_withheld":' + json.dumps(KEY_WITHHELD), body)
    answer = Response(body, receipt.status, mimetype="application/json" if request.blueprint == "api" else "text/html")
    if receipt.location:
        answer.headers["Location"] = receipt.location
    answer.headers["Idempotent-Replayed"] = "true"
    answer.headers["Cache-Control"] = "no-store"
    return answer


def _refusal(status: int, message: str, fields: dict, headers: dict | None = None):
    g.replayed = True  # nothing of this request is kept
    if request.blueprint == "api":
        return jsonify(error=str(message), fields=fields), status, headers or {}
    title = {409: _("Still saving"), 422: _("Already sent")}.get(status) or _("Not taken")
    return error_answer(status, title, message, headers)


# -- keeping the answer ----------------------------------------------------------------------------


def keep_answer(answer: Response) -> Response:
    """After a write that kept a receipt: fill in its answer where the write could not know it (and
    let a refusal keep none). A write refused as a conflict may have lost to its own twin: answered
    as the twin was."""
    kept = g.pop("receipt", None)
    if kept is not None and not kept.kept:  # the write was refused: a conflict may be its own twin's
        return (_twins_answer(kept) or answer) if answer.status_code == 409 else answer
    if kept is None or g.get("replayed") or answer.status_code >= 500:
        return answer  # a 5xx after the commit leaves the receipt pending: the answer was lost
    location = answer.headers.get("Location")
    if (answer.status_code, location) == (kept.status, kept.location):
        _prune_now_and_then()
        return answer
    which = WriteReceipt.token_hash == kept.token_hash
    if answer.status_code >= 400:  # refused after all (what committed was something else): keep none
        change = delete(WriteReceipt).where(which)
    else:
        body = None if location else answer.get_data(as_text=True)
        secret = g.pop("receipt_secret", None)
        if body and secret:
            body = body.replace(secret, "sealed:" + _seal(secret, g.receipt_token))
        change = update(WriteReceipt).where(which).values(status=answer.status_code, location=location, body=body)
    try:
        db.session.execute(change)
        _prune_now_and_then(commit=False)
        db.session.commit()
    except SQLAlchemyError:  # the write is done and answered; its receipt stays pending, then lost
        db.session.rollback()
        current_app.logger.warning("the answer to a write sent with a token could not be kept", exc_info=True)
    return answer


def _twins_answer(due: Receipt) -> Response | None:
    """The same request sent twice at once (a double tap, an outbox sending again what is still on
    its way): both find no receipt, the first claims the match, the second is refused as a conflict
    that the claim only reports once the first has committed, its receipt with it. So one look at
    the receipt tells whether this conflict was the request's own twin: then its answer is ours."""
    db.session.rollback()
    found = find(db.session.connection(), due.token_hash)
    if found is None or _expired(found):
        return None
    return current_app.make_response(_answer_from(found, due.request, g.receipt_token))


def _prune_now_and_then(commit: bool = True) -> None:
    """Forget receipts older than KEPT_HOURS, at most once every PRUNE_SECONDS in a process."""
    state = current_app.extensions["offline"]
    if time.monotonic() - state["pruned"] < PRUNE_SECONDS:
        return
    state["pruned"] = time.monotonic()
    prune()
    if commit:
        try:
            db.session.commit()
        except SQLAlchemyError:
            db.session.rollback()


def prune(before=None) -> int:
    """Delete the receipts created before `before` (default: KEPT_HOURS ago); how many went."""
    before = before or now_utc() - timedelta(hours=KEPT_HOURS)
    return db.session.execute(delete(WriteReceipt).where(WriteReceipt.created < before)).rowcount


# -- a new match's key, sealed with the token ------------------------------------------------------


def _pad(token: str, size: int) -> bytes:
    secret = current_app.config["SECRET_KEY"]
    return hashlib.shake_256(f"{secret}\n{token}".encode()).digest(size)


def _seal(secret: str, token: str) -> str:
    data = secret.encode()
    return bytes(a ^ b for a, b in zip(data, _pad(token, len(data)))).hex()


def _unseal(sealed: str, token: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _pad(token, len(data)))).decode(errors="replace")
