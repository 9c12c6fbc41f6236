"""Each game's own statistics (issue 24): every game declares what its table counts, beside its board,
and each figure is what the table would count by hand. Every game plays a short real match through the
engine; the comments work each figure out from the hands as a player would, and the test holds the
game's count to it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from scorekeeper.games import GAMES, get_game, replay
from scorekeeper.games.statistics import KEEPS, Finished, Statistic, longest_run


@dataclass
class Hand:
    """A hand of the finished match as the history hands it to a statistic."""

    number: int
    record: dict
    changes: list[int]
    game_winner: int | None
    state: Any


def finished(key: str, players: int, records: list[dict], call: bool = False, **options) -> Finished:
    """The match of `key` after `records`, finished by its last hand or, with `call`, by the table."""
    game = get_game(key)
    table = game.table(players)
    done = replay(game, table, game.parse_options(options, table), records)
    state = done.state.evolve(called=True) if call else done.state
    result = game.result(state, called=call)
    assert result.over, result.headline
    hands = [
        Hand(number, record, list(hand.changes), hand.game_winner, hand.state)
        for number, (record, hand) in enumerate(zip(done.records, done.results), start=1)
    ]
    return Finished(state, result, table, hands)


def figures(key: str, players: int, records: list[dict], call: bool = False, **options) -> dict[str, list]:
    """Each declared statistic of the finished match, for every side in order."""
    done = finished(key, players, records, call, **options)
    return {stat.key: [stat.count(done, side) for side in range(done.sides)] for stat in get_game(key).statistics}


A, B, C, D = 0, 1, 2, 3


# -- what every game declares ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_declares_its_own_statistics(key):
    declared = GAMES[key].statistics
    assert declared, f"{key} declares no statistic"
    keys = [stat.key for stat in declared]
    assert len(set(keys)) == len(keys), f"{key}: a key is declared twice"
    labels = [stat.label for stat in declared]
    assert len(set(labels)) == len(labels), f"{key}: two statistics show the same label"
    for stat in declared:
        assert isinstance(stat, Statistic) and re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", stat.key), stat.key
        assert stat.label[:1].isupper() and len(stat.label) <= 40 and stat.keep in KEEPS


def test_every_game_has_a_worked_match_here():
    worked = {
        name.removeprefix("test_").removesuffix("_counts")
        for name in globals()
        if name.startswith("test_") and name.endswith("_counts")
    }
    assert worked == set(GAMES)


def test_a_statistic_refuses_a_keep_it_does_not_know():
    with pytest.raises(ValueError, match="keep must be one of total, most, least, average"):
        Statistic("courts", "Courts won", lambda done, side: 0, keep="sum")


def test_the_longest_run_counts_hands_in_a_row_and_nobody_breaks_it():
    assert longest_run([A, A, B, A, A, A, None, A], A) == 3
    assert longest_run([A, A, B, A, A, A, None, A], B) == 1
    assert longest_run([], A) == 0


# -- the flagship games -------------------------------------------------------------------------------------


def test_court_piece_counts():
    # A = Ann & Cy (side 0), B = Bo & Di (side 1); the table calls the end.
    #  1-3  A wins 8-5, 9-4, 7-6: A's streak 1, 2, 3.          4  B wins 8-5: B's streak 1.
    #  5    A takes all thirteen: 52 courts; the streak resets.  6  A revokes: B +1 court.
    #  7-13 B wins seven hands in a row: the seventh is a streak court, B +1.
    # Courts: A 52, B 2. Hands won in a row: A 3 (hands 1-3), B 8 (hands 6-13).
    # All thirteen: A once.
    tricks = lambda a, b: {"outcome": "tricks", "tricks": [a, b]}  # noqa: E731
    records = [
        tricks(8, 5),
        tricks(9, 4),
        tricks(7, 6),
        tricks(5, 8),
        {"outcome": "first_seven", "side": A, "all_thirteen": True},
        {"outcome": "revoke", "side": A},
        *[tricks(4, 9)] * 7,
    ]
    assert figures("court_piece", 4, records, call=True) == {
        "courts": [52, 2],
        "longest_run": [3, 8],
        "all_thirteen": [1, 0],
    }


def test_court_piece_counts_all_thirteen_from_the_record_not_from_what_it_scored():
    """Were all thirteen tricks worth 2 courts at some table, the hand is still all thirteen."""
    records = [
        {"outcome": "first_seven", "side": B, "all_thirteen": True},
        *[{"outcome": "tricks", "tricks": [9, 4]}] * 4,
    ]
    done = finished("court_piece", 4, records, call=True)
    worth_two = [
        Hand(h.number, h.record, [0, 2] if h.number == 1 else h.changes, h.game_winner, h.state) for h in done.hands
    ]
    all_thirteen = next(stat for stat in get_game("court_piece").statistics if stat.key == "all_thirteen")
    counted = Finished(done.state, done.result, done.table, worth_two)
    assert [all_thirteen.count(counted, side) for side in (A, B)] == [0, 1]


def test_envite_counts():
    # Hand 1: A wins at 2 (2-0). Hand 2: A declines B's raise to 4: B +2 (2-2). Hand 3: A wins the hand
    # played for the game: +10 to twelve, chico 1 to A. Hand 4: B wins at 9 (0-9). Hand 5: B wins at 2:
    # 11, lying down. Hand 6: B, lying down, wins: +1 to twelve, chico to B (1-1). Hand 7: A wins the
    # hand played for the game: +12, the match 2 chicos to 1.
    # Stones won: A 2 + 10 + 12 = 24; B 2 + 9 + 2 + 1 = 14.
    records = [
        {"winner": A},
        {"winner": B, "stake": 4, "declined": True},
        {"winner": A, "stake": "game"},
        {"winner": B, "stake": 9},
        {"winner": B},
        {"winner": B},
        {"winner": A, "stake": "game"},
    ]
    assert figures("envite", 4, records) == {"stones_won": [24, 14], "chicos_won": [2, 1]}


def test_schnapsen_counts():
    # Hand 1: A, two (quick). Hand 2: B, one. Hand 3: A goes out with 70 against B's 20 (schneider): 2.
    # Hand 4: A, three: A reaches 7 and wins the game; B takes the Bummerl.
    records = [
        {"winner": A, "victory_points": 2},
        {"winner": B, "victory_points": 1},
        {"ending": "out", "declarer": A, "points": [70, 20], "tricks": [4, 2]},
        {"winner": A, "victory_points": 3},
    ]
    assert figures("schnapsen", 2, records) == {"victory_points": [7, 1], "bummerl_lost": [0, 1], "hands_won": [3, 1]}


def test_poke_counts():
    # Hand 1 (A deals): B draws twice (redoubled), so A's five tricks score 20 below: game to A (+100)
    # and A's sweep (+250); B's flush +400. Above: A 350, B 400.
    # Hand 2 (B deals): A draws twice; B's five tricks 20 below: game to B (+100), sweep +250, and B's
    # royal flush +1000. Above: A 350, B 1750.
    # Hand 3 (A deals): as hand 1, with A's pair +50: game and rubber to A, 2-1 (+100, +500, +250).
    # Above: A 350 + 50 + 250 + 100 + 500 = 1250, B 1750: A won the rubber, B the match.
    records = [
        {"tricks": [5, 0], "draws": [0, 2], "better_hand": B, "poker_hand": "flush"},
        {"tricks": [0, 5], "draws": [2, 0], "better_hand": B, "poker_hand": "royal_flush"},
        {"tricks": [5, 0], "draws": [0, 2], "better_hand": A, "poker_hand": "one_pair"},
    ]
    assert figures("poke", 2, records) == {"rubbers_won": [1, 0], "points_above": [1250, 1750]}


# -- partnership trick games ----------------------------------------------------------------------------------


def test_omi_counts():
    # Hand 1 (A deals): 4-4, a bonus of 1 pending. Hand 2 (B deals): A takes all eight: 3 + 1.
    # Hand 3 (A deals): A 6-2, the dealer's team: 2. Hand 4 (B deals): B 5-3: 2. Hand 5 (A deals): A 5-3:
    # 2 (A 8). Hand 6 (B deals): A all eight again: 3, A reaches 11.
    # Hands won: A 4, B 1. Kapothi: A 2.
    records = [{"tricks": t} for t in ([4, 4], [8, 0], [6, 2], [3, 5], [5, 3], [8, 0])]
    assert figures("omi", 4, records) == {"hands_won": [4, 1], "kapothi": [2, 0]}


def test_omi_leaves_kapothi_out_where_the_house_rule_hides_it():
    # tie_bonus_on_all_eight off: hand 1 is 4-4 (bonus 1), hand 2 (B deals) B wins 6-2 as the dealer's team:
    # 2 + 1 = 3, the same 3 that all eight would score there. Who can tell? Not the sheet: B's kapothi
    # is left out; A never won a hand, so A's is 0.
    records = [{"tricks": [4, 4]}, {"tricks": [2, 6]}]
    assert figures("omi", 4, records, target=3, tie_bonus_on_all_eight=False) == {
        "hands_won": [0, 1],
        "kapothi": [0, None],
    }
    # The same house rule, a plain 3 with no bonus pending: all eight, and nothing else scores 3 there.
    assert figures("omi", 4, [{"tricks": [8, 0]}], target=3, tie_bonus_on_all_eight=False)["kapothi"] == [1, 0]


def test_hasenpfeffer_counts():
    # 1: A bids 3, takes 4: made. 2: void. 3: B bids 4, takes 3: failed (A defeats it).
    # 4: A's forced joker bid (3), takes 2: failed (B defeats it). 5: B bids 2, takes 5: made.
    # 6: B bids 3, takes 4: made, B reaches 11 and wins.
    records = [
        {"declarers": A, "contract": 3, "tricks": [4, 2]},
        {"void": True},
        {"declarers": B, "contract": 4, "tricks": [3, 3]},
        {"declarers": A, "forced_joker_bid": True, "tricks": [2, 4]},
        {"declarers": B, "contract": 2, "tricks": [1, 5]},
        {"declarers": B, "contract": 3, "tricks": [2, 4]},
    ]
    assert figures("hasenpfeffer", 4, records) == {
        "contracts_made": [1, 2],
        "contracts_failed": [1, 1],
        "contracts_defeated": [1, 1],
    }


def test_tresette_counts():
    # 1: A 3 aces + 3 threes of figures + last trick = 7; B 1 ace + 3 threes + napoli 3 = 7: level.
    # 2: A 4 + 4 + 1 = 9, B 0 + 2 = 2: A's hand. 3: B four aces 4 + 4 aces + 6 + 1 = 15, A 0: B's hand.
    # 4: A four threes 4, three twos 3, 4 aces, 6, last 1 = 18: A reaches 34 to B's 24.
    records = [
        {"aces": [3, 1], "figures": [11, 9], "last_trick": A, "melds": {"napoli_hearts": B}},
        {"aces": [4, 0], "figures": [14, 6], "last_trick": A},
        {"aces": [0, 4], "figures": [2, 18], "last_trick": B, "melds": {"four_aces": B}},
        {"aces": [4, 0], "figures": [20, 0], "last_trick": A, "melds": {"four_threes": A, "three_twos": A}},
    ]
    assert figures("tresette", 4, records) == {"hands_won": [2, 1]}


def test_botifarra_counts():
    # 1: A 50 of 72: +14. 2: B 42 in a doubled botifarra: 6 x 4 = 24. 3: 36-36: nobody.
    # 4: A 72 in a re-redoubled botifarra: 36 x 16, A wins. Hands won: A 2, B 1.
    records = [
        {"trump": "spades", "points": [50, 22]},
        {"trump": "botifarra", "doubling": "double", "points": [30, 42]},
        {"trump": "hearts", "points": [36, 36]},
        {"trump": "botifarra", "doubling": "reredouble", "points": [72, 0]},
    ]
    assert figures("botifarra", 4, records) == {"hands_won": [2, 1]}


def test_turnover_bridge_counts():
    # Games: A (14-5), B, tie, B, B, tie (13-13), A; the table calls the end, B 3 games to 2.
    # In a row: A 1, B 2 (games 4-5). Tied games: 2.
    records = [
        {"tricks": [14, 5]},
        {"winner": B},
        {"winner": None},
        {"winner": B},
        {"winner": B},
        {"tricks": [13, 13]},
        {"winner": A},
    ]
    assert figures("turnover_bridge", 2, records, call=True) == {"longest_run": [1, 2], "tied_games": [2, 2]}


# -- tally games --------------------------------------------------------------------------------------------


def test_polignac_counts():
    # 1: Ann takes all four jacks (5). 2: Bo J♠ and J♣ (3), Cy J♥ J♦ (2). 3: Cy J♠ (2), Bo the rest (3).
    # 4: Bo all four: 11, the match ends; Cy lowest on 4.
    # Without a jack: Ann in hands 2, 3, 4; Bo in 1; Cy in 1 and 4. All four jacks: Ann once, Bo once.
    jacks = lambda s, h, d, c: {"jacks": {"spades": s, "hearts": h, "diamonds": d, "clubs": c}}  # noqa: E731
    records = [jacks(A, A, A, A), jacks(B, C, C, B), jacks(C, B, B, B), jacks(B, B, B, B)]
    assert figures("polignac", 3, records) == {"clean_hands": [3, 1, 2], "all_jacks": [1, 1, 0]}


def test_pluck_counts():
    # Quotas: the dealer 7, the left 6, the right 4; the deal passes left (Ann, Bo, Cy, Ann).
    # 1 (Ann deals, 7/6/4): 9, 4, 4: Ann +2, Bo 2 short, Cy on quota.
    # 2 (Bo deals, Ann 4, Bo 7, Cy 6): 10, 2, 5: Ann +6, Bo 5 short, Cy 1 short.
    # 3 (Cy deals, Ann 6, Bo 4, Cy 7): 17, 0, 0: Ann +11, Bo 4 short, Cy 7 short.
    # 4 (Ann deals, 7/6/4): 17, 0, 0: Ann +10, 29: she wins. Bo 6 short, Cy 4 short.
    # Quotas made: Ann 4, Bo 0, Cy 1. Tricks short: Bo 2 + 5 + 4 + 6 = 17, Cy 1 + 7 + 4 = 12.
    records = [{"tricks": t} for t in ([9, 4, 4], [10, 2, 5], [17, 0, 0], [17, 0, 0])]
    assert figures("pluck", 3, records) == {"quotas_made": [4, 0, 1], "tricks_short": [0, 17, 12]}


def test_chicago_counts():
    # 1: Bo's flush at the first showdown 5; Ann's straight flush at the end 8 and the last trick 5 (13).
    # 2: Cy forfeits and leaves (player_out). 3: Ann's royal flush at both showdowns (104) and a straight
    # flush at the end (8), Bo the last trick (5): Ann 125 wins, Bo 10, Cy 0.
    best = lambda side, hand: {"best_hand": side, "poker_hand": hand}  # noqa: E731
    records = [
        {"first_showdown": best(B, "flush"), "final_hand": best(A, "straight_flush"), "last_trick": A},
        {"forfeit": C},
        {
            "first_showdown": best(A, "royal_flush"),
            "second_showdown": best(A, "royal_flush"),
            "final_hand": best(A, "straight_flush"),
            "last_trick": B,
        },
    ]
    assert figures("chicago", 3, records, forfeit_rule="player_out") == {
        "final_score": [125, 10, 0],
        "royal_flushes": [2, 0, 0],
        "forfeits": [0, 0, 1],
    }


# -- counting games -----------------------------------------------------------------------------------------


def test_cuarenta_counts():
    # 1: A's ronda 4, B's caida 2; A 24 cards: carton 6 + 2 = 8 (A 12, B 2).
    # 2: A dealt four of a kind: A wins at once, on 12, in 2 rounds.
    records = [
        {"events": [{"side": A, "type": "ronda"}, {"side": B, "type": "caida"}], "cards": [24, 16]},
        {"events": [{"side": A, "type": "four_of_a_kind"}]},
    ]
    assert figures("cuarenta", 2, records) == {"fewest_rounds": [2, None], "four_of_a_kind": [1, 0]}
    # A game to 40 on cartons: A's 40 cards score 6 + 10 = 16 a round; the third round takes A to 48.
    assert figures("cuarenta", 2, [{"cards": [40, 0]}] * 3) == {"fewest_rounds": [3, None], "four_of_a_kind": [0, 0]}


def test_gin_rummy_counts():
    # 1: A gin against 30: 55. 2: A knocks 5 against 20: 15. 3: a draw. 4: A gin against 40: 65, A reaches
    # 135 and wins; B won no hand: a shutout.
    records = [
        {"outcome": "gin", "knocker": A, "deadwood": [0, 30]},
        {"outcome": "knock", "knocker": A, "deadwood": [5, 20]},
        {"outcome": "draw"},
        {"outcome": "gin", "knocker": A, "deadwood": [0, 40]},
    ]
    assert figures("gin_rummy", 2, records) == {"boxes": [3, 0], "shutouts": [1, 0]}
    # B undercuts A's knock (8 against 5): 3 + 25, a box for B; A's gin against 90 then wins: no shutout.
    records = [
        {"outcome": "knock", "knocker": A, "deadwood": [8, 5]},
        {"outcome": "gin", "knocker": A, "deadwood": [0, 90]},
    ]
    assert figures("gin_rummy", 2, records) == {"boxes": [1, 1], "shutouts": [0, 0]}


def test_tabletop_cribbage_counts():
    # Game to 61. 1 (Ann deals): Bo's rows 20, Ann's columns 10. 2 (Bo deals): Ann's rows 30, Bo's
    # columns 12 (Ann 40, Bo 32). 3 (Ann deals): Bo's rows 29 take him to 61 at once, 21 ahead.
    records = [{"row_total": 20, "column_total": 10}, {"row_total": 30, "column_total": 12}, {"row_total": 29}]
    assert figures("tabletop_cribbage", 2, records, target=61) == {
        "row_points": [30, 49],
        "column_points": [10, 12],
        "winning_margin": [None, 21],
    }


# -- chip and token games -------------------------------------------------------------------------------


def test_toepen_counts():
    # Ten tokens each. 1: Ann wins at 4; Bo stayed in (-4), Cy folded at 1 (-1).
    # 2: Bo wins at 2; Ann lost a challenge and stayed (-1 -2), Cy stayed (-2).
    # 3: Cy wins at 6; Ann (-6) and Bo (-6) stayed: Bo runs out and loses.
    # Lost: Ann 3 + 6 = 9, Bo 4 + 6 = 10, Cy 1 + 2 = 3. Left: Ann 1, Bo 0, Cy 7.
    records = [
        {"winner": A, "value": 4, "folded_at": [0, 0, 1]},
        {"winner": B, "value": 2, "challenges_lost": [1, 0, 0]},
        {"winner": C, "value": 6},
    ]
    assert figures("toepen", 3, records) == {"tokens_lost": [9, 10, 3], "tokens_left": [1, 0, 7]}


def test_bura_counts():
    # Twenty tokens each, the ante 1. 1: Ann declares 35: takes the pot of 2 (+1, Bo -1).
    # 2: Bo declares only 20: pays the pot's 2 in (-3, Ann -1); 4 carried. 3: a draw: the pot grows to 6
    # (-1 each). 4: Bo's bura takes 8 (+7, Ann -1). The table calls the end: Ann 18, Bo 22.
    # Won: Ann 1, Bo 7. Lost: Ann 1 + 1 + 1 = 3, Bo 1 + 3 + 1 = 5. Pots: one each.
    records = [
        {"outcome": "declaration", "side": A, "points": 35},
        {"outcome": "declaration", "side": B, "points": 20},
        {"outcome": "draw"},
        {"outcome": "bura", "side": B},
    ]
    assert figures("bura", 2, records, call=True) == {"tokens_won": [1, 7], "tokens_lost": [3, 5], "pots_taken": [1, 1]}


def test_calabrasella_counts():
    # 1: Ann declares, 20 to 12: each defender pays her 8. 2: Bo declares, 10 to 25: he pays each 15.
    # 3: all pass. 4: Cy takes all 35: each pays him 70. 5: Ann declares, 15 to 15: nobody pays.
    # Won: Ann 16 + 15 = 31, Bo 0, Cy 15 + 140 = 155. Lost: Ann 70, Bo 8 + 30 + 70 = 108, Cy 8.
    # As declarer: Ann won 1 (the tie is neither), Bo lost 1, Cy won 1.
    records = [
        {"declarer": A, "declarer_points": 20, "defender_points": 12},
        {"declarer": B, "declarer_points": 10, "defender_points": 25},
        {"declarer": None},
        {"declarer": C, "declarer_points": 35, "defender_points": 0},
        {"declarer": A, "declarer_points": 15, "defender_points": 15},
    ]
    assert figures("calabrasella", 3, records, call=True) == {
        "chips_won": [31, 0, 155],
        "chips_lost": [70, 108, 8],
        "declarer_won": [1, 0, 1],
        "declarer_lost": [0, 1, 0],
    }


# -- race games ---------------------------------------------------------------------------------------------


def test_california_speed_counts():
    # Recording draws: Ann, a draw, Ann, Ann, Bo; called: Ann 3 to 1. In a row: Ann 2, Bo 1; one draw.
    records = [{"winner": w} for w in (A, None, A, A, B)]
    assert figures("california_speed", 2, records, call=True, simultaneous_out="draw") == {
        "longest_run": [2, 1],
        "drawn_games": [1, 1],
    }
    # A table that plays a drawn game again records none: no drawn games to count.
    assert figures("california_speed", 2, [{"winner": B}] * 2, games_to_win=2) == {
        "longest_run": [0, 2],
        "drawn_games": [None, None],
    }


def test_aggravation_counts():
    # First to 3: Bo, then Ann three times. In a row: Ann 3, Bo 1.
    assert figures("aggravation", 2, [{"winner": w} for w in (B, A, A, A)], games_to_win=3) == {"longest_run": [3, 1]}


def test_frustration_counts():
    # Ann, Ann, Bo, Ann; the table calls the end. In a row: Ann 2, Bo 1.
    assert figures("frustration", 2, [{"winner": w} for w in (A, A, B, A)], call=True) == {"longest_run": [2, 1]}


def test_machiavelli_counts():
    # First to 3: Cy, Cy, the stock runs out (nobody), Bo, Cy. In a row: Cy 2, Bo 1, Ann 0; one game
    # nobody won.
    records = [{"winner": C}, {"winner": C}, {"ending": "stock_exhausted"}, {"winner": B}, {"winner": C}]
    assert figures("machiavelli", 3, records, games_to_win=3) == {"longest_run": [0, 1, 2], "no_winner": [1, 1, 1]}


def test_myllymatti_counts():
    # Three losses end it: Ann loses (Bo out first), Ann (Cy first), Bo (nobody noted), Ann (Bo first).
    # Lost: Ann 3, Bo 1, Cy 0. Out first: Bo 2, Cy 1.
    records = [{"loser": A, "first_out": B}, {"loser": A, "first_out": C}, {"loser": B}, {"loser": A, "first_out": B}]
    assert figures("myllymatti", 3, records, games_to_lose=3) == {"games_lost": [3, 1, 0], "first_out": [0, 2, 1]}


def test_speed_tournament_counts():
    # Four in: Cy goes out, then Ann; Di beats Bo in the final.
    # Rounds survived: Ann 1, Bo 2, Cy 0, Di 3. The final: Bo and Di. Places: Di 1, Bo 2, Ann 3, Cy 4.
    records = [{"eliminated": C}, {"eliminated": A}, {"winner": D}]
    assert figures("speed_tournament", 4, records) == {
        "rounds_survived": [1, 2, 0, 3],
        "finals_reached": [0, 1, 0, 1],
        "best_place": [3, 2, 4, 1],
    }
