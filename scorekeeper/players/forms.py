"""The host's forms: sign in, rename a player, merge two players. Each carries a CSRF token; what is
wrong with a name is said by `admin`, in the same words as the command line."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField

from ..records.writes import NAME_LIMIT

CHOOSE = ("", _l("Choose a player"))


class SignInForm(FlaskForm):
    password = PasswordField(_l("Host password"))


class SignOutForm(FlaskForm):
    """A button: the CSRF token only."""


# A player is chosen from the list by name; a name no longer there (renamed or merged from
# elsewhere) reaches `admin`, which says so, instead of WTForms' "Not a valid choice".
class RenameForm(FlaskForm):
    player = SelectField(_l("Player"), validate_choice=False)
    new_name = StringField(_l("New name"), render_kw={"maxlength": NAME_LIMIT, "autocomplete": "off"})


class MergeForm(FlaskForm):
    source = SelectField(_l("Merge this player"), validate_choice=False)
    # Translators: the second list of "Merge this player ... into this one"
    target = SelectField(_l("into this one"), validate_choice=False)


def host_forms(players: list[tuple[str, int]]) -> tuple[RenameForm, MergeForm]:
    """The rename and merge forms (fields apart by prefix), each listing `players` (name, matches played)."""
    choices = [CHOOSE] + [
        (name, ngettext("%(name)s (%(num)d match)", "%(name)s (%(num)d matches)", played, name=name))
        for name, played in players
    ]
    rename, merge = RenameForm(prefix="rename"), MergeForm(prefix="merge")
    for field in (rename.player, merge.source, merge.target):
        field.choices = choices
    return rename, merge
