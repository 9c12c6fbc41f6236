"""A match's set-up changes only that match; a player is renamed or merged everywhere only by the
host: `flask players rename|merge`, or the host's page where SCOREKEEPER_ADMIN_PASSWORD is set."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.history.queries import stories_of
from scorekeeper.models import Match, Player
from scorekeeper.players.cli import players_group
from scorekeeper.records import writes
from scorekeeper.records.stories import audit, rerating
from tests.conftest import Actions, make_app

TABLE = ["Bo", "Cy", "Di"]  # Court Piece: Ann & Cy against Bo & Di
FIRST_SEVEN = {"outcome": "first_seven", "side": 0}  # with courts_to_win=1 it ends the match
PASSWORD = "tête à tête 7"


def won_by_ann_and_cy(actions: Actions, ann: str = "Ann") -> int:
    """A finished Court Piece match that Ann's side won."""
    match_id = actions.start("court_piece", [ann, *TABLE], courts_to_win=1)
    actions.hand(match_id, FIRST_SEVEN)
    return match_id


def versions(app, *match_ids: int) -> list[int]:
    with app.app_context():
        return [db.session.get(Match, match_id).version for match_id in match_ids]


def last_played(app, match_id: int):
    """When the table last changed the match: a set-aside match stays set aside on the home page."""
    with app.app_context():
        return db.session.get(Match, match_id).updated


def players(app) -> dict[str, int]:
    """Every player's name with the matches they played, and the records per game as the seats say."""
    with app.app_context():
        rerating.rerate_all()
        assert audit.differences() == []
        return dict(db.session.execute(db.select(Player.name, Player.played)).all())


def cli(app, *args: str):
    return app.test_cli_runner().invoke(players_group, list(args))


def verified(app) -> bool:
    """`flask verify`: every stored state, result and record agrees with a replay of the hands."""
    return app.test_cli_runner().invoke(args=["verify"]).exit_code == 0


# -- a match's set-up -------------------------------------------------------------------------------


def test_a_set_up_spelling_a_name_otherwise_changes_no_other_match(app, actions):
    """Issue 19 as reported: "ana lopez" in my match, PATCHed to "ANA LOPEZ", renamed "Ana Lopez"
    in a stranger's match, without its key and without moving its version."""
    stranger = Actions(app.test_client())
    theirs = stranger.start("poke", ["Ana Lopez", "Ben"])
    mine = actions.start("poke", ["ana lopez", "Cat"])
    version = versions(app, theirs)

    answer = actions.write("PATCH", mine, json={"players": ["ANA LOPEZ", "Cat"]})

    assert answer.status_code == 200
    assert stranger.match(theirs)["players"] == ["Ana Lopez", "Ben"]
    assert versions(app, theirs) == version
    assert "Ana Lopez" in stranger.client.get(f"/matches/{theirs}").text
    assert actions.match(mine)["players"] == ["Ana Lopez", "Cat"]  # the same player, as everybody knows her
    assert players(app) == {"Ana Lopez": 2, "Ben": 1, "Cat": 1}


