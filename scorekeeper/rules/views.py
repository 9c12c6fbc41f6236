"""The rules reference: one page per game, an anchor per rule, for looking things up mid-game; the
search across them all, and the table words."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from flask import abort, current_app, render_template, request, url_for
from flask_babel import force_locale
from jinja2 import TemplateNotFound
from markupsafe import Markup

from ..games import GAMES
from ..web import cookies
from ..web.i18n import COOKIE, ENGLISH, LANGUAGES, RIGHT_TO_LEFT, SPOKEN, declared_text, language
from .blueprint import bp
from .catalog import choices_in_words, house_rule, option, option_title, said
from .glossary import by_word
from .search import LONGEST_QUERY, plain, search
from .tables import table_rules

FORM_PREFIX = "opt-"  # the new-match form names an option's field so


@bp.get("/")
def index():
    """Every game the app scores, with its other names, its players and what it is; the search."""
    return render_template("rules/index.html", games=GAMES.values())


@bp.get("/search")
def find():
    """Results for the words typed (a GET form: it works without JavaScript)."""
    query = request.args.get("q", "")[:LONGEST_QUERY].strip()
    return render_template("rules/search.html", query=query, hits=search(query) if query else [])


@bp.get("/words")
def words():
    """The table words, each with its game and the section that explains it."""
    return render_template("rules/words.html", terms=by_word(), games=GAMES)


@bp.get("/<key>")
def show(key: str):
    """How one game scores, in our own words; a game without its page yet shows its declarations.
    Opened from a match (?match=<id>), the page also shows that table's house rules."""
    game = GAMES.get(key) or abort(404)
    written_in = page_languages(key)
    shown = page_language(written_in)
    try:
        template = current_app.jinja_env.get_template(
            f"rules/{key}.html" if shown == ENGLISH else f"rules/{shown}/{key}.html"
        )
    except TemplateNotFound:
        template = "rules/declared.html"
    with force_locale(shown):  # the table's house rules are said in the page's language
        table = table_rules(game, request.args.get("match"), request.args.get("hand"))
    wanted = language() if cookies.read(COOKIE) in LANGUAGES else request.accept_languages.best_match(SPOKEN)
    return render_template(
        template,
        game=game,
        table=table,
        shown=shown,
        missing=wanted if wanted and wanted not in written_in else None,
        shown_direction="rtl" if shown in RIGHT_TO_LEFT else "ltr",
        other_languages=[
            (code, url_for("rules.show", key=key, **{**request.args.to_dict(), "in": code}))
            for code in written_in
            if code != shown
        ],
    )


def page_language(written_in: tuple[str, ...]) -> str:
    """The language to show a rules page in: the one asked for (`?in=`); else the page's language,
    where the reader chose one; else the phone's first language the page is written in (a Catalan
    phone reads Botifarra in Catalan even before the pages around it speak Catalan)."""
    asked = request.args.get("in")
    if asked in written_in:
        return asked
    if cookies.read(COOKIE) in LANGUAGES:
        return language() if language() in written_in else ENGLISH
    return request.accept_languages.best_match(written_in) or ENGLISH


@cache
def page_languages(key: str) -> tuple[str, ...]:
    """The languages a game's rules page is written in: English, and the game's home languages
    (templates/rules/<language>/<key>.html), in the order the app lists its languages."""
    folder = Path(current_app.template_folder) / "rules"
    return tuple(code for code in SPOKEN if code == ENGLISH or (folder / code / f"{key}.html").exists())


# -- for the pages ----------------------------------------------------------------------------------

bp.add_app_template_global(declared_text, "declared_text")
bp.add_app_template_global(said, "said")  # a text of a game's card (its line, a source's words)


@bp.app_template_global()
def speaking(code: str, caller) -> Markup:
    """What the block says ({% call speaking(shown) %}), in the language `code`: a rules page's own
    words around its text (headings, the glance's labels, the option boxes) speak the language the
    page is written in, whatever the pages around it speak."""
    with force_locale(code):
        return caller()


@bp.app_template_global()
def option_label(game, name: str) -> str:
    """An option as the new-match form names it."""
    fld = option(game, name)
    return option_title(fld) if fld else name.replace("_", " ").capitalize()


@bp.app_template_global()
def option_choices(game, name: str) -> str:
    """An option's values in the form's words, the usual one first."""
    fld = option(game, name)
    return choices_in_words(game, fld) if fld else ""


@bp.app_template_global()
def ruling_anchor(key: str, name: str) -> str | None:
    """The section of a game's rules page that rules on one of its options; `name` may also be
    the new-match form's key for it ("opt-all13_courts")."""
    game = GAMES.get(key)
    if game is None:
        return None
    if option(game, name) is None and name.startswith(FORM_PREFIX):
        name = name[len(FORM_PREFIX) :]
    return house_rule(game, name).anchor


@bp.app_template_filter()
def contents(html) -> list[tuple[str, str]]:
    """(anchor, heading) of each section of a page body, for its contents."""
    found = re.findall(r'<section id="([^"]+)"[^>]*>\s*<h2[^>]*>(.*?)</h2>', str(html), re.S)
    return [(anchor, plain(heading)) for anchor, heading in found]
