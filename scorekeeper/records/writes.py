"""Every change to a match, in one place: the web forms and the API both call it.

A write is given the match as its request read it (a `Scored`, read once), claims it (a conditional
UPDATE of its version: of two phones writing at once, one lands and the other is refused), changes
it and commits. The hands as entered stay the truth: a new hand is applied to the stored state, an
edit or a deletion replays from the hand it changes, so a score can never drift from its hands. A
refused write leaves nothing behind: the session is rolled back before the refusal goes on.

Every statement of a write is in its calls, in the order it runs: the claim (the ORM's UPDATE of the
match, versioned), the hand's INSERT, the changed rows (flushed), the history (records.stories), the
receipt of a write sent with a token (records.receipts) and the commit. No session or engine event
adds anything to a write."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import wraps
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from ..errors import Conflict, Invalid, NotFound, ServiceError
from ..extensions import db
from ..faults import CHANGED_ELSEWHERE, clash_or_trouble, trouble_of
from ..games import GAMES, Game, HandResult, RecordError, Replay, ReplayError, Table, get_game
from ..games.base import encode_state, replay_from
from ..games.texts import Text, to_json
from ..models import FINISHED, IN_PROGRESS, Hand, Match, MatchEvent, PairTally, Player, Seat, now_utc
from . import nights
from .answers import hand_answer
from .keys import issue_key
from .reads import Recorded, Scored, StoredReplay, reason_text, stored_reason
from .receipts import Receipt
from .stories import placing, rerating

NAME_LIMIT = 40
PLAYERS_BUSY = "The players were being added from another phone just now; try again."


def _refusals_undone(write):
    """A write that leaves nothing behind when refused: the session is rolled back (the match is read
    afresh for the page or answer that says why)."""

    @wraps(write)
    def undoing(*args, **kwargs):
        try:
            return write(*args, **kwargs)
        except ServiceError:
            db.session.rollback()
            raise

    return undoing


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


def _clean_names(names: Any) -> list[str]:
    if not isinstance(names, Sequence) or isinstance(names, (str, bytes)):
        raise Invalid("List the players' names in seating order.", {"players": "a list of names"})
    names = [clean_name(name) for name in names]
    if len({name.casefold() for name in names}) != len(names):
        raise Invalid("Each player can sit only once at the table.", {"players": "a name is repeated"})
    return names


def find_or_add_player(name: str) -> Player:
    """The player of that name (case does not matter), added if new."""
    found = db.session.scalar(db.select(Player).where(Player.key == name.casefold()))
    if found is None:
        found = Player(name=name, key=name.casefold())
        db.session.add(found)
    return found


# -- starting a match ---------------------------------------------------------------------------


@_refusals_undone
def create_match(
    game_key: Any,
    names: Any,
    options: Any = None,
    draw_partners: bool = False,
    rng: random.Random | None = None,
    receipt: Receipt | None = None,
) -> Match:
    """Start a match: seats in the order given (or drawn at random for partnerships). The match
    carries its write key as `issued_key`, to be shown this once."""
    if not isinstance(game_key, str) or game_key not in GAMES:
        raise Invalid("Choose a game Scorekeeper scores.", {"game": "unknown game"})
    game = GAMES[game_key]
    names = _clean_names(names)
    table, parsed = _table_and_options(game, names, options)
    if draw_partners and game.partnerships:
        # The first dealer was chosen by name: they still deal first wherever the draw seats them.
        dealer = names[parsed["first_dealer"]] if "first_dealer" in parsed else None
        names = names[:]
        (rng or random.SystemRandom()).shuffle(names)
        if dealer is not None:
            parsed["first_dealer"] = names.index(dealer)
    for _ in range(3):  # another match may add one of these new players at the same moment
        try:
            return _seat(table, game, names, parsed, receipt)
        except (IntegrityError, OperationalError) as error:
            db.session.rollback()  # the player exists now: the next round finds it
            trouble = trouble_of(error)  # unless the database itself failed: no round mends that
            if trouble is not None:
                raise trouble from None
    raise Conflict(PLAYERS_BUSY)


@_refusals_undone
def rematch(scored: Scored) -> Match:
    """The same table and house rules again, the first deal moved on to the next seat."""
    options = dict(scored.match.options)
    if scored.game.deals:
        options["first_dealer"] = scored.table.next_seat(options.get("first_dealer", 0))
    return create_match(scored.game.key, scored.names, options)


def _table_and_options(game: Game, names: list[str], options: Any) -> tuple[Table, dict]:
    if options is not None and not isinstance(options, Mapping):
        raise Invalid("Options must be an object of named values.", {"options": "not an object"})
    try:
        table = game.table(len(names))
        return table, game.parse_options(options or {}, table)
    except RecordError as error:
        raise Invalid.from_record(error) from None


def players_named(names: list[str]) -> list[Player]:
    """The players of these names (case does not matter), the new ones added: the whole table in
    one look-up, not one round trip per seat."""
    keys = [name.casefold() for name in names]
    found = {player.key: player for player in db.session.scalars(db.select(Player).where(Player.key.in_(keys)))}
    for name, key in zip(names, keys):
        if key not in found:
            found[key] = Player(name=name, key=key, played=0)
            db.session.add(found[key])
    return [found[key] for key in keys]


def _seat(table: Table, game: Game, names: list[str], options: dict, receipt: Receipt | None) -> Match:
    players = players_named(names)
    key, key_hash = issue_key()
    start = encode_state(game.new_state(table, options))  # stored from the start: no replay on read
    started = now_utc()
    match = Match(
        game=game.key,
        options=options,
        status=IN_PROGRESS,
        key_hash=key_hash,
        state=start,
        state_version=0,
        version=0,
        created=started,
        updated=started,
        night=nights.night_of(started, nights.current_zone()),
    )
    match.issued_key = key
    match.seats = [
        Seat(position=position, side=table.side_of(position), player=player, game=game.key)
        for position, player in enumerate(players)
    ]
    db.session.add(match)
    db.session.flush()  # the new players' ids
    # One statement for the table, counted in the database: two matches seating one player at once both count.
    db.session.execute(
        update(Player).where(Player.id.in_([player.id for player in players])).values(played=Player.played + 1)
    )
    _commit_with(receipt)
    return match


# -- the claim: one write at a time -------------------------------------------------------------


def _claim(match: Match, **columns) -> None:
    """Move the match's version on, unless another request moved it first: its UPDATE, sent now,
    holds `WHERE version = <as read>` (the mapper's version_id_col) and `columns` (already known)."""
    for name, value in columns.items():
        setattr(match, name, value)
    match.version += 1
    _flush()


def _flush() -> None:
    """Send the write's changes so far; a match another request moved on first refuses the write."""
    try:
        db.session.flush()
    except StaleDataError:
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE) from None
    except (IntegrityError, OperationalError) as error:  # SQLite: another write got in first
        db.session.rollback()
        raise clash_or_trouble(error, Conflict(CHANGED_ELSEWHERE)) from None


