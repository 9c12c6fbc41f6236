"""A player's story in one game, worked out from their finished matches in the order they finished.

Pure: no database, no web (its one text a page shows, `shown_statistics`, is marked for translation:
English outside a request). `seat_figures` says what one finished match gave each seat (its side's
rank and outcome, its hands, the game's own figures); `Story.after` is a player's story after one
more match (rating, streaks, totals); `Ratings.rate` moves the ratings of a whole table at once
(OpenSkill's Plackett-Luce: each side a team, sides that tie share a rank).

Every game gets the same generic story (matches won, shared, lost, drawn; games won and lost
within matches; the average and best hand by its change, or by what it moved the board's total
where the game counts its hands on the board (Poke); streaks of matches won; a rating); a game
adds its own figures by declaring `statistics` (see `games.statistics`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from babel.numbers import format_decimal
from flask_babel import get_locale
from flask_babel import gettext as _
from openskill.models import PlackettLuce

from ...games.statistics import AVERAGE, LEAST, MOST, TOTAL, Finished, Statistic, board_moves

WON, SHARED, LOST, DRAWN = "won", "shared", "lost", "drawn"
WINS = (WON, SHARED)  # what keeps a streak going

MODEL = PlackettLuce()  # its defaults: a new player at 25 ± 8.33
START_MU, START_SIGMA = MODEL.mu, MODEL.sigma


def declared(game) -> tuple[Statistic, ...]:
    """The game's own statistics (none where it declares none)."""
    return tuple(getattr(game, "statistics", ()) or ())


@cache
def lower_is_better(game) -> bool:
    """Whether the game's best hand is its lowest (penalty points), as its board says."""
    table = game.table(game.min_players)
    return bool(game.board(game.new_state(table, game.parse_options({}, table))).lower_is_better)


# -- what one finished match gave each seat ------------------------------------------------------------


@dataclass(frozen=True)
class SeatFigures:
    """What a finished match gave one seat: the inputs of its player's story."""

    position: int
    player_id: int
    side: int
    rank: int
    outcome: str
    hands: int
    hand_total: int
    best_hand: int | None
    games_won: int
    games_lost: int
    figures: Mapping[str, int] = field(default_factory=dict)

    INPUTS = (
        "position",
        "player_id",
        "side",
        "rank",
        "outcome",
        "hands",
        "hand_total",
        "best_hand",
        "games_won",
        "games_lost",
        "figures",
    )

    def as_row(self) -> dict[str, Any]:
        return {name: (dict(self.figures) if name == "figures" else getattr(self, name)) for name in self.INPUTS}


def ranks(result, sides: int) -> list[int]:
    """Each side's place in a finished match, 1 best, ties sharing a place: the game's own ranking
    where it gives one; else the winners (and a shared win, and a draw) first, then the losers still
    in, then the sides that went out, the last out best."""
    if result.ranking and sorted(result.ranking) == list(range(sides)):
        return [result.ranking.index(side) + 1 for side in range(sides)]
    outcomes = [result.outcome(side) for side in range(sides)]
    out = [side for side in result.out if outcomes[side] == LOST]
    losers_in = any(outcome == LOST and side not in out for side, outcome in enumerate(outcomes))
    placed = []
    for side, outcome in enumerate(outcomes):
        if outcome != LOST:
            placed.append(1)
        elif side not in out:
            placed.append(2)
        else:
            placed.append(1 + losers_in + len(out) - out.index(side))
    return placed


def hand_points(game, finished: Finished) -> list[Sequence[int]]:
    """What each hand counts for the average and best hand, per side: its changes, or, where they hold
    points the board's total leaves out (Poke's below the line), what it moved the board's total by."""
    if not game.hands_on_board:
        return [hand.changes for hand in finished.hands]
    return board_moves(finished, game.new_state(finished.table, finished.state.options), game.scores)


