"""The table's own language in the browser (issue 25): a whole match played on a phone whose
language is Spanish, Urdu or Sinhala (390x844), the score, the reasons and the rules read in it,
Urdu right to left; the language changed in the middle of a match, its earlier hands read in the
new one; axe-core at zero violations in Urdu and Hindi as in English.

What the page should say is taken from the language's catalog (the translators' words, never the
test's): a control is found by its translated name, and a reason is checked against the catalog's
sentence for it, with its placeholders free."""

from __future__ import annotations

import re

import polib
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from scorekeeper.web import i18n

from .conftest import PHONE
from .table import banner, group, tap, the_form

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cy", "Di"]  # sides: Ann & Cy, Bo & Di
HOME_RULES = {"es": "envite", "ur": "court_piece", "si": "omi", "hi": "court_piece"}


def catalog(code: str) -> polib.POFile:
    return polib.pofile(str(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"))


def said(code: str, english: str) -> str:
    """The catalog's translation of a message without values (English: the message)."""
    if code == "en":
        return english
    entry = catalog(code).find(english)
    assert entry is not None and entry.msgstr, (code, english)
    return entry.msgstr


def sentence(code: str, english: str) -> re.Pattern:
    """A pattern matching any form of the catalog's translation of `english`, its placeholders
    standing for anything."""
    if code == "en":
        forms = [english]
    else:
        entry = catalog(code).find(english)
        assert entry is not None, (code, english)
        forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
    patterns = [
        "".join(".+?" if part.startswith("%(") else re.escape(part) for part in re.split(r"(%\(\w+\)[sd])", form))
        for form in forms
    ]
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))


def phone(browser, live_server, code: str) -> Page:
    """A phone whose own language is `code` (its Accept-Language, as the phone sends it)."""
    context = browser.new_context(base_url=live_server, locale=code, **PHONE)
    context.set_default_timeout(5000)
    return context.new_page()


def start_court_piece(page: Page, code: str) -> None:
    """A Court Piece match to one court, started on the new-match form in the phone's language."""
    page.goto("/")
    page.get_by_role("link", name="Court Piece", exact=True).first.click()
    for seat, name in enumerate(PLAYERS):
        page.locator(f"#seat-{seat}").fill(name)
    page.get_by_text(said(code, "House rules"), exact=True).click()
    page.locator('input[name="opt-courts_to_win"]').fill("1")
    page.get_by_role("button", name=said(code, "Start"), exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"^Court Piece"))).to_be_visible()


def record(page: Page, code: str, number: int) -> None:
    button = the_form(page).locator(".record-bar button.primary")
    expect(button).to_have_text(sentence(code, "Record %(word)s %(number)s"))
    button.click()
    expect(page.locator(".hands > li")).to_have_count(number)


def tricks_hand(page: Page, code: str, first: int, second: int, number: int) -> None:
    form = the_form(page)
    tap(group(form, said(code, "How did the hand end?")), said(code, "Tricks"))
    tricks = group(form, said(code, "Tricks"))
    tap(group(tricks, "Ann & Cy"), str(first))
    tap(group(tricks, "Bo & Di"), str(second))
    record(page, code, number)


def first_seven(page: Page, code: str, number: int) -> None:
    form = the_form(page)
    tap(group(form, said(code, "How did the hand end?")), said(code, "First seven"))
    tap(group(form, said(code, "Who gets the court?")), "Ann & Cy")
    record(page, code, number)


def expect_language(page: Page, code: str) -> None:
    html = page.locator("html")
    expect(html).to_have_attribute("lang", code)
    expect(html).to_have_attribute("dir", "rtl" if code in i18n.RIGHT_TO_LEFT else "ltr")


ISOLATES = re.compile("[\u2066-\u2069]")  # invisible: they keep a number's sign on its side in right to left


def reasons(page: Page) -> list[str]:
    return [ISOLATES.sub("", text).replace("§", "").strip() for text in page.locator(".reasons li").all_inner_texts()]


def expect_reasons_in(page: Page, code: str) -> None:
    """Every reason of the match's two hands, in order, as the catalog words it."""
    shown = reasons(page)
    assert len(shown) >= 3, shown
    newest_first = [
        "%(side)s took the first seven tricks: +%(courts)s",
        "%(side)s wins the hand %(won)s-%(lost)s",
    ]
    texts = " | ".join(shown)
    for english in newest_first:
        assert sentence(code, english).search(texts), (english, shown)
    assert "took the first seven" not in texts and "wins the hand" not in texts


@pytest.mark.parametrize("code", ["es", "ur", "si"])
def test_a_whole_match_in_the_phones_language(browser, live_server, code):
    page = phone(browser, live_server, code)
    try:
        start_court_piece(page, code)
        expect_language(page, code)
        heading = page.locator("#hand-form")  # "Mano 1 · Da Ann": the game's word for a hand, whose deal it is
        hand = said(code, "hand")
        expect(heading).to_contain_text(f"{hand[:1].upper()}{hand[1:]} 1")
        expect(heading).to_have_text(sentence(code, "%(name)s deals"))
        tricks_hand(page, code, 8, 5, 1)
        expect(page.locator("section.board .big").first).to_have_text(re.compile("^\\W*0"))  # no court yet
        first_seven(page, code, 2)
        expect(banner(page).first).to_have_text(sentence(code, "%(side)s wins the match %(top)s to %(other)s"))
        expect_reasons_in(page, code)
        page.locator(".match-title a").click()  # the rules beside the match's title
        expect(page.locator("article").first).to_have_attribute("lang", "ur" if code == "ur" else "en")
        page.goto(f"/rules/{HOME_RULES[code]}")
        expect(page.locator("article").first).to_have_attribute("lang", code)
        expect_language(page, code)
    finally:
        page.context.close()


def test_a_match_entered_in_spanish_switched_to_urdu_and_read_in_sinhala(browser, live_server):
    spanish = phone(browser, live_server, "es")
    sinhala = phone(browser, live_server, "si")
    try:
        start_court_piece(spanish, "es")
        tricks_hand(spanish, "es", 8, 5, 1)
        match_page = spanish.url
        # The language picked mid-match, from the link at the foot of the page, in Urdu's own name.
        spanish.get_by_role("link", name=re.compile("🌐")).click()
        spanish.get_by_role("button", name="اردو").click()
        assert spanish.url == match_page
        expect_language(spanish, "ur")
        first_seven(spanish, "ur", 2)
        expect_reasons_in(spanish, "ur")  # hand 1 was entered in Spanish
        sinhala.goto(match_page)
        expect_language(sinhala, "si")
        expect_reasons_in(sinhala, "si")
        expect(banner(sinhala).first).to_have_text(sentence("si", "%(side)s wins the match %(top)s to %(other)s"))
    finally:
        spanish.context.close()
        sinhala.context.close()


@pytest.mark.parametrize("code", ["en", "ur", "hi"])
def test_no_accessibility_violation_in_each_script(browser, live_server, code):
    page = phone(browser, live_server, code)
    try:
        start_court_piece(page, code)
        tricks_hand(page, code, 9, 4, 1)
        pages = [
            page.url,
            "/",
            "/matches",
            "/players/",
            "/rules/",
            f"/rules/{HOME_RULES.get(code, 'poke')}",
            "/language",
        ]
        found = []
        for url in pages:
            page.goto(url)
            result = Axe().run(page)
            found += [f"{url} {v['id']}: {v['help']}" for v in result.response["violations"]]
        assert not found, found
    finally:
        page.context.close()
