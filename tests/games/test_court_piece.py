"""Court Piece (Rang): worked examples of RULES.md 1.2 (seed S4:81-104), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, Result, get_game, replay
from scorekeeper.games.court_piece import Rule
from scorekeeper.games.statistics import Finished
from tests.games.counted import Hand, figures, finished

from .properties import FAST, Strategies, json_values, matches
from .taps import ANN_CY, BOB_DI, Commonest, choose

GAME = get_game("court_piece")
TABLE = GAME.table(4)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "court_piece.html"


def tricks(a: int, b: int) -> dict:
    return {"outcome": "tricks", "tricks": [a, b]}


def first_seven(side: int, all_thirteen: bool | None = None) -> dict:
    record = {"outcome": "first_seven", "side": side}
    if all_thirteen is not None:
        record["all_thirteen"] = all_thirteen
    return record


def revoke(side: int) -> dict:
    return {"outcome": "revoke", "side": side}


def win(side: int) -> dict:
    """A played-out hand won 8-5 by `side`."""
    return tricks(8, 5) if side == A else tricks(5, 8)


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def play_all(state, records):
    """The state after the records, and the last hand's result."""
    hand = None
    for record in records:
        hand = GAME.play(state, record)
        state = hand.state
    return state, hand


def streak(state) -> dict:
    return GAME.public_state(state)["streak"]


def refused(state, record) -> RecordError:
    with pytest.raises(RecordError) as caught:
        GAME.play(state, record)
    return caught.value


# -- declarations (API.md `court_piece`) ---------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["name"], described["players"]) == (
        "court_piece",
        "Court Piece",
        {"min": 4, "max": 4},
    )
    assert described["partnerships"] is True
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "courts_to_win", "court_hand_streak_policy", "all13_courts"]
    assert options["courts_to_win"]["default"] is None and options["courts_to_win"]["nullable"]
    assert options["court_hand_streak_policy"]["choices"] == ["reset", "count_as_win", "ignore"]
    assert options["court_hand_streak_policy"]["default"] == "reset"
    assert (options["all13_courts"]["choices"], options["all13_courts"]["default"]) == ([52, 53], 52)
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["outcome", "tricks", "side", "all_thirteen"]
    assert fields["outcome"]["choices"] == ["tricks", "first_seven", "revoke"] and fields["outcome"]["required"]
    assert fields["tricks"]["type"] == "per_side" and fields["tricks"]["when"]["values"] == ["tricks"]
    assert fields["side"]["when"]["values"] == ["first_seven", "revoke"]
    assert fields["all_thirteen"]["default"] is False and fields["all_thirteen"]["when"]["values"] == ["first_seven"]


def test_only_four_players_in_two_partnerships():
    # RULES 1.2.1: seats 0 and 2 against 1 and 3
    with pytest.raises(RecordError, match="4 players"):
        GAME.table(5)
    assert TABLE.seats_of(A) == [0, 2] and TABLE.seats_of(B) == [1, 3]


def test_played_for_time_unless_a_court_target_is_set():
    # RULES 1.2.5 / API.md: no courts_to_win means the table calls finish
    assert GAME.ends_by_call(GAME.parse_options({}, TABLE)) is True
    assert GAME.ends_by_call(GAME.parse_options({"courts_to_win": 5}, TABLE)) is False


