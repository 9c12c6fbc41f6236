"""What the match pages show, gathered from a replayed match (page building only: the forms are
read by widgets.py and forms.py, the lists are queried in queries.py)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping

from flask import current_app, render_template
from jinja2 import TemplateNotFound
from werkzeug.datastructures import MultiDict

from ..extensions import db
from ..games import Game, RecordError
from ..models import Player
from ..service import Invalid, Scored, ServiceError
from . import counters
from .forms import OPTION_PREFIX, game_option_widgets, options_from_form
from .widgets import Seating, build_widgets, hidden_rules_css, record_from_form, values_from_record

LATEST = 8  # hands shown under the form; the rest are a tap away


def seating(scored: Scored) -> Seating:
    return Seating(scored.table, scored.names)


def state_before(scored: Scored, number: int | None):
    """The state a hand was (or will be) played from."""
    if number is None:
        return scored.state
    return scored.replay.results[number - 2].state if number > 1 else scored.replay.start


def record_from_request(scored: Scored, form: MultiDict, number: int | None = None) -> dict:
    """The posted hand form as a record, after the game's calculators (if any) have filled it in."""
    fields = scored.game.form_fields(state_before(scored, number))
    try:
        form = counters.fill(scored.game, scored.match.options, form, scored.table)
    except RecordError as error:
        raise Invalid.from_record(error) from None
    return record_from_form(fields, form, scored.table)


def hand_rows(scored: Scored, numbers: range) -> list[dict]:
    results = scored.replay.results
    return [{"number": n, "changes": results[n - 1].changes, "reasons": results[n - 1].reasons} for n in numbers]


def edit_values(scored: Scored, number: int) -> dict:
    return values_from_record(scored.game.hand_fields, scored.replay.records[number - 1])


def hand_page(scored: Scored, form, values: Mapping, errors: Mapping, message: str | None = None,
              editing: int | None = None):
    """The match page: scoreboard, the hand form (new or editing), the latest hands."""
    fields = scored.game.form_fields(state_before(scored, editing))
    widgets = build_widgets(fields, seating(scored), values, errors)
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
        widgets=widgets,
        hidden_css=hidden_rules_css(fields),
        latest=latest,
        message=message,
        editing=editing,
        calculators=counters.panels(scored.game, seating(scored), values),
    )


def own_board(game: Game) -> str | None:
    """A game's own scoreboard template, where its paper sheet really differs; else None."""
    name = f"games/{game.key}.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def new_match_page(game: Game, form, values: Mapping, error: ServiceError | None):
    seats = game.max_players
    table = game.table(game.min_players)
    names = [f"Player {i + 1}" for i in range(seats)]
    if not values:  # a new form shows every house rule at its default
        defaults = {fld.name: fld.default for fld in game.options if fld.default is not None}
        values = values_from_record(game.options, defaults, prefix=OPTION_PREFIX)
    errors = {f"{OPTION_PREFIX}{name}": text for name, text in (error.fields.items() if error else ())}
    options = game_option_widgets(game, Seating(table, names), values, errors)
    side_letters = [chr(ord("A") + table.side_of(seat % table.players)) for seat in range(seats)] if game.partnerships else []
    return render_template(
        "matches/new.html",
        game=game,
        form=form,
        seats=seats,
        side_letters=side_letters,
        values=values,
        options=options,
        error=error,
        known=db.session.scalars(db.select(Player).order_by(Player.name)).all(),
    )


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
