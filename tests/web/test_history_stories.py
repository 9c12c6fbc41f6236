"""Each player's story per game (issue 24): the record, ratings (OpenSkill, Plackett-Luce), streaks
and hands kept as matches finish, and kept right when a finished match changes: an edit, a deletion,
a finish taken back, a new set-up, a merge of two players. The figures after any change are those
of a history that was right from the start; `flask verify` checks them and puts them right."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import pytest
from openskill.models import PlackettLuce

from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.games import GAMES, register
from scorekeeper.games.statistics import MOST, Statistic
from scorekeeper.history import charts, views
from scorekeeper.models import MatchEvent, Player, RatedSeat
from scorekeeper.records import reads, writes
from scorekeeper.records.stories import rerating
from tests.conftest import Actions, make_app
from tests.web.winner_only import CoinState, WinnerOnly

TABLE = ["Ann", "Bo", "Cy", "Di"]


def court(side: int) -> dict:
    return {"outcome": "first_seven", "side": side, "all_thirteen": False}


def play(actions: Actions, winners: list[int], names: list[str] = TABLE) -> list[int]:
    """Court Piece matches to one court, one after the other, won by side `winners[i]`."""
    made = []
    for side in winners:
        match_id = actions.start("court_piece", names, courts_to_win=1)
        actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
        actions.hand(match_id, court(side))
        made.append(match_id)
    return made


def told(app) -> dict[str, list[dict]]:
    """Every player's story per game as the API tells it, by name."""
    client = app.test_client()
    with app.app_context():
        ids = dict(db.session.execute(db.select(Player.name, Player.id)).all())
    return {name: client.get(f"/api/v1/players/{player_id}").json["games"] for name, player_id in sorted(ids.items())}


