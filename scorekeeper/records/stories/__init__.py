"""Each player's story per game, kept as matches finish and change (`rated_seat`, `rating_book`,
`pair_tally`, `pair_match`), one job a module:

- figures.py: what a finished match gives each seat;
- stats.py: the fold of those figures into each player's story (ratings, streaks, totals);
- placing.py: a write's part, in its transaction: a match put in its place;
- rerating.py: the later matches of a game re-rated after a change to an early one (the runner);
- rebuilding.py: everything worked out again from the matches;
- audit.py: the kept stories checked against a fresh computation;
- ledger.py: the statements they share."""
