"""The anniversary special cards in words (docs/rules.md, "Special cards"): their names, what
each does in one short line (the help), and the declarations a player makes for them.

Only words: what a card does at the table is the engine's. On the table a special card is
drawn with its three-letter ``Special.short_name`` (``DRG``), as wide as the widest plain
card (``13S``), the same in every language and under ``--ascii``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..game import Suit
from ..game.specials import SUIT_DECLARATIONS, Declaration, Special
from ..i18n import N_, _
from .glyphs import Glyphs, suit_name

# The cards' names, in the language spoken (the Wizard editions' own words).
NAMES = {
    Special.DRAGON: N_("Dragon"),
    Special.FAIRY: N_("Fairy"),
    Special.BOMB: N_("Bomb"),
    Special.WEREWOLF: N_("Werewolf"),
    Special.JUGGLER: N_("Juggler"),
    Special.CLOUD: N_("Cloud"),
    Special.SHAPESHIFTER: N_("Shapeshifter"),
    Special.WITCH: N_("Witch"),
    Special.VAMPIRE: N_("Vampire"),
}

# What each does, for the help: one line each, short enough for 60 columns after
# "  DRG Dragon: " (TRANSLATORS: 44 characters at most).
EFFECTS = {
    Special.DRAGON: N_("takes the trick over all, but a Fairy beats it"),
    Special.FAIRY: N_("lowest card; takes a trick with a Dragon in it"),
    Special.BOMB: N_("nobody takes its trick"),
    Special.WEREWOLF: N_("its holder takes the trump card, names trump"),
    Special.JUGGLER: N_("a named suit's 7.5; then all pass a card left"),
    Special.CLOUD: N_("a named suit's 9.75; its taker's bid goes 1 up/down"),
    Special.SHAPESHIFTER: N_("played as a Wizard or a Jester, as declared"),
    Special.WITCH: N_("may swap a hand card for one of its trick"),
    Special.VAMPIRE: N_("a copy of the card turned up at the deal"),
}


def special_name(card: Special) -> str:
    return _(NAMES[card])


def specials_words(specials: Iterable[Special]) -> str:
    """``Dragon, Fairy, Bomb`` (in card order), or ``none``."""
    chosen = sorted(specials)
    return ", ".join(special_name(card) for card in chosen) if chosen else _("none")


def declaration_label(choice: int, g: Glyphs) -> str:
    """A declaration as drawn in a panel: ``♥H hearts``, ``W Wizard``."""
    if choice == Declaration.WIZARD:
        return f"{card_letter(True, g)} " + _("Wizard")
    if choice == Declaration.JESTER:
        return f"{card_letter(False, g)} " + _("Jester")
    return g.suit(Suit(choice)) if choice in SUIT_DECLARATIONS else "?"


def declaration_mark(choice: int, g: Glyphs) -> str:
    """A declaration beside its card in the trick, one cell: ``♥`` (``H`` under ``--ascii``),
    or the Wizard's or Jester's letter."""
    if choice == Declaration.WIZARD:
        return card_letter(True, g)
    if choice == Declaration.JESTER:
        return card_letter(False, g)
    if choice not in SUIT_DECLARATIONS:  # (not a declaration: a host of another version)
        return "?"
    suit = Suit(choice)
    return suit.letter if g.ascii else suit.symbol


def declaration_class(choice: int) -> str:
    """The palette class a declaration is drawn in: its suit's, or the Wizard's/Jester's."""
    if choice == Declaration.WIZARD:
        return "card--wizard"
    if choice == Declaration.JESTER:
        return "card--jester"
    return f"card--{Suit(choice).label}" if choice in SUIT_DECLARATIONS else "text--muted"


def declaration_words(choice: int) -> str:
    """``hearts``, ``a Wizard``: what a declaration makes its card, for the log."""
    if choice == Declaration.WIZARD:
        return _("a Wizard")
    if choice == Declaration.JESTER:
        return _("a Jester")
    return suit_name(Suit(choice)) if choice in SUIT_DECLARATIONS else "?"


def card_letter(wizard: bool, g: Glyphs) -> str:
    """The Wizard's or the Jester's letter, as the table draws it (``--ascii`` folds it)."""
    return g.card(52 if wizard else 56)
