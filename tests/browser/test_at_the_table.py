"""Issue 7 "At the table" in the browser, on a 390x844 phone unless a test says otherwise.

- The commonest hand of every game, tapped the way a player does, every tap counted (the Record tap
  included): Envite 2, Court Piece 2, Schnapsen 3 (the quick form), Poke 4 at most, as the issue
  asks. Each game's test file declares its hand and count (COMMONEST in tests/games/test_<key>.py,
  tests/games/taps.py says how), and this file names no game for it.
- Every hand above Record (issue 34): every control the commonest hand taps lies above the top of
  the Record bar, without scrolling, as hand 1 and as hand 2; so do the controls of each game's
  other common hands (COMMON), with at most one fold opened.
- One screen per hand: at 390x844 and at 360x740 a fresh match page of every game, and one a few
  hands in, shows both scores side by side, whose deal it is, and the Record button, without
  scrolling.
- A match that can be fixed: set-up edits replayed (rename, partners, first dealer, a house rule,
  and a refusal naming the hand), a match deleted, a finished match reopened, a rematch.
- Dark mode: a toggle remembered from page to page, and the phone's own dark setting followed.
- Zoom: at 320 px with 200% zoom (a 160 CSS px wide screen) no page scrolls sideways.

Expected figures are worked out here from the rules, as in test_journeys.py.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorekeeper.games import GAMES
from tests.games.properties import declared
from tests.games.taps import ANN_CY as A
from tests.games.taps import BOB_DI as B
from tests.games.taps import PLAYERS, Step

from .conftest import PHONE, TableApi
from .table import Thumb, banner, board, group, hand_control, hand_entry, install_show, players_for, show, the_form

pytestmark = pytest.mark.browser

FOUR = list(PLAYERS[:4])


# == 1. Taps for the common hands, above the Record bar ==========================================


def nested(scope: Locator, path: tuple[str, ...]) -> Locator:
    for name in path:
        scope = group(scope, name)
    return scope


def target(form: Locator, step: Step) -> Locator:
    """What the thumb touches for `step`."""
    if step.kind == "choose":
        return nested(form, step.path).get_by_text(step.value, exact=True)
    if step.kind == "type":
        return nested(form, step.path).get_by_role("spinbutton")
    if step.kind == "pick":
        return nested(form, step.path[:-1]).get_by_role("combobox", name=step.path[-1], exact=True)
    return form.get_by_text(step.value, exact=True)


def take(thumb: Thumb, form: Locator, step: Step) -> None:
    if step.kind == "choose":
        thumb.choose(nested(form, step.path), step.value)
    elif step.kind == "type":
        thumb.type(nested(form, step.path).get_by_role("spinbutton"), step.value)
    elif step.kind == "pick":
        thumb.pick(target(form, step), step.value)
    else:
        thumb.tap(form.get_by_text(step.value, exact=True))


# How far below the top of the Record bar a control's bottom lies on the screen as it is (negative:
# above it), and how far the page is scrolled.
BELOW_THE_BAR = """element => {
  const bar = document.querySelector('form.hand-form .record-bar').getBoundingClientRect();
  return {below: element.getBoundingClientRect().bottom - bar.top, scrolled: scrollY};
}"""


def tap_above_the_bar(page: Page, thumb: Thumb, steps: tuple[Step, ...], where: str) -> list[str]:
    """Tap `steps` as a thumb does; what lay below the Record bar or needed a scroll, as it was tapped."""
    wrong = []
    for step in steps:
        seen = target(the_form(page), step).first.evaluate(BELOW_THE_BAR)
        if seen["below"] > 0 or seen["scrolled"]:
            wrong.append(f"{where}: {step.path + (step.value,)} ends {seen['below']:.0f} px below the top of Record")
        take(thumb, the_form(page), step)
    return wrong


@pytest.mark.parametrize("key", list(GAMES))
def test_the_common_hands_in_few_taps_above_record(page: Page, table_api: TableApi, key: str) -> None:
    """Every common hand of the game in its taps, each control above the Record bar with no scroll,
    as hand 1 (the page as the phone that started the match opens it) and as hand 2 (the page the
    Record tap lands on); the commonest hand also to its scores."""
    commonest, common = declared(key, "COMMONEST"), declared(key, "COMMON")
    wrong = []
    for n, hand in enumerate((commonest, *common)):
        assert sum(step.kind == "open" for step in hand.steps) <= 1, f"{key}: a common hand opens one fold at most"
        match = table_api.start(key, players_for(key))
        table_api.join(page, match)
        page.goto(f"/matches/{match.id}")
        for number in (1, 2):
            if number == 2 and not page.get_by_role("button", name=hand_control("Record", 2)).count():
                expect(banner(page)).to_be_visible()  # the hand ended the match: there is no hand 2
                break
            thumb = Thumb(page)
            where = f"{key}, {f'common hand {n}' if n else 'the commonest hand'}, as hand {number}"
            wrong += tap_above_the_bar(page, thumb, hand.steps_at(number), where)
            thumb.record(number)
            expect(page.locator(".banner-error, .flash.error")).to_have_count(0)
            expect(hand_entry(page, number)).to_be_visible()
            assert (thumb.taps, thumb.typed) == (hand.taps, hand.typed), (
                f"{where}: {thumb.taps} taps, {thumb.typed} typed"
            )
            if hand is commonest and number == 1:
                for unit, figures in hand.board.items():
                    expect(board(page).get_by_label(unit, exact=True)).to_have_text(figures)
                if hand.most is not None:
                    assert thumb.taps <= hand.most
    assert not wrong, "\n".join(wrong)


def test_court_piece_commonest_hand_moves_the_streak_and_the_deal(page: Page, table_api: TableApi) -> None:
    """The two taps are a whole hand: Ann & Cy's streak starts, and as the dealer's side won, the
    deal passes to the left (RULES 1.2: S4:100, S4:103); the player after the dealer calls trumps."""
    match = table_api.start("court_piece", FOUR)
    table_api.join(page, match)
    thumb = Thumb(page)
    thumb.choose(group(group(the_form(page), "Tricks"), A), "8")
    thumb.record(1)
    expect(board(page).get_by_text(re.compile(r"^Streak:"))).to_have_text(f"Streak: {A}: 1 of 7")
    expect(board(page).get_by_text(re.compile(r"^Deals:"))).to_have_text("Deals: Bob · Trumps: Cy")
    expect(page.get_by_role("heading", name="Hand 2 · Bob deals")).to_be_visible()


def test_poke_commonest_hand_on_the_sheet(page: Page, table_api: TableApi) -> None:
    """Ann 3 tricks, Bob 2, no draws: 3 and 2 below the line; Ann's pair scores 50 above (RULES 1.3.4)."""
    match = table_api.start("poke", ["Ann", "Bob"])
    table_api.join(page, match)
    form = the_form(page)
    expect(group(group(form, "Draws"), "Ann").get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(group(group(form, "Draws"), "Bob").get_by_role("radio", name="0", exact=True)).to_be_checked()
    thumb = Thumb(page)
    for step in declared("poke", "COMMONEST").steps:
        take(thumb, form, step)
    thumb.record(1)
    rows = board(page).get_by_role("row")
    expect(rows.nth(1).get_by_role("cell")).to_have_text(["50", "0"])
    expect(rows.nth(2).get_by_role("cell")).to_have_text(["3", "2"])


def test_envite_stake_shown_selected_when_editing(page: Page, table_api: TableApi) -> None:
    """Defaults are shown selected, also when editing: a hand at the opening stake shows 2 chosen."""
    match = table_api.start("envite", FOUR)
    table_api.hand(match, {"winner": 1})
    table_api.join(page, match)
    page.get_by_role("link", name="Edit hand 1").click()
    form = the_form(page)
    expect(group(form, "Stake").get_by_role("radio", name="2", exact=True)).to_be_checked()
    expect(group(form, "Who won the hand?").get_by_role("radio", name=B, exact=True)).to_be_checked()


def test_a_gin_in_three_taps(page: Page, table_api: TableApi) -> None:
    """Who went gin and that it was a gin are one tap; the gin player's deadwood is 0 untyped: Bob's
    23 and the gin bonus, 25, score Ann 48 (api/counting.md `gin_rummy`)."""
    match = table_api.start("gin_rummy", ["Ann", "Bob"])
    table_api.join(page, match)
    thumb = Thumb(page)
    thumb.choose(group(the_form(page), "How did the hand end?"), "Ann: gin")
    thumb.type(group(group(the_form(page), "Deadwood"), "Bob").get_by_role("spinbutton"), 23)
    thumb.record(1)
    assert thumb.taps == 3
    expect(board(page).get_by_label("points", exact=True)).to_have_text(["48/100", "0/100"])
    expect(hand_entry(page, 1)).to_contain_text("Ann went gin: 23 deadwood + 25 gin bonus = +48")


# == 2. One screen per hand =======================================================================

SCREENS = {"390x844": (390, 844), "360x740": (360, 740)}


# Where things are on the page as first drawn: the Record button, the top of each side's score
# (a side's card, or its column of the sheet), the line saying whose deal it is, and whether the
# page is wider than the screen.
LAYOUT = """() => {
  const box = element => element.getBoundingClientRect();
  const record = document.querySelector('form.hand-form .record-bar button.primary');
  const turn = document.querySelector('.board .turn');
  return {
    record: record ? [box(record).top, box(record).bottom] : null,
    scores: [...document.querySelectorAll('.board .side, .board thead th')].map(side => Math.round(box(side).top)),
    turn: turn ? [parseFloat(getComputedStyle(turn).fontSize), box(turn).bottom] : null,
    wide: document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth,
  };
}"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_one_screen_per_hand(browser, live_server, every_game, screen: str) -> None:
    """A fresh match page of every game, and one a few hands in: both scores side by side, whose
    deal it is in large type, and the Record button, all without scrolling, and nothing wider than
    the screen."""
    width, height = SCREENS[screen]
    context = browser.new_context(base_url=live_server, **{**PHONE, "viewport": {"width": width, "height": height}})
    context.set_default_timeout(5000)
    page = context.new_page()
    wrong = []
    try:
        for key, matches in every_game.items():
            for match in (matches.fresh, matches.played):
                matches.join(page, match)
                page.goto(f"/matches/{match.id}")
                seen = page.evaluate(LAYOUT)
                if not seen["record"] or seen["record"][0] < 0 or seen["record"][1] > height:
                    wrong.append(f"{key} #{match.id}: the Record button is at {seen['record']}")
                if len(seen["scores"]) < 2 or len(set(seen["scores"])) != 1 or max(seen["scores"]) > height:
                    wrong.append(f"{key} #{match.id}: the scores start at {seen['scores']}, not side by side")
                if GAMES[key].deals and (not seen["turn"] or seen["turn"][0] < 20 or seen["turn"][1] > height):
                    wrong.append(f"{key} #{match.id}: whose deal it is (font size, bottom): {seen['turn']}")
                if seen["wide"]:
                    wrong.append(f"{key} #{match.id}: the page scrolls sideways")
    finally:
        context.close()
    assert not wrong, "\n".join(wrong)


# Every fold of the hand form opened (the longest it gets), the page scrolled to the form's end, and
# the Record button: where it is on the screen, and the screen's height.
LONGEST_FORM = """() => {
  const form = document.querySelector('form.hand-form');
  form.querySelectorAll('details').forEach(fold => { fold.open = true; });
  const bar = form.querySelector('.record-bar');
  (bar.previousElementSibling || form).scrollIntoView({block: 'end'});
  const box = bar.querySelector('button.primary').getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, screen: innerHeight, scrolled: scrollY > 0};
}"""


def test_record_stays_in_view_down_the_longest_form(browser, live_server, every_game) -> None:
    """A hand that needs more than one screen keeps Record in view: every game's form with every
    fold open, scrolled to its end, still shows the whole button (the record bar is sticky)."""
    context = browser.new_context(base_url=live_server, **PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    wrong = []
    try:
        for key, matches in every_game.items():
            matches.join(page, matches.fresh)
            page.goto(f"/matches/{matches.fresh.id}")
            seen = page.evaluate(LONGEST_FORM)
            if seen["top"] < 0 or seen["bottom"] > seen["screen"]:
                wrong.append(f"{key}: the Record button is at {seen['top']:.0f}..{seen['bottom']:.0f}")
    finally:
        context.close()
    assert not wrong, "\n".join(wrong)


# == 3. A match that can be fixed =================================================================


def court_piece_with_three_hands(table_api: TableApi, page: Page):
    """Ann & Cy win hand 1 on tricks (8-5), take the first seven in hand 2 (a court), and win hand 3
    on tricks (9-4). Ann deals first (S4:103): she passes the deal to Bob; Bob's side loses a court,
    so his partner Di deals; Di's side loses without a court, so Di deals again."""
    match = table_api.start("court_piece", FOUR)
    for record in (
        {"outcome": "tricks", "tricks": [8, 5]},
        {"outcome": "first_seven", "side": 0},
        {"outcome": "tricks", "tricks": [9, 4]},
    ):
        table_api.hand(match, record)
    table_api.join(page, match)
    return match


