"""Typed fields: what a game declares once for its options and its hand records.

A `Field` is a declaration (name, type, help, default, range...). Its type is an object of one of
the `FieldType` classes below, each with `parse` (a JSON value of exactly the type the contract
gives, in its canonical form, or a RecordError naming the field) and `describe` (what
`GET /api/v1/games/<key>` shows). Parsing is strict: a whole number is an integer (not "3", 3.0 or
true), a bool a bool, a choice one of its own values, a card a two-character code, null only where
the field is nullable. The forms read text: their widgets (scorekeeper/matches/widgets.py) turn it
into these types before the engine sees it.

The engine, not each game, enforces what a declaration says: `required`, `when` (on another
field or on an option), `total`, and a game's alternative record forms (`check_record`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

REQUIRED: Any = object()  # marks a field that has no default: it must be given

CARD_RANKS = "AKQJT98765432"
CARD_SUITS = "SHDC"


class RecordError(ValueError):
    """A record or an option that cannot be taken; `fields` maps field names to what is wrong."""

    def __init__(self, message: str, field: str | None = None, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.fields = dict(fields or {})
        if field is not None:
            self.fields.setdefault(field, message)


@dataclass(frozen=True)
class When:
    """A field that belongs to the record only when another field (or an option) has one of `values`."""

    name: str
    values: tuple
    option: bool = False

    def describe(self) -> dict:
        return {"option" if self.option else "field": self.name, "values": list(self.values)}

    def holds(self, record: Mapping, options: Mapping, defaults: Mapping) -> bool:
        source = options if self.option else record
        current = source.get(self.name, None if self.option else defaults.get(self.name))
        return any(_same(current, allowed) for allowed in self.values)

    def phrase(self) -> str:
        what = ("the option " if self.option else "the ") + self.name.replace("_", " ")
        if all(isinstance(v, bool) for v in self.values) and len(self.values) == 1:
            return f"when {what} is {'ticked' if self.values[0] else 'not ticked'}"
        return f"when {what} is {' or '.join(str(v).replace('_', ' ') for v in self.values)}"


def on_option(name: str, *values: Any) -> When:
    """`when` for a field that exists only under some values of an option."""
    return When(name, tuple(values), option=True)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class Field:
    """One typed value of an option or a hand record.

    `type` names a FieldType (see TYPES). Extra attributes matter only to some types:
    min/max (int, per_side, int_list, side_list's longest list), choices (choice; events' types),
    total (per_side: the numbers always add up to this, `total_in` "a hand"), length/exclude (int_list),
    size/rows/columns/null_hands/ranks (cards, grid), fields (group).
    `when` (a tuple (field, values) or a When): the field belongs to the record only then.
    ask, preset, rare, menu and asked_with only change how the form asks (the API has none of them)."""

    name: str
    type: str
    help: str
    default: Any = REQUIRED
    choices: tuple = ()
    min: int | None = None
    max: int | None = None
    nullable: bool = False
    fields: tuple[Field, ...] = ()
    when: When | tuple | None = None
    label: str | None = None
    ask: str | None = None  # the form's question for it ("Who gets the court?"); else the title
    preset: Any = None  # the form's choice before any tap (the commonest hand); the API has no default
    rare: bool = False  # the form tucks it under "More" (most hands leave it alone)
    total: int | None = None
    total_in: str = "a hand"  # with `total`: what holds it, as the table says ("a deal" has 17 tricks)
    menu: bool = False  # the form offers the choices in a drop-down: a long list its preset mostly answers
    asked_with: str | None = None  # a side the form asks in the same tap as this choice field ("Ann: gin")
    length: int | None = None
    exclude: tuple[int, ...] = ()
    size: int = 5
    rows: int | None = None
    columns: int | None = None
    null_hands: bool = False
    ranks: str = CARD_RANKS

    @classmethod
    def choice(cls, name: str, help: str, enum: type[Enum], *, type: str = "choice", **more: Any) -> Field:
        """A field whose choices are an enum's values in its order (an `events` field: its event
        types). `default` and `preset` may be given as members; the field holds their plain values."""
        for key in ("default", "preset"):
            if isinstance(more.get(key), Enum):
                more[key] = more[key].value
        return cls(name, type, help, choices=tuple(member.value for member in enum), **more)

    def __post_init__(self):
        if isinstance(self.when, tuple):
            object.__setattr__(self, "when", When(self.when[0], tuple(self.when[1])))
        if self.type not in TYPES:
            raise ValueError(f"{self.name}: unknown field type {self.type!r}")

    @property
    def kind(self) -> FieldType:
        return TYPES[self.type]

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def question(self) -> str:
        return self.ask or self.title

    def describe(self) -> dict:
        """The field as the API's self-description shows it."""
        out: dict[str, Any] = {"name": self.name, "type": self.type, "help": self.help, "required": self.required}
        if not self.required:
            out["default"] = self.default
        if self.nullable:
            out["nullable"] = True
        out.update(self.kind.describe(self))
        if self.when:
            out["when"] = self.when.describe()
        return out

    def parse(self, value: Any, table) -> Any:
        """The value in its canonical type, or RecordError naming this field."""
        if value is None:
            if self.nullable:
                return None
            raise RecordError(f"{self.title} cannot be null.", self.name)
        return self.kind.parse(self, value, table)