@pytest.fixture
def fresh(tmp_path):
    """A second, empty app: the history as it would be had it been right from the start."""
    app = make_app(f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def runner(app):
    """The process's re-rating runner, as a serving process starts it with the app."""
    started = rerating.Runner(app).start()
    yield started
    started.stop()


def verify(app, *args) -> tuple[int, str]:
    done = app.test_cli_runner().invoke(args=["verify", *args])
    return done.exit_code, done.output


def test_a_finished_match_moves_each_players_story_and_rating(client, actions):
    play(actions, [0, 0, 1])
    ann = client.get("/players/1").get_data(as_text=True)
    assert "<td>Court Piece</td><td>2</td><td>0</td><td>1</td><td>0</td>" in ann
    model = PlackettLuce()
    ratings = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    for ranks in ([1, 2], [1, 2], [2, 1]):
        ratings = model.rate(ratings, ranks=ranks)
    mu, sigma = ratings[0][0].mu, ratings[0][0].sigma
    assert f"3 matches · rating {mu:.1f} ± {sigma:.1f} · won in a row: 0 now, 2 at best" in ann
    story = client.get("/players/1/games/court_piece").get_data(as_text=True)
    assert re.search(r"<dt>Longest run of matches won</dt><dd>2</dd>", story)
    assert re.search(r"<dt>Matches won in a row now</dt><dd>0</dd>", story)
    assert re.search(r"<dt>Games won within matches</dt><dd>2</dd>", story)
    assert re.search(r"<dt>Best hand</dt><dd>\+1 court</dd>", story)
    assert "Results over time" in story and "Rating over time" in story and "<polyline" in story
    game = client.get("/api/v1/players/1").json["games"][0]
    assert (game["won"], game["lost"], game["best_streak"], game["hands"]) == (2, 1, 2, 6)
    assert game["rating"]["mu"] == pytest.approx(mu) and game["rating"]["sigma"] == pytest.approx(sigma)


def chart(page: str, heading: str) -> str:
    """The SVG chart under the heading `heading` of a page."""
    return re.search(rf'(?s)<h2>{heading}</h2>\s*<figure class="chart">(.*?)</figure>', page).group(1)


def chart_texts(svg: str, kind: str) -> list[str]:
    """A chart's texts of one kind: "y" and "x" the axes' values, "end" the lines' latest values,
    "title" the axes' titles."""
    group = re.search(rf'<g class="{kind}"[^>]*>(.*?)</g>', svg)
    if group:
        return re.findall(r"<text[^>]*>([^<]*)</text>", group.group(1))
    return re.findall(rf'<text class="{kind}\b[^>]*>([^<]*)</text>', svg)


def ratings_of(app, player_id: int) -> list[tuple[float, float]]:
    """A player's (mu, sigma) after each of their matches, as the history keeps them."""
    with app.app_context():
        rows = db.session.execute(
            db.select(RatedSeat.mu, RatedSeat.sigma).where(RatedSeat.player_id == player_id).order_by(RatedSeat.number)
        )
        return [tuple(row) for row in rows]


def test_the_charts_have_axes_of_round_values_and_of_matches_and_end_on_the_latest(app, client, actions):
    play(actions, [0, 0, 1, 0, 1, 1, 0])  # Ann & Cy win four of the seven and lose three
    story = client.get("/players/1/games/court_piece").get_data(as_text=True)
    results = chart(story, "Results over time")
    assert chart_texts(results, "y") == ["0", "1", "2", "3", "4"]  # up to the matches won, a round step apart
    assert chart_texts(results, "x") == ["1", "2", "4", "6", "7"]  # the first and the latest match, some between
    assert chart_texts(results, "title") == ["Matches finished", "Matches"]
    assert chart_texts(results, "end") == ["4", "3"]  # beside the ends of the lines: won, lost
    assert ": 4 won, 3 lost</title>" in results
    rating = chart(story, "Rating over time")
    ratings = ratings_of(app, 1)
    marks = [float(mark) for mark in chart_texts(rating, "y")]
    steps = {round(high - low, 6) for low, high in zip(marks, marks[1:])}
    assert 3 <= len(marks) <= 5 and len(steps) == 1 and steps <= {1, 2, 5, 10}  # evenly spaced, round
    step = steps.pop()  # the axis spans the band, and no more than a step beyond it either side
    assert marks[0] <= min(mu - sigma for mu, sigma in ratings) < marks[0] + step
    assert marks[-1] - step < max(mu + sigma for mu, sigma in ratings) <= marks[-1]
    assert chart_texts(rating, "x") == ["1", "2", "4", "6", "7"]
    assert chart_texts(rating, "end") == [f"{ratings[-1][0]:.1f}"]
    assert f": {ratings[-1][0]:.1f} after the last</title>" in rating
    # The player's page charts the results of their most played game alike.
    shown = chart(client.get("/players/1").get_data(as_text=True), "Court Piece over time")
    assert chart_texts(shown, "end") == ["4", "3"]


def test_the_charts_write_numbers_as_the_pages_language_does(app, client, actions):
    play(actions, [0, 1])
    story = client.get("/players/1/games/court_piece", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="es"' in story
    latest = ratings_of(app, 1)[-1][0]
    rating = re.findall(r"(?s)<svg.*?</svg>", story)[-1]  # the rating's chart comes last
    assert chart_texts(rating, "end") == [f"{latest:.1f}".replace(".", ",")]  # a decimal comma: "27,3"


@pytest.mark.parametrize(
    ("low", "high", "least", "marks"),
    [
        (0, 1, 1, [0, 1, 2]),  # one match won: never fewer than three marks
        (0, 7, 1, [0, 2, 4, 6, 8]),
        (0, 4, 1, [0, 1, 2, 3, 4]),
        (16.7, 33.3, 0.1, [15, 20, 25, 30, 35]),  # a new player's rating, 25 ± 8.3
        (24.93, 25.41, 0.1, [24.8, 25.0, 25.2, 25.4, 25.6]),
        (0, 1234, 1, [0, 500, 1000, 1500]),
    ],
)
def test_a_charts_values_are_marked_at_three_to_five_round_values(low, high, least, marks):
    assert charts.round_marks(low, high, least) == pytest.approx(marks)


@pytest.mark.parametrize(
    ("last", "marks"),
    [
        (2, [1, 2]),
        (5, [1, 2, 3, 4, 5]),
        (7, [1, 2, 4, 6, 7]),
        (12, [1, 5, 12]),
        (30, [1, 10, 20, 30]),
        (1000, [1, 500, 1000]),
    ],
)
def test_a_charts_matches_are_marked_at_the_first_the_last_and_round_numbers_between(last, marks):
    assert charts.match_marks(1, last) == marks


def test_a_match_in_play_costs_the_history_nothing(app, actions):
    match_id = actions.start("court_piece", TABLE)
    actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(RatedSeat)) == 0


@pytest.mark.parametrize("change", ["edit", "delete", "reopen", "setup", "remove"])
def test_a_change_to_an_early_match_re_rates_it_and_every_later_one(app, actions, fresh, change, runner):
    """After the change (and its re-rating by the runner), every player's story is the one of a history that was
    right from the start."""
    right = Actions(fresh.test_client())
    if change == "reopen":  # a match the table called, taken back
        first = actions.start("court_piece", TABLE)
        actions.hand(first, court(1))
        actions.finish(first)
    else:
        first = play(actions, [0])[0]
    play(actions, [1, 0])
    if change == "edit":
        actions.edit(first, 2, court(1))
        play(right, [1, 1, 0])
    elif change == "delete":
        actions.delete(first, 2)
        right.start("court_piece", TABLE, courts_to_win=1)
        play(right, [1, 0])
    elif change == "reopen":
        actions.reopen(first)
        right.start("court_piece", TABLE)
        play(right, [1, 0])
    elif change == "setup":
        assert actions.write("PATCH", first, json={"players": ["Eve", "Bo", "Cy", "Di"]}).status_code == 200
        play(right, [0], ["Eve", "Bo", "Cy", "Di"])
        play(right, [1, 0])
    else:
        assert actions.write("DELETE", first).status_code == 204
        play(right, [1, 0])
    assert runner.wait_until_idle(10)
    assert told(app) == told(fresh)
    assert verify(app) == (0, f"{3 - (change == 'remove')} matches checked, 0 differences\n")


def test_a_hand_fixed_right_after_the_end_is_re_rated_in_its_own_write(app, actions, fresh):
    # No runner: nothing is left for one to do.
    last = play(actions, [0, 0])[-1]
    actions.edit(last, 2, court(1))
    play(Actions(fresh.test_client()), [0, 1])
    assert told(app) == told(fresh)
    assert not any(game["rating"]["updating"] for games in told(app).values() for game in games)


def test_a_long_history_is_re_rated_after_the_write_a_chunk_at_a_time(app, actions, fresh):
    """An edit of an early match puts that match right in its own transaction and leaves the re-rating
    to the runner after its commit, a few matches per transaction, which brings every later one up to date."""
    runner = rerating.Runner(app, chunk=13).start()  # three four-seat matches a transaction
    first = play(actions, [0] * 6)[0]
    actions.edit(first, 2, court(1))
    assert runner.wait_until_idle(10)
    runner.stop()
    play(Actions(fresh.test_client()), [1] + [0] * 5)
    assert told(app) == told(fresh)


def test_ratings_being_worked_out_are_said_so_and_verify_finishes_them(app, client, actions):
    # No runner: as if the process stopped before it re-rated.
    first = play(actions, [0] * 4)[0]
    actions.edit(first, 2, court(1))
    assert "being brought up to date" in client.get("/players/1/games/court_piece").get_data(as_text=True)
    assert client.get("/api/v1/players/1").json["games"][0]["rating"]["updating"] is True
    status, output = verify(app)
    assert status == 1 and "court_piece: its stories are still being worked out again" in output
    assert verify(app, "--store")[0] == 0
    assert verify(app) == (0, "4 matches checked, 0 differences\n")
    assert "being brought up to date" not in client.get("/players/1/games/court_piece").get_data(as_text=True)


def test_verify_finds_a_rating_that_differs_from_a_fresh_computation_and_puts_it_right(app, actions):
    play(actions, [0, 1])
    before = told(app)
    with app.app_context():
        db.session.execute(db.update(RatedSeat).where(RatedSeat.place == 1).values(mu=40.0))
        db.session.commit()
    status, output = verify(app)
    assert status == 1 and "story after match 1 differs from a fresh computation" in output
    assert verify(app, "--store")[0] == 0
    assert told(app) == before


def test_verify_finds_a_finished_match_missing_from_the_stories(app, actions):
    match_id = play(actions, [0])[0]
    with app.app_context():
        db.session.execute(db.delete(RatedSeat).where(RatedSeat.match_id == match_id))
        db.session.commit()
    status, output = verify(app)
    assert status == 1 and f"match {match_id}: finished, but not in its players' stories" in output
    assert verify(app, "--store")[0] == 0 and verify(app)[0] == 0


def test_a_merge_re_rates_both_players_as_one(app, actions, fresh, runner):
    play(actions, [0, 1], ["Ann", "Bo", "Cy", "Di"])
    play(actions, [0], ["Ann B.", "Bo", "Cy", "Di"])
    assert app.test_cli_runner().invoke(args=["players", "merge", "Ann B.", "Ann"]).exit_code == 0
    assert runner.wait_until_idle(10)
    play(Actions(fresh.test_client()), [0, 1, 0])
    assert told(app) == told(fresh)
    assert verify(app)[0] == 0
    before = told(app)["Ann"]
    assert app.test_cli_runner().invoke(args=["players", "rename", "Ann", "Anna"]).exit_code == 0
    assert told(app)["Anna"] == before  # the story is the player's, whatever they are called


def test_two_players_head_to_head_and_as_partners(client, actions):
    play(actions, [0, 0, 1])  # Ann & Cy against Bo & Di
    play(actions, [1], ["Ann", "Bo", "Cy", "Eve"])  # Ann & Cy against Bo & Eve
    play(actions, [0], ["Ann", "Cy", "Bo", "Di"])  # Ann & Bo against Cy & Di
    page = client.get("/head-to-head?a=1&b=2").get_data(as_text=True)
    assert re.search(r"<th scope=\"row\">Court Piece</th><td>4</td><td>2</td><td>2</td><td>0</td>", page)  # against
    assert re.search(r"<th scope=\"row\">Court Piece</th><td>1</td><td>1</td><td>0</td><td>0</td>", page)  # partners
    assert len(re.findall(r'href="/matches/\d+"', page)) == 5
    rows = re.findall(r"#\d+: ([\w, ]+)\s*<small>([^<]*?) · ", page)  # each with its seats, in order, and how it ended
    assert rows[:2] == [
        ("Ann, Cy, Bo, Di", "Ann &amp; Bo win the match 1 court to 0"),
        ("Ann, Bo, Cy, Eve", "Bo &amp; Eve win the match 1 court to 0"),
    ], rows
    other_side = client.get("/head-to-head?a=2&b=1").get_data(as_text=True)
    assert "Bo ahead" in other_side.split("Against each other")[1].split("</thead>")[0]
    assert "With Bo" in client.get("/players/1").get_data(as_text=True)


def test_the_other_player_is_chosen_from_those_played_with_not_typed(client, actions):
    play(actions, [0, 1])  # Ann, Bo, Cy, Di
    play(actions, [1], ["Ann", "Bo", "Cy", "Eve"])
    for page in (client.get("/players/1"), client.get("/head-to-head?a=1")):
        html = page.get_data(as_text=True)
        picker = html.split('<select name="b">')[1].split("</select>")[0]
        assert re.findall(r">(\w+) \((\d+)\)</option>", picker) == [("Bo", "3"), ("Cy", "3"), ("Di", "2"), ("Eve", "1")]
        assert 'name="name"' not in html


def test_matches_together_are_a_page_with_the_older_ones_a_link_away(client, actions, monkeypatch):
    monkeypatch.setattr(views, "PAGE", 3)
    made = play(actions, [0] * 4)
    first = client.get("/head-to-head?a=1&b=2").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'href="/matches/(\d+)"', first)] == made[::-1][:3]
    older = re.search(r'href="(/head-to-head\?[^"]*before=\d+)"', first).group(1).replace("&amp;", "&")
    assert [int(n) for n in re.findall(r'href="/matches/(\d+)"', client.get(older).get_data(as_text=True))] == made[:1]


