"""The JSON API takes JSON's types exactly as the contract gives them (issue 20, item 4), over every
game's declared fields: a whole number is an integer (not "3", 3.0 or true), a bool a bool, a
choice one of its own values, a card a two-character code ("TH", not "10H"), null only where a field
is nullable. Each refusal is a 422 naming the field, and nothing is recorded. A hand number other
than the next is a 409. The forms still read text: the same values posted as form text are taken.

The wrong values are the text, float or bool of a value the field takes, so a looser reading would
accept them. A refusal is checked by its message at the field, not by the status alone: the status
could come from another rule."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES, RecordError, replay
from scorekeeper.games.fields import Field
from scorekeeper.matches.widgets import values_from_record
from tests.conftest import make_app

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]
NOT_WHOLE, NOT_BOOL, NOT_CHOICE = "must be a whole number", "must be true or false", "must be one of"
NOT_CARD, NOT_NULL = "is not a card code", "cannot be null"


def players(game) -> int:
    """The fewest players the game seats (Cuarenta refuses three: not every count in range is taken)."""
    for count in range(game.min_players, game.max_players + 1):
        try:
            game.table(count)
            return count
        except RecordError:
            continue
    raise AssertionError(game.key)


def start_state(game):
    table = game.table(players(game))
    return game.new_state(table, game.parse_options({}, table))


def example(game, seed: int = 7) -> dict:
    return game.example_hand(start_state(game), random.Random(seed))


def members(fields, prefix: str = "") -> Iterator[tuple[str, Field]]:
    """Every declared field with its path: "tricks", and a group's members as "at_close.points"."""
    for fld in fields:
        yield prefix + fld.name, fld
        yield from members(fld.fields, f"{prefix}{fld.name}.")


# -- the wrong values for each field type ---------------------------------------------------------------


def some_value(fld: Field, good, sides: int):
    """A value of the field's own type that it takes (the example's when it gave one)."""
    if good is not None:
        return good
    if fld.type in ("int", "side", "seat"):
        return fld.min if fld.min is not None else 0
    if fld.type in ("per_side", "int_list"):
        return [fld.min or 0] * (fld.length or sides)
    if fld.type == "side_list":
        return [0]
    if fld.type == "events":
        return [{"side": 0, "type": fld.choices[0]}]
    if fld.type == "cards":
        deck = [rank + suit for suit in "SHDC" for rank in fld.ranks]
        return [deck[side * 5 : side * 5 + 5] for side in range(sides)]
    if fld.type == "grid":
        deck = [rank + suit for suit in "SHDC" for rank in fld.ranks]
        return [deck[row * fld.columns : (row + 1) * fld.columns] for row in range(fld.rows)]
    return None


def as_other_types(number: int) -> list[tuple[str, object]]:
    return [("text", str(number)), ("float", float(number)), ("bool", number != 0)]


def with_first(items: list, item) -> list:
    return [item, *items[1:]]


def loose_cards(hand: list[str], ranks: str) -> list[tuple[str, object]]:
    """A hand written the loose ways: a ten as "10" (in a pack with tens), lower case, padded, one
    string of codes."""
    tens = [("ten as 10", with_first(hand, "10" + hand[0][1]))] if "T" in ranks else []
    return tens + [
        ("lower case", with_first(hand, hand[0].lower())),
        ("padded", with_first(hand, f" {hand[0]} ")),
        ("one string", " ".join(hand)),
    ]


def with_hand(hands: list, bad) -> list:
    """The hands with the first one shown (not null) replaced by `bad`."""
    first = next(i for i, hand in enumerate(hands) if hand)
    return [bad if i == first else hand for i, hand in enumerate(hands)]


