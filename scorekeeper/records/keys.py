"""Who may write to a match: the phones holding its key (API.md "Who may write"). A key is shown
once, to the phone that starts the match, and kept only as its hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from ..errors import Forbidden, Unauthorized
from ..models import Match
from .reads import get_match


def issue_key() -> tuple[str, str]:
    """A new write key (192 bits) and the hash a match keeps of it."""
    key = secrets.token_urlsafe(24)
    return key, _hashed(key)


def _hashed(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


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
    if not hmac.compare_digest(_hashed(key), match.key_hash):
        raise Forbidden("That is not this match's key: nothing was changed.")
