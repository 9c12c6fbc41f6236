"""Rutter's elimination tournament of California Speed: worked examples of api/races.md
`speed_tournament` (S1:23-31, rulings 2, 9, 10), edge rules first, then properties."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import RecordError, ReplayError, get_game, replay
from scorekeeper.games.speed_tournament import Rule
from tests.games.counted import figures

from .properties import FAST, Strategies, json_values, matches
from .taps import Commonest, choose

GAME = get_game("speed_tournament")
A, B, C, D, E = range(5)
RULES_PAGE = Path(__file__).resolve().parents[2] / "templates" / "rules" / "speed_tournament.html"


def out(seat: int) -> dict:
    return {"eliminated": seat}


def final(seat: int) -> dict:
    return {"winner": seat}


def start(players: int = 4, **options):
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


def shown(state) -> dict:
    return GAME.public_state(state)


# -- declarations ---------------------------------------------------------------------------------


def test_declaration_matches_the_api():
    described = GAME.describe()
    assert (described["players"], described["partnerships"]) == ({"min": 2, "max": 5}, False)
    assert [fld["name"] for fld in described["options"]] == ["first_dealer"]  # first_dealer only
    fields = {fld["name"]: fld for fld in described["hand_fields"]}
    assert list(fields) == ["eliminated", "winner"]
    assert {fld["type"] for fld in fields.values()} == {"side"}
    assert "three or more" in fields["eliminated"]["help"] and "final" in fields["winner"]["help"]
    assert GAME.ends_by_call(GAME.parse_options({}, GAME.table(3))) is False


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(players):
    # ruling 3: S1:23
    with pytest.raises(RecordError, match="2 to 5 players"):
        GAME.table(players)


def test_the_form_offers_eliminated_while_three_are_in_and_winner_in_the_final():
    state = start(3)
    assert [fld.name for fld in GAME.form_fields(state)] == ["eliminated"]
    state, _ = play_all(state, [out(B)])
    assert [fld.name for fld in GAME.form_fields(state)] == ["winner"]


def test_the_form_offers_only_the_players_still_in():
    # issue 21: a player out is never offered again, in the rounds or in the final
    state = start(5)
    (asked,) = GAME.form_fields(state)
    assert asked.exclude == ()
    state, _ = play_all(state, [out(D), out(A)])
    (asked,) = GAME.form_fields(state)
    assert (asked.name, asked.exclude) == ("eliminated", (A, D))
    state, _ = play_all(state, [out(E)])
    (asked,) = GAME.form_fields(state)
    assert (asked.name, asked.exclude) == ("winner", (A, D, E))  # the final: B against C


def test_a_hand_is_called_a_round():
    # api/races.md: "a hand is one round"; S1:23 "une série de tours"
    assert (GAME.hand_word, GAME.hand_words) == ("round", "rounds")
    table = GAME.table(3)
    with pytest.raises(ReplayError, match=r"^Round 2 would no longer be possible"):  # C went out in round 1
        replay(GAME, table, GAME.parse_options({}, table), [out(C), final(C)])


# -- the start ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, deal",
    [
        (5, {"cards": 20, "piles": 2, "removed": 4}),
        (4, {"cards": 26, "piles": 2, "removed": 0}),
        (3, {"cards": 32, "piles": 3, "removed": 8}),
        (2, {"cards": 52, "piles": 5, "removed": 0}),
    ],
)
def test_the_first_deal_follows_the_number_of_players(players, deal):
    # S1:26-29, ruling 10
    assert shown(start(players)) == {
        "players_in": list(range(players)),
        "eliminated": [],
        "next_deal": deal,
        "ranking": None,
    }
    assert GAME.scores(start(players)) == [0] * players


# -- refusals -------------------------------------------------------------------------------------


def test_a_winner_before_the_final_is_refused():
    assert refused(start(), final(A)).fields.keys() == {"winner"}


def test_eliminated_in_the_final_is_refused():
    state, _ = play_all(start(3), [out(C)])
    assert refused(state, out(A)).fields.keys() == {"eliminated"}


def test_both_fields_are_refused():
    assert refused(start(), {"eliminated": A, "winner": B}).fields.keys() == {"winner"}
    state, _ = play_all(start(3), [out(C)])
    assert refused(state, {"eliminated": A, "winner": B}).fields.keys() == {"eliminated"}


@pytest.mark.parametrize(
    "record, field",
    [
        ({}, "eliminated"),
        ({"eliminated": None}, "eliminated"),
        ({"eliminated": 4}, "eliminated"),
        ({"round": 1}, "round"),
    ],
)
def test_missing_null_or_unknown_is_refused(record, field):
    assert field in refused(start(), record).fields


def test_a_missing_or_null_winner_in_the_final_is_refused():
    state = start(2)
    for record in ({}, {"winner": None}):
        assert refused(state, record).fields.keys() == {"winner"}


def test_a_player_already_out_cannot_be_named():
    # API.md: a record that names a player who is out is refused
    state, _ = play_all(start(4), [out(B)])
    error = refused(state, out(B))
    assert error.fields.keys() == {"eliminated"} and "already out" in error.message
    state, _ = play_all(state, [out(D)])
    assert refused(state, final(B)).fields.keys() == {"winner"}
    assert refused(state, final(D)).fields.keys() == {"winner"}


# -- a whole tournament ---------------------------------------------------------------------------


def test_a_five_player_tournament_round_by_round():
    # S1:26-31: rounds of 5, 4, 3, then the final; the deal passes to the next player still in
    state = start(5, first_dealer=1)
    state, hand = play_all(state, [out(C)])
    assert hand.changes == [1, 1, 0, 1, 1] and state.dealer == D  # B deals, C is out: D next
    assert [str(r) for r in hand.reasons] == ["C is eliminated", "A, B, D and E survive the round: +1 each"]
    assert shown(state)["next_deal"] == {"cards": 26, "piles": 2, "removed": 0}
    state, hand = play_all(state, [out(E)])
    assert hand.changes == [1, 1, 0, 1, 0] and state.dealer == A  # D deals, E is out: A next
    assert shown(state)["next_deal"] == {"cards": 32, "piles": 3, "removed": 8}
    state, hand = play_all(state, [out(A)])  # the dealer himself goes out
    assert hand.changes == [0, 1, 0, 1, 0] and state.dealer == B
    assert shown(state)["players_in"] == [B, D] and shown(state)["eliminated"] == [C, E, A]
    assert shown(state)["next_deal"] == {"cards": 52, "piles": 5, "removed": 0}
    assert not GAME.result(state).over and GAME.result(state).headline == "The final: B against D"
    state, hand = play_all(state, [final(D)])
    assert hand.changes == [0, 0, 0, 1, 0] and hand.game_winner == D
    assert hand.reasons[0].rule == "final"
    # ruling 9: the scores end in ranking order, N - 1 for the winner, 0 for the first out
    assert GAME.scores(state) == [2, 3, 0, 4, 1]
    assert shown(state) == {
        "players_in": [D],
        "eliminated": [C, E, A, B],
        "next_deal": None,
        "ranking": [D, B, A, E, C],
    }
    result = GAME.result(state)
    assert (result.over, result.winner, result.ranking, result.out) == (True, D, (D, B, A, E, C), (C, E, A, B))
    assert state.dealer is None  # no next deal after the final
    assert "over" in refused(state, final(D)).message


def test_two_players_play_the_final_alone():
    state, hand = play_all(start(2, first_dealer=1), [final(A)])
    assert hand.changes == [1, 0] and GAME.result(state).winner == A
    assert shown(state)["ranking"] == [A, B] and state.dealer is None


def test_the_deal_skips_every_player_out():
    # from D the deal passes E, just eliminated, to A; from A it passes B, just out, to C
    state = start(5, first_dealer=D)
    state, _ = play_all(state, [out(E)])
    assert state.dealer == A
    state, _ = play_all(state, [out(B)])
    assert state.dealer == C


# -- edits through replay -------------------------------------------------------------------------


def test_an_edit_that_names_a_later_round_player_out_is_refused():
    table = GAME.table(4)
    options = GAME.parse_options({}, table)
    records = [out(A), out(B), final(C)]
    assert GAME.result(replay(GAME, table, options, records).state).winner == C
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [out(B), out(B), final(C)])
    assert caught.value.number == 2 and "already out" in caught.value.message


def test_a_deletion_that_puts_a_winner_before_the_final_is_refused():
    table = GAME.table(4)
    options = GAME.parse_options({}, table)
    with pytest.raises(ReplayError) as caught:
        replay(GAME, table, options, [out(B), final(C)])  # round 1 deleted: the final is a round of three
    assert caught.value.number == 2 and caught.value.fields.keys() == {"winner"}


def test_every_rule_is_a_section_of_the_rules_page():
    ids = set(re.findall(r'<section id="([^"]+)"', RULES_PAGE.read_text(encoding="utf-8")))
    assert {rule.value for rule in Rule} <= ids


# -- properties -----------------------------------------------------------------------------------


def rounds(state) -> st.SearchStrategy[dict]:
    """The next round: any player still in loses it, or wins the final once two are left."""
    return st.sampled_from(state.players_in).map(lambda seat: final(seat) if len(state.players_in) == 2 else out(seat))


STRATEGIES = Strategies(
    record=rounds,
    most=4,  # a whole tournament of five
    raw=st.dictionaries(st.sampled_from(["eliminated", "winner"]), json_values(st.integers(-1, 5))),
)


@FAST
@given(matches(GAME, STRATEGIES))
def test_scores_deal_and_ranking_invariants(match):
    players, records = match.table.players, match.records
    state = GAME.new_state(match.table, match.options)
    for record in records:
        before = state
        state = GAME.play(state, record).state
        assert sum(GAME.scores(state)) == sum(GAME.scores(before)) + len(shown(state)["players_in"])
        if GAME.result(state).over:
            assert state.dealer is None
        else:  # the next player still in after the last dealer
            seat = (before.dealer + 1) % players
            while seat not in state.players_in:
                seat = (seat + 1) % players
            assert state.dealer == seat
    if GAME.result(state).over:
        ranking = shown(state)["ranking"]
        assert sorted(ranking) == list(range(players))
        assert [GAME.scores(state)[seat] for seat in ranking] == list(range(players - 1, -1, -1))


# -- at the table ------------------------------------------------------------------------------------

# The hand a table records most often, as tapped on the phone (tests/browser/test_at_the_table.py):
# Ann wins the final.
COMMONEST = Commonest((choose("Who won the final?", "Ann"),), taps=2)

COMMON = (Commonest((choose("Who won the final?", "Bob"),), taps=2),)


# -- what the table counts (the game's statistics, tests/games/counted.py) ----------------------------


def test_speed_tournament_counts():
    # Four in: Cy goes out, then Ann; Di beats Bo in the final.
    # Rounds survived: Ann 1, Bo 2, Cy 0, Di 3. The final: Bo and Di. Places: Di 1, Bo 2, Ann 3, Cy 4.
    records = [{"eliminated": C}, {"eliminated": A}, {"winner": D}]
    assert figures("speed_tournament", 4, records) == {
        "rounds_survived": [1, 2, 0, 3],
        "finals_reached": [0, 1, 0, 1],
        "best_place": [3, 2, 4, 1],
    }
