"""each player's record per game read from their latest rated seat: player_tally dropped

Revision ID: 0013_player_tally_dropped
Revises: 0012_host_sign_ins

The counts it kept are the ones every `rated_seat` row already holds (won, shared, lost, drawn after
that match): kept twice, they could disagree. A downgrade counts them again from the seats.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_player_tally_dropped"
down_revision = "0012_host_sign_ins"
branch_labels = None
depends_on = None


def upgrade():
    op.drop_table("player_tally")


def downgrade():
    op.create_table(
        "player_tally",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("shared", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_player_tally_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_player_tally")),
    )
    counted = ", ".join(f"SUM(CASE WHEN outcome = '{outcome}' THEN 1 ELSE 0 END)" for outcome in OUTCOMES)
    op.execute(
        f"INSERT INTO player_tally (player_id, game, {', '.join(OUTCOMES)}) "
        f"SELECT player_id, game, {counted} FROM seat WHERE outcome IS NOT NULL GROUP BY player_id, game"
    )


OUTCOMES = ("won", "shared", "lost", "drawn")
