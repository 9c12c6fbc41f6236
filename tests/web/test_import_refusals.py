"""`flask import` of a hostile file (issue 19): each is refused in one line with exit status 1, no
traceback and nothing written; a file that is taken leaves every page of every match answering.
`flask verify` reports a match it cannot replay and goes on with the next."""

from __future__ import annotations

import copy
import json
import random

import pytest

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from tests.conftest import Actions, make_app
from tests.web.test_data import exported, populate
from tests.web.test_stored_state import players, state_at

MATCH_PAGES = [
    "/matches/{id}",
    "/matches/{id}/watch",
    "/matches/{id}/hands",
    "/api/v1/matches/{id}",
    "/matches/{id}/share",
    "/matches/{id}/setup",
]  # the last two for a phone with the key


def play_every_game(phone: Actions, rng: random.Random) -> None:
    """A match of every game with a few hands each; a game the table ends by calling it is called."""
    for key, game in GAMES.items():
        match_id = phone.start(key, players(game))
        for _ in range(3):
            match = phone.match(match_id)
            if match["status"] == "finished":
                break
            phone.hand(match_id, game.example_hand(state_at(game, match, len(match["hands"])), rng))
        match = phone.match(match_id)
        if game.ends_by_call(match["options"]) and match["status"] != "finished":
            phone.finish(match_id)


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> tuple[dict, dict[int, str]]:
    """An export the app wrote (the flagship games played, edited and finished, then every game),
    and the scoring phone's key of each match."""
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('source') / 'source.sqlite'}")
    phone = Actions(app.test_client())
    populate(phone)
    play_every_game(phone, random.Random(19))
    made = exported(app)
    with app.app_context():
        db.engine.dispose()
    return json.loads(json.dumps(made)), phone.keys


@pytest.fixture
def good_export(source) -> dict:
    return source[0]


def import_file(app, tmp_path, content: bytes):
    path = tmp_path / "import.json"
    path.write_bytes(content)
    return app.test_cli_runner().invoke(args=["import", str(path)])


def refusal(result) -> str:
    """The one line the host sees: exit status 1, Click's own error (never a traceback)."""
    assert isinstance(result.exception, SystemExit), repr(result.exception)[:300]
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0].removeprefix("Error: ")


def empty(app) -> bool:
    return all(rows == [] for rows in exported(app)["tables"].values())


# -- the file's parts, by what they are -------------------------------------------------------------


def rows(export: dict, table: str) -> list[dict]:
    return export["tables"][table]


def match_of(export: dict, game: str) -> dict:
    return next(match for match in rows(export, "match") if match["game"] == game)


def seats_of(export: dict, game: str) -> list[dict]:
    return [seat for seat in rows(export, "seat") if seat["match_id"] == match_of(export, game)["id"]]


def hands_of(export: dict, game: str) -> list[dict]:
    return [hand for hand in rows(export, "hand") if hand["match_id"] == match_of(export, game)["id"]]


def text(export: dict) -> str:
    return json.dumps(export)


def nested(depth: int):
    value = 0
    for _ in range(depth):
        value = [value]
    return value


# Each hostile file: how it is made from a good export (in place, or the bytes to write) and the
# line that refuses it ({envite} and the like: that match's id).
HOSTILE = {}


def hostile(expected: str):
    def register(make):
        HOSTILE[make.__name__] = (make, expected)
        return make

    return register


@hostile("That file is not UTF-8 text (byte 0xff at offset 0).")
def bytes_not_utf8(export):
    return b"\xff" + text(export).encode()


@hostile("That file is empty.")
def empty_file(export):
    return b""


@hostile("That file is empty.")
def only_spaces(export):
    return b" \n\t\n"


@hostile("That file is not JSON (Expecting value: line 1 column")
def cut_short(export):
    return text(export)[:-40].encode()


@hostile("That file is not a Scorekeeper export.")
def json_array(export):
    return b"[]"


@hostile("That file is not a Scorekeeper export.")
def json_number(export):
    return b"7"


@hostile("That file nests its values more than 100 levels deep; an export never does.")
def nested_past_the_recursion_limit(export):
    return b"[" * 100_000 + b"]" * 100_000