@dataclass(frozen=True)
class CountedState(CoinState):
    """The state lives beside the game that keeps it (a stored state names only a registered game's classes)."""


class CountedWins(WinnerOnly):
    """A game that declares its own statistics beside its board."""

    key = "counted_wins"
    name = "Counted Wins"
    state_class = CountedState
    statistics = (
        Statistic("hands_won", "Hands won", lambda done, side: done.state.wins[side]),
        Statistic(
            "margin", "Widest margin", lambda done, side: done.state.wins[side] - min(done.state.wins), keep=MOST
        ),
        Statistic("never", "Never counted", lambda done, side: None),
    )


@pytest.fixture
def counted_game():
    register(CountedWins())
    yield GAMES["counted_wins"]
    del GAMES["counted_wins"]


def test_a_game_declares_its_own_statistics_and_the_story_adds_them_up(client, actions, counted_game):
    for winners in ([0, 1, 0, 0], [1, 1, 1]):
        match_id = actions.start("counted_wins", ["Ann", "Bo"])
        for side in winners:
            actions.hand(match_id, {"winner": side})
    page = client.get("/players/1/games/counted_wins").get_data(as_text=True)
    assert re.search(r"<dt>Hands won</dt><dd>3 \(1.5 a match\)</dd>", page)
    assert re.search(r"<dt>Widest margin</dt><dd>2</dd>", page) and "Never counted" not in page
    shown = client.get("/api/v1/players/1").json["games"][0]["statistics"]
    assert shown == {
        "hands_won": {"label": "Hands won", "keep": "total", "value": 3, "matches": 2},
        "margin": {"label": "Widest margin", "keep": "most", "value": 2, "matches": 2},
    }


