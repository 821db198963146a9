"""The anniversary special cards (docs/rules.md, "Special cards"): their card ids, names and
what each asks its player to declare. The rules of play live in the engine.

A special card is a card id past the 60 of the plain deck, one id per card: a table that
plays some of them deals a deck of the 60 plus the chosen ones (``deck_cards``), so the
plain game's deck, shuffle and records are exactly what they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .cards import DECK_SIZE, SPECIAL_NAMES


class Special(IntEnum):
    """A special card, by its card id."""

    DRAGON = 60
    FAIRY = 61
    BOMB = 62
    WEREWOLF = 63
    JUGGLER = 64
    CLOUD = 65
    SHAPESHIFTER = 66
    WITCH = 67
    VAMPIRE = 68

    @property
    def wire_name(self) -> str:
        """The name in the rules' wire form and on the command line: ``dragon``, ..."""
        return self.name.lower()

    @property
    def short_name(self) -> str:
        """Three letters, as wide as the widest plain card name (``13S``)."""
        return SPECIAL_NAMES[self - DECK_SIZE][0]

    @classmethod
    def parse(cls, text: str) -> Special:
        key = text.strip().lower()
        for card in cls:
            if key in (card.wire_name, card.short_name.lower()):
                return card
        raise ValueError(f"not a special card: {text!r}")


SPECIALS = tuple(Special)
FIRST_SPECIAL = int(Special.DRAGON)
ALL_CARD_IDS = FIRST_SPECIAL + len(SPECIALS)  # every card id a game can hold: 0 .. 68
# The cards that go together or not at all (docs/rules.md, "Choosing them").
PAIRED = frozenset({Special.DRAGON, Special.FAIRY})


def is_special(card: int) -> bool:
    return FIRST_SPECIAL <= card < ALL_CARD_IDS


class Declaration(IntEnum):
    """What a player declares for a card as it plays it: a suit for the Juggler and the
    Cloud (``Suit`` values 0..3), Wizard or Jester for the Shapeshifter."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    WIZARD = 4
    JESTER = 5


SUIT_DECLARATIONS = (
    Declaration.CLUBS,
    Declaration.DIAMONDS,
    Declaration.HEARTS,
    Declaration.SPADES,
)
FORM_DECLARATIONS = (Declaration.WIZARD, Declaration.JESTER)


def deck_cards(specials: Iterable[Special] = ()) -> tuple[int, ...]:
    """The card ids a table deals: the 60 plain cards, then the chosen special cards in id
    order. Position i of a shuffled deck order (a permutation of ``range(len(...))``) is the
    card ``deck_cards(...)[i]``; with no special card that is the card id i itself."""
    return (*range(DECK_SIZE), *sorted(int(card) for card in set(specials)))


def parse_specials(text: str) -> frozenset[Special]:
    """A comma-separated list of special cards (``dragon,fairy,bomb``), ``all`` or ``none``."""
    key = text.strip().lower()
    if key in ("", "none"):
        return frozenset()
    if key == "all":
        return frozenset(SPECIALS)
    return frozenset(Special.parse(part) for part in key.split(","))
