"""The one place that records, edits and deletes hands: the web forms and the API both call it.

Every write replays the match's hands through its game, so the stored hands stay the truth and a
score can never drift from them. Refusals are domain errors (NotFound, Conflict, Invalid,
Malformed); the web layer maps them to HTTP statuses in one place (scorekeeper/errors.py)."""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from sqlalchemy import Text, bindparam, cast, insert, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import defer, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from . import jsontext
from .extensions import db
from .games import base
from .games import GAMES, Game, HandResult, RecordError, Replay, ReplayError, Result, Table, get_game, replay
from .games.base import Reason, decode_state, encode_state, replay_from
from .models import FINISHED, IN_PROGRESS, Hand, Match, MatchEvent, Player, Seat, now_utc

NAME_LIMIT = 40
CHANGED_ELSEWHERE = "Another phone changed this match just now; look at the score and try again."


class ServiceError(Exception):
    """A request that cannot be taken: a sentence a player understands and per-field notes."""

    def __init__(self, message: str, fields: Mapping[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.fields = dict(fields or {})

    @classmethod
    def from_record(cls, error: RecordError) -> ServiceError:
        return cls(error.message, error.fields)


class NotFound(ServiceError):
    """No such match, hand or game."""


class Conflict(ServiceError):
    """The match is not in a state to take this: finished, changed by another phone, a later hand breaks."""


class Unauthorized(ServiceError):
    """A write to a match without its key."""


class Forbidden(ServiceError):
    """A write to a match with a key that is not its own."""


class Invalid(ServiceError):
    """The record or the set-up breaks the game's rules or types."""


class Malformed(ServiceError):
    """The request itself is not what the API takes (not a JSON object)."""


@dataclass
class Scored:
    """A match with its hands replayed: everything a page or the API shows about it."""

    match: Match
    game: Game
    table: Table
    replay: Replay

    @cached_property
    def state(self):
        """The state after the last hand; it knows whether the table called the end."""
        last = self.replay.state
        return last.evolve(called=True) if self.match.called else last

    @cached_property
    def result(self) -> Result:
        return self.game.result(self.state, called=self.match.called)

    # Worked out once per Scored (a page asks for them on every line); a change of set-up makes a new one.
    @cached_property
    def names(self) -> list[str]:
        return self.match.player_names

    @cached_property
    def sides(self) -> list[list[str]]:
        return [[self.names[seat] for seat in self.table.seats_of(side)] for side in range(self.table.sides)]

    @cached_property
    def side_labels(self) -> list[str]:
        """Each side by its players' names, as the pages name them."""
        return [" & ".join(names) for names in self.sides]

    @property
    def scores(self) -> list[int]:
        return self.game.scores(self.state)

    @property
    def dealer(self) -> int | None:
        """Who deals the next hand, also once the match is over (API.md); None where nobody deals."""
        return self.state.dealer

    @property
    def finished(self) -> bool:
        return self.result.over

    @property
    def count(self) -> int:
        """How many hands the match has (the books every game keeps)."""
        return self.replay.state.hands

    @property
    def stored(self) -> bool:
        return isinstance(self.replay, StoredReplay)

    def hands(self, first: int = 1) -> list[tuple[int, dict, list, list[str]]]:
        """Hands `first`.. as (number, record, changes, reason texts), read in one go: no replay, and
        no state decoded (a long match's answer stays cheap)."""
        if not self.stored:
            numbered = zip(self.replay.records, self.replay.results)
            return [(n, record, done.changes, [r.text for r in done.reasons])
                    for n, (record, done) in enumerate(numbered, start=1) if n >= first]
        fresh = self.replay.fresh  # the hand this request wrote, still in hand: not read back
        known = [(n, *hand) for n, hand in fresh.items() if n >= first]
        if fresh and first >= min(fresh):
            return known
        rows = db.session.connection().execute(_HANDS_AS_TEXT, {"match_id": self.match.id, "first": first}).all()
        # The columns' JSON texts joined into one array and read at once: a 600-hand answer makes one
        # call to the JSON reader instead of 1,800.
        read = jsontext.loads("[" + ",".join(f"[{n},{record},{changes or 'null'},{reasons or 'null'}]"
                                             for n, record, changes, reasons in rows) + "]")
        return [(n, record, changes, [text for text, _ in reasons]) for n, record, changes, reasons in read]

    def hands_text(self, first: int = 1) -> str | None:
        """Hands `first`.. as the API's JSON array, joined from each hand's stored answer (None where
        a hand has none yet: a match from before answers were stored)."""
        if not self.stored:
            return None
        if first in self.replay.texts:
            return self.replay.texts[first]
        rows = db.session.connection().execute(_ANSWERS, {"match_id": self.match.id, "first": first}).all()
        if any(answer is None for _, answer in rows):
            return None
        return "[" + ",".join(f'{{"number":{n},{answer[1:]}' for n, answer in rows) + "]"

    @property
    def next_number(self) -> int:
        return self.count + 1


# -- reading ------------------------------------------------------------------------------------


_HANDS_AS_TEXT = (
    db.select(*(cast(column, Text) if column is not Hand.number else column
                for column in (Hand.number, Hand.record, Hand.changes, Hand.reasons)))
    .where(Hand.match_id == bindparam("match_id"), Hand.number >= bindparam("first")).order_by(Hand.number)
)


_ANSWERS = (db.select(Hand.number, Hand.answer)
            .where(Hand.match_id == bindparam("match_id"), Hand.number >= bindparam("first")).order_by(Hand.number))


class StoredHands(Sequence):
    """A match's hands as stored, read only as far as a page looks: the latest few for a page, all
    of them for the API. Nothing is replayed; a hand's state is decoded only when asked for."""

    def __init__(self, match: Match, count: int):
        self.match, self.count = match, count
        self.loaded: dict[int, Hand] = {}
        self.stateless: set[int] = set()  # loaded without their state

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(index)
        if index + 1 not in self.loaded:
            self.load(range(index + 1, index + 2))
        return self.loaded[index + 1]

    def load(self, numbers: Sequence[int], states: bool = True) -> None:
        """Fetch the rows of hands `numbers` (one query), unless already here; without `states` the
        state after each hand is left in the database until asked for (a list of hands shows none)."""
        wanted = [n for n in numbers if n not in self.loaded or (states and n in self.stateless)]
        if not wanted:
            return
        low, high = min(wanted), max(wanted)
        spread = high - low >= 2 * len(wanted)  # a few hands over a long match (a chart's), not a run
        rows = db.session.scalars(_hands_query(spread, states),
                                  {"match_id": self.match.id, "low": low, "high": high, "numbers": wanted}).all()
        (self.stateless.difference_update if states else self.stateless.update)(wanted)
        self.loaded.update((row.number, row) for row in rows)


@lru_cache(maxsize=None)
def _hands_query(spread: bool, states: bool):
    """A match's hands by number: a run as one index range, or a spread as a list; without `states`
    the states and answers stay in the database. Built once for each kind."""
    which = (Hand.number.in_(bindparam("numbers", expanding=True)) if spread
             else Hand.number.between(bindparam("low"), bindparam("high")))
    query = db.select(Hand).where(Hand.match_id == bindparam("match_id"), which)
    return query if states else query.options(defer(Hand.state), defer(Hand.answer))


class StoredResult:
    """A hand's result as stored: its changes and reasons, and its state decoded on demand."""

    def __init__(self, row: Hand):
        self.row = row
        self.changes = row.changes
        self.reasons = [Reason(text, rule) for text, rule in row.reasons]
        self.game_winner = row.game_winner

    @cached_property
    def state(self):
        return decode_state(self.row.state)


class StoredReplay:
    """What a replay gives, read from the stored states instead (issue 14: no replay on read)."""

    def __init__(self, game: Game, table: Table, match: Match, state=None, fresh: dict | None = None):
        self.game, self.table, self.match = game, table, match
        self.state = decode_state(match.state) if state is None else state
        self.fresh = fresh or {}  # number -> (record, changes, reason texts) of a hand just written
        self.texts: dict[int, str | None] = {}  # first hand -> the API's hands from it, read with the write
        self.hands = StoredHands(match, self.state.hands)

    @cached_property
    def start(self):
        return self.game.new_state(self.table, self.match.options)

    @property
    def results(self) -> _Mapped:
        return _Mapped(self.hands, StoredResult)

    @property
    def records(self) -> _Mapped:
        return _Mapped(self.hands, lambda row: row.record)


class _Mapped(Sequence):
    """A read-only view of a sequence through a function (results or records of stored hands)."""

    def __init__(self, rows: Sequence, convert):
        self.rows, self.convert = rows, convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            if isinstance(self.rows, StoredHands):
                self.rows.load(range(*[n + 1 for n in index.indices(len(self.rows))][:2]))
            return [self.convert(row) for row in self.rows[index]]
        return self.convert(self.rows[index])

    def __iter__(self):
        if isinstance(self.rows, StoredHands):
            self.rows.load(range(1, len(self.rows) + 1))
        return (self[i] for i in range(len(self)))



ID_LIMIT = 2**31 - 1  # the largest id every supported database can hold


# One statement for the match, its seats and their players (a round trip less on PostgreSQL). Built
# once: a write asks for its match three times (the key, the form, the write), and the session
# answers the second and third from memory in a tenth of the time when the options are not new.
_WITH_SEATS = (joinedload(Match.seats).joinedload(Seat.player),)


def get_match(match_id: int) -> Match:
    if not 0 < match_id <= ID_LIMIT:
        raise NotFound("There is no such match.")
    match = db.session.get(Match, match_id, options=_WITH_SEATS)
    if match is None:
        raise NotFound("There is no such match.")
    return match


def stored_records(match: Match) -> list[dict]:
    return list(db.session.scalars(db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)))


def side_labels(match, table: Table) -> tuple[list[str], list[bool]]:
    """Each side named by its players ("Jana & Luis"), and whether that is several players. `match`
    is a Match or a list's summary of one."""
    names = match.player_names
    members = [[names[seat] for seat in table.seats_of(side)] for side in range(table.sides)]
    return [" & ".join(group) for group in members], [len(group) > 1 for group in members]


def named(match, text: str) -> str:
    """An engine text as the pages show it: each side by its players ("Jana & Luis win the game").
    The API shows the same texts with the letters of the side indices (A is side 0), for programs."""
    if "\x1f" not in text and "\x1e" not in text:
        return text
    labels = match.__dict__.get("_side_labels")  # worked out once per match object (one request)
    if labels is None:
        game = get_game(match.game)
        table = game.table(len(match.seat_sides), match.seat_sides)
        labels = match.__dict__["_side_labels"] = side_labels(match, table)
    return base.render(text, *labels)


@lru_cache(maxsize=4096)  # a long match's answer letters the same few reasons hundreds of times
def lettered(text: str) -> str:
    return base.render(text)


def score(match: Match) -> Scored:
    """The match as stored: its state after the last hand, its hands read as far as they are looked
    at. A match from before states were stored (or whose state does not belong to its version) is
    replayed from its hands instead."""
    kept = match.__dict__.get("_scored")
    if kept is not None and kept[0] == _scored_as_of(match):
        return kept[1]
    game = get_game(match.game)
    table = game.table(len(match.seats), match.seat_sides)
    if match.state is not None and match.state_version == match.version:
        return remember(match, Scored(match, game, table, StoredReplay(game, table, match)))
    return Scored(match, game, table, replay(game, table, match.options, stored_records(match)))


def remember(match: Match, scored: Scored) -> Scored:
    """Keep the match as scored on its object, for the rest of the request: a write reads the match
    its page was built from, and the state is decoded once."""
    match.__dict__["_scored"] = (_scored_as_of(match), scored)
    return scored


def _scored_as_of(match: Match) -> tuple:
    return match.version, match.state_version, match.called, len(match.seats)


def load_for_write(match_id: int) -> Scored:
    """The match about to change; one not yet stored is stored in full first (in the same write)."""
    scored = load(match_id)
    if not scored.stored:
        _store(scored.match, scored.replay, first=1)
    return scored


def load(match_id: int) -> Scored:
    return score(get_match(match_id))


# -- players ------------------------------------------------------------------------------------


def clean_name(name: Any) -> str:
    if not isinstance(name, str):
        raise Invalid("A player's name must be text.", {"players": "names must be text"})
    name = re.sub(r"\s+", " ", name).strip()
    if not name.isprintable():  # also refuses a lone surrogate such as JSON's \ud800
        raise Invalid("A player's name can only hold printable letters and signs.", {"players": "unprintable"})
    if not name:
        raise Invalid("A player's name cannot be empty.", {"players": "a name is empty"})
    if len(name) > NAME_LIMIT:
        raise Invalid(f"A player's name can be at most {NAME_LIMIT} characters.", {"players": "a name is too long"})
    return name


def find_or_add_player(name: str) -> Player:
    """The player of that name (case does not matter), added if new."""
    found = db.session.scalar(db.select(Player).where(Player.key == name.casefold()))
    if found is None:
        found = Player(name=name, key=name.casefold())
        db.session.add(found)
    return found


# -- matches ------------------------------------------------------------------------------------


def create_match(
    game_key: Any,
    names: Any,
    options: Any = None,
    draw_partners: bool = False,
    rng: random.Random | None = None,
) -> Match:
    """Start a match: seats in the order given (or drawn at random for partnerships)."""
    if not isinstance(game_key, str) or game_key not in GAMES:
        raise Invalid("Choose a game Scorekeeper scores.", {"game": "unknown game"})
    game = GAMES[game_key]
    names = clean_names(names)
    table, parsed = _table_and_options(game, names, options)
    if draw_partners and game.partnerships:
        names = names[:]
        (rng or random.SystemRandom()).shuffle(names)
    for _ in range(3):  # another match may add one of these new players at the same moment
        try:
            return _seat(table, game, names, parsed)
        except (IntegrityError, OperationalError):
            db.session.rollback()  # the player exists now: the next round finds it
    raise Conflict("The players were being added from another phone just now; try again.")


def clean_names(names: Any) -> list[str]:
    if not isinstance(names, Sequence) or isinstance(names, (str, bytes)):
        raise Invalid("List the players' names in seating order.", {"players": "a list of names"})
    names = [clean_name(name) for name in names]
    if len({name.casefold() for name in names}) != len(names):
        raise Invalid("Each player can sit only once at the table.", {"players": "a name is repeated"})
    return names


def _table_and_options(game: Game, names: list[str], options: Any) -> tuple[Table, dict]:
    if options is not None and not isinstance(options, Mapping):
        raise Invalid("Options must be an object of named values.", {"options": "not an object"})
    try:
        table = game.table(len(names))
        return table, game.parse_options(options or {}, table)
    except RecordError as error:
        raise Invalid.from_record(error) from None


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def authorize(match_id: int, key: str | None) -> Match:
    """Writing to a match needs its key (API.md "Who may write"); matches from before keys take any.
    Gives the match: a caller that holds it keeps it in the session, so the write reads it once."""
    match = get_match(match_id)
    check_key(match, key)
    return match


def check_key(match: Match, key: str | None) -> None:
    """Refuse a write to `match` without its key (401) or with another (403)."""
    if match.key_hash is None:
        return
    if not key:
        raise Unauthorized("Writing to this match needs its key: use the scorer link from the phone that started it.")
    if not hmac.compare_digest(hash_key(key), match.key_hash):
        raise Forbidden("That is not this match's key: nothing was changed.")


def _seat(table: Table, game: Game, names: list[str], options: dict) -> Match:
    players = [find_or_add_player(name) for name in names]
    key = secrets.token_urlsafe(24)  # 192 bits; shown once, kept only as its hash
    start = encode_state(game.new_state(table, options))  # stored from the start: no replay on read
    match = Match(game=game.key, options=options, status=IN_PROGRESS, key_hash=hash_key(key), state=start,
                  state_version=0, version=0)
    match.issued_key = key
    match.seats = [Seat(position=position, side=table.side_of(position), player=player, game=game.key)
                   for position, player in enumerate(players)]
    for player in players:
        player.played = (player.played or 0) + 1
    db.session.add(match)
    db.session.commit()
    return match


def _claim(match: Match, **columns) -> None:
    """Move the match's version on, unless another request moved it first; `columns` (already
    known) are written in the same statement."""
    columns["version"] = match.version + 1
    values = {f"new_{name}": value for name, value in columns.items()}
    try:
        claimed = db.session.connection().execute(
            _claim_statement(tuple(columns)), {"match_id": match.id, "seen": match.version, **values})
    except OperationalError:  # SQLite: another write got in after this request read the match
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE) from None
    if claimed.rowcount != 1:
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE)
    for name, value in columns.items():
        set_committed_value(match, name, value)