def test_a_new_matchs_chances_come_from_its_players_ratings(app, actions):
    play(actions, [0, 0, 0])
    match_id = actions.start("court_piece", TABLE)
    with app.test_request_context():
        from flask import render_template_string

        from scorekeeper.records.reads import load

        shown = render_template_string('{% include "history/_chances.html" %}', s=load(match_id))
        assert re.search(r"<b>Ann &amp; Cy</b> (\d+)%", shown) and "start level" not in shown
        assert int(re.search(r"<b>Ann &amp; Cy</b> (\d+)%", shown).group(1)) > 50
        fresh = actions.start("court_piece", ["Ann", "Eve", "Cy", "Di"])
        shown = render_template_string('{% include "history/_chances.html" %}', s=load(fresh))
        assert "1 of the 4 have no finished match of it yet" in shown
    actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
    with app.test_request_context():
        assert render_template_string('{% include "history/_chances.html" %}', s=load(match_id)).strip() == ""


def test_an_import_refuses_stories_that_do_not_follow_from_its_matches(app, actions, fresh):
    from scorekeeper.records import data

    play(actions, [0, 1])
    with app.app_context():
        export = data.export_data()
    export["tables"]["rated_seat"][-1]["streak"] = 7
    with fresh.app_context():
        with pytest.raises(data.DataError, match="story after match 2 differs from a fresh computation"):
            data.import_data(export)
        assert data.is_empty()


