"""Issue 34, items 3 and 9, on the forms: Oklahoma Gin's house rule on the new-match form and its
per-hand tap ("the first upcard was a spade", which doubles the hand), and Pluck's revoke, both
taken as a phone posts them; the API's 422s are in tests/api."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

SPADE = "The first upcard was a spade, so this hand counts double (Oklahoma Gin)."
OKLAHOMA = "Oklahoma: a spade upcard doubles the hand"


def text(answer) -> str:
    return answer.get_data(as_text=True)


def scores(actions, match_id: int) -> list[int]:
    return [side["score"] for side in actions.match(match_id)["sides"]]


def hand_form(page: str) -> str:
    found = re.search(r'<form[^>]*class="[^"]*hand-form[^"]*"[^>]*>(.*?)</form>', page, re.S)
    assert found, "the page has a hand form"
    return found.group(1)


def test_the_new_gin_rummy_match_form_offers_oklahoma_off_with_its_ruling(client):
    page = text(client.get("/matches/new/gin_rummy"))
    box = re.search(r'<fieldset class="w w-opt-oklahoma">(.*?)</fieldset>', page, re.S).group(1)
    assert f"<legend>{OKLAHOMA}</legend>" in box
    assert re.search(r'<input type="checkbox" name="opt-oklahoma">', box), "a tap, off until tapped"
    assert 'href="/rules/gin_rummy#oklahoma"' in page


def test_a_match_started_with_oklahoma_from_the_form_keeps_it(client, actions):
    answer = client.post(
        "/matches/new/gin_rummy", data={"seat-0": "Ann", "seat-1": "Bob", "first_dealer": "0", "opt-oklahoma": "on"}
    )
    assert answer.status_code == 302
    match_id = int(re.search(r"/matches/(\d+)", answer.headers["Location"]).group(1))
    assert actions.match(match_id)["options"]["oklahoma"] is True


def test_with_oklahoma_the_hand_form_has_the_spade_upcard_tap_and_it_doubles_the_hand(client, actions):
    match_id = actions.start("gin_rummy", ["Ann", "Bob"], oklahoma=True)
    form = hand_form(text(client.get(f"/matches/{match_id}")))
    assert "<legend>Spade upcard</legend>" in form
    assert re.search(r'<input type="checkbox" name="spade_upcard"><span>' + re.escape(SPADE), form), "one tap"
    posted = {"outcome": "knock", "knocker": "0", "deadwood-0": "5", "deadwood-1": "20", "expected": "1"}
    assert client.post(f"/matches/{match_id}/hands", data={**posted, "spade_upcard": "on"}).status_code == 302
    assert client.post(f"/matches/{match_id}/hands", data={**posted, "expected": "2"}).status_code == 302
    assert scores(actions, match_id) == [30 + 15, 0]
    page = text(client.get(f"/matches/{match_id}"))
    assert "Ann: the first upcard was a spade, so the hand counts double: +30" in page
    assert f'href="/rules/gin_rummy?match={match_id}&amp;hand=1#oklahoma"' in page  # the line's § to its ruling


def test_without_oklahoma_the_hand_form_never_asks_about_the_upcard(client, actions):
    match_id = actions.start("gin_rummy", ["Ann", "Bob"])
    assert SPADE not in hand_form(text(client.get(f"/matches/{match_id}")))
    posted = {"outcome": "knock", "knocker": "0", "deadwood-0": "5", "deadwood-1": "20", "expected": "1"}
    assert client.post(f"/matches/{match_id}/hands", data={**posted, "spade_upcard": "on"}).status_code == 302
    assert scores(actions, match_id) == [15, 0]  # a forged tap is not part of this form: the hand as plain Gin


def test_pluck_asks_who_revoked_under_more_and_the_others_score_three(client, actions):
    match_id = actions.start("pluck", ["Ann", "Bob", "Cy"])
    form = hand_form(text(client.get(f"/matches/{match_id}")))
    assert "Who revoked?" in form
    posted = {"tricks-0": "9", "tricks-1": "5", "tricks-2": "3", "revoked_by": "1", "expected": "1"}
    assert client.post(f"/matches/{match_id}/hands", data=posted).status_code == 302
    assert scores(actions, match_id) == [2 + 3, 0, 3]
    page = text(client.get(f"/matches/{match_id}"))
    assert "Bob revoked: Ann and Cy +3 each" in page
    assert f'href="/rules/pluck?match={match_id}&amp;hand=1#revoke"' in page


def test_pluck_a_revoker_who_is_not_at_the_table_is_a_form_message(client, actions):
    match_id = actions.start("pluck", ["Ann", "Bob", "Cy"])
    posted = {"tricks-0": "9", "tricks-1": "5", "tricks-2": "3", "revoked_by": "7", "expected": "1"}
    answer = client.post(f"/matches/{match_id}/hands", data=posted)
    assert answer.status_code == 422 and 'role="alert"' in text(answer)
    assert actions.match(match_id)["hands"] == []
