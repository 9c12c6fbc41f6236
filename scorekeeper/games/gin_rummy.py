"""Gin Rummy: two players, hands scored by deadwood, first to 100 wins (api/counting.md `gin_rummy`).

The seed gives only the target and the card values (S2:104-106): 100 points wins; in deadwood
J Q K count 10, A 1, the rest their pips. Everything else is standard published Gin Rummy, not
from the seed, and each bonus is an option (rulings 13-16):
- knock: the knocker (deadwood 1..10) scores the difference when lower than the defender's
  deadwood; equal or higher is an undercut and the defender scores the difference plus
  `undercut_bonus`;
- gin: the knocker (deadwood 0) scores the defender's deadwood plus `gin_bonus`; never undercut;
- draw: nothing, and the same dealer deals again.
The player who scores wins the hand: a box. The first whose hand points reach `target` wins; then
the winner adds `game_bonus` and each player `box_bonus` per box, into the last hand's changes.
A shutout (the loser won no hand) doubles the game bonus or the winner's points, as `shutout` says.

Oklahoma Gin (standard published rules, Bicycle's and pagat.com's; not the seed, not the
contract): with the option `oklahoma` (off by default) a hand records `spade_upcard` (optional,
default false; refused while the option is off), and a hand whose first upcard was a spade counts
double: whatever it scores (a knock, an undercut, a gin, bonuses included) is doubled before it is
added; a draw still scores nothing. Nothing else of Oklahoma Gin changes the scoring here (the
knock limit set by the upcard is the table's to keep: any knock is still 10 or less).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ._race import Race, each_side
from .base import Board, Field, HandResult, Reason, RecordError, Result, State, counted, msg, on_option, side_name
from .reference import BOOK, GAME_POINTS, HouseRule, Reference, Source, Term
from .sheet import SheetColumn
from .statistics import Statistic

_TARGET = 100  # S2:104
_KNOCK_LIMIT = 10  # standard: a knock needs 10 or less (ruling 13)
_MOST_DEADWOOD = 98  # ten unmatched cards: K K Q Q J J T T 9 9 (ruling 16)
_SPADE_FACTOR = 2  # Oklahoma Gin: a hand whose first upcard is a spade counts double


class Outcome(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    DRAW = "draw"


class Shutout(StrEnum):
    """What a shutout (the loser won no hand) doubles (ruling 15)."""

    DOUBLE_GAME_BONUS = "double_game_bonus"
    DOUBLE_POINTS = "double_points"
    NONE = "none"


class Rule(StrEnum):
    """Section ids of templates/rules/gin_rummy.html that the reason lines link to."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    DRAW = "draw"
    END = "game-end"
    BONUSES = "bonuses"
    SHUTOUT = "shutout"
    OKLAHOMA = "oklahoma"


_LAYS_DOWN = (Outcome.KNOCK.value, Outcome.GIN.value)  # the outcomes with a knocker and deadwood


@dataclass(frozen=True)
class GinRummyState(State):
    """Hand points (toward the target), hands won (boxes) and the end-of-game bonuses, per player."""

    points: tuple[int, int] = (0, 0)
    boxes: tuple[int, int] = (0, 0)
    bonuses: tuple[int, int] = (0, 0)


def _bonus_option(name: str, help_text: str, default: int, most: int) -> Field:
    return Field(name, "int", help_text, default=default, min=0, max=most)


