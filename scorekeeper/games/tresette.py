"""Tresette: four players in two partnerships, 40-card deck, first side to 31 (api/partnership.md, S4:161-181).

What the table records after the ten tricks (S4:180):
- the aces and the figures (2s, 3s, kings, queens, jacks) each side took in tricks, or instead the
  cards themselves (`cards`), from which the app counts both (ruling 13: 4s to 7s may be listed
  and count nothing);
- the side that took the last trick;
- the melds declared, each named by rank or suit and mapped to the side that held it (ruling 10).

Scoring per side (S4:180): its melds (a four of a kind 4, a three of a kind or a napoli 3-2-A of
one suit 3) + one per ace + one per full three of its figures, the remainder lost for each side on
its own (ruling 12) + 1 for the last trick. Without melds the hand gives 11 in all: 4 aces,
6 threes from the 20 figures (the two remainders always add up to 2) and the last trick.

The deck check on melds (ruling 10): for each of the ranks A, 2, 3 a side needs the larger of 4 (its
four), 3 (its three) and its number of napoli; the two sides' needs cannot pass the deck's 4. Only
one rank meld per rank: a player with four declares four (S4:174-175).

The match is one game: a side at or above `target` wins; both there, the higher total wins; equal
totals play on, or with `equal_at_target: draw` end the match drawn (ruling 15). The deal passes to
the next seat (ruling 14); the dealer's left leads (S4:177).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, lead_or_level, wins
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    State,
    Text,
    added,
    counted,
    declared,
    joined,
    msg,
    side_name,
)
from .reference import DENEXA, GAME_POINTS, ITALIAN_REVOKE, OWN, HouseRule, Reference, Source, Term
from .statistics import Finished, Statistic

_PLAYERS = 4
_TARGET = 31  # S4:164, S4:181
_ACES = 4
_FIGURES = 20  # 2s, 3s, kings, queens and jacks of the 40-card deck (S4:166, S4:180)
_FIGURES_PER_POINT = 3  # S4:180: one point per three, the remainder lost
_LAST_TRICK = 1  # S4:180
_HAND_POINTS = 11  # 4 aces + 6 threes of figures + 1 last trick, every hand (ruling 12)
_SUITS = "SHDC"
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
DECK_RANKS = "AKQJ765432"  # the 40-card deck: no 8, 9 or 10 (S4:166)
_FIGURE_RANKS = "23KQJ"
_COUNTING_CARDS = tuple(rank + suit for suit in _SUITS for rank in "A" + _FIGURE_RANKS)
_MELD_RANKS = {"aces": "A", "twos": "2", "threes": "3"}  # S4:174: only these make melds


class Equal(StrEnum):
    """Both sides at or above the target with equal totals (ruling 15)."""

    PLAY_ON = "play_on"
    DRAW = "draw"


class Rule(StrEnum):
    """Section ids of templates/rules/tresette.html that the reason lines link to."""

    CAPTURED = "captured"
    LAST_TRICK = "last-trick"
    MELDS = "melds"
    ELEVEN = "eleven"
    END = "end"


@dataclass(frozen=True)
class Meld:
    """A meld the record can name: its field name, its points and the A/2/3 cards it takes."""

    name: str
    points: int
    rank: str | None = None  # a three or four of a kind: the rank it is made of
    count: int = 0  # how many cards of that rank
    suit: str | None = None  # a napoli: 3-2-A of this suit

    @property
    def label(self) -> str:
        if self.suit is not None:
            return f"napoli of {_SUIT_NAMES[self.suit]}"
        return self.name.replace("_", " ")

    @property
    def said(self) -> Text:
        """The label inside a message: its field's label (declared), in small letters as `label` is."""
        return declared(self.label.capitalize(), lower=True)

    @property
    def napoli(self) -> bool:
        return self.suit is not None


# S4:174, S4:180: four of a kind 4, three of a kind 3, napoli (3-2-A of a suit) 3
MELDS: tuple[Meld, ...] = (
    *(Meld(f"four_{word}", 4, rank, 4) for word, rank in _MELD_RANKS.items()),
    *(Meld(f"three_{word}", 3, rank, 3) for word, rank in _MELD_RANKS.items()),
    *(Meld(f"napoli_{name}", 3, suit=suit) for suit, name in _SUIT_NAMES.items()),
)
_MELD_BY_NAME = {meld.name: meld for meld in MELDS}


