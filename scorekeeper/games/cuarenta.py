"""Cuarenta: two players, or four in two partnerships, race to 40 points (S2:18-82,
api/counting.md `cuarenta`).

A hand is one round: one pass through the 40 cards (four deals of five with two players, two with
four: S2:73, S2:82). The table taps what scored as it was called, in order (ruling 1), then enters
each side's captured cards:
- ronda +4: three of a kind dealt to a player of the side (S2:38-40; `ronda_by: suit` only renames
  it, ruling 9);
- caida +2: the card the opponent had just played, captured by matching (S2:42-46);
- limpia +2: the pot cleared, worth nothing to a side that had 38 or more just before (S2:50,
  recorded rather than refused, ruling 2);
- caida_limpia: one play that was both, judged on the points before it: 4, or 2 from 38 up
  (ruling 3);
- ronda_capture +10: a card of the other side's declared ronda captured (S2:46, ruling 4);
- four_of_a_kind: the side wins the game at once, its points as they are (S2:36, ruling 5).
After every event a side at 40 or more wins at once and nothing may follow (S2:34). Otherwise the
card count (carton) is added at the end of the round (S2:52-53, ruling 7). The match is one game;
the deal passes to the next seat after every round (S2:31, ruling 6).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, each_side, first_to, wins
from .base import Board, Field, HandResult, Reason, RecordError, Result, State, Text, agreeing, msg, names, side_name
from .reference import BOOK, OWN, HouseRule, Reference, Source, Term
from .statistics import LEAST, Finished, Statistic

_TARGET = 40  # S2:28, S2:34
_LIMPIA_CLOSED_FROM = 38  # S2:50: no limpia at 38 or more
_DECK = 40  # 8s, 9s and 10s removed (S2:31)
_CARTON_CARDS = 20  # S2:52
_CARTON_BASE = 6  # S2:52
_MORE_CARDS_POINTS = 2  # S2:53
_MOST_RONDAS = 4  # one per player per deal: four deals with two players, two players a side with four
_MOST_PLAYS = 20  # a side plays 20 cards a round (ruling 8)
_PLAYER_COUNTS = (2, 4)  # S2:80-82
# The longest record the limits allow: 4 rondas and 20 plays a side, then at most one four of a kind.
_MOST_EVENTS = 2 * (_MOST_RONDAS + _MOST_PLAYS) + 1


class Event(StrEnum):
    RONDA = "ronda"
    CAIDA = "caida"
    LIMPIA = "limpia"
    CAIDA_LIMPIA = "caida_limpia"
    RONDA_CAPTURE = "ronda_capture"
    FOUR_OF_A_KIND = "four_of_a_kind"


_POINTS = {Event.RONDA: 4, Event.CAIDA: 2, Event.LIMPIA: 2, Event.CAIDA_LIMPIA: 4, Event.RONDA_CAPTURE: 10}
_PLAYS = (Event.CAIDA, Event.LIMPIA, Event.CAIDA_LIMPIA, Event.RONDA_CAPTURE)  # each one card played


class CartonRule(StrEnum):
    """How the card count pays a side with 20 cards or more (S2:52; ruling 7)."""

    SEED = "seed"  # 6, plus 1 for every two cards past 20
    ECUADOR = "ecuador"  # 6, plus 1 for every card past 20, an odd total raised to even


class RondaBy(StrEnum):
    RANK = "rank"
    SUIT = "suit"  # the seed's literal wording, S2:38


class Rule(StrEnum):
    """Section ids of templates/rules/cuarenta.html that the reason lines link to."""

    RONDA = "ronda"
    CAIDA = "caida"
    LIMPIA = "limpia"
    CAIDA_LIMPIA = "caida-limpia"
    RONDA_CAPTURE = "ronda-capture"
    FOUR_OF_A_KIND = "four-of-a-kind"
    CARTON = "carton"
    END = "end"


_RULE_OF = {
    Event.RONDA: Rule.RONDA,
    Event.CAIDA: Rule.CAIDA,
    Event.LIMPIA: Rule.LIMPIA,
    Event.CAIDA_LIMPIA: Rule.CAIDA_LIMPIA,
    Event.RONDA_CAPTURE: Rule.RONDA_CAPTURE,
    Event.FOUR_OF_A_KIND: Rule.FOUR_OF_A_KIND,
}


@dataclass(frozen=True)
class CuarentaState(State):
    """Points per side, and the side that won the game (at 40, or by four of a kind)."""

    points: tuple[int, int] = (0, 0)
    winner: int | None = None


@dataclass(frozen=True)
class _Scored:
    """One event applied: what it scored and the line saying so."""

    points: int
    text: Text


def event_points(event: str, before: int) -> _Scored:
    """What one event is worth to a side that had `before` points just before it (S2:38-50)."""
    kind = Event(event)
    if kind is Event.FOUR_OF_A_KIND:
        # Translators: Cuarenta, a reason line after a side's name ("A: four of a kind dealt...")
        return _Scored(0, msg("four of a kind dealt: wins the game at once"))
    if kind is Event.LIMPIA and before >= _LIMPIA_CLOSED_FROM:
        return _Scored(
            0,
            msg(
                "limpia at %(before)s: nothing, no limpia counts from %(closed)s",
                before=before,
                closed=_LIMPIA_CLOSED_FROM,
            ),
        )
    if kind is Event.CAIDA_LIMPIA and before >= _LIMPIA_CLOSED_FROM:
        points = _POINTS[Event.CAIDA]
        return _Scored(
            points, msg("caída and limpia at %(before)s: +%(points)s for the caída only", before=before, points=points)
        )
    points = _POINTS[kind]
    return _Scored(points, _scored_text(kind, points))


def _scored_text(kind: Event, points: int) -> Text:
    """ "ronda: +4", "caída and limpia: +4"...: an event that scored in full."""
    # Translators: Cuarenta, a reason line after a side's name ("A: ronda: +4"); ronda, caída and
    # limpia are the game's own words
    if kind is Event.RONDA:
        return msg("ronda: +%(points)s", points=points)
    if kind is Event.CAIDA:
        return msg("caída: +%(points)s", points=points)
    if kind is Event.LIMPIA:
        return msg("limpia: +%(points)s", points=points)
    if kind is Event.CAIDA_LIMPIA:
        return msg("caída and limpia: +%(points)s", points=points)
    return msg("ronda captured: +%(points)s", points=points)


def carton_points(cards: int, rule: str = CartonRule.SEED) -> int:
    """What a side alone at 20 cards or more scores for them (S2:52; ecuador: ruling 7)."""
    if cards < _CARTON_CARDS:
        return 0
    past = cards - _CARTON_CARDS
    if CartonRule(rule) is CartonRule.SEED:
        return _CARTON_BASE + past // 2
    points = _CARTON_BASE + past
    return points + points % 2


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _fewest_rounds(done: Finished, side: int) -> int | None:
    """The rounds the side took to win the game; None for the side that lost it."""
    return len(done.hands) if done.result.winner == side else None


def _four_of_a_kind(done: Finished, side: int) -> int:
    """1 when the side won the game by four of a kind: the only win below 40, as it adds nothing and
    any earlier event that reached 40 would have ended the game first."""
    return int(done.result.winner == side and done.state.points[side] < _TARGET)


class Cuarenta(Race):
    key = "cuarenta"
    name = "Cuarenta"
    min_players = 2
    max_players = 4
    partnerships = True
    unit = "points"
    hand_word, hand_words = "round", "rounds"  # RULES.md 2.4: one pass through the 40 cards
    rules = Rule
    state_class = CuarentaState
    options = (
        Field.choice(
            "carton_rule",
            "The card count for 20 cards or more: 6 plus 1 for every two more (seed), "
            "or 6 plus 1 for every card more, raised to an even number (ecuador).",
            CartonRule,
            default=CartonRule.SEED,
            label="Carton rule",
        ),
        Field.choice(
            "ronda_by",
            "What makes a ronda: three cards of one rank, or of one suit. "
            "It changes no score, only what the form calls a ronda.",
            RondaBy,
            default=RondaBy.RANK,
            label="Ronda is three of a",
        ),
    )
    hand_fields = (
        Field.choice(
            "events",
            "What scored in the round, in the order it happened: a ronda, a caída, a limpia, a caída "
            "limpia (one play that was both), a ronda capture (a card of the other side's ronda taken: 10), "
            "or four of a kind (wins at once).",
            Event,
            type="events",
            default=[],
            max=_MOST_EVENTS,
            label="What scored",
            choice_labels={Event.CAIDA: "Caída", Event.CAIDA_LIMPIA: "Caída limpia"},
        ),
        Field(
            "cards",
            "per_side",
            "Cards each side captured in the round (at most 40 in all); left out when the "
            "game was won during the round.",
            default=None,
            nullable=True,
            min=0,
            max=_DECK,
            label="Cards captured",
        ),
    )
    asked_first = ("cards",)  # the counts stay put however many events the round lists below them

    reference = Reference(
        names=("Forty",),
        line=msg("Ecuador's fishing game with a 40-card pack: caídas, limpias and rondas, first side to 40."),
        sources=(
            Source(BOOK, msg("the chapter on Cuarenta (two and four players)")),
            Source(
                msg("Other published Cuarenta descriptions"),
                msg("a ronda of three of a rank; the Ecuadorian card count"),
                standard=True,
            ),
            OWN,
        ),
        house_rules={
            "carton_rule": HouseRule(
                "carton",
                says={
                    "seed": msg("the card count gives 6 for 20 cards and 1 more for every two cards above"),
                    "ecuador": msg(
                        "the card count gives 6 for 20 cards and 1 more for every card above, rounded up to even"
                    ),
                },
                labels={"seed": msg("One for every two cards")},
            ),
            "ronda_by": HouseRule(
                "ronda",
                says={
                    "rank": msg("a ronda is three cards of one rank"),
                    "suit": msg("a ronda is three cards of one suit"),
                },
            ),
        },
        terms=(
            Term("caída", "caida", msg("Catching the card just played by your opponent with one of the same rank: 2.")),
            Term("limpia", "limpia", msg("Clearing the table of cards: 2, but nothing from 38 up.")),
            Term("ronda", "ronda", msg("Three cards of one rank dealt to one player: 4.")),
            Term(
                "cartón",
                "carton",
                msg("The count of captured cards at the end of a round: 6 for 20 cards, more above."),
            ),
            Term("caída limpia", "caida-limpia", msg("A caída that also clears the table: 4.")),
        ),
    )

    def check_players(self, players: int) -> None:
        if players not in _PLAYER_COUNTS:
            raise RecordError(msg("Cuarenta is played by 2 players, or 4 in two partnerships: not 3."), "players")

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: CuarentaState, record: dict) -> None:
        events = self.value(record, "events")
        _check_limits(events)
        _check_ronda_captures(events)
        ended_at = self._run(state, events).ended_at
        if ended_at is not None and ended_at < len(events):
            message = msg(
                "What scored, entry %(entry)s: nothing can follow entry %(won_at)s, which won the game.",
                entry=ended_at + 1,
                won_at=ended_at,
            )
            raise RecordError(message, "events")
        self._check_cards(self.value(record, "cards"), won=ended_at is not None)

    @staticmethod
    def _check_cards(cards: list[int] | None, won: bool) -> None:
        if won and cards is not None:
            raise RecordError(
                msg(
                    "Cards captured must be left out: the game was won during the round, so the cards are not counted."
                ),
                "cards",
            )
        if not won and cards is None:
            raise RecordError(msg("Cards captured must be given: the round was played to its end."), "cards")
        if cards is not None and sum(cards) > _DECK:
            raise RecordError(
                msg("Cards captured add up to %(total)s: there are only %(deck)s cards.", total=sum(cards), deck=_DECK),
                "cards",
            )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: CuarentaState, record: Mapping) -> HandResult:
        run = self._run(state, self.value(record, "events"))
        points, reasons, winner = list(run.points), list(run.reasons), run.winner
        if winner is None:
            carton = self._carton(state, record["cards"])
            for side, (scored, text) in carton.items():
                points[side] += scored
                reasons.append(Reason(text, Rule.CARTON))
            winner = first_to(points, _TARGET)
        if winner is not None:
            reasons.append(Reason(self._win_text(winner, points, run), Rule.END))
        changes = [after - before for after, before in zip(points, state.points)]
        new = state.evolve(points=tuple(points), winner=winner)
        return HandResult(new, changes, reasons, winner)

    @staticmethod
    def _win_text(winner: int, points: Sequence[int], run: _Run) -> Text:
        if run.by_four:
            return agreeing(winner, "%(side)s wins the game: four of a kind", "%(side)s win the game: four of a kind")
        return agreeing(
            winner,
            "%(side)s reaches %(points)s and wins the game",
            "%(side)s reach %(points)s and win the game",
            points=points[winner],
        )

    def _run(self, state: CuarentaState, events: Sequence[Mapping]) -> _Run:
        """The events applied in order from the points before the round, up to a win (S2:34)."""
        points, reasons = list(state.points), []
        for position, event in enumerate(events):
            side = event["side"]
            scored = event_points(event["type"], points[side])
            points[side] += scored.points
            # Translators: Cuarenta, a reason line: a side, then what it scored ("A: caída: +2")
            text = msg("%(side)s: %(scored)s", side=side_name(side), scored=scored.text)
            reasons.append(Reason(text, _RULE_OF[Event(event["type"])]))
            if event["type"] == Event.FOUR_OF_A_KIND:
                return _Run(tuple(points), reasons, side, position + 1, by_four=True)
            if points[side] >= _TARGET:
                return _Run(tuple(points), reasons, side, position + 1)
        return _Run(tuple(points), reasons)

    def _carton(self, state: CuarentaState, cards: list[int]) -> dict[int, tuple[int, Text]]:
        """The card count at the end of the round (S2:52-53, ruling 7): who scores, how much, why."""
        rule = state.options["carton_rule"]
        rich = [side for side in (0, 1) if cards[side] >= _CARTON_CARDS]
        counts = {"first": cards[0], "second": cards[1]}
        if len(rich) == 1:
            side = rich[0]
            scored = carton_points(cards[side], rule)
            return {
                side: (
                    scored,
                    msg(
                        "%(side)s: %(cards)s cards, carton +%(points)s",
                        side=side_name(side),
                        cards=cards[side],
                        points=scored,
                    ),
                )
            }
        if len(rich) == 2:
            side = state.table.other(state.table.side_of(state.dealer))
            return {
                side: (
                    _CARTON_BASE,
                    msg(
                        "%(first)s cards to %(second)s: %(side)s did not deal, carton +%(points)s",
                        side=side_name(side),
                        points=_CARTON_BASE,
                        **counts,
                    ),
                )
            }
        if cards[0] == cards[1]:
            return {
                0: (
                    0,
                    msg("%(first)s cards to %(second)s: nobody has 20 or more, equal counts score nothing", **counts),
                )
            }
        side = 0 if cards[0] > cards[1] else 1
        return {
            side: (
                _MORE_CARDS_POINTS,
                agreeing(
                    side,
                    "%(first)s cards to %(second)s: nobody has 20, %(side)s has more, +%(points)s",
                    "%(first)s cards to %(second)s: nobody has 20, %(side)s have more, +%(points)s",
                    points=_MORE_CARDS_POINTS,
                    **counts,
                ),
            )
        }

    # -- standing -----------------------------------------------------------------------------
    def result(self, state: CuarentaState, called: bool = False) -> Result:
        if state.winner is not None:  # at 40, or by four of a kind: kept, as the points alone cannot say
            return Result(True, state.winner, wins(state.winner, state.points))
        return Result(False, None, each_side(state.points, _TARGET))

    def target(self, state: State) -> int:
        return _TARGET

    def board(self, state: CuarentaState) -> Board:
        ronda = (
            msg("Ronda: three of a rank")
            if state.options["ronda_by"] == RondaBy.RANK
            else msg("Ronda: three of a suit")
        )
        over = state.winner is not None
        closed = [side for side, is_open in enumerate(_limpia_open(state)) if not is_open and not over]
        lines = [ronda] + ([msg("No limpia for %(sides)s (38 or more)", sides=names(closed))] if closed else [])
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=(("Deals", state.dealer),))

    statistics = (
        Statistic("fewest_rounds", "Fewest rounds to win", _fewest_rounds, keep=LEAST),
        Statistic("four_of_a_kind", "Games won by four of a kind", _four_of_a_kind),
    )

    def public_state(self, state: CuarentaState) -> dict:
        return {"limpia_open": _limpia_open(state)}

    def example_hand(self, state: CuarentaState, rng) -> dict:
        events: list[dict] = []
        for _ in range(rng.randint(0, 4)):
            kind = rng.choice([Event.RONDA, Event.CAIDA, Event.LIMPIA, Event.CAIDA_LIMPIA])
            events.append({"side": rng.randint(0, 1), "type": kind.value})
        rondas = [event["side"] for event in events if event["type"] == Event.RONDA]
        if rondas and rng.random() < 0.3:
            events.append({"side": 1 - rondas[0], "type": Event.RONDA_CAPTURE.value})
        if rng.random() < 0.03:
            events.append({"side": rng.randint(0, 1), "type": Event.FOUR_OF_A_KIND.value})
        ended_at = self._run(state, events).ended_at
        if ended_at is not None:
            return {"events": events[:ended_at]}
        first = rng.randint(0, _DECK)
        return {"events": events, "cards": [first, rng.randint(0, _DECK - first)]}


@dataclass(frozen=True)
class _Run:
    """The events of a round applied: points after them, reasons, and where the game was won."""

    points: tuple[int, int]
    reasons: list[Reason]
    winner: int | None = None
    ended_at: int | None = None  # how many events it took to win
    by_four: bool = False


def _check_limits(events: Sequence[Mapping]) -> None:
    """Ruling 8: four rondas and twenty scoring plays a side per round."""
    rondas = Counter(event["side"] for event in events if event["type"] == Event.RONDA)
    plays = Counter(event["side"] for event in events if event["type"] in _PLAYS)
    for side in (0, 1):
        if rondas[side] > _MOST_RONDAS:
            raise RecordError(
                agreeing(
                    side,
                    "What scored: %(side)s has %(rondas)s rondas; a side can declare at most %(most)s in a round.",
                    "What scored: %(side)s have %(rondas)s rondas; a side can declare at most %(most)s in a round.",
                    rondas=rondas[side],
                    most=_MOST_RONDAS,
                ),
                "events",
            )
        if plays[side] > _MOST_PLAYS:
            raise RecordError(
                agreeing(
                    side,
                    "What scored: %(side)s has %(plays)s scoring plays; a side plays only %(most)s cards in a round.",
                    "What scored: %(side)s have %(plays)s scoring plays; a side plays only %(most)s cards in a round.",
                    plays=plays[side],
                    most=_MOST_PLAYS,
                ),
                "events",
            )


def _check_ronda_captures(events: Sequence[Mapping]) -> None:
    """Ruling 4: each capture needs a ronda of the other side listed earlier and not yet captured."""
    open_rondas = [0, 0]
    for position, event in enumerate(events, start=1):
        side = event["side"]
        if event["type"] == Event.RONDA:
            open_rondas[side] += 1
        elif event["type"] == Event.RONDA_CAPTURE:
            other = 1 - side
            if not open_rondas[other]:
                raise RecordError(
                    msg(
                        "What scored, entry %(entry)s: a ronda capture needs a ronda of %(side)s listed "
                        "before it in this round, not captured yet.",
                        entry=position,
                        side=side_name(other),
                    ),
                    "events",
                )
            open_rondas[other] -= 1


def _limpia_open(state: CuarentaState) -> list[bool]:
    return [points < _LIMPIA_CLOSED_FROM for points in state.points]


GAME = Cuarenta()