def expect_court_piece(page: Page, sides: list[str], courts: list[int], streak: str, deals: str) -> None:
    score = board(page)
    expect(score.get_by_role("heading", level=3)).to_have_text(sides)
    expect(score.get_by_label("courts")).to_have_text([f"{n} court" if n == 1 else f"{n} courts" for n in courts])
    expect(score.get_by_text(re.compile(r"^Streak:"))).to_have_text(f"Streak: {streak}")
    expect(score.get_by_text(re.compile(r"^Deals:"))).to_have_text(f"Deals: {deals}")


def fix_setup(page: Page) -> None:
    page.get_by_role("link", name="Fix set-up").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Fix the set-up of Court Piece"))).to_be_visible()


def save_setup(page: Page) -> None:
    page.get_by_role("button", name="Save the set-up").click()
    expect(
        page.get_by_role("status").filter(has_text="Set-up changed; every hand was worked out again.")
    ).to_be_visible()


def seat(page: Page, number: int) -> Locator:
    return page.get_by_role("combobox", name=re.compile(rf"^Seat {number}\b"))


def test_setup_edits_replay_every_hand(page: Page, table_api: TableApi) -> None:
    court_piece_with_three_hands(table_api, page)
    expect_court_piece(page, ["Ann & Cy", "Bob & Di"], [1, 0], "Ann & Cy: 1 of 7", "Di · Trumps: Ann")

    # Di is really Dee: every name on the page follows.
    fix_setup(page)
    seat(page, 4).fill("Dee")
    save_setup(page)
    expect_court_piece(page, ["Ann & Cy", "Bob & Dee"], [1, 0], "Ann & Cy: 1 of 7", "Dee · Trumps: Ann")
    hand_two = page.get_by_role("listitem").filter(has=page.get_by_text("Hand 2", exact=True))
    expect(hand_two).to_contain_text("Ann & Cy")

    # Partners were Ann & Bob against Cy & Dee: seats 2 and 3 swap; the same hands, other partners.
    fix_setup(page)
    seat(page, 2).fill("Cy")
    seat(page, 3).fill("Bob")
    save_setup(page)
    expect_court_piece(page, ["Ann & Bob", "Cy & Dee"], [1, 0], "Ann & Bob: 1 of 7", "Dee · Trumps: Ann")

    # Bob (seat 3) dealt first: his side won hand 1, so Dee dealt hand 2; hers lost a court, so her
    # partner Cy dealt hand 3, lost it without a court and deals again. Trumps: the next seat, Bob.
    fix_setup(page)
    group(page, "First dealer").get_by_text("Bob", exact=True).click()  # seat 3, chosen by name
    save_setup(page)
    expect_court_piece(page, ["Ann & Bob", "Cy & Dee"], [1, 0], "Ann & Bob: 1 of 7", "Cy · Trumps: Bob")

    # House rule: a court hand counts as a hand won for the streak (RULES CP-Q1): 3 in a row.
    fix_setup(page)
    group(page, "Court hand streak policy").get_by_text("Count as win", exact=True).click()
    save_setup(page)
    expect_court_piece(page, ["Ann & Bob", "Cy & Dee"], [1, 0], "Ann & Bob: 3 of 7", "Cy · Trumps: Bob")

    # One court to win would end the match at hand 2: refused, naming hand 3, and nothing changes.
    fix_setup(page)
    page.get_by_role("spinbutton", name="Courts to win").fill("1")
    page.get_by_role("button", name="Save the set-up").click()
    expect(page.get_by_role("alert")).to_contain_text("Hand 3 would no longer be possible")
    page.get_by_role("link", name="Cancel").click()
    expect_court_piece(page, ["Ann & Bob", "Cy & Dee"], [1, 0], "Ann & Bob: 3 of 7", "Cy · Trumps: Bob")


