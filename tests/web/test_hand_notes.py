"""A note on any hand (issue 21, item 7): the table's own remark, kept with the hand, shown in the
hands list, carried by the CSV export, and never scored."""

from __future__ import annotations

import io

from scorekeeper.history import exports

from .test_data import csv_rows
from .test_write_keys import start_on_page


def record(client, match_id: int, expected: int, note: str | None = None, won: int = 8):
    form = {"outcome": "tricks", "tricks-0": str(won), "expected": str(expected)}
    if note is not None:
        form["note"] = note
    return client.post(f"/matches/{match_id}/hands", data=form)


def test_a_note_is_shown_with_its_hand_and_scores_nothing(app):
    table = app.test_client()
    match_id = start_on_page(table)
    assert record(table, match_id, 1, note="  Ana   misdealt, replayed  ").status_code == 302
    assert record(table, match_id, 2).status_code == 302
    page = table.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "“Ana misdealt, replayed”" in page  # kept on one line, trimmed
    assert page.count('class="hand-note"') == 1  # hand 2 has none
    hands = table.get(f"/api/v1/matches/{match_id}").json["hands"]
    assert [hand["record"] for hand in hands] == [{"outcome": "tricks", "tricks": [8, 5]}] * 2


def test_a_note_is_changed_or_cleared_on_the_edit_form(app):
    table = app.test_client()
    match_id = start_on_page(table)
    record(table, match_id, 1, note="Trumps were hearts")
    edit_page = table.get(f"/matches/{match_id}/hands/1/edit").get_data(as_text=True)
    assert 'value="Trumps were hearts"' in edit_page
    form = {"outcome": "tricks", "tricks-0": "9", "expected": "1", "note": "Trumps were spades"}
    assert table.post(f"/matches/{match_id}/hands/1/edit", data=form).status_code == 302
    assert "“Trumps were spades”" in table.get(f"/matches/{match_id}").get_data(as_text=True)
    form["note"] = ""
    table.post(f"/matches/{match_id}/hands/1/edit", data=form)
    assert "Trumps were" not in table.get(f"/matches/{match_id}/hands").get_data(as_text=True)


def test_a_note_over_200_characters_is_refused_on_the_form_and_nothing_is_recorded(app):
    table = app.test_client()
    match_id = start_on_page(table)
    refused = record(table, match_id, 1, note="x" * 201)
    assert refused.status_code == 422
    assert "A note can be 200 characters at most; this one has 201." in refused.get_data(as_text=True)
    assert table.get(f"/api/v1/matches/{match_id}").json["hands"] == []
    assert record(table, match_id, 1, note="x" * 200).status_code == 302


def test_the_csv_export_carries_each_hands_note(app):
    table = app.test_client()
    match_id = start_on_page(table)
    record(table, match_id, 1, note="Cy dealt out of turn")
    record(table, match_id, 2)
    with app.app_context():
        out = io.StringIO()
        exports.write_hands_csv(out)
    rows = [row for row in csv_rows(out.getvalue()) if row["match"] == str(match_id)]
    assert [(row["hand"], row["note"]) for row in rows] == [("1", "Cy dealt out of turn")] * 2 + [("2", "")] * 2
