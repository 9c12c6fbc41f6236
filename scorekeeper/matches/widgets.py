"""One widget per field type: how a declared field is drawn on a form, read back from the posted
form into the record the API takes, and shown again from a stored record (to edit a hand).

A form posts text; the engine takes JSON's types only. Reading a form turns the text into them here
("3" the number 3, "4" Envite's stake 4, "10h" the card TH, a ticked box true); text that is none
of these is passed on as it is, and the engine's refusal names the field.

Every game's hand form and house rules are drawn by these; no game has a form of its own. Posted
keys are flat: a field `tricks` of two sides posts `tricks-0` and `tricks-1`, a group's member
`at_close-points`, a card `cards-1-4-rank`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from werkzeug.datastructures import MultiDict

from ..games.base import CARD_SUITS, Field, Table, parse_card

BUTTON_LIMIT = 14  # a whole-number range up to this many values shows as buttons, not a box
NONE = "none"  # the form's word for null (a nullable side left to nobody)
MISSING: Any = object()  # nothing of the field was posted: the record leaves it out
SUIT_SIGNS = dict(zip(CARD_SUITS, "♠♥♦♣"))
SHOWN_SLOTS = 4  # list slots shown at once; the rest open under "more"


def card_label(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT_SIGNS[code[1]]


def choice_label(value: Any) -> str:
    return str(value).replace("_", " ").capitalize()


@dataclass
class Widget:
    """One field as the form shows it: its posted key, its kind (the template macro) and its value."""

    key: str
    label: str
    kind: str
    help: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    value: Any = None
    error: str | None = None
    when: tuple[str, tuple[str, ...]] | None = None
    children: list[Widget] = field(default_factory=list)
    low: int | None = None
    high: int | None = None
    slots: int = 0  # list kinds: how many entries the form offers
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Seating:
    """How the form names the table: each side by its players, each seat by its player."""

    table: Table
    names: Sequence[str]

    @property
    def sides(self) -> list[str]:
        labels = []
        for side in range(self.table.sides):
            members = [self.names[seat] for seat in self.table.seats_of(side)]
            labels.append(" & ".join(members))
        return labels

    @property
    def seats(self) -> list[str]:
        return list(self.names)


WHOLE = re.compile(r"[+-]?[0-9]{1,12}")  # ASCII digits only: int() would also take "٣" and any length


def number_from_text(text: str) -> int | str:
    """Posted text as a whole number ("3", "+3", "-1"); any other text stays text."""
    return int(text) if WHOLE.fullmatch(text) else text


def card_from_text(text: str, ranks: str) -> str:
    """A posted card ("TH", "10h") as its code; any other text stays text."""
    return parse_card(text, ranks) or text


def _is_on(value: Any) -> bool:
    return value in ("on", "true", "1", True)


class FieldWidget:
    """The web side of one field type."""

    kind: ClassVar[str]

    def build(self, fld: Field, key: str, seating: Seating, values: Mapping, error: str | None) -> Widget:
        raise NotImplementedError

    def read(self, fld: Field, key: str, form: MultiDict, table: Table) -> Any:
        raw = form.get(key, "").strip()
        if raw == "":
            return MISSING
        return None if (raw == NONE and fld.nullable) else self.typed(fld, raw)

    def typed(self, fld: Field, text: str) -> Any:
        """One posted value as the engine takes it: a whole number (side, seat, int)."""
        return number_from_text(text)

    def show(self, fld: Field, key: str, value: Any) -> dict[str, Any]:
        return {key: NONE if value is None else str(value)}

    @staticmethod
    def common(fld: Field, key: str, error: str | None, kind: str) -> dict:
        when = (fld.when.name, tuple(str(v) for v in fld.when.values)) if fld.when and not fld.when.option else None
        return dict(key=key, label=fld.question, help=fld.help, error=error, when=when, kind=kind)


class ButtonsWidget(FieldWidget):
    """side, seat, choice, and small whole-number ranges: one big button per value."""

    kind = "buttons"

    def build(self, fld, key, seating, values, error):
        return Widget(choices=self.choices(fld, seating), value=self.current(fld, key, values),
                      **self.common(fld, key, error, self.kind))

    def typed(self, fld, text):
        if fld.type == "choice":  # the choice's own value: "4" is Envite's stake 4
            return next((choice for choice in fld.choices if str(choice) == text), text)
        return number_from_text(text)

    @staticmethod
    def current(fld: Field, key: str, values: Mapping) -> str:
        value = values.get(key)
        if value is None and fld.preset is not None:
            value = fld.preset  # the commonest hand, chosen before any tap
        elif value is None and not fld.required and fld.default is not None:
            value = fld.default  # defaults are shown selected
        return "" if value is None else str(value)

    @staticmethod
    def choices(fld: Field, seating: Seating) -> list[tuple[str, str]]:
        if fld.type == "side":
            found = [(str(i), label) for i, label in enumerate(seating.sides)]
            return found + ([(NONE, "Nobody")] if fld.nullable else [])
        if fld.type == "seat":
            found = [(str(i), label) for i, label in enumerate(seating.seats)]
            return found + ([(NONE, "Nobody")] if fld.nullable else [])
        if fld.type == "choice":
            return [(str(value), choice_label(value)) for value in fld.choices]
        return [(str(i), str(i)) for i in range(fld.min, fld.max + 1)]


class NumberWidget(FieldWidget):
    """A whole number over a wide range: a numeric box."""

    kind = "number"

    def build(self, fld, key, seating, values, error):
        return Widget(value=ButtonsWidget.current(fld, key, values), low=fld.min, high=fld.max,
                      **self.common(fld, key, error, self.kind))


class IntWidget(FieldWidget):
    def build(self, fld, key, seating, values, error):
        small = fld.min is not None and fld.max is not None and fld.max - fld.min < BUTTON_LIMIT
        return (BUTTONS if small else NUMBER).build(fld, key, seating, values, error)


class ToggleWidget(FieldWidget):
    kind = "toggle"

    def build(self, fld, key, seating, values, error):
        value = values.get(key)
        on = _is_on(value) if value is not None else fld.default is True
        return Widget(value=on, **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        return True if _is_on(form.get(key)) else MISSING

    def show(self, fld, key, value):
        return {key: "on"} if value else {}


class PerSideWidget(FieldWidget):
    """One number per side; with a fixed total and one side left blank, that side took the rest."""

    kind = "group"

    def build(self, fld, key, seating, values, error):
        children = []
        for side, label in enumerate(seating.sides):
            child = INT.build(fld, f"{key}-{side}", seating, values, None)
            child.label, child.help, child.when = label, "", None
            children.append(child)
        common = self.common(fld, key, error, self.kind)
        if fld.total is not None:
            common["help"] += " Tap one side's number; the other side gets the rest." if seating.table.sides == 2 else ""
        return Widget(children=children, **common)

    def read(self, fld, key, form, table):
        items = [form.get(f"{key}-{i}", "").strip() for i in range(table.sides)]
        if not any(items):
            return MISSING
        numbers = [number_from_text(item) if item else None for item in items]
        if not fld.required and fld.total is None:
            return [0 if number is None else number for number in numbers]  # an optional count left blank: none
        blank = [i for i, number in enumerate(numbers) if number is None]
        filled = [number for number in numbers if number is not None]
        if fld.total is not None and len(blank) == 1 and all(isinstance(number, int) for number in filled):
            numbers[blank[0]] = fld.total - sum(filled)
        return numbers

    def show(self, fld, key, value):
        return {f"{key}-{i}": str(v) for i, v in enumerate(value)}


class GroupWidget(FieldWidget):
    kind = "group"

    # Built by build_widgets, which hands each member its own error.

    def read(self, fld, key, form, table):
        group = {sub.name: widget_for(sub).read(sub, f"{key}-{sub.name}", form, table) for sub in fld.fields}
        group = {name: v for name, v in group.items() if v is not MISSING}
        return group or MISSING

    def show(self, fld, key, value):
        return values_from_record(fld.fields, value or {}, prefix=key + "-")


class SlotsWidget(FieldWidget):
    """An ordered list (side_list, events, int_list): a row of choosers per entry, in order."""

    kind = "slots"

    def slots(self, fld: Field) -> int:
        return fld.length if fld.type == "int_list" else (fld.max or 8)

    def parts(self, fld: Field, seating: Seating) -> list[tuple[str, list[tuple[str, str]]]]:
        """(part suffix, choices) for one entry: its side, its type, or its number."""
        if fld.type == "events":
            return [("side", ButtonsWidget.choices(Field("s", "side", ""), seating)),
                    ("type", [(t, choice_label(t)) for t in fld.choices])]
        if fld.type == "int_list":
            return [("", [(str(n), str(n)) for n in range(fld.min, fld.max + 1) if n not in fld.exclude])]
        return [("", ButtonsWidget.choices(Field("s", "side", ""), seating))]

    def build(self, fld, key, seating, values, error):
        count = self.slots(fld)
        parts = self.parts(fld, seating)
        entries = [[(f"{key}-{i}{'-' + part if part else ''}", choices,
                     str(values.get(f"{key}-{i}{'-' + part if part else ''}", "")))
                    for part, choices in parts] for i in range(count)]
        shown = count if fld.type == "int_list" else SHOWN_SLOTS
        return Widget(value=entries, slots=shown, extra={"required": fld.type == "int_list"},
                      **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        entries = []
        for i in range(self.slots(fld)):
            if fld.type == "events":
                side, kind = form.get(f"{key}-{i}-side", "").strip(), form.get(f"{key}-{i}-type", "").strip()
                if side or kind:
                    entries.append({"side": number_from_text(side) if side else None, "type": kind or None})
            else:
                item = form.get(f"{key}-{i}", "").strip()
                if item or fld.type == "int_list":
                    entries.append(number_from_text(item) if item else None)
        if fld.type == "int_list":
            return MISSING if all(entry is None for entry in entries) else entries
        return entries if entries else MISSING

    def show(self, fld, key, value):
        shown = {}
        for i, entry in enumerate(value or []):
            if fld.type == "events":
                shown[f"{key}-{i}-side"], shown[f"{key}-{i}-type"] = str(entry["side"]), entry["type"]
            else:
                shown[f"{key}-{i}"] = str(entry)
        return shown


class CardsWidget(FieldWidget):
    """Hands of cards: a rank and a suit chooser per card, or, for piles of any size, a tap per card."""

    kind = "cards"

    def build(self, fld, key, seating, values, error):
        getlist = values.getlist if hasattr(values, "getlist") else (lambda k: values.get(k, []) or [])
        hands = []
        for side, label in enumerate(seating.sides):
            if fld.size:
                picks = [(str(values.get(f"{key}-{side}-{n}-rank", "")), str(values.get(f"{key}-{side}-{n}-suit", "")))
                         for n in range(fld.size)]
            else:
                chosen = set(getlist(f"{key}-{side}"))
                picks = [(code, card_label(code), code in chosen) for code in deck(fld.ranks)]
            hands.append({"side": side, "label": label, "picks": picks})
        ranks = [(r, "10" if r == "T" else r) for r in fld.ranks]
        return Widget(value=hands, extra={"ranks": ranks, "suits": list(SUIT_SIGNS.items()), "size": fld.size,
                                          "open": any(_filled(hand["picks"]) for hand in hands)},
                      **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        if fld.size:
            hands = [[form.get(f"{key}-{side}-{n}-rank", "") + form.get(f"{key}-{side}-{n}-suit", "")
                      for n in range(fld.size)] for side in range(table.sides)]
            hands = [[card for card in hand if card] if not any(hand) or all(hand) else hand for hand in hands]
        else:
            hands = [form.getlist(f"{key}-{side}") for side in range(table.sides)]
        if not any(hands):
            return MISSING
        return [[card_from_text(card, fld.ranks) for card in hand] if hand else (None if fld.null_hands else [])
                for hand in hands]

    def show(self, fld, key, value):
        shown: dict[str, Any] = {}
        for side, hand in enumerate(value or []):
            if hand is None:
                continue
            if not fld.size:
                shown[f"{key}-{side}"] = list(hand)
                continue
            for n, card in enumerate(hand):
                shown[f"{key}-{side}-{n}-rank"], shown[f"{key}-{side}-{n}-suit"] = card[0], card[1]
        return shown


class GridWidget(FieldWidget):
    """A layout of cards, row by row: a rank and a suit chooser per place."""

    kind = "grid"

    def build(self, fld, key, seating, values, error):
        rows = [[(str(values.get(f"{key}-{r}-{c}-rank", "")), str(values.get(f"{key}-{r}-{c}-suit", "")))
                 for c in range(fld.columns)] for r in range(fld.rows)]
        ranks = [(r, "10" if r == "T" else r) for r in fld.ranks]
        return Widget(value=rows, extra={"ranks": ranks, "suits": list(SUIT_SIGNS.items()),
                                         "open": any(_filled(row) for row in rows)},
                      **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        rows = [[form.get(f"{key}-{r}-{c}-rank", "") + form.get(f"{key}-{r}-{c}-suit", "")
                 for c in range(fld.columns)] for r in range(fld.rows)]
        if not any(card for row in rows for card in row):
            return MISSING
        return [[card_from_text(card, fld.ranks) for card in row] for row in rows]

    def show(self, fld, key, value):
        shown = {}
        for r, row in enumerate(value or []):
            for c, card in enumerate(row):
                shown[f"{key}-{r}-{c}-rank"], shown[f"{key}-{r}-{c}-suit"] = card[0], card[1]
        return shown


def _filled(picks) -> bool:
    return any((pick[2] if len(pick) == 3 else pick[0] or pick[1]) for pick in picks)


def deck(ranks: str) -> list[str]:
    return [rank + suit for suit in CARD_SUITS for rank in ranks]


BUTTONS, NUMBER, INT = ButtonsWidget(), NumberWidget(), IntWidget()
WIDGETS: dict[str, FieldWidget] = {
    "side": BUTTONS, "seat": BUTTONS, "choice": BUTTONS, "int": INT, "bool": ToggleWidget(),
    "per_side": PerSideWidget(), "group": GroupWidget(), "side_list": SlotsWidget(), "events": SlotsWidget(),
    "int_list": SlotsWidget(), "cards": CardsWidget(), "grid": GridWidget(),
}


@dataclass
class Section:
    """A part of the hand form: the usual questions, the rare ones under "More", or another way
    to give the whole hand (a record form) under its own heading."""

    title: str | None
    widgets: list[Widget]
    opened: bool = False


def form_sections(fields: Sequence[Field], forms, seating: Seating, values: Mapping, errors: Mapping) -> list[Section]:
    """The hand form in sections: the first record form with the common fields, then the rare
    fields, then each other record form, folded until used."""
    other_forms = list(forms[1:]) if forms else []
    elsewhere = {name for form in other_forms for name in form.fields}
    main = [fld for fld in fields if fld.name not in elsewhere and not fld.rare]
    rare = [fld for fld in fields if fld.name not in elsewhere and fld.rare]
    sections = [Section(None, build_widgets(main, seating, values, errors), True)]
    if rare:
        sections.append(_folded("More", rare, seating, values, errors))
    for form in other_forms:
        members = [fld for fld in fields if fld.name in form.fields]
        sections.append(_folded(f"Or give {form.help or form.name}", members, seating, values, errors))
    return sections


def _folded(title: str, fields: Sequence[Field], seating: Seating, values: Mapping, errors: Mapping) -> Section:
    names = tuple(fld.name for fld in fields)
    used = any(key.startswith(names) and value not in ("", None, "0", []) for key, value in values.items())
    failed = any(key.split(".")[0].split("-")[0] in names for key in errors)
    return Section(title, build_widgets(fields, seating, values, errors), used or failed)


def widget_for(fld: Field) -> FieldWidget:
    return WIDGETS[fld.type]


def build_widgets(fields: Sequence[Field], seating: Seating, values: Mapping, errors: Mapping,
                  prefix: str = "") -> list[Widget]:
    """Widgets for `fields`, filled with the posted `values` (flat form keys) and `errors`."""
    widgets = []
    for fld in fields:
        key = prefix + fld.name
        error = errors.get(key.replace("-", ".")) or errors.get(key)
        if fld.type == "group":
            children = build_widgets(fld.fields, seating, values, errors, prefix=key + "-")
            widgets.append(Widget(children=children, **FieldWidget.common(fld, key, error, "group")))
        else:
            widgets.append(widget_for(fld).build(fld, key, seating, values, error))
    return widgets


def _controls_by_toggle(fields: Sequence[Field], fld: Field) -> bool:
    """The field's `when` names a bool field (a toggle: unticked posts nothing)."""
    return any(other.name == fld.when.name and other.type == "bool" for other in fields)


