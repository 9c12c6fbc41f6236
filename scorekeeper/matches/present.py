"""What the match pages show, gathered from a replayed match; and the posted forms read back."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping

from flask import render_template
from werkzeug.datastructures import MultiDict

from ..extensions import db
from ..games import Game, RecordError
from ..models import Player
from ..service import Scored, ServiceError
from . import counters
from .forms import (
    CARD_RANK_CHOICES,
    CARD_SUIT_CHOICES,
    build_widgets,
    game_option_widgets,
    hidden_rules_css,
    labels_for,
    options_from_form,
    record_from_form,
    values_from_record,
)

LATEST = 8  # hands shown under the form; the rest are a tap away


def state_before(scored: Scored, number: int | None):
    """The state a hand was (or will be) played from."""
    if number is None:
        return scored.state
    return scored.replay.results[number - 2].state if number > 1 else scored.replay.start


def record_from_request(scored: Scored, form: MultiDict, number: int | None = None) -> dict:
    """The posted hand form as a record, after the game's counter (if any) has filled it in."""
    fields = scored.game.form_fields(state_before(scored, number))
    try:
        form = counters.fill(scored.game, scored.match.options, form, scored.table)
    except RecordError as error:
        raise ServiceError.from_record(error) from None
    return record_from_form(fields, form, scored.table)


def hand_rows(scored: Scored, numbers: range) -> list[dict]:
    results = scored.replay.results
    return [{"number": n, "changes": results[n - 1].changes, "reasons": results[n - 1].reasons} for n in numbers]


def hand_page(
    scored: Scored,
    form,
    values: Mapping,
    errors: Mapping,
    message: str | None = None,
    editing: int | None = None,
):
    """The match page: scoreboard, the hand form (new or editing), the latest hands."""
    fields = scored.game.form_fields(state_before(scored, editing))
    widgets = build_widgets(fields, scored.table, scored.names, values, errors)
    side_labels, _ = labels_for(scored.table, scored.names)
    count = scored.count
    latest = hand_rows(scored, range(count, max(count - LATEST, 0), -1))
    form.expected.data = editing or scored.next_number
    form.token.data = form.token.data or secrets.token_hex(8)
    return render_template(
        "matches/match.html",
        s=scored,
        form=form,
        widgets=widgets,
        hidden_css=hidden_rules_css(fields),
        side_labels=side_labels,
        latest=latest,
        message=message,
        editing=editing,
        counter=counters.panel(scored.game, scored.match.options, scored.table, scored.names, values),
        ranks=CARD_RANK_CHOICES,
        suits=CARD_SUIT_CHOICES,
    )


def new_match_page(game: Game, form, values: Mapping, error: ServiceError | None):
    seats = game.max_players
    table = game.table(max(game.min_players, 2))
    if not values:  # a new form shows every house rule at its default
        defaults = {fld.name: fld.default for fld in game.options if fld.default is not None}
        values = values_from_record(game.options, defaults, prefix="opt-")
    options = game_option_widgets(game, table, [f"Player {i + 1}" for i in range(seats)], values, _option_errors(error))
    return render_template(
        "matches/new.html",
        game=game,
        form=form,
        seats=seats,
        values=values,
        options=options,
        error=error,
        known=db.session.scalars(db.select(Player).order_by(Player.name)).all(),
    )


def _option_errors(error: ServiceError | None) -> dict:
    if error is None:
        return {}
    return {f"opt-{name}": text for name, text in error.fields.items()}


def seats_from_form(game: Game, form: MultiDict) -> tuple[list[str], dict, ServiceError | None]:
    """The names in seating order, the options, or what is wrong with them."""
    names = [form.get(f"seat-{i}", "").strip() for i in range(game.max_players)]
    names = [name for name in names if name]
    if not game.min_players <= len(names) <= game.max_players:
        span = game.min_players if game.min_players == game.max_players else f"{game.min_players} to {game.max_players}"
        return names, {}, ServiceError(422, f"{game.name} needs {span} players: fill in a name for each seat.", {"players": "seats"})
    table = game.table(len(names))
    options = options_from_form(game, form, table)
    dealer = form.get("first_dealer", "0")
    if dealer == "random":
        options["first_dealer"] = random.randrange(len(names))
    elif dealer.isdigit() and int(dealer) < len(names):
        options["first_dealer"] = int(dealer)
    else:
        return names, options, ServiceError(422, "The first dealer must be one of the seated players.", {"first_dealer": "not seated"})
    return names, options, None
