"""Issue 34 in the browser: a card game's pickers drawn from the page's one list of its pack.

- With scripts every card's rank and suit choosers and every pile's taps are on the form as before
  (the journeys pick from them); a hand given as cards opens on its edit page with its cards chosen
  and can be changed; Cuarenta's list of what scored takes more entries than the server draws.
- Without scripts the form shows no picker it cannot fill (no fold of hands without choosers) and
  records a hand the way the table gives it most; an edit of a hand given as cards keeps its cards;
  Cuarenta's entries are chosen one by one.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import GAMES
from scorekeeper.matches.widgets import DRAWN_EVENTS
from tests.games.properties import declared
from tests.games.taps import ANN_CY, BOB_DI, PLAYERS

from .conftest import PHONE, Started, TableApi
from .table import Thumb, group, hand_control, players_for, the_form
from .test_at_the_table import take

pytestmark = pytest.mark.browser

FOUR = list(PLAYERS[:4])
POKE_CARDS = [["5H", "6D", "7C", "8S", "9H"], ["KS", "KD", "2C", "3D", "TS"]]  # a straight, a pair of kings
POKE_BY_CARDS = {"tricks": [5, 0], "draws": [0, 0], "cards": POKE_CARDS}
ACES_AND_FIGURES = [rank + suit for suit in "SHDC" for rank in "A23KQJ"]
TRESETTE_PILES = [ACES_AND_FIGURES[:12], [*ACES_AND_FIGURES[12:], "7D"]]  # spades and hearts; the rest and a 7
SIGNS = dict(zip("SHDC", "♠♥♦♣"))


def picks_cards(fields) -> bool:
    return any(fld.type in ("cards", "grid") or picks_cards(fld.fields or ()) for fld in fields)


CARD_GAMES = sorted(key for key, game in GAMES.items() if game.calculators or picks_cards(game.hand_fields))


@pytest.fixture
def bare(browser, live_server):
    """A phone with scripts off."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(5000)
    yield context.new_page()
    context.close()


def recorded(table_api: TableApi, match: Started) -> list[dict]:
    status, answer = table_api.call("GET", f"/api/v1/matches/{match.id}")
    assert status == 200, answer
    return [hand["record"] for hand in answer["hands"]]


def open_edit(page: Page, match: Started, number: int) -> Locator:
    page.goto(f"/matches/{match.id}/hands/{number}/edit")
    expect(page.get_by_role("heading", name=hand_control("Edit", number))).to_be_visible()
    return the_form(page)


def save(page: Page, number: int) -> None:
    page.get_by_role("button", name=hand_control("Save", number)).click()
    expect(page.get_by_role("status").filter(has_text=re.compile(rf"^[A-Z][a-z]+ {number} changed"))).to_be_visible()


# == With scripts ================================================================================


def test_a_hand_given_as_cards_opens_with_its_cards_chosen(page: Page, table_api: TableApi) -> None:
    match = table_api.start("poke", ["Ann", "Bob"])
    table_api.hand(match, POKE_BY_CARDS)
    table_api.join(page, match)
    form = open_edit(page, match, 1)
    tenth = form.get_by_role("combobox", name="Bob card 5 rank", exact=True)
    expect(tenth).to_have_value("T")
    expect(tenth.locator("option")).to_have_count(14)  # a blank and the 13 ranks, to choose another
    expect(form.get_by_role("combobox", name="Ann card 4 suit", exact=True)).to_have_value("S")
    tenth.select_option(label="4")  # Bob's fifth card was the 4 of spades
    save(page, 1)
    assert recorded(table_api, match)[0]["cards"] == [POKE_CARDS[0], [*POKE_CARDS[1][:4], "4S"]]


def test_a_pile_given_opens_with_its_cards_ticked(page: Page, table_api: TableApi) -> None:
    match = table_api.start("tresette", FOUR)
    table_api.hand(match, {"cards": TRESETTE_PILES, "last_trick": 1})
    table_api.join(page, match)
    form = open_edit(page, match, 1)
    for side, pile in zip((ANN_CY, BOB_DI), TRESETTE_PILES):
        hand = form.locator(".hand").filter(has_text=side)
        expect(hand.get_by_role("checkbox")).to_have_count(40)  # a tap per card of the 40-card pack
        expect(hand.get_by_role("checkbox", checked=True)).to_have_count(len(pile))
        for card in pile:
            expect(hand.get_by_role("checkbox", name=card[0] + SIGNS[card[1]], exact=True)).to_be_checked()
    form.locator(".hand").filter(has_text=BOB_DI).get_by_text("4♣", exact=True).click()
    save(page, 1)
    assert sorted(recorded(table_api, match)[0]["cards"][1]) == sorted([*TRESETTE_PILES[1], "4C"])