def _shown(fields: Sequence[Field], fld: Field, form: MultiDict) -> bool:
    """Whether the form shows `fld`, given the choice its `when` names."""
    if fld.when is None or fld.when.option:
        return True
    if _controls_by_toggle(fields, fld):
        return _is_on(form.get(fld.when.name)) in fld.when.values
    return str(form.get(fld.when.name, "")) in {str(v) for v in fld.when.values}


def record_from_form(fields: Sequence[Field], form: MultiDict, table: Table) -> dict:
    """The record the API would take, from flat form keys; fields hidden by `when` are left out."""
    record: dict[str, Any] = {}
    for fld in fields:
        if not _shown(fields, fld, form):
            continue
        found = widget_for(fld).read(fld, fld.name, form, table)
        if found is not MISSING:
            record[fld.name] = found
    return record


def values_from_record(fields: Sequence[Field], record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Flat form values that show a stored record (to edit a hand)."""
    values: dict[str, Any] = {}
    for fld in fields:
        if fld.name in record and (record[fld.name] is not None or fld.nullable):
            values.update(widget_for(fld).show(fld, prefix + fld.name, record[fld.name]))
    return values


def hidden_rules_css(fields: Sequence[Field], prefix: str = "") -> str:
    """CSS that hides a field until the choice it belongs to is picked (works without JavaScript);
    inside a group the rule looks at the group's own choice ("Best hand" shows its category)."""
    rules = []
    for fld in fields:
        if fld.fields:
            rules.append(hidden_rules_css(fld.fields, prefix=f"{prefix}{fld.name}-"))
        if not fld.when or fld.when.option:
            continue
        control, target = f"{prefix}{fld.when.name}", f".w-{prefix}{fld.name}"
        if _controls_by_toggle(fields, fld):
            ticked = f'input[name="{control}"]:checked'
            if True not in fld.when.values:
                rules.append(f'form:has({ticked}) {target}{{display:none}}')
            if False not in fld.when.values:
                rules.append(f'form:not(:has({ticked})) {target}{{display:none}}')
            continue
        shown = ",".join(f'input[name="{control}"][value="{v}"]:checked' for v in fld.when.values)
        rules.append(f'form:not(:has({shown})) {target}{{display:none}}')
    return "\n".join(rule for rule in rules if rule)