@pytest.mark.parametrize(
    "options, field",
    [
        ({"courts_to_win": 0}, "courts_to_win"),
        ({"court_hand_streak_policy": "double"}, "court_hand_streak_policy"),
        ({"all13_courts": 54}, "all13_courts"),
        ({"direction": "anticlockwise"}, "direction"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


def test_a_new_session_starts_level_with_no_streak():
    state = start(first_dealer=2)
    assert GAME.scores(state) == [0, 0]
    # the trump chooser is the player after the dealer (S4:90)
    assert GAME.public_state(state) == {"streak": {"side": None, "count": 0}, "trump_chooser": 3}
    assert state.dealer == 2
    assert GAME.result(state) == Result(False, None, "No courts yet")


# -- checking a record (RULES 1.2.3) ---------------------------------------------------------------


def test_outcome_is_required():
    error = refused(start(), {"tricks": [8, 5]})
    assert "outcome" in error.fields and error.message == "How did the hand end? Nothing was chosen."


def test_tricks_must_add_up_to_thirteen():
    error = refused(start(), tricks(8, 4))
    assert error.fields.keys() == {"tricks"} and error.message == "The tricks add up to 12; a hand has 13."


@pytest.mark.parametrize("split", [(13, 0), (0, 13)])
def test_all_thirteen_is_not_a_played_out_hand(split):
    # RULES 1.2.3: taking every trick means taking the first seven, a first_seven record
    error = refused(start(), tricks(*split))
    assert "tricks" in error.fields and "record the hand as First seven, with All thirteen ticked" in error.message
    assert "first_seven" not in error.message and "all_thirteen" not in error.message  # words, not codes


@pytest.mark.parametrize(
    "record, field",
    [
        ({"outcome": "tricks", "tricks": [8, 5], "side": 0}, "side"),
        ({"outcome": "tricks", "tricks": [8, 5], "all_thirteen": False}, "all_thirteen"),
        ({"outcome": "first_seven", "side": 0, "tricks": [7, 0]}, "tricks"),
        ({"outcome": "revoke", "side": 1, "all_thirteen": False}, "all_thirteen"),
        ({"outcome": "revoke", "side": 1, "tricks": [8, 5]}, "tricks"),
    ],
)
def test_fields_of_another_outcome_are_refused(record, field):
    error = refused(start(), record)
    assert error.fields.keys() == {field} and "only given when the outcome is" in error.message


@pytest.mark.parametrize(
    "record, field",
    [
        ({"outcome": "tricks"}, "tricks"),
        ({"outcome": "first_seven"}, "side"),
        ({"outcome": "revoke"}, "side"),
    ],
)
def test_missing_fields_of_the_outcome_are_refused(record, field):
    error = refused(start(), record)
    assert error.fields.keys() == {field}
    assert "must be given when the outcome is" in error.message or "Nothing was chosen" in error.message


@pytest.mark.parametrize(
    "record, field",
    [
        ({"outcome": "court"}, "outcome"),
        ({"outcome": "revoke", "side": 2}, "side"),
        ({"outcome": "tricks", "tricks": [8, 5, 0]}, "tricks"),
        ({"outcome": "tricks", "tricks": [14, -1]}, "tricks"),
        ({"outcome": "first_seven", "side": 0, "all_thirteen": "maybe"}, "all_thirteen"),
        ({"outcome": "tricks", "tricks": [8, 5], "trump": "S"}, "trump"),
    ],
)
def test_values_of_the_wrong_type_are_refused(record, field):
    assert field in refused(start(), record).fields


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"outcome": "tricks", "tricks": ["6", "7"]})


# -- the streak (S4:100-101, RULES 1.2.4 streak_win) ------------------------------------------------


def test_the_streak_builds_one_win_at_a_time():
    state, hand = play_all(start(), [win(A)] * 5)
    assert streak(state) == {"side": A, "count": 5}
    assert [str(reason) for reason in hand.reasons] == ["A wins the hand 8-5: streak A 5 of 7"]
    assert hand.changes == [0, 0] and GAME.scores(state) == [0, 0]


def test_the_other_side_breaks_the_streak_and_starts_at_one():
    # S4:100: the side that breaks the run starts over at a tally of one
    state, hand = play_all(start(), [win(A)] * 6 + [tricks(6, 7)])
    assert streak(state) == {"side": B, "count": 1}
    assert [str(reason) for reason in hand.reasons] == ["B wins the hand 7-6: streak B 1 of 7"]
    assert GAME.scores(state) == [0, 0]  # six in a row scores nothing


def test_the_seventh_hand_in_a_row_is_a_court_and_resets_the_streak():
    # S4:101; RULES CP-Q4: the tally goes back to 0 with no owner
    state, hand = play_all(start(), [win(B)] * 7)
    assert hand.changes == [0, 1] and GAME.scores(state) == [0, 1]
    assert streak(state) == {"side": None, "count": 0}
    assert [(str(r), r.rule) for r in hand.reasons] == [
        ("B wins the hand 8-5: streak B 7 of 7", "streak"),
        ("B: seventh hand in a row: +1 court", "streak"),
    ]


@pytest.mark.parametrize("next_winner", [A, B])
def test_after_a_streak_court_the_next_winner_starts_at_one(next_winner):
    # RULES CP-Q4: either side, the same one included, starts a fresh tally at 1
    state, _ = play_all(start(), [win(A)] * 7 + [win(next_winner)])
    assert streak(state) == {"side": next_winner, "count": 1}


def test_fourteen_wins_in_a_row_make_two_courts():
    # RULES CP-Q5
    state, _ = play_all(start(), [win(A)] * 14)
    assert GAME.scores(state) == [2, 0] and streak(state) == {"side": None, "count": 0}


def test_the_margin_of_tricks_does_not_matter():
    # S4:99: whoever took more tricks wins the hand; 7-6 counts as much as 12-1
    narrow, _ = play_all(start(), [tricks(7, 6)] * 7)
    wide, _ = play_all(start(), [tricks(12, 1)] * 7)
    assert GAME.scores(narrow) == GAME.scores(wide) == [1, 0]


# -- court hands: first seven, all thirteen, revoke (S4:96, S4:98) ---------------------------------


def test_taking_the_first_seven_tricks_is_a_court():
    hand = GAME.play(start(), first_seven(B))
    assert hand.changes == [0, 1]
    assert [(str(r), r.rule) for r in hand.reasons] == [("B took the first seven tricks: +1 court", "first-seven")]


def test_failing_to_take_all_thirteen_costs_nothing():
    # S4:98: playing on and failing is the same as stopping after seven
    assert GAME.play(start(), first_seven(A, all_thirteen=False)).changes == [1, 0]


def test_all_thirteen_is_fifty_two_courts_in_total_by_default():
    # RULES CP-Q2: 52 in total for the hand
    hand = GAME.play(start(), first_seven(A, all_thirteen=True))
    assert hand.changes == [52, 0] and GAME.scores(hand.state) == [52, 0]
    assert [(str(r), r.rule) for r in hand.reasons] == [("A took all thirteen: +52 courts", "all-thirteen")]


def test_all_thirteen_is_fifty_three_with_the_option():
    # RULES CP-Q2: option all13_courts = 53 (the first-seven court on top)
    hand = GAME.play(start(all13_courts=53), first_seven(B, all_thirteen=True))
    assert hand.changes == [0, 53]
    assert str(hand.reasons[0]) == "B took all thirteen: +53 courts"


@pytest.mark.parametrize("revoker, winner", [(A, B), (B, A)])
def test_a_revoke_gives_the_other_side_the_hand_and_a_court(revoker, winner):
    # S4:96
    hand = GAME.play(start(), revoke(revoker))
    assert hand.changes[winner] == 1 and hand.changes[revoker] == 0
    names = "AB"
    assert (str(hand.reasons[0]), hand.reasons[0].rule) == (
        f"{names[revoker]} revoked: {names[winner]} +1 court",
        "revoke",
    )


# -- what a court hand does to the streak (RULES CP-Q1, CP-Q6: court_hand_streak_policy) ----------


@pytest.mark.parametrize("court_hand", [first_seven(A), revoke(B), first_seven(B), revoke(A)])
def test_reset_policy_clears_any_streak(court_hand):
    # default: the court hand does not count and the tally goes back to 0
    state, hand = play_all(start(), [win(A)] * 4 + [court_hand])
    assert streak(state) == {"side": None, "count": 0}
    assert sum(hand.changes) == 1
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == (
        "streak A 4 of 7 ends: the court hand resets it",
        "court-hands",
    )


def test_reset_policy_says_nothing_when_there_is_no_streak():
    hand = GAME.play(start(), revoke(A))
    assert len(hand.reasons) == 1 and streak(hand.state) == {"side": None, "count": 0}


def test_count_as_win_extends_the_winners_streak():
    options = {"court_hand_streak_policy": "count_as_win"}
    state, hand = play_all(start(**options), [win(A)] * 2 + [first_seven(A)])
    assert streak(state) == {"side": A, "count": 3} and hand.changes == [1, 0]
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == (
        "the court hand counts as a win: streak A 3 of 7",
        "court-hands",
    )


def test_count_as_win_breaks_the_opponents_streak_at_one():
    options = {"court_hand_streak_policy": "count_as_win"}
    state, _ = play_all(start(**options), [win(A)] * 4 + [revoke(A)])
    assert streak(state) == {"side": B, "count": 1}


@pytest.mark.parametrize("court_hand", [first_seven(A), revoke(B)])
def test_count_as_win_can_make_a_second_court_on_one_hand(court_hand):
    # RULES 1.2.4: the seventh win in a row and the hand's own court
    options = {"court_hand_streak_policy": "count_as_win"}
    state, hand = play_all(start(**options), [win(A)] * 6 + [court_hand])
    assert hand.changes == [2, 0] and streak(state) == {"side": None, "count": 0}
    assert str(hand.reasons[-1]) == "A: seventh hand in a row: +1 court"


def test_count_as_win_with_all_thirteen_adds_the_streak_court():
    options = {"court_hand_streak_policy": "count_as_win"}
    _, hand = play_all(start(**options), [win(B)] * 6 + [first_seven(B, all_thirteen=True)])
    assert hand.changes == [0, 53]


def test_ignore_leaves_the_winners_streak_as_it_was():
    options = {"court_hand_streak_policy": "ignore"}
    state, hand = play_all(start(**options), [win(A)] * 4 + [first_seven(A)])
    assert streak(state) == {"side": A, "count": 4} and hand.changes == [1, 0]
    assert str(hand.reasons[-1]) == "the court hand leaves the streak alone: streak A 4 of 7"


def test_ignore_breaks_the_opponents_streak_without_starting_one():
    options = {"court_hand_streak_policy": "ignore"}
    state, hand = play_all(start(**options), [win(A)] * 4 + [revoke(A)])
    assert streak(state) == {"side": None, "count": 0} and hand.changes == [0, 1]


def test_ignore_never_makes_a_second_court():
    options = {"court_hand_streak_policy": "ignore"}
    state, hand = play_all(start(**options), [win(A)] * 6 + [first_seven(A)])
    assert hand.changes == [1, 0] and streak(state) == {"side": A, "count": 6}
    state, hand = play_all(state, [win(A)])
    assert hand.changes == [1, 0]  # the next played-out win is the seventh


# -- the deal (S4:103, S4:96, RULES CP-Q3) -----------------------------------------------------------


@pytest.mark.parametrize(
    "first_dealer, history, record, dealer",
    [
        # dealer's side wins a played-out hand: the deal passes to the next seat
        (0, [], win(A), 1),
        (3, [], win(B), 0),
        # dealer's side loses without a court: the same player deals again
        (0, [], win(B), 0),
        (1, [], win(A), 1),
        # dealer's side loses with a court: the dealer's partner deals
        (0, [], first_seven(B), 2),
        (3, [], first_seven(A, all_thirteen=True), 1),
        (2, [], revoke(A), 0),  # S4:96: the dealer's side revoked
        # dealer's side wins with a court: still the next seat (CP-Q3)
        (0, [], first_seven(A), 1),
        (1, [], revoke(A), 2),  # S4:96: the opponents revoked
        # a streak court, won by either side, always against the dealer (the losers deal)
        (1, [win(A)] * 6, win(A), 3),
        (0, [win(B)] * 6, win(B), 2),
    ],
)
def test_who_deals_and_who_chooses_trumps_next(first_dealer, history, record, dealer):
    state, _ = play_all(start(first_dealer=first_dealer), history)
    hand = GAME.play(state, record)
    assert hand.state.dealer == dealer
    # S4:90: the player after the dealer chooses trumps
    assert GAME.public_state(hand.state)["trump_chooser"] == (dealer + 1) % 4


def test_the_losers_keep_the_deal_until_a_court():
    # S4:103: the losing side deals; it keeps the deal while losing without a court
    state, hand = play_all(start(first_dealer=1), [win(B)])
    assert state.dealer == 2
    state, hand = play_all(state, [win(B)] * 4)
    assert state.dealer == 2
    state, hand = play_all(state, [win(B)] * 2)  # the seventh: a court while seat 2 deals
    assert hand.changes == [0, 1] and state.dealer == 0


THREE_HANDS = [tricks(8, 5), first_seven(A), tricks(9, 4)]  # the browser's set-up edits replay these


@pytest.mark.parametrize(
    "options, streak_count, dealer",
    [
        # S4:103: A's side wins from dealer 0 (next seat, 1); 1's side loses a court (partner 3 deals);
        # 3's side loses without one (3 again). The court hand resets the streak, so A is on 1.
        ({}, 1, 3),
        # From dealer 2: next seat 3, then its partner 1, who loses without a court and deals again.
        ({"first_dealer": 2}, 1, 1),
        # RULES CP-Q1 count_as_win: the court hand is a win as well, three in a row.
        ({"first_dealer": 2, "court_hand_streak_policy": "count_as_win"}, 3, 1),
    ],
)
def test_three_hands_under_other_set_ups(options, streak_count, dealer):
    state, _ = play_all(start(**options), THREE_HANDS)
    assert GAME.scores(state) == [1, 0] and streak(state) == {"side": A, "count": streak_count}
    assert state.dealer == dealer and GAME.public_state(state)["trump_chooser"] == (dealer + 1) % 4


def test_one_court_to_win_makes_the_third_of_three_hands_impossible():
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, GAME.parse_options({"courts_to_win": 1}, TABLE), THREE_HANDS)
    assert caught.value.number == 3


