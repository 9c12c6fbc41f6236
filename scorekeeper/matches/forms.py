"""Forms for the match pages, built from the games' field declarations.

A hand form has no fields of its own: the game declares them once (scorekeeper.games), `widgets`
turns them into big-button widgets, and `record_from_form` turns the posted form back into the
same record the JSON API takes. The engine then validates both alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, HiddenField, IntegerField
from wtforms.validators import Optional

from ..games import Game
from ..games.base import CARD_RANKS, CARD_SUITS, Field, Table, side_name

BUTTON_LIMIT = 14  # a whole-number range up to this many values shows as buttons, not a box
NONE = "none"  # the form's word for null (a nullable side left to nobody)


class ConfirmForm(FlaskForm):
    """A button-only form (undo, delete, finish): it carries the CSRF token and nothing else."""

    expected = IntegerField(validators=[Optional()])


class HandForm(FlaskForm):
    """The CSRF token, the hand number the phone expects to create, and a one-time token."""

    expected = IntegerField(validators=[Optional()])
    token = HiddenField()


class SeatsForm(FlaskForm):
    """The fixed part of the new-match form; seats, first dealer and options: `seats_from_form`."""

    draw_partners = BooleanField("Draw partners at random")


@dataclass
class Widget:
    """One field as the form shows it: its posted key, its kind and its current value."""

    key: str
    label: str
    kind: str  # buttons | toggle | number | group | cards
    help: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    value: Any = None
    error: str | None = None
    when: tuple[str, tuple[str, ...]] | None = None
    children: list[Widget] = field(default_factory=list)
    low: int | None = None
    high: int | None = None


def labels_for(table: Table, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """How the form names sides and seats: a side by its letter and its players."""
    seats = list(names)
    sides = []
    for side in range(table.sides):
        members = [names[seat] for seat in table.seats_of(side)]
        sides.append(f"{side_name(side)}: {' & '.join(members)}" if table.partnerships else members[0])
    return sides, seats


def choice_label(value: Any) -> str:
    return str(value).replace("_", " ").capitalize()


def _choices(fld: Field, sides: list[str], seats: list[str]) -> list[tuple[str, str]]:
    if fld.type == "side":
        options = [(str(i), label) for i, label in enumerate(sides)]
        return options + ([(NONE, "Nobody")] if fld.nullable else [])
    if fld.type == "seat":
        return [(str(i), label) for i, label in enumerate(seats)]
    if fld.type == "choice":
        return [(str(value), choice_label(value)) for value in fld.choices]
    return [(str(i), str(i)) for i in range(fld.min, fld.max + 1)]


def _small_range(fld: Field) -> bool:
    return fld.min is not None and fld.max is not None and fld.max - fld.min < BUTTON_LIMIT


def build_widgets(
    fields: Sequence[Field],
    table: Table,
    names: Sequence[str],
    values: Mapping[str, Any],
    errors: Mapping[str, str],
    prefix: str = "",
) -> list[Widget]:
    """Widgets for `fields`, filled with the posted `values` (flat form keys) and `errors`."""
    sides, seats = labels_for(table, names)
    widgets = []
    for fld in fields:
        key = prefix + fld.name
        error = errors.get(key.replace("-", ".")) or errors.get(key)
        when = (fld.when[0], tuple(str(v) for v in fld.when[1])) if fld.when else None
        common = dict(key=key, label=fld.title, help=fld.help, error=error, when=when)
        if fld.type == "bool":
            widgets.append(Widget(kind="toggle", value=values.get(key) in ("on", "true", "1", True), **common))
        elif fld.type == "group":
            children = build_widgets(fld.fields, table, names, values, errors, prefix=key + "-")
            widgets.append(Widget(kind="group", children=children, **common))
        elif fld.type == "per_side":
            children = [_single(fld, f"{key}-{i}", label, values, sides, seats) for i, label in enumerate(sides)]
            if fld.total is not None and table.sides == 2:
                common["help"] += " Tap one side's number; the other side gets the rest."
            widgets.append(Widget(kind="group", children=children, **common))
        elif fld.type == "cards":
            widgets.append(Widget(kind="cards", value=_card_values(key, table, values), choices=[(s, s) for s in sides], **common))
        else:
            widget = _single(fld, key, fld.title, values, sides, seats)
            widget.help, widget.error, widget.when = fld.help, error, when
            widgets.append(widget)
    return widgets


def _single(fld: Field, key: str, label: str, values: Mapping, sides: list[str], seats: list[str]) -> Widget:
    value = values.get(key)
    value = "" if value is None else str(value)
    if fld.type in ("side", "seat", "choice") or _small_range(fld):
        return Widget(key=key, label=label, kind="buttons", choices=_choices(fld, sides, seats), value=value)
    return Widget(key=key, label=label, kind="number", value=value, low=fld.min, high=fld.max)


def _card_values(key: str, table: Table, values: Mapping) -> list[list[tuple[str, str]]]:
    return [
        [(str(values.get(f"{key}-{side}-{n}-rank", "")), str(values.get(f"{key}-{side}-{n}-suit", ""))) for n in range(5)]
        for side in range(table.sides)
    ]


CARD_RANK_CHOICES = [(r, "10" if r == "T" else r) for r in CARD_RANKS]
CARD_SUIT_CHOICES = list(zip(CARD_SUITS, "♠♥♦♣"))


# -- posted form -> record ----------------------------------------------------------------------


def record_from_form(fields: Sequence[Field], form: MultiDict, table: Table) -> dict:
    """The record the API would take, from flat form keys; fields hidden by `when` are left out."""
    record: dict[str, Any] = {}
    for fld in fields:
        if fld.when and str(form.get(fld.when[0], "")) not in {str(v) for v in fld.when[1]}:
            continue
        found = _read(fld, fld.name, form, table)
        if found is not _MISSING:
            record[fld.name] = found
    return record


_MISSING = object()


def _read(fld: Field, key: str, form: MultiDict, table: Table) -> Any:
    if fld.type == "bool":
        return True if form.get(key) in ("on", "true", "1") else _MISSING
    if fld.type == "per_side":
        items = [form.get(f"{key}-{i}", "").strip() for i in range(table.sides)]
        if not any(items):
            return _MISSING
        return _complete(fld, items)
    if fld.type == "group":
        group = {sub.name: _read(sub, f"{key}-{sub.name}", form, table) for sub in fld.fields}
        group = {name: v for name, v in group.items() if v is not _MISSING}
        return group or _MISSING
    if fld.type == "cards":
        return _read_cards(key, form, table)
    raw = form.get(key, "").strip()
    if raw == "":
        return _MISSING
    return None if (raw == NONE and fld.nullable) else raw


def _complete(fld: Field, items: list[str]) -> list:
    """With two sides and a fixed total, the side left blank took the rest (one tap, not two)."""
    blank = [i for i, item in enumerate(items) if not item]
    if fld.total is not None and len(items) == 2 and len(blank) == 1 and items[1 - blank[0]].isdigit():
        items[blank[0]] = str(fld.total - int(items[1 - blank[0]]))
    return [item if item else None for item in items]


def _read_cards(key: str, form: MultiDict, table: Table) -> Any:
    hands = [
        [form.get(f"{key}-{side}-{n}-rank", "") + form.get(f"{key}-{side}-{n}-suit", "") for n in range(5)]
        for side in range(table.sides)
    ]
    if not any(card for hand in hands for card in hand):
        return _MISSING
    return hands


def values_from_record(fields: Sequence[Field], record: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    """Flat form values that show a stored record (to edit a hand)."""
    values: dict[str, str] = {}
    for fld in fields:
        if fld.name not in record:
            continue
        key, value = prefix + fld.name, record[fld.name]
        if fld.type == "per_side":
            values.update({f"{key}-{i}": str(v) for i, v in enumerate(value)})
        elif fld.type == "group":
            values.update(values_from_record(fld.fields, value, prefix=key + "-"))
        elif fld.type == "cards":
            for side, hand in enumerate(value):
                for n, card in enumerate(hand):
                    values[f"{key}-{side}-{n}-rank"], values[f"{key}-{side}-{n}-suit"] = card[0], card[1]
        elif fld.type == "bool":
            if value:
                values[key] = "on"
        else:
            values[key] = NONE if value is None else str(value)
    return values


def hidden_rules_css(fields: Sequence[Field]) -> str:
    """CSS that hides a field until the choice it belongs to is picked (works without JavaScript)."""
    rules = []
    for fld in fields:
        if fld.when:
            name, allowed = fld.when
            shown = ",".join(f'input[name="{name}"][value="{v}"]:checked' for v in allowed)
            rules.append(f'form:not(:has({shown})) .w-{fld.name}{{display:none}}')
    return "\n".join(rules)


def game_option_widgets(game: Game, table: Table, names: Sequence[str], values: Mapping, errors: Mapping) -> list[Widget]:
    """The game's own options (first_dealer is asked separately)."""
    return build_widgets(game.options, table, names, values, errors, prefix="opt-")


def options_from_form(game: Game, form: MultiDict, table: Table) -> dict:
    """The game's options from the new-match form's `opt-` fields."""
    return record_from_form(game.options, MultiDict({k[4:]: v for k, v in form.items() if k.startswith("opt-")}), table)
