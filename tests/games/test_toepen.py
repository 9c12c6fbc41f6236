"""Toepen: worked examples of api/chips.md `toepen` (RULES.md 2.7, seed S3:82-134), edge rules first.

Seats A..H = 0..7, each their own side. Unless a test says otherwise: four players, 10 tokens each.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.base import LOST, SHARED, WON
from scorekeeper.games.toepen import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose, type_in

GAME = get_game("toepen")
A, B, C, D = 0, 1, 2, 3
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "toepen.html"


def start(players: int = 4, **options):
    table = GAME.table(players)
    return GAME.new_state(table, GAME.parse_options(options, table))


def hand(winner: int, value: int | None = None, folded=None, lost=None) -> dict:
    record: dict = {"winner": winner}
    if value is not None:
        record["value"] = value
    if folded is not None:
        record["folded_at"] = folded
    if lost is not None:
        record["challenges_lost"] = lost
    return record


def play_all(state, records):
    done = None
    for record in records:
        done = GAME.play(state, record)
        state = done.state
    return state, done


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


def texts(done) -> list[str]:
    return [str(reason) for reason in done.reasons]


# -- declarations (api/chips.md `toepen`) ------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == (
        "toepen",
        {"min": 3, "max": 8},
        False,
    )
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "starting_tokens", "elimination", "allow_debt"]
    assert (
        options["starting_tokens"]["default"],
        options["starting_tokens"]["min"],
        options["starting_tokens"]["max"],
    ) == (10, 1, 100)
    assert options["elimination"]["default"] is False and options["allow_debt"]["default"] is False
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["winner", "value", "folded_at", "challenges_lost"]
    assert fields["winner"]["type"] == "seat" and fields["winner"]["required"]
    assert (fields["value"]["default"], fields["value"]["min"], fields["value"]["max"]) == (1, 1, 100)
    assert (fields["folded_at"]["type"], fields["folded_at"]["min"], fields["folded_at"]["max"]) == ("per_side", 0, 99)
    assert (fields["challenges_lost"]["min"], fields["challenges_lost"]["max"]) == (0, 5)
    assert not fields["folded_at"]["required"] and not fields["challenges_lost"]["required"]


@pytest.mark.parametrize("players", [2, 9])
def test_three_to_eight_players(players):
    with pytest.raises(RecordError, match="3 to 8"):
        GAME.table(players)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"starting_tokens": 0}, "starting_tokens"),
        ({"starting_tokens": 101}, "starting_tokens"),
        ({"elimination": "maybe"}, "elimination"),
        ({"allow_debt": 2}, "allow_debt"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"drinks": True}, "drinks"),
    ],
)
def test_bad_options_are_refused(options, field):
    table = GAME.table(4)
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, table)
    assert field in caught.value.fields


def test_everybody_starts_with_the_same_tokens():
    # S3:96: ten each is usual; the option changes it
    state = start(5, starting_tokens=3, first_dealer=4)
    assert GAME.scores(state) == [3] * 5 and state.dealer == 4
    assert GAME.public_state(state) == {"out": []}
    assert GAME.result(state).over is False
    assert GAME.scores(start()) == [10] * 4
    assert GAME.ends_by_call(GAME.parse_options({}, GAME.table(4))) is False


# -- refusals ------------------------------------------------------------------------------------------


def test_winner_is_required():
    assert "winner" in refused(start(), {"value": 2}).fields


@pytest.mark.parametrize(
    "record, field",
    [
        ({"winner": 4}, "winner"),
        ({"winner": 0, "value": 0}, "value"),
        ({"winner": 0, "value": 101}, "value"),
        ({"winner": 0, "value": 3, "folded_at": [0, 1, 0]}, "folded_at"),
        ({"winner": 0, "value": 3, "folded_at": [0, 1, 0, 100]}, "folded_at"),
        ({"winner": 0, "challenges_lost": [0, 6, 0, 0]}, "challenges_lost"),
        ({"winner": 0, "challenges_lost": [0, -1, 0, 0]}, "challenges_lost"),
        ({"winner": 0, "knocks": 2}, "knocks"),
    ],
)
def test_types_and_ranges_are_refused(record, field):
    assert field in refused(start(), record).fields


@pytest.mark.parametrize("folded", [[0, 3, 0, 0], [0, 4, 0, 0]])
def test_a_fold_is_below_the_final_value(folded):
    # a fold answers a knock, so it pays less than the value the hand ended at (S3:124)
    error = refused(start(), hand(A, 3, folded))
    assert error.fields.keys() == {"folded_at"}


def test_with_value_one_nobody_can_fold():
    assert "folded_at" in refused(start(), hand(A, folded=[0, 1, 0, 0])).fields


def test_the_winner_did_not_fold():
    error = refused(start(), hand(B, 3, [0, 2, 0, 0]))
    assert error.fields.keys() == {"folded_at"} and "B" in error.message


@pytest.mark.parametrize(
    "players, lost, taken",
    [
        (4, [2, 1, 1, 0], True),  # 8 - 4 = 4 discards at most (ruling 2)
        (4, [2, 1, 1, 1], False),
        (4, [5, 0, 0, 0], False),
        (7, [1, 0, 0, 0, 0, 0, 0], True),
        (7, [1, 1, 0, 0, 0, 0, 0], False),
        (8, [0, 0, 0, 0, 0, 0, 0, 1], False),  # eight players leave no stock to discard into
    ],
)
def test_no_more_challenges_than_the_stock_allows(players, lost, taken):
    state = start(players)
    if taken:  # the winner A pays only challenges, everybody else the value 1 besides
        expected = [-(n + (0 if seat == A else 1)) for seat, n in enumerate(lost)]
        assert GAME.play(state, hand(A, lost=lost)).changes == expected
    else:
        assert refused(state, hand(A, lost=lost)).fields.keys() == {"challenges_lost"}


def test_nobody_can_knock_above_what_they_hold():
    # S3:128: the last knocker stayed in and held at least the value; ruling 3
    state, _ = play_all(start(), [hand(A, 4), hand(A, 4)])  # B, C, D hold 2; A holds 10
    assert GAME.scores(state) == [10, 2, 2, 2]
    assert GAME.play(state, hand(B, 3)).changes == [-3, 0, -2, -2]  # A stayed in: A could knock to 3
    error = refused(state, hand(B, 3, [2, 0, 0, 0]))  # A folded: only players with 2 stayed in
    assert error.fields.keys() == {"value"}
    assert GAME.play(state, hand(B, 2, [1, 0, 0, 0])).changes == [-1, 0, -2, -2]


def test_the_knock_limit_counts_the_challenges_lost_in_the_hand():
    # ruling 3: the balance at the start of the hand less that hand's lost challenges
    state, _ = play_all(start(3, starting_tokens=3), [])
    assert GAME.play(state, hand(A, 3, lost=[0, 0, 0])).changes == [0, -3, -3]
    assert "value" in refused(state, hand(A, 3, lost=[1, 1, 1])).fields
    assert GAME.play(state, hand(A, 3, lost=[1, 1, 0])).changes == [-1, -3, -3]


# -- scoring (S3:116, S3:124, S3:126, S3:108) ----------------------------------------------------------


def test_a_plain_hand_costs_every_loser_one_token():
    # S3:116: the value is 1 by default; the winner pays nothing; tokens leave the game
    done = GAME.play(start(), hand(C))
    assert done.changes == [-1, -1, 0, -1] and GAME.scores(done.state) == [9, 9, 10, 9]
    assert texts(done) == [
        "A stayed in and lost the hand worth 1: -1",
        "B stayed in and lost the hand worth 1: -1",
        "C won the hand: pays nothing",
        "D stayed in and lost the hand worth 1: -1",
    ]
    assert {reason.rule for reason in done.reasons} == {Rule.LAST_TRICK}


def test_a_folder_pays_the_value_before_the_knock():
    # S3:124: a knock from 3 to 4: the folder pays 3; the others who stayed in pay 4
    done = GAME.play(start(), hand(A, 4, [0, 3, 0, 1]))
    assert done.changes == [0, -3, -4, -1]
    assert ("B folded at 3: -3", Rule.FOLDING) in [(str(r), r.rule) for r in done.reasons]


def test_a_knocker_everybody_folded_to_pays_nothing():
    # S3:126
    done = GAME.play(start(), hand(B, 2, [1, 0, 1, 1]))
    assert done.changes == [-1, 0, -1, -1]
    assert done.state.dealer == B


def test_lost_challenges_cost_one_token_each_on_top():
    # S3:108: the wrong party of a challenge loses a token, the winner of the hand included
    done = GAME.play(start(), hand(A, 2, [0, 0, 1, 0], [1, 0, 2, 0]))
    assert done.changes == [-1, -2, -3, -2]
    assert ("A lost 1 discard challenge: -1", Rule.CHALLENGES) in [(str(r), r.rule) for r in done.reasons]
    assert "C lost 2 discard challenges: -2" in texts(done)


def test_empty_per_player_lists_mean_nobody():
    assert GAME.play(start(), hand(A, 2, [0, 0, 0, 0], [0, 0, 0, 0])).changes == [0, -2, -2, -2]


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"winner": "1", "value": "2", "folded_at": ["1", "0", "0", "0"]})


def test_a_player_pays_only_what_they_hold():
    # RULES 2.7 PROPOSED: the balance stops at 0 (S3:128 lets a player stay in above their means)
    state, _ = play_all(start(3, starting_tokens=2), [])
    done = GAME.play(state, hand(A, 2, lost=[0, 1, 0]))
    assert done.changes == [0, -2, -2] and GAME.scores(done.state) == [2, 0, 0]
    assert ("B had only 2 tokens: pays 2 of 3", Rule.BROKE) in [(str(r), r.rule) for r in done.reasons]


def test_with_debt_a_player_pays_it_all():
    # api allow_debt: the balance goes below 0, as on a score sheet
    state = start(3, starting_tokens=2, allow_debt=True)
    done = GAME.play(state, hand(A, 2, lost=[0, 1, 0]))
    assert done.changes == [0, -3, -2] and GAME.scores(done.state) == [2, -1, 0]
    assert not any(reason.rule == Rule.BROKE for reason in done.reasons)


# -- who deals (S3:118, ruling 5) -----------------------------------------------------------------------


def test_the_winner_of_a_hand_deals_the_next():
    state = start(first_dealer=3)
    assert play_all(state, [hand(B)])[0].dealer == B
    assert play_all(state, [hand(B), hand(D, 2, [1, 1, 1, 0])])[0].dealer == D


def test_a_winner_who_ran_out_passes_the_deal_to_the_left():
    # ruling 5: A wins but loses a challenge and runs out; B ran out too; C deals
    state = start(4, starting_tokens=1, elimination=True)
    done = GAME.play(state, hand(A, lost=[1, 0, 0, 0]))
    assert GAME.scores(done.state) == [0, 0, 0, 0]
    assert done.state.dealer == A  # nobody holds a token: the winner

    state, _ = play_all(start(4, starting_tokens=3, elimination=True), [hand(C, 2)])  # A, B, D hold 1
    done = GAME.play(state, hand(A, lost=[1, 0, 0, 0]))
    assert GAME.scores(done.state) == [0, 0, 2, 0]
    assert done.state.dealer == C


def test_a_winner_who_ran_out_deals_past_players_already_out():
    state, _ = play_all(start(4, starting_tokens=2, elimination=True), [hand(D, 2, [0, 1, 0, 0])])
    assert GAME.scores(state) == [0, 1, 0, 2] and GAME.public_state(state) == {"out": [A, C]}
    done = GAME.play(state, hand(B, lost=[0, 1, 0, 0]))
    assert GAME.scores(done.state) == [0, 0, 0, 1] and done.state.dealer == D
    assert GAME.result(done.state).winner == D


# -- the end without elimination (S3:132, ruling 4) -----------------------------------------------------


def test_the_first_player_to_run_out_loses_and_nobody_wins():
    state, done = play_all(start(3, starting_tokens=2), [hand(A, 2, [0, 1, 0])])
    assert GAME.scores(state) == [2, 1, 0]
    result = GAME.result(state)
    assert (result.over, result.winner, result.losers, result.out) == (True, None, (C,), (C,))
    assert result.headline == "C runs out of tokens and loses"
    assert GAME.public_state(state) == {"out": [C]}
    assert [result.outcome(seat) for seat in range(3)] == [SHARED, SHARED, LOST]
    assert ("C has run out of tokens", Rule.OUT) in [(str(r), r.rule) for r in done.reasons]
    assert str(done.reasons[-1]) == "C runs out of tokens and loses"
    assert "over" in refused(state, hand(A)).message


def test_players_who_run_out_together_all_lose_in_seat_order():
    state, _ = play_all(start(4, starting_tokens=1), [hand(B)])
    result = GAME.result(state)
    assert result.losers == (A, C, D) and GAME.public_state(state) == {"out": [A, C, D]}
    assert result.headline == "A, C and D run out of tokens and lose"


def test_with_debt_a_negative_balance_has_run_out():
    state, _ = play_all(start(3, starting_tokens=1, allow_debt=True), [hand(A, lost=[0, 1, 0])])
    assert GAME.scores(state) == [1, -1, 0] and GAME.result(state).losers == (B, C)


def test_the_match_goes_on_while_everybody_holds_tokens():
    state, _ = play_all(start(), [hand(A, 3)] * 3)
    assert GAME.scores(state) == [10, 1, 1, 1] and GAME.result(state).over is False
    assert GAME.result(state).headline == "Fewest tokens: B, C and D with 1"


# -- the end with elimination (S3:134, ruling 4) --------------------------------------------------------


def test_with_elimination_players_drop_out_and_the_last_holder_wins():
    state, _ = play_all(start(3, starting_tokens=2, elimination=True), [hand(A, 2, [0, 0, 1])])
    assert GAME.scores(state) == [2, 0, 1] and GAME.result(state).over is False
    assert GAME.public_state(state) == {"out": [B]} and GAME.seats_out(state) == (B,)
    state, done = play_all(state, [hand(A)])
    result = GAME.result(state)
    assert (result.over, result.winner, result.out) == (True, A, (B, C))
    assert result.headline == "A is the last player holding tokens and wins"
    assert [result.outcome(seat) for seat in range(3)] == [WON, LOST, LOST]
    assert str(done.reasons[-1]) == "A is the last player holding tokens and wins"


def test_players_who_are_out_take_no_part_in_a_hand():
    state, _ = play_all(start(4, starting_tokens=2, elimination=True), [hand(A, 2, [0, 0, 1, 1])])
    assert GAME.public_state(state) == {"out": [B]}
    assert refused(state, hand(B)).fields.keys() == {"winner"}
    assert refused(state, hand(A, 2, [0, 1, 0, 0])).fields.keys() == {"folded_at"}
    assert refused(state, hand(A, lost=[0, 1, 0, 0])).fields.keys() == {"challenges_lost"}
    done = GAME.play(state, hand(A, lost=[1, 0, 1, 0]))  # B is skipped: nothing to pay
    assert done.changes == [-1, 0, -1, -1]


def test_the_form_offers_only_the_players_still_in():
    # issue 21: with elimination, a player who is out is not offered as the hand's winner
    state, _ = play_all(start(4, starting_tokens=2, elimination=True), [hand(A, 2, [0, 0, 1, 1])])
    winner = next(fld for fld in GAME.form_fields(state) if fld.name == "winner")
    assert winner.exclude == (B,)
    fresh = next(fld for fld in GAME.form_fields(start(4, elimination=True)) if fld.name == "winner")
    assert fresh.exclude == ()


def test_players_out_do_not_count_towards_the_discard_limit():
    # ruling 2: 8 - players in the hand; with B out, three are in and five challenges may be lost
    state, _ = play_all(start(4, starting_tokens=6, elimination=True), [hand(A, 6, [0, 0, 1, 1])])
    assert GAME.public_state(state) == {"out": [B]}
    assert GAME.play(state, hand(A, lost=[2, 0, 2, 1])).changes == [-2, 0, -3, -2]
    assert "challenges_lost" in refused(state, hand(A, lost=[2, 0, 2, 2])).fields


def test_the_last_players_running_out_together_leave_no_winner():
    state, _ = play_all(start(3, starting_tokens=2, elimination=True), [hand(A, 2, [0, 0, 1])])
    state, _ = play_all(state, [hand(A, lost=[2, 0, 0])])  # A and C run out in the same hand
    result = GAME.result(state)
    assert (result.over, result.winner, result.out) == (True, None, (B, A, C))
    assert result.losers == (B,)
    assert [result.outcome(seat) for seat in range(3)] == [SHARED, LOST, SHARED]
    assert result.headline == "A and C ran out together: nobody is left holding tokens"


# -- edits (replay) --------------------------------------------------------------------------------------


def test_an_edit_that_eliminates_a_later_winner_is_refused():
    table = GAME.table(4)
    options = GAME.parse_options({"starting_tokens": 2, "elimination": True}, table)
    records = [hand(A), hand(B)]
    assert GAME.scores(replay(GAME, table, options, records).state) == [1, 1, 0, 0]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [hand(A, 2, [0, 0, 1, 1]), hand(B)])  # B is out after hand 1 now
    assert caught.value.number == 2 and "winner" in caught.value.fields


def test_an_edit_that_ends_the_match_sooner_is_refused():
    table = GAME.table(3)
    options = GAME.parse_options({"starting_tokens": 2}, table)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [hand(A, 2), hand(A)])
    assert caught.value.number == 2 and "over" in caught.value.message


# -- the rules page ---------------------------------------------------------------------------------------


def page_ids() -> set[str]:
    return set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))


def test_every_rule_is_a_section_of_the_rules_page():
    assert {rule.value for rule in Rule} <= page_ids()
    assert RULES_PAGE.read_text(encoding="utf-8").startswith('{% extends "rules/game.html" %}')


# -- properties ---------------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={
        "starting_tokens": st.integers(1, 12),
        "elimination": st.booleans(),
        "allow_debt": st.booleans(),
    },
    most=25,
    raw=st.dictionaries(
        st.sampled_from(["winner", "value", "folded_at", "challenges_lost"]),
        json_values(st.integers(-3, 12)) | st.sampled_from([0, 1, 2, 3, "2", [0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 2, 1]]),
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_balances_only_go_down_and_stop_at_zero(match):
    table, options, records = match
    state = GAME.new_state(table, options)
    for record in records:
        done = GAME.play(state, record)
        after = done.state
        assert all(change <= 0 for change in done.changes)
        assert GAME.scores(after) == [old + change for old, change in zip(GAME.scores(state), done.changes)]
        if not options["allow_debt"]:
            assert min(GAME.scores(after)) >= 0
        assert after.out[: len(state.out)] == state.out
        assert set(after.out) == {seat for seat in range(table.players) if after.tokens[seat] <= 0}
        assert after.tokens[after.dealer] > 0 or all(t <= 0 for t in after.tokens)
        state = after


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann wins the hand.
COMMONEST = Commonest((choose("Who won the hand?", "Ann"),), taps=2)

COMMON = (
    # A raised hand, a player who folded.
    Commonest(
        (choose("Who won the hand?", "Bob"), type_in("Hand value", 3), type_in("Folded at", "Cy", 2)),
        taps=4,
        typed=2,
    ),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


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
