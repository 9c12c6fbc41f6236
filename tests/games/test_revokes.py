"""Issue 34, item 3: what a revoke costs in each trick game, recorded exactly as its rules page's
section #revoke tells the table to ("On the form, ..."), scores what that section says.

Court Piece's revoke is the seed's (S4:96); Pluck's has a field of its own (tests/games/test_pluck.py);
Bura has no revoke (S3:256: nobody need follow suit). The others record the standard rulings the pages
mark as not in the source with the fields the game already has. Sides: A = 0, B = 1."""

from __future__ import annotations

import pytest

from scorekeeper.games import get_game

A, B = 0, 1


def first_hand(key: str, record: dict, players: int, **options):
    game = get_game(key)
    table = game.table(players)
    return game.play(game.new_state(table, game.parse_options(options, table)), record)


@pytest.mark.parametrize(
    "key, players, record, changes",
    [
        # Omi: the side that did not revoke is given all eight tricks: 3 points (A deals: A is the dealer's team)
        ("omi", 4, {"tricks": [0, 8]}, [0, 3]),
        ("omi", 4, {"tricks": [8, 0]}, [3, 0]),
        # Court Piece (S4:96): the record names the side that revoked; the other side takes the court
        ("court_piece", 4, {"outcome": "revoke", "side": B}, [1, 0]),
        # Hasenpfeffer: all six tricks to the side that did not revoke
        ("hasenpfeffer", 4, {"declarers": A, "contract": 4, "tricks": [0, 6]}, [-4, 6]),  # declarers revoked
        ("hasenpfeffer", 4, {"declarers": A, "contract": 4, "tricks": [6, 0]}, [6, 0]),  # defenders revoked
        # Tresette: all 11 points of the cards to the side that did not revoke, its melds on top, none for B
        ("tresette", 4, {"aces": [4, 0], "figures": [20, 0], "last_trick": A, "melds": {"three_aces": A}}, [14, 0]),
        # Botifarra: 72 to 0 for the side that did not revoke: 36 times the multiplier
        ("botifarra", 4, {"trump": "hearts", "doubling": "double", "points": [72, 0]}, [72, 0]),
        ("botifarra", 4, {"trump": "botifarra", "points": [0, 72]}, [0, 72]),
        # Turnover Bridge: three tricks handed over; when that decides the game, who won it
        ("turnover_bridge", 2, {"winner": A}, [1, 0]),
        ("turnover_bridge", 2, {"tricks": [14, 9]}, [1, 0]),  # 10-12 at B's revoke, 13-9 after it; played on
        # Schnapsen: 3 victory points to the player who did not revoke, the quick way
        ("schnapsen", 2, {"winner": B, "victory_points": 3}, [0, 3]),
        # Calabrasella: 35 to 0 against the camp that revoked: every payment 70
        ("calabrasella", 3, {"declarer": 0, "declarer_points": 0, "defender_points": 35}, [-140, 70, 70]),
        ("calabrasella", 3, {"declarer": 0, "declarer_points": 35, "defender_points": 0}, [140, -70, -70]),
    ],
)
def test_a_revoke_recorded_as_the_rules_page_says_scores_what_it_says(key, players, record, changes):
    assert first_hand(key, record, players).changes == changes


def test_calabrasella_the_revoke_taps_fit_the_last_trick_house_rule_too():
    record = {"declarer": 1, "declarer_points": 0, "defender_points": 35}
    assert first_hand("calabrasella", record, 3, set_aside_to="last_trick").changes == [70, -140, 70]


def test_omi_a_revoke_hand_takes_a_waiting_four_four_bonus_like_any_all_eight_hand():
    game = get_game("omi")
    table = game.table(4)
    tied = game.play(game.new_state(table, game.parse_options({}, table)), {"tricks": [4, 4]}).state
    assert game.play(tied, {"tricks": [0, 8]}).changes == [0, 3 + 1]
