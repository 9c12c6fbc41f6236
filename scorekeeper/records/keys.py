"""Who may write to a match: the holders of its key (API.md "Who may write"), and the phones that
hold the right to score it (issue 21). A key is shown once, to whoever starts the match, and kept
only as its hash; a phone is known by the hash of the random token in its cookie, and holds any
number of matches, one row each, so none ever drops out."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping

from sqlalchemy import bindparam
from sqlalchemy.dialects import postgresql, sqlite

from ..errors import Forbidden, NotFound, Unauthorized
from ..extensions import db
from ..models import Match, PhoneHold, now_utc
from .reads import _WITH_SEATS as WITH_SEATS  # the match as get_match reads it
from .reads import ID_LIMIT, get_match

# The table code: 10 characters of 31 that cannot be mistaken for one another (no 0/O, no 1/I/L),
# 31**10 codes (49.5 bits), read in groups as K7QX-M4RP-2H.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
CODE_GROUPS = (4, 4, 2)


def issue_key() -> tuple[str, str]:
    """A new write key (192 bits) and the hash a match keeps of it."""
    key = secrets.token_urlsafe(24)
    return key, hashed(key)


def hashed(secret: str) -> str:
    """The SHA-256 a key or a phone's token is kept as."""
    return hashlib.sha256(secret.encode()).hexdigest()


def fits(key_hash: str, key: str | None) -> bool:
    """Whether `key` is the key kept as `key_hash`."""
    return bool(key) and hmac.compare_digest(hashed(key), key_hash)


def authorize(match_id: int, key: str | None) -> Match:
    """Writing to a match needs its key; matches from before keys take any. Gives the match: a
    caller that holds it keeps it in the session, so the write reads it once."""
    match = get_match(match_id)
    check_key(match, key)
    return match


def check_key(match: Match, key: str | None) -> None:
    """Refuse a write to `match` without its key (401) or with another (403)."""
    if match.key_hash is None:
        return
    if not key:
        raise Unauthorized("Writing to this match needs its key: use the scorer link from the phone that started it.")
    if not fits(match.key_hash, key):
        raise Forbidden("That is not this match's key: nothing was changed.")


# -- phones -------------------------------------------------------------------------------------

NOT_HELD = (
    "This phone does not score this match. Type its table code (shown on the scoring phone's match page) "
    "on the match page, or open its scorer link."
)
_HELD = (
    db.select(PhoneHold.match_id)
    .where(PhoneHold.phone_hash == bindparam("phone"), PhoneHold.match_id == Match.id)
    .exists()
)
_MATCH_AND_HOLD = db.select(Match, _HELD.label("held")).options(*WITH_SEATS).where(Match.id == bindparam("id"))


def match_for_phone(match_id: int, phone_hash: str | None) -> tuple[Match, bool]:
    """The match, read as `reads.get_match` reads it (so that its next call answers from the
    session), and whether the phone may score it (any phone may score a match from before keys).
    One statement: the hold rides along with the match instead of costing a round trip of its own."""
    if phone_hash is None:
        match = get_match(match_id)
        return match, match.key_hash is None
    if not 0 < match_id <= ID_LIMIT:
        raise NotFound("There is no such match.")
    found = db.session.execute(_MATCH_AND_HOLD, {"id": match_id, "phone": phone_hash}).unique().first()
    if found is None:
        raise NotFound("There is no such match.")
    match, held = found
    return match, match.key_hash is None or bool(held)


def authorize_phone(match_id: int, phone_hash: str | None) -> Match:
    """The match, if the phone may score it; else Unauthorized (nothing is changed)."""
    match, held = match_for_phone(match_id, phone_hash)
    if not held:
        raise Unauthorized(NOT_HELD)
    return match


def hold(phone_hash: str, match_ids: Iterable[int]) -> None:
    """The phone may score these matches from now on (held already: nothing changes); commits."""
    rows = [{"phone_hash": phone_hash, "match_id": match_id, "created": now_utc()} for match_id in set(match_ids)]
    if not rows:
        return
    # Two taps of the same link at once both insert: the second is a duplicate, and is no error.
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    db.session.execute(insert(PhoneHold).on_conflict_do_nothing(), rows)
    db.session.commit()


def copy_holds(older: str, newer: str) -> None:
    """The matches the phone token hashed as `older` may score, held under `newer` too (not committed:
    the hold that follows commits both)."""
    rows = [{"phone_hash": newer, "match_id": match_id, "created": now_utc()} for match_id in held_by(older)]
    if rows:
        db.session.execute(db.insert(PhoneHold), rows)


def held_by(phone_hash: str) -> list[int]:
    """The matches a phone's token may score."""
    return list(db.session.scalars(db.select(PhoneHold.match_id).where(PhoneHold.phone_hash == phone_hash)))


def keys_that_fit(held: Mapping[int, str]) -> list[int]:
    """Of the matches given with a key each, those the key opens (matches gone are left out)."""
    ids = [match_id for match_id in held if 0 < match_id <= ID_LIMIT]
    if not ids:
        return []
    found = db.session.execute(db.select(Match.id, Match.key_hash).where(Match.id.in_(ids)))
    return [match_id for match_id, key_hash in found if key_hash is None or fits(key_hash, held[match_id])]


def table_code(key_hash: str, secret: bytes) -> str:
    """The match's table code: another phone types it to score the match too.

    Derived, not stored: an HMAC of the key's hash under the app's secret. So it needs no column, no
    migration and nothing in an export; it lasts as long as the key; the stored hash alone (a
    database or an export that leaks) gives no code; and it is not the key, so typing it gives a
    phone the right to score on the pages, never the API key. The cost: a new SECRET_KEY changes
    every code (the phones already holding a match keep it)."""
    number = int.from_bytes(hmac.new(secret, b"table-code:" + key_hash.encode(), hashlib.sha256).digest()[:8])
    letters = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[index])
    groups, start = [], 0
    for size in CODE_GROUPS:
        groups.append("".join(letters[start : start + size]))
        start += size
    return "-".join(groups)


def typed_code(text: str) -> str | None:
    """A code as typed (any case, dashes and spaces anywhere), in its grouped form; None if it cannot
    be one (wrong length, or a character no code has)."""
    plain = "".join(char for char in text.upper() if char not in "- ")
    if len(plain) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in plain):
        return None
    groups, start = [], 0
    for size in CODE_GROUPS:
        groups.append(plain[start : start + size])
        start += size
    return "-".join(groups)
