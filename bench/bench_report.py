"""Figures and Markdown tables for bench.py: percentiles, targets, and the tables the README shows."""

from __future__ import annotations

FACTOR = 10.0  # every page and every write p95 at most this many times the bare route's p95
GROWTH = 1.5  # p95 at the largest size at most this many times the p95 at the smallest, both ÷ the bare route
LIST_LIMIT = 20 * 1024  # a page with a long list, with its CSS and JS
PAGE_LIMIT = 30 * 1024  # any other page, with its CSS and JS (issue 3)
MET, MISSED = "met", "**NOT met**"


def percentile(samples: list[float], share: float) -> float:
    """Nearest rank: p95 of 30 samples is the 29th smallest."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * (len(ordered) - 1)))))]


def p50(samples: list[float]) -> float:
    return percentile(samples, 0.5)


def p95(samples: list[float]) -> float:
    return percentile(samples, 0.95)


def ms(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


EXPECTED = [30]  # requests of each kind the run asked for; a cell with fewer says how many


def pair(samples: list[float] | None) -> str:
    if not samples:
        return "–"
    fewer = f" (n={len(samples)})" if len(samples) < EXPECTED[0] else ""
    return f"{ms(p50(samples))} / {ms(p95(samples))}{fewer}"


def ratio(value: float) -> str:
    return f"{value:,.0f}×" if value >= 100 else f"{value:.1f}×"


def size_name(size: int) -> str:
    return f"{size:,}"


def table(head: list[str], rows: list[list[str]], right_from: int = 1) -> list[str]:
    """A Markdown table; columns from `right_from` on are aligned right."""
    align = ["---" if i < right_from else "---:" for i in range(len(head))]
    return ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"] + [
        "| " + " | ".join(row) + " |" for row in rows
    ]


class Verdicts:
    """Every target checked, to say at the end which were missed."""

    def __init__(self):
        self.checked = 0
        self.missed: list[str] = []

    def check(self, ok: bool, what: str) -> str:
        self.checked += 1
        if not ok:
            self.missed.append(what)
        return MET if ok else MISSED


def size_table(
    db_name: str,
    sizes: list[int],
    figures: dict[str, dict[int, list[float]]],
    counts: dict[int, str],
    verdicts: Verdicts,
    bare: str,
) -> list[str]:
    """Per request: p50 / p95 at each size, the worst p95 against the bare route, the growth (as
    measured, and of the time ÷ the bare route's at the same size: the bare route touches no
    database, so what it gains between sizes is the machine or the process, not the data)."""
    first, last = sizes[0], sizes[-1]
    head = ["request"] + [f"{size_name(s)} matches: p50 / p95 ms" for s in sizes]
    head += [
        "worst p95 ÷ bare",
        f"growth {size_name(first)} → {size_name(last)}: p50 / p95",
        "p95 growth ÷ bare's",
        f"≤ {FACTOR:g}× bare",
        f"growth ≤ {GROWTH:g}×",
    ]
    rows = []
    bare_growth = p95(figures[bare][last]) / p95(figures[bare][first])
    for name, by_size in figures.items():
        row = [name] + [pair(by_size.get(size)) for size in sizes]
        raw = p95(by_size[last]) / p95(by_size[first])
        growth = raw / bare_growth
        growths = f"{ratio(p50(by_size[last]) / p50(by_size[first]))} / {ratio(raw)}"
        if name == bare:
            rows.append(row + ["1×", growths, "1×", "", ""])
            continue
        worst = max(p95(by_size[size]) / p95(figures[bare][size]) for size in sizes)
        factor_ok = verdicts.check(worst <= FACTOR, f"{db_name}: {name} p95 {ratio(worst)} the bare route")
        growth_ok = verdicts.check(
            growth <= GROWTH,
            f"{db_name}: {name} grows {ratio(growth)} (÷ the bare "
            f"route's) from {size_name(first)} to {size_name(last)} matches",
        )
        rows.append(row + [ratio(worst), growths, ratio(growth), factor_ok, growth_ok])
    lines = table(head, rows)
    lines.append("")
    lines.append("Database at each size: " + "; ".join(f"{size_name(s)}: {counts[s]}" for s in sizes) + ".")
    return lines
