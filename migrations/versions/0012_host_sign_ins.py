"""the host's sign-ins, kept by the server: signing out ends one for every copy of its cookie

Revision ID: 0012_host_sign_ins
Revises: 0011_translatable_headlines

Hosts signed in before this upgrade sign in again.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_host_sign_ins"
down_revision = "0011_translatable_headlines"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "host_sign_in",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_host_sign_in")),
    )


def downgrade():
    op.drop_table("host_sign_in")