def wrong_values(fld: Field, good, sides: int) -> list[tuple[str, object, str]]:
    """(label, wrong value, what the refusal says) for one field."""
    value = some_value(fld, good, sides)
    found: list[tuple[str, object, str]] = [] if fld.nullable else [("null", None, NOT_NULL)]
    if fld.type in ("int", "side", "seat"):
        found += [(label, bad, NOT_WHOLE) for label, bad in as_other_types(value)]
    elif fld.type in ("per_side", "int_list", "side_list"):
        found += [(f"entry as {label}", with_first(value, bad), NOT_WHOLE) for label, bad in as_other_types(value[0])]
    elif fld.type == "events":
        first = value[0]
        found += [
            (f"side as {label}", with_first(value, {**first, "side": bad}), NOT_WHOLE)
            for label, bad in as_other_types(first["side"])
        ]
    elif fld.type == "choice":
        numbers = [choice for choice in fld.choices if isinstance(choice, int)][:1]
        found += [
            (f"{label} for {number}", bad, NOT_CHOICE) for number in numbers for label, bad in as_other_types(number)
        ]
        found += [("upper case", value.upper(), NOT_CHOICE)] if isinstance(value, str) else []
    elif fld.type == "bool":
        found += [
            (label, bad, NOT_BOOL)
            for label, bad in [("yes", "yes"), ("text true", "true"), ("on", "on"), ("one", 1), ("zero", 0)]
        ]
    elif fld.type == "cards":
        shown = next(hand for hand in value if hand)
        found += [
            (label, with_hand(value, bad), "hands of" if label == "one string" else NOT_CARD)
            for label, bad in loose_cards(shown, fld.ranks)
        ]
    elif fld.type == "grid":
        found += [
            (label, with_hand(value, bad), "rows of" if label == "one string" else NOT_CARD)
            for label, bad in loose_cards(value[0], fld.ranks)
        ]
    elif fld.type == "group":
        found += [("text", "{}", "must be an object")]
    return found


def placed(record: dict, path: str, bad) -> dict:
    """The record with the value at `path` ("at_close.points") replaced by `bad`."""
    head, _, rest = path.partition(".")
    if not rest:
        return {**record, head: bad}
    inner = record.get(head)
    return {**record, head: placed(inner if isinstance(inner, dict) else {}, rest, bad)}


def value_at(record: dict, path: str):
    for part in path.split("."):
        record = record.get(part) if isinstance(record, dict) else None
    return record


def hand_cases() -> Iterator:
    for key, game in GAMES.items():
        record, sides = example(game), start_state(game).table.sides
        for path, fld in members(game.hand_fields):
            for label, bad, message in wrong_values(fld, value_at(record, path), sides):
                yield pytest.param(key, placed(record, path, bad), path, message, id=f"{key}-{path}-{label}")


def option_cases() -> Iterator:
    for key, game in GAMES.items():
        for name, fld in members(game.all_options):
            for label, bad, message in wrong_values(fld, fld.default, start_state(game).table.sides):
                yield pytest.param(key, name, bad, message, id=f"{key}-{name}-{label}")


# -- one app for the module: every refusal leaves its match as it was, so the matches are shared -------


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """Types are checked before the database is touched: SQLite alone will do."""
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('strict') / 'test.sqlite'}")
    yield app.test_client()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def new_match(client, key: str) -> int:
    """A new match of the game through the API, whose pages this client may also score."""
    answer = client.post("/api/v1/matches", json={"game": key, "players": NAMES[: players(GAMES[key])]})
    assert answer.status_code == 201, answer.json
    client.get(f"/matches/{answer.json['id']}/join?key={answer.json['key']}")
    return answer.json["id"]


MATCHES: dict[tuple[str, int], int] = {}


def fresh(client, key: str) -> int:
    """A match of the game with no hand (one per game and app: refusals leave it so)."""
    if (key, id(client)) not in MATCHES:
        MATCHES[key, id(client)] = new_match(client, key)
    return MATCHES[key, id(client)]


def refused(answer, field: str, message: str) -> None:
    assert answer.status_code == 422, answer.json
    assert message in answer.json["fields"].get(field, ""), answer.json
    assert answer.json["error"], answer.json


def hands_of(client, match_id: int) -> list:
    return client.get(f"/api/v1/matches/{match_id}").json["hands"]