@lru_cache(maxsize=None)
def _claim_statement(names: tuple[str, ...]):
    """UPDATE match SET `names` WHERE id = :match_id AND version = :seen, through Core (not the ORM's
    UPDATE) and built once for each set of columns: a quarter of a millisecond less per write."""
    table = Match.__table__
    return (update(table).where(table.c.id == bindparam("match_id"), table.c.version == bindparam("seen"))
            .values({name: bindparam(f"new_{name}", type_=table.c[name].type) for name in names}))


@dataclass
class Recorded:
    scored: Scored
    number: int
    hand: HandResult


def record_hand(
    match_id: int, raw: Any, expected: int | None = None, entered_by: str | None = None, token: str | None = None,
    answer_from: int | None = None,
) -> Recorded:
    """Validate a hand against the game, check the hand number, write it, commit.

    `expected` is the number the client means to create; a stale one is refused (409), except
    when the last hand carries the same form `token`: that is this very form sent again.
    `answer_from`: the first hand the caller's answer shows, read inside the write's transaction."""
    scored = load_for_write(match_id)
    match = scored.match
    current = scored.count
    if expected is not None and expected < 1:
        raise Invalid("number must be 1 or more: the hand you mean to create.", {"number": "below 1"})
    if expected is not None and expected != current + 1:
        if token and expected == current and _last_token(match, current) == token:
            return Recorded(scored, current, scored.replay.results[-1])  # this very form, sent twice
        told = (
            f"Hand {expected} was already recorded from another phone"
            if expected <= current
            else "This match changed on another phone"
        )
        raise Conflict(
            f"{told}: check the score, then enter hand {current + 1}.", {"number": f"the next hand is {current + 1}"}
        )
    if scored.finished:
        raise Conflict("This match is over: it takes no more hands.")
    try:
        record = scored.game.check(scored.state, raw)
    except RecordError as error:
        raise Invalid.from_record(error) from None
    hand = scored.game.apply(scored.state, record)
    after = Scored(match, scored.game, scored.table, Replay(scored.state, [hand], [record]))
    stored = _stored_hand(hand, record)
    try:
        # One statement claims the match and writes what the hand made of it (a round trip less).
        _claim(match, state=stored["state"], updated=now_utc(), **_result_columns(after, match.version + 1))
        # Inserted through Core: nothing of the new row is read back as an object, and a flush with
        # nothing in it costs the write nothing.
        _insert_hand(match_id=match.id, number=current + 1, record=record, entered_by=entered_by, token=token,
                     **stored)
        wrote = {current + 1: (record, stored["changes"], [text for text, _ in stored["reasons"]])}
        return Recorded(_save(after, wrote, answer_from), current + 1, hand)
    except Conflict:
        if token and _tapped_twice(match, current + 1, token):  # the same form's other tap got in first
            again = load(match_id)
            return Recorded(again, current + 1, again.replay.results[current])
        raise


