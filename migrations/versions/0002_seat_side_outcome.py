"""each seat keeps its side and, once the match is over, its outcome

Revision ID: 0002_seat_side_outcome
Revises: 0001_initial

A seat's side used to be worked out from the game (partnership games alternate sides); it is now
stored, so a table can seat any number of sides. The outcome (won, shared, lost, drawn) is stored
per seat when a match ends, so a player's record is counted by the database, not by replaying.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_seat_side_outcome"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

# The partnership games that existed when this revision was written: their seats alternate sides.
PARTNERSHIP_GAMES = ("envite", "court_piece")


def upgrade():
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("side", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("outcome", sa.String(length=8), nullable=True))
    games = ", ".join(f"'{game}'" for game in PARTNERSHIP_GAMES)
    op.execute(
        "UPDATE seat SET side = CASE WHEN (SELECT game FROM match WHERE match.id = seat.match_id) "
        f"IN ({games}) THEN position % 2 ELSE position END"
    )
    op.execute(
        "UPDATE seat SET outcome = (SELECT CASE WHEN match.status <> 'finished' THEN NULL "
        "WHEN match.winner IS NULL THEN 'drawn' WHEN match.winner = seat.side THEN 'won' ELSE 'lost' END "
        "FROM match WHERE match.id = seat.match_id)"
    )
    with op.batch_alter_table("seat") as batch:
        batch.alter_column("side", existing_type=sa.Integer(), nullable=False)
        batch.create_index("ix_seat_player_outcome", ["player_id", "outcome"])


def downgrade():
    with op.batch_alter_table("seat") as batch:
        batch.drop_index("ix_seat_player_outcome")
        batch.drop_column("outcome")
        batch.drop_column("side")
