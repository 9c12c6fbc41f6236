"""Matches the bench plays through the app (used by bench.py): one per family of games, long ones
of 500 hands drawn with each game's own `example_hand`, and the form a phone would post for a hand.

The bench keeps the engine's state of each match it plays (the same `check` and `apply` the app
runs), so it always knows what hand comes next without asking the app."""

from __future__ import annotations

import copy
import random
import secrets
from dataclasses import dataclass

from scorekeeper.games import GAMES, Game, replay
from scorekeeper.matches.widgets import values_from_record

REDRAWS = 200  # example hands drawn before falling back to a game's hand that scores nothing


@dataclass(frozen=True)
class LongGame:
    key: str
    family: str
    players: int
    options: dict
    how: str  # how the match lasts 500 hands, printed beside its figures


LONG_GAMES = (
    LongGame("court_piece", "flagship", 4, {}, "no `courts_to_win`: it ends only when the table calls finish"),
    LongGame(
        "omi",
        "partnership",
        4,
        {"target": 100},
        "target 100 (the most allowed) still ends near hand 100: a hand that would end it is drawn "
        "again (a 4-4 tie scores nothing)",
    ),
    LongGame(
        "pluck",
        "tally",
        3,
        {"target": 100},
        "target 100 (the most allowed) still ends near hand 30: a hand that would end it is drawn again, "
        "or else each player takes exactly the quota (nothing scores); every tally game ends by itself",
    ),
    LongGame(
        "gin_rummy",
        "counting",
        2,
        {"target": 1000},
        "target 1000 (the most allowed) still ends near hand 50: a hand that would end it is drawn again "
        "(a drawn hand scores nothing); Cuarenta ends within 5 hands",
    ),
    LongGame(
        "calabrasella",
        "chips",
        3,
        {},
        "ends only when the table calls finish (Toepen runs out of tokens within about 50 hands even with 100 each)",
    ),
    LongGame(
        "california_speed",
        "races",
        2,
        {"games_to_win": None},
        "`games_to_win` null: it ends only when the table calls finish",
    ),
)


def neutral_hand(game: Game, state) -> dict | None:
    """A hand that scores nothing, for a game whose example hands would all end the match."""
    if game.key == "pluck":
        from scorekeeper.games.pluck import quotas

        return {"tricks": list(quotas(state.table, state.dealer))}
    return None


class Play:
    """A match started through the API and played by the bench."""

    def __init__(self, client, game_key: str, names: list[str], options: dict | None = None, seed: int = 1):
        self.game = GAMES[game_key]
        answer = client.post("/api/v1/matches", json={"game": game_key, "players": names, "options": options or {}})
        assert answer.status_code == 201, answer.json
        self.id, self.key = answer.json["id"], answer.json["key"]
        self.auth = {"Authorization": f"Bearer {self.key}"}
        self.table = self.game.table(len(names))
        self.state = self.game.new_state(self.table, answer.json["options"])
        self.rng = random.Random(seed)
        self.count = 0
        self.redrawn = 0  # example hands drawn again because they would have ended the match
        self.neutral = 0  # hands that score nothing, used when no example hand would keep it going
        self._next = None

    def fork(self) -> Play:
        """The same match as it stands, played on separately (its copy in another database)."""
        twin = copy.copy(self)
        twin.rng = copy.deepcopy(self.rng)
        return twin

    # -- the next hand -------------------------------------------------------------------------
    def draw(self) -> dict:
        """The next hand to send (drawn once, until it is accepted): an example hand of the game
        that does not end the match."""
        if self._next is None:
            self._next = self._draw()
        return self._next[0]

    def _draw(self):
        game, state = self.game, self.state
        for attempt in range(REDRAWS):
            raw = game.example_hand(state, self.rng)
            record = game.check(state, raw)
            after = game.apply(state, record).state
            if not game.result(after).over:
                self.redrawn += attempt > 0
                return raw, record, after
        raw = neutral_hand(game, state)
        if raw is None:
            raise RuntimeError(f"{game.name}: every example hand ends the match at hand {self.count + 1}")
        record = game.check(state, raw)
        self.neutral += 1
        return raw, record, game.apply(state, record).state

    def accepted(self) -> dict:
        """The drawn hand was recorded: move on. Returns its record as the app keeps it."""
        _, record, after = self._next
        self.state, self._next, self.last = after, None, record
        self.count += 1
        return record

    # -- writing it --------------------------------------------------------------------------------
    def api_post(self, client, query: str = ""):
        record = self.draw()
        return lambda: client.post(
            f"/api/v1/matches/{self.id}/hands{query}", json={"record": record}, headers=self.auth
        )

    def form_post(self, client, csrf: str | None):
        """The hand form as the page sends it: the game's fields, the hand number, a one-time token."""
        record = self.draw()
        data = dict(values_from_record(self.game.hand_fields, self.game.to_form(self.state, record)))
        data.update(expected=str(self.count + 1), token=secrets.token_hex(8))
        if csrf:
            data["csrf_token"] = csrf
        return lambda: client.post(f"/matches/{self.id}/hands", data=data)

    def play(self, client, hands: int) -> None:
        """Record `hands` hands through the API (light answers: ?hands=0)."""
        for _ in range(hands):
            answer = self.api_post(client, "?hands=0")()
            assert answer.status_code == 201, answer.get_data(as_text=True)[:300]
            self.accepted()

    def check_last(self, client) -> bool:
        """Whether the app's last hand is the one the bench meant (a form read as intended)."""
        answer = client.get(f"/api/v1/matches/{self.id}?hands=1")
        hands = answer.json["hands"]
        return (
            answer.status_code == 200
            and bool(hands)
            and hands[-1]["number"] == self.count
            and hands[-1]["record"] == self.last
        )

    def resync(self, client) -> None:
        """Take the state from the app's hands (after a form the bench read differently)."""
        match = client.get(f"/api/v1/matches/{self.id}").json
        self.state = replay(self.game, self.table, match["options"], [h["record"] for h in match["hands"]]).state
        self.count, self._next = len(match["hands"]), None
