"""Each game's own statistics on a player's pages (issue 24): matches finished through the JSON API
show the figures their game declares, in its own units, in `GET /api/v1/players/<id>` and on the
player's page for the game; they add up over matches as the game keeps them, and an edit of a hand of
a finished match changes them."""

from __future__ import annotations

import html
import re

from scorekeeper.extensions import db
from scorekeeper.models import Player, RatedSeat

PARTNERS = ["Ann", "Bo", "Cy", "Di"]  # Ann & Cy (side 0) against Bo & Di (side 1)
A, B = 0, 1


def player_id(app, name: str) -> int:
    with app.app_context():
        return db.session.execute(db.select(Player.id).where(Player.name == name)).scalar_one()


def told(client, app, name: str, game: str) -> dict[str, tuple]:
    """The game's own statistics of a player as the API tells them: key -> (value, matches counted)."""
    games = client.get(f"/api/v1/players/{player_id(app, name)}").json["games"]
    story = next(each for each in games if each["game"] == game)
    return {key: (shown["value"], shown["matches"]) for key, shown in story["statistics"].items()}


def shown(client, app, name: str, game: str) -> dict[str, str]:
    """Every figure of the player's page for the game: label -> what it says."""
    page = client.get(f"/players/{player_id(app, name)}/games/{game}")
    assert page.status_code == 200
    return {
        html.unescape(label): html.unescape(value)
        for label, value in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page.get_data(as_text=True))
    }


def test_court_piece_shows_courts_and_the_longest_run_and_an_edit_moves_them(client, app, actions):
    # Ann & Cy win 8-5, 8-5 and the first seven (a court), Bo & Di win 5-8; the table calls the end.
    match_id = actions.start("court_piece", PARTNERS)
    for record in (
        {"outcome": "tricks", "tricks": [8, 5]},
        {"outcome": "tricks", "tricks": [8, 5]},
        {"outcome": "first_seven", "side": A},
        {"outcome": "tricks", "tricks": [5, 8]},
    ):
        actions.hand(match_id, record)
    actions.finish(match_id)
    assert told(client, app, "Ann", "court_piece") == {"courts": (1, 1), "longest_run": (3, 1), "all_thirteen": (0, 1)}
    assert told(client, app, "Di", "court_piece") == {"courts": (0, 1), "longest_run": (1, 1), "all_thirteen": (0, 1)}
    page = shown(client, app, "Cy", "court_piece")
    assert page["Courts won"] == "1 (1.0 a match)" and page["Longest run of hands won"] == "3"
    assert page["Hands with all thirteen tricks"] == "0 (0.0 a match)"
    # Hand 2 was Bo & Di's, 5-8: Ann & Cy never win two in a row now.
    actions.edit(match_id, 2, {"outcome": "tricks", "tricks": [5, 8]})
    assert told(client, app, "Ann", "court_piece")["longest_run"] == (1, 1)
    assert shown(client, app, "Cy", "court_piece")["Longest run of hands won"] == "1"


def test_envite_shows_stones_and_chicos(client, app, actions):
    # Stones: Ann & Cy 2 + 10 (the game stake) + 12 (the game stake) = 24; Bo & Di 2 (a declined raise)
    # + 9 + 2 + 1 (winning while lying down) = 14. Chicos 2 to 1.
    match_id = actions.start("envite", PARTNERS)
    for record in (
        {"winner": A},
        {"winner": B, "stake": 4, "declined": True},
        {"winner": A, "stake": "game"},
        {"winner": B, "stake": 9},
        {"winner": B},
        {"winner": B},
        {"winner": A, "stake": "game"},
    ):
        actions.hand(match_id, record)
    assert actions.match(match_id)["status"] == "finished"
    assert told(client, app, "Cy", "envite") == {"stones_won": (24, 1), "chicos_won": (2, 1)}
    page = shown(client, app, "Bo", "envite")
    assert page["Stones won"] == "14 (14.0 a match)" and page["Chicos won"] == "1 (1.0 a match)"


def test_schnapsen_adds_victory_points_and_bummerl_up_over_matches(client, app, actions):
    # Match 1: Ann 2, Bo 1, Ann 2 (went out 70 to 20: schneider), Ann 3: Ann 7 to 1, Bo's Bummerl.
    first = actions.start("schnapsen", ["Ann", "Bo"])
    for record in (
        {"winner": A, "victory_points": 2},
        {"winner": B, "victory_points": 1},
        {"ending": "out", "declarer": A, "points": [70, 20], "tricks": [4, 2]},
        {"winner": A, "victory_points": 3},
    ):
        actions.hand(first, record)
    # Match 2: Bo 3, 3, 1: Bo 7 to 0, Ann's Bummerl.
    second = actions.start("schnapsen", ["Ann", "Bo"])
    for points in (3, 3, 1):
        actions.hand(second, {"winner": B, "victory_points": points})
    assert told(client, app, "Ann", "schnapsen") == {
        "victory_points": (7, 2),
        "bummerl_lost": (1, 2),
        "hands_won": (3, 2),
    }
    assert told(client, app, "Bo", "schnapsen") == {
        "victory_points": (8, 2),
        "bummerl_lost": (1, 2),
        "hands_won": (4, 2),
    }
    page = shown(client, app, "Bo", "schnapsen")
    assert page["Victory points won"] == "8 (4.0 a match)" and page["Bummerl lost"] == "1 (0.5 a match)"
    # Bo's last hand of match 2 was worth 2: 8 to 0, and 9 in all.
    actions.edit(second, 3, {"winner": B, "victory_points": 2})
    assert told(client, app, "Bo", "schnapsen")["victory_points"] == (9, 2)
    assert shown(client, app, "Bo", "schnapsen")["Victory points won"] == "9 (4.5 a match)"