# -- the end (S4:104, RULES 1.2.5, API.md) -----------------------------------------------------------


def test_courts_to_win_ends_the_match():
    state, hand = play_all(start(courts_to_win=2), [first_seven(B), revoke(B)])
    assert GAME.result(state).over is False
    state, hand = play_all(state, [first_seven(B)])
    result = GAME.result(state)
    assert (result.over, result.winner, result.headline) == (True, B, "B wins the match 2 courts to 1")
    assert hand.game_winner == B
    assert (str(hand.reasons[-1]), hand.reasons[-1].rule) == ("B reaches 2 courts and wins", "end")
    assert "over" in refused(state, win(A)).message


def test_all_thirteen_can_overshoot_the_target():
    state, hand = play_all(start(courts_to_win=5), [first_seven(A, all_thirteen=True)])
    assert GAME.result(state).winner == A and GAME.scores(state) == [52, 0]


def test_no_hand_wins_a_game_before_the_target():
    _, hand = play_all(start(courts_to_win=3), [first_seven(A)])
    assert hand.game_winner is None
    _, hand = play_all(start(), [first_seven(A, all_thirteen=True)])
    assert hand.game_winner is None  # played for time: no hand ends it


def test_played_for_time_it_never_ends_by_itself():
    state, _ = play_all(start(), [first_seven(A, all_thirteen=True)] * 3)
    result = GAME.result(state)
    assert (result.over, result.winner, result.headline) == (False, None, "A leads 156 courts to 0")


