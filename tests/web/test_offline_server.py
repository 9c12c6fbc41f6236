"""What the server does for a phone that was offline (issue 22): a form write sent with a one-time
token is kept with its answer, so the same write sent again (its answer lost on the way) gets that
answer instead of being done twice, even after another phone changed the match meanwhile; a token
reused on another change is refused; old receipts are pruned; the service worker's script is served
from the root; a match page names the version it shows; the page stays light with the scripts."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import WriteReceipt, now_utc
from scorekeeper.web import offline
from tests.conftest import Actions

FOUR = ["Ann", "Bo", "Cy", "Di"]
PAGE_LIMIT = 30 * 1024
# The outbox's scripts and sw.js together, as written (comments in): 11 KiB until the outbox listed
# what waits with its ways out (issue 32), 16 KiB until its loader took it off the pages without
# work for it; a phone receives them compressed, within the page's 30 KB below.
SCRIPTS = ["/static/outbox-loader.js", "/static/outbox.js", "/sw.js"]
SCRIPTS_LIMIT = 18 * 1024


@pytest.fixture
def table(client):
    """A Court Piece match this client scores (a phone at the table), and another phone that scores it too."""
    actions = Actions(client)
    match_id = actions.start("court_piece", FOUR)
    return actions, match_id


def hand(client, match_id: int, expected: int, won: int, token: str | None = None):
    data = {"outcome": "tricks", "tricks-0": str(won), "expected": str(expected)}
    if token:
        data["token"] = token
    return client.post(f"/matches/{match_id}/hands", data=data)


def tricks(actions: Actions, match_id: int) -> list[list[int]]:
    return [h["record"]["tricks"] for h in actions.match(match_id)["hands"]]


def other_phone(app, actions: Actions, match_id: int):
    phone = app.test_client()
    phone.get(f"/matches/{match_id}/join?key={actions.keys[match_id]}")
    return phone


def receipts(app) -> list[WriteReceipt]:
    with app.app_context():
        return list(db.session.scalars(db.select(WriteReceipt)))


# -- the same form again -----------------------------------------------------------------------------


def test_a_hand_sent_again_after_another_phone_recorded_gets_its_first_answer(app, client, table):
    """The answer to hand 1 was lost; another phone records hand 2; the outbox sends hand 1 again."""
    actions, match_id = table
    first = hand(client, match_id, 1, 8, token="lost-answer")
    assert first.status_code == 302
    assert hand(other_phone(app, actions, match_id), match_id, 2, 9).status_code == 302

    again = hand(client, match_id, 1, 8, token="lost-answer")

    assert (again.status_code, again.headers["Location"]) == (302, first.headers["Location"])
    assert again.headers["Idempotent-Replayed"] == "true"
    assert tricks(actions, match_id) == [[8, 5], [9, 4]]  # once each: not a conflict, not a third hand


def test_an_undo_sent_again_does_not_take_back_the_hand_another_phone_added(app, client, table):
    actions, match_id = table
    for number, won in enumerate((8, 9), start=1):
        hand(client, match_id, number, won)
    undo = {"expected": "2", "token": "undo-once"}
    assert client.post(f"/matches/{match_id}/undo", data=undo).status_code == 302
    assert hand(other_phone(app, actions, match_id), match_id, 2, 10).status_code == 302

    assert client.post(f"/matches/{match_id}/undo", data=undo).status_code == 302

    assert tricks(actions, match_id) == [[8, 5], [10, 3]]


def test_an_edit_sent_again_does_not_undo_another_phones_edit_of_the_same_hand(app, client, table):
    actions, match_id = table
    hand(client, match_id, 1, 8)
    mine = {"outcome": "tricks", "tricks-0": "9", "token": "edit-once"}
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=mine).status_code == 302
    theirs = {"outcome": "tricks", "tricks-0": "10"}
    assert other_phone(app, actions, match_id).post(f"/matches/{match_id}/hands/1/edit", data=theirs).status_code == 302

    assert client.post(f"/matches/{match_id}/hands/1/edit", data=mine).status_code == 302

    assert tricks(actions, match_id) == [[10, 3]]
    assert client.get(f"/matches/{match_id}").get_data(as_text=True).count("edited hand 1") == 2  # the match's log


def test_a_finish_sent_again_is_answered_as_the_first_not_refused(client, table):
    actions, match_id = table
    hand(client, match_id, 1, 8)
    finish = {"token": "finish-once"}
    assert client.post(f"/matches/{match_id}/finish", data=finish).status_code == 302
    assert client.post(f"/matches/{match_id}/finish", data=finish).status_code == 302
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "already over" not in page  # no refusal flashed: the second was the first's answer
    assert actions.match(match_id)["status"] == "finished"


def test_a_token_used_for_one_change_is_refused_on_another_and_nothing_changes(client, table):
    actions, match_id = table
    assert hand(client, match_id, 1, 8, token="one-change").status_code == 302

    reused = hand(client, match_id, 2, 9, token="one-change")

    assert reused.status_code == 422
    assert "already sent for another change" in reused.get_data(as_text=True)
    assert tricks(actions, match_id) == [[8, 5]]


def test_a_refused_write_keeps_no_receipt_so_its_token_can_be_sent_again_put_right(app, client, table):
    actions, match_id = table
    refused = hand(client, match_id, 1, 14, token="first-try")  # 14 of 13 tricks
    assert refused.status_code == 422 and receipts(app) == []

    assert hand(client, match_id, 1, 8, token="first-try").status_code == 302

    assert tricks(actions, match_id) == [[8, 5]]
    assert [r.status for r in receipts(app)] == [302]


def test_a_write_without_a_token_keeps_no_receipt(app, client, table):
    actions, match_id = table
    hand(client, match_id, 1, 8)
    client.post(f"/matches/{match_id}/undo", data={"expected": "1"})
    assert receipts(app) == [] and tricks(actions, match_id) == []


def test_a_phone_that_may_not_score_is_refused_even_with_the_tables_token(app, client, table):
    actions, match_id = table
    hand(client, match_id, 1, 8, token="the-tables")
    stranger = app.test_client()
    refused = hand(stranger, match_id, 1, 8, token="the-tables")
    assert refused.status_code == 403 and "Idempotent-Replayed" not in refused.headers


def test_receipts_are_kept_a_day_at_least_and_old_ones_pruned(app, client, table):
    actions, match_id = table
    ages = {"a" * 64: 23, "b" * 64: offline.KEPT_HOURS, "c" * 64: offline.KEPT_HOURS + 30}  # hours
    with app.app_context():
        for token_hash, hours in ages.items():
            db.session.add(
                WriteReceipt(
                    token_hash=token_hash,
                    request="POST /x 0",
                    status=302,
                    location="/",
                    created=now_utc() - timedelta(hours=hours, minutes=1),
                )
            )
        db.session.commit()
    app.extensions["offline"]["pruned"] = float("-inf")  # a process that has not pruned yet

    hand(client, match_id, 1, 8, token="prunes")

    kept = {r.token_hash for r in receipts(app)}
    assert "a" * 64 in kept and not kept & {"b" * 64, "c" * 64}
    assert len(kept) == 2  # the old day's and this hand's
    hand(client, match_id, 2, 9, token="does-not-prune-again")
    assert len(receipts(app)) == 3  # pruned at most once every few minutes: one indexed DELETE


# -- what the phone is given -------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_and_checked_for_updates(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert b"respondWith" in answer.data


def test_a_match_page_names_the_version_it_shows_and_loads_the_outbox(client, table):
    actions, match_id = table
    hand(client, match_id, 1, 8)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    with client.application.app_context():
        from scorekeeper.models import Match

        version = db.session.get(Match, match_id).version
    assert f'<meta name="match-version" content="{version}">' in page and version > 0
    assert '<script type="module" src="/static/outbox-loader.js">' in page
    assert '<link rel="modulepreload" href="/static/outbox.js">' in page  # its forms: the loader imports it
    home = client.get("/").get_data(as_text=True)
    assert "match-version" not in home
    assert "/static/outbox-loader.js" in home and "/static/outbox.js" not in home


def test_a_watching_phone_and_a_list_page_name_only_the_outbox_loader(client, table):
    """The outbox is imported where it has work (outbox-loader.js): not on pages without its forms."""
    actions, match_id = table
    hand(client, match_id, 1, 8)
    watcher = client.application.test_client()
    for phone, url in [
        (watcher, f"/matches/{match_id}"),
        (client, f"/matches/{match_id}/hands"),
        (client, "/players/"),
    ]:
        page = phone.get(url).get_data(as_text=True)
        assert "/static/outbox-loader.js" in page and "/static/outbox.js" not in page, url


def test_the_outbox_and_the_service_worker_stay_small(client):
    """Their own budget, so that they cannot grow unnoticed: the page around them is the limit below."""
    sizes = {script: len(client.get(script).data) for script in SCRIPTS}
    assert sizes["/static/outbox-loader.js"] and sum(sizes.values()) <= SCRIPTS_LIMIT, sizes


def test_the_match_page_with_its_css_scripts_and_service_worker_stays_within_30_kb(client, table):
    """The page the bench weighs (a Court Piece match on the table's phone), plus the service worker's
    own script, in the bytes a phone's browser receives (it asks for compression; CSS and scripts
    are compressed, the page itself is not)."""
    actions, match_id = table
    for number, won in enumerate((8, 9, 7), start=1):
        hand(client, match_id, number, won)
    wire = {"Accept-Encoding": "br, gzip"}
    page = client.get(f"/matches/{match_id}", headers=wire)
    assets = sorted(set(re.findall(r'(?:href|src)="(/static/[^"?#]+)', page.get_data(as_text=True))))
    assert "/static/outbox.js" in assets
    fetched = [client.get(path, headers=wire) for path in [*assets, "/sw.js"]]
    assert client.get("/static/app.css", headers=wire).headers.get("Content-Encoding") in ("br", "gzip")
    assert page.headers.get("Content-Encoding") is None
    weight = len(page.data) + sum(len(answer.data) for answer in fetched)
    assert weight <= PAGE_LIMIT, f"{weight} bytes"
