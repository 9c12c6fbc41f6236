"""The four flagship games through the API (RULES.md 1.1-1.4): what the API adds to their rules.

The rules and their figures are tested once, in tests/games (test_envite.py, test_court_piece.py,
test_poke.py, test_schnapsen.py, each worked example citing its seed line or ruling). Here the same
worked examples go through the API: every answer carries what the engine makes of the hands (the
hand's changes and reasons; the match's scores, state, status, winner and dealer), options given at
the start are the ones scored with, and a record the rules refuse is a 422 naming the field in
API.md's terms ("at_close.points"), with nothing stored.
"""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from tests.conftest import DATABASES, database_url, make_app

from .contract import (
    A_WINS,
    B_WINS,
    ENVITE_LYING_A,
    PLAYERS,
    A,
    B,
    check_answer,
    check_match_shape,
    check_refusals,
    engine_says,
    get_match,
    play,
    start,
)

pytestmark = pytest.mark.one_database  # a game's scoring through the API, not SQL: SQLite alone (tests/conftest.py)

CLOSED_BY_A = {"ending": "out", "declarer": A, "points": [70, 45], "tricks": [5, 3], "closed_by": A}
FAILED_CLOSE = {
    "ending": "played_out",
    "last_trick": B,
    "points": [40, 50],
    "tricks": [4, 4],
    "closed_by": A,
    "at_close": {"points": 0, "tricks": 0},
}


@pytest.fixture(scope="module", params=DATABASES)
def client(request, tmp_path_factory):
    """One app for the module, on each database: every case plays matches of its own."""
    app = make_app(database_url(request.param, tmp_path_factory.mktemp("flagship")))
    yield app.test_client()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def case(name: str, game: str, records: list, players: list[str] | None = None, **options):
    return pytest.param(game, players or PLAYERS[game], options, records, id=name)