# -- the types ------------------------------------------------------------------------------------


class FieldType:
    """How one type of value is read and described."""

    name: ClassVar[str]

    def parse(self, fld: Field, value: Any, table) -> Any:
        raise NotImplementedError

    def describe(self, fld: Field) -> dict:
        out: dict[str, Any] = {}
        for attr in ("min", "max", "total"):
            if getattr(fld, attr) is not None:
                out[attr] = getattr(fld, attr)
        if fld.choices:
            out["choices"] = list(fld.choices)
        return out


# Past this a number no longer comes back from JSON as it went in (JavaScript, and the fast JSON reader
# the record layer uses, hold whole numbers to 64 bits or less); no game's number comes near it.
LARGEST_WHOLE = 2**53 - 1


def sent(value: Any) -> str:
    """A value that was refused, as a message quotes it: "3" (text), 3.0, true, null, a list."""
    if isinstance(value, str):
        return json.dumps(_cut(value))  # quoted, control characters escaped
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return _cut(repr(value))
    return "an object" if isinstance(value, Mapping) else "a list" if is_list(value) else type(value).__name__


def _cut(text: str, most: int = 20) -> str:
    return text if len(text) <= most else text[:most] + "..."


def not_sent(value: Any) -> str:
    """", not "3"": what a refusal adds about the value (nothing for a missing one)."""
    return "" if value is None else f", not {sent(value)}"


def whole_number(fld: Field, value: Any, what: str | None = None) -> int:
    """A JSON integer: text ("3"), a float (3.0) and a bool (true) are not whole numbers; a missing one
    (null inside a list: a box the form left empty) is said to be missing."""
    what = what or fld.title
    if value is None:
        raise RecordError(f"{what} is missing.", fld.name)
    if type(value) is not int:
        raise RecordError(f"{what} must be a whole number{not_sent(value)}.", fld.name)
    if abs(value) > LARGEST_WHOLE:
        raise RecordError(f"{what} is too large to be a score.", fld.name)
    return value


def in_range(fld: Field, number: int, low: int | None, high: int | None, what: str | None = None) -> int:
    """The number, or a refusal naming it and the bound it broke ("must be at most 98, not 120")."""
    what = what or fld.title
    if low is not None and number < low:
        raise RecordError(f"{what} must be at least {low}, not {number}.", fld.name)
    if high is not None and number > high:
        raise RecordError(f"{what} must be at most {high}, not {number}.", fld.name)
    return number


def side_named(side: int) -> str:
    """A side as an engine text names it (marked in the app, a letter elsewhere: base.side_name)."""
    from .base import side_name  # base imports this module: the name is only looked up once both are loaded

    return side_name(side)


def total_refusal(fld: Field, added: int) -> RecordError:
    """Numbers that should add up to the field's total and do not, in the table's words."""
    return RecordError(f"The {fld.title.lower()} add up to {added}; {fld.total_in} has {fld.total}.", fld.name)


def is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


class SideType(FieldType):
    name = "side"

    def parse(self, fld, value, table):
        number = whole_number(fld, value)
        if not 0 <= number < table.sides:
            raise RecordError(f"{fld.title} must name a side, 0 to {table.sides - 1}.", fld.name)
        return number


class SeatType(FieldType):
    name = "seat"

    def parse(self, fld, value, table):
        number = whole_number(fld, value)
        if not 0 <= number < table.players:
            raise RecordError(f"{fld.title} must name a seat, 0 to {table.players - 1}.", fld.name)
        return number


class IntType(FieldType):
    name = "int"

    def parse(self, fld, value, table):
        return in_range(fld, whole_number(fld, value), fld.min, fld.max)


class ChoiceType(FieldType):
    name = "choice"

    def parse(self, fld, value, table):
        for choice in fld.choices:
            if _same(value, choice):  # the choice's own type: "4" is not 4, true is not 1
                return choice
        allowed = ", ".join(str(choice) for choice in fld.choices)
        raise RecordError(f"{fld.title} must be one of: {allowed}{not_sent(value)}.", fld.name)


