"""The links a list makes once for all its rows (scorekeeper/links.py numbered_links)."""

from __future__ import annotations

from flask import url_for

from scorekeeper.web.links import HOLE, numbered_links


def test_a_numbered_link_is_the_link_url_for_makes(app):
    with app.test_request_context():
        edit = numbered_links("matches.edit", "number", match_id=12)
        rule = numbered_links("rules.show", "hand", key="court_piece", match=12)
        for number in (1, 9, 10, 500):
            assert edit(number) == url_for("matches.edit", match_id=12, number=number)
            assert rule(number) == url_for("rules.show", key="court_piece", match=12, hand=number)


def test_a_match_numbered_like_the_hole_still_gets_its_own_links(app):
    with app.test_request_context():
        edit = numbered_links("matches.edit", "number", match_id=HOLE)
        assert edit(3) == f"/matches/{HOLE}/hands/3/edit"
