"""what keeps the lists flat as the club grows: each player's count of matches, each seat's game
(so a player's record per game is one index's count), and indexes for the home page's lists

Revision ID: 0005_counts_for_flat_pages
Revises: 0004_stored_states
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_counts_for_flat_pages"
down_revision = "0004_stored_states"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ALTER: SQLite would otherwise copy the player table, which seats refer to.
    op.add_column("player", sa.Column("played", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("game", sa.String(length=32), nullable=True))
    op.execute("UPDATE player SET played = (SELECT COUNT(*) FROM seat WHERE seat.player_id = player.id)")
    op.execute("UPDATE seat SET game = (SELECT game FROM match WHERE match.id = seat.match_id)")
    with op.batch_alter_table("seat") as batch:
        batch.alter_column("game", nullable=False, existing_type=sa.String(length=32))
        batch.drop_index("ix_seat_player_outcome")
        batch.create_index("ix_seat_player_game_outcome", ["player_id", "game", "outcome"])
    with op.batch_alter_table("match") as batch:
        batch.create_index("ix_match_status_created", ["status", "created"])
        batch.create_index("ix_match_status_updated", ["status", "updated"])


def downgrade():
    with op.batch_alter_table("match") as batch:
        batch.drop_index("ix_match_status_updated")
        batch.drop_index("ix_match_status_created")
    with op.batch_alter_table("seat") as batch:
        batch.drop_index("ix_seat_player_game_outcome")
        batch.create_index("ix_seat_player_outcome", ["player_id", "outcome"])
        batch.drop_column("game")
    op.drop_column("player", "played")
