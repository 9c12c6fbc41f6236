"""The table's own language: Flask-Babel with a gettext catalog per language under
scorekeeper/translations/, the language each page is read in, and the choice of it.

A page is read in the language the phone chose on any page (remembered in a cookie), else the
first of the phone's languages (Accept-Language) that Scorekeeper speaks, else English. The JSON API
always answers in English, as API.md says. Catalogs are compiled (.po to .mo) when the app starts,
where a .mo is missing or older than its .po: nothing compiled is kept in the repository."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from datetime import date, datetime
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale, support
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import (
    Blueprint,
    Flask,
    g,
    has_app_context,
    has_request_context,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import Babel, force_locale, get_locale, get_translations, to_user_timezone
from flask_babel import gettext as _
from wtforms.i18n import messages_path

from ..games.base import render
from ..games.texts import AGREE, COUNT, DECLARED, JOINED, LIST, VERBATIM, Text, capitalized
from . import cookies
from .links import same_origin_path

ENGLISH = "en"
TRANSLATIONS = Path(__file__).parents[1] / "translations"
DOMAIN = "messages"
# The languages the games are played in: English first, then as the games' homes list them. Their
# rules pages may be written in any of them; the pages speak those with a catalog.
SPOKEN = (ENGLISH, "es", "ca", "de", "nl", "it", "fi", "sv", "fr", "ru", "ur", "hi", "si", "ta")
LANGUAGES = tuple(
    code for code in SPOKEN if code == ENGLISH or (TRANSLATIONS / code / "LC_MESSAGES" / f"{DOMAIN}.po").exists()
)
RIGHT_TO_LEFT = frozenset({"ur"})
COOKIE = "lang"
COOKIE_DAYS = 400

bp = Blueprint("language", __name__)


def chosen_language() -> str:
    """The language of this request's page: the API's, and a command's (no request), always English."""
    if not has_request_context() or request.blueprint == "api" or request.path.startswith("/api/"):
        return ENGLISH
    asked = cookies.read(COOKIE)
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(LANGUAGES) or ENGLISH


def language() -> str:
    """The current page's language code ("es"), English outside a request."""
    locale = get_locale()
    return str(locale) if locale else ENGLISH


class Page:
    """What one page needs to word engine texts: its catalog (None for English: nothing to look up)
    and whether it reads right to left. Made once for a page, not once a text."""

    def __init__(self):
        code = language()
        self.words = None if code == ENGLISH else get_translations()
        self.locale = get_locale()
        self.right_to_left = code in RIGHT_TO_LEFT

    def translate(self, text: str, several: Sequence[bool] | None = None) -> str:
        """An engine text (games/texts.py) in the page's language, its sides still marked for the
        page to name; `several[side]`: that side has several players (the verb agrees). A plain
        text, or any text on an English page, is shown as it was made."""
        if self.words is None or not isinstance(text, Text) or text.kind == VERBATIM:
            return text
        values = {
            name: [self.translate(item, several) for item in value]
            if isinstance(value, list)
            else self.translate(value, several)
            for name, value in text.values.items()
        }
        if text.kind == LIST:
            return format_list([str(item) for item in values["items"]], locale=self.locale)
        if text.kind == JOINED:
            return text.message.join(str(item) for item in values["items"])
        if text.kind == DECLARED:
            shown = declared_text(text.message)
            return capitalized(shown) if text.number == 1 else shown  # a lowered one (-1) keeps its own case
        if text.kind == COUNT:
            shown = self.words.ngettext(text.message, text.plural, abs(text.number))
        elif text.kind == AGREE:
            shown = self.words.ngettext(text.message, text.plural, 2 if several and several[text.number] else 1)
        else:
            shown = self.words.gettext(text.message)
        return shown % values if values else shown  # as gettext: a message with no values is not formatted

    def isolated(self, text: str) -> str:
        """On a right-to-left page, each number of `text` set apart to read left to right (Unicode
        isolates, invisible); elsewhere the text as it is."""
        if not text or not self.right_to_left:
            return text
        return NUMBER.sub(lambda found: f"{LEFT_TO_RIGHT_ISOLATE}{found.group(0)}{POP_ISOLATE}", str(text))


# A number with its sign, and such numbers joined ("-3", "+40", "7-6", "12/21"): in a right-to-left
# line a leading sign would otherwise be drawn on the wrong side ("3-").
NUMBER = re.compile(r"[+\-−]?\d+(?:[.,:/\-]\d+)*")
LEFT_TO_RIGHT_ISOLATE, POP_ISOLATE = "\u2066", "\u2069"


def this_page() -> Page:
    """The current request's Page, made at its first engine text."""
    page = g.get("page_words")
    if page is None:
        page = g.page_words = Page()
    return page


def isolated(text: str) -> str:
    """`Page.isolated` for one text on the current page (the `number` filter)."""
    return this_page().isolated(text)


def shown(text: str | None) -> str:
    """An engine text that names no players, in the page's language (a side, if any, by its letter)."""
    if not text:
        return ""
    page = this_page()
    return page.isolated(render(page.translate(text)))


def day_worded(moment: datetime | date, length: str = "medium") -> str:
    """The day of `moment` in the page's language and the user's time zone, as Flask-Babel's
    `dateformat` words it; worded once a day and language (a list shows the same few days row after
    row, and wording a date costs more than the rest of its row)."""
    day = to_user_timezone(moment).date() if isinstance(moment, datetime) else moment
    return date_in(day, length, str(get_locale()))


@lru_cache(maxsize=4096)
def date_in(day: date, form: str, locale: str) -> str:
    """Babel's `format_date` of `day` in `form` (a length or a CLDR pattern), remembered: the pages
    word the same few days again and again."""
    return format_date(day, form, locale=locale)


