"""Live views: the phones that watch a match learn of each change without costing the database.

A watching phone holds no database connection. One poller per process reads the versions of every
match its phones watch, in one statement a tick whatever the number of watchers, and wakes the
watchers whose match moved. Every process polls for its own watchers, so any number of workers and
hosts on one database agree; a hand reaches its watchers within a tick or two.

Plain `threading`: under gunicorn's gevent workers it is monkey-patched into greenlets and events,
under Flask's development server it is real threads."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

from sqlalchemy import select
from sqlalchemy.engine import Engine

from ..models import Match
from ..records.connections import reading_only

TICK = 0.25  # seconds between two looks at the watched versions: a change reaches its phones in about one
BATCH = 500  # match ids per statement, well under every database's limit of bound values
GONE = None  # the version of a match that was deleted meanwhile

log = logging.getLogger(__name__)


class Watcher:
    """One phone waiting for a match to move past the version its page shows."""

    __slots__ = ("match_id", "seen", "now", "moved")

    def __init__(self, match_id: int, seen: int | None):
        self.match_id = match_id
        self.seen = seen
        self.now: int | None = seen
        self.moved = threading.Event()

    def tell(self, version: int | None) -> None:
        if version != self.seen:
            self.now = version
            self.moved.set()


class Hub:
    """The watchers of one process and the poller that serves them all."""

    def __init__(self, engine: Engine, tick: float = TICK):
        self.engine = engine
        self.tick = tick
        self._watchers: dict[int, set[Watcher]] = {}
        self._lock = threading.Lock()
        self._poller: threading.Thread | None = None
        self.looks = 0  # statements run so far (the tests count them against the watchers)

    def watch(self, match_id: int, seen: int | None) -> Watcher:
        """A new watcher of the match, told at the next tick if the match is past `seen` already."""
        watcher = Watcher(match_id, seen)
        with self._lock:
            self._watchers.setdefault(match_id, set()).add(watcher)
            if self._poller is None or not self._poller.is_alive():
                self._poller = threading.Thread(target=self._poll, name="scorekeeper-live", daemon=True)
                self._poller.start()
        return watcher

    def forget(self, watcher: Watcher) -> None:
        with self._lock:
            group = self._watchers.get(watcher.match_id)
            if group is not None:
                group.discard(watcher)
                if not group:
                    del self._watchers[watcher.match_id]

    def _poll(self) -> None:
        """Look at the watched versions every tick while anybody watches; then stop."""
        while True:
            with self._lock:
                watched = {match_id: list(group) for match_id, group in self._watchers.items()}
                if not watched:
                    self._poller = None
                    return
            try:
                versions = self._versions(list(watched))
            except Exception:  # the database is away for a moment: the watchers wait, the next tick tries again
                log.exception("live: could not read the watched matches' versions")
            else:
                for match_id, group in watched.items():
                    for watcher in group:
                        watcher.tell(versions.get(match_id, GONE))
            time.sleep(self.tick)

    def _versions(self, match_ids: list[int]) -> dict[int, int]:
        found = {}
        with reading_only(), self.engine.connect() as connection:
            for start in range(0, len(match_ids), BATCH):
                chosen = match_ids[start : start + BATCH]
                query = select(Match.id, Match.version).where(Match.id.in_(chosen))
                found.update((row[0], row[1]) for row in connection.execute(query))
                self.looks += 1
        return found


def stream(hub: Hub, match_id: int, seen: int | None, seconds: float, heartbeat: float) -> Iterator[str]:
    """Server-Sent Events for one watching phone: one `change` event when the match moves past
    `seen` (its data: the new version, or empty for a match deleted), a comment every `heartbeat`
    seconds meanwhile (a proxy keeps the connection; a phone that left is found out), and the end
    after `seconds` (the browser asks again)."""
    watcher = hub.watch(match_id, seen)
    deadline = time.monotonic() + seconds
    try:
        yield ": watching\n\n"
        while (left := deadline - time.monotonic()) > 0:
            if watcher.moved.wait(min(heartbeat, left)):
                yield f"event: change\ndata: {'' if watcher.now is GONE else watcher.now}\n\n"
                return
            yield ": still here\n\n"
    finally:
        hub.forget(watcher)
