"""Hand calculators on the forms: the table taps what it sees instead of adding up by heart.

A game declares its calculators (engine `CardCounter`: the cards on offer, what each is worth, the
extras, and the fields it fills); this module draws them and, on a post, asks the game's `count`
for each side whose boxes were left empty. The server does the counting, so it works without
JavaScript; counter.js only shows the total live, from the values drawn into the page."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import Game
from ..games.base import CardCounter, Table
from ..web.i18n import declared_text
from .widgets import Seating, card_label


def fill(game: Game, options: Mapping, form: MultiDict, table: Table) -> MultiDict:
    """The form with counted values filled in where the table used a calculator.

    Raises RecordError (naming the field) when the tapped cards cannot be a side's pile."""
    filled = form
    for counter in game.calculators:
        filled = _fill_one(counter, options, filled, table)
    return filled


def _fill_one(counter: CardCounter, options: Mapping, form: MultiDict, table: Table) -> MultiDict:
    sides = range(table.sides)
    piles = [form.getlist(f"{counter.name}-{side}") for side in sides]
    extras = [
        {extra.name: _count(form.get(f"{extra.name}-{side}"), extra.most) for extra in counter.extras} for side in sides
    ]
    if not any(piles) and not any(any(found.values()) for found in extras):
        return form
    filled = form.copy()
    for side in sides:
        if not piles[side] and not any(extras[side].values()):
            counted = dict.fromkeys(counter.fills, 0)  # the other sides took everything tapped
        else:
            counted = counter.count(piles[side], extras[side], options)
        for name, value in counted.items():
            if not filled.get(f"{name}-{side}", "").strip():
                filled[f"{name}-{side}"] = str(value)
    return filled


def _count(text: str | None, most: int) -> int:
    """How many of an extra were tapped: a toggle's "on", or a number 0..most (anything else: none)."""
    if text in ("on", "true"):
        return 1
    if text and text.isascii() and text.isdigit() and len(text) <= 3 and int(text) <= most:
        return int(text)
    return 0


def panels(game: Game, seating: Seating, values: Mapping) -> list[dict[str, Any]]:
    """What each of the game's calculators shows, with the taps already made."""
    getlist = values.getlist if hasattr(values, "getlist") else (lambda key: values.get(key, []) or [])
    drawn = []
    for counter in map(in_page_language, game.calculators):
        sides = []
        for side, label in enumerate(seating.sides):
            chosen = set(getlist(f"{counter.name}-{side}"))
            cards = [(code, card_label(code), counter.points.get(code, 0), code in chosen) for code in counter.cards]
            extras = [(extra, str(values.get(f"{extra.name}-{side}", "0"))) for extra in counter.extras]
            sides.append({"side": side, "label": label, "cards": cards, "extras": extras})
        opened = any(card[3] for side in sides for card in side["cards"])
        drawn.append({"counter": counter, "sides": sides, "open": opened})
    return drawn


def in_page_language(counter: CardCounter) -> CardCounter:
    """The calculator with its title, help and extras' labels in the page's language."""
    extras = tuple(dataclasses.replace(extra, label=declared_text(extra.label)) for extra in counter.extras)
    return dataclasses.replace(
        counter, title=declared_text(counter.title), help=declared_text(counter.help), extras=extras
    )
