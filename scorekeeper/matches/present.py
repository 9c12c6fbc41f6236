"""What the match pages show, gathered from a match as read (page building only: the forms are
read by widgets.py and forms.py, the lists are queried in queries.py). Each page is handed what
it shows, its texts with the sides named by their players."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from flask import current_app, render_template, session
from jinja2 import TemplateNotFound
from werkzeug.datastructures import MultiDict

from ..errors import Invalid
from ..games import Game, RecordError, get_game
from ..games.base import State, render
from ..models import MatchEvent
from ..records import reads
from ..records.reads import Scored
from ..web.i18n import gettext, this_page
from ..web.links import numbered_links
from . import counters
from .chart import chart
from .widgets import Seating, form_sections, hidden_rules_css, record_from_form, values_from_record

LATEST = 8  # hands shown under the form; the rest are a tap away
HANDS_PAGE = 15  # hands a page of the list shows: a long match stays light on a phone
LOG_SHOWN = 10  # the latest changes to the match shown on its page


class SideNames:
    """How the pages name each side of one match: by its players ("Jana & Luis"), with the verb
    agreeing ("Jana & Luis win the game"). Worked out once for a page and handed to its templates
    (the `named` filter); the API names the same sides by letter (api/answers.py)."""

    def __init__(self, sides: Sequence[Sequence[str]]):
        self.labels = [" & ".join(players) for players in sides]
        self.several = [len(players) > 1 for players in sides]
        self.page = this_page()

    @classmethod
    def of(cls, match: Any) -> SideNames:
        """The sides of `match`, a Match or a list's summary of one (its names and seats' sides)."""
        names = match.player_names
        return cls([[names[seat] for seat in seats] for seats in seats_by_side(match.game, tuple(match.seat_sides))])

    def __call__(self, text: str) -> str:
        """An engine text in the page's language with its sides named."""
        return self.page.isolated(render(self.page.translate(text, self.several), self.labels, self.several))


