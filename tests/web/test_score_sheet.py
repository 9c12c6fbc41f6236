"""The printed score sheet (issue 34, item 4): for every game, each side's running total hand by hand
in each kind of point the game keeps, whose last line is what the board shows. Matches are played
through the API with each game's own example hands; the sheet and the board are read from the pages
as served."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from scorekeeper.games import GAMES, RecordError
from tests.api.test_every_game import NAMES, seated

pytestmark = pytest.mark.one_database  # what the pages say, not how the database keeps it

MOST_HANDS = 40  # example hands played before a match that has not ended is called over
IN_PLAY = 3  # the sheet is also read after this many hands, in play
PLAYERS = 4  # at a table of four where the game takes it: a tournament plays more than its final


def at_the_table(game) -> list[str]:
    try:
        game.table(PLAYERS)
    except RecordError:
        return seated(game)
    return NAMES[:PLAYERS] if game.min_players <= PLAYERS <= game.max_players else seated(game)


class Cells(HTMLParser):
    """The texts inside the first element of `outer` class and its like: the cells of each of its
    rows (`rows`), and the paragraphs of each element of `corner` class in it (`corners`)."""

    def __init__(self, outer: str, corner: str | None = None):
        super().__init__()
        self.outer, self.corner = outer, corner
        self.open: list[str] = []  # the elements open inside an outer one, by what they are
        self.rows: list[list[str]] = []
        self.corners: list[list[str]] = []
        self.text: list[str] | None = None  # the cell or paragraph being read

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if not self.open and self.outer not in classes:
            return
        kind = "corner" if self.corner in classes else tag
        self.open.append(kind)
        if kind == "corner":
            self.corners.append([])
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th") or (tag == "p" and "corner" in self.open):
            self.text = []

    def handle_endtag(self, tag):
        if not self.open:
            return
        kind = self.open.pop()
        if self.text is not None and kind in ("td", "th", "p"):
            (self.rows[-1] if kind != "p" else self.corners[-1]).append("".join(self.text).strip())
            self.text = None

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)


def read(html: str, outer: str, corner: str | None = None) -> Cells:
    found = Cells(outer, corner)
    found.feed(html)
    return found


def number(text: str) -> int:
    return int(re.search(r"[+-]?\d+", text).group(0))


def sheet_lines(html: str, sides: int) -> list[tuple[str, list[list[tuple[int | None, int]]]]]:
    """The sheet's lines: (its name, per side and column (scored or None, running total))."""
    lines = []
    for row in read(html, "sheet-hands").rows[3:]:  # after the three rows of headings
        figures = row[1:-1]  # the line's name first, the reasons last; between them scored, total per column
        per_side = len(figures) // sides
        assert per_side * sides == len(figures) and per_side % 2 == 0, row
        pairs = [
            (number(figures[at]) if figures[at] else None, number(figures[at + 1])) for at in range(0, len(figures), 2)
        ]
        lines.append((row[0], [pairs[side * per_side // 2 : (side + 1) * per_side // 2] for side in range(sides)]))
    return lines


def board_figures(html: str, sides: int) -> list[list[int]]:
    """What the match page's board shows each side, in order: the score, then the first figure of each
    of the side's lines ("Games: 1 of 2"); a game's own board (a table, one column a side) its rows."""
    own = read(html, "sheet").rows
    if own:
        return [[number(row[side]) for row in own[1:] if row and re.search(r"\d", row[side])] for side in range(sides)]
    corners = read(html, "sides", corner="side").corners
    return [[number(texts[0])] + [number(line) for line in texts[1:] if re.search(r"\d", line)] for texts in corners]


def check_sheet(client, match_id: int, sides: int) -> list[list[int]]:
    """Each column adds up, line by line, and the last line, per side and column, is what the board
    shows, in the board's order."""
    sheet = client.get(f"/matches/{match_id}/sheet")
    assert sheet.status_code == 200
    lines = sheet_lines(sheet.get_data(as_text=True), sides)
    for side in range(sides):
        for column in range(len(lines[0][1][side])):
            carried = 0
            for name, figures in lines:
                scored, total = figures[side][column]
                assert scored is None or carried + scored == total, (name, side, column, lines)
                carried = total
    totals = [[total for _, total in figures] for figures in lines[-1][1]]
    board = board_figures(client.get(f"/matches/{match_id}").get_data(as_text=True), sides)
    assert [figures[: len(kept)] for figures, kept in zip(board, totals)] == totals, (board, totals)
    return totals


@pytest.mark.parametrize("key", list(GAMES))
def test_every_games_sheet_ends_on_its_board(key, client, actions):
    game, rng = GAMES[key], random.Random(11)
    names = at_the_table(game)
    match_id = actions.start(key, names)
    table = game.table(len(names))
    state = game.new_state(table, game.parse_options({}, table))
    for played in range(1, MOST_HANDS + 1):
        if game.result(state).over:
            break
        record = game.example_hand(state, rng)
        state = game.play(state, record).state
        actions.hand(match_id, record)
        if played == IN_PLAY:
            check_sheet(client, match_id, table.sides)
    if not game.result(state).over:
        actions.write("POST", match_id, "/finish")
    check_sheet(client, match_id, table.sides)
