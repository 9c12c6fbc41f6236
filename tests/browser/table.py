"""What the issue-7 browser tests share: a thumb that counts its taps, the form's parts, and matches
of every game made through the JSON API (records drawn with each game's own `example_hand`), so
the pages under test can be opened straight away."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import GAMES
from tests.games.taps import PLAYERS

from .conftest import Started, TableApi

NAMES = list(PLAYERS)
ENDS_WITHIN = 60  # example hands played to reach the end of a match that ends by itself
CALLED_AFTER = 6  # hands played before the table calls the end of a match that ends by a call


# -- what a player does on the page ---------------------------------------------------------------


def the_form(page: Page) -> Locator:
    return page.locator("form.hand-form")


def board(page: Page) -> Locator:
    return page.get_by_role("region", name="Score")


def group(scope: Locator | Page, name: str) -> Locator:
    """A fieldset by its legend (the question the form asks)."""
    return scope.get_by_role("group", name=name, exact=True)


def banner(page: Page) -> Locator:
    return page.locator("p.banner:not([hidden])")  # not the one shown when the score moves


def tap(scope: Locator | Page, text: str) -> None:
    """Tap the control showing exactly `text`."""
    scope.get_by_text(text, exact=True).click()


# Each game names a hand its own way ("Round 3", "Record game 2"): these find a hand's controls and
# entries whatever the game's word. A test that means one word says it (tests/web/test_naming.py).


def hand_control(verb: str, number: int) -> re.Pattern:
    """ "Record round 3", "Undo game 2", "Save hand 1": a control naming hand `number`."""
    return re.compile(rf"^{verb} [a-z]+ {number}\b")


def hand_heading(number: int) -> re.Pattern:
    """ "Hand 3", "Round 3": the heading of hand `number` in the hands list."""
    return re.compile(rf"^[A-Z][a-z]+ {number}$")


def hand_entry(page: Page, number: int) -> Locator:
    """Hand `number` in the hands list, with its Edit and Delete links."""
    return page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=hand_heading(number)))


def edit_hand(page: Page, number: int) -> Locator:
    """Open hand `number` for editing from the hands list; the form of the edit page."""
    hand_entry(page, number).get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name=hand_control("Edit", number))).to_be_visible()
    return the_form(page)


def save_hand(page: Page, number: int) -> None:
    """Tap "Save hand n" on its edit page and wait for the match page saying so."""
    page.get_by_role("button", name=hand_control("Save", number)).click()
    expect(page.get_by_role("status").filter(has_text=re.compile(rf"^[A-Z][a-z]+ {number} changed"))).to_be_visible()


def no_more_hands(page: Page) -> None:
    """The match is over: no Record button is left."""
    expect(page.get_by_role("button", name=re.compile(r"^Record [a-z]+ \d+$"))).to_have_count(0)


class Thumb:
    """The player's thumb on the phone: every tap goes through here and is counted. A typed number
    is one tap on its box (and counted as typed too); a drop-down choice is two (open, pick)."""

    def __init__(self, page: Page):
        self.page = page
        self.taps = 0
        self.typed = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.taps += 1

    def choose(self, scope: Locator | Page, text: str) -> None:
        """Tap a big button by its text (a radio or checkbox label)."""
        self.tap(scope.get_by_text(text, exact=True))

    def type(self, box: Locator, number: int | str) -> None:
        self.tap(box)
        box.fill(str(number))
        self.typed += 1

    def pick(self, select: Locator, label: str) -> None:
        self.tap(select)
        select.select_option(label=label)
        self.taps += 1

    def record(self, number: int) -> None:
        """Tap "Record hand n" (the game's word: "Record round n"...) and wait for the next hand's page."""
        self.tap(self.page.get_by_role("button", name=hand_control("Record", number)))
        expect(self.page.get_by_role("button", name=hand_control("Undo", number))).to_be_visible()


# -- many pages quickly ---------------------------------------------------------------------------

# Installed once in a page's window: `show` fetches a page (or posts the hand form shown, as the
# Record button would) and writes it into the document (document.open keeps the window and what
# was installed in it), resolving to the answer's status once its stylesheets are in. The same DOM,
# stylesheets and scripts as a navigation, without reloading anything installed in the window. The
# context needs bypass_csp: the written page's style nonce is not the first page's.
# The one long-lived window keeps every page's scripts: a match page's live event stream would hold
# one of the browser's six connections to the server for each page shown, so these windows have none.
SHOW_PAGE = """
delete window.EventSource;
window.show = async ({url, post}) => {
  let answer;
  if (post) {
    const form = document.querySelector('form.hand-form');
    answer = await fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form))});
  } else {
    answer = await fetch(url);
  }
  const html = await answer.text();
  document.open(); document.write(html); document.close();
  await Promise.all([...document.querySelectorAll('link[rel=stylesheet]')].map(link => link.sheet ? null :
    new Promise(done => { link.addEventListener('load', done); link.addEventListener('error', done); })));
  return answer.status;
};
"""


def install_show(page: Page) -> None:
    page.evaluate(f"() => {{ {SHOW_PAGE} }}")


def show(page: Page, url: str) -> int:
    """Write the page at `url` into `page` (SHOW_PAGE installed); the answer's status."""
    return page.evaluate("url => show({url, post: false})", url)