@hostile("That file nests its values more than 100 levels deep; an export never does.")
def a_record_nested_500_deep(export):
    hands_of(export, "envite")[0]["record"]["stake"] = nested(500)


@hostile("That file holds NaN, which is not a number JSON knows.")
def nan(export):
    return text(export).replace('"version": 1', '"version": NaN').encode()


@hostile("That file holds the number 1e999, too large to keep.")
def infinite_number(export):
    return text(export).replace('"version": 1', '"version": 1e999').encode()


@hostile("That file holds a number too long to be one Scorekeeper wrote.")
def a_number_of_5000_digits(export):
    return text(export).replace('"version": 1', '"version": ' + "9" * 5000).encode()


@hostile("That file holds a whole number too large to keep (11805916207174113034...).")
def a_number_past_64_bits(export):
    match_of(export, "envite")["version"] = 10 * 2**70


@hostile("match with id {envite}: the column version must be a whole number of at most 32 bits.")
def a_number_past_32_bits(export):
    match_of(export, "envite")["version"] = 2**40


@hostile("That file names the key 'tables' twice in one object.")
def a_key_twice(export):
    return (text(export)[:-1] + ', "tables": {}}').encode()


@hostile("That file holds text that is not Unicode ('\\ud800').")
def a_lone_surrogate(export):
    rows(export, "player")[0]["name"] = "\ud800"


@hostile("That export is in format version True; this Scorekeeper reads 1.")
def version_true(export):
    export["version"] = True


@hostile("That export has no tables (an object of lists of rows).")
def no_tables(export):
    del export["tables"]


@hostile("That export has no tables (an object of lists of rows).")
def tables_a_list(export):
    export["tables"] = list(export["tables"].values())


@hostile("The export's table match is not a list of rows.")
def a_table_not_a_list(export):
    export["tables"]["match"] = {"1": match_of(export, "envite")}


@hostile("hand row 1 is not an object of columns.")
def a_row_not_an_object(export):
    rows(export, "hand")[0] = [1, 2, 3]


@hostile("match with id {envite}: the column game is missing.")
def a_column_missing(export):
    del match_of(export, "envite")["game"]


@hostile("match with id {envite}: the column options is missing.")
def a_json_column_null(export):
    match_of(export, "envite")["options"] = None


@hostile("hand with id 1: the column number must be a whole number of at most 32 bits.")
def a_number_as_text(export):
    rows(export, "hand")[0]["number"] = "1"


@hostile("match with id {envite}: the column called must be true or false.")
def a_bool_as_a_number(export):
    match_of(export, "envite")["called"] = 0


@hostile("player with id 1: the column name must be text of at most 40 characters.")
def a_name_too_long(export):
    rows(export, "player")[0]["name"] = "A" * 41


@hostile("player with id 1: the column name must be text (without NUL characters).")
def a_nul_in_a_name(export):
    rows(export, "player")[0]["name"] = "A\x00"


@hostile("match with id {envite}: the column created must be a date and time (ISO 8601).")
def a_time_that_is_not_one(export):
    match_of(export, "envite")["created"] = "yesterday"


@hostile("match with id {envite}: the column created must be a date and time (ISO 8601).")
def a_time_before_year_one_in_utc(export):
    match_of(export, "envite")["created"] = "0001-01-01T00:00:00+05:00"


@hostile("player with id 0: the column id must be from 1 to 2147483646.")
def an_id_of_zero(export):
    rows(export, "player")[0]["id"] = 0


@hostile("match with id 2147483647: the column id must be from 1 to 2147483646.")
def an_id_that_leaves_none_after_it(export):
    match = match_of(export, "envite")
    for row in seats_of(export, "envite") + hands_of(export, "envite"):
        row["match_id"] = 2**31 - 1
    match["id"] = 2**31 - 1


@hostile("Two rows of player have the same id 1.")
def an_id_twice(export):
    rows(export, "player")[1]["id"] = 1


