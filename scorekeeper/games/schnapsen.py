"""Schnapsen: two players, 20 cards, hands scored in victory points; first to 7 wins (RULES.md 1.4).

What the table records is what it can count at the end of a hand (S3:176): how the hand ended,
each side's hand score (card points in its tricks plus the marriages that counted), its tricks,
and, if the stock was closed, the other side's figures at that moment. Cards: A 11, T 10, K 4,
Q 3, J 2 (S3:178-182), 120 in all; a marriage is 20, in trumps 40 (S3:164).

Scoring, RULES.md 1.4.5 and the outcome table 1.4.6; exactly one side scores per hand:
- Going out right: the declarer has 66 or more and scores by the opponent's hand score: 1 if it
  is 33 or more, 2 at 32 or less (schneider), 3 if the opponent took no trick (schwarz)
  (S3:184-188; SC-Q6 an opponent past 66 changes nothing; SC-Q7 33 -> 1, 32 -> 2).
- Going out wrong (65 or less): the opponent scores 2, or 3 without a trick of its own (S3:190).
- Every card played with the stock open and nobody out: the last trick's winner scores 1 (S3:192;
  SC-Q8 an exhausted stock makes nobody a closer).
- Stock closed: the closer who goes out right scores 1/2/3 by the non-closer's tally at the
  close (S3:194); `close_tally` says whether that tally is the hand score (default, SC-Q2) or the
  card points only. If instead the closer never goes out, goes out wrong or the non-closer goes
  out first, the non-closer scores 2, or 3 when it had no trick; `fail_three_measured_at` says
  when that is judged, at the close (default, SC-Q1) or at the end. SC-Q3: the closer's wrong
  claim is such a failure. SC-Q4: a wrong claim by the non-closer gives the closer 2, or 3 if the
  closer has no trick.
- The first side to `target` (7) victory points or more wins the game; the count is kept as
  recorded past the target (S3:198, SC-Q10). The deal alternates every hand (S3:198).

The hand form's counter (pure functions below): `card_points` adds up the cards a side won, and
`hand_score` adds the marriages that count under `marriage_credit`: only when the melder wins a
trick after showing it (S3:164, default), or once the melder has any trick (pagat, SC-Q5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ._race import Race, each_side, wins
from .base import (
    LOST,
    CardCounter,
    Extra,
    Field,
    HandResult,
    Reason,
    RecordError,
    RecordForm,
    Result,
    State,
    Text,
    added,
    msg,
    on_option,
    only,
    parse_card,
    side_name,
    verbatim,
)
from .reference import DENEXA, OWN, REVOKE, HouseRule, Reference, Source, Term, by_number
from .statistics import Statistic, hands_scored

_SIDES = 2
_TARGET = 7  # S3:198
_GOING_OUT = 66  # S3:176, S3:184
_SCHNEIDER_BELOW = 33  # S3:186-187: 33 or more is 1 VP, 32 or less is 2 (SC-Q7)
_PLAIN_WIN, _SCHNEIDER, _SCHWARZ = 1, 2, 3  # S3:186-188
_PLAYED_OUT_VP = 1  # S3:192
_TRICKS_IN_HAND = 10  # 20 cards, two to a trick
_HAND_SIZE = 5  # after a close each hand's five cards are played out (S3:168)
_LAST_CLOSE_TRICK = 4  # the stock runs dry after 5 tricks, so a close comes after at most 4
_CARD_POINTS_IN_DECK = 120
_MARRIAGES_MAX = 100  # all four marriages: 40 + 3 x 20
_PLAIN_MARRIAGE, _ROYAL_MARRIAGE = 20, 40  # S3:164
_MAX_SCORE = _CARD_POINTS_IN_DECK + _MARRIAGES_MAX

CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}  # S3:178-182
_SUITS = "SHDC"


class Ending(StrEnum):
    OUT = "out"
    PLAYED_OUT = "played_out"


class FailMeasure(StrEnum):
    """When a failed close checks whether the non-closer had a trick (SC-Q1)."""

    CLOSE = "close"
    END = "end"


class CloseTally(StrEnum):
    """What a successful close measures the non-closer by (SC-Q2)."""

    POINTS = "points"
    CARDS_ONLY = "cards_only"


class MarriageCredit(StrEnum):
    """When a shown marriage starts to count for its melder (SC-Q5)."""

    NEXT_TRICK = "next_trick"
    ANY_TRICK = "any_trick"


class Rule(StrEnum):
    """Section ids of templates/rules/schnapsen.html that the reason lines link to."""

    GOING_OUT = "going-out"
    FALSE_CLAIM = "false-claim"
    PLAYED_OUT = "played-out"
    CLOSING = "closing"
    FAILED_CLOSE = "failed-close"
    CLOSED_FALSE_CLAIM = "false-claim-after-close"
    GAME_END = "game-end"
    CALLED = "quick-form"


# -- the hand form's counter --------------------------------------------------------------------


@dataclass(frozen=True)
class Marriage:
    """One marriage a player showed: in trumps (40) or not (20), and whether a trick followed."""

    royal: bool = False
    trick_after: bool = True  # the melder won a trick after showing it

    @property
    def points(self) -> int:
        return _ROYAL_MARRIAGE if self.royal else _PLAIN_MARRIAGE


def card_points(cards: Any) -> int:
    """The card points in a pile such as ["AS", "10H", "KC"] (or "AS TH KC"); RecordError otherwise."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, Iterable) or isinstance(cards, (bytes, Mapping)):
        raise RecordError(msg("Cards must be a list of card codes such as AS, TH or KC."), "cards")
    codes = [_schnapsen_card(card) for card in cards]
    if len(set(codes)) != len(codes):
        raise RecordError(msg("Cards: a card appears twice (the pack has one of each)."), "cards")
    return sum(CARD_POINTS[code[0]] for code in codes)


