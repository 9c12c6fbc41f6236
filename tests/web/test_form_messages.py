"""Issue 21 "Messages that say what the table did wrong", through the hand form of every game.

Each game's form fields are walked from their declarations (scorekeeper/games/fields.py), and every
refusal the declarations make is sent as a phone would post it, from a hand the game itself draws
(`example_hand`) with one thing broken:

- required: a field the table left out (a whole field, one side's box of a count, one number of a
  list) is named as the form asks it ("Who laid down? Nothing was chosen", "Deadwood of Bob is
  missing", "Rows, number 2 of 5 is missing");
- total: numbers that must add up to a total say what they add up to and what they should
  ("The tricks add up to 20; a deal has 17"), also when a box was left for the rest and no rest
  could fit (never a negative count);
- range: a number typed past its bound says the number and the bound.

Every refusal is a 422 with the message on the form (its field marked), the values the table
gave drawn again as they were, and nothing recorded. Every game of the engine is walked, a case a refusal.
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from hypothesis import find, settings
from hypothesis.errors import NoSuchExample
from hypothesis.strategies import SearchStrategy
from werkzeug.datastructures import MultiDict

from scorekeeper.games import GAMES
from scorekeeper.games.base import Field, Game, State, marked_sides, render
from scorekeeper.matches.widgets import BUTTON_LIMIT, record_from_form, values_from_record
from tests.games import properties
from tests.games.taps import PLAYERS

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

SEEDS = 300  # hands drawn per game to find one that gives each field


@dataclass(frozen=True)
class Refusal:
    """One thing the table got wrong: the form values posted, the words the message must hold and
    the widget (posted key) that must be marked."""

    key: str
    what: str
    posted: tuple[tuple[str, str], ...]
    words: tuple[str, ...]
    marked: str

    def __str__(self) -> str:
        return f"{self.key}-{self.what}"


# -- the walk -----------------------------------------------------------------------------------


def fresh(game: Game) -> State:
    table = game.table(game.min_players)
    return game.new_state(table, game.parse_options({}, table))


def side_labels(game: Game) -> list[str]:
    table = fresh(game).table
    names = PLAYERS[: game.min_players]
    return [" & ".join(names[seat] for seat in table.seats_of(side)) for side in range(table.sides)]


def say(game: Game, text: str) -> str:
    """An engine text as the page shows it (sides named by their players)."""
    labels = side_labels(game)
    return render(text, labels, [" & " in label for label in labels])


def drawn_hands(game: Game) -> list[dict]:
    with marked_sides():
        state = fresh(game)
        return [game.example_hand(state, random.Random(seed)) for seed in range(SEEDS)]


def hand_giving(game: Game, key: str, hands: list[dict]) -> dict | None:
    """A hand the game takes that gives the field at `key`: one it draws itself, else the simplest
    its test file's strategy draws (Schnapsen draws only quick hands: its counted ones come from there)."""
    found = next((hand for hand in hands if holds(hand, key)), None)
    strategy = properties.declared(game.key).record
    if found is not None or strategy is None:
        return found
    state = fresh(game)
    strategy = strategy if isinstance(strategy, SearchStrategy) else strategy(state)
    try:
        return find(
            strategy,
            lambda hand: holds(hand, key) and properties.takes(game, state, hand),
            settings=settings(database=None, max_examples=500),
        )
    except NoSuchExample:
        return None


def refused_somehow(fld: Field) -> bool:
    """A field with a refusal to walk: required, a count per side, a list, a total or a typed range."""
    return fld.required or fld.type in ("per_side", "int_list", "int")


def members(fields, prefix: str = ""):
    """Every field and group member the form draws, with its posted key and its record path."""
    for fld in fields:
        yield fld, prefix + fld.name
        if fld.type == "group":
            yield from members(fld.fields, f"{prefix}{fld.name}-")


def holds(record: dict, key: str) -> bool:
    """The drawn record gives the field at posted key `key` ("at_close-points")."""
    found = record
    for part in key.split("-"):
        if not isinstance(found, dict) or found.get(part) is None:
            return False
        found = found[part]
    return True


