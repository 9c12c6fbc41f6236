"""Texts the engine writes for people (reasons, headlines, board lines, refusals), kept translatable.

An engine text is a `Text`: a str that reads as its English, so the engine, the API (English, as
API.md says), the CSV export and every test use it as they always have, and that also carries its
message (a gettext msgid with %(name)s placeholders) and its values. The web layer renders the
message in the reader's language when a page is drawn (scorekeeper/web/i18n.py `translate`); the engine
marks its messages and never imports gettext. The catalogs find the messages by these functions'
names (scripts/catalogs.sh), so a message is always a literal string:

    msg("%(side)s took the first seven tricks: +%(courts)s", side=side_name(s), courts=...)
    counted(n, "%(num)s court", "%(num)s courts")         # the form agrees with n (%(num)s)
    agreeing(s, "%(side)s wins", "%(side)s win", ...)       # the verb agrees with the side's players
    listing([side_name(0), side_name(2)])                   # "A and C", in the reader's language
    joined([part, part], "; ")                              # parts one after another
    declared("Tricks")                                      # a text the game declares (a field's question...)
    verbatim(repr(name))                                    # what was typed or sent, quoted as it was
    times(3)                                                # "once", "twice", "3 times"

As in gettext, a message is %-formatted only when it has values (a lone "%" needs no escape then).
A value is a number, another Text, a side mark (`side_name`) or a text typed at the table (a card,
a name), never English words: those are a Text of their own. `to_json` and `from_json` keep a Text
beside its English where it is stored (a hand's reasons, a match's headline)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

MSG, COUNT, AGREE, LIST, JOINED, DECLARED, VERBATIM = "msg", "count", "agree", "list", "joined", "declared", "verbatim"
_VERB_OPEN, _VERB_SPLIT, _VERB_CLOSE = "\x1e", "\x1d", "\x1e"


class Text(str):
    """A text that reads as its English and knows its message and values (see the module's doc)."""

    kind: str
    message: str
    plural: str | None
    number: int | None

    def __new__(
        cls,
        english: str,
        kind: str,
        message: str,
        values: Mapping[str, Any] | None = None,
        plural: str | None = None,
        number: int | None = None,
        stored: Mapping | None = None,
    ) -> Text:
        text = super().__new__(cls, english)
        text.kind, text.message, text.plural, text.number = kind, message, plural, number
        text._values = None if stored is not None else dict(values or {})
        text._stored = stored
        return text

    @property
    def values(self) -> Mapping[str, Any]:
        """The values, a stored text's read from its JSON when first asked for (an English page
        never asks: it shows the English kept beside)."""
        if self._values is None:
            self._values = {name: from_json(item) for name, item in self._stored.items()}
        return self._values

    def __reduce__(self):
        return from_json, (to_json(self), str(self))


def _english(message: str, values: Mapping[str, Any]) -> str:
    return message % values if values else message


def _english_of(
    kind: str,
    message: str,
    values: Mapping[str, Any],
    plural: str | None = None,
    number: int | None = None,
    marked: bool = True,
) -> str:
    """A text's English, made from what it is: every constructor below and `from_json` word it here."""
    if kind == COUNT:
        if message == "once" and number == 2:  # `times`: English says "twice"
            return "twice"
        return _english(message if abs(number) == 1 else plural, values)
    if kind == AGREE:
        if not marked:
            return _english(message, values)
        return f"{_VERB_OPEN}{number}{_VERB_SPLIT}{_english(message, values)}{_VERB_SPLIT}{_english(plural, values)}{_VERB_CLOSE}"
    if kind == LIST:
        items = values["items"]
        return str(items[0]) if len(items) == 1 else f"{', '.join(map(str, items[:-1]))} and {items[-1]}"
    if kind == JOINED:
        return message.join(map(str, values["items"]))
    if kind == DECLARED and number:
        return capitalized(message) if number == 1 else message.lower()
    if kind in (DECLARED, VERBATIM):
        return message
    return _english(message, values)


def _made(
    kind: str,
    message: str,
    values: Mapping[str, Any] | None = None,
    plural: str | None = None,
    number: int | None = None,
    marked: bool = True,
) -> Text:
    values = values or {}
    return Text(_english_of(kind, message, values, plural, number, marked), kind, message, values, plural, number)


def msg(message: str, /, **values: Any) -> Text:
    """A message with its values: "%(side)s revoked" with side=side_name(1)."""
    return _made(MSG, message, values)


def counted(number: int, one: str, many: str, /, **values: Any) -> Text:
    """A message whose form agrees with `number` (given to it as %(num)s): "1 court", "-1 court",
    "2 courts" (English takes the singular for 1 and -1; other languages by their own rules)."""
    return _made(COUNT, one, {"num": number, **values}, many, number)


def agreeing(side: int, one: str, several: str, /, **values: Any) -> Text:
    """A message whose verb agrees with `side` (given to it as %(side)s): "%(side)s wins" for one
    player, "%(side)s win" for a partnership. Inside the app the English carries both forms and the
    page picks one by the side's players (base.render); elsewhere it reads as the side of one. Its
    values hold no agreeing Text (the marks do not nest)."""
    return _made(AGREE, one, {"side": side_name(side), **values}, several, side, marked=side_marking())


def listing(items: Iterable[Any]) -> Text:
    """Several things in a sentence: "A", "A and C", "A, B and D" (each language its own way)."""
    return _made(LIST, "", {"items": list(items)})


def joined(parts: Iterable[Any], separator: str = "; ") -> Text:
    """Parts of a text set one after another with `separator` ("; ", ", ", ": "), each translated."""
    return _made(JOINED, separator, {"items": list(parts)})


def verbatim(text: str) -> Text:
    """What was typed or sent, quoted as it was (a field's name, a refused value): never translated."""
    return _made(VERBATIM, text)


def declared(text: str, capital: bool = False, lower: bool = False) -> Text:
    """A text the game declares for its pages (a field's question or title, a choice, its unit, its
    word for a hand): the pages translate it as they translate the form (matches/widgets.py
    `declared_text`). `capital` starts it with a capital letter ("Hand 3"); `lower` writes it in
    small letters in English ("The tricks add up..."), other languages keep their own case."""
    return _made(DECLARED, text, number=1 if capital else -1 if lower else None)


def capitalized(text: str) -> str:
    """The first letter made a capital, the rest left as it is ("hand" -> "Hand")."""
    return text[:1].upper() + text[1:]


def times(number: int) -> Text:
    """ "once", "twice", "3 times"."""
    return counted(number, "once", "%(num)s times")


# -- stored ----------------------------------------------------------------------------------------


def to_json(value: Any) -> Any:
    """A Text as plain JSON (nested Texts too): {"k": kind, "m": message, "p": plural, "n": number,
    "v": values}; anything else as it is. Its English is not kept: it is made again from these."""
    if isinstance(value, Text):
        shown: dict[str, Any] = {"k": value.kind, "m": value.message}
        if value.plural is not None:
            shown["p"] = value.plural
        if value.number is not None:
            shown["n"] = value.number
        if value.values:
            shown["v"] = {name: to_json(item) for name, item in value.values.items()}
        return shown
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def stored_text(english: str | None, message: Any) -> str | None:
    """A text stored as its English and, where it has one, its message (None stays None)."""
    return from_json(message, english) if message and english is not None else english


def from_json(stored: Any, english: str | None = None) -> Any:
    """What `to_json` wrote, as it was made inside the app (sides marked); `english`, where it is
    stored beside, saves making it again."""
    if isinstance(stored, list):
        return [from_json(item) for item in stored]
    if not isinstance(stored, dict) or "k" not in stored:
        return stored
    kind, message, plural, number = stored["k"], stored["m"], stored.get("p"), stored.get("n")
    if english is not None:
        return Text(english, kind, message, plural=plural, number=number, stored=stored.get("v", {}))
    values = {name: from_json(item) for name, item in stored.get("v", {}).items()}
    return _made(kind, message, values, plural, number)


# -- sides named in texts: marks inside the app, letters elsewhere ---------------------------------

_MARKING: ContextVar[bool] = ContextVar("marking_sides", default=False)
LETTERS = "ABCDEFGHIJKL"
_SIDE_MARK = re.compile("\x1f(\\d+)\x1f")
_VERB_MARK = re.compile("\x1e(\\d+)\x1d([^\x1d]*)\x1d([^\x1e]*)\x1e")


def mark_sides(on: bool = True) -> None:
    """Inside the app, texts name sides by marks that `render` later turns into the players' names
    (on the pages) or the letters of the side indices (in the API), so one stored text serves both."""
    _MARKING.set(on)


@contextmanager
def marked_sides():
    """Texts made inside the block carry side marks, as the app stores them (verify, export)."""
    token = _MARKING.set(True)
    try:
        yield
    finally:
        _MARKING.reset(token)


def render(text: str, names: Sequence[str] | None = None, plural: Sequence[bool] | None = None) -> str:
    """A marked text with each side named (by `names`, else by its letter) and verbs agreeing."""
    if "\x1f" not in text and "\x1e" not in text:
        return text

    def verb(found: re.Match) -> str:
        side = int(found.group(1))
        return found.group(3) if names and plural and plural[side] else found.group(2)

    text = _VERB_MARK.sub(verb, text)
    return _SIDE_MARK.sub(lambda found: names[int(found.group(1))] if names else LETTERS[int(found.group(1))], text)


def side_marking() -> bool:
    """Whether texts made now mark their sides (inside the app) or name them by letter."""
    return _MARKING.get()


def side_name(side: int) -> str:
    """How texts name a side: a mark inside the app (see `render`), its letter elsewhere (A, B...)."""
    return f"\x1f{side}\x1f" if _MARKING.get() else LETTERS[side]
