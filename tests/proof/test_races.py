"""Proof: 1,000 simultaneous races on each database, and not one hand lost or doubled.

A race is two to four phones (threads, each its own client of the app) released at the same
instant by a barrier. Most races are phones entering the same next hand (`number` given): one
must win, the others hear 409. Some send the next hand without a number: each accepted one must
get a number of its own. Some are one phone's double tap on the hand form: one hand, not two.
Afterwards every acknowledged hand must be in the match, at the number its answer gave, with its
record, and the match must hold nothing else."""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass, field

import pytest

from tests.conftest import Actions

pytestmark = pytest.mark.proof

RACES = 1_000
PHONES = 4
MATCHES = 40  # about 25 hands each: races, not long replays, are what is measured


def tricks(phone: int, race: int) -> dict:
    """A record telling which phone sent it in which race: the tricks say who."""
    won = 7 + (race + phone) % 6  # 7..12: 13 would be a court hand, recorded otherwise
    return {"outcome": "tricks", "tricks": [won, 13 - won]}


@dataclass
class Tally:
    acknowledged: dict[tuple[int, int], dict] = field(default_factory=dict)  # (match, number) -> record
    doubled_answers: int = 0  # two acknowledgements naming the same hand
    kinds: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    no_winner: int = 0

    def acknowledge(self, match_id: int, number: int, record: dict) -> None:
        if (match_id, number) in self.acknowledged:
            self.doubled_answers += 1
        self.acknowledged[match_id, number] = record


class Table:
    """Four phones at the tables, kept running across the races, released together each time."""

    def __init__(self, app):
        self.setup = Actions(app.test_client())
        self.matches = [self.setup.start("court_piece", ["Ann", "Bo", "Cy", "Di"]) for _ in range(MATCHES)]
        self.phones = [Actions(app.test_client()) for _ in range(PHONES)]
        for phone in self.phones:
            phone.keys = self.setup.keys
        self.counts = dict.fromkeys(self.matches, 0)  # hands each match has, as acknowledged so far
        self.tally = Tally()

    def race(self, number: int) -> None:
        match_id = self.matches[number % MATCHES]
        kind = ("same next hand", "same next hand", "same next hand", "next hand, no number", "double tap")[number % 5]
        runners = 2 + number % (PHONES - 1)
        self.tally.kinds[kind] += 1
        if kind == "double tap":
            self.double_tap(match_id, number)
        else:
            self.same_hand(match_id, number, runners, with_number=kind == "same next hand")

    def together(self, jobs) -> list:
        """Run the jobs at the same instant, one thread each; their results."""
        results = [None] * len(jobs)
        start = threading.Barrier(len(jobs))

        def run(index, job):
            start.wait()
            results[index] = job()

        threads = [threading.Thread(target=run, args=(index, job)) for index, job in enumerate(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results

    def same_hand(self, match_id: int, race: int, runners: int, with_number: bool) -> None:
        expected = self.counts[match_id] + 1
        records = [tricks(phone, race) for phone in range(runners)]

        def enter(phone: int):
            body = {"record": records[phone]} | ({"number": expected} if with_number else {})
            return self.phones[phone].write("POST", match_id, "/hands?hands=1", body)  # a light answer

        answers = self.together([lambda phone=phone: enter(phone) for phone in range(runners)])
        winners = 0
        for phone, answer in enumerate(answers):
            self.tally.statuses[answer.status_code] += 1
            if answer.status_code == 201:
                winners += 1
                self.tally.acknowledge(match_id, answer.json["number"], records[phone])
            else:
                assert answer.status_code == 409, answer.json
        if with_number:
            assert winners <= 1
        self.tally.no_winner += winners == 0
        self.counts[match_id] += winners

    def double_tap(self, match_id: int, race: int) -> None:
        """One phone's form sent twice at once (the same one-time token): one hand."""
        owner = self.setup.client
        page = owner.get(f"/matches/{match_id}").get_data(as_text=True)
        token = re.search(r'name="token" value="([^"]*)"', page).group(1)
        expected = re.search(r'name="expected" value="(\d+)"', page).group(1)
        won = 7 + race % 6
        form = {
            "outcome": "tricks",
            "tricks-0": str(won),
            "tricks-1": str(13 - won),
            "expected": expected,
            "token": token,
        }
        taps = [owner.application.test_client() for _ in range(2)]
        for tap in taps:  # the same phone: its cookies, so its right to score and its form
            for name in ("session", "phone"):
                if owner.get_cookie(name) is not None:
                    tap.set_cookie(name, owner.get_cookie(name).value)
        answers = self.together([lambda tap=tap: tap.post(f"/matches/{match_id}/hands", data=form) for tap in taps])
        for answer in answers:
            self.tally.statuses[answer.status_code] += 1
            assert answer.status_code == 302, answer.get_data(as_text=True)[:300]  # both: the first answer
        if any(answer.status_code == 302 for answer in answers):
            number = int(expected)
            self.tally.acknowledge(match_id, number, {"outcome": "tricks", "tricks": [won, 13 - won]})
            self.counts[match_id] = number
        else:
            self.tally.no_winner += 1


def stored_hands(table: Table) -> dict[tuple[int, int], dict]:
    hands = {}
    for match_id in table.matches:
        for hand in table.setup.match(match_id)["hands"]:
            hands[match_id, hand["number"]] = hand["record"]
    return hands


def test_a_thousand_simultaneous_races_lose_and_double_nothing(app, figures):
    table = Table(app)
    for race in range(RACES):
        table.race(race)
    stored = stored_hands(table)
    tally = table.tally
    lost = [key for key, record in tally.acknowledged.items() if stored.get(key, {}).get("tricks") != record["tricks"]]
    unacknowledged = [key for key in stored if key not in tally.acknowledged]
    database = app.config["SQLALCHEMY_DATABASE_URI"].split(":", 1)[0].split("+")[0]
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(tally.kinds.items()))
    statuses = " ".join(f"{status}:{count}" for status, count in sorted(tally.statuses.items()))
    figures(
        f"races on {database}: {sum(tally.kinds.values())} races ({kinds}); answers {statuses}; "
        f"{len(tally.acknowledged)} hands acknowledged, {len(stored)} stored, "
        f"{len(lost)} lost, {len(unacknowledged) + tally.doubled_answers} doubled, "
        f"{tally.no_winner} races nobody won"
    )
    assert sum(tally.kinds.values()) == RACES
    assert lost == [] and unacknowledged == [] and tally.doubled_answers == 0
    assert len(stored) == len(tally.acknowledged)
