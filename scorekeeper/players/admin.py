"""The host's changes to a player everywhere: rename one, or merge two who are the same person.

A match's set-up only ever seats its own players (records.writes.edit_setup); these are the only changes
to a shared player. The command line (`flask players`) and the host's page both call them, so they
refuse with the same sentences (on the page in its language; the command line's are English). Every
match that shows the change moves its version on (a watching phone reloads, a replay kept for the old
version is never served) but keeps its `updated` time: the table did not play. Nothing is replayed:
stored texts name sides by marks, rendered at read time. A merge moves the players' stories too
(records.stories): every later match of the games concerned is rated again, as one player's."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy import case, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import aliased

from ..errors import Conflict, Invalid, NotFound
from ..extensions import db
from ..faults import clash_or_trouble
from ..games import GAMES
from ..models import Match, MatchEvent, Player, Seat
from ..records.stories import placing, rerating
from ..records.writes import NAME_LIMIT, clean_name

BUSY = _l("The players were changed from elsewhere just now; look again and try again.")


def rename(old: str, new: str) -> str:
    """Call player `old` `new` in every match; says what was done."""
    player = find(old)
    new = clean_name(new)
    other = db.session.scalar(select(Player.name).where(Player.key == new.casefold(), Player.id != player.id))
    if other is not None:
        raise Conflict(_('"%(name)s" is another player already: if they are the same person, merge them.', name=other))
    was = player.name
    if new == was:
        return _('"%(name)s" is already called that: nothing changed.', name=was)
    moved = _move_versions(player.id)
    player.name, player.key = new, new.casefold()
    _commit()
    return ngettext(
        '"%(was)s" is now "%(new)s", in %(num)d match.',
        '"%(was)s" is now "%(new)s", in %(num)d matches.',
        moved,
        was=was,
        new=new,
    )


def merge(source: str, target: str) -> str:
    """Move every seat of player `source` to player `target` (the same person) and remove
    `source`; says what was done."""
    leaving, staying = find(source), find(target)
    if leaving.id == staying.id:
        raise Invalid(
            _('"%(one)s" and "%(other)s" are one player already: choose two players.', one=leaving.name, other=target)
        )
    _refuse_shared(leaving, staying)
    moved = _move_versions(leaving.id)
    _log_seats(leaving, staying)
    for seat in db.session.scalars(select(Seat).where(Seat.player_id == leaving.id)).all():
        seat.player_id = staying.id
    db.session.flush()
    stale = placing.merge_players(leaving.id, staying.id)  # their finished matches re-rated as one player's
    staying.played = db.session.scalar(select(func.count()).where(Seat.player_id == staying.id))
    db.session.delete(leaving)
    _commit()
    rerating.wanted(stale)
    return ngettext(
        '"%(source)s" is merged into "%(target)s": %(num)d match moved.',
        '"%(source)s" is merged into "%(target)s": %(num)d matches moved.',
        moved,
        source=leaving.name,
        target=staying.name,
    )


def find(name: str) -> Player:
    """The player called `name` (case and spacing aside), or a refusal naming it."""
    if not name or not name.strip():
        raise Invalid(_("Choose a player."))
    try:
        key = clean_name(name).casefold()
    except Invalid:
        key = None  # not a name a player can have
    found = key and db.session.scalar(select(Player).where(Player.key == key))
    if not found:
        shown = name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT] + "…"
        raise NotFound(_('There is no player called "%(name)s".', name=shown))
    return found


def _refuse_shared(leaving: Player, staying: Player) -> None:
    """Refuse a merge of two players who sit in one match: they would be two seats of one person."""
    other = aliased(Seat)
    shared = db.session.execute(
        select(Match.id, Match.game)
        .join(Seat, Seat.match_id == Match.id)
        .join(other, other.match_id == Match.id)
        .where(Seat.player_id == leaving.id, other.player_id == staying.id)
        .order_by(Match.id)
        .limit(3)
    ).all()
    if shared:
        where = ", ".join(f"{GAMES[game].name} #{match_id}" for match_id, game in shared)
        # Translators: %(matches)s lists matches by game and number: "Court Piece #12, Envite #15"
        raise Conflict(
            _(
                '"%(one)s" and "%(other)s" both sit in %(matches)s: they would be two seats of one person '
                "there. Fix that match's set-up first.",
                one=leaving.name,
                other=staying.name,
                matches=where,
            )
        )


def _move_versions(player_id: int) -> int:
    """Move on the version of every match `player_id` sits in (its stored state stays its own where
    it was); how many matches."""
    table = Match.__table__
    stored_state = case((table.c.state_version == table.c.version, table.c.version + 1), else_=table.c.state_version)
    moved = db.session.execute(
        update(table)
        .where(table.c.id.in_(select(Seat.match_id).where(Seat.player_id == player_id)))
        .values(version=table.c.version + 1, state_version=stored_state, updated=table.c.updated)
    )
    return moved.rowcount


def _log_seats(leaving: Player, staying: Player) -> None:
    """Keep the merge in the log of each match it changes, as a set-up change: the players before and after."""
    seated = db.session.execute(
        select(Seat.match_id, Seat.player_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.match_id.in_(select(Seat.match_id).where(Seat.player_id == leaving.id)))
        .order_by(Seat.match_id, Seat.position)
    ).all()
    names: dict[int, list[tuple[int, str]]] = {}
    for match_id, player_id, name in seated:
        names.setdefault(match_id, []).append((player_id, name))
    for match_id, seats in names.items():
        before = [name for _player, name in seats]
        after = [staying.name if player_id == leaving.id else name for player_id, name in seats]
        db.session.add(
            MatchEvent(match_id=match_id, action="setup", before={"players": before}, after={"players": after})
        )


def _commit() -> None:
    try:
        db.session.commit()
    except (IntegrityError, OperationalError) as error:  # a player of that name added, or a match changed, meanwhile
        db.session.rollback()
        raise clash_or_trouble(error, Conflict(BUSY)) from None
