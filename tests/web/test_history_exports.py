"""Export from the page (issue 24): every list (the history filtered, a player, a night, a match) as
CSV and JSON from a link, the very rows `flask export-csv` writes; a match's printable score sheet.
Files a club secretary can open (issue 34, item 4): a results file (a row per match) from every list,
a night's standings, the hands with games by name and times in the club's zone; every CSV with a
byte-order mark."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from zoneinfo import ZoneInfo

import pytest

from scorekeeper.extensions import db
from scorekeeper.history import exports
from scorekeeper.models import Hand, Match, Player
from tests.conftest import make_app
from tests.web.test_data import csv_rows, populate
from tests.web.test_history_nights import court, start_on


@pytest.fixture
def history(app, actions):
    ids = populate(actions)
    actions.client.post(f"/matches/{ids['poke']}/hands", data={})  # nothing: a refused form changes nothing
    with app.app_context():
        db.session.execute(
            db.update(Match).where(Match.id == ids["schnapsen"]).values(night=20000101)
        )  # a night long past: none of the other matches is in it
        db.session.commit()
    return ids


def cli_rows(app) -> list[dict]:
    return csv_rows(app.test_cli_runner().invoke(args=["export-csv"]).output)


BOM = b"\xef\xbb\xbf"  # UTF-8's byte-order mark: without it Excel on Windows reads "Núria" as "NÃºria"


def page_rows(client, url: str) -> list[dict]:
    """A CSV export's rows, read as a spreadsheet would: its bytes start with the byte-order mark."""
    answer = client.get(url)
    assert answer.status_code == 200, url
    assert answer.data.startswith(BOM), answer.data[:20]
    return list(csv.DictReader(io.StringIO(answer.data.decode("utf-8-sig"))))


def test_each_lists_csv_is_the_command_lines_rows_of_its_matches(app, client, history):
    every = cli_rows(app)
    assert page_rows(client, "/export/hands.csv") == every
    court = str(history["court_piece"])
    assert page_rows(client, f"/export/hands.csv?match={court}") == [row for row in every if row["match"] == court]
    assert page_rows(client, "/export/hands.csv?game=envite") == [row for row in every if row["game"] == "Envite"]
    with app.app_context():
        ann, cy = (db.session.scalar(db.select(Player.id).where(Player.name == name)) for name in ("Ann", "Cy"))
    sits = [row for row in every if row["match"] in (court, str(history["poke"]))]  # Ann sits in those two
    assert page_rows(client, f"/export/hands.csv?player={ann}") == sits
    together = [row for row in every if row["match"] == court]  # Ann and Cy sit together in one
    assert page_rows(client, f"/export/hands.csv?player={ann}&player={cy}") == together
    assert page_rows(client, "/export/hands.csv?night=20000101") == [
        row for row in every if row["match"] == str(history["schnapsen"])
    ]
    assert list(page_rows(client, "/export/hands.csv?match=1")[0]) == exports.COLUMNS


def test_the_json_export_holds_the_same_rows_with_the_record_as_an_object(client, history):
    rows = page_rows(client, f"/export/hands.csv?match={history['court_piece']}")
    answer = client.get(f"/export/hands.json?match={history['court_piece']}")
    assert answer.headers["Content-Type"] == "application/json"
    assert 'filename="scorekeeper-hands-match-' in answer.headers["Content-Disposition"]
    shown = answer.json
    assert [{**row, "record": json.loads(row["record"])} for row in rows] == [
        {key: value if key == "record" else str(value) for key, value in row.items()} for row in shown
    ]
    assert shown[0]["change"] == int(rows[0]["change"]) and isinstance(shown[0]["record"], dict)


def test_an_export_of_nothing_or_of_no_such_thing(client, history):
    assert page_rows(client, "/export/hands.csv?player=9999") == []
    assert client.get("/export/hands.json?night=19990101").json == []
    assert client.get("/export/hands.csv?game=chess").status_code == 404
    assert client.get("/export/hands.csv?match=99999999999").status_code == 404
    assert client.get("/export/hands.csv?night=99999999999999999999").status_code == 404
    assert client.get("/nights?before=99999999999999999999").status_code == 200
    assert client.get("/export/hands.xml").status_code == 404