@dataclass(frozen=True)
class TresetteState(State):
    points: tuple[int, int] = (0, 0)


def count_cards(cards: list[str]) -> tuple[int, int]:
    """The aces and the figures in one side's pile of captured cards (4s to 7s count nothing)."""
    aces = sum(card[0] == "A" for card in cards)
    figures = sum(card[0] in _FIGURE_RANKS for card in cards)
    return aces, figures


def _meld_field(meld: Meld) -> Field:
    return Field(
        meld.name,
        "side",
        f"The side that declared {meld.label} ({meld.points} points).",
        default=None,
        nullable=True,
        label=meld.label.capitalize(),
    )


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _hands_won(done: Finished, side: int) -> int:
    """Hands in which the side scored more than the other side (11 a hand, plus melds: level hands win nobody)."""
    return sum(1 for hand in done.hands if hand.changes[side] > hand.changes[1 - side])


class Tresette(Race):
    key = "tresette"
    name = "Tresette"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = True
    unit = "points"
    rules = Rule
    state_class = TresetteState
    options = (
        Field("target", "int", "Points that win the game.", default=_TARGET, min=1, max=1000),
        Field.choice(
            "equal_at_target",
            "Both sides at or above the target with equal totals: play another hand, or call it a draw.",
            Equal,
            default=Equal.PLAY_ON,
            label="Equal at the target",
        ),
    )
    hand_fields = (
        Field(
            "aces",
            "per_side",
            "Aces each side took in tricks; they add up to 4.",
            min=0,
            max=_ACES,
            total=_ACES,
            total_in="the pack",
            ask="Aces taken",
        ),
        Field(
            "figures",
            "per_side",
            "2s, 3s, kings, queens and jacks each side took in tricks; they add up to 20.",
            min=0,
            max=_FIGURES,
            total=_FIGURES,
            total_in="the pack",
            ask="Figures taken (2, 3, K, Q, J)",
        ),
        Field(
            "cards",
            "cards",
            "Instead of the counts: the cards each side took (every ace, 2, 3, K, Q, J once; 4s to 7s optional).",
            default=None,
            nullable=True,
            size=0,
            ranks=DECK_RANKS,
            label="Cards taken",
        ),
        Field("last_trick", "side", "The side that took the last trick.", ask="Who took the last trick?"),
        Field(
            "melds",
            "group",
            "The melds declared, each with the side that held it; most hands have none.",
            default=None,
            nullable=True,
            rare=True,
            fields=tuple(_meld_field(meld) for meld in MELDS),
        ),
    )
    asked_first = ("last_trick",)  # one tap every hand, above the counts
    record_forms = (
        RecordForm("counts", ("aces", "figures"), "the aces and figures each side took"),
        RecordForm("cards", ("cards",), "the cards each side took"),
    )

    reference = Reference(
        names=("Tressette", "Tresetti"),
        line=msg("Italian partnership game with the 40-card pack: 3s and 2s beat aces, melds of A-2-3, first to 31."),
        sources=(
            Source("Tresette", DENEXA),
            ITALIAN_REVOKE,
            OWN,
        ),
        house_rules={
            "target": HouseRule("end", counted=GAME_POINTS),
            "equal_at_target": HouseRule(
                "end",
                says={
                    "play_on": msg("both sides past the target with equal totals play another hand"),
                    "draw": msg("both sides past the target with equal totals make a draw"),
                },
            ),
        },
        terms=(
            Term("napoli", "melds", msg("Ace, 2 and 3 of one suit in one hand: 3 points (also called a nap).")),
            Term("good play", "melds", msg("What a Tresette player says at the start to show a meld is held.")),
            Term("figures", "captured", msg("The 2s, 3s and court cards taken in tricks: 1 point for every three.")),
        ),
    )

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: TresetteState, record: dict) -> None:
        if record.get("cards") is not None:
            _check_counting_cards(record["cards"])
        _check_melds(_held_melds(record))

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: TresetteState, record: Mapping) -> HandResult:
        aces, figures, from_cards = _captured(record)
        melds = _held_melds(record)
        last = record["last_trick"]
        changes = [0, 0]
        reasons: list[Reason] = []
        for meld, side in melds:
            changes[side] += meld.points
            reasons.append(
                Reason(
                    msg("%(side)s: %(meld)s: %(points)s", side=side_name(side), meld=meld.said, points=meld.points),
                    Rule.MELDS,
                )
            )
        for side in (0, 1):
            points = aces[side] + figures[side] // _FIGURES_PER_POINT
            changes[side] += points
            reasons.append(Reason(_captured_text(side, aces[side], figures[side], points, from_cards), Rule.CAPTURED))
        changes[last] += _LAST_TRICK
        reasons.append(
            Reason(msg("%(side)s: last trick: %(points)s", side=side_name(last), points=_LAST_TRICK), Rule.LAST_TRICK)
        )
        reasons.append(Reason(_eleven_text(sum(meld.points for meld, _ in melds)), Rule.ELEVEN))
        new = state.evolve(points=added(state.points, changes))
        standing = self.result(new)
        if standing.over:
            reasons.append(Reason(standing.headline, Rule.END))
        elif min(new.points) >= self.target(new):
            reasons.append(Reason(msg("both sides have %(points)s: play another hand", points=new.points[0]), Rule.END))
        return HandResult(new, changes, reasons, standing.winner)

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: TresetteState, called: bool = False) -> Result:
        target, (first, second) = self.target(state), state.points
        if max(first, second) < target:
            return Result(False, None, lead_or_level(state.points, game_to=target))
        if first != second:  # at or past the target, the higher total wins
            leader = 0 if first > second else 1
            return Result(True, leader, wins(leader, state.points, "game"))
        if state.options["equal_at_target"] == Equal.DRAW:
            return Result(
                True, None, msg("Draw: both sides reach %(target)s with %(points)s", target=target, points=first)
            )
        return Result(False, None, msg("Level at %(points)s, past %(target)s: play on", points=first, target=target))

    def board(self, state: TresetteState) -> Board:
        lines = (
            msg("First to %(target)s", target=self.target(state)),
            msg("Every hand: %(points)s from cards and last trick, plus melds", points=_HAND_POINTS),
        )
        turn = (("Deals", state.dealer), ("Leads", state.table.next_seat(state.dealer)))
        return dataclasses.replace(super().board(state), lines=lines, turn=turn)

    statistics = (Statistic("hands_won", "Hands won", _hands_won),)

    def example_hand(self, state: TresetteState, rng) -> dict:
        record: dict = {"last_trick": rng.randrange(2)}
        if rng.random() < 0.3:
            deck = list(_COUNTING_CARDS) + [rank + suit for suit in _SUITS for rank in "4567" if rng.random() < 0.5]
            rng.shuffle(deck)
            cut = rng.randint(0, len(deck))
            record["cards"] = [deck[:cut], deck[cut:]]
        else:
            aces, figures = rng.randint(0, _ACES), rng.randint(0, _FIGURES)
            record.update(aces=[aces, _ACES - aces], figures=[figures, _FIGURES - figures])
        melds = _example_melds(rng)
        if melds:
            record["melds"] = melds
        return record