def _commit(receipt: Receipt | None = None) -> None:
    """Commit the write, with its receipt (written last, in the same transaction) where it has one."""
    _flush()
    try:
        _commit_with(receipt)
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise clash_or_trouble(error, Conflict(CHANGED_ELSEWHERE)) from None


def _commit_with(receipt: Receipt | None) -> None:
    """Commit, the receipt written last in the same transaction; noted as kept once committed."""
    if receipt is not None:
        receipt.add(db.session.connection())
    db.session.commit()
    if receipt is not None:
        receipt.kept = True


# -- hands --------------------------------------------------------------------------------------


@_refusals_undone
def record_hand(
    scored: Scored,
    raw: Any,
    expected: int | None = None,
    entered_by: str | None = None,
    token: str | None = None,
    answer_from: int | None = None,
    note: str | None = None,
    receipt: Receipt | None = None,
) -> Recorded:
    """Validate a hand against the game, check the hand number, write it, commit.

    `expected` is the number the client means to create; any other than the next (stale, ahead, 0 or
    below) is refused (409). `token`, the form's one-time token or the API's Idempotency-Key, is kept
    on the hand's row: a request sent twice is answered from its receipt (offline.py), not here.
    `answer_from`: the first hand the caller's answer shows, read inside the
    write's transaction. `note`: the table's remark on the hand, kept beside it and never scored.
    `receipt`: kept with the write (the request's token, records.receipts)."""
    note = checked_note(note)
    _store_if_replayed(scored)
    match = scored.match
    current = scored.count
    if expected is not None and expected != current + 1:
        raise _not_next(expected, current)
    if scored.finished:
        raise Conflict("This match is over: it takes no more hands.")
    try:
        record = scored.game.check(scored.state, raw)
    except RecordError as error:
        raise Invalid.from_record(error) from None
    hand = scored.game.apply(scored.state, record)
    after = Scored(match, scored.game, scored.table, Replay(scored.state, [hand], [record]))
    stored = hand_columns(hand, record)
    # One statement claims the match and writes what the hand made of it (a round trip less).
    _claim(match, state=stored["state"], updated=now_utc(), **result_columns(after, match.version + 1))
    # Inserted through Core: nothing of the new row is read back as an object, and a flush with
    # nothing in it costs the write nothing.
    _insert_hand(
        match_id=match.id, number=current + 1, record=record, entered_by=entered_by, token=token, note=note, **stored
    )
    wrote = {current + 1: (record, stored["changes"], [reason_text(entry) for entry in stored["reasons"]])}
    return Recorded(_save(after, wrote, answer_from, receipt), current + 1, hand)


