"""Who may write (API.md "Who may write"): a match's key, given once when it is created, is needed
for every write to it; a GET never shows it."""

from __future__ import annotations


def test_writes_need_the_match_key(client):
    """API.md "Who may write": without the key 401, with another key 403, and nothing changes."""
    created = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["A1", "B1", "C1", "D1"]}).json
    other = client.post("/api/v1/matches", json={"game": "court_piece", "players": ["A2", "B2", "C2", "D2"]}).json
    match_id, hand = created["id"], {"record": {"outcome": "tricks", "tricks": [8, 5]}}
    assert "key" not in client.get(f"/api/v1/matches/{match_id}").json  # a GET never shows a key
    writes = [
        ("POST", "/hands", hand),
        ("PUT", "/hands/1", hand),
        ("DELETE", "/hands/1", None),
        ("POST", "/finish", None),
        ("POST", "/reopen", None),
        ("PATCH", "", {"options": {}}),
        ("DELETE", "", None),
    ]
    for method, path, body in writes:
        for headers, status in (({"Authorization": ""}, 401), ({"Authorization": f"Bearer {other['key']}"}, 403)):
            answer = client.open(f"/api/v1/matches/{match_id}{path}", method=method, json=body, headers=headers)
            assert answer.status_code == status, (method, path, answer.json)
            assert answer.json["error"] and answer.json["fields"] == {}
    assert client.get(f"/api/v1/matches/{match_id}").json["hands"] == []  # nothing changed
    keyed = {"Authorization": f"Bearer {created['key']}"}
    assert client.post(f"/api/v1/matches/{match_id}/hands", json=hand, headers=keyed).status_code == 201
