"""a write key per match (its hash), and a log of the changes made to a match

Revision ID: 0003_write_keys_and_log
Revises: 0002_seat_side_outcome

Matches started before this revision have no key: any phone may still write to them, as before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_write_keys_and_log"
down_revision = "0002_seat_side_outcome"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(length=64), nullable=True))
    op.create_table(
        "match_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("by", sa.String(length=8), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_event_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_event")),
    )
    with op.batch_alter_table("match_event") as batch:
        batch.create_index(batch.f("ix_match_event_match_id"), ["match_id"], unique=False)


def downgrade():
    with op.batch_alter_table("match_event") as batch:
        batch.drop_index(batch.f("ix_match_event_match_id"))
    op.drop_table("match_event")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("key_hash")