def test_cuarenta_takes_more_events_than_the_server_draws(page: Page, table_api: TableApi) -> None:
    match = table_api.start("cuarenta", ["Ann", "Bob"])
    table_api.join(page, match)
    form = the_form(page)
    events = [("Ann", "caida"), ("Bob", "caida")] * 5 + [("Ann", "limpia")]
    assert len(events) > DRAWN_EVENTS
    for side, kind in events:
        group(group(form, "What scored"), side).locator(f"button[data-type={kind}]").click()
    expect(form.get_by_role("combobox", name=f"What scored {len(events)} type", exact=True)).to_have_value("limpia")
    for box, cards in zip(group(form, "Cards captured").get_by_role("spinbutton").all(), (22, 18)):
        box.fill(str(cards))
    page.get_by_role("button", name=hand_control("Record", 1)).click()
    expect(page.get_by_role("button", name=hand_control("Undo", 1))).to_be_visible()
    sides = {"Ann": 0, "Bob": 1}
    assert recorded(table_api, match)[0]["events"] == [{"side": sides[s], "type": k} for s, k in events]


# == Without scripts =============================================================================


@pytest.mark.parametrize("key", CARD_GAMES)
def test_without_scripts_the_form_shows_no_picker_it_cannot_fill(bare: Page, table_api: TableApi, key: str) -> None:
    """The commonest hand is recorded; then every fold of the next hand's form opened shows no hand
    of cards (its choosers or taps would be empty: they are drawn by the page's scripts)."""
    match = table_api.start(key, players_for(key))
    table_api.join(bare, match)
    thumb = Thumb(bare)
    for step in declared(key, "COMMONEST").steps:
        take(thumb, the_form(bare), step)
    bare.get_by_role("button", name=hand_control("Record", 1)).click()
    expect(bare.get_by_role("button", name=hand_control("Record", 2))).to_be_visible()
    assert len(recorded(table_api, match)) == 1
    form = the_form(bare)
    folds = form.locator("details:not([open]) > summary").filter(visible=True)
    while folds.count():
        folds.first.click()  # open it: it leaves the folds still closed
    expect(form.locator(".hand").filter(visible=True)).to_have_count(0)
    expect(form.locator(".counter")).to_have_count(len(GAMES[key].calculators))
    expect(form.locator(".counter").filter(visible=True)).to_have_count(0)


def test_without_scripts_an_edit_keeps_the_cards_given(bare: Page, table_api: TableApi) -> None:
    match = table_api.start("poke", ["Ann", "Bob"])
    table_api.hand(match, POKE_BY_CARDS)
    table_api.join(bare, match)
    form = open_edit(bare, match, 1)
    expect(form.get_by_role("combobox", name="Bob card 5 rank", exact=True)).to_have_value("T")  # shown as given
    group(group(form, "Tricks"), "Ann").get_by_text("4", exact=True).click()  # Ann took 4 tricks, not 5
    group(group(form, "Tricks"), "Bob").get_by_text("1", exact=True).click()
    save(bare, 1)
    assert recorded(table_api, match)[0] == {**POKE_BY_CARDS, "tricks": [4, 1]}


def test_without_scripts_cuarentas_entries_are_chosen_one_by_one(bare: Page, table_api: TableApi) -> None:
    match = table_api.start("cuarenta", ["Ann", "Bob"])
    table_api.join(bare, match)
    form = the_form(bare)
    expect(form.locator(".palette")).to_be_hidden()
    expect(form.locator("select[name$='-type']")).to_have_count(DRAWN_EVENTS)
    for number, (side, kind) in enumerate([("Bob", "caida"), ("Ann", "limpia")], start=1):
        form.get_by_role("combobox", name=f"What scored {number} side", exact=True).select_option(label=side)
        form.get_by_role("combobox", name=f"What scored {number} type", exact=True).select_option(kind)
    for box, cards in zip(group(form, "Cards captured").get_by_role("spinbutton").all(), (25, 15)):
        box.fill(str(cards))
    bare.get_by_role("button", name=hand_control("Record", 1)).click()
    expect(bare.get_by_role("button", name=hand_control("Record", 2))).to_be_visible()
    assert recorded(table_api, match)[0]["events"] == [{"side": 1, "type": "caida"}, {"side": 0, "type": "limpia"}]
