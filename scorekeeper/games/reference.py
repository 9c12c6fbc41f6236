"""What the rules reference says of a game besides its page, declared by the game itself
(`Game.reference`): the other names tables use, a line saying what the game is, the documents its
page rests on, where each house rule is ruled and what each value does at the table, and the words
players say at the table.

The web layer reads it (scorekeeper/rules/) and words it in the page's language. Our own words are
marked: `msg` (a Text) for a sentence, `by_number` for one whose form follows a number the table
chooses; the catalogs find both by name (scripts/catalogs.sh). Other names, table words and the
titles of documents are names: plain strings, shown as written. The shared pieces (the documents
most pages rest on, the usual house rules) are below."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .texts import Text, msg


@dataclass(frozen=True)
class ByNumber:
    """A sentence with %(num)d whose form agrees with a number given when it is shown."""

    one: str
    many: str


def by_number(one: str, many: str) -> ByNumber:
    """ "the game goes to 1 point", "... to 5 points": the number is a house rule's value, chosen later."""
    return ByNumber(one, many)


@dataclass(frozen=True)
class Source:
    """A document a page rests on (`title` as written, `what` the page takes from it), or the
    standard rules used where it is silent (`standard`: `title` names them, marked)."""

    title: str
    what: Text
    standard: bool = False


@dataclass(frozen=True)
class HouseRule:
    """Where an option is ruled (`anchor`: a section of the game's page) and what a value does at
    the table: `says[value]`; else `counted` for a number; else `worded`, a sentence with
    %(points)s for the value as the form words it; else the value's words alone. `labels`: the
    words for a choice whose form label is still an internal word."""

    anchor: str
    says: Mapping[Any, Text] = field(default_factory=dict)
    counted: ByNumber | None = None
    worded: Text | None = None
    labels: Mapping[Any, Text] = field(default_factory=dict)


@dataclass(frozen=True)
class Term:
    """A word as players say it (it stays as said: the search looks it up), the section of the
    game's page that explains it, and what it means in our own words."""

    word: str
    anchor: str
    meaning: Text


@dataclass(frozen=True)
class Reference:
    """A game's card in the rules reference; a game without one shows its page with an empty card."""

    names: tuple[str, ...] = ()  # other names tables use, in the reference and the search
    line: str = ""  # what the game is, in one line (a Text)
    sources: tuple[Source, ...] = ()
    house_rules: Mapping[str, HouseRule] = field(default_factory=dict)  # by option name
    terms: tuple[Term, ...] = ()  # a word two games use (a widow, a knock) has a Term in each


# -- shared: the documents most pages rest on (Denexa Games publishes the how-to-play articles) --------

DENEXA = msg("a how-to-play article by Denexa Games")
FRENCH = msg(
    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
    "Rory Barclay, Adam Fritz and Clint Okayama"
)
BOOK = "Ultimate Book of Card Games: The Comprehensive Guide to More Than 350 Games"
OWN = Source(
    msg("Scorekeeper's rulings"), msg("where the documents are silent: each is marked on the page"), standard=True
)
# What a revoke costs, where a trick game's document is silent: the standard rules each page follows.
REVOKE = msg("the penalty for a revoke")
WHIST_REVOKE = Source(msg("Standard Whist rules"), REVOKE, standard=True)
ITALIAN_REVOKE = Source(msg("Standard practice in Italian trick games"), REVOKE, standard=True)

# -- shared: house rules several games have ------------------------------------------------------------

NO_SET_GAMES = msg("no set number of games: the session runs until the table presses Finish")
SESSION_GAMES = by_number(
    "the first player to win %(num)d game takes the session",
    "the first player to win %(num)d games takes the session",
)
GAME_POINTS = by_number("the game goes to %(num)d point", "the game goes to %(num)d points")
STARTING_TOKENS = by_number("each player starts with %(num)d token", "each player starts with %(num)d tokens")
SESSION = HouseRule("session", says={None: NO_SET_GAMES}, counted=SESSION_GAMES)
