"""What every game shares: the table, typed field declarations, hand results and replay.

A game module declares its options and hand fields once, as `Field`s; the web forms, the API's
validation and its self-description (`GET /api/v1/games/<key>`) are all built from them. The
rules themselves are pure functions of (state, record) and know nothing of the web or a database.

The shape of every game module:

    class Envite(Game):
        key, name, min_players, max_players, partnerships
        options = (...Field...)          # first_dealer is added for every game
        hand_fields = (...Field...)
        def new_state(self, table, options) -> State
        def validate(self, state, record) -> None          # raise RecordError(message, field)
        def apply(self, state, record) -> HandResult        # record already checked
        def result(self, state, called=False) -> Result       # called: the table called `finish`
        def ends_by_call(self, options) -> bool             # only games with no natural end
        def scores(self, state) -> list[int]                # one number per side, the game's unit
        def public_state(self, state) -> dict              # the API's `state`
    register(Envite())
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

REQUIRED: Any = object()  # marks a field that has no default: it must be given


class RecordError(ValueError):
    """A record or an option that cannot be taken; `fields` maps field names to what is wrong."""

    def __init__(self, message: str, field: str | None = None, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.fields = dict(fields or {})
        if field is not None:
            self.fields.setdefault(field, message)


class ReplayError(RecordError):
    """A stored hand that is impossible once an earlier hand changed; `number` says which."""

    def __init__(self, number: int, error: RecordError):
        super().__init__(f"Hand {number} would no longer be possible: {error.message}", fields=error.fields)
        self.number = number
        self.reason = error.message


@dataclass(frozen=True)
class Table:
    """Who sits where. Partnership games alternate sides around the table (seat i on side i % 2)."""

    players: int
    partnerships: bool

    @property
    def sides(self) -> int:
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> list[int]:
        return [seat for seat in range(self.players) if self.side_of(seat) == side]

    def next_seat(self, seat: int) -> int:
        """The next seat in play order (the order the players were listed in)."""
        return (seat + 1) % self.players


@dataclass(frozen=True)
class Field:
    """One typed value of an option or a hand record.

    type is one of:
      "side"     a side index (0 .. sides-1); `nullable` allows null
      "seat"     a seat index (0 .. players-1)
      "int"      a whole number in [min, max]
      "choice"   one of `choices` (strings or numbers, compared exactly)
      "bool"     true or false
      "per_side" a list of whole numbers in [min, max], one per side (adding up to `total`, if set)
      "cards"    a list, one per side, of five card codes such as "AS" or "TD"
      "group"    an object made of the sub-`fields`
    `when` = (other field, allowed values): the field only belongs to the record when the other
    field has one of those values (forms hide it otherwise; the game's validate enforces it).
    """

    name: str
    type: str
    help: str
    default: Any = REQUIRED
    choices: tuple = ()
    min: int | None = None
    max: int | None = None
    nullable: bool = False
    fields: tuple[Field, ...] = ()
    when: tuple[str, tuple] | None = None
    label: str | None = None
    total: int | None = None  # per_side: the numbers always add up to this (tricks in a hand)

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def title(self) -> str:
        return self.label or self.name.replace("_", " ").capitalize()

    def describe(self) -> dict:
        """The field as the API's self-description shows it."""
        out: dict[str, Any] = {"name": self.name, "type": self.type, "help": self.help}
        out["required"] = self.required
        if not self.required:
            out["default"] = self.default
        if self.choices:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.nullable:
            out["nullable"] = True
        if self.fields:
            out["fields"] = [sub.describe() for sub in self.fields]
        if self.when:
            out["when"] = {"field": self.when[0], "values": list(self.when[1])}
        if self.total is not None:
            out["total"] = self.total
        return out

    def parse(self, value: Any, table: Table) -> Any:
        """The value in its canonical type, or RecordError naming this field."""
        if value is None:
            if self.nullable:
                return None
            raise RecordError(f"{self.title} must be given.", self.name)
        parser = _PARSERS[self.type]
        return parser(self, value, table)


def _whole_number(fld: Field, value: Any, what: str | None = None) -> int:
    what = what or fld.title
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise RecordError(f"{what} must be a whole number.", fld.name)
    try:
        number = int(value) if not isinstance(value, float) else value
    except (TypeError, ValueError):
        raise RecordError(f"{what} must be a whole number.", fld.name) from None
    if isinstance(number, float):
        if not number.is_integer():
            raise RecordError(f"{what} must be a whole number.", fld.name)
        number = int(number)
    return number


def _in_range(fld: Field, number: int, low: int | None, high: int | None, what: str | None = None) -> int:
    what = what or fld.title
    if low is not None and number < low:
        raise RecordError(f"{what} must be at least {low}.", fld.name)
    if high is not None and number > high:
        raise RecordError(f"{what} must be at most {high}.", fld.name)
    return number


def _parse_side(fld: Field, value: Any, table: Table) -> int:
    number = _whole_number(fld, value)
    if not 0 <= number < table.sides:
        raise RecordError(f"{fld.title} must name a side, 0 to {table.sides - 1}.", fld.name)
    return number


def _parse_seat(fld: Field, value: Any, table: Table) -> int:
    number = _whole_number(fld, value)
    if not 0 <= number < table.players:
        raise RecordError(f"{fld.title} must name a seat, 0 to {table.players - 1}.", fld.name)
    return number


def _parse_int(fld: Field, value: Any, table: Table) -> int:
    return _in_range(fld, _whole_number(fld, value), fld.min, fld.max)


def _parse_choice(fld: Field, value: Any, table: Table) -> Any:
    for choice in fld.choices:
        # Forms send text, so "4" matches the choice 4; JSON's true never matches 1.
        if type(value) is type(choice) and value == choice:
            return choice
        if isinstance(value, str) and not isinstance(choice, str) and value == str(choice):
            return choice
    allowed = ", ".join(str(choice) for choice in fld.choices)
    raise RecordError(f"{fld.title} must be one of: {allowed}.", fld.name)


def _parse_bool(fld: Field, value: Any, table: Table) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("true", "on", "1", "yes", 1):
        return True
    if value in ("false", "off", "0", "no", "", 0):
        return False
    raise RecordError(f"{fld.title} must be true or false.", fld.name)


def _parse_per_side(fld: Field, value: Any, table: Table) -> list[int]:
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)) or len(value) != table.sides:
        raise RecordError(f"{fld.title} must be a list of {table.sides} numbers, one per side.", fld.name)
    return [_in_range(fld, _whole_number(fld, item), fld.min, fld.max) for item in value]