class BoolType(FieldType):
    name = "bool"

    def parse(self, fld, value, table):
        if isinstance(value, bool):
            return value
        raise RecordError(f"{fld.title} must be true or false{not_sent(value)}.", fld.name)


class PerSideType(FieldType):
    """One whole number per side, in min..max; with `total`, they add up to it."""

    name = "per_side"

    def parse(self, fld, value, table):
        if not is_list(value) or len(value) != table.sides:
            raise RecordError(f"{fld.title} must be a list of {table.sides} numbers, one per side.", fld.name)
        given = [item for item in value if type(item) is int]
        if fld.total is not None and None in value and sum(given) > fld.total:
            raise total_refusal(fld, sum(given))  # too many already: what is missing cannot help
        return [in_range(fld, whole_number(fld, item, what), fld.min, fld.max, what)
                for item, what in zip(value, self.each(fld, table))]

    @staticmethod
    def each(fld: Field, table) -> list[str]:
        """How a refusal names each side's number: "Deadwood of B"."""
        return [f"{fld.title} of {side_named(side)}" for side in range(table.sides)]


class SideListType(FieldType):
    """Side indices in the order things happened; repeats allowed, at most `max` of them."""

    name = "side_list"

    def parse(self, fld, value, table):
        if not is_list(value):
            raise RecordError(f"{fld.title} must be a list of sides.", fld.name)
        if fld.max is not None and len(value) > fld.max:
            raise RecordError(f"{fld.title} can list at most {fld.max} sides.", fld.name)
        return [SideType().parse(fld, item, table) for item in value]

    def describe(self, fld):
        return {"max_length": fld.max} if fld.max is not None else {}


class EventsType(FieldType):
    """Things that scored, in order: `{"side": s, "type": t}` with t one of the field's choices."""

    name = "events"

    def parse(self, fld, value, table):
        if not is_list(value):
            raise RecordError(f"{fld.title} must be a list of events.", fld.name)
        if fld.max is not None and len(value) > fld.max:
            raise RecordError(f"{fld.title} can list at most {fld.max} events.", fld.name)
        return [self._event(fld, position, item, table) for position, item in enumerate(value, start=1)]

    def _event(self, fld, position, item, table):
        shape = f"{fld.title}, entry {position}: each entry is {{\"side\": s, \"type\": t}}."
        if not isinstance(item, Mapping) or set(item) != {"side", "type"}:
            raise RecordError(shape, fld.name)
        side = whole_number(fld, item["side"], f"{fld.title}, entry {position}: whose it was")
        if not 0 <= side < table.sides:
            raise RecordError(f"{fld.title}, entry {position}: side must be 0 to {table.sides - 1}.", fld.name)
        kind = item["type"]
        if kind is None:
            raise RecordError(f"{fld.title}, entry {position}: what it was is missing.", fld.name)
        if not isinstance(kind, str) or kind not in fld.choices:
            allowed = ", ".join(fld.choices)
            raise RecordError(f"{fld.title}, entry {position}: type must be one of: {allowed}{not_sent(kind)}.",
                              fld.name)
        return {"side": side, "type": kind}

    def describe(self, fld):
        out = {"types": list(fld.choices)}
        if fld.max is not None:
            out["max_length"] = fld.max
        return out


class IntListType(FieldType):
    """Exactly `length` whole numbers in min..max, none of them in `exclude`."""

    name = "int_list"

    def parse(self, fld, value, table):
        if not is_list(value) or len(value) != fld.length:
            raise RecordError(f"{fld.title} must be a list of {fld.length} whole numbers.", fld.name)
        places = [f"{fld.title}, number {n} of {fld.length}" for n in range(1, fld.length + 1)]
        numbers = [in_range(fld, whole_number(fld, item, what), fld.min, fld.max, what)
                   for item, what in zip(value, places)]
        for number in numbers:
            if number in fld.exclude:
                raise RecordError(f"{fld.title}: {number} is not a possible value.", fld.name)
        return numbers

    def describe(self, fld):
        out = {"length": fld.length, "min": fld.min, "max": fld.max}
        if fld.exclude:
            out["exclude"] = list(fld.exclude)
        return out


def is_card(code: Any, ranks: str = CARD_RANKS) -> bool:
    """A card code of `ranks` exactly as the contract writes it: a rank and a suit ("TH", not "10H")."""
    return isinstance(code, str) and len(code) == 2 and code[0] in ranks and code[1] in CARD_SUITS


