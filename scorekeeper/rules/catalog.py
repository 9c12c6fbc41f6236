"""What the rules reference knows about each game besides its page: the other names tables use, a
line saying what the game is, the documents its page rests on, and where each house rule is ruled.

The search (search.py) and the index read the names and lines; the pages read the sources; a page
opened from a match (tables.py) and the new-match form read the house rules: each option's
section on the rules page and a sentence saying what the value chosen does at the table.

Options and their values are named as the new-match form names them (`option_title`,
`value_label`), except where the form still shows an internal word (`VALUE_WORDS`).

Our own texts are marked for the catalogs and read in the page's language: the lines, the sources'
descriptions, the table sentences. Other names and the titles of documents are names: they stay as
written. A sentence with a number says it through `ngettext`, as each language counts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..games.base import Field, Game
from ..matches.widgets import choice_text
from ..web.i18n import declared_text

# The rule documents: what each is. Denexa Games publishes the how-to-play articles.
DENEXA = _l("a how-to-play article by Denexa Games")
FRENCH = _l(
    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
    "Rory Barclay, Adam Fritz and Clint Okayama"
)
BOOK = "Ultimate Book of Card Games: The Comprehensive Guide to More Than 350 Games"


@dataclass(frozen=True)
class Source:
    """A document a page rests on (`title`, `what`), or the standard rules used where it is silent
    (`standard` true: `title` names them, `what` says what was taken). A document's title is its
    own; the rest is ours, marked, and read in the page's language."""

    titled: Any  # str, or a marked text
    described: Any
    standard: bool = False

    @property
    def title(self) -> str:
        return str(self.titled)

    @property
    def what(self) -> str:
        return str(self.described)


@dataclass(frozen=True)
class HouseRule:
    """Where an option is ruled (`anchor`: a section of the game's page) and what a value does at
    the table: `says[value]`; else `counted(number)` for a number (its words follow the number, as
    the language counts); else `worded(the value in words)`; else the value's words alone."""

    anchor: str
    worded: Callable[[str], str] | None = None
    says: Mapping[Any, Any] = field(default_factory=dict)
    counted: Callable[[int], str] | None = None

    def sentence_for(self, value: Any, words: str) -> str:
        said = self.says.get(value) if isinstance(value, Hashable) else None
        if said:
            return str(said)
        if self.counted is not None and isinstance(value, int) and not isinstance(value, bool):
            return self.counted(value)
        return self.worded(words) if self.worded is not None else words


@dataclass(frozen=True)
class Entry:
    """The rules reference's card for one game."""

    names: tuple[str, ...]  # other names tables use, in the reference and the search
    summary: Any  # what the game is, in one line (marked)
    sources: tuple[Source, ...]
    house_rules: Mapping[str, HouseRule] = field(default_factory=dict)

    @property
    def line(self) -> str:
        """What the game is, in one line, in the page's language."""
        return str(self.summary)


FIRST_DEALER = HouseRule("glance", lambda name: _("%(player)s dealt the first hand", player=name))

NO_SET_GAMES = _l("no set number of games: the session runs until the table presses Finish")


def session_games(n: int) -> str:
    return ngettext(
        "the first player to win %(num)d game takes the session",
        "the first player to win %(num)d games takes the session",
        n,
    )


def game_points(n: int) -> str:
    return ngettext("the game goes to %(num)d point", "the game goes to %(num)d points", n)


def starting_tokens(n: int) -> str:
    return ngettext("each player starts with %(num)d token", "each player starts with %(num)d tokens", n)


SESSION = HouseRule("session", says={None: NO_SET_GAMES}, counted=session_games)


# Choices whose form label is still an internal word: the words the pages use instead.
VALUE_WORDS: dict[tuple[str, str, Any], Any] = {
    ("cuarenta", "carton_rule", "seed"): _l("One for every two cards"),
}


def _own(title: str, what: Any) -> Source:
    return Source(title, what)


def _standard(title: Any, what: Any) -> Source:
    return Source(title, what, standard=True)


OWN = _standard(_l("Scorekeeper's rulings"), _l("where the documents are silent: each is marked on the page"))

