"""Issue 21, item 6 (findings 8 to 10) through the Flask test client: each game names its hand as
the game does; the new-match form shows the seats a game needs and the first dealer by name; a
form offers only the players still in; the end shows the game's own final board; the chart has
axes and hand numbers; a list says who won once, and only where the game has a winner."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.games import GAMES

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

ANN_TO_DI = ["Ann", "Bo", "Cy", "Di"]

# Each game's own word for one record, where it is not "hand" (the rest play hands: RULES.md and
# the seeds say "hand" for every trick and tally game).
OWN_WORDS = {
    "speed_tournament": ("round", "rounds"),  # api/races.md "in the tournament, one round"; S1:23 "tours"
    "cuarenta": ("round", "rounds"),  # RULES.md 2.4: a record is a round, one pass through the 40 cards
    "california_speed": ("game", "games"),  # api/races.md "Sessions": a hand is one whole game
    "aggravation": ("game", "games"),
    "frustration": ("game", "games"),
    "machiavelli": ("game", "games"),
    "myllymatti": ("game", "games"),
    "turnover_bridge": ("game", "games"),  # api/partnership.md ruling 21: each hand is one game
}


def words(answer) -> str:
    """The page's text as the eye (or a screen reader) reads it: tags, styles and scripts gone."""
    page = re.sub(r"(?s)<(style|script|svg)\b.*?</\1>", " ", answer.get_data(as_text=True))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def source(answer) -> str:
    return answer.get_data(as_text=True)


# -- each game's word for a hand -------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_each_game_names_its_hand_as_its_rules_do(key):
    game = GAMES[key]
    assert (game.hand_word, game.hand_words) == OWN_WORDS.get(key, ("hand", "hands"))


@pytest.mark.parametrize("key", list(GAMES))
def test_every_page_reads_the_word_from_the_game(client, actions, key):
    game = GAMES[key]
    match_id = actions.start(key, ANN_TO_DI[: game.min_players])
    page = words(client.get(f"/matches/{match_id}"))
    assert f"{game.hand_word.capitalize()} 1" in page and f"Record {game.hand_word} 1" in page


def test_a_speed_tournament_plays_rounds_on_every_page(client, actions):
    match_id = actions.start("speed_tournament", ANN_TO_DI, first_dealer=2)
    actions.hand(match_id, {"eliminated": 1})
    actions.hand(match_id, {"eliminated": 0})
    actions.edit(match_id, 2, {"eliminated": 3})
    page = words(client.get(f"/matches/{match_id}"))
    assert "Round 3 · Ann deals" in page and "Record round 3" in page and "Undo round 2" in page
    assert "Rounds Round 2" in page and "Round 1" in page  # the list of rounds, newest first
    assert "Edit round 2" in page and "Delete round 1" in page
    assert "edited round 2" in page  # the match's log
    assert not re.search(r"\b[Hh]and [0-9]", page)
    edit = words(client.get(f"/matches/{match_id}/hands/2/edit"))
    assert "Edit round 2 · Di deals" in edit and "Save round 2" in edit
    listed = words(client.get(f"/matches/{match_id}/hands"))
    assert "Speed Tournament #" in listed and "every round" in listed and "Round 1" in listed
    delete = words(client.get(f"/matches/{match_id}/hands/1/delete"))
    assert "Delete round 1?" in delete and "The rounds after it move up one number" in delete
    remove = words(client.get(f"/matches/{match_id}/remove"))
    assert "2 rounds · started" in remove and "all its rounds" in remove


def test_a_long_session_links_all_its_games(client, actions):
    game = GAMES["california_speed"]
    match_id = actions.start("california_speed", ["Ann", "Bo"])
    for number in range(10):
        actions.hand(match_id, {"winner": number % 2})
    assert f"All 10 {game.hand_words}" in words(client.get(f"/matches/{match_id}"))


# -- the new-match form ------------------------------------------------------------------------------


