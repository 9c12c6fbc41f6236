"""Chicago: two to four players draw to poker hands, then play five tricks; first to 52 (RULES.md
2.10, seed S3:293-361, api/tally.md `chicago`).

A hand scores at three moments: the best poker hand at the first and at the second showdown
(S3:315-339), the last trick, worth 5 (S3:349), and the best hand left on the table after the tricks
(S3:349). A best hand scores by its category, royal flush 52 down to one pair 1 (S3:323-331); equal
best hands score nothing (S3:333), and so does a showdown where everybody passed (ruling 8). The
table names the best hand and its category, or enters the hands shown (a passing player's as null)
and the app ranks them with `poker` (ruling 9).

Once a player still in has 52 or more after a hand, the highest score among the players still in
wins (S3:357), even when a royal flush reached 52 mid-hand (ruling 10); equal highest scores play on
or share the win (`tie_at_end`). From 46 points a player may not draw (S3:355): shown, not enforced
(ruling 13).

A player who declared a hand that could not be shown forfeits (S3:361): the record is the forfeit
alone and the hand scores nothing (ruling 11). Under `forfeit_rule: ends_game` the match ends and the
best of the others wins, equal best sharing the win; under `player_out` the player leaves (keeps the
score, cannot win, is skipped by the deal and cannot be named again) and the others play on (ruling 12).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from . import poker
from ._race import Race, TieAtEnd, best_wins, end_reasons, holders, leading, tie_at_end_option
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    SideBoard,
    State,
    Text,
    added,
    counted,
    declared,
    msg,
    names,
    side_name,
)
from .poker import Category
from .reference import DENEXA, OWN, HouseRule, Reference, Source, Term
from .statistics import MOST, Finished, Statistic

_MIN_PLAYERS, _MAX_PLAYERS = 2, 4  # S3:295, ruling 7
_GAME = 52  # S3:301, S3:357
_NO_DRAW = 46  # S3:355
_LAST_TRICK = 5  # S3:349
_POINTS = {  # S3:323-331; high card scores nothing (ruling 8)
    Category.ROYAL_FLUSH: 52,
    Category.STRAIGHT_FLUSH: 8,
    Category.FOUR_OF_A_KIND: 7,
    Category.FULL_HOUSE: 6,
    Category.FLUSH: 5,
    Category.STRAIGHT: 4,
    Category.THREE_OF_A_KIND: 3,
    Category.TWO_PAIR: 2,
    Category.ONE_PAIR: 1,
    Category.HIGH_CARD: 0,
}
_SHOWDOWNS = ("first_showdown", "second_showdown", "final_hand")
_DECK = tuple(rank + suit for rank in "AKQJT98765432" for suit in "SHDC")


class ForfeitRule(StrEnum):
    ENDS_GAME = "ends_game"
    PLAYER_OUT = "player_out"


class Rule(StrEnum):
    """Section ids of templates/rules/chicago.html that the reason lines link to."""

    POINTS = "points"
    SHOWDOWNS = "showdowns"
    LAST_TRICK = "last-trick"
    FINAL_HAND = "final-hand"
    END = "end"
    TIES = "ties"
    NO_DRAW = "no-draw"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class ChicagoState(State):
    points: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # under player_out: who left, in the order they left
    forfeited: int | None = None  # under ends_game: the player whose forfeit ended the match


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _royal_flushes(done: Finished, side: int) -> int:
    """Royal flushes the player scored with: 52 each, and a hand without one scores at most 29 (three
    straight flushes at 8 and the last trick's 5), so a hand's 52s are its royal flushes."""
    royal = _POINTS[Category.ROYAL_FLUSH]
    return sum(hand.changes[side] // royal for hand in done.hands if hand.changes[side] > 0)


def _forfeits(done: Finished, side: int) -> int:
    """1 when the player forfeited the match (a declared hand that could not be shown), else 0."""
    return int(side == done.state.forfeited or side in done.state.out)


def hand_points(category: Category) -> int:
    return _POINTS[category]


def _showdown(name: str, label: str, moment: str) -> Field:
    """A showdown (or the final hands): the best hand and its category, or the hands shown."""
    return Field(
        name,
        "group",
        f"{moment}; empty if nobody scored.",
        default=None,
        nullable=True,
        label=label,
        fields=(
            Field(
                "best_hand",
                "side",
                "The player with the single best hand; empty if all passed or the best tied.",
                default=None,
                nullable=True,
                label="Best hand",
            ),
            Field(
                "poker_hand",
                "choice",
                "The best hand's category.",
                default=None,
                nullable=True,
                choices=poker.CATEGORY_KEYS,
                when=("best_hand", tuple(range(_MAX_PLAYERS))),
                label="Poker hand",
                preset=Category.ONE_PAIR.key,
                menu=True,
            ),
            Field(
                "cards",
                "cards",
                "Instead: each player's five cards, empty for a player who passed; the app finds the best.",
                default=None,
                nullable=True,
                null_hands=True,
                label="Cards",
                rare=True,
            ),
        ),
    )


@dataclass(frozen=True)
class _Best:
    """What a showdown scored: the side and its category, or nobody (with why)."""

    side: int | None
    category: Category | None
    text: Text


class Chicago(Race):
    key = "chicago"
    name = "Chicago"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    partnerships = False
    rules = Rule
    state_class = ChicagoState
    options = (
        tie_at_end_option(TieAtEnd.PLAY_ON, "Equal highest scores at the end: play another hand, or share the win."),
        Field.choice(
            "forfeit_rule",
            "A false declaration: the match ends and the best of the others wins, "
            "or that player leaves and the others play on.",
            ForfeitRule,
            default=ForfeitRule.ENDS_GAME,
            label="Forfeit rule",
        ),
    )
    hand_fields = (
        _showdown("first_showdown", "First showdown", "After the first draw"),
        _showdown("second_showdown", "Second showdown", "After the second draw"),
        _showdown("final_hand", "Final hand", "After the tricks"),
        Field(
            "last_trick", "side", "Who took the fifth trick: +5.", label="Last trick", ask="Who took the last trick?"
        ),
        Field(
            "forfeit",
            "side",
            "Instead of a played hand: the player who declared a hand that could not be shown.",
            label="Forfeit",
            ask="Who forfeits?",
        ),
    )
    record_forms = (
        RecordForm("played", (*_SHOWDOWNS, "last_trick"), "the showdowns and the last trick"),
        RecordForm("forfeit", ("forfeit",), "a forfeit"),
    )

    reference = Reference(
        line=msg("Swedish game for two to four: two poker showdowns, five tricks, first past 52."),
        sources=(
            Source("Chicago", DENEXA),
            Source(msg("Standard poker ranking"), msg("finding the best of the hands shown as cards"), standard=True),
            OWN,
        ),
        house_rules={
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "play_on": msg("equal highest scores at the end play another hand"),
                    "shared": msg("equal highest scores at the end share the win"),
                },
            ),
            "forfeit_rule": HouseRule(
                "forfeit",
                says={
                    "ends_game": msg("a forfeit ends the game and the best of the others wins"),
                    "player_out": msg("a player who forfeits leaves the game and the others play on"),
                },
            ),
        },
        terms=(
            Term("showdown", "showdowns", msg("After a draw, the best poker hand is found and scored.")),
            Term("forty-six", "no-draw", msg("A player starting a hand on 46 or more may not change cards.")),
        ),
    )

    def start(self, table, options: Mapping) -> dict:
        return {"points": table.zeros()}

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """In the order the table plays: the last trick comes before the final hands are shown."""
        fields = {fld.name: fld for fld in super().form_fields(state)}
        order = ("first_showdown", "second_showdown", "last_trick", "final_hand", "forfeit")
        return tuple(fields[name] for name in order if name in fields)

    def seats_out(self, state: ChicagoState) -> tuple[int, ...]:
        return state.out

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: ChicagoState, record: dict) -> None:
        if "forfeit" in record:
            others = [name for name in record if name != "forfeit"]
            if others:  # tally.md: the forfeit record has no other key, not even a null one
                raise RecordError(msg("A forfeit is recorded alone: leave every other field out."), others[0])
            self._check_in(state, record["forfeit"], "forfeit")
            return
        self._check_in(state, record["last_trick"], "last_trick")
        for name in _SHOWDOWNS:
            if record.get(name) is not None:
                self._check_showdown(state, name, record[name])

    def _check_showdown(self, state: ChicagoState, name: str, showdown: Mapping) -> None:
        best, category, cards = (showdown.get(key) for key in ("best_hand", "poker_hand", "cards"))
        if cards is not None and (best is not None or category is not None):
            raise RecordError(
                msg("Give a showdown either the best hand and its category or the cards, not both."), f"{name}.cards"
            )
        if best is not None:
            if category is None:
                raise RecordError(
                    msg("%(field)s must be given: the category of the best hand.", field=declared("Poker hand")),
                    f"{name}.poker_hand",
                )
            self._check_in(state, best, f"{name}.best_hand")
        for side, hand in enumerate(cards or ()):
            if hand is not None and side in state.out:
                raise RecordError(
                    msg("%(side)s is out of the game: leave that hand empty.", side=side_name(side)), f"{name}.cards"
                )

    @staticmethod
    def _check_in(state: ChicagoState, side: int, field: str) -> None:
        if side in state.out:
            raise RecordError(msg("%(side)s is out of the game and cannot be named.", side=side_name(side)), field)

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: ChicagoState, record: Mapping) -> HandResult:
        if "forfeit" in record:
            return self._forfeit(state, record["forfeit"])
        changes = [0] * state.table.sides
        reasons = []
        for name, title, rule in (
            ("first_showdown", "First showdown", Rule.SHOWDOWNS),
            ("second_showdown", "Second showdown", Rule.SHOWDOWNS),
            ("final_hand", "Final hand", Rule.FINAL_HAND),
        ):
            if record.get(name) is None:
                continue  # left out: nothing to say
            best = _best_hand(record[name])
            if best.side is not None:
                changes[best.side] += hand_points(best.category)
            # Translators: Chicago, a hand's reason: a showdown's name, then who scored it.
            reasons.append(Reason(msg("%(showdown)s: %(best)s", showdown=declared(title), best=best.text), rule))
        changes[record["last_trick"]] += _LAST_TRICK
        reasons.append(
            Reason(
                msg("Last trick: %(side)s +%(points)s", side=side_name(record["last_trick"]), points=_LAST_TRICK),
                Rule.LAST_TRICK,
            )
        )
        after = state.evolve(points=added(state.points, changes))
        return HandResult(after, changes, reasons + self._end_reasons(after, Rule.END))

    def _forfeit(self, state: ChicagoState, side: int) -> HandResult:
        if state.options["forfeit_rule"] == ForfeitRule.ENDS_GAME:
            after = state.evolve(forfeited=side)
            text = msg(
                "%(side)s forfeits: a declared hand could not be shown; the hand scores nothing", side=side_name(side)
            )
        else:
            after = state.evolve(out=(*state.out, side))
            text = msg(
                "%(side)s forfeits: a declared hand could not be shown; the hand scores nothing, "
                "and %(side)s leaves the game",
                side=side_name(side),
            )
        reasons = [Reason(text, Rule.FORFEIT)] + self._end_reasons(after, Rule.FORFEIT)
        return HandResult(after, [0] * state.table.sides, reasons)

    def _end_reasons(self, state: ChicagoState, rule: Rule) -> list[Reason]:
        """How the hand ended the match, or why a tie on 52 or more plays on."""
        standing = self.result(state)
        if standing.over and rule is Rule.FORFEIT:
            return [Reason(standing.headline, Rule.FORFEIT)]
        if standing.over or self.reached(state) is not None:
            return end_reasons(standing, Rule.END, Rule.TIES)
        return []

    # -- reading ------------------------------------------------------------------------------
    def _in_play(self, state: ChicagoState) -> list[int]:
        return [side for side in range(state.table.sides) if side not in state.out]

    def target(self, state: State) -> int:
        return _GAME

    def reached(self, state: ChicagoState) -> int | None:
        """A player who left keeps the score but cannot end the match (ruling 12)."""
        return next((side for side in self._in_play(state) if state.points[side] >= _GAME), None)

    def result(self, state: ChicagoState, called: bool = False) -> Result:
        if state.forfeited is not None:
            return self._after_forfeit(state)
        in_play = self._in_play(state)
        out = state.out
        if len(in_play) == 1:
            alone = in_play[0]
            return Result(
                True,
                alone,
                msg("%(side)s wins: the only player left in", side=side_name(alone)),
                winners=(alone,),
                out=out,
            )
        highest = holders(state.points, max, among=in_play)
        high = _points(state.points[highest[0]])
        if self.reached(state) is not None:  # S3:357: the highest score wins
            return best_wins(highest, state.options, high, out=out)
        if not state.hands:
            return Result(False, None, _first_to(), out=out)
        return Result(False, None, leading(highest, high), out=out)

    def _after_forfeit(self, state: ChicagoState) -> Result:
        """ends_game: the best of the others wins; equal best share it, as no hand follows (ruling 12)."""
        others = [side for side in range(state.table.sides) if side != state.forfeited]
        highest = holders(state.points, max, among=others)
        high = _points(state.points[highest[0]])
        out = side_name(state.forfeited)
        if len(highest) == 1:
            return Result(
                True,
                highest[0],
                msg("%(side)s wins with %(score)s: %(out)s forfeited", side=side_name(highest[0]), score=high, out=out),
                winners=highest,
            )
        return Result(
            True,
            None,
            msg("%(who)s share the win on %(score)s: %(out)s forfeited", who=names(highest), score=high, out=out),
            winners=highest,
        )

    def no_draw(self, state: ChicagoState) -> list[int]:
        """Players still in with 46 or more: they may not draw in the next hand (S3:355)."""
        return [side for side in self._in_play(state) if state.points[side] >= _NO_DRAW]

    def board(self, state: ChicagoState) -> Board:
        no_draw = [] if self.result(state).over else self.no_draw(state)  # no next hand to draw in
        sides = tuple(
            SideBoard(score, self.unit, _GAME, flag=self._flag(state, side, no_draw))
            for side, score in enumerate(state.points)
        )
        lines = [_first_to()]
        if no_draw:
            lines.append(msg("No drawing next hand: %(who)s", who=names(no_draw)))
        return dataclasses.replace(
            super().board(state), sides=sides, lines=tuple(lines), turn=(("Deals", state.dealer),)
        )

    statistics = (
        Statistic("final_score", "Highest final score", lambda done, side: done.state.points[side], keep=MOST),
        Statistic("royal_flushes", "Royal flushes", _royal_flushes),
        Statistic("forfeits", "Forfeits", _forfeits),
    )

    @staticmethod
    def _flag(state: ChicagoState, side: int, no_draw: list[int]) -> Text | None:
        if side in state.out:
            # Translators: Chicago, a player's flag on the scoreboard: the player left the game.
            return msg("Out")
        if side == state.forfeited:
            # Translators: Chicago, a player's flag on the scoreboard: the player's forfeit ended the match.
            return msg("Forfeited")
        if side in no_draw:
            # Translators: Chicago, a player's flag on the scoreboard: 46 points or more, may not draw next hand.
            return msg("No draw")
        return None

    def public_state(self, state: ChicagoState) -> dict:
        return {"no_draw": self.no_draw(state), "out": sorted(state.out), "winners": list(self.result(state).winners)}

    def example_hand(self, state: ChicagoState, rng) -> dict:
        in_play = self._in_play(state)
        if rng.random() < 0.05:
            return {"forfeit": rng.choice(in_play)}
        record = {"last_trick": rng.choice(in_play)}
        for name in _SHOWDOWNS:
            shape = rng.randrange(3)
            if shape == 1:
                best = rng.choice(in_play + [None])
                record[name] = (
                    {"best_hand": best}
                    if best is None
                    else {"best_hand": best, "poker_hand": rng.choice(poker.CATEGORY_KEYS[:-1])}
                )
            elif shape == 2:
                deck = rng.sample(_DECK, 5 * state.table.sides)
                record[name] = {
                    "cards": [
                        deck[5 * side : 5 * side + 5] if side in in_play and rng.random() < 0.8 else None
                        for side in range(state.table.sides)
                    ]
                }
        return record


def _best_hand(showdown: Mapping) -> _Best:
    """Who scores a showdown: the named best hand, or the single best of the hands shown (ruling 9)."""
    if showdown.get("cards") is not None:
        return _best_of_cards(showdown["cards"])
    side = showdown.get("best_hand")
    if side is None:
        return _Best(None, None, msg("nobody scored (all passed, or equal best hands)"))
    category = Category.from_key(showdown["poker_hand"])
    return _Best(
        side,
        category,
        counted(
            hand_points(category),
            "%(side)s, %(category)s: +%(num)s point",
            "%(side)s, %(category)s: +%(num)s points",
            side=side_name(side),
            category=category.label,
        ),
    )


def _best_of_cards(hands: list[list[str] | None]) -> _Best:
    values = {side: poker.evaluate(hand) for side, hand in enumerate(hands) if hand is not None}
    if not values:
        return _Best(None, None, msg("no hand shown: nobody scored"))
    top = max(values.values())
    best = [side for side, value in values.items() if value == top]
    if len(best) > 1:
        return _Best(
            None,
            None,
            msg(
                "%(who)s hold equal best hands (%(category)s): nobody scored",
                who=names(best),
                category=top.category.label,
            ),
        )
    side, category = best[0], top.category
    return _Best(
        side,
        category,
        counted(
            hand_points(category),
            "%(side)s has the best hand, %(category)s: +%(num)s point",
            "%(side)s has the best hand, %(category)s: +%(num)s points",
            side=side_name(side),
            category=category.label,
        ),
    )


def _points(number: int) -> Text:
    return counted(number, "%(num)s point", "%(num)s points")


def _first_to() -> Text:
    return counted(_GAME, "First to %(num)s point", "First to %(num)s points")


GAME = Chicago()
