"""Issue 23, the rules pages: the game at a glance and contents on every page; options named as the
new-match form names them (never by their keys); each departure from the source in its box; the
sources; a page opened from a match shows that table's house rules, and a bad match never breaks it;
light enough for a phone, nothing from another host, a print stylesheet."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import get_template_attribute

from scorekeeper.games import GAMES
from scorekeeper.rules.catalog import house_rule
from scorekeeper.rules.search import plain
from tests.conftest import make_app

KEYS = list(GAMES)
OPTIONS = [(key, fld.name) for key in KEYS for fld in GAMES[key].all_options]
MOST_BYTES = 30 * 1024


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(f"sqlite:///{tmp_path_factory.mktemp('pages')}/p.sqlite")


@pytest.fixture(scope="module")
def pages(app):
    """Every game's rules page as served (no match), by key."""
    client = app.test_client()
    return {key: client.get(f"/rules/{key}").get_data(as_text=True) for key in KEYS}


def main(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def text(html: str) -> str:
    """What a reader sees of a page's content."""
    return plain(main(html))


def section(html: str, anchor: str) -> str:
    found = re.search(rf'<section id="{anchor}"[^>]*>(.*?)</section>', html, re.S)
    assert found, f"no section {anchor}"
    return found.group(1)


# -- the shape of every page -------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_every_page_opens_with_the_game_at_a_glance(pages, key):
    glance = section(pages[key], "glance")
    assert "<h2>At a glance</h2>" in glance
    assert [unescape(term) for term in re.findall(r"<dt>([^<]+)</dt>", glance)][:5] == [
        "Unit",
        "Target",
        "End",
        "Next deal",
        "Cards",
    ]
    assert "<caption>What a hand scores</caption>" in glance
    assert len(re.findall(r'<th scope="row">', glance)) >= 1
    assert main(pages[key]).index('id="glance"') < main(pages[key]).index('class="contents"')


@pytest.mark.parametrize("key", KEYS)
def test_every_page_has_contents_linking_to_each_of_its_sections(pages, key):
    page = pages[key]
    nav = re.search(r'<nav class="contents"[^>]*>(.*?)</nav>', page, re.S).group(1)
    links = re.findall(r'href="#([^"]+)"', nav)
    ids = set(re.findall(r'id="([^"]+)"', page))
    assert links and set(links) <= ids, set(links) - ids
    after_contents = page[page.index('class="contents"') :]
    assert set(links) == set(re.findall(r'<section id="([^"]+)"', after_contents)), "every section is in the contents"
    rules = {rule.value for rule in GAMES[key].rules}
    assert rules <= set(links), "every rule a reason names is a section of the contents"


@pytest.mark.parametrize("key", KEYS)
def test_every_page_names_its_sources(pages, key):
    sources = section(pages[key], "sources")
    for source in GAMES[key].reference.sources:
        assert unescape(source.title) in unescape(sources)
    assert "<cite>" in sources, "at least one rule document, by its title"


# -- honest pages ------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_every_house_rule_a_card_declares_is_one_of_its_games_options(pages, key):
    game = GAMES[key]
    ruled = game.reference.house_rules
    assert set(ruled) <= {fld.name for fld in game.options}
    assert all(f'id="{ruling.anchor}"' in pages[key] for ruling in ruled.values())


@pytest.mark.parametrize("key, option", OPTIONS)
def test_no_option_key_appears_in_a_page(pages, key, option):
    seen = text(pages[key])
    assert not re.search(rf"\b{option}\b", seen) or option.isalpha()
    label = next(fld.title for fld in GAMES[key].all_options if fld.name == option)
    if option != "first_dealer":  # drawn apart on the form; its ruling is the glance's next deal
        assert label in seen, f"{key}: the option {label!r} is never named on its page"
    assert f'id="{house_rule(GAMES[key], option).anchor}"' in pages[key]


@pytest.mark.parametrize("key", KEYS)
def test_no_internal_word_appears_in_a_page(pages, key):
    seen = text(pages[key])
    assert not re.search(r"\bseeds?\b", seen, re.I)
    assert not re.findall(r"\w+_\w+", seen), "no key with an underscore (options, fields, choices)"


@pytest.mark.parametrize(
    "key, anchors",
    [
        ("cuarenta", ["ronda", "carton", "dealer"]),  # ronda by rank, the 20-20 reading, the deal each round
        ("hasenpfeffer", ["end"]),  # the default for defenders reaching the target
        ("chicago", ["forfeit"]),  # the forfeited hand
        ("tabletop_cribbage", ["dealer", "columns"]),  # who deals, and the dealer's columns
        ("schnapsen", ["closing", "failed-close"]),
        ("court_piece", ["all-thirteen", "court-hands", "dealer"]),
        ("envite", ["declined-raises", "lying-down"]),
    ],
)
def test_the_departures_the_issue_names_are_in_their_boxes(pages, key, anchors):
    for anchor in anchors:
        box = re.search(r'<dl class="departure">(.*?)</dl>', section(pages[key], anchor), re.S)
        assert box, f"{key}#{anchor}"
        assert [plain(t) for t in re.findall(r"<dt[^>]*>(.*?)</dt>", box.group(1))] == [
            "The source says",
            "We score",
            "Option",
        ]


def test_cuarenta_says_which_readings_it_takes(pages):
    assert "three of the same rank" in plain(section(pages["cuarenta"], "ronda")).lower()
    assert "20–20" in plain(section(pages["cuarenta"], "carton"))
    assert "every round" in plain(section(pages["cuarenta"], "dealer"))


def test_court_piece_says_the_court_goes_to_the_side_that_did_not_revoke(pages):
    recording = plain(section(pages["court_piece"], "recording"))
    assert "Who gets the court?" in recording and "did not revoke" in recording
    assert "Enter the side that revoked" not in text(pages["court_piece"])
    asked = next(fld for fld in GAMES["court_piece"].hand_fields if fld.name == "side").question
    assert asked == "Who gets the court?"  # the form asks what the page says


def test_botifarra_says_it_has_no_melds(pages):
    glance = plain(section(pages["botifarra"], "glance"))
    assert re.search(r"Not in it Melds", glance)
    assert "no melds" in plain(section(pages["botifarra"], "points"))


# -- a page opened from a match ------------------------------------------------------------------------


def other_value(fld):
    """A value of the option other than its default, as the API takes it."""
    if fld.type == "seat":
        return 1
    if fld.type == "bool":
        return not fld.default
    if fld.type == "choice":
        return next(
            value for value in (*fld.choices, None) if value != fld.default and (value is not None or fld.nullable)
        )
    return fld.min if fld.default != fld.min else fld.max


def form_label(key: str, fld, value) -> str:
    """The value as the new-match form shows it (the page's words where the form still shows an internal word)."""
    if fld.type == "seat":
        return ["Ann", "Bo", "Cy", "Di"][value]
    if value is None:
        return "none"
    if fld.type == "bool":
        return "on" if value else "off"
    if fld.type == "choice":
        return house_rule(GAMES[key], fld.name).labels.get(value, fld.choice_label(value))
    return str(value)


@pytest.mark.parametrize("key", KEYS)
def test_a_page_opened_from_a_match_shows_that_tables_house_rules(client, actions, key):
    game = GAMES[key]
    options = {fld.name: other_value(fld) for fld in game.all_options}
    if key == "court_piece":
        options["all13_courts"] = 53
    players = ["Ann", "Bo", "Cy", "Di"][: max(game.min_players, 2)]
    match_id = actions.start(key, players, **options)
    page = unescape(client.get(f"/rules/{key}?match={match_id}&hand=3").get_data(as_text=True))
    table = section(page, "at-this-table")
    assert f"match #{match_id}" in table and ", ".join(players) in table
    for fld in game.all_options:
        shown = form_label(key, fld, options[fld.name])
        assert (
            f'<a href="#{house_rule(game, fld.name).anchor}">{fld.title}</a>: <strong>{shown}</strong> (changed)'
            in table
        ), (fld.name, shown)
        assert fld.name not in plain(table) or "_" not in fld.name
    assert f'href="/matches/{match_id}#hand-3"' in page and f"Back to {game.hand_word} 3 of match" in page
    if key == "court_piece":
        assert "All thirteen is worth 53" in table
        assert "At this table: 53 (changed)" in plain(section(page, "all-thirteen"))


def test_a_match_with_the_usual_rules_says_so(client, actions):
    match_id = actions.start("schnapsen", ["Ann", "Bo"])
    table = section(unescape(client.get(f"/rules/schnapsen?match={match_id}").get_data(as_text=True)), "at-this-table")
    assert "(changed)" not in table, table
    assert '<a href="#game-end">Target</a>: <strong>7</strong>. The game goes to 7 victory points.' in table
    assert '<a href="#glance">First dealer</a>: <strong>Ann</strong>. Ann dealt the first hand.' in table


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "abc",
        "0",
        "-1",
        "1.5",
        "1e3",
        "99999",
        "2147483648",
        "9" * 40,
        "١",
        "1 OR 1=1",
        "%00",
        "1%00",
        " 1",
        "[1]",
        "other-game",
    ],
)
def test_a_bad_match_gives_the_plain_page_never_an_error(client, actions, raw):
    other = actions.start("schnapsen", ["Ann", "Bo"])  # a match of another game
    raw = str(other) if raw == "other-game" else raw
    answer = client.get("/rules/court_piece", query_string={"match": raw, "hand": raw})
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert 'id="at-this-table"' not in page and "Back to" not in page and 'id="glance"' in page