def test_called_finish_the_side_with_more_courts_wins():
    state, _ = play_all(start(), [first_seven(A), revoke(A), revoke(B)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, A, "A wins the match 2 courts to 1")


def test_called_finish_with_equal_courts_is_a_draw():
    # S4:104
    state, _ = play_all(start(), [first_seven(A), first_seven(B)] + [win(A)] * 6)
    assert GAME.result(state).headline == "Level at 1 court each"
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, None, "The match is a draw: 1 court each")


def test_called_finish_with_no_courts_is_a_draw():
    # S4:104: a streak short of seven counts for nothing at the end
    state, _ = play_all(start(), [win(A)] * 6)
    result = GAME.result(state, called=True)
    assert (result.over, result.winner) == (True, None)
    assert "draw" in result.headline and "no courts" in result.headline


# -- the rules page ---------------------------------------------------------------------------------


def page_ids() -> set[str]:
    return set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))


def test_every_reason_links_to_a_section_of_the_rules_page():
    records = [win(A)] * 4 + [first_seven(B)] + [win(A)] * 7 + [first_seven(A, all_thirteen=True)]
    records += [revoke(B)] * 10
    rules = set()
    for policy in ("reset", "count_as_win", "ignore"):
        state = start(courts_to_win=60, court_hand_streak_policy=policy)
        for record in records:
            if GAME.result(state).over:
                break
            hand = GAME.play(state, record)
            state = hand.state
            rules |= {reason.rule for reason in hand.reasons}
    assert rules == {"streak", "first-seven", "all-thirteen", "revoke", "court-hands", "end"}
    assert rules <= page_ids()
    assert {value for name, value in vars(Rule).items() if name.isupper()} <= page_ids()


