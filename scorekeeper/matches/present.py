"""What the match pages show, gathered from a replayed match (page building only: the forms are
read by widgets.py and forms.py, the lists are queried in queries.py)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence

from flask import current_app, render_template, session
from jinja2 import TemplateNotFound
from werkzeug.datastructures import MultiDict

from .. import service
from ..extensions import db
from ..games import Game, RecordError
from ..games.base import LETTERS
from ..models import MatchEvent, Player
from ..service import Invalid, Scored, ServiceError
from . import counters
from .forms import OPTION_PREFIX, game_option_widgets, options_from_form
from .widgets import Seating, form_sections, hidden_rules_css, record_from_form, values_from_record

LATEST = 8  # hands shown under the form; the rest are a tap away
LOG_SHOWN = 10  # the latest changes to the match shown on its page


def seating(scored: Scored) -> Seating:
    return Seating(scored.table, scored.names)


def state_before(scored: Scored, number: int | None):
    """The state a hand was (or will be) played from."""
    return scored.state if number is None else service.state_before(scored, number)


def record_from_request(scored: Scored, form: MultiDict, number: int | None = None) -> dict:
    """The posted hand form as a record, after the game's calculators (if any) have filled it in."""
    before = state_before(scored, number)
    fields = scored.game.form_fields(before)
    try:
        form = counters.fill(scored.game, scored.match.options, form, scored.table)
    except RecordError as error:
        raise Invalid.from_record(error) from None
    return scored.game.from_form(before, record_from_form(fields, form, scored.table))


def hand_rows(scored: Scored, numbers: Sequence[int]) -> list[dict]:
    if scored.stored and numbers:
        scored.replay.hands.load(numbers, states=False)  # one query for the rows shown
    results = scored.replay.results
    return [{"number": n, "changes": results[n - 1].changes, "reasons": results[n - 1].reasons} for n in numbers]


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


def edit_values(scored: Scored, number: int) -> dict:
    record = scored.game.to_form(state_before(scored, number), scored.replay.records[number - 1])
    return values_from_record(scored.game.hand_fields, record)


def hand_page(scored: Scored, form, values: Mapping, errors: Mapping, message: str | None = None,
              editing: int | None = None, writer: bool = True):
    """The match page: scoreboard, the hand form (new or editing), the latest hands."""
    fields = scored.game.form_fields(state_before(scored, editing))
    errors = {name: service.named(scored.match, text) for name, text in errors.items()}
    sections = form_sections(fields, scored.game.record_forms, seating(scored), values, errors)
    count = scored.count
    latest = hand_rows(scored, range(count, max(count - LATEST, 0), -1))
    form.expected.data = editing or scored.next_number
    form.token.data = form.token.data or secrets.token_hex(8)
    return render_template(
        "matches/match.html",
        s=scored,
        board=scored.game.board(scored.state),
        own_board=own_board(scored.game),
        form=form,
        sections=sections,
        hidden_css=hidden_rules_css(fields),
        latest=latest,
        message=message,
        editing=editing,
        calculators=counters.panels(scored.game, seating(scored), values),
        chart=chart(scored) if scored.finished and not editing else None,
        undone=undone_hand(scored),
        writer=writer,
        events=latest_changes(scored) if writer else [],
    )


def latest_changes(scored: Scored) -> list[MatchEvent]:
    """The match's latest logged changes, oldest first. Every change the log keeps moves the version
    on without adding a hand (recording one adds one of each): where the two agree there is nothing
    to read."""
    if scored.match.version == scored.count:
        return []
    latest = db.session.scalars(db.select(MatchEvent).where(MatchEvent.match_id == scored.match.id)
                                .order_by(MatchEvent.id.desc()).limit(LOG_SHOWN)).all()
    return latest[::-1]


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


def new_match_page(game: Game, form, values: Mapping, error: ServiceError | None, scored: Scored | None = None):
    """The new-match form, or with `scored` the same form fixing that match's set-up."""
    seats = len(scored.names) if scored else game.max_players
    table = scored.table if scored else game.table(game.min_players)
    names = [f"Player {i + 1}" for i in range(seats)]
    if not values:  # a new form shows every house rule at its default
        defaults = {fld.name: fld.default for fld in game.options if fld.default is not None}
        values = values_from_record(game.options, defaults, prefix=OPTION_PREFIX)
    errors = {f"{OPTION_PREFIX}{name}": text for name, text in (error.fields.items() if error else ())}
    options = game_option_widgets(game, Seating(table, names), values, errors)
    side_letters = [LETTERS[table.side_of(seat % table.players)] for seat in range(seats)] if game.partnerships else []
    return render_template(
        "matches/new.html",
        game=game,
        form=form,
        seats=seats,
        side_letters=side_letters,
        values=values,
        options=options,
        error=error,
        scored=scored,
        known=db.session.scalars(db.select(Player).order_by(Player.name)).all(),
    )


def setup_page(scored: Scored, form, posted: Mapping | None, error: ServiceError | None):
    """The set-up of a match in play, to fix: names and seats, first dealer, house rules."""
    options = scored.match.options
    values = posted or MultiDict(
        [(f"seat-{i}", name) for i, name in enumerate(scored.names)]
        + [("first_dealer", str(options.get("first_dealer", 0)))]
        + list(values_from_record(scored.game.options, options, prefix=OPTION_PREFIX).items())
    )
    return new_match_page(scored.game, form, values, error, scored=scored)


def seats_from_form(game: Game, form: MultiDict) -> tuple[list[str], dict, ServiceError | None]:
    """The names in seating order, the options, or what is wrong with them."""
    names = [form.get(f"seat-{i}", "").strip() for i in range(game.max_players)]
    names = [name for name in names if name]
    if not game.min_players <= len(names) <= game.max_players:
        span = game.min_players if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
        return names, {}, Invalid(f"{game.name} needs {span} players: fill in a name for each seat.", {"players": "seats"})
    try:
        table = game.table(len(names))
    except RecordError as refused:
        return names, {}, Invalid.from_record(refused)
    options = options_from_form(game, form, table)
    if not game.deals:
        return names, options, None
    dealer = form.get("first_dealer", "0")
    if dealer == "random":
        options["first_dealer"] = random.randrange(len(names))
    elif dealer.isascii() and dealer.isdigit() and len(dealer) < 4 and int(dealer) < len(names):
        options["first_dealer"] = int(dealer)
    else:
        return names, options, Invalid("The first dealer must be one of the seated players.", {"first_dealer": "not seated"})
    return names, options, None