def own_names() -> list[tuple[str, str]]:
    """Each language as its speakers write its name: ("es", "Español")."""
    return [(code, own_name(code)) for code in LANGUAGES]


@cache
def own_name(code: str) -> str:
    """A language as its speakers write its name ("Español"); as Babel's data spells it."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


@bp.get("/language")
def pick():
    """Every language the pages speak, each in its own words, a big button each."""
    target = request.args.get("next", "")
    return render_template(
        "language.html",
        back=target if same_origin_path(target) else url_for("matches.home"),
        right_to_left=RIGHT_TO_LEFT,
    )


@bp.post("/language")
def choose():
    """The language picked on a page, remembered; back to that page (it works without scripts)."""
    code = request.form.get("lang", "")
    target = request.form.get("next", "")
    answer = redirect(target if same_origin_path(target) else url_for("matches.home"), 303)
    if code in LANGUAGES:
        cookies.keep(answer, COOKIE, code, COOKIE_DAYS)
    return answer


@bp.get("/manifest.webmanifest")
def manifest():
    """The installed app's name and description in the phone's language (a browser fetches the
    manifest without cookies, so Accept-Language decides; `?lang=` from the page that links it)."""
    code = request.args.get("lang")
    with force_locale(code if code in LANGUAGES else chosen_language()):
        answer = jsonify(
            {
                "name": "Scorekeeper",
                "short_name": _("Scores"),
                "description": _("Keep the score of card games played at a real table."),
                "lang": language(),
                "dir": "rtl" if language() in RIGHT_TO_LEFT else "ltr",
                "start_url": "/",
                "scope": "/",
                "display": "standalone",
                "background_color": "#fafbfc",
                "theme_color": "#0b6e4f",
                "icons": [
                    {
                        "src": url_for("static", filename="icon.svg"),
                        "sizes": "any",
                        "type": "image/svg+xml",
                        "purpose": "any maskable",
                    }
                ],
            }
        )
    answer.mimetype = "application/manifest+json"
    answer.vary.add("Accept-Language")
    answer.cache_control.max_age = 3600
    return answer


def vary_by_language(response):
    """A page differs by the phone's languages and its cookie: a cache must keep them apart."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def compile_catalogs(folder: Path = TRANSLATIONS) -> None:
    """Compile each language's .po where its .mo is missing or older (written whole, then moved
    into place, so workers starting together never read half a file)."""
    for po in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        handle, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.tmp")
        with os.fdopen(handle, "wb") as out:
            write_mo(out, catalog)
        os.replace(temporary, mo)


def catalog() -> support.Translations:
    """The current request's catalog, looked up once: a page says `_()` a hundred times, and
    Flask-Babel's own callables look it up through the request each time."""
    words = g.get("catalog")
    if words is None:
        words = g.catalog = get_translations()
    return words


def gettext(message: str, **values) -> str:
    """Flask-Babel's `gettext` through the request's catalog looked up once (`catalog`): for the
    texts a page looks up by the dozen (every field, choice and label of a hand form)."""
    shown = catalog().gettext(message) if has_app_context() else message
    return shown % values if values else shown


# -- the texts the engine declares ----------------------------------------------------------------


def declared_text(text: str | None) -> str:
    """A text the engine declares (a field's question or help, a choice, the game's unit, its word
    for a hand, a calculator's title...) in the page's language. Its English is the msgid, with
    any side mark written as a placeholder (`declared_msgid`): scorekeeper/i18n_extract.py walks
    the games for the catalogs through these functions, so the two cannot drift. The engine itself
    stays free of gettext."""
    if not text:
        return ""
    msgid = declared_msgid(text)
    if msgid == text:
        return gettext(text)
    return SIDE_PLACEHOLDER.sub(lambda found: f"\x1f{found.group(1)}\x1f", gettext(msgid))


SIDE_MARK = re.compile("\x1f(\\d+)\x1f")  # how the engine marks a side in a text (games/texts.py `render`)
SIDE_PLACEHOLDER = re.compile(r"%\(side(\d+)\)s")


def declared_msgid(text: str) -> str:
    """The msgid of a declared text: a side mark (an invisible control character a translator
    cannot type) written as a placeholder, "⟨side 1⟩'s rows" as "%(side1)s's rows"."""
    return SIDE_MARK.sub(lambda found: f"%(side{found.group(1)})s", text)


@cache
def wtforms_words(code: str) -> support.Translations:
    """WTForms' own messages in a language, read once a process (Flask-WTF reads them once a request)."""
    return support.Translations.load(messages_path(), [code], domain="wtforms")


def keep_wtforms_words() -> None:
    request.wtforms_translations = wtforms_words(language())  # where Flask-WTF looks first


def init_app(app: Flask) -> None:
    compile_catalogs()
    app.config.setdefault("BABEL_DEFAULT_LOCALE", ENGLISH)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=chosen_language)
    app.jinja_env.install_gettext_callables(
        lambda message: catalog().gettext(message),
        lambda one, many, number: catalog().ngettext(one, many, number),
        newstyle=True,
        pgettext=lambda context, message: catalog().pgettext(context, message),
        npgettext=lambda context, one, many, number: catalog().npgettext(context, one, many, number),
    )
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # a {% trans %} block's message without its line breaks
    app.register_blueprint(bp)
    app.after_request(vary_by_language)
    app.before_request(keep_wtforms_words)
    app.add_template_filter(shown, "translated")
    app.add_template_filter(isolated, "number")
    app.add_template_filter(day_worded, "dateformat")

    @app.context_processor
    def page_language():
        code = language()
        return {
            "language": code,
            "direction": "rtl" if code in RIGHT_TO_LEFT else "ltr",
            "languages": own_names(),
            "language_name": own_name,
        }
