"""`flask players`: the host renames a player everywhere, or merges two who are the same person.

flask --app scorekeeper players rename OLD NEW
flask --app scorekeeper players merge FROM INTO
"""

from __future__ import annotations

from collections.abc import Callable

import click
from flask.cli import AppGroup

from ..errors import ServiceError
from ..extensions import db
from . import admin

players_group = AppGroup("players", help="Rename a player everywhere, or merge two players who are one person.")


def run(change: Callable[[], str]) -> None:
    """Do `change` and say what it did; a refusal is one line and exit status 1, nothing changed."""
    try:
        click.echo(change())
    except ServiceError as refused:
        db.session.rollback()
        raise click.ClickException(refused.message) from None


@players_group.command("rename")
@click.argument("old")
@click.argument("new")
def rename_command(old: str, new: str) -> None:
    """Call player OLD by the name NEW in every match (NEW must not be another player's name)."""
    run(lambda: admin.rename(old, new))


@players_group.command("merge")
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="INTO")
def merge_command(source: str, target: str) -> None:
    """Move every seat of player FROM to player INTO (the same person) and remove FROM."""
    run(lambda: admin.merge(source, target))