def test_odd_stored_options_still_give_a_page(app, client, actions):
    """A match whose stored options were tampered with (an import, a hand-edited database) is shown as stored."""
    from scorekeeper.extensions import db
    from scorekeeper.models import Match

    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    with app.app_context():
        db.session.get(Match, match_id).options = {"all13_courts": [53], "courts_to_win": {"a": 1}, "first_dealer": "x"}
        db.session.commit()
    answer = client.get(f"/rules/court_piece?match={match_id}")
    assert answer.status_code == 200 and 'id="at-this-table"' in answer.get_data(as_text=True)


def test_each_reason_links_to_its_rule_on_the_tables_rules_page(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    actions.hand(match_id, {"outcome": "revoke", "side": 1})
    actions.hand(match_id, {"outcome": "first_seven", "side": 0})
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/hands"):
        links = re.findall(
            r'<a class="rule-link" href="([^"]+)" aria-label="([^"]+)">§</a>', client.get(url).get_data(as_text=True)
        )
        assert (f"/rules/court_piece?match={match_id}&amp;hand=1#revoke", "Rule: revoke") in links, links
        for href, label in links:
            path, anchor = unescape(href).split("#")
            assert re.fullmatch(rf"/rules/court_piece\?match={match_id}&hand=[12]", path)
            assert label == "Rule: " + anchor.replace("-", " ")
            assert f'id="{anchor}"' in client.get(path).get_data(as_text=True)  # the § leads to a section


def test_a_rule_is_linked_once_a_hand(client, actions):
    """Three players scored by one rule read one §: the page and a screen reader say each rule once a hand."""
    match_id = actions.start("pluck", ["Ann", "Bo", "Cy"])
    actions.hand(match_id, {"tricks": [5, 6, 6]})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    hand = page[page.index('id="hand-1"') :]
    hand = hand[: hand.index("</li></ul>")]
    assert hand.count("<li>") == 4  # a reason for each player, and the plucks
    assert re.findall(r'aria-label="([^"]+)">§</a>', hand) == ["Rule: scoring", "Rule: plucks"]


def test_each_hand_links_to_its_own_edit_and_delete_pages(client, actions):
    match_id = actions.start("court_piece", ["Ann", "Bo", "Cy", "Di"])
    for side in (0, 1):
        actions.hand(match_id, {"outcome": "first_seven", "side": side})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    for number in (1, 2):
        for action in ("edit", "delete"):
            link = f"/matches/{match_id}/hands/{number}/{action}"
            assert f'href="{link}"' in page and client.get(link).status_code == 200


def test_the_links_a_match_page_uses(app):
    with app.test_request_context():
        rules_link = get_template_attribute("rules/_links.html", "rules_link")
        ruling_link = get_template_attribute("rules/_links.html", "ruling_link")
        assert str(rules_link("poke", 4)) == '<a href="/rules/poke?match=4">rules</a>'
        ruling = str(ruling_link("court_piece", "all13_courts", "All-thirteen courts"))
        assert 'href="/rules/court_piece#all-thirteen"' in ruling and "All-thirteen courts" in ruling
        # the new-match form's own key for the option finds the same ruling
        assert 'href="/rules/court_piece#court-hands"' in str(
            ruling_link("court_piece", "opt-court_hand_streak_policy", "x")
        )


# -- weight, hosts, print ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_each_page_with_its_css_is_light_and_from_this_host_only(app, pages, key):
    client = app.test_client()
    page = pages[key]
    assets = re.findall(r'<(?:link[^>]*rel="stylesheet"|script)[^>]*(?:href|src)="([^"]+)"', page)
    assert "/static/print.css" in assets and "<script" not in page
    weight = len(page.encode()) + sum(len(client.get(asset).data) for asset in assets)
    assert weight <= MOST_BYTES, f"{key}: {weight} bytes"
    assert not re.search(r'(?:href|src|action)="(?:https?:)?//', page), "nothing from another host"


def test_the_print_stylesheet_is_linked_for_print_only(pages):
    assert re.search(r'<link rel="stylesheet" href="/static/print.css" media="print">', pages["poke"])