def parse_card(text: Any, ranks: str = CARD_RANKS) -> str | None:
    """Card text as a person writes it, in canonical form ("10h" -> "TH"), or None if it is not a card
    of `ranks`. For text (the forms, a pile to count); a record's cards are codes already (`is_card`)."""
    if not isinstance(text, str):
        return None
    code = text.strip().upper().replace("10", "T")
    return code if is_card(code, ranks) else None


def _read_cards(fld: Field, items: Any, shape: str) -> list[str]:
    if not is_list(items):
        raise RecordError(shape, fld.name)
    for card in items:
        if not is_card(card, fld.ranks):
            ten = ", T the ten" if "T" in fld.ranks else ""
            raise RecordError(f"{fld.title}: {sent(card)} is not a card code: a rank ({' '.join(fld.ranks)}{ten}) "
                              f"and a suit (S H D C) such as {fld.ranks[0]}S.", fld.name)
    return list(items)


class CardsType(FieldType):
    """One hand per side, each `size` cards (any number when size is 0); null for a side that
    shows no hand where `null_hands`. No card appears twice."""

    name = "cards"

    def parse(self, fld, value, table):
        count = f"{fld.size} cards" if fld.size else "cards"
        shape = f"{fld.title} must be {table.sides} hands of {count} such as AS, TD or 7C."
        if not is_list(value) or len(value) != table.sides:
            raise RecordError(shape, fld.name)
        hands = []
        for hand in value:
            if hand is None and fld.null_hands:
                hands.append(None)
                continue
            cards = _read_cards(fld, hand, shape)
            if fld.size and len(cards) != fld.size:
                raise RecordError(shape, fld.name)
            hands.append(cards)
        every = [card for hand in hands if hand for card in hand]
        if len(set(every)) != len(every):
            raise RecordError(f"{fld.title}: a card appears twice.", fld.name)
        return hands

    def describe(self, fld):
        out: dict[str, Any] = {"size": fld.size or None, "ranks": fld.ranks}
        if fld.null_hands:
            out["null_hands"] = True
        return out


class GridType(FieldType):
    """`rows` lists of `columns` distinct card codes, top row first."""

    name = "grid"

    def parse(self, fld, value, table):
        shape = f"{fld.title} must be {fld.rows} rows of {fld.columns} cards."
        if not is_list(value) or len(value) != fld.rows:
            raise RecordError(shape, fld.name)
        grid = []
        for row in value:
            cards = _read_cards(fld, row, shape)
            if len(cards) != fld.columns:
                raise RecordError(shape, fld.name)
            grid.append(cards)
        every = [card for row in grid for card in row]
        if len(set(every)) != len(every):
            raise RecordError(f"{fld.title}: a card appears twice.", fld.name)
        return grid

    def describe(self, fld):
        return {"rows": fld.rows, "columns": fld.columns}


class GroupType(FieldType):
    """An object made of the sub-`fields`."""

    name = "group"

    def parse(self, fld, value, table):
        if not isinstance(value, Mapping):
            raise RecordError(f"{fld.title} must be an object{not_sent(value)}.", fld.name)
        return parse_fields(fld.fields, value, table, prefix=f"{fld.name}.")

    def describe(self, fld):
        return {"fields": [sub.describe() for sub in fld.fields]}


TYPES: dict[str, FieldType] = {
    kind.name: kind()
    for kind in (SideType, SeatType, IntType, ChoiceType, BoolType, PerSideType, SideListType, EventsType,
                 IntListType, CardsType, GridType, GroupType)
}


# -- records --------------------------------------------------------------------------------------


def parse_fields(fields: Sequence[Field], raw: Any, table, prefix: str = "") -> dict:
    """Parse the given keys of `raw`: unknown keys and every type error are reported together.

    Keys that were not given stay absent (a game may care whether a field was sent at all)."""
    if not isinstance(raw, Mapping):
        raise RecordError("A record must be an object of named fields.")
    by_name = {fld.name: fld for fld in fields}
    errors: dict[str, str] = {}
    parsed: dict[str, Any] = {}
    for name, value in raw.items():
        fld = by_name.get(name)
        if fld is None:
            errors[f"{prefix}{name}"] = f"{name!r} is not a field of this record."
            continue
        try:
            parsed[name] = fld.parse(value, table)
        except RecordError as error:
            for key, message in error.fields.items():
                errors[f"{prefix}{key}" if not key.startswith(prefix) else key] = message
    if errors:
        first = next(iter(errors.values()))
        raise RecordError(first, fields=errors)
    return parsed