def test_poke_shows_rubbers_and_points_above_the_line(client, app, actions):
    # Ann wins the rubber 2-1 with 1250 above the line; Bo's royal flush gives him 1750 and the match.
    match_id = actions.start("poke", ["Ann", "Bo"])
    for record in (
        {"tricks": [5, 0], "draws": [0, 2], "better_hand": B, "poker_hand": "flush"},
        {"tricks": [0, 5], "draws": [2, 0], "better_hand": B, "poker_hand": "royal_flush"},
        {"tricks": [5, 0], "draws": [0, 2], "better_hand": A, "poker_hand": "one_pair"},
    ):
        actions.hand(match_id, record)
    assert actions.match(match_id)["winner"] == B
    assert told(client, app, "Ann", "poke") == {"rubbers_won": (1, 1), "points_above": (1250, 1)}
    assert told(client, app, "Bo", "poke") == {"rubbers_won": (0, 1), "points_above": (1750, 1)}
    page = shown(client, app, "Bo", "poke")
    assert page["Rubbers won"] == "0 (0.0 a match)" and page["Points above the line"] == "1,750 (1750.0 a match)"
    # Bo's hands above the line, as his board counts them: 400, 1350 (the trick points below are none of
    # it), 0; 1750 in all over 3 hands.
    assert page["Average hand"] == "+583.3 points" and page["Best hand"] == "+1350 points"
    assert client.get(f"/api/v1/players/{player_id(app, 'Bo')}").json["games"][0]["best_hand"] == 1350
    # Kept as a history counted them before, below the line mixed in (1770, at best 1370): flask verify
    # finds it, and --store counts it again.
    with app.app_context():
        mixed = {"hand_total": 1770, "best_hand": 1370, "all_total": 1770, "all_best": 1370}
        db.session.execute(db.update(RatedSeat).where(RatedSeat.player_id == player_id(app, "Bo")).values(mixed))
        db.session.commit()
    verify = app.test_cli_runner().invoke
    assert "what it gave its seats in the players' stories differs" in verify(args=["verify"]).output
    assert verify(args=["verify", "--store"]).exit_code == 0 and verify(args=["verify"]).exit_code == 0
    assert shown(client, app, "Bo", "poke")["Best hand"] == "+1350 points"


def test_bura_shows_tokens_won_lost_and_pots_and_an_edit_moves_them(client, app, actions):
    # Ann declares 35 (+1), Bo declares only 20 (-3, Ann -1), a draw (-1 each), Bo's bura takes 8 (+7,
    # Ann -1); the table calls the end.
    match_id = actions.start("bura", ["Ann", "Bo"])
    for record in (
        {"outcome": "declaration", "side": A, "points": 35},
        {"outcome": "declaration", "side": B, "points": 20},
        {"outcome": "draw"},
        {"outcome": "bura", "side": B},
    ):
        actions.hand(match_id, record)
    actions.finish(match_id)
    assert told(client, app, "Ann", "bura") == {"tokens_won": (1, 1), "tokens_lost": (3, 1), "pots_taken": (1, 1)}
    assert told(client, app, "Bo", "bura") == {"tokens_won": (7, 1), "tokens_lost": (5, 1), "pots_taken": (1, 1)}
    page = shown(client, app, "Bo", "bura")
    assert page["Tokens won"] == "7 (7.0 a match)" and page["Pots taken"] == "1 (1.0 a match)"
    # The bura was Ann's: she takes the 8 (+7); Bo only antes (-1).
    actions.edit(match_id, 4, {"outcome": "bura", "side": A})
    assert actions.match(match_id)["status"] == "finished"
    assert told(client, app, "Ann", "bura") == {"tokens_won": (8, 1), "tokens_lost": (2, 1), "pots_taken": (2, 1)}
    assert told(client, app, "Bo", "bura") == {"tokens_won": (0, 1), "tokens_lost": (6, 1), "pots_taken": (0, 1)}
    assert shown(client, app, "Bo", "bura")["Tokens lost"] == "6 (6.0 a match)"


def test_toepen_shows_tokens_lost_and_left_and_an_edit_moves_them(client, app, actions):
    # Ann wins at 4 (Bo -4, Cy folded at 1), Bo wins at 2 (Ann -1 for a lost challenge and -2, Cy -2),
    # Cy wins at 6 (Ann and Bo -6): Bo runs out. Left: Ann 1, Bo 0, Cy 7.
    match_id = actions.start("toepen", ["Ann", "Bo", "Cy"])
    for record in (
        {"winner": 0, "value": 4, "folded_at": [0, 0, 1]},
        {"winner": 1, "value": 2, "challenges_lost": [1, 0, 0]},
        {"winner": 2, "value": 6},
    ):
        actions.hand(match_id, record)
    assert actions.match(match_id)["status"] == "finished"
    assert told(client, app, "Ann", "toepen") == {"tokens_lost": (9, 1), "tokens_left": (1, 1)}
    assert told(client, app, "Cy", "toepen") == {"tokens_lost": (3, 1), "tokens_left": (7, 1)}
    page = shown(client, app, "Ann", "toepen")
    assert page["Tokens lost"] == "9 (9.0 a match)" and page["Tokens left at the end"] == "1.0 a match"
    # The last hand was knocked to 7: Ann pays all 7 she held, Bo the 6 he had left.
    actions.edit(match_id, 3, {"winner": 2, "value": 7})
    assert told(client, app, "Ann", "toepen") == {"tokens_lost": (10, 1), "tokens_left": (0, 1)}
    assert told(client, app, "Bo", "toepen") == {"tokens_lost": (10, 1), "tokens_left": (0, 1)}
    assert shown(client, app, "Ann", "toepen")["Tokens left at the end"] == "0.0 a match"
