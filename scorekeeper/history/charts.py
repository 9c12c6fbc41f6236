"""A player's story as charts, drawn on the server as SVG (no script): results over time (matches
won and lost, added up) and the rating with its uncertainty. Each has a vertical axis of 3 to 5 round
values, a horizontal axis of the player's matches (the first, the last and a few round numbers
between), and the latest value written beside the end of each line; numbers as the page's language
writes them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import format_decimal

from .nights import shown_date
from .queries import Point

WIDTH, HEIGHT = 320, 170  # the SVG's own units (as the match's chart); it is drawn as wide as the page
TOP, BOTTOM = 16, 32  # room for the values' title above, the match numbers and their title below
CHARACTER = 6.5  # the width of one figure of a label, in the chart's units (11-unit text)
LINE = 11  # the height of a label: the latest values of two lines are kept this far apart
FEWEST_MARKS, MOST_MARKS = 3, 5  # values marked up the side (and at most 5 match numbers along the bottom)
NICE = (1, 2, 5)  # marks fall every 1, 2, 5, 10, 20, 50... (or 0.1, 0.2, 0.5...)


@dataclass
class Chart:
    """Polylines (and a band) in a WIDTH x HEIGHT box, its axes' marks as (position, label), the
    latest value of each line as (height, label) beside its end and as shown (`latest`, in the
    lines' order), and what its title and caption say."""

    lines: list[str]
    band: str | None
    y_marks: list[tuple[int, str]]
    x_marks: list[tuple[int, str]]
    ends: list[tuple[int, str]]
    latest: list[str]
    left: int
    right: int
    low: str
    high: str
    first: str
    last: str
    matches: int
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    width: int = WIDTH
    height: int = HEIGHT


def _number(value: float, pattern: str | None = None) -> str:
    """A figure as the page's language writes it ("1,234.5" in English, "1.234,5" in Spanish)."""
    return format_decimal(round(value, 6), format=pattern)  # round: 0.1 * 3 is 0.3 on the axis


def _steps(least: float):
    """1, 2, 5, 10, 20, 50... times `least` (a power of ten), smallest first."""
    scale = least
    while True:
        yield from (each * scale for each in NICE)
        scale *= 10


def round_marks(low: float, high: float, least: float = 1) -> list[float]:
    """3 to 5 round values, evenly spaced, the lowest at or below `low` and the highest at or
    above `high`: the finest spacing of 1, 2 or 5 times a power of ten (`least` at the finest)
    that needs no more than 5."""

    def ends(step: float) -> tuple[int, int]:  # the lowest and highest mark, in steps (float error aside)
        return math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)

    step = next(step for step in _steps(least) if ends(step)[1] - ends(step)[0] < MOST_MARKS)
    bottom, top = ends(step)
    top = max(top, bottom + FEWEST_MARKS - 1)  # a short span at the finest spacing
    return [mark * step for mark in range(bottom, top + 1)]


def match_marks(first: int, last: int) -> list[int]:
    """The match numbers marked along the bottom: the first, the last, and every 1, 2, 5, 10...
    matches between (at most 5 in all), none within half a step of the first or the last."""

    def marked(step: int) -> list[int]:
        between = range((first // step + 1) * step, last, step)
        return [first, *(number for number in between if min(number - first, last - number) >= step / 2), last]

    few_enough = (step for step in _steps(1) if (last - first) / step < MOST_MARKS)  # none listed in vain
    return next(marks for marks in map(marked, few_enough) if len(marks) <= MOST_MARKS)


def _width(labels: Sequence[str]) -> int:
    return round(CHARACTER * max(len(label) for label in labels))


def _apart(ends: list[tuple[float, str]]) -> list[tuple[int, str]]:
    """The latest values beside their lines' ends, moved apart where they would overlap."""
    placed: list[tuple[int, str]] = []
    for height, label in sorted(ends):
        if placed and height < placed[-1][0] + LINE:
            height = placed[-1][0] + LINE
        placed.append((round(height), label))
    return placed


def _draw(points: Sequence[Point], series: Sequence[Sequence[float]], marks: list[float], ends: list[str]):
    """The chart's box for `series` (one value per point each) on the vertical `marks`, with room
    left for the marks' labels and right for `ends` (each line's latest value as shown)."""
    labels = [_number(mark) for mark in marks]
    left, right = 8 + _width(labels), WIDTH - 6 - _width(ends)
    first, last = points[0].number, points[-1].number
    low, span = marks[0], marks[-1] - marks[0]
    bottom = HEIGHT - BOTTOM

    def x(number: int) -> int:
        return round(left + (number - first) * (right - left) / ((last - first) or 1))

    def y(value: float) -> float:
        return bottom - (value - low) * (bottom - TOP) / span

    def at(point: Point, value: float) -> str:
        return f"{x(point.number)},{round(y(value))}"

    lines = [" ".join(at(point, value) for point, value in zip(points, line)) for line in series]
    return {
        "lines": lines,
        "y_marks": [(round(y(mark)), label) for mark, label in zip(marks, labels)],
        "x_marks": [(x(number), _number(number)) for number in match_marks(first, last)],
        "ends": _apart([(y(line[-1]), label) for line, label in zip(series, ends)]),
        "latest": list(ends),
        "left": left,
        "right": right,
        "first": shown_date(points[0].finished, "dd MMM y", "medium"),  # "05 Mar 2026" (in Spanish "5 mar 2026")
        "last": shown_date(points[-1].finished, "dd MMM y", "medium"),
        "matches": last,
    }, at


def results(points: Sequence[Point]) -> Chart | None:
    """Matches won (a shared win counted) and lost, each added up match after match."""
    if len(points) < 2:
        return None
    won = [point.won + point.shared for point in points]
    lost = [point.lost for point in points]
    marks = round_marks(0, max(won[-1], lost[-1], 1))
    drawn, _ = _draw(points, [won, lost], marks, [_number(won[-1]), _number(lost[-1])])
    return Chart(**drawn, band=None, low=_number(marks[0]), high=_number(marks[-1]))


def rating(points: Sequence[Point]) -> Chart | None:
    """The rating after each match, with a band one uncertainty either side."""
    if len(points) < 2:
        return None
    low = min(point.mu - point.sigma for point in points)
    high = max(point.mu + point.sigma for point in points)
    latest = _number(points[-1].mu, "0.0")
    drawn, at = _draw(points, [[point.mu for point in points]], round_marks(low, high, 0.1), [latest])
    upper = [at(point, point.mu + point.sigma) for point in points]
    lower = [at(point, point.mu - point.sigma) for point in reversed(points)]
    return Chart(**drawn, band=" ".join(upper + lower), low=_number(low, "0.0"), high=_number(high, "0.0"))
