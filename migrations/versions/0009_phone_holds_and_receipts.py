"""the matches each phone may score (by the hash of its cookie), and the first answer to a write
sent with a one-time token

Revision ID: 0009_phone_holds_and_receipts
Revises: 0008_hand_notes
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_phone_holds_and_receipts"
down_revision = "0008_hand_notes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "phone_hold",
        sa.Column("phone_hash", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_phone_hold_match_id_match"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("phone_hash", "match_id", name=op.f("pk_phone_hold")),
    )
    op.create_index(op.f("ix_phone_hold_match_id"), "phone_hold", ["match_id"], unique=False)
    op.create_table(
        "write_receipt",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("request", sa.String(length=200), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("location", sa.String(length=200), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_write_receipt")),
    )
    op.create_index(op.f("ix_write_receipt_created"), "write_receipt", ["created"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_write_receipt_created"), table_name="write_receipt")
    op.drop_table("write_receipt")
    op.drop_index(op.f("ix_phone_hold_match_id"), table_name="phone_hold")
    op.drop_table("phone_hold")
