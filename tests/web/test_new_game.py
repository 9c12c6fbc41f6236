"""A new game is one engine module: registered from the test suite, it plays through the pages and
the API with nothing else added (no template, no form, no route of its own)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES, register
from tests.web.winner_only import WinnerOnly

KEY = "winner_only"


@pytest.fixture
def new_game():
    register(WinnerOnly())
    yield GAMES[KEY]
    del GAMES[KEY]


def test_a_registered_module_plays_through_the_pages(new_game, client):
    assert "Winner Only" in client.get("/").get_data(as_text=True)
    form = client.get(f"/matches/new/{KEY}").get_data(as_text=True)
    assert "First dealer" not in form  # nobody deals in this game
    started = client.post(f"/matches/new/{KEY}", data={"seat-0": "Ann", "seat-1": "Bo", "seat-2": "Cy"})
    assert started.status_code == 302
    match_page = started.headers["Location"]
    page = client.get(match_page).get_data(as_text=True)
    assert "Who won?" in page and "Record hand 1" in page
    for number in (1, 2, 3):
        answer = client.post(f"{match_page}/hands", data={"winner": "2", "expected": str(number)})
        assert answer.status_code == 302
    page = client.get(match_page).get_data(as_text=True)
    assert "Cy wins with 3" in page  # the players by name, not letters
    assert re.search(r'aria-label="wins">3<small>/3', page)
    rules = client.get(f"/rules/{KEY}").get_data(as_text=True)
    assert 'id="win"' in rules and "Who won the hand." in rules
    assert client.post(f"{match_page}/hands", data={"expected": "4"}).status_code == 409  # over


def test_a_registered_module_plays_through_the_api(new_game, actions):
    described = actions.client.get(f"/api/v1/games/{KEY}").json
    assert [fld["name"] for fld in described["hand_fields"]] == ["winner"] and described["options"] == []
    match_id = actions.start(KEY, ["Ann", "Bo"])
    assert actions.hand(match_id, {}, expect=422)["fields"] == {"winner": "Who won? Nothing was chosen."}
    for _ in range(3):
        actions.hand(match_id, {"winner": 1})
    match = actions.match(match_id)
    assert (match["status"], match["winner"], match["dealer"]) == ("finished", 1, None)
    assert [side["score"] for side in match["sides"]] == [0, 3]
    assert actions.delete(match_id, 3)["status"] == "in_progress"
