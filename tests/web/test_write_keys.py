"""Only the table changes a match: the phone that starts it may score it, shares a scorer link
(and a watch link) with the other phones, and every change is kept in the match's log."""

from __future__ import annotations

import re
import threading

FOUR = ["Ann", "Bo", "Cy", "Di"]


def start_on_page(client, base_url: str = "http://localhost") -> int:
    answer = client.post(
        "/matches/new/court_piece", data={f"seat-{i}": name for i, name in enumerate(FOUR)}, base_url=base_url
    )
    assert answer.status_code == 302
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def hand(client, match_id: int, expected: int, won: int = 8, token: str | None = None):
    data = {"outcome": "tricks", "tricks-0": str(won), "expected": str(expected)}
    if token:
        data["token"] = token
    return client.post(f"/matches/{match_id}/hands", data=data)


def test_the_phone_that_starts_a_match_scores_it_and_a_stranger_only_watches(app):
    table, stranger = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    assert hand(table, match_id, 1).status_code == 302
    page = stranger.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Record hand" not in page and "Watching" in page  # reading is open
    refused = hand(stranger, match_id, 2)
    assert refused.status_code == 403 and "scorer link" in refused.get_data(as_text=True)
    for path in ("/hands/1/delete", "/undo", "/finish", "/setup", "/remove", "/hands/1/edit", "/reopen"):
        assert stranger.post(f"/matches/{match_id}{path}", data={}).status_code == 403, path
    assert stranger.get(f"/matches/{match_id}/share").status_code == 403  # the scorer link is the table's
    assert len(table.get(f"/api/v1/matches/{match_id}").json["hands"]) == 1  # nothing changed


def test_the_share_page_gives_a_scorer_link_and_a_watch_link_as_qr_codes(app):
    app.config["TRUSTED_HOSTS"].append("192.168.1.20")  # the table's Wi-Fi: the phone opened the app there
    table, partner = app.test_client(), app.test_client()
    match_id = start_on_page(table, base_url="http://192.168.1.20:8000")
    page = table.get(f"/matches/{match_id}/share", base_url="http://192.168.1.20:8000").get_data(as_text=True)
    assert page.count("<svg") == 2  # two QR codes, drawn on the server
    scorer = re.search(r'value="(http://192.168.1.20:8000/matches/\d+/join\?code=[^"]+)"', page).group(1)
    assert f'value="http://192.168.1.20:8000/matches/{match_id}/watch"' in page
    assert partner.get(scorer.replace("http://192.168.1.20:8000", "")).status_code == 302
    assert hand(partner, match_id, 1).status_code == 302  # the partner's phone scores now
    wrong = partner.get(f"/matches/{match_id}/join?key=not-the-key")
    assert wrong.status_code == 403


def test_the_watch_page_follows_the_match_live(app):
    table, watcher = app.test_client(), app.test_client()
    match_id = start_on_page(table)
    page = watcher.get(f"/matches/{match_id}/watch").get_data(as_text=True)
    events = re.search(r'data-watch="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert 'http-equiv="refresh"' in page  # without scripts, a plain refresh
    quiet = watcher.get(events + "&wait=1").get_data(as_text=True)
    assert "event: change" not in quiet
    hand(table, match_id, 1)
    moved = watcher.get(events + "&wait=1").get_data(as_text=True)
    assert "event: change" in moved


def test_every_edit_undo_and_deletion_is_kept_in_the_log(app):
    table = app.test_client()
    match_id = start_on_page(table)
    for number in (1, 2, 3):
        hand(table, match_id, number)
    table.post(f"/matches/{match_id}/hands/1/edit", data={"outcome": "tricks", "tricks-0": "6", "expected": "1"})
    table.post(f"/matches/{match_id}/hands/2/delete", data={})
    table.post(f"/matches/{match_id}/undo", data={"expected": "2"})
    page = table.get(f"/matches/{match_id}").get_data(as_text=True)
    log = page[page.index("Changes made to this match") :]
    assert log.index("took back hand 2") < log.index("deleted hand 2") < log.index("edited hand 1")


def test_the_log_shows_each_kind_of_change_and_is_absent_while_every_write_recorded_a_hand(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    for tricks in ([8, 5], [7, 6]):
        actions.hand(match_id, {"outcome": "tricks", "tricks": tricks})
    assert "Changes made to this match" not in client.get(f"/matches/{match_id}").get_data(as_text=True)
    actions.finish(match_id)
    actions.reopen(match_id)
    actions.delete(match_id, 2)
    actions.hand(match_id, {"outcome": "tricks", "tricks": [9, 4]})  # a hand again: the log stays
    log = client.get(f"/matches/{match_id}").get_data(as_text=True).split("Changes made to this match")[1]
    assert log.index("deleted hand 2") < log.index("reopened the match") < log.index("finished the match")


def test_a_double_tap_records_once_and_answers_both_taps_as_the_first(app):
    table = app.test_client()
    match_id = start_on_page(table)
    statuses, barrier = [], threading.Barrier(2)

    def tap():
        phone = app.test_client()
        phone.set_cookie("phone", table.get_cookie("phone").value)  # the same phone, both taps
        barrier.wait()
        answer = hand(phone, match_id, 1, token="same-form")
        statuses.append((answer.status_code, answer.headers.get("Location", "")))

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in statuses] == [302, 302], statuses
    assert len(table.get(f"/api/v1/matches/{match_id}").json["hands"]) == 1
    assert "Another phone" not in table.get(f"/matches/{match_id}").get_data(as_text=True)