CATALOG: dict[str, Entry] = {
    "envite": Entry(
        ("Envite canario", "Canarian Envite"),
        _l("Canary Islands team game of three-card hands and raised stakes, played to 12 stones."),
        (
            _own("Envite", DENEXA),
            _standard(
                _l("Canarian descriptions of the game"),
                _l("the ceiling of 11 stones; match lengths other than best of three"),
            ),
            OWN,
        ),
        {
            "games_to_win": HouseRule(
                "game-and-match",
                says={1: _l("one game decides the match")},
                counted=lambda n: ngettext(
                    "the match goes to the first side to win %(num)d game",
                    "the match goes to the first side to win %(num)d games",
                    n,
                ),
            ),
            "trawl_bonus": HouseRule(
                "trawling",
                counted=lambda n: ngettext(
                    "a failed trawl adds %(num)d stone to the stake",
                    "a failed trawl adds %(num)d stones to the stake",
                    n,
                ),
            ),
            "trawl_bonus_in_lying_hand": HouseRule(
                "lying-down",
                says={
                    2: _l("a side lying down that fails a trawl gives the others 3 + 2 = 5 stones"),
                    0: _l("a side lying down that fails a trawl gives the others just 3 stones"),
                },
            ),
        },
    ),
    "court_piece": Entry(
        ("Rang", "Rung", "Coat Piece", "Coat Pees", "Kot Pees", "Hokm", "Seven Hands"),
        _l("Four-player partnership trick game from India and Pakistan, scored in courts."),
        (
            _own("Court Piece (Rang)", DENEXA),
            _standard(
                _l("Published Court Piece descriptions"), _l("the streak starting again after a court; who deals")
            ),
            OWN,
        ),
        {
            "courts_to_win": HouseRule(
                "end",
                says={None: _l("no set number of courts: the table plays for an agreed time, then presses Finish")},
                counted=lambda n: ngettext(
                    "the first side to %(num)d court wins", "the first side to %(num)d courts wins", n
                ),
            ),
            "court_hand_streak_policy": HouseRule(
                "court-hands",
                says={
                    "reset": _l("a first-seven or revoke court wipes out the running streak"),
                    "count_as_win": _l("a first-seven or revoke court also counts as a hand won on the streak"),
                    "ignore": _l("a first-seven or revoke court leaves the winners' own streak as it was"),
                },
            ),
            "all13_courts": HouseRule(
                "all-thirteen",
                says={
                    52: _l("all thirteen tricks are worth 52 courts in all"),
                    53: _l("all thirteen is worth 53: 52 on top of the first-seven court"),
                },
            ),
        },
    ),
    "poke": Entry(
        (),
        _l("Sid Sackson's two-player game: draw a poker hand, then play it out as five tricks."),
        (
            _own("Poke", DENEXA),
            _standard(_l("Standard poker ranking"), _l("comparing two hands of the same kind")),
            OWN,
        ),
        {
            "game_target": HouseRule(
                "game",
                counted=lambda n: ngettext(
                    "a game is won at %(num)d point below the line", "a game is won at %(num)d points below the line", n
                ),
            ),
            # Translators: %(points)s is a number of points
            "game_bonus": HouseRule(
                "game", lambda points: _("each game won adds %(points)s above the line", points=points)
            ),
            # Translators: %(points)s is a number of points
            "rubber_bonus_2_1": HouseRule(
                "rubber", lambda points: _("a rubber won 2–1 adds %(points)s", points=points)
            ),
            # Translators: %(points)s is a number of points
            "rubber_bonus_2_0": HouseRule(
                "rubber", lambda points: _("a rubber won 2–0 adds %(points)s", points=points)
            ),
            # Translators: %(points)s is a number of points
            "sweep_bonus": HouseRule(
                "sweep", lambda points: _("all five tricks add %(points)s above the line", points=points)
            ),
        },
    ),
    "schnapsen": Entry(
        ("Schnapser", "Snapszer"),
        _l("Austrian two-player game of the 20-card pack: reach 66 in a hand, 7 victory points in a game."),
        (
            _own("Schnapsen", DENEXA),
            _standard(_l("pagat.com's Schnapsen rules"), _l("how a close is measured, and the any-trick marriage")),
            OWN,
        ),
        {
            "target": HouseRule(
                "game-end",
                counted=lambda n: ngettext(
                    "the game goes to %(num)d victory point", "the game goes to %(num)d victory points", n
                ),
            ),
            "fail_three_measured_at": HouseRule(
                "failed-close",
                says={
                    "close": _l("a failed close gives 3 when the other player had no trick at the moment of closing"),
                    "end": _l("a failed close gives 3 only when the other player had no trick at the end of the hand"),
                },
            ),
            "close_tally": HouseRule(
                "closing",
                says={
                    "points": _l("a good close is paid by the other player's points at the close, marriages included"),
                    "cards_only": _l("a good close is paid by the card points the other player had won by then"),
                },
            ),
            "marriage_credit": HouseRule(
                "hand-score",
                says={
                    "next_trick": _l("a marriage counts once its owner wins a trick after showing it"),
                    "any_trick": _l("a marriage counts as soon as its owner has any trick"),
                },
            ),
        },
    ),
    "aggravation": Entry(
        (),
        _l("Two-player race to cover pairs in an ever-growing layout; out of cards, call “Aggravation!”."),
        (_own("Aggravation", DENEXA), _own("Règles du jeu de cartes: California Speed", FRENCH), OWN),
        {"games_to_win": SESSION},
    ),
    "botifarra": Entry(
        ("Butifarra",),
        _l("Catalan partnership trick game: 9s are top, no-trumps doubles, first side to 101."),
        (
            _own(
                "Botifarra", _l("a how-to-play article by Denexa Games (its text breaks off in the part on doubling)")
            ),
            OWN,
        ),
        {
            "target": HouseRule("end", counted=game_points),
            "multiplier_cap": HouseRule(
                "multiplier",
                says={None: _l("no cap: a re-redoubled botifarra counts ×16"), 8: _l("no hand counts more than ×8")},
            ),
        },
    ),
    "bura": Entry(
        ("Thirty-One", "Бура"),
        _l("Russian two-player game for a pot: claim 31 card points, or lead three trumps."),
        (_own("Bura", DENEXA), OWN),
        {
            "starting_tokens": HouseRule("tokens", counted=starting_tokens),
            "false_declaration": HouseRule(
                "false-declaration",
                says={
                    "ends_hand": _l("a wrong claim ends the hand; the doubled pot waits for the next one"),
                    "play_on": _l("a wrong claim doubles the pot and the hand goes on"),
                },
            ),
            "next_dealer": HouseRule(
                "dealer",
                says={
                    "winner": _l("whoever took the pot deals the next hand"),
                    "alternate": _l("the deal changes hands after every hand"),
                },
            ),
        },
    ),
    "calabrasella": Entry(
        ("Calabresella", "Terziglio"),
        _l("Italian three-hander: one player against two, paid in chips by the points difference."),
        (
            _own("Calabrasella", DENEXA),
            _standard(_l("An Italian description of Calabresella"), _l("the set-aside cards going to the last trick")),
            OWN,
        ),
        {
            "set_aside_to": HouseRule(
                "set-aside",
                says={
                    "nobody": _l("the four cards set aside count for nobody"),
                    "last_trick": _l("the four cards set aside go to whoever takes the last trick"),
                },
            )
        },
    ),
    "california_speed": Entry(
        ("Chinese Speed", "Chinese Spit", "Double Flip"),
        _l("Two players, no turns: cover matching cards in an eight-card box, first out wins."),
        (_own("California Speed", DENEXA), _own("Règles du jeu de cartes: California Speed", FRENCH), OWN),
        {
            "games_to_win": SESSION,
            "simultaneous_out": HouseRule(
                "simultaneous-out",
                says={
                    "replay": _l("when both go out together the game is played again"),
                    "draw": _l("when both go out together the game is recorded as a draw"),
                },
            ),
        },
    ),
    "chicago": Entry(
        (),
        _l("Swedish game for two to four: two poker showdowns, five tricks, first past 52."),
        (
            _own("Chicago", DENEXA),
            _standard(_l("Standard poker ranking"), _l("finding the best of the hands shown as cards")),
            OWN,
        ),
        {
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "play_on": _l("equal highest scores at the end play another hand"),
                    "shared": _l("equal highest scores at the end share the win"),
                },
            ),
            "forfeit_rule": HouseRule(
                "forfeit",
                says={
                    "ends_game": _l("a forfeit ends the game and the best of the others wins"),
                    "player_out": _l("a player who forfeits leaves the game and the others play on"),
                },
            ),
        },
    ),
    "cuarenta": Entry(
        ("Forty",),
        _l("Ecuador's fishing game with a 40-card pack: caídas, limpias and rondas, first side to 40."),
        (
            _own(BOOK, _l("the chapter on Cuarenta (two and four players)")),
            _standard(
                _l("Other published Cuarenta descriptions"), _l("a ronda of three of a rank; the Ecuadorian card count")
            ),
            OWN,
        ),
        {
            "carton_rule": HouseRule(
                "carton",
                says={
                    "seed": _l("the card count gives 6 for 20 cards and 1 more for every two cards above"),
                    "ecuador": _l(
                        "the card count gives 6 for 20 cards and 1 more for every card above, rounded up to even"
                    ),
                },
            ),
            "ronda_by": HouseRule(
                "ronda",
                says={
                    "rank": _l("a ronda is three cards of one rank"),
                    "suit": _l("a ronda is three cards of one suit"),
                },
            ),
        },
    ),
    "frustration": Entry(
        (),
        _l("Hawaii's Aggravation: the rows are gathered up and laid again until a share is down to 10."),
        (
            _own(
                "Règles du jeu de cartes: California Speed",
                _l(
                    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
                    "Rory Barclay, Adam Fritz and Clint Okayama; its Frustration part, after Clint Okayama"
                ),
            ),
            OWN,
        ),
        {
            "games_to_win": SESSION,
            "share_check": HouseRule(
                "share-check",
                says={
                    "any_time": _l("a share of 10 or fewer may be shown at any moment"),
                    "at_regather": _l("shares are counted only when the rows are gathered up"),
                },
            ),
        },
    ),
    "gin_rummy": Entry(
        ("Gin",),
        _l("Two-player rummy: knock or go gin, undercuts and box bonuses, first to 100."),
        (
            _own(BOOK, _l("the chapter on Gin Rummy, which stops after the deal, the target and the card values")),
            _standard(_l("Standard published Gin Rummy"), _l("knocking, gin, the undercut and every bonus")),
        ),
        {
            "target": HouseRule("game-end", counted=game_points),
            # Translators: %(points)s is a number of points
            "gin_bonus": HouseRule(
                "gin", lambda points: _("a gin adds %(points)s to the defender's deadwood", points=points)
            ),
            # Translators: %(points)s is a number of points
            "undercut_bonus": HouseRule(
                "undercut", lambda points: _("an undercut adds %(points)s for the defender", points=points)
            ),
            # Translators: %(points)s is a number of points
            "game_bonus": HouseRule(
                "bonuses", lambda points: _("the winner of the game adds %(points)s", points=points)
            ),
            # Translators: %(points)s is a number of points
            "box_bonus": HouseRule(
                "bonuses", lambda points: _("each hand won adds %(points)s at the end", points=points)
            ),
            "shutout": HouseRule(
                "shutout",
                says={
                    "double_game_bonus": _l("a shutout doubles the winner's game bonus"),
                    "double_points": _l("a shutout doubles the winner's hand points"),
                    "none": _l("a shutout adds nothing"),
                },
            ),
        },
    ),
    "hasenpfeffer": Entry(
        (),
        _l("Euchre with a joker and bids of 1 to 6 tricks, for two partnerships; first to 10."),
        (_own("Hasenpfeffer", DENEXA), OWN),
        {
            "target": HouseRule("end", counted=game_points),
            "defenders_cannot_win_if_contract_made": HouseRule(
                "end",
                says={
                    False: _l("defenders who reach the target win, unless the declarers reached it too"),
                    True: _l("defenders win only when the declarers failed their contract"),
                },
            ),
        },
    ),
    "machiavelli": Entry(
        (),
        _l("Rummy for two to five with two packs, where every meld on the table can be rebuilt."),
        (_own("Machiavelli", DENEXA), OWN),
        {
            "games_to_win": SESSION,
            "stock_exhausted": HouseRule(
                "stock-exhausted",
                says={
                    "no_winner": _l("when the stock runs out, nobody wins that game"),
                    "fewest_cards": _l("when the stock runs out, the player holding the fewest cards wins"),
                },
            ),
        },
    ),
    "myllymatti": Entry(
        ("Skitgubbe", "Koira"),
        _l("Finnish three-player game: win cards in tricks, then shed them; the last one holding cards loses."),
        (
            _own("Myllymatti (Skitgubbe)", DENEXA),
            _standard(_l("Published Skitgubbe rules"), _l("the deal moving round after every game")),
            OWN,
        ),
        {
            "games_to_lose": HouseRule(
                "session",
                says={None: NO_SET_GAMES},
                counted=lambda n: ngettext(
                    "the session ends when a player has lost %(num)d game",
                    "the session ends when a player has lost %(num)d games",
                    n,
                ),
            )
        },
    ),
    "omi": Entry(
        ("Oombi",),
        _l("Sri Lankan partnership game with 32 cards: trumps named on four cards, first side to 10."),
        (_own("Omi", DENEXA), OWN),
        {
            "target": HouseRule("end", counted=game_points),
            "tie_bonus": HouseRule(
                "four-four",
                says={
                    "accumulate": _l("each 4-4 hand in a row adds 1 to the waiting bonus"),
                    "single": _l("the waiting 4-4 bonus stays at 1, however many ties in a row"),
                },
            ),
            "tie_bonus_on_all_eight": HouseRule(
                "all-eight",
                says={
                    True: _l("all eight tricks also collect a waiting 4-4 bonus"),
                    False: _l("all eight tricks score 3 and no more; a waiting bonus lapses"),
                },
            ),
        },
    ),
    "pluck": Entry(
        (),
        _l("Three players, seventeen tricks, quotas of 7, 6 and 4: tricks over quota score and pluck."),
        (_own("Pluck", DENEXA), OWN),
        {
            "target": HouseRule(
                "end",
                counted=lambda n: ngettext(
                    "the match ends once a player has %(num)d point",
                    "the match ends once a player has %(num)d points",
                    n,
                ),
            ),
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "play_on": _l("equal highest scores at the end play another hand"),
                    "shared": _l("equal highest scores at the end share the win"),
                },
            ),
        },
    ),
    "polignac": Entry(
        ("Quatre Valets", "Four Jacks"),
        _l("French trick game for three to six: avoid the jacks, above all the J♠; fewest points win."),
        (_own("Polignac", DENEXA), OWN),
        {
            "target": HouseRule(
                "end",
                counted=lambda n: ngettext(
                    "the match ends once someone has %(num)d penalty point",
                    "the match ends once someone has %(num)d penalty points",
                    n,
                ),
            ),
            "tie_at_end": HouseRule(
                "ties",
                says={
                    "shared": _l("equal lowest scores at the end share the win"),
                    "play_on": _l("equal lowest scores at the end play another hand"),
                },
            ),
        },
    ),
    "speed_tournament": Entry(
        ("California Speed tournament",),
        _l("David Rutter's knockout California Speed for two to five, with two packs."),
        (
            _own(
                "Règles du jeu de cartes: California Speed",
                _l(
                    "a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
                    "Rory Barclay, Adam Fritz and Clint Okayama; its tournament part"
                ),
            ),
            OWN,
        ),
        {},
    ),
    "tabletop_cribbage": Entry(
        (),
        _l("Two-player cribbage without pegging or crib: a five-by-five square, rows against columns."),
        (
            _own(BOOK, _l("the section on Tabletop Cribbage")),
            _standard(_l("Standard cribbage"), _l("how a line of five is counted; the targets of 121 and 61")),
            OWN,
        ),
        {"target": HouseRule("end", says={61: _l("a short game, to 61 points")}, counted=game_points)},
    ),
    "toepen": Entry(
        ("Tuppen", "Siwweschrööm", "Eifelpoker"),
        _l("Dutch knocking game for three to eight: only the last trick counts; lost tokens leave the game."),
        (_own("Toepen", DENEXA), OWN),
        {
            "starting_tokens": HouseRule("tokens", counted=starting_tokens),
            "elimination": HouseRule(
                "out",
                says={
                    False: _l("the first player to run out of tokens loses"),
                    True: _l("players who run out leave; the last one holding tokens wins"),
                },
            ),
            "allow_debt": HouseRule(
                "broke",
                says={
                    False: _l("a player who owes more than they hold pays what they have"),
                    True: _l("a player who owes more than they hold goes below 0"),
                },
            ),
        },
    ),
    "tresette": Entry(
        ("Tressette", "Tresetti"),
        _l("Italian partnership game with the 40-card pack: 3s and 2s beat aces, melds of A-2-3, first to 31."),
        (_own("Tresette", DENEXA), OWN),
        {
            "target": HouseRule("end", counted=game_points),
            "equal_at_target": HouseRule(
                "end",
                says={
                    "play_on": _l("both sides past the target with equal totals play another hand"),
                    "draw": _l("both sides past the target with equal totals make a draw"),
                },
            ),
        },
    ),
    "turnover_bridge": Entry(
        (),
        _l("Whist for two with most of each hand face up on the table; 14 tricks of 26 win."),
        (_own("Turnover Bridge", DENEXA), OWN),
        {"games_to_win": HouseRule("end", says={None: NO_SET_GAMES}, counted=session_games)},
    ),
}

