"""The words the match pages' scripts show (the outbox's list of what waits), handed to the page in
its language: the scripts themselves hold no text for people. Counts are worded by the browser's
own plural rules (Intl.PluralRules), so the page hands over one text for each of the language's
plural categories, with `{n}` for the count; `{number}` and `{status}` are filled in by the script."""

from __future__ import annotations

from functools import cache

from babel import Locale
from flask_babel import gettext as _

from ..games import Game
from ..web.i18n import catalog, declared_text, language
from .blueprint import bp


@cache
def plural_samples(code: str) -> dict[str, int]:
    """A whole number of each plural category the language has ("one": 1, "few": 2...): the
    catalog's plural forms are looked up by number, the browser's by category."""
    rule = Locale.parse(code).plural_form
    samples: dict[str, int] = {}
    for number in range(200):
        samples.setdefault(rule(number), number)
    return samples


def counted_texts(one: str, many: str, **values: str) -> dict[str, str]:
    """`{category: text}` of a counted message, its count left as `{n}` (scripts/catalogs.sh
    extracts this function's two texts as a plural message)."""
    words = catalog()
    return {
        category: words.ngettext(one, many, sample) % {"num": "{n}", **values}
        for category, sample in plural_samples(language()).items()
    }


@bp.app_template_global()
def outbox_words(game: Game) -> dict:
    """What the outbox says of the changes that wait to be sent, in this game's word for a hand."""
    word, words = declared_text(game.hand_word), declared_text(game.hand_words)
    return {
        "region": _("Waiting to be sent"),
        "hands_waiting": counted_texts(
            "%(num)s %(word)s waiting to be sent: the score does not count it yet.",
            "%(num)s %(words)s waiting to be sent: the score does not count them yet.",
            word=word,
            words=words,
        ),
        "changes_waiting": counted_texts(
            "%(num)s change waiting to be sent: the score does not count it yet.",
            "%(num)s changes waiting to be sent: the score does not count them yet.",
        ),
        # Translators: %(word)s is the game's word for one record, capitalized (Hand, Round, Game)
        "hand": _("%(word)s %(number)s", word=word.capitalize(), number="{number}"),
        # Translators: a change that waits to be sent; %(word)s is the game's word for one record (hand, round, game)
        "edit": _("Edit of %(word)s %(number)s", word=word, number="{number}"),
        # Translators: a change that waits to be sent; %(word)s is the game's word for one record (hand, round, game)
        "undo": _("Undo of %(word)s %(number)s", word=word, number="{number}"),
        "undo_finish": _("Undo of the finish"),
        "finish": _("Finish of the match"),
        "no_connection": _("No connection: sent as soon as the server answers."),
        "behind": _("Waits for the one above."),
        # Translators: %(status)s is the HTTP status number of the server's answer
        "refused": _("The server refused it (%(status)s).", status="{status}"),
        "send_again": _("Send again"),
        "drop": _("Drop"),
        "fix": _("Fix it"),
        # Translators: %(word)s is the game's word for one record (hand, round, game)
        "keep": _("Record mine as %(word)s %(number)s", word=word, number="{number}"),
        "drop_mine": _("Drop mine"),
    }
