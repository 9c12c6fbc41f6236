"""The new-match form and the set-up of a match in play: names and seats, the first dealer, the
house rules; and reading them back from the posted form."""

from __future__ import annotations

import random
from collections.abc import Mapping

from flask import render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ..errors import Invalid, ServiceError
from ..games import Game, RecordError
from ..games.base import LETTERS
from ..records.reads import Scored
from ..web.i18n import shown
from . import queries
from .forms import OPTION_PREFIX, game_option_widgets, options_from_form
from .widgets import Seating, values_from_record

# How the first-dealer choice names a seat whose player has no name yet (seats.js follows the
# names as they are typed; without it the choice says which player in the order listed).
IN_ORDER = (
    _l("First player"),
    _l("Second player"),
    _l("Third player"),
    _l("Fourth player"),
    _l("Fifth player"),
    _l("Sixth player"),
    _l("Seventh player"),
    _l("Eighth player"),
    _l("Ninth player"),
    _l("Tenth player"),
    _l("Eleventh player"),
    _l("Twelfth player"),
)


def new_match_page(game: Game, form, values: Mapping, error: ServiceError | None, scored: Scored | None = None):
    """The new-match form, or with `scored` the same form fixing that match's set-up."""
    seats = len(scored.names) if scored else game.max_players
    table = scored.table if scored else game.table(game.min_players)
    names = [numbered(seat) for seat in range(seats)]
    if not values:  # a new form shows every house rule at its default
        defaults = {fld.name: fld.default for fld in game.options if fld.default is not None}
        values = values_from_record(game.options, defaults, prefix=OPTION_PREFIX)
    errors = {f"{OPTION_PREFIX}{name}": shown(text) for name, text in (error.fields.items() if error else ())}
    options = game_option_widgets(game, Seating(table, names), values, errors)
    side_letters = [LETTERS[table.side_of(seat % table.players)] for seat in range(seats)] if game.partnerships else []
    return render_template(
        "matches/new.html",
        game=game,
        form=form,
        seats=seats,
        needed=seats if scored else game.min_players,
        unnamed=[unnamed(seat) for seat in range(seats)],
        dealer_names=[values.get(f"seat-{seat}", "").strip() or unnamed(seat) for seat in range(seats)],
        side_letters=side_letters,
        values=values,
        options=options,
        error=error,
        scored=scored,
        known=queries.known_players(),
    )


def unnamed(seat: int) -> str:
    """ "First player", "Second player"...: a seat named by its place in the order of play."""
    return str(IN_ORDER[seat]) if seat < len(IN_ORDER) else numbered(seat)


def numbered(seat: int) -> str:
    """ "Player 1": a seat whose player has no name yet, where a name is needed (a house rule's sides)."""
    return _("Player %(number)s", number=seat + 1)


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
        return names, {}, Invalid(players_needed(game), {"players": "seats"})
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
        return (
            names,
            options,
            Invalid(_("The first dealer must be one of the seated players."), {"first_dealer": "not seated"}),
        )
    return names, options, None


def players_needed(game: Game) -> str:
    """How many players the game needs, as the new-match form says when the names do not fit."""
    if game.min_players == game.max_players:
        return ngettext(
            "%(game)s needs %(num)d player: fill in a name for each seat.",
            "%(game)s needs %(num)d players: fill in a name for each seat.",
            game.min_players,
            game=game.name,
        )
    return _(
        "%(game)s needs %(low)d to %(high)d players: fill in a name for each seat.",
        game=game.name,
        low=game.min_players,
        high=game.max_players,
    )
