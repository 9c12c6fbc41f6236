"""What the JSON API answers (shared/API.md): a match, its hands, a list's summaries and a refusal,
with the engine's texts naming each side by the letter of its index (A is side 0), for programs.

No Flask here. A hand's own answer is the record layer's (records/answers.py), which stores it beside
the hand: a long match's answer is joined from the stored texts, not built."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from ..records.answers import lettered

if TYPE_CHECKING:
    from ..errors import ServiceError
    from ..matches.queries import MatchSummary
    from ..models import Match
    from ..records.reads import Recorded, Scored

JOINED_FROM = 20  # hands in an answer from which their stored JSON is joined instead of built


def match_json(scored: Scored, shown: int | None = None) -> dict[str, Any]:
    """A match as API.md fixes it; with `shown`, only its last `shown` hands (a phone's light answer)."""
    match, result = scored.match, scored.result
    first = max(1 if shown is None else scored.count - shown + 1, 1)
    return {
        "id": match.id,
        "game": match.game,
        "options": match.options,
        "players": scored.names,
        "status": "finished" if result.over else "in_progress",
        "sides": [{"players": players, "score": score} for players, score in zip(scored.sides, scored.scores)],
        "winner": result.winner if result.over else None,
        "dealer": scored.dealer,
        "state": scored.game.public_state(scored.state),
        "headline": lettered(result.headline) if result.over else None,
        "hands": hands_json(scored, first),
    }


def recorded_json(done: Recorded, match: dict[str, Any]) -> dict[str, Any]:
    """A hand just recorded: its number, what it changed and why, and the match after it (`match`)."""
    return {
        "number": done.number,
        "changes": done.hand.changes,
        "reasons": [lettered(reason.text) for reason in done.hand.reasons],
        "match": match,
    }


def hands_json(scored: Scored, first: int) -> list | orjson.Fragment:
    """Hands `first`.. : many are joined from their stored answers (JSON written with each hand),
    a few (or a match from before answers were stored) are built here."""
    if first > scored.count:
        return []
    if scored.count - first >= JOINED_FROM:
        joined = _joined(scored.answers(first))
        if joined is not None:
            return orjson.Fragment(joined)
    return [
        {"number": n, "record": record, "changes": changes, "reasons": [lettered(text) for text in reasons]}
        for n, record, changes, reasons in scored.hands(first)
    ]


def _joined(answers: list[tuple[int, str | None]] | None) -> str | None:
    """The hands' stored answers as one JSON array, each with its number (None where a hand has none
    yet: a match from before answers were stored)."""
    if answers is None or any(answer is None for _, answer in answers):
        return None
    return "[" + ",".join(f'{{"number":{n},{answer[1:]}' for n, answer in answers) + "]"


def summary_json(match: Match | MatchSummary) -> dict[str, Any]:
    return {
        "id": match.id,
        "game": match.game,
        "players": match.player_names,
        "status": match.status,
        "winner": match.winner,
        "created": match.created.isoformat(),
    }


def refusal_json(error: ServiceError) -> dict[str, Any]:
    return {"error": lettered(error.message), "fields": {name: lettered(text) for name, text in error.fields.items()}}