def test_the_score_sheet_holds_the_board_and_every_hand_without_the_forms(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"], courts_to_win=2)
    for tricks in ([8, 5], [3, 10], [7, 6]):
        actions.hand(match_id, {"outcome": "tricks", "tricks": tricks})
    edited = client.post(
        f"/matches/{match_id}/hands/2/edit",
        data={"outcome": "tricks", "tricks-0": "3", "expected": "2", "note": "Bo misdealt"},
    )
    assert edited.status_code == 302
    page = client.get(f"/matches/{match_id}/sheet").get_data(as_text=True)
    assert "“Bo misdealt”" in page
    assert '<body class="sheet-page">' in page and 'aria-label="courts"' in page  # the game's own board
    rows = re.findall(r'<tr><th scope="row">(\d+)</th><td>([+-]?\d+)</td><td class="total">(\d+)</td>', page)
    assert [number for number, *_ in rows] == ["1", "2", "3"]
    assert "hand-form" not in page and "Record hand" not in page
    assert client.get("/matches/99999/sheet").status_code == 404


FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)"]


def test_no_exported_cell_is_a_formula_a_spreadsheet_would_run(app, client, actions):
    """OWASP's CSV injection: a text cell starting with = + - @ (or a tab, a carriage return) is
    prefixed with a quote, in the page's export and the command's; numbers stay numbers."""
    match_id = actions.start("court_piece", FORMULAS)
    client.post(
        f"/matches/{match_id}/hands",
        data={"outcome": "tricks", "tricks-0": "4", "expected": "1", "note": "@SUM(1+1)*cmd|' /C calc'!A0"},
    )
    for rows in (page_rows(client, f"/export/hands.csv?match={match_id}"), cli_rows(app)):
        assert rows, "the hand is exported"
        cells = [cell for row in rows for cell in row.values()]
        assert [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r") or cell.startswith("-2")] == []
        assert rows[0]["players"] == "'" + " & ".join([FORMULAS[0], FORMULAS[2]])
        assert rows[0]["note"] == "'@SUM(1+1)*cmd|' /C calc'!A0"
        assert all(row["change"].lstrip("-").isdigit() for row in rows)  # numbers as they were
    results = page_rows(client, f"/export/results.csv?match={match_id}")
    assert results[0]["players"] == "'" + " – ".join(
        [f"{FORMULAS[0]} & {FORMULAS[2]}", f"{FORMULAS[1]} & {FORMULAS[3]}"]
    )


def test_the_csv_names_its_charset_once(client, history):
    assert client.get("/export/hands.csv").headers["Content-Type"] == "text/csv; charset=utf-8"


def test_an_export_holds_no_database_connection_while_its_reader_waits(app, client, history):
    """A reader that takes the first bytes and stalls (issue 38, item 2): the rows already read are
    held in memory, the connection is back in the pool. So for every file (issue 34, item 4)."""
    for what in ("hands", "results", "standings"):
        answer = client.get(f"/export/{what}.csv?night=20000101", buffered=False)
        chunks = iter(answer.response)
        assert next(chunks)  # the reader has its first bytes, and reads no more for now
        with app.app_context():
            assert db.engine.pool.checkedout() == 0, what
        answer.close()


def test_exports_are_limited_per_address(tmp_path):
    limited = make_app(
        f"sqlite:///{tmp_path / 'exports.sqlite'}", RATELIMIT_ENABLED=True, SCOREKEEPER_EXPORT_LIMIT="3 per minute"
    )
    reader = limited.test_client()
    statuses = [reader.get("/export/hands.json").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert reader.get("/matches").status_code == 200  # the pages are not counted


# -- files a club secretary can open (issue 34, item 4) -----------------------------------------------------

CHATHAM = "Pacific/Chatham"  # UTC+12:45 (+13:45 in summer): a time off by any hour or zone shows
FRIDAY = 20261127
MINUTE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")  # to the minute: no seconds, no microseconds, no offset


@pytest.fixture
def club(app, actions):
    """A club's Friday: a Schnapsen won by Núria, a Court Piece called a draw, a Myllymatti whose two
    winners share the win (the session names its loser), a Court Piece still in play with two hands;
    and a match of another night. The club's clock is Chatham's."""
    app.config["SCOREKEEPER_TIME_ZONE"] = CHATHAM
    ids = {
        "won": start_on(app, actions, FRIDAY, "schnapsen", ["Núria", "Di"], target=1),
        "drawn": start_on(app, actions, FRIDAY, "court_piece", ["Ann", "Bo", "Cy", "Núria"]),
        "shared": start_on(app, actions, FRIDAY, "myllymatti", ["Ann", "Bo", "Cy"], games_to_lose=1),
        "playing": start_on(app, actions, FRIDAY, "court_piece", ["Núria", "Bo", "Cy", "Di"], courts_to_win=3),
        "elsewhere": start_on(app, actions, 20261120, "schnapsen", ["Ann", "Bo"], target=1),
    }
    actions.hand(ids["won"], {"ending": "out", "declarer": 0, "points": [70, 20], "tricks": [4, 1]})
    actions.finish(ids["drawn"])
    actions.hand(ids["shared"], {"loser": 2})
    for side in (0, 1):
        actions.hand(ids["playing"], court(side))
    actions.hand(ids["elsewhere"], {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    return ids


def in_the_clubs_zone(app, moments) -> list[str]:
    """The moments a statement reads (when a match started, its hands were recorded), as the club reads them."""
    with app.app_context():
        return [
            moment.astimezone(ZoneInfo(CHATHAM)).strftime("%Y-%m-%d %H:%M") for moment in db.session.scalars(moments)
        ]


def started(match_id: int):
    return db.select(Match.created).where(Match.id == match_id)


def recorded(match_id: int):
    return db.select(Hand.created).where(Hand.match_id == match_id).order_by(Hand.number)


def scores(client, match_id: int, unit: str) -> str:
    """Each side's score as the API says it, as an export writes it: "2 – 1 courts"."""
    sides = client.get(f"/api/v1/matches/{match_id}").json["sides"]
    return " – ".join(str(side["score"]) for side in sides) + f" {unit}"


def final_banner(client, match_id: int) -> str:
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    return html.unescape(re.search(r'<p class="banner final" role="status"><strong>(.*?)</strong>', page).group(1))


def test_the_results_file_has_a_row_per_match_as_its_page_and_the_api_say(app, client, club):
    rows = page_rows(client, f"/export/results.csv?night={FRIDAY}")
    assert list(rows[0]) == exports.RESULT_COLUMNS
    friday = [club[name] for name in ("won", "drawn", "shared", "playing")]
    assert [int(row["match"]) for row in rows] == friday  # one row a match, however many hands it has
    won, drawn, shared, playing = rows
    api = client.get(f"/api/v1/matches/{club['won']}").json
    assert won["winner"] == " & ".join(api["sides"][api["winner"]]["players"]) == "Núria"
    assert won["score"] == scores(client, club["won"], "victory points") == "2 – 0 victory points"
    assert won["result"] == final_banner(client, club["won"]) and "Núria" in won["result"]
    assert (won["game"], won["status"], won["players"]) == ("Schnapsen", "finished", "Núria – Di")
    assert [won["started"]] == in_the_clubs_zone(app, started(club["won"]))
    assert MINUTE.fullmatch(won["started"])
    assert (drawn["players"], drawn["score"], drawn["winner"]) == ("Ann & Cy – Bo & Núria", "0 – 0 courts", "Drawn")
    assert drawn["result"] == final_banner(client, club["drawn"])
    assert (shared["winner"], shared["result"]) == ("Ann, Bo (shared)", final_banner(client, club["shared"]))
    assert (playing["status"], playing["winner"], playing["result"]) == ("in progress", "", "")
    assert playing["score"] == scores(client, club["playing"], "courts") == "1 – 1 courts"
    assert playing["game"] == "Court Piece"


def test_the_results_json_holds_the_same_rows(client, club):
    for args in (f"night={FRIDAY}", f"match={club['won']}", "game=myllymatti", ""):
        answer = client.get(f"/export/results.json?{args}")
        assert answer.headers["Content-Type"] == "application/json"
        assert answer.json == [
            {**row, "match": int(row["match"])} for row in page_rows(client, f"/export/results.csv?{args}")
        ]
    assert [row["match"] for row in client.get("/export/results.json").json] == sorted(club.values())


def test_each_list_offers_its_results_in_a_file_of_its_own(client, club):
    with client.application.app_context():
        nuria = db.session.scalar(db.select(Player.id).where(Player.name == "Núria"))
        bo = db.session.scalar(db.select(Player.id).where(Player.name == "Bo"))
    assert [row["match"] for row in page_rows(client, f"/export/results.csv?player={nuria}")] == [
        str(club[name]) for name in ("won", "drawn", "playing")
    ]
    together = page_rows(client, f"/export/results.csv?player={nuria}&player={bo}")
    assert [row["match"] for row in together] == [str(club["drawn"]), str(club["playing"])]
    assert [row["game"] for row in page_rows(client, "/export/results.csv?game=schnapsen")] == ["Schnapsen"] * 2
    assert len(page_rows(client, f"/export/results.csv?match={club['playing']}")) == 1


def test_the_standings_file_is_the_nights_standings_as_its_page_shows_them(client, club):
    page = client.get(f"/nights/{FRIDAY}").get_data(as_text=True)
    shown = re.findall(
        r'<tr><td>(\d+)</td><th scope="row">(.*?)</th><td>([\d.]+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>',
        page,
    )
    rows = page_rows(client, f"/export/standings.csv?night={FRIDAY}")
    assert list(rows[0]) == exports.STANDING_COLUMNS
    assert [tuple(row.values()) for row in rows] == [(p, html.unescape(n), *rest) for p, n, *rest in shown]
    assert [row["player"] for row in rows][:2] == ["Núria", "Ann"]  # Núria won one and drew one: 1.5 points
    assert rows[0]["points"] == "1.5"
    answer = client.get(f"/export/standings.json?night={FRIDAY}")
    assert answer.json == [
        {**row, **{key: json.loads(row[key]) for key in ("place", "points", "won", "lost", "level")}} for row in rows
    ]
    assert answer.json[0] == {"place": 1, "player": "Núria", "points": 1.5, "won": 1, "lost": 0, "level": 1}


def test_the_hands_file_names_the_game_and_says_the_time_as_the_club_reads_it(app, client, club):
    rows = page_rows(client, f"/export/hands.csv?match={club['playing']}")
    assert list(rows[0]) == exports.COLUMNS and exports.COLUMNS[-1] == "record"
    assert {(row["game"], row["status"]) for row in rows} == {("Court Piece", "in progress")}
    assert [row["recorded"] for row in rows] == [
        moment for moment in in_the_clubs_zone(app, recorded(club["playing"])) for _side in "AB"
    ]
    assert {row["started"] for row in rows} == set(in_the_clubs_zone(app, started(club["playing"])))
    assert all(MINUTE.fullmatch(row["started"]) and MINUTE.fullmatch(row["recorded"]) for row in rows)
    assert rows[0]["players"] == "Núria & Cy"
    shown = client.get(f"/export/hands.json?match={club['playing']}").json
    assert (shown[0]["game"], shown[0]["recorded"], shown[0]["record"]) == (
        "Court Piece",
        rows[0]["recorded"],
        court(0),
    )


def test_every_csv_starts_with_a_byte_order_mark_and_every_file_says_what_it_is(client, club):
    for what, args, name in (
        ("results", f"night={FRIDAY}", "scorekeeper-results-night-2026-11-27"),
        ("standings", f"night={FRIDAY}", "scorekeeper-standings-night-2026-11-27"),
        ("hands", f"match={club['won']}", f"scorekeeper-hands-match-{club['won']}"),
        ("results", "game=court_piece", "scorekeeper-results-game-court_piece"),
    ):
        for kind in ("csv", "json"):
            answer = client.get(f"/export/{what}.{kind}?{args}")
            assert answer.status_code == 200
            assert answer.headers["Content-Disposition"] == f'attachment; filename="{name}.{kind}"'
            assert answer.data.startswith(BOM) == (kind == "csv")
            assert "Núria".encode() in answer.data  # UTF-8, the accent whole
    with client.application.app_context(), io.StringIO() as out:
        exports.write_hands_csv(out)
        assert out.getvalue().startswith("\ufeffmatch,game,")  # flask export-csv too


MALFORMED = [
    "game=chess",
    "player=abc",
    "player=1&player=x",
    "player=%C2%B2",  # "²": a digit to Python, not to int()
    "player=" + "9" * 5000,  # past int()'s digits
    "player=99999999999",
    "match=x",
    "match=0",
    "night=20261399",
    "night=x",
]


@pytest.mark.parametrize("kind", ["csv", "json"])
@pytest.mark.parametrize("what", ["results", "hands"])
def test_an_export_of_a_list_that_cannot_be_is_not_found(client, club, what, kind):
    assert client.get(f"/export/{what}.{kind}?night={FRIDAY}").status_code == 200
    assert [args for args in MALFORMED if client.get(f"/export/{what}.{kind}?{args}").status_code != 404] == []


def test_standings_are_a_nights_alone(client, club):
    assert client.get(f"/export/standings.json?night={FRIDAY}").status_code == 200
    for args in ("", "night=x", f"night={FRIDAY}&game=schnapsen", f"night={FRIDAY}&match={club['won']}"):
        assert client.get(f"/export/standings.csv?{args}").status_code == 404, args
    assert client.get(f"/export/scores.csv?night={FRIDAY}").status_code == 404
    assert client.get(f"/export/standings.xlsx?night={FRIDAY}").status_code == 404


def test_every_list_links_its_results_and_a_night_its_standings_too(client, club):
    with client.application.app_context():
        nuria = db.session.scalar(db.select(Player.id).where(Player.name == "Núria"))
        ann = db.session.scalar(db.select(Player.id).where(Player.name == "Ann"))
    pages = {
        "/matches": "/export/results.csv",
        f"/players/{nuria}": f"/export/results.csv?player={nuria}",
        f"/players/{nuria}/games/schnapsen": f"/export/results.csv?player={nuria}&amp;game=schnapsen",
        f"/head-to-head?a={nuria}&b={ann}": f"/export/results.csv?player={nuria}&amp;player={ann}",
        f"/nights/{FRIDAY}": f"/export/results.csv?night={FRIDAY}",
        f"/matches/{club['won']}": f"/export/results.csv?match={club['won']}",
        f"/matches/{club['won']}/hands": f"/export/results.csv?match={club['won']}",
    }
    for page, link in pages.items():
        shown = client.get(page).get_data(as_text=True)
        assert f'<a class="button quiet" href="{link}" download>Results as CSV</a>' in shown, page
        assert link.replace("results.csv", "results.json") in shown and "Results as JSON" in shown, page
        assert link.replace("results", "hands") in shown, page  # the hands as before
        assert ("Standings as CSV" in shown) == page.startswith("/nights/"), page
    night = client.get(f"/nights/{FRIDAY}").get_data(as_text=True)
    assert f'href="/export/standings.csv?night={FRIDAY}" download>Standings as CSV</a>' in night
    assert f'href="/export/standings.json?night={FRIDAY}" download>Standings as JSON</a>' in night