_INSERT_HAND = insert(Hand.__table__)


def _insert_hand(**columns) -> None:
    """Add a hand's row after the match was claimed (so no other write can add the same number)."""
    try:
        db.session.connection().execute(_INSERT_HAND, columns)
    except IntegrityError:  # a row the app did not write (the claim stops its own writes racing)
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE) from None


def _tapped_twice(match: Match, number: int, token: str) -> bool:
    """Whether hand `number` was recorded by the same form (its other tap may still be committing)."""
    for _ in range(10):
        if _last_token(match, number) == token:
            return True
        db.session.rollback()
        time.sleep(0.03)
    return False


def _last_token(match: Match, number: int) -> str | None:
    return db.session.scalar(db.select(Hand.token).where(Hand.match_id == match.id, Hand.number == number))


def _stored_hand(done: HandResult, record: dict) -> dict:
    """The columns that keep what a hand did beside its record."""
    texts = [reason.text for reason in done.reasons]
    return {"state": encode_state(done.state), "changes": list(done.changes),
            "reasons": [[text, str(reason.rule)] for text, reason in zip(texts, done.reasons)],
            "game_winner": done.game_winner, "answer": hand_answer(record, done.changes, texts)}


def hand_answer(record: dict, changes, reasons: list[str]) -> str:
    """A hand as the API shows it, without its number (which a deletion can change): JSON text."""
    return jsontext.dumps({"record": record, "changes": list(changes), "reasons": [lettered(text) for text in reasons]})


