"""Bura: worked examples of api/chips.md `bura` (RULES.md 2.9, seed S3:232-289), edge rules first.

Players A = 0 and B = 1. Unless a test says otherwise: 20 tokens each, A deals first.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.bura import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose, type_in

GAME = get_game("bura")
TABLE = GAME.table(2)
A, B = 0, 1
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "bura.html"


def start(**options):
    return GAME.new_state(TABLE, GAME.parse_options(options, TABLE))


def declare(side: int, points: int, false: list[int] | None = None) -> dict:
    record = {"outcome": "declaration", "side": side, "points": points}
    if false is not None:
        record["false_declarations"] = false
    return record


def bura(side: int) -> dict:
    return {"outcome": "bura", "side": side}


DRAW = {"outcome": "draw"}


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


def pot(state) -> int:
    return GAME.public_state(state)["pot"]


def reasons(done) -> list[tuple[str, str]]:
    return [(str(reason), reason.rule) for reason in done.reasons]


# -- declarations (api/chips.md `bura`) ----------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["key"], described["players"], described["partnerships"]) == ("bura", {"min": 2, "max": 2}, False)
    options = {fld["name"]: fld for fld in described["options"]}
    assert list(options) == ["first_dealer", "starting_tokens", "false_declaration", "next_dealer"]
    assert (options["starting_tokens"]["default"], options["starting_tokens"]["max"]) == (20, 1000)
    assert options["false_declaration"]["choices"] == ["ends_hand", "play_on"]
    assert options["false_declaration"]["default"] == "ends_hand"
    assert (options["next_dealer"]["choices"], options["next_dealer"]["default"]) == (["winner", "alternate"], "winner")
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["outcome", "side", "points", "false_declarations"]
    assert fields["outcome"]["choices"] == ["declaration", "bura", "draw"] and fields["outcome"]["required"]
    assert fields["side"]["when"] == {"field": "outcome", "values": ["declaration", "bura"]}
    assert fields["points"]["when"] == {"field": "outcome", "values": ["declaration"]}
    assert (fields["points"]["min"], fields["points"]["max"]) == (0, 120)
    assert fields["false_declarations"]["type"] == "side_list"
    assert fields["false_declarations"]["max_length"] == 18
    assert fields["false_declarations"]["when"] == {"option": "false_declaration", "values": ["play_on"]}


def test_a_session_starts_with_equal_tokens_and_an_empty_pot():
    # S3:246; ruling 7: 20 each unless the table says otherwise
    state = start()
    assert GAME.scores(state) == [20, 20] and pot(state) == 0 and state.dealer == A
    assert GAME.result(state).over is False and GAME.result(state).headline == "Level at 20 tokens each"
    assert GAME.scores(start(starting_tokens=5, first_dealer=1)) == [5, 5]
    assert start(first_dealer=1).dealer == B
    assert GAME.ends_by_call(GAME.parse_options({}, TABLE)) is True


@pytest.mark.parametrize(
    "options, field",
    [
        ({"starting_tokens": 0}, "starting_tokens"),
        ({"starting_tokens": 1001}, "starting_tokens"),
        ({"false_declaration": "forgive"}, "false_declaration"),
        ({"next_dealer": "loser"}, "next_dealer"),
        ({"stakes": 2}, "stakes"),
    ],
)
def test_bad_options_are_refused(options, field):
    with pytest.raises(RecordError) as caught:
        GAME.parse_options(options, TABLE)
    assert field in caught.value.fields


# -- refusals ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "outcome"),
        ({"outcome": "revoke"}, "outcome"),
        ({"outcome": "declaration", "points": 40}, "side"),
        ({"outcome": "declaration", "side": 0}, "points"),
        ({"outcome": "bura"}, "side"),
        ({"outcome": "declaration", "side": 2, "points": 40}, "side"),
        ({"outcome": "declaration", "side": 0, "points": 121}, "points"),
        ({"outcome": "declaration", "side": 0, "points": -1}, "points"),
        ({"outcome": "draw", "side": 0}, "side"),
        ({"outcome": "bura", "side": 0, "points": 40}, "points"),
        ({"outcome": "draw", "points": 0}, "points"),
        ({"outcome": "draw", "false_declarations": [0]}, "false_declarations"),
        ({"outcome": "draw", "false_declarations": []}, "false_declarations"),
        ({"outcome": "draw", "pot": 3}, "pot"),
    ],
)
def test_bad_records_are_refused(record, field):
    assert field in refused(start(), record).fields


@pytest.mark.parametrize(
    "false, taken",
    [
        ([], True),
        ([1] * 18, True),
        ([1] * 19, False),
        ([0, 2], False),
        ([0, "x"], False),
        (0, False),
        ("0", False),
    ],
)
def test_false_declarations_are_a_list_of_sides(false, taken):
    state = start(false_declaration="play_on", starting_tokens=1000)
    record = {"outcome": "draw", "false_declarations": false}
    if taken:
        GAME.play(state, record)
    else:
        assert refused(state, record).fields.keys() == {"false_declarations"}


def test_playing_on_a_short_declaration_belongs_in_the_list():
    # api: with play_on a declaration below 31 does not end the hand
    error = refused(start(false_declaration="play_on"), declare(A, 30))
    assert error.fields.keys() == {"points"}


# -- scoring (S3:248, S3:272, S3:287, S3:289) -----------------------------------------------------------


def test_a_correct_declaration_takes_the_pot():
    # both ante 1, A declares 31 exactly ("31 or more", S3:287) and takes the pot of 2
    done = GAME.play(start(), declare(A, 31))
    assert done.changes == [1, -1] and GAME.scores(done.state) == [21, 19] and pot(done.state) == 0
    assert reasons(done) == [
        ("Both ante 1: the pot holds 2", Rule.ANTE),
        ("A declared 31 points: takes the pot of 2", Rule.DECLARING),
    ]


def test_a_draw_leaves_the_pot_for_the_next_hand():
    # S3:289; ruling 8: the antes are part of the hand's changes
    state, done = play_all(start(), [DRAW])
    assert done.changes == [-1, -1] and pot(state) == 2
    assert reasons(done)[-1] == ("A draw: the pot of 2 stays for the next hand", Rule.DRAW)
    state, done = play_all(state, [bura(B)])
    assert done.changes == [-1, 3] and pot(state) == 0 and GAME.scores(state) == [18, 22]
    assert reasons(done)[-1] == ("B won the bura trick: takes the pot of 4", Rule.BURA)


def test_a_false_declaration_doubles_the_pot_and_ends_the_hand():
    # S3:287: the false declarer pays in what the pot holds; ends_hand: the pot carries over
    state, done = play_all(start(), [declare(A, 25)])
    assert done.changes == [-3, -1] and pot(state) == 4
    assert reasons(done)[-1] == (
        "A declared with only 25 points: pays 2 into the pot, which now holds 4",
        Rule.FALSE_DECLARATION,
    )
    state, done = play_all(state, [declare(B, 60)])
    assert done.changes == [-1, 5] and GAME.scores(state) == [16, 24] and pot(state) == 0


def test_a_false_declarer_short_of_the_pot_pays_all_they_hold():
    # ruling 9: A holds 3 after the ante but the pot holds 6
    state, _ = play_all(start(starting_tokens=6), [declare(B, 40), declare(B, 40)])
    assert GAME.scores(state) == [4, 8]
    state, _ = play_all(state, [DRAW, DRAW])
    assert GAME.scores(state) == [2, 6] and pot(state) == 4
    done = GAME.play(state, declare(A, 10))
    assert done.changes == [-2, -1] and GAME.scores(done.state) == [0, 5] and pot(done.state) == 7
    assert reasons(done)[1] == (
        "A declared with only 10 points: pays 1 into the pot, which now holds 7",
        Rule.FALSE_DECLARATION,
    )
    assert GAME.result(done.state).winner == B


def test_with_play_on_each_false_declaration_pays_in_before_the_pot_is_taken():
    # api: in order, each pays what the pot then holds; then the true declaration takes it all
    state = start(false_declaration="play_on")
    done = GAME.play(state, declare(B, 31, [A, B]))
    assert done.changes == [-3, 3] and pot(done.state) == 0
    assert reasons(done) == [
        ("Both ante 1: the pot holds 2", Rule.ANTE),
        ("A declared falsely: pays 2 into the pot, which now holds 4", Rule.FALSE_DECLARATION),
        ("B declared falsely: pays 4 into the pot, which now holds 8", Rule.FALSE_DECLARATION),
        ("B declared 31 points: takes the pot of 8", Rule.DECLARING),
    ]


def test_with_play_on_a_hand_can_still_end_in_a_draw_or_a_bura():
    state = start(false_declaration="play_on")
    state, done = play_all(state, [{"outcome": "draw", "false_declarations": [A]}])
    assert done.changes == [-3, -1] and pot(state) == 4
    state, done = play_all(state, [{"outcome": "bura", "side": A, "false_declarations": []}])
    assert done.changes == [5, -1] and pot(state) == 0


def test_text_where_a_number_belongs_is_refused_the_form_sends_numbers():
    # JSON types only (API.md): the page's form turns its text into numbers before the engine reads it.
    with pytest.raises(RecordError):
        GAME.play(start(), {"outcome": "declaration", "side": "1", "points": "44"})


# -- who deals (ruling 11) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, record, dealer",
    [
        (A, declare(B, 40), B),  # the taker deals
        (B, declare(B, 40), B),
        (B, bura(A), A),
        (A, DRAW, B),  # nobody took the pot: the deal passes
        (B, DRAW, A),
        (A, declare(A, 20), B),  # a false declaration takes nothing
    ],
)
def test_whoever_took_the_pot_deals_next(first, record, dealer):
    assert GAME.play(start(first_dealer=first), record).state.dealer == dealer


@pytest.mark.parametrize("record", [declare(A, 40), declare(B, 40), bura(A), DRAW])
def test_with_alternate_the_deal_passes_every_hand(record):
    state, _ = play_all(start(next_dealer="alternate"), [record])
    assert state.dealer == B
    state, _ = play_all(state, [record])
    assert state.dealer == A


# -- the end (ruling 10, API "How a match ends") ---------------------------------------------------------


def test_a_player_who_cannot_ante_ends_the_session():
    state, done = play_all(start(starting_tokens=2), [declare(A, 50)])
    assert GAME.scores(state) == [3, 1]
    state, done = play_all(state, [declare(A, 50)])
    result = GAME.result(state)
    assert GAME.scores(state) == [4, 0] and (result.over, result.winner) == (True, A)
    assert result.headline == "A wins with 4 tokens to 0"
    assert reasons(done)[-1] == ("B cannot ante: A wins with 4 tokens to 0", Rule.END)
    assert "over" in refused(state, DRAW).message


def test_the_pot_left_on_the_table_counts_for_nobody():
    # ruling 10: both are left with nothing; the pot of 2 stays where it is
    state, _ = play_all(start(starting_tokens=1), [DRAW])
    result = GAME.result(state)
    assert GAME.scores(state) == [0, 0] and pot(state) == 2
    assert (result.over, result.winner, result.headline) == (True, None, "A draw: 0 tokens each")


def test_a_false_declaration_can_end_the_session():
    state, _ = play_all(start(starting_tokens=3), [declare(B, 3)])
    assert GAME.scores(state) == [2, 0] and GAME.result(state).winner == A


def test_finish_gives_the_win_to_more_tokens():
    state, _ = play_all(start(), [declare(A, 40), DRAW])
    assert GAME.result(state).headline == "A leads 20 to 18"
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, A, "A wins with 20 tokens to 18")


def test_finish_with_equal_tokens_is_a_draw():
    state, _ = play_all(start(), [declare(A, 40), declare(B, 40)])
    result = GAME.result(state, called=True)
    assert (result.over, result.winner, result.headline) == (True, None, "A draw: 20 tokens each")


def test_finish_ignores_the_pot():
    state, _ = play_all(start(), [DRAW, declare(B, 12)])
    assert GAME.scores(state) == [18, 14] and pot(state) == 8
    assert GAME.result(state, called=True).winner == A


# -- edits (replay) ------------------------------------------------------------------------------------


def test_an_edit_that_ends_the_session_sooner_is_refused():
    options = GAME.parse_options({"starting_tokens": 2}, TABLE)
    assert GAME.scores(replay(GAME, TABLE, options, [declare(A, 40), DRAW]).state) == [2, 0]
    with pytest.raises(ReplayError) as caught:
        replay(GAME, TABLE, options, [declare(A, 20), DRAW])  # A pays in and cannot ante
    assert caught.value.number == 2 and "over" in caught.value.message


def test_an_edit_carries_a_different_pot_into_later_hands():
    options = GAME.parse_options({}, TABLE)
    before = replay(GAME, TABLE, options, [DRAW, declare(A, 40)])
    after = replay(GAME, TABLE, options, [declare(B, 20), declare(A, 40)])
    assert before.results[1].changes == [3, -1] and after.results[1].changes == [5, -1]


# -- the rules page ---------------------------------------------------------------------------------------


def test_every_rule_is_a_section_of_the_rules_page():
    text = RULES_PAGE.read_text(encoding="utf-8")
    assert {rule.value for rule in Rule} <= set(re.findall(r'<section id="([^"]+)"', text))
    assert text.startswith('{% extends "rules/game.html" %}')


# -- properties ----------------------------------------------------------------------------------------------

STRATEGIES = Strategies(  # the hands are the game's own example hands
    options={
        "starting_tokens": st.integers(1, 30),
        "false_declaration": st.sampled_from(["ends_hand", "play_on"]),
        "next_dealer": st.sampled_from(["winner", "alternate"]),
    },
    raw=st.dictionaries(
        st.sampled_from(["outcome", "side", "points", "false_declarations"]),
        json_values(st.integers(-3, 130))
        | st.sampled_from(["declaration", "bura", "draw", 0, 1, 31, 30, [0, 1], [], "1"]),
    ),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_tokens_are_neither_made_nor_lost(match):
    state = GAME.new_state(match.table, match.options)
    for record in match.records:
        done = GAME.play(state, record)
        after = done.state
        # every token is in a balance or in the pot; nobody goes below 0
        assert sum(after.tokens) + pot(after) == 2 * match.options["starting_tokens"]
        assert min(after.tokens) >= 0 and pot(after) >= 0
        assert GAME.scores(after) == [old + change for old, change in zip(GAME.scores(state), done.changes)]
        assert GAME.result(after).over == (0 in after.tokens)
        state = after


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann declares, with 52 card points.
COMMONEST = Commonest(
    (choose("How did the hand end?", "Declaration"), choose("Who?", "Ann"), type_in("Card points", 52)), taps=4, typed=1
)

COMMON = (
    # A bura; a drawn hand.
    Commonest((choose("How did the hand end?", "Bura"), choose("Who?", "Bob")), taps=3),
    Commonest((choose("How did the hand end?", "Draw"),), taps=2),
)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


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
