"""The score of a match as a chart, drawn on the server as SVG (no script)."""

from __future__ import annotations

from ..records.reads import Scored

CHART_WIDTH, CHART_HEIGHT = 300, 120
CHART_POINTS = 75  # a long match is drawn from this many of its hands: the chart costs the same at 600


def chart(scored: Scored) -> dict | None:
    """The score of each side through the match as SVG polylines (drawn on the server, no script)."""
    if scored.count < 2:
        return None
    game, count = scored.game, scored.count
    steps = sorted({round(i * count / CHART_POINTS) for i in range(CHART_POINTS + 1)} if count > CHART_POINTS
                   else range(count + 1))  # hand numbers, 0 for the start
    if scored.stored:
        scored.replay.hands.load(steps[1:])
    results = scored.replay.results
    series = list(zip(*(game.scores(results[n - 1].state if n else scored.replay.start) for n in steps)))
    low, high = min(min(line) for line in series), max(max(line) for line in series)
    span = (high - low) or 1

    def point(step: int, value: int) -> str:
        x = round(step * CHART_WIDTH / count, 1)
        y = round(CHART_HEIGHT - (value - low) * CHART_HEIGHT / span, 1)
        return f"{x},{y}"

    lines = [" ".join(point(step, value) for step, value in zip(steps, line)) for line in series]
    return {"lines": lines, "low": low, "high": high, "width": CHART_WIDTH, "height": CHART_HEIGHT,
            "hands": count}
