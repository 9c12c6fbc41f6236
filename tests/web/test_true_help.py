"""Help that says what the form does (issue 34, item 2): a table that follows the help scores right."""

from __future__ import annotations

import html

from .test_write_keys import FOUR, start_on_page


def test_court_pieces_court_help_gives_a_revokes_court_to_the_side_that_did_not_revoke(app, client):
    match_id = start_on_page(client)
    page = html.unescape(client.get(f"/matches/{match_id}").text)
    assert "after a revoke, the side that did not revoke" in page
    assert "or the side that revoked" not in page  # the API's description of the record, not the form's question


def test_every_page_has_a_description(app, client):
    match_id = start_on_page(client)
    for path in ("/", "/rules/", "/players/", f"/matches/{match_id}", "/nights/20261127"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert '<meta name="description" content="Scorekeeper keeps the score' in page.text, path


def test_a_night_page_says_when_its_night_starts_and_ends(app, client):
    page = html.unescape(client.get("/nights/20261127").text)
    assert "The night runs from 06:00 on Friday 27 November to 06:00 on Saturday 28 November" in page


def started_on_page(client, game: str) -> str:
    answer = client.post(f"/matches/new/{game}", data={f"seat-{i}": name for i, name in enumerate(FOUR)})
    assert answer.status_code == 302, answer.text
    return html.unescape(client.get(answer.headers["Location"]).text)


def test_a_total_split_between_two_sides_is_typed_in_a_box_or_tapped_on_buttons_as_the_help_says(app, client):
    assert "Type one side's number; the other side gets the rest." in started_on_page(client, "botifarra")
    tapped = started_on_page(client, "omi")  # eight tricks: one button a number
    assert "Tap one side's number; the other side gets the rest." in tapped and "Type one side's" not in tapped