def test_delete_a_match_after_seeing_it(page: Page, table_api: TableApi) -> None:
    match = table_api.start("envite", FOUR)
    table_api.hand(match, {"winner": 0, "stake": 4})
    table_api.hand(match, {"winner": 0})
    table_api.join(page, match)

    page.get_by_role("link", name="Delete match").click()
    expect(page.get_by_role("heading", name=f"Delete Envite #{match.id}?")).to_be_visible()
    expect(page.get_by_text("Ann, Bob, Cy, Di · 2 hands")).to_be_visible()
    expect(page.get_by_text("Score: Ann & Cy 6 · Bob & Di 0")).to_be_visible()  # 4 + 2 stones
    page.get_by_role("link", name="Keep it").click()
    expect(page.get_by_role("button", name="Record hand 3")).to_be_visible()

    page.get_by_role("link", name="Delete match").click()
    page.get_by_role("button", name="Delete match").click()
    expect(page.get_by_role("status").filter(has_text=f"Envite #{match.id} deleted.")).to_be_visible()
    page.get_by_role("link", name="History").click()
    expect(page.get_by_role("link", name=re.compile(rf"Envite #{match.id}\b"))).to_have_count(0)
    assert page.goto(f"/matches/{match.id}").status == 404


def finish_court_piece(page: Page) -> None:
    page.get_by_role("link", name="Finish match").click()
    page.get_by_role("button", name="Finish match").click()