def test_the_rules_page_extends_the_game_layout():
    text = RULES_PAGE.read_text(encoding="utf-8")
    assert text.startswith('{% extends "rules/game.html" %}')
    assert "style=" not in text and "<script" not in text


# -- properties -------------------------------------------------------------------------------------

JSON = json_values(st.integers(-20, 60))
STRATEGIES = Strategies(
    options={
        "court_hand_streak_policy": st.sampled_from(["reset", "count_as_win", "ignore"]),
        "all13_courts": st.sampled_from([52, 53]),
        "courts_to_win": st.one_of(st.none(), st.integers(1, 60)),
    },
    record=st.one_of(
        st.integers(1, 12).map(lambda a: tricks(a, 13 - a)),
        st.builds(first_seven, st.sampled_from([A, B]), st.sampled_from([None, False, True])),
        st.builds(revoke, st.sampled_from([A, B])),
    ),
    raw=st.dictionaries(
        st.sampled_from(["outcome", "tricks", "side", "all_thirteen"]),
        JSON | st.sampled_from(["tricks", "first_seven", "revoke", 0, 1, 13, True, "1", [6, 7], [13, 0]]),
        max_size=4,
    ),
)


def hand_winner(record: dict) -> int:
    if record["outcome"] == "tricks":
        return A if record["tricks"][0] > record["tricks"][1] else B
    return record["side"] if record["outcome"] == "first_seven" else 1 - record["side"]


