"""What every game shares: the table, the books every game keeps, hand results, boards and replay.

A game module declares its options and hand fields once, as `Field`s (fields.py); the web forms,
the API's validation and its self-description are all built from them. The engine enforces what
the declarations say (required, when, total, alternative forms); a game's `validate` checks only
its own rules. The base keeps the books: it builds the state, counts the hands and moves the deal.

The shape of every game module:

    class Rule(StrEnum): ...                     # the anchors of its rules page (section ids)
    @dataclass(frozen=True)
    class OmiState(State): points: tuple = ...   # what the game keeps between hands

    class Omi(Race):                             # a Game; or a Race (_race.py), a Session (_session.py)
        key, name, min_players, max_players, partnerships, unit
        hand_word, hand_words = "round", "rounds"  # only where the game's word is not "hand"
        rules = Rule; state_class = OmiState
        deals = True                             # False: nobody deals, no first_dealer option
        options = (...Field...)
        hand_fields = (...Field...)
        record_forms = (RecordForm(...), ...)    # only for records with alternative shapes
        asked_first = ("last_trick",)            # only where the form asks some fields before the record's order
        reference = Reference(...)               # its card in the rules reference (reference.py)
        def start(self, table, options) -> dict              # the state's own fields at the start
        def validate(self, state, record) -> None             # RecordError(message, field)
        def score_hand(self, state, record) -> HandResult     # record already checked
        def next_dealer(self, before, after, record) -> seat  # default: the next seat still in
        def result(self, state, called=False) -> Result        # called: the table called `finish`
        def ends_by_call(self, options) -> bool               # only games with no natural end
        def scores(self, state) -> list[int]                  # one number per side, the game's unit
        def board(self, state) -> Board                        # default: scores, unit, target
        statistics = (Statistic(...), ...)                     # what its table counts (statistics.py)
        hands_on_board = True                                  # only where changes hold points the board leaves out
        sheet = (SheetColumn(...), ...)                        # only where the score sheet keeps more than the board's score
        def public_state(self, state) -> dict                  # the API's `state`
        def example_hand(self, state, rng) -> dict            # a valid record: tests and bench
    GAME = Omi()                                           # the registry finds it by this name

Texts for people are `Text`s (texts.py: `msg`, `counted`, `agreeing`, `joined`, `declared`...): they
name sides with `side_name` and `names` ("A, B and C"), count with `counted` ("1 point", "2 points"),
and choices are `Field.choice(name, help, Enum, default=Enum.MEMBER)`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from .fields import (  # noqa: F401  (re-exported: games import them from here)
    CARD_RANKS,
    CARD_SUITS,
    REQUIRED,
    Field,
    RecordError,
    RecordForm,
    When,
    check_declarations,
    on_option,
    parse_card,
    parse_fields,
    value,
)
from .reference import Reference
from .sheet import SheetColumn
from .statistics import Statistic
from .texts import (  # noqa: F401  (re-exported: games import them from here)
    LETTERS,
    Text,
    agreeing,
    counted,
    declared,
    joined,
    listing,
    mark_sides,
    marked_sides,
    msg,
    render,
    side_marking,
    side_name,
    times,
    verbatim,
)


class ReplayError(RecordError):
    """A stored hand that is impossible once an earlier hand changed; `number` says which (the
    hand named by `word`, the game's own word for it)."""

    def __init__(self, number: int, error: RecordError, word: str = "hand"):
        super().__init__(
            msg(
                "%(hand)s %(number)s would no longer be possible: %(reason)s",
                hand=declared(word, capital=True),
                number=number,
                reason=error.message,
            ),
            fields=error.fields,
        )
        self.number = number
        self.reason = error.message


@dataclass(frozen=True)
class Table:
    """Who sits where: any number of players, each seat on a side.

    By default a partnership game alternates sides around the table (seat i on side i % 2) and
    any other game gives each player a side of their own; `seat_sides` says otherwise."""

    players: int
    partnerships: bool = False
    seat_sides: tuple[int, ...] | None = None

    def __post_init__(self):
        if self.seat_sides is None:
            sides = tuple(seat % 2 if self.partnerships else seat for seat in range(self.players))
            object.__setattr__(self, "seat_sides", sides)

    @property
    def sides(self) -> int:
        return max(self.seat_sides) + 1 if self.seat_sides else 0

    def side_of(self, seat: int) -> int:
        return self.seat_sides[seat]

    def seats_of(self, side: int) -> list[int]:
        return [seat for seat in range(self.players) if self.side_of(seat) == side]

    def next_seat(self, seat: int, skip: Sequence[int] = ()) -> int:
        """The next seat in play order (the order the players were listed in), past any in `skip`."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate not in skip:
                return candidate
        return seat

    def other(self, side: int) -> int:
        """The other side, at a table of two sides."""
        return 1 - side

    def zeros(self) -> tuple[int, ...]:
        return (0,) * self.sides


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
    called: bool = False  # the table called `finish` (set on the state shown, never by a hand)

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


def added(totals: Sequence[int], changes: Sequence[int]) -> tuple[int, ...]:
    """Each side's running total once a hand's changes are counted in."""
    return tuple(total + change for total, change in zip(totals, changes))


def only(side: int, amount: int, sides: int) -> list[int]:
    """The changes of a hand that only `side` scores in: `amount` for it, 0 for every other side."""
    return [amount if each == side else 0 for each in range(sides)]


WON, SHARED, LOST, DRAWN = "won", "shared", "lost", "drawn"


@dataclass(frozen=True)
class Result:
    """Where the match stands, and once it is over, who won.

    `winner`: the one winning side, or None (not over, a draw, a shared win, or a game that
    names losers). `winners`: the sides that share a win. `losers`: the sides a game names as
    losers when it names no winner. `ranking`: every side, best first, where the game ranks them.
    `out`: the sides out of play, in the order they went out."""

    over: bool
    winner: int | None
    headline: str
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    out: tuple[int, ...] = ()

    def outcome(self, side: int) -> str | None:
        """'won', 'shared', 'lost' or 'drawn' for a side of a match that is over; None in play."""
        if not self.over:
            return None
        if self.winner is not None:
            return WON if side == self.winner else LOST
        if self.winners:
            return (SHARED if len(self.winners) > 1 else WON) if side in self.winners else LOST
        if self.losers:
            return LOST if side in self.losers else SHARED
        return DRAWN


@dataclass(frozen=True)
class SideBoard:
    """One side's corner of the scoreboard: its score in the game's unit, toward a target."""

    score: int
    unit: str
    target: int | None = None
    lines: tuple[str, ...] = ()  # the game's own lines for this side: "Games: 1 of 2"
    flag: str | None = None  # a state worth shouting: "Lying down", "Out"

    @property
    def unit_for_score(self) -> str:
        """ "1 court", "2 courts": the unit in the singular for exactly one."""
        return self.unit[:-1] if self.score in (1, -1) and self.unit.endswith("s") else self.unit


@dataclass(frozen=True)
class Board:
    """The scoreboard a game declares; one template draws every game's board."""

    sides: tuple[SideBoard, ...]
    lines: tuple[str, ...] = ()  # lines for the whole table: a streak, a pot, what happens next
    turn: tuple[tuple[str, int], ...] = ()  # (role, seat) in large type: ("Deals", 2), ("Trumps", 3)
    lower_is_better: bool = False


@dataclass(frozen=True)
class Extra:
    """Something besides cards that a calculator counts, per side: marriages shown, say."""

    name: str
    label: str
    points: int
    most: int = 1  # 1: a toggle; more: buttons 0..most


@dataclass(frozen=True)
class CardCounter:
    """A hand calculator: the table taps the cards each side won (and any extras), and the app
    fills the per-side fields in `fills` for a side whose boxes were left empty.

    `count(cards, extras, options)` gives those fields' values for one side; it may raise
    RecordError. `points` (card -> value) and the extras' points let the form show a live total."""

    name: str
    title: str
    help: str
    cards: tuple[str, ...]
    points: Mapping[str, int]
    fills: tuple[str, ...]
    count: Callable[[list[str], Mapping[str, int], Mapping], Mapping[str, int]]
    extras: tuple[Extra, ...] = ()
    before: str | None = None  # the hand field the counter is drawn just before


FIRST_DEALER = Field(
    "first_dealer", "seat", "The seat of the player who deals the first hand.", default=0, label="First dealer"
)


_GAME_MODULES: set[str] = set()  # the modules that define a game (Game.__init_subclass__)


class Game:
    """Base of every game. Subclasses fill in the declarations and the rule methods."""

    key: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    partnerships: ClassVar[bool]
    unit: ClassVar[str] = "points"
    # What the table calls one record, as the pages name it ("Round 3", "All 12 rounds"): a hand,
    # or the game's own word (Speed Tournament plays rounds, a session whole games).
    hand_word: ClassVar[str] = "hand"
    hand_words: ClassVar[str] = "hands"
    deals: ClassVar[bool] = True  # False: nobody deals; no first_dealer option, dealer is null
    listed: ClassVar[int] = 100  # where the game stands in lists (the flagship games first)
    rules: ClassVar[type] = ()  # the game's Rule enum: the anchors its reasons link to
    state_class: ClassVar[type[State]] = State
    options: ClassVar[tuple[Field, ...]] = ()
    hand_fields: ClassVar[tuple[Field, ...]] = ()
    record_forms: ClassVar[tuple[RecordForm, ...]] = ()
    # The hand fields the form asks first, in this order, where the record's order would push what
    # every hand needs below what it rarely does (the API lists them in the record's order).
    asked_first: ClassVar[tuple[str, ...]] = ()
    calculators: ClassVar[tuple[CardCounter, ...]] = ()
    # The figures the game's table counts for each side of a finished match, beside its board
    # (statistics.py); the history adds them up per player.
    statistics: ClassVar[tuple[Statistic, ...]] = ()
    # The history's average and best hand count what each hand changed; a game whose changes hold
    # points its board's total leaves out (Poke's tricks, below the line) counts instead what each
    # hand moved its board's total by (`scores`: statistics.board_moves).
    hands_on_board: ClassVar[bool] = False
    # What its printed score sheet keeps per side, hand by hand (sheet.py): by default the board's score;
    # a game whose board keeps kinds of point apart, or a count that starts again, declares its columns.
    sheet: ClassVar[tuple[SheetColumn, ...]] = (SheetColumn(),)
    # Its card in the rules reference: other names, what it is, its sources, house rules, table words.
    reference: ClassVar[Reference] = Reference()

    def __init_subclass__(cls, **kwargs):
        """A game's module may name its own state classes in a stored state (see `_engine_module`)."""
        super().__init_subclass__(**kwargs)
        _GAME_MODULES.add(cls.__module__)

    # -- declarations -------------------------------------------------------------------------
    @property
    def all_options(self) -> tuple[Field, ...]:
        return (FIRST_DEALER, *self.options) if self.deals else self.options

    def describe(self) -> dict:
        out = {
            "key": self.key,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "partnerships": self.partnerships,
            "options": [fld.describe() for fld in self.all_options],
            "hand_fields": [fld.describe() for fld in self.hand_fields],
        }
        if self.record_forms:
            out["record_forms"] = [form.describe() for form in self.record_forms]
        return out

    def table(self, players: int, seat_sides: Sequence[int] | None = None) -> Table:
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                message = counted(
                    self.max_players,
                    "%(game)s is played by %(num)s player.",
                    "%(game)s is played by %(num)s players.",
                    game=verbatim(self.name),
                )
            else:
                message = counted(
                    self.max_players,
                    "%(game)s is played by %(low)s to %(num)s player.",
                    "%(game)s is played by %(low)s to %(num)s players.",
                    game=verbatim(self.name),
                    low=self.min_players,
                )
            raise RecordError(message, "players")
        self.check_players(players)
        return Table(players, self.partnerships, tuple(seat_sides) if seat_sides else None)

    def check_players(self, players: int) -> None:
        """Counts inside min..max that the game still refuses (Cuarenta with three, say)."""

    def parse_options(self, raw: Mapping | None, table: Table) -> dict:
        """Every option with its value: the given ones checked, the rest at their defaults."""
        given = parse_fields(self.all_options, raw or {}, table)
        options = {fld.name: given.get(fld.name, fld.default) for fld in self.all_options}
        check_declarations(self.all_options, {k: v for k, v in given.items()}, options)
        self.validate_options(options, table)
        return options

    def validate_options(self, options: dict, table: Table) -> None:
        """Checks across options; the default has none."""

    def ends_by_call(self, options: Mapping) -> bool:
        """True when the game has no natural end and the table calls `finish` (Court Piece on time)."""
        return False

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """The hand fields that make sense in this state (the form shows only these), offering
        only the players still in, those `asked_first` first."""
        fields = still_in(under_options(self.hand_fields, state.options), self.seats_out(state))
        first = [fld for name in self.asked_first for fld in fields if fld.name == name]
        return (*first, *(fld for fld in fields if fld.name not in self.asked_first))

    def value(self, record: Mapping, name: str) -> Any:
        return value(self.hand_fields, record, name)

    def from_form(self, state: State, record: dict) -> dict:
        """The record as the API takes it, from the record the form's questions gave (the same,
        unless a game asks a question its record answers another way round)."""
        return record

    def to_form(self, state: State, record: dict) -> dict:
        """The inverse of `from_form`: a stored record as the form's questions show it."""
        return record

    # -- the books ----------------------------------------------------------------------------
    def new_state(self, table: Table, options: Mapping) -> State:
        dealer = options.get("first_dealer", 0) if self.deals else None
        return self.state_class(table=table, options=dict(options), dealer=dealer, **self.start(table, options))

    def start(self, table: Table, options: Mapping) -> dict:
        """The game's own state fields at the start of a match (the defaults of its State, if empty)."""
        return {}

    def check(self, state: State, raw: Any) -> dict:
        """The record in canonical form (given keys only), or RecordError saying what is wrong."""
        if self.result(state).over:
            raise RecordError(msg("The match is over: no more hands can be recorded."))
        record = parse_fields(self.hand_fields, raw, state.table)
        check_declarations(self.hand_fields, record, state.options, self.record_forms)
        self.validate(state, record)
        return record

    def play(self, state: State, raw: Any) -> HandResult:
        return self.apply(state, self.check(state, raw))

    def apply(self, state: State, record: Mapping) -> HandResult:
        """Score a checked record, then count the hand and move the deal."""
        done = self.score_hand(state, record)
        after = done.state.evolve(hands=state.hands + 1)
        after = after.evolve(dealer=self.next_dealer(state, after, record) if self.deals else None)
        return dataclasses.replace(done, state=after)

    def next_dealer(self, before: State, after: State, record: Mapping) -> int | None:
        """Who deals the next hand: by default the next seat, past any player who is out."""
        return after.table.next_seat(before.dealer, skip=self.seats_out(after))

    def seats_out(self, state: State) -> tuple[int, ...]:
        """Seats no longer in play (eliminated players); the deal passes them by."""
        return ()

    def validate(self, state: State, record: dict) -> None:
        """The game's own refusals, beyond what the declarations say; the default has none."""

    def score_hand(self, state: State, record: Mapping) -> HandResult:
        raise NotImplementedError

    def result(self, state: State, called: bool = False) -> Result:
        raise NotImplementedError

    def scores(self, state: State) -> list[int]:
        raise NotImplementedError

    def target(self, state: State) -> int | None:
        """The score that wins, where there is one (the board draws a meter toward it)."""
        return None

    def board(self, state: State) -> Board:
        target = self.target(state)
        return Board(tuple(SideBoard(score, self.unit, target) for score in self.scores(state)))

    def public_state(self, state: State) -> dict:
        return {}

    def example_hand(self, state: State, rng) -> dict:
        """A record the game takes in this state, drawn with `rng` (contract tests and the bench)."""
        raise NotImplementedError


def under_options(fields: Sequence[Field], options: Mapping) -> tuple[Field, ...]:
    """The fields (and group members) that exist under these options: `when` on an option holds."""
    kept = []
    for fld in fields:
        if fld.when is not None and fld.when.option and not fld.when.holds({}, options, {}):
            continue
        if fld.fields:
            fld = dataclasses.replace(fld, fields=under_options(fld.fields, options))
        kept.append(fld)
    return tuple(kept)


def still_in(fields: Sequence[Field], out: Sequence[int]) -> tuple[Field, ...]:
    """The fields (and group members) with every side or seat field leaving out the players in
    `out` (`exclude`): a form offers only the players still in. Sides are seats wherever players
    go out (no partnership game eliminates anyone)."""
    if not out:
        return tuple(fields)
    kept = []
    for fld in fields:
        if fld.type in ("side", "seat"):
            fld = dataclasses.replace(fld, exclude=tuple(sorted(set(fld.exclude) | set(out))))
        elif fld.fields:
            fld = dataclasses.replace(fld, fields=still_in(fld.fields, out))
        kept.append(fld)
    return tuple(kept)


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
    return replay_from(game, game.new_state(table, options), records)


def replay_from(game: Game, state: State, records: Sequence[Any], first: int = 1) -> Replay:
    """Apply `records` from `state`, the first of them being hand number `first` (an edit replays
    from the hand it changes, not from the start)."""
    done = Replay(state)
    for number, raw in enumerate(records, start=first):
        try:
            record = game.check(done.state, raw)
        except RecordError as error:
            raise ReplayError(number, error, game.hand_word) from None
        done.results.append(game.apply(done.state, record))
        done.records.append(record)
    return done


def names(sides: Iterable[int]) -> Text:
    """Several sides named in a text: "A", "A and C", "A, B and D" (in the reader's language)."""
    return listing(side_name(side) for side in sides)


# -- stored states ----------------------------------------------------------------------------------
# A state is stored with its match (and after each hand), so a page reads it instead of replaying.
# The form is plain JSON: dataclasses, tuples, frozensets, enums and dicts are tagged, and only
# classes of the engine (or of a registered game's module) can be named: a stored state can never
# load foreign code.

_ENGINE = __name__.rsplit(".", 1)[0]


def encode_state(value: Any) -> Any:
    """A state (or any value inside one) as JSON-safe data that `decode_state` turns back exactly."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode_state(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$dc": _class_path(type(value)), "f": fields}
    if isinstance(value, Enum):
        return {"$enum": _class_path(type(value)), "v": value.value}
    if isinstance(value, tuple):
        return {"$t": [encode_state(item) for item in value]}
    if isinstance(value, frozenset):
        return {"$fs": sorted((encode_state(item) for item in value), key=repr)}
    if isinstance(value, list):
        return [encode_state(item) for item in value]
    if isinstance(value, Mapping):
        return {"$d": [[encode_state(k), encode_state(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a state cannot hold {type(value).__name__}")


def decode_state(data: Any) -> Any:
    if isinstance(data, list):
        return [decode_state(item) for item in data]
    if not isinstance(data, dict):
        return data
    if "$dc" in data:
        cls = _engine_class(data["$dc"], dataclasses.is_dataclass)
        return cls(**{name: decode_state(item) for name, item in data["f"].items()})
    if "$enum" in data:
        return _engine_class(data["$enum"], _is_enum)(data["v"])
    if "$t" in data:
        return tuple(decode_state(item) for item in data["$t"])
    if "$fs" in data:
        return frozenset(decode_state(item) for item in data["$fs"])
    return {decode_state(k): decode_state(v) for k, v in data["$d"]}


def _engine_module(name: str) -> bool:
    """The engine package, or the module of a game (a game may live outside it)."""
    return name == _ENGINE or name.startswith(_ENGINE + ".") or name in _GAME_MODULES


def _class_path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _engine_class(path: str, is_kind) -> type:
    """The engine's own dataclass or Enum the path names, and nothing else: a stored state comes
    from a database or an import file, and a path such as "base:dataclasses.inspect.os.system"
    must not reach a function to call."""
    module_name, _, qualname = path.partition(":")
    if not _engine_module(module_name):
        raise ValueError(f"a stored state names a class outside the engine: {path}")
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and is_kind(found) and _class_path(found) == path):
        raise ValueError(f"a stored state names something that is not one of the engine's state classes: {path}")
    return found


def _is_enum(cls: type) -> bool:
    return issubclass(cls, Enum)
