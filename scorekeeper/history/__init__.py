"""Match history worth keeping: each player's story per game, ratings, head to head and partners,
game nights, and exports from the page. A game's own statistics are declared in its engine module
(`games.statistics`); this package counts them."""

from .views import bp  # noqa: F401