def test_a_set_up_form_with_other_names_seats_other_players_in_that_match_only(app, actions, client):
    stranger = Actions(app.test_client())
    theirs = won_by_ann_and_cy(stranger)
    mine = won_by_ann_and_cy(actions)
    version = versions(app, theirs)

    answer = client.post(
        f"/matches/{mine}/setup",
        data={"seat-0": "ANN", "seat-1": "Bo", "seat-2": "Cyd", "seat-3": "Di", "opt-courts_to_win": "1"},
    )

    assert answer.status_code == 302, answer.text
    assert stranger.match(theirs)["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert versions(app, theirs) == version
    assert actions.match(mine)["players"] == ["Ann", "Bo", "Cyd", "Di"]
    assert players(app) == {"Ann": 2, "Bo": 2, "Cy": 1, "Cyd": 1, "Di": 2}
    with app.app_context():
        cyd = db.session.scalar(db.select(Player.id).where(Player.name == "Cyd"))
        told = stories_of(cyd)["court_piece"]
        assert (told.won, told.shared, told.lost, told.drawn) == (1, 0, 0, 0)


def test_a_set_up_that_races_another_phone_adding_the_same_player_is_refused(app, actions, monkeypatch):
    """Another phone adds "Cyd" after this set-up looked for it and before it wrote: 409, nothing lost."""
    match_id = won_by_ann_and_cy(actions)
    actions.start("poke", ["Cyd", "Hal"])
    seen, version = actions.match(match_id), versions(app, match_id)

    def not_seen_yet(name: str) -> Player:
        player = Player(name=name, key=name.casefold())
        db.session.add(player)
        return player

    monkeypatch.setattr(writes, "find_or_add_player", not_seen_yet)
    answer = actions.write("PATCH", match_id, json={"players": ["Ann", "Bo", "Cyd", "Di"]})

    assert answer.status_code == 409 and "try again" in answer.json["error"]
    assert actions.match(match_id) == seen and versions(app, match_id) == version
    assert players(app) == {"Ann": 1, "Bo": 1, "Cy": 1, "Cyd": 1, "Di": 1, "Hal": 1}


# -- flask players rename -------------------------------------------------------------------------


def test_rename_changes_the_player_in_every_match_and_tells_the_watching_phones(app, actions, client):
    first, second = won_by_ann_and_cy(actions), actions.start("court_piece", ["Ann", "Eve", "Fay", "Gus"])
    before, played = versions(app, first, second), last_played(app, second)

    done = cli(app, "rename", "  ann ", "Ann Lee")

    assert done.exit_code == 0, done.output
    assert done.output == '"Ann" is now "Ann Lee", in 2 matches.\n'
    assert actions.match(first)["players"] == ["Ann Lee", "Bo", "Cy", "Di"]
    assert actions.match(second)["players"] == ["Ann Lee", "Eve", "Fay", "Gus"]
    assert versions(app, first, second) == [version + 1 for version in before]  # watching phones reload
    assert last_played(app, second) == played
    assert "Ann Lee &amp; Cy win the match" in client.get(f"/matches/{first}").text  # the stored headline too
    assert players(app)["Ann Lee"] == 2
    assert verified(app)


@pytest.mark.parametrize(
    "old, new, told",
    [
        ("Ann", "bo", '"Bo" is another player already: if they are the same person, merge them.'),
        ("Zed", "Zed Lee", 'There is no player called "Zed".'),
        ("Ann", "   ", "A player's name cannot be empty."),
        ("Ann", "A" * 41, "A player's name can be at most 40 characters."),
    ],
)
def test_rename_refuses_in_one_line_and_changes_nothing(app, actions, old, new, told):
    match_id = won_by_ann_and_cy(actions)
    before, seen = players(app), versions(app, match_id)

    refused = cli(app, "rename", old, new)

    assert (refused.exit_code, refused.output) == (1, f"Error: {told}\n")
    assert players(app) == before and versions(app, match_id) == seen


# -- flask players merge --------------------------------------------------------------------------


def test_merge_moves_every_seat_and_record_to_the_one_person(app, actions, client):
    won = won_by_ann_and_cy(actions, "Ann")
    lost = actions.start("court_piece", ["Eve", "Ann B.", "Fay", "Gus"], courts_to_win=1)
    actions.hand(lost, FIRST_SEVEN)
    in_play = actions.start("poke", ["Ann B.", "Hal"])
    before = versions(app, won, lost, in_play)

    done = cli(app, "merge", "ann b.", "ANN")

    assert done.exit_code == 0, done.output
    assert done.output == '"Ann B." is merged into "Ann": 2 matches moved.\n'
    assert actions.match(lost)["players"] == ["Eve", "Ann", "Fay", "Gus"]
    assert actions.match(in_play)["players"] == ["Ann", "Hal"]
    assert versions(app, won, lost, in_play) == [before[0], before[1] + 1, before[2] + 1]
    names = players(app)  # also: every kept record per game agrees with the seats
    assert "Ann B." not in names and names["Ann"] == 3
    with app.app_context():
        ann = db.session.scalar(db.select(Player.id).where(Player.name == "Ann"))
        told = stories_of(ann)["court_piece"]
        assert (told.won, told.shared, told.lost, told.drawn) == (1, 0, 1, 0)
    assert "changed the set-up" in client.get(f"/matches/{in_play}").text  # the match's log says so
    assert verified(app)


def test_merge_refuses_two_players_of_one_match_and_says_which(app, actions):
    won_by_ann_and_cy(actions)
    shared = actions.start("poke", ["Ann", "Bo"])
    before = players(app)

    refused = cli(app, "merge", "Bo", "Ann")

    assert refused.exit_code == 1
    assert refused.output.startswith('Error: "Bo" and "Ann" both sit in Court Piece #1, Poke #2: they would be')
    assert players(app) == before and actions.match(shared)["players"] == ["Ann", "Bo"]


@pytest.mark.parametrize(
    "source, target, told",
    [
        ("Ann", "ANN ", 'Error: "Ann" and "ANN " are one player already: choose two players.\n'),
        ("Zed", "Ann", 'Error: There is no player called "Zed".\n'),
        ("Ann", "Zed", 'Error: There is no player called "Zed".\n'),
    ],
)
def test_merge_refuses_one_player_or_nobody(app, actions, source, target, told):
    won_by_ann_and_cy(actions)
    before = players(app)

    refused = cli(app, "merge", source, target)

    assert (refused.exit_code, refused.output) == (1, told)
    assert players(app) == before


# -- the host's page ------------------------------------------------------------------------------


def signed_in_host(app, client):
    app.config["SCOREKEEPER_ADMIN_PASSWORD"] = PASSWORD
    answer = client.post("/players/host/sign-in", data={"password": PASSWORD})
    assert answer.status_code == 302 and answer.location.endswith("/players/host")
    return client


def test_without_a_host_password_there_is_no_host_page(app, actions, client):
    won_by_ann_and_cy(actions)

    assert client.get("/players/host").status_code == 404
    assert client.post("/players/host/sign-in", data={"password": ""}).status_code == 404
    assert client.post("/players/host/rename", data={"rename-player": "Ann", "rename-new_name": "X"}).status_code == 404
    assert "/players/host" not in client.get("/players/").text
    assert "Ann" in players(app)


def test_a_wrong_password_is_refused_and_changes_nothing(app, actions, client):
    app.config["SCOREKEEPER_ADMIN_PASSWORD"] = PASSWORD
    won_by_ann_and_cy(actions)
    before = players(app)
    assert "/players/host" in client.get("/players/").text
    form = client.get("/players/host")
    assert form.status_code == 200 and 'type="password"' in form.text
    assert form.headers["Cache-Control"] == "no-store"

    wrong = client.post("/players/host/sign-in", data={"password": "tete a tete 7"})
    changed = client.post("/players/host/rename", data={"rename-player": "Ann", "rename-new_name": "Ann Lee"})

    assert wrong.status_code == 403 and "That is not the host password." in wrong.text
    assert wrong.headers["Cache-Control"] == "no-store"
    assert changed.status_code == 403 and "Sign in as the host first" in changed.text
    assert players(app) == before


def test_the_host_renames_and_merges_from_lists_on_the_page(app, actions, client):
    won_by_ann_and_cy(actions)
    actions.start("poke", ["Ann B.", "Hal"])
    host = signed_in_host(app, client)
    page = host.get("/players/host")
    assert page.headers["Cache-Control"] == "no-store"
    assert '<option value="Ann B.">Ann B. (1 match)</option>' in page.text

    taken = host.post("/players/host/rename", data={"rename-player": "Ann B.", "rename-new_name": "ann"})
    renamed = host.post(
        "/players/host/rename", data={"rename-player": "Hal", "rename-new_name": "Hal Roe"}, follow_redirects=True
    )
    same = host.post("/players/host/merge", data={"merge-source": "Ann", "merge-target": "Ann"})
    merged = host.post(
        "/players/host/merge", data={"merge-source": "Ann B.", "merge-target": "Ann"}, follow_redirects=True
    )

    assert taken.status_code == 409
    assert "&#34;Ann&#34; is another player already: if they are the same person, merge them." in taken.text
    assert "&#34;Hal&#34; is now &#34;Hal Roe&#34;, in 1 match." in renamed.text
    assert same.status_code == 422 and "are one player already: choose two players." in same.text
    assert "&#34;Ann B.&#34; is merged into &#34;Ann&#34;: 1 match moved." in merged.text
    assert merged.headers["Cache-Control"] == "no-store"
    assert players(app) == {"Ann": 2, "Bo": 1, "Cy": 1, "Di": 1, "Hal Roe": 1}

    host.post("/players/host/sign-out")
    assert 'type="password"' in host.get("/players/host").text


def test_a_new_host_password_signs_the_host_out(app, client):
    host = signed_in_host(app, client)
    app.config["SCOREKEEPER_ADMIN_PASSWORD"] = "another one"

    assert 'type="password"' in host.get("/players/host").text


def test_the_players_commands_are_flask_commands(app):
    answer = app.test_cli_runner().invoke(args=["players", "rename", "Nobody", "Somebody"])
    assert answer.exit_code == 1 and "There is no player called" in answer.output


# -- the host's door, locked (issue 38, item 5) ------------------------------------------------------


def test_signing_out_ends_the_sign_in_for_every_copy_of_its_cookie(app, client):
    signed_in_host(app, client)
    copy = app.test_client()
    copy.set_cookie("session", client.get_cookie("session").value)  # copied before signing out
    assert "Rename a player" in copy.get("/players/host").get_data(as_text=True)
    client.post("/players/host/sign-out")
    page = copy.get("/players/host").get_data(as_text=True)
    assert "Rename a player" not in page and 'name="password"' in page
    assert copy.post("/players/host/rename", data={"player": "Ann", "new_name": "Anna"}).status_code == 403


def test_the_host_password_has_its_own_limit_counted_before_it_is_judged(tmp_path):
    limited = make_app(
        f"sqlite:///{tmp_path / 'door.sqlite'}",
        RATELIMIT_ENABLED=True,
        SCOREKEEPER_ADMIN_PASSWORD=PASSWORD,
        SCOREKEEPER_WRITE_LIMIT="1000 per minute",
    )
    guesser = limited.test_client()
    answers = [guesser.post("/players/host/sign-in", data={"password": f"guess {n}"}) for n in range(12)]
    assert [answer.status_code for answer in answers] == [403] * 10 + [429] * 2
    assert "Too many host passwords from here" in answers[-1].get_data(as_text=True)
    assert guesser.post("/players/host/sign-in", data={"password": PASSWORD}).status_code == 429  # even the right one


def test_a_short_host_password_is_warned_of_at_start(tmp_path, caplog):
    make_app(f"sqlite:///{tmp_path / 'short.sqlite'}", SCOREKEEPER_ADMIN_PASSWORD="club2026")
    assert "SCOREKEEPER_ADMIN_PASSWORD is 8 characters long: use 12 or more" in caplog.text
    caplog.clear()
    make_app(f"sqlite:///{tmp_path / 'long.sqlite'}", SCOREKEEPER_ADMIN_PASSWORD=PASSWORD + "!!")
    assert "SCOREKEEPER_ADMIN_PASSWORD" not in caplog.text
