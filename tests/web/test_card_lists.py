"""Issue 34: a card game's page holds its pack once, and stays within its weight.

Each card's rank and suit choosers, each pile's taps and a calculator's cards are drawn by the page's
scripts (cards.js, piles.js) from one list of the pack on the page; the server draws only what a hand
already holds, so that a phone without scripts keeps it. Until then every card repeated the pack: a
four-player Chicago page weighed 72 KB with its CSS and scripts, Cuarenta's 49 entries of what scored
53 KB. Every game's page at hand 2, with the most players it takes, is weighed here as the bench weighs
a page (bench/bench.py `weigh_pages`): the page as served, and the CSS and scripts it links as a
phone's browser receives them (compressed)."""

from __future__ import annotations

import random
import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import CARD_SUITS
from scorekeeper.matches.widgets import DRAWN_EVENTS, SUIT_SIGNS
from tests.conftest import Actions

pytestmark = pytest.mark.one_database  # pages and their weight, not SQL: SQLite alone (tests/conftest.py)

PAGE_LIMIT = 30 * 1024  # bench/bench_report.py PAGE_LIMIT
WIRE = {"Accept-Encoding": "gzip, deflate, br"}  # what Chromium sends (bench/bench.py WIRE)
ASSET = re.compile(r'(?:href|src)="(/static/[^"?#]+)')  # bench/bench.py ASSET
# Names as long as a club's ("Núria Puig"): a side's name is on every one of its buttons.
NAMES = ["Núria Puig", "Joan Ferrer", "Pau Vidal", "Marta Soler", "Jordi Roca", "Laia Serra"]
NAMES += [f"{first} {last}" for last in ("Mas", "Pons") for first in ("Oriol", "Anna", "Marc")]


def picks_cards(fields) -> bool:
    return any(fld.type in ("cards", "grid") or picks_cards(fld.fields or ()) for fld in fields)


CARD_GAMES = sorted(key for key, game in GAMES.items() if game.calculators or picks_cards(game.hand_fields))


def at_hand_two(client, key: str) -> int:
    """A match of `key` with the most players it takes, one example hand in, that `client` scores."""
    game = GAMES[key]
    actions = Actions(client)
    match_id = actions.start(key, NAMES[: game.max_players])
    table = game.table(game.max_players)
    state, rng = game.new_state(table, actions.match(match_id)["options"]), random.Random(34)
    drawn = (game.example_hand(state, rng) for _ in range(200))
    record = next(r for r in drawn if not game.result(game.play(state, r).state).over)
    actions.hand(match_id, record)
    return match_id


def weight(client, url: str) -> tuple[str, int]:
    """The page and its weight with the CSS and scripts it links, as a phone receives them."""
    page = client.get(url, headers=WIRE)
    assert page.status_code == 200 and page.headers.get("Content-Encoding") is None
    html = page.get_data(as_text=True)
    assets = sorted(set(ASSET.findall(html)))
    return html, len(page.data) + sum(len(client.get(path, headers=WIRE).data) for path in assets)


def hand_form(html: str) -> str:
    return html[html.index('<form method="post" class="hand-form"') : html.index("</form>", html.index("hand-form"))]


def test_the_card_games_are_found():
    """The games found by their declarations: a hand field of cards or a layout, or a hand calculator."""
    assert {"chicago", "poke", "schnapsen", "tabletop_cribbage", "tresette"} <= set(CARD_GAMES)


@pytest.mark.parametrize("key", CARD_GAMES)
def test_a_card_games_page_holds_its_pack_once(client, key):
    """Each suit's sign is in the hand form once, in the pack's one list: no card's choosers and no
    pile's taps repeat it. The list offers every rank and suit, and the pickers name it."""
    match_id = at_hand_two(client, key)
    form = hand_form(client.get(f"/matches/{match_id}").get_data(as_text=True))
    for sign in SUIT_SIGNS.values():
        assert form.count(sign) == 1, f"{key}: {sign} {form.count(sign)} times in the hand form"
    packs = re.findall(r'<template id="([^"]+)"[^>]*>(.*?)</template>', form)
    assert len(packs) == 1, packs
    pack_id, pack = packs[0]
    ranks, suits = re.findall(r"<select>(.*?)</select>", pack)
    assert suits.count("<option") == 1 + len(CARD_SUITS)  # a blank and the four suits
    assert ranks.count("<option") == 1 + len(pack_id.split("-", 1)[1])  # a blank and every rank named in its id
    assert f'data-pack="{pack_id}"' in form


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_page_is_within_its_weight(client, key):
    match_id = at_hand_two(client, key)
    _, total = weight(client, f"/matches/{match_id}")
    assert total <= PAGE_LIMIT, f"{key} with {GAMES[key].max_players} players: {total:,} bytes"


def test_a_hand_given_as_cards_comes_back_drawn_by_the_server(client, actions):
    """An edit of a hand given as cards: each chosen card's choosers are on the page as served, the
    card chosen (a phone without scripts keeps it), and the pack is still drawn once."""
    match_id = actions.start("poke", ["Ann", "Bo"])
    hands = [["5H", "6D", "7C", "8S", "9H"], ["KS", "KD", "2C", "3D", "TS"]]
    actions.hand(match_id, {"tricks": [5, 0], "draws": [0, 0], "cards": hands})
    form = hand_form(client.get(f"/matches/{match_id}/hands/1/edit").get_data(as_text=True))
    assert 'aria-label="Bo card 5 rank"><option value=""></option><option value="T" selected>10</option>' in form
    assert 'aria-label="Ann card 4 suit"><option value=""></option><option value="S" selected>♠</option>' in form
    assert form.count("<template") == 1


def test_a_pile_given_comes_back_with_its_cards_ticked(client, actions):
    """Tresette's cards each side took, on an edit: the taps the pile holds are drawn ticked, the
    others (drawn by piles.js) are not on the page as served."""
    match_id = actions.start("tresette", NAMES[:4])
    aces_and_figures = [rank + suit for suit in "SHDC" for rank in "A23KQJ"]
    piles = [aces_and_figures[:12], aces_and_figures[12:] + ["7D"]]
    actions.hand(match_id, {"cards": piles, "last_trick": 1})
    form = hand_form(client.get(f"/matches/{match_id}/hands/1/edit").get_data(as_text=True))
    ticked = re.findall(r'<input type="checkbox" name="cards-(\d)" value="(\w\w)" checked>', form)
    assert sorted((int(side), card) for side, card in ticked) == sorted(
        (s, c) for s, pile in enumerate(piles) for c in pile
    )
    assert 'value="4S"' not in form


def test_cuarenta_draws_the_first_entries_and_the_script_the_rest(client, actions):
    """A phone without scripts chooses in the entries the server draws; palette.js adds the rest up to
    the most the field takes, from the words the list gives."""
    match_id = actions.start("cuarenta", NAMES[:4])
    form = hand_form(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert form.count('<div class="slot">') == DRAWN_EVENTS
    assert 'data-most="49"' in form
    assert 'data-side-label="What scored %(number)s side" data-type-label="What scored %(number)s type"' in form