WORKED = [
    # Envite (RULES.md 1.1; tests/games/test_envite.py)
    case("envite-declined-raise-to-4", "envite", [{"winner": B, "stake": 4, "declined": True}]),
    case("envite-declined-raise-to-7", "envite", [{"winner": B, "stake": 7, "declined": True}]),
    case("envite-declined-raise-to-9", "envite", [{"winner": A, "stake": 9, "declined": True}]),
    case("envite-declined-raise-to-game", "envite", [{"winner": A, "stake": "game", "declined": True}]),
    case("envite-stake-2", "envite", [{"winner": A}]),
    case("envite-stake-7", "envite", [{"winner": B, "stake": 7}]),
    case("envite-trawl", "envite", [{"winner": A, "stake": 4, "trawl_failure": True}]),
    case("envite-over-eleven-ignored", "envite", [{"winner": A, "stake": 9}, {"winner": A, "stake": 4}]),
    case("envite-lying-side-gives-up", "envite", ENVITE_LYING_A + [{"forfeit": True}]),
    case("envite-lying-side-gives-up-to-b", "envite", ENVITE_LYING_A + [{"winner": B, "forfeit": True}]),
    case("envite-lying-side-loses", "envite", ENVITE_LYING_A + [{"winner": B}]),
    case("envite-lying-side-fails-a-trawl", "envite", ENVITE_LYING_A + [{"winner": B, "trawl_failure": True}]),
    case("envite-lying-side-wins-the-game", "envite", ENVITE_LYING_A + [{"winner": A}]),
    case(
        "envite-both-lying-down", "envite", [{"winner": B, "stake": 9}, *ENVITE_LYING_A, {"winner": B}, {"winner": B}]
    ),
    case(
        "envite-game-stake-wins-the-match",
        "envite",
        [{"winner": B, "stake": "game"}, {"winner": A, "stake": 7}, {"winner": B, "stake": "game"}],
        games_to_win=2,
    ),
    case(
        "envite-trawl-options",
        "envite",
        [
            {"winner": A, "stake": 4, "trawl_failure": True},
            {"winner": A, "stake": 7},
            {"winner": B, "trawl_failure": True},
        ],
        trawl_bonus=0,
        trawl_bonus_in_lying_hand=0,
    ),
    case("envite-three-games-to-win", "envite", [{"winner": A, "stake": "game"}] * 3, games_to_win=3),
    case(
        "envite-deal-across-games",
        "envite",
        [{"winner": A}, {"winner": B, "stake": "game"}, {"winner": A}, {"winner": B}, {"winner": A}, {"winner": A}],
        players=[f"P{seat}" for seat in range(5)],
        first_dealer=3,
    ),
    # Court Piece (RULES.md 1.2; tests/games/test_court_piece.py)
    case("court-piece-seventh-straight-win", "court_piece", [A_WINS] * 7 + [B_WINS]),
    case("court-piece-the-other-side-breaks-the-streak", "court_piece", [A_WINS] * 6 + [B_WINS, A_WINS]),
    case("court-piece-first-seven", "court_piece", [A_WINS, A_WINS, {"outcome": "first_seven", "side": B}]),
    case(
        "court-piece-first-seven-not-all-thirteen",
        "court_piece",
        [A_WINS, A_WINS, {"outcome": "first_seven", "side": B, "all_thirteen": False}],
    ),
    case(
        "court-piece-all-thirteen",
        "court_piece",
        [A_WINS, A_WINS, {"outcome": "first_seven", "side": A, "all_thirteen": True}],
    ),
    case(
        "court-piece-all-thirteen-53",
        "court_piece",
        [A_WINS, A_WINS, {"outcome": "first_seven", "side": A, "all_thirteen": True}],
        all13_courts=53,
    ),
    case("court-piece-revoke-by-a", "court_piece", [A_WINS, A_WINS, {"outcome": "revoke", "side": A}]),
    case("court-piece-revoke-by-b", "court_piece", [A_WINS, A_WINS, {"outcome": "revoke", "side": B}]),
    case(
        "court-piece-count-as-win",
        "court_piece",
        [A_WINS] * 6 + [{"outcome": "first_seven", "side": A}],
        court_hand_streak_policy="count_as_win",
    ),
    case(
        "court-piece-ignore",
        "court_piece",
        [A_WINS, {"outcome": "first_seven", "side": A}, {"outcome": "revoke", "side": A}],
        court_hand_streak_policy="ignore",
    ),
    case(
        "court-piece-the-deal",
        "court_piece",
        [
            A_WINS,
            A_WINS,
            {"outcome": "first_seven", "side": A},
            {"outcome": "revoke", "side": B},
            B_WINS,
            {"outcome": "first_seven", "side": A},
        ],
    ),
    case("court-piece-a-streak-court-against-the-dealer", "court_piece", [A_WINS] * 7, first_dealer=1),
    # Poke (RULES.md 1.3; tests/games/test_poke.py)
    case(
        "poke-doubled-tricks-and-honours",
        "poke",
        [{"tricks": [3, 2], "draws": [1, 1], "better_hand": A, "poker_hand": "flush"}],
    ),
    *[
        case(f"poke-draws-{draws[0]}-{draws[1]}", "poke", [{"tricks": [3, 2], "draws": draws}])
        for draws in ([0, 0], [1, 0], [2, 0], [3, 0], [0, 1], [0, 2], [3, 2])
    ],
    case(
        "poke-a-game-at-20-then-the-rubber",
        "poke",
        [
            {"tricks": [0, 5], "draws": [3, 0]},
            {"tricks": [0, 5], "draws": [2, 0], "better_hand": A, "poker_hand": "one_pair"},
        ],
    ),
    case(
        "poke-the-rubber-winner-loses-above-the-line",
        "poke",
        [
            {"tricks": [0, 5], "draws": [3, 0], "better_hand": A, "poker_hand": "royal_flush"},
            {"tricks": [0, 5], "draws": [2, 0]},
        ],
        rubber_bonus_2_0=0,
        game_bonus=0,
        sweep_bonus=0,
    ),
    case(
        "poke-a-tie-at-the-target-plays-on",
        "poke",
        [{"tricks": [2, 3], "draws": [0, 0]}, {"tricks": [3, 2], "draws": [0, 0]}],
        game_target=4,
    ),
    case(
        "poke-cards-decide-the-better-hand",
        "poke",
        [
            {
                "tricks": [3, 2],
                "draws": [0, 0],
                "cards": [["2H", "3H", "4H", "5H", "7D"], ["AS", "KS", "QS", "JS", "TS"]],
            }
        ],
    ),
    case(
        "poke-the-non-dealer-draw-limit-follows-the-deal", "poke", [{"tricks": [3, 2], "draws": [0, 3]}], first_dealer=1
    ),
    case("poke-the-deal-alternates", "poke", [{"tricks": [3, 2], "draws": [0, 0]}] * 3, first_dealer=1),
    # Schnapsen (RULES.md 1.4; tests/games/test_schnapsen.py)
    case("schnapsen-schneider", "schnapsen", [{"ending": "out", "declarer": A, "points": [66, 32], "tricks": [4, 2]}]),
    case(
        "schnapsen-33-is-not-schneider",
        "schnapsen",
        [{"ending": "out", "declarer": A, "points": [66, 33], "tricks": [4, 2]}],
    ),
    case("schnapsen-schwarz", "schnapsen", [{"ending": "out", "declarer": B, "points": [0, 70], "tricks": [0, 5]}]),
    case(
        "schnapsen-false-claim", "schnapsen", [{"ending": "out", "declarer": A, "points": [60, 50], "tricks": [4, 3]}]
    ),
    case(
        "schnapsen-played-out",
        "schnapsen",
        [{"ending": "played_out", "last_trick": B, "points": [70, 50], "tricks": [6, 4]}],
    ),
    case("schnapsen-closed-and-out", "schnapsen", [{**CLOSED_BY_A, "at_close": {"points": 20, "tricks": 1}}]),
    case("schnapsen-failed-close-without-a-trick", "schnapsen", [FAILED_CLOSE]),
    case("schnapsen-failed-close", "schnapsen", [{**FAILED_CLOSE, "at_close": {"points": 10, "tricks": 1}}]),
    case(
        "schnapsen-the-game-ends-at-the-target",
        "schnapsen",
        [
            {"ending": "out", "declarer": B, "points": [0, 70], "tricks": [0, 5]},
            {"ending": "out", "declarer": B, "points": [20, 70], "tricks": [1, 5]},
        ],
        target=4,
    ),
    case("schnapsen-close-tally-by-points", "schnapsen", [{**CLOSED_BY_A, "at_close": {"points": 40, "tricks": 1}}]),
    case(
        "schnapsen-close-tally-by-cards-only",
        "schnapsen",
        [{**CLOSED_BY_A, "at_close": {"points": 40, "tricks": 1, "marriages": 20}}],
        close_tally="cards_only",
    ),
    case("schnapsen-fail-three-measured-at-the-close", "schnapsen", [FAILED_CLOSE]),
    case("schnapsen-fail-three-measured-at-the-end", "schnapsen", [FAILED_CLOSE], fail_three_measured_at="end"),
    case(
        "schnapsen-the-deal-alternates",
        "schnapsen",
        [{"ending": "out", "declarer": A, "points": [66, 40], "tricks": [4, 3]}] * 3,
        first_dealer=1,
    ),
]


