"""Tabletop Cribbage: two players fill a five-by-five layout; rows score for one, columns for the other
(S2:8-16, api/counting.md `tabletop_cribbage`).

After the 24 cards and the turned-up card lie in the layout, the non-dealer scores the five rows
and the dealer the five columns, each line counted as a cribbage hand (cribbage.py, S2:16). The
non-dealer counts first (S2:16): rows that reach `target` win at once and the dealer's columns are
not counted (ruling 11). The first to `target` (121, or 61) wins; the match is one game and there
are no skunks (ruling 12). The deal alternates.

A hand is recorded one of three ways (record_forms): the two totals (what a table adds up at the
layout, so the form asks them first), the ten line scores, or the cards of the layout, which the app
counts ("where the table can give the cards, the app counts"). The form names who plays the rows
and who the columns in that hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, each_side, wins
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    State,
    Text,
    added,
    joined,
    msg,
    side_name,
)
from .cribbage import BEST_LINE, NOT_LINE_SCORES, count_line, grid_columns, grid_rows
from .reference import BOOK, GAME_POINTS, OWN, HouseRule, Reference, Source, Term
from .statistics import MOST, Finished, Statistic

_LINES = 5  # a five-by-five layout (S2:14)
_MOST_FOR_LINES = _LINES * BEST_LINE  # 140
_TARGETS = (121, 61)


class Rule(StrEnum):
    """Section ids of templates/rules/tabletop_cribbage.html that the reason lines link to."""

    LAYOUT = "layout"
    COUNT = "count"
    ROWS = "rows"
    COLUMNS = "columns"
    END = "end"


class Form(StrEnum):
    LINES = "lines"
    TOTALS = "totals"
    CARDS = "cards"


@dataclass(frozen=True)
class TabletopCribbageState(State):
    """Points so far, one per player."""

    points: tuple[int, int] = (0, 0)


def _line_field(name: str, help_text: str, required: bool) -> Field:
    extra = {} if required else {"default": None, "nullable": True}
    return Field(name, "int_list", help_text, length=_LINES, min=0, max=BEST_LINE, exclude=NOT_LINE_SCORES, **extra)


def _total_field(name: str, help_text: str, required: bool) -> Field:
    extra = {} if required else {"default": None, "nullable": True}
    return Field(name, "int", help_text, min=0, max=_MOST_FOR_LINES, **extra)


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _lines_scored(done: Finished, side: int, dealing: bool) -> int:
    """What the side scored in the hands it dealt (its columns) or did not deal (its rows)."""
    start = GAME.new_state(done.table, done.state.options)
    return sum(hand.changes[side] for before, hand in done.before_each(start) if (before.dealer == side) == dealing)


def _margin(done: Finished, side: int) -> int | None:
    """How far the winner finished ahead; None for the loser."""
    if done.result.winner != side:
        return None
    return done.state.points[side] - done.state.points[1 - side]


class TabletopCribbage(Race):
    key = "tabletop_cribbage"
    name = "Tabletop Cribbage"
    min_players = 2
    max_players = 2
    partnerships = False
    unit = "points"
    rules = Rule
    state_class = TabletopCribbageState
    options = (
        Field(
            "target",
            "choice",
            "Points that win the game: 121, or 61 for a short game.",
            default=_TARGETS[0],
            choices=_TARGETS,
        ),
    )
    hand_fields = (
        _line_field("rows", "The non-dealer's five row scores, top to bottom.", required=True),
        _line_field(
            "columns",
            "The dealer's five column scores, left to right; may be left out when the rows win the game.",
            required=False,
        ),
        _total_field("row_total", "The non-dealer's five rows added up.", required=True),
        _total_field(
            "column_total",
            "The dealer's five columns added up; may be left out when the rows win the game.",
            required=False,
        ),
        Field(
            "grid",
            "grid",
            "The layout as it lies at the end, top row first, each row left to right: the app "
            "counts the rows and columns.",
            rows=_LINES,
            columns=_LINES,
            label="Layout",
        ),
    )
    record_forms = (
        RecordForm(Form.LINES, ("rows", "columns"), "the ten line scores"),
        RecordForm(Form.TOTALS, ("row_total", "column_total"), "the two totals", asked_first=True),
        RecordForm(Form.CARDS, ("grid",), "the cards of the layout"),
    )

    reference = Reference(
        line=msg("Two-player cribbage without pegging or crib: a five-by-five square, rows against columns."),
        sources=(
            Source(BOOK, msg("the section on Tabletop Cribbage")),
            Source(
                msg("Standard cribbage"), msg("how a line of five is counted; the targets of 121 and 61"), standard=True
            ),
            OWN,
        ),
        house_rules={
            "target": HouseRule("end", says={61: msg("a short game, to 61 points")}, counted=GAME_POINTS),
        },
        terms=(
            Term("fifteen", "count", msg("Cards adding up to 15: 2 points.")),
            Term("run", "count", msg("Three or more cards in sequence: 1 point a card.")),
            Term("nobs", "count", msg("The jack of the starter's suit; it scores nothing in Tabletop Cribbage.")),
            Term("skunk", "end", msg("A big win counted double in cribbage; Tabletop Cribbage has none.")),
        ),
    )

    def form_fields(self, state: TabletopCribbageState) -> tuple[Field, ...]:
        """The questions name the players: the non-dealer plays the rows, the dealer the columns."""
        rows, columns = side_name(_non_dealer(state)), side_name(state.dealer)
        asks = {
            "rows": f"{rows}'s rows",
            "columns": f"{columns}'s columns",
            "row_total": f"{rows}'s row total",
            "column_total": f"{columns}'s column total",
        }
        return tuple(
            dataclasses.replace(fld, ask=asks[fld.name]) if fld.name in asks else fld
            for fld in super().form_fields(state)
        )

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: TabletopCribbageState, record: dict) -> None:
        """The dealer's figure may be missing only when the rows alone win (ruling 11)."""
        if "grid" in record:
            return
        rows = record.get("rows", record.get("row_total"))
        field = "columns" if "rows" in record else "column_total"
        rows_total = sum(rows) if isinstance(rows, list) else rows
        player = _non_dealer(state)
        reach = state.points[player] + rows_total
        if record.get(field) is None and reach < self.target(state):
            values = {
                "dealer": side_name(state.dealer),
                "player": side_name(player),
                "reach": reach,
                "target": self.target(state),
            }
            if field == "columns":
                message = msg(
                    "%(dealer)s's columns must be given: %(player)s's rows reach %(reach)s, short of "
                    "%(target)s, so the columns count.",
                    **values,
                )
            else:
                message = msg(
                    "%(dealer)s's column total must be given: %(player)s's rows reach %(reach)s, short of "
                    "%(target)s, so the columns count.",
                    **values,
                )
            raise RecordError(message, field)

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: TabletopCribbageState, record: Mapping) -> HandResult:
        rows_player, columns_player = _non_dealer(state), state.dealer
        rows_points, reasons = self._rows(record, rows_player)
        changes = [0, 0]
        changes[rows_player] = rows_points
        target = self.target(state)
        if state.points[rows_player] + rows_points >= target:
            reasons.append(
                Reason(
                    msg(
                        "%(side)s's columns are not counted: the rows counted first and won the game",
                        side=side_name(columns_player),
                    ),
                    Rule.COLUMNS,
                )
            )
        else:
            columns_points, column_reasons = self._columns(record, columns_player)
            changes[columns_player] = columns_points
            reasons += column_reasons
        new = state.evolve(points=added(state.points, changes))
        winner = self.reached(new)  # only one can be, as the game stops the moment one gets there
        if winner is not None:
            reasons.append(
                Reason(
                    msg(
                        "%(side)s reaches %(points)s and wins (game to %(target)s)",
                        side=side_name(winner),
                        points=new.points[winner],
                        target=target,
                    ),
                    Rule.END,
                )
            )
        return HandResult(new, changes, reasons, winner)

    def _rows(self, record: Mapping, player: int) -> tuple[int, list[Reason]]:
        if "grid" in record:
            return _counted(grid_rows(record["grid"]), player, rows=True)
        if "rows" in record:
            return _listed(record["rows"], player, rows=True)
        return _totalled(record["row_total"], player, rows=True)

    def _columns(self, record: Mapping, player: int) -> tuple[int, list[Reason]]:
        if "grid" in record:
            return _counted(grid_columns(record["grid"]), player, rows=False)
        if "rows" in record:
            return _listed(record["columns"], player, rows=False)
        return _totalled(record["column_total"], player, rows=False)

    # -- standing -----------------------------------------------------------------------------
    def result(self, state: TabletopCribbageState, called: bool = False) -> Result:
        winner = self.reached(state)
        if winner is not None:
            return Result(True, winner, wins(winner, state.points))
        return Result(False, None, each_side(state.points, self.target(state)))

    def board(self, state: TabletopCribbageState) -> Board:
        turn = (("Deals", state.dealer), ("Rows", _non_dealer(state)))  # the dealer scores the columns
        return dataclasses.replace(super().board(state), turn=turn)

    statistics = (
        Statistic("row_points", "Points from rows", lambda done, side: _lines_scored(done, side, dealing=False)),
        Statistic("column_points", "Points from columns", lambda done, side: _lines_scored(done, side, dealing=True)),
        Statistic("winning_margin", "Widest winning margin", _margin, keep=MOST),
    )

    def example_hand(self, state: TabletopCribbageState, rng) -> dict:
        form = rng.choice(list(Form))
        if form is Form.CARDS:
            deck = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]
            cards = rng.sample(deck, _LINES * _LINES)
            return {"grid": [cards[row * _LINES : (row + 1) * _LINES] for row in range(_LINES)]}
        possible = [score for score in range(BEST_LINE + 1) if score not in NOT_LINE_SCORES]
        rows = [rng.choice(possible) for _ in range(_LINES)]
        columns = [rng.choice(possible) for _ in range(_LINES)]
        if form is Form.LINES:
            return {"rows": rows, "columns": columns}
        return {"row_total": sum(rows), "column_total": sum(columns)}


