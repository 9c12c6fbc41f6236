"""Fill a Scorekeeper database the way a busy club's would be, fast (used by bench.py).

A club of 60 players plays Court Piece, three hands a match; about two matches in three are
finished (seat outcomes set), the rest still in play; matches were started over the past year.

How: a few dozen template matches are played through the JSON API (so every column holds exactly
what the app writes, including any column the app gains later: stored states, counters...), then
cloned in bulk with Core `insert()` of thousands of rows per statement: each clone gets its own id,
four players drawn from the club, and every timestamp moved to its own moment in the year. Any
table that points at `match` (seats, hands, the match log) is cloned with it, and any column that
points at `player` is moved to the clone's players; columns the bench does not know are copied
as the app wrote them (NULL stays NULL). What the app counts across matches (each player's number
of matches, record per game, and story per game: ratings, streaks and pairs) is counted again after
each fill: see `recount`. A clone's night is the night of the moment it was started on."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, func, insert, select, text

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Match, Player
from scorekeeper.records.connections import reading_only

FIRST = (
    "Ann Bo Cy Di Ed Flo Gus Hal Ivy Jo Kit Lu Max Ned Ola Pia Quin Ros Sam Tia Uma Vic Wes Xia Yan Zoe Abe Bea Cal Dot"
).split()
FAMILY = ["Khan", "Silva"]
CLUB = [f"{first} {family}" for family in FAMILY for first in FIRST]  # 60 players
TEMPLATES = 24
BATCH = 5000  # rows of `match` per round of statements; seats and hands follow (x4, x3)
YEAR = timedelta(days=365)


def club_players(app, names: list[str] = CLUB) -> list[int]:
    """The club's players, added in one statement if not there yet; their ids."""
    with app.app_context():
        known = set(db.session.scalars(select(Player.key)))
        start = datetime.now(UTC) - YEAR - timedelta(days=30)
        rows = [
            {"name": name, "key": name.casefold(), "created": start + timedelta(hours=i)}
            for i, name in enumerate(names)
            if name.casefold() not in known
        ]
        if rows:
            db.session.execute(insert(Player.__table__), rows)
            db.session.commit()
        keys = [name.casefold() for name in names]
        ids = dict(db.session.execute(select(Player.key, Player.id).where(Player.key.in_(keys))).all())
        return [ids[key] for key in keys]


def play_templates(client, rng: random.Random, count: int = TEMPLATES) -> list[int]:
    """Court Piece matches of three hands played through the API; two in three finished by the
    table (most with a winner: the first hand is a court for one side)."""
    game = GAMES["court_piece"]
    made = []
    for i in range(count):
        names = rng.sample(CLUB, 4)
        created = client.post("/api/v1/matches", json={"game": "court_piece", "players": names})
        assert created.status_code == 201, created.json
        match_id, key = created.json["id"], created.json["key"]
        auth = {"Authorization": f"Bearer {key}"}
        table = game.table(4)
        state = game.new_state(table, game.parse_options({}, table))
        finished = i % 3 != 0
        for number in range(3):
            if finished and number == 0:
                record = {"outcome": "first_seven", "side": i % 2, "all_thirteen": False}
            else:
                won = rng.choice([7, 8, 9, 10, 4, 5, 6])
                record = {"outcome": "tricks", "tricks": [won, 13 - won]}
            state = game.apply(state, game.check(state, record)).state
            answer = client.post(f"/api/v1/matches/{match_id}/hands?hands=0", json={"record": record}, headers=auth)
            assert answer.status_code == 201, answer.json
        if finished:
            answer = client.post(f"/api/v1/matches/{match_id}/finish", headers=auth)
            assert answer.status_code == 200, answer.json
        made.append(match_id)
    return made


