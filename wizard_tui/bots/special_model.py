"""The bots' reading of a trick with special cards in it (docs/rules.md, "Who takes a trick").

A bot weighing a card has to ask "would this take the trick so far, and what could still
beat it?" thousands of times a decision, far more often than it could afford to copy a game
and play the card on it. So each card in a trick is reduced to what it *is* there (its
effective form: a suit card with a rank, a Wizard, a Jester, a Dragon, ...) and the trick is
read from those forms, in the engine's order. This is a model for the bots' choices, not a
second rule book: the engine decides every real trick, and ``tests/bots/test_special_model.py``
checks this model against the engine's winner on every trick of whole random games.

Forms are small ints: a suit card is ``suit * 100 + 4 * rank`` (rank 1..13 for 2..Ace), so
the Juggler's 7½ of a suit is ``4 * 7 + 2`` and the Cloud's 9¾ is ``4 * 9 + 3``; the forms
without a suit are the constants below.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.cards import FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT
from ..game.special_tricks import copied_card, declaration_choices  # the engine's rule
from ..game.specials import Declaration, Special

WIZARD = 1000
DRAGON = 1001
JESTER = 1002
FAIRY = 1003
WITCH = 1004
BOMB = 1005
SUITLESS = WIZARD  # forms at or above this have no suit

JUGGLER_VALUE = 4 * 7 + 2  # between the 7 and the 8
CLOUD_VALUE = 4 * 9 + 3  # between the 9 and the 10

# Cards whose player declares something when playing them (the Vampire: when it copies one).
DECLARING = frozenset({int(Special.JUGGLER), int(Special.CLOUD), int(Special.SHAPESHIFTER)})


def suit_of_form(form: int) -> int:
    """The suit of a suit form, -1 for a form without one."""
    return form // 100 if form < SUITLESS else -1


def needs_declaration(card: int, turned: int | None) -> bool:
    return copied_card(card, turned) in DECLARING


def form_of(card: int, choice: int | None = None, turned: int | None = None) -> int:
    """What ``card`` is in a trick, declared ``choice`` (None: not yet declared; a card
    waiting for its declaration reads as the strongest it could be, which a bot never
    relies on)."""
    c = copied_card(card, turned)
    if c < FIRST_WIZARD:
        return (c // RANKS_PER_SUIT) * 100 + 4 * (c % RANKS_PER_SUIT + 1)
    if c < FIRST_JESTER:
        return WIZARD
    if c < 60:
        return JESTER
    if c == Special.DRAGON:
        return DRAGON
    if c == Special.FAIRY:
        return FAIRY
    if c == Special.BOMB:
        return BOMB
    if c == Special.WITCH:
        return WITCH
    if c == Special.SHAPESHIFTER:
        return JESTER if choice == Declaration.JESTER else WIZARD
    if c in (Special.JUGGLER, Special.CLOUD):
        suit = choice if choice is not None and 0 <= choice < 4 else 0
        return suit * 100 + (JUGGLER_VALUE if c == Special.JUGGLER else CLOUD_VALUE)
    return JESTER  # the Werewolf never reaches a trick


def led_suit(forms: Sequence[int]) -> int:
    """The led suit of a trick of these forms, -1 for none (yet)."""
    for f in forms:
        if f < SUITLESS:
            return f // 100
        if f in (WIZARD, DRAGON):
            return -1
    return -1


def winner_index(forms: Sequence[int], trump: int) -> int:
    """The index (in play order) of the card that takes the trick, or that would take it
    had no Bomb been played: the seat that leads next. ``trump`` -1 for none."""
    first_dragon = first_fairy = first_wizard = first_jester = first_witch = -1
    any_suit = False
    for i, f in enumerate(forms):
        if f < SUITLESS:
            any_suit = True
        elif f == DRAGON and first_dragon < 0:
            first_dragon = i
        elif f == FAIRY and first_fairy < 0:
            first_fairy = i
        elif f == WIZARD and first_wizard < 0:
            first_wizard = i
        elif f == JESTER and first_jester < 0:
            first_jester = i
        elif f == WITCH and first_witch < 0:
            first_witch = i
    if first_dragon >= 0:
        return first_fairy if first_fairy >= 0 else first_dragon
    if first_wizard >= 0:
        return first_wizard
    if any_suit:
        led = led_suit(forms)
        best = -1
        best_key = -1
        for i, f in enumerate(forms):
            if f >= SUITLESS:
                continue
            suit = f // 100
            if suit == trump:
                key = 1000 + f % 100
            elif suit == led:
                key = f % 100
            else:
                continue
            if key > best_key:  # strictly: of two equal cards the first played
                best, best_key = i, key
        return best
    for i in (first_jester, first_fairy, first_witch):
        if i >= 0:
            return i
    return 0


def bombed(forms: Sequence[int]) -> bool:
    return BOMB in forms


def threat_forms(card: int, trump: int, led: int, turned: int | None) -> tuple[int, ...]:
    """The forms an unseen ``card`` might take in the trick, its strongest first: a
    declarable card as the trump (or the led suit, or each suit) or a Wizard."""
    c = copied_card(card, turned)
    if c == Special.SHAPESHIFTER:
        return (WIZARD,)
    if c in (Special.JUGGLER, Special.CLOUD):
        suits = [s for s in (trump, led) if s >= 0] or [0]
        return tuple(form_of(c, s) for s in dict.fromkeys(suits))
    return (form_of(c, None, turned),)


__all__ = [
    "BOMB",
    "DRAGON",
    "FAIRY",
    "JESTER",
    "WITCH",
    "WIZARD",
    "bombed",
    "copied_card",
    "declaration_choices",
    "form_of",
    "led_suit",
    "needs_declaration",
    "suit_of_form",
    "threat_forms",
    "winner_index",
]


class TrickState:
    """The trick so far, read once, so that whether one more card would take it is a few
    tests (``would_take``): the playouts ask it for every legal card of every move."""

    __slots__ = ("best", "bombed", "dragon", "fairy", "jester", "led", "suits", "witch", "wizard")

    def __init__(self, forms: Sequence[int], trump: int) -> None:
        self.bombed = self.dragon = self.fairy = self.wizard = self.jester = False
        self.suits = self.witch = False
        self.led = led_suit(forms)
        self.best = -1  # the best key of a suit card so far (``key``)
        for f in forms:
            if f < SUITLESS:
                self.suits = True
                k = key(f, trump, self.led)
                if k > self.best:
                    self.best = k
            elif f == BOMB:
                self.bombed = True
            elif f == DRAGON:
                self.dragon = True
            elif f == FAIRY:
                self.fairy = True
            elif f == WIZARD:
                self.wizard = True
            elif f == JESTER:
                self.jester = True
            elif f == WITCH:
                self.witch = True

    def would_take(self, f: int, trump: int) -> bool:
        """Whether ``f`` played now becomes the card taking the trick (never in a bombed
        trick, and never for a Bomb)."""
        if self.bombed or f == BOMB:
            return False
        if self.dragon:
            return f == FAIRY and not self.fairy
        if f == DRAGON:
            return not self.fairy
        if self.wizard:
            return False
        if f == WIZARD:
            return True
        if f < SUITLESS:
            if not self.suits:
                return True
            return key(f, trump, self.led) > self.best
        if self.suits or self.jester:
            return False
        if f == JESTER:
            return True
        if f == FAIRY:
            return not self.fairy
        return not self.fairy and not self.witch  # the Witch: only first, and alone


def key(form: int, trump: int, led: int) -> int:
    """A suit form's strength in a trick led ``led``: trumps above the led suit, other
    suits nowhere (-1)."""
    suit = form // 100
    if suit == trump:
        return 1000 + form % 100
    if suit == led:
        return form % 100
    return -1