@lru_cache(maxsize=1024)
def seats_by_side(game: str, seat_sides: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The seats of each side of a match of `game` seated so (worked out once: a list names the sides
    of every match it shows, and most are seated alike)."""
    table = get_game(game).table(len(seat_sides), seat_sides)
    return tuple(tuple(table.seats_of(side)) for side in range(table.sides))


def named(text: str | None, sides: SideNames | Any) -> str:
    """An engine text as the pages show it; `sides` is the page's SideNames, or a match (a list's
    summary of one) whose sides are named from its seats."""
    if not text:
        return ""
    return (sides if isinstance(sides, SideNames) else SideNames.of(sides))(text)


ANCHOR_SAFE = "%!#$&'()*+,/:;=?@"  # as Flask's url_for quotes an _anchor


class HandLinks:
    """The links on each hand of a match's list: edit, delete, and the § after each reason to the
    rule it names on this table's rules page. Each kind is made once a page (a page lists up to 40
    reasons; a url_for for each was a fifth of its time)."""

    def __init__(self, scored: Scored):
        match_id = scored.match.id
        self.edit = numbered_links("matches.edit", "number", match_id=match_id)
        self.delete = numbered_links("matches.delete", "number", match_id=match_id)
        self._rules = numbered_links("rules.show", "hand", key=scored.game.key, match=match_id)
        self._labels: dict[str, str] = {}

    def rule(self, number: int, rule: str) -> str:
        """The rule named `rule` (its section's id), opened from hand `number`."""
        return f"{self._rules(number)}#{quote(rule, safe=ANCHOR_SAFE)}"

    def rule_label(self, rule: str) -> str:
        """What a screen reader says for the § link to `rule`: worded once a page for each rule."""
        label = self._labels.get(rule)
        if label is None:
            # Translators: what a screen reader says for the § link after a line of a hand's score;
            # %(rule)s is the rule's name in English
            label = self._labels[rule] = gettext("Rule: %(rule)s", rule=rule.replace("-", " "))
        return label


def seating(scored: Scored) -> Seating:
    return Seating(scored.table, scored.names)


def state_before(scored: Scored, number: int | None):
    """The state a hand was (or will be) played from."""
    return scored.state if number is None else scored.state_before(number)


def record_from_request(scored: Scored, form: MultiDict, number: int | None = None) -> dict:
    """The posted hand form as a record, after the game's calculators (if any) have filled it in."""
    before = state_before(scored, number)
    fields = scored.game.form_fields(before)
    try:
        form = counters.fill(scored.game, scored.match.options, form, scored.table)
    except RecordError as error:
        raise Invalid.from_record(error) from None
    return scored.game.from_form(
        before, record_from_form(fields, form, scored.table, scored.game.record_forms, hand=True)
    )


def hand_rows(scored: Scored, numbers: Sequence[int]) -> list[dict]:
    if scored.stored and numbers:
        hands = scored.replay.hands
        hands.load(numbers, states=False)  # one query for the rows shown, their notes with them
        notes = {n: hands.loaded[n].note for n in numbers}
    else:
        notes = reads.notes(scored.match, numbers)
    results = scored.replay.results
    shown = [results[n - 1] for n in numbers]  # each read once: a stored result words its reasons when read
    return [
        {"number": n, "changes": result.changes, "reasons": result.reasons, "note": notes.get(n)}
        for n, result in zip(numbers, shown)
    ]


REASONS_PER_PAGE = 40  # a page of hands stays near 20 KB: fewer hands where each says more


def light_page(rows: list[dict]) -> list[dict]:
    """The first rows whose reasons fit the page (at least one row)."""
    kept, reasons = [], 0
    for row in rows:
        reasons += len(row["reasons"])
        if kept and reasons > REASONS_PER_PAGE:
            break
        kept.append(row)
    return kept


def edit_values(scored: Scored, number: int) -> dict:
    record = scored.game.to_form(state_before(scored, number), scored.replay.records[number - 1])
    values = values_from_record(scored.game.hand_fields, record)
    values["note"] = reads.notes(scored.match, [number]).get(number, "")
    return values


def hand_page(
    scored: Scored,
    form,
    values: Mapping,
    errors: Mapping,
    message: str | None = None,
    editing: int | None = None,
    writer: bool = True,
    taken: bool = False,
):
    """The match page: scoreboard, the hand form (new or editing), the latest hands. `taken`: the
    table's hand was sent for a number another phone took; the form offers it as the next one."""
    side_names = SideNames(scored.sides)
    fields = scored.game.form_fields(state_before(scored, editing))
    errors = {name: side_names(text) for name, text in errors.items()}
    sections = form_sections(fields, scored.game.record_forms, seating(scored), values, errors)
    count = scored.count
    latest = hand_rows(scored, range(count, max(count - LATEST, 0), -1))
    form.expected.data = editing or scored.next_number
    form.token.data = form.token.data or secrets.token_hex(8)
    own = own_board(scored.game)
    board = scored.game.board(scored.state)
    if editing:
        board = dataclasses.replace(board, turn=roles(scored.game, state_before(scored, editing)))
    return render_template(
        "matches/match.html",
        s=scored,
        side_names=side_names,
        links=HandLinks(scored),
        board=board,
        own_board=own,
        public_state=scored.game.public_state(scored.state) if own else None,
        form=form,
        sections=sections,
        hidden_css=hidden_rules_css(fields),
        latest=latest,
        game_won=game_won(scored, latest),
        can_finish=scored.game.ends_by_call(scored.match.options) and not scored.finished,
        message=message,
        editing=editing,
        note=values.get("note", ""),
        dealer=state_before(scored, editing).dealer,
        calculators=counters.panels(scored.game, seating(scored), values),
        chart=chart(scored) if scored.finished and not editing else None,
        undone=undone_hand(scored),
        writer=writer,
        taken=taken,
        events=latest_changes(scored) if writer else [],
    )


def roles(game: Game, before: State) -> tuple[tuple[str, int], ...]:
    """Who dealt (and scored the rows, called trumps...) in the hand played from `before`: the
    edit page shows the edited hand's roles, not the next hand's."""
    turn = game.board(before).turn
    if not turn and game.deals and before.dealer is not None:
        turn = (("Deals", before.dealer),)
    return turn


def game_won(scored: Scored, latest: list[dict]) -> str | None:
    """The last hand's last reason where that hand won a game of the match (a banner over the board)."""
    if latest and latest[0]["reasons"] and scored.replay.results[-1].game_winner is not None:
        return latest[0]["reasons"][-1].text
    return None


def hands_page(scored: Scored, before: int | None, writer: bool):
    """Every hand of the match, newest first, a page at a time: the hands before hand `before`, as
    many as keep the page light."""
    top = scored.count if before is None else min(max(before - 1, 0), scored.count)
    rows = light_page(hand_rows(scored, range(top, max(top - HANDS_PAGE, 0), -1)))
    older = rows[-1]["number"] if rows and rows[-1]["number"] > 1 else None
    return render_template(
        "matches/hands.html",
        s=scored,
        side_names=SideNames(scored.sides),
        latest=rows,
        links=HandLinks(scored),
        paged=top < scored.count,
        older=older,
        writer=writer,
    )


def confirm_page(scored: Scored, form, action: str, number: int | None = None):
    """Ask once before deleting hand `number` ("delete"), the match ("remove"), or finishing it."""
    hand = hand_rows(scored, [number])[0] if action == "delete" else None
    return render_template(
        "matches/confirm.html",
        s=scored,
        side_names=SideNames(scored.sides),
        form=form,
        number=number,
        hand=hand,
        action=action,
    )


def latest_changes(scored: Scored) -> list[MatchEvent]:
    """The match's latest logged changes, oldest first. Every change the log keeps moves the version
    on without adding a hand (recording one adds one of each): where the two agree there is nothing
    to read."""
    if scored.match.version == scored.count:
        return []
    return reads.latest_events(scored.match, LOG_SHOWN)[::-1]


def undone_hand(scored: Scored) -> int | None:
    """The number of the hand just taken back on this phone, if it can still be put back."""
    undone = session.get("undone")
    if undone and undone.get("match") == scored.match.id and undone.get("number") == scored.next_number:
        return undone["number"]
    return None


def own_board(game: Game) -> str | None:
    """A game's own scoreboard template, where its paper sheet really differs; else None."""
    name = f"games/{game.key}.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name
