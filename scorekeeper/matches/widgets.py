"""One widget per field type: how a declared field is drawn on a form, read back from the posted
form into the record the API takes, and shown again from a stored record (to edit a hand).

A form posts text; the engine takes JSON's types only. Reading a form turns the text into them here
("3" the number 3, "4" Envite's stake 4, "10h" the card TH, a ticked box true); text that is none
of these is passed on as it is, and the engine's refusal names the field.

Every game's hand form and house rules are drawn by these; no game has a form of its own. Posted
keys are flat: a field `tricks` of two sides posts `tricks-0` and `tricks-1`, a group's member
`at_close-points`, a card `cards-1-4-rank`. A side asked in the same tap as a choice (`asked_with`)
rides on the choice's value: `outcome=gin.1` is the outcome gin and the knocker 1."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from werkzeug.datastructures import MultiDict

from ..games.base import CARD_SUITS, Field, RecordForm, Table, parse_card, render
from ..web.i18n import declared_text
from ..web.i18n import gettext as _

BUTTON_LIMIT = 14  # a whole-number range up to this many values shows as buttons, not a box
NONE = "none"  # the form's word for null (a nullable side left to nobody)
MISSING: Any = object()  # nothing of the field was posted: the record leaves it out
SUIT_SIGNS = dict(zip(CARD_SUITS, "♠♥♦♣"))
SHOWN_SLOTS = 4  # list slots shown at once; the rest open under "more"
# Events the server draws (the entries a phone without scripts can fill); palette.js adds the rest,
# up to the field's most, as copies of the first: 49 entries of every choice were 30 KB of a page.
DRAWN_EVENTS = 8
PAIRED = "."  # joins a choice and the side asked with it in one posted value: "gin.1"
SHOWN = "shown"  # the posted key suffix of what a total field showed when drawn: "tricks-shown" = "8,5"


def card_label(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT_SIGNS[code[1]]


def choice_text(fld: Field, value: Any) -> str:
    """A choice as a button says it, in the page's language (its English: `Field.choice_label`)."""
    return declared_text(fld.choice_label(value))


def record_form_text(form: RecordForm) -> str:
    """What a record form gives, in English, as its fold names it ("Or give the two totals")."""
    return form.help or form.name


@dataclass
class Widget:
    """One field as the form shows it: its posted key, its kind (the template macro) and its value."""

    key: str
    label: str
    kind: str
    help: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    value: Any = None
    error: str | None = None
    when: tuple[str, tuple[str, ...]] | None = None
    children: list[Widget] = field(default_factory=list)
    low: int | None = None
    high: int | None = None
    slots: int = 0  # list kinds: how many entries the form offers
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Seating:
    """How the form names the table: each side by its players, each seat by its player."""

    table: Table
    names: Sequence[str]

    @property
    def sides(self) -> list[str]:
        labels = []
        for side in range(self.table.sides):
            members = [self.names[seat] for seat in self.table.seats_of(side)]
            labels.append(" & ".join(members))
        return labels

    @property
    def seats(self) -> list[str]:
        return list(self.names)

    def say(self, text: str) -> str:
        """An engine text (a question naming a role: "⟨side 1⟩'s rows") with the sides named."""
        several = [len(self.table.seats_of(side)) > 1 for side in range(self.table.sides)]
        return render(text, self.sides, several)


WHOLE = re.compile(r"[+-]?[0-9]{1,12}")  # ASCII digits only: int() would also take "٣" and any length


def number_from_text(text: str) -> int | str:
    """Posted text as a whole number ("3", "+3", "-1"); any other text stays text."""
    return int(text) if WHOLE.fullmatch(text) else text


def card_from_text(text: str, ranks: str) -> str:
    """A posted card ("TH", "10h") as its code; any other text stays text."""
    return parse_card(text, ranks) or text


def _is_on(value: Any) -> bool:
    return value in ("on", "true", "1", True)