EMPTY = Entry((), "", ())


def entry(key: str) -> Entry:
    """A game's card; a game the reference does not know yet has an empty one."""
    return CATALOG.get(key, EMPTY)


def option(game: Game, name: str) -> Field | None:
    return next((fld for fld in game.all_options if fld.name == name), None)


def option_title(fld: Field) -> str:
    """An option as the new-match form names it, in the page's language."""
    # The form asks the first dealer apart from the game's options, in its own words.
    return _("First dealer") if fld.name == "first_dealer" else declared_text(fld.question)


def value_label(game: Game, fld: Field, value: Any, players: Sequence[str] = ()) -> str:
    """An option's value as the new-match form shows it, in the page's language."""
    if fld.type == "seat" and isinstance(value, int):
        return players[value] if 0 <= value < len(players) else _("Seat %(number)s", number=value + 1)
    if value is None:
        # Translators: a house rule's value: no limit, nobody, not set ("none (usual) or 1 to 1000")
        return _("none")
    if isinstance(value, bool):
        # Translators: a house rule's value: switched on
        on = _("on")
        # Translators: a house rule's value: switched off
        return on if value else _("off")
    if fld.type == "choice" and isinstance(value, Hashable):
        own = VALUE_WORDS.get((game.key, fld.name, value))
        return str(own) if own else choice_text(value)
    return str(value)