# -- records ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key, record, field, message", list(hand_cases()))
def test_a_record_of_the_wrong_json_type_is_refused(client, key, record, field, message):
    match_id = fresh(client, key)
    refused(client.post(f"/api/v1/matches/{match_id}/hands", json={"record": record}), field, message)
    assert hands_of(client, match_id) == []


@pytest.mark.parametrize(
    "key, record, field, message",
    [pytest.param(*case.values, id=case.id) for case in hand_cases() if case.values[3] != NOT_NULL][::7],
)
def test_an_edit_of_the_wrong_json_type_is_refused(client, key, record, field, message):
    """PUT takes the same types (a sample of the cases: every seventh)."""
    match_id = new_match(client, key)
    good = example(GAMES[key])
    assert client.post(f"/api/v1/matches/{match_id}/hands", json={"record": good}).status_code == 201
    before = hands_of(client, match_id)
    refused(client.put(f"/api/v1/matches/{match_id}/hands/1", json={"record": record}), field, message)
    assert hands_of(client, match_id) == before


def test_every_card_field_refuses_10h():
    """The brief's own example, over every card field of every game (the cases above hold it)."""
    cases = [case.id for case in hand_cases() if case.id.endswith("ten as 10")]
    card_fields = [
        f"{key}-{path}"
        for key, game in GAMES.items()
        for path, fld in members(game.hand_fields)
        if fld.type in ("cards", "grid") and "T" in fld.ranks
    ]
    assert len(card_fields) >= 5 and {case.rsplit("-", 1)[0] for case in cases} == set(card_fields)


def test_turnover_bridge_takes_null_as_a_tie_only_from_winner(client):
    # api/partnership.md: {"winner": null} is a 13-13 tie; tricks are never null, and a record
    # gives the tricks or the winner, not both.
    match_id = fresh(client, "turnover_bridge")
    for record in ({"tricks": None, "winner": None}, {"tricks": None}, {"tricks": None, "winner": 0}):
        refused(client.post(f"/api/v1/matches/{match_id}/hands", json={"record": record}), "tricks", NOT_NULL)
    assert hands_of(client, match_id) == []
    tie = new_match(client, "turnover_bridge")
    answer = client.post(f"/api/v1/matches/{tie}/hands", json={"record": {"winner": None}})
    assert answer.status_code == 201 and answer.json["match"]["state"] == {"ties": 1}, answer.json


def test_a_record_that_is_not_an_object_is_refused(client):
    match_id = fresh(client, "envite")
    for record in (None, "winner 0", [0]):
        refused(client.post(f"/api/v1/matches/{match_id}/hands", json={"record": record}), "record", "an object")
    assert hands_of(client, match_id) == []


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_takes_its_example_hands_as_json(client, key):
    game = GAMES[key]
    match_id = new_match(client, key)
    rng = random.Random(11)
    for number in range(1, 6):
        match = client.get(f"/api/v1/matches/{match_id}").json
        if match["status"] == "finished":
            break
        table = game.table(len(match["players"]))
        state = replay(game, table, match["options"], [hand["record"] for hand in match["hands"]]).state
        answer = client.post(
            f"/api/v1/matches/{match_id}/hands", json={"record": game.example_hand(state, rng), "number": number}
        )
        assert answer.status_code == 201 and answer.json["number"] == number, answer.json


# -- options: a new match and a change of set-up ----------------------------------------------------------


