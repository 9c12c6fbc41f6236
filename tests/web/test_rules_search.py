"""Issue 23, search: every rules page, the other names tables use and the table words, found by what a
player types mid-game (accents and case ignored), through a GET form that needs no JavaScript; each
result links to its game or to the section that explains it."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.games import GAMES
from scorekeeper.rules.glossary import table_words
from scorekeeper.rules.search import fold
from tests.conftest import make_app

OTHER_NAMES = [(key, name) for key, game in GAMES.items() for name in game.reference.names]
TABLE_WORDS = table_words()
RESULT = re.compile(r'<li><a href="([^"]+)">(.*?)</a>\s*<small>([^<]+)</small>', re.S)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('search')}/s.sqlite")
    return app.test_client()


def results(client, query: str) -> list[tuple[str, str, str]]:
    """(link, title, kind) of each result, best first."""
    answer = client.get("/rules/search", query_string={"q": query})
    assert answer.status_code == 200
    return [
        (unescape(link), unescape(title), kind) for link, title, kind in RESULT.findall(answer.get_data(as_text=True))
    ]


def test_every_game_declares_its_card_with_the_other_names_the_issue_asks_for():
    # A game without a card still has its rules page (an empty card): a new game needs its three
    # files only, and gets its other names and sources when someone writes them.
    names = {fold(name) for _, name in OTHER_NAMES}
    assert {"rang", "hokm", "oombi", "tressette", "butifarra", "skitgubbe"} <= names
    assert all(game.reference.line and game.reference.sources for game in GAMES.values())


@pytest.mark.parametrize("key, name", OTHER_NAMES)
def test_each_other_name_finds_its_game_first(client, key, name):
    found = results(client, name)
    game = (f"/rules/{key}", GAMES[key].name, "Game")
    before = found[: found.index(game)] if game in found else found
    # Only a table word of the same name in the same game ("gin") may come before the game.
    assert game in found and all(hit[0].startswith(f"/rules/{key}#") and hit[2] == "Table word" for hit in before), (
        name,
        found[:3],
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_each_game_is_found_by_its_own_name(client, key):
    found = results(client, GAMES[key].name)
    assert (f"/rules/{key}", GAMES[key].name, "Game") in found[:3]


@pytest.mark.parametrize("term", TABLE_WORDS, ids=lambda term: f"{term.word}-{term.game}")
def test_each_table_word_finds_its_section_first(client, term):
    found = results(client, term.word)
    same_word = [hit for hit in found if hit[2] == "Table word" and fold(hit[1]).endswith(fold(term.word))]
    assert (f"/rules/{term.game}#{term.anchor}", f"{GAMES[term.game].name}: {term.word}", "Table word") in found
    assert found[: len(same_word)] == same_word, "the word itself comes before anything else"


@pytest.mark.parametrize(
    "typed, link",
    [
        ("CAIDA", "/rules/cuarenta#caida"),
        ("caída", "/rules/cuarenta#caida"),
        ("Caïda", "/rules/cuarenta#caida"),
        ("CARTON", "/rules/cuarenta#carton"),
        ("bummerl", "/rules/schnapsen#game-end"),
        ("SCHNEIDER", "/rules/schnapsen#going-out"),
        ("  Tumbo ", "/rules/envite#lying-down"),
        ("SKITGUBBE", "/rules/myllymatti"),
        ("tressette", "/rules/tresette"),
        ("schnapser", "/rules/schnapsen"),
        ("siwweschroom", "/rules/toepen"),
    ],
)
def test_accents_and_case_are_ignored(client, typed, link):
    assert results(client, typed)[0][0] == link


@pytest.mark.parametrize(
    "question, link",
    [
        ("what is a court?", "/rules/court_piece#glance"),
        ("How much is a meld in Botifarra?", "/rules/botifarra#"),
        ("what beats what in Tresette?", "/rules/tresette#glance"),
        ("who deals next in court piece", "/rules/court_piece#dealer"),
    ],
)
def test_a_question_finds_the_section_that_answers_it(client, question, link):
    found = results(client, question)
    assert found and found[0][0].startswith(link), found[:3]


def test_the_search_form_works_without_javascript(client):
    index = client.get("/rules/").get_data(as_text=True)
    form = re.search(r'<form class="rules-search" method="get" action="([^"]+)"[^>]*>(.*?)</form>', index, re.S)
    assert form and form.group(1) == "/rules/search"
    assert re.search(r'<input id="rules-q" type="search" name="q"', form.group(2))
    assert re.search(r'<label for="rules-q">', form.group(2)) and "<button" in form.group(2)
    assert "<script" not in index
    answer = client.get("/rules/search?q=revoke")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "<script" not in page
    assert 'value="revoke"' in page  # the words typed stay in the box
    assert 'href="/rules/court_piece#revoke"' in page


@pytest.mark.parametrize("query", ["", "   ", "?", "x" * 5000, "<script>alert(1)</script>", "%00", "∑∂ƒ", "a b c"])
def test_odd_queries_answer_calmly(client, query):
    answer = client.get("/rules/search", query_string={"q": query})
    assert answer.status_code == 200
    assert "<script>alert" not in answer.get_data(as_text=True)


def test_nothing_found_says_so_and_offers_the_lists(client):
    page = client.get("/rules/search?q=zzyzx").get_data(as_text=True)
    assert "0 found" in page and 'href="/rules/words"' in page and 'href="/rules/"' in page


def test_the_index_shows_each_game_with_its_names_players_and_line(client):
    page = unescape(client.get("/rules/").get_data(as_text=True))
    for key, game in GAMES.items():
        card = game.reference
        item = re.search(rf'<li><a href="/rules/{key}">{re.escape(game.name)}</a>(.*?)</li>', page, re.S)
        assert item, key
        players = (
            f"{game.min_players} to {game.max_players}"
            if game.max_players > game.min_players
            else f"{game.min_players}"
        )
        assert f"{players} players" in item.group(1), key
        assert card.line in item.group(1)
        assert all(name in item.group(1) for name in card.names), key


def test_the_table_words_page_lists_every_word_with_its_section(client):
    page = unescape(client.get("/rules/words").get_data(as_text=True))
    for term in TABLE_WORDS:
        assert (
            f'<a href="/rules/{term.game}#{term.anchor}">{term.word} <small>({GAMES[term.game].name})</small></a>'
            in page
        )
        assert term.meaning in page