def form_values(game: Game, record: dict) -> list[tuple[str, str]]:
    state = fresh(game)
    values = values_from_record(game.form_fields(state), game.to_form(state, record))
    return [(key, item) for key, value in values.items() for item in (value if isinstance(value, list) else [value])]


def question(fld: Field) -> str:
    return fld.ask if fld.ask and fld.ask.endswith("?") else fld.question


def without(posted: list[tuple[str, str]], key: str) -> list[tuple[str, str]]:
    return [(name, value) for name, value in posted if name != key and not name.startswith(key + "-")]


def replaced(posted: list[tuple[str, str]], changes: dict[str, str]) -> list[tuple[str, str]]:
    kept = [(name, value) for name, value in posted if name not in changes]
    return kept + [(name, value) for name, value in changes.items() if value != ""]


def gives_no_form(game: Game, posted: list[tuple[str, str]]) -> bool:
    """The posted form gives no field of any of the game's record forms (its message then lists them)."""
    state = fresh(game)
    record = record_from_form(game.form_fields(state), MultiDict(posted), state.table, game.record_forms)
    return bool(game.record_forms) and not any(name in record for form in game.record_forms for name in form.fields)


def marked_key(fld: Field, key: str) -> str:
    """The widget showing a refusal of `fld`: its own, or the choice it is asked with."""
    return key[: -len(fld.name)] + fld.asked_with if fld.asked_with else key


def engine_field(game: Game, key: str) -> Field:
    """The engine's own declaration of the field at posted key `key`: its messages name it so (the
    form may ask it in other words, "Bob's row total")."""
    fields = game.hand_fields
    for part in key.split("-"):
        fld = next(each for each in fields if each.name == part)
        fields = fld.fields
    return fld


def blank_side(record: dict, key: str, sides: int) -> int:
    """A side whose count the table left empty: one that is not 0 (a gin player's 0 may be left out)."""
    counts = record
    for part in key.split("-"):
        counts = counts[part]
    return next((side for side in range(sides) if counts[side]), sides - 1)


def refusals(key: str) -> list[Refusal]:
    game = GAMES[key]
    state = fresh(game)
    fields = game.form_fields(state)
    labels = side_labels(game)
    hands = drawn_hands(game)
    found = []
    for fld, path in members(fields):
        record = hand_giving(game, path, hands) if refused_somehow(fld) else None
        if record is None:
            continue
        posted = form_values(game, record)
        marked = marked_key(fld, path)
        engine = engine_field(game, path)
        title = engine.title
        if fld.required and not fld.asked_with:  # a side asked with its choice is never left out alone
            left_out = without(posted, path)
            words = ("Give the hand one of these ways",) if gives_no_form(game, left_out) else (question(engine),)
            found.append(Refusal(key, f"{path}-left-out", tuple(left_out), words, marked))
        if fld.type == "per_side" and fld.required and fld.total is None and fld.preset is None:  # a preset fills it
            side = blank_side(record, path, len(labels))
            found.append(
                Refusal(
                    key,
                    f"{path}-one-box-empty",
                    tuple(replaced(posted, {f"{path}-{side}": ""})),
                    (f"{title} of {labels[side]} is missing",),
                    marked,
                )
            )
        if fld.type == "int_list" and fld.length:
            found.append(
                Refusal(
                    key,
                    f"{path}-one-number-empty",
                    tuple(replaced(posted, {f"{path}-1": ""})),
                    (f"{title}, number 2 of {fld.length} is missing",),
                    marked,
                )
            )
        if fld.type == "per_side" and fld.total is not None:
            found += total_refusals(key, fld, path, posted, len(labels))
        wide = fld.min is not None and fld.max is not None and fld.max - fld.min >= BUTTON_LIMIT
        if fld.type in ("int", "per_side") and fld.total is None and wide:
            box = f"{path}-0" if fld.type == "per_side" else path
            what = f"{title} of {labels[0]}" if fld.type == "per_side" else title
            found.append(
                Refusal(
                    key,
                    f"{path}-over",
                    tuple(replaced(posted, {box: str(fld.max + 1)})),
                    (f"{what} must be at most {fld.max}, not {fld.max + 1}",),
                    marked,
                )
            )
            if fld.min > 0:
                found.append(
                    Refusal(
                        key,
                        f"{path}-under",
                        tuple(replaced(posted, {box: str(fld.min - 1)})),
                        (f"{what} must be at least {fld.min}, not {fld.min - 1}",),
                        marked,
                    )
                )
    return found


