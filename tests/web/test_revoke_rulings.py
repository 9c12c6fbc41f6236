"""Issue 34, item 3: every trick game's rules page says what a revoke costs and how the table records
it, marked where the source is silent; the rules search finds it by "revoke" and the game's name."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.games import GAMES
from scorekeeper.rules.search import plain
from tests.conftest import make_app

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

TRICK_GAMES = [
    "omi",
    "court_piece",
    "hasenpfeffer",
    "tresette",
    "botifarra",
    "turnover_bridge",
    "pluck",
    "schnapsen",
    "bura",
    "calabrasella",
]
FROM_THE_SOURCE = {"court_piece", "bura"}  # S4:95-96 rules Court Piece's revoke; S3:256 frees Bura's play
RESULT = re.compile(r'<li><a href="([^"]+)">(.*?)</a>\s*<small>([^<]+)</small>', re.S)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('revokes')}/r.sqlite")
    return app.test_client()


def page(client, key: str) -> str:
    answer = client.get(f"/rules/{key}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def section(html: str, anchor: str) -> str:
    found = re.search(rf'<section id="{anchor}"[^>]*>(.*?)</section>', html, re.S)
    assert found, f"no section {anchor}"
    return found.group(1)


def box(html: str) -> dict[str, str]:
    """A departure box's rows: what the source says, what we score, the option."""
    found = re.search(r'<dl class="departure">(.*?)</dl>', html, re.S)
    assert found, "a departure box"
    pairs = re.findall(r"<dt[^>]*>(.*?)</dt>\s*<dd[^>]*>(.*?)</dd>", found.group(1), re.S)
    return {plain(term): plain(said) for term, said in pairs}


@pytest.mark.parametrize("key", TRICK_GAMES)
def test_every_trick_games_page_says_what_a_revoke_costs(client, key):
    html = page(client, key)
    ruling = section(html, "revoke")
    assert plain(re.search(r"<h2>(.*?)</h2>", ruling).group(1)) == "Revokes"
    assert '<li><a href="#revoke">Revokes</a></li>' in html, "the contents list it"
    words = plain(ruling)
    if key == "bura":
        assert "Bura has none" in words and 'href="#false-declaration"' in ruling
    elif key == "court_piece":
        assert "other side" in words and "1 court" in words and "Who gets the court?" in words
    else:
        said = box(ruling)
        assert said["The source says"] == "Nothing on revokes."
        assert re.search(r"\bnot (in )?our source\b", said["We score"], re.I), "marked as not the source's"
    if key not in FROM_THE_SOURCE:
        marked = [source for source in GAMES[key].reference.sources if source.standard]
        assert marked, "the sources name the standard rules or rulings the page follows"


def form_words(key: str) -> set[str]:
    """What the game's hand form names: each field's question and title, members of groups too."""
    words = {"More"}
    fields = list(GAMES[key].hand_fields)
    while fields:
        fld = fields.pop()
        words |= {fld.question, fld.title}
        fields += list(fld.fields)
    return words


@pytest.mark.parametrize("key", sorted(set(TRICK_GAMES) - {"bura"}))
def test_the_taps_a_ruling_gives_are_the_forms_own_words(client, key):
    ruling = section(page(client, key), "revoke")
    # Court Piece's section names the form's question in its one paragraph; the others say "On the form"
    taps = [ruling] if key == "court_piece" else re.findall(r"<p>(?:(?!</p>).)*On the form.*?</p>", ruling, re.S)
    named = [unescape(plain(word)).replace("’", "'") for word in re.findall(r"<em>(.*?)</em>", "".join(taps), re.S)]
    assert named, "the ruling says which fields to fill"
    known = form_words(key)
    for word in named:
        assert any(asked.startswith(word) for asked in known), f"{key}: the form has no {word!r}"


# -- the search ------------------------------------------------------------------------------------


def results(client, query: str) -> list[str]:
    answer = client.get("/rules/search", query_string={"q": query})
    assert answer.status_code == 200
    return [unescape(link) for link, _, _ in RESULT.findall(answer.get_data(as_text=True))]


@pytest.mark.parametrize(
    "query, key",
    [
        ("revoke omi", "omi"),
        ("what happens when someone revokes in Omi?", "omi"),
        ("Omi revoke", "omi"),
        ("revoke tresette", "tresette"),
        ("renege hasenpfeffer", "hasenpfeffer"),
        ("revoke butifarra", "botifarra"),
    ],
)
def test_a_revoke_question_finds_the_games_revoke_ruling_first(client, query, key):
    assert results(client, query)[0] == f"/rules/{key}#revoke"


@pytest.mark.parametrize("key", TRICK_GAMES)
def test_revoke_and_the_games_name_find_its_ruling_first(client, key):
    assert results(client, f"revoke {GAMES[key].name}")[0] == f"/rules/{key}#revoke"