def seat_figures(game, finished: Finished, seats: Iterable[tuple[int, int, int]]) -> list[SeatFigures]:
    """What the finished match gave each seat ((position, player, side) each)."""
    sides = finished.table.sides
    placed = ranks(finished.result, sides)
    lowest = lower_is_better(game)
    totals, bests = [0] * sides, [None] * sides
    won, lost = [0] * sides, [0] * sides
    for hand, points in zip(finished.hands, hand_points(game, finished)):
        for side, change in enumerate(points):
            totals[side] += change
            best = bests[side]
            bests[side] = change if best is None else (min(best, change) if lowest else max(best, change))
        if hand.game_winner is not None:
            for side in range(sides):
                (won if side == hand.game_winner else lost)[side] += 1
    own = [
        {stat.key: value for stat in declared(game) if (value := stat.count(finished, side)) is not None}
        for side in range(sides)
    ]
    return [
        SeatFigures(
            position,
            player,
            side,
            placed[side],
            finished.result.outcome(side),
            len(finished.hands),
            totals[side],
            bests[side],
            won[side],
            lost[side],
            own[side],
        )
        for position, player, side in seats
    ]


# -- a player's story after each match ------------------------------------------------------------------


@dataclass(frozen=True)
class Story:
    """A player's story in one game after some of their finished matches."""

    number: int = 0
    won: int = 0
    shared: int = 0
    lost: int = 0
    drawn: int = 0
    streak: int = 0
    best_streak: int = 0
    mu: float = START_MU
    sigma: float = START_SIGMA
    all_hands: int = 0
    all_total: int = 0
    all_best: int | None = None
    all_games_won: int = 0
    all_games_lost: int = 0
    kept: Mapping[str, list] = field(default_factory=dict)  # key -> [kept value, matches counted]

    COLUMNS = (
        "number",
        "won",
        "shared",
        "lost",
        "drawn",
        "streak",
        "best_streak",
        "mu",
        "sigma",
        "all_hands",
        "all_total",
        "all_best",
        "all_games_won",
        "all_games_lost",
        "kept",
    )

    @classmethod
    def of(cls, row: Any) -> Story:
        """The story kept in a row (anything with the columns as attributes or keys)."""
        get = row.get if isinstance(row, Mapping) else lambda name: getattr(row, name)
        return cls(**{name: get(name) for name in cls.COLUMNS})

    def as_row(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.COLUMNS}

    def after(
        self, seat: SeatFigures, rating: tuple[float, float], statistics: Sequence[Statistic], lowest: bool
    ) -> Story:
        """The story after one more match, `rating` the player's new (mu, sigma)."""
        streak = self.streak + 1 if seat.outcome in WINS else 0
        counts = {outcome: getattr(self, outcome) + (seat.outcome == outcome) for outcome in (WON, SHARED, LOST, DRAWN)}
        best = self.all_best
        if seat.best_hand is not None:
            best = (
                seat.best_hand if best is None else (min(best, seat.best_hand) if lowest else max(best, seat.best_hand))
            )
        return replace(
            self,
            number=self.number + 1,
            **counts,
            streak=streak,
            best_streak=max(self.best_streak, streak),
            mu=rating[0],
            sigma=rating[1],
            all_hands=self.all_hands + seat.hands,
            all_total=self.all_total + seat.hand_total,
            all_best=best,
            all_games_won=self.all_games_won + seat.games_won,
            all_games_lost=self.all_games_lost + seat.games_lost,
            kept=kept_after(self.kept, seat.figures, statistics),
        )

    @property
    def average_hand(self) -> float | None:
        return self.all_total / self.all_hands if self.all_hands else None


def kept_after(kept: Mapping[str, list], figures: Mapping[str, int], statistics: Sequence[Statistic]) -> dict:
    """The game's own statistics added up with one more match's figures, as each declares."""
    after = {key: list(value) for key, value in kept.items()}
    for stat in statistics:
        if stat.key not in figures:
            continue
        value = figures[stat.key]
        if stat.key not in after:
            after[stat.key] = [value, 1]
            continue
        held, count = after[stat.key]
        if stat.keep in (TOTAL, AVERAGE):
            held += value
        elif stat.keep == MOST:
            held = max(held, value)
        elif stat.keep == LEAST:
            held = min(held, value)
        after[stat.key] = [held, count + 1]
    return after


