"""Hand calculators on the forms: the table taps what it sees instead of adding up by heart.

Schnapsen: tap the cards each side won and the marriages that counted; the engine's card-point
counter fills in `points` (and `tricks`: two cards a trick) for a side whose box was left empty.
The server does the counting, so it works without JavaScript; counter.js only shows it live."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from werkzeug.datastructures import MultiDict

from ..games import Game, RecordError
from ..games.base import Table
from ..games.schnapsen import CARD_POINTS, Marriage, card_points, hand_score
from .forms import labels_for

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SCHNAPSEN_CARDS = [rank + suit for suit in SUIT_SIGNS for rank in CARD_POINTS]
CREDIT_HELP = {
    "next_trick": "Count a marriage only if its player won a trick after showing it.",
    "any_trick": "Count a marriage once its player has won any trick.",
}


def fill(game: Game, options: Mapping, form: MultiDict, table: Table) -> MultiDict:
    """The form with counted values filled in where the table used the counter.

    Raises RecordError (naming the field) when the tapped cards cannot be a side's pile."""
    if game.key != "schnapsen":
        return form
    filled = form.copy()
    used = [bool(form.getlist(f"count-{side}")) for side in range(table.sides)]
    for side in range(table.sides):
        if any(used) and not used[side]:  # tapped only the winner's cards: this side won none
            _put_blank(filled, f"points-{side}", "0")
            _put_blank(filled, f"tricks-{side}", "0")
        cards = form.getlist(f"count-{side}")
        plain = _count(form.get(f"m20-{side}"))
        royal = form.get(f"m40-{side}") in ("on", "1", "true")
        if not (cards or plain or royal):
            continue
        if len(cards) % 2:
            raise RecordError("The counter: a side wins cards two at a time (one trick), so the count must be even.", "points")
        marriages = [Marriage()] * plain + ([Marriage(royal=True)] if royal else [])
        score = hand_score(card_points(cards), marriages, options.get("marriage_credit", "next_trick"))
        _put_blank(filled, f"points-{side}", str(score))
        _put_blank(filled, f"tricks-{side}", str(len(cards) // 2))
    return filled


def _count(text: str | None) -> int:
    """How many plain marriages were tapped (0 to 3; anything else counts as none)."""
    return int(text) if text in ("0", "1", "2", "3") else 0


def _put_blank(form: MultiDict, key: str, value: str) -> None:
    if not form.get(key, "").strip():
        form[key] = value


def panel(game: Game, options: Mapping, table: Table, names, values: Mapping) -> dict[str, Any] | None:
    """What the counter shows, or None for a game without one."""
    if game.key != "schnapsen":
        return None
    labels, _ = labels_for(table, names)
    getlist = values.getlist if hasattr(values, "getlist") else (lambda key: values.get(key, []))
    sides = []
    for side, label in enumerate(labels):
        chosen = set(getlist(f"count-{side}"))
        cards = [(code, _card_label(code), code in chosen) for code in SCHNAPSEN_CARDS]
        sides.append({"side": side, "label": label, "cards": cards, "m20": str(values.get(f"m20-{side}", "0")), "m40": bool(values.get(f"m40-{side}"))})
    credit = CREDIT_HELP.get(options.get("marriage_credit"), CREDIT_HELP["next_trick"])
    return {"sides": sides, "help": credit, "points": CARD_POINTS, "before": "points"}


def _card_label(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT_SIGNS[code[1]]
