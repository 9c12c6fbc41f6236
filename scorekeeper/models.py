"""The record: players, matches, who sits where, and the hands as entered.

The hands are the truth; every score is derived by replaying them through the match's game."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, String, Text, TypeDecorator, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db


def now_utc() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator):
    """A moment stored in UTC and always read back with its offset. PostgreSQL keeps the zone;
    SQLite keeps none, so its times (written in UTC) are marked UTC when read: the API's times
    carry +00:00 on both databases."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> datetime | None:
        return None if value is None else as_utc(value)

    def process_result_value(self, value: datetime | None, dialect) -> datetime | None:
        return None if value is None else as_utc(value)


def as_utc(moment: datetime) -> datetime:
    """The same instant in UTC; a time without a zone is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


Stamp = UtcDateTime()

IN_PROGRESS = "in_progress"
FINISHED = "finished"
WON, SHARED, LOST, DRAWN = "won", "shared", "lost", "drawn"  # a seat's outcome, as the engine's Result says


class Player(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # The name case-folded in Python: "Émile" and "émile" are one player on every database
    # (SQLite's lower() only folds ASCII).
    key: Mapped[str] = mapped_column(String(160), unique=True)  # folding can lengthen a name
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc)
    # How many matches the player has a seat in, kept by records/writes.py: the players list reads it
    # instead of counting every seat ever taken.
    played: Mapped[int] = mapped_column(default=0, server_default="0")

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


class Match(db.Model):
    # The home page's lists: matches in play (or set aside) newest first, without a sort of them all.
    __table_args__ = (
        Index("ix_match_status_created", "status", "created"),
        Index("ix_match_status_updated", "status", "updated"),
        Index("ix_match_night", "night", "id"),
        # A match's number is never given again, even after the newest match is deleted: a kept watch
        # link or a printed "#15" always means the same table (PostgreSQL's sequences never reuse one).
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    options: Mapped[dict] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=IN_PROGRESS, index=True)
    # Derived from the replay and kept so lists need no replay; the hands stay the truth.
    winner: Mapped[int | None]
    headline: Mapped[str | None] = mapped_column(String(200))
    # The headline as a message and its values (games/texts.py), so a list shows it in the reader's language.
    headline_message: Mapped[dict | None] = mapped_column(JSON)
    # The table called the end (a game with no natural end, e.g. Court Piece on time).
    called: Mapped[bool] = mapped_column(default=False)
    # Bumped by every change to the hands or the end (records.writes): two phones writing at once
    # cannot both win, since the ORM's UPDATE of a match holds WHERE version = <as read> (the mapper's
    # version_id_col, below), and a replay cached for one version is never served for another.
    version: Mapped[int] = mapped_column(default=0)
    # The writes move the version on themselves (records.writes._claim); the ORM checks it.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}
    # The state after the last hand (engine encode_state), written with every change and stamped
    # with the version it belongs to: a page reads it instead of replaying (the hands stay the truth).
    state: Mapped[dict | None] = mapped_column(JSON)
    state_version: Mapped[int | None]
    # The match's write key is shown once, to the phone that starts it; only its hash is kept.
    key_hash: Mapped[str | None] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc, index=True)
    updated: Mapped[datetime] = mapped_column(Stamp, default=now_utc, onupdate=now_utc)
    # The game night the match was started on, as its date (20261127: the evening of 27 November,
    # until 6 in the morning after), fixed when it starts (history.nights): a night's matches are one
    # index range, and the list of nights one index probe a night.
    night: Mapped[int | None]

    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )
    events: Mapped[list[MatchEvent]] = relationship(
        back_populates="match", order_by="MatchEvent.id", cascade="all, delete-orphan"
    )

    @property
    def player_names(self) -> list[str]:
        return [seat.player.name for seat in self.seats]

    @property
    def seat_sides(self) -> list[int]:
        return [seat.side for seat in self.seats]

    @property
    def winner_names(self) -> list[str]:
        """Who won a finished match, alone or sharing the win (empty while in play, or for a draw)."""
        if self.status != FINISHED:
            return []
        return [seat.player.name for seat in self.seats if seat.outcome in (WON, SHARED)]


class Seat(db.Model):
    # A player's record per game is counted from this index alone.
    __table_args__ = (
        UniqueConstraint("match_id", "position"),
        Index("ix_seat_player_game_outcome", "player_id", "game", "outcome"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    position: Mapped[int]
    side: Mapped[int]
    game: Mapped[str] = mapped_column(String(32))  # the match's game, copied: a match never changes game
    # won, shared, lost or drawn once the match is over (engine Result.outcome); None in play.
    outcome: Mapped[str | None] = mapped_column(String(8))

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")


class Hand(db.Model):
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]
    record: Mapped[dict] = mapped_column(JSON)
    entered_by: Mapped[str | None] = mapped_column(String(40))  # "web" or "api"
    # What the hand did, kept beside it: the state after it, the change per side and the reasons
    # (texts with marked sides), so a page or an edit starts from here instead of replaying.
    state: Mapped[dict | None] = mapped_column(JSON)
    changes: Mapped[list | None] = mapped_column(JSON)
    reasons: Mapped[list | None] = mapped_column(JSON)
    game_winner: Mapped[int | None]
    # The hand as the API shows it, JSON text without its number (record, changes, reasons with the
    # sides by letter): a long match's answer joins these instead of building 600 hands anew.
    answer: Mapped[str | None] = mapped_column(Text)
    # The form's one-time token: the same form arriving twice (double tap, refresh) is one hand.
    token: Mapped[str | None] = mapped_column(String(64))
    # The table's own remark on the hand (NOTE_LIMIT characters at most): shown and exported, never scored.
    note: Mapped[str | None] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc)
    updated: Mapped[datetime] = mapped_column(Stamp, default=now_utc, onupdate=now_utc)

    match: Mapped[Match] = relationship(back_populates="hands")


class MatchEvent(db.Model):
    """A change to a match after the fact (an edit, a deletion, an undo, a finish taken back, a new
    set-up): the match's log, so a table can see what was changed and how it stood before."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))
    number: Mapped[int | None]  # the hand it concerns, as numbered before the change
    before: Mapped[dict | None] = mapped_column(JSON)
    after: Mapped[dict | None] = mapped_column(JSON)
    by: Mapped[str | None] = mapped_column(String(8))  # "web" or "api"
    at: Mapped[datetime] = mapped_column(Stamp, default=now_utc)

    match: Mapped[Match] = relationship(back_populates="events")


