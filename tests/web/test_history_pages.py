"""History that does not grow: the list is a page of matches, the older ones a link away (keyset)."""

from __future__ import annotations

import re


def test_history_shows_a_page_and_links_to_older_matches(client, actions):
    ids = [actions.start("schnapsen", ["Ann", "Bo"]) for _ in range(33)]
    first = client.get("/matches").get_data(as_text=True)
    shown = [int(n) for n in re.findall(r'href="/matches/(\d+)"', first)]
    assert shown == ids[::-1][:25]  # newest first, one page
    older = re.search(r'href="(/matches\?before=\d+)"', first).group(1)
    rest = client.get(older).get_data(as_text=True)
    assert [int(n) for n in re.findall(r'href="/matches/(\d+)"', rest)] == ids[::-1][25:33]
    assert "Older matches" not in rest and "Newest" in rest
    assert len(first.encode()) <= 20 * 1024  # a long list stays light


def test_each_player_keeps_the_count_of_matches_played(app, client, actions):
    """The players list reads a stored count, kept right through new matches, seat changes and deletions."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Player

    def played() -> dict[str, int]:
        with app.app_context():
            return {p.name: p.played for p in db.session.scalars(db.select(Player))}

    first = actions.start("schnapsen", ["Ann", "Bo"])
    actions.start("schnapsen", ["Ann", "Cy"])
    assert played() == {"Ann": 2, "Bo": 1, "Cy": 1}
    assert actions.write("PATCH", first, json={"players": ["Ann", "Di"]}).status_code == 200  # Bo was Di
    assert played() == {"Ann": 2, "Cy": 1, "Di": 1}  # Bo sat nowhere else: no longer a player (issue 34)
    assert actions.write("DELETE", first).status_code == 204
    assert played() == {"Ann": 1, "Cy": 1}
    page = client.get("/players/").get_data(as_text=True)
    assert re.search(r"<b>Ann</b> <small>1 match</small>", page) and "<b>Bo</b>" not in page


def test_the_players_list_is_a_page_of_names_and_every_player_is_reachable(client, actions):
    names = [f"Player {number:02d}" for number in range(55)]
    for first in range(0, 55, 5):
        actions.start("polignac", names[first : first + 5])
    seen, url = [], "/players/"
    while url:
        page = client.get(url).get_data(as_text=True)
        seen += re.findall(r"<b>(Player \d+)</b>", page)
        more = re.search(r'href="(/players/\?after=[^"]+)">More players', page)
        url = more.group(1).replace("&amp;", "&").replace("+", " ") if more else None
    assert seen == names  # by name, each once, in pages of 50


def test_the_history_filter_offers_the_regular_players_and_the_one_chosen(app, client, actions):
    from scorekeeper.extensions import db
    from scorekeeper.models import Player

    for first in range(0, 40, 4):
        actions.start("court_piece", [f"Guest {number}" for number in range(first, first + 4)])
    for _ in range(3):
        actions.start("schnapsen", ["Ann", "Bo"])
    with app.app_context():
        guest = db.session.scalar(db.select(Player.id).where(Player.name == "Guest 39"))
    offered = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', client.get("/matches").get_data(as_text=True))
    players = [name for name in offered if name.startswith(("Guest", "Ann", "Bo"))]
    assert len(players) == 30 and "Ann" in players and "Bo" in players  # the regulars first
    chosen = client.get(f"/matches?player={guest}").get_data(as_text=True)
    assert re.search(rf'<option value="{guest}" selected>Guest 39</option>', chosen)