class Cloner:
    """Copies of the template matches, with every row that belongs to them."""

    def __init__(self, app, template_ids: list[int], player_ids: list[int]):
        self.app, self.players = app, player_ids
        match_table = Match.__table__
        player_table = Player.__table__
        with app.app_context():
            self.children = []  # (table, column pointing at match.id, columns pointing at player.id)
            for table in db.metadata.sorted_tables:
                to_match = [fk.parent.name for fk in table.foreign_keys if fk.column.table is match_table]
                if to_match:
                    to_player = [fk.parent.name for fk in table.foreign_keys if fk.column.table is player_table]
                    self.children.append((table, to_match[0], to_player))
            self.templates = []
            for match_id in template_ids:
                row = dict(db.session.execute(select(match_table).where(match_table.c.id == match_id)).mappings().one())
                kids = {}
                for table, link, _ in self.children:
                    found = db.session.execute(select(table).where(table.c[link] == match_id)).mappings().all()
                    drop = {column.name for column in table.primary_key.columns if numbered(column)}
                    kids[table.name] = [{k: v for k, v in r.items() if k not in drop} for r in found]
                self.templates.append((row, kids))
            self.dates = {
                table.name: [
                    c.name
                    for c in table.columns
                    if isinstance(c.type, DateTime) or isinstance(getattr(c.type, "impl", None), DateTime)
                ]
                for table in [match_table] + [child for child, _, _ in self.children]
            }
            self.postgres = db.engine.dialect.name == "postgresql"

    def count(self) -> int:
        with self.app.app_context():
            return db.session.scalar(select(func.count()).select_from(Match.__table__))

    def grow_to(self, total: int, rng: random.Random, now: datetime | None = None) -> int:
        """Add clones until the database holds `total` matches; returns how many were added.
        Each batch spans the past year, in id order (a later id was started later)."""
        now = now or datetime.now(UTC)
        zone = places_zone()
        match_table = Match.__table__
        with self.app.app_context():
            have = self.count()
            next_id = (db.session.scalar(select(func.max(match_table.c.id))) or 0) + 1
            db.session.remove()
            added = 0
            while have + added < total:
                size = min(BATCH, total - have - added)
                moments = sorted(now - YEAR * rng.random() for _ in range(size))
                matches, kids = [], {table.name: [] for table, _, _ in self.children}
                for moment in moments:
                    row, children = rng.choice(self.templates)
                    shift = moment - row["created"]
                    clone = self._moved(row, "match", shift)
                    clone["id"] = next_id
                    if "night" in clone:  # the evening the clone was started on
                        clone["night"] = night_of(clone["created"], zone)
                    matches.append(clone)
                    seats = children.get("seat", [])
                    chosen = rng.sample(self.players, len(seats)) if seats else []
                    who = {seat["player_id"]: player for seat, player in zip(seats, chosen)}
                    for table, link, to_player in self.children:
                        for child in children[table.name]:
                            copy = self._moved(child, table.name, shift)
                            copy[link] = next_id
                            for column in to_player:
                                if copy.get(column) is not None:
                                    copy[column] = who.get(copy[column], rng.choice(self.players))
                            kids[table.name].append(copy)
                    next_id += 1
                with db.engine.begin() as conn:
                    put(conn, match_table, matches)
                    for table, _, _ in self.children:
                        put(conn, table, kids[table.name])
                added += size
            if added:
                with db.engine.begin() as conn:
                    follow_ids(conn, [match_table])
                    recount(conn)
                vacuum()
            return added

    def _moved(self, row: dict, table: str, shift: timedelta) -> dict:
        copy = dict(row)
        for column in self.dates[table]:
            if copy.get(column) is not None:
                copy[column] = copy[column] + shift
        return copy


def grow_database(url: str, total: int, templates: int = TEMPLATES, seed: int = 38) -> tuple[int, int]:
    """The database at `url` (already built) grown to `total` matches by an app of this process:
    `templates` matches played through its API, then cloned. (matches now, matches added)."""
    from scorekeeper import create_app, sqlalchemy_url

    app = create_app({"SQLALCHEMY_DATABASE_URI": sqlalchemy_url(url), "SECRET_KEY": "fill", "TESTING": True})
    rng = random.Random(seed)
    players = club_players(app)
    cloner = Cloner(app, play_templates(app.test_client(), rng, templates), players)
    added = cloner.grow_to(total, rng)
    with app.app_context():
        db.engine.dispose()
    return cloner.count(), added


def numbered(column) -> bool:
    """An id the database hands out (a clone gets its own); a key that is data (a seat's position) is copied."""
    from scorekeeper.records.data import numbered_by_the_database

    return numbered_by_the_database(column)


def places_zone():
    try:
        from scorekeeper.records.nights import zone
    except ImportError:  # an app from before game nights
        return None
    return zone()


