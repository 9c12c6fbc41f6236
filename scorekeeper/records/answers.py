"""A hand as the JSON API shows it (shared/API.md), kept beside the hand: the record layer writes it
with each hand, so a long match's answer joins 600 stored texts instead of building them (building
costs 12 ms for 600 hands, half of it reading the reasons' stored messages back).
The rest of the API's answers are `api/answers.py`'s, which joins these."""

from __future__ import annotations

from functools import lru_cache

from ..games import base
from . import jsontext


@lru_cache(maxsize=4096)  # a long match's answer letters the same few reasons hundreds of times
def lettered(text: str) -> str:
    """An engine text as programs read it: each side named by the letter of its index (A is side 0)."""
    return base.render(text)


def hand_answer(record: dict, changes, reasons: list[str]) -> str:
    """A hand as the API shows it, without its number (which a deletion can change): JSON text."""
    return jsontext.dumps({"record": record, "changes": list(changes), "reasons": [lettered(text) for text in reasons]})
