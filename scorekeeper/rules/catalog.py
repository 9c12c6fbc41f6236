"""What the rules pages read of each game's card in the reference (`Game.reference`, declared in
the game's own module: games/reference.py): its other names, its line, its sources, and where each
house rule is ruled. The search (search.py) and the index read the names and lines; the pages read
the sources; a page opened from a match (tables.py) and the new-match form read the house rules:
each option's section on the rules page and a sentence saying what the value chosen does at the
table.

Options and their values are named as the new-match form names them (`option_title`,
`value_label`), except where the form still shows an internal word (a house rule's `labels`).

The game's own words are marked in its module and read here in the language of the moment (a rules
page speaks its own inside `speaking`, so they go through Flask-Babel's gettext, which follows
`force_locale`). Other names and the titles of documents are names: they stay as written. A sentence
with a number says it through `ngettext`, as each language counts.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ..games.base import Field, Game
from ..games.reference import HouseRule
from ..games.texts import Text
from ..matches.widgets import choice_text
from ..web.i18n import declared_text

# Where the first dealer (asked apart from the game's options) and any option a card does not rule
# are ruled: the page's glance, at its top.
GLANCE = HouseRule("glance")


def said(text: str) -> str:
    """A text of a game's card in the page's language: its own words looked up, a name as written."""
    return _(text.message) if isinstance(text, Text) else text


def option(game: Game, name: str) -> Field | None:
    return next((fld for fld in game.all_options if fld.name == name), None)


def option_title(fld: Field) -> str:
    """An option as the new-match form names it, in the page's language."""
    # The form asks the first dealer apart from the game's options, in its own words.
    return _("First dealer") if fld.name == "first_dealer" else declared_text(fld.question)


def value_label(game: Game, fld: Field, value: Any, players: Sequence[str] = ()) -> str:
    """An option's value as the new-match form shows it, in the page's language."""
    if fld.type == "seat" and isinstance(value, int):
        return players[value] if 0 <= value < len(players) else _("Seat %(number)s", number=value + 1)
    if value is None:
        # Translators: a house rule's value: no limit, nobody, not set ("none (usual) or 1 to 1000")
        return _("none")
    if isinstance(value, bool):
        # Translators: a house rule's value: switched on
        on = _("on")
        # Translators: a house rule's value: switched off
        return on if value else _("off")
    if fld.type == "choice" and isinstance(value, Hashable):
        own = house_rule(game, fld.name).labels.get(value)
        return said(own) if own else choice_text(fld, value)
    return str(value)


def house_rule(game: Game, name: str) -> HouseRule:
    """Where an option is ruled and what its values do (the game's card says)."""
    return game.reference.house_rules.get(name) or GLANCE


def sentence(game: Game, name: str, value: Any, words: str) -> str:
    """What an option's value (`words`: as the form names it) does at the table, in the page's language."""
    if name == "first_dealer":
        return _("%(player)s dealt the first hand", player=words)
    ruling = house_rule(game, name)
    says = ruling.says.get(value) if isinstance(value, Hashable) else None
    if says:
        return said(says)
    if ruling.counted is not None and isinstance(value, int) and not isinstance(value, bool):
        return ngettext(ruling.counted.one, ruling.counted.many, value)
    return _(ruling.worded.message, points=words) if ruling.worded is not None else words


def choices_in_words(game: Game, fld: Field) -> str:
    """An option's possible values in the form's words, the usual one first: "52 (usual) or 53"."""
    default = value_label(game, fld, fld.default)
    if fld.type == "choice":
        others = [value_label(game, fld, value) for value in fld.choices if value != fld.default]
        if fld.nullable and fld.default is not None:
            others.append(value_label(game, fld, None))
        if fld.nullable and fld.default is None:
            others = [value_label(game, fld, value) for value in fld.choices]
        return usual_or(default, any_of(others)) if others else default
    if fld.type == "bool":
        return usual_or(default, value_label(game, fld, not fld.default))
    if fld.min is not None and fld.max is not None:
        # Translators: the numbers an option takes, as in "20 (usual), or 1 to 1000"
        span = _("%(min)s to %(max)s", min=fld.min, max=fld.max)
    else:
        # Translators: what an option takes, as in "20 (usual), or a number"
        span = _("a number")
    if fld.default is None:
        return usual_or(default, span)
    # Translators: an option's usual number, then the numbers it takes: "20 (usual), or 1 to 1000"
    return _("%(usual)s (usual), or %(others)s", usual=default, others=span)


def usual_or(usual: str, others: str) -> str:
    # Translators: an option's usual value, then the others it takes: "52 (usual) or 53"; %(others)s is
    # one value, a span ("1 to 1000") or a list of values joined with "or" ("Count as win or Ignore")
    return _("%(usual)s (usual) or %(others)s", usual=usual, others=others)


def any_of(values: Sequence[str]) -> str:
    """Values joined as the page's language offers a choice: "A or B", "A, B o C"."""
    return format_list(list(values), style="or", locale=get_locale() or "en")