def _store(match: Match, done: Replay, first: int) -> None:
    """Write the replayed hands `first`.. (their records, states, changes, reasons) and the state
    after the last of them as the match's."""
    rows = db.session.scalars(
        db.select(Hand).where(Hand.match_id == match.id, Hand.number >= first).order_by(Hand.number)
    ).all()
    for row, record, result in zip(rows, done.records, done.results):
        row.record = record
        for column, value in _stored_hand(result, record).items():
            setattr(row, column, value)
    match.state = encode_state(done.state)


def _result_columns(scored: Scored, version: int) -> dict[str, Any]:
    """The match's columns that follow from its state, stamped with the version they belong to."""
    result = scored.result
    return {"status": FINISHED if result.over else IN_PROGRESS, "winner": result.winner,
            "headline": result.headline if result.over else None,  # marked: rendered where it is shown
            "state_version": version}


def _save(scored: Scored, wrote: dict | None = None, answer_from: int | None = None) -> Scored:
    """Write the derived result on the match, stamp its stored state with this write's version
    (claimed before the commit), commit, and give back the match as now stored (with `wrote`, the
    hands this write added, kept for the answer; from `answer_from` on, the hands as the API shows
    them, read before the commit: on PostgreSQL a read after it costs two round trips more)."""
    match = scored.match
    for name, value in _result_columns(scored, match.version).items():
        if getattr(match, name) != value:  # a claim may have written it already
            setattr(match, name, value)
    for seat in match.seats:
        outcome = scored.result.outcome(seat.side)
        if seat.outcome != outcome:  # a seat left alone stays out of the flush
            seat.outcome = outcome
    # What was just written is what is stored: answer from it, not from decoding it back.
    stored = StoredReplay(scored.game, scored.table, match, scored.replay.state, wrote)
    saved = Scored(match, scored.game, scored.table, stored)
    if answer_from is not None:
        db.session.flush()
        stored.texts[answer_from] = saved.hands_text(answer_from)
    _commit()
    return remember(match, saved)


