"""History that does not grow: the list is a page of matches, the older ones a link away (keyset)."""

from __future__ import annotations

import re


def test_history_shows_a_page_and_links_to_older_matches(client, actions):
    ids = [actions.start("schnapsen", ["Ann", "Bo"]) for _ in range(33)]
    first = client.get("/matches").get_data(as_text=True)
    shown = [int(n) for n in re.findall(r'href="/matches/(\d+)"', first)]
    assert shown == ids[::-1][:30]  # newest first, one page
    older = re.search(r'href="(/matches\?before=\d+)"', first).group(1)
    rest = client.get(older).get_data(as_text=True)
    assert [int(n) for n in re.findall(r'href="/matches/(\d+)"', rest)] == ids[::-1][30:]
    assert "Older matches" not in rest and "Newest" in rest
    assert len(first.encode()) <= 20 * 1024  # a long list stays light
