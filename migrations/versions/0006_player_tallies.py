"""each player's record per game, kept as seats change, so a player page reads one row per game

Revision ID: 0006_player_tallies
Revises: 0005_counts_for_flat_pages
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_player_tallies"
down_revision = "0005_counts_for_flat_pages"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_tally",
        sa.Column("player_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_player_tally_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_player_tally")),
    )
    # Counted once from the seats; from here on every change to a seat moves the counts.
    op.execute(
        "INSERT INTO player_tally (player_id, game, won, shared, lost, drawn) "
        "SELECT player_id, game, "
        "SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 'shared' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN outcome = 'lost' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 'drawn' THEN 1 ELSE 0 END) "
        "FROM seat WHERE outcome IS NOT NULL GROUP BY player_id, game"
    )


def downgrade():
    op.drop_table("player_tally")