def test_an_edit_of_an_early_match_that_changes_who_won_keeps_everything_and_is_re_rated_after(app, actions):
    first = play(actions, [0, 0, 0])[0]
    edited = actions.write("PUT", first, "/hands/2?hands=0", {"record": court(1)})
    assert edited.status_code == 200 and edited.json["winner"] == 1
    assert actions.client.get(f"/api/v1/matches/{first}").json["hands"][1]["record"] == court(1)
    with app.app_context():
        logged = db.session.execute(
            db.select(MatchEvent.action, MatchEvent.number).where(MatchEvent.match_id == first)
        ).all()
    assert logged == [("edit", 2)]
    ann = told(app)["Ann"][0]  # Ann and Cy sit on side 0: the record is right while the ratings catch up
    assert (ann["won"], ann["lost"], ann["rating"]["updating"]) == (2, 1, True)
    assert verify(app)[0] == 1  # still being worked out again
    runner = rerating.Runner(app).start()  # a process started later takes the re-rating up at its first look
    assert runner.wait_until_idle(10)
    runner.stop()
    assert verify(app) == (0, "3 matches checked, 0 differences\n")  # hands, seats and stories
    assert told(app)["Ann"][0]["rating"]["updating"] is False


def test_a_write_that_leaves_a_game_to_re_rate_starts_no_thread(app, actions, runner):
    """The re-rating is the runner's, started with the app: a request only wakes it."""
    first = play(actions, [0, 0, 0])[0]
    threads = threading.active_count()
    actions.edit(first, 2, court(1))
    assert threading.active_count() == threads
    assert runner.wait_until_idle(10) and verify(app)[0] == 0


@pytest.mark.parametrize("finished", [True, False])
def test_an_edit_from_a_phone_that_read_the_match_before_another_changed_it_is_refused_and_changes_nothing(
    app, actions, finished
):
    """The edit's claim is sent with its other statements: losing it still refuses the whole edit."""
    if finished:
        match_id, number, theirs, mine = play(actions, [0])[0], 2, court(1), court(0)
    else:
        match_id, number = actions.start("court_piece", TABLE), 1
        theirs, mine = {"outcome": "tricks", "tricks": [7, 6]}, {"outcome": "tricks", "tricks": [6, 7]}
        actions.hand(match_id, {"outcome": "tricks", "tricks": [8, 5]})
    with app.app_context():
        stale = reads.load(match_id)
        stale.replayed_from(number)  # its hands read, as the edit's request reads them
        other = threading.Thread(target=actions.edit, args=(match_id, number, theirs))  # another phone
        other.start()  # in a thread: its request has a session of its own
        other.join()
        with pytest.raises(Conflict):
            writes.edit_hand(stale, number, mine, note="not kept")
    answer = actions.client.get(f"/api/v1/matches/{match_id}").json
    assert answer["hands"][number - 1]["record"] == theirs and answer["hands"][number - 1].get("note") is None
    with app.app_context():
        assert db.session.scalars(db.select(MatchEvent.action).where(MatchEvent.match_id == match_id)).all() == ["edit"]
    with app.app_context():
        rerating.rerate_all()
    assert verify(app)[0] == 0
