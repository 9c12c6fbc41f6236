"""The hands a table records most often in a game, as a player taps them on the phone.

Each game's test file declares its commonest hand as `COMMONEST = Commonest(...)`, and the hands a
table records often besides it (a raise, a revoke, a gin, a bura...) as `COMMON = (Commonest(...),
...)`. tests/browser/test_at_the_table.py starts a match of the game with the first of `PLAYERS` (as
many as the game's fewest), taps each step the way a thumb does, records the hand and holds the taps
to `taps` (Record included), at hand 1 and again at hand 2; every control a step taps must lie above
the Record bar without scrolling, a fold opened (`unfold`) at most once. Steps name what is on the
form: a question (a group's legend), the label of a big button, a box, a drop-down.
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


def pick(*path_and_label: str) -> Step:
    """Choose the last argument from the drop-down named by the one before it, in the group the
    others name (outermost first): pick("Doubling", "Double"), pick("First showdown", "Poker hand", "Two pair")."""
    return Step("pick", path_and_label[:-1], path_and_label[-1])


def unfold(summary: str) -> Step:
    """Open the folded part of the form whose summary reads `summary`."""
    return Step("open", (), summary)


@dataclass(frozen=True)
class Commonest:
    """A common hand as steps, and the taps it takes (Record included); `most` is the issue's
    ceiling where it sets one, `typed` how many of the taps are on boxes typed into, `board` what
    the scoreboard shows after it as hand 1 (the aria-label of the scores -> their figures), and
    `second` its steps as hand 2 where the form asks them in other words (the deal moved: "Ann's
    row total")."""

    steps: tuple[Step, ...]
    taps: int
    most: int | None = None
    typed: int = 0
    board: dict[str, list[str]] = field(default_factory=dict)
    second: tuple[Step, ...] = ()

    def steps_at(self, number: int) -> tuple[Step, ...]:
        """The steps as hand `number` (1 or 2) asks them."""
        return self.second if number == 2 and self.second else self.steps
