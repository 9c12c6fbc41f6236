"""Machiavelli: worked examples of api/races.md "Sessions" and `machiavelli` (S3:204-226,
ruling 8), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.machiavelli import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("machiavelli")
TABLE = GAME.table(3)
A, B, C = 0, 1, 2
STUCK = {"ending": "stock_exhausted"}
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "machiavelli.html"


def out(side: int) -> dict:
    return {"winner": side}  # ending "out" is the default


def stuck(*cards_left: int) -> dict:
    return {"ending": "stock_exhausted", "cards_left": list(cards_left)}


def start(players: int = 3, **options):
    table = GAME.table(players)
    return GAME.new_state(table, GAME.parse_options(options, table))


def play_all(state, records):
    hand = None
    for record in records:
        hand = GAME.play(state, record)
        state = hand.state
    return state, hand


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


# -- declarations ---------------------------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["players"], described["partnerships"]) == ({"min": 2, "max": 5}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "games_to_win", "stock_exhausted"]
    assert options["stock_exhausted"]["choices"] == ["no_winner", "fewest_cards"]
    assert options["stock_exhausted"]["default"] == "no_winner"
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["ending", "winner", "cards_left"]
    assert (fields["ending"]["choices"], fields["ending"]["default"]) == (["out", "stock_exhausted"], "out")
    assert fields["winner"]["type"] == "side" and fields["winner"]["when"]["values"] == ["out"]
    assert fields["cards_left"]["type"] == "per_side" and fields["cards_left"]["when"]["values"] == ["stock_exhausted"]
    assert (fields["cards_left"]["min"], fields["cards_left"]["max"]) == (1, 104)


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players):
    # ruling 3: S3:204
    with pytest.raises(RecordError, match="2 to 5 players"):
        GAME.table(players)


def test_the_form_asks_for_card_counts_only_where_the_fewest_win():
    assert [f.name for f in GAME.form_fields(start())] == ["ending", "winner"]
    counted = GAME.form_fields(start(stock_exhausted="fewest_cards"))
    assert [f.name for f in counted] == ["ending", "winner", "cards_left"]


# -- refusals (api: "Refused (422)") --------------------------------------------------------------


@pytest.mark.parametrize("stock_exhausted", ["no_winner", "fewest_cards"])
def test_a_winner_is_refused_when_the_stock_ran_out(stock_exhausted):
    # the app decides who won a stuck game
    record = {"ending": "stock_exhausted", "winner": A, "cards_left": [1, 2, 3]}
    error = refused(start(stock_exhausted=stock_exhausted), record)
    assert error.fields.keys() == {"winner"}


@pytest.mark.parametrize("stock_exhausted", ["no_winner", "fewest_cards"])
def test_card_counts_are_refused_with_a_player_out(stock_exhausted):
    error = refused(start(stock_exhausted=stock_exhausted), {"winner": A, "cards_left": [1, 2, 3]})
    assert error.fields.keys() == {"cards_left"}


def test_card_counts_are_refused_where_nobody_wins_a_stuck_game():
    assert refused(start(), stuck(1, 2, 3)).fields.keys() == {"cards_left"}


def test_a_missing_winner_is_refused_with_a_player_out():
    for record in ({}, {"ending": "out"}):
        assert refused(start(), record).fields.keys() == {"winner"}


def test_missing_card_counts_are_refused_where_the_fewest_win():
    for record in (STUCK, {**STUCK, "cards_left": None}):
        assert refused(start(stock_exhausted="fewest_cards"), record).fields.keys() == {"cards_left"}


@pytest.mark.parametrize("cards_left", [[0, 5, 5], [105, 1, 1], [1, 2], [1, 2, 3, 4], [50, 50, 5], ["x", 1, 1]])
def test_card_counts_are_one_to_104_each_and_104_in_all(cards_left):
    # ruling 8: a player with no card would have gone out; two packs (S3:212)
    error = refused(start(stock_exhausted="fewest_cards"), stuck(*cards_left))
    assert error.fields.keys() == {"cards_left"}


def test_104_cards_in_all_are_taken():
    state, hand = play_all(start(stock_exhausted="fewest_cards"), [stuck(100, 2, 2)])
    assert hand.changes == [0, 0, 0]  # B and C share the fewest


def test_a_bad_ending_is_refused():
    assert refused(start(), {"ending": "abandoned"}).fields.keys() == {"ending"}


# -- scoring --------------------------------------------------------------------------------------


def test_going_out_wins_the_game():
    # S3:226
    state, hand = play_all(start(), [out(C)])
    assert hand.changes == [0, 0, 1] and GAME.scores(state) == [0, 0, 1]
    assert [(str(r), r.rule) for r in hand.reasons] == [("C wins the game: 1 game won", "going-out")]
    assert GAME.public_state(state) == {"no_winner": 0}


def test_a_stuck_game_has_no_winner_by_default():
    # ruling 8
    state, hand = play_all(start(first_dealer=2), [out(A), STUCK])
    assert hand.changes == [0, 0, 0] and GAME.scores(state) == [1, 0, 0]
    assert GAME.public_state(state) == {"no_winner": 1}
    assert hand.reasons[0].rule == "stock-exhausted" and "nobody wins" in str(hand.reasons[0])
    assert state.dealer == 1  # the deal still passes: 2 -> 0 -> 1


def test_under_fewest_cards_the_fewest_win():
    state, hand = play_all(start(stock_exhausted="fewest_cards"), [stuck(7, 3, 12)])
    assert hand.changes == [0, 1, 0] and GAME.public_state(state) == {"no_winner": 0}
    assert [str(r) for r in hand.reasons] == [
        "The stock ran out: B holds the fewest cards (3)",
        "B wins the game: 1 game won",
    ]


def test_under_fewest_cards_equal_fewest_means_nobody_wins():
    state, hand = play_all(start(stock_exhausted="fewest_cards"), [stuck(4, 9, 4)])
    assert hand.changes == [0, 0, 0] and GAME.public_state(state) == {"no_winner": 1}
    assert "A and C share the fewest cards (4)" in str(hand.reasons[0])


def test_five_players_each_score_their_own_games():
    state, _ = play_all(start(5, stock_exhausted="fewest_cards"), [out(4), out(3), stuck(9, 9, 9, 2, 9), out(0)])
    assert GAME.scores(state) == [1, 0, 0, 2, 1]


# -- the deal and the end -------------------------------------------------------------------------


def test_the_deal_passes_round_the_table():
    state = start(4, first_dealer=3)
    dealers = []
    for record in (out(A), STUCK, out(A), out(B), out(C)):
        state = GAME.play(state, record).state
        dealers.append(state.dealer)
    assert dealers == [0, 1, 2, 3, 0]


def test_games_to_win_ends_the_session():
    state, hand = play_all(start(games_to_win=2), [out(A), STUCK, out(B), out(B)])
    result = GAME.result(state)
    assert (result.over, result.winner) == (True, B) and hand.reasons[-1].rule == "session"
    assert "over" in refused(state, out(A)).message


def test_nobody_winning_never_ends_the_session():
    state, _ = play_all(start(games_to_win=1), [STUCK] * 4)
    assert not GAME.result(state).over


def test_finish_most_games_wins_shared_most_is_a_draw():
    state, _ = play_all(start(), [out(A), out(B), out(A)])
    assert GAME.result(state, called=True).winner == A
    state, _ = play_all(state, [out(B)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None) and "draw" in result.headline
    assert GAME.result(state).headline == "A and B share the lead, games won 2-2-0"


def test_an_edit_that_ends_the_session_sooner_breaks_a_later_game():
    options = GAME.parse_options({"games_to_win": 1}, TABLE)
    records = [STUCK, out(A)]
    assert replay(GAME, TABLE, options, records).state.nobody == 1
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [out(B), out(A)])
    assert caught.value.number == 2


def test_every_rule_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))
    assert {rule.value for rule in Rule} <= ids


# -- properties -----------------------------------------------------------------------------------

RECORDS = {  # by the number of players
    players: st.one_of(
        st.sampled_from(range(players)).map(out),
        st.just(STUCK),
        st.lists(st.integers(1, 20), min_size=players, max_size=players).map(lambda counts: stuck(*counts)),
    )
    for players in range(GAME.min_players, GAME.max_players + 1)
}
STRATEGIES = Strategies(
    options={
        "games_to_win": st.one_of(st.none(), st.integers(1, 5)),
        "stock_exhausted": st.sampled_from(["no_winner", "fewest_cards"]),
    },
    record=lambda state: RECORDS[state.table.players],
    refused=True,  # card counts, or none, where the house rule asks the other
    most=20,
    raw=st.dictionaries(
        st.sampled_from(["ending", "winner", "cards_left"]),
        json_values(st.integers(-2, 110)) | st.sampled_from(["out", "stock_exhausted", [1, 2, 3]]),
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_every_game_has_one_winner_or_none(match):
    state = replay(GAME, *match).state
    assert sum(GAME.scores(state)) + state.nobody == len(match.records)


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann goes out.
COMMONEST = Commonest((choose("Who went out?", "Ann"),), taps=2)

COMMON = (
    # The stock runs out before anyone goes out.
    Commonest((choose("How did the game end?", "Stock exhausted"),), taps=2),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_machiavelli_counts():
    # First to 3: Cy, Cy, the stock runs out (nobody), Bo, Cy. In a row: Cy 2, Bo 1, Ann 0; one game
    # nobody won.
    records = [{"winner": C}, {"winner": C}, {"ending": "stock_exhausted"}, {"winner": B}, {"winner": C}]
    assert figures("machiavelli", 3, records, games_to_win=3) == {"longest_run": [0, 1, 2], "no_winner": [1, 1, 1]}
