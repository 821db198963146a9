"""The trick rules with the special cards (docs/rules.md, "Special cards"): what each card is
once played, what it asks its player to declare, the led suit and who takes a trick.

Written plainly, one rule a function, as the section reads: ``SpecialGame`` (the engine of
a game with special cards) asks these for every card and every trick. Pure: no state.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from .cards import FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT
from .specials import FORM_DECLARATIONS, SUIT_DECLARATIONS, Special

# The led-suit markers (the engine's ``LED_OPEN`` and ``LED_WIZARD``, repeated here so that
# this module does not import the engine).
LED_OPEN = -1  # nothing has set the led suit yet: the next card may
LED_WIZARD = -2  # a Wizard or a Dragon came before any suit card: everyone plays freely


class Kind(IntEnum):
    """What a played card is in its trick, once read (a Juggler is a SUIT card, ...)."""

    SUIT = 0
    WIZARD = 1
    JESTER = 2
    DRAGON = 3
    FAIRY = 4
    BOMB = 5
    WITCH = 6


class Effect(IntEnum):
    """What a played card does after its trick ("After a trick")."""

    NONE = 0
    CLOUD = 1
    JUGGLER = 2
    WITCH = 3


# Ranks in quarters, so that the Juggler (7½) and the Cloud (9¾) fit between the plain ranks.
JUGGLER_RANK = 30  # 7½ × 4
CLOUD_RANK = 39  # 9¾ × 4


class Form(NamedTuple):
    """A played card as it counts in its trick."""

    kind: Kind
    suit: int = -1  # 0..3 for a SUIT card
    rank: int = 0  # a SUIT card's rank × 4 (quarters: see ``JUGGLER_RANK``)
    effect: Effect = Effect.NONE


# The cards whose copy a Vampire cannot make: it plays as a Jester then ("The Vampire").
_NOTHING_TO_COPY = (Special.WEREWOLF, Special.VAMPIRE)


def copied_card(card: int, turned: int | None) -> int:
    """The card a played ``card`` stands for: the turned-up card for a Vampire (a Jester's
    id when there is nothing to copy), ``card`` itself for every other card."""
    if card != Special.VAMPIRE:
        return card
    if turned is None or turned in _NOTHING_TO_COPY:
        return FIRST_JESTER
    return turned


def declaration_choices(card: int, turned: int | None) -> tuple[int, ...]:
    """What the player of ``card`` must declare once it is played: the four suits for a
    Juggler or a Cloud, Wizard or Jester for a Shapeshifter, as for the card a Vampire
    copies; nothing for any other card."""
    card = copied_card(card, turned)
    if card in (Special.JUGGLER, Special.CLOUD):
        return tuple(int(d) for d in SUIT_DECLARATIONS)
    if card == Special.SHAPESHIFTER:
        return tuple(int(d) for d in FORM_DECLARATIONS)
    return ()


def form_of(card: int, choice: int | None, turned: int | None) -> Form:
    """What ``card``, played (and declared ``choice`` if it asks for one), is in its trick;
    ``turned`` is the card turned up at the deal, which a Vampire copies."""
    card = copied_card(card, turned)
    if card < FIRST_WIZARD:
        return Form(Kind.SUIT, card // RANKS_PER_SUIT, 4 * (card % RANKS_PER_SUIT + 1))
    if card < FIRST_JESTER:
        return Form(Kind.WIZARD)
    if card < Special.DRAGON:
        return Form(Kind.JESTER)
    if card == Special.DRAGON:
        return Form(Kind.DRAGON)
    if card == Special.FAIRY:
        return Form(Kind.FAIRY)
    if card == Special.BOMB:
        return Form(Kind.BOMB)
    if card == Special.WITCH:
        return Form(Kind.WITCH, effect=Effect.WITCH)
    if card in (Special.JUGGLER, Special.CLOUD):
        if choice is None or not 0 <= choice < 4:
            raise ValueError(f"a {Special(card).name.lower()} needs a suit, not {choice!r}")
        if card == Special.JUGGLER:
            return Form(Kind.SUIT, choice, JUGGLER_RANK, Effect.JUGGLER)
        return Form(Kind.SUIT, choice, CLOUD_RANK, Effect.CLOUD)
    if card == Special.SHAPESHIFTER:
        if choice not in FORM_DECLARATIONS:
            raise ValueError(f"a shapeshifter is a Wizard or a Jester, not {choice!r}")
        return Form(Kind.WIZARD if choice == FORM_DECLARATIONS[0] else Kind.JESTER)
    # The Werewolf never goes into a trick; a Vampire copying it is a Jester (above).
    raise ValueError(f"card {card} is never played")


def led_of(forms: Sequence[Form]) -> int:
    """The led suit of a trick's cards so far: the first suit card's suit, ``LED_WIZARD``
    if a Wizard or a Dragon came before any suit card, else ``LED_OPEN``."""
    for form in forms:
        if form.kind is Kind.SUIT:
            return form.suit
        if form.kind in (Kind.WIZARD, Kind.DRAGON):
            return LED_WIZARD
    return LED_OPEN


def _first(forms: Sequence[Form], kind: Kind) -> int | None:
    for i, form in enumerate(forms):
        if form.kind is kind:
            return i
    return None


def taker_of(forms: Sequence[Form], trump: int) -> int:
    """The position (0 = the lead) of the card that takes the trick, by the four steps of
    "Who takes a trick", the Bombs set aside (``trump``: a suit, or -1 for none). With a
    Bomb in the trick nobody takes it, and this card's player leads next."""
    dragon = _first(forms, Kind.DRAGON)
    if dragon is not None:
        fairy = _first(forms, Kind.FAIRY)
        return fairy if fairy is not None else dragon
    wizard = _first(forms, Kind.WIZARD)
    if wizard is not None:
        return wizard
    suit_cards = [i for i, form in enumerate(forms) if form.kind is Kind.SUIT]
    if suit_cards:
        trumps = [i for i in suit_cards if forms[i].suit == trump]
        led = led_of(forms)
        pool = trumps or [i for i in suit_cards if forms[i].suit == led]
        best = pool[0]
        for i in pool[1:]:
            if forms[i].rank > forms[best].rank:  # strictly: of two equal cards, the first
                best = i
        return best
    for kind in (Kind.JESTER, Kind.FAIRY, Kind.WITCH):
        first = _first(forms, kind)
        if first is not None:
            return first
    raise ValueError("a trick of Bombs alone has no taker")  # never: n >= 3, Bombs <= 2


def is_bombed(forms: Sequence[Form]) -> bool:
    return any(form.kind is Kind.BOMB for form in forms)


# The trump a turned-up special card makes ("The trump card"): the dealer names a suit for
# the cards that rank or name a suit; no trump for those that rank nowhere.
DEALER_NAMES_TRUMP = frozenset(
    {
        Special.DRAGON,
        Special.WEREWOLF,
        Special.JUGGLER,
        Special.CLOUD,
        Special.SHAPESHIFTER,
        Special.VAMPIRE,
    }
)
NO_TRUMP_CARDS = frozenset({Special.FAIRY, Special.BOMB, Special.WITCH})


def dealer_names_trump(turned: int) -> bool:
    """Whether the turned-up card asks the dealer for a suit: a Wizard, or a special card
    that ranks or names a suit."""
    return FIRST_WIZARD <= turned < FIRST_JESTER or turned in DEALER_NAMES_TRUMP


def trump_of_turned(turned: int | None) -> int:
    """The trump suit a turned-up card makes by itself: its suit for a suit card, -1 (none,
    or not named yet) for everything else."""
    if turned is None or turned >= FIRST_WIZARD:
        return -1
    return turned // RANKS_PER_SUIT