def test_the_seats_a_game_needs_show_with_room_for_one_more(client):
    page = source(client.get("/matches/new/speed_tournament"))
    assert "More seats" not in page and "<details" not in page.split("First dealer")[0]
    boxes = re.findall(r'<input id="seat-(\d)"[^>]*>', page)
    assert boxes == ["0", "1", "2", "3", "4"]
    required = [bool(re.search(rf'<input id="seat-{seat}"[^>]*required', page)) for seat in range(5)]
    assert required == [True, True, False, False, False]  # two play the tournament's final alone
    shown = words(client.get("/matches/new/speed_tournament"))
    assert "Seat 3 (if a third player joins)" in shown and "Seat 5 (if a fifth player joins)" in shown


def test_the_first_dealer_is_chosen_by_name(client, actions):
    dealers = r"<legend>First dealer</legend>(.*?)</fieldset>"
    fresh = words_of(re.search(dealers, source(client.get("/matches/new/speed_tournament")), re.S).group(1))
    assert fresh == "First player Second player Third player Fourth player Fifth player Random"
    refused = client.post("/matches/new/court_piece", data={"seat-0": "Ann", "seat-1": "Bo", "first_dealer": "1"})
    assert refused.status_code == 422
    typed = words_of(re.search(dealers, source(refused), re.S).group(1))
    assert typed.startswith("Ann Bo Third player Fourth player")  # as typed, the rest by their place
    match_id = actions.start("machiavelli", ["Ann", "Bo", "Cy"])
    setup = words_of(re.search(dealers, source(client.get(f"/matches/{match_id}/setup")), re.S).group(1))
    assert setup == "Ann Bo Cy"
    assert "Seat 1" not in setup


def words_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def test_a_dealer_chosen_by_name_deals_first_when_partners_are_drawn(client, actions):
    """The choice names a player: the draw moves Cy anywhere, and Cy still deals first."""
    for _ in range(12):
        answer = client.post(
            "/matches/new/court_piece",
            data={
                "seat-0": "Ann",
                "seat-1": "Bo",
                "seat-2": "Cy",
                "seat-3": "Di",
                "first_dealer": "2",
                "draw_partners": "on",
            },
        )
        match = actions.match(int(answer.location.rsplit("/", 1)[1]))
        assert match["players"][match["dealer"]] == "Cy"


# -- only the players still in -------------------------------------------------------------------------


def offered(page: str, field: str) -> list[str]:
    return re.findall(rf'<input type="radio" name="{field}" value="(\d+)"', page)


def test_a_speed_tournament_offers_only_the_players_still_in(client, actions):
    match_id = actions.start("speed_tournament", ANN_TO_DI)
    actions.hand(match_id, {"eliminated": 1})
    assert offered(source(client.get(f"/matches/{match_id}")), "eliminated") == ["0", "2", "3"]
    actions.hand(match_id, {"eliminated": 3})
    assert offered(source(client.get(f"/matches/{match_id}")), "winner") == ["0", "2"]  # the final: Ann, Cy


def test_toepen_with_elimination_offers_only_the_players_holding_tokens(client, actions):
    match_id = actions.start("toepen", ["Ann", "Bo", "Cy", "Di"], starting_tokens=2, elimination=True)
    actions.hand(match_id, {"winner": 0, "value": 2, "folded_at": [0, 0, 1, 1]})  # Bo pays 2: out
    assert offered(source(client.get(f"/matches/{match_id}")), "winner") == ["0", "2", "3"]


# -- the end ---------------------------------------------------------------------------------------------


def test_envite_ends_on_the_stones_of_its_last_game(client, actions):
    match_id = actions.start("envite", ANN_TO_DI)
    for record in (
        {"winner": 0, "stake": "game"},
        {"winner": 1, "stake": "game"},
        {"winner": 1, "stake": 7},
        {"winner": 0, "stake": "game"},
    ):
        actions.hand(match_id, record)
    board = re.search(r'(?s)<section class="board.*?</section>', source(client.get(f"/matches/{match_id}"))).group(0)
    assert words_of(board).startswith("Score Ann & Cy 12 stones Games: 2 of 2 Bo & Di 7 stones Games: 1 of 2")
    assert [side["score"] for side in actions.match(match_id)["sides"]] == [0, 0]  # API.md: what it scores


