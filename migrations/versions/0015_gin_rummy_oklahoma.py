"""Gin Rummy's new option `oklahoma` (a spade upcard doubles the hand), written off into every stored
Gin Rummy match: its options and each stored state's copy of them

Revision ID: 0015_gin_rummy_oklahoma
Revises: 0014_match_numbers_never_reused

A match keeps every option of its game (parsed), and so does each state stored with it and with its
hands; without the new one `flask verify` would find every earlier Gin Rummy match's options "not as
Scorekeeper keeps them". Off is how those matches were played, so nothing they score changes. A state
keeps its options in the order the game declares them, the new one last. The downgrade takes the
option out where it is off; a match played with it on is left as it is (the older code cannot score it).
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_gin_rummy_oklahoma"
down_revision = "0014_match_numbers_never_reused"
branch_labels = None
depends_on = None

GAME = "gin_rummy"
OPTION = "oklahoma"

match = sa.table(
    "match",
    sa.column("id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("options", sa.JSON),
    sa.column("state", sa.JSON),
)
hand = sa.table("hand", sa.column("id", sa.Integer), sa.column("match_id", sa.Integer), sa.column("state", sa.JSON))


def upgrade():
    _each_gin_rummy_match(_with_option)


def downgrade():
    _each_gin_rummy_match(_without_option)


def _each_gin_rummy_match(change) -> None:
    bind = op.get_bind()
    for match_id, options, state in bind.execute(
        sa.select(match.c.id, match.c.options, match.c.state).where(match.c.game == GAME)
    ).all():
        new_options = change(options)
        if new_options is None:
            continue  # played with the option on: left as it is (downgrade only)
        bind.execute(
            match.update().where(match.c.id == match_id).values(options=new_options, state=_state(state, change))
        )
        for hand_id, hand_state in bind.execute(sa.select(hand.c.id, hand.c.state).where(hand.c.match_id == match_id)):
            bind.execute(hand.update().where(hand.c.id == hand_id).values(state=_state(hand_state, change)))


def _with_option(options: dict) -> dict:
    return options if OPTION in options else {**options, OPTION: False}


def _without_option(options: dict) -> dict | None:
    if options.get(OPTION, False):
        return None
    return {name: value for name, value in options.items() if name != OPTION}


def _state(state, change):
    """A stored state (tagged JSON: its options are {"$d": [[name, value], ...]}) with `change` made
    to its options; a state not stored yet (null) stays null."""
    if not state:
        return state
    pairs = state["f"]["options"]["$d"]
    options = change(dict(pairs))
    fields = {**state["f"], "options": {"$d": [[name, value] for name, value in options.items()]}}
    return {**state, "f": fields}
