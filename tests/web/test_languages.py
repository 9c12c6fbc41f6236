"""The table's own language (issue 25): the page follows the phone's language or the one chosen on
any page (remembered), Urdu right to left, the API stays English, and each game's rules page is
read in its home languages, the others in English with a note."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from babel.dates import format_date
from flask import render_template

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Match
from scorekeeper.web import i18n

pytestmark = pytest.mark.one_database  # pages and words, not SQL: SQLite alone (tests/conftest.py)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TRANSLATED_RULES = sorted(TEMPLATES.glob("rules/*/*.html"))


def translated(code: str, english: str) -> str:
    """What the language's catalog says for an English text (the translators' word, not the test's)."""
    entry = polib.pofile(str(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po")).find(english)
    assert entry is not None and entry.msgstr, (code, english)
    return entry.msgstr


def test_the_phones_first_language_that_scorekeeper_speaks_is_the_pages(client):
    page = client.get("/", headers={"Accept-Language": "pt-BR, es;q=0.8, en;q=0.5"})
    html = page.get_data(as_text=True)
    assert '<html lang="es" dir="ltr"' in html
    assert f">{translated('es', 'History')}</a>" in html
    assert "Accept-Language" in page.headers["Vary"]


def test_a_language_chosen_on_a_page_is_remembered_and_beats_the_phones(client):
    rules = client.get("/rules/").get_data(as_text=True)
    link = re.search(r'<a href="(/language\?next=[^"]+)"', rules).group(1).replace("&amp;", "&")
    picker = client.get(link).get_data(as_text=True)
    assert '<input type="hidden" name="next" value="/rules/">' in picker
    buttons = re.findall(
        r'<button type="submit" name="lang" value="(\w+)" lang="\1" dir="(\w+)"[^>]*>([^<]+)</button>', picker
    )
    assert [code for code, _, _ in buttons] == list(i18n.LANGUAGES)
    assert ("ur", "rtl", "اردو") in buttons and ("es", "ltr", "Español") in buttons
    moved = client.post("/language", data={"lang": "ur", "next": "/rules/"})
    assert moved.status_code == 303 and moved.headers["Location"] == "/rules/"
    html = client.get("/rules/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="ur" dir="rtl"' in html
    assert f">{translated('ur', 'Rules')}</a>" in html
    assert re.search(r'<a href="/language\?next=[^"]*">[^<]*اردو</a>', html)


@pytest.mark.parametrize("code, back", [("xx", "/matches"), ("es", "https://evil.example/"), ("es", "/\\evil.example")])
def test_an_unknown_language_or_a_foreign_page_changes_nothing_it_should_not(client, code, back):
    moved = client.post("/language", data={"lang": code, "next": back})
    assert moved.status_code == 303
    assert moved.headers["Location"] == (back if back.startswith("/matches") else "/")
    assert ("lang=" in moved.headers.get("Set-Cookie", "")) == (code in i18n.LANGUAGES)


def test_the_api_answers_in_english_whatever_the_phone_reads(client):
    client.post("/language", data={"lang": "es", "next": "/"})
    answer = client.post(
        "/api/v1/matches", json={"game": "court_piece", "players": ["A"]}, headers={"Accept-Language": "es"}
    )
    assert answer.status_code == 422 and answer.json["error"].isascii()
    assert client.get("/api/v1/games", headers={"Accept-Language": "es"}).json[0]["name"].isascii()


def test_catalogs_are_compiled_when_the_app_starts(tmp_path):
    source = i18n.TRANSLATIONS / "es" / "LC_MESSAGES" / "messages.po"
    copy = tmp_path / "es" / "LC_MESSAGES" / "messages.po"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(source.read_bytes())
    i18n.compile_catalogs(tmp_path)
    compiled = copy.with_suffix(".mo")
    assert compiled.stat().st_size > 1000
    before = compiled.stat().st_mtime_ns
    i18n.compile_catalogs(tmp_path)  # up to date: left alone
    assert compiled.stat().st_mtime_ns == before


# -- rules pages in the games' home languages ---------------------------------------------------------


@pytest.mark.parametrize("path", TRANSLATED_RULES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_translated_rules_page_has_every_section_and_link_of_the_english(app, path):
    code, key = path.parent.name, path.stem
    assert code in i18n.SPOKEN and key in GAMES
    with app.test_request_context(f"/rules/{key}"):
        english = render_template(f"rules/{key}.html", game=GAMES[key], table=None)
        theirs = render_template(f"rules/{code}/{key}.html", game=GAMES[key], table=None)
    for found in (r' id="([^"]+)"', r' href="([^"]+)"'):
        assert re.findall(found, theirs) == re.findall(found, english), (code, key)


@pytest.mark.parametrize(
    "key, codes",
    [
        ("envite", ["es"]),
        ("cuarenta", ["es"]),
        ("botifarra", ["ca", "es"]),
        ("schnapsen", ["de"]),
        ("toepen", ["nl"]),
        ("tresette", ["it"]),
        ("calabrasella", ["it"]),
        ("machiavelli", ["it"]),
        ("myllymatti", ["fi", "sv"]),
        ("chicago", ["sv"]),
        ("polignac", ["fr"]),
        ("bura", ["ru"]),
        ("court_piece", ["ur", "hi"]),
        ("omi", ["si", "ta"]),
    ],
)
def test_each_game_is_written_in_its_home_languages(client, key, codes):
    for code in codes:
        html = client.get(f"/rules/{key}", headers={"Accept-Language": code}).get_data(as_text=True)
        article = re.search(r"<article [^>]*>", html).group(0)
        assert f'lang="{code}"' in article and f'dir="{"rtl" if code == "ur" else "ltr"}"' in article
        assert "is not written in" not in html


def test_a_reader_can_switch_a_rules_page_to_another_of_its_languages(client):
    html = client.get("/rules/botifarra?match=3", headers={"Accept-Language": "ca"}).get_data(as_text=True)
    links = dict(
        (name, link.replace("&amp;", "&"))
        for link, name in re.findall(r'<a href="([^"]+)" lang="\w+" hreflang="\w+">([^<]+)</a>', html)
    )
    assert set(links) == {"English", "Español"}
    assert "in=es" in links["Español"] and "match=3" in links["Español"]
    spanish = client.get(links["Español"]).get_data(as_text=True)
    assert 'lang="es"' in re.search(r"<article [^>]*>", spanish).group(0)


def test_a_game_without_a_page_in_the_readers_language_says_so_and_shows_english(client):
    html = client.get("/rules/poke", headers={"Accept-Language": "ur"}).get_data(as_text=True)
    assert 'lang="en"' in re.search(r"<article [^>]*>", html).group(0)
    assert "اردو" in re.search(r'<p class="also[^"]*"[^>]*>(.*?)</p>', html).group(1)


def test_the_installed_apps_name_is_in_the_phones_language(client):
    base = client.get("/", headers={"Accept-Language": "ur"}).get_data(as_text=True)
    link = re.search(r'<link rel="manifest" href="([^"]+)"', base).group(1).replace("&amp;", "&")
    manifest = client.get(link)
    assert manifest.mimetype == "application/manifest+json"
    assert manifest.json["lang"] == "ur" and manifest.json["dir"] == "rtl"
    assert manifest.json["short_name"] == translated("ur", "Scores")
    assert client.get("/manifest.webmanifest").json["short_name"] == "Scores"


def test_a_refused_hand_is_told_in_the_readers_language_and_nothing_is_recorded(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    client.post("/language", data={"lang": "es", "next": "/"})
    answer = client.post(
        f"/matches/{match_id}/hands", data={"outcome": "tricks", "tricks-0": "9", "tricks-1": "5", "expected": "1"}
    )
    wanted = translated("es", "The %(field)s add up to %(added)s; %(whole)s has %(total)s.") % {
        "field": translated("es", "Tricks"),
        "added": 14,
        "whole": translated("es", "a hand"),
        "total": 13,
    }
    assert answer.status_code == 422
    assert html.escape(wanted, quote=False) in answer.get_data(as_text=True)
    assert actions.match(match_id)["hands"] == []


def test_a_hands_reasons_are_worded_in_whichever_language_reads_them(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    actions.hand(match_id, {"outcome": "first_seven", "side": 0, "all_thirteen": False})
    english = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Ann &amp; Cy took the first seven tricks: +1 court" in english
    for code in ("de", "ru", "ta"):
        page = client.get(f"/matches/{match_id}", headers={"Accept-Language": code}).get_data(as_text=True)
        court = polib.pofile(str(i18n.TRANSLATIONS / code / "LC_MESSAGES" / "messages.po")).find("%(num)s court")
        said = translated(code, "%(side)s took the first seven tricks: +%(courts)s") % {
            "side": "Ann & Cy",
            "courts": court.msgstr_plural[0] % {"num": 1},
        }
        assert html.escape(said, quote=False) in page, code
        assert "took the first seven" not in page
        label = html.escape(translated(code, "Rule: %(rule)s") % {"rule": "first seven"})
        assert f'aria-label="{label}">§</a>' in page, code  # the § link is read out in the page's language too


def test_a_lists_dates_are_written_as_the_readers_language_writes_them(app, client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    with app.app_context():
        created = db.session.get(Match, match_id).created.date()
    for code in ("en", "es", "ru", "ur"):
        page = html.unescape(client.get("/matches", headers={"Accept-Language": code}).get_data(as_text=True))
        row = re.search(rf'<a href="/matches/{match_id}">.*?</a>', page, re.S).group(0)
        assert format_date(created, "medium", locale=code) in row, code