def _captured(record: Mapping) -> tuple[list[int], list[int], bool]:
    """Each side's aces and figures, and whether the app counted them from the cards."""
    cards = record.get("cards")
    if cards is None:
        return list(record["aces"]), list(record["figures"]), False
    counts = [count_cards(pile) for pile in cards]
    return [aces for aces, _ in counts], [figures for _, figures in counts], True


def _captured_text(side: int, aces: int, figures: int, points: int, from_cards: bool) -> Text:
    lost = figures % _FIGURES_PER_POINT
    values = {
        "side": side_name(side),
        "aces": counted(aces, "%(num)s ace", "%(num)s aces"),
        "threes": figures // _FIGURES_PER_POINT,
        "figures": counted(figures, "%(num)s figure", "%(num)s figures"),
        "points": points,
    }
    if lost and from_cards:
        return msg(
            "%(side)s: %(aces)s + %(threes)s for %(figures)s (%(lost)s lost) = %(points)s, counted from the cards",
            lost=lost,
            **values,
        )
    if lost:
        return msg("%(side)s: %(aces)s + %(threes)s for %(figures)s (%(lost)s lost) = %(points)s", lost=lost, **values)
    if from_cards:
        return msg("%(side)s: %(aces)s + %(threes)s for %(figures)s = %(points)s, counted from the cards", **values)
    return msg("%(side)s: %(aces)s + %(threes)s for %(figures)s = %(points)s", **values)


