"""Proof: 10,000 fuzzed requests, pages and API alike, and not one answered with a 5xx.

A seeded generator (the same requests every run) sends what phones and strangers can send: valid
hands spoilt a little (so the junk reaches each game's own rules), junk bodies and forms, hostile
numbers and text, ids past any integer, writes with no key or another match's key."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from flask.testing import FlaskClient

from scorekeeper.errors import NotFound
from scorekeeper.games import GAMES
from scorekeeper.records import reads
from tests.conftest import Actions, make_app

pytestmark = pytest.mark.proof

REQUESTS = 10_000
HUGE = "9" * 4301
HOSTILE_TEXT = [
    "",
    "²",
    "٣",
    HUGE,
    "-" + HUGE,
    "1e999",
    "NaN",
    "\x00",
    "a\x00b",
    "0x10",
    " 7 ",
    "-1",
    "0",
    "9223372036854775808",
    "<script>alert(1)</script>",
    "'; DROP TABLE hand; --",
    "é" * 300,
    "\ud7ff",
]
HOSTILE_JSON = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**40,
    -(10**40),
    1e308,
    "",
    "x",
    "²",
    HUGE,
    [],
    {},
    [[]],
    {"a": {"b": [1, {"c": None}]}},
    [None, None],
    ["AS"] * 5,
    "AS KS",
]
ODD_IDS = ["0", "-1", "2147483648", "9223372036854775808", HUGE[:30], "abc", "%00", "1.5"]


class Fuzzer:
    """Draws one request at a time from a seeded generator and sends it through the app."""

    def __init__(self, app, seed: int = 13):
        self.app = app
        self.rng = random.Random(seed)
        self.phone = Actions(app.test_client())
        self.stranger = FlaskClient(app, app.response_class)  # holds no key, sends none by itself
        self.matches: list[tuple[int, str]] = []
        self.form_fields: dict[str, list[str]] = {}
        self.statuses: Counter[int] = Counter()
        self.crashes: list[str] = []

    # -- drawing values ---------------------------------------------------------------------------

    def junk(self, depth: int = 0):
        roll = self.rng.random()
        if depth < 2 and roll < 0.15:
            return [self.junk(depth + 1) for _ in range(self.rng.randint(0, 4))]
        if depth < 2 and roll < 0.25:
            return {self.rng.choice(["winner", "tricks", "side", "x", ""]): self.junk(depth + 1)}
        return self.rng.choice(HOSTILE_JSON + HOSTILE_TEXT + [self.rng.randint(-3, 14)])

    def spoilt(self, record: dict) -> dict:
        """A valid record with one field changed or dropped, or left as it is."""
        record = dict(record)
        roll = self.rng.random()
        if record and roll < 0.4:
            record[self.rng.choice(list(record))] = self.junk()
        elif record and roll < 0.55:
            record.pop(self.rng.choice(list(record)))
        elif roll < 0.65:
            record[self.rng.choice(["stake", "cards", "at_close", "forfeit", "zz"])] = self.junk()
        return record

    def valid_hand(self, match_id: int) -> dict:
        with self.app.app_context():
            try:
                scored = reads.load(match_id)
            except NotFound:  # deleted by an earlier request
                self.matches = [(known, game) for known, game in self.matches if known != match_id]
                return {}
            try:
                return scored.game.example_hand(scored.state, self.rng)
            except Exception:  # a finished match may have no next hand to draw
                return {}

    def some_match(self) -> tuple[int, str]:
        if not self.matches or self.rng.random() < 0.02:
            game = self.rng.choice(sorted(GAMES))
            players = [f"F{len(self.matches)}-{seat}" for seat in range(GAMES[game].min_players)]
            self.matches.append((self.phone.start(game, players), game))
        return self.rng.choice(self.matches)

    def fields_of(self, match_id: int) -> list[str]:
        if match_id not in self.form_fields:
            page = self.phone.client.get(f"/matches/{match_id}").get_data(as_text=True)
            self.form_fields[match_id] = sorted(set(re.findall(r'name="([\w-]+)"', page))) or ["expected"]
        return self.form_fields[match_id]

    def form(self, names: list[str]) -> dict:
        return {
            self.rng.choice(names): self.rng.choice(HOSTILE_TEXT + [str(self.rng.randint(-2, 14))])
            for _ in range(self.rng.randint(0, 6))
        }

    # -- the kinds of request ---------------------------------------------------------------------

    def api_hand(self):
        match_id, _ = self.some_match()
        body = {"record": self.spoilt(self.valid_hand(match_id))}
        if self.rng.random() < 0.3:
            body["number"] = self.rng.choice([None, 0, 1, 2, 10**40, "2", True, len(body) + 1])
        if self.rng.random() < 0.05:
            body = self.junk()
        return self.send_as_phone_or_stranger("POST", match_id, "/hands", body)

    def api_edit(self):
        match_id, _ = self.some_match()
        body = {"record": self.spoilt(self.valid_hand(match_id))}
        return self.send_as_phone_or_stranger("PUT", match_id, f"/hands/{self.rng.randint(0, 4)}", body)

    def api_other_write(self):
        match_id, _ = self.some_match()
        method, path = self.rng.choice(
            [
                ("DELETE", f"/hands/{self.rng.randint(-1, 5)}"),
                ("POST", "/finish"),
                ("POST", "/reopen"),
                ("PATCH", ""),
                ("PUT", ""),
            ]
        )
        if self.rng.random() < 0.01:
            method, path = "DELETE", ""  # the whole match, now and then
        return self.send_as_phone_or_stranger(method, match_id, path, None)

    def send_as_phone_or_stranger(self, method: str, match_id: int, path: str, body):
        roll = self.rng.random()
        url = f"/api/v1/matches/{match_id}{path}"
        if roll < 0.85:
            return self.phone.write(method, match_id, path, body)
        if roll < 0.92:
            return self.stranger.open(url, method=method, json=body, headers={"Authorization": "Bearer nope"})
        return self.stranger.open(url, method=method, json=body)

    def api_create(self):
        game = self.rng.choice(sorted(GAMES) + ["bridge", ""])
        size = GAMES[game].min_players if game in GAMES else 2
        body = {
            "game": game,
            "players": [f"N{self.rng.randint(0, 50)}-{seat}" for seat in range(size)],
            "options": {self.rng.choice(["first_dealer", "target", "courts_to_win", "zz"]): self.junk()},
        }
        if self.rng.random() < 0.2:
            body[self.rng.choice(["players", "options", "game"])] = self.junk()
        answer = self.phone.create(body)
        if answer.status_code == 201:
            self.matches.append((answer.json["id"], answer.json["game"]))
        return answer

    def api_raw(self):
        match_id, _ = self.some_match()
        data = self.rng.choice(
            [
                '{"record": ',
                "[]",
                "null",
                '{"record": {"winner": NaN}}',
                "\x00",
                "{" * 2000,
                json.dumps({"record": self.junk()}),
                '{"record": {"winner": 1e400}}',
            ]
        )
        return self.phone.client.post(
            f"/api/v1/matches/{match_id}/hands",
            data=data,
            content_type="application/json",
            headers=self.phone.auth(match_id),
        )

    def api_read(self):
        query = "&".join(
            f"{self.rng.choice(['game', 'player', 'limit', 'before', 'hands'])}={self.rng.choice(HOSTILE_TEXT[:12] + ODD_IDS)}"
            for _ in range(self.rng.randint(0, 3))
        )
        path = self.rng.choice(
            [
                "/api/v1/matches",
                f"/api/v1/matches/{self.rng.choice(ODD_IDS)}",
                f"/api/v1/matches/{self.some_match()[0]}",
                f"/api/v1/games/{self.rng.choice(ODD_IDS)}",
            ]
        )
        return self.stranger.get(f"{path}?{query}")

    def web_new(self):
        game = self.rng.choice(sorted(GAMES))
        names = (
            ["first_dealer", "draw_partners"]
            + [f"seat-{seat}" for seat in range(5)]
            + ["opt-target", "opt-courts_to_win"]
        )
        form = {f"seat-{seat}": f"W{self.rng.randint(0, 40)}-{seat}" for seat in range(GAMES[game].min_players)}
        return self.phone.client.post(f"/matches/new/{game}", data=form | self.form(names))

    def web_write(self):
        match_id, _ = self.some_match()
        path = self.rng.choice(["/hands", "/hands", "/hands", "/hands/1/edit", "/hands/1/delete", "/undo", "/finish"])
        return self.phone.client.post(
            f"/matches/{match_id}{path}", data=self.form(self.fields_of(match_id) + ["token"])
        )

    def web_read(self):
        match_id, _ = self.some_match()
        path = self.rng.choice(
            [
                f"/matches/{match_id}",
                f"/matches/{match_id}/hands?before={self.rng.choice(ODD_IDS)}",
                f"/matches/{self.rng.choice(ODD_IDS)}",
                f"/players/{self.rng.choice(ODD_IDS)}",
                f"/matches?player={self.rng.choice(ODD_IDS)}&game={self.rng.choice(HOSTILE_TEXT[:6])}",
                f"/rules/{self.rng.choice(ODD_IDS)}",
                f"/matches/{match_id}/hands/{self.rng.choice(ODD_IDS)}/edit",
            ]
        )
        return self.stranger.get(path)

    KINDS = {
        api_hand: 24,
        api_edit: 8,
        api_other_write: 6,
        api_create: 6,
        api_raw: 5,
        api_read: 10,
        web_new: 6,
        web_write: 20,
        web_read: 15,
    }

    def run(self, count: int) -> None:
        kinds, weights = list(self.KINDS), list(self.KINDS.values())
        for _ in range(count):
            kind = self.rng.choices(kinds, weights)[0]
            answer = kind(self)
            self.statuses[answer.status_code] += 1
            if answer.status_code >= 500 and len(self.crashes) < 10:
                self.crashes.append(
                    f"{kind.__name__}: {answer.request.method} {answer.request.path} -> {answer.status_code}"
                )


def test_ten_thousand_fuzzed_requests_and_not_one_5xx(tmp_path, figures):
    app = make_app(f"sqlite:///{tmp_path / 'fuzz.sqlite'}", PROPAGATE_EXCEPTIONS=False)
    fuzzer = Fuzzer(app)
    fuzzer.run(REQUESTS)
    sent = sum(fuzzer.statuses.values())
    server_errors = sum(count for status, count in fuzzer.statuses.items() if status >= 500)
    by_class = " ".join(f"{status}:{count}" for status, count in sorted(fuzzer.statuses.items()))
    figures(f"fuzz: {sent} requests, {server_errors} answered 5xx ({by_class}); {len(fuzzer.matches)} matches touched")
    assert sent == REQUESTS
    assert server_errors == 0, fuzzer.crashes