@hostile("Two rows of player have the same key 'ann'.")
def a_player_key_twice(export):
    ann = next(player for player in rows(export, "player") if player["key"] == "ann")
    rows(export, "player").append({**ann, "id": 1000})


@hostile("Two rows of hand have the same match_id {envite}, number 1.")
def a_hand_number_twice(export):
    hands_of(export, "envite")[1]["number"] = 1


@hostile("seat with id 1: its player_id 999 names no player in the file.")
def a_seat_of_no_player(export):
    rows(export, "seat")[0]["player_id"] = 999


@hostile("hand with id 1: its match_id 999 names no match in the file.")
def a_hand_of_no_match(export):
    rows(export, "hand")[0]["match_id"] = 999


@hostile("player 1: A player's name can only hold printable letters and signs.")
def an_unprintable_name(export):
    player = rows(export, "player")[0]
    player["name"], player["key"] = "Ann\x07", "ann\x07"


@hostile("player 1: the name ' Émile' has spaces the app takes out.")
def a_name_with_a_space_before(export):
    player = rows(export, "player")[0]
    player["name"], player["key"] = " " + player["name"], " " + player["key"]


@hostile("player 1: its key is not its name case-folded.")
def a_key_not_folded(export):
    rows(export, "player")[0]["key"] = "someone else"


@hostile("match {envite}: its key_hash is not a SHA-256 in hex.")
def a_write_key_hash_not_ascii(export):
    match_of(export, "envite")["key_hash"] = "é" * 64


@hostile("match {envite}: the game 'evil' is not one Scorekeeper scores.")
def an_unknown_game(export):
    match_of(export, "envite")["game"] = "evil"
    for seat in seats_of(export, "evil"):
        seat["game"] = "evil"


@hostile("match {envite}: the stored state is not the replayed one.")
def a_state_that_does_not_decode(export):
    match_of(export, "envite")["state"] = "x"


@hostile("match {envite}: the stored state is not the replayed one.")
def a_state_of_another_version(export):
    match_of(export, "envite")["state_version"] -= 1


@hostile("match {envite}, hand 2: stored values differ from the replay.")
def a_hand_state_from_another_hand(export):
    first, second = hands_of(export, "envite")
    second["state"] = first["state"]


@hostile("match {envite}, hand 1: stored values differ from the replay.")
def a_change_of_false_for_zero(export):
    hand = hands_of(export, "envite")[0]
    assert 0 in hand["changes"]
    hand["changes"] = [False if change == 0 else change for change in hand["changes"]]


@hostile("match {envite}, hand 1: its record does not replay (Winner must name a side, 0 to 1).")
def a_record_that_does_not_replay(export):
    hands_of(export, "envite")[0]["record"]["winner"] = 5


@hostile("match {envite}: the stored state is not the replayed one.")
def a_record_not_as_kept(export):
    record = hands_of(export, "envite")[1]["record"]
    del record["declined"]  # the engine takes it as false, and keeps "declined": false


@hostile("match {poke}, hand 1: its stored answer differs from the replay.")
def an_answer_not_json(export):
    hands_of(export, "poke")[0]["answer"] = "{"


@hostile("match {poke}: its hands are not numbered from 1 without a gap.")
def a_gap_in_the_hands(export):
    hands_of(export, "poke")[0]["number"] = 2


@hostile("match {envite}: its 3 seats do not fit Envite (Envite is played by 4 to 12 players).")
def seats_too_few(export):
    seats = seats_of(export, "envite")
    rows(export, "seat").remove(seats[-1])


@hostile("match {envite}: its seats are not numbered from 0 without a gap.")
def a_gap_in_the_seats(export):
    seats_of(export, "envite")[-1]["position"] = 9


@hostile("match {court_piece}: its seats are not on the sides Court Piece gives them.")
def seats_on_other_sides(export):
    for seat in seats_of(export, "court_piece"):
        seat["side"] = 1 - seat["side"] if seat["position"] < 2 else seat["side"]


@hostile("match {envite}: a seat names another game than the match.")
def a_seat_of_another_game(export):
    seats_of(export, "envite")[0]["game"] = "poke"


