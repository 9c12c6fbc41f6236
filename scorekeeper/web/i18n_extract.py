"""The texts the engine declares that the match pages show, for the catalogs: a Babel extraction
method (babel.cfg: `[scorekeeper.web.i18n_extract:declared: scorekeeper/games/__init__.py]`).

The engine (scorekeeper/games/) knows nothing of gettext: its fields' questions and help, choices,
units, words for a hand, calculators and record forms are plain English. The web layer looks each
up where it shows it (`i18n.declared_text`); this walks every game in GAMES and yields
each such text exactly as the web layer derives it (the same functions: `Field.choice_label`,
`record_form_text`, `declared_msgid`, the engine's `question` and `unit_for_score`), with a
translator comment naming the games and what the text is. Texts the engine makes as a hand is
scored (reasons, headlines, refusals, board lines) are Texts (games/texts.py): the catalogs find
their messages by the functions that make them (`msg`, `counted`, `agreeing`: scripts/catalogs.sh)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence

from ..games import GAMES, Game, RecordError
from ..games.base import Field, SideBoard, State, marked_sides
from ..matches.widgets import record_form_text
from .i18n import SIDE_PLACEHOLDER, declared_msgid

WORDS = re.compile(r"[^\W\d_]")  # a text with no letter ("4", "J♠") has nothing to translate
NOT_GIVEN = object()  # an option that exists only under others' values, left out
MOST_STATES = 512  # start states a game's form is drawn in, at most (every option choice, table, dealer)


def declared(fileobj, keywords, comment_tags, options) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method: (line, function, msgid, comments) for every declared text."""
    found: dict[str, dict[str, list[str]]] = {}  # msgid -> what it is -> the games it is that in
    for game in GAMES.values():
        for msgid, what in game_texts(game):
            if WORDS.search(SIDE_PLACEHOLDER.sub("", msgid)):
                games = found.setdefault(msgid, {}).setdefault(what, [])
                if game.name not in games:
                    games.append(game.name)
    for msgid, roles in found.items():
        comments = [f"Translators: {what} ({', '.join(games)})" for what, games in roles.items()]
        if SIDE_PLACEHOLDER.search(msgid):
            comments.append("Translators: keep %(side0)s, %(side1)s... as written: the page puts the players there")
        yield 1, None, msgid, comments


def game_texts(game: Game) -> Iterator[tuple[str, str]]:
    """(msgid, what it is) for each text of `game` the match pages look up."""
    yield game.unit, "the game's unit of score, after a number"
    singular = SideBoard(1, game.unit).unit_for_score
    if singular != game.unit:
        yield singular, "the game's unit of score, after the number 1"
    yield game.hand_word, "the game's word for one record of play (a hand, a round, a game)"
    yield game.hand_words, "the game's word for several records of play (hands, rounds, games)"
    with marked_sides():  # as in a request: sides named by marks
        states = list(start_states(game))
    for fld in walk(game.options):
        yield from field_texts(fld, "house rule on the new-match page")
    for fld in walk(hand_fields(game, states)):
        yield from field_texts(fld, "hand form")
    for form in game.record_forms:
        yield declared_msgid(record_form_text(form)), 'what "Or give %(what)s" offers on the hand form'
    for stat in game.statistics:
        yield stat.label, "a figure a player's page counts for the game"
    for role in turn_roles(game, states):
        yield role, "who does what next, on the scoreboard, before a player's name"
    for counter in game.calculators:
        yield declared_msgid(counter.title), "a hand calculator's title"
        yield declared_msgid(counter.help), "a hand calculator's help"
        for extra in counter.extras:
            yield declared_msgid(extra.label), "something a hand calculator counts besides cards"


def field_texts(fld: Field, where: str) -> Iterator[tuple[str, str]]:
    yield declared_msgid(fld.question), f"a question on the {where}"
    if fld.title != fld.question:
        yield declared_msgid(fld.title), f"what a field on the {where} holds, as a message names it"
    if fld.total is not None:
        yield declared_msgid(fld.total_in), f'what holds a total, in a message ("a deal has 17") on the {where}'
    if fld.help:
        yield declared_msgid(fld.help), f"help on the {where}"
    if fld.ask_help:
        yield declared_msgid(fld.ask_help), f"help on the {where}, as the form asks it"
    if fld.type in ("choice", "events"):
        for value in fld.choices:
            yield declared_msgid(fld.choice_label(value)), f"a choice on the {where}"


def walk(fields: Sequence[Field]) -> Iterator[Field]:
    """The fields and, depth first, each group's members."""
    for fld in fields:
        yield fld
        yield from walk(fld.fields)


def hand_fields(game: Game, states: Sequence[State]) -> list[Field]:
    """Every hand field the form can show: the declared ones, and those `form_fields` makes for a
    table's options and first dealer (a question naming the dealer, help that follows a house rule)."""
    fields = list(game.hand_fields)
    with marked_sides():
        for state in states:
            fields += game.form_fields(state)
    return fields


def turn_roles(game: Game, states: Sequence[State]) -> list[str]:
    """The roles the scoreboard names before a player ("Deals", "Trumps") at the start of a match."""
    roles: list[str] = []
    with marked_sides():
        for state in states:
            roles += [role for role, _ in game.board(state).turn if role not in roles]
    return roles


def start_states(game: Game) -> Iterator[State]:
    """The state at the start of a match for each table size, first dealer and choice of the house
    rules that have choices (up to MOST_STATES)."""
    settings = [(fld.name, option_values(fld)) for fld in game.options if fld.type in ("choice", "bool")]
    made = 0
    for players in range(game.min_players, game.max_players + 1):
        try:
            table = game.table(players)
        except RecordError:
            continue
        dealers = range(players) if game.deals else (None,)
        for values, dealer in itertools.product(itertools.product(*(values for _, values in settings)), dealers):
            raw = {name: value for (name, _), value in zip(settings, values) if value is not NOT_GIVEN}
            if dealer is not None:
                raw["first_dealer"] = dealer
            try:
                state = game.new_state(table, game.parse_options(raw, table))
            except RecordError:
                continue  # a combination the game refuses
            yield state
            made += 1
            if made >= MOST_STATES:
                return


def option_values(fld: Field) -> tuple:
    values = fld.choices if fld.type == "choice" else (False, True)
    return (*values, NOT_GIVEN) if fld.when is not None else values
