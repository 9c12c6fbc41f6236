"""each hand as the API shows it, stored beside it, so a long match's answer joins them

Revision ID: 0007_hand_answers
Revises: 0006_player_tallies
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_hand_answers"
down_revision = "0006_player_tallies"
branch_labels = None
depends_on = None


def upgrade():
    # Empty for the hands already played: the API builds their answer until the match next changes
    # (or `flask verify --store` writes it).
    op.add_column("hand", sa.Column("answer", sa.Text(), nullable=True))


def downgrade():
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("answer")