# -- matches made through the API -----------------------------------------------------------------


def players_for(key: str) -> list[str]:
    return NAMES[: GAMES[key].min_players]


def example_records(key: str, players: int, seed: int, most: int, before_the_end: bool) -> list[dict]:
    """Up to `most` hands drawn with the game's own example_hand; with `before_the_end`, none that
    would end the match (so its page still asks for the next hand)."""
    game = GAMES[key]
    table = game.table(players)
    options = game.parse_options({}, table)
    state = game.new_state(table, options)
    rng = random.Random(seed)
    records = []
    while len(records) < most and not game.result(state).over:
        record = game.example_hand(state, rng)
        after = game.play(state, record).state
        if before_the_end and game.result(after).over:
            break
        records.append(record)
        state = after
    return records


@dataclass(frozen=True)
class GameMatches:
    """Three matches of one game: just started, a few hands in, and finished."""

    key: str
    fresh: Started
    played: Started
    finished: Started
    finished_hands: int

    def join(self, page: Page, *matches: Started) -> None:
        """This phone scores them (all three unless named; the set-up, edit and delete pages need
        it): their scorer links, followed without drawing a page (the context's cookies are the
        phone's)."""
        for match in matches or (self.fresh, self.played, self.finished):
            answer = page.request.get(f"/matches/{match.id}/join?key={match.key}")
            assert answer.ok, answer.status

    def pages(self) -> dict[str, str]:
        """Every page of the game, by what it is."""
        return {
            "new match": f"/matches/new/{self.key}",
            "match page, fresh": f"/matches/{self.fresh.id}",
            "match page with hands": f"/matches/{self.played.id}",
            "finished match page": f"/matches/{self.finished.id}",
            "edit hand": f"/matches/{self.finished.id}/hands/1/edit",
            "delete-hand confirmation": f"/matches/{self.finished.id}/hands/1/delete",
            "set-up page": f"/matches/{self.played.id}/setup",
            "hands list": f"/matches/{self.finished.id}/hands",
            "score sheet": f"/matches/{self.finished.id}/sheet",
            "rules page": f"/rules/{self.key}",
        }


def make_matches(api: TableApi, key: str, seed: int = 7) -> GameMatches:
    names = players_for(key)
    game = GAMES[key]
    fresh = api.start(key, names)
    played = api.start(key, names)
    for record in example_records(key, len(names), seed, 3, before_the_end=True):
        api.hand(played, record)
    finished = api.start(key, names)
    by_call = game.ends_by_call(game.parse_options({}, game.table(len(names))))
    records = example_records(key, len(names), seed, CALLED_AFTER if by_call else ENDS_WITHIN, before_the_end=False)
    for record in records:
        api.hand(finished, record)
    status, answer = api.call("GET", f"/api/v1/matches/{finished.id}")
    if answer["status"] != "finished":
        assert by_call, f"{key} did not end within {ENDS_WITHIN} hands"
        api.finish(finished)
    return GameMatches(key, fresh, played, finished, len(records))
