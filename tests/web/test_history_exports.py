"""Export from the page (issue 24): every list (the history filtered, a player, a night, a match) as
CSV and JSON from a link, the very rows `flask export-csv` writes; a match's printable score sheet."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.history import exports
from scorekeeper.models import Match, Player
from tests.conftest import make_app
from tests.web.test_data import populate


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
    return list(csv.DictReader(io.StringIO(app.test_cli_runner().invoke(args=["export-csv"]).output)))


def page_rows(client, url: str) -> list[dict]:
    answer = client.get(url)
    assert answer.status_code == 200, url
    return list(csv.DictReader(io.StringIO(answer.get_data(as_text=True))))


def test_each_lists_csv_is_the_command_lines_rows_of_its_matches(app, client, history):
    every = cli_rows(app)
    assert page_rows(client, "/export/hands.csv") == every
    court = str(history["court_piece"])
    assert page_rows(client, f"/export/hands.csv?match={court}") == [row for row in every if row["match"] == court]
    assert page_rows(client, "/export/hands.csv?game=envite") == [row for row in every if row["game"] == "envite"]
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
    rows = re.findall(r'<tr><th scope="row">(\d+)</th><td>([+-]\d+)</td><td>([+-]\d+)</td>', page)
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


def test_the_csv_names_its_charset_once(client, history):
    assert client.get("/export/hands.csv").headers["Content-Type"] == "text/csv; charset=utf-8"


def test_an_export_holds_no_database_connection_while_its_reader_waits(app, client, history):
    """A reader that takes the first bytes and stalls (issue 38, item 2): the rows already read are
    held in memory, the connection is back in the pool."""
    answer = client.get("/export/hands.csv", buffered=False)
    chunks = iter(answer.response)
    assert next(chunks)  # the reader has its first bytes, and reads no more for now
    with app.app_context():
        assert db.engine.pool.checkedout() == 0
    answer.close()


def test_exports_are_limited_per_address(tmp_path):
    limited = make_app(
        f"sqlite:///{tmp_path / 'exports.sqlite'}", RATELIMIT_ENABLED=True, SCOREKEEPER_EXPORT_LIMIT="3 per minute"
    )
    reader = limited.test_client()
    statuses = [reader.get("/export/hands.json").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert reader.get("/matches").status_code == 200  # the pages are not counted