def _counted(lines: list[list[str]], player: int, rows: bool) -> tuple[int, list[Reason]]:
    """Lines of cards counted by the app (the rows, or the columns); one reason for the lines that scored."""
    counts = [count_line(line) for line in lines]
    total = sum(count.total for count in counts)
    parts = [
        _line_text(rows, number, line, count.total, count.describe())
        for number, (line, count) in enumerate(zip(lines, counts), start=1)
        if count.total
    ]
    side = side_name(player)
    if rows:
        detail = joined(parts, "; ") if parts else msg("no row scored")
        return total, [
            Reason(msg("%(side)s's rows +%(total)s: %(detail)s", side=side, total=total, detail=detail), Rule.ROWS)
        ]
    detail = joined(parts, "; ") if parts else msg("no column scored")
    return total, [
        Reason(msg("%(side)s's columns +%(total)s: %(detail)s", side=side, total=total, detail=detail), Rule.COLUMNS)
    ]


def _line_text(rows: bool, number: int, line: list[str], total: int, how: str) -> Text:
    """ "row 2 5H 5D TC JS QH: 8 (fifteens 6, pairs 2)": one line that scored, its cards and its count."""
    values = {"number": number, "cards": " ".join(line), "total": total, "how": how}
    # Translators: Tabletop Cribbage: one line of the layout, its five cards, its score and what made it
    return (
        msg("row %(number)s %(cards)s: %(total)s (%(how)s)", **values)
        if rows
        else msg("column %(number)s %(cards)s: %(total)s (%(how)s)", **values)
    )


def _listed(scores: list[int], player: int, rows: bool) -> tuple[int, list[Reason]]:
    total = sum(scores)
    added = joined(scores, " + ")
    if rows:
        return total, [
            Reason(
                msg("%(side)s's rows %(scores)s = +%(total)s", side=side_name(player), scores=added, total=total),
                Rule.ROWS,
            )
        ]
    return total, [
        Reason(
            msg("%(side)s's columns %(scores)s = +%(total)s", side=side_name(player), scores=added, total=total),
            Rule.COLUMNS,
        )
    ]


def _totalled(total: int, player: int, rows: bool) -> tuple[int, list[Reason]]:
    if rows:
        return total, [
            Reason(
                msg("%(side)s's rows, as totalled at the table: +%(total)s", side=side_name(player), total=total),
                Rule.ROWS,
            )
        ]
    return total, [
        Reason(
            msg("%(side)s's columns, as totalled at the table: +%(total)s", side=side_name(player), total=total),
            Rule.COLUMNS,
        )
    ]


def _non_dealer(state: State) -> int:
    return state.table.next_seat(state.dealer)


GAME = TabletopCribbage()
