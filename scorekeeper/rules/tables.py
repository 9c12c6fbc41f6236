"""A rules page opened from a match (`/rules/<key>?match=<id>`) shows that table's house rules in
words. The match is read here, by id, straight from its row: nothing else of the app is needed, so
the rules stay readable whatever happens to the service around them.

Anything that does not name a match of this game (no such match, another game, a malformed id)
gives None, and the page is the plain one."""

from __future__ import annotations

from dataclasses import dataclass

from ..extensions import db
from ..games.base import Game
from ..models import Match
from .catalog import house_rule, option_title, sentence, value_label

LARGEST_ID = 2**31 - 1  # an id column holds no more (PostgreSQL's integer)


@dataclass(frozen=True)
class HouseRuleChosen:
    """One option as a table chose it."""

    name: str
    label: str  # the option as the new-match form names it
    value: str  # the value as the form names it
    sentence: str  # what it does at the table
    anchor: str  # where the rules page rules on it
    usual: bool  # the value is the option's default


@dataclass(frozen=True)
class TableRules:
    """A match's table, as its game's rules page shows it."""

    match_id: int
    players: tuple[str, ...]
    hand: int | None  # the hand the player came from, if the link said
    rules: tuple[HouseRuleChosen, ...]

    @property
    def values(self) -> dict[str, str]:
        return {rule.name: rule.value for rule in self.rules}

    def rule(self, name: str) -> HouseRuleChosen | None:
        return next((rule for rule in self.rules if rule.name == name), None)


def number(raw: str | None) -> int | None:
    """A positive id from a query string, or None."""
    text = (raw or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 10):
        return None
    value = int(text)
    return value if 0 < value <= LARGEST_ID else None


def match_of(game_key: str, match_id: int | None) -> Match | None:
    """The match with this id, if it is one of this game's; None otherwise."""
    if match_id is None:
        return None
    match = db.session.get(Match, match_id)
    return match if match is not None and match.game == game_key else None


def table_rules(game: Game, raw_match: str | None, raw_hand: str | None = None) -> TableRules | None:
    """The house rules of the match a rules page was opened from, in words (in the page's language);
    None for the plain page."""
    match = match_of(game.key, number(raw_match))
    if match is None:
        return None
    players = tuple(match.player_names)
    options = match.options or {}
    chosen = []
    for fld in game.all_options:
        value = options.get(fld.name, fld.default)
        words = value_label(game, fld, value, players)
        chosen.append(
            HouseRuleChosen(
                fld.name,
                option_title(fld),
                words,
                sentence(game, fld.name, value, words),
                house_rule(game, fld.name).anchor,
                value == fld.default,
            )
        )
    return TableRules(match.id, players, number(raw_hand), tuple(chosen))