CARD_RANKS = "AKQJT98765432"
CARD_SUITS = "SHDC"


def parse_card(text: Any) -> str | None:
    """A card code in canonical form ("10h" -> "TH"), or None if it is not a card."""
    if not isinstance(text, str):
        return None
    code = text.strip().upper().replace("10", "T")
    if len(code) == 2 and code[0] in CARD_RANKS and code[1] in CARD_SUITS:
        return code
    return None


def _parse_cards(fld: Field, value: Any, table: Table) -> list[list[str]]:
    shape = f"{fld.title} must be {table.sides} hands of five cards such as AS, TD or 7C."
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)) or len(value) != table.sides:
        raise RecordError(shape, fld.name)
    hands = []
    for hand in value:
        if isinstance(hand, str):
            hand = hand.replace(",", " ").split()
        if not isinstance(hand, Sequence) or len(hand) != 5:
            raise RecordError(shape, fld.name)
        cards = [parse_card(card) for card in hand]
        if None in cards:
            bad = next(card for card, code in zip(hand, cards) if code is None)
            raise RecordError(f"{fld.title}: {bad!r} is not a card (rank A K Q J T 9..2, suit S H D C).", fld.name)
        hands.append(cards)
    every = [card for hand in hands for card in hand]
    if len(set(every)) != len(every):
        raise RecordError(f"{fld.title}: a card appears twice.", fld.name)
    return hands


def _parse_group(fld: Field, value: Any, table: Table) -> dict:
    if not isinstance(value, Mapping):
        raise RecordError(f"{fld.title} must be an object.", fld.name)
    return parse_fields(fld.fields, value, table, prefix=f"{fld.name}.")


_PARSERS = {
    "side": _parse_side,
    "seat": _parse_seat,
    "int": _parse_int,
    "choice": _parse_choice,
    "bool": _parse_bool,
    "per_side": _parse_per_side,
    "cards": _parse_cards,
    "group": _parse_group,
}


def parse_fields(fields: Sequence[Field], raw: Any, table: Table, prefix: str = "") -> dict:
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
                errors[f"{prefix}{key}"] = message
    if errors:
        first = next(iter(errors.values()))
        raise RecordError(first, fields=errors)
    return parsed


