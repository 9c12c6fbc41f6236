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

from .texts import Text, counted, declared, joined, msg, side_name, verbatim

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

    def phrase(self) -> Text:
        name = _declared_words(self.name)
        if all(isinstance(v, bool) for v in self.values) and len(self.values) == 1:
            if self.option:
                return (
                    msg("when the option %(name)s is ticked", name=name)
                    if self.values[0]
                    else msg("when the option %(name)s is not ticked", name=name)
                )
            return (
                msg("when the %(name)s is ticked", name=name)
                if self.values[0]
                else msg("when the %(name)s is not ticked", name=name)
            )
        values = either(_when_value(v) for v in self.values)
        if self.option:
            return msg("when the option %(name)s is %(values)s", name=name, values=values)
        return msg("when the %(name)s is %(values)s", name=name, values=values)


def _declared_words(name: str) -> Text:
    """A declared name (a field's, a choice's) in small words, "play on" for play_on: in other
    languages the title the form gives it ("Play on"), which the catalogs hold."""
    text = name.replace("_", " ")
    return declared(text[:1].upper() + text[1:], lower=True) if text == text.lower() else declared(text)


def _when_value(value: Any) -> Any:
    """One value of a `when` as its phrase says it: a choice in small letters ("knock", "play on"),
    a number as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return _declared_words(str(value))


def either(items: Any) -> Any:
    """ "a or b or c": things one of which will do, each said as it is (a Text when there are several)."""
    items = list(items)
    said = items[0]
    for item in items[1:]:
        said = msg("%(first)s or %(second)s", first=said, second=item)
    return said


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
    ask, ask_help, preset, rare, menu, asked_with and choice_labels only change how the form asks (the API has
    none of them)."""

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
    ask_help: str | None = None  # the form's help where it asks otherwise than the record; else `help`
    preset: Any = None  # the form's choice before any tap (the commonest hand); the API has no default
    rare: bool = False  # the form tucks it under "More" (most hands leave it alone); a group's member too
    total: int | None = None
    total_in: str = "a hand"  # with `total`: what holds it, as the table says ("a deal" has 17 tricks)
    menu: bool = False  # the form offers the choices in a drop-down: a long list its preset mostly answers
    asked_with: str | None = None  # a side the form asks in the same tap as this choice field ("Ann: gin")
    # How the form names a choice whose value is not the table's word ({"caida": "Caída"}); any other
    # choice is named by its value in words ("four_of_a_kind": "Four of a kind").
    choice_labels: Mapping[Any, str] | tuple = ()
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
        if isinstance(self.choice_labels, Mapping):  # kept as pairs: a Field stays hashable
            pairs = tuple(
                (choice.value if isinstance(choice, Enum) else choice, label)
                for choice, label in self.choice_labels.items()
            )
            object.__setattr__(self, "choice_labels", pairs)
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

    @property
    def form_help(self) -> str:
        return self.ask_help or self.help

    def choice_label(self, choice: Any) -> str:
        """A choice as the form names it, in English: its declared label, else its value in words
        ("ten_trumps": "Ten trumps")."""
        return dict(self.choice_labels).get(choice) or str(choice).replace("_", " ").capitalize()

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
            raise RecordError(msg("%(field)s cannot be null.", field=declared(self.title)), self.name)
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
        return verbatim(json.dumps(_cut(value)))  # quoted, control characters escaped
    if isinstance(value, bool) or value is None:
        return verbatim(json.dumps(value))
    if isinstance(value, (int, float)):
        return verbatim(_cut(repr(value)))
    if isinstance(value, Mapping):
        return msg("an object")
    return msg("a list") if is_list(value) else verbatim(type(value).__name__)


def _cut(text: str, most: int = 20) -> str:
    return text if len(text) <= most else text[:most] + "..."


def not_sent(value: Any) -> str:
    """ ", not "3"": what a refusal adds about the value (nothing for a missing one)."""
    return "" if value is None else msg(", not %(value)s", value=sent(value))


def whole_number(fld: Field, value: Any, what: str | None = None) -> int:
    """A JSON integer: text ("3"), a float (3.0) and a bool (true) are not whole numbers; a missing one
    (null inside a list: a box the form left empty) is said to be missing."""
    what = what or declared(fld.title)
    if value is None:
        raise RecordError(msg("%(what)s is missing.", what=what), fld.name)
    if type(value) is not int:
        raise RecordError(
            msg("%(what)s must be a whole number, not %(value)s.", what=what, value=sent(value)), fld.name
        )
    if abs(value) > LARGEST_WHOLE:
        raise RecordError(msg("%(what)s is too large to be a score.", what=what), fld.name)
    return value