def _rewrite(match: Match, records: list[Any], changed: int = 0, deleted: int = 0, start=None, first: int = 1) -> Scored:
    """Replay a changed list of records, from the start or (`start`, `first`) from the hand that
    changed; refuse if hand `changed` is bad or a later one no longer fits.

    After a deletion the list is one shorter: a refusal names the hand by its number as the
    table knows it now, before the deletion."""
    game = get_game(match.game)
    table = game.table(len(match.seats), match.seat_sides)
    try:
        done = replay_from(game, start or game.new_state(table, match.options), records, first)
    except ReplayError as error:
        if error.number == changed:
            raise Invalid(error.reason, error.fields) from None
        number = error.number + 1 if deleted and error.number >= deleted else error.number
        message = f"Hand {number} would no longer be possible: {error.reason}"
        raise Conflict(message, {"number": f"hand {number}"}) from None
    return Scored(match, game, table, done)


def log(match: Match, action: str, number: int | None = None, before: Any = None, after: Any = None) -> None:
    """Keep a change in the match's log (the hands stay the truth; the log says what they were)."""
    db.session.add(MatchEvent(match_id=match.id, action=action, number=number, before=before, after=after))


def state_before(scored: Scored, number: int):
    """The state hand `number` was played from: the stored state after the hand before it."""
    return scored.replay.results[number - 2].state if number > 1 else scored.replay.start


