"""What the rules reference knows about each game besides its page: the other names tables use, a
line saying what the game is, the documents its page rests on, and where each house rule is ruled.

The search (search.py) and the index read the names and lines; the pages read the sources; a page
opened from a match (tables.py) and the new-match form read the house rules: each option's
section on the rules page and a sentence saying what the value chosen does at the table.

Option values are named as the new-match form names them (`value_label`), except where the form
still shows an internal word (`VALUE_WORDS`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games.base import Field, Game

# The rule documents, by their titles. Denexa Games publishes the how-to-play articles.
DENEXA = "a how-to-play article by Denexa Games"
FRENCH = ("a French rules page (read in machine translation), from information by Sam G. Ashley, David Rutter, "
          "Rory Barclay, Adam Fritz and Clint Okayama")
BOOK = "Ultimate Book of Card Games: The Comprehensive Guide to More Than 350 Games"


@dataclass(frozen=True)
class Source:
    """A document a page rests on (`title`, `what`), or the standard rules used where it is silent
    (`standard` true: `title` names them, `what` says what was taken)."""

    title: str
    what: str
    standard: bool = False


@dataclass(frozen=True)
class HouseRule:
    """Where an option is ruled (`anchor`: a section of the game's page) and what a value does at
    the table: `says[value]`, or `sentence` with the value in words for `{}`."""

    anchor: str
    sentence: str = "{}"
    says: Mapping[Any, str] = field(default_factory=dict)

    def sentence_for(self, value: Any, words: str) -> str:
        said = self.says.get(value) if isinstance(value, Hashable) else None
        return said or self.sentence.format(words)


@dataclass(frozen=True)
class Entry:
    """The rules reference's card for one game."""

    names: tuple[str, ...]  # other names tables use, in the reference and the search
    line: str  # what the game is, in one line
    sources: tuple[Source, ...]
    house_rules: Mapping[str, HouseRule] = field(default_factory=dict)


FIRST_DEALER = HouseRule("glance", "{} dealt the first hand")

SESSION = HouseRule("session", "the first player to win {} games takes the session", {
    None: "no set number of games: the session runs until the table presses Finish"})


def choice_label(value: Any) -> str:
    """How the new-match form names a choice (matches/widgets.py draws it the same way)."""
    return str(value).replace("_", " ").capitalize()


# Choices whose form label is still an internal word: the words the pages use instead.
VALUE_WORDS: dict[tuple[str, str, Any], str] = {
    ("cuarenta", "carton_rule", "seed"): "One for every two cards",
}


def _own(title: str, what: str) -> Source:
    return Source(title, what)


def _standard(title: str, what: str) -> Source:
    return Source(title, what, standard=True)


OWN = _standard("Scorekeeper's rulings", "where the documents are silent: each is marked on the page")

CATALOG: dict[str, Entry] = {
    "envite": Entry(
        ("Envite canario", "Canarian Envite"),
        "Canary Islands team game of three-card hands and raised stakes, played to 12 stones.",
        (_own("Envite", DENEXA), _standard("Canarian descriptions of the game",
                                           "the ceiling of 11 stones; match lengths other than best of three"), OWN),
        {"games_to_win": HouseRule("game-and-match", "the match goes to the first side to win {} games",
                                   {1: "one game decides the match"}),
         "trawl_bonus": HouseRule("trawling", "a failed trawl adds {} stones to the stake"),
         "trawl_bonus_in_lying_hand": HouseRule("lying-down", says={
             2: "a side lying down that fails a trawl gives the others 3 + 2 = 5 stones",
             0: "a side lying down that fails a trawl gives the others just 3 stones"})}),
    "court_piece": Entry(
        ("Rang", "Rung", "Coat Piece", "Coat Pees", "Kot Pees", "Hokm", "Seven Hands"),
        "Four-player partnership trick game from India and Pakistan, scored in courts.",
        (_own("Court Piece (Rang)", DENEXA),
         _standard("Published Court Piece descriptions", "the streak starting again after a court; who deals"), OWN),
        {"courts_to_win": HouseRule("end", "the first side to {} courts wins", {
            None: "no set number of courts: the table plays for an agreed time, then presses Finish"}),
         "court_hand_streak_policy": HouseRule("court-hands", says={
             "reset": "a first-seven or revoke court wipes out the running streak",
             "count_as_win": "a first-seven or revoke court also counts as a hand won on the streak",
             "ignore": "a first-seven or revoke court leaves the winners' own streak as it was"}),
         "all13_courts": HouseRule("all-thirteen", says={
             52: "all thirteen tricks are worth 52 courts in all",
             53: "all thirteen is worth 53: 52 on top of the first-seven court"})}),
    "poke": Entry(
        (),
        "Sid Sackson's two-player game: draw a poker hand, then play it out as five tricks.",
        (_own("Poke", DENEXA), _standard("Standard poker ranking", "comparing two hands of the same kind"), OWN),
        {"game_target": HouseRule("game", "a game is won at {} points below the line"),
         "game_bonus": HouseRule("game", "each game won adds {} above the line"),
         "rubber_bonus_2_1": HouseRule("rubber", "a rubber won 2–1 adds {}"),
         "rubber_bonus_2_0": HouseRule("rubber", "a rubber won 2–0 adds {}"),
         "sweep_bonus": HouseRule("sweep", "all five tricks add {} above the line")}),
    "schnapsen": Entry(
        ("Schnapser", "Snapszer"),
        "Austrian two-player game of the 20-card pack: reach 66 in a hand, 7 victory points in a game.",
        (_own("Schnapsen", DENEXA),
         _standard("pagat.com's Schnapsen rules", "how a close is measured, and the any-trick marriage"), OWN),
        {"target": HouseRule("game-end", "the game goes to {} victory points"),
         "fail_three_measured_at": HouseRule("failed-close", says={
             "close": "a failed close gives 3 when the other player had no trick at the moment of closing",
             "end": "a failed close gives 3 only when the other player had no trick at the end of the hand"}),
         "close_tally": HouseRule("closing", says={
             "points": "a good close is paid by the other player's points at the close, marriages included",
             "cards_only": "a good close is paid by the card points the other player had won by then"}),
         "marriage_credit": HouseRule("hand-score", says={
             "next_trick": "a marriage counts once its owner wins a trick after showing it",
             "any_trick": "a marriage counts as soon as its owner has any trick"})}),
    "aggravation": Entry(
        (),
        "Two-player race to cover pairs in an ever-growing layout; out of cards, call “Aggravation!”.",
        (_own("Aggravation", DENEXA), _own("Règles du jeu de cartes: California Speed", FRENCH), OWN),
        {"games_to_win": SESSION}),
    "botifarra": Entry(
        ("Butifarra",),
        "Catalan partnership trick game: 9s are top, no-trumps doubles, first side to 101.",
        (_own("Botifarra", DENEXA + " (its text breaks off in the part on doubling)"), OWN),
        {"target": HouseRule("end", "the game goes to {} points"),
         "multiplier_cap": HouseRule("multiplier", says={
             None: "no cap: a re-redoubled botifarra counts ×16",
             8: "no hand counts more than ×8"})}),
    "bura": Entry(
        ("Thirty-One", "Бура"),
        "Russian two-player game for a pot: claim 31 card points, or lead three trumps.",
        (_own("Bura", DENEXA), OWN),
        {"starting_tokens": HouseRule("tokens", "each player starts with {} tokens"),
         "false_declaration": HouseRule("false-declaration", says={
             "ends_hand": "a wrong claim ends the hand; the doubled pot waits for the next one",
             "play_on": "a wrong claim doubles the pot and the hand goes on"}),
         "next_dealer": HouseRule("dealer", says={
             "winner": "whoever took the pot deals the next hand",
             "alternate": "the deal changes hands after every hand"})}),
    "calabrasella": Entry(
        ("Calabresella", "Terziglio"),
        "Italian three-hander: one player against two, paid in chips by the points difference.",
        (_own("Calabrasella", DENEXA),
         _standard("An Italian description of Calabresella", "the set-aside cards going to the last trick"), OWN),
        {"set_aside_to": HouseRule("set-aside", says={
            "nobody": "the four cards set aside count for nobody",
            "last_trick": "the four cards set aside go to whoever takes the last trick"})}),
    "california_speed": Entry(
        ("Chinese Speed", "Chinese Spit", "Double Flip"),
        "Two players, no turns: cover matching cards in an eight-card box, first out wins.",
        (_own("California Speed", DENEXA), _own("Règles du jeu de cartes: California Speed", FRENCH), OWN),
        {"games_to_win": SESSION,
         "simultaneous_out": HouseRule("simultaneous-out", says={
             "replay": "when both go out together the game is played again",
             "draw": "when both go out together the game is recorded as a draw"})}),
    "chicago": Entry(
        (),
        "Swedish game for two to four: two poker showdowns, five tricks, first past 52.",
        (_own("Chicago", DENEXA), _standard("Standard poker ranking", "finding the best of the hands shown as cards"),
         OWN),
        {"tie_at_end": HouseRule("ties", says={
            "play_on": "equal highest scores at the end play another hand",
            "shared": "equal highest scores at the end share the win"}),
         "forfeit_rule": HouseRule("forfeit", says={
             "ends_game": "a forfeit ends the game and the best of the others wins",
             "player_out": "a player who forfeits leaves the game and the others play on"})}),
    "cuarenta": Entry(
        ("Forty",),
        "Ecuador's fishing game with a 40-card pack: caídas, limpias and rondas, first side to 40.",
        (_own(BOOK, "the chapter on Cuarenta (two and four players)"),
         _standard("Other published Cuarenta descriptions", "a ronda of three of a rank; the Ecuadorian card count"),
         OWN),
        {"carton_rule": HouseRule("carton", says={
            "seed": "the card count gives 6 for 20 cards and 1 more for every two cards above",
            "ecuador": "the card count gives 6 for 20 cards and 1 more for every card above, rounded up to even"}),
         "ronda_by": HouseRule("ronda", says={
             "rank": "a ronda is three cards of one rank",
             "suit": "a ronda is three cards of one suit"})}),
    "frustration": Entry(
        (),
        "Hawaii's Aggravation: the rows are gathered up and laid again until a share is down to 10.",
        (_own("Règles du jeu de cartes: California Speed", FRENCH + "; its Frustration part, after Clint Okayama"),
         OWN),
        {"games_to_win": SESSION,
         "share_check": HouseRule("share-check", says={
             "any_time": "a share of 10 or fewer may be shown at any moment",
             "at_regather": "shares are counted only when the rows are gathered up"})}),
    "gin_rummy": Entry(
        ("Gin",),
        "Two-player rummy: knock or go gin, undercuts and box bonuses, first to 100.",
        (_own(BOOK, "the chapter on Gin Rummy, which stops after the deal, the target and the card values"),
         _standard("Standard published Gin Rummy", "knocking, gin, the undercut and every bonus")),
        {"target": HouseRule("game-end", "the game goes to {} points"),
         "gin_bonus": HouseRule("gin", "a gin adds {} to the defender's deadwood"),
         "undercut_bonus": HouseRule("undercut", "an undercut adds {} for the defender"),
         "game_bonus": HouseRule("bonuses", "the winner of the game adds {}"),
         "box_bonus": HouseRule("bonuses", "each hand won adds {} at the end"),
         "shutout": HouseRule("shutout", says={
             "double_game_bonus": "a shutout doubles the winner's game bonus",
             "double_points": "a shutout doubles the winner's hand points",
             "none": "a shutout adds nothing"})}),
    "hasenpfeffer": Entry(
        (),
        "Euchre with a joker and bids of 1 to 6 tricks, for two partnerships; first to 10.",
        (_own("Hasenpfeffer", DENEXA), OWN),
        {"target": HouseRule("end", "the game goes to {} points"),
         "defenders_cannot_win_if_contract_made": HouseRule("end", says={
             False: "defenders who reach the target win, unless the declarers reached it too",
             True: "defenders win only when the declarers failed their contract"})}),
    "machiavelli": Entry(
        (),
        "Rummy for two to five with two packs, where every meld on the table can be rebuilt.",
        (_own("Machiavelli", DENEXA), OWN),
        {"games_to_win": SESSION,
         "stock_exhausted": HouseRule("stock-exhausted", says={
             "no_winner": "when the stock runs out, nobody wins that game",
             "fewest_cards": "when the stock runs out, the player holding the fewest cards wins"})}),
    "myllymatti": Entry(
        ("Skitgubbe", "Koira"),
        "Finnish three-player game: win cards in tricks, then shed them; the last one holding cards loses.",
        (_own("Myllymatti (Skitgubbe)", DENEXA),
         _standard("Published Skitgubbe rules", "the deal moving round after every game"), OWN),
        {"games_to_lose": HouseRule("session", "the session ends when a player has lost {} games", {
            None: "no set number of games: the session runs until the table presses Finish"})}),
    "omi": Entry(
        ("Oombi",),
        "Sri Lankan partnership game with 32 cards: trumps named on four cards, first side to 10.",
        (_own("Omi", DENEXA), OWN),
        {"target": HouseRule("end", "the game goes to {} points"),
         "tie_bonus": HouseRule("four-four", says={
             "accumulate": "each 4-4 hand in a row adds 1 to the waiting bonus",
             "single": "the waiting 4-4 bonus stays at 1, however many ties in a row"}),
         "tie_bonus_on_all_eight": HouseRule("all-eight", says={
             True: "all eight tricks also collect a waiting 4-4 bonus",
             False: "all eight tricks score 3 and no more; a waiting bonus lapses"})}),
    "pluck": Entry(
        (),
        "Three players, seventeen tricks, quotas of 7, 6 and 4: tricks over quota score and pluck.",
        (_own("Pluck", DENEXA), OWN),
        {"target": HouseRule("end", "the match ends once a player has {} points"),
         "tie_at_end": HouseRule("ties", says={
             "play_on": "equal highest scores at the end play another hand",
             "shared": "equal highest scores at the end share the win"})}),
    "polignac": Entry(
        ("Quatre Valets", "Four Jacks"),
        "French trick game for three to six: avoid the jacks, above all the J♠; fewest points win.",
        (_own("Polignac", DENEXA), OWN),
        {"target": HouseRule("end", "the match ends once someone has {} penalty points"),
         "tie_at_end": HouseRule("ties", says={
             "shared": "equal lowest scores at the end share the win",
             "play_on": "equal lowest scores at the end play another hand"})}),
    "speed_tournament": Entry(
        ("California Speed tournament",),
        "David Rutter's knockout California Speed for two to five, with two packs.",
        (_own("Règles du jeu de cartes: California Speed", FRENCH + "; its tournament part"), OWN),
        {}),
    "tabletop_cribbage": Entry(
        (),
        "Two-player cribbage without pegging or crib: a five-by-five square, rows against columns.",
        (_own(BOOK, "the section on Tabletop Cribbage"),
         _standard("Standard cribbage", "how a line of five is counted; the targets of 121 and 61"), OWN),
        {"target": HouseRule("end", "the game goes to {} points", {61: "a short game, to 61 points"})}),
    "toepen": Entry(
        ("Tuppen", "Siwweschrööm", "Eifelpoker"),
        "Dutch knocking game for three to eight: only the last trick counts; lost tokens leave the game.",
        (_own("Toepen", DENEXA), OWN),
        {"starting_tokens": HouseRule("tokens", "each player starts with {} tokens"),
         "elimination": HouseRule("out", says={
             False: "the first player to run out of tokens loses",
             True: "players who run out leave; the last one holding tokens wins"}),
         "allow_debt": HouseRule("broke", says={
             False: "a player who owes more than they hold pays what they have",
             True: "a player who owes more than they hold goes below 0"})}),
    "tresette": Entry(
        ("Tressette", "Tresetti"),
        "Italian partnership game with the 40-card pack: 3s and 2s beat aces, melds of A-2-3, first to 31.",
        (_own("Tresette", DENEXA), OWN),
        {"target": HouseRule("end", "the game goes to {} points"),
         "equal_at_target": HouseRule("end", says={
             "play_on": "both sides past the target with equal totals play another hand",
             "draw": "both sides past the target with equal totals make a draw"})}),
    "turnover_bridge": Entry(
        (),
        "Whist for two with most of each hand face up on the table; 14 tricks of 26 win.",
        (_own("Turnover Bridge", DENEXA), OWN),
        {"games_to_win": HouseRule("end", "the first player to win {} games takes the session", {
            None: "no set number of games: the session runs until the table presses Finish"})}),
}

EMPTY = Entry((), "", ())


def entry(key: str) -> Entry:
    """A game's card; a game the reference does not know yet has an empty one."""
    return CATALOG.get(key, EMPTY)


def option(game: Game, name: str) -> Field | None:
    return next((fld for fld in game.all_options if fld.name == name), None)


def value_label(game: Game, fld: Field, value: Any, players: Sequence[str] = ()) -> str:
    """An option's value as the new-match form shows it."""
    if fld.type == "seat" and isinstance(value, int):
        return players[value] if 0 <= value < len(players) else f"Seat {value + 1}"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if fld.type == "choice" and isinstance(value, Hashable):
        return VALUE_WORDS.get((game.key, fld.name, value)) or choice_label(value)
    return str(value)


def house_rule(game: Game, name: str) -> HouseRule:
    """Where an option is ruled; an option the catalog does not name points at the page's top."""
    if name == "first_dealer":
        return FIRST_DEALER
    return entry(game.key).house_rules.get(name) or HouseRule("glance", "{}")


def choices_in_words(game: Game, fld: Field) -> str:
    """An option's possible values in the form's words, the usual one first: "52 (usual) or 53"."""
    default = value_label(game, fld, fld.default)
    if fld.type == "choice":
        others = [value_label(game, fld, value) for value in fld.choices if value != fld.default]
        if fld.nullable and fld.default is not None:
            others.append("none")
        if fld.nullable and fld.default is None:
            others = [value_label(game, fld, value) for value in fld.choices]
        return f"{default} (usual) or {' or '.join(others)}" if others else default
    if fld.type == "bool":
        return f"{default} (usual) or {'off' if fld.default else 'on'}"
    span = f"{fld.min} to {fld.max}" if fld.min is not None and fld.max is not None else "a number"
    if fld.default is None:
        return f"none (usual) or {span}"
    return f"{default} (usual), or {span}"
