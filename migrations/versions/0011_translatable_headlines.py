"""a finished match's headline kept as a message and its values beside its English, so a list shows
it in the reader's language (a hand's reasons keep theirs in the same JSON column as before)

Revision ID: 0011_translatable_headlines
Revises: 0010_player_stories_and_nights

Matches finished before keep their English headline until `flask verify --store` works them out again.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_translatable_headlines"
down_revision = "0010_player_stories_and_nights"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("match", sa.Column("headline_message", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("match") as batch:
        batch.drop_column("headline_message")