def _number(value: float, pattern: str | None = None) -> str:
    """A figure as the page's language writes it ("1,234" in English, "1.234" in Spanish)."""
    return format_decimal(value, format=pattern, locale=get_locale() or "en")


def shown_statistics(statistics: Sequence[Statistic], kept: Mapping[str, list]) -> list[tuple[str, str]]:
    """(label, value as shown) for each of the game's own statistics the player has a figure for."""
    shown = []
    for stat in statistics:
        if stat.key not in kept:
            continue
        held, count = kept[stat.key]
        if stat.keep == TOTAL:
            # Translators: a player's total of a figure in one game, and its average per match played
            shown.append(
                (
                    stat.label,
                    _("%(total)s (%(average)s a match)", total=_number(held), average=_number(held / count, "0.0")),
                )
            )
        elif stat.keep == AVERAGE:
            # Translators: a player's average of a figure per match played
            shown.append((stat.label, _("%(average)s a match", average=_number(held / count, "0.0"))))
        else:
            shown.append((stat.label, _number(held)))
    return shown


# -- ratings -------------------------------------------------------------------------------------------


def rate(seats: Sequence[SeatFigures], before: Mapping[int, Story]) -> dict[int, tuple[float, float]]:
    """Every player's new (mu, sigma) after a match, from their stories before it: each side a team,
    ranked as the match ended."""
    sides = sorted({seat.side for seat in seats})
    teams = [[seat for seat in seats if seat.side == side] for side in sides]
    if len(teams) < 2:  # nobody to be rated against
        return {seat.player_id: (before[seat.player_id].mu, before[seat.player_id].sigma) for seat in seats}
    ratings = [
        [MODEL.rating(mu=before[seat.player_id].mu, sigma=before[seat.player_id].sigma) for seat in team]
        for team in teams
    ]
    rated = MODEL.rate(ratings, ranks=[team[0].rank for team in teams])
    return {
        seat.player_id: (new.mu, new.sigma) for team, new_team in zip(teams, rated) for seat, new in zip(team, new_team)
    }


def fold(
    seats: Sequence[SeatFigures], before: Mapping[int, Story], statistics: Sequence[Statistic], lowest: bool
) -> dict[int, Story]:
    """Each player's story after the match whose seats are `seats`."""
    rated = rate(seats, before)
    return {
        seat.player_id: before[seat.player_id].after(seat, rated[seat.player_id], statistics, lowest) for seat in seats
    }


def chances(sides: Sequence[Sequence[tuple[float, float]]]) -> list[float]:
    """Each side's chance of winning, from its players' (mu, sigma)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in side] for side in sides]
    return list(MODEL.predict_win(teams))


def display(mu: float, sigma: float) -> str:
    return f"{mu:.1f} ± {sigma:.1f}"


# -- two players at one table ------------------------------------------------------------------------

PAIR_COLUMNS = ("partners", "partners_won", "partners_lost", "against", "ahead", "behind")


def pair_counts(seats: Sequence[SeatFigures]) -> dict[tuple[int, int], dict[str, int]]:
    """For each two players of a finished match, from the first one's side: partners (and whether
    their side won or lost), or opponents (and who finished ahead)."""
    counts = {}
    for one in seats:
        for other in seats:
            if one is other:
                continue
            if one.side == other.side:
                row = {
                    "partners": 1,
                    "partners_won": int(one.outcome in WINS),
                    "partners_lost": int(one.outcome == LOST),
                }
            else:
                row = {"against": 1, "ahead": int(one.rank < other.rank), "behind": int(one.rank > other.rank)}
            counts[one.player_id, other.player_id] = {name: row.get(name, 0) for name in PAIR_COLUMNS}
    return counts