def _schnapsen_card(card: Any) -> str:
    code = parse_card(card)
    if code is None or code[0] not in CARD_POINTS:
        raise RecordError(
            msg("Cards: %(card)s is not in the Schnapsen pack (A, T, K, Q, J of S H D C).", card=verbatim(repr(card))),
            "cards",
        )
    return code


def hand_score(
    points_in_cards: int, marriages: Iterable[Marriage] = (), credit: str = MarriageCredit.NEXT_TRICK
) -> int:
    """A side's hand score: its card points plus the marriages that count under `credit`.

    Every card is worth at least 2, so a side has a trick exactly when it has card points."""
    if type(points_in_cards) is not int or not 0 <= points_in_cards <= _CARD_POINTS_IN_DECK:
        raise RecordError(
            msg("Card points must be a whole number from 0 to %(most)s.", most=_CARD_POINTS_IN_DECK), "points"
        )
    try:
        credit = MarriageCredit(credit)
    except ValueError:
        raise RecordError(msg("Marriage credit must be next trick or any trick."), "marriage_credit") from None
    marriages = tuple(marriages)
    _check_marriages(points_in_cards, marriages)
    if not points_in_cards:
        return 0
    counted = marriages if credit is MarriageCredit.ANY_TRICK else [m for m in marriages if m.trick_after]
    return points_in_cards + sum(marriage.points for marriage in counted)


def _check_marriages(points_in_cards: int, marriages: tuple[Marriage, ...]) -> None:
    if not all(isinstance(marriage, Marriage) for marriage in marriages):
        raise RecordError(
            msg("Marriages: each must say whether it was in trumps and whether a trick was won after it."), "marriages"
        )
    if len(marriages) > len(_SUITS) or sum(marriage.royal for marriage in marriages) > 1:
        raise RecordError(msg("Marriages: at most four, one per suit, and only one in trumps."), "marriages")
    if not points_in_cards and any(marriage.trick_after for marriage in marriages):
        raise RecordError(msg("Marriages: a trick won after a marriage would bring card points."), "marriages")


