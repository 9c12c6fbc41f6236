"""A match's chances before its first hand, from its players' ratings in its game (the match page
includes templates/history/_chances.html, which calls `match_chances`)."""

from __future__ import annotations

from ..extensions import db
from ..records.stories.ledger import latest_stories
from ..records.stories.stats import chances


def match_chances(s) -> dict | None:
    """Each side's chance of winning (a records.reads.Scored before its first hand), and how many of
    its players are rated yet; None once a hand is recorded (or for a game of one side)."""
    if s.count or s.finished or s.table.sides < 2:
        return None
    seats = s.match.seats
    stories = latest_stories(db.session.connection(), s.game.key, [seat.player_id for seat in seats])
    sides = [[stories[seats[seat].player_id] for seat in s.table.seats_of(side)] for side in range(s.table.sides)]
    odds = chances([[(story.mu, story.sigma) for story in side] for side in sides])
    rated = sum(1 for story in stories.values() if story.number)
    return {
        "sides": [{"names": " & ".join(names), "percent": round(100 * odd)} for names, odd in zip(s.sides, odds)],
        "rated": rated,
        "players": len(seats),
        "game": s.game.name,
    }