def in_range(fld: Field, number: int, low: int | None, high: int | None, what: str | None = None) -> int:
    """The number, or a refusal naming it and the bound it broke ("must be at most 98, not 120")."""
    what = what or declared(fld.title)
    if low is not None and number < low:
        raise RecordError(
            msg("%(what)s must be at least %(low)s, not %(number)s.", what=what, low=low, number=number), fld.name
        )
    if high is not None and number > high:
        raise RecordError(
            msg("%(what)s must be at most %(high)s, not %(number)s.", what=what, high=high, number=number), fld.name
        )
    return number


def side_named(side: int) -> str:
    """A side as an engine text names it (marked in the app, a letter elsewhere: base.side_name)."""
    return side_name(side)


def total_refusal(fld: Field, added: int) -> RecordError:
    """Numbers that should add up to the field's total and do not, in the table's words."""
    return RecordError(
        msg(
            "The %(field)s add up to %(added)s; %(whole)s has %(total)s.",
            field=declared(fld.title, lower=True),
            added=added,
            whole=declared(fld.total_in),
            total=fld.total,
        ),
        fld.name,
    )


def choices_allowed(choices: Sequence) -> Text:
    """ "knock, gin, undercut": the values a choice takes, as a refusal lists them (the game
    declares them; a number stays a number)."""
    return joined(
        [
            choice if isinstance(choice, int) and not isinstance(choice, bool) else declared(str(choice))
            for choice in choices
        ],
        ", ",
    )


def is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


class SideType(FieldType):
    name = "side"

    def parse(self, fld, value, table):
        number = whole_number(fld, value)
        if not 0 <= number < table.sides:
            raise RecordError(
                msg("%(field)s must name a side, 0 to %(last)s.", field=declared(fld.title), last=table.sides - 1),
                fld.name,
            )
        return number


class SeatType(FieldType):
    name = "seat"

    def parse(self, fld, value, table):
        number = whole_number(fld, value)
        if not 0 <= number < table.players:
            raise RecordError(
                msg("%(field)s must name a seat, 0 to %(last)s.", field=declared(fld.title), last=table.players - 1),
                fld.name,
            )
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
        raise RecordError(
            msg(
                "%(field)s must be one of: %(allowed)s, not %(value)s.",
                field=declared(fld.title),
                allowed=choices_allowed(fld.choices),
                value=sent(value),
            ),
            fld.name,
        )


class BoolType(FieldType):
    name = "bool"

    def parse(self, fld, value, table):
        if isinstance(value, bool):
            return value
        raise RecordError(
            msg("%(field)s must be true or false, not %(value)s.", field=declared(fld.title), value=sent(value)),
            fld.name,
        )


class PerSideType(FieldType):
    """One whole number per side, in min..max; with `total`, they add up to it."""

    name = "per_side"

    def parse(self, fld, value, table):
        if not is_list(value) or len(value) != table.sides:
            raise RecordError(
                counted(
                    table.sides,
                    "%(field)s must be a list of %(num)s number, one per side.",
                    "%(field)s must be a list of %(num)s numbers, one per side.",
                    field=declared(fld.title),
                ),
                fld.name,
            )
        given = [item for item in value if type(item) is int]
        if fld.total is not None and None in value and sum(given) > fld.total:
            raise total_refusal(fld, sum(given))  # too many already: what is missing cannot help
        return [
            in_range(fld, whole_number(fld, item, what), fld.min, fld.max, what)
            for item, what in zip(value, self.each(fld, table))
        ]

    @staticmethod
    def each(fld: Field, table) -> list[Text]:
        """How a refusal names each side's number: "Deadwood of B"."""
        return [
            msg("%(field)s of %(side)s", field=declared(fld.title), side=side_named(side))
            for side in range(table.sides)
        ]


class SideListType(FieldType):
    """Side indices in the order things happened; repeats allowed, at most `max` of them."""

    name = "side_list"

    def parse(self, fld, value, table):
        if not is_list(value):
            raise RecordError(msg("%(field)s must be a list of sides.", field=declared(fld.title)), fld.name)
        if fld.max is not None and len(value) > fld.max:
            raise RecordError(
                counted(
                    fld.max,
                    "%(field)s can list at most %(num)s side.",
                    "%(field)s can list at most %(num)s sides.",
                    field=declared(fld.title),
                ),
                fld.name,
            )
        return [SideType().parse(fld, item, table) for item in value]

    def describe(self, fld):
        return {"max_length": fld.max} if fld.max is not None else {}