def _not_next(expected: int, current: int) -> Conflict:
    """The 409 for a hand number that is not the next one (API.md: stale or ahead)."""
    if expected < 1:
        told = f"Hands are numbered from 1, not {expected}"
    elif expected <= current:
        told = f"Hand {expected} was already recorded from another phone"
    else:
        told = "This match changed on another phone"
    return Conflict(
        f"{told}: check the score, then enter hand {current + 1}.", {"number": f"the next hand is {current + 1}"}
    )


_INSERT_HAND = insert(Hand.__table__)


def _insert_hand(**columns) -> None:
    """Add a hand's row after the match was claimed (so no other write can add the same number)."""
    try:
        db.session.connection().execute(_INSERT_HAND, columns)
    except IntegrityError:  # a row the app did not write (the claim stops its own writes racing)
        db.session.rollback()
        raise Conflict(CHANGED_ELSEWHERE) from None


@_refusals_undone
def edit_hand(scored: Scored, number: int, raw: Any, note: str | None = None, receipt: Receipt | None = None) -> Scored:
    """Change hand `number`; the hands from it on are replayed from the state before it. A `note`
    given (\"\" for none) replaces the hand's note; None leaves it as it was."""
    note = checked_note(note)
    _store_if_replayed(scored)
    _check_number(scored, number)
    start, records = scored.replayed_from(number)
    was = records[0]
    records[0] = raw
    changed = _rewrite(scored.match, records, number, start=start, first=number)
    state = encode_state(changed.replay.state)  # claimed with the result that follows (one statement)
    _claim(scored.match, state=state, **result_columns(changed, scored.match.version + 1))
    _log(scored.match, "edit", number, was, changed.replay.records[0])
    rows = _rows_read(scored, number) or _rows_from(scored.match, number)
    _store(scored.match, changed.replay, rows)
    if note is not None:
        rows[0].note = note or None
    return _save(changed, receipt=receipt)


NOTE_LIMIT = 200  # characters: a remark, not a diary (the column's width)


