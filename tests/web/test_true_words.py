"""No code name in anything a player reads (issue 34, items 2 and 8).

The engine's record and its options are a contract with programs (API.md): `caida_limpia`,
`first_seven`, `reredouble`. A player reads the form instead, so every text the pages show says the
table's words: "Caída limpia", "First seven", "Re-redouble". This walks what a player reads, game
by game, and fails on a code-shaped word in it:

- every text a game declares for its pages (questions, help, choices, house rules, what a
  statistic counts), in every state the form can be drawn in;
- the pages themselves: the new-match form with its house rules, and the match page at the first
  hand and after one, under each house rule that changes the form;
- every refusal: each message the engine writes (its literal words), and the refusals its
  declarations make of form-shaped records (a field left out, one given where it does not belong,
  numbers out of range or not adding up, each game's own checks), as the page shows them.

A code-shaped word is a snake_case name, a value of the record or options that is not a word
(`caida`, `reredouble`), a placeholder left unformatted, Python's None, True or False standing
alone, and a Python repr ([...], {'...}, <Enum.MEMBER: ...>).

The API's own refusals of what no form sends (an unknown field, a wrong JSON type, an entry that is
not `{"side": s, "type": t}`) are for programs, and may name the contract's fields and values: the
records drawn here are those a form sends, and the one such message with code in its own words is
listed apart (API_ONLY).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scorekeeper.games import GAMES, RecordError
from scorekeeper.games.base import Field, Game, State, marked_sides, render
from scorekeeper.web.i18n_extract import game_texts, walk

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "games"
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]

# Every game of the engine (a game a test registers is that test's own).
ENGINE_GAMES = [key for key, game in GAMES.items() if type(game).__module__.startswith("scorekeeper.games.")]

# Values of records and options that are single words but not words a player reads as written: the
# form says "Caída" (with its accent) and "Re-redouble". (Every other single-word value is an English
# word or the game's own word as the table says it: "knock", "ronda", "limpia".)
NOT_WORDS = {"caida", "reredouble"}

SHAPES = (
    (re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b"), "a snake_case name"),
    (re.compile(r"%\(\w+\)[sd]|%[sd]\b|\{\w*\}"), "a placeholder left unformatted"),
    (re.compile(r"\b(?:None|True|False)\b(?! [a-z])"), "a Python value"),
    (re.compile(r"[\[\]]|\{['\"]|['\"]\}|<\w+\.\w+: "), "a Python repr"),
)


def declared_values(game: Game) -> set[str]:
    """Every name and value of the game's record and options (the contract's words)."""
    found = set()
    for fld in walk(game.all_options + game.hand_fields):
        found.add(fld.name)
        found.update(str(choice) for choice in fld.choices if isinstance(choice, str))
    found.update(str(form.name) for form in game.record_forms)
    return found


def not_to_read(game: Game) -> set[str]:
    """The game's names and values a player must never read as written: those that are no word, and
    a name with a number in it with its underscores taken out ("Rubber bonus 2 1", "all13")."""
    found = set()
    for value in declared_values(game):
        if value in NOT_WORDS:
            found.add(value)
        elif re.search(r"\d", value):
            found.add(value.replace("_", " "))
            found.update(part for part in value.split("_") if re.search(r"[a-z]\d|\d[a-z]", part))
    return found


def code_words(text: str, game: Game | None = None) -> list[str]:
    """The code-shaped words in `text`, each with what it looks like."""
    found = [f"{what}: {hit.group(0)!r}" for shape, what in SHAPES for hit in shape.finditer(text)]
    if game is not None:
        for value in sorted(not_to_read(game)):
            found += [f"a name of the record: {hit.group(0)!r}" for hit in re.finditer(rf"\b{value}\b", text, re.I)]
    return found


def test_the_check_knows_a_code_word_from_a_word():
    cuarenta, botifarra = GAMES["cuarenta"], GAMES["botifarra"]
    assert code_words("What scored: ronda, caida_limpia, four_of_a_kind", cuarenta)
    assert code_words("record it as first_seven with all_thirteen")
    assert code_words("Caida", cuarenta) and not code_words("Caída, caída limpia", cuarenta)
    assert code_words("Reredouble", botifarra) and not code_words("Re-redouble", botifarra)
    assert code_words("Rubber bonus 2 1", GAMES["poke"]) and not code_words(
        "Rubber bonus (2 games to 1)", GAMES["poke"]
    )
    assert code_words("when the all13 courts is 53", GAMES["court_piece"])
    assert code_words("%(side)s wins") and code_words("{points} points")
    assert code_words("Doubling: None") and code_words("the bid is True.")
    assert code_words("['AS', 'KD']") and code_words("{'side': 1}") and code_words("<Outcome.GIN: 'gin'>")
    assert not code_words("False declarations made earlier in the hand, in order.")
    assert not code_words("Ann & Bo take 8 of 13 tricks: +1 court")


# -- what a game declares for its pages -----------------------------------------------------------------


@pytest.mark.parametrize("key", ENGINE_GAMES)
def test_every_text_a_game_declares_for_its_pages_is_in_words(key):
    game = GAMES[key]
    wrong = {
        f"{what}: {text!r}": words
        for text, what in game_texts(game)
        if (words := code_words(re.sub(r"%\(side\d+\)s", "Ann", text), game))
    }
    assert not wrong, wrong


# -- the pages ------------------------------------------------------------------------------------


class Read(HTMLParser):
    """What a player reads on a page: its text, and the words a screen reader or a tip says
    (aria-label, title, alt, placeholder, the description); scripts and styles left out."""

    SPOKEN = ("aria-label", "title", "alt", "placeholder")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "svg"):
            self.skipping += 1
        attrs = dict(attrs)
        self.parts += [attrs[name] for name in self.SPOKEN if attrs.get(name)]
        if tag == "meta" and attrs.get("name") == "description":
            self.parts.append(attrs.get("content") or "")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def read(page: str) -> str:
    reader = Read()
    reader.feed(page)
    return " ".join(" ".join(reader.parts).split())


def option_sets(game: Game, players: int) -> Iterator[dict]:
    """The usual house rules, then each value of a house rule that changes the hand form."""
    table = game.table(players)
    usual = game.parse_options({}, table)
    yield {}
    drawn = form_of(game, game.new_state(table, usual))
    for fld in game.options:
        values = fld.choices if fld.type == "choice" else (True, False) if fld.type == "bool" else ()
        for value in values:
            if value == usual.get(fld.name):
                continue
            try:
                options = game.parse_options({fld.name: value}, table)
            except RecordError:  # a value that needs another house rule set first
                continue
            if form_of(game, game.new_state(table, options)) != drawn:
                yield {fld.name: value}


def form_of(game: Game, state: State) -> tuple[Field, ...]:
    with marked_sides():
        return game.form_fields(state)


def tables(game: Game) -> list[int]:
    """The fewest players and the most (partnerships and sides change the form)."""
    counts = []
    for players in sorted({game.min_players, game.max_players}):
        try:
            game.table(players)
        except RecordError:  # Cuarenta is not played by three
            continue
        counts.append(players)
    return counts


def cases() -> Iterator[tuple[str, int, dict]]:
    for key in ENGINE_GAMES:
        game = GAMES[key]
        for players in tables(game):
            for options in option_sets(game, players):
                yield key, players, options


def case_id(case) -> str:
    key, players, options = case
    return "-".join([key, str(players), *(f"{name}={value}" for name, value in options.items())])


@pytest.mark.parametrize("case", list(cases()), ids=case_id)
def test_the_pages_a_player_reads_are_in_words(client, actions, case):
    key, players, options = case
    game = GAMES[key]
    names = PLAYERS[:players]
    pages = {"the new-match form": client.get(f"/matches/new/{key}").text}
    match_id = actions.start(key, names, **options)
    pages["the match at its first hand"] = client.get(f"/matches/{match_id}").text
    state = game.new_state(game.table(players), game.parse_options(options, game.table(players)))
    with marked_sides():
        record = game.example_hand(state, random.Random(1))
    actions.hand(match_id, record)
    pages["the match after a hand"] = client.get(f"/matches/{match_id}").text
    pages["the edit of that hand"] = client.get(f"/matches/{match_id}/hands/1/edit").text
    wrong = {where: words for where, page in pages.items() if (words := code_words(read(page), game))}
    assert not wrong, wrong


# -- the refusals -----------------------------------------------------------------------------------

MESSAGE_MAKERS = {"msg": 1, "counted": 2, "agreeing": 2, "by_number": 2}  # the makers' message arguments

# Refusals only the API meets: what a form never sends (a field it does not have, a value of the wrong
# JSON type, an entry of another shape). They speak to programs, in the contract's words.
API_ONLY = {
    '%(field)s, entry %(position)s: each entry is {"side": s, "type": t}.',
}


def engine_messages() -> Iterator[tuple[str, str]]:
    """(where, message) for every message the engine writes: its literal words, as the catalogs
    find them (scripts/catalogs.sh extracts these makers by name)."""
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            count = MESSAGE_MAKERS.get(node.func.id)
            if count is None:
                continue
            skip = 1 if node.func.id in ("counted", "agreeing") else 0  # the number or the side first
            for argument in node.args[skip : skip + count]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    yield f"{path.name}:{node.lineno}", argument.value


def test_every_message_the_engine_writes_is_in_words():
    values = {value for game in GAMES.values() for value in not_to_read(game)}
    wrong = {}
    for where, message in engine_messages():
        if message in API_ONLY:
            continue
        words = code_words(re.sub(r"%\(\w+\)[sd]", "3", message))
        words += [f"a name of the record: {value!r}" for value in values if re.search(rf"\b{value}\b", message, re.I)]
        if words:
            wrong[f"{where} {message!r}"] = words
    assert not wrong, wrong


# Records a form can send, each refused or taken: the game's own hands with one or two fields changed
# to a value the form offers (another choice, a box left empty, a number past its range...) or left out.
DRAWN = 300


def form_value(fld: Field, table, rng: random.Random):
    """A value of `fld` as a form posts it (read by matches/widgets.py): never of another JSON type,
    never an entry of another shape; a box may be left empty (None) or out of range."""
    kind = fld.type
    if kind in ("side", "seat"):
        count = table.sides if kind == "side" else table.players
        return rng.choice([*range(count), *([None] if fld.nullable else [])])
    if kind == "choice":
        return rng.choice([*fld.choices, *([None] if fld.nullable else [])])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return number(fld, rng)
    if kind == "per_side":
        return [number(fld, rng) if rng.random() < 0.9 else None for _ in range(table.sides)]
    if kind == "int_list":
        return [number(fld, rng) if rng.random() < 0.9 else None for _ in range(fld.length)]
    if kind == "side_list":
        return [rng.randrange(table.sides) for _ in range(rng.randint(0, (fld.max or 4) + 1))]
    if kind == "events":  # an entry's side or kind may be left unchosen
        return [
            {"side": maybe(rng, rng.randrange(table.sides)), "type": maybe(rng, rng.choice(fld.choices))}
            for _ in range(rng.randint(0, min(fld.max or 8, 8) + 1))
        ]
    if kind == "cards":
        return [cards(fld, rng, fld.size or rng.randint(0, 12)) for _ in range(table.sides)]
    if kind == "grid":
        return [cards(fld, rng, fld.columns) for _ in range(fld.rows)]
    if kind == "group":
        return {sub.name: form_value(sub, table, rng) for sub in fld.fields if rng.random() < 0.8}
    raise AssertionError(f"no form value for a {kind} field")


def maybe(rng: random.Random, value):
    return None if rng.random() < 0.05 else value


def number(fld: Field, rng: random.Random) -> int:
    low = -1 if fld.min is None else fld.min - 1
    high = (fld.max if fld.max is not None else max(low, 0) + 200) + 1
    return rng.choice([low, high, rng.randint(low, high), rng.randint(low, high)])


def cards(fld: Field, rng: random.Random, size: int) -> list[str]:
    codes = [rank + suit for rank in fld.ranks for suit in "SHDC"]
    return [rng.choice(codes) for _ in range(size)]


def changed(game: Game, state: State, record: dict, rng: random.Random) -> dict:
    fields = form_of(game, state)
    changed = dict(record)
    for fld in rng.sample(fields, min(len(fields), rng.randint(1, 2))):
        if rng.random() < 0.25:
            changed.pop(fld.name, None)
        else:
            changed[fld.name] = form_value(fld, state.table, rng)
    return changed


def states(game: Game) -> Iterator[State]:
    """Each table and house rules the pages walk, at the start and a few hands in."""
    with marked_sides():
        for players in tables(game):
            table = game.table(players)
            for options in option_sets(game, players):
                state = game.new_state(table, game.parse_options(options, table))
                yield state
                rng = random.Random(players)
                for _ in range(4):
                    state = game.play(state, game.example_hand(state, rng)).state
                    if game.result(state).over:
                        break
                else:
                    yield state


def refusals_met(game: Game) -> dict[str, str]:
    """Every refusal the drawn records and house rules meet, as the page shows it (sides named by
    the players): the message above the form and each one beside a field."""
    met: dict[str, str] = {}
    for state in states(game):
        names = [" & ".join(PLAYERS[seat] for seat in state.table.seats_of(side)) for side in range(state.table.sides)]
        several = [len(state.table.seats_of(side)) > 1 for side in range(state.table.sides)]
        rng = random.Random(game.key)
        for _ in range(DRAWN):
            with marked_sides():
                record = changed(game, state, game.example_hand(state, rng), rng)
                try:
                    game.check(state, game.from_form(state, record))
                except RecordError as refused:
                    for text in (refused.message, *refused.fields.values()):
                        met.setdefault(render(text, names, several), repr(record))
        for fld in game.options:
            raw = {fld.name: form_value(fld, state.table, rng)}
            try:
                game.parse_options(raw, state.table)
            except RecordError as refused:
                for text in (refused.message, *refused.fields.values()):
                    met.setdefault(render(text, names, several), repr(raw))
    return met


@pytest.mark.parametrize("key", ENGINE_GAMES)
def test_every_refusal_a_form_can_meet_is_in_words(key):
    game = GAMES[key]
    met = refusals_met(game)
    assert met, "no refusal met: the drawn records are all taken"
    wrong = {message: (words, record) for message, record in met.items() if (words := code_words(message, game))}
    assert not wrong, wrong


# -- the words a table reads (item 8), on the served pages ----------------------------------------------


def test_cuarenta_says_caida_with_its_accent_where_the_record_keeps_caida(client, actions):
    match_id = actions.start("cuarenta", ["Ann", "Bo"])
    form = read(client.get(f"/matches/{match_id}").text)
    assert "Caída" in form and "Caída limpia" in form and "Ronda capture" in form
    assert "a caída, a limpia, a caída limpia (one play that was both)" in form  # the help, in the buttons' words
    answer = actions.hand(match_id, {"events": [{"side": 0, "type": "caida"}], "cards": [22, 18]})
    assert answer["match"]["hands"][-1]["record"]["events"] == [{"side": 0, "type": "caida"}]  # the record is as it was
    page = read(client.get(f"/matches/{match_id}").text)
    assert "Ann: caída: +2" in page
    rules = read(client.get("/rules/cuarenta").text)
    assert "Record it as one Caída limpia" in rules and "Caida" not in rules


def test_botifarra_offers_no_double_and_a_re_redouble(client, actions):
    match_id = actions.start("botifarra", ["Ann", "Bo", "Cy", "Di"])
    form = read(client.get(f"/matches/{match_id}").text)
    assert "No double Double Redouble Re-redouble" in form
    assert "Reredouble" not in form and "None" not in form
    assert "Leave it at No double if nobody doubled" in read(client.get("/rules/botifarra").text)


def test_pokes_rubber_bonuses_say_how_the_rubber_was_won(client):
    form = read(client.get("/matches/new/poke").text)
    assert "Rubber bonus (2 games to 1)" in form and "Rubber bonus (2 games to 0)" in form
    assert "Rubber bonus 2" not in form


def test_gin_rummys_shutout_can_double_nothing(client):
    form = read(client.get("/matches/new/gin_rummy").text)
    assert "Double game bonus Double points Nothing doubled" in form


def test_thirteen_tricks_in_court_piece_are_answered_in_the_forms_words(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    answer = client.post(f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "13", "expected": "1"})
    page = read(answer.text)
    assert answer.status_code == 422
    assert "record the hand as First seven, with All thirteen ticked" in page
    assert "First seven" in page.split("How did the hand end?", 1)[1] and "All thirteen" in page  # both on the form


def test_a_speed_tournament_names_the_rounds_question_not_its_field(client, actions):
    match_id = actions.start("speed_tournament", ["Ann", "Bo", "Cy"])
    actions.hand(match_id, {"eliminated": 2})  # Cy out: Ann and Bo play the final
    actions.hand(match_id, {"winner": 0})
    answer = client.post(f"/matches/{match_id}/hands/1/delete", follow_redirects=True)
    page = read(answer.text)
    assert "The final has not come yet: name who was left holding cards, not who won." in page
    assert len(actions.match(match_id)["hands"]) == 2  # nothing lost


def test_a_table_that_follows_court_pieces_revoke_help_gives_the_court_to_the_side_that_did_not_revoke(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    form = read(client.get(f"/matches/{match_id}").text)
    assert "Who gets the court? " in form and "after a revoke, the side that did not revoke" in form
    # Bo & Di revoked: the help says to tap Ann & Cy.
    answer = client.post(f"/matches/{match_id}/hands", data={"outcome": "revoke", "side": "0", "expected": "1"})
    assert answer.status_code == 302
    match = actions.match(match_id)
    assert [side["score"] for side in match["sides"]] == [1, 0]  # the court is Ann & Cy's
    assert match["hands"][0]["record"] == {"outcome": "revoke", "side": 1}  # the record names the revokers