@FAST
@given(matches(GAME, STRATEGIES, most=40))
def test_streak_dealer_and_trump_chooser_invariants(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        hand = GAME.play(state, record)
        new = hand.state
        winner = hand_winner(record)
        shown = GAME.public_state(new)
        # S4:100-101: the tally never reaches 7 (a seventh win is scored and cleared)
        assert 0 <= shown["streak"]["count"] <= 6
        assert (shown["streak"]["side"] is None) == (shown["streak"]["count"] == 0)
        # S4:103: the losers deal, so the winners choose trumps
        assert TABLE.side_of(new.dealer) != winner
        assert TABLE.side_of(shown["trump_chooser"]) == winner
        # only the hand's winner scores, and the score is the sum of the changes
        assert hand.changes[1 - winner] == 0 and hand.changes[winner] >= 0
        assert GAME.scores(new) == [old + change for old, change in zip(GAME.scores(state), hand.changes)]
        assert len(hand.reasons) >= 1 and new.hands == state.hands + 1
        state = new


@settings(FAST, max_examples=100)
@given(JSON | st.dictionaries(st.sampled_from(["courts_to_win", "court_hand_streak_policy", "all13_courts"]), JSON))
def test_any_options_are_taken_or_refused_with_a_record_error(raw):
    try:
        GAME.parse_options(raw if isinstance(raw, dict) else {"courts_to_win": raw}, TABLE)
    except RecordError as error:
        assert error.message


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Played out (preset), Ann & Cy take 8 tricks; Bob & Di get the other 5 by themselves.
COMMONEST = Commonest((choose("Tricks", ANN_CY, "8"),), taps=2, most=2, board={"courts": ["0 courts", "0 courts"]})

COMMON = (
    # A court (the first seven tricks); a revoke.
    Commonest((choose("How did the hand end?", "First seven"), choose("Who gets the court?", BOB_DI)), taps=3),
    Commonest((choose("How did the hand end?", "Revoke"), choose("Who gets the court?", ANN_CY)), taps=3),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


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