def checked_note(note: str | None) -> str | None:
    """A hand's note as kept: one line, trimmed; refused (422) when longer than NOTE_LIMIT."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise Invalid("A note is text.", {"note": "not text"})
    note = " ".join(note.split())
    if len(note) > NOTE_LIMIT:
        raise Invalid(
            f"A note can be {NOTE_LIMIT} characters at most; this one has {len(note)}.",
            {"note": f"at most {NOTE_LIMIT} characters"},
        )
    return note


@_refusals_undone
def delete_hand(scored: Scored, number: int, action: str = "delete", receipt: Receipt | None = None) -> Scored:
    """Remove hand `number`; the hands after it move up one number and are replayed from the state
    before it."""
    _store_if_replayed(scored)
    _check_number(scored, number)
    start, later = scored.replayed_from(number)
    changed = _rewrite(scored.match, later[1:], deleted=number, start=start, first=number)
    _claim(scored.match)
    _log(scored.match, action, number, later[0])
    hands = _rows_from(scored.match, number)
    db.session.delete(hands[0])
    _flush()
    for moved in hands[1:]:  # ascending, so each new number is already free
        moved.number -= 1
        _flush()
    _store(scored.match, changed.replay, hands[1:])
    return _save(changed, receipt=receipt)


@_refusals_undone
def undo_last(scored: Scored, expected: int | None = None, receipt: Receipt | None = None) -> Scored:
    """Take back the last hand; `expected` guards against undoing a hand another phone just added."""
    if not scored.count:
        raise Conflict("There is no hand to undo yet.")
    if expected is not None and expected != scored.count:
        raise Conflict(CHANGED_ELSEWHERE)
    return delete_hand(scored, scored.count, action="undo", receipt=receipt)


def _check_number(scored: Scored, number: Any) -> None:
    if not isinstance(number, int) or not 1 <= number <= scored.count:
        raise NotFound(f"This match has no hand {number}.")


# -- the match as a whole -----------------------------------------------------------------------


@_refusals_undone
def finish_match(scored: Scored, receipt: Receipt | None = None) -> Scored:
    """End a match whose game has no natural end (the table called time)."""
    _store_if_replayed(scored)
    match = scored.match
    if not scored.game.ends_by_call(match.options):
        raise Conflict(f"A {scored.game.name} match ends by itself; it cannot be called.")
    if scored.finished:
        raise Conflict("This match is already over.")
    return _save(_called(scored, True, "finish"), receipt=receipt)


@_refusals_undone
def reopen_match(scored: Scored, receipt: Receipt | None = None) -> Scored:
    """Take back a `finish`: the table plays on."""
    _store_if_replayed(scored)
    if not scored.match.called:
        told = "it ends by itself" if not scored.game.ends_by_call(scored.match.options) else "it was not finished"
        raise Conflict(f"This match cannot be reopened: {told}.")
    return _save(_called(scored, False, "reopen"), receipt=receipt)


def _called(scored: Scored, called: bool, action: str) -> Scored:
    """The match with the table's call made (`finish`) or taken back (`reopen`), claimed with the
    result that follows written in the claim's statement (one round trip, not two), and logged."""
    match = scored.match
    match.called = called
    after = Scored(match, scored.game, scored.table, scored.replay)
    _claim(match, **result_columns(after, match.version + 1))
    _log(match, action)
    return after


