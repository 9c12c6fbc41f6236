"""Every page and every form through the Flask test client, as a player at the table uses them."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.extensions import db
from scorekeeper.matches.widgets import SUIT_SIGNS
from scorekeeper.models import Hand, Match, Player
from tests.conftest import make_app

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

FOUR = ["Ann", "Bo", "Cy", "Di"]


def text(answer) -> str:
    return answer.get_data(as_text=True)


def scores(actions, match_id: int) -> list[int]:
    return [side["score"] for side in actions.match(match_id)["sides"]]


# -- pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, shows",
    [
        ("/", "New match"),
        ("/matches", "History"),
        ("/players/", "Players"),
        ("/rules/", "Rules reference"),
        ("/rules/envite", "Envite"),
        ("/rules/court_piece", "Court Piece"),
        ("/rules/poke", "Poke"),
        ("/rules/schnapsen", "Schnapsen"),
        ("/matches/new/envite", "Players, in seating order"),
        ("/matches/new/court_piece", "Draw partners"),
        ("/matches/new/poke", "First dealer"),
        ("/matches/new/schnapsen", "House rules"),
    ],
)
def test_every_page_opens(client, url, shows):
    answer = client.get(url)
    assert answer.status_code == 200
    assert shows in text(answer)


@pytest.mark.parametrize(
    "url", ["/matches/999", "/matches/999/hands", "/matches/new/bridge", "/rules/bridge", "/players/999", "/nowhere"]
)
def test_unknown_things_are_a_404_page(client, url):
    answer = client.get(url)
    assert answer.status_code == 404
    assert "Not found" in text(answer) and "<html" in text(answer)


def test_home_lists_matches_in_progress_and_recent_results(client, actions):
    playing = actions.start("schnapsen", ["Ann", "Bo"])
    done = actions.start("schnapsen", ["Cy", "Di"], target=1)
    actions.hand(done, {"ending": "out", "declarer": 1, "points": [20, 70], "tricks": [1, 4]})
    page = text(client.get("/"))
    progress, recent = page.split("Recent results")
    assert f"/matches/{playing}" in progress and f"/matches/{done}" in recent
    assert "Di wins the game 2 to 0" in recent and "Won by" not in recent  # the winner said once


def test_a_match_untouched_for_two_weeks_is_set_aside_not_lost(app, client, actions):
    fresh = actions.start("schnapsen", ["Ann", "Bo"])
    old = actions.start("schnapsen", ["Cy", "Di"])
    with app.app_context():
        db.session.get(Match, old).updated -= timedelta(days=15)
        db.session.commit()
    page = text(client.get("/"))
    progress, aside = page.split("Set aside")
    assert f"/matches/{fresh}" in progress and f"/matches/{old}" not in progress
    assert f"/matches/{old}" in aside and "Cy, Di" in aside


# -- starting a match ----------------------------------------------------------------------------


def test_start_a_match_from_the_form(client, actions):
    answer = client.post(
        "/matches/new/court_piece",
        data={
            "seat-0": "Ann",
            "seat-1": "Bo",
            "seat-2": "Cy",
            "seat-3": "Di",
            "first_dealer": "2",
            "opt-courts_to_win": "3",
        },
    )
    assert answer.status_code == 302
    match_id = int(answer.location.rsplit("/", 1)[1])
    match = actions.match(match_id)
    assert match["players"] == FOUR and match["dealer"] == 2 and match["options"]["courts_to_win"] == 3
    assert match["sides"][0]["players"] == ["Ann", "Cy"]


def test_known_players_are_offered_and_reused(client, actions):
    actions.start("poke", ["Ann", "Bo"])
    page = text(client.get("/matches/new/poke"))
    assert '<option value="Ann">' in page and '<option value="Bo">' in page
    client.post("/matches/new/poke", data={"seat-0": "ann", "seat-1": "Cy", "first_dealer": "0"})
    players = text(client.get("/players/"))
    assert players.count(">Ann<") == 1 and "2 matches" in players


def test_random_partner_draw_keeps_the_same_four_players(client, actions):
    seatings = set()
    for _ in range(12):
        answer = client.post(
            "/matches/new/court_piece",
            data={
                "seat-0": "Ann",
                "seat-1": "Bo",
                "seat-2": "Cy",
                "seat-3": "Di",
                "first_dealer": "random",
                "draw_partners": "on",
            },
        )
        match = actions.match(int(answer.location.rsplit("/", 1)[1]))
        assert sorted(match["players"]) == FOUR and 0 <= match["dealer"] <= 3
        seatings.add(tuple(match["players"]))
    assert len(seatings) > 1  # 12 draws of 24 seatings all alike: about 1 in 10^16


@pytest.mark.parametrize(
    "data, message",
    [
        ({"seat-0": "Ann", "seat-1": "Bo", "first_dealer": "0"}, "needs 4 players"),
        ({"seat-0": "Ann", "seat-1": "ann", "seat-2": "Cy", "seat-3": "Di", "first_dealer": "0"}, "only once"),
        ({"seat-0": "Ann", "seat-1": "Bo", "seat-2": "Cy", "seat-3": "Di", "first_dealer": "7"}, "first dealer"),
        ({"seat-0": "A" * 41, "seat-1": "Bo", "seat-2": "Cy", "seat-3": "Di", "first_dealer": "0"}, "at most 40"),
        (
            {
                "seat-0": "Ann",
                "seat-1": "Bo",
                "seat-2": "Cy",
                "seat-3": "Di",
                "first_dealer": "0",
                "opt-courts_to_win": "0",
            },
            "at least 1",
        ),
        (
            {
                "seat-0": "Ann",
                "seat-1": "Bo",
                "seat-2": "Cy",
                "seat-3": "Di",
                "first_dealer": "0",
                "opt-all13_courts": "60",
            },
            "one of",
        ),
    ],
)
def test_a_bad_new_match_form_says_why_and_keeps_the_names(app, client, data, message):
    answer = client.post("/matches/new/court_piece", data=data)
    assert answer.status_code == 422
    assert message in text(answer)
    assert f'value="{data["seat-0"]}"' in text(answer)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Match.id))) == 0


# -- the hand form -------------------------------------------------------------------------------


def test_recording_a_hand_redirects_to_the_updated_scoreboard(client, actions):
    match_id = actions.start("envite", FOUR)
    answer = client.post(f"/matches/{match_id}/hands", data={"winner": "1", "stake": "7", "expected": "1"})
    assert answer.status_code == 302 and answer.location.endswith(f"/matches/{match_id}")
    page = text(client.get(answer.location))
    assert scores(actions, match_id) == [0, 7]
    assert "Hand 2" in page and "Bo deals" in page  # the deal passed to the next seat
    assert re.search(
        r'href="/rules/envite\?match=\d+&amp;hand=\d+#', page
    )  # every reason links to its rule, at this table


def test_a_field_error_shows_next_to_its_field_and_keeps_the_values(client, actions):
    match_id = actions.start("court_piece", FOUR)
    answer = client.post(
        f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "8", "tricks-1": "4", "expected": "1"}
    )
    assert answer.status_code == 422
    page = text(answer)
    field = page[page.index('class="w w-tricks') :]
    assert "13" in field[: field.index("</fieldset>", field.index("</fieldset>") + 1) + 500]
    assert re.search(r'name="tricks-0" value="8" checked', page) and re.search(
        r'name="tricks-1" value="4" checked', page
    )
    assert actions.match(match_id)["hands"] == []


def test_fields_of_another_outcome_are_left_out(client, actions):
    """Without JavaScript every field posts; only those of the chosen outcome count."""
    match_id = actions.start("court_piece", FOUR)
    data = {"outcome": "first_seven", "side": "1", "tricks-0": "9", "tricks-1": "4", "expected": "1"}
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    assert actions.match(match_id)["hands"][0]["record"] == {"outcome": "first_seven", "side": 1}


def test_poke_hand_entered_as_cards(client, actions):
    match_id = actions.start("poke", ["Ann", "Bo"])
    data = {"tricks-0": "3", "tricks-1": "2", "draws-0": "0", "draws-1": "0", "expected": "1"}
    hands = [["A", "K", "Q", "J", "T"], ["9", "9", "4", "4", "2"]]
    suits = [["S"] * 5, ["S", "H", "C", "D", "C"]]
    for side in range(2):
        for n in range(5):
            data[f"cards-{side}-{n}-rank"], data[f"cards-{side}-{n}-suit"] = hands[side][n], suits[side][n]
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    match = actions.match(match_id)
    assert match["state"]["above"] == [1000, 0]  # royal flush honours, RULES.md 1.3.4
    assert match["state"]["below"] == [3, 2]


def test_poke_cards_with_a_card_twice_are_refused_on_the_form(client, actions):
    match_id = actions.start("poke", ["Ann", "Bo"])
    data = {"tricks-0": "3", "tricks-1": "2", "draws-0": "0", "draws-1": "0", "expected": "1"}
    for side in range(2):
        for n in range(5):
            data[f"cards-{side}-{n}-rank"], data[f"cards-{side}-{n}-suit"] = "AKQJT"[n], "S"
    answer = client.post(f"/matches/{match_id}/hands", data=data)
    assert answer.status_code == 422 and "twice" in text(answer)
    assert actions.match(match_id)["hands"] == []


def test_schnapsen_counter_fills_points_and_tricks(client, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"])
    won = ["AS", "TS", "AH", "TH", "KS", "QS", "AD", "JD"]  # 11+10+11+10+4+3+11+2 = 62, four tricks
    answer = client.post(
        f"/matches/{match_id}/hands",
        data={
            "ending": "out",
            "declarer": "0",
            "closed_by": "none",
            "count-0": won,
            "m20-0": "1",
            "count-1": ["KH", "QH"],
            "expected": "1",
        },
    )
    assert answer.status_code == 302, text(answer)
    record = actions.match(match_id)["hands"][0]["record"]
    assert record["points"] == [82, 7] and record["tricks"] == [4, 1]
    assert scores(actions, match_id) == [2, 0]  # Bo had 7, with a trick: schneider, RULES.md 1.4.6


def test_schnapsen_counter_refuses_an_odd_number_of_cards(client, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"])
    answer = client.post(
        f"/matches/{match_id}/hands",
        data={"ending": "out", "declarer": "0", "count-0": ["AS", "TS", "AH"], "expected": "1"},
    )
    assert answer.status_code == 422 and "two at a time" in text(answer)


# -- two phones, double taps ---------------------------------------------------------------------


def test_a_double_tap_records_once(client, actions):
    match_id = actions.start("envite", FOUR)
    data = {"winner": "0", "stake": "4", "expected": "1", "token": "tap-1"}
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    assert client.post(f"/matches/{match_id}/hands", data=data).status_code == 302
    assert len(actions.match(match_id)["hands"]) == 1 and scores(actions, match_id) == [4, 0]


def test_two_phones_sending_the_same_next_hand_record_one(client, actions):
    match_id = actions.start("envite", FOUR)
    first = client.post(f"/matches/{match_id}/hands", data={"winner": "0", "stake": "4", "expected": "1", "token": "a"})
    second = client.post(
        f"/matches/{match_id}/hands", data={"winner": "1", "stake": "2", "expected": "1", "token": "b"}
    )
    assert first.status_code == 302 and second.status_code == 409
    assert "already recorded from another phone" in text(second)
    assert scores(actions, match_id) == [4, 0]


# -- undo, edit, delete, finish ------------------------------------------------------------------


def court_piece_with(actions, *tricks) -> int:
    match_id = actions.start("court_piece", FOUR)
    for pair in tricks:
        actions.hand(match_id, {"outcome": "tricks", "tricks": list(pair)})
    return match_id


def test_undo_takes_back_the_last_hand(client, actions):
    match_id = court_piece_with(actions, (8, 5), (8, 5))
    assert "Undo hand 2" in text(client.get(f"/matches/{match_id}"))
    client.post(f"/matches/{match_id}/undo", data={"expected": "2"})
    match = actions.match(match_id)
    assert len(match["hands"]) == 1 and match["state"]["streak"] == {"side": 0, "count": 1}


def test_undo_from_a_stale_page_changes_nothing(client, actions):
    match_id = court_piece_with(actions, (8, 5), (8, 5), (8, 5))
    answer = client.post(f"/matches/{match_id}/undo", data={"expected": "2"}, follow_redirects=True)
    assert "Another phone changed this match" in text(answer)
    assert len(actions.match(match_id)["hands"]) == 3


def test_edit_a_hand_and_every_total_after_it_follows(client, actions):
    match_id = court_piece_with(*(actions,), *[(8, 5)] * 6)
    assert actions.match(match_id)["state"]["streak"] == {"side": 0, "count": 6}
    form = text(client.get(f"/matches/{match_id}/hands/2/edit"))
    assert "Edit hand 2" in form and 'name="tricks-0" value="8" checked' in form
    answer = client.post(
        f"/matches/{match_id}/hands/2/edit",
        data={"outcome": "tricks", "tricks-0": "5", "tricks-1": "8", "expected": "2"},
    )
    assert answer.status_code == 302
    match = actions.match(match_id)
    assert match["state"]["streak"] == {"side": 0, "count": 4}  # hands 3-6 won by A again
    assert [hand["changes"] for hand in match["hands"]] == [[0, 0]] * 6


def test_an_invalid_edit_is_shown_and_changes_nothing(client, actions):
    match_id = court_piece_with(actions, (8, 5), (9, 4))
    answer = client.post(
        f"/matches/{match_id}/hands/1/edit", data={"outcome": "tricks", "tricks-0": "9", "tricks-1": "9"}
    )
    assert answer.status_code == 422 and "13" in text(answer)
    assert actions.match(match_id)["hands"][0]["record"]["tricks"] == [8, 5]


def test_an_edit_that_breaks_a_later_hand_is_refused_naming_it(client, actions):
    match_id = actions.start("envite", FOUR)
    actions.hand(match_id, {"winner": 0, "stake": 9})
    actions.hand(match_id, {"winner": 0, "stake": 2})  # A lies down at 11
    actions.hand(match_id, {"forfeit": True})  # A gives the hand up: B +1
    answer = client.post(f"/matches/{match_id}/hands/2/edit", data={"winner": "1", "stake": "2"})
    assert answer.status_code == 409 and "Hand 3" in text(answer)
    assert scores(actions, match_id) == [11, 1]


def test_delete_asks_first_then_renumbers(client, actions):
    match_id = court_piece_with(actions, (8, 5), (5, 8), (9, 4))
    confirm = text(client.get(f"/matches/{match_id}/hands/1/delete"))
    assert "Delete hand 1?" in confirm and "Keep it" in confirm
    client.post(f"/matches/{match_id}/hands/1/delete")
    hands = actions.match(match_id)["hands"]
    assert [h["number"] for h in hands] == [1, 2] and [h["record"]["tricks"] for h in hands] == [[5, 8], [9, 4]]


def test_finish_a_court_piece_match_on_time(client, actions):
    match_id = actions.start("court_piece", FOUR)
    actions.hand(match_id, {"outcome": "first_seven", "side": 1})
    assert "Finish match" in text(client.get(f"/matches/{match_id}"))
    assert "Finish the match?" in text(client.get(f"/matches/{match_id}/finish"))
    page = text(client.post(f"/matches/{match_id}/finish", follow_redirects=True))
    assert 'class="banner final"' in page and "Bo &amp; Di win" in page
    assert "Record hand" not in page
    assert (
        client.post(f"/matches/{match_id}/hands", data={"outcome": "revoke", "side": "0", "expected": "2"}).status_code
        == 409
    )


def test_a_finished_match_shows_the_winner_and_takes_no_hand(client, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"], target=2)
    actions.hand(match_id, {"ending": "out", "declarer": 0, "points": [70, 0], "tricks": [5, 0]})
    page = text(client.get(f"/matches/{match_id}"))
    assert "Ann wins" in page and "Record hand" not in page  # named, not lettered
    assert "Finish match" not in page  # Schnapsen ends by itself


# -- history and players -------------------------------------------------------------------------


def player_id(app, name: str) -> int:
    with app.app_context():
        return db.session.scalar(db.select(Player.id).where(Player.name == name))


def test_history_filters_by_game_and_player(app, client, actions):
    poke = actions.start("poke", ["Ann", "Bo"])
    envite = actions.start("envite", ["Cy", "Di", "Ed", "Flo"])
    by_game = text(client.get("/matches?game=poke"))
    assert f'/matches/{poke}"' in by_game and f'/matches/{envite}"' not in by_game
    by_player = text(client.get(f"/matches?player={player_id(app, 'Cy')}"))
    assert f'/matches/{envite}"' in by_player and f'/matches/{poke}"' not in by_player


def test_player_page_counts_wins_and_losses_per_game(app, client, actions):
    for winner in (0, 1, 0):
        match_id = actions.start("schnapsen", ["Ann", "Bo"], target=1)
        actions.hand(match_id, {"ending": "out", "declarer": winner, "points": [70, 70], "tricks": [3, 3]})
    page = text(client.get(f"/players/{player_id(app, 'Ann')}"))
    row = re.search(r"<tr><td>Schnapsen</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>", page)
    assert row and row.groups() == ("2", "0", "1", "0")  # won, shared, lost, drawn


# -- the match page stays small ------------------------------------------------------------------


def test_a_long_match_page_shows_the_latest_hands_and_links_the_rest(client, actions):
    match_id = court_piece_with(actions, *[(8, 5), (5, 8)] * 15)
    page = text(client.get(f"/matches/{match_id}"))
    assert "All 30 hands" in page and 'id="hand-30"' in page and 'id="hand-1"' not in page
    newest = text(client.get(f"/matches/{match_id}/hands"))  # a page of 15, newest first
    assert 'id="hand-30"' in newest and 'id="hand-16"' in newest and 'id="hand-15"' not in newest
    assert f"/matches/{match_id}/hands?before=16" in newest and "Latest hands" not in newest
    oldest = text(client.get(f"/matches/{match_id}/hands?before=16"))
    assert 'id="hand-15"' in oldest and 'id="hand-1"' in oldest and 'id="hand-16"' not in oldest
    assert "Older hands" not in oldest and "Latest hands" in oldest


def test_hands_with_many_reasons_come_fewer_to_a_page_and_every_hand_is_reachable(client, actions):
    match_id = actions.start("pluck", ["Ann", "Bo", "Cy"], target=100)
    for _ in range(20):  # a reason per player and one for the plucks: four or five a hand
        actions.hand(match_id, {"tricks": [6, 6, 5]})
    seen, url = [], f"/matches/{match_id}/hands"
    while url:
        page = text(client.get(url))
        shown = [int(n) for n in re.findall(r'id="hand-(\d+)"', page)]
        assert 0 < len(shown) < 15  # a page of Pluck hands holds fewer than Court Piece's 15
        seen += shown
        older = re.search(r'href="([^"]+before=\d+)">Older hands', page)
        url = older.group(1).replace("&amp;", "&") if older else None
    assert seen == list(range(20, 0, -1))


def test_a_long_finished_match_is_charted_from_a_sample_that_ends_on_the_final_score(client, actions):
    match_id = court_piece_with(actions, *[(8, 5)] * 100)  # side A takes a court every seven hands
    actions.finish(match_id)
    page = text(client.get(f"/matches/{match_id}"))
    assert "over 100 hands, from 0 to 14 courts" in page
    axis = re.search(r'<path class="axis" d="M([\d.]+),([\d.]+)V([\d.]+)H([\d.]+)', page)
    left, top, bottom, right = (float(figure) for figure in axis.groups())
    first, second = re.findall(r'<polyline class="line-\d" points="([^"]+)"', page)
    points = [tuple(float(figure) for figure in point.split(",")) for point in first.split()]
    assert len(points) <= 76 and points[0] == (left, bottom) and points[-1] == (right, top)  # 14 courts: the top
    assert tuple(float(figure) for figure in second.split()[-1].split(",")) == (right, bottom)


def test_stored_hands_are_the_truth(app, client, actions):
    """The score comes from replaying the stored hands, not from any kept total."""
    match_id = court_piece_with(actions, *[(8, 5)] * 3)
    with app.app_context():
        hand = db.session.scalar(db.select(Hand).where(Hand.match_id == match_id, Hand.number == 3))
        hand.record = {"outcome": "tricks", "tricks": [4, 9]}
        db.session.execute(db.update(Match).where(Match.id == match_id).values(version=Match.version + 1))
        db.session.commit()
    assert actions.match(match_id)["state"]["streak"] == {"side": 1, "count": 1}


# -- CSRF ----------------------------------------------------------------------------------------


def test_forms_refuse_a_post_without_the_csrf_token(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'csrf.sqlite'}", WTF_CSRF_ENABLED=True)
    client = app.test_client()
    answer = client.post("/matches/new/poke", data={"seat-0": "Ann", "seat-1": "Bo", "first_dealer": "0"})
    assert answer.status_code == 400 and "Form expired" in text(answer)
    form = text(client.get("/matches/new/poke"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    answer = client.post(
        "/matches/new/poke", data={"csrf_token": token, "seat-0": "Ann", "seat-1": "Bo", "first_dealer": "0"}
    )
    assert answer.status_code == 302
    with app.app_context():
        db.engine.dispose()


# -- never a 500 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"winner": "9"},
        {"winner": "x", "stake": "game", "declined": "maybe"},
        {"stake": "4"},
        {"winner": "0", "expected": "abc"},
        {"winner": "0", "stake": "9", "declined": "on", "trawl_failure": "on"},
        {"winner": "0", "stake": "2", "declined": "on"},
        {"winner": "0" * 5000},
    ],
)
def test_junk_on_the_hand_form_is_a_message_not_a_500(client, actions, data):
    match_id = actions.start("envite", FOUR)
    answer = client.post(f"/matches/{match_id}/hands", data=data)
    assert 400 <= answer.status_code < 500
    assert actions.match(match_id)["hands"] == []


def test_one_tap_of_tricks_completes_the_other_side(client, actions):
    """Tricks always add up to 13, so the side left blank took the rest."""
    match_id = actions.start("court_piece", FOUR)
    answer = client.post(f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-1": "9", "expected": "1"})
    assert answer.status_code == 302
    assert actions.match(match_id)["hands"][0]["record"]["tricks"] == [4, 9]


def test_schnapsen_counter_gives_a_side_that_won_nothing_zero(client, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"])
    won = ["AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"]  # 84 points, four tricks; Bo none: schwarz
    answer = client.post(
        f"/matches/{match_id}/hands", data={"ending": "out", "declarer": "0", "count-0": won, "expected": "1"}
    )
    assert answer.status_code == 302, text(answer)
    assert actions.match(match_id)["hands"][0]["record"]["points"] == [84, 0]
    assert scores(actions, match_id) == [3, 0]  # RULES.md 1.4.6: schwarz


def test_new_match_form_shows_each_house_rule_at_its_default(client):
    page = text(client.get("/matches/new/court_piece"))
    assert 'name="opt-court_hand_streak_policy" value="reset" checked' in page
    assert 'name="opt-all13_courts" value="52" checked' in page


def test_poke_card_pickers_offer_every_rank_and_suit(client, actions):
    """The pack's one list on the page, which cards.js copies into each card's two choosers (issue 34):
    a blank and A K Q J 10 9 .. 2, a blank and the four suits, and the words naming each chooser
    ("Ann card 1 rank"). The browser journeys pick from the choosers drawn."""
    match_id = actions.start("poke", ["Ann", "Bo"])
    page = text(client.get(f"/matches/{match_id}"))
    pack = re.search(
        r'<template id="pack-AKQJT98765432" data-rank="([^"]+)" data-suit="([^"]+)">(.*?)</template>', page
    )
    assert pack.group(1) == "%(card)s rank" and pack.group(2) == "%(card)s suit"
    ranks, suits = re.findall(r"<select>(.*?)</select>", pack.group(3))
    assert re.findall(r">([^<]*)</option>", ranks) == ["", "A", "K", "Q", "J", "10", *"98765432"]
    assert re.findall(r'<option value="(\w?)">([^<]*)</option>', suits) == [("", ""), *SUIT_SIGNS.items()]
    assert 'data-name="cards" data-label="%(hand)s card %(number)s"' in page and "<b>Ann</b>" in page


def test_a_name_in_another_case_is_the_same_player_beyond_ascii(app, client, actions):
    actions.start("poke", ["Émile", "Bo"])
    actions.start("poke", ["émile", "Cy"])
    with app.app_context():
        assert db.session.scalars(db.select(Player.name).order_by(Player.name)).all() == ["Bo", "Cy", "Émile"]
