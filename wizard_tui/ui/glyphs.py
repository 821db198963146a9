"""The characters the client draws with: one Unicode table and one ASCII table (``--ascii``).

Suits are always told apart by shape (symbol or letter), never by colour alone, and no
glyph here is wider than one cell: no emoji, no variation selectors.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass

from ..game import BLIND_CARD, Suit, card_name, is_jester, is_wizard
from ..game.specials import Special, is_special
from ..i18n import _, pgettext


@dataclass(frozen=True, slots=True)
class Glyphs:
    ascii: bool
    turn: str  # marks the seat on turn
    online: str
    offline: str
    winning: str  # points at the card winning the trick
    dot: str  # separator in one-line summaries
    bar: str  # vertical rule
    ok: str  # a verified round
    alarm: str  # a round that failed verification
    cursor: str  # above the selected card
    rule: str  # horizontal rule under a suit group in the hand
    trump_rule: str  # the same, under the trump suit's group
    dash: str  # an empty value
    sealed: str  # hidden bids: a seat's bid is sealed (not shown)
    more: str  # marks text cut short
    arrows: str  # the left and right arrow keys, in hints
    face_down: str = "###"  # a card its holder cannot see (a forehead round), three cells

    def card(self, card: int) -> str:
        """``13♠``, or the Wizard's and the Jester's letter in the language spoken, a special
        card's three letters (``DRG``); a card face down (``BLIND_CARD``: your own in a
        forehead round) as ``face_down``."""
        if card == BLIND_CARD:
            return self.face_down
        if is_special(card):  # ``DRG``: the same three letters in every language and look
            return Special(card).short_name
        if is_wizard(card) or is_jester(card):
            letter = wizard_letter() if is_wizard(card) else jester_letter()
            return ascii_fold(letter) if self.ascii else letter
        return card_name(card, ascii_only=self.ascii)

    def suit(self, suit: Suit) -> str:
        """``♥H hearts`` (symbol and letter), or ``H hearts`` in ASCII; the suit's name in
        the language spoken (the letters stay: they are the keys that name trump)."""
        if self.ascii:
            return f"{suit.letter} {suit_name(suit)}"
        return f"{suit.symbol}{suit.letter} {suit_name(suit)}"

    def suit_short(self, suit: Suit) -> str:
        return suit.letter if self.ascii else f"{suit.symbol}{suit.letter}"


UNICODE = Glyphs(
    ascii=False,
    turn="▶",
    online="●",
    offline="○",
    winning="◀",
    dot="·",
    bar="│",
    ok="✓",
    alarm="✗",
    cursor="▼",
    rule="─",
    trump_rule="═",
    dash="–",
    sealed="■",
    more="…",
    arrows="←/→",
    face_down="▒▒▒",
)

ASCII = Glyphs(
    ascii=True,
    turn=">",
    online="*",
    offline="o",
    winning="<",
    dot="-",
    bar="|",
    ok="ok",
    alarm="XX",
    cursor="v",
    rule="-",
    trump_rule="=",
    dash="-",
    sealed="#",
    more=".",
    arrows="left/right",
)


def glyphs_for(ascii_only: bool) -> Glyphs:
    """The table for the terminal, in the language spoken now (the ASCII arrows are words)."""
    return dataclasses.replace(ASCII, arrows=_("left/right")) if ascii_only else UNICODE


def suit_name(suit: Suit) -> str:
    """The suit's name in the language spoken (``suit.label`` stays the English one: the
    styles and the wire use it)."""
    names = (
        pgettext("suit", "clubs"),
        pgettext("suit", "diamonds"),
        pgettext("suit", "hearts"),
        pgettext("suit", "spades"),
    )
    return names[int(suit)]


def wizard_letter() -> str:
    # TRANSLATORS: the Wizard card's one-letter name on the table (Z for Zauberer...).
    return pgettext("card", "W")


def jester_letter() -> str:
    # TRANSLATORS: the Jester card's one-letter name on the table (N for Narr...).
    return pgettext("card", "J")


def ascii_fold(text: str) -> str:
    """``Č`` -> ``C``: accents dropped for ``--ascii`` (letters without one kept)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return folded or "?"


def clean(text: str, limit: int = 200) -> str:
    """Text from other players, made safe to draw: no control or format characters (so no
    escape sequences, no VS16 emoji presentation), no newlines, at most ``limit`` characters."""
    kept = []
    for ch in text[: limit * 2]:
        if ch in "\t\n\r":
            kept.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") or ch == "\ufe0f":
            continue
        else:
            kept.append(ch)
    return "".join(kept)[:limit]