def house_rule(game: Game, name: str) -> HouseRule:
    """Where an option is ruled; an option the catalog does not name points at the page's top."""
    if name == "first_dealer":
        return FIRST_DEALER
    return entry(game.key).house_rules.get(name) or HouseRule("glance")


def choices_in_words(game: Game, fld: Field) -> str:
    """An option's possible values in the form's words, the usual one first: "52 (usual) or 53"."""
    default = value_label(game, fld, fld.default)
    if fld.type == "choice":
        others = [value_label(game, fld, value) for value in fld.choices if value != fld.default]
        if fld.nullable and fld.default is not None:
            others.append(value_label(game, fld, None))
        if fld.nullable and fld.default is None:
            others = [value_label(game, fld, value) for value in fld.choices]
        return usual_or(default, any_of(others)) if others else default
    if fld.type == "bool":
        return usual_or(default, value_label(game, fld, not fld.default))
    if fld.min is not None and fld.max is not None:
        # Translators: the numbers an option takes, as in "20 (usual), or 1 to 1000"
        span = _("%(min)s to %(max)s", min=fld.min, max=fld.max)
    else:
        # Translators: what an option takes, as in "20 (usual), or a number"
        span = _("a number")
    if fld.default is None:
        return usual_or(default, span)
    # Translators: an option's usual number, then the numbers it takes: "20 (usual), or 1 to 1000"
    return _("%(usual)s (usual), or %(others)s", usual=default, others=span)


def usual_or(usual: str, others: str) -> str:
    # Translators: an option's usual value, then the others it takes: "52 (usual) or 53"; %(others)s is
    # one value, a span ("1 to 1000") or a list of values joined with "or" ("Count as win or Ignore")
    return _("%(usual)s (usual) or %(others)s", usual=usual, others=others)


def any_of(values: Sequence[str]) -> str:
    """Values joined as the page's language offers a choice: "A or B", "A, B o C"."""
    return format_list(list(values), style="or", locale=get_locale() or "en")