@hostile("match {envite}: a player has two seats.")
def a_player_in_two_seats(export):
    first, second, *_ = seats_of(export, "envite")
    second["player_id"] = first["player_id"]


@hostile("match {envite}: its options do not fit the game (First dealer must name a seat, 0 to 3).")
def options_that_do_not_parse(export):
    match_of(export, "envite")["options"]["first_dealer"] = 7


@hostile("match {envite}: its options do not fit the game (A record must be an object of named fields).")
def options_not_an_object(export):
    match_of(export, "envite")["options"] = [1, 2]


@hostile("match {envite}: its options are not as Scorekeeper keeps them.")
def an_option_left_out(export):
    match_of(export, "envite")["options"].pop("first_dealer")


@hostile("match {envite}: it is marked as called, but Envite ends by itself.")
def called_though_it_ends_by_itself(export):
    match_of(export, "envite")["called"] = True


@hostile("match {envite}: its status, winner or headline differs from the replay.")
def a_status_of_no_kind(export):
    match_of(export, "envite")["status"] = "x"


@hostile("match {schnapsen}: its status, winner or headline differs from the replay.")
def a_headline_naming_side_nine(export):
    match_of(export, "schnapsen")["headline"] = "\x1f9\x1f wins"


@hostile("match {schnapsen}: its seats' outcomes differ from the replay.")
def outcomes_swapped(export):
    for seat in seats_of(export, "schnapsen"):
        seat["outcome"] = {"won": "lost", "lost": "won"}[seat["outcome"]]


@hostile("story after match {schnapsen} differs from a fresh computation")
def a_record_kept_wrong(export):
    row = next(row for row in rows(export, "rated_seat") if row["game"] == "schnapsen" and row["won"])
    row["won"] += 5


