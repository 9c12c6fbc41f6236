"""each player's story per game (what every finished match gave each seat, the ratings and streaks
after it), two players' finished matches together and their tallies, and game nights (each match's
night, a night's name)

Revision ID: 0010_player_stories_and_nights
Revises: 0009_phone_holds_and_receipts

The stories of the matches finished before are worked out here, with the app's own code as of this
revision (scorekeeper.records.stories.rebuilding.rebuild, which reads rows only, through this connection); each
match's night from the moment it was started, in the place's time zone (SCOREKEEPER_TIME_ZONE, else
the server's).
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.models import UtcDateTime

revision = "0010_player_stories_and_nights"
down_revision = "0009_phone_holds_and_receipts"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "night",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_night")),
    )
    op.create_table(
        "rating_book",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("places", sa.Integer(), nullable=False),
        sa.Column("stale_from", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("game", name=op.f("pk_rating_book")),
    )
    op.create_table(
        "pair_tally",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("other_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("partners", sa.Integer(), nullable=False),
        sa.Column("partners_won", sa.Integer(), nullable=False),
        sa.Column("partners_lost", sa.Integer(), nullable=False),
        sa.Column("against", sa.Integer(), nullable=False),
        sa.Column("ahead", sa.Integer(), nullable=False),
        sa.Column("behind", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["other_id"], ["player.id"], name=op.f("fk_pair_tally_other_id_player")),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_pair_tally_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "other_id", "game", name=op.f("pk_pair_tally")),
    )
    op.create_table(
        "pair_match",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("other_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_pair_match_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["other_id"], ["player.id"], name=op.f("fk_pair_match_other_id_player")),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_pair_match_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "other_id", "match_id", name=op.f("pk_pair_match")),
    )
    op.create_index(op.f("ix_pair_match_match_id"), "pair_match", ["match_id"], unique=False)
    op.create_table(
        "rated_seat",
        sa.Column("match_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("position", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("finished", UtcDateTime(timezone=True), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("hand_total", sa.Integer(), nullable=False),
        sa.Column("best_hand", sa.Integer(), nullable=True),
        sa.Column("games_won", sa.Integer(), nullable=False),
        sa.Column("games_lost", sa.Integer(), nullable=False),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("all_hands", sa.Integer(), nullable=False),
        sa.Column("all_total", sa.Integer(), nullable=False),
        sa.Column("all_best", sa.Integer(), nullable=True),
        sa.Column("all_games_won", sa.Integer(), nullable=False),
        sa.Column("all_games_lost", sa.Integer(), nullable=False),
        sa.Column("kept", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_rated_seat_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_rated_seat_player_id_player")),
        sa.PrimaryKeyConstraint("match_id", "position", name=op.f("pk_rated_seat")),
    )
    op.create_index("ix_rated_seat_game_place", "rated_seat", ["game", "place", "position"], unique=False)
    op.create_index("ix_rated_seat_player_game_number", "rated_seat", ["player_id", "game", "number"], unique=False)
    op.create_index("ix_rated_seat_player_game_place", "rated_seat", ["player_id", "game", "place"], unique=False)
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("night", sa.Integer(), nullable=True))
    op.create_index("ix_match_night", "match", ["night", "id"], unique=False)
    connection = op.get_bind()
    _fill_nights(connection)
    from scorekeeper.records.stories.rebuilding import rebuild

    rebuild(connection)


def _fill_nights(connection):
    from scorekeeper.models import as_utc
    from scorekeeper.records.nights import current_zone, night_of

    match = sa.table(
        "match", sa.column("id", sa.Integer()), sa.column("created", UtcDateTime()), sa.column("night", sa.Integer())
    )
    zone = current_zone()
    rows = connection.execute(sa.select(match.c.id, match.c.created)).all()
    nights = [{"match_id": match_id, "night": night_of(as_utc(created), zone)} for match_id, created in rows]
    for start in range(0, len(nights), 5000):
        connection.execute(
            match.update().where(match.c.id == sa.bindparam("match_id")).values(night=sa.bindparam("night")),
            nights[start : start + 5000],
        )


def downgrade():
    op.drop_index("ix_match_night", table_name="match")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("night")
    op.drop_index("ix_rated_seat_player_game_place", table_name="rated_seat")
    op.drop_index("ix_rated_seat_player_game_number", table_name="rated_seat")
    op.drop_index("ix_rated_seat_game_place", table_name="rated_seat")
    op.drop_table("rated_seat")
    op.drop_table("pair_tally")
    op.drop_index(op.f("ix_pair_match_match_id"), table_name="pair_match")
    op.drop_table("pair_match")
    op.drop_table("night")
    op.drop_table("rating_book")
