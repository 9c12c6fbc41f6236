"""What the server says so a phone can tell the table the truth (issue 32): a hand sent for a number
another phone took is offered as the next one (with and without scripts); the same form sent twice
at once is one hand and two successes; the scripts hold no text of their own, the page hands them
its words in its language, one per plural category the language has."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

from scorekeeper.web.i18n import SPOKEN
from tests.conftest import Actions
from tests.web.test_offline_server import hand, tricks

FOUR = ["Ann", "Bo", "Cy", "Di"]
STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
# A string literal in a script that reads as words for people: a capital, a word, a space, a word.
PROSE = re.compile(r"""(["'`])[A-Z][a-z]+ [a-z]+[^"'`]*\1""")


def test_a_hand_for_a_number_another_phone_took_is_offered_as_the_next_with_its_values(app, client):
    actions = Actions(client)
    match_id = actions.start("court_piece", FOUR)
    other = app.test_client()
    other.get(f"/matches/{match_id}/join?key={actions.keys[match_id]}")
    assert hand(other, match_id, 1, 8).status_code == 302

    refused = hand(client, match_id, 1, 10)

    page = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "Hand 1 was already recorded from another phone" in page
    assert ">Record mine as hand 2</button>" in page and ">Drop mine</a>" in page
    assert 'name="expected" value="2"' in page  # the button means what it says
    assert re.search(r'name="tricks-0" value="10"[^>]*checked', page)  # the table's hand, kept
    assert hand(client, match_id, 2, 10).status_code == 302
    assert tricks(actions, match_id) == [[8, 5], [10, 3]]


def test_a_hand_refused_for_what_it_says_offers_no_choice(client):
    actions = Actions(client)
    match_id = actions.start("court_piece", FOUR)
    refused = hand(client, match_id, 1, 14)
    assert refused.status_code == 422
    shown = re.sub(r"<script.*?</script>", "", refused.get_data(as_text=True), flags=re.S)  # not the scripts' words
    assert "Record mine" not in shown and "Drop mine" not in shown


def test_the_same_form_sent_twice_at_once_is_one_hand_and_both_answers_are_its_success(app):
    owner = app.test_client()
    actions = Actions(owner)
    match_id = actions.start("court_piece", FOUR)
    taps = [app.test_client() for _ in range(2)]
    for tap in taps:  # one phone: its cookie, so its right to score
        tap.set_cookie("phone", owner.get_cookie("phone").value)
    form = {"outcome": "tricks", "tricks-0": "8", "expected": "1", "token": "one-tap"}
    answers: list = [None, None]
    start = threading.Barrier(2)

    def send(index: int) -> None:
        start.wait()
        answers[index] = taps[index].post(f"/matches/{match_id}/hands", data=form)

    threads = [threading.Thread(target=send, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [302, 302]
    assert tricks(actions, match_id) == [[8, 5]]


@pytest.mark.parametrize("script", sorted(path.name for path in STATIC.glob("*.js")))
def test_no_script_holds_words_of_its_own(script):
    """Every text a script shows comes from the page, in the page's language."""
    code = "\n".join(line for line in (STATIC / script).read_text().splitlines() if not line.lstrip().startswith("//"))
    assert PROSE.findall(code) == [], [found.group(0) for found in PROSE.finditer(code)]


def outbox_words(client, match_id: int, language: str) -> dict:
    client.set_cookie("lang", language)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="outbox-words">(.*?)</script>', page).group(1))


@pytest.mark.parametrize("language", ["en", *SPOKEN])
def test_the_outbox_words_come_in_the_pages_language_with_its_plural_categories(client, language):
    actions = Actions(client)
    match_id = actions.start("myllymatti", ["Ann", "Bo", "Cy"])  # a game whose word is "game", not "hand"
    words = outbox_words(client, match_id, language)
    english = outbox_words(client, match_id, "en")
    from babel import Locale

    assert set(words["hands_waiting"]) <= set(Locale.parse(language).plural_form.tags) | {"other"}
    assert {"one", "other"} & set(words["hands_waiting"])
    for text in words["hands_waiting"].values():
        assert "{n}" in text
    if language == "en":
        assert words["hand"] == "Game {number}" and words["keep"] == "Record mine as game {number}"
        assert words["hands_waiting"]["one"] == "{n} game waiting to be sent: the score does not count it yet."
    else:
        assert words["drop_mine"] != english["drop_mine"] and words["region"] != english["region"]