@pytest.mark.parametrize("game, players, options, records", WORKED)
def test_each_answer_carries_what_the_engine_makes_of_the_hands(client, game, players, options, records):
    match = start(client, game, players, **options)
    assert match["options"] == {**match["options"], **options}  # the options the hands are scored with
    for number in range(1, len(records) + 1):
        answer = play(client, match["id"], records[number - 1])
        assert answer["number"] == number
        check_answer(answer, engine_says(game, len(players), options, records[:number]))
    final = get_match(client, match["id"])
    check_match_shape(final, game, players)
    assert final == answer["match"] and [hand["record"] for hand in final["hands"]] == records


# (hands before, record, field named): one refusal of each kind the API maps to its field (the rules
# that refuse them, each kind and case, are in tests/games).
REFUSALS = {
    "envite": [
        ([], {"stake": 4}, "winner"),  # a field the record needs
        ([], {"winner": A, "stake": 5}, "stake"),  # a value the field does not take
        (ENVITE_LYING_A, {"winner": B, "stake": 4}, "stake"),  # a rule of the state: no bidding while lying
        ([{"winner": B, "stake": 9}, *ENVITE_LYING_A, {"winner": B}], {"forfeit": True}, "forfeit"),  # both lying
    ],
    "court_piece": [
        ([A_WINS], {"outcome": "tricks", "tricks": [7, 7]}, "tricks"),
        ([A_WINS], {"outcome": "revoke", "side": A, "tricks": [7, 6]}, "tricks"),  # a field of another outcome
    ],
    "poke": [
        ([], {"tricks": [3, 2], "draws": [0, 3]}, "draws"),  # the non-dealer draws at most twice
        (
            [],
            {
                "tricks": [3, 2],
                "draws": [0, 0],
                "better_hand": A,
                "poker_hand": "flush",
                "cards": [["AS", "KS", "QS", "JS", "TS"], ["2H", "3H", "4H", "5H", "7D"]],
            },
            "cards",
        ),
    ],
    "schnapsen": [
        ([], {"ending": "out", "points": [66, 32], "tricks": [4, 2]}, "declarer"),
        (
            [],
            {
                "ending": "out",
                "declarer": A,
                "points": [66, 32],
                "tricks": [4, 2],
                "closed_by": A,
                "at_close": {"points": 40, "tricks": 1},
            },
            "at_close.points",
        ),  # a field inside a group
        ([], {**CLOSED_BY_A, "at_close": {"points": 40, "tricks": 1, "marriages": 20}}, "at_close.marriages"),
    ],
}


@pytest.mark.parametrize("game", list(REFUSALS))
def test_a_record_the_rules_refuse_is_a_422_naming_the_field_and_nothing_changes(client, game):
    check_refusals(client, game, REFUSALS[game])