@hostile("match {schnapsen}: its seats and its place in the players' stories disagree")
def a_record_not_kept(export):
    export["tables"]["rated_seat"] = [row for row in rows(export, "rated_seat") if row["game"] != "schnapsen"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_file_is_refused_in_one_line_and_nothing_is_written(app, good_export, tmp_path, name):
    make, expected = HOSTILE[name]
    export = copy.deepcopy(good_export)
    ids = {game: match_of(export, game)["id"] for game in ("envite", "court_piece", "poke", "schnapsen")}
    content = make(export)
    line = refusal(import_file(app, tmp_path, content if content is not None else text(export).encode()))
    assert expected.format(**ids) in line
    assert empty(app)


def test_a_stored_state_naming_foreign_code_is_refused_without_running_it(app, good_export, tmp_path):
    ran = tmp_path / "ran"
    export = copy.deepcopy(good_export)
    envite = match_of(export, "envite")
    envite["state"] = {"$dc": "scorekeeper.games.base:dataclasses.inspect.os.system", "f": {"command": f"touch {ran}"}}
    line = refusal(import_file(app, tmp_path, text(export).encode()))
    assert line == f"match {envite['id']}: the stored state is not the replayed one."
    assert not ran.exists() and empty(app)


def test_an_export_the_app_wrote_is_taken_whole_and_every_page_answers(app, source, tmp_path):
    good_export, keys = source
    assert len(rows(good_export, "match")) == 4 + len(GAMES)
    assert rows(good_export, "match_event") and any(match["called"] for match in rows(good_export, "match"))
    result = import_file(app, tmp_path, text(good_export).encode())
    assert result.exit_code == 0, result.output
    assert exported(app) == good_export
    client = app.test_client()  # the scoring phone: its pages show the log and the forms
    for match_id, key in keys.items():
        assert client.get(f"/matches/{match_id}/join?key={key}").status_code == 302
    pages = ["/", "/matches", "/players/"] + [f"/players/{player['id']}" for player in rows(good_export, "player")]
    pages += [page.format(id=match["id"]) for match in rows(good_export, "match") for page in MATCH_PAGES]
    pages += [f"/matches/{hand['match_id']}/hands/{hand['number']}/edit" for hand in rows(good_export, "hand")]
    assert [page for page in pages if client.get(page).status_code != 200] == []
    verified = app.test_cli_runner().invoke(args=["verify"])
    checked = len(rows(good_export, "match"))
    assert verified.exit_code == 0 and f"{checked} matches checked, 0 differences" in verified.output


def test_a_file_with_a_byte_order_mark_is_taken(app, good_export, tmp_path):
    result = import_file(app, tmp_path, b"\xef\xbb\xbf" + text(good_export).encode())
    assert result.exit_code == 0, result.output
    assert exported(app) == good_export


def test_a_database_without_its_tables_is_said_in_one_line(app, good_export, tmp_path):
    with app.app_context():
        db.drop_all()  # `flask db upgrade` was never run
    line = refusal(import_file(app, tmp_path, text(good_export).encode()))
    assert line.startswith("The database refused the import, and nothing was written (")


# -- flask verify on a database broken behind the app's back ------------------------------------------

BROKEN = {
    "an unknown game": (
        "UPDATE match SET game = 'evil' WHERE id = :id",
        "match {id}: the game 'evil' is not one Scorekeeper scores",
    ),
    "a record that no longer replays": (
        'UPDATE hand SET record = \'{"winner": 5, "stake": 4}\' WHERE match_id = :id AND number = 1',
        "match {id}, hand 1: its record does not replay (Winner must name a side, 0 to 1)",
    ),
    "seats that do not fit": (
        "DELETE FROM seat WHERE match_id = :id AND position = 3",
        "match {id}: its 3 seats do not fit Envite (Envite is played by 4 to 12 players)",
    ),
    "a hand missing": (
        "DELETE FROM hand WHERE match_id = :id AND number = 1",
        "match {id}: its hands are not numbered from 1 without a gap",
    ),
}


def break_behind_the_apps_back(app, statement: str, match_id: int) -> None:
    with app.app_context():
        db.session.execute(db.text(statement), {"id": match_id})
        db.session.commit()


@pytest.mark.parametrize("how", BROKEN)
def test_flask_verify_reports_a_match_it_cannot_replay_and_goes_on(app, actions, how):
    """The broken match is one line of the report; the match after it is still checked (its drifted
    state found, and stored anew by --store), and --store leaves the broken one as it is."""
    statement, expected = BROKEN[how]
    ids = populate(actions)
    break_behind_the_apps_back(app, statement, ids["envite"])
    break_behind_the_apps_back(app, "UPDATE match SET state = '\"x\"' WHERE id = :id", ids["poke"])
    broken_rows = {table: rows_of_match(app, table, ids["envite"]) for table in ("match", "seat", "hand")}
    runner = app.test_cli_runner()

    found = runner.invoke(args=["verify"])
    assert isinstance(found.exception, SystemExit) and found.exit_code == 1, repr(found.exception)
    broken_line, *rest = found.output.splitlines()
    assert broken_line == expected.format(id=ids["envite"])
    assert rest == [
        f"match {ids['poke']}: the stored state is not the replayed one",
        "4 matches checked, 2 differences",
    ]

    stored = runner.invoke(args=["verify", "--store"])
    assert isinstance(stored.exception, SystemExit) and stored.exit_code == 1
    left, *rest = stored.output.splitlines()
    assert left == expected.format(id=ids["envite"]) + "; left as it is, since it cannot be replayed"
    assert rest == [
        f"match {ids['poke']}: the stored state is not the replayed one",
        "4 matches checked, 2 differences (stored anew, but for 1 that cannot be replayed)",
    ]
    assert {table: rows_of_match(app, table, ids["envite"]) for table in broken_rows} == broken_rows

    again = runner.invoke(args=["verify"])
    assert again.exit_code == 1 and again.output.splitlines()[1:] == ["4 matches checked, 1 differences"]
    assert actions.client.get(f"/matches/{ids['poke']}").status_code == 200


def rows_of_match(app, table: str, match_id: int) -> list[dict]:
    column = "id" if table == "match" else "match_id"
    with app.app_context():
        return [
            dict(row._mapping)
            for row in db.session.execute(
                db.text(f'SELECT * FROM "{table}" WHERE {column} = :id ORDER BY id'), {"id": match_id}
            )
        ]
