"""Search across the rules reference: each game's names, the table words of the glossary and the
text of every section of every rules page, accents and case ignored ("caida" finds "Caída").

Each page is rendered once, the first time a search needs it, and kept for the life of the process:
the pages change only with a new release. A game registered later gets its page indexed then."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from html import unescape

from flask import current_app, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from jinja2 import TemplateNotFound

from ..games import GAMES
from ..games.base import Game
from .catalog import said
from .glossary import table_words

MOST_RESULTS = 30
LONGEST_QUERY = 100
SNIPPET = 150

# Ranks: a table word or a game's name said exactly comes first, then the start of one, then a
# section's title, then its text.
WORD, NAME, WORD_START, NAME_START, TITLE, TEXT = 100, 90, 60, 50, 30, 10


def fold(text: str) -> str:
    """Text as the search compares it: accents dropped, case folded ("Caída" → "caida")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def words(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


@dataclass(frozen=True)
class Section:
    """One section of a rules page as plain text: its anchor, heading and words."""

    game: str
    anchor: str
    title: str
    text: str


@dataclass(frozen=True)
class Hit:
    """One search result: what it is (a game, a table word, a section), where it links, and why."""

    kind: str
    game: Game
    anchor: str | None
    title: str
    text: str
    rank: int

    @property
    def url(self) -> str:
        return (
            url_for("rules.show", key=self.game.key, _anchor=self.anchor)
            if self.anchor
            else url_for("rules.show", key=self.game.key)
        )


_PAGES: dict[str, tuple[Section, ...]] = {}
SECTION = re.compile(r'<section id="([^"]+)"[^>]*>(.*?)</section>', re.S)
HEADING = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S)
TAG = re.compile(r"<[^>]+>")


def plain(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(TAG.sub(" ", html))).strip()


def page_sections(game: Game) -> tuple[Section, ...]:
    """The sections of a game's rules page, rendered once and kept."""
    if game.key not in _PAGES:
        _PAGES[game.key] = tuple(sections_of(game.key, render_page(game)))
    return _PAGES[game.key]


def render_page(game: Game) -> str:
    """The body of a game's rules page as a table without a match reads it (no site layout), in
    English: the search reads the English pages, whatever the page asking speaks."""
    env = current_app.jinja_env
    try:
        template = env.get_template(f"rules/{game.key}.html")
    except TemplateNotFound:
        template = env.get_template("rules/declared.html")
    with force_locale("en"):
        return template.render(game=game, table=None, bare=True)


def sections_of(key: str, html: str):
    for anchor, body in SECTION.findall(html):
        heading = HEADING.search(body)
        title = plain(heading.group(1)) if heading else anchor.replace("-", " ").capitalize()
        text = plain(HEADING.sub(" ", body, count=1))
        yield Section(key, anchor, title, text)


def starts(query: list[str], found: list[str]) -> bool:
    """Every query word begins some word of `found`."""
    return all(any(word.startswith(part) for word in found) for part in query)


# Words of a question that say nothing about the rules: "what is a court?" looks up "court", and
# "what happens when someone revokes in Omi?" looks up "revokes omi".
QUESTION = frozenset(
    """a about an and any anybody anyone are at be by can do does for from get gets happen happens has have how
i if in is it many me much my of on or should somebody someone that the there this to we what when where which
who whom why with would you your""".split()
)


def search(query: str) -> list[Hit]:
    """What the reference holds for `query` (words or a question), best first."""
    typed = words(query[:LONGEST_QUERY])
    asked = [word for word in typed if word not in QUESTION] or typed
    if not asked:
        return []
    phrase = " ".join(asked)
    hits: list[Hit] = []
    for term in table_words():
        named = words(term.word)
        if " ".join(named) == phrase:
            hits.append(Hit("word", GAMES[term.game], term.anchor, term.word, term.meaning, WORD))
        elif starts(asked, named):
            hits.append(Hit("word", GAMES[term.game], term.anchor, term.word, term.meaning, WORD_START))
    for game in GAMES.values():
        names = (game.name, *game.reference.names)
        exact = [name for name in names if " ".join(words(name)) == phrase]
        begun = [name for name in names if starts(asked, words(name))]
        if exact or begun:
            rank = NAME if exact else NAME_START
            line = said(game.reference.line)
            hits.append(Hit("game", game, None, game.name, also(game, (exact or begun)[0], line), rank))
        hits.extend(section_hits(game, asked, words(" ".join(names))))
    hits.sort(key=lambda hit: -hit.rank)
    return hits[:MOST_RESULTS]


def section_hits(game: Game, asked: list[str], named: list[str]):
    """The sections of a game's page that hold the words asked. A word naming the game ("Tresette" in
    "what beats what in Tresette") may be missing from the section; the others may not, and at
    least one word asked must be the section's own."""
    others = [part for part in asked if not starts([part], named)]
    for section in page_sections(game):
        title, text = words(section.title), words(section.text)
        own = title + text
        if not starts(others, own) or not any(starts([part], own) for part in asked):
            continue
        rank = TITLE if starts(others or asked, title) else TEXT + sum(text.count(part) for part in asked)
        yield Hit("section", game, section.anchor, section.title, snippet(section.text, asked), rank)


def also(game: Game, name: str, line: str) -> str:
    return line if name == game.name else f"{_('Also called %(names)s.', names=name)} {line}"


def snippet(text: str, asked: list[str]) -> str:
    """A short piece of `text` around the first word the query asked for."""
    folded = fold(text)
    places = [found.start() for part in asked if (found := re.search(rf"\b{re.escape(part)}", folded))]
    start = max(0, min(places, default=0) - SNIPPET // 3)
    piece = text[start : start + SNIPPET]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET < len(text) else "")
