"""Card identities, suits and their names: the vocabulary every other module shares.

A card is an int 0..59 (``docs/fairness.md``): ``suit * 13 + rank - 1`` for the 52
suit cards, 52..55 the Wizards and 56..59 the Jesters. Ints keep the engine fast and
the wire format trivial; this module gives them names.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

DECK_SIZE = 60
FIRST_WIZARD = 52
FIRST_JESTER = 56
RANKS_PER_SUIT = 13

# The special cards' names (docs/rules.md, "Special cards"; ``specials.Special`` names the
# cards themselves): card id 60 + i is ``SPECIAL_NAMES[i]``, short and long.
SPECIAL_NAMES = (
    ("DRG", "Dragon"),
    ("FRY", "Fairy"),
    ("BMB", "Bomb"),
    ("WLF", "Werewolf"),
    ("JGL", "Juggler"),
    ("CLD", "Cloud"),
    ("SHP", "Shapeshifter"),
    ("WCH", "Witch"),
    ("VMP", "Vampire"),
)
ALL_CARDS = DECK_SIZE + len(SPECIAL_NAMES)  # card ids 0..68 name a card of some game


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accepts a name, a letter or a symbol: ``spades``, ``S``, ``♠``."""
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.label, suit.letter.lower(), suit.symbol):
                return suit
        raise ValueError(f"not a suit: {text!r}")


SUITS = tuple(Suit)


def is_wizard(card: int) -> bool:
    return FIRST_WIZARD <= card < FIRST_JESTER


def is_jester(card: int) -> bool:
    return FIRST_JESTER <= card < DECK_SIZE  # the special cards (60 and up) are not Jesters


def is_special_card(card: int) -> bool:
    """One of the anniversary special cards (ids 60..68; ``specials.Special``)."""
    return DECK_SIZE <= card < ALL_CARDS


def is_suit_card(card: int) -> bool:
    return card < FIRST_WIZARD


def suit_of(card: int) -> Suit | None:
    """The suit of a suit card; None for Wizards and Jesters."""
    return Suit(card // RANKS_PER_SUIT) if card < FIRST_WIZARD else None


def rank_of(card: int) -> int | None:
    """1..13 for a suit card (13 highest); None for Wizards and Jesters."""
    return card % RANKS_PER_SUIT + 1 if card < FIRST_WIZARD else None


def make_card(suit: Suit | int, rank: int) -> int:
    if not 1 <= rank <= RANKS_PER_SUIT:
        raise ValueError(f"rank must be 1..13, got {rank}")
    return int(suit) * RANKS_PER_SUIT + rank - 1


def check_card(card: object) -> int:
    if type(card) is not int or not 0 <= card < DECK_SIZE:
        raise ValueError(f"not a card id (0..59): {card!r}")
    return card


def _check_any_card(card: object) -> int:
    if type(card) is not int or not 0 <= card < ALL_CARDS:
        raise ValueError(f"not a card id (0..{ALL_CARDS - 1}): {card!r}")
    return card


def card_name(card: int, *, ascii_only: bool = False) -> str:
    """Short name: ``13S`` / ``13♠``, ``W`` for a Wizard, ``J`` for a Jester, three
    letters for a special card (``DRG``, ...; the same in ``ascii_only``).

    Ranks are shown as numbers (Wizard decks number 1..13), which keeps every
    card name at most three cells wide.
    """
    _check_any_card(card)
    if card >= DECK_SIZE:
        return SPECIAL_NAMES[card - DECK_SIZE][0]
    if is_wizard(card):
        return "W"
    if is_jester(card):
        return "J"
    suit = Suit(card // RANKS_PER_SUIT)
    glyph = suit.letter if ascii_only else suit.symbol
    return f"{card % RANKS_PER_SUIT + 1}{glyph}"


def long_card_name(card: int) -> str:
    """``13 of spades``, ``Wizard``, ``Jester``, ``Dragon``..."""
    _check_any_card(card)
    if card >= DECK_SIZE:
        return SPECIAL_NAMES[card - DECK_SIZE][1]
    if is_wizard(card):
        return "Wizard"
    if is_jester(card):
        return "Jester"
    return f"{rank_of(card)} of {Suit(card // RANKS_PER_SUIT).label}"


def parse_card(text: str) -> int:
    """Inverse of ``card_name`` for suit cards (``13S``, ``7♥``); ``W``/``J`` give the
    first Wizard/Jester (they are interchangeable)."""
    t = text.strip()
    if t.upper() == "W":
        return FIRST_WIZARD
    if t.upper() == "J":
        return FIRST_JESTER
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    suit = Suit.parse(t[-1])
    return make_card(suit, int(t[:-1]))


def sort_key(card: int) -> tuple[int, int]:
    """Hand order: Wizards first, then suits clubs..spades high to low, Jesters, then the
    special cards in id order."""
    if card >= DECK_SIZE:
        return (6, card)
    if is_wizard(card):
        return (0, card)
    if is_jester(card):
        return (5, card)
    return (1 + card // RANKS_PER_SUIT, -(card % RANKS_PER_SUIT))


def hand_order(trump: Suit | None) -> Callable[[int], tuple[int, int]]:
    """Hand order with trump: Wizards first, then the trump suit, then the other suits
    (clubs..spades), high to low, Jesters, then the special cards. Without trump:
    ``sort_key``."""
    if trump is None:
        return sort_key
    first = int(trump)

    def key(card: int) -> tuple[int, int]:
        if card >= DECK_SIZE:
            return (7, card)
        if is_wizard(card):
            return (0, card)
        if is_jester(card):
            return (6, card)
        suit = card // RANKS_PER_SUIT
        return (1 if suit == first else 2 + suit, -(card % RANKS_PER_SUIT))

    return key


def is_trump(card: int, trump: Suit | None) -> bool:
    """A card of the trump suit (Wizards and Jesters belong to no suit)."""
    return trump is not None and card < FIRST_WIZARD and card // RANKS_PER_SUIT == int(trump)