class GinRummy(Race):
    key = "gin_rummy"
    name = "Gin Rummy"
    min_players = 2
    max_players = 2
    partnerships = False
    unit = "points"
    rules = Rule
    state_class = GinRummyState
    options = (
        Field("target", "int", "Hand points that win the game.", default=_TARGET, min=10, max=1000),
        _bonus_option("gin_bonus", "Bonus for going gin, on top of the defender's deadwood.", 25, 100),
        _bonus_option("undercut_bonus", "Bonus to a defender who undercuts the knocker.", 25, 100),
        _bonus_option("game_bonus", "Bonus to the player who wins the game.", 100, 1000),
        _bonus_option("box_bonus", "Bonus at the end for every hand a player won (line bonus).", 25, 100),
        Field.choice(
            "shutout",
            "When the loser won no hand: the winner's game bonus counts twice, the winner's "
            "hand points count twice, or nothing more.",
            Shutout,
            default=Shutout.DOUBLE_GAME_BONUS,
            choice_labels={Shutout.NONE: "Nothing doubled"},
        ),
        Field(
            "oklahoma",
            "bool",
            "Oklahoma Gin: a hand whose first upcard is a spade counts double; each hand says whether it was.",
            default=False,
            label="Oklahoma: a spade upcard doubles the hand",
        ),
    )
    hand_fields = (
        Field.choice(
            "outcome",
            "How the hand ended: a knock, a gin, or a draw (the stock ran down to two cards).",
            Outcome,
            ask="How did the hand end?",
        ),
        Field(
            "knocker",
            "side",
            "The player who laid down.",
            when=("outcome", _LAYS_DOWN),
            ask="Who laid down?",
            asked_with="outcome",
        ),
        Field(
            "deadwood",
            "per_side",
            "Each player's unmatched count at the end (the defender's after laying off).",
            min=0,
            max=_MOST_DEADWOOD,
            when=("outcome", _LAYS_DOWN),
        ),
        Field(
            "spade_upcard",
            "bool",
            "The first upcard was a spade, so this hand counts double (Oklahoma Gin).",
            default=False,
            when=on_option("oklahoma", True),
            label="Spade upcard",
        ),
    )

    reference = Reference(
        names=("Gin",),
        line=msg("Two-player rummy: knock or go gin, undercuts and box bonuses, first to 100."),
        sources=(
            Source(BOOK, msg("the chapter on Gin Rummy, which stops after the deal, the target and the card values")),
            Source(
                msg("Standard published Gin Rummy"), msg("knocking, gin, the undercut and every bonus"), standard=True
            ),
            Source(
                msg("Oklahoma Gin as Bicycle and pagat.com publish it"),
                msg("the spade upcard that doubles a hand"),
                standard=True,
            ),
        ),
        house_rules={
            "target": HouseRule("game-end", counted=GAME_POINTS),
            # Translators: %(points)s is a number of points
            "gin_bonus": HouseRule("gin", worded=msg("a gin adds %(points)s to the defender's deadwood")),
            # Translators: %(points)s is a number of points
            "undercut_bonus": HouseRule("undercut", worded=msg("an undercut adds %(points)s for the defender")),
            # Translators: %(points)s is a number of points
            "game_bonus": HouseRule("bonuses", worded=msg("the winner of the game adds %(points)s")),
            # Translators: %(points)s is a number of points
            "box_bonus": HouseRule("bonuses", worded=msg("each hand won adds %(points)s at the end")),
            "shutout": HouseRule(
                "shutout",
                says={
                    "double_game_bonus": msg("a shutout doubles the winner's game bonus"),
                    "double_points": msg("a shutout doubles the winner's hand points"),
                    "none": msg("a shutout adds nothing"),
                },
            ),
            "oklahoma": HouseRule(
                "oklahoma",
                says={
                    True: msg("a hand whose first upcard is a spade counts double"),
                    False: msg("the first upcard changes nothing"),
                },
            ),
        },
        terms=(
            Term("knock", "knock", msg("In Gin Rummy, laying down with 10 or less deadwood.")),
            Term("gin", "gin", msg("Laying down with every card matched: the defender's deadwood plus 25.")),
            Term(
                "undercut", "undercut", msg("The defender's deadwood at or below the knocker's: the defender scores.")
            ),
            Term("deadwood", "deadwood", msg("Cards in no set or run, counted at their values.")),
            Term("box", "bonuses", msg("A hand won; each is worth 25 at the end (also called a line bonus).")),
            Term("shutout", "shutout", msg("A game in which the loser won no hand.")),
            Term(
                "lay off", "recording", msg("The defender adding cards to the knocker's melds to cut their deadwood.")
            ),
        ),
    )

    def from_form(self, state: State, record: dict) -> dict:
        """The form taps who went gin with the gin; that player's deadwood, left empty, is 0."""
        knocker, deadwood = record.get("knocker"), record.get("deadwood")
        if (
            record.get("outcome") == Outcome.GIN
            and knocker in (0, 1)
            and isinstance(deadwood, list)
            and len(deadwood) == 2
            and deadwood[knocker] is None
        ):
            deadwood = list(deadwood)
            deadwood[knocker] = 0
            return {**record, "deadwood": deadwood}
        return record

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: GinRummyState, record: dict) -> None:
        outcome = record["outcome"]
        if outcome == Outcome.DRAW:
            return
        knocker_deadwood = record["deadwood"][record["knocker"]]
        name = side_name(record["knocker"])
        if outcome == Outcome.GIN and knocker_deadwood:
            raise RecordError(
                msg("Deadwood of %(side)s must be 0: a gin leaves no unmatched card.", side=name), "deadwood"
            )
        if outcome == Outcome.KNOCK and knocker_deadwood == 0:
            raise RecordError(msg("Deadwood of %(side)s is 0: that is a gin, record it as one.", side=name), "deadwood")
        if outcome == Outcome.KNOCK and knocker_deadwood > _KNOCK_LIMIT:
            raise RecordError(
                msg("Deadwood of %(side)s must be at most %(most)s to knock.", side=name, most=_KNOCK_LIMIT), "deadwood"
            )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: GinRummyState, record: Mapping) -> HandResult:
        hand_winner, scored, reason = self._hand(state, record)
        reasons = [reason]
        if hand_winner is not None and self.value(record, "spade_upcard"):
            scored *= _SPADE_FACTOR
            text = msg(
                "%(side)s: the first upcard was a spade, so the hand counts double: +%(points)s",
                side=side_name(hand_winner),
                points=scored,
            )
            reasons.append(Reason(text, Rule.OKLAHOMA))
        changes = [0, 0]
        points, boxes = list(state.points), list(state.boxes)
        if hand_winner is not None:
            changes[hand_winner] = scored
            points[hand_winner] += scored
            boxes[hand_winner] += 1
        new = state.evolve(points=tuple(points), boxes=tuple(boxes))
        winner = self.reached(new)  # the hand points, bonuses aside (S2:104)
        if winner is not None:
            bonuses, bonus_reasons = self._end_bonuses(new, winner)
            new = new.evolve(bonuses=tuple(bonuses))
            changes = [change + bonus for change, bonus in zip(changes, bonuses)]
            reasons += bonus_reasons
        return HandResult(new, changes, reasons, winner)

    def _hand(self, state: GinRummyState, record: Mapping) -> tuple[int | None, int, Reason]:
        """Who won the hand, what it scored and why (standard Gin Rummy, ruling 13)."""
        outcome = Outcome(record["outcome"])
        if outcome is Outcome.DRAW:
            return None, 0, Reason(msg("a draw: nobody knocked before the stock ran down; nothing scores"), Rule.DRAW)
        knocker = record["knocker"]
        defender = 1 - knocker
        mine, theirs = record["deadwood"][knocker], record["deadwood"][defender]
        if outcome is Outcome.GIN:
            bonus = state.options["gin_bonus"]
            text = msg(
                "%(side)s went gin: %(deadwood)s deadwood + %(bonus)s gin bonus = +%(points)s",
                side=side_name(knocker),
                deadwood=theirs,
                bonus=bonus,
                points=theirs + bonus,
            )
            return knocker, theirs + bonus, Reason(text, Rule.GIN)
        if mine < theirs:
            text = msg(
                "%(side)s knocked with %(mine)s against %(theirs)s: +%(points)s",
                side=side_name(knocker),
                mine=mine,
                theirs=theirs,
                points=theirs - mine,
            )
            return knocker, theirs - mine, Reason(text, Rule.KNOCK)
        bonus = state.options["undercut_bonus"]
        scored = mine - theirs + bonus
        text = msg(
            "%(side)s undercut the knock (%(theirs)s against %(mine)s): %(difference)s + %(bonus)s undercut "
            "bonus = +%(points)s",
            side=side_name(defender),
            theirs=theirs,
            mine=mine,
            difference=mine - theirs,
            bonus=bonus,
            points=scored,
        )
        return defender, scored, Reason(text, Rule.UNDERCUT)

    def _end_bonuses(self, state: GinRummyState, winner: int) -> tuple[list[int], list[Reason]]:
        """Game, box and shutout bonuses once the target is reached (ruling 14, ruling 15)."""
        options, loser = state.options, 1 - winner
        reasons = [
            Reason(
                msg(
                    "%(side)s reaches %(points)s and wins the game (game to %(target)s)",
                    side=side_name(winner),
                    points=state.points[winner],
                    target=options["target"],
                ),
                Rule.END,
            )
        ]
        bonuses = [0, 0]
        game_bonus = options["game_bonus"]
        shutout = Shutout(options["shutout"]) if state.boxes[loser] == 0 else Shutout.NONE
        if shutout is Shutout.DOUBLE_GAME_BONUS:
            game_bonus *= 2
        bonuses[winner] += game_bonus
        if shutout is Shutout.DOUBLE_GAME_BONUS:
            reasons.append(
                Reason(
                    msg("%(side)s: game bonus +%(bonus)s (doubled: shutout)", side=side_name(winner), bonus=game_bonus),
                    Rule.SHUTOUT,
                )
            )
        else:
            reasons.append(
                Reason(msg("%(side)s: game bonus +%(bonus)s", side=side_name(winner), bonus=game_bonus), Rule.BONUSES)
            )
        if shutout is Shutout.DOUBLE_POINTS:
            bonuses[winner] += state.points[winner]
            reasons.append(
                Reason(
                    msg(
                        "%(side)s: shutout, hand points count twice: +%(points)s",
                        side=side_name(winner),
                        points=state.points[winner],
                    ),
                    Rule.SHUTOUT,
                )
            )
        for player in (winner, loser):
            if not state.boxes[player]:
                continue
            box_points = state.boxes[player] * options["box_bonus"]
            bonuses[player] += box_points
            # Translators: Gin Rummy, the box (line) bonus at the end: hands won times the bonus for each
            text = counted(
                state.boxes[player],
                "%(side)s: %(num)s hand won x %(bonus)s: +%(points)s",
                "%(side)s: %(num)s hands won x %(bonus)s: +%(points)s",
                side=side_name(player),
                bonus=options["box_bonus"],
                points=box_points,
            )
            reasons.append(Reason(text, Rule.BONUSES))
        return bonuses, reasons

    def next_dealer(self, before: GinRummyState, after: GinRummyState, record: Mapping) -> int:
        """After a draw the same player deals again (ruling 13); otherwise the deal alternates."""
        if record["outcome"] == Outcome.DRAW:
            return before.dealer
        return before.table.next_seat(before.dealer)

    # -- standing -----------------------------------------------------------------------------
    def result(self, state: GinRummyState, called: bool = False) -> Result:
        winner, totals = self.reached(state), self.scores(state)
        if winner is not None:
            return Result(
                True,
                winner,
                msg(
                    "%(side)s wins the game, %(top)s to %(other)s with bonuses",
                    side=side_name(winner),
                    top=totals[winner],
                    other=totals[1 - winner],
                ),
            )
        return Result(False, None, each_side(totals, self.target(state)))

    def scores(self, state: GinRummyState) -> list[int]:
        return [points + bonus for points, bonus in zip(state.points, state.bonuses)]

    def board(self, state: GinRummyState) -> Board:
        base = super().board(state)
        sides = tuple(
            dataclasses.replace(side, lines=(msg("Hands won: %(boxes)s", boxes=state.boxes[player]),))
            for player, side in enumerate(base.sides)
        )
        return dataclasses.replace(base, sides=sides, turn=(("Deals", state.dealer),))

    # The score sheet: the points, and the hands won (boxes) as the board counts them.
    sheet = (
        SheetColumn(),
        # Translators: Gin Rummy's score sheet, a column: hands won (boxes), each worth a bonus at the end
        SheetColumn(msg("Hands won"), lambda state: state.boxes),
    )
    statistics = (
        Statistic("boxes", "Hands won (boxes)", lambda done, side: done.state.boxes[side]),
        # The game won while the other player won no hand (ruling 15).
        Statistic(
            "shutouts",
            "Shutouts",
            lambda done, side: int(done.result.winner == side and done.state.boxes[1 - side] == 0),
        ),
    )

    def public_state(self, state: GinRummyState) -> dict:
        return {"points": list(state.points), "boxes": list(state.boxes)}

    def example_hand(self, state: GinRummyState, rng) -> dict:
        outcome = rng.choice(list(Outcome))
        if outcome is Outcome.DRAW:
            return {"outcome": outcome.value}
        knocker = rng.randint(0, 1)
        deadwood = [0, 0]
        deadwood[knocker] = 0 if outcome is Outcome.GIN else rng.randint(1, _KNOCK_LIMIT)
        deadwood[1 - knocker] = rng.randint(0, 60)
        return {"outcome": outcome.value, "knocker": knocker, "deadwood": deadwood}


GAME = GinRummy()