def night_of(moment, zone):
    from scorekeeper.records.nights import night_of as of

    return of(moment, zone)


def recount(conn) -> None:
    """The counts the app keeps across matches, made true again after a bulk fill: each player's
    number of matches (`Player.played`) and record and story per game (records.stories: the cloned seats' rows given their places in the order the
    clones finished, every rating, streak, pair and book worked out again)."""
    player = Player.__table__
    if "played" in player.c:
        from scorekeeper.models import Seat

        seat = Seat.__table__
        count = select(func.count()).select_from(seat).where(seat.c.player_id == player.c.id).scalar_subquery()
        conn.execute(player.update().values(played=count))
    from scorekeeper.records.stories import rebuilding

    rebuilding.rebuild_stories(conn, renumber=True)
    if conn.dialect.name == "postgresql":  # after a bulk load, as PostgreSQL's manual advises (autovacuum
        conn.execute(text("ANALYZE"))  # would get there within a minute; the timing starts now)


def vacuum() -> None:
    """PostgreSQL: after the stories were worked out again (every row of `rated_seat` rewritten), clear
    the old versions out of its indexes, as autovacuum would within a minute or two of a server's
    running: the timing starts now, and a bitmap scan of a player's rows must not walk the dead ones."""
    if db.engine.dialect.name != "postgresql":
        return
    # VACUUM runs outside a transaction: a connection checked out as "reading only" opens none (a
    # writing one is handed out inside a BEGIN: scorekeeper/connections.py).
    with reading_only(), db.engine.connect() as conn:
        conn.execute(text("VACUUM ANALYZE"))


def put(conn, table, rows: list[dict]) -> None:
    """Insert rows in bulk: on PostgreSQL by COPY (each value through its column's own bind
    processing, as an INSERT would send it), elsewhere by one executemany statement."""
    if not rows:
        return
    dialect = conn.dialect
    if dialect.name != "postgresql" or dialect.driver != "psycopg":
        conn.execute(insert(table), rows)
        return
    names = list(rows[0])
    defaults = {
        column.name: column.default
        for column in table.columns
        if column.name not in rows[0] and column.default is not None and not column.primary_key
    }
    if defaults:  # what an INSERT would fill in from the model (COPY knows only the server's defaults)
        values = {
            name: d.arg if d.is_scalar else d.arg(None) for name, d in defaults.items() if d.is_scalar or d.is_callable
        }
        rows = [{**row, **values} for row in rows]
        names = list(rows[0])
    process = [table.c[name].type._cached_bind_processor(dialect) for name in names]
    cursor = conn.connection.driver_connection.cursor()
    columns = ", ".join(dialect.identifier_preparer.quote(name) for name in names)
    with cursor.copy(f"COPY {dialect.identifier_preparer.format_table(table)} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(
                [
                    value if fn is None or value is None else fn(value)
                    for fn, value in zip(process, (row[name] for name in names))
                ]
            )
    cursor.close()


def follow_ids(conn, tables) -> None:
    """PostgreSQL: move each id sequence past the ids given explicitly (SQLite needs nothing)."""
    if conn.dialect.name != "postgresql":
        return
    for table in tables:
        keys = list(table.primary_key.columns)
        if len(keys) == 1 and numbered(keys[0]):  # a key that is data (a game's name) has no sequence
            name, column = table.name, keys[0].name
            conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('\"{name}\"', '{column}'), "
                    f'(SELECT max("{column}") FROM "{name}"))'
                )
            )


def copy_rows(source_rows: dict[str, list[dict]], app) -> None:
    """Put rows read from another database (`snapshot`) into this one, ids and all."""
    with app.app_context():
        with db.engine.begin() as conn:
            tables = [t for t in db.metadata.sorted_tables if source_rows.get(t.name)]
            for table in tables:
                put(conn, table, source_rows[table.name])
            follow_ids(conn, tables)
        db.session.remove()


def snapshot(app) -> dict[str, list[dict]]:
    """Every row of every table the app's models know."""
    with app.app_context():
        rows = {t.name: [dict(r) for r in db.session.execute(select(t)).mappings()] for t in db.metadata.sorted_tables}
        db.session.remove()
    return rows
