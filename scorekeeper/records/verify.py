"""`flask verify`: the hands are the truth. Replay every match from its hands and compare with
what is stored (the state after each hand, its changes and reasons, the match's state and result,
what it gave each seat in the players' stories); then check the counts kept across matches against a
fresh computation (each player's record per game; the stories, ratings and pairs, every game's
finished matches folded again in their order); report every difference, and with --store write the
replayed and computed values where they differ.

A match the engine cannot replay at all (a game it does not score, seats or options that do not
fit the game, a hand that no longer replays) is reported as such and left alone. `flask import`
takes a file's matches only where `stored_differences` finds nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from flask import Flask

from ..extensions import db
from ..games import GAMES, RecordError, ReplayError, replay
from ..games.base import encode_state, marked_sides
from ..models import Hand, Match
from . import jsontext
from .reads import Scored
from .stories import audit, placing, rebuilding, rerating
from .writes import hand_columns, result_columns, store_anew


class Unscorable(Exception):
    """A stored match the engine cannot replay, said in one sentence."""


def differences(match: Match) -> list[str]:
    """What the stored values of one match get wrong, as sentences (empty: all agree), its seats'
    place in the players' stories included."""
    with marked_sides():
        try:
            scored = replay_stored(match, match.seats, hands := hands_of(match))
        except Unscorable as broken:
            return [str(broken)]
        return _compare(scored, match.seats, hands) + audit.match_differences(scored)


def hands_of(match: Match) -> list[Hand]:
    return db.session.scalars(db.select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)).all()


def stored_differences(match: Any, seats: Sequence[Any], hands: Sequence[Any]) -> list[str]:
    """What the stored values of a match get wrong, as sentences (empty: all agree). `match`, its
    `seats` (by position) and its `hands` (by number) are rows, or anything with their columns as
    attributes (a file being imported). Nothing stored is decoded: a stored state is compared with
    the replayed one's encoding, so a state from elsewhere can never load a class."""
    with marked_sides():  # stored texts name sides by marks
        try:
            scored = replay_stored(match, seats, hands)
        except Unscorable as broken:
            return [str(broken)]
        return _compare(scored, seats, hands)


def replay_stored(match: Any, seats: Sequence[Any], hands: Sequence[Any]) -> Scored:
    """The match replayed from its stored hands; Unscorable says why it cannot be."""
    game = GAMES.get(match.game)
    if game is None:
        raise Unscorable(f"match {match.id}: the game {match.game!r} is not one Scorekeeper scores")
    _check_seats(match, seats)
    _check_numbers(match, hands)
    table = _engine(match, f"its {len(seats)} seats do not fit {game.name}", lambda: game.table(len(seats)))
    if [seat.side for seat in seats] != list(table.seat_sides):
        raise Unscorable(f"match {match.id}: its seats are not on the sides {game.name} gives them")
    options = _engine(match, "its options do not fit the game", lambda: game.parse_options(match.options, table))
    if not same_json(match.options, options):
        raise Unscorable(f"match {match.id}: its options are not as Scorekeeper keeps them")
    if match.called and not game.ends_by_call(match.options):
        raise Unscorable(f"match {match.id}: it is marked as called, but {game.name} ends by itself")
    try:
        done = replay(game, table, match.options, [hand.record for hand in hands])
    except ReplayError as error:
        raise Unscorable(
            f"match {match.id}, hand {error.number}: its record does not replay ({error.reason.rstrip('.')})"
        ) from None
    except Exception as error:  # the engine given values it never wrote; a report, not a crash
        raise Unscorable(f"match {match.id}: its hands do not replay ({type(error).__name__}: {error})") from None
    return Scored(match, game, table, done)


def _check_seats(match: Any, seats: Sequence[Any]) -> None:
    if [seat.position for seat in seats] != list(range(len(seats))):
        raise Unscorable(f"match {match.id}: its seats are not numbered from 0 without a gap")
    if any(seat.game != match.game for seat in seats):
        raise Unscorable(f"match {match.id}: a seat names another game than the match")
    if len({seat.player_id for seat in seats}) != len(seats):
        raise Unscorable(f"match {match.id}: a player has two seats")


def _check_numbers(match: Any, hands: Sequence[Any]) -> None:
    if [hand.number for hand in hands] != list(range(1, len(hands) + 1)):
        raise Unscorable(f"match {match.id}: its hands are not numbered from 1 without a gap")


def _engine(match: Any, what: str, call: Callable[[], Any]) -> Any:
    """`call` into the engine with stored values, any refusal said as `what` is wrong."""
    try:
        return call()
    except RecordError as error:
        raise Unscorable(f"match {match.id}: {what} ({error.message.rstrip('.')})") from None
    except Exception as error:
        raise Unscorable(f"match {match.id}: {what} ({type(error).__name__}: {error})") from None


_REPLAYED = ("state", "changes", "reasons", "game_winner")  # a hand's stored columns, beside its record