def test_reopen_a_finished_court_piece_match_and_play_on(page: Page, table_api: TableApi) -> None:
    court_piece_with_three_hands(table_api, page)
    finish_court_piece(page)
    expect(banner(page)).to_have_text("Ann & Cy win the match 1 court to 0")
    expect(page.get_by_role("img", name=re.compile(r"^The score of each side over 3 hands"))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Record hand"))).to_have_count(0)

    page.get_by_role("button", name="Reopen: play on").click()
    expect(page.get_by_role("status").filter(has_text="Match reopened: play on.")).to_be_visible()
    expect(banner(page)).to_have_count(0)
    # Bob & Di take the first seven of hand 4: a court each; then the table calls time again.
    thumb = Thumb(page)
    thumb.choose(group(the_form(page), "How did the hand end?"), "First seven")
    thumb.choose(group(the_form(page), "Who gets the court?"), "Bob & Di")
    thumb.record(4)
    expect(board(page).get_by_label("courts")).to_have_text(["1 court", "1 court"])
    finish_court_piece(page)
    expect(banner(page)).to_have_text("The match is a draw: 1 court each")


def test_undo_finish_and_put_a_hand_back(page: Page, table_api: TableApi) -> None:
    court_piece_with_three_hands(table_api, page)
    finish_court_piece(page)
    page.get_by_role("button", name="Undo finish").click()
    expect(page.get_by_role("button", name="Record hand 4")).to_be_visible()
    # Undo says which hand it takes back, and the hand can be put back once.
    page.get_by_role("button", name="Undo hand 3").click()
    expect(page.get_by_role("status").filter(has_text="Hand 3 taken back.")).to_be_visible()
    expect(board(page).get_by_text(re.compile(r"^Streak:"))).to_have_text("Streak: none")
    page.get_by_role("button", name="Put hand 3 back").click()
    expect(page.get_by_role("status").filter(has_text="Hand 3 put back.")).to_be_visible()
    expect(board(page).get_by_text(re.compile(r"^Streak:"))).to_have_text("Streak: Ann & Cy: 1 of 7")
    expect(page.get_by_role("button", name=re.compile(r"^Put hand"))).to_have_count(0)


def test_rematch_the_same_table_with_the_deal_moved_on(page: Page, table_api: TableApi) -> None:
    first = court_piece_with_three_hands(table_api, page)
    finish_court_piece(page)
    page.get_by_role("button", name="Rematch: same table").click()
    expect(page.get_by_role("status").filter(has_text="A new match at the same table.")).to_be_visible()
    title = page.get_by_role("heading", level=1)
    expect(title).to_have_text(re.compile(r"^Court Piece #\d+"))
    assert f"#{first.id} " not in title.inner_text()
    expect_court_piece(page, ["Ann & Cy", "Bob & Di"], [0, 0], "none", "Bob · Trumps: Cy")
    expect(page.get_by_role("heading", name="Hand 1 · Bob deals")).to_be_visible()


# == 4. Dark mode =================================================================================

LIGHT_BACKGROUND = "rgb(250, 251, 252)"
DARK_BACKGROUND = "rgb(20, 24, 28)"


def expect_background(page: Page, colour: str) -> None:
    expect(page.locator("body")).to_have_css("background-color", colour)


def colours(page: Page, choice: str) -> None:
    page.get_by_role("contentinfo").get_by_role("button", name=choice, exact=True).click()


def test_dark_mode_toggle_is_remembered_across_pages(page: Page, table_api: TableApi) -> None:
    page.goto("/")
    expect_background(page, LIGHT_BACKGROUND)
    colours(page, "Dark")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()  # back where it was
    expect_background(page, DARK_BACKGROUND)
    expect(page.get_by_role("button", name="Dark", exact=True)).to_have_attribute("aria-pressed", "true")
    for link, heading in (("History", "History"), ("Players", "Players"), ("Rules", "Rules reference")):
        page.get_by_role("navigation", name="Main").get_by_role("link", name=link).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        expect_background(page, DARK_BACKGROUND)
    match = table_api.start("envite", FOUR)
    table_api.join(page, match)
    expect_background(page, DARK_BACKGROUND)
    colours(page, "Light")
    expect(page.get_by_role("button", name="Record hand 1")).to_be_visible()  # still on the match
    expect_background(page, LIGHT_BACKGROUND)


def test_dark_mode_follows_the_phone(browser, live_server) -> None:
    context = browser.new_context(base_url=live_server, color_scheme="dark", **PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    try:
        page.goto("/rules/")
        expect_background(page, DARK_BACKGROUND)
        expect(page.get_by_role("button", name="As the phone")).to_have_attribute("aria-pressed", "true")
        colours(page, "Light")  # the table's choice wins over the phone's
        expect_background(page, LIGHT_BACKGROUND)
        colours(page, "As the phone")
        expect_background(page, DARK_BACKGROUND)
    finally:
        context.close()


# == 5. Zoom ======================================================================================

ZOOMED = {"viewport": {"width": 160, "height": 370}, "device_scale_factor": 4, "has_touch": True}

# Each page shown in turn (table.SHOW_PAGE) and measured: its status, how wide it is against the
# screen, and the first elements that stick out.
MEASURE_WIDTHS = """async (urls) => {
  const found = [];
  for (const url of urls) {
    const status = await show({url, post: false});
    const {scrollWidth, clientWidth} = document.scrollingElement;
    const out = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > clientWidth + 0.5)
      .slice(0, 3).map(e => e.tagName.toLowerCase() + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 30));
    found.push({url, status, scrollWidth, clientWidth, out});
  }
  return found;
}"""


def test_no_sideways_scroll_at_200_percent_zoom(browser, live_server, every_game) -> None:
    """320 CSS px at 200% zoom: a 160 px wide screen. Every page type of every game, and the pages
    every game shares, fit its width (document.scrollingElement does not scroll sideways)."""
    context = browser.new_context(base_url=live_server, bypass_csp=True, **ZOOMED)
    context.set_default_timeout(5000)
    page = context.new_page()
    page.goto("/")
    install_show(page)
    wide = []

    def measure(urls: list[str]) -> None:
        for seen in page.evaluate(MEASURE_WIDTHS, urls):
            if seen["status"] != 200 or seen["scrollWidth"] > seen["clientWidth"]:
                wide.append(
                    f"{seen['url']} ({seen['status']}): {seen['scrollWidth']} px wide "
                    f"in {seen['clientWidth']}: {seen['out']}"
                )

    try:
        show(page, "/players/")
        player = page.get_by_role("link", name=re.compile(r"^Ann\b")).get_attribute("href")
        court_piece = every_game["court_piece"]
        court_piece.join(page, court_piece.played)
        measure(
            ["/", "/matches", "/rules/", "/players/", player]
            + [f"/matches/{court_piece.played.id}/{action}" for action in ("share", "remove", "finish")]
        )
        for matches in every_game.values():
            matches.join(page)
            measure(list(matches.pages().values()))
    finally:
        context.close()
    assert not wide, "\n".join(wide)