class FieldWidget:
    """The web side of one field type."""

    kind: ClassVar[str]

    def build(self, fld: Field, key: str, seating: Seating, values: Mapping, error: str | None) -> Widget:
        raise NotImplementedError

    def read(self, fld: Field, key: str, form: MultiDict, table: Table) -> Any:
        raw = form.get(key, "").strip()
        if raw == "":
            return MISSING
        return None if (raw == NONE and fld.nullable) else self.typed(fld, raw)

    def typed(self, fld: Field, text: str) -> Any:
        """One posted value as the engine takes it: a whole number (side, seat, int)."""
        return number_from_text(text)

    def show(self, fld: Field, key: str, value: Any) -> dict[str, Any]:
        return {key: NONE if value is None else str(value)}

    @staticmethod
    def common(fld: Field, key: str, error: str | None, kind: str) -> dict:
        when = (fld.when.name, tuple(str(v) for v in fld.when.values)) if fld.when and not fld.when.option else None
        return dict(
            key=key,
            label=declared_text(fld.question),
            help=declared_text(fld.form_help),
            error=error,
            when=when,
            kind=kind,
        )


class ButtonsWidget(FieldWidget):
    """side, seat, choice, and small whole-number ranges: one big button per value."""

    kind = "buttons"

    def build(self, fld, key, seating, values, error):
        kind = "menu" if fld.menu else self.kind
        return Widget(
            choices=self.choices(fld, seating),
            value=self.current(fld, key, values),
            **self.common(fld, key, error, kind),
        )

    def typed(self, fld, text):
        if fld.type == "choice":  # the choice's own value: "4" is Envite's stake 4
            return next((choice for choice in fld.choices if str(choice) == text), text)
        return number_from_text(text)

    @staticmethod
    def current(fld: Field, key: str, values: Mapping) -> str:
        value = values.get(key)
        if value is None and fld.preset is not None:
            value = fld.preset  # the commonest hand, chosen before any tap
        elif value is None and not fld.required and fld.default is not None:
            value = fld.default  # defaults are shown selected
        return "" if value is None else str(value)

    @staticmethod
    def choices(fld: Field, seating: Seating) -> list[tuple[str, str]]:
        if fld.type in ("side", "seat"):  # the players still in: `exclude` names those who are out
            labels = seating.sides if fld.type == "side" else seating.seats
            found = [(str(i), label) for i, label in enumerate(labels) if i not in fld.exclude]
            return found + ([(NONE, _("Nobody"))] if fld.nullable else [])
        if fld.type == "choice":
            return [(str(value), choice_text(fld, value)) for value in fld.choices]
        return [(str(i), str(i)) for i in range(fld.min, fld.max + 1)]


class PairedWidget(ButtonsWidget):
    """A choice asked together with a side (`asked_with` on the side field): one button per choice,
    and one per side for each choice the side belongs to ("Ann: gin", "Bob: knock", "Draw")."""

    def __init__(self, partner: Field):
        self.partner = partner

    def build(self, fld, key, seating, values, error):
        return Widget(
            choices=self.pairs(fld, seating),
            value=self.joined(fld, key, values),
            **self.common(fld, key, error, self.kind),
        )

    def pairs(self, fld: Field, seating: Seating) -> list[tuple[str, str]]:
        sides = ButtonsWidget.choices(self.partner, seating)
        found = []
        for value in fld.choices:
            if self.partner.when is not None and str(value) in {str(v) for v in self.partner.when.values}:
                found += [(f"{value}{PAIRED}{side}", paired_label(label, fld, value)) for side, label in sides]
            else:
                found.append((str(value), choice_text(fld, value)))
        return found

    def joined(self, fld: Field, key: str, values: Mapping) -> str:
        """The button to show chosen: the posted pair, or a stored choice with its side."""
        chosen = ButtonsWidget.current(fld, key, values)
        side = values.get(key[: -len(fld.name)] + self.partner.name)
        return f"{chosen}{PAIRED}{side}" if chosen and side not in (None, "") and PAIRED not in chosen else chosen


def paired_label(side: str, fld: Field, value: Any) -> str:
    """One button naming a side and a choice together: "Ann: gin"."""
    # Translators: one button naming who and what in a single tap, as "Ann: gin" (the choice in lower case)
    return _("%(side)s: %(choice)s", side=side, choice=choice_text(fld, value).lower())


