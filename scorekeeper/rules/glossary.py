"""Table words: what players say at the table, the game it belongs to and the section of that game's
rules page that explains it. Each game declares its own (`Term`s in its card, games/reference.py);
the glossary page lists them all, and the search finds a word there first.

A word that means something in two games (a widow, a knock, a sweep) has an entry for each."""

from __future__ import annotations

from dataclasses import dataclass

from ..games import GAMES
from ..games.reference import Term
from .catalog import said


@dataclass(frozen=True)
class TableWord:
    """A game's term with the game it belongs to."""

    game: str  # the game's key
    term: Term

    @property
    def word(self) -> str:
        return self.term.word

    @property
    def anchor(self) -> str:
        return self.term.anchor

    @property
    def meaning(self) -> str:
        """The meaning, in the page's language."""
        return said(self.term.meaning)


def table_words() -> list[TableWord]:
    """Every game's table words, the games in the registry's order (a game registered later too)."""
    return [TableWord(game.key, term) for game in GAMES.values() for term in game.reference.terms]


def by_word() -> list[TableWord]:
    """Every table word in the order of its word, as a reader looks one up."""
    return sorted(table_words(), key=lambda found: (found.word.casefold(), found.game))
