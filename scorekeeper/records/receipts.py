"""A write's receipt: the first answer to a write sent with a one-time token (a form's `token`, the
API's Idempotency-Key), kept in the write's own transaction so that a write and its receipt are kept
together or not at all. The web layer (offline.py) makes the receipt from the request and answers a
token seen before from it; the write adds it just before its commit (records.writes)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, delete, insert, select

from ..models import WriteReceipt, now_utc

PENDING = 0  # a receipt's status until the answer is filled in

# Built once, through Core: a write with a token pays a look-up and an INSERT, not the ORM's unit of work.
_FIND = select(
    WriteReceipt.request, WriteReceipt.status, WriteReceipt.location, WriteReceipt.body, WriteReceipt.created
).where(WriteReceipt.token_hash == bindparam("token_hash"))
_ADD = insert(WriteReceipt.__table__)
_DROP = delete(WriteReceipt).where(WriteReceipt.token_hash == bindparam("token_hash"))


@dataclass
class Receipt:
    """The receipt a write is to keep: its token's hash, the request it answers (offline.fingerprint),
    and the answer where it is known before the write (a form's redirect), else PENDING."""

    token_hash: str
    request: str
    status: int = PENDING
    location: str | None = None
    replaces_expired: bool = False  # the token's old receipt, past its time, makes way
    kept: bool = False  # set once the write's transaction, this receipt in it, has committed

    def add(self, connection) -> None:
        """Write the receipt in the transaction of `connection` (the write's, before its commit)."""
        if self.replaces_expired:
            connection.execute(_DROP, {"token_hash": self.token_hash})
        row = {"token_hash": self.token_hash, "request": self.request, "status": self.status}
        connection.execute(_ADD, {**row, "location": self.location, "created": now_utc()})


def find(connection, token_hash: str):
    """The receipt kept for a token (request, status, location, body, created), or None."""
    return connection.execute(_FIND, {"token_hash": token_hash}).first()
