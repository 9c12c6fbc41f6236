"""a match's number is never given again: SQLite's AUTOINCREMENT on match.id

Revision ID: 0014_match_numbers_never_reused
Revises: 0013_player_tally_dropped

Without it SQLite gives the next match the number of the newest one just deleted, so a kept watch
link or a printed "#15" would show another table. SQLite rebuilds the table to change it (its rows
copied as they are; migrations/env.py keeps the foreign keys' checks off meanwhile). PostgreSQL's
sequence never reuses a number: nothing to do there.
"""

from alembic import op

revision = "0014_match_numbers_never_reused"
down_revision = "0013_player_tally_dropped"
branch_labels = None
depends_on = None


def upgrade():
    _rebuild(autoincrement=True)


def downgrade():
    _rebuild(autoincrement=False)


def _rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("match", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}):
        pass