class EventsType(FieldType):
    """Things that scored, in order: `{"side": s, "type": t}` with t one of the field's choices."""

    name = "events"

    def parse(self, fld, value, table):
        if not is_list(value):
            raise RecordError(msg("%(field)s must be a list of events.", field=declared(fld.title)), fld.name)
        if fld.max is not None and len(value) > fld.max:
            raise RecordError(
                counted(
                    fld.max,
                    "%(field)s can list at most %(num)s event.",
                    "%(field)s can list at most %(num)s events.",
                    field=declared(fld.title),
                ),
                fld.name,
            )
        return [self._event(fld, position, item, table) for position, item in enumerate(value, start=1)]

    def _event(self, fld, position, item, table):
        title = declared(fld.title)
        if not isinstance(item, Mapping) or set(item) != {"side", "type"}:
            raise RecordError(
                msg(
                    '%(field)s, entry %(position)s: each entry is {"side": s, "type": t}.',
                    field=title,
                    position=position,
                ),
                fld.name,
            )
        side = whole_number(
            fld, item["side"], msg("%(field)s, entry %(position)s: whose it was", field=title, position=position)
        )
        if not 0 <= side < table.sides:
            raise RecordError(
                msg(
                    "%(field)s, entry %(position)s: side must be 0 to %(last)s.",
                    field=title,
                    position=position,
                    last=table.sides - 1,
                ),
                fld.name,
            )
        kind = item["type"]
        if kind is None:
            raise RecordError(
                msg("%(field)s, entry %(position)s: what it was is missing.", field=title, position=position), fld.name
            )
        if not isinstance(kind, str) or kind not in fld.choices:
            raise RecordError(
                msg(
                    "%(field)s, entry %(position)s: type must be one of: %(allowed)s, not %(value)s.",
                    field=title,
                    position=position,
                    allowed=choices_allowed(fld.choices),
                    value=sent(kind),
                ),
                fld.name,
            )
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
            raise RecordError(
                counted(
                    fld.length,
                    "%(field)s must be a list of %(num)s whole number.",
                    "%(field)s must be a list of %(num)s whole numbers.",
                    field=declared(fld.title),
                ),
                fld.name,
            )
        places = [
            msg("%(field)s, number %(number)s of %(length)s", field=declared(fld.title), number=n, length=fld.length)
            for n in range(1, fld.length + 1)
        ]
        numbers = [
            in_range(fld, whole_number(fld, item, what), fld.min, fld.max, what) for item, what in zip(value, places)
        ]
        for number in numbers:
            if number in fld.exclude:
                raise RecordError(
                    msg("%(field)s: %(number)s is not a possible value.", field=declared(fld.title), number=number),
                    fld.name,
                )
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


def _read_cards(fld: Field, items: Any, shape: Text) -> list[str]:
    if not is_list(items):
        raise RecordError(shape, fld.name)
    for card in items:
        if not is_card(card, fld.ranks):
            values = {
                "field": declared(fld.title),
                "card": sent(card),
                "ranks": " ".join(fld.ranks),
                "example": f"{fld.ranks[0]}S",
            }
            if "T" in fld.ranks:
                message = msg(
                    "%(field)s: %(card)s is not a card code: a rank (%(ranks)s, T the ten) "
                    "and a suit (S H D C) such as %(example)s.",
                    **values,
                )
            else:
                message = msg(
                    "%(field)s: %(card)s is not a card code: a rank (%(ranks)s) "
                    "and a suit (S H D C) such as %(example)s.",
                    **values,
                )
            raise RecordError(message, fld.name)
    return list(items)


class CardsType(FieldType):
    """One hand per side, each `size` cards (any number when size is 0); null for a side that
    shows no hand where `null_hands`. No card appears twice."""

    name = "cards"

    def parse(self, fld, value, table):
        if fld.size:
            shape = msg(
                "%(field)s must be %(sides)s hands of %(size)s cards such as AS, TD or 7C.",
                field=declared(fld.title),
                sides=table.sides,
                size=fld.size,
            )
        else:
            shape = msg(
                "%(field)s must be %(sides)s hands of cards such as AS, TD or 7C.",
                field=declared(fld.title),
                sides=table.sides,
            )
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
            raise RecordError(msg("%(field)s: a card appears twice.", field=declared(fld.title)), fld.name)
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
        shape = msg(
            "%(field)s must be %(rows)s rows of %(columns)s cards.",
            field=declared(fld.title),
            rows=fld.rows,
            columns=fld.columns,
        )
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
            raise RecordError(msg("%(field)s: a card appears twice.", field=declared(fld.title)), fld.name)
        return grid

    def describe(self, fld):
        return {"rows": fld.rows, "columns": fld.columns}


class GroupType(FieldType):
    """An object made of the sub-`fields`."""

    name = "group"

    def parse(self, fld, value, table):
        if not isinstance(value, Mapping):
            raise RecordError(
                msg("%(field)s must be an object, not %(value)s.", field=declared(fld.title), value=sent(value)),
                fld.name,
            )
        return parse_fields(fld.fields, value, table, prefix=f"{fld.name}.")

    def describe(self, fld):
        return {"fields": [sub.describe() for sub in fld.fields]}