def edit_hand(match_id: int, number: int, raw: Any) -> Scored:
    """Change hand `number`; the hands from it on are replayed from the state before it."""
    scored = load_for_write(match_id)
    _check_number(scored, number)
    records = list(scored.replay.records[number - 1:])
    was = records[0]
    records[0] = raw
    changed = _rewrite(scored.match, records, number, start=state_before(scored, number), first=number)
    _claim(scored.match)
    log(scored.match, "edit", number, was, changed.replay.records[0])
    _store(scored.match, changed.replay, first=number)
    return _save(changed)


def delete_hand(match_id: int, number: int, action: str = "delete") -> Scored:
    """Remove hand `number`; the hands after it move up one number and are replayed from the state
    before it."""
    scored = load_for_write(match_id)
    _check_number(scored, number)
    later = list(scored.replay.records[number - 1:])
    changed = _rewrite(scored.match, later[1:], deleted=number, start=state_before(scored, number), first=number)
    _claim(scored.match)
    log(scored.match, action, number, later[0])
    hands = db.session.scalars(
        db.select(Hand).where(Hand.match_id == match_id, Hand.number >= number).order_by(Hand.number)
    ).all()
    db.session.delete(hands[0])
    db.session.flush()
    for moved in hands[1:]:  # ascending, so each new number is already free
        moved.number -= 1
        db.session.flush()
    _store(scored.match, changed.replay, first=number)
    return _save(changed)