@_refusals_undone
def edit_setup(scored: Scored, names: Any = None, options: Any = None, receipt: Receipt | None = None) -> Scored:
    """Fix a match's set-up: who sits where (names in seating order), the first dealer and the
    house rules. Every hand is replayed; a hand the new set-up makes impossible is named (409)."""
    _store_if_replayed(scored)
    match, game = scored.match, scored.game
    names = _clean_names(scored.names if names is None else names)
    if len(names) != len(match.seats):
        raise Invalid(f"This match has {len(match.seats)} seats: name a player for each.", {"players": "seats"})
    merged = {**match.options, **(options or {})} if isinstance(options, Mapping) or options is None else options
    table, parsed = _table_and_options(game, names, merged)
    before = {"players": scored.names, "options": dict(match.options)}
    match.options = parsed
    changed = _rewrite(match, list(scored.replay.records))
    _claim(match)
    unseated = []
    try:
        for seat, name in zip(match.seats, names):
            # Another name seats another player. The same name spelled otherwise keeps the player as
            # it is: players are shared, and only the host renames one everywhere (scorekeeper.players).
            if seat.player.key != name.casefold():
                unseated.append(seat.player_id)
                _reseat(seat, find_or_add_player(name))
        db.session.flush()
    except IntegrityError:  # another phone added one of these new players at the same moment
        db.session.rollback()
        raise Conflict(PLAYERS_BUSY) from None
    _forget_players_without_seats(unseated)
    _log(match, "setup", before=before, after={"players": match.player_names, "options": parsed})
    _store(match, changed.replay, _rows_from(match, 1))
    return _save(changed, receipt=receipt)


def _reseat(seat: Seat, player: Player) -> None:
    """Put `player` in `seat`, moving both players' match counts."""
    seat.player.played -= 1
    seat.player = player
    player.played = (player.played or 0) + 1


@_refusals_undone
def delete_match(match: Match, receipt: Receipt | None = None) -> None:
    """Remove a match and its hands."""
    _claim(match)
    stale = _follow_history(lambda: placing.remove_match(match))
    for seat in match.seats:
        seat.player.played -= 1
    seated = [seat.player_id for seat in match.seats]
    db.session.delete(match)
    _flush()
    _forget_players_without_seats(seated)
    _commit(receipt)
    rerating.wanted(stale)


def _forget_players_without_seats(player_ids: list[int]) -> None:
    """A player left with no seat at all (their only match deleted, or set up with someone else) is
    no player of the club: removed, so the players list shows no one with 0 matches. Checked in the
    statement itself: a match seating them at the same moment keeps them (or, on PostgreSQL, finds
    them gone and seats them anew)."""
    seated = select(Seat.id).where(Seat.player_id == Player.id).exists()
    unseated = db.session.scalars(select(Player.id).where(Player.id.in_(player_ids), ~seated)).all()
    if not unseated:
        return
    # A finish taken back leaves two players' tally of their matches together at zero: it goes first.
    zeros = delete(PairTally).where(PairTally.player_id.in_(unseated) | PairTally.other_id.in_(unseated))
    db.session.execute(zeros, execution_options={"synchronize_session": False})
    gone = delete(Player).where(Player.id.in_(unseated), ~seated)
    db.session.execute(gone, execution_options={"synchronize_session": False})


def _log(match: Match, action: str, number: int | None = None, before: Any = None, after: Any = None) -> None:
    """Keep a change in the match's log (the hands stay the truth; the log says what they were)."""
    row = {"match_id": match.id, "action": action, "number": number, "before": before, "after": after}
    db.session.execute(_LOG_INSERT, row)  # `at`: the column's default


_LOG_INSERT = insert(MatchEvent.__table__)


# -- what a write stores ------------------------------------------------------------------------


def hand_columns(done: HandResult, record: dict) -> dict:
    """The columns that keep what a hand did beside its record, its API answer among them (stored
    so a long match's answer is joined, not built: building 600 hands' answers costs 12 ms)."""

    texts = [reason.text for reason in done.reasons]
    return {
        "state": encode_state(done.state),
        "changes": list(done.changes),
        "reasons": [stored_reason(reason) for reason in done.reasons],
        "game_winner": done.game_winner,
        "answer": hand_answer(record, done.changes, texts),
    }


def result_columns(scored: Scored, version: int) -> dict[str, Any]:
    """The match's columns that follow from its state, stamped with the version they belong to."""
    result = scored.result
    return {
        "status": FINISHED if result.over else IN_PROGRESS,
        "winner": result.winner,
        "headline": result.headline if result.over else None,  # marked: rendered where it is shown
        "headline_message": to_json(result.headline) if result.over and isinstance(result.headline, Text) else None,
        "state_version": version,
    }