def _compare(scored: Scored, seats: Sequence[Any], hands: Sequence[Any]) -> list[str]:
    match, done = scored.match, scored.replay
    found = []
    if not same_json(match.state, encode_state(done.state)) or match.state_version != match.version:
        found.append(f"match {match.id}: the stored state is not the replayed one")
    for hand, record, result in zip(hands, done.records, done.results):
        replayed = hand_columns(result, record)
        replayed["reasons"] = _as_kept(replayed["reasons"], hand.reasons)
        stored = [hand.record, hand.state, hand.changes, hand.reasons, hand.game_winner]
        if not same_json(stored, [record, *(replayed[name] for name in _REPLAYED)]):
            found.append(f"match {match.id}, hand {hand.number}: stored values differ from the replay")
        elif hand.answer is not None and not _same_answer(hand.answer, replayed["answer"]):
            found.append(f"match {match.id}, hand {hand.number}: its stored answer differs from the replay")
    derived = result_columns(scored, match.version)
    if match.headline_message is None:  # kept before headlines kept their message: its English is checked
        derived.pop("headline_message")
    if any(not same_json(getattr(match, name), value) for name, value in derived.items() if name != "state_version"):
        found.append(f"match {match.id}: its status, winner or headline differs from the replay")
    if any(seat.outcome != scored.result.outcome(seat.side) for seat in seats):
        found.append(f"match {match.id}: its seats' outcomes differ from the replay")
    return found


def _as_kept(replayed: list, stored: list | None) -> list:
    """The replayed reasons as the hand keeps them: a hand stored before reasons kept their message
    (migration 0011) keeps [text, rule] only, still right (its pages show it in English)."""
    if stored and len(replayed) == len(stored) and all(len(entry) == 2 for entry in stored):
        return [entry[:2] for entry in replayed]
    return replayed


def _same_answer(answer: Any, replayed: str) -> bool:
    try:
        stored = jsontext.loads(answer)
    except (TypeError, ValueError):  # not JSON text at all
        return False
    return same_json(stored, jsontext.loads(replayed))


def same_json(stored: Any, replayed: Any) -> bool:
    """Equal as JSON keeps them: a tuple is a list, but true is not 1 and 1.0 is not 1."""
    if isinstance(replayed, (list, tuple)):
        return (
            isinstance(stored, list)
            and len(stored) == len(replayed)
            and all(same_json(a, b) for a, b in zip(stored, replayed))
        )
    if isinstance(replayed, dict):
        return (
            isinstance(stored, dict)
            and stored.keys() == replayed.keys()
            and all(same_json(stored[key], value) for key, value in replayed.items())
        )
    return (
        stored == replayed
        and isinstance(stored, bool) == isinstance(replayed, bool)
        and isinstance(stored, float) == isinstance(replayed, float)
    )


@dataclass
class Verification:
    checked: int = 0
    problems: list[str] = field(default_factory=list)
    unhealed: int = 0  # matches --store could not store anew: they do not replay


def verify_all(store: bool = False, batch: int = 500) -> tuple[int, list[str]]:
    """How many matches were checked, and every difference found (see `verification`)."""
    done = verification(store, batch)
    return done.checked, done.problems


def verification(store: bool = False, batch: int = 500) -> Verification:
    """Check every match (a batch at a time, by id), then the players' records per game; with
    `store`, write the replayed values and count the records again."""
    done, last = Verification(), 0
    while True:
        ids = db.session.scalars(db.select(Match.id).where(Match.id > last).order_by(Match.id).limit(batch)).all()
        if not ids:
            done.problems += _kept_counts(store)
            return done
        for match_id in ids:
            match = db.session.get(Match, match_id)
            found = differences(match)
            if found and store and not _heal(match):
                found = [f"{problem}; left as it is, since it cannot be replayed" for problem in found]
                done.unhealed += 1
            done.problems += found
            done.checked, last = done.checked + 1, match_id
        db.session.expunge_all()


def _kept_counts(store: bool) -> list[str]:
    """What the counts kept across matches get wrong (each player's record per game, the players'
    stories, ratings and pairs, checked against a fresh computation); with `store`, put right."""
    if store:
        rerating.rerate_all()  # a re-rating that did not finish (a process stopped meanwhile)
    told = audit.differences()
    if told and store:
        rebuilding.rebuild_stories_now()
    return told


def _heal(match: Match) -> bool:
    """Store the replayed values of a match; False for one that cannot be replayed (left alone)."""
    with marked_sides():
        try:
            scored = replay_stored(match, match.seats, hands_of(match))
        except Unscorable:
            return False
        stored = store_anew(scored)
        if placing.place_again(stored):  # a match in play that the stories still count, say
            db.session.commit()
        return True


def register(app: Flask) -> None:
    @app.cli.command("verify")
    @click.option("--store", is_flag=True, help="Write the replayed values where the stored ones differ.")
    def verify(store: bool) -> None:
        """Replay every match from its hands and report where the stored state differs."""
        done = verification(store)
        for problem in done.problems:
            click.echo(problem)
        click.echo(f"{done.checked} matches checked, {len(done.problems)} differences" + _stored_note(store, done))
        if done.problems and (not store or done.unhealed):
            raise SystemExit(1)


def _stored_note(store: bool, done: Verification) -> str:
    if not (store and done.problems):
        return ""
    if done.unhealed:
        return f" (stored anew, but for {done.unhealed} that cannot be replayed)"
    return " (stored anew)"
