"""The hand a table records most often in a game, as a player taps it on the phone.

Each game's test file declares one as `COMMONEST = Commonest(...)`; tests/browser/test_at_the_table.py
starts a match of the game with the first of `PLAYERS` (as many as the game's fewest), taps each step
the way a thumb does, records the hand and holds the taps to `taps` (Record included). Steps name
what is on the form: a question (a group's legend), the label of a big button, a box, a drop-down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PLAYERS = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
"""The players the browser tests seat, in seat order; partners at four: Ann & Cy against Bob & Di."""
ANN_CY, BOB_DI = "Ann & Cy", "Bob & Di"


@dataclass(frozen=True)
class Step:
    """One thing the player does: `choose` a big button in the group at `path`, `type` a number in
    its box, `pick` from a drop-down (by its accessible name), or `open` a folded part of the form."""

    kind: str
    path: tuple[str, ...] = ()
    value: str = ""


def choose(*path_and_label: str) -> Step:
    """Tap the button labelled with the last argument, in the group the others name (outermost first)."""
    return Step("choose", path_and_label[:-1], path_and_label[-1])


def type_in(*path_and_number) -> Step:
    """Type the number (the last argument) in the box of the group the others name."""
    return Step("type", tuple(path_and_number[:-1]), str(path_and_number[-1]))


def pick(name: str, label: str) -> Step:
    """Choose `label` from the drop-down named `name`."""
    return Step("pick", (name,), label)


def unfold(summary: str) -> Step:
    """Open the folded part of the form whose summary reads `summary`."""
    return Step("open", (), summary)


@dataclass(frozen=True)
class Commonest:
    """The commonest hand as steps, and the taps it takes (Record included); `most` is the issue's
    ceiling where it sets one, `typed` how many of the taps are on boxes typed into, and `board`
    what the scoreboard shows after it (the aria-label of the scores -> their figures)."""

    steps: tuple[Step, ...]
    taps: int
    most: int | None = None
    typed: int = 0
    board: dict[str, list[str]] = field(default_factory=dict)