@_refusals_undone
def store_anew(scored: Scored) -> Scored:
    """Store a match replayed from its hands in full (`flask verify --store`): every hand's columns,
    the match's state and result and its seats' outcomes; commit."""
    _store(scored.match, scored.replay, _rows_from(scored.match, 1))
    return _save(scored)


def _store_if_replayed(scored: Scored) -> None:
    """A match read by replaying its hands (from before states were stored) is stored in full first,
    in the same write."""
    if not scored.stored:
        _store(scored.match, scored.replay, _rows_from(scored.match, 1))


def _rows_read(scored: Scored, first: int) -> list[Hand] | None:
    """The rows of hands `first`.. where reading the match for the write has loaded them already."""
    if not scored.stored:
        return None
    loaded = scored.replay.hands.loaded
    numbers = range(first, scored.count + 1)
    return [loaded[n] for n in numbers] if all(n in loaded for n in numbers) else None


def _rows_from(match: Match, first: int) -> list[Hand]:
    """The rows of the match's hands `first`.., in order."""
    found = db.select(Hand).where(Hand.match_id == match.id, Hand.number >= first).order_by(Hand.number)
    return list(db.session.scalars(found))


def _store(match: Match, done: Replay, rows: list[Hand]) -> None:
    """Keep the replayed hands' records, states, changes and reasons on their `rows` (the ORM writes
    the columns that changed, `updated` with them) and the state after the last as the match's."""
    for row, record, result in zip(rows, done.records, done.results):
        for name, value in {"record": record, **hand_columns(result, record)}.items():
            setattr(row, name, value)
    state = encode_state(done.state)
    if match.state != state:  # a claim may have written it already: left alone, the match stays out of the flush
        match.state = state


def _save(
    scored: Scored, wrote: dict | None = None, answer_from: int | None = None, receipt: Receipt | None = None
) -> Scored:
    """Write the derived result on the match, stamp its stored state with this write's version
    (claimed before the commit), commit, and give back the match as now stored (with `wrote`, the
    hands this write added, kept for the answer; from `answer_from` on, the hands' stored answers,
    read before the commit: on PostgreSQL a read after it costs two round trips more)."""
    match = scored.match
    for name, value in result_columns(scored, match.version).items():
        if getattr(match, name) != value:  # a claim may have written it already
            setattr(match, name, value)
    was_over = any(seat.outcome is not None for seat in match.seats)
    for seat in match.seats:
        seat.outcome = scored.result.outcome(seat.side)
    stale = _follow_history(lambda: placing.place_match(scored, was_over))  # nothing at all for a match in play
    # What was just written is what is stored: answer from it, not from decoding it back.
    stored = StoredReplay(scored.game, scored.table, match, scored.replay.state, wrote)
    saved = Scored(match, scored.game, scored.table, stored)
    if answer_from is not None:
        _flush()
        stored.answered[answer_from] = saved.answers(answer_from)
    _commit(receipt)
    rerating.wanted(stale)
    return saved


def _follow_history(change) -> set[str]:
    """The players' stories follow the match in the write's transaction (records.stories); the games
    left to re-rate after the commit. A clash with another write is this write's conflict."""
    try:
        return change()
    except (IntegrityError, OperationalError) as error:
        db.session.rollback()
        raise clash_or_trouble(error, Conflict(CHANGED_ELSEWHERE)) from None


def _rewrite(
    match: Match, records: list[Any], changed: int = 0, deleted: int = 0, start=None, first: int = 1
) -> Scored:
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
        message = f"{game.hand_word.capitalize()} {number} would no longer be possible: {error.reason}"
        raise Conflict(message, {"number": f"hand {number}"}) from None
    return Scored(match, game, table, done)
