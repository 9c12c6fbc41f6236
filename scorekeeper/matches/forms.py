"""The fixed parts of the match forms (CSRF, the hand number, the one-time token) and the
new-match form's house rules; every game field is drawn and read by widgets.py."""

from __future__ import annotations

import re
from collections.abc import Mapping

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, HiddenField, IntegerField
from wtforms.validators import Optional

from ..games import Game
from ..games.base import Table
from .widgets import Seating, Widget, build_widgets, record_from_form

OPTION_PREFIX = "opt-"
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the one-time token a form carries; anything else is none


class ConfirmForm(FlaskForm):
    """A button-only form (undo, delete, finish): it carries the CSRF token and nothing else."""

    expected = IntegerField(validators=[Optional()])


class HandForm(FlaskForm):
    """The CSRF token, the hand number the phone expects to create, and a one-time token."""

    expected = IntegerField(validators=[Optional()])
    token = HiddenField(filters=[lambda value: value if value and TOKEN.fullmatch(value) else None])


class SeatsForm(FlaskForm):
    """The fixed part of the new-match form; seats, first dealer and options: `seats_from_form`."""

    draw_partners = BooleanField(_l("Draw partners at random"))


def game_option_widgets(game: Game, seating: Seating, values: Mapping, errors: Mapping) -> list[Widget]:
    """The game's own options (first_dealer is asked separately)."""
    return build_widgets(game.options, seating, values, errors, prefix=OPTION_PREFIX)


def options_from_form(game: Game, form: MultiDict, table: Table) -> dict:
    """The game's options from the new-match form's `opt-` fields."""
    given = MultiDict([(k[len(OPTION_PREFIX) :], v) for k, v in form.items(multi=True) if k.startswith(OPTION_PREFIX)])
    options = record_from_form(game.options, given, table)
    # An unticked box posts nothing: on this form that means off, not "the game's default" (a rule
    # on by default could never be switched off) nor "as it was" (on the set-up page).
    for fld in game.options:
        if fld.type == "bool" and not fld.when and fld.name not in options:
            options[fld.name] = False
    return options
