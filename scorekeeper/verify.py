"""`flask verify`: the hands are the truth. Replay every match from its hands and compare with
what is stored (the state after each hand, its changes and reasons, the match's state and result);
report every difference, and with --store write the replayed values where they differ."""

from __future__ import annotations

import click
from flask import Flask

from . import jsontext, tallies
from .extensions import db
from .games import get_game, replay
from .models import Hand, Match
from .service import Scored, _save, _store, hand_answer
from .games.base import encode_state, marked_sides


def differences(match: Match) -> list[str]:
    """What the stored values of one match get wrong, as sentences (empty: all agree)."""
    with marked_sides():  # stored texts name sides by marks
        return _differences(match)


def _differences(match: Match) -> list[str]:
    game = get_game(match.game)
    table = game.table(len(match.seats), match.seat_sides)
    rows = db.session.scalars(db.select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)).all()
    done = replay(game, table, match.options, [row.record for row in rows])
    found = []
    if match.state != encode_state(done.state) or match.state_version != match.version:
        found.append(f"match {match.id}: the stored state is not the replayed one")
    for row, record, result in zip(rows, done.records, done.results):
        reasons = [[reason.text, str(reason.rule)] for reason in result.reasons]
        if (row.state, row.changes, row.reasons) != (encode_state(result.state), result.changes, reasons):
            found.append(f"match {match.id}, hand {row.number}: stored values differ from the replay")
        elif row.answer is not None and jsontext.loads(row.answer) != jsontext.loads(
                hand_answer(record, result.changes, [reason.text for reason in result.reasons])):
            found.append(f"match {match.id}, hand {row.number}: its stored answer differs from the replay")
    result = game.result(done.state, called=match.called)
    if (match.status == "finished") != result.over or match.winner != result.winner:
        found.append(f"match {match.id}: its status or winner differs from the replay")
    return found


def verify_all(store: bool = False, batch: int = 500) -> tuple[int, list[str]]:
    """Check every match (a batch at a time, by id), then the players' records per game; with
    `store`, write the replayed values and count the records again."""
    checked, problems, last = 0, [], 0
    while True:
        ids = db.session.scalars(db.select(Match.id).where(Match.id > last).order_by(Match.id).limit(batch)).all()
        if not ids:
            off = tallies.differences()
            if off and store:
                tallies.rebuild()
                db.session.commit()
            return checked, problems + off
        for match_id in ids:
            match = db.session.get(Match, match_id)
            found = differences(match)
            problems += found
            if found and store:
                _heal(match)
            checked, last = checked + 1, match_id
        db.session.expunge_all()


def _heal(match: Match) -> None:
    with marked_sides():
        _store_replayed(match)


def _store_replayed(match: Match) -> None:
    game = get_game(match.game)
    table = game.table(len(match.seats), match.seat_sides)
    rows = db.session.scalars(db.select(Hand.record).where(Hand.match_id == match.id).order_by(Hand.number)).all()
    done = replay(game, table, match.options, rows)
    _store(match, done, first=1)
    _save(Scored(match, game, table, done))


def register(app: Flask) -> None:
    @app.cli.command("verify")
    @click.option("--store", is_flag=True, help="Write the replayed values where the stored ones differ.")
    def verify(store: bool) -> None:
        """Replay every match from its hands and report where the stored state differs."""
        checked, problems = verify_all(store)
        for problem in problems:
            click.echo(problem)
        click.echo(f"{checked} matches checked, {len(problems)} differences" + (" (stored anew)" if store and problems else ""))
        if problems and not store:
            raise SystemExit(1)
