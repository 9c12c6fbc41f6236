"""Machiavelli: a rummy game for two to five players with two packs, where everyone may rework
every meld on the table (S3:202-226). A hand is one whole game; the session counts games won
(api/races.md "Sessions", ruling 1).

- `ending: out`: a player played the last card from their hand to the table and won (S3:226).
- `ending: stock_exhausted`: the stock ran out before anyone went out (RULES 2.8, ruling 8; the
  seed is silent). Under `stock_exhausted: no_winner` (default) nobody wins that game. Under
  `fewest_cards` the table enters the cards each player still holds, 1 to 104 each (a player
  with none would have gone out) and at most 104 in all (two packs, S3:212); the one holding the
  fewest wins, and equal fewest means nobody does.
- A game nobody won scores 0 for everyone, adds 1 to `no_winner`, and the deal still passes to
  the next seat (ruling 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from ._race import holders, sole
from ._session import GAMES_TO_WIN, LONGEST_RUN, Session, SessionState
from .base import Field, Reason, RecordError, State, counted, msg, names, side_name
from .reference import DENEXA, OWN, SESSION, HouseRule, Reference, Source
from .statistics import Statistic

_MIN_PLAYERS, _MAX_PLAYERS = 2, 5  # S3:204 (ruling 3)
_PACK = 104  # S3:212: two packs of 52


class Ending(StrEnum):
    OUT = "out"
    STOCK_EXHAUSTED = "stock_exhausted"


class StockExhausted(StrEnum):
    """What a game whose stock ran out comes to (ruling 8)."""

    NO_WINNER = "no_winner"
    FEWEST_CARDS = "fewest_cards"


class Rule(StrEnum):
    """Section ids of templates/rules/machiavelli.html that the reason lines link to."""

    GOING_OUT = "going-out"
    STOCK_EXHAUSTED = "stock-exhausted"
    SESSION = "session"


class Machiavelli(Session):
    key = "machiavelli"
    name = "Machiavelli"
    min_players = _MIN_PLAYERS
    max_players = _MAX_PLAYERS
    rules = Rule
    won_rule = Rule.GOING_OUT
    end_rule = Rule.SESSION
    options = (
        GAMES_TO_WIN,
        Field.choice(
            "stock_exhausted",
            "When the stock runs out and nobody can go out: nobody wins, or the player holding the fewest cards wins.",
            StockExhausted,
            default=StockExhausted.NO_WINNER,
            label="Stock runs out",
        ),
    )
    hand_fields = (
        Field.choice(
            "ending",
            "How the game ended: a player went out, or the stock ran out first.",
            Ending,
            default=Ending.OUT,
            ask="How did the game end?",
        ),
        Field(
            "winner",
            "side",
            "The player who played the last card from their hand to the table.",
            when=("ending", (Ending.OUT.value,)),
            ask="Who went out?",
        ),
        Field(
            "cards_left",
            "per_side",
            "Where the fewest cards win: the cards each player still holds (1 to 104 each, 104 at most in all).",
            default=None,
            nullable=True,  # null says "no counts", as leaving them out does
            min=1,
            max=_PACK,
            when=("ending", (Ending.STOCK_EXHAUSTED.value,)),
            label="Cards left",
            ask="Cards each player still holds",
        ),
    )

    reference = Reference(
        line=msg("Rummy for two to five with two packs, where every meld on the table can be rebuilt."),
        sources=(
            Source("Machiavelli", DENEXA),
            OWN,
        ),
        house_rules={
            "games_to_win": SESSION,
            "stock_exhausted": HouseRule(
                "stock-exhausted",
                says={
                    "no_winner": msg("when the stock runs out, nobody wins that game"),
                    "fewest_cards": msg("when the stock runs out, the player holding the fewest cards wins"),
                },
            ),
        },
    )

    def form_fields(self, state: State) -> tuple[Field, ...]:
        """Card counts are asked for only where the fewest cards win (ruling 8)."""
        if _counts_cards(state.options):
            return self.hand_fields
        return tuple(fld for fld in self.hand_fields if fld.name != "cards_left")

    def validate(self, state: State, record: dict) -> None:
        if self.value(record, "ending") != Ending.STOCK_EXHAUSTED:
            return  # `winner` and no `cards_left`: the declarations see to it
        cards_left = record.get("cards_left")
        if not _counts_cards(state.options):
            if cards_left is not None:
                raise RecordError(
                    msg("At this table nobody wins when the stock runs out: leave the card counts out."), "cards_left"
                )
            return
        if cards_left is None:
            raise RecordError(
                msg("Enter the cards each player still holds: the fewest win at this table."), "cards_left"
            )
        if sum(cards_left) > _PACK:
            raise RecordError(
                msg(
                    "Cards left add up to %(total)s, more than the %(pack)s in two packs.",
                    total=sum(cards_left),
                    pack=_PACK,
                ),
                "cards_left",
            )

    def winner_of(self, state: SessionState, record: Mapping) -> tuple[int | None, Reason | None]:
        if self.value(record, "ending") == Ending.OUT:
            return record["winner"], None
        if not _counts_cards(state.options):
            return None, Reason(msg("The stock ran out before anyone went out: nobody wins"), Rule.STOCK_EXHAUSTED)
        cards_left = record["cards_left"]
        fewest = holders(cards_left, min)
        winner = sole(fewest)
        if winner is None:
            text = counted(
                len(fewest),
                "The stock ran out: %(who)s shares the fewest cards (%(cards)s), nobody wins",
                "The stock ran out: %(who)s share the fewest cards (%(cards)s), nobody wins",
                who=names(fewest),
                cards=cards_left[fewest[0]],
            )
            return None, Reason(text, Rule.STOCK_EXHAUSTED)
        note = msg(
            "The stock ran out: %(side)s holds the fewest cards (%(cards)s)",
            side=side_name(winner),
            cards=cards_left[winner],
        )
        return winner, Reason(note, Rule.STOCK_EXHAUSTED)

    def board_lines(self, state: SessionState) -> tuple[str, ...]:
        return (counted(state.nobody, "Nobody won: %(num)s game", "Nobody won: %(num)s games"),) if state.nobody else ()

    statistics = (
        LONGEST_RUN,
        Statistic("no_winner", "Games nobody won", lambda done, side: done.state.nobody),
    )

    def public_state(self, state: SessionState) -> dict:
        return {"no_winner": state.nobody}

    def example_hand(self, state: SessionState, rng) -> dict:
        players = state.table.players
        if rng.random() < 0.7:
            return {"ending": Ending.OUT.value, "winner": rng.randrange(players)}
        if not _counts_cards(state.options):
            return {"ending": Ending.STOCK_EXHAUSTED.value}
        return {"ending": Ending.STOCK_EXHAUSTED.value, "cards_left": [rng.randint(1, 20) for _ in range(players)]}


def _counts_cards(options: Mapping) -> bool:
    return options["stock_exhausted"] == StockExhausted.FEWEST_CARDS


GAME = Machiavelli()