def total_refusals(key: str, fld: Field, path: str, posted, sides: int) -> list[Refusal]:
    """Both boxes given and adding up wrong; and, with more sides, too many already for a rest."""
    noun, whole = fld.title.lower(), f"{fld.total_in} has {fld.total}"
    if sides == 2:
        changes = {f"{path}-0": str(fld.max), f"{path}-1": str(fld.max)}
        return [
            Refusal(
                key,
                f"{path}-over-total",
                tuple(replaced(posted, changes)),
                (f"The {noun} add up to {2 * fld.max}; {whole}",),
                path,
            )
        ]
    big = fld.total // 2 + 1  # two of these are past the total: no rest can be negative
    over = {f"{path}-{side}": str(big) if side < 2 else "" for side in range(sides)}
    short = {f"{path}-{side}": "0" for side in range(sides)}
    return [
        Refusal(
            key,
            f"{path}-past-the-total-with-a-box-for-the-rest",
            tuple(replaced(posted, over)),
            (f"The {noun} add up to {2 * big}; {whole}",),
            path,
        ),
        Refusal(
            key, f"{path}-every-box-short", tuple(replaced(posted, short)), (f"The {noun} add up to 0; {whole}",), path
        ),
    ]


# -- reading the page back ------------------------------------------------------------------------


class FormState(HTMLParser):
    """What the hand form on a page would post as drawn: checked boxes, typed values, chosen options."""

    def __init__(self):
        super().__init__()
        self.values: list[tuple[str, str]] = []
        self.inside = False
        self.select: str | None = None
        self.marked: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "hand-form" in (attrs.get("class") or ""):
            self.inside = True
        if not self.inside:
            return
        if tag == "fieldset" and "has-error" in (attrs.get("class") or ""):
            self.marked.update(name[2:] for name in attrs["class"].split() if name.startswith("w-"))
        if tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind not in ("radio", "checkbox") or "checked" in attrs:
                self.values.append((attrs["name"], attrs.get("value") or ("on" if kind == "checkbox" else "")))
        elif tag == "select":
            self.select = attrs.get("name")
        elif tag == "option" and self.select and "selected" in attrs:
            self.values.append((self.select, attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def banner(page: str) -> str:
    found = re.search(r'<p class="error banner-error" role="alert">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def record_of(game: Game, posted) -> dict:
    state = fresh(game)
    with marked_sides():
        return game.from_form(
            state, record_from_form(game.form_fields(state), MultiDict(posted), state.table, game.record_forms)
        )


def check(client, actions, refusal: Refusal) -> None:
    game = GAMES[refusal.key]
    match_id = actions.start(refusal.key, list(PLAYERS[: game.min_players]))
    answer = client.post(f"/matches/{match_id}/hands", data=MultiDict([*refusal.posted, ("expected", "1")]))
    page = answer.get_data(as_text=True)
    message = banner(page)
    assert answer.status_code == 422, (refusal, message)
    for words in refusal.words:
        assert say(game, words) in message, f"{refusal}: {message!r} does not say {say(game, words)!r}"
    drawn = FormState()
    drawn.feed(page)
    assert refusal.marked in drawn.marked, f"{refusal}: the field {refusal.marked} is not marked ({drawn.marked})"
    sent, shown = record_of(game, refusal.posted), record_of(game, drawn.values)
    assert {name: shown.get(name) for name in sent} == sent, f"{refusal}: the form came back changed"
    assert actions.match(match_id)["hands"] == []


# Every game of the engine (a game a test registers is that test's own).
ENGINE_GAMES = [key for key, game in GAMES.items() if type(game).__module__.startswith("scorekeeper.games.")]


@pytest.mark.parametrize("refusal", [refusal for key in ENGINE_GAMES for refusal in refusals(key)], ids=str)
def test_every_games_form_says_what_the_table_did_wrong(client, actions, refusal):
    check(client, actions, refusal)
