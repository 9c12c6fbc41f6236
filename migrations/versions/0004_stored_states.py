"""the state after each hand and after the last one, stored so that reading never replays

Revision ID: 0004_stored_states
Revises: 0003_write_keys_and_log

Existing matches keep NULLs here until their next change (or `flask verify --store`): until then
the app replays their hands when they are read, as before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_stored_states"
down_revision = "0003_write_keys_and_log"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("state", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("state_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("hand") as batch:
        batch.add_column(sa.Column("state", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("changes", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("reasons", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("game_winner", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("game_winner")
        batch.drop_column("reasons")
        batch.drop_column("changes")
        batch.drop_column("state")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("state_version")
        batch.drop_column("state")