def _count_pile(cards: list[str], extras: Mapping[str, int], options: Mapping) -> dict[str, int]:
    """The hand form's counter for one side: its points and tricks from the cards it won."""
    if len(cards) % 2:
        raise RecordError(
            msg("The counter: a side wins cards two at a time (one trick), so the count must be even."), "points"
        )
    marriages = [Marriage()] * extras.get("m20", 0) + [Marriage(royal=True)] * extras.get("m40", 0)
    credit = options.get("marriage_credit", MarriageCredit.NEXT_TRICK)
    return {"points": hand_score(card_points(cards), marriages, credit), "tricks": len(cards) // 2}


_COUNTER = CardCounter(
    name="count",
    title="Count the cards",
    help="Tap the cards each side won; leave its points and tricks empty and they are counted for you. "
    "A marriage counts once its player has won a trick after showing it (or any trick, by house rule).",
    cards=tuple(rank + suit for suit in _SUITS for rank in CARD_POINTS),
    points={rank + suit: value for suit in _SUITS for rank, value in CARD_POINTS.items()},
    fills=("points", "tricks"),
    count=_count_pile,
    extras=(
        Extra("m20", "Marriages, 20 each", _PLAIN_MARRIAGE, most=3),
        Extra("m40", "Marriage in trumps, 40", _ROYAL_MARRIAGE),
    ),
    before="points",
)


# -- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SchnapsenState(State):
    """Victory points so far, one per side."""

    vp: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class _Award:
    """Who scores a hand, how many victory points, and the reason line saying why."""

    side: int
    vp: int
    text: Text
    rule: Rule


def _other(side: int) -> int:
    return 1 - side


def _scale(opponent_score: int, opponent_has_trick: bool) -> int:
    """Victory points for going out by what the opponent has (S3:186-188): 3 is schwarz, 2 schneider."""
    if not opponent_has_trick:
        return _SCHWARZ
    if opponent_score >= _SCHNEIDER_BELOW:
        return _PLAIN_WIN
    return _SCHNEIDER


_AT_CLOSE_POINTS = Field(
    "points", "int", "The other side's hand score when the stock was closed.", min=0, max=_MAX_SCORE
)
_AT_CLOSE_TRICKS = Field(
    "tricks", "int", "Tricks the other side had taken when the stock was closed.", min=0, max=_TRICKS_IN_HAND
)
_AT_CLOSE_MARRIAGES = Field(
    "marriages",
    "int",
    "With close tally 'cards only': the marriage points inside those points.",
    default=0,
    min=0,
    max=_MARRIAGES_MAX,
    when=on_option("close_tally", "cards_only"),
)
_AT_CLOSE_HELP = "The figures of the side that did not close, at the moment of closing."
_AT_CLOSE = Field(
    "at_close",
    "group",
    _AT_CLOSE_HELP,
    fields=(_AT_CLOSE_POINTS, _AT_CLOSE_TRICKS, _AT_CLOSE_MARRIAGES),
    when=("closed_by", (0, 1)),
)


class Schnapsen(Race):
    key = "schnapsen"
    name = "Schnapsen"
    min_players = 2
    max_players = 2
    partnerships = False
    unit = "victory points"
    listed = 3
    rules = Rule
    state_class = SchnapsenState
    totals = "vp"
    options = (
        Field("target", "int", "Victory points that win the game.", default=_TARGET, min=1, max=100),
        Field.choice(
            "fail_three_measured_at",
            "A failed close gives 3 when the non-closer had no trick: judged at the close or at the end.",
            FailMeasure,
            default=FailMeasure.CLOSE,
            label="Failed close: no trick counted at",
        ),
        Field.choice(
            "close_tally",
            "A successful close is scored by the non-closer's points at the close, or its card points only.",
            CloseTally,
            default=CloseTally.POINTS,
        ),
        Field.choice(
            "marriage_credit",
            "A marriage counts once its melder wins a trick after showing it, or once the melder has any trick.",
            MarriageCredit,
            default=MarriageCredit.NEXT_TRICK,
        ),
    )
    hand_fields = (
        Field("winner", "side", "The side that won the hand, as the table calls it.", ask="Who won the hand?"),
        Field(
            "victory_points",
            "choice",
            "Victory points the hand is worth: 1, 2 (schneider) or 3 (schwarz).",
            choices=(_PLAIN_WIN, _SCHNEIDER, _SCHWARZ),
            label="Worth",
            preset=_PLAIN_WIN,
        ),
        Field.choice(
            "ending", "How the hand ended: a player went out (declared 66), or every card was played.", Ending
        ),
        Field("declarer", "side", "The side that went out.", when=("ending", (Ending.OUT.value,))),
        Field("last_trick", "side", "The side that took the last trick.", when=("ending", (Ending.PLAYED_OUT.value,))),
        Field(
            "points",
            "per_side",
            "Each side's hand score: card points won plus marriages that counted.",
            min=0,
            max=_MAX_SCORE,
        ),
        Field("tricks", "per_side", "Tricks each side took.", min=0, max=_TRICKS_IN_HAND),
        Field(
            "closed_by",
            "side",
            "The side that closed the stock, if anyone did.",
            default=None,
            nullable=True,
            ask="Who closed the stock?",
        ),
        _AT_CLOSE,
    )
    record_forms = (
        RecordForm("quick", ("winner", "victory_points"), "who won and what it was worth"),
        RecordForm(
            "counted",
            ("ending", "declarer", "last_trick", "points", "tricks", "closed_by", "at_close"),
            "the counted hand (ending, points, tricks)",
        ),
    )
    calculators = (_COUNTER,)

    reference = Reference(
        names=("Schnapser", "Snapszer"),
        line=msg("Austrian two-player game of the 20-card pack: reach 66 in a hand, 7 victory points in a game."),
        sources=(
            Source("Schnapsen", DENEXA),
            Source(
                msg("pagat.com's Schnapsen rules"),
                msg("how a close is measured, and the any-trick marriage"),
                standard=True,
            ),
            Source(msg("Published Austrian Schnapsen rules"), REVOKE, standard=True),
            OWN,
        ),
        house_rules={
            "target": HouseRule(
                "game-end",
                counted=by_number("the game goes to %(num)d victory point", "the game goes to %(num)d victory points"),
            ),
            "fail_three_measured_at": HouseRule(
                "failed-close",
                says={
                    "close": msg("a failed close gives 3 when the other player had no trick at the moment of closing"),
                    "end": msg("a failed close gives 3 only when the other player had no trick at the end of the hand"),
                },
            ),
            "close_tally": HouseRule(
                "closing",
                says={
                    "points": msg("a good close is paid by the other player's points at the close, marriages included"),
                    "cards_only": msg("a good close is paid by the card points the other player had won by then"),
                },
            ),
            "marriage_credit": HouseRule(
                "hand-score",
                says={
                    "next_trick": msg("a marriage counts once its owner wins a trick after showing it"),
                    "any_trick": msg("a marriage counts as soon as its owner has any trick"),
                },
            ),
        },
        terms=(
            Term(
                "schneider",
                "going-out",
                msg("An opponent held to 32 points or fewer: the hand is worth 2 victory points."),
            ),
            Term(
                "schwarz", "going-out", msg("An opponent without a single trick: the hand is worth 3 victory points.")
            ),
            Term("Bummerl", "game-end", msg('A game of Schnapsen, to 7 victory points; the loser "gets a Bummerl".')),
            Term("marriage", "hand-score", msg("King and queen of one suit shown together: 20, or 40 in trumps.")),
            Term("royal marriage", "hand-score", msg("A marriage in trumps: 40.")),
            Term("sixty-six", "going-out", msg("The hand score that lets a player declare and end the hand.")),
            Term("talon", "closing", msg("The stock. Closing it ends drawing, and the closer must then reach 66.")),
            Term("victory point", "glance", msg("Schnapsen's score: 1, 2 or 3 a hand, 7 win the game.")),
        ),
    )

    # -- validation -------------------------------------------------------------------------
    def validate(self, state: SchnapsenState, record: dict) -> None:
        if "winner" in record:
            return  # the quick form: taken as the table called it
        self._check_tricks(record)
        self._check_points(record)
        self._check_ender(record)
        if self.value(record, "closed_by") is not None:
            self._check_at_close(record)

    def _check_tricks(self, record: dict) -> None:
        total = sum(record["tricks"])
        closed = self.value(record, "closed_by") is not None
        played_out = record["ending"] == Ending.PLAYED_OUT
        if total > _TRICKS_IN_HAND:
            raise RecordError(
                msg("Tricks must add up to at most %(most)s: a hand has only %(most)s.", most=_TRICKS_IN_HAND), "tricks"
            )
        if played_out and not closed and total != _TRICKS_IN_HAND:
            message = msg(
                "Tricks must add up to %(total)s when every card was played with the stock open.", total=_TRICKS_IN_HAND
            )
            raise RecordError(message, "tricks")
        if closed and total > _LAST_CLOSE_TRICK + _HAND_SIZE:
            message = msg(
                "Tricks must add up to at most %(most)s in a closed hand: the stock can only be closed "
                "before the fifth trick.",
                most=_LAST_CLOSE_TRICK + _HAND_SIZE,
            )
            raise RecordError(message, "tricks")

    def _check_points(self, record: dict) -> None:
        points, tricks = record["points"], record["tricks"]
        if sum(points) > _MAX_SCORE:
            message = msg(
                "Points must add up to at most %(most)s: %(cards)s in the cards plus at most %(marriages)s "
                "in marriages.",
                most=_MAX_SCORE,
                cards=_CARD_POINTS_IN_DECK,
                marriages=_MARRIAGES_MAX,
            )
            raise RecordError(message, "points")
        for side in range(_SIDES):
            if points[side] and not tricks[side]:
                message = msg(
                    "Points of %(side)s must be 0: a side with no trick has no cards, and no marriage counts.",
                    side=side_name(side),
                )
                raise RecordError(message, "points")

    def _check_ender(self, record: dict) -> None:
        tricks = record["tricks"]
        declarer, last = self.value(record, "declarer"), self.value(record, "last_trick")
        if declarer is not None and not tricks[declarer]:
            message = msg(
                "Declarer %(side)s has no trick: a player can only go out just after winning one.",
                side=side_name(declarer),
            )
            raise RecordError(message, "declarer")
        if last is not None and not tricks[last]:
            message = msg(
                "Last trick: %(side)s is recorded with no tricks, so it cannot have taken the last one.",
                side=side_name(last),
            )
            raise RecordError(message, "last_trick")

    def _check_at_close(self, record: dict) -> None:
        closer = record["closed_by"]
        other = _other(closer)
        at_close = record["at_close"]
        name = side_name(other)
        final = {"points": record["points"][other], "tricks": record["tricks"][other]}
        for figure in ("points", "tricks"):
            if at_close[figure] > final[figure]:
                values = {"at_close": at_close[figure], "side": name, "final": final[figure]}
                if figure == "points":
                    message = msg(
                        "At close points (%(at_close)s) cannot be more than %(side)s's points at the end "
                        "of the hand (%(final)s).",
                        **values,
                    )
                else:
                    message = msg(
                        "At close tricks (%(at_close)s) cannot be more than %(side)s's tricks at the end "
                        "of the hand (%(final)s).",
                        **values,
                    )
                raise RecordError(message, f"at_close.{figure}")
        self._check_close_tricks(record, at_close["tricks"], name)
        if at_close["points"] and not at_close["tricks"]:
            message = msg(
                "At close points must be 0: %(side)s had no trick at the close, so nothing counted yet.", side=name
            )
            raise RecordError(message, "at_close.points")
        marriages = at_close.get("marriages", 0)
        if marriages % _PLAIN_MARRIAGE:
            raise RecordError(
                msg("At close marriages must be a sum of marriages: 20 each, 40 in trumps."), "at_close.marriages"
            )
        if marriages > at_close["points"]:
            message = msg(
                "At close marriages (%(marriages)s) cannot be more than the points at the close (%(points)s).",
                marriages=marriages,
                points=at_close["points"],
            )
            raise RecordError(message, "at_close.marriages")

    def _check_close_tricks(self, record: dict, before: int, name: str) -> None:
        """A close comes after at most 4 tricks, and then each player has five cards to play."""
        if before > _LAST_CLOSE_TRICK:
            message = msg(
                "At close tricks must be at most %(most)s: the stock is gone after the fifth trick.",
                most=_LAST_CLOSE_TRICK,
            )
            raise RecordError(message, "at_close.tricks")
        other = _other(record["closed_by"])
        if record["tricks"][other] - before > _HAND_SIZE:
            message = msg(
                "Tricks: %(side)s can take at most %(most)s tricks after the close, one per card in hand.",
                side=name,
                most=_HAND_SIZE,
            )
            raise RecordError(message, "tricks")
        if record["ending"] == Ending.PLAYED_OUT and sum(record["tricks"]) < before + _HAND_SIZE:
            message = msg(
                "Tricks must add up to at least %(least)s: after the close all five cards of each hand were "
                "played, on top of the %(before)s %(side)s already had.",
                least=before + _HAND_SIZE,
                before=before,
                side=name,
            )
            raise RecordError(message, "tricks")

    # -- scoring ----------------------------------------------------------------------------
    def score_hand(self, state: SchnapsenState, record: Mapping) -> HandResult:
        award = self._award(state, record)
        changes = only(award.side, award.vp, _SIDES)
        new = state.evolve(vp=added(state.vp, changes))
        reasons = [Reason(award.text, award.rule)]
        game_winner = self.reached(new)
        if game_winner is not None:
            text = msg(
                "%(side)s wins the game with %(vp)s (game to %(target)s)",
                side=side_name(game_winner),
                vp=new.vp[game_winner],
                target=self.target(state),
            )
            reasons.append(Reason(text, Rule.GAME_END))
        return HandResult(new, changes, reasons, game_winner)

    def _award(self, state: SchnapsenState, record: Mapping) -> _Award:
        if "winner" in record:
            side, vp = record["winner"], record["victory_points"]
            return _Award(
                side, vp, msg("%(side)s +%(vp)s, as the table called it", side=side_name(side), vp=vp), Rule.CALLED
            )
        closer = self.value(record, "closed_by")
        if closer is not None:
            return self._closed_award(state, record, closer)
        if record["ending"] == Ending.PLAYED_OUT:
            last = record["last_trick"]
            text = msg(
                "every card played, nobody went out; %(side)s took the last trick: +%(vp)s",
                side=side_name(last),
                vp=_PLAYED_OUT_VP,
            )
            return _Award(last, _PLAYED_OUT_VP, text, Rule.PLAYED_OUT)
        declarer = record["declarer"]
        if record["points"][declarer] >= _GOING_OUT:
            return self._going_out(record, declarer)
        return self._false_claim(record, declarer, Rule.FALSE_CLAIM)

    def _going_out(self, record: Mapping, declarer: int) -> _Award:
        """S3:184-188: the declarer is paid by what the opponent has at the end."""
        other = _other(declarer)
        has_trick = record["tricks"][other] > 0
        vp = _scale(record["points"][other], has_trick)
        values = {
            "side": side_name(declarer),
            "points": record["points"][declarer],
            "other": side_name(other),
            "had": record["points"][other],
            "vp": vp,
        }
        if vp == _SCHWARZ:
            text = msg("%(side)s went out with %(points)s, %(other)s took no trick (schwarz): +%(vp)s", **values)
        elif vp == _SCHNEIDER:
            text = msg("%(side)s went out with %(points)s, %(other)s had %(had)s (schneider): +%(vp)s", **values)
        else:
            text = msg("%(side)s went out with %(points)s, %(other)s had %(had)s: +%(vp)s", **values)
        return _Award(declarer, vp, text, Rule.GOING_OUT)

    def _false_claim(self, record: Mapping, declarer: int, rule: Rule, closer: int | None = None) -> _Award:
        """S3:190 (and SC-Q4 after `closer` closed): the opponent scores 2, or 3 with no trick of its own."""
        other = _other(declarer)
        no_trick = not record["tricks"][other]
        vp = _SCHWARZ if no_trick else _SCHNEIDER
        values = {
            "side": side_name(declarer),
            "points": record["points"][declarer],
            "other": side_name(other),
            "vp": vp,
        }
        if closer is None and no_trick:
            text = msg(
                "%(side)s claimed with %(points)s (false claim), %(other)s took no trick: %(other)s +%(vp)s", **values
            )
        elif closer is None:
            text = msg("%(side)s claimed with %(points)s (false claim): %(other)s +%(vp)s", **values)
        elif no_trick:
            text = msg(
                "%(side)s claimed with %(points)s (false claim) after %(closer)s closed, %(other)s took no "
                "trick: %(other)s +%(vp)s",
                closer=side_name(closer),
                **values,
            )
        else:
            text = msg(
                "%(side)s claimed with %(points)s (false claim) after %(closer)s closed: %(other)s +%(vp)s",
                closer=side_name(closer),
                **values,
            )
        return _Award(other, vp, text, rule)

    def _closed_award(self, state: SchnapsenState, record: Mapping, closer: int) -> _Award:
        """RULES.md 1.4.5, closed stock: the closer goes out right, or the non-closer scores."""
        declarer = self.value(record, "declarer")
        out_right = declarer is not None and record["points"][declarer] >= _GOING_OUT
        if declarer == closer and out_right:
            return self._close_success(state, record, closer)
        if declarer == _other(closer) and not out_right:
            return self._false_claim(record, declarer, Rule.CLOSED_FALSE_CLAIM, closer)
        return self._close_failure(state, record, closer)

    def _close_success(self, state: SchnapsenState, record: Mapping, closer: int) -> _Award:
        """S3:194: paid by the non-closer's tally at the moment of the close (SC-Q2)."""
        at_close = record["at_close"]
        tally = at_close["points"]
        had: Text | int = tally
        if _close_tally(state) is CloseTally.CARDS_ONLY:
            tally -= at_close.get("marriages", 0)
            # Translators: Schnapsen: card points without the marriages ("had 25 in cards")
            had = msg("%(tally)s in cards", tally=tally)
        has_trick = at_close["tricks"] > 0
        vp = _scale(tally, has_trick)
        values = {
            "side": side_name(closer),
            "points": record["points"][closer],
            "other": side_name(_other(closer)),
            "had": had,
            "vp": vp,
        }
        if vp == _SCHWARZ:
            text = msg(
                "%(side)s closed and went out with %(points)s, %(other)s had no trick at the close (schwarz): +%(vp)s",
                **values,
            )
        elif vp == _SCHNEIDER:
            text = msg(
                "%(side)s closed and went out with %(points)s, %(other)s had %(had)s at the close (schneider): +%(vp)s",
                **values,
            )
        else:
            text = msg(
                "%(side)s closed and went out with %(points)s, %(other)s had %(had)s at the close: +%(vp)s", **values
            )
        return _Award(closer, vp, text, Rule.CLOSING)

    def _close_failure(self, state: SchnapsenState, record: Mapping, closer: int) -> _Award:
        """S3:194 (SC-Q1, SC-Q3, SC-Q9): the non-closer scores 2, or 3 if it had no trick."""
        other = _other(closer)
        at_close = _fail_measure(state) is FailMeasure.CLOSE
        no_trick = record["at_close"]["tricks"] == 0 if at_close else record["tricks"][other] == 0
        vp = _SCHWARZ if no_trick else _SCHNEIDER
        values = {
            "side": side_name(closer),
            "failure": self._failure(record, closer),
            "other": side_name(other),
            "vp": vp,
        }
        if no_trick and at_close:
            text = msg(
                "%(side)s closed and failed (%(failure)s), %(other)s had no trick at the close: %(other)s +%(vp)s",
                **values,
            )
        elif no_trick:
            text = msg("%(side)s closed and failed (%(failure)s), %(other)s had no trick: %(other)s +%(vp)s", **values)
        else:
            text = msg("%(side)s closed and failed (%(failure)s): %(other)s +%(vp)s", **values)
        return _Award(other, vp, text, Rule.FAILED_CLOSE)

    def _failure(self, record: Mapping, closer: int) -> Text:
        declarer = self.value(record, "declarer")
        if declarer is None:
            # Translators: Schnapsen: how a closer failed ("A closed and failed (never went out)")
            return msg("never went out")
        if declarer == closer:
            return msg("claimed with %(points)s", points=record["points"][closer])
        return msg(
            "%(side)s went out first with %(points)s", side=side_name(declarer), points=record["points"][declarer]
        )

    # -- standing ---------------------------------------------------------------------------
    def result(self, state: SchnapsenState, called: bool = False) -> Result:
        winner = self.reached(state)
        if winner is not None:
            return Result(True, winner, wins(winner, state.vp, "game"))
        return Result(False, None, each_side(state.vp, self.target(state)))

    # A match is one game to `target`: its loser takes a Bummerl. Exactly one side scores a hand.
    statistics = (
        Statistic("victory_points", "Victory points won", lambda done, side: done.state.vp[side]),
        Statistic("bummerl_lost", "Bummerl lost", lambda done, side: int(done.result.outcome(side) == LOST)),
        Statistic("hands_won", "Hands won", hands_scored),
    )

    def example_hand(self, state: SchnapsenState, rng) -> dict:
        return {"winner": rng.randrange(_SIDES), "victory_points": rng.choice((_PLAIN_WIN, _SCHNEIDER, _SCHWARZ))}

    def public_state(self, state: SchnapsenState) -> dict:
        target = self.target(state)
        return {"target": target, "to_go": [max(0, target - vp) for vp in state.vp]}


def _close_tally(state: State) -> CloseTally:
    return CloseTally(state.options["close_tally"])


def _fail_measure(state: State) -> FailMeasure:
    return FailMeasure(state.options["fail_three_measured_at"])


GAME = Schnapsen()
