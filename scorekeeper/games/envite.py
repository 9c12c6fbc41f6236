"""Envite (Canarian Envite): two partnerships race to twelve stones; best of three games.

Scoring, RULES.md 1.1 (seed S0:27-95):
- A hand is worth 2 stones unless the captains raised it: 2 -> 4 -> 7 -> 9 -> "game" (S0:75-77).
  The winner of a played hand scores the stake (S0:85); a hand played for "game" wins the game
  outright (S0:77).
- A declined raise is not played: the raising side scores the previous stake, 4 -> 2, 7 -> 4
  (S0:75, S0:77), 9 -> 7 and game -> 9 (ENV-Q1, ENV-Q2).
- A side whose player cannot follow a trawl loses the hand; the other side adds the
  `trawl_bonus` (2, S0:83) to the stake.
- Stones stop at 11 (S0:89); a side on 11 is lying down and there is no bidding (S0:91):
  its captain forfeits (+1 to the others) or plays; losing gives the others 3 (plus
  `trawl_bonus_in_lying_hand` after its own trawl failure, ENV-Q4), winning wins the game.
  With both sides lying down the hand is compulsory and its winner wins the game (S0:93).
- Winning a game resets both sides to 0; the match ends at `games_to_win` games (S0:35, S0:95).
- The deal passes to the next seat in play order after every hand, across games (S0:85, ENV-Q8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum

from ._race import wins
from .base import (
    Board,
    Field,
    Game,
    HandResult,
    Reason,
    RecordError,
    Result,
    SideBoard,
    State,
    Text,
    added,
    agreeing,
    counted,
    declared,
    joined,
    listing,
    msg,
    side_name,
)
from .reference import DENEXA, OWN, HouseRule, Reference, Source, Term, by_number
from .sheet import SheetColumn
from .statistics import Statistic, gained

_GAME_STAKE = "game"
_STAKES = (2, 4, 7, 9, _GAME_STAKE)
_OPENING_STAKE = 2
# A declined raise scores the stake it tried to leave behind (S0:75, S0:77, ENV-Q1, ENV-Q2).
_DECLINED_VALUE = {4: 2, 7: 4, 9: 7, _GAME_STAKE: 9}
_CAP = 11  # S0:89: stones past eleven are ignored; a side on eleven is lying down
_GAME_TARGET = 12  # S0:35: only a game-winning hand takes a side past the cap
_LYING_FORFEIT = 1  # S0:91
_LYING_LOSS = 3  # S0:91


class _Mode(Enum):
    """Who is lying down when a hand starts decides what the hand can be."""

    NORMAL = "normal"
    ONE_LYING = "one lying down"
    BOTH_LYING = "both lying down"


class Rule(StrEnum):
    """Section ids of templates/rules/envite.html that the reason lines link to."""

    STAKES = "stakes"
    DECLINED = "declined-raises"
    TRAWLING = "trawling"
    LYING_DOWN = "lying-down"
    BOTH_LYING = "both-lying"
    GAME_STAKE = "game-stake"
    GAME_AND_MATCH = "game-and-match"


# What the form asks for in each situation: no bidding while a side lies down (S0:91, S0:93).
_FORM_FIELDS = {
    _Mode.NORMAL: ("winner", "stake", "declined", "trawl_failure"),
    _Mode.ONE_LYING: ("winner", "forfeit", "trawl_failure"),
    _Mode.BOTH_LYING: ("winner", "trawl_failure"),
}


@dataclass(frozen=True)
class EnviteState(State):
    """Stones in the game in progress and games won in the match, one per side."""

    stones: tuple[int, int] = (0, 0)
    games: tuple[int, int] = (0, 0)
    # The stones as the last game won ended (its winner at twelve): a game won starts the next at
    # 0, so only these show how the match ended (the final board).
    last_game: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Outcome:
    """What a hand earned before the cap: stones for `side`, or with `stones` None the whole game."""

    side: int
    stones: int | None
    text: Text
    rule: Rule
    detail: Text | None = None  # how `stones` adds up, when it is more than one number


def _games(number: int) -> Text:
    """ "1 game", "2 games" (Envite's games, the chicos)."""
    return counted(number, "%(num)s game", "%(num)s games")


def _games_won(games: int, to_win: int) -> Text:
    """ "Games: 1 of 2", a side's line on the scoreboard."""
    return msg("Games: %(games)s of %(to_win)s", games=games, to_win=to_win)


def _lying(state: EnviteState) -> list[bool]:
    return [stones == _CAP for stones in state.stones]


def _mode(state: EnviteState) -> _Mode:
    return (_Mode.NORMAL, _Mode.ONE_LYING, _Mode.BOTH_LYING)[sum(_lying(state))]


def _lying_side(state: EnviteState) -> int:
    return _lying(state).index(True)


def _gain_text(side: int, earned: int, gained: int, detail: Text | None) -> Text:
    """ "A +3 stones (4 won; 1 over eleven ignored)": the gain after the cap and what it cut."""
    notes = [detail] if detail else []
    if gained < earned:
        notes = [
            detail or msg("%(stones)s won", stones=earned),
            msg("%(stones)s over eleven ignored", stones=earned - gained),
        ]
    text = counted(gained, "%(side)s +%(num)s stone", "%(side)s +%(num)s stones", side=side_name(side))
    return msg("%(gain)s (%(notes)s)", gain=text, notes=joined(notes, "; ")) if notes else text


def _trawl_bonus(stake: int, bonus: int) -> Text:
    """ "4 + 2 trawl bonus": how the stones of a hand lost on a trawl add up."""
    return msg("%(stake)s + %(bonus)s trawl bonus", stake=stake, bonus=bonus)


class Envite(Game):
    key = "envite"
    name = "Envite"
    min_players = 4
    max_players = 12
    partnerships = True
    unit = "stones"
    listed = 0
    rules = Rule
    state_class = EnviteState
    options = (
        Field(
            "games_to_win",
            "int",
            "Games a side must win to take the match (2: best of three).",
            default=2,
            min=1,
            max=5,
            label="Games to win",
        ),
        Field(
            "trawl_bonus",
            "int",
            "Stones added to the stake when the losers could not follow a trawl.",
            default=2,
            min=0,
            max=4,
        ),
        Field(
            "trawl_bonus_in_lying_hand",
            "choice",
            "Extra stones when a side lying down loses by failing a trawl (2, or 0 for none).",
            default=2,
            choices=(2, 0),
            label="Trawl bonus when lying down",
        ),
    )
    hand_fields = (
        Field(
            "winner",
            "side",
            "The side that won the hand, or whose raise was declined; may be left out with a forfeit.",
            default=None,
            ask="Who won the hand?",
        ),
        Field(
            "stake",
            "choice",
            "What the hand was played for; with declined, the raise that was declined.",
            default=_OPENING_STAKE,
            choices=_STAKES,
        ),
        Field("declined", "bool", "The last raise was declined, so the hand was not played.", default=False, rare=True),
        Field(
            "trawl_failure", "bool", "A player of the losing side could not trump a trawl.", default=False, rare=True
        ),
        Field("forfeit", "bool", "The side lying down gave the hand up; the other side wins it.", default=False),
    )

    reference = Reference(
        names=("Envite canario", "Canarian Envite"),
        line=msg("Canary Islands team game of three-card hands and raised stakes, played to 12 stones."),
        sources=(
            Source("Envite", DENEXA),
            Source(
                msg("Canarian descriptions of the game"),
                msg("the ceiling of 11 stones; match lengths other than best of three"),
                standard=True,
            ),
            OWN,
        ),
        house_rules={
            "games_to_win": HouseRule(
                "game-and-match",
                says={1: msg("one game decides the match")},
                counted=by_number(
                    "the match goes to the first side to win %(num)d game",
                    "the match goes to the first side to win %(num)d games",
                ),
            ),
            "trawl_bonus": HouseRule(
                "trawling",
                counted=by_number(
                    "a failed trawl adds %(num)d stone to the stake", "a failed trawl adds %(num)d stones to the stake"
                ),
            ),
            "trawl_bonus_in_lying_hand": HouseRule(
                "lying-down",
                says={
                    2: msg("a side lying down that fails a trawl gives the others 3 + 2 = 5 stones"),
                    0: msg("a side lying down that fails a trawl gives the others just 3 stones"),
                },
            ),
        },
        terms=(
            Term("stone", "glance", msg("Envite's point. Twelve win a game; a score stops at 11 until then.")),
            Term("piedra", "glance", msg("A stone, Envite's point.")),
            Term("chico", "game-and-match", msg("One game of Envite, won at twelve stones.")),
            Term(
                "partida",
                "game-and-match",
                msg("A match of Envite: best of three chicos unless the table says otherwise."),
            ),
            Term(
                "tumbo",
                "lying-down",
                msg("A side on exactly 11 stones is de tumbo (lying down): no bidding, and a win takes the game."),
            ),
            Term(
                "lying down",
                "lying-down",
                msg("Sitting on 11 stones: the side may give the hand up for 1 stone or play it."),
            ),
            Term(
                "compulsory hand",
                "both-lying",
                msg("Both sides on 11: the hand must be played, and its winner takes the game."),
            ),
            Term(
                "trawl",
                "trawling",
                msg("Leading a trump: everyone must answer with a trump, or their side loses the hand."),
            ),
            Term("arrastre", "trawling", msg("A trawl: a trump led that everyone must answer.")),
            Term("envite", "stakes", msg("The challenge that raises a hand from 2 stones to 4.")),
            Term("captain", "stakes", msg("The one player on each team who speaks in the bidding.")),
            Term("game stake", "game-stake", msg("The last raise: the hand decides the whole game.")),
        ),
    )

    # -- state ------------------------------------------------------------------------------
    def form_fields(self, state: EnviteState) -> tuple[Field, ...]:
        wanted = _FORM_FIELDS[_mode(state)]
        return tuple(fld for fld in self.hand_fields if fld.name in wanted)

    # -- validation -------------------------------------------------------------------------
    def validate(self, state: EnviteState, record: dict) -> None:
        mode = _mode(state)
        if mode is _Mode.NORMAL:
            self._check_raise(record)
        else:
            self._refuse_bidding(record)
        self._check_forfeit(mode, record)
        self._check_trawl(record)
        self._check_winner(state, record)

    def _check_raise(self, record: dict) -> None:
        if self.value(record, "declined") and self.value(record, "stake") == _OPENING_STAKE:
            message = msg("Declined needs the raise that was turned down (4, 7, 9 or game): at 2 nobody raised.")
            raise RecordError(message, "declined")

    def _refuse_bidding(self, record: dict) -> None:
        given = [name for name in ("stake", "declined") if name in record]
        if given:
            titles = {fld.name: fld.title for fld in self.hand_fields}
            left_out = listing(declared(titles[name], lower=True) for name in given)
            message = msg("No bidding while a side is lying down: leave out %(fields)s.", fields=left_out)
            raise RecordError(message, fields={name: message for name in given})

    def _check_forfeit(self, mode: _Mode, record: dict) -> None:
        if not self.value(record, "forfeit") or mode is _Mode.ONE_LYING:
            return
        if mode is _Mode.BOTH_LYING:
            message = msg("Forfeit is not possible: with both sides lying down the hand must be played.")
        else:
            message = msg("Forfeit is only possible while exactly one side is lying down (on 11 stones).")
        raise RecordError(message, "forfeit")

    def _check_trawl(self, record: dict) -> None:
        if not self.value(record, "trawl_failure"):
            return
        if self.value(record, "declined"):
            message = msg("A declined raise ends the hand unplayed, so there was no trawl failure.")
            raise RecordError(message, "trawl_failure")
        if self.value(record, "forfeit"):
            message = msg("A forfeited hand is not played, so there was no trawl failure.")
            raise RecordError(message, "trawl_failure")

    def _check_winner(self, state: EnviteState, record: dict) -> None:
        winner = self.value(record, "winner")
        if self.value(record, "forfeit"):
            taker = 1 - _lying_side(state)
            if winner is not None and winner != taker:
                message = msg("With a forfeit the winner is %(side)s, the side not lying down.", side=side_name(taker))
                raise RecordError(message, "winner")
        elif winner is None:
            message = msg("Who won the hand? Nothing was chosen: the side that won it, or whose raise was declined.")
            raise RecordError(message, "winner")

    # -- scoring ----------------------------------------------------------------------------
    def score_hand(self, state: EnviteState, record: Mapping) -> HandResult:
        outcome = self._outcome(state, record)
        if outcome.stones is None:
            return self._win_game(state, outcome)
        side = outcome.side
        changes = [0, 0]
        changes[side] = min(_CAP, state.stones[side] + outcome.stones) - state.stones[side]
        text = msg(
            "%(outcome)s: %(gain)s",
            outcome=outcome.text,
            gain=_gain_text(side, outcome.stones, changes[side], outcome.detail),
        )
        return HandResult(state.evolve(stones=added(state.stones, changes)), changes, [Reason(text, outcome.rule)])

    def _outcome(self, state: EnviteState, record: Mapping) -> _Outcome:
        mode = _mode(state)
        if mode is _Mode.BOTH_LYING:
            return self._compulsory_outcome(record)
        if mode is _Mode.ONE_LYING:
            return self._lying_outcome(state, record)
        if self.value(record, "declined"):
            return self._declined_outcome(record)
        return self._played_outcome(state, record)

    def _compulsory_outcome(self, record: Mapping) -> _Outcome:
        winner = self.value(record, "winner")
        if self._trawl_decided(record):
            text = agreeing(
                winner,
                "both sides lying down: %(side)s wins the compulsory hand after %(loser)s could not follow a trawl",
                "both sides lying down: %(side)s win the compulsory hand after %(loser)s could not follow a trawl",
                loser=side_name(1 - winner),
            )
        else:
            text = agreeing(
                winner,
                "both sides lying down: %(side)s wins the compulsory hand",
                "both sides lying down: %(side)s win the compulsory hand",
            )
        return _Outcome(winner, None, text, Rule.BOTH_LYING)

    def _lying_outcome(self, state: EnviteState, record: Mapping) -> _Outcome:
        lying = _lying_side(state)
        other = 1 - lying
        if self.value(record, "forfeit"):
            text = agreeing(lying, "%(side)s, lying down, gives the hand up", "%(side)s, lying down, give the hand up")
            return _Outcome(other, _LYING_FORFEIT, text, Rule.LYING_DOWN)
        if self.value(record, "winner") == lying:
            if self._trawl_decided(record):
                text = agreeing(
                    lying,
                    "%(side)s, lying down, wins the hand after %(loser)s could not follow a trawl",
                    "%(side)s, lying down, win the hand after %(loser)s could not follow a trawl",
                    loser=side_name(other),
                )
            else:
                text = agreeing(lying, "%(side)s, lying down, wins the hand", "%(side)s, lying down, win the hand")
            return _Outcome(lying, None, text, Rule.LYING_DOWN)
        if not self.value(record, "trawl_failure"):
            text = agreeing(lying, "%(side)s, lying down, loses the hand", "%(side)s, lying down, lose the hand")
            return _Outcome(other, _LYING_LOSS, text, Rule.LYING_DOWN)
        bonus = state.options["trawl_bonus_in_lying_hand"]
        text = msg("%(side)s, lying down, could not follow a trawl", side=side_name(lying))
        return _Outcome(other, _LYING_LOSS + bonus, text, Rule.LYING_DOWN, _trawl_bonus(_LYING_LOSS, bonus))

    def _declined_outcome(self, record: Mapping) -> _Outcome:
        stake = self.value(record, "stake")
        if stake == _GAME_STAKE:
            text = msg("raise to game declined")
        else:
            text = msg("raise to %(stake)s declined", stake=stake)
        return _Outcome(self.value(record, "winner"), _DECLINED_VALUE[stake], text, Rule.DECLINED)

    def _played_outcome(self, state: EnviteState, record: Mapping) -> _Outcome:
        stake = self.value(record, "stake")
        winner = self.value(record, "winner")
        if stake == _GAME_STAKE:
            if self._trawl_decided(record):
                text = agreeing(
                    winner,
                    "%(side)s wins the hand played for the game after %(loser)s could not follow a trawl",
                    "%(side)s win the hand played for the game after %(loser)s could not follow a trawl",
                    loser=side_name(1 - winner),
                )
            else:
                text = agreeing(
                    winner, "%(side)s wins the hand played for the game", "%(side)s win the hand played for the game"
                )
            return _Outcome(winner, None, text, Rule.GAME_STAKE)
        if not self.value(record, "trawl_failure"):
            text = agreeing(
                winner,
                "%(side)s wins the hand at stake %(stake)s",
                "%(side)s win the hand at stake %(stake)s",
                stake=stake,
            )
            return _Outcome(winner, stake, text, Rule.STAKES)
        bonus = state.options["trawl_bonus"]
        text = msg("%(side)s could not follow a trawl at stake %(stake)s", side=side_name(1 - winner), stake=stake)
        return _Outcome(winner, stake + bonus, text, Rule.TRAWLING, _trawl_bonus(stake, bonus))

    def _trawl_decided(self, record: Mapping) -> bool:
        """Whether a trawl decided a game-winning hand, which its line then says (no bonus then: the
        game is won, ENV-Q6)."""
        return bool(self.value(record, "trawl_failure"))

    def _win_game(self, state: EnviteState, outcome: _Outcome) -> HandResult:
        side = outcome.side
        changes = [0, 0]
        changes[side] = _GAME_TARGET - state.stones[side]
        games = list(state.games)
        games[side] += 1
        reasons = [
            Reason(
                msg(
                    "%(outcome)s: %(side)s +%(stones)s to twelve",
                    outcome=outcome.text,
                    side=side_name(side),
                    stones=changes[side],
                ),
                outcome.rule,
            ),
            Reason(
                agreeing(side, "%(side)s wins game %(number)s", "%(side)s win game %(number)s", number=sum(games)),
                Rule.GAME_AND_MATCH,
            ),
        ]
        new = state.evolve(stones=(0, 0), games=tuple(games), last_game=added(state.stones, changes))
        standing = self.result(new)
        if standing.over:
            reasons.append(Reason(standing.headline, Rule.GAME_AND_MATCH))
        return HandResult(new, changes, reasons, game_winner=side)

    # -- standing ---------------------------------------------------------------------------
    def result(self, state: EnviteState, called: bool = False) -> Result:
        games = state.games
        for side in (0, 1):
            if games[side] >= state.options["games_to_win"]:
                return Result(True, side, wins(side, games, "match", _games))
        stones = state.stones
        # Translators: Envite's headline during a match (a game is a chico)
        headline = msg(
            "Game %(number)s: %(side0)s %(stones0)s, %(side1)s %(stones1)s stones; games %(games0)s-%(games1)s",
            number=sum(games) + 1,
            side0=side_name(0),
            stones0=stones[0],
            side1=side_name(1),
            stones1=stones[1],
            games0=games[0],
            games1=games[1],
        )
        return Result(False, None, headline)

    def scores(self, state: EnviteState) -> list[int]:
        return list(state.stones)

    def board(self, state: EnviteState) -> Board:
        to_win = state.options["games_to_win"]
        if self.result(state).over and state.last_game:  # the stones as the match ended, not the 0-0 after it
            sides = tuple(
                SideBoard(stones, self.unit, lines=(_games_won(games, to_win),))
                for stones, games in zip(state.last_game, state.games)
            )
            return Board(sides, lines=(msg("The stones as the last game ended"),))
        sides = tuple(
            # Translators: Envite's scoreboard: a side on eleven stones is lying down
            SideBoard(stones, self.unit, _CAP, (_games_won(games, to_win),), msg("Lying down") if lying else None)
            for stones, games, lying in zip(state.stones, state.games, _lying(state))
        )
        return Board(sides, turn=(("Deals", state.dealer),))

    # The score sheet: the stones as the board counts them (a game won starts the next at 0, after the
    # line that reached twelve), and the games won.
    sheet = (
        SheetColumn(scored=lambda before, after, changes: changes),
        # Translators: Envite's score sheet, a column: games (chicos) won in the match
        SheetColumn(msg("Games"), lambda state: state.games),
    )
    statistics = (
        # Every stone a side scored, the jump to twelve that wins a chico included.
        Statistic("stones_won", "Stones won", gained),
        Statistic("chicos_won", "Chicos won", lambda done, side: done.state.games[side]),
    )

    def example_hand(self, state: EnviteState, rng) -> dict:
        winner = rng.randrange(2)
        mode = _mode(state)
        if mode is _Mode.NORMAL:
            stake = rng.choice(_STAKES[:-1])
            declined = stake != _OPENING_STAKE and rng.random() < 0.2
            return {"winner": winner, "stake": stake, "declined": declined}
        if mode is _Mode.ONE_LYING and rng.random() < 0.3:
            return {"forfeit": True}
        return {"winner": winner}

    def public_state(self, state: EnviteState) -> dict:
        finished = self.result(state).over
        return {
            "games": list(state.games),
            "lying_down": _lying(state),
            "game_number": sum(state.games) + (0 if finished else 1),
            "mode": _mode(state).value,
        }


GAME = Envite()
