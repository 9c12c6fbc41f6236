"""Hand calculators on the forms: the table taps what it sees instead of adding up by heart.

A game declares its calculators (engine `CardCounter`: the cards on offer, what each is worth, the
extras, and the fields it fills); this module draws them and, on a post, asks the game's `count`
for each side whose boxes were left empty. The server does the counting; piles.js draws each side's
cards from the counter's one list on the page (`pack`), and counter.js shows the total live, from the
values drawn into the page. Without scripts the calculator is not shown (the boxes it fills are)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import Game
from ..games.base import CardCounter, Table
from ..web.i18n import declared_text
from .widgets import Seating, card_label, deck, pack_of


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
            cards = [(code, card_label(code), counter.points.get(code, 0)) for code in counter.cards if code in chosen]
            extras = [(extra, str(values.get(f"{extra.name}-{side}", "0"))) for extra in counter.extras]
            sides.append({"side": side, "label": label, "cards": cards, "extras": extras})
        opened = any(side["cards"] for side in sides)
        drawn.append({"counter": counter, "sides": sides, "open": opened, "pack": counter_pack(counter)})
    return drawn


def counter_pack(counter: CardCounter) -> dict[str, Any]:
    """The counter's cards as one list on the page: its pack's ranks and suits, and each card's points
    in the pack's order (piles.js draws a tap per card from them)."""
    ranks = "".join(dict.fromkeys(code[0] for code in counter.cards))
    pack = pack_of(ranks)
    if deck(ranks) != list(counter.cards):
        raise ValueError(f"{counter.name}: a counter's cards are a whole pack, suit by suit, each suit in rank order")
    pack["points"] = " ".join(str(counter.points.get(code, 0)) for code in counter.cards)
    return pack


def in_page_language(counter: CardCounter) -> CardCounter:
    """The calculator with its title, help and extras' labels in the page's language."""
    extras = tuple(dataclasses.replace(extra, label=declared_text(extra.label)) for extra in counter.extras)
    return dataclasses.replace(
        counter, title=declared_text(counter.title), help=declared_text(counter.help), extras=extras
    )
