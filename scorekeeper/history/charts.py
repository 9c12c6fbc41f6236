"""A player's story as charts, drawn on the server as SVG (no script): results over time (matches
won and lost, added up) and the rating with its uncertainty."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .nights import shown_date
from .queries import Point

WIDTH, HEIGHT = 300, 100


@dataclass
class Chart:
    """Polylines (and a band) in a WIDTH x HEIGHT box, with what its caption says."""

    lines: list[str]
    band: str | None
    low: str
    high: str
    first: str
    last: str
    matches: int
    width: int = WIDTH
    height: int = HEIGHT


def _scale(points: Sequence[Point], series: Sequence[Sequence[float]], low: float, high: float):
    last = points[-1].number
    first = points[0].number
    span_x = (last - first) or 1
    span_y = (high - low) or 1

    def at(point: Point, value: float) -> str:
        x = round((point.number - first) * WIDTH / span_x, 1)
        y = round(HEIGHT - (value - low) * HEIGHT / span_y, 1)
        return f"{x},{y}"

    return [" ".join(at(point, value) for point, value in zip(points, line)) for line in series], at


def _dates(points: Sequence[Point]) -> tuple[str, str]:
    """The first and last match's dates: "05 Mar 2026" (in Spanish "5 mar 2026")."""
    return (shown_date(points[0].finished, "dd MMM y", "medium"), shown_date(points[-1].finished, "dd MMM y", "medium"))


def results(points: Sequence[Point]) -> Chart | None:
    """Matches won (a shared win counted) and lost, each added up match after match."""
    if len(points) < 2:
        return None
    won = [point.won + point.shared for point in points]
    lost = [point.lost for point in points]
    high = max(won[-1], lost[-1], 1)
    lines, _ = _scale(points, [won, lost], 0, high)
    first, last = _dates(points)
    return Chart(lines, None, "0", str(high), first, last, points[-1].number)


def rating(points: Sequence[Point]) -> Chart | None:
    """The rating after each match, with a band one uncertainty either side."""
    if len(points) < 2:
        return None
    low = min(point.mu - point.sigma for point in points)
    high = max(point.mu + point.sigma for point in points)
    lines, at = _scale(points, [[point.mu for point in points]], low, high)
    upper = [at(point, point.mu + point.sigma) for point in points]
    lower = [at(point, point.mu - point.sigma) for point in reversed(points)]
    first, last = _dates(points)
    return Chart(lines, " ".join(upper + lower), f"{low:.0f}", f"{high:.0f}", first, last, points[-1].number)
