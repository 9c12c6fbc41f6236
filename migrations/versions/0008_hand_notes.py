"""a note on any hand: the table's own remark, shown with the hand and never scored

Revision ID: 0008_hand_notes
Revises: 0007_hand_answers
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_hand_notes"
down_revision = "0007_hand_answers"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("hand", sa.Column("note", sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("note")
