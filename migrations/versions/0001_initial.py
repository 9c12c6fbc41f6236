"""players, matches, seats, hands

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-23 09:25:29.356842

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("headline", sa.String(length=200), nullable=True),
        sa.Column("called", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
    )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_created"), ["created"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_game"), ["game"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_status"), ["status"], unique=False)

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("key", name=op.f("uq_player_key")),
    )
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("entered_by", sa.String(length=40), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_hand_match_id_match"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_hand_match_id_number")),
    )
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_seat_match_id_match"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_seat_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat")),
        sa.UniqueConstraint("match_id", "position", name=op.f("uq_seat_match_id_position")),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seat_player_id"), ["player_id"], unique=False)


def downgrade():
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_player_id"))
        batch_op.drop_index(batch_op.f("ix_seat_match_id"))

    op.drop_table("seat")
    op.drop_table("hand")
    op.drop_table("player")
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_status"))
        batch_op.drop_index(batch_op.f("ix_match_game"))
        batch_op.drop_index(batch_op.f("ix_match_created"))

    op.drop_table("match")
