"""Which game night a moment belongs to: an evening in the place's time zone, from six in the
morning until six the next morning, named by the date it began (20261127). A match's night is fixed
when it starts (records.writes); the history's pages show nights (history/nights.py)."""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

TURN = timedelta(hours=6)  # a night's matches are those started from 06:00 until 06:00 the next day


def zone(config: dict | None = None):
    """The place's time zone: SCOREKEEPER_TIME_ZONE (an IANA name such as Europe/Madrid), else the
    server's own (None: the system's rules, daylight saving included)."""
    name = (config or {}).get("SCOREKEEPER_TIME_ZONE") or os.environ.get("SCOREKEEPER_TIME_ZONE")
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def current_zone():
    """The zone as the running app is configured (outside an app: the environment's)."""
    try:
        from flask import current_app

        return zone(current_app.config)
    except RuntimeError:  # no app: a migration or a script
        return zone()


def night_of(moment: datetime, place_zone=None) -> int:
    """The night a match started at `moment` belongs to, as its number (20261127)."""
    local = moment.astimezone(place_zone) if place_zone is not None else moment.astimezone()
    return number_of((local - TURN).date())


def number_of(day: date) -> int:
    return day.year * 10000 + day.month * 100 + day.day


def day_of(number: int) -> date | None:
    """The date a night's number names (None for a number that names no date)."""
    try:
        return date(number // 10000, number // 100 % 100, number % 100)
    except (ValueError, OverflowError):
        return None
