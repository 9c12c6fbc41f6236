"""Court Piece (Rang): four players in two partnerships, scored in courts (RULES.md 1.2, S4:81-104).

Each hand ends in one of three ways, and the record says which:
- tricks: the first seven tricks were split, the hand was played to the end (S4:99) and the side
  with seven or more tricks won it. That win extends the side's streak, or starts a new one at 1
  when the other side held it (S4:100). The seventh win in a row is a court and the streak goes back
  to nothing (S4:101); so fourteen wins in a row make two courts (RULES CP-Q5).
- first_seven: one side took tricks 1-7, a court (S4:98). If it played on and took all thirteen, the
  hand is worth `all13_courts` in total: 52 by default, or 53 (RULES CP-Q2).
- revoke: a side was caught having revoked; the hand stops and the other side wins it and a court
  (S4:96).
What a court hand (first seven or revoke) does to the streak is the `court_hand_streak_policy`
option (RULES CP-Q1, CP-Q6): `reset` (default) clears it; `count_as_win` counts the hand as a win,
which can make a second court; `ignore` leaves the winners' streak alone and only breaks the
opponents' one.

The deal (S4:103, S4:96, RULES CP-Q3): when the dealer's side wins, the next seat deals; when it
loses and a court was scored, the dealer's partner deals; when it loses without a court, the same
player deals again. The player after the dealer chooses trumps (S4:90), so the winners always choose.

The session lasts for an agreed time and the table calls finish (S4:104): more courts wins, equal
courts (0-0 too) is a draw. The option `courts_to_win` ends it instead when a side reaches that many.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum

from ._race import Race, lead_or_level, wins
from .base import (
    Board,
    Field,
    HandResult,
    Reason,
    RecordError,
    Result,
    State,
    Text,
    added,
    agreeing,
    counted,
    msg,
    only,
    side_name,
)
from .reference import DENEXA, OWN, HouseRule, Reference, Source, Term, by_number
from .statistics import MOST, Finished, Statistic, longest_run, sole_scorer

_PLAYERS = 4
_TRICKS_IN_HAND = 13
_WINS_FOR_COURT = 7  # S4:101: seven hands in a row make a court
_FIRST_SEVEN_COURTS = 1  # S4:98
_REVOKE_COURTS = 1  # S4:96
_STREAK_COURTS = 1  # S4:101
_MOST_COURTS_TO_WIN = 1000  # a sanity bound for the courts_to_win option
_ALL13_CHOICES = (52, 53)  # RULES CP-Q2: 52 in total (default), or 52 on top of the first-seven court


class Outcome(Enum):
    TRICKS = "tricks"
    FIRST_SEVEN = "first_seven"
    REVOKE = "revoke"


class StreakPolicy(Enum):
    """What a court hand (first seven, revoke) does to the streak (RULES CP-Q1)."""

    RESET = "reset"
    COUNT_AS_WIN = "count_as_win"
    IGNORE = "ignore"


class Rule(StrEnum):
    """Section ids of templates/rules/court_piece.html that the reason lines link to."""

    STREAK = "streak"
    FIRST_SEVEN = "first-seven"
    ALL_THIRTEEN = "all-thirteen"
    REVOKE = "revoke"
    COURT_HANDS = "court-hands"
    END = "end"


@dataclass(frozen=True)
class Streak:
    """The one running tally of hands won in a row, by the side currently on a run (RULES CP-Q10)."""

    side: int | None = None
    count: int = 0

    def won_by(self, side: int) -> Streak:
        """The tally once `side` wins a hand: one more, or a fresh start at 1 (S4:100)."""
        return Streak(side, self.count + 1 if self.side == side else 1)

    def describe(self) -> Text:
        if self.side is None:
            # Translators: Court Piece: nobody has won a hand in a row yet
            return msg("no streak")
        return msg(
            "streak %(side)s %(count)s of %(needed)s",
            side=side_name(self.side),
            count=self.count,
            needed=_WINS_FOR_COURT,
        )


@dataclass(frozen=True)
class CourtPieceState(State):
    courts: tuple[int, ...] = (0, 0)
    streak: Streak = Streak()


def courts(number: int) -> Text:
    """ "1 court", "3 courts"."""
    return counted(number, "%(num)s court", "%(num)s courts")


# -- what the table counts over a match (the statistics, declared beside the board) -------------------


def _hand_winners(done: Finished) -> list[int]:
    """Who won each hand: the side that scored a court in it, else the side whose streak it extended
    (a hand without a court always starts or extends the winners' streak)."""
    return [sole_scorer(hand.changes) if any(hand.changes) else hand.state.streak.side for hand in done.hands]


def _longest_run(done: Finished, side: int) -> int:
    return longest_run(_hand_winners(done), side)


def _all_thirteen(done: Finished, side: int) -> int:
    """Hands in which the side took all thirteen tricks, as the table recorded them."""
    return sum(
        1
        for hand in done.hands
        if hand.record["outcome"] == Outcome.FIRST_SEVEN.value
        and hand.record.get("all_thirteen")
        and hand.record["side"] == side
    )


class CourtPiece(Race):
    key = "court_piece"
    name = "Court Piece"
    min_players = _PLAYERS
    max_players = _PLAYERS
    partnerships = True
    unit = "courts"
    listed = 1
    rules = Rule
    state_class = CourtPieceState
    totals = "courts"
    target_option = "courts_to_win"
    options = (
        Field(
            "courts_to_win",
            "int",
            "Courts that win the session; leave empty to play for an agreed time and then call finish.",
            default=None,
            min=1,
            max=_MOST_COURTS_TO_WIN,
            nullable=True,
        ),
        Field.choice(
            "court_hand_streak_policy",
            "What a first-seven or revoke court does to the streak: reset it, count as a hand won, or ignore.",
            StreakPolicy,
            default=StreakPolicy.RESET,
        ),
        Field(
            "all13_courts",
            "choice",
            "Courts for taking all thirteen tricks: 52 in total, or 53 (52 on top of the first-seven court).",
            default=_ALL13_CHOICES[0],
            choices=_ALL13_CHOICES,
            label="All-thirteen courts",
        ),
    )
    hand_fields = (
        Field.choice(
            "outcome",
            "How the hand ended: played out (tricks), one side took the first seven, or a revoke.",
            Outcome,
            ask="How did the hand end?",
            preset=Outcome.TRICKS,
        ),
        Field(
            "tricks",
            "per_side",
            "Tricks each side took, adding up to 13.",
            min=0,
            max=_TRICKS_IN_HAND,
            total=_TRICKS_IN_HAND,
            when=("outcome", (Outcome.TRICKS.value,)),
        ),
        Field(
            "side",
            "side",
            "The side that took the first seven tricks, or the side that revoked.",
            when=("outcome", (Outcome.FIRST_SEVEN.value, Outcome.REVOKE.value)),
            ask="Who gets the court?",
            # The form asks who gets the court (from_form turns a revoke's answer into the revokers).
            ask_help="The side that took the first seven tricks; after a revoke, the side that did not revoke.",
        ),
        Field(
            "all_thirteen",
            "bool",
            "The side played on after the first seven and took all thirteen tricks.",
            default=False,
            when=("outcome", (Outcome.FIRST_SEVEN.value,)),
            label="All thirteen",
            rare=True,
        ),
    )

    reference = Reference(
        names=("Rang", "Rung", "Coat Piece", "Coat Pees", "Kot Pees", "Hokm", "Seven Hands"),
        line=msg("Four-player partnership trick game from India and Pakistan, scored in courts."),
        sources=(
            Source("Court Piece (Rang)", DENEXA),
            Source(
                msg("Published Court Piece descriptions"),
                msg("the streak starting again after a court; who deals"),
                standard=True,
            ),
            OWN,
        ),
        house_rules={
            "courts_to_win": HouseRule(
                "end",
                says={None: msg("no set number of courts: the table plays for an agreed time, then presses Finish")},
                counted=by_number("the first side to %(num)d court wins", "the first side to %(num)d courts wins"),
            ),
            "court_hand_streak_policy": HouseRule(
                "court-hands",
                says={
                    "reset": msg("a first-seven or revoke court wipes out the running streak"),
                    "count_as_win": msg("a first-seven or revoke court also counts as a hand won on the streak"),
                    "ignore": msg("a first-seven or revoke court leaves the winners' own streak as it was"),
                },
            ),
            "all13_courts": HouseRule(
                "all-thirteen",
                says={
                    52: msg("all thirteen tricks are worth 52 courts in all"),
                    53: msg("all thirteen is worth 53: 52 on top of the first-seven court"),
                },
            ),
        },
        terms=(
            Term(
                "court",
                "glance",
                msg(
                    "Court Piece's only score: seven hands in a row, the first seven tricks of a "
                    "hand, or the other side's revoke."
                ),
            ),
            Term("streak", "streak", msg("The run of hands won in a row by one side; the seventh brings a court.")),
            Term(
                "revoke",
                "revoke",
                msg("Not following suit when you could. Found later in the hand, it gives the other side a court."),
            ),
            Term("bavney", "all-thirteen", msg("All thirteen tricks in one hand: 52 courts.")),
            Term(
                "trump caller",
                "dealer",
                msg("The player after the dealer, who names trumps from the first five cards."),
            ),
        ),
    )

    def from_form(self, state: State, record: dict) -> dict:
        """The form asks who gets the court; a revoke's record names the side that revoked."""
        if record.get("outcome") == Outcome.REVOKE.value and isinstance(record.get("side"), (int, str)):
            side = str(record["side"])
            if side in ("0", "1"):
                return {**record, "side": state.table.other(int(side))}
        return record

    def to_form(self, state: State, record: dict) -> dict:
        return self.from_form(state, record)  # the same swap, back again

    # -- checking -----------------------------------------------------------------------------
    def validate(self, state: State, record: dict) -> None:
        if record["outcome"] == Outcome.TRICKS.value:
            self._check_tricks(record["tricks"])

    @staticmethod
    def _check_tricks(tricks: list[int]) -> None:
        if _TRICKS_IN_HAND in tricks:
            # Taking all 13 means taking the first seven, which is a court: RULES 1.2.3.
            raise RecordError(
                msg(
                    "A side that took all 13 tricks took the first seven: record the hand as First seven, "
                    "with All thirteen ticked."
                ),
                "tricks",
            )

    # -- scoring ------------------------------------------------------------------------------
    def score_hand(self, state: CourtPieceState, record: Mapping) -> HandResult:
        outcome = Outcome(record["outcome"])
        if outcome is Outcome.TRICKS:
            winner, won = self._played_out(record["tricks"])
            streak, awarded, reasons = _streak_win(state.streak, winner, won)
        else:
            winner, awarded, reasons = self._court_hand(state, outcome, record)
            streak, extra, streak_reasons = self._streak_after_court_hand(state, winner)
            awarded += extra
            reasons += streak_reasons
        changes = only(winner, awarded, state.table.sides)
        new_state = state.evolve(courts=added(state.courts, changes), streak=streak)
        game_winner = self.reached(new_state)
        if game_winner is not None:
            target = self.target(new_state)
            reached = agreeing(
                game_winner,
                "%(side)s reaches %(courts)s and wins",
                "%(side)s reach %(courts)s and win",
                courts=courts(target),
            )
            reasons.append(Reason(reached, Rule.END))
        return HandResult(new_state, changes, reasons, game_winner)

    @staticmethod
    def _played_out(tricks: list[int]) -> tuple[int, Text]:
        """The side with seven or more tricks wins the hand (S4:99), and how to say so."""
        winner = 0 if tricks[0] > tricks[1] else 1
        return winner, agreeing(
            winner,
            "%(side)s wins the hand %(won)s-%(lost)s",
            "%(side)s win the hand %(won)s-%(lost)s",
            won=tricks[winner],
            lost=tricks[1 - winner],
        )

    def _court_hand(self, state: CourtPieceState, outcome: Outcome, record: Mapping) -> tuple[int, int, list[Reason]]:
        """The winner of a first-seven or revoke hand and the courts it scores at once."""
        side = record["side"]
        name = side_name(side)
        if outcome is Outcome.REVOKE:
            winner = 1 - side  # S4:96: the revoking side forfeits the hand
            text = msg(
                "%(side)s revoked: %(winner)s +%(courts)s",
                side=name,
                winner=side_name(winner),
                courts=courts(_REVOKE_COURTS),
            )
            return winner, _REVOKE_COURTS, [Reason(text, Rule.REVOKE)]
        if self.value(record, "all_thirteen"):
            awarded = state.options["all13_courts"]
            text = msg("%(side)s took all thirteen: +%(courts)s", side=name, courts=courts(awarded))
            return side, awarded, [Reason(text, Rule.ALL_THIRTEEN)]
        text = msg("%(side)s took the first seven tricks: +%(courts)s", side=name, courts=courts(_FIRST_SEVEN_COURTS))
        return side, _FIRST_SEVEN_COURTS, [Reason(text, Rule.FIRST_SEVEN)]

    @staticmethod
    def _streak_after_court_hand(state: CourtPieceState, winner: int) -> tuple[Streak, int, list[Reason]]:
        """The streak after a court hand (RULES CP-Q1), any second court it earns, and why."""
        policy = StreakPolicy(state.options["court_hand_streak_policy"])
        before = state.streak
        if policy is StreakPolicy.COUNT_AS_WIN:
            return _streak_win(before, winner, msg("the court hand counts as a win"), Rule.COURT_HANDS)
        if policy is StreakPolicy.IGNORE and before.side == winner:
            text = msg("the court hand leaves the streak alone: %(streak)s", streak=before.describe())
            return before, 0, [Reason(text, Rule.COURT_HANDS)]
        if before.side is None:
            return before, 0, []
        text = msg("%(streak)s ends: the court hand resets it", streak=before.describe())
        return Streak(), 0, [Reason(text, Rule.COURT_HANDS)]

    def next_dealer(self, before: CourtPieceState, after: CourtPieceState, record: Mapping) -> int:
        """S4:103 and S4:96 with RULES CP-Q3: the losing side always deals, so the winners choose trumps."""
        table, dealer = before.table, before.dealer
        awarded = sum(after.courts) > sum(before.courts)
        winner = _hand_winner(before, record)
        if table.side_of(dealer) == winner:
            return table.next_seat(dealer)
        if awarded:
            return table.next_seat(table.next_seat(dealer))  # the partner sits opposite
        return dealer

    # -- reading ------------------------------------------------------------------------------
    def result(self, state: CourtPieceState, called: bool = False) -> Result:
        winner = self.winner(state, called)  # S4:104: called, more courts wins
        if winner is not None:
            return Result(True, winner, wins(winner, state.courts, "match", courts))
        if called:  # S4:104: equal courts, none at all included, is a draw
            if not state.courts[0]:
                return Result(True, None, msg("The match is a draw: no courts yet"))
            return Result(True, None, msg("The match is a draw: %(courts)s each", courts=courts(state.courts[0])))
        return Result(False, None, lead_or_level(state.courts, courts, nothing=msg("No courts yet")))

    def board(self, state: CourtPieceState) -> Board:
        streak = state.streak
        if streak.side is None:
            # Translators: Court Piece's scoreboard: nobody has won a hand in a row yet
            lines = [msg("Streak: none")]
        else:
            lines = [
                msg(
                    "Streak: %(side)s: %(count)s of %(needed)s",
                    side=side_name(streak.side),
                    count=streak.count,
                    needed=_WINS_FOR_COURT,
                )
            ]
        target = self.target(state)
        lines += [msg("First to %(courts)s", courts=courts(target))] if target else []
        turn = (("Deals", state.dealer), ("Trumps", self.trump_chooser(state)))
        return dataclasses.replace(super().board(state), lines=tuple(lines), turn=turn)

    statistics = (
        Statistic("courts", "Courts won", lambda done, side: done.state.courts[side]),
        Statistic("longest_run", "Longest run of hands won", _longest_run, keep=MOST),
        Statistic("all_thirteen", "Hands with all thirteen tricks", _all_thirteen),
    )

    def example_hand(self, state: CourtPieceState, rng) -> dict:
        roll = rng.random()
        if roll < 0.1:
            return {"outcome": Outcome.FIRST_SEVEN.value, "side": rng.randrange(2)}
        if roll < 0.15:
            return {"outcome": Outcome.REVOKE.value, "side": rng.randrange(2)}
        won = rng.randrange(1, _TRICKS_IN_HAND)
        return {"outcome": Outcome.TRICKS.value, "tricks": [won, _TRICKS_IN_HAND - won]}

    def public_state(self, state: CourtPieceState) -> dict:
        return {
            "streak": {"side": state.streak.side, "count": state.streak.count},
            "trump_chooser": self.trump_chooser(state),
        }

    @staticmethod
    def trump_chooser(state: State) -> int:
        """The player after the dealer chooses trumps (S4:90); derived, never stored (RULES 1.2.2)."""
        return state.table.next_seat(state.dealer)


def _hand_winner(state: State, record: Mapping) -> int:
    """The side that won the hand: most tricks, the first seven, or the side that did not revoke."""
    outcome = Outcome(record["outcome"])
    if outcome is Outcome.TRICKS:
        return 0 if record["tricks"][0] > record["tricks"][1] else 1
    return state.table.other(record["side"]) if outcome is Outcome.REVOKE else record["side"]


def _streak_win(before: Streak, winner: int, event: Text, rule: str = Rule.STREAK) -> tuple[Streak, int, list[Reason]]:
    """A hand won by `winner` counted on the streak: the seventh in a row scores a court (S4:101)."""
    reached = before.won_by(winner)
    reasons = [Reason(msg("%(event)s: %(streak)s", event=event, streak=reached.describe()), rule)]
    if reached.count < _WINS_FOR_COURT:
        return reached, 0, reasons
    # RULES CP-Q4: the tally goes back to nothing, and the next winner starts at 1
    text = msg("%(side)s: seventh hand in a row: +%(courts)s", side=side_name(winner), courts=courts(_STREAK_COURTS))
    reasons.append(Reason(text, Rule.STREAK))
    return Streak(), _STREAK_COURTS, reasons


GAME = CourtPiece()