@pytest.mark.parametrize("key, name, bad, message", list(option_cases()))
def test_an_option_of_the_wrong_json_type_is_refused(client, key, name, bad, message):
    seated = NAMES[: players(GAMES[key])]
    before = len(client.get(f"/api/v1/matches?game={key}&limit=200").json)
    refused(
        client.post("/api/v1/matches", json={"game": key, "players": seated, "options": {name: bad}}), name, message
    )
    assert len(client.get(f"/api/v1/matches?game={key}&limit=200").json) == before
    match_id = fresh(client, key)
    options = client.get(f"/api/v1/matches/{match_id}").json["options"]
    refused(client.patch(f"/api/v1/matches/{match_id}", json={"options": {name: bad}}), name, message)
    assert client.get(f"/api/v1/matches/{match_id}").json["options"] == options


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"options": None}, "options", "an object"),
        ({"options": ["target", 3]}, "options", "an object"),
        ({"draw_partners": "yes"}, "draw_partners", NOT_BOOL),
        ({"draw_partners": 1}, "draw_partners", NOT_BOOL),
    ],
)
def test_a_new_match_takes_json_types_only(client, body, field, message):
    before = len(client.get("/api/v1/matches?game=court_piece&limit=200").json)
    refused(client.post("/api/v1/matches", json={"game": "court_piece", "players": NAMES[:4], **body}), field, message)
    assert len(client.get("/api/v1/matches?game=court_piece&limit=200").json) == before


@pytest.mark.parametrize("body, field", [({"options": None}, "options"), ({"players": None}, "players")])
def test_a_set_up_change_takes_no_null(client, body, field):
    match_id = fresh(client, "schnapsen")
    refused(client.patch(f"/api/v1/matches/{match_id}", json=body), field, "not null")


# -- the hand number ---------------------------------------------------------------------------------------


@pytest.fixture
def one_hand(client) -> int:
    """An Envite match with one hand: the next is number 2."""
    match_id = new_match(client, "envite")
    assert client.post(f"/api/v1/matches/{match_id}/hands", json={"record": {"winner": 0}}).status_code == 201
    return match_id


@pytest.mark.parametrize("number", [0, -1, 1, 3, 10**6])
def test_any_hand_number_but_the_next_is_a_conflict(client, one_hand, number):
    # API.md: 409 when `number` is not the next hand's number (stale or ahead)
    answer = client.post(f"/api/v1/matches/{one_hand}/hands", json={"record": {"winner": 1}, "number": number})
    assert answer.status_code == 409, answer.json
    assert answer.json["fields"] == {"number": "the next hand is 2"}, answer.json
    assert len(hands_of(client, one_hand)) == 1


@pytest.mark.parametrize("number", ["2", 2.0, True, None, [2]])
def test_a_hand_number_that_is_not_an_integer_is_refused(client, one_hand, number):
    answer = client.post(f"/api/v1/matches/{one_hand}/hands", json={"record": {"winner": 1}, "number": number})
    refused(answer, "number", NOT_WHOLE)
    assert len(hands_of(client, one_hand)) == 1


def test_the_next_hand_number_is_taken(client, one_hand):
    answer = client.post(f"/api/v1/matches/{one_hand}/hands", json={"record": {"winner": 1}, "number": 2})
    assert answer.status_code == 201 and answer.json["number"] == 2, answer.json


def test_a_form_sent_twice_records_one_hand(client, one_hand):
    """The double tap: the same form (its token) sent again answers as the first did."""
    form = {"winner": "1", "stake": "4", "expected": "2", "token": "strict-tap"}
    assert client.post(f"/matches/{one_hand}/hands", data=form).status_code == 302
    assert client.post(f"/matches/{one_hand}/hands", data=form).status_code == 302
    assert [hand["record"] for hand in hands_of(client, one_hand)][1:] == [{"winner": 1, "stake": 4}]


@pytest.mark.parametrize("expected", ["0", "1", "3"])
def test_a_form_for_another_hand_number_is_a_conflict(client, one_hand, expected):
    answer = client.post(f"/matches/{one_hand}/hands", data={"winner": "1", "expected": expected})
    assert answer.status_code == 409
    assert len(hands_of(client, one_hand)) == 1


# -- the forms read text -----------------------------------------------------------------------------------


def form_text(values: dict) -> dict:
    """Form values as a browser posts them: text (a list for a field posted several times)."""
    return {name: value if isinstance(value, list) else str(value) for name, value in values.items()}


