"""The history checked against a fresh computation (`flask verify`, `flask import`): every story,
pair and book as the finished matches' seats make them, said as sentences."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from sqlalchemy import func, select

from ...extensions import db
from ...models import FINISHED
from .figures import figures_from_rows, figures_of
from .ledger import BOOKS, PAIRS, SEATS, TOGETHER, grouped_by, rules_of, streamed
from .stats import PAIR_COLUMNS, Story, fold, pair_counts

SHOWN = 5  # differences told per game; the rest are counted


def match_differences(scored) -> list[str]:
    """Where a match's rows in the history differ from what its replay gives each seat."""
    connection = db.session.connection()
    rows = connection.execute(select(SEATS).where(SEATS.c.match_id == scored.match.id)).mappings().all()
    new = figures_of(scored, connection) if scored.finished else []
    if figures_from_rows(rows) == new:
        return []
    if not rows:
        return [f"match {scored.match.id}: finished, but not in its players' stories"]
    if not new:
        return [f"match {scored.match.id}: in its players' stories, but it is not finished"]
    return [f"match {scored.match.id}: what it gave its seats in the players' stories differs from the replay"]


def differences(connection=None) -> list[str]:
    """Where the kept stories, pairs and books differ from a fresh computation from the seats' rows
    (each game's matches folded in their order from the start), as sentences."""
    connection = connection or db.session.connection()
    books = {game: (places, stale) for game, places, stale in connection.execute(select(BOOKS))}
    pairs = [row._mapping for row in connection.execute(select(PAIRS))]
    together = dict(
        ((one, other), count)
        for one, other, count in connection.execute(
            select(TOGETHER.c.player_id, TOGETHER.c.other_id, func.count()).group_by(
                TOGETHER.c.player_id, TOGETHER.c.other_id
            )
        )
    )
    games = connection.execute(select(SEATS.c.game).distinct()).scalars().all()
    return _checked({game: streamed(connection, game) for game in games}, books, pairs, together)


def file_differences(rows: dict[str, list[dict]]) -> list[str]:
    """The same checks on an export's rows (flask import), and that each finished match of the file is
    in the stories as its seats say (players, sides, outcomes) and no other match is."""
    by_game: dict[str, list[dict]] = defaultdict(list)
    for row in sorted(rows["rated_seat"], key=lambda row: (row["place"], row["match_id"], row["position"])):
        by_game[row["game"]].append(row)
    books = {row["game"]: (row["places"], row["stale_from"]) for row in rows["rating_book"]}
    together = Counter((row["player_id"], row["other_id"]) for row in rows["pair_match"])
    found = _seats_differences(rows)
    return found + _checked(by_game, books, rows["pair_tally"], together, stopping=True)


def _seats_differences(rows: dict[str, list[dict]]) -> list[str]:
    finished = {match["id"] for match in rows["match"] if match["status"] == FINISHED}
    seats = {
        (seat["match_id"], seat["position"]): (seat["player_id"], seat["side"], seat["outcome"])
        for seat in rows["seat"]
        if seat["match_id"] in finished
    }
    rated = {
        (row["match_id"], row["position"]): (row["player_id"], row["side"], row["outcome"])
        for row in rows["rated_seat"]
    }
    for key in sorted(set(seats) | set(rated)):
        if seats.get(key) != rated.get(key):
            return [f"match {key[0]}: its seats and its place in the players' stories disagree"]
    return []


def _checked(
    games: dict[str, Iterable],
    books: dict,
    kept_pairs: Iterable,
    together: dict[tuple[int, int], int],
    stopping: bool = False,
) -> list[str]:
    """Fold each game's rows (in place order) from the start and compare; then the pairs (their tallies
    per game, and how many matches together are listed for them) and the books. `stopping`: the first
    difference is enough (an import refuses at once)."""
    found = []
    pairs: dict[tuple[int, int, str], Counter] = defaultdict(Counter)
    for game in sorted(set(games) | set(books)):
        statistics, lowest = rules_of(game)
        places, stale = books.get(game, (None, None))
        stories: dict[int, Story] = defaultdict(Story)
        wrong, last = [], 0
        for seats in grouped_by("match_id", games.get(game, ())):
            figures = figures_from_rows(seats)
            after = fold(figures, stories, statistics, lowest)
            stories.update(after)
            for (one, other), counts in pair_counts(figures).items():
                pairs[one, other, game].update(counts)
            last = seats[0]["place"]
            if stale is not None and last >= stale:
                continue  # still being worked out: a follow-up (or flask verify --store) goes on from here
            wrong += [
                f"{game}: player {row['player_id']}'s story after match {row['match_id']} differs from a "
                "fresh computation"
                for row in seats
                if not same_story(Story.of(row), after[row["player_id"]])
            ]
        found += wrong[:SHOWN]
        if len(wrong) > SHOWN:
            found.append(f"{game}: {len(wrong) - SHOWN} more stories differ from a fresh computation")
        if places is None or places < last:
            found.append(f"{game}: its book of places is behind its finished matches")
        if stale is not None and not stopping:
            found.append(f"{game}: its stories are still being worked out again (from place {stale})")
        if found and stopping:
            return found[:1]
    held = {
        (row["player_id"], row["other_id"], row["game"]): {name: row[name] for name in PAIR_COLUMNS}
        for row in kept_pairs
    }
    for key in sorted(set(held) | set(pairs)):
        counted = {name: pairs[key][name] for name in PAIR_COLUMNS} if key in pairs else None
        kept = held.get(key)
        if kept != counted and not (counted is None and not any(kept.values())):
            found.append(
                f"players {key[0]} and {key[1]}, {key[2]}: the kept tally of their matches together "
                "differs from their seats"
            )
            if stopping:
                return found[:1]
    listed: Counter = Counter()
    for (one, other, _), counts in pairs.items():
        if one < other:
            listed[one, other] += counts["partners"] + counts["against"]
    for key in sorted(set(listed) | set(together)):
        if listed.get(key, 0) != together.get(key, 0):
            found.append(
                f"players {key[0]} and {key[1]}: the list of their finished matches together differs from their seats"
            )
            if stopping:
                return found[:1]
    return found


def same_story(kept: Story, fresh: Story) -> bool:
    """Equal, the ratings to within a billionth (a float read back from the database)."""
    close = abs(kept.mu - fresh.mu) <= 1e-9 * max(1.0, abs(fresh.mu)) and abs(kept.sigma - fresh.sigma) <= 1e-9
    return close and kept.as_row() | {"mu": 0, "sigma": 0} == fresh.as_row() | {"mu": 0, "sigma": 0}
