"""The score of a match as a chart, drawn on the server as SVG (no script): a line per side over
a horizontal axis of hand numbers (named with the game's own word: rounds, games...) and a
vertical axis marked at its lowest and highest score and at zero."""

from __future__ import annotations

from ..records.reads import Scored

CHART_WIDTH, CHART_HEIGHT = 320, 170  # the SVG's own units; it is drawn as wide as the page
CHART_POINTS = 75  # a long match is drawn from this many of its hands: the chart costs the same at 600
MOST_TICKS = 6  # hand numbers marked along the bottom
CHARACTER = 6.5  # the width of one figure of a label, in the chart's units (11-unit text)
TOP, RIGHT, BOTTOM = 16, 10, 32  # room for the unit above, the last number, the numbers and title below
NICE_STEPS = (1, 2, 5)  # hand numbers are marked every 1, 2, 5, 10, 20, 50... hands


def chart(scored: Scored) -> dict | None:
    """The score of each side through the match as SVG polylines, with its axes' marks."""
    if scored.count < 2:
        return None
    game, count = scored.game, scored.count
    steps = sorted(
        {round(i * count / CHART_POINTS) for i in range(CHART_POINTS + 1)} if count > CHART_POINTS else range(count + 1)
    )  # hand numbers, 0 for the start
    if scored.stored:
        scored.replay.hands.load(steps[1:])
    results = scored.replay.results
    series = list(zip(*(game.scores(results[n - 1].state if n else scored.replay.start) for n in steps)))
    low, high = min(min(line) for line in series), max(max(line) for line in series)
    span = (high - low) or 1
    marks = sorted({low, high} | ({0} if low < 0 < high else set()))
    left = round(8 + CHARACTER * max(len(str(mark)) for mark in marks))
    width, height = CHART_WIDTH - left - RIGHT, CHART_HEIGHT - TOP - BOTTOM

    # Whole units: a unit is about a pixel on a phone, and a long match's page stays light.
    def x(step: int) -> int:
        return round(left + step * width / count)

    def y(value: int) -> int:
        return round(TOP + height - (value - low) * height / span)

    lines = [" ".join(f"{x(step)},{y(value)}" for step, value in zip(steps, line)) for line in series]
    return {
        "lines": lines,
        "low": low,
        "high": high,
        "hands": count,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": left,
        "right": CHART_WIDTH - RIGHT,
        "top": TOP,
        "bottom": TOP + height,
        "x_ticks": [(x(number), number) for number in hand_ticks(count)],
        "y_ticks": [(y(mark), mark) for mark in marks],
        "zero": y(0) if low < 0 < high else None,
    }


def hand_ticks(count: int) -> list[int]:
    """The hand numbers marked on the horizontal axis: every `step` hands (1, 2, 5, 10, 20...,
    the smallest giving at most MOST_TICKS marks), and always the last hand."""
    scale = 1
    while True:
        step = next((each * scale for each in NICE_STEPS if count <= each * scale * MOST_TICKS), None)
        if step:
            break
        scale *= 10
    ticks = list(range(step, count + 1, step))
    if ticks[-1] != count:
        if count - ticks[-1] < step / 2:
            ticks.pop()  # too close to the last hand's own mark
        ticks.append(count)
    return ticks