def undo_last(match_id: int, expected: int | None = None) -> Scored:
    """Take back the last hand; `expected` guards against undoing a hand another phone just added."""
    scored = load(match_id)
    if not scored.count:
        raise Conflict("There is no hand to undo yet.")
    if expected is not None and expected != scored.count:
        raise Conflict(CHANGED_ELSEWHERE)
    return delete_hand(match_id, scored.count, action="undo")


def finish_match(match_id: int) -> Scored:
    """End a match whose game has no natural end (the table called time)."""
    scored = load_for_write(match_id)
    match = scored.match
    if not scored.game.ends_by_call(match.options):
        raise Conflict(f"A {scored.game.name} match ends by itself; it cannot be called.")
    if scored.finished:
        raise Conflict("This match is already over.")
    _claim(match)
    match.called = True
    log(match, "finish")
    return _save(Scored(match, scored.game, scored.table, scored.replay))


def reopen_match(match_id: int) -> Scored:
    """Take back a `finish`: the table plays on."""
    scored = load_for_write(match_id)
    if not scored.match.called:
        told = "it ends by itself" if not scored.game.ends_by_call(scored.match.options) else "it was not finished"
        raise Conflict(f"This match cannot be reopened: {told}.")
    _claim(scored.match)
    scored.match.called = False
    log(scored.match, "reopen")
    return _save(Scored(scored.match, scored.game, scored.table, scored.replay))


def edit_setup(match_id: int, names: Any = None, options: Any = None) -> Scored:
    """Fix a match's set-up: who sits where (names in seating order), the first dealer and the
    house rules. Every hand is replayed; a hand the new set-up makes impossible is named (409)."""
    scored = load_for_write(match_id)
    match, game = scored.match, scored.game
    names = clean_names(scored.names if names is None else names)
    if len(names) != len(match.seats):
        raise Invalid(f"This match has {len(match.seats)} seats: name a player for each.", {"players": "seats"})
    merged = {**match.options, **(options or {})} if isinstance(options, Mapping) or options is None else options
    table, parsed = _table_and_options(game, names, merged)
    before = {"players": scored.names, "options": dict(match.options)}
    match.options = parsed
    changed = _rewrite(match, list(scored.replay.records))
    _claim(match)
    try:
        for seat, name in zip(match.seats, names):
            # Another name seats another player. The same name spelled otherwise keeps the player as
            # it is: players are shared, and only the host renames one everywhere (scorekeeper.players).
            if seat.player.key != name.casefold():
                _reseat(seat, find_or_add_player(name))
        db.session.flush()
    except IntegrityError:  # another phone added one of these new players at the same moment
        db.session.rollback()
        raise Conflict("The players were being added from another phone just now; try again.") from None
    log(match, "setup", before=before, after={"players": match.player_names, "options": parsed})
    _store(match, changed.replay, first=1)
    return _save(changed)


def _reseat(seat: Seat, player: Player) -> None:
    """Put `player` in `seat`, moving both players' match counts (the tallies follow on flush)."""
    seat.player.played -= 1
    seat.player = player
    player.played = (player.played or 0) + 1


def delete_match(match_id: int) -> None:
    """Remove a match and its hands."""
    match = get_match(match_id)
    _claim(match)
    for seat in match.seats:
        seat.player.played -= 1
    db.session.delete(match)
    _commit()


def rematch(match_id: int) -> Match:
    """The same table and house rules again, the first deal moved on to the next seat."""
    scored = load(match_id)
    options = dict(scored.match.options)
    if scored.game.deals:
        options["first_dealer"] = scored.table.next_seat(options.get("first_dealer", 0))
    return create_match(scored.game.key, scored.names, options)


def _check_number(scored: Scored, number: Any) -> None:
    if not isinstance(number, int) or not 1 <= number <= scored.count:
        raise NotFound(f"This match has no hand {number}.")


def _commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE) from None
