"""Table words: what players say at the table, the game it belongs to and the section of that game's
rules page that explains it. The search finds a word here first; the glossary page lists them all.

A word that means something in two games (a widow, a knock, a sweep) has an entry for each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l


@dataclass(frozen=True)
class Term:
    """A word as players say it (it stays as said: the search looks it up), and what it means."""

    word: str
    game: str  # the game's key
    anchor: str  # a section of the game's rules page
    explained: Any  # a short meaning, in our own words (marked for the catalogs)

    @property
    def meaning(self) -> str:
        """The meaning, in the page's language."""
        return str(self.explained)


TERMS: tuple[Term, ...] = (
    # Envite
    Term("stone", "envite", "glance", _l("Envite's point. Twelve win a game; a score stops at 11 until then.")),
    Term("piedra", "envite", "glance", _l("A stone, Envite's point.")),
    Term("chico", "envite", "game-and-match", _l("One game of Envite, won at twelve stones.")),
    Term(
        "partida",
        "envite",
        "game-and-match",
        _l("A match of Envite: best of three chicos unless the table says otherwise."),
    ),
    Term(
        "tumbo",
        "envite",
        "lying-down",
        _l("A side on exactly 11 stones is de tumbo (lying down): no bidding, and a win takes the game."),
    ),
    Term(
        "lying down",
        "envite",
        "lying-down",
        _l("Sitting on 11 stones: the side may give the hand up for 1 stone or play it."),
    ),
    Term(
        "compulsory hand",
        "envite",
        "both-lying",
        _l("Both sides on 11: the hand must be played, and its winner takes the game."),
    ),
    Term(
        "trawl",
        "envite",
        "trawling",
        _l("Leading a trump: everyone must answer with a trump, or their side loses the hand."),
    ),
    Term("arrastre", "envite", "trawling", _l("A trawl: a trump led that everyone must answer.")),
    Term("envite", "envite", "stakes", _l("The challenge that raises a hand from 2 stones to 4.")),
    Term("captain", "envite", "stakes", _l("The one player on each team who speaks in the bidding.")),
    Term("game stake", "envite", "game-stake", _l("The last raise: the hand decides the whole game.")),
    # Court Piece
    Term(
        "court",
        "court_piece",
        "glance",
        _l(
            "Court Piece's only score: seven hands in a row, the first seven tricks of a "
            "hand, or the other side's revoke."
        ),
    ),
    Term(
        "streak", "court_piece", "streak", _l("The run of hands won in a row by one side; the seventh brings a court.")
    ),
    Term(
        "revoke",
        "court_piece",
        "revoke",
        _l("Not following suit when you could. Found later in the hand, it gives the other side a court."),
    ),
    Term("bavney", "court_piece", "all-thirteen", _l("All thirteen tricks in one hand: 52 courts.")),
    Term(
        "trump caller",
        "court_piece",
        "dealer",
        _l("The player after the dealer, who names trumps from the first five cards."),
    ),
    # Poke
    Term(
        "below the line", "poke", "tricks", _l("Poke's trick points: they decide games and are wiped after each one.")
    ),
    Term(
        "above the line",
        "poke",
        "honours",
        _l("Poke's lasting score: honours, sweeps and bonuses; it decides the match."),
    ),
    Term("honours", "poke", "honours", _l("Points above the line for the better poker hand.")),
    Term("stand pat", "poke", "the-draw", _l("Keep the five cards you were dealt: no draw.")),
    Term(
        "redouble",
        "poke",
        "the-draw",
        _l("In Poke, drawing a second time (the dealer: a third): the other player's tricks count four times."),
    ),
    Term("rubber", "poke", "rubber", _l("Poke's match: the first player to win two games.")),
    Term("sweep", "poke", "sweep", _l("In Poke, all five tricks: 250 above the line.")),
    # Schnapsen
    Term(
        "schneider",
        "schnapsen",
        "going-out",
        _l("An opponent held to 32 points or fewer: the hand is worth 2 victory points."),
    ),
    Term(
        "schwarz",
        "schnapsen",
        "going-out",
        _l("An opponent without a single trick: the hand is worth 3 victory points."),
    ),
    Term(
        "Bummerl", "schnapsen", "game-end", _l('A game of Schnapsen, to 7 victory points; the loser "gets a Bummerl".')
    ),
    Term("marriage", "schnapsen", "hand-score", _l("King and queen of one suit shown together: 20, or 40 in trumps.")),
    Term("royal marriage", "schnapsen", "hand-score", _l("A marriage in trumps: 40.")),
    Term("sixty-six", "schnapsen", "going-out", _l("The hand score that lets a player declare and end the hand.")),
    Term("talon", "schnapsen", "closing", _l("The stock. Closing it ends drawing, and the closer must then reach 66.")),
    Term("victory point", "schnapsen", "glance", _l("Schnapsen's score: 1, 2 or 3 a hand, 7 win the game.")),
    # Cuarenta
    Term(
        "caída", "cuarenta", "caida", _l("Catching the card just played by your opponent with one of the same rank: 2.")
    ),
    Term("limpia", "cuarenta", "limpia", _l("Clearing the table of cards: 2, but nothing from 38 up.")),
    Term("ronda", "cuarenta", "ronda", _l("Three cards of one rank dealt to one player: 4.")),
    Term(
        "cartón",
        "cuarenta",
        "carton",
        _l("The count of captured cards at the end of a round: 6 for 20 cards, more above."),
    ),
    Term("caída limpia", "cuarenta", "caida-limpia", _l("A caída that also clears the table: 4.")),
    # Gin Rummy
    Term("knock", "gin_rummy", "knock", _l("In Gin Rummy, laying down with 10 or less deadwood.")),
    Term("gin", "gin_rummy", "gin", _l("Laying down with every card matched: the defender's deadwood plus 25.")),
    Term(
        "undercut",
        "gin_rummy",
        "undercut",
        _l("The defender's deadwood at or below the knocker's: the defender scores."),
    ),
    Term("deadwood", "gin_rummy", "deadwood", _l("Cards in no set or run, counted at their values.")),
    Term("box", "gin_rummy", "bonuses", _l("A hand won; each is worth 25 at the end (also called a line bonus).")),
    Term("shutout", "gin_rummy", "shutout", _l("A game in which the loser won no hand.")),
    Term(
        "lay off",
        "gin_rummy",
        "recording",
        _l("The defender adding cards to the knocker's melds to cut their deadwood."),
    ),
    # Hasenpfeffer and Calabrasella
    Term(
        "widow",
        "hasenpfeffer",
        "bidding",
        _l("In Hasenpfeffer, the 25th card lying face down; the high bidder takes it."),
    ),
    Term("widow", "calabrasella", "set-aside", _l("In Calabrasella, the four cards the declarer may exchange with.")),
    Term(
        "bower",
        "hasenpfeffer",
        "glance",
        _l(
            "A jack promoted in trumps: the right bower (jack of trumps) and the left "
            "bower (the other jack of that colour)."
        ),
    ),
    Term(
        "joker", "hasenpfeffer", "bidding", _l("Hasenpfeffer's top trump; its holder must bid 3 when everyone passes.")
    ),
    Term("contract", "hasenpfeffer", "contract", _l("The winning bid: tricks the declarers must take.")),
    Term("void hand", "hasenpfeffer", "void", _l("Nobody bid and the joker was the widow card: nobody scores.")),
    # Tresette
    Term("napoli", "tresette", "melds", _l("Ace, 2 and 3 of one suit in one hand: 3 points (also called a nap).")),
    Term("good play", "tresette", "melds", _l("What a Tresette player says at the start to show a meld is held.")),
    Term("figures", "tresette", "captured", _l("The 2s, 3s and court cards taken in tricks: 1 point for every three.")),
    # Bura
    Term("bura", "bura", "bura", _l("Three trumps in one hand: led, its trick wins the hand and the pot.")),
    Term(
        "molodka",
        "bura",
        "bura",
        _l("Three cards of one plain suit, which may be led out of turn; it scores nothing itself."),
    ),
    Term(
        "claim",
        "bura",
        "declaring",
        _l("In Bura, saying your tricks hold 31 card points: right, you take the pot; wrong, you double it."),
    ),
    Term("ante", "bura", "ante", _l("The token each player puts in the pot before every hand.")),
    # Calabrasella
    Term("sweep", "calabrasella", "sweep", _l("In Calabrasella, 35 points to nothing: every payment is 70.")),
    # Chicago
    Term("showdown", "chicago", "showdowns", _l("After a draw, the best poker hand is found and scored.")),
    Term("forty-six", "chicago", "no-draw", _l("A player starting a hand on 46 or more may not change cards.")),
    # Polignac
    Term("Polignac", "polignac", "jacks", _l("The J♠: 2 penalty points to whoever takes it.")),
    # Pluck
    Term(
        "quota",
        "pluck",
        "quotas",
        _l("The tricks a player must take: 7 for the dealer, 6 on the left, 4 on the right."),
    ),
    Term("pluck", "pluck", "plucks", _l("A card exchange earned by each trick over quota in the last hand.")),
    Term("big joker", "pluck", "glance", _l("Pluck's top trump, above the little joker.")),
    # Toepen
    Term("toep", "toepen", "folding", _l("A knock in Toepen: the hand is worth one token more.")),
    Term("knock", "toepen", "folding", _l("In Toepen, raising the hand by one token; the others may fold.")),
    Term("fold", "toepen", "folding", _l("Giving up a Toepen hand after a knock: pay the value before the knock.")),
    Term(
        "vuile was",
        "toepen",
        "challenges",
        _l("A hand of only aces and court cards, swapped for four new cards; it may be challenged."),
    ),
    # Tabletop Cribbage
    Term("fifteen", "tabletop_cribbage", "count", _l("Cards adding up to 15: 2 points.")),
    Term("run", "tabletop_cribbage", "count", _l("Three or more cards in sequence: 1 point a card.")),
    Term(
        "nobs",
        "tabletop_cribbage",
        "count",
        _l("The jack of the starter's suit; it scores nothing in Tabletop Cribbage."),
    ),
    Term("skunk", "tabletop_cribbage", "end", _l("A big win counted double in cribbage; Tabletop Cribbage has none.")),
    # The race games
    Term("Aggravation!", "aggravation", "winning", _l("The call that wins: out of cards, touch a pair and shout it.")),
    Term("share", "frustration", "winning", _l("In Frustration, your pile plus your row; 10 or fewer wins.")),
    Term("final", "speed_tournament", "final", _l("The last round of the tournament, two players left.")),
    Term(
        "bounce",
        "myllymatti",
        "glance",
        _l("A tied trick in Myllymatti's first half: the cards stay and the same player leads."),
    ),
)


def by_word() -> list[Term]:
    """Every term in the order of its word, as a reader looks one up."""
    return sorted(TERMS, key=lambda term: (term.word.casefold(), term.game))
