"""The bench's page weights alone, without its timings: `.venv/bin/python bench/weigh.py`.

bench.py weighs its pages only at the end of a run of several minutes of timing. This builds the
same database as bench.py (its set-up, grown to its largest size, a 3-hand probe, its long matches
taken on by the hands bench.py's writes add) and weighs every page with bench.py's own functions,
so that a change to a page's weight can be checked in a minute or two. Exit status 1 when a page
is over its limit."""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

# This checkout's app, before anything imports it: run from a git worktree, the virtualenv's own
# install (another checkout) would be the one weighed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_fill
import bench_history
import bench_report as report
from bench_play import Play
from flask_migrate import upgrade
from sqlalchemy import select

import bench
from scorekeeper.extensions import db
from scorekeeper.models import Match


def weights(url: str, size: int, hands: int, added: int) -> report.Verdicts:
    app = bench.make_app(url)
    with app.app_context():
        upgrade(directory=str(bench.ROOT / "migrations"))
    visitor, scorer, rng = app.test_client(), app.test_client(), random.Random(14)
    players, templates, long_plays = bench.build_setup(app, visitor, rng, hands)
    for _, play, primer in long_plays:
        bench.join(app, scorer, play)
        bench.join(app, scorer, primer)
        play.play(visitor, added)  # the hands bench.py's writes add before it weighs
    bench_history.set_night(app, templates)
    bench_fill.Cloner(app, templates, players).grow_to(size - 1, rng)
    probe = Play(visitor, "court_piece", rng.sample(bench_fill.CLUB, 4), seed=size)
    probe.play(visitor, 3)
    bench.join(app, scorer, probe)
    with app.app_context():
        special = {m.id for _, play, primer in long_plays for m in (play, primer)} | {probe.id}
        viewed = db.session.scalar(select(Match.id).where(Match.id.not_in(special)).limit(1))
        db.session.remove()
    rows = bench.weigh_pages(visitor, scorer, long_plays, probe, players, viewed)
    verdicts = report.Verdicts()
    print("\n".join(bench.weight_table(rows, verdicts, "SQLite")))
    return verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000, help="matches in the database (bench.py's largest)")
    parser.add_argument("--hands", type=int, default=500, help="hands in each long match (bench.py's default)")
    # bench.py's writes: three kinds, 100 requests and 3 warm-up rounds each, on each long match.
    parser.add_argument("--added", type=int, default=3 * 103, help="hands the writes add to each long match")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scorekeeper-weigh-")
    try:
        verdicts = weights(f"sqlite:///{folder}/bench.sqlite", args.size, args.hands, args.added)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"\n{verdicts.checked - len(verdicts.missed)} of {verdicts.checked} pages within their limit.")
    return 1 if verdicts.missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