TYPES: dict[str, FieldType] = {
    kind.name: kind()
    for kind in (
        SideType,
        SeatType,
        IntType,
        ChoiceType,
        BoolType,
        PerSideType,
        SideListType,
        EventsType,
        IntListType,
        CardsType,
        GridType,
        GroupType,
    )
}


# -- records --------------------------------------------------------------------------------------


def parse_fields(fields: Sequence[Field], raw: Any, table, prefix: str = "") -> dict:
    """Parse the given keys of `raw`: unknown keys and every type error are reported together.

    Keys that were not given stay absent (a game may care whether a field was sent at all)."""
    if not isinstance(raw, Mapping):
        raise RecordError(msg("A record must be an object of named fields."))
    by_name = {fld.name: fld for fld in fields}
    errors: dict[str, str] = {}
    parsed: dict[str, Any] = {}
    for name, value in raw.items():
        fld = by_name.get(name)
        if fld is None:
            errors[f"{prefix}{name}"] = msg("%(name)s is not a field of this record.", name=verbatim(repr(name)))
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
    needed = {
        form.name: [fld.name for fld in fields if fld.required and fld.when is None and fld.name in form.fields]
        for form in forms
    }
    if not used and all(needed.values()):
        ways = either(declared(form.help or form.name) for form in forms)
        message = msg("Give the hand one of these ways: %(ways)s.", ways=ways)
        raise RecordError(message, fields={name: msg("must be given") for names in needed.values() for name in names})
    if len(used) > 1:
        first, second = used[0], used[1]
        message = msg(
            "Give the hand one way only: %(first)s or %(second)s, not both.",
            first=declared(first.help or first.name),
            second=declared(second.help or second.name),
        )
        clash = next(name for name in second.fields if name in record)
        raise RecordError(message, clash)
    return used[0] if used else forms[0]


def check_declarations(
    fields: Sequence[Field], record: Mapping, options: Mapping, forms: Sequence[RecordForm] = (), prefix: str = ""
) -> None:
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
                raise RecordError(
                    msg(
                        "%(field)s is only given %(when)s: leave it out.",
                        field=declared(fld.title),
                        when=when_phrase(fld.when, fields),
                    ),
                    prefix + fld.name,
                )
            raise RecordError(
                msg("%(field)s does not go with the rest of this record: leave it out.", field=declared(fld.title)),
                prefix + fld.name,
            )
        if belongs and fld.required and fld.name not in record:
            raise RecordError(missing(fld, fields), prefix + fld.name)
        if fld.total is not None and isinstance(record.get(fld.name), list) and sum(record[fld.name]) != fld.total:
            raise RecordError(total_refusal(fld, sum(record[fld.name])).message, prefix + fld.name)
        if fld.type == "group" and isinstance(record.get(fld.name), Mapping):
            check_declarations(fld.fields, record[fld.name], options, prefix=f"{prefix}{fld.name}.")


CHOSEN = ("side", "seat", "choice", "bool")  # types the table answers by choosing, not by giving a number


def missing(fld: Field, fields: Sequence[Field]) -> Text:
    """A required field left out, in the table's words: its question when it asks one ("Who laid
    down? Nothing was chosen"), else its name ("Deadwood must be given"), and when it is needed."""
    needed = when_phrase(fld.when, fields) if fld.when is not None else None
    if fld.ask and fld.ask.endswith("?"):
        ask = declared(fld.ask)
        if fld.type in CHOSEN:
            if needed:
                return msg("%(question)s Nothing was chosen; it is needed %(when)s.", question=ask, when=needed)
            return msg("%(question)s Nothing was chosen.", question=ask)
        if needed:
            return msg("%(question)s Nothing was given; it is needed %(when)s.", question=ask, when=needed)
        return msg("%(question)s Nothing was given.", question=ask)
    if needed:
        return msg("%(question)s must be given %(when)s.", question=declared(fld.question), when=needed)
    return msg("%(question)s must be given.", question=declared(fld.question))


def when_phrase(when: When, fields: Sequence[Field]) -> Text:
    """ "when the outcome is knock or gin"; for a side or seat, "once the better hand is named" or
    "once “Who closed the stock?” is answered" (its values are indices, which mean nothing to the table)."""
    control = next((fld for fld in fields if fld.name == when.name and not when.option), None)
    if control is None or control.type not in ("side", "seat"):
        return when.phrase()
    if control.ask and control.ask.endswith("?"):
        return msg("once “%(question)s” is answered", question=declared(control.ask))
    return msg("once the %(field)s is named", field=declared(control.title, lower=True))