def value(fields: Sequence[Field], record: Mapping, name: str) -> Any:
    """The record's value for `name`, or the field's default when it was not given."""
    if name in record:
        return record[name]
    for fld in fields:
        if fld.name == name:
            return None if fld.required else fld.default
    raise KeyError(name)


@dataclass(frozen=True)
class Reason:
    """One line saying why a score changed; `rule` is the anchor on the game's rules page."""

    text: str
    rule: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class State:
    """What every game keeps between hands; each game extends it with its own frozen fields."""

    table: Table
    options: Mapping[str, Any]
    dealer: int | None
    hands: int = 0

    def evolve(self, **changes: Any) -> State:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class HandResult:
    """A hand applied: the new state, what each side scored (in the game's unit) and why.

    `game_winner` is the side that won a game with this hand (a game inside a match or rubber)."""

    state: State
    changes: list[int]
    reasons: list[Reason]
    game_winner: int | None = None


@dataclass(frozen=True)
class Result:
    """Where the match stands: over or not, the winning side (None: not over, or a draw), a headline."""

    over: bool
    winner: int | None
    headline: str


FIRST_DEALER = Field(
    "first_dealer", "seat", "The seat of the player who deals the first hand.", default=0, label="First dealer"
)


class Game:
    """Base of every game. Subclasses fill in the declarations and the rule methods."""

    key: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    partnerships: ClassVar[bool]
    options: ClassVar[tuple[Field, ...]] = ()
    hand_fields: ClassVar[tuple[Field, ...]] = ()

    # -- declarations -------------------------------------------------------------------------
    @property
    def all_options(self) -> tuple[Field, ...]:
        return (FIRST_DEALER, *self.options)

    def describe(self) -> dict:
        return {
            "key": self.key,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "partnerships": self.partnerships,
            "options": [fld.describe() for fld in self.all_options],
            "hand_fields": [fld.describe() for fld in self.hand_fields],
        }

    def table(self, players: int) -> Table:
        if not self.min_players <= players <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise RecordError(f"{self.name} is played by {span} players.", "players")
        return Table(players, self.partnerships)

    def parse_options(self, raw: Mapping | None, table: Table) -> dict:
        """Every option with its value: the given ones checked, the rest at their defaults."""
        given = parse_fields(self.all_options, raw or {}, table)
        options = {fld.name: given.get(fld.name, fld.default) for fld in self.all_options}
        self.validate_options(options, table)
        return options

    def validate_options(self, options: dict, table: Table) -> None:
        """Checks across options; the default has none."""

    def ends_by_call(self, options: Mapping) -> bool:
        """True when the game has no natural end and the table calls `finish` (Court Piece on time)."""
        return False

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """The hand fields that make sense in this state (the form shows only these)."""
        return self.hand_fields

    def value(self, record: Mapping, name: str) -> Any:
        return value(self.hand_fields, record, name)

    # -- rules --------------------------------------------------------------------------------
    def check(self, state: State, raw: Any) -> dict:
        """The record in canonical form (given keys only), or RecordError saying what is wrong."""
        if self.result(state).over:
            raise RecordError("The match is over: no more hands can be recorded.")
        record = parse_fields(self.hand_fields, raw, state.table)
        self.validate(state, record)
        return record

    def play(self, state: State, raw: Any) -> HandResult:
        return self.apply(state, self.check(state, raw))

    def new_state(self, table: Table, options: Mapping) -> State:
        raise NotImplementedError

    def validate(self, state: State, record: dict) -> None:
        raise NotImplementedError

    def apply(self, state: State, record: Mapping) -> HandResult:
        raise NotImplementedError

    def result(self, state: State, called: bool = False) -> Result:
        raise NotImplementedError

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    def public_state(self, state: State) -> dict:
        raise NotImplementedError


@dataclass
class Replay:
    """Each hand's result and its record in canonical form, in play order."""

    start: State
    results: list[HandResult] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.results[-1].state if self.results else self.start


def replay(game: Game, table: Table, options: Mapping, records: Sequence[Any]) -> Replay:
    """Apply `records` in order from a new game; a record that no longer fits raises ReplayError."""
    done = Replay(game.new_state(table, options))
    for number, raw in enumerate(records, start=1):
        try:
            record = game.check(done.state, raw)
        except RecordError as error:
            raise ReplayError(number, error) from None
        done.results.append(game.apply(done.state, record))
        done.records.append(record)
    return done


def side_name(side: int) -> str:
    """How reason lines name a side: A, B, C..."""
    return "ABCDEFGHIJKL"[side]