class RatedSeat(db.Model):
    """A seat of a finished match as the history counts it (scorekeeper.history): what the match
    gave that seat's player (the side's rank and outcome, its hands, the game's own figures) and the
    player's story in that game after it (rating, streaks, totals). One row per seat; `place` orders
    a game's finished matches as they finished, and each row's story follows from the row before it
    of the same player and game, so a change re-rates from the changed match on."""

    __table_args__ = (
        Index("ix_rated_seat_game_place", "game", "place", "position"),
        Index("ix_rated_seat_player_game_place", "player_id", "game", "place"),
        Index("ix_rated_seat_player_game_number", "player_id", "game", "number"),
    )

    match_id: Mapped[int] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    position: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    game: Mapped[str] = mapped_column(String(32))
    place: Mapped[int]
    finished: Mapped[datetime] = mapped_column(Stamp, default=now_utc)
    # What the match gave this seat.
    side: Mapped[int]
    rank: Mapped[int]  # 1 is best; sides that tie share a rank (OpenSkill's ranks)
    outcome: Mapped[str] = mapped_column(String(8))
    hands: Mapped[int]
    hand_total: Mapped[int]  # the side's changes added up
    best_hand: Mapped[int | None]  # the side's best change (the lowest where lower is better)
    games_won: Mapped[int]
    games_lost: Mapped[int]
    figures: Mapped[dict] = mapped_column(JSON)  # the game's own statistics for this side: {key: value}
    # The player's story in this game after this match.
    number: Mapped[int]  # how many finished matches of the game so far, this one included
    won: Mapped[int]
    shared: Mapped[int]
    lost: Mapped[int]
    drawn: Mapped[int]
    streak: Mapped[int]  # matches won (or shared) in a row, ending here
    best_streak: Mapped[int]
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    all_hands: Mapped[int]
    all_total: Mapped[int]
    all_best: Mapped[int | None]
    all_games_won: Mapped[int]
    all_games_lost: Mapped[int]
    kept: Mapped[dict] = mapped_column(JSON)  # the game's own statistics added up as each declares


class RatingBook(db.Model):
    """Per game: the last place given to a finished match, and where its ratings are being worked out
    again from (None: every story of the game is up to date)."""

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    places: Mapped[int] = mapped_column(default=0)
    stale_from: Mapped[int | None]


class PairTally(db.Model):
    """Two players' finished matches of one game together, from the first player's side: as partners
    (won, lost, other) and as opponents (ahead, behind, level). Kept both ways round, so a player's
    pairs are one index range."""

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, autoincrement=False)
    other_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    partners: Mapped[int] = mapped_column(default=0)
    partners_won: Mapped[int] = mapped_column(default=0)
    partners_lost: Mapped[int] = mapped_column(default=0)
    against: Mapped[int] = mapped_column(default=0)
    ahead: Mapped[int] = mapped_column(default=0)
    behind: Mapped[int] = mapped_column(default=0)


class PairMatch(db.Model):
    """A finished match two players sat in (the lower id first): their matches together are one
    index range, newest first, however many matches each played without the other."""

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, autoincrement=False)
    other_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, autoincrement=False)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), primary_key=True, autoincrement=False, index=True
    )


class Night(db.Model):
    """A game night's own name, given by the table ("Friday at the club"); a night without one is
    called by its date. The id is the night's date as a number (20261127), as on `Match.night`."""

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(60))


class PhoneHold(db.Model):
    """A phone that may score a match: the hash of the phone's long-lived cookie beside the match.
    The cookie carries no match key, and a phone holds any number of matches without one dropping out."""

    phone_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), primary_key=True, index=True)
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc)


class HostSignIn(db.Model):
    """A host's sign-in (players/views.py), by the hash of the random token its session cookie holds
    and of the password it was made with: signing out deletes it, so every copy of the cookie is
    signed out; a new password leaves every one unmatched."""

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc)


class WriteReceipt(db.Model):
    """The first answer to a write sent with a one-time token (a form's token or an API
    `Idempotency-Key`): the same write sent again, after its answer was lost, gets this answer again
    instead of being carried out twice."""

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    request: Mapped[str] = mapped_column(String(200))  # method and path: a token reused elsewhere is refused
    status: Mapped[int]
    location: Mapped[str | None] = mapped_column(String(200))
    body: Mapped[str | None] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(Stamp, default=now_utc, index=True)