def chart_texts(page: str, kind: str) -> list[str]:
    return re.findall(rf'<text class="{kind}\b[^>]*>([^<]*)</text>', page)


def test_the_chart_has_axes_of_rounds_and_of_the_score(client, actions):
    match_id = actions.start("speed_tournament", ANN_TO_DI)
    for record in ({"eliminated": 1}, {"eliminated": 3}, {"winner": 2}):
        actions.hand(match_id, record)
    page = source(client.get(f"/matches/{match_id}"))
    assert chart_texts(page, "mark") == ["0", "3", "1", "2", "3"]  # lowest, highest; then rounds 1 to 3
    assert chart_texts(page, "title") == ["Round", "Rounds"]
    assert "The score of each side over 3 rounds, from 0 to 3 rounds" in page
    assert 'class="zero"' not in page


def test_a_chart_through_zero_marks_it(client, actions):
    match_id = actions.start("calabrasella", ["Ann", "Bo", "Cy"])
    actions.hand(match_id, {"declarer": 0, "declarer_points": 20, "defender_points": 15})  # Ann +10
    actions.hand(match_id, {"declarer": 1, "declarer_points": 10, "defender_points": 25})  # Bo -30
    actions.finish(match_id)
    page = source(client.get(f"/matches/{match_id}"))
    assert chart_texts(page, "mark") == ["-35", "0", "25", "1", "2"]
    assert chart_texts(page, "title") == ["Hand", "Chips"]
    assert 'class="zero"' in page


# -- who won, said once ------------------------------------------------------------------------------


def test_a_list_says_who_won_once(client, actions):
    match_id = actions.start("schnapsen", ["Cy", "Di"], target=1)
    actions.hand(match_id, {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    history = words(client.get("/matches"))
    assert f"Schnapsen #{match_id}: Cy, Di Di wins the game 2 to 0 ·" in history and "Won by" not in history


def test_toepen_lists_its_loser_and_no_winner(app, client, actions):
    match_id = actions.start("toepen", ["Ann", "Bo", "Cy"], starting_tokens=1)
    actions.hand(match_id, {"winner": 0})  # Bo and Cy pay 1: out, and they lose (S3:132)
    for url in ("/matches", "/", f"/players/{player_of(app, 'Ann')}"):
        page = words(client.get(url))
        assert "Bo and Cy run out of tokens and lose" in page and "Won by" not in page, url


def player_of(app, name: str) -> int:
    from scorekeeper.extensions import db
    from scorekeeper.models import Player

    with app.app_context():
        return db.session.scalar(db.select(Player.id).where(Player.name == name))


def test_the_messages_after_a_change_use_the_games_word(client):
    """Undo, put back, edit and delete say "round" in a Speed Tournament, as its pages do."""
    started = client.post("/matches/new/speed_tournament", data={f"seat-{i}": name for i, name in enumerate(ANN_TO_DI)})
    match_id = int(started.headers["Location"].rsplit("/", 1)[1])
    assert client.post(f"/matches/{match_id}/hands", data={"eliminated": "1", "expected": "1"}).status_code == 302
    said = words(client.post(f"/matches/{match_id}/undo", data={"expected": "1"}, follow_redirects=True))
    assert "Round 1 taken back." in said and "Put round 1 back" in said
    said = words(client.post(f"/matches/{match_id}/redo", data={}, follow_redirects=True))
    assert "Round 1 put back." in said
    edited = client.post(
        f"/matches/{match_id}/hands/1/edit", data={"eliminated": "2", "expected": "1"}, follow_redirects=True
    )
    assert "Round 1 changed; every total after it follows." in words(edited)
    deleted = client.post(f"/matches/{match_id}/hands/1/delete", data={}, follow_redirects=True)
    assert "Round 1 deleted." in words(deleted)