def default_of(fields: Sequence[Field], name: str) -> Any:
    for fld in fields:
        if fld.name == name:
            return None if fld.required else fld.default
    raise KeyError(name)


def value(fields: Sequence[Field], record: Mapping, name: str) -> Any:
    """The record's value for `name`, or the field's default when it was not given."""
    if name in record:
        return record[name]
    return default_of(fields, name)


@dataclass(frozen=True)
class RecordForm:
    """One of a record's alternative shapes: the fields that go together in it. `asked_first`: the
    hand form opens on this one (else on the first), as the table mostly gives it."""

    name: str
    fields: tuple[str, ...]
    help: str = ""
    asked_first: bool = False

    def describe(self) -> dict:
        return {"name": self.name, "fields": list(self.fields), "help": self.help}


def chosen_form(forms: Sequence[RecordForm], record: Mapping, fields: Sequence[Field] = ()) -> RecordForm | None:
    """The form a record uses; RecordError when it mixes two, or when it uses none and every form
    needs something. With no field of any form and nothing needed: the first."""
    if not forms:
        return None
    used = [form for form in forms if any(record.get(name) is not None for name in form.fields)]
    needed = {form.name: [fld.name for fld in fields if fld.required and fld.when is None and fld.name in form.fields]
              for form in forms}
    if not used and all(needed.values()):
        ways = " or ".join(form.help or form.name for form in forms)
        message = f"Give the hand one of these ways: {ways}."
        raise RecordError(message, fields={name: "must be given" for names in needed.values() for name in names})
    if len(used) > 1:
        first, second = used[0], used[1]
        message = (f"Give the hand one way only: {first.help or first.name} or {second.help or second.name}, "
                   f"not both.")
        clash = next(name for name in second.fields if name in record)
        raise RecordError(message, clash)
    return used[0] if used else forms[0]


def check_declarations(fields: Sequence[Field], record: Mapping, options: Mapping,
                       forms: Sequence[RecordForm] = (), prefix: str = "") -> None:
    """What the declarations say, enforced once for every game: forms, `when` and `required`."""
    form = chosen_form(forms, record, fields)
    elsewhere = {name for other in forms if other is not form for name in other.fields}
    defaults = {fld.name: None if fld.required else fld.default for fld in fields}
    for fld in fields:
        belongs = fld.name not in elsewhere and (fld.when is None or fld.when.holds(record, options, defaults))
        if fld.name in record and not belongs:
            if record[fld.name] is None:
                continue  # null for a field that does not belong here says "nothing", as leaving it out does
            if fld.when is not None and fld.name not in elsewhere:
                raise RecordError(f"{fld.title} is only given {when_phrase(fld.when, fields)}: leave it out.",
                                  prefix + fld.name)
            raise RecordError(f"{fld.title} does not go with the rest of this record: leave it out.", prefix + fld.name)
        if belongs and fld.required and fld.name not in record:
            raise RecordError(missing(fld, fields), prefix + fld.name)
        if fld.total is not None and isinstance(record.get(fld.name), list) and sum(record[fld.name]) != fld.total:
            raise RecordError(total_refusal(fld, sum(record[fld.name])).message, prefix + fld.name)
        if fld.type == "group" and isinstance(record.get(fld.name), Mapping):
            check_declarations(fld.fields, record[fld.name], options, prefix=f"{prefix}{fld.name}.")


CHOSEN = ("side", "seat", "choice", "bool")  # types the table answers by choosing, not by giving a number


def missing(fld: Field, fields: Sequence[Field]) -> str:
    """A required field left out, in the table's words: its question when it asks one ("Who laid
    down? Nothing was chosen"), else its name ("Deadwood must be given"), and when it is needed."""
    needed = when_phrase(fld.when, fields) if fld.when is not None else ""
    if fld.ask and fld.ask.endswith("?"):
        nothing = "Nothing was chosen" if fld.type in CHOSEN else "Nothing was given"
        return f"{fld.ask} {nothing}" + (f"; it is needed {needed}." if needed else ".")
    return f"{fld.question} must be given" + (f" {needed}." if needed else ".")


def when_phrase(when: When, fields: Sequence[Field]) -> str:
    """"when the outcome is knock or gin"; for a side or seat, "once the better hand is named" or
    "once “Who closed the stock?” is answered" (its values are indices, which mean nothing to the table)."""
    control = next((fld for fld in fields if fld.name == when.name and not when.option), None)
    if control is None or control.type not in ("side", "seat"):
        return when.phrase()
    if control.ask and control.ask.endswith("?"):
        return f"once “{control.ask}” is answered"
    return f"once the {control.title.lower()} is named"
