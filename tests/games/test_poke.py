"""Poke scoring, from worked examples of RULES.md 1.3 (seed S4:49-80), edge rules first.

Unless a test says otherwise, A (seat 0) deals the first hand, so B is the non-dealer of hands
1, 3, 5... and A of hands 2, 4, 6... (the deal alternates, S4:77).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import RecordError, get_game, replay
from scorekeeper.games.poke import PokeState, Rule
from scorekeeper.games.statistics import board_moves
from scorekeeper.records.stories.stats import seat_figures
from tests.games.counted import figures, finished

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("poke")
TABLE = GAME.table(2)
TEMPLATE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "poke.html"
A, B = 0, 1
DECK = [rank + suit for rank in "AKQJT98765432" for suit in "SHDC"]
HONOURS = {  # S4:67-75; high card 0 (PK-Q4)
    "royal_flush": 1000,
    "straight_flush": 750,
    "four_of_a_kind": 600,
    "full_house": 500,
    "flush": 400,
    "straight": 300,
    "three_of_a_kind": 200,
    "two_pair": 100,
    "one_pair": 50,
    "high_card": 0,
}


def start(**options) -> PokeState:
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def record(tricks, draws=(0, 0), better=None, category=None, cards=None) -> dict:
    out = {"tricks": list(tricks), "draws": list(draws)}
    if better is not None:
        out["better_hand"] = better
        out["poker_hand"] = category
    if cards is not None:
        out["cards"] = cards
    return out


def play(state, *args, **kwargs):
    return GAME.play(state, record(*args, **kwargs))


def sweep_game(state, side):
    """`side` takes all five tricks with the opponent redoubled: 20 below, a game at the default target."""
    draws = [0, 0]
    draws[1 - side] = 3 if state.dealer == 1 - side else 2
    tricks = [0, 0]
    tricks[side] = 5
    return play(state, tricks, draws)


def refusal(state, raw) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, raw)
    return caught.value


# -- the declarations match API.md ------------------------------------------------------------


def test_declared_fields_match_the_api():
    described = GAME.describe()
    assert described["players"] == {"min": 2, "max": 2} and described["partnerships"] is False
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["tricks", "draws", "better_hand", "poker_hand", "cards"]
    assert fields["tricks"]["type"] == "per_side" and fields["tricks"]["required"]
    assert (fields["draws"]["min"], fields["draws"]["max"]) == (0, 3)
    assert fields["better_hand"]["type"] == "side" and fields["better_hand"]["default"] is None
    assert fields["poker_hand"]["choices"] == list(HONOURS)[::-1]
    assert fields["cards"]["type"] == "cards"
    options = {fld["name"]: fld.get("default") for fld in described["options"]}
    assert options == {
        "first_dealer": 0,
        "game_target": 20,
        "game_bonus": 100,
        "rubber_bonus_2_1": 500,
        "rubber_bonus_2_0": 750,
        "sweep_bonus": 250,
    }


def test_options_out_of_range_are_refused():
    with pytest.raises(RecordError, match="at least 1"):
        GAME.parse_options({"game_target": 0}, TABLE)
    with pytest.raises(RecordError, match="not a field"):
        GAME.parse_options({"honours_tie": "none"}, TABLE)
    with pytest.raises(RecordError, match="2 players"):
        GAME.table(3)


# -- doubling: a player's own draws multiply the opponent's tricks (S4:59-60, S4:65, PK-Q1/Q2) -----


@pytest.mark.parametrize("non_dealer_draws, times", [(0, 1), (1, 2), (2, 4)])
def test_non_dealer_draws_multiply_the_dealers_tricks(non_dealer_draws, times):
    # A deals, B draws: A's 3 tricks count x1/x2/x4 (S4:59); B's 2 tricks stay x1 (A stood pat).
    done = play(start(), [3, 2], [0, non_dealer_draws])
    assert done.state.below == (3 * times, 2)
    assert done.changes == [3 * times, 2]


@pytest.mark.parametrize("dealer_draws, times", [(0, 1), (1, 1), (2, 2), (3, 4)])
def test_dealer_draws_multiply_the_non_dealers_tricks(dealer_draws, times):
    # A deals: the first draw is free, the 2nd doubles, the 3rd redoubles (S4:60); B's tricks pay.
    done = play(start(), [3, 2], [dealer_draws, 0])
    assert done.state.below == (3, 2 * times)


@pytest.mark.parametrize("dealer_draws, times", [(0, 1), (1, 1), (2, 2), (3, 4)])
@pytest.mark.parametrize("non_dealer_draws, their_times", [(0, 1), (1, 2), (2, 4)])
def test_doubling_roles_follow_the_deal(dealer_draws, times, non_dealer_draws, their_times):
    # B deals the first hand (first_dealer 1): now B is allowed three draws and A two (S4:59-60).
    done = play(start(first_dealer=1, game_target=100), [1, 4], [non_dealer_draws, dealer_draws])
    assert done.state.below == (1 * times, 4 * their_times)
    # Hand 2 is dealt by A (S4:77): the roles swap.
    again = play(done.state, [1, 4], [dealer_draws, non_dealer_draws])
    assert again.changes == [1 * their_times, 4 * times]
    assert again.state.below == (times + their_times, 4 * their_times + 4 * times)


def test_reason_lines_say_why_tricks_were_multiplied():
    done = play(start(), [2, 3], [3, 2])  # A deals and redoubles (3 draws); B redoubles (2 draws)
    texts = [str(reason) for reason in done.reasons]
    assert texts[:2] == [
        "A: 2 tricks x4 (B, non-dealer, drew twice: redoubled) = 8 below the line",
        "B: 3 tricks x4 (A, dealer, drew 3 times: redoubled) = 12 below the line",
    ]
    single = play(start(), [4, 1], [1, 1])
    assert [str(reason) for reason in single.reasons][:2] == [
        "A: 4 tricks x2 (B, non-dealer, drew once: doubled) = 8 below the line",
        "B: 1 trick = 1 below the line",  # the dealer's first draw is free (S4:60)
    ]


# -- honours above the line (S4:66-76, PK-Q3, PK-Q4) ---------------------------------------------


@pytest.mark.parametrize("category, points", list(HONOURS.items()))
def test_each_category_scores_its_honours_above_the_line(category, points):
    done = play(start(), [3, 2], better=B, category=category)
    assert done.state.above == (0, points)
    assert GAME.scores(done.state) == [0, points]
    assert done.changes == [3, 2 + points]


def test_high_card_scores_no_honours_but_says_so():
    done = play(start(), [3, 2], better=A, category="high_card")  # PK-Q4
    assert done.state.above == (0, 0)
    assert "A: better hand, high card: no honours for high card" in [str(r) for r in done.reasons]


def test_equal_hands_score_no_honours():
    done = play(start(), [3, 2], better=None)  # PK-Q3: better_hand null
    assert done.state.above == (0, 0)
    assert "equal poker hands: no honours" in [str(r) for r in done.reasons]
    explicit = GAME.play(start(), {"tricks": [3, 2], "draws": [0, 0], "better_hand": None, "poker_hand": None})
    assert explicit.state == done.state


def test_honours_are_never_multiplied_by_doubling():
    done = play(start(), [3, 2], [3, 2], better=A, category="flush")
    assert done.state.above == (400, 0)
    assert done.state.below == (12, 8)


# -- cards instead of naming the better hand (PK-Q5, PK-Q12) ------------------------------------


def test_cards_decide_the_better_hand():
    cards = [["KH", "TH", "8H", "4H", "2H"], ["JS", "JD", "4C", "4S", "AS"]]
    done = play(start(), [2, 3], cards=cards)
    assert done.state.above == (400, 0)
    assert "A: flush beats two pair: +400 honours" in [str(r) for r in done.reasons]


def test_cards_of_the_same_category_go_by_kickers():
    cards = [["9S", "9D", "KC", "7H", "2S"], ["9H", "9C", "KD", "7S", "3D"]]
    done = play(start(), [2, 3], cards=cards)
    assert done.state.above == (0, 50)
    assert "B: the higher one pair: +50 honours" in [str(r) for r in done.reasons]


def test_the_wheel_loses_to_a_six_high_straight():
    cards = [["AS", "2D", "3C", "4H", "5S"], ["6S", "2H", "3D", "4C", "5D"]]
    done = play(start(), [2, 3], cards=cards)
    assert done.state.above == (0, 300)


def test_equal_cards_score_no_honours():
    cards = [["AS", "QD", "9C", "6H", "3S"], ["AD", "QS", "9H", "6C", "3D"]]
    done = play(start(), [2, 3], cards=cards)
    assert done.state.above == (0, 0)
    assert "equal poker hands (high card each): no honours" in [str(r) for r in done.reasons]


def test_cards_with_only_high_card_better_score_nothing():
    cards = [["AS", "QD", "9C", "6H", "3S"], ["KD", "QS", "9H", "6C", "3D"]]
    done = play(start(), [2, 3], cards=cards)
    assert done.state.above == (0, 0)


def test_cards_written_loosely_are_refused():
    # A card is its two-character code (API.md); the page's form reads "10h" or "as" into one first.
    with pytest.raises(RecordError):
        GAME.play(start(), {"tricks": [2, 3], "draws": [0, 0], "cards": ["ah kh qh jh 10h", "2c,2d,3s,4s,5s"]})


# -- the sweep (S4:76, PK-Q9) -------------------------------------------------------------------


def test_sweep_is_a_flat_bonus_and_its_tricks_still_score_below():
    done = play(start(), [5, 0])
    assert done.state.above == (250, 0) and done.state.below == (5, 0)
    assert done.changes == [255, 0]
    assert [str(r) for r in done.reasons] == [
        "A: 5 tricks = 5 below the line",
        "equal poker hands: no honours",
        "A: sweep +250",
    ]


def test_sweep_bonus_is_not_multiplied():
    done = play(start(), [0, 5], [2, 0])  # A (dealer) drew twice: B's tricks x2, the sweep stays 250
    assert done.state.above == (0, 250) and done.state.below == (0, 10)


def test_sweep_bonus_follows_its_option():
    done = play(start(sweep_bonus=300), [5, 0])
    assert done.state.above == (300, 0)


# -- game (S4:79, PK-Q6, PK-Q7) -----------------------------------------------------------------


def test_reaching_20_wins_the_game_and_clears_below():
    state = play(start(), [4, 1], [0, 2]).state  # A 16, B 1
    assert state.below == (16, 1)
    done = play(state, [2, 3], [2, 0])  # B deals, A drew twice: B's 3 -> 12; A's 2 tricks x1 -> 18
    assert done.state.below == (18, 13) and done.game_winner is None
    done = play(done.state, [2, 3])  # A deals: A 20, B 16
    assert done.game_winner == A
    assert done.state.below == (0, 0) and done.state.games == (1, 0)
    assert done.state.above == (100, 0)
    assert done.changes == [2 + 100, 3]  # the hand still shows its trick points
    assert "A wins game 1: +100" in [str(r) for r in done.reasons]
    assert GAME.public_state(done.state)["game_number"] == 2


def test_a_tie_at_20_plays_on_and_below_keeps_counting():
    state = play(start(), [4, 1], [3, 2]).state  # x4 both: A 16, B 4
    tied = play(state, [1, 4], [2, 3])  # B deals; x4 both: A 20, B 20
    assert tied.game_winner is None
    assert tied.state.below == (20, 20) and tied.state.games == (0, 0)
    assert "A and B tie on 20 below the line: play on" in [str(r) for r in tied.reasons]
    broken = play(tied.state, [3, 2])  # A 23, B 22: the tie is broken, A wins
    assert broken.game_winner == A
    assert broken.state.games == (1, 0) and broken.state.below == (0, 0)


def test_both_past_20_unequal_the_higher_wins():
    state = play(start(), [3, 2], [3, 2]).state  # A 12, B 8
    state = play(state, [2, 3], [1, 2]).state  # B deals: A 12+4, B 8+6
    assert state.below == (16, 14)
    done = play(state, [2, 3], [3, 2])  # A 24, B 26: both past 20, B higher (PK-Q6)
    assert done.game_winner == B
    assert done.state.games == (0, 1) and done.state.above == (0, 100)


def test_game_target_and_game_bonus_follow_their_options():
    done = play(start(game_target=5, game_bonus=30), [4, 1], [0, 1])  # A 8 >= 5
    assert done.game_winner == A and done.state.above == (30, 0)


def test_deal_alternates_across_games():
    state = start(first_dealer=1)
    dealers = []
    for side in (A, B, A):
        dealers.append(state.dealer)
        state = sweep_game(state, side).state
    assert dealers == [1, 0, 1] and state.dealer == 0


# -- rubber and the final result (S4:80, PK-Q8, PK-Q11) -------------------------------------------


def test_rubber_two_games_to_nil():
    state = sweep_game(start(), A).state
    done = sweep_game(state, A)
    assert done.state.games == (2, 0)
    # each game: 250 sweep + 100 game; the second adds 750 (the loser has no game)
    assert done.state.above == (250 + 100 + 250 + 100 + 750, 0)
    assert done.changes == [20 + 250 + 100 + 750, 0]
    texts = [str(r) for r in done.reasons]
    assert "A wins game 2: +100" in texts and "A wins the rubber 2-0: +750" in texts
    assert texts[-1] == "A wins 1450 to 0 above the line and the rubber 2-0"
    result = GAME.result(done.state)
    assert result.over and result.winner == A


def test_a_sweep_at_20_then_the_rubber_with_honours_to_the_loser():
    # A deals and draws three times: B's five tricks are 5 x 4 = 20 below, a game, and a sweep (S4:60,
    # S4:76, S4:79); nothing stays below the line.
    done = play(start(), [0, 5], [3, 0])
    assert done.changes == [0, 20 + 250 + 100]
    assert (done.state.below, done.state.games, done.state.above) == ((0, 0), (0, 1), (0, 350))
    assert done.state.dealer == B and not GAME.result(done.state).over
    # B deals; A, the non-dealer, draws twice: B's tricks x4 again, the second game and the rubber
    # 2-0 (S4:80), while A's pair is the better hand: its honours go above A's line all the same.
    done = play(done.state, [0, 5], [2, 0], better=A, category="one_pair")
    assert done.changes == [50, 20 + 250 + 100 + 750]
    assert done.state.above == (50, 350 + 250 + 100 + 750) and done.state.games == (0, 2)
    result = GAME.result(done.state)
    assert (result.over, result.winner) == (True, B) and done.state.dealer is not None


def test_rubber_two_games_to_one():
    state = start()
    for side in (A, B, A):
        done = sweep_game(state, side)
        state = done.state
    assert state.games == (2, 1)
    assert state.above == (2 * 350 + 500, 350)
    assert "A wins the rubber 2-1: +500" in [str(r) for r in done.reasons]
    assert GAME.result(state).headline == "A wins 1200 to 350 above the line and the rubber 2-1"


def test_rubber_bonuses_follow_their_options():
    state = start(rubber_bonus_2_0=1, rubber_bonus_2_1=2)
    assert sweep_game(sweep_game(state, B).state, B).state.above == (0, 2 * 350 + 1)
    assert sweep_game(sweep_game(sweep_game(state, A).state, B).state, B).state.above == (350, 2 * 350 + 2)


def test_the_rubber_winner_can_lose_on_total():
    # B holds a royal flush twice (2000 honours); A takes the rubber 2-0 (350 + 350 + 750 = 1450).
    state = play(start(), [2, 3], better=B, category="royal_flush").state
    state = play(state, [2, 3], better=B, category="royal_flush").state
    state = sweep_game(sweep_game(state, A).state, A).state
    result = GAME.result(state)
    assert result.over and result.winner == B  # totals above the line only (S4:80, PK-Q8)
    assert result.headline == "B wins 2000 to 1450 above the line, though A won the rubber 2-0"
    assert GAME.public_state(state)["below"] == [0, 0]


def test_equal_totals_are_a_draw():
    # Without sweep and rubber bonuses A's rubber is worth two game bonuses: 200 above the line.
    state = start(rubber_bonus_2_0=0, sweep_bonus=0)
    state = play(state, [2, 3], better=B, category="three_of_a_kind").state  # B 200
    state = sweep_game(sweep_game(state, A).state, A).state
    result = GAME.result(state)
    assert result.over and result.winner is None  # PK-Q11
    assert result.headline == "Draw: both have 200 above the line (A won the rubber 2-0)"


def test_no_hand_after_the_rubber():
    state = sweep_game(sweep_game(start(), A).state, A).state
    error = refusal(state, record([3, 2]))
    assert "match is over" in error.message


def test_progress_headline_and_public_state():
    state = play(start(), [3, 2], better=A, category="one_pair").state
    assert GAME.result(state).headline == "Game 1: below the line A 3, B 2; games 0-0"
    assert GAME.public_state(state) == {
        "above": [50, 0],
        "below": [3, 2],
        "games": [0, 0],
        "game_target": 20,
        "game_number": 1,
    }
    assert state.dealer == B and state.hands == 1


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, field, words",
    [
        ({"draws": [0, 0]}, "tricks", "Tricks must be given"),
        ({"tricks": [3, 3], "draws": [0, 0]}, "tricks", "The tricks add up to 6; a hand has 5."),
        ({"tricks": [6, -1], "draws": [0, 0]}, "tricks", "at most 5"),
        ({"tricks": [5], "draws": [0, 0]}, "tricks", "one per side"),
        ({"tricks": [3, 2]}, "draws", "Draws must be given"),
        ({"tricks": [3, 2], "draws": [0, 3]}, "draws", "the non-dealer can draw at most twice"),
        ({"tricks": [3, 2], "draws": [4, 0]}, "draws", "at most 3"),
        ({"tricks": [3, 2], "draws": [0, 0], "better_hand": 1}, "poker_hand", "Poker hand must be given"),
        ({"tricks": [3, 2], "draws": [0, 0], "better_hand": 1, "poker_hand": None}, "poker_hand", "must be given"),
        ({"tricks": [3, 2], "draws": [0, 0], "poker_hand": "flush"}, "poker_hand", "leave it out"),
        ({"tricks": [3, 2], "draws": [0, 0], "better_hand": None, "poker_hand": "flush"}, "poker_hand", "leave it out"),
        ({"tricks": [3, 2], "draws": [0, 0], "better_hand": 0, "poker_hand": "pair"}, "poker_hand", "one of"),
        ({"tricks": [3, 2], "draws": [0, 0], "better_hand": 2, "poker_hand": "flush"}, "better_hand", "side"),
        (
            {
                "tricks": [3, 2],
                "draws": [0, 0],
                "better_hand": 0,
                "poker_hand": "flush",
                "cards": [DECK[:5], DECK[5:10]],
            },
            "cards",
            "not both",
        ),
        (
            {"tricks": [3, 2], "draws": [0, 0], "poker_hand": "flush", "cards": [DECK[:5], DECK[5:10]]},
            "cards",
            "not both",
        ),
        ({"tricks": [3, 2], "draws": [0, 0], "cards": [DECK[:5], DECK[4:9]]}, "cards", "appears twice"),
        ({"tricks": [3, 2], "draws": [0, 0], "cards": [DECK[:5], ["XX"] + DECK[5:9]]}, "cards", "not a card"),
        ({"tricks": [3, 2], "draws": [0, 0], "cards": [DECK[:4], DECK[5:10]]}, "cards", "5 cards"),
        ({"tricks": [3, 2], "draws": [0, 0], "dealer": 1}, "dealer", "not a field"),
    ],
)
def test_bad_records_are_refused_with_a_message_naming_the_field(raw, field, words):
    error = refusal(start(), raw)
    assert words in error.message
    assert field in error.fields


def test_the_draw_limit_follows_the_dealer():
    # Hand 1: A deals, so B may not draw 3 times but A may; hand 2: the other way round.
    assert play(start(), [3, 2], [3, 0]).state.below == (3, 8)
    error = refusal(start(), record([3, 2], [0, 3]))
    assert error.message == "Draws: B is the non-dealer this hand, and the non-dealer can draw at most twice."
    second = play(start(), [3, 2]).state
    assert play(second, [3, 2], [0, 3]).state.below == (3 + 12, 2 + 2)
    assert "A is the non-dealer" in refusal(second, record([3, 2], [3, 0])).message


@pytest.mark.parametrize("raw", [None, 5, "tricks", [3, 2], {"tricks": "3,2", "draws": [0, 0]}])
def test_records_that_are_not_objects_of_fields_are_refused(raw):
    refusal(start(), raw)


# -- the rules page -----------------------------------------------------------------------------


def test_every_rule_a_reason_links_to_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', TEMPLATE.read_text()))
    assert {rule.value for rule in Rule} <= ids


# -- properties ---------------------------------------------------------------------------------

CATEGORIES = list(HONOURS)


@st.composite
def hands(draw):
    """A hand by role, so it is valid whoever deals: (dealer's tricks, draws by role, honours)."""
    dealer_tricks = draw(st.integers(0, 5))
    draws = (draw(st.integers(0, 3)), draw(st.integers(0, 2)))  # (dealer, non-dealer)
    kind = draw(st.sampled_from(["equal", "named", "cards"]))
    honours: dict = {}
    if kind == "named":
        honours = {"better_hand": draw(st.integers(0, 1)), "poker_hand": draw(st.sampled_from(CATEGORIES))}
    elif kind == "cards":
        cards = draw(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
        honours = {"cards": [cards[:5], cards[5:]]}
    return dealer_tricks, draws, honours


def materialise(hand, dealer: int) -> dict:
    dealer_tricks, (dealer_draws, non_dealer_draws), honours = hand
    tricks, draws = [0, 0], [0, 0]
    tricks[dealer], tricks[1 - dealer] = dealer_tricks, 5 - dealer_tricks
    draws[dealer], draws[1 - dealer] = dealer_draws, non_dealer_draws
    return {"tricks": tricks, "draws": draws, **honours}


HANDS = {dealer: hands().map(lambda hand, dealer=dealer: materialise(hand, dealer)) for dealer in (A, B)}


def sweeps(games: int) -> PokeState:
    """A new rubber after A, B and A have swept `games` games (three: the rubber is over)."""
    state = start()
    for side in (A, B, A)[:games]:
        state = sweep_game(state, side).state
    return state


def nothing_above_is_taken_back(before, done) -> None:
    assert sum(done.state.below) + sum(done.state.above) >= sum(before.above)


json_like = json_values(st.integers(-10, 10), max_text=5)
plausible = (
    json_like
    | st.lists(st.integers(-1, 6), min_size=0, max_size=3)
    | st.sampled_from(CATEGORIES)
    | st.lists(st.lists(st.sampled_from(DECK + ["XX", "10h"]), min_size=4, max_size=6), max_size=3)
)
STRATEGIES = Strategies(
    options={"game_target": st.sampled_from([1, 5, 12, 20, 40])},
    record=lambda state: HANDS[state.dealer],
    most=12,
    raw=json_like
    | st.dictionaries(
        st.sampled_from(["tricks", "draws", "better_hand", "poker_hand", "cards"]), plausible, max_size=5
    ),
    states=st.integers(0, 3).map(sweeps),
    taken=nothing_above_is_taken_back,
)


@settings(FAST, max_examples=100)
@given(matches(GAME, STRATEGIES, most=14))
def test_games_are_called_exactly_when_due(match):
    target = match.options["game_target"]
    done = replay(GAME, *match)
    state = done.start
    for result in done.results:
        new = result.state
        assert max(new.games) <= 2 and sum(new.games) <= 3
        # After a hand nobody leads alone at or past the target: that game was called (S4:79).
        assert not (max(new.below) >= target and new.below[0] != new.below[1])
        assert (result.game_winner is not None) == (new.games != state.games)
        assert all(after >= before for after, before in zip(new.above, state.above))
        assert GAME.scores(new) == list(new.above)
        if result.game_winner is None:
            for side in (0, 1):
                written = new.above[side] - state.above[side] + new.below[side] - state.below[side]
                assert result.changes[side] == written
        state = new


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann takes 3 tricks (Bob the other 2), nobody draws (preset 0), Ann's pair is the better hand.
COMMONEST = Commonest(
    (choose("Tricks", "Ann", "3"), choose("Better hand", "Ann"), choose("Poker hand", "One pair")), taps=4, most=4
)

COMMON = (
    # The other player's better hand; equal hands.
    Commonest((choose("Tricks", "Bob", "4"), choose("Better hand", "Bob"), choose("Poker hand", "Two pair")), taps=4),
    Commonest((choose("Tricks", "Ann", "2"), choose("Better hand", "Nobody")), taps=3),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_poke_counts():
    # Hand 1 (A deals): B draws twice (redoubled), so A's five tricks score 20 below: game to A (+100)
    # and A's sweep (+250); B's flush +400. Above: A 350, B 400.
    # Hand 2 (B deals): A draws twice; B's five tricks 20 below: game to B (+100), sweep +250, and B's
    # royal flush +1000. Above: A 350, B 1750.
    # Hand 3 (A deals): as hand 1, with A's pair +50: game and rubber to A, 2-1 (+100, +500, +250).
    # Above: A 350 + 50 + 250 + 100 + 500 = 1250, B 1750: A won the rubber, B the match.
    assert figures("poke", 2, RUBBER) == {"rubbers_won": [1, 0], "points_above": [1250, 1750]}


RUBBER = [  # A wins the rubber 2-1, B the match: test_poke_counts works it out
    {"tricks": [5, 0], "draws": [0, 2], "better_hand": B, "poker_hand": "flush"},
    {"tricks": [0, 5], "draws": [2, 0], "better_hand": B, "poker_hand": "royal_flush"},
    {"tricks": [5, 0], "draws": [0, 2], "better_hand": A, "poker_hand": "one_pair"},
]


def test_the_average_and_best_hand_count_points_above_the_line_as_the_board_does():
    # Each hand of the rubber above, above the line only (its 20 trick points below are no hand's):
    # A 350 (game and sweep), 0, 900 (pair 50, sweep 250, game 100, rubber 500): 1250 in all;
    # B 400 (flush), 1350 (game, sweep, royal flush 1000), 0: 1750 in all. The board: 1250 to 1750.
    done = finished("poke", 2, RUBBER)
    start = GAME.new_state(done.table, done.state.options)
    assert GAME.hands_on_board
    assert board_moves(done, start, GAME.scores) == [[350, 400], [0, 1350], [900, 0]]
    seats = seat_figures(GAME, done, [(0, 7, A), (1, 8, B)])
    assert [(seat.hands, seat.hand_total, seat.best_hand) for seat in seats] == [(3, 1250, 900), (3, 1750, 1350)]
    assert [seat.hand_total for seat in seats] == GAME.scores(done.state) == [1250, 1750]