def unpaired(fields: Sequence[Field], form: MultiDict) -> MultiDict:
    """The form with each paired value ("gin.1") split back into its choice and its side."""
    split = form
    for partner in fields:
        if partner.asked_with and PAIRED in str(form.get(partner.asked_with, "")):
            if split is form:
                split = form.copy()
            choice, side = str(form.get(partner.asked_with)).split(PAIRED, 1)
            split[partner.asked_with], split[partner.name] = choice, side
    return split


class NumberWidget(FieldWidget):
    """A whole number over a wide range: a numeric box."""

    kind = "number"

    def build(self, fld, key, seating, values, error):
        return Widget(
            value=ButtonsWidget.current(fld, key, values),
            low=fld.min,
            high=fld.max,
            **self.common(fld, key, error, self.kind),
        )


class IntWidget(FieldWidget):
    def build(self, fld, key, seating, values, error):
        small = fld.min is not None and fld.max is not None and fld.max - fld.min < BUTTON_LIMIT
        return (BUTTONS if small else NUMBER).build(fld, key, seating, values, error)


class ToggleWidget(FieldWidget):
    kind = "toggle"

    def build(self, fld, key, seating, values, error):
        value = values.get(key)
        on = _is_on(value) if value is not None else fld.default is True
        return Widget(value=on, **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        return True if _is_on(form.get(key)) else MISSING

    def show(self, fld, key, value):
        return {key: "on"} if value else {}


class PerSideWidget(FieldWidget):
    """One number per side. With a fixed total the other side follows the one tapped: a side left
    blank takes the rest, and where every side was drawn with a number (an edit, a form sent back)
    and only one of two was changed, the unchanged one takes the rest. The script does the same as
    the table taps; the server does it for a phone without scripts (the form posts what it showed)."""

    kind = "group"

    def build(self, fld, key, seating, values, error):
        children = []
        for side, label in enumerate(seating.sides):
            child = INT.build(fld, f"{key}-{side}", seating, values, None)
            child.label, child.help, child.when = label, "", None
            children.append(child)
        common = self.common(fld, key, error, self.kind)
        extra: dict[str, Any] = {}
        if fld.total is not None and seating.table.sides == 2:
            typed = fld.min is None or fld.max is None or fld.max - fld.min >= BUTTON_LIMIT  # boxes, not buttons
            common["help"] += " " + (
                _("Type one side's number; the other side gets the rest.")
                if typed
                else _("Tap one side's number; the other side gets the rest.")
            )
        if fld.total is not None:
            shown = [child.value for child in children]
            extra = {"total": fld.total, "shown": ",".join(shown) if all(shown) else ""}
        return Widget(children=children, extra=extra, **common)

    def read(self, fld, key, form, table):
        items = [form.get(f"{key}-{i}", "").strip() for i in range(table.sides)]
        if not any(items):
            return MISSING
        numbers = [number_from_text(item) if item else None for item in items]
        if not fld.required and fld.total is None:
            return [0 if number is None else number for number in numbers]  # an optional count left blank: none
        if fld.total is not None and all(isinstance(number, int) or number is None for number in numbers):
            rest = self.taking_the_rest(numbers, shown_numbers(form.get(f"{key}-{SHOWN}", ""), table.sides))
            if rest is not None:
                numbers[rest] = fld.total - sum(number for i, number in enumerate(numbers) if i != rest)
                if not _in_range(fld, numbers[rest]):
                    numbers[rest] = None  # never a rest the field cannot hold: the engine says what is wrong
        return numbers

    @staticmethod
    def taking_the_rest(numbers: list[int | None], shown: list[int] | None) -> int | None:
        """The side whose number is the rest: the one left blank, or (of two drawn with numbers) the
        one not changed from what was drawn."""
        blank = [i for i, number in enumerate(numbers) if number is None]
        if blank:
            return blank[0] if len(blank) == 1 else None
        if shown is None or len(numbers) != 2:
            return None
        changed = [i for i, (number, was) in enumerate(zip(numbers, shown)) if number != was]
        return 1 - changed[0] if len(changed) == 1 else None

    def show(self, fld, key, value):
        return {f"{key}-{i}": str(v) for i, v in enumerate(value)}


def shown_numbers(text: str, sides: int) -> list[int] | None:
    """What a total field showed when drawn ("8,5"), or None when it showed no complete set."""
    numbers = [number_from_text(part) for part in text.split(",")] if text else []
    return numbers if len(numbers) == sides and all(isinstance(n, int) for n in numbers) else None


def _in_range(fld: Field, number: int) -> bool:
    return (fld.min is None or number >= fld.min) and (fld.max is None or number <= fld.max)


class GroupWidget(FieldWidget):
    kind = "group"

    # Built by build_widgets, which hands each member its own error.

    def read(self, fld, key, form, table):
        shown = [sub for sub in fld.fields if _shown(fld.fields, sub, form, prefix=f"{key}-")]
        group = {sub.name: widget_for(sub).read(sub, f"{key}-{sub.name}", form, table) for sub in shown}
        group = {name: v for name, v in group.items() if v is not MISSING}
        return group or MISSING

    def show(self, fld, key, value):
        return values_from_record(fld.fields, value or {}, prefix=key + "-")


class SlotsWidget(FieldWidget):
    """An ordered list (side_list, events, int_list): a row of choosers per entry, in order."""

    kind = "slots"

    def slots(self, fld: Field) -> int:
        return fld.length if fld.type == "int_list" else (fld.max or 8)

    def parts(self, fld: Field, seating: Seating) -> list[tuple[str, list[tuple[str, str]]]]:
        """(part suffix, choices) for one entry: its side, its type, or its number."""
        if fld.type == "events":
            return [
                ("side", ButtonsWidget.choices(Field("s", "side", ""), seating)),
                ("type", [(t, choice_text(fld, t)) for t in fld.choices]),
            ]
        if fld.type == "int_list":
            return [("", [(str(n), str(n)) for n in range(fld.min, fld.max + 1) if n not in fld.exclude])]
        return [("", ButtonsWidget.choices(Field("s", "side", ""), seating))]

    def build(self, fld, key, seating, values, error):
        count = self.slots(fld)
        parts = self.parts(fld, seating)
        extra: dict[str, Any] = {"required": fld.type == "int_list"}
        if fld.type == "events":  # a button per side and type, each tap the next entry (palette.js)
            extra["palette"] = [(side, label, parts[1][1]) for side, label in parts[0][1]]
            extra["most"] = count
            given = [i for i in range(count) if any(values.get(f"{key}-{i}-{part}") for part, _ in parts)]
            count = min(count, max(DRAWN_EVENTS, given[-1] + 1 if given else 0))
        entries = [
            [
                (
                    f"{key}-{i}{'-' + part if part else ''}",
                    choices,
                    str(values.get(f"{key}-{i}{'-' + part if part else ''}", "")),
                )
                for part, choices in parts
            ]
            for i in range(count)
        ]
        shown = count if fld.type == "int_list" else SHOWN_SLOTS
        return Widget(value=entries, slots=shown, extra=extra, **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        entries = []
        for i in range(self.slots(fld)):
            if fld.type == "events":
                side, kind = form.get(f"{key}-{i}-side", "").strip(), form.get(f"{key}-{i}-type", "").strip()
                if side or kind:
                    entries.append({"side": number_from_text(side) if side else None, "type": kind or None})
            else:
                item = form.get(f"{key}-{i}", "").strip()
                if item or fld.type == "int_list":
                    entries.append(number_from_text(item) if item else None)
        if fld.type == "int_list":
            return MISSING if all(entry is None for entry in entries) else entries
        return entries if entries else MISSING

    def show(self, fld, key, value):
        shown = {}
        for i, entry in enumerate(value or []):
            if fld.type == "events":
                shown[f"{key}-{i}-side"], shown[f"{key}-{i}-type"] = str(entry["side"]), entry["type"]
            else:
                shown[f"{key}-{i}"] = str(entry)
        return shown


class CardsWidget(FieldWidget):
    """Hands of cards: a rank and a suit chooser per card, or, for piles of any size, a tap per card.

    The choosers (cards.js) and the taps (piles.js) are drawn from one list of the pack on the page
    (`pack`): the server draws only what a hand already holds, so that a phone without scripts keeps it."""

    kind = "cards"

    def build(self, fld, key, seating, values, error):
        getlist = values.getlist if hasattr(values, "getlist") else (lambda k: values.get(k, []) or [])
        hands = []
        for side, label in enumerate(seating.sides):
            if fld.size:
                picks = [
                    (str(values.get(f"{key}-{side}-{n}-rank", "")), str(values.get(f"{key}-{side}-{n}-suit", "")))
                    for n in range(fld.size)
                ]
                filled = any(rank or suit for rank, suit in picks)
            else:
                chosen = set(getlist(f"{key}-{side}"))
                picks = [(code, card_label(code)) for code in deck(fld.ranks) if code in chosen]
                filled = bool(picks)
            hands.append({"side": side, "label": label, "picks": picks, "filled": filled})
        extra = pack_of(fld.ranks)
        extra.update(size=fld.size, open=any(hand["filled"] for hand in hands))
        return Widget(value=hands, extra=extra, **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        if fld.size:
            hands = [
                [
                    form.get(f"{key}-{side}-{n}-rank", "") + form.get(f"{key}-{side}-{n}-suit", "")
                    for n in range(fld.size)
                ]
                for side in range(table.sides)
            ]
            hands = [[card for card in hand if card] if not any(hand) or all(hand) else hand for hand in hands]
        else:
            hands = [form.getlist(f"{key}-{side}") for side in range(table.sides)]
        if not any(hands):
            return MISSING
        return [
            [card_from_text(card, fld.ranks) for card in hand] if hand else (None if fld.null_hands else [])
            for hand in hands
        ]

    def show(self, fld, key, value):
        shown: dict[str, Any] = {}
        for side, hand in enumerate(value or []):
            if hand is None:
                continue
            if not fld.size:
                shown[f"{key}-{side}"] = list(hand)
                continue
            for n, card in enumerate(hand):
                shown[f"{key}-{side}-{n}-rank"], shown[f"{key}-{side}-{n}-suit"] = card[0], card[1]
        return shown


class GridWidget(FieldWidget):
    """A layout of cards, row by row: a rank and a suit chooser per place."""

    kind = "grid"

    def build(self, fld, key, seating, values, error):
        rows = [
            [
                (str(values.get(f"{key}-{r}-{c}-rank", "")), str(values.get(f"{key}-{r}-{c}-suit", "")))
                for c in range(fld.columns)
            ]
            for r in range(fld.rows)
        ]
        rows = [{"picks": row, "filled": any(rank or suit for rank, suit in row)} for row in rows]
        extra = pack_of(fld.ranks)
        extra.update(size=fld.columns, open=any(row["filled"] for row in rows))
        return Widget(value=rows, extra=extra, **self.common(fld, key, error, self.kind))

    def read(self, fld, key, form, table):
        rows = [
            [form.get(f"{key}-{r}-{c}-rank", "") + form.get(f"{key}-{r}-{c}-suit", "") for c in range(fld.columns)]
            for r in range(fld.rows)
        ]
        if not any(card for row in rows for card in row):
            return MISSING
        return [[card_from_text(card, fld.ranks) for card in row] for row in rows]

    def show(self, fld, key, value):
        shown = {}
        for r, row in enumerate(value or []):
            for c, card in enumerate(row):
                shown[f"{key}-{r}-{c}-rank"], shown[f"{key}-{r}-{c}-suit"] = card[0], card[1]
        return shown


def deck(ranks: str) -> list[str]:
    return [rank + suit for suit in CARD_SUITS for rank in ranks]


def pack_of(ranks: str) -> dict[str, Any]:
    """The one list of a pack its fields' pickers are drawn from, named by its ranks: its ranks and
    suits, which give each card's two choosers (cards.js) and each card, suit by suit, a tap (piles.js)."""
    return {
        "pack": f"pack-{ranks}",
        "ranks": [(r, "10" if r == "T" else r) for r in ranks],
        "suits": list(SUIT_SIGNS.items()),
    }


BUTTONS, NUMBER, INT = ButtonsWidget(), NumberWidget(), IntWidget()
WIDGETS: dict[str, FieldWidget] = {
    "side": BUTTONS,
    "seat": BUTTONS,
    "choice": BUTTONS,
    "int": INT,
    "bool": ToggleWidget(),
    "per_side": PerSideWidget(),
    "group": GroupWidget(),
    "side_list": SlotsWidget(),
    "events": SlotsWidget(),
    "int_list": SlotsWidget(),
    "cards": CardsWidget(),
    "grid": GridWidget(),
}


@dataclass
class Section:
    """A part of the hand form: the usual questions, the rare ones under "More", or another way
    to give the whole hand (a record form) under its own heading."""

    title: str | None
    widgets: list[Widget]
    opened: bool = False

    @property
    def scripts(self) -> list[str]:
        """The scripts that draw its long lists: cards.js each card's choosers, piles.js a pile's taps,
        palette.js a list of events' entries. Each page loads only those its form needs."""
        needed = []
        for widget in _every(self.widgets):
            if "pack" in widget.extra:
                needed.append("cards.js" if widget.extra["size"] else "piles.js")
            if "palette" in widget.extra:
                needed.append("palette.js")
        return list(dict.fromkeys(needed))


def _every(widgets: Sequence[Widget]) -> Iterator[Widget]:
    """The widgets and, within each group, its members."""
    for widget in widgets:
        yield widget
        yield from _every(widget.children)


def _draw_each_pack_once(sections: Sequence[Section]) -> None:
    """The first field that picks from a pack draws its list (`draws_pack`); the others use it."""
    drawn = set()
    for widget in _every([widget for section in sections for widget in section.widgets]):
        pack = widget.extra.get("pack")
        if pack and pack not in drawn:
            drawn.add(pack)
            widget.extra["draws_pack"] = True


def form_sections(
    fields: Sequence[Field], forms: Sequence[RecordForm], seating: Seating, values: Mapping, errors: Mapping
) -> list[Section]:
    """The hand form in sections: the record form in use (the one the shown hand was given in, else
    the game's first) with the common fields, then the rare fields (a group's rare members in their
    group's name), then each other record form, folded until used; cards in a fold show as soon as
    it is opened."""
    first = form_in_use(forms, fields, values)
    other_forms = [form for form in forms if form is not first]
    elsewhere = {name for form in other_forms for name in form.fields}
    values = without_what_a_toggle_hides(fields, values)
    main, rare = split_rare([fld for fld in fields if fld.name not in elsewhere])
    sections = [Section(None, build_widgets(main, seating, values, errors), True)]
    if rare:
        # Translators: a folded part of the hand form holding the questions most hands leave alone
        section = _folded(_("More"), rare, seating, values, errors)
        for widget in section.widgets:
            if widget.kind == "group" and widget.key in {fld.name for fld in main}:
                widget.help = ""  # its help is said with the rest of the group, above
        sections.append(_unfolded(section))
    for form in other_forms:
        members = [fld for fld in fields if fld.name in form.fields]
        # Translators: a folded part of the hand form, another way to give the whole hand: "Or give the two totals"
        title = _("Or give %(what)s", what=declared_text(record_form_text(form)))
        sections.append(_unfolded(_folded(title, members, seating, values, errors)))
    _draw_each_pack_once(sections)
    return sections


def split_rare(fields: Sequence[Field]) -> tuple[list[Field], list[Field]]:
    """The fields most hands use, and those they leave alone (`rare`); a group with rare members
    is in both, each part holding its own members."""
    main, rare = [], []
    for fld in fields:
        if fld.rare:
            rare.append(fld)
        elif any(member.rare for member in fld.fields):
            main.append(replace(fld, fields=tuple(m for m in fld.fields if not m.rare)))
            rare.append(replace(fld, fields=tuple(m for m in fld.fields if m.rare)))
        else:
            main.append(fld)
    return main, rare


def _unfolded(section: Section) -> Section:
    """Cards and layouts in a fold of the form are drawn open: the fold is the one tap to them."""
    for widget in _every(section.widgets):
        if widget.kind in ("cards", "grid"):
            widget.extra["unfolded"] = True
    return section


def form_in_use(forms: Sequence[RecordForm], fields: Sequence[Field], values: Mapping) -> RecordForm | None:
    """The record form whose fields the shown values give (beyond a preset), else the one asked first."""
    for form in forms:
        if any(_given(fld, values) for fld in fields if fld.name in form.fields):
            return form
    return next((form for form in forms if form.asked_first), forms[0] if forms else None)


def _given(fld: Field, values: Mapping, prefix: str = "") -> bool:
    """Whether the flat values give something for `fld` that the table chose (not only a preset)."""
    key = prefix + fld.name
    if fld.type == "group":
        return any(_given(member, values, key + "-") for member in fld.fields)
    return any(
        not _idle(fld, value)
        for name, value in values.items()
        if (name == key or name.startswith(key + "-")) and not name.endswith(f"-{SHOWN}")
    )


def _idle(fld: Field, value: Any) -> bool:
    """A value that says nothing the table chose: empty, the preset, or an optional field's nothing."""
    if value in ("", None, []):
        return True
    if fld.preset is not None and str(value) == str(fld.preset):
        return True
    return not fld.required and (value == "0" or str(value) == str(fld.default))


def _folded(title: str, fields: Sequence[Field], seating: Seating, values: Mapping, errors: Mapping) -> Section:
    used = any(_given(fld, values) for fld in fields)
    failed = any(_names(fld, key) for fld in fields for key in errors)
    return Section(title, build_widgets(fields, seating, values, errors), used or failed)


def _names(fld: Field, key: str) -> bool:
    """Whether the refusal at `key` ("tricks", "jacks.spades", "tricks-0") is about `fld` (a
    group: about one of the members it holds)."""
    parts = key.replace("-", ".").split(".")
    if parts[0] != fld.name:
        return False
    return fld.type != "group" or len(parts) == 1 or any(member.name == parts[1] for member in fld.fields)


def widget_for(fld: Field) -> FieldWidget:
    return WIDGETS[fld.type]


def build_widgets(
    fields: Sequence[Field],
    seating: Seating,
    values: Mapping,
    errors: Mapping,
    prefix: str = "",
    in_group: bool = False,
) -> list[Widget]:
    """Widgets for `fields`, filled with the posted `values` (flat form keys) and `errors`; the
    questions name the players where they name a role ("Bob's rows")."""
    widgets = []
    for fld in fields:
        if fld.asked_with and any(other.name == fld.asked_with for other in fields):
            continue  # asked on its choice's buttons
        key = prefix + fld.name
        error = errors.get(key.replace("-", ".")) or errors.get(key)
        partner = _partner(fields, fld)
        if partner is not None:  # its side's refusal shows on these buttons too
            error = error or errors.get(prefix.replace("-", ".") + partner.name)
        if fld.type == "group":
            children = build_widgets(fld.fields, seating, values, errors, prefix=key + "-", in_group=True)
            widget = Widget(children=children, **FieldWidget.common(fld, key, error, "group"))
        else:
            drawer = PairedWidget(partner) if partner is not None else widget_for(fld)
            widget = drawer.build(fld, key, seating, values, error)
        widget.label, widget.help = seating.say(widget.label), seating.say(widget.help)
        if in_group and widget.kind not in ("cards", "grid"):
            widget.help = ""  # a group's own help speaks for its members: the form stays one screen
        widgets.append(widget)
    return widgets


def _partner(fields: Sequence[Field], fld: Field) -> Field | None:
    """The side asked in the same tap as the choice `fld`, if any."""
    return next((other for other in fields if other.asked_with == fld.name), None)


def _controls_by_toggle(fields: Sequence[Field], fld: Field) -> bool:
    """The field's `when` names a bool field (a toggle: unticked posts nothing)."""
    return any(other.name == fld.when.name and other.type == "bool" for other in fields)


def without_what_a_toggle_hides(fields: Sequence[Field], values: Mapping) -> Mapping:
    """The values to draw, less those of the questions a ticked (or unticked) box hides: a form sent
    back with a void hand ticked over a bid draws the bid empty, so the next tap records what shows."""
    hidden = [
        fld.name for fld in fields if fld.when and _controls_by_toggle(fields, fld) and not _shown(fields, fld, values)
    ]
    if not hidden:
        return values

    def kept(key: str) -> bool:
        return not any(key == name or key.startswith(name + "-") for name in hidden)

    if isinstance(values, MultiDict):
        return MultiDict([(key, value) for key, value in values.items(multi=True) if kept(key)])
    return {key: value for key, value in values.items() if kept(key)}


def _shown(fields: Sequence[Field], fld: Field, form: MultiDict, prefix: str = "") -> bool:
    """Whether the form shows `fld`, given the choice its `when` names (inside a group: the
    group's own choice, posted under the group's prefix)."""
    if fld.when is None or fld.when.option:
        return True
    if _controls_by_toggle(fields, fld):
        return _is_on(form.get(prefix + fld.when.name)) in fld.when.values
    return str(form.get(prefix + fld.when.name, "")) in {str(v) for v in fld.when.values}


def record_from_form(
    fields: Sequence[Field],
    form: MultiDict,
    table: Table,
    forms: Sequence[RecordForm] = (),
    *,
    hand: bool = False,
) -> dict:
    """The record the API would take, from flat form keys; fields hidden by `when` are left out, and
    so are the fields of a record form the table did not use (only its presets are chosen). On a
    hand's form (`hand`) an answer a ticked box hides is kept, for the game to refuse in words
    (Hasenpfeffer's bid with a void hand) rather than the form dropping it without a word."""
    form = unpaired(fields, form)
    record: dict[str, Any] = {}
    for fld in fields:
        if not _shown(fields, fld, form) and not (hand and _controls_by_toggle(fields, fld)):
            continue
        found = widget_for(fld).read(fld, fld.name, form, table)
        if found is not MISSING:
            record[fld.name] = found
    return _without_untouched_forms(fields, forms, record)


def _without_untouched_forms(fields: Sequence[Field], forms: Sequence[RecordForm], record: dict) -> dict:
    """Where one record form was given, the others' presets (chosen before any tap) are not part of it."""
    by_name = {fld.name: fld for fld in fields}

    def touched(form: RecordForm) -> bool:
        return any(
            name in record and (by_name[name].preset is None or record[name] != by_name[name].preset)
            for name in form.fields
            if name in by_name
        )

    used = [form for form in forms if touched(form)]
    if not used:
        return record
    untouched = {name for form in forms if form not in used for name in form.fields}
    return {name: value for name, value in record.items() if name not in untouched}


def values_from_record(fields: Sequence[Field], record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Flat form values that show a stored record (to edit a hand)."""
    values: dict[str, Any] = {}
    for fld in fields:
        if fld.name in record and (record[fld.name] is not None or fld.nullable):
            values.update(widget_for(fld).show(fld, prefix + fld.name, record[fld.name]))
    return values


def _value_is(fields: Sequence[Field], control: str, value: Any) -> str:
    """The CSS test for a choice's value: "gin.0" and "gin.1" are both the choice gin where a side
    is asked on its buttons."""
    partner = next((fld for fld in fields if fld.asked_with == control), None)
    if partner is not None and partner.when is not None and str(value) in {str(v) for v in partner.when.values}:
        return f'[value^="{value}{PAIRED}"]'
    return f'[value="{value}"]'


def hidden_rules_css(fields: Sequence[Field], prefix: str = "") -> str:
    """CSS that hides a field until the choice it belongs to is picked (works without JavaScript);
    inside a group the rule looks at the group's own choice ("Best hand" shows its category)."""
    rules = []
    for fld in fields:
        if fld.fields:
            rules.append(hidden_rules_css(fld.fields, prefix=f"{prefix}{fld.name}-"))
        if not fld.when or fld.when.option:
            continue
        control, target = f"{prefix}{fld.when.name}", f".w-{prefix}{fld.name}"
        if _controls_by_toggle(fields, fld):
            ticked = f'input[name="{control}"]:checked'
            if True not in fld.when.values:
                rules.append(f"form:has({ticked}) {target}{{display:none}}")
            if False not in fld.when.values:
                rules.append(f"form:not(:has({ticked})) {target}{{display:none}}")
            continue
        shown = ",".join(
            f'input[name="{control}"]{_value_is(fields, fld.when.name, v)}:checked' for v in fld.when.values
        )
        rules.append(f"form:not(:has({shown})) {target}{{display:none}}")
    return "\n".join(rule for rule in rules if rule)