@pytest.mark.parametrize("key", list(GAMES))
def test_a_hand_posted_as_form_text_is_the_hand_sent_as_json(client, key):
    game = GAMES[key]
    record = example(game, seed=3)
    by_json, by_form = new_match(client, key), new_match(client, key)
    assert client.post(f"/api/v1/matches/{by_json}/hands", json={"record": record}).status_code == 201
    values = values_from_record(game.hand_fields, game.to_form(start_state(game), record))
    answer = client.post(f"/matches/{by_form}/hands", data={**form_text(values), "expected": "1"})
    assert answer.status_code == 302, (values, answer.get_data(as_text=True)[:2000])
    sent, posted = (client.get(f"/api/v1/matches/{match_id}").json for match_id in (by_json, by_form))
    assert posted["hands"][0]["changes"] == sent["hands"][0]["changes"]
    assert posted["hands"][0]["reasons"] == sent["hands"][0]["reasons"]
    assert posted["sides"] == sent["sides"] and posted["state"] == sent["state"]


@pytest.mark.parametrize(
    "data, record",
    [
        ({"winner": "1", "stake": "4", "declined": "on"}, {"winner": 1, "stake": 4, "declined": True}),
        (
            {"winner": " 0 ", "stake": "game", "trawl_failure": "on"},
            {"winner": 0, "stake": "game", "trawl_failure": True},
        ),
    ],
)
def test_envite_form_text_becomes_json_types(client, data, record):
    match_id = new_match(client, "envite")
    assert client.post(f"/matches/{match_id}/hands", data={**data, "expected": "1"}).status_code == 302
    assert hands_of(client, match_id)[0]["record"] == record


def test_cards_posted_with_a_ten_as_10_are_read(client):
    """A form's card is a rank and a suit; "10" and lower case are read as the codes they name."""
    match_id = new_match(client, "poke")
    hands = [
        [("A", "H"), ("K", "H"), ("Q", "H"), ("J", "H"), ("10", "H")],
        [("2", "c"), ("2", "D"), ("3", "S"), ("4", "S"), ("5", "S")],
    ]
    data = {"tricks-0": "2", "tricks-1": "3", "draws-0": "0", "draws-1": "0", "expected": "1"}
    for side, hand in enumerate(hands):
        for n, (rank, suit) in enumerate(hand):
            data[f"cards-{side}-{n}-rank"], data[f"cards-{side}-{n}-suit"] = rank, suit
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    assert hands_of(client, match_id)[0]["record"]["cards"] == [
        ["AH", "KH", "QH", "JH", "TH"],
        ["2C", "2D", "3S", "4S", "5S"],
    ]


def test_form_text_that_is_no_number_is_refused_at_its_field(client):
    match_id = new_match(client, "court_piece")
    data = {"outcome": "tricks", "tricks-0": "six", "tricks-1": "7", "expected": "1"}
    answer = client.post(f"/matches/{match_id}/hands", data=data)
    assert answer.status_code == 422 and "must be a whole number" in answer.get_data(as_text=True)
    assert hands_of(client, match_id) == []


def option_values(game) -> dict:
    """A valid value of every option that is not its default where the option allows it."""
    chosen = {}
    for fld in game.options:
        if fld.type == "bool":
            chosen[fld.name] = not fld.default
        elif fld.type == "choice":
            chosen[fld.name] = fld.choices[-1]
        elif fld.type == "int":
            chosen[fld.name] = fld.min if fld.default is None else fld.default
    return chosen


@pytest.mark.parametrize("key", list(GAMES))
def test_house_rules_posted_as_form_text_are_json_types(client, key):
    game = GAMES[key]
    options = option_values(game)
    seated = NAMES[: players(game)]
    data = {f"seat-{seat}": name for seat, name in enumerate(seated)}
    data.update(form_text(values_from_record(game.options, options, prefix="opt-")))
    data["first_dealer"] = "1"
    answer = client.post(f"/matches/new/{key}", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    match_id = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    shown = client.get(f"/api/v1/matches/{match_id}").json["options"]
    wanted = {name: value for name, value in options.items() if value is not False}  # an unticked box: the default
    assert {name: shown[name] for name in wanted} == wanted
    assert shown.get("first_dealer", 1) == 1