def _eleven_text(meld_points: int) -> Text:
    if meld_points:
        return msg(
            "cards and last trick: %(points)s in all, as every hand; melds %(melds)s more",
            points=_HAND_POINTS,
            melds=meld_points,
        )
    return msg("cards and last trick: %(points)s in all, as every hand", points=_HAND_POINTS)


def _held_melds(record: Mapping) -> list[tuple[Meld, int]]:
    """The melds a record names, in the order of MELDS, each with the side that held it."""
    named = record.get("melds") or {}
    return [(meld, named[meld.name]) for meld in MELDS if named.get(meld.name) is not None]


def _check_counting_cards(cards: list[list[str]]) -> None:
    """Ruling 13: every ace, 2, 3 and face card once over the two piles (twice is refused by the type)."""
    taken = {card for pile in cards for card in pile}
    missing = [card for card in _COUNTING_CARDS if card not in taken]
    if missing:
        message = counted(
            len(missing),
            "Cards taken must include every ace, 2, 3, king, queen and jack once; %(cards)s is missing.",
            "Cards taken must include every ace, 2, 3, king, queen and jack once; %(cards)s are missing.",
            cards=joined(missing, " "),
        )
        raise RecordError(message, "cards")


def _check_melds(melds: list[tuple[Meld, int]]) -> None:
    """Ruling 10: one rank meld per rank, and no more cards of a rank than the deck's four."""
    held = {meld.name: side for meld, side in melds}
    for word, rank in _MELD_RANKS.items():
        if f"four_{word}" in held and f"three_{word}" in held:
            message = msg(
                "Melds: %(four)s and %(three)s cannot both be held "
                "(there are only four, and a player with four declares four).",
                four=_MELD_BY_NAME[f"four_{word}"].said,
                three=_MELD_BY_NAME[f"three_{word}"].said,
            )
            raise RecordError(message, f"melds.three_{word}")
        needs = [_need(melds, side, rank) for side in (0, 1)]
        if sum(needs) > _ACES:
            message = msg(
                "Melds: these need %(cards)s (%(side0)s %(need0)s, %(side1)s %(need1)s), and the deck has only four.",
                cards=_rank_cards(rank, sum(needs)),
                side0=side_name(0),
                need0=needs[0],
                side1=side_name(1),
                need1=needs[1],
            )
            raise RecordError(message, "melds")


def _rank_cards(rank: str, number: int) -> Text:
    """A number of cards of a meld rank: "5 aces", "6 twos", "5 threes"."""
    if rank == "A":
        return counted(number, "%(num)s ace", "%(num)s aces")
    if rank == "2":
        return counted(number, "%(num)s two", "%(num)s twos")
    return counted(number, "%(num)s three", "%(num)s threes")


def _need(melds: list[tuple[Meld, int]], side: int, rank: str) -> int:
    """The cards of `rank` a side's melds take: its four or three, or one per napoli, whichever is more.

    A napoli may share its card with a three or four of a kind ("three aces and a nap", S4:175)."""
    own = [meld for meld, owner in melds if owner == side]
    of_a_kind = max((meld.count for meld in own if meld.rank == rank), default=0)
    return max(of_a_kind, sum(meld.napoli for meld in own))


def _example_melds(rng) -> dict:
    """A few melds that fit the deck: most hands have none."""
    melds: dict = {}
    for meld in rng.sample(MELDS, rng.choice((0, 0, 0, 1, 2))):
        trial = {**melds, meld.name: rng.randrange(2)}
        try:
            _check_melds([(_MELD_BY_NAME[name], side) for name, side in trial.items()])
        except RecordError:
            continue
        melds = trial
    return melds


GAME = Tresette()
